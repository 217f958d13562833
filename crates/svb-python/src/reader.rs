//! `svb.open(path)`: a POD5, BLOW5 or FAST5 reader whose reads carry their signal as a numpy array
//! (decoded on rayon with the GIL released; the array owns the decoded buffer). Its Arrow
//! stream is `arrow.rs`'s; the file operations (`svb.convert`, ...) are `operations.rs`'.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::mpsc::{channel, Receiver};
use std::sync::{Arc, Mutex};

use numpy::{PyArray1, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::exceptions::{PyKeyError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use pyo3::IntoPyObjectExt;
use rayon::prelude::*;
use svb_model::{ReadSource, Value};
use svb_reads::AnyReader;

use crate::arrow::{arrow_stream, ArrowStream, Batches};
use crate::errors::chain;
use crate::metadata;

/// A field's value as a Python object.
fn value_to_py<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    match v {
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

/// Reads `indices` of `file`, decoded on the current rayon pool, a read a task.
fn decode_reads<I>(file: &AnyReader, indices: I) -> DecodedReads
where
    I: IntoParallelIterator<Item = usize>,
    I::Iter: IndexedParallelIterator,
{
    indices.into_par_iter().with_max_len(1).map(|i| file.read(i).map_err(|e| chain(&e))).collect()
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

/// The Python strings of the field names, made once per reader or iterator: every read of a
/// file has its fields in one order, so a read's dict takes its keys from here instead of
/// making a new string for each of its ~30 fields (the consumer's thread, holding the GIL,
/// is what iteration on two or more cores waits on).
#[derive(Default)]
pub(crate) struct FieldKeys(Vec<(Arc<str>, Py<PyString>)>);

impl FieldKeys {
    /// The key of field `i` named `name`.
    fn key<'py>(&mut self, py: Python<'py>, i: usize, name: &Arc<str>) -> Bound<'py, PyString> {
        match self.0.get(i) {
            Some((known, key)) if Arc::ptr_eq(known, name) || **known == **name => {
                key.bind(py).clone()
            }
            _ => {
                let key = PyString::new(py, name);
                self.0.truncate(i);
                self.0.push((name.clone(), key.clone().unbind()));
                key
            }
        }
    }
}

impl Read {
    pub(crate) fn new(py: Python<'_>, d: svb_model::Read, keys: &mut FieldKeys) -> PyResult<Read> {
        let fields = PyDict::new(py);
        for (i, (k, v)) in d.fields.iter().enumerate() {
            fields.set_item(keys.key(py, i, k), value_to_py(py, v)?)?;
        }
        Ok(Read {
            read_id: d.read_id,
            // The decoded buffer becomes the array's: no copy.
            signal: PyArray1::from_vec(py, d.signal).unbind(),
            fields: fields.unbind(),
            offset: d.calibration.offset,
            scale: d.calibration.scale,
        })
    }
}

#[pymethods]
impl Read {
    /// The signal in picoamps: (adc + offset) * scale, float32.
    fn signal_pa<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let s = self.signal.bind(py).readonly();
        let (offset, scale) = (self.offset, self.scale);
        let pa: Vec<f32> = s.as_slice()?.iter().map(|&x| (f32::from(x) + offset) * scale).collect();
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
        format!("<svb.Read {} with {} samples>", self.read_id, self.num_samples(py))
    }
}

/// An open POD5, BLOW5 or FAST5 file (see `svb.open`).
#[pyclass(module = "svb", frozen)]
pub struct Reader {
    file: Arc<AnyReader>,
    path: PathBuf,
    pool: Option<Arc<rayon::ThreadPool>>,
    /// The BLOW5 header this file maps to (`svb_convert::blow5_schema`), made when first asked.
    schema: std::sync::OnceLock<svb_blow5::Schema>,
}

impl Reader {
    /// The BLOW5 header of this file (as `svb convert` writes it for a POD5 or FAST5 file).
    fn schema(&self, py: Python<'_>) -> PyResult<&svb_blow5::Schema> {
        if let Some(s) = self.schema.get() {
            return Ok(s);
        }
        let file = &self.file;
        let made = py
            .detach(|| svb_convert::blow5_schema(file).map_err(|e| chain(&e)))
            .map_err(crate::errors::FileFormatError::new_err)?;
        Ok(self.schema.get_or_init(|| made))
    }

    /// Runs `f` on the reader's thread pool (or rayon's global one).
    fn install<R: Send>(&self, f: impl FnOnce() -> R + Send) -> R {
        match &self.pool {
            Some(p) => p.install(f),
            None => f(),
        }
    }

    /// Reads `indices`, decoded in parallel, 64 at a time: an object's are fetched together
    /// first (`ReadSource::plan`: one round trip for each 64, not one a read).
    fn decode_many(&self, py: Python<'_>, indices: &[usize]) -> PyResult<Vec<Read>> {
        let file = &self.file;
        let decoded = py.detach(|| {
            self.install(|| {
                let mut all = Vec::with_capacity(indices.len());
                for window in indices.chunks(64) {
                    file.plan(window);
                    all.extend(decode_reads(file, window.par_iter().copied())?);
                }
                Ok::<_, String>(all)
            })
        });
        let decoded = decoded.map_err(crate::errors::FileFormatError::new_err)?;
        let mut keys = FieldKeys::default();
        decoded.into_iter().map(|d| Read::new(py, d, &mut keys)).collect()
    }
}

/// A pool of `threads` decoding threads (`None`: rayon's global pool, every core).
pub(crate) fn pool_of(threads: Option<usize>) -> PyResult<Option<Arc<rayon::ThreadPool>>> {
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

impl Reader {
    /// A reader of a file open already (a dataset's), decoding on `pool`.
    pub(crate) fn of_open(file: Arc<AnyReader>, pool: Option<Arc<rayon::ThreadPool>>) -> Reader {
        Reader { path: file.path().to_path_buf(), file, pool, schema: std::sync::OnceLock::new() }
    }
}

/// Opens a POD5, BLOW5 or FAST5 file (the format from its first bytes). `threads` decode threads
/// (default: every core).
#[pyfunction]
#[pyo3(signature = (path, threads = None))]
pub fn open(py: Python<'_>, path: PathBuf, threads: Option<usize>) -> PyResult<Reader> {
    // A file the OS refuses is its own OSError (FileNotFoundError, PermissionError, ...); so
    // is a missing object (a URL: read by ranges, never opened as a file).
    let url = svb_io::is_url(&path);
    if !url {
        if let Err(e) = std::fs::File::open(&path) {
            let msg = format!("{}: {e}", path.display());
            return Err(crate::errors::os_error(e.kind(), msg));
        }
    }
    let file = py.detach(|| AnyReader::open(&path));
    let file = file.map_err(|e| {
        let missing = std::io::ErrorKind::NotFound;
        if url && svb_io::caused_by(&e, missing) {
            crate::errors::os_error(missing, chain(&e))
        } else {
            crate::errors::FileFormatError::new_err(chain(&e))
        }
    })?;
    if threads == Some(0) {
        return Err(PyValueError::new_err("threads must be at least 1"));
    }
    let pool = pool_of(threads)?;
    Ok(Reader { file: Arc::new(file), path, pool, schema: std::sync::OnceLock::new() })
}

#[pymethods]
impl Reader {
    /// "pod5", "blow5", "slow5" or "fast5".
    #[getter]
    fn format(&self) -> &'static str {
        self.file.format().extension()
    }

    /// The file's path.
    #[getter]
    fn path(&self) -> PathBuf {
        self.path.clone()
    }

    /// (per read group {attribute: value or None}, per auxiliary field (name, slow5lib
    /// type number, enum labels or None)) of the file's header (its own for BLOW5 / SLOW5, the one `svb convert` makes of a POD5 or FAST5 file): what the pyslow5-named calls of the
    /// Python class read.
    fn _header<'py>(&self, py: Python<'py>) -> PyResult<metadata::Header<'py>> {
        metadata::header(py, self.schema(py)?)
    }

    /// Every read's id, in file order.
    #[getter]
    fn read_ids(&self, py: Python<'_>) -> PyResult<Vec<String>> {
        let file = &self.file;
        py.detach(|| self.install(|| file.read_ids()))
            .map_err(|e| crate::errors::FileFormatError::new_err(chain(&e)))
    }

    fn __len__(&self) -> usize {
        self.file.len()
    }

    /// The read `read_id` (KeyError when the file lacks it).
    fn __getitem__(&self, py: Python<'_>, read_id: &str) -> PyResult<Read> {
        let file = &self.file;
        let i = py
            .detach(|| file.find(read_id))
            .map_err(|e| crate::errors::FileFormatError::new_err(chain(&e)))?
            .ok_or_else(|| PyKeyError::new_err(read_id.to_string()))?;
        Ok(self.decode_many(py, &[i])?.pop().expect("one read decoded"))
    }

    fn __contains__(&self, py: Python<'_>, read_id: &str) -> PyResult<bool> {
        let file = &self.file;
        Ok(py
            .detach(|| file.find(read_id))
            .map_err(|e| crate::errors::FileFormatError::new_err(chain(&e)))?
            .is_some())
    }

    /// The reads `ids`, in that order, decoded in parallel; an id the file lacks is a
    /// KeyError, or left out with `missing_ok`.
    #[pyo3(signature = (ids, missing_ok = false))]
    fn reads(&self, py: Python<'_>, ids: Vec<String>, missing_ok: bool) -> PyResult<Vec<Read>> {
        let file = &self.file;
        // Found together: what an index beside a BLOW5 object says of them is checked in one
        // round trip.
        let found = py
            .detach(|| file.find_many(&ids))
            .map_err(|e| crate::errors::FileFormatError::new_err(chain(&e)))?;
        let mut indices = Vec::with_capacity(ids.len());
        for (id, at) in ids.iter().zip(found) {
            match at {
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
            keys: FieldKeys::default(),
            pending: VecDeque::new(),
        }
    }

    /// An Arrow C stream of record batches (see `Reader.to_arrow`).
    #[pyo3(signature = (columns = None, signal = None, batch_reads = 1024))]
    fn _arrow_stream(
        &self, columns: Option<Vec<String>>, signal: Option<&str>, batch_reads: usize,
    ) -> PyResult<ArrowStream> {
        // The open reader itself: its file is not opened or parsed again.
        arrow_stream(
            Batches::Reader(self.file.clone()),
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
type DecodedReads = Result<Vec<svb_model::Read>, String>;

/// Iterates a reader's reads: windows of reads decoded on rayon, the next window decoding
/// while the consumer takes this one.
#[pyclass(module = "svb")]
pub struct ReadIter {
    file: Arc<AnyReader>,
    pool: Option<Arc<rayon::ThreadPool>>,
    next_window: usize,
    ready: VecDeque<svb_model::Read>,
    keys: FieldKeys,
    /// Windows decoding, oldest first (up to [`AHEAD`]).
    pending: VecDeque<Mutex<Receiver<DecodedReads>>>,
}

/// Windows decoding ahead of the consumer: two, so that the cores go on with the next window
/// while the last reads of one finish.
const AHEAD: usize = 2;

/// About this many samples are decoded ahead (stored bytes for BLOW5: [`AnyReader::weight`]).
const WINDOW_SAMPLES: u64 = 4 << 20;

/// And at most this many reads.
const WINDOW_READS: usize = 256;

impl ReadIter {
    /// Starts decoding the next window in the background; `None` after the last read.
    fn start_next(&mut self) -> Option<Mutex<Receiver<DecodedReads>>> {
        let start = self.next_window;
        let len = self.file.len();
        if start >= len {
            return None;
        }
        let file = &self.file;
        let end = svb_io::window_end(start, len, WINDOW_READS, WINDOW_SAMPLES, |i| file.weight(i));
        self.next_window = end;
        let (tx, rx) = channel();
        let file = self.file.clone();
        let work = move || {
            let _ = tx.send(decode_reads(&file, start..end));
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
            Some(d) => Read::new(py, d, &mut self.keys).map(Some),
            None => Ok(None),
        }
    }
}
