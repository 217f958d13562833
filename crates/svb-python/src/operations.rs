//! The file operations of the Python package (`svb.convert`, `svb.subset`, `svb.merge`,
//! `svb.split`, `svb.recover`): arguments parsed into svb-convert's calls, run with the GIL
//! released.

use std::path::PathBuf;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::errors::chain;

/// A FAST5 output's signal filter by name.
fn fast5_signal(name: &str) -> PyResult<svb_fast5::SignalFilter> {
    Ok(match name {
        "vbz" => svb_fast5::SignalFilter::Vbz,
        // h5py's default level, as `compression="gzip"` writes it.
        "gzip" => svb_fast5::SignalFilter::Gzip(4),
        "none" => svb_fast5::SignalFilter::None,
        o => {
            return Err(PyValueError::new_err(format!(
                "signal={o:?}: a FAST5 output's signal is vbz, gzip or none"
            )))
        }
    })
}

/// Any format to POD5, BLOW5, SLOW5 text or FAST5 by the output's extension (see
/// `svb.convert`).
#[pyfunction]
#[pyo3(signature = (inputs, output, records = None, signal = None, decode_fast = false, keep_going = false, force = false, file_read_count = None, text_floats = None))]
#[allow(clippy::too_many_arguments)]
pub fn convert<'py>(
    py: Python<'py>, inputs: Vec<PathBuf>, output: PathBuf, records: Option<&str>,
    signal: Option<&str>, decode_fast: bool, keep_going: bool, force: bool,
    file_read_count: Option<usize>, text_floats: Option<&str>,
) -> PyResult<Bound<'py, PyDict>> {
    use svb_model::Format;
    let to = Format::of_output(&output).map_err(|e| PyValueError::new_err(e.to_string()))?;
    // `signal` names the FAST5 output's HDF5 filter, the POD5 output's signal compression,
    // or the BLOW5 output's signal codec.
    let (signal, fast5_signal, pod5_signal) = match to {
        Format::Fast5 => (None, signal.map(fast5_signal).transpose()?, None),
        Format::Pod5 => (None, None, signal.map(crate::writers::pod5_signal).transpose()?),
        _ => (signal.map(crate::writers::signal_compression).transpose()?, None, None),
    };
    let compression = svb_convert::Compression {
        records: records.map(crate::writers::record_compression).transpose()?,
        signal,
        decode_fast,
        fast5_signal,
        pod5_chunk_samples: None,
        pod5_signal,
        float_text: match text_floats {
            None | Some("exact") => svb_blow5::FloatText::Exact,
            Some("slow5lib") => svb_blow5::FloatText::Slow5lib,
            Some(other) => {
                return Err(PyValueError::new_err(format!(
                    "text_floats={other:?}: \"exact\" or \"slow5lib\""
                )))
            }
        },
    };
    compression.check(to, &output).map_err(|e| PyValueError::new_err(chain(&e)))?;
    // The first input's format picks the mapping (FAST5: ONT's; to BLOW5 then blue-crab's).
    let from = match inputs.first() {
        Some(first) => svb_reads::detect(first).map_err(|e| crate::errors::reads_error(&e))?,
        None => return Err(PyValueError::new_err("no input to convert")),
    };
    if file_read_count.is_some() && to != Format::Fast5 {
        return Err(PyValueError::new_err(
            "file_read_count cuts FAST5 outputs (svb.split cuts the others)",
        ));
    }
    let (stats, files) = operation(py, keep_going, force, |how| match file_read_count {
        Some(n) => {
            let options = compression.fast5(&how);
            svb_convert::to_fast5_files(&inputs, from, &output, options, Some(n), how)
        }
        None => svb_convert::convert(&inputs, from, &output, to, compression, how)
            .map(|stats| (stats, vec![output.clone()])),
    })?;
    let out = PyDict::new(py);
    out.set_item("files", files)?;
    out.set_item("reads", stats.reads)?;
    out.set_item("samples", stats.samples)?;
    let failed = PyList::new(py, stats.failed.iter().map(|e| chain(e)))?;
    out.set_item("failed", failed)?;
    out.set_item("notes", PyList::new(py, &stats.notes)?)?;
    Ok(out)
}

