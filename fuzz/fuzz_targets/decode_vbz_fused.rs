#![no_main]
//! Arbitrary bytes, count and initial value into the fused VBZ decoders: every ISA agrees
//! with scalar, and where decoding succeeds the 3-pass decoder gives the same samples.

use libfuzzer_sys::fuzz_target;
use svb_dispatch::Isa;

fuzz_target!(|data: &[u8]| {
    let (n, rest) = svb_fuzz::count_and_bytes(data);
    let (initial, bytes) = match rest {
        [a, b, tail @ ..] => (i16::from_le_bytes([*a, *b]), tail),
        _ => (0, rest),
    };
    let expected = svb_vbz::decode_vbz_fused_with(Isa::Scalar, bytes, n, initial).expect("scalar");
    for isa in Isa::available() {
        let got = svb_vbz::decode_vbz_fused_with(isa, bytes, n, initial).expect("available ISA");
        assert_eq!(got, expected, "{isa}");
    }
    if let Ok((samples, used)) = &expected {
        if initial == 0 && *used == bytes.len() {
            assert_eq!(&svb_vbz::decode_vbz(bytes, n).expect("3-pass agrees"), samples);
        }
    }
});
