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

/// The native module.
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
    m.add_function(wrap_pyfunction!(arrow::arrow_stream_of, m)?)?;
    codecs::register(m)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