/// The reads named in `read_ids` from files of one format into `output` of that format (see
/// `svb.subset`).
#[pyfunction]
#[pyo3(signature = (inputs, read_ids, output, keep_going = false, force = false, in_order = false))]
pub fn subset<'py>(
    py: Python<'py>, inputs: Vec<PathBuf>, read_ids: Vec<String>, output: PathBuf,
    keep_going: bool, force: bool, in_order: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let order = svb_convert::ReadOrder::list_if(in_order);
    let result = operation(py, keep_going, force, |how| {
        svb_convert::subset(&inputs, &read_ids, &output, order, how)
    })?;
    let out = PyDict::new(py);
    out.set_item("reads", result.stats.reads)?;
    out.set_item("samples", result.stats.samples_counted())?;
    out.set_item("missing", result.missing)?;
    let failed = PyList::new(py, result.stats.failed.iter().map(|e| chain(e)))?;
    out.set_item("failed", failed)?;
    out.set_item("notes", result.notes)?;
    Ok(out)
}

/// Many files of one format into `output` (see `svb.merge`).
#[pyfunction]
#[pyo3(signature = (inputs, output, duplicates = "error", keep_going = false, force = false, lossless = true, allow = false, field_order = "inputs"))]
#[allow(clippy::too_many_arguments)]
pub fn merge<'py>(
    py: Python<'py>, inputs: Vec<PathBuf>, output: PathBuf, duplicates: &str, keep_going: bool,
    force: bool, lossless: bool, allow: bool, field_order: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let slow5tools_field_order = match field_order {
        "inputs" => false,
        "slow5tools" => true,
        o => {
            return Err(PyValueError::new_err(format!(
                "field_order={o:?}: \"inputs\" or \"slow5tools\""
            )))
        }
    };
    let duplicates = match duplicates {
        "error" => svb_convert::Duplicates::Error,
        "keep-first" => svb_convert::Duplicates::KeepFirst,
        d => {
            return Err(PyValueError::new_err(format!(
                "duplicates={d:?}: \"error\" or \"keep-first\""
            )))
        }
    };
    let merged = operation(py, keep_going, force, |how| {
        let rules = svb_convert::HeaderRules {
            drop_aux: !lossless,
            allow_differing_attributes: allow,
            slow5tools_field_order,
        };
        svb_convert::merge(&inputs, &output, duplicates, rules, how)
    })?;
    let out = PyDict::new(py);
    out.set_item("reads", merged.stats.reads)?;
    out.set_item("samples", merged.stats.samples_counted())?;
    out.set_item("duplicates", merged.duplicates)?;
    let failed = PyList::new(py, merged.stats.failed.iter().map(|e| chain(e)))?;
    out.set_item("failed", failed)?;
    Ok(out)
}

/// The reads of files of one format into many files in `output_dir` (see `svb.split`).
#[pyfunction]
#[pyo3(signature = (inputs, output_dir, by = None, reads = None, files = None, table = None, to = None, max_open = 128, keep_going = false, force = false, template = None, table_file = None, column = None, records = None, signal = None, per_input = false))]
#[allow(clippy::too_many_arguments)]
pub fn split<'py>(
    py: Python<'py>, inputs: Vec<PathBuf>, output_dir: PathBuf, by: Option<&str>,
    reads: Option<u64>, files: Option<u64>,
    table: Option<std::collections::HashMap<String, String>>, to: Option<&str>, max_open: usize,
    keep_going: bool, force: bool, template: Option<&str>, table_file: Option<PathBuf>,
    column: Option<String>, records: Option<&str>, signal: Option<&str>, per_input: bool,
) -> PyResult<Bound<'py, PyDict>> {
    use svb_convert::SplitBy;
    let compression = svb_convert::Compression {
        records: records.map(crate::writers::record_compression).transpose()?,
        signal: signal.map(crate::writers::signal_compression).transpose()?,
        ..Default::default()
    };
    let how_many =
        [by.is_some(), reads.is_some(), files.is_some(), table.is_some() || table_file.is_some()];
    if how_many.iter().filter(|&&x| x).count() != 1 {
        return Err(PyValueError::new_err("give one of by, reads, files or table"));
    }
    let split_by = match (by, reads, files, table) {
        (Some("run"), ..) => SplitBy::Run,
        (Some("read-group"), ..) => SplitBy::ReadGroup,
        (Some("channel"), ..) => SplitBy::Channel,
        (Some("end-reason"), ..) => SplitBy::EndReason,
        (Some(b), ..) => {
            return Err(PyValueError::new_err(format!(
                "by={b:?}: \"run\", \"read-group\", \"channel\" or \"end-reason\""
            )))
        }
        (_, Some(0), ..) | (_, _, Some(0), _) => {
            return Err(PyValueError::new_err("reads and files need 1 or more"))
        }
        (_, Some(n), ..) => SplitBy::Reads(n),
        (_, _, Some(n), _) => SplitBy::Files(n),
        (_, _, _, Some(t)) => SplitBy::Table(t),
        _ => match table_file {
            Some(path) => SplitBy::TableFile(svb_convert::TableFile {
                path,
                columns: column.into_iter().collect(),
                read_id_column: None,
                ..Default::default()
            }),
            None => unreachable!("one was given"),
        },
    };
    let Some(first) = inputs.first() else {
        return Err(PyValueError::new_err("split needs an input"));
    };
    let from = svb_reads::detect(first).map_err(|e| crate::errors::reads_error(&e))?;
    let to = match to.map(str::parse::<svb_model::Format>) {
        None => None,
        Some(Ok(f)) if f.form().is_some() => Some(f),
        _ => {
            let t = to.unwrap_or_default();
            return Err(PyValueError::new_err(format!("to={t:?}: \"blow5\" or \"slow5\"")));
        }
    };
    let result = operation(py, keep_going, force, |how| {
        let options = svb_convert::SplitOptions {
            template,
            to,
            compression,
            max_open,
            per_input,
            ..Default::default()
        };
        svb_convert::split(&inputs, from, &output_dir, &split_by, options, how)
    })?;
    let out = PyDict::new(py);
    out.set_item("reads", result.stats.reads)?;
    out.set_item("samples", result.stats.samples_counted())?;
    out.set_item("unlisted", result.unlisted)?;
    out.set_item("unknown", result.unknown.count)?;
    out.set_item("unknown_first", result.unknown.first.clone())?;
    let outputs =
        PyList::new(py, result.outputs.iter().map(|(k, p, n)| (k.clone(), p.clone(), *n)))?;
    out.set_item("outputs", outputs)?;
    let failed = PyList::new(py, result.stats.failed.iter().map(|e| chain(e)))?;
    out.set_item("failed", failed)?;
    Ok(out)
}

