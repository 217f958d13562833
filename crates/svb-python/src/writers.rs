//! `svb.Pod5Writer` and `svb.Blow5Writer`: the library's writers from Python. Signals are
//! read in place from numpy arrays; every read is checked before anything of it is written;
//! the file keeps a hidden name until `finish` (or the end of a `with` block without an
//! exception), and a writer dropped unfinished leaves nothing behind.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Mutex;

use numpy::PyReadonlyArray1;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use svb_blow5::{AuxField, AuxValue, FieldType};
use svb_model::ReadSink;

use crate::errors::{chain, SvbError};

fn write_error(e: &(dyn std::error::Error + 'static)) -> PyErr {
    SvbError::new_err(chain(e))
}

fn closed() -> PyErr {
    PyValueError::new_err("the writer is finished")
}

/// BLOW5 record compression by its name.
pub fn record_compression(name: &str) -> PyResult<svb_blow5::RecordCompression> {
    Ok(match name {
        "zstd" => svb_blow5::RecordCompression::Zstd,
        "zlib" => svb_blow5::RecordCompression::Zlib,
        "none" => svb_blow5::RecordCompression::None,
        o => return Err(PyValueError::new_err(format!("records={o:?}: zstd, zlib or none"))),
    })
}

/// BLOW5 signal compression by its name.
pub fn signal_compression(name: &str) -> PyResult<svb_blow5::SignalCompression> {
    Ok(match name {
        "svb-zd" => svb_blow5::SignalCompression::SvbZd,
        "ex-zd" => svb_blow5::SignalCompression::ExZd,
        "none" => svb_blow5::SignalCompression::None,
        o => return Err(PyValueError::new_err(format!("signal={o:?}: svb-zd, ex-zd or none"))),
    })
}

/// Runs `write` on the open writer in `slot` with the GIL released (a closed one is an
/// error).
fn write_in<W: Send, E: std::error::Error + Send + 'static>(
    py: Python<'_>, slot: &Mutex<Option<W>>, write: impl FnOnce(&mut W) -> Result<(), E> + Send,
) -> PyResult<()> {
    let mut g = slot.lock().expect("not poisoned");
    let w = g.as_mut().ok_or_else(closed)?;
    py.detach(|| write(w)).map_err(|e| write_error(&e))
}

/// A writer's `finish`: takes it out of `slot` (later calls are errors) and finishes it with
/// the GIL released.
fn finish_in<W: ReadSink + Send>(py: Python<'_>, slot: &Mutex<Option<W>>) -> PyResult<u64> {
    let w = slot.lock().expect("not poisoned").take().ok_or_else(closed)?;
    py.detach(|| w.finish()).map_err(|e| write_error(&e))
}

/// A writer's `__exit__`: finishes it, or after an exception drops it (its partial file goes
/// with it).
fn exit_in<W: ReadSink + Send>(
    py: Python<'_>, slot: &Mutex<Option<W>>, exc: &Bound<'_, PyTuple>,
) -> PyResult<bool> {
    let failed = exc.get_item(0).map(|e| !e.is_none()).unwrap_or(false);
    if failed {
        slot.lock().expect("not poisoned").take();
    } else if slot.lock().expect("not poisoned").is_some() {
        finish_in(py, slot)?;
    }
    Ok(false)
}

/// Writes a POD5 file as ONT's pod5 0.3.49 writes it (VBZ chunks lib_pod5's bytes).
#[pyclass(module = "svb")]
pub struct Pod5Writer {
    inner: Mutex<Option<svb_pod5::Writer>>,
}

fn kw<'py, T: for<'a> FromPyObject<'a, 'py>>(
    kwargs: Option<&Bound<'py, PyDict>>, used: &mut Vec<String>, name: &str,
) -> PyResult<Option<T>> {
    let Some(k) = kwargs else { return Ok(None) };
    match k.get_item(name)? {
        Some(v) if !v.is_none() => {
            used.push(name.to_string());
            v.extract::<T>().map(Some).map_err(|e| {
                let e: PyErr = e.into();
                PyTypeError::new_err(format!("{name}: {e}"))
            })
        }
        Some(_) => {
            used.push(name.to_string());
            Ok(None)
        }
        None => Ok(None),
    }
}

/// A TypeError for every keyword not in `used`.
fn no_others(kwargs: Option<&Bound<'_, PyDict>>, used: &[String], what: &str) -> PyResult<()> {
    if let Some(k) = kwargs {
        for key in k.keys() {
            let key: String = key.extract()?;
            if !used.contains(&key) {
                return Err(PyTypeError::new_err(format!("{what} has no field {key}")));
            }
        }
    }
    Ok(())
}

