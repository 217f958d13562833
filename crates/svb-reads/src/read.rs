//! The read model every format maps to: an id, the raw signal, its calibration, and named,
//! typed fields.

use std::sync::{Arc, LazyLock};

use svb_blow5::{AuxValue, FieldType, Header, Record};
use svb_pod5::RunInfo;

use crate::fields::{per_read, BLOW5_PRIMARY_FIELDS, FAST5_FIELDS, POD5_FIELDS};

/// A read's calibration: picoamps = (adc + offset) * scale. POD5 stores `offset` and
/// `scale`; BLOW5 stores `offset`, `range` and `digitisation` (scale = range / digitisation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Calibration {
    /// Added to each ADC sample.
    pub offset: f32,
    /// Then multiplied by this.
    pub scale: f32,
}

impl Calibration {
    /// One sample in picoamps.
    #[inline]
    pub fn to_pa(self, adc: i16) -> f32 {
        (f32::from(adc) + self.offset) * self.scale
    }

    /// `adc` in picoamps into `out` (as many as the shorter of the two holds).
    ///
    /// ```
    /// let c = svb_reads::Calibration { offset: 10.0, scale: 0.5 };
    /// let mut pa = [0f32; 3];
    /// c.pa_into(&[0, 2, -10], &mut pa);
    /// assert_eq!(pa, [5.0, 6.0, 0.0]);
    /// ```
    #[inline]
    pub fn pa_into(self, adc: &[i16], out: &mut [f32]) {
        for (o, &x) in out.iter_mut().zip(adc) {
            *o = self.to_pa(x);
        }
    }
}

/// A field's value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// Absent (a BLOW5 auxiliary field a record does not hold, a run a POD5 read lacks).
    None,
    /// A flag.
    Bool(bool),
    /// A signed integer.
    Int(i64),
    /// An unsigned integer.
    UInt(u64),
    /// A floating-point number.
    Float(f64),
    /// Text (enum fields by their label).
    Text(String),
    /// A list of integers.
    Ints(Vec<i64>),
    /// A list of floating-point numbers.
    Floats(Vec<f64>),
    /// Bytes of a type no format defines.
    Bytes(Vec<u8>),
}

/// A read's fields by name, in the format's order (the names shared by every read of a
/// format).
pub type Fields = Vec<(Arc<str>, Value)>;

/// A decoded read, whatever the file's format.
#[derive(Clone, Debug, PartialEq)]
pub struct Read {
    /// Its id (a UUID in POD5 and in BLOW5 files of ONT reads).
    pub read_id: String,
    /// The raw ADC samples.
    pub signal: Vec<i16>,
    /// How the samples become picoamps.
    pub calibration: Calibration,
    /// Every other field by name, in the format's order (see [`pod5_fields`] and
    /// [`blow5_fields`]).
    pub fields: Fields,
}

impl Read {
    /// The field `name`.
    pub fn field(&self, name: &str) -> Option<&Value> {
        self.fields
            .iter()
            .find(|(k, _)| &**k == name)
            .map(|(_, v)| v)
    }

    /// The signal in picoamps.
    pub fn signal_pa(&self) -> Vec<f32> {
        let mut pa = vec![0f32; self.signal.len()];
        self.calibration.pa_into(&self.signal, &mut pa);
        pa
    }
}

/// A read's id, samples and calibration, without its other fields
/// ([`AnyReader::signal`](crate::AnyReader::signal)).
#[derive(Clone, Debug, PartialEq)]
pub struct Signal {
    /// The read's id.
    pub read_id: String,
    /// The raw ADC samples.
    pub samples: Vec<i16>,
    /// How the samples become picoamps.
    pub calibration: Calibration,
}

/// The names of a POD5 read's fields (and of a BLOW5 record's primary ones), made once: every
/// read's field list shares them instead of allocating a name for each field of each read.
static POD5_NAMES: LazyLock<Vec<Arc<str>>> = LazyLock::new(|| names(per_read(&POD5_FIELDS)));
static BLOW5_PRIMARY_NAMES: LazyLock<Vec<Arc<str>>> =
    LazyLock::new(|| names(per_read(&BLOW5_PRIMARY_FIELDS)));
static FAST5_NAMES: LazyLock<Vec<Arc<str>>> = LazyLock::new(|| names(per_read(&FAST5_FIELDS)));

fn names<K>(fields: &[(&str, K)]) -> Vec<Arc<str>> {
    fields.iter().map(|(name, _)| Arc::from(*name)).collect()
}

