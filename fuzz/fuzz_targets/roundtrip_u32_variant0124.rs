#![no_main]
//! Values built from the input round-trip through U32Variant0124 on every ISA.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let values: Vec<u32> = svb_fuzz::words::<4>(data).map(u32::from_le_bytes).collect();
    svb_fuzz::check_round_trip(svb_core::U32Variant0124, &values);
});
