//! `svb.open(path)`: a POD5 or BLOW5 reader whose reads carry their signal as a numpy array
//! (decoded on rayon with the GIL released; the array owns the decoded buffer), its Arrow
//! stream, and `svb.convert`.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::mpsc::{channel, Receiver};
use std::sync::{Arc, Mutex, OnceLock};

use arrow_array::ffi_stream::FFI_ArrowArrayStream;
use arrow_array::{RecordBatch, RecordBatchReader};
use numpy::{PyArray1, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::{PyKeyError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyDict, PyList};
use pyo3::IntoPyObjectExt;
use rayon::prelude::*;
use svb_arrow::{Format, Options, ReadBatches, Signal};
use svb_blow5::{AuxValue, FieldType};

use crate::errors::{chain, file_error};

/// An open file.
enum File {
    Pod5(svb_pod5::Reader),
    Blow5 {
        r: svb_blow5::Reader,
        /// Read id -> record, built on the first lookup by id.
        index: OnceLock<Result<svb_blow5::Index, String>>,
    },
}

/// A field's value, made without the GIL.
enum Value {
    None,
    Bool(bool),
    Int(i64),
    UInt(u64),
    Float(f64),
    Text(String),
    Ints(Vec<i64>),
    Floats(Vec<f64>),
    Bytes(Vec<u8>),
}

impl Value {
    fn to_py<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match self {
            Value::None => Ok(py.None().into_bound(py)),
            Value::Bool(b) => b.into_bound_py_any(py),
            Value::Int(i) => i.into_bound_py_any(py),
            Value::UInt(u) => u.into_bound_py_any(py),
            Value::Float(f) => f.into_bound_py_any(py),
            Value::Text(t) => t.into_bound_py_any(py),
            Value::Ints(v) => v.into_bound_py_any(py),
            Value::Floats(v) => v.into_bound_py_any(py),
            Value::Bytes(b) => pyo3::types::PyBytes::new(py, b).into_bound_py_any(py),
        }
    }
}

/// A read decoded without the GIL: what becomes a `Read`.
struct Decoded {
    read_id: String,
    signal: Vec<i16>,
    fields: Vec<(String, Value)>,
    /// pA = (adc + offset) * scale.
    offset: f32,
    scale: f32,
}

fn opt_f32(v: Option<f32>) -> Value {
    v.map_or(Value::None, |x| Value::Float(x.into()))
}

fn opt_u64(v: Option<u64>) -> Value {
    v.map_or(Value::None, Value::UInt)
}

impl File {
    fn len(&self) -> usize {
        match self {
            File::Pod5(r) => r.len(),
            File::Blow5 { r, .. } => r.len(),
        }
    }

