#![no_main]
//! Arbitrary bytes, count and prev into U32Delta's fused decoders: every ISA agrees with
//! scalar, no panic.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| svb_fuzz::check_decode_delta(data));
