//! `svb._svb`: the native half of the `svb` Python package. The readers of POD5 and BLOW5
//! files (signals as numpy arrays owned by numpy, no copy after the decode), their Arrow
//! stream (the C stream interface, zero copy), conversion, and the codecs on numpy arrays.
//! The Python half (`python/svb/`) wraps these in the documented API.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod arrow;
mod codecs;
mod dataset;
mod errors;
mod metadata;
mod operations;
mod reader;
mod writers;

use pyo3::prelude::*;

/// Sets the object store options (object_store's configuration keys: `skip_signature`,
/// `aws_region`, `aws_endpoint`, `allow_http`, `timeout`, ...) every store opened from now on
/// is built with, on top of the environment's; the CLI's `--storage-option`.
#[pyfunction]
fn set_storage_options(options: std::collections::HashMap<String, String>) {
    svb_io::remote::set_options(options);
}

/// The URLs of the objects a URL prefix (ending in `/`) or pattern (with `*`) names, in name
/// order (every one below a prefix with `recursive`); `None` for the URL of one object.
#[pyfunction]
fn list_objects(py: Python<'_>, url: String, recursive: bool) -> PyResult<Option<Vec<String>>> {
    match py.detach(|| svb_io::list_objects(&url, recursive)) {
        None => Ok(None),
        Some(Ok(urls)) => Ok(Some(urls)),
        Some(Err(e)) => {
            Err(crate::errors::os_error(e.kind(), format!("{}: {e}", svb_io::shown_url(&url))))
        }
    }
}

/// The native module.
/// Runs the `svb` command with `argv` (the first the program's name, as `sys.argv`), as the
/// binary runs it: what the package's `svb` console script calls. Returns its exit status.
#[pyfunction]
fn cli_main(py: Python<'_>, argv: Vec<std::ffi::OsString>) -> i32 {
    py.detach(|| i32::from(svb_cli::run_with(argv)))
}

#[pymodule]
fn _svb(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(m)?;
    m.add_class::<reader::Reader>()?;
    m.add_class::<reader::Read>()?;
    m.add_class::<reader::ReadIter>()?;
    m.add_class::<arrow::ArrowStream>()?;
    m.add_class::<dataset::Dataset>()?;
    m.add_class::<writers::Pod5Writer>()?;
    m.add_class::<writers::Blow5Writer>()?;
    m.add_function(wrap_pyfunction!(reader::open, m)?)?;
    m.add_function(wrap_pyfunction!(dataset::open_dataset, m)?)?;
    m.add_function(wrap_pyfunction!(operations::convert, m)?)?;
    m.add_function(wrap_pyfunction!(operations::subset, m)?)?;
    m.add_function(wrap_pyfunction!(operations::merge, m)?)?;
    m.add_function(wrap_pyfunction!(operations::split, m)?)?;
    m.add_function(wrap_pyfunction!(operations::recover, m)?)?;
    m.add_function(wrap_pyfunction!(operations::degrade, m)?)?;
    m.add_function(wrap_pyfunction!(arrow::arrow_stream_of, m)?)?;
    m.add_function(wrap_pyfunction!(set_storage_options, m)?)?;
    m.add_function(wrap_pyfunction!(list_objects, m)?)?;
    m.add_function(wrap_pyfunction!(cli_main, m)?)?;
    codecs::register(m)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