/// A POD5 signal compression by name: "vbz", "pdz" or "uncompressed".
pub(crate) fn pod5_signal(name: &str) -> PyResult<svb_pod5::SignalEncoding> {
    match name {
        "vbz" => Ok(svb_pod5::SignalEncoding::Vbz),
        "pdz" => Ok(svb_pod5::SignalEncoding::Pdz),
        "uncompressed" => Ok(svb_pod5::SignalEncoding::Uncompressed),
        o => Err(PyValueError::new_err(format!(
            "signal={o:?}: \"vbz\", \"pdz\" or \"uncompressed\" for a POD5 output"
        ))),
    }
}

#[pymethods]
impl Pod5Writer {
    /// Opens `path` for writing. signal: "vbz" (default), "pdz" or "uncompressed"; decode_fast:
    /// zstd's raw-literals profile (larger, decoded faster by every reader); sync: sync the
    /// file before it is published under its name; force: replace a file at `path` (without
    /// it, an existing file, or one that appears while this one is written, is an error).
    #[new]
    #[pyo3(signature = (path, signal = "vbz", decode_fast = false, chunk_samples = 102400, sync = true, force = false))]
    fn new(
        path: PathBuf, signal: &str, decode_fast: bool, chunk_samples: usize, sync: bool,
        force: bool,
    ) -> PyResult<Self> {
        let options = svb_pod5::WriteOptions {
            signal_encoding: pod5_signal(signal)?,
            chunk_samples,
            zstd_profile: if decode_fast {
                svb_pod5::ZstdProfile::DecodeFast
            } else {
                svb_pod5::ZstdProfile::Standard
            },
            publish: publish(sync, force),
            ..svb_pod5::WriteOptions::default()
        };
        let w = svb_pod5::Writer::create(&path, options).map_err(|e| write_error(&e))?;
        Ok(Pod5Writer { inner: Mutex::new(Some(w)) })
    }

