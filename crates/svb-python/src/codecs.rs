//! The codecs on numpy arrays: StreamVByte u32 (lemire's classic wire and the 0124 wire),
//! ONT's svb16, POD5's VBZ and PDZ, slow5lib's SVB-ZD and ex-zd. Inputs are read in place (a numpy
//! array's buffer, or a bytes object); outputs are numpy arrays that own what was decoded.

use numpy::{PyArray1, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::pybacked::PyBackedBytes;
use pyo3::types::PyBytes;
use svb_core::{Codec, Svb16, U32Classic, U32Variant0124};

use crate::errors::codec_error;

/// Encoded bytes: a `bytes` object, or a numpy uint8 array (read in place either way).
#[derive(FromPyObject)]
enum Bytes<'py> {
    Array(PyReadonlyArray1<'py, u8>),
    Bytes(PyBackedBytes),
}

impl Bytes<'_> {
    fn with<R>(&self, f: impl FnOnce(&[u8]) -> R) -> PyResult<R> {
        Ok(match self {
            Bytes::Bytes(b) => f(b),
            Bytes::Array(a) => f(a.as_slice()?),
        })
    }
}

/// `encode` of `values` (read in place) with the GIL released, as a `bytes` object.
fn encoded<'py, T: numpy::Element + Sync>(
    py: Python<'py>, values: PyReadonlyArray1<'py, T>, encode: impl FnOnce(&[T]) -> Vec<u8> + Send,
) -> PyResult<Bound<'py, PyBytes>> {
    let v = values.as_slice()?;
    let out = py.detach(|| encode(v));
    Ok(PyBytes::new(py, &out))
}

/// `decode` of `data` (read in place) with the GIL released, as a numpy array that owns the
/// values; its error raised as a `CodecError`.
fn decoded<'py, T: numpy::Element + Send, E: std::error::Error + Send + 'static>(
    py: Python<'py>, data: Bytes<'py>, decode: impl FnOnce(&[u8]) -> Result<Vec<T>, E> + Send,
) -> PyResult<Bound<'py, PyArray1<T>>> {
    let out = data.with(|d| py.detach(|| decode(d)))?;
    Ok(PyArray1::from_vec(py, out.map_err(|e| codec_error(&e))?))
}

fn wire(variant: &str) -> PyResult<bool> {
    match variant {
        "1234" | "classic" => Ok(false),
        "0124" => Ok(true),
        o => Err(PyValueError::new_err(format!(
            "variant={o:?}: \"1234\" (lemire's streamvbyte_encode) or \"0124\""
        ))),
    }
}

/// StreamVByte of uint32 values: all control bytes, then all data bytes; `variant` "1234"
/// (lemire's `streamvbyte_encode`) or "0124" (`streamvbyte_encode_0124`).
#[pyfunction]
#[pyo3(signature = (values, variant = "1234"))]
fn streamvbyte_encode<'py>(
    py: Python<'py>, values: PyReadonlyArray1<'py, u32>, variant: &str,
) -> PyResult<Bound<'py, PyBytes>> {
    let zero124 = wire(variant)?;
    encoded(py, values, |v| if zero124 { U32Variant0124.encode(v) } else { U32Classic.encode(v) })
}

/// The `n` uint32 values of StreamVByte bytes (the count is not stored).
#[pyfunction]
#[pyo3(signature = (data, n, variant = "1234"))]
fn streamvbyte_decode<'py>(
    py: Python<'py>, data: Bytes<'py>, n: usize, variant: &str,
) -> PyResult<Bound<'py, PyArray1<u32>>> {
    let zero124 = wire(variant)?;
    decoded(
        py,
        data,
        |d| if zero124 { U32Variant0124.decode(d, n) } else { U32Classic.decode(d, n) },
    )
}

/// ONT's svb16 of uint16 values (the integer stage of VBZ).
#[pyfunction]
fn svb16_encode<'py>(
    py: Python<'py>, values: PyReadonlyArray1<'py, u16>,
) -> PyResult<Bound<'py, PyBytes>> {
    encoded(py, values, |v| Svb16.encode(v))
}

/// The `n` uint16 values of svb16 bytes.
#[pyfunction]
fn svb16_decode<'py>(
    py: Python<'py>, data: Bytes<'py>, n: usize,
) -> PyResult<Bound<'py, PyArray1<u16>>> {
    decoded(py, data, |d| Svb16.decode(d, n))
}

