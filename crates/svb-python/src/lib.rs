//! `svb._svb`: the native half of the `svb` Python package. The readers of POD5 and BLOW5
//! files (signals as numpy arrays owned by numpy, no copy after the decode), their Arrow
//! stream (the C stream interface, zero copy), conversion, and the codecs on numpy arrays.
//! The Python half (`python/svb/`) wraps these in the documented API.
#![forbid(unsafe_code)]
#![deny(missing_docs)]

mod codecs;
mod dataset;
mod errors;
mod metadata;
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
    m.add_class::<reader::ArrowStream>()?;
    m.add_class::<dataset::Dataset>()?;
    m.add_class::<writers::Pod5Writer>()?;
    m.add_class::<writers::Blow5Writer>()?;
    m.add_function(wrap_pyfunction!(reader::open, m)?)?;
    m.add_function(wrap_pyfunction!(dataset::open_dataset, m)?)?;
    m.add_function(wrap_pyfunction!(reader::convert, m)?)?;
    m.add_function(wrap_pyfunction!(reader::subset, m)?)?;
    m.add_function(wrap_pyfunction!(reader::merge, m)?)?;
    m.add_function(wrap_pyfunction!(reader::split, m)?)?;
    m.add_function(wrap_pyfunction!(reader::recover, m)?)?;
    m.add_function(wrap_pyfunction!(reader::arrow_stream_of, m)?)?;
    codecs::register(m)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
