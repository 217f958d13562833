//! The read every format maps to: an id, the raw signal, its calibration, and named, typed
//! fields.

use std::sync::Arc;

/// A read's calibration: picoamps = (adc + offset) * scale. POD5 stores `offset` and
/// `scale`; BLOW5 and FAST5 store `offset`, `range` and `digitisation` (scale = range /
/// digitisation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Calibration {
    /// Added to each ADC sample.
    pub offset: f32,
    /// Then multiplied by this.
    pub scale: f32,
}

impl Calibration {
    /// The calibration of slow5lib's and FAST5's fields: `(adc + offset) * range /
    /// digitisation`.
    ///
    /// ```
    /// let c = svb_model::Calibration::of_range(4.0, 1400.0, 8192.0);
    /// assert_eq!(c.scale, (1400.0f64 / 8192.0) as f32);
    /// ```
    pub fn of_range(offset: f64, range: f64, digitisation: f64) -> Calibration {
        Calibration { offset: offset as f32, scale: (range / digitisation) as f32 }
    }

    /// One sample in picoamps.
    #[inline]
    pub fn to_pa(self, adc: i16) -> f32 {
        (f32::from(adc) + self.offset) * self.scale
    }

    /// `adc` in picoamps into `out` (as many as the shorter of the two holds).
    ///
    /// ```
    /// let c = svb_model::Calibration { offset: 10.0, scale: 0.5 };
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
    /// Absent (a BLOW5 auxiliary field a record does not hold, a run a POD5 read lacks, an
    /// attribute an older FAST5 file does not have).
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

impl Value {
    /// `Some(x)` as a float, `None` as [`Value::None`].
    pub fn opt_f32(v: Option<f32>) -> Value {
        v.map_or(Value::None, |x| Value::Float(x.into()))
    }

    /// `Some(x)` as an unsigned integer, `None` as [`Value::None`].
    pub fn opt_u64(v: Option<u64>) -> Value {
        v.map_or(Value::None, Value::UInt)
    }
}

/// A read's fields by name, in the format's order (the names shared by every read of a
/// format: [`per_read_names`](crate::per_read_names)).
pub type Fields = Vec<(Arc<str>, Value)>;

/// A decoded read, whatever the file's format.
#[derive(Clone, Debug, PartialEq)]
pub struct Read {
    /// Its id (a UUID in POD5 and FAST5 files and in BLOW5 files of ONT reads).
    pub read_id: String,
    /// The raw ADC samples.
    pub signal: Vec<i16>,
    /// How the samples become picoamps.
    pub calibration: Calibration,
    /// Every other field by name, in the format's order ([`fields_of`](crate::fields_of),
    /// then a BLOW5 file's auxiliary fields).
    pub fields: Fields,
}

impl Read {
    /// The field `name`.
    pub fn field(&self, name: &str) -> Option<&Value> {
        self.fields.iter().find(|(k, _)| &**k == name).map(|(_, v)| v)
    }

    /// The signal in picoamps.
    pub fn signal_pa(&self) -> Vec<f32> {
        let mut pa = vec![0f32; self.signal.len()];
        self.calibration.pa_into(&self.signal, &mut pa);
        pa
    }
}

/// A read's id, samples and calibration, without its other fields
/// ([`ReadSource::signal`](crate::ReadSource::signal)).
#[derive(Clone, Debug, PartialEq)]
pub struct Signal {
    /// The read's id.
    pub read_id: String,
    /// The raw ADC samples.
    pub samples: Vec<i16>,
    /// How the samples become picoamps.
    pub calibration: Calibration,
}
