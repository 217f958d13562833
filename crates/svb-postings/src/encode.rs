//! The encoder: sorted doc ids and their frequencies to the wire of the crate docs.

use svb_core::{Codec, U32Delta, U32Variant0124};

use crate::{EncodeError, BLOCK, HEADER_LEN, SKIP_ENTRY_LEN};

/// Largest encoding of `n` docs (header, skip table, and both streams of every block at
/// their widest).
pub fn max_encoded_len(n: usize) -> usize {
    let blocks = n.div_ceil(BLOCK);
    HEADER_LEN
        .saturating_add(blocks.saturating_mul(SKIP_ENTRY_LEN))
        .saturating_add(U32Delta.max_encoded_len(n))
        .saturating_add(U32Variant0124.max_encoded_len(n))
        .saturating_add(blocks) // each block's control streams round up separately
}

/// Appends the posting list of `docs` (strictly increasing) and `freqs` (each at least 1,
/// one per doc) to `out`; returns the bytes appended. Nothing is appended on error.
pub fn encode_into(docs: &[u32], freqs: &[u32], out: &mut Vec<u8>) -> Result<usize, EncodeError> {
    check(docs, freqs)?;
    let n = docs.len();
    let Ok(n32) = u32::try_from(n) else {
        return Err(EncodeError::TooLarge { docs: n, bytes: max_encoded_len(n) });
    };
    let start = out.len();
    let blocks = n.div_ceil(BLOCK);
    out.reserve(max_encoded_len(n));
    out.extend_from_slice(&n32.to_le_bytes());
    let skips = out.len();
    out.resize(skips + blocks * SKIP_ENTRY_LEN, 0);
    let data = out.len();
    let mut prev = 0u32;
    let mut minus_one = [0u32; BLOCK];
    for (b, (d, f)) in docs.chunks(BLOCK).zip(freqs.chunks(BLOCK)).enumerate() {
        U32Delta.encode_into(prev, d, out);
        for (m, &f) in minus_one.iter_mut().zip(f) {
            *m = f - 1;
        }
        U32Variant0124.encode_into(&minus_one[..f.len()], out);
        prev = d[d.len() - 1];
        let Ok(end) = u32::try_from(out.len() - data) else {
            let bytes = out.len() - data;
            out.truncate(start);
            return Err(EncodeError::TooLarge { docs: n, bytes });
        };
        let entry = skips + b * SKIP_ENTRY_LEN;
        out[entry..entry + 4].copy_from_slice(&prev.to_le_bytes());
        out[entry + 4..entry + 8].copy_from_slice(&end.to_le_bytes());
    }
    Ok(out.len() - start)
}

/// The posting list of `docs` (strictly increasing) and `freqs` (each at least 1).
///
/// ```
/// let bytes = svb_postings::encode(&[3, 7, 1000], &[1, 2, 1])?;
/// // Header, one skip entry, 1 control + 4 data bytes of doc ids, 1 control + 1 data byte
/// // of frequencies (only the 2 takes a byte).
/// assert_eq!(bytes.len(), 4 + 8 + (1 + 1 + 1 + 2) + (1 + 1));
/// assert!(svb_postings::encode(&[3, 3], &[1, 1]).is_err());
/// # Ok::<(), svb_postings::EncodeError>(())
/// ```
pub fn encode(docs: &[u32], freqs: &[u32]) -> Result<Vec<u8>, EncodeError> {
    let mut out = Vec::new();
    encode_into(docs, freqs, &mut out)?;
    Ok(out)
}

fn check(docs: &[u32], freqs: &[u32]) -> Result<(), EncodeError> {
    if docs.len() != freqs.len() {
        return Err(EncodeError::LengthMismatch { docs: docs.len(), freqs: freqs.len() });
    }
    if let Some(i) = docs.windows(2).position(|w| w[1] <= w[0]) {
        return Err(EncodeError::NotIncreasing { index: i + 1, doc: docs[i + 1], prev: docs[i] });
    }
    if let Some(index) = freqs.iter().position(|&f| f == 0) {
        return Err(EncodeError::ZeroFrequency { index });
    }
    Ok(())
}
