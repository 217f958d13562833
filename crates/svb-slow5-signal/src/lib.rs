//! slow5lib's signal codecs for nanopore raw signal, byte-exact with slow5lib:
//!
//! - [SVB-ZD](svbzd): StreamVByte-1234 over zigzag deltas taken in 32 bits;
//! - [ex-zd](exzd): one byte per small zigzag delta, exceptions on the side, an optional
//!   bit shift;
//!
//! The BLOW5 file format that stores them is the `svb-blow5` crate. Every decoder takes
//! untrusted input: typed errors, no panic, no allocation a header
//! claims before the bytes could hold it.
//!
//! ```
//! let signal: Vec<i16> = (0..5000).map(|i| 450 + ((i * 7) % 40) as i16).collect();
//! let blob = svb_slow5_signal::svbzd::encode_blob(&signal); // as a BLOW5 record stores it
//! assert_eq!(svb_slow5_signal::svbzd::decode_blob(&blob)?, signal);
//! let ex = svb_slow5_signal::encode_exzd(&signal);
//! assert_eq!(svb_slow5_signal::decode_exzd(&ex)?, signal);
//! # Ok::<(), svb_slow5_signal::SignalError>(())
//! ```

mod error;
pub mod exzd;
pub mod svbzd;

pub use error::SignalError;
pub use exzd::{
    decode_exzd, decode_exzd_fused, decode_exzd_fused_into, decode_exzd_fused_with,
    decode_exzd_into, encode_exzd, encode_exzd_into, ExZdDecoder,
};
pub use svbzd::{
    decode_svbzd, decode_svbzd_fused, decode_svbzd_fused_from, decode_svbzd_fused_from_into,
    decode_svbzd_fused_into, decode_svbzd_fused_with, decode_svbzd_into, encode_svbzd,
    encode_svbzd_into,
};

/// The vector `fill` appends to (the allocating forms of the `_into` functions).
pub(crate) fn filled<T, E>(fill: impl FnOnce(&mut Vec<T>) -> Result<(), E>) -> Result<Vec<T>, E> {
    let mut out = Vec::new();
    fill(&mut out)?;
    Ok(out)
}
