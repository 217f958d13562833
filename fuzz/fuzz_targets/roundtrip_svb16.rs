#![no_main]
//! Values built from the input round-trip through Svb16 on every ISA.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let values: Vec<u16> = svb_fuzz::words::<2>(data).map(u16::from_le_bytes).collect();
    svb_fuzz::check_round_trip(svb_core::Svb16, &values);
});