    fn format(&self) -> &'static str {
        match self {
            File::Pod5(_) => "pod5",
            File::Blow5 { .. } => "blow5",
        }
    }

    /// Read `i`'s id, signal and fields.
    fn decode(&self, i: usize) -> Result<Decoded, String> {
        match self {
            File::Pod5(r) => {
                let read = &r.reads()[i];
                let signal = r.decode_signal(i).map_err(|e| chain(&e))?;
                let run = r.run_info_of(read);
                let rate = run.map_or(0, |x| x.sample_rate);
                let text = |get: fn(&svb_pod5::RunInfo) -> &str| {
                    run.map_or(Value::None, |x| Value::Text(get(x).to_string()))
                };
                let fields = vec![
                    ("read_number", Value::UInt(read.read_number.into())),
                    ("channel", Value::UInt(read.channel.into())),
                    ("mux", Value::UInt(read.well.into())),
                    ("end_reason", Value::Text(read.end_reason.to_string())),
                    ("end_reason_forced", Value::Bool(read.end_reason_forced)),
                    ("start_sample", Value::UInt(read.start_sample)),
                    ("num_samples", Value::UInt(read.num_samples)),
                    ("median_before", Value::Float(read.median_before.into())),
                    (
                        "calibration_offset",
                        Value::Float(read.calibration_offset.into()),
                    ),
                    (
                        "calibration_scale",
                        Value::Float(read.calibration_scale.into()),
                    ),
                    ("pore_type", Value::Text(read.pore_type.to_string())),
                    ("acquisition_id", Value::Text(read.run_info.to_string())),
                    ("run_id", text(|x| &x.protocol_run_id)),
                    ("sample_id", text(|x| &x.sample_id)),
                    ("experiment_id", text(|x| &x.experiment_name)),
                    ("flow_cell_id", text(|x| &x.flow_cell_id)),
                    ("sample_rate", Value::UInt(rate.into())),
                    ("minknow_events", opt_u64(read.num_minknow_events)),
                    (
                        "predicted_scaling_scale",
                        opt_f32(read.predicted_scaling_scale),
                    ),
                    (
                        "predicted_scaling_shift",
                        opt_f32(read.predicted_scaling_shift),
                    ),
                    ("tracked_scaling_scale", opt_f32(read.tracked_scaling_scale)),
                    ("tracked_scaling_shift", opt_f32(read.tracked_scaling_shift)),
                    (
                        "num_reads_since_mux_change",
                        opt_u64(read.num_reads_since_mux_change.map(u64::from)),
                    ),
                    ("time_since_mux_change", opt_f32(read.time_since_mux_change)),
                    ("open_pore_level", opt_f32(read.open_pore_level)),
                    (
                        "expected_open_pore_level",
                        opt_f32(read.expected_open_pore_level),
                    ),
                    ("selected_read_level", opt_f32(read.selected_read_level)),
                ];
                Ok(Decoded {
                    read_id: read.read_id_string(),
                    signal,
                    fields: fields
                        .into_iter()
                        .map(|(k, v)| (k.to_string(), v))
                        .collect(),
                    offset: read.calibration_offset,
                    scale: read.calibration_scale,
                })
            }
            File::Blow5 { r, .. } => {
                let rec = r
                    .record(i)
                    .expect("index in range")
                    .map_err(|e| chain(&e))?;
                Ok(blow5_decoded(r.header(), rec))
            }
        }
    }

    /// The index of read `id`.
    fn find(&self, id: &str) -> Result<Option<usize>, String> {
        match self {
            File::Pod5(r) => Ok(r.find(id)),
            File::Blow5 { r, index } => {
                let index = index
                    .get_or_init(|| svb_blow5::Index::build(r).map_err(|e| chain(&e)))
                    .as_ref()
                    .map_err(Clone::clone)?;
                Ok(index
                    .get(id)
                    .and_then(|(offset, size)| r.record_at(offset, size)))
            }
        }
    }

    fn read_ids(&self) -> Result<Vec<String>, String> {
        match self {
            File::Pod5(r) => Ok(r
                .reads()
                .iter()
                .map(svb_pod5::Read::read_id_string)
                .collect()),
            File::Blow5 { r, .. } => (0..r.len())
                .into_par_iter()
                .map(|i| r.read_id(i).expect("index in range").map_err(|e| chain(&e)))
                .collect(),
        }
    }
}

/// A BLOW5 record as a decoded read: the primary fields, then every auxiliary field by name
/// (arrays as lists of their C type, enums as their label).
fn blow5_decoded(header: &svb_blow5::Header, rec: svb_blow5::Record) -> Decoded {
    let mut fields = vec![
        ("read_group".to_string(), Value::UInt(rec.read_group.into())),
        ("digitisation".to_string(), Value::Float(rec.digitisation)),
        ("offset".to_string(), Value::Float(rec.offset)),
        ("range".to_string(), Value::Float(rec.range)),
        ("sampling_rate".to_string(), Value::Float(rec.sampling_rate)),
        (
            "len_raw_signal".to_string(),
            Value::UInt(rec.raw_signal.len() as u64),
        ),
    ];
    for (j, (name, v)) in rec.aux.into_iter().enumerate() {
        let ty = header.aux.get(j).map(|a| &a.ty);
        fields.push((name, aux_value(ty, v)));
    }
    Decoded {
        read_id: rec.read_id,
        signal: rec.raw_signal,
        fields,
        offset: rec.offset as f32,
        scale: (rec.range / rec.digitisation) as f32,
    }
}

fn aux_value(ty: Option<&FieldType>, v: AuxValue) -> Value {
    match v {
        AuxValue::Int(i) => Value::Int(i),
        AuxValue::UInt(u) => Value::UInt(u),
        AuxValue::Float(f) => Value::Float(f),
        AuxValue::Text(t) => Value::Text(t),
        AuxValue::Char(c) => Value::Text(char::from(c).to_string()),
        AuxValue::Enum(i, label) => label.map_or(Value::Int(i.into()), Value::Text),
        AuxValue::Array(b) => {
            let Some(FieldType::Array { name, size }) = ty else {
                return Value::Bytes(b);
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
                _ => Value::Bytes(b),
            }
        }
    }
}

