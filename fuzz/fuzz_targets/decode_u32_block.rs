#![no_main]
//! Arbitrary bytes into `svb_core::Decoder::decode_block` at 128 and 33 values, for the plain
//! wires and the delta wire (the first byte picks which): every ISA's decoder gives what the
//! scalar kernel gives, values and errors alike, and nothing panics.

use libfuzzer_sys::fuzz_target;
use svb_core::{
    BlockCodec, Codec, DecodeError, Decoder, Isa, U32Classic, U32Delta, U32Variant0124,
};

/// Every decoder of `codec` this CPU runs, its `N`-value block decode against `reference`.
fn check<C: BlockCodec, const N: usize>(
    codec: C, input: &[u8], reference: impl Fn(&[u8], &mut [u32]) -> Result<usize, DecodeError>,
    run: impl Fn(&Decoder<C>, &[u8], &mut [u32; N]) -> Result<usize, DecodeError>,
) {
    let mut want = [0u32; N];
    let expected = reference(input, &mut want);
    for isa in Isa::available() {
        let Some(decoder) = Decoder::with_isa(codec, isa) else { continue };
        let mut got = [0u32; N];
        let result = run(&decoder, input, &mut got);
        assert_eq!(result, expected, "{isa}");
        if expected.is_ok() {
            assert_eq!(got, want, "{isa}");
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, input)) = data.split_first() else {
        return;
    };
    match pick % 3 {
        0 => {
            let scalar = U32Classic.kernels_for(Isa::Scalar).unwrap();
            let reference = |i: &[u8], o: &mut [u32]| scalar.decode_to_slice(i, o);
            check::<_, 128>(U32Classic, input, reference, |d, i, o| d.decode_block(i, o));
            check::<_, 33>(U32Classic, input, reference, |d, i, o| d.decode_block(i, o));
        }
        1 => {
            let scalar = U32Variant0124.kernels_for(Isa::Scalar).unwrap();
            let reference = |i: &[u8], o: &mut [u32]| scalar.decode_to_slice(i, o);
            check::<_, 128>(U32Variant0124, input, reference, |d, i, o| d.decode_block(i, o));
            check::<_, 33>(U32Variant0124, input, reference, |d, i, o| d.decode_block(i, o));
        }
        _ => {
            let prev = u32::from(pick) * 0x0101_0101;
            let scalar = U32Delta.kernels_for(Isa::Scalar).unwrap();
            let reference = |i: &[u8], o: &mut [u32]| scalar.decode_to_slice(i, prev, o);
            check::<_, 128>(U32Delta, input, reference, |d, i, o| d.decode_block_from(i, prev, o));
            check::<_, 33>(U32Delta, input, reference, |d, i, o| d.decode_block_from(i, prev, o));
        }
    }
});