/// Every whole record of a BLOW5 or SLOW5 file whose writer died into `output` (see
/// `svb.recover`).
#[pyfunction]
#[pyo3(signature = (input, output, force = false))]
pub fn recover<'py>(
    py: Python<'py>, input: PathBuf, output: PathBuf, force: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let got = operation(py, false, force, |how| svb_convert::recover(&input, &output, how))?;
    // What every recovery says: saved reads and samples, whole ones found, those lost.
    let report = |stats: &svb_convert::Stats, found: usize| -> PyResult<Bound<'py, PyDict>> {
        let out = PyDict::new(py);
        out.set_item("reads", stats.reads)?;
        out.set_item("samples", stats.samples)?;
        out.set_item("records", found)?;
        let lost = PyList::new(py, stats.failed.iter().map(|e| chain(e)))?;
        out.set_item("failed", lost)?;
        Ok(out)
    };
    match got {
        svb_convert::Recovery::Pod5(got) => {
            let out = report(&got.stats, got.reads)?;
            out.set_item("cut", py.None())?;
            out.set_item("fault", got.fault)?;
            Ok(out)
        }
        svb_convert::Recovery::Blow5(got) => {
            let out = report(&got.stats, got.records)?;
            match &got.cut {
                Some(cut) => {
                    let c = PyDict::new(py);
                    c.set_item("offset", cut.offset)?;
                    c.set_item("bytes", cut.bytes)?;
                    c.set_item("what", &cut.what)?;
                    out.set_item("cut", c)?;
                }
                None => out.set_item("cut", py.None())?,
            }
            Ok(out)
        }
    }
}

/// The reads of a BLOW5 or SLOW5 file with each sample's low bits rounded away, as slow5tools
/// degrade writes them (see `svb.degrade`).
#[pyfunction]
#[pyo3(signature = (input, output, bits = None, records = None, signal = None, keep_going = false, force = false))]
#[allow(clippy::too_many_arguments)]
pub fn degrade<'py>(
    py: Python<'py>, input: PathBuf, output: PathBuf, bits: Option<u8>, records: Option<&str>,
    signal: Option<&str>, keep_going: bool, force: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let records = records.map(crate::writers::record_compression).transpose()?;
    let signal = signal.map(crate::writers::signal_compression).transpose()?;
    let got = operation(py, keep_going, force, |how| {
        svb_convert::degrade(&input, &output, bits, records, signal, how)
    })?;
    let out = PyDict::new(py);
    out.set_item("reads", got.stats.reads)?;
    out.set_item("samples", got.stats.samples)?;
    out.set_item("bits", got.bits)?;
    out.set_item("dataset", got.dataset.map(|d| d.name))?;
    let failed = PyList::new(py, got.stats.failed.iter().map(|e| chain(e)))?;
    out.set_item("failed", failed)?;
    Ok(out)
}