    /// Adds a run: `acquisition_id` and any field of POD5's run info (sample_rate, adc_min,
    /// adc_max, flow_cell_id, sample_id, experiment_name, protocol_run_id, ..., times in ms
    /// since the epoch, context_tags and tracking_id as dicts).
    #[pyo3(signature = (acquisition_id, **fields))]
    fn add_run_info(
        &self, acquisition_id: String, fields: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<()> {
        let mut used = Vec::new();
        let mut run = svb_pod5::RunInfo { acquisition_id, ..Default::default() };
        macro_rules! set {
            ($($f:ident),*) => {$(
                if let Some(v) = kw(fields, &mut used, stringify!($f))? { run.$f = v; }
            )*};
        }
        set!(
            acquisition_start_time_ms,
            adc_max,
            adc_min,
            experiment_name,
            flow_cell_id,
            flow_cell_product_code,
            protocol_name,
            protocol_run_id,
            protocol_start_time_ms,
            sample_id,
            sample_rate,
            sequencing_kit,
            sequencer_position,
            sequencer_position_type,
            software,
            system_name,
            system_type
        );
        for (name, target) in
            [("context_tags", &mut run.context_tags), ("tracking_id", &mut run.tracking_id)]
        {
            if let Some(map) = kw::<HashMap<String, String>>(fields, &mut used, name)? {
                let mut pairs: Vec<(String, String)> = map.into_iter().collect();
                pairs.sort();
                *target = pairs;
            }
        }
        no_others(fields, &used, "a run info")?;
        let mut g = self.inner.lock().expect("not poisoned");
        g.as_mut().ok_or_else(closed)?.add_run_info(&run).map_err(|e| write_error(&e))
    }

    /// Adds a read: its id (a UUID), its int16 signal, the acquisition id of its run (added
    /// first), and any field of a POD5 read (read_number, channel, well, start_sample,
    /// median_before, calibration_offset, calibration_scale, end_reason, pore_type, ...).
    #[pyo3(signature = (read_id, signal, run, **fields))]
    fn add_read(
        &self, py: Python<'_>, read_id: &str, signal: PyReadonlyArray1<'_, i16>, run: &str,
        fields: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<()> {
        let id = svb_pod5::parse_uuid(read_id)
            .ok_or_else(|| PyValueError::new_err(format!("read id {read_id:?} is not a UUID")))?;
        let mut read = svb_model::ont::ReadInfo::new(id, run);
        let mut used = Vec::new();
        macro_rules! set {
            ($($f:ident),*) => {$(
                if let Some(v) = kw(fields, &mut used, stringify!($f))? { read.$f = v; }
            )*};
        }
        set!(
            read_number,
            start_sample,
            median_before,
            channel,
            well,
            calibration_offset,
            calibration_scale,
            end_reason_forced
        );
        macro_rules! set_opt {
            ($($f:ident),*) => {$(
                if let Some(v) = kw(fields, &mut used, stringify!($f))? { read.$f = Some(v); }
            )*};
        }
        set_opt!(
            num_minknow_events,
            tracked_scaling_scale,
            tracked_scaling_shift,
            predicted_scaling_scale,
            predicted_scaling_shift,
            num_reads_since_mux_change,
            time_since_mux_change,
            open_pore_level,
            expected_open_pore_level,
            selected_read_level
        );
        if let Some(v) = kw::<u8>(fields, &mut used, "mux")? {
            read.well = v;
        }
        if let Some(v) = kw::<String>(fields, &mut used, "pore_type")? {
            read.pore_type = v.into();
        }
        if let Some(v) = kw::<String>(fields, &mut used, "end_reason")? {
            read.end_reason = v.into();
        }
        no_others(fields, &used, "a POD5 read")?;
        let samples = signal.as_slice()?;
        read.num_samples = samples.len() as u64;
        write_in(py, &self.inner, |w| w.add_read(&read, samples))
    }

    /// Writes the tables and the footer and gives the file its name; returns the reads written.
    fn finish(&self, py: Python<'_>) -> PyResult<u64> {
        finish_in(py, &self.inner)
    }

    fn __enter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// Finishes the file, or after an exception drops it (nothing is left behind).
    #[pyo3(signature = (*exc))]
    fn __exit__(&self, py: Python<'_>, exc: &Bound<'_, PyTuple>) -> PyResult<bool> {
        exit_in(py, &self.inner, exc)
    }
}

/// Writes a BLOW5 file (or SLOW5 text, by the path's extension) as slow5lib writes it.
#[pyclass(module = "svb")]
pub struct Blow5Writer {
    inner: Mutex<Option<svb_blow5::Writer>>,
    aux: Vec<AuxField>,
}

/// A C type as slow5lib names it in a header (`int32_t`, `char*`, `enum{a,b}`, ...).
fn field_type(t: &str) -> PyResult<FieldType> {
    FieldType::parse(t)
        .ok_or_else(|| PyValueError::new_err(format!("{t}: not a slow5lib field type")))
}

/// A Python value as the auxiliary value of a field of type `ty`.
fn aux_value(ty: &FieldType, v: &Bound<'_, PyAny>) -> PyResult<AuxValue> {
    Ok(match ty {
        FieldType::Scalar { name, .. } => match name.as_str() {
            "float" | "double" => AuxValue::Float(v.extract()?),
            "char" => {
                let s: String = v.extract()?;
                match s.as_bytes() {
                    [c] => AuxValue::Char(*c),
                    _ => return Err(PyValueError::new_err(format!("{s:?}: not one ASCII char"))),
                }
            }
            n if n.starts_with('u') => AuxValue::UInt(v.extract()?),
            _ => AuxValue::Int(v.extract()?),
        },
        FieldType::Array { name, size } => match name.as_str() {
            "char" => AuxValue::Text(v.extract()?),
            n => {
                let mut bytes = Vec::new();
                if n == "float" || n == "double" {
                    for x in v.extract::<Vec<f64>>()? {
                        if *size == 4 {
                            bytes.extend((x as f32).to_le_bytes());
                        } else {
                            bytes.extend(x.to_le_bytes());
                        }
                    }
                } else {
                    for x in v.extract::<Vec<i128>>()? {
                        bytes.extend(&x.to_le_bytes()[..*size]);
                    }
                }
                AuxValue::Array(bytes)
            }
        },
        FieldType::Enum(labels) => match v.extract::<String>() {
            Ok(label) => {
                let i = labels.iter().position(|l| *l == label).ok_or_else(|| {
                    PyValueError::new_err(format!("{label:?} is none of {labels:?}"))
                })?;
                AuxValue::Enum(i as u8, Some(label))
            }
            Err(_) => {
                let i: u8 = v.extract()?;
                AuxValue::Enum(i, labels.get(i as usize).cloned())
            }
        },
    })
}

#[pymethods]
impl Blow5Writer {
    /// Opens `path` for writing (SLOW5 text when it ends in .slow5, BLOW5 otherwise).
    /// read_groups: one dict of attributes per read group (at least one); aux: "standard"
    /// (slow5tools' auxiliary fields), "pod5" (those blue-crab writes), None, or a list of
    /// (name, C type) pairs; records: "zstd" (default), "zlib" or "none"; signal: "svb-zd"
    /// (default), "ex-zd" or "none" (BLOW5 only: SLOW5 text is not compressed); force:
    /// replace a file at `path` (without it, an existing file, or one that appears while this
    /// one is written, is an error).
    #[new]
    #[pyo3(signature = (path, read_groups, aux = None, records = None, signal = None, sync = true, force = false))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        path: PathBuf, read_groups: Vec<HashMap<String, String>>, aux: Option<&Bound<'_, PyAny>>,
        records: Option<&str>, signal: Option<&str>, sync: bool, force: bool,
    ) -> PyResult<Self> {
        let aux: Vec<AuxField> = match aux {
            None => Vec::new(),
            Some(a) => match a.extract::<String>() {
                Ok(s) if s == "standard" => svb_blow5::ont::standard_aux(),
                Ok(s) if s == "pod5" => svb_blow5::ont::pod5_aux(),
                Ok(s) => {
                    return Err(PyValueError::new_err(format!(
                        "aux={s:?}: \"standard\", \"pod5\", None or (name, type) pairs"
                    )))
                }
                Err(_) => a
                    .extract::<Vec<(String, String)>>()?
                    .into_iter()
                    .map(|(name, t)| Ok(AuxField { name, ty: field_type(&t)? }))
                    .collect::<PyResult<_>>()?,
            },
        };
        let groups = read_groups
            .into_iter()
            .map(|g| {
                let mut v: Vec<(String, String)> = g.into_iter().collect();
                v.sort();
                v
            })
            .collect();
        let schema = svb_blow5::Schema { read_groups: groups, aux: aux.clone() };
        let slow5 = svb_model::Format::of_extension(&path) == Some(svb_model::Format::Slow5);
        let options = match slow5 {
            true if records.is_some() || signal.is_some() => {
                return Err(PyValueError::new_err(format!(
                    "{}: SLOW5 text has no compression (records and signal are for .blow5)",
                    path.display()
                )))
            }
            true => svb_blow5::WriteOptions {
                publish: publish(sync, force),
                ..svb_blow5::WriteOptions::slow5()
            },
            false => svb_blow5::WriteOptions {
                record_compression: record_compression(records.unwrap_or("zstd"))?,
                signal_compression: signal_compression(signal.unwrap_or("svb-zd"))?,
                publish: publish(sync, force),
                ..svb_blow5::WriteOptions::default()
            },
        };
        let w = svb_blow5::Writer::create(&path, schema, options).map_err(|e| write_error(&e))?;
        Ok(Blow5Writer { inner: Mutex::new(Some(w)), aux })
    }

    /// Adds a record: its id, int16 signal, read group, calibration (pA = (adc + offset) *
    /// range / digitisation) and sampling rate, and every auxiliary field by name.
    #[pyo3(signature = (read_id, signal, read_group = 0, digitisation = 8192.0, offset = 0.0, range = 1.0, sampling_rate = 4000.0, **aux))]
    #[allow(clippy::too_many_arguments)]
    fn add_record(
        &self, py: Python<'_>, read_id: String, signal: PyReadonlyArray1<'_, i16>, read_group: u32,
        digitisation: f64, offset: f64, range: f64, sampling_rate: f64,
        aux: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<()> {
        let mut values = Vec::with_capacity(self.aux.len());
        let mut used = Vec::new();
        for field in &self.aux {
            let v =
                aux.map(|a| a.get_item(&field.name)).transpose()?.flatten().ok_or_else(|| {
                    PyValueError::new_err(format!(
                        "{read_id}: auxiliary field {} missing",
                        field.name
                    ))
                })?;
            used.push(field.name.clone());
            let value = aux_value(&field.ty, &v)
                .map_err(|e| PyValueError::new_err(format!("{read_id}: {}: {e}", field.name)))?;
            values.push((field.name.clone(), value));
        }
        no_others(aux, &used, "this file's records")?;
        let record = svb_blow5::Record {
            read_id,
            read_group,
            digitisation,
            offset,
            range,
            sampling_rate,
            raw_signal: signal.as_slice()?.to_vec(),
            aux: values,
        };
        write_in(py, &self.inner, |w| w.add_record(&record))
    }

    /// Writes what is left and the end-of-file marker and gives the file its name; returns
    /// the records written.
    fn finish(&self, py: Python<'_>) -> PyResult<u64> {
        finish_in(py, &self.inner)
    }

    fn __enter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// Finishes the file, or after an exception drops it (nothing is left behind).
    #[pyo3(signature = (*exc))]
    fn __exit__(&self, py: Python<'_>, exc: &Bound<'_, PyTuple>) -> PyResult<bool> {
        exit_in(py, &self.inner, exc)
    }
}

/// How a writer publishes its file: synced when `sync`, replacing one that exists when
/// `force`.
pub(crate) fn publish(sync: bool, force: bool) -> svb_pod5::Publish {
    svb_pod5::Publish { sync, on_existing: svb_pod5::OnExisting::replace_if(force) }
}
