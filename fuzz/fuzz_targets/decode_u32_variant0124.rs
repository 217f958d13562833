#![no_main]
//! Arbitrary bytes and count into U32Variant0124's decoders: every ISA agrees with scalar (the
//! offset decoders too), no panic.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    svb_fuzz::check_decode(svb_core::U32Variant0124, data);
    svb_fuzz::check_decode_offset(
        svb_core::U32Variant0124,
        |isa| svb_core::U32Variant0124.offset_kernels_for(isa),
        data,
    );
});