/// A read: its id, its signal (a numpy int16 array), and its fields as attributes
/// (`read.channel`, `read.end_reason`, ...; `read.fields` holds them all).
#[pyclass(module = "svb", frozen)]
pub struct Read {
    #[pyo3(get)]
    read_id: String,
    #[pyo3(get)]
    signal: Py<PyArray1<i16>>,
    #[pyo3(get)]
    fields: Py<PyDict>,
    offset: f32,
    scale: f32,
}

impl Read {
    fn new(py: Python<'_>, d: Decoded) -> PyResult<Read> {
        let fields = PyDict::new(py);
        for (k, v) in &d.fields {
            fields.set_item(k, v.to_py(py)?)?;
        }
        Ok(Read {
            read_id: d.read_id,
            // The decoded buffer becomes the array's: no copy.
            signal: PyArray1::from_vec(py, d.signal).unbind(),
            fields: fields.unbind(),
            offset: d.offset,
            scale: d.scale,
        })
    }
}

#[pymethods]
impl Read {
    /// The signal in picoamps: (adc + offset) * scale, float32.
    fn signal_pa<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let s = self.signal.bind(py).readonly();
        let (offset, scale) = (self.offset, self.scale);
        let pa: Vec<f32> = s
            .as_slice()?
            .iter()
            .map(|&x| (f32::from(x) + offset) * scale)
            .collect();
        Ok(PyArray1::from_vec(py, pa))
    }

    /// Samples in the signal.
    #[getter]
    fn num_samples(&self, py: Python<'_>) -> usize {
        self.signal.bind(py).len()
    }

    fn __getattr__<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyAny>> {
        match self.fields.bind(py).get_item(name)? {
            Some(v) => Ok(v),
            None => Err(pyo3::exceptions::PyAttributeError::new_err(format!(
                "a read has no field {name}"
            ))),
        }
    }

    fn __len__(&self, py: Python<'_>) -> usize {
        self.num_samples(py)
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "<svb.Read {} with {} samples>",
            self.read_id,
            self.num_samples(py)
        )
    }
}

/// An open POD5 or BLOW5 file (see `svb.open`).
#[pyclass(module = "svb", frozen)]
pub struct Reader {
    file: Arc<File>,
    path: PathBuf,
    pool: Option<Arc<rayon::ThreadPool>>,
}

impl Reader {
    /// Runs `f` on the reader's thread pool (or rayon's global one).
    fn install<R: Send>(&self, f: impl FnOnce() -> R + Send) -> R {
        match &self.pool {
            Some(p) => p.install(f),
            None => f(),
        }
    }

    fn decode_many(&self, py: Python<'_>, indices: &[usize]) -> PyResult<Vec<Read>> {
        let file = &self.file;
        let decoded: Result<Vec<Decoded>, String> = py.detach(|| {
            self.install(|| {
                indices
                    .par_iter()
                    .with_max_len(1)
                    .map(|&i| file.decode(i))
                    .collect()
            })
        });
        let decoded = decoded.map_err(crate::errors::FileFormatError::new_err)?;
        decoded.into_iter().map(|d| Read::new(py, d)).collect()
    }
}

/// A pool of `threads` decoding threads (`None`: rayon's global pool, every core).
fn pool_of(threads: Option<usize>) -> PyResult<Option<Arc<rayon::ThreadPool>>> {
    threads
        .map(|n| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(n)
                .build()
                .map(Arc::new)
                .map_err(|e| PyValueError::new_err(e.to_string()))
        })
        .transpose()
}

/// Opens a POD5 or BLOW5 file (the format from its first bytes). `threads` decode threads
/// (default: every core).
#[pyfunction]
#[pyo3(signature = (path, threads = None))]
pub fn open(py: Python<'_>, path: PathBuf, threads: Option<usize>) -> PyResult<Reader> {
    // A file the OS refuses is its own OSError (FileNotFoundError, PermissionError, ...).
    if let Err(e) = std::fs::File::open(&path) {
        use pyo3::exceptions::{PyFileNotFoundError, PyOSError, PyPermissionError};
        let msg = format!("{}: {e}", path.display());
        return Err(match e.kind() {
            std::io::ErrorKind::NotFound => PyFileNotFoundError::new_err(msg),
            std::io::ErrorKind::PermissionDenied => PyPermissionError::new_err(msg),
            _ => PyOSError::new_err(msg),
        });
    }
    let file = py.detach(|| -> Result<File, String> {
        match Format::detect(&path).map_err(|e| chain(&e))? {
            Format::Pod5 => Ok(File::Pod5(
                svb_pod5::Reader::open(&path).map_err(|e| chain(&e))?,
            )),
            Format::Blow5 => {
                let r = svb_blow5::Reader::open(&path).map_err(|e| chain(&e))?;
                Ok(File::Blow5 {
                    r,
                    index: OnceLock::new(),
                })
            }
        }
    });
    let file = file.map_err(crate::errors::FileFormatError::new_err)?;
    if threads == Some(0) {
        return Err(PyValueError::new_err("threads must be at least 1"));
    }
    let pool = pool_of(threads)?;
    Ok(Reader {
        file: Arc::new(file),
        path,
        pool,
    })
}

