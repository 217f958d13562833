//! Checks shared by the fuzz targets: every ISA this CPU runs must agree with the scalar
//! kernel on any input, and round trips must be exact.

use svb_core::{Codec, Isa, Kernels};

/// Splits fuzz input into a value count (first 2 bytes, so counts stay near the input size
/// and the interesting paths run) and the bytes to decode.
pub fn count_and_bytes(data: &[u8]) -> (usize, &[u8]) {
    match data {
        [a, b, rest @ ..] => (u16::from_le_bytes([*a, *b]) as usize % 8192, rest),
        _ => (0, data),
    }
}

fn decode_with<T: Copy + Default>(
    k: &Kernels<T>, bytes: &[u8], n: usize,
) -> Result<(Vec<T>, usize), svb_core::DecodeError> {
    let mut out = vec![T::default(); n];
    let used = k.decode_to_slice(bytes, &mut out)?;
    Ok((out, used))
}

fn encode_with<T: Copy>(
    codec: &impl Codec<Value = T>, k: &Kernels<T>, values: &[T],
) -> Result<Vec<u8>, svb_core::EncodeError> {
    let mut out = vec![0u8; codec.max_encoded_len(values.len())];
    let len = k.encode_to_slice(values, &mut out)?;
    out.truncate(len);
    Ok(out)
}

/// Decodes arbitrary bytes with every ISA: no panic, identical results, and the `Vec` API
/// and `encoded_len` agree with the kernels.
pub fn check_decode<C>(codec: C, data: &[u8])
where
    C: Codec,
    C::Value: Copy + Default + PartialEq + std::fmt::Debug,
{
    let (n, bytes) = count_and_bytes(data);
    let scalar = codec.kernels_for(Isa::Scalar).expect("scalar kernels");
    let expected = decode_with(scalar, bytes, n);
    for isa in Isa::available() {
        let k = codec.kernels_for(isa).expect("available ISA has kernels");
        assert_eq!(decode_with(k, bytes, n), expected, "{} {isa}", codec.name());
    }
    let mut appended = Vec::new();
    match (&expected, codec.decode_into(bytes, n, &mut appended)) {
        (Ok((values, used)), Ok(used2)) => {
            assert_eq!((values, *used), (&appended, used2));
            assert_eq!(codec.encoded_len(bytes, n), Ok(*used));
        }
        // The Vec API refuses implausibly short input up front, with its own error.
        (Err(_), Err(svb_core::DecodeError::TooShortForCount { .. })) => {}
        (Err(e1), Err(e2)) => assert_eq!(e1, &e2),
        (a, b) => panic!("kernel {a:?} but decode_into {b:?}"),
    }
}

/// The offset decoders of a plain u32 wire (`offset_kernels_for`) on arbitrary bytes: every
/// ISA gives the plain scalar decode's result, each value plus the base.
pub fn check_decode_offset(
    codec: impl Codec<Value = u32>,
    offset_for: impl Fn(Isa) -> Option<&'static svb_core::OffsetKernels>, data: &[u8],
) {
    let (n, bytes) = count_and_bytes(data);
    // A base from the count, wrapping for most counts.
    let base = (n as u32).wrapping_mul(0x9E37_79B9);
    let scalar = codec.kernels_for(Isa::Scalar).expect("scalar kernels");
    let expected = decode_with(scalar, bytes, n)
        .map(|(v, used)| (v.iter().map(|x| x.wrapping_add(base)).collect::<Vec<_>>(), used));
    for isa in Isa::available() {
        let k = offset_for(isa).expect("available ISA has offset kernels");
        let mut out = vec![0u32; n];
        let got = k.decode_to_slice(bytes, base, &mut out).map(|used| (out, used));
        assert_eq!(got, expected, "{} offset {isa}", codec.name());
    }
}

/// Values from bytes -> encode with every ISA (identical bytes) -> decode (identical values).
pub fn check_round_trip<C>(codec: C, values: &[C::Value])
where
    C: Codec,
    C::Value: Copy + Default + PartialEq + std::fmt::Debug,
{
    let scalar = codec.kernels_for(Isa::Scalar).expect("scalar kernels");
    let Ok(reference) = encode_with(&codec, scalar, values) else {
        for isa in Isa::available() {
            let k = codec.kernels_for(isa).expect("available ISA has kernels");
            assert!(encode_with(&codec, k, values).is_err(), "{} {isa}", codec.name());
        }
        return;
    };
    for isa in Isa::available() {
        let k = codec.kernels_for(isa).expect("available ISA has kernels");
        assert_eq!(
            encode_with(&codec, k, values).as_ref(),
            Ok(&reference),
            "{} {isa}",
            codec.name()
        );
        assert_eq!(
            decode_with(k, &reference, values.len()),
            Ok((values.to_vec(), reference.len()))
        );
    }
    assert_eq!(codec.decode(&reference, values.len()).as_deref(), Ok(values));
}

/// Little-endian words of `N` bytes from `data` (a trailing partial word is dropped).
pub fn words<const N: usize>(data: &[u8]) -> impl Iterator<Item = [u8; N]> + '_ {
    data.chunks_exact(N).map(|c| c.try_into().expect("chunk of N bytes"))
}

