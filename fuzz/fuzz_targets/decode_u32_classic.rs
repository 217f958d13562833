#![no_main]
//! Arbitrary bytes and count into U32Classic's decoders: every ISA agrees with scalar (the
//! offset decoders too), no panic.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    svb_fuzz::check_decode(svb_core::U32Classic, data);
    svb_fuzz::check_decode_offset(
        svb_core::U32Classic,
        |isa| svb_core::U32Classic.offset_kernels_for(isa),
        data,
    );
});