/// A POD5 signal chunk as lib_pod5 stores it (VBZ: svb16 of zigzag deltas, then zstd level 1).
#[pyfunction]
fn vbz_compress<'py>(
    py: Python<'py>, signal: PyReadonlyArray1<'py, i16>,
) -> PyResult<Bound<'py, PyBytes>> {
    encoded(py, signal, svb_vbz::pod5_blob::compress_signal)
}

/// The `n` samples of a POD5 VBZ chunk (the count is the signal table's).
#[pyfunction]
fn vbz_decompress<'py>(
    py: Python<'py>, data: Bytes<'py>, n: usize,
) -> PyResult<Bound<'py, PyArray1<i16>>> {
    decoded(py, data, |d| {
        let mut out = Vec::new();
        svb_vbz::pod5_blob::decompress_signal_into(d, n, &mut out).map(|()| out)
    })
}

/// A POD5 signal chunk as ONT's PDZ codec stores it (`minknow.pdz`: a header, the 2-bit
/// pieces raw, the 8-bit and 6-bit planes each a zstd level-1 frame).
#[pyfunction]
fn pdz_compress<'py>(
    py: Python<'py>, signal: PyReadonlyArray1<'py, i16>,
) -> PyResult<Bound<'py, PyBytes>> {
    let v = signal.as_slice()?;
    let out = py.detach(|| svb_pdz::encode(v)).map_err(|e| codec_error(&e))?;
    Ok(PyBytes::new(py, &out))
}

/// The `n` samples of a PDZ block (the count its POD5 row gives; the block's own header must
/// agree).
#[pyfunction]
fn pdz_decompress<'py>(
    py: Python<'py>, data: Bytes<'py>, n: usize,
) -> PyResult<Bound<'py, PyArray1<i16>>> {
    decoded(py, data, |d| svb_pdz::decode(d, n))
}

/// A signal as slow5lib stores it in BLOW5 with SVB-ZD signal compression.
#[pyfunction]
fn svbzd_encode<'py>(
    py: Python<'py>, signal: PyReadonlyArray1<'py, i16>,
) -> PyResult<Bound<'py, PyBytes>> {
    encoded(py, signal, svb_slow5_signal::svbzd::encode_blob)
}

/// The samples of a BLOW5 SVB-ZD signal (its count is in the blob).
#[pyfunction]
fn svbzd_decode<'py>(py: Python<'py>, data: Bytes<'py>) -> PyResult<Bound<'py, PyArray1<i16>>> {
    decoded(py, data, svb_slow5_signal::svbzd::decode_blob)
}

/// A signal as slow5lib stores it in BLOW5 with ex-zd signal compression.
#[pyfunction]
fn exzd_encode<'py>(
    py: Python<'py>, signal: PyReadonlyArray1<'py, i16>,
) -> PyResult<Bound<'py, PyBytes>> {
    encoded(py, signal, svb_slow5_signal::encode_exzd)
}

/// The samples of a BLOW5 ex-zd signal.
#[pyfunction]
fn exzd_decode<'py>(py: Python<'py>, data: Bytes<'py>) -> PyResult<Bound<'py, PyArray1<i16>>> {
    decoded(py, data, svb_slow5_signal::decode_exzd)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(streamvbyte_encode, m)?)?;
    m.add_function(wrap_pyfunction!(streamvbyte_decode, m)?)?;
    m.add_function(wrap_pyfunction!(svb16_encode, m)?)?;
    m.add_function(wrap_pyfunction!(svb16_decode, m)?)?;
    m.add_function(wrap_pyfunction!(vbz_compress, m)?)?;
    m.add_function(wrap_pyfunction!(vbz_decompress, m)?)?;
    m.add_function(wrap_pyfunction!(pdz_compress, m)?)?;
    m.add_function(wrap_pyfunction!(pdz_decompress, m)?)?;
    m.add_function(wrap_pyfunction!(svbzd_encode, m)?)?;
    m.add_function(wrap_pyfunction!(svbzd_decode, m)?)?;
    m.add_function(wrap_pyfunction!(exzd_encode, m)?)?;
    m.add_function(wrap_pyfunction!(exzd_decode, m)?)?;
    Ok(())
}
