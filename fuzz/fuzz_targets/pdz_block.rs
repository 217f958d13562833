#![no_main]
//! PDZ blocks: arbitrary bytes decoded for a sample count taken from the first two bytes
//! (every ISA gives what the scalar merge gives, values and errors alike, and nothing
//! panics); the rest as int16 samples encoded (the same block by every ISA's split) and
//! decoded back exactly; and the encoding of
//! those samples with its planes' bytes edited by the input, so that the merges see hostile
//! pieces inside valid frames.

use libfuzzer_sys::fuzz_target;
use svb_pdz::Isa;

fn every_isa_alike(block: &[u8], n: usize) {
    let mut want = vec![0i16; n];
    let expected = svb_pdz::decode_into_with_isa(block, &mut want, Isa::Scalar).unwrap();
    for isa in Isa::available() {
        let mut got = vec![0i16; n];
        let result = svb_pdz::decode_into_with_isa(block, &mut got, isa).unwrap();
        assert_eq!(result, expected, "{isa}");
        if expected.is_ok() {
            assert_eq!(got, want, "{isa}");
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((count, rest)) = data.split_first_chunk::<2>() else {
        return;
    };
    let n = u16::from_le_bytes(*count) as usize;
    every_isa_alike(rest, n);

    let samples: Vec<i16> =
        rest.chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]])).collect();
    let block = svb_pdz::encode(&samples).unwrap();
    assert_eq!(svb_pdz::decode(&block, samples.len()).unwrap(), samples);
    for isa in Isa::available() {
        assert_eq!(svb_pdz::encode_with_isa(&samples, isa).unwrap().unwrap(), block, "{isa}");
    }
    every_isa_alike(&block, samples.len());

    // B_u edited in place by the input's bytes (raw: the block stays valid).
    let mut edited = block.clone();
    let u = svb_pdz::HEADER_LEN..svb_pdz::HEADER_LEN + samples.len().div_ceil(4);
    for (b, &x) in edited[u].iter_mut().zip(rest.iter().rev()) {
        *b ^= x;
    }
    every_isa_alike(&edited, samples.len());
});
