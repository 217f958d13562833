//! `svb.open_dataset(paths)`: many files of one format as one set of reads
//! ([`svb_reads::Dataset`]), looked up by read id through an index kept on disk.

use std::path::PathBuf;
use std::sync::Arc;

use pyo3::exceptions::{PyKeyError, PyValueError};
use pyo3::prelude::*;
use svb_reads::{Dataset as Files, DatasetOptions};

use crate::errors::{chain, reads_error};
use crate::metadata;
use crate::reader::{pool_of, FieldKeys, Read, Reader};

/// Where a read is: (path, index in the file), one per copy.
type Places = Vec<(PathBuf, usize)>;

/// Many POD5, BLOW5 / SLOW5 or FAST5 files (see `svb.open_dataset`).
#[pyclass(module = "svb", frozen)]
pub struct Dataset {
    files: Arc<Files>,
    pool: Option<Arc<rayon::ThreadPool>>,
    /// The header of the BLOW5 `svb merge` would make of the files, made when first asked.
    schema: std::sync::OnceLock<svb_blow5::Schema>,
}

impl Dataset {
    /// Runs `f` on the dataset's thread pool (or rayon's global one).
    fn install<R: Send>(&self, f: impl FnOnce() -> R + Send) -> R {
        match &self.pool {
            Some(p) => p.install(f),
            None => f(),
        }
    }

    fn place(&self, py: Python<'_>, read_id: &str) -> PyResult<Option<(usize, usize)>> {
        let files = &self.files;
        py.detach(|| self.install(|| files.locate(read_id))).map_err(|e| reads_error(&e))
    }

    /// The header of the BLOW5 that `svb merge` (or `svb convert`) makes of every file: each
    /// file's read groups (a POD5 or FAST5 file's runs) once, its auxiliary fields (the same
    /// in every file, else an error naming the one that differs).
    fn schema(&self, py: Python<'_>) -> PyResult<&svb_blow5::Schema> {
        if let Some(s) = self.schema.get() {
            return Ok(s);
        }
        let files = &self.files;
        let made = py.detach(|| {
            let schemas = (0..files.files().len())
                .map(|i| {
                    let file = files.file(i).map_err(|e| chain(&e))?;
                    let schema = svb_convert::blow5_schema(&file).map_err(|e| chain(&e))?;
                    Ok((schema, files.files()[i].as_path()))
                })
                .collect::<Result<Vec<_>, String>>()?;
            svb_convert::merge_schemas(&schemas, svb_convert::HeaderRules::default())
                .map(|(schema, _)| schema)
                .map_err(|e| chain(&e))
        });
        let made = made.map_err(crate::errors::FileFormatError::new_err)?;
        Ok(self.schema.get_or_init(|| made))
    }

    /// The reads `ids` in that order, `None` where absent.
    fn decode(&self, py: Python<'_>, ids: &[String]) -> PyResult<Vec<Option<Read>>> {
        let files = &self.files;
        let decoded =
            py.detach(|| self.install(|| files.reads(ids))).map_err(|e| reads_error(&e))?;
        let mut keys = FieldKeys::default();
        decoded.into_iter().map(|d| d.map(|d| Read::new(py, d, &mut keys)).transpose()).collect()
    }
}

/// Opens the files and directories `paths` as one dataset (see `svb.open_dataset`).
#[pyfunction]
#[pyo3(signature = (paths, recursive = true, index = None, threads = None, max_open = 16))]
pub fn open_dataset(
    py: Python<'_>, paths: Vec<PathBuf>, recursive: bool, index: Option<PathBuf>,
    threads: Option<usize>, max_open: usize,
) -> PyResult<Dataset> {
    if threads == Some(0) {
        return Err(PyValueError::new_err("threads must be at least 1"));
    }
    if max_open == 0 {
        return Err(PyValueError::new_err("max_open must be at least 1"));
    }
    let options = DatasetOptions { recursive, index, max_open };
    let files = py.detach(|| Files::open(&paths, &options)).map_err(|e| reads_error(&e))?;
    Ok(Dataset {
        files: Arc::new(files),
        pool: pool_of(threads)?,
        schema: std::sync::OnceLock::new(),
    })
}