#[pymethods]
impl Reader {
    /// "pod5" or "blow5".
    #[getter]
    fn format(&self) -> &'static str {
        self.file.format()
    }

    /// The file's path.
    #[getter]
    fn path(&self) -> PathBuf {
        self.path.clone()
    }

    /// Every read's id, in file order.
    #[getter]
    fn read_ids(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        let file = &self.file;
        py.detach(|| self.install(|| file.read_ids()))
            .map_err(crate::errors::FileFormatError::new_err)
    }

    fn __len__(&self) -> usize {
        self.file.len()
    }

    /// The read `read_id` (KeyError when the file lacks it).
    fn __getitem__(&self, py: Python<'_>, read_id: &str) -> PyResult<Read> {
        let file = &self.file;
        let i = py
            .detach(|| file.find(read_id))
            .map_err(crate::errors::FileFormatError::new_err)?
            .ok_or_else(|| PyKeyError::new_err(read_id.to_string()))?;
        Ok(self.decode_many(py, &[i])?.pop().expect("one read decoded"))
    }

    fn __contains__(&self, py: Python<'_>, read_id: &str) -> PyResult<bool> {
        let file = &self.file;
        Ok(py
            .detach(|| file.find(read_id))
            .map_err(crate::errors::FileFormatError::new_err)?
            .is_some())
    }

    /// The reads `ids`, in that order, decoded in parallel; an id the file lacks is a
    /// KeyError, or left out with `missing_ok`.
    #[pyo3(signature = (ids, missing_ok = false))]
    fn reads(&self, py: Python<'_>, ids: Vec<String>, missing_ok: bool) -> PyResult<Vec<Read>> {
        let file = &self.file;
        let mut indices = Vec::with_capacity(ids.len());
        for id in &ids {
            match py
                .detach(|| file.find(id))
                .map_err(crate::errors::FileFormatError::new_err)?
            {
                Some(i) => indices.push(i),
                None if missing_ok => {}
                None => return Err(PyKeyError::new_err(id.clone())),
            }
        }
        self.decode_many(py, &indices)
    }

    /// Every read in file order, decoded a window ahead on the reader's threads.
    fn __iter__(slf: PyRef<'_, Self>) -> ReadIter {
        ReadIter {
            file: slf.file.clone(),
            pool: slf.pool.clone(),
            next_window: 0,
            ready: VecDeque::new(),
            pending: VecDeque::new(),
        }
    }

    /// An Arrow C stream of record batches (see `Reader.to_arrow`).
    #[pyo3(signature = (columns = None, signal = None, batch_reads = 1024))]
    fn _arrow_stream(
        &self,
        columns: Option<Vec<String>>,
        signal: Option<&str>,
        batch_reads: usize,
    ) -> PyResult<ArrowStream> {
        arrow_stream(
            vec![self.path.clone()],
            columns,
            signal,
            batch_reads,
            self.pool.clone(),
        )
    }

    fn __enter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    #[pyo3(signature = (*_args))]
    fn __exit__(&self, _args: &Bound<'_, pyo3::types::PyTuple>) -> bool {
        false
    }

    fn __repr__(&self) -> String {
        format!(
            "<svb.Reader {} {} with {} reads>",
            self.file.format(),
            self.path.display(),
            self.file.len()
        )
    }
}

/// Reads decoded ahead of the consumer.
type Window = Result<Vec<Decoded>, String>;

/// Iterates a reader's reads: windows of reads decoded on rayon, the next window decoding
/// while the consumer takes this one.
#[pyclass(module = "svb")]
pub struct ReadIter {
    file: Arc<File>,
    pool: Option<Arc<rayon::ThreadPool>>,
    next_window: usize,
    ready: VecDeque<Decoded>,
    /// Windows decoding, oldest first (up to [`AHEAD`]).
    pending: VecDeque<Mutex<Receiver<Window>>>,
}

