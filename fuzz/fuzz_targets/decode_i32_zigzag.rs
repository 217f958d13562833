#![no_main]
//! Arbitrary bytes and count into I32Zigzag's fused decoders: every ISA agrees with scalar,
//! no panic.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| svb_fuzz::check_decode(svb_core::I32Zigzag, data));