fn opt_f32(v: Option<f32>) -> Value {
    v.map_or(Value::None, |x| Value::Float(x.into()))
}

fn opt_u64(v: Option<u64>) -> Value {
    v.map_or(Value::None, Value::UInt)
}

/// The fields of a POD5 read (and of its run, `None` when the file lacks it), in the order of
/// [`POD5_FIELDS`](crate::POD5_FIELDS) after `read_id` and `filename`; a value the file does
/// not hold (a run the file lacks, a field older files do not have) is [`Value::None`].
pub fn pod5_fields(read: &svb_pod5::Read, run: Option<&RunInfo>) -> Fields {
    let text = |get: fn(&RunInfo) -> &str| run.map_or(Value::None, |x| Value::Text(get(x).into()));
    // Samples as seconds at the run's rate.
    let seconds = |n: u64| match run.map_or(0, |r| r.sample_rate) {
        0 => Value::None,
        rate => Value::Float(n as f64 / f64::from(rate)),
    };
    per_read(&POD5_FIELDS)
        .iter()
        .zip(POD5_NAMES.iter())
        .map(|(&(name, _), key)| {
            let v = match name {
                "read_number" => Value::UInt(read.read_number.into()),
                "channel" => Value::UInt(read.channel.into()),
                "mux" => Value::UInt(read.well.into()),
                "end_reason" => Value::Text(read.end_reason.to_string()),
                "start_time" => seconds(read.start_sample),
                "start_sample" => Value::UInt(read.start_sample),
                "duration" => seconds(read.num_samples),
                "num_samples" => Value::UInt(read.num_samples),
                "minknow_events" => opt_u64(read.num_minknow_events),
                "sample_rate" => run.map_or(Value::None, |x| Value::UInt(x.sample_rate.into())),
                "median_before" => Value::Float(read.median_before.into()),
                "predicted_scaling_scale" => opt_f32(read.predicted_scaling_scale),
                "predicted_scaling_shift" => opt_f32(read.predicted_scaling_shift),
                "tracked_scaling_scale" => opt_f32(read.tracked_scaling_scale),
                "tracked_scaling_shift" => opt_f32(read.tracked_scaling_shift),
                "num_reads_since_mux_change" => {
                    opt_u64(read.num_reads_since_mux_change.map(u64::from))
                }
                "time_since_mux_change" => opt_f32(read.time_since_mux_change),
                "run_id" => text(|x| &x.protocol_run_id),
                "sample_id" => text(|x| &x.sample_id),
                "experiment_id" => text(|x| &x.experiment_name),
                "flow_cell_id" => text(|x| &x.flow_cell_id),
                "pore_type" => Value::Text(read.pore_type.to_string()),
                "open_pore_level" => opt_f32(read.open_pore_level),
                "expected_open_pore_level" => opt_f32(read.expected_open_pore_level),
                "selected_read_level" => opt_f32(read.selected_read_level),
                "calibration_offset" => Value::Float(read.calibration_offset.into()),
                "calibration_scale" => Value::Float(read.calibration_scale.into()),
                "end_reason_forced" => Value::Bool(read.end_reason_forced),
                "acquisition_id" => Value::Text(read.run_info.to_string()),
                other => unreachable!("{other} is not a POD5 field"),
            };
            (Arc::clone(key), v)
        })
        .collect()
}

/// The fields of a BLOW5 record: the primary fields ([`BLOW5_PRIMARY_FIELDS`](crate::BLOW5_PRIMARY_FIELDS) after `read_id`
/// and `filename`), then every auxiliary field by name
/// (arrays as lists of their C type, `char*` as text, enums by their label).
pub fn blow5_fields(header: &Header, rec: &Record) -> Fields {
    let mut fields: Fields = per_read(&BLOW5_PRIMARY_FIELDS)
        .iter()
        .zip(BLOW5_PRIMARY_NAMES.iter())
        .map(|(&(name, _), key)| {
            let v = match name {
                "read_group" => Value::UInt(rec.read_group.into()),
                "digitisation" => Value::Float(rec.digitisation),
                "offset" => Value::Float(rec.offset),
                "range" => Value::Float(rec.range),
                "sampling_rate" => Value::Float(rec.sampling_rate),
                "len_raw_signal" => Value::UInt(rec.raw_signal.len() as u64),
                other => unreachable!("{other} is not a BLOW5 primary field"),
            };
            (Arc::clone(key), v)
        })
        .collect();
    for (j, (name, v)) in rec.aux.iter().enumerate() {
        let ty = header.aux.get(j).map(|a| &a.ty);
        fields.push((name.as_str().into(), aux_value(ty, v)));
    }
    fields
}

