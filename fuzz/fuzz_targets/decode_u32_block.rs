#![no_main]
//! Arbitrary bytes into `svb_core::Decoder`'s block entries at 128 and 33 values (the first
//! byte picks which): `decode_block` and `decode_block_offset` of the plain wires,
//! `decode_block_from` and `decode_increasing_block_from` of the delta wire. Every ISA's
//! decoder gives what the scalar kernel's slice decode gives, values and errors alike, and
//! nothing panics.

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
    match pick % 6 {
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
        2 => {
            let base = u32::from(pick).wrapping_mul(0x0100_0001);
            let scalar = U32Variant0124.offset_kernels_for(Isa::Scalar).unwrap();
            let reference = |i: &[u8], o: &mut [u32]| scalar.decode_to_slice(i, base, o);
            check::<_, 128>(U32Variant0124, input, reference, |d, i, o| {
                d.decode_block_offset(i, base, o)
            });
            let scalar = U32Classic.offset_kernels_for(Isa::Scalar).unwrap();
            let reference = |i: &[u8], o: &mut [u32]| scalar.decode_to_slice(i, base, o);
            check::<_, 33>(U32Classic, input, reference, |d, i, o| {
                d.decode_block_offset(i, base, o)
            });
        }
        3 | 4 => {
            // Half of them with no value before; the rest from a small prev, so that streams
            // of small deltas increase.
            let prev = (pick % 4 == 0).then_some(u32::from(pick));
            let scalar = U32Delta.kernels_for(Isa::Scalar).unwrap();
            let reference = |i: &[u8], o: &mut [u32]| scalar.decode_increasing_to_slice(i, prev, o);
            check::<_, 128>(U32Delta, input, reference, |d, i, o| {
                d.decode_increasing_block_from(i, prev, o)
            });
            check::<_, 33>(U32Delta, input, reference, |d, i, o| {
                d.decode_increasing_block_from(i, prev, o)
            });
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