/// Arbitrary bytes into U32Delta's decoders (count from the first 2 bytes, `prev` from the
/// next 4): every ISA agrees with scalar, the `Vec` API with the kernels, no panic.
pub fn check_decode_delta(data: &[u8]) {
    use svb_core::U32Delta;
    let (n, rest) = count_and_bytes(data);
    let (prev, bytes) = match rest {
        [a, b, c, d, bytes @ ..] => (u32::from_le_bytes([*a, *b, *c, *d]), bytes),
        _ => (0, rest),
    };
    let run = |isa: Isa| {
        let k = U32Delta.kernels_for(isa).expect("available ISA has kernels");
        let mut out = vec![0u32; n];
        k.decode_to_slice(bytes, prev, &mut out).map(|used| (out, used))
    };
    let expected = run(Isa::Scalar);
    for isa in Isa::available() {
        assert_eq!(run(isa), expected, "U32Delta {isa}");
    }
    // The fused increasing decode: the plain decode's error, or the definition's verdict
    // (with no value before, the deltas are taken from 0).
    for from in [Some(prev), None] {
        let plain = if from.is_some() {
            expected.clone()
        } else {
            let mut out = vec![0u32; n];
            U32Delta
                .kernels_for(Isa::Scalar)
                .expect("scalar kernels")
                .decode_to_slice(bytes, 0, &mut out)
                .map(|used| (out, used))
        };
        let want = plain.and_then(|(values, used)| {
            let first_bad = match (from, values.first()) {
                (Some(p), Some(&f)) if f <= p => Some(0),
                _ => values.windows(2).position(|w| w[1] <= w[0]).map(|i| i + 1),
            };
            match first_bad {
                Some(index) => Err(svb_core::DecodeError::NotIncreasing { index }),
                None => Ok(used),
            }
        });
        for isa in Isa::available() {
            let k = U32Delta.kernels_for(isa).expect("available ISA");
            let mut out = vec![0u32; n];
            let got = k.decode_increasing_to_slice(bytes, from, &mut out);
            assert_eq!(got, want, "U32Delta increasing {isa} from {from:?}");
        }
    }
    let mut appended = Vec::new();
    match (&expected, U32Delta.decode_into(bytes, n, prev, &mut appended)) {
        (Ok((values, used)), Ok(used2)) => {
            assert_eq!((values, *used), (&appended, used2));
            // Re-encoding the values gives the same stream (the wire is canonical).
            let again = U32Delta.encode(prev, values);
            assert_eq!(U32Delta.decode(&again, n, prev).as_ref(), Ok(values));
            // The strictly-increasing check (what the postings reader runs on such values):
            // every ISA gives the definition's answer.
            let want = values.windows(2).all(|w| w[1] > w[0]);
            for isa in Isa::available() {
                let k = svb_delta::increasing::kernels_for(isa).expect("available ISA");
                assert_eq!(k.strictly_increasing(values), want, "increasing {isa}");
            }
        }
        (Err(_), Err(svb_core::DecodeError::TooShortForCount { .. })) => {}
        (Err(e1), Err(e2)) => assert_eq!(e1, &e2),
        (a, b) => panic!("kernel {a:?} but decode_into {b:?}"),
    }
}

/// Arbitrary bytes as a posting list, read every way (`next` + `freq`, `next_block`,
/// `advance` to targets from the input's first bytes): errors or docs, never a panic, and
/// whatever decodes is strictly increasing and agrees across the ways.
pub fn check_postings(data: &[u8]) {
    use svb_postings::Postings;
    let (targets, bytes) = data.split_at(data.len().min(16));
    let by_next = (|| {
        let mut p = Postings::new(bytes)?;
        let mut v = Vec::new();
        while let Some(d) = p.next()? {
            v.push((d, p.freq()?));
        }
        Ok::<_, svb_postings::PostingsError>(v)
    })();
    let by_block = (|| {
        let mut p = Postings::new(bytes)?;
        let mut v = Vec::new();
        while let Some(b) = p.next_block()? {
            v.extend(b.docs().iter().copied().zip(b.freqs().iter().copied()));
        }
        Ok::<_, svb_postings::PostingsError>(v)
    })();
    if let (Ok(a), Ok(b)) = (&by_next, &by_block) {
        assert_eq!(a, b);
        assert!(a.windows(2).all(|w| w[0].0 < w[1].0) || a.is_empty());
    }
    if let Ok(mut p) = Postings::new(bytes) {
        let mut last = 0u32;
        for t in targets.chunks(4) {
            let mut w = [0u8; 4];
            w[..t.len()].copy_from_slice(t);
            let target = last.max(u32::from_le_bytes(w) >> (t[0] % 24));
            match p.advance(target) {
                Ok(Some(d)) => {
                    assert!(d >= target);
                    if let Ok(all) = &by_next {
                        let want = all.iter().find(|(x, _)| *x >= target).map(|x| x.0);
                        assert_eq!(Some(d), want);
                    }
                    let _ = p.freq();
                    last = d;
                }
                Ok(None) | Err(_) => break,
            }
        }
    }
}