/// A BLOW5 record's calibration: slow5lib's (adc + offset) * range / digitisation.
pub fn blow5_calibration(rec: &Record) -> Calibration {
    Calibration {
        offset: rec.offset as f32,
        scale: (rec.range / rec.digitisation) as f32,
    }
}

/// An auxiliary value as a [`Value`] of its field's type.
fn aux_value(ty: Option<&FieldType>, v: &AuxValue) -> Value {
    match v {
        AuxValue::Int(i) => Value::Int(*i),
        AuxValue::UInt(u) => Value::UInt(*u),
        AuxValue::Float(f) => Value::Float(*f),
        AuxValue::Text(t) => Value::Text(t.clone()),
        AuxValue::Char(c) => Value::Text(char::from(*c).to_string()),
        AuxValue::Enum(i, label) => label
            .as_ref()
            .map_or(Value::Int((*i).into()), |l| Value::Text(l.clone())),
        AuxValue::Array(b) => {
            let Some(FieldType::Array { name, size }) = ty else {
                return Value::Bytes(b.clone());
            };
            let items = b.chunks_exact((*size).max(1));
            match name.as_str() {
                "float" => Value::Floats(
                    items
                        .map(|c| f32::from_le_bytes(c.try_into().expect("4")).into())
                        .collect(),
                ),
                "double" => Value::Floats(
                    items
                        .map(|c| f64::from_le_bytes(c.try_into().expect("8")))
                        .collect(),
                ),
                n if n.starts_with("uint") || n.starts_with("int") => {
                    let signed = n.starts_with("int");
                    Value::Ints(
                        items
                            .map(|c| {
                                let mut le = [0u8; 8];
                                le[..c.len()].copy_from_slice(c);
                                let u = u64::from_le_bytes(le);
                                let bits = 8 * c.len() as u32;
                                if signed && bits < 64 {
                                    // Sign-extend from the item's width.
                                    ((u << (64 - bits)) as i64) >> (64 - bits)
                                } else {
                                    u as i64
                                }
                            })
                            .collect(),
                    )
                }
                _ => Value::Bytes(b.clone()),
            }
        }
    }
}

/// The fields of a FAST5 read, in the order of [`FAST5_FIELDS`](crate::FAST5_FIELDS) after
/// `read_id` and `filename`: an attribute the file does not hold (median before, end reason,
/// pore type in older files) is [`Value::None`]; an end reason by its label (its number where
/// no label names it).
pub fn fast5_fields(read: &svb_fast5::Read, num_samples: u64) -> Fields {
    let text = |s: &Option<String>| s.clone().map_or(Value::None, Value::Text);
    per_read(&FAST5_FIELDS)
        .iter()
        .zip(FAST5_NAMES.iter())
        .map(|(&(name, _), key)| {
            let v = match name {
                // int32 in the file; a negative one (no writer makes it) stays signed.
                "read_number" => u64::try_from(read.read_number)
                    .map_or(Value::Int(read.read_number), Value::UInt),
                "start_time" => Value::UInt(read.start_time),
                "duration" => Value::UInt(read.duration),
                "start_mux" => Value::UInt(read.start_mux),
                "median_before" => read.median_before.map_or(Value::None, Value::Float),
                "end_reason" => match &read.end_reason {
                    Some(e) => match (&e.label, e.value) {
                        (Some(label), _) => Value::Text(label.clone()),
                        (None, Some(v)) => Value::Text(v.to_string()),
                        (None, None) => Value::None,
                    },
                    None => Value::None,
                },
                "channel_number" => Value::Text(read.channel_number.clone()),
                "digitisation" => Value::Float(read.digitisation),
                "offset" => Value::Float(read.offset),
                "range" => Value::Float(read.range),
                "sampling_rate" => Value::Float(read.sampling_rate),
                "run_id" => Value::Text(read.run_id.clone()),
                "pore_type" => text(&read.pore_type),
                "num_samples" => Value::UInt(num_samples),
                other => unreachable!("{other} is not a FAST5 field"),
            };
            (Arc::clone(key), v)
        })
        .collect()
}

/// A FAST5 read's calibration: `(adc + offset) * range / digitisation`.
pub fn fast5_calibration(read: &svb_fast5::Read) -> Calibration {
    Calibration {
        offset: read.offset as f32,
        scale: (read.range / read.digitisation) as f32,
    }
}