#[pymethods]
impl Dataset {
    /// 'pod5', 'blow5', 'slow5' or 'fast5' (of the first file; BLOW5 and SLOW5 mix).
    #[getter]
    fn format(&self) -> &'static str {
        self.files.format().extension()
    }

    /// The files, in the order their reads are walked.
    #[getter]
    fn paths(&self) -> Vec<PathBuf> {
        self.files.files().to_vec()
    }

    /// Every file's read count.
    fn counts(&self, py: Python<'_>) -> PyResult<Vec<u64>> {
        let files = &self.files;
        py.detach(|| self.install(|| files.counts().map(<[u64]>::to_vec)))
            .map_err(|e| reads_error(&e))
    }

    fn __len__(&self, py: Python<'_>) -> PyResult<usize> {
        Ok(self.counts(py)?.iter().sum::<u64>() as usize)
    }

    /// File `i` as a `svb.Reader` (kept open among the most recently used).
    fn _file(&self, py: Python<'_>, i: usize) -> PyResult<Reader> {
        let files = &self.files;
        let file = py.detach(|| files.file(i)).map_err(|e| reads_error(&e))?;
        Ok(Reader::of_open(file, self.pool.clone()))
    }

    /// (path, index in the file) of read `read_id`, or None.
    fn locate(&self, py: Python<'_>, read_id: &str) -> PyResult<Option<(PathBuf, usize)>> {
        Ok(self.place(py, read_id)?.map(|(file, read)| (self.files.files()[file].clone(), read)))
    }

    /// The read `read_id` (KeyError when no file holds it).
    fn __getitem__(&self, py: Python<'_>, read_id: String) -> PyResult<Read> {
        self.decode(py, std::slice::from_ref(&read_id))?
            .pop()
            .flatten()
            .ok_or_else(|| PyKeyError::new_err(read_id))
    }

    /// The read `read_id`, or None.
    fn get_read(&self, py: Python<'_>, read_id: String) -> PyResult<Option<Read>> {
        Ok(self.decode(py, &[read_id])?.pop().flatten())
    }

    fn __contains__(&self, py: Python<'_>, read_id: &str) -> PyResult<bool> {
        Ok(self.place(py, read_id)?.is_some())
    }

    /// The reads `ids`, in that order, decoded in parallel; an absent id is a KeyError, or
    /// left out with `missing_ok`.
    #[pyo3(signature = (ids, missing_ok = false))]
    fn reads(&self, py: Python<'_>, ids: Vec<String>, missing_ok: bool) -> PyResult<Vec<Read>> {
        let decoded = self.decode(py, &ids)?;
        let mut out = Vec::with_capacity(decoded.len());
        for (id, read) in ids.into_iter().zip(decoded) {
            match read {
                Some(r) => out.push(r),
                None if missing_ok => {}
                None => return Err(PyKeyError::new_err(id)),
            }
        }
        Ok(out)
    }

    /// [(read_id, [(path, index), ...]), ...] for every read id held more than once.
    fn duplicates(&self, py: Python<'_>) -> PyResult<Vec<(String, Places)>> {
        let files = &self.files;
        let found =
            py.detach(|| self.install(|| files.duplicates())).map_err(|e| reads_error(&e))?;
        Ok(found
            .into_iter()
            .map(|d| {
                let places = d
                    .places
                    .into_iter()
                    .map(|(file, read)| (files.files()[file].clone(), read))
                    .collect();
                (d.read_id, places)
            })
            .collect())
    }

    /// (per read group {attribute: value or None}, per auxiliary field (name, slow5lib
    /// type number, enum labels or None)) of the files' merged header (the one `svb merge` makes): what the pyslow5-named calls of the
    /// Python class read.
    fn _header<'py>(&self, py: Python<'py>) -> PyResult<metadata::Header<'py>> {
        metadata::header(py, self.schema(py)?)
    }

    /// Builds (or loads) the read id index now.
    fn make_index(&self, py: Python<'_>) -> PyResult<()> {
        let files = &self.files;
        py.detach(|| self.install(|| files.make_index())).map_err(|e| reads_error(&e))
    }

    /// Where the index is kept (None before it is made).
    #[getter]
    fn index_path(&self) -> Option<PathBuf> {
        self.files.index_path().map(PathBuf::from)
    }

    /// Why a kept index was rebuilt, if it was.
    #[getter]
    fn index_note(&self) -> Option<String> {
        self.files.index_note()
    }

    fn __repr__(&self) -> String {
        format!("<svb.Dataset {} of {} files>", self.files.format(), self.files.files().len())
    }
}