/// Runs an operation: `work` given how it runs (stop or go on past a failed input or read,
/// replace an existing output or not, and the question "stop?" it asks between windows),
/// interruptibly ([`interruptible`]); its error as Python raises it ([`operation_error`]).
fn operation<T: Send>(
    py: Python<'_>, keep_going: bool, force: bool,
    work: impl FnOnce(svb_convert::Run<'_>) -> Result<T, svb_convert::ConvertError> + Send,
) -> PyResult<T> {
    let (done, interrupted) = interruptible(py, |stop| {
        work(svb_convert::Run {
            on_error: svb_convert::OnError::skip_if(keep_going),
            progress: None,
            publish: crate::writers::publish(true, force),
            interrupted: Some(stop),
        })
    });
    match (done, interrupted) {
        // A Ctrl-C that came after the operation's last look (while its output was being
        // completed): not swallowed; the operation had finished.
        (Ok(_), true) => Err(pyo3::exceptions::PyKeyboardInterrupt::new_err(
            "interrupted as the operation finished; its output is complete",
        )),
        (done, _) => done.map_err(|e| operation_error(&e)),
    }
}

/// Runs `work` (an operation, given the question "stop?" it asks between windows) with the
/// GIL released, on a thread of its own, while this thread, Python's main one, looks for
/// pending signals every 50 ms (Python runs signal handlers on its main thread alone; an
/// operation's windows are written from rayon's threads). A Ctrl-C makes the next question
/// say "stop", and asks an upload to an object store to abort ([`svb_io::interrupt`]): the
/// operation ends publishing nothing, and [`operation_error`] raises `KeyboardInterrupt` for
/// its `Interrupted` error (the handler's own exception is dropped).
fn interruptible<T: Send>(
    py: Python<'_>, work: impl FnOnce(&(dyn Fn() -> bool + Sync)) -> T + Send,
) -> (T, bool) {
    use std::sync::atomic::{AtomicBool, Ordering};
    let stop = AtomicBool::new(false);
    let asked = || stop.load(Ordering::Relaxed);
    // An upload to an object store looks at svb_io's flag (set with `stop` below).
    svb_io::clear_interrupt();
    py.detach(|| {
        std::thread::scope(|scope| {
            let (done, finished) = std::sync::mpsc::channel();
            let worker = scope.spawn(move || {
                let out = work(&asked);
                let _ = done.send(());
                out
            });
            while let Err(std::sync::mpsc::RecvTimeoutError::Timeout) =
                finished.recv_timeout(std::time::Duration::from_millis(50))
            {
                if Python::attach(|py| py.check_signals().is_err()) {
                    stop.store(true, Ordering::Relaxed);
                    svb_io::interrupt();
                }
            }
            let out = worker.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            (out, stop.load(Ordering::Relaxed))
        })
    })
}

/// An operation's error as Python raises it: `KeyboardInterrupt` when it was interrupted
/// (nothing was published), `FileExistsError` for an output that exists, else a
/// `FileFormatError` with the whole message.
fn operation_error(e: &svb_convert::ConvertError) -> PyErr {
    // Stopped between windows, or an upload aborted (nothing published either way).
    if matches!(e, svb_convert::ConvertError::Interrupted)
        || svb_io::caused_by(e, std::io::ErrorKind::Interrupted)
    {
        return pyo3::exceptions::PyKeyboardInterrupt::new_err(chain(e));
    }
    // An output the operation does not write is the caller's argument, not a bad file.
    if matches!(e, svb_convert::ConvertError::OutputFormat(_)) {
        return PyValueError::new_err(chain(e));
    }
    // What the OS refused (an output that exists, an input that does not, a folder not
    // ours) is the OSError subclass Python raises for it; a bad file is a FileFormatError.
    for kind in [
        std::io::ErrorKind::AlreadyExists,
        std::io::ErrorKind::NotFound,
        std::io::ErrorKind::PermissionDenied,
    ] {
        if svb_io::caused_by(e, kind) {
            return crate::errors::os_error(kind, chain(e));
        }
    }
    crate::errors::FileFormatError::new_err(chain(e))
}
