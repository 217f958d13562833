#![no_main]
//! Values built from the input round-trip through U64Coder1234 on every ISA (mostly below
//! 2^32; a value above must be refused identically by every ISA).

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let values: Vec<u64> = svb_fuzz::words::<5>(data)
        .map(|w| {
            let v = u32::from_le_bytes([w[0], w[1], w[2], w[3]]) as u64;
            if w[4] == 0xFF {
                v | 1 << 32
            } else {
                v
            }
        })
        .collect();
    svb_fuzz::check_round_trip(svb_core::U64Coder1234, &values);
});