/// Windows decoding ahead of the consumer: two, so that the cores go on with the next window
/// while the last reads of one finish.
const AHEAD: usize = 2;

/// About this many samples are decoded ahead.
const WINDOW_SAMPLES: u64 = 4 << 20;

impl ReadIter {
    /// Starts decoding the next window in the background; `None` after the last read.
    fn start_next(&mut self) -> Option<Mutex<Receiver<Window>>> {
        let start = self.next_window;
        let len = self.file.len();
        if start >= len {
            return None;
        }
        let mut end = start;
        let mut total = 0u64;
        while end < len && (end == start || total < WINDOW_SAMPLES) && end - start < 256 {
            total += match &*self.file {
                File::Pod5(r) => r.reads()[end].num_samples,
                File::Blow5 { r, .. } => r.record_span(end).map_or(0, |(_, s)| s),
            };
            end += 1;
        }
        self.next_window = end;
        let (tx, rx) = channel();
        let file = self.file.clone();
        let work = move || {
            let w: Window = (start..end)
                .into_par_iter()
                .with_max_len(1)
                .map(|i| file.decode(i))
                .collect();
            let _ = tx.send(w);
        };
        match &self.pool {
            Some(p) => p.spawn(work),
            None => rayon::spawn(work),
        }
        Some(Mutex::new(rx))
    }
}

#[pymethods]
impl ReadIter {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<Read>> {
        if self.ready.is_empty() {
            while self.pending.len() < AHEAD {
                match self.start_next() {
                    Some(rx) => self.pending.push_back(rx),
                    None => break,
                }
            }
            let Some(rx) = self.pending.pop_front() else {
                return Ok(None);
            };
            let window = py
                .detach(|| rx.lock().expect("not poisoned").recv())
                .map_err(|_| crate::errors::SvbError::new_err("a decode worker stopped"))?
                .map_err(crate::errors::FileFormatError::new_err)?;
            self.ready.extend(window);
            if let Some(rx) = self.start_next() {
                self.pending.push_back(rx);
            }
        }
        match self.ready.pop_front() {
            Some(d) => Read::new(py, d).map(Some),
            None => Ok(None),
        }
    }
}

/// A `RecordBatchReader` whose batches decode on a given pool.
struct OnPool {
    inner: ReadBatches,
    pool: Option<Arc<rayon::ThreadPool>>,
}

impl Iterator for OnPool {
    type Item = Result<RecordBatch, arrow_schema::ArrowError>;

    fn next(&mut self) -> Option<Self::Item> {
        match &self.pool {
            Some(p) => {
                let inner = &mut self.inner;
                p.install(|| inner.next())
            }
            None => self.inner.next(),
        }
    }
}

impl RecordBatchReader for OnPool {
    fn schema(&self) -> arrow_schema::SchemaRef {
        self.inner.schema()
    }
}

/// An Arrow C stream (`__arrow_c_stream__`): what `pyarrow.RecordBatchReader.from_stream`,
/// Polars and DuckDB take as it is. It can be consumed once.
#[pyclass(module = "svb")]
pub struct ArrowStream {
    reader: Mutex<Option<Box<dyn RecordBatchReader + Send>>>,
}

fn arrow_stream(
    paths: Vec<PathBuf>,
    columns: Option<Vec<String>>,
    signal: Option<&str>,
    batch_reads: usize,
    pool: Option<Arc<rayon::ThreadPool>>,
) -> PyResult<ArrowStream> {
    let signal = match signal {
        None | Some("none") => Signal::None,
        Some("raw") => Signal::Raw,
        Some("pa") => Signal::PicoAmps,
        Some(other) => {
            return Err(PyValueError::new_err(format!(
                "signal={other:?}: None, \"raw\" or \"pa\""
            )))
        }
    };
    let options = Options {
        columns,
        signal,
        batch_reads,
        ..Options::default()
    };
    let inner = ReadBatches::open(&paths, options).map_err(|e| match e {
        svb_arrow::ArrowReadError::NoColumn { .. } => PyValueError::new_err(e.to_string()),
        e => file_error(&e),
    })?;
    Ok(ArrowStream {
        reader: Mutex::new(Some(Box::new(OnPool { inner, pool }))),
    })
}

