#![no_main]
//! Values built from the input round-trip through U64Coder1248 on every ISA.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let values: Vec<u64> = svb_fuzz::words::<8>(data).map(u64::from_le_bytes).collect();
    svb_fuzz::check_round_trip(svb_core::U64Coder1248, &values);
});
