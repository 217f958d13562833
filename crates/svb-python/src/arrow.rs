//! Arrow C streams of record batches (`Reader.to_arrow`, `svb.to_arrow`): `svb-arrow`'s
//! batches, decoded on the reader's pool, handed to pyarrow, Polars or DuckDB without a copy.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use arrow_array::ffi_stream::FFI_ArrowArrayStream;
use arrow_array::{RecordBatch, RecordBatchReader};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyCapsule;
use svb_arrow::{Options, ReadBatches, SignalColumn};
use svb_reads::AnyReader;

use crate::errors::file_error;
use crate::reader::pool_of;

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

/// Where an Arrow stream's batches come from.
pub(crate) enum Batches {
    /// Files to open, one at a time.
    Paths(Vec<PathBuf>),
    /// A file already open.
    Reader(Arc<AnyReader>),
}

pub(crate) fn arrow_stream(
    from: Batches, columns: Option<Vec<String>>, signal: Option<&str>, batch_reads: usize,
    pool: Option<Arc<rayon::ThreadPool>>,
) -> PyResult<ArrowStream> {
    let signal = match signal {
        None | Some("none") => SignalColumn::None,
        Some("raw") => SignalColumn::Raw,
        Some("pa") => SignalColumn::PicoAmps,
        Some(other) => {
            return Err(PyValueError::new_err(format!("signal={other:?}: None, \"raw\" or \"pa\"")))
        }
    };
    let options = Options { columns, signal, batch_reads, ..Options::default() };
    let inner = match from {
        Batches::Paths(paths) => ReadBatches::open(&paths, options),
        Batches::Reader(reader) => ReadBatches::of_reader(reader, options),
    };
    let inner = inner.map_err(|e| match e {
        svb_arrow::ArrowReadError::NoColumn { .. } => PyValueError::new_err(e.to_string()),
        e => file_error(&e),
    })?;
    Ok(ArrowStream { reader: Mutex::new(Some(Box::new(OnPool { inner, pool }))) })
}

#[pymethods]
impl ArrowStream {
    #[pyo3(signature = (requested_schema = None))]
    fn __arrow_c_stream__<'py>(
        &self, py: Python<'py>, requested_schema: Option<Bound<'py, PyAny>>,
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
    paths: Vec<PathBuf>, columns: Option<Vec<String>>, signal: Option<&str>, batch_reads: usize,
    threads: Option<usize>,
) -> PyResult<ArrowStream> {
    arrow_stream(
        Batches::Paths(paths),
        columns,
        signal,
        batch_reads,
        pool_of(threads.map(|n| n.max(1)))?,
    )
}