#[pymethods]
impl ArrowStream {
    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_stream__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        let _ = requested_schema; // the batches' own schema is what they are
        let reader = self
            .reader
            .lock()
            .expect("not poisoned")
            .take()
            .ok_or_else(|| PyValueError::new_err("this Arrow stream was consumed already"))?;
        let stream = FFI_ArrowArrayStream::new(reader);
        PyCapsule::new_with_value(py, stream, c"arrow_array_stream")
    }
}

/// Many files as one Arrow stream (`svb.to_arrow` of a list of paths).
#[pyfunction]
#[pyo3(signature = (paths, columns = None, signal = None, batch_reads = 1024, threads = None))]
pub fn arrow_stream_of(
    paths: Vec<PathBuf>,
    columns: Option<Vec<String>>,
    signal: Option<&str>,
    batch_reads: usize,
    threads: Option<usize>,
) -> PyResult<ArrowStream> {
    arrow_stream(
        paths,
        columns,
        signal,
        batch_reads,
        pool_of(threads.map(|n| n.max(1)))?,
    )
}

/// POD5 -> BLOW5 or BLOW5 -> POD5 by the output's extension (see `svb.convert`).
#[pyfunction]
#[pyo3(signature = (inputs, output, records = "zstd", signal = "svb-zd", decode_fast = false, keep_going = false, force = false))]
#[allow(clippy::too_many_arguments)]
pub fn convert<'py>(
    py: Python<'py>,
    inputs: Vec<PathBuf>,
    output: PathBuf,
    records: &str,
    signal: &str,
    decode_fast: bool,
    keep_going: bool,
    force: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let profile = if decode_fast {
        svb_pod5::ZstdProfile::DecodeFast
    } else {
        svb_pod5::ZstdProfile::Standard
    };
    let how = || svb_convert::Run {
        on_error: if keep_going {
            svb_convert::OnError::Skip
        } else {
            svb_convert::OnError::Stop
        },
        progress: None,
        on_existing: crate::writers::on_existing(force),
    };
    let ext = output
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let stats = match ext.as_deref() {
        Some("blow5") => {
            let options = svb_blow5::WriteOptions {
                record_compression: crate::writers::record_compression(records)?,
                signal_compression: crate::writers::signal_compression(signal)?,
                zstd_profile: profile,
                on_existing: crate::writers::on_existing(force),
                ..svb_blow5::WriteOptions::default()
            };
            py.detach(|| {
                svb_convert::pod5_to_blow5(&inputs, &output, options, how()).map_err(|e| chain(&e))
            })
        }
        Some("pod5") => {
            let options = svb_pod5::WriteOptions {
                zstd_profile: profile,
                on_existing: crate::writers::on_existing(force),
                ..svb_pod5::WriteOptions::default()
            };
            py.detach(|| {
                svb_convert::blow5_to_pod5(&inputs, &output, options, how()).map_err(|e| chain(&e))
            })
        }
        _ => {
            return Err(PyValueError::new_err(format!(
                "{}: the output must end in .pod5 or .blow5",
                output.display()
            )))
        }
    }
    .map_err(crate::errors::FileFormatError::new_err)?;
    let out = PyDict::new(py);
    out.set_item("reads", stats.reads)?;
    out.set_item("samples", stats.samples)?;
    let failed = PyList::new(py, stats.failed.iter().map(|e| chain(e)))?;
    out.set_item("failed", failed)?;
    Ok(out)
}

/// The reads named in `read_ids` from files of one format into `output` of that format (see
/// `svb.subset`).
#[pyfunction]
#[pyo3(signature = (inputs, read_ids, output, keep_going = false, force = false))]
pub fn subset<'py>(
    py: Python<'py>,
    inputs: Vec<PathBuf>,
    read_ids: Vec<String>,
    output: PathBuf,
    keep_going: bool,
    force: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let how = svb_convert::Run {
        on_error: if keep_going {
            svb_convert::OnError::Skip
        } else {
            svb_convert::OnError::Stop
        },
        progress: None,
        on_existing: crate::writers::on_existing(force),
    };
    let result = py
        .detach(|| svb_convert::subset(&inputs, &read_ids, &output, how).map_err(|e| chain(&e)))
        .map_err(crate::errors::FileFormatError::new_err)?;
    let out = PyDict::new(py);
    out.set_item("reads", result.stats.reads)?;
    out.set_item("samples", result.stats.samples)?;
    out.set_item("missing", result.missing)?;
    let failed = PyList::new(py, result.stats.failed.iter().map(|e| chain(e)))?;
    out.set_item("failed", failed)?;
    out.set_item("notes", result.notes)?;
    Ok(out)
}
