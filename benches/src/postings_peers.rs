//! The two baselines of the postings benchmarks, with the reader API of
//! [`svb_postings::Postings`] (`next`, `advance`, `doc`, `freq`):
//!
//! - [`VInt`]: Lucene's classic postings: per doc a VInt of `delta << 1 | (freq == 1)`, then
//!   the frequency as a VInt when it is not 1; a skip entry (last doc, byte offset) every 128
//!   docs, searched by galloping like ours.
//! - [`Naive4`]: StreamVByte used the way the seed 004 reader used it: docs in groups of 4
//!   (a control byte and the data of the 4 doc deltas, then a control byte and the data of
//!   their frequencies), the reader refilling a 4-doc buffer with a `decode4` at every
//!   fourth doc; the same skip entries (at group boundaries) as VInt.
//!
//! - [`BitPacked`]: tantivy's postings: every 128-doc block's doc deltas bit-packed by the
//!   `bitpacking` crate's `BitPacker4x` (`compress_sorted`, one bit width a block) and its
//!   frequencies (minus one, as ours) packed after them (`compress`); the docs after the
//!   last whole block as VInt, as tantivy writes them. The reader has our cursor's shape:
//!   128-doc buffers, frequencies decoded on first use, the skip table searched by galloping.
//!
//! All read untrusted bytes safely (slice indexing; a short input ends the list).

/// Docs between skip entries.
const SKIP: usize = 128;

/// An encoded baseline list: its bytes and its skip entries (last doc, byte offset after it).
pub struct Encoded {
    bytes: Vec<u8>,
    skips: Vec<(u32, u32)>,
    len: usize,
}

impl Encoded {
    /// Bytes of the list (skip entries not counted).
    pub fn bytes(&self) -> usize {
        self.bytes.len()
    }

    /// Where a reader at byte `at` looking for `target` should jump: past every whole
    /// 128-doc run whose last doc is below the target, as `(last doc skipped, byte offset,
    /// docs read)`; `None` when no run can be skipped. `next_skip` (the first entry not yet
    /// passed) moves along.
    fn skip_to(
        &self, next_skip: &mut usize, at: usize, target: u32,
    ) -> Option<(u32, usize, usize)> {
        let skips = &self.skips;
        while *next_skip < skips.len() && (skips[*next_skip].1 as usize) <= at {
            *next_skip += 1;
        }
        if *next_skip >= skips.len() || skips[*next_skip].0 >= target {
            return None;
        }
        let i = find_skip(skips, *next_skip, target).unwrap_or(skips.len());
        *next_skip = i;
        let (doc, at) = skips[i - 1];
        Some((doc, at as usize, i * SKIP))
    }
}

fn write_vint(out: &mut Vec<u8>, mut v: u32) {
    while v >= 0x80 {
        out.push(v as u8 | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

#[inline(always)]
fn read_vint(bytes: &[u8], at: &mut usize) -> Option<u32> {
    let mut v = 0u32;
    let mut shift = 0;
    loop {
        let b = *bytes.get(*at)?;
        *at += 1;
        v |= ((b & 0x7F) as u32) << shift;
        if b < 0x80 {
            return Some(v);
        }
        shift += 7;
        if shift > 28 {
            return None;
        }
    }
}

/// The first skip entry from `from` whose last doc is at or above `target` (galloping).
fn find_skip(skips: &[(u32, u32)], from: usize, target: u32) -> Option<usize> {
    let rest = skips.get(from..)?;
    let (mut lo, mut hi, mut step) = (0usize, 0usize, 1usize);
    while hi < rest.len() && rest[hi].0 < target {
        lo = hi + 1;
        hi += step;
        step *= 2;
    }
    let hi = hi.min(rest.len());
    Some(from + lo + rest[lo..hi].partition_point(|s| s.0 < target)).filter(|&i| i < skips.len())
}

/// Lucene-style VInt postings.
pub struct VInt;

impl VInt {
    /// Encodes sorted `docs` and their `freqs` (at least 1).
    pub fn encode(docs: &[u32], freqs: &[u32]) -> Encoded {
        let mut bytes = Vec::with_capacity(docs.len() * 2);
        let mut skips = Vec::new();
        let mut prev = 0;
        for (i, (&d, &f)) in docs.iter().zip(freqs).enumerate() {
            let delta = d - prev;
            prev = d;
            write_vint(&mut bytes, (delta << 1) | (f == 1) as u32);
            if f != 1 {
                write_vint(&mut bytes, f);
            }
            if (i + 1) % SKIP == 0 {
                skips.push((d, bytes.len() as u32));
            }
        }
        Encoded { bytes, skips, len: docs.len() }
    }

    /// A reader over `list`.
    pub fn reader(list: &Encoded) -> VIntReader<'_> {
        VIntReader { list, at: 0, read: 0, doc: 0, freq: 0, next_skip: 0, started: false }
    }
}

/// The VInt reader.
pub struct VIntReader<'a> {
    list: &'a Encoded,
    at: usize,
    read: usize,
    doc: u32,
    freq: u32,
    next_skip: usize,
    started: bool,
}

impl VIntReader<'_> {
    /// The next doc.
    #[inline]
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Option<u32> {
        if self.read == self.list.len {
            return None;
        }
        let code = read_vint(&self.list.bytes, &mut self.at)?;
        self.freq = if code & 1 == 1 { 1 } else { read_vint(&self.list.bytes, &mut self.at)? };
        self.doc = self.doc.wrapping_add(code >> 1);
        self.read += 1;
        self.started = true;
        Some(self.doc)
    }

    /// The current doc's frequency.
    #[inline]
    pub fn freq(&self) -> u32 {
        self.freq
    }

    /// The first doc at or after `target` from the current one.
    pub fn advance(&mut self, target: u32) -> Option<u32> {
        if self.started && self.doc >= target {
            return Some(self.doc);
        }
        if let Some((doc, at, read)) = self.list.skip_to(&mut self.next_skip, self.at, target) {
            self.doc = doc;
            self.at = at;
            self.read = read;
        }
        loop {
            let d = self.next()?;
            if d >= target {
                return Some(d);
            }
        }
    }
}

/// StreamVByte with a 4-doc buffer (the seed 004 reader).
pub struct Naive4;

/// Data bytes of the 1234 codes in one control byte.
fn group_len(key: u8) -> usize {
    (0..4).map(|k| 1 + ((key >> (2 * k)) & 3) as usize).sum()
}

fn push_group(out: &mut Vec<u8>, values: &[u32]) {
    let at = out.len();
    out.push(0);
    let mut key = 0u8;
    for (k, &v) in values.iter().enumerate() {
        let len = (4 - v.leading_zeros() / 8).max(1) as usize;
        key |= ((len - 1) as u8) << (2 * k);
        out.extend_from_slice(&v.to_le_bytes()[..len]);
    }
    out[at] = key;
}

impl Naive4 {
    /// Encodes sorted `docs` and their `freqs` (groups of 4, the last padded with zeros).
    pub fn encode(docs: &[u32], freqs: &[u32]) -> Encoded {
        let mut bytes = Vec::with_capacity(docs.len() * 3);
        let mut skips = Vec::new();
        let mut prev = 0;
        for (g, (d, f)) in docs.chunks(4).zip(freqs.chunks(4)).enumerate() {
            let mut deltas = [0u32; 4];
            for (x, &v) in deltas.iter_mut().zip(d) {
                *x = v - prev;
                prev = v;
            }
            let mut fs = [0u32; 4];
            fs[..f.len()].copy_from_slice(f);
            push_group(&mut bytes, &deltas);
            push_group(&mut bytes, &fs);
            if (4 * (g + 1)) % SKIP == 0 {
                skips.push((prev, bytes.len() as u32));
            }
        }
        Encoded { bytes, skips, len: docs.len() }
    }

    /// A reader over `list`.
    pub fn reader(list: &Encoded) -> Naive4Reader<'_> {
        Naive4Reader {
            list,
            at: 0,
            read: 0,
            buf_pos: 0,
            buf_len: 0,
            docs: [0; 4],
            freqs: [0; 4],
            last: 0,
            next_skip: 0,
        }
    }
}

/// The 4-doc-refill reader.
pub struct Naive4Reader<'a> {
    list: &'a Encoded,
    at: usize,
    read: usize,
    buf_pos: usize,
    buf_len: usize,
    docs: [u32; 4],
    freqs: [u32; 4],
    last: u32,
    next_skip: usize,
}

impl Naive4Reader<'_> {
    /// Decodes one group of 4 at `self.at`.
    #[inline]
    fn decode4(&mut self, out_is_docs: bool) -> Option<()> {
        let bytes = &self.list.bytes;
        let key = *bytes.get(self.at)?;
        let len = group_len(key);
        let data = bytes.get(self.at + 1..self.at + 1 + len)?;
        let mut p = 0;
        let mut vals = [0u32; 4];
        for (k, v) in vals.iter_mut().enumerate() {
            let l = 1 + ((key >> (2 * k)) & 3) as usize;
            let mut w = [0u8; 4];
            w[..l].copy_from_slice(&data[p..p + l]);
            *v = u32::from_le_bytes(w);
            p += l;
        }
        self.at += 1 + len;
        if out_is_docs {
            self.docs = vals;
        } else {
            self.freqs = vals;
        }
        Some(())
    }

    #[inline]
    fn refill(&mut self) -> Option<()> {
        self.decode4(true)?;
        self.decode4(false)?;
        let mut acc = self.last;
        for d in &mut self.docs {
            acc = acc.wrapping_add(*d);
            *d = acc;
        }
        self.buf_len = (self.list.len - self.read).min(4);
        self.last = self.docs[3];
        self.buf_pos = 0;
        Some(())
    }

    /// The next doc.
    #[inline]
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Option<u32> {
        if self.buf_pos + 1 < self.buf_len {
            self.buf_pos += 1;
            return Some(self.docs[self.buf_pos]);
        }
        if self.read >= self.list.len {
            self.buf_pos = self.buf_len;
            return None;
        }
        self.refill()?;
        self.read += self.buf_len;
        Some(self.docs[0])
    }

    /// The current doc.
    fn doc(&self) -> Option<u32> {
        (self.buf_pos < self.buf_len).then(|| self.docs[self.buf_pos])
    }

    /// The current doc's frequency.
    #[inline]
    pub fn freq(&self) -> u32 {
        self.freqs[self.buf_pos]
    }

    /// The first doc at or after `target` from the current one.
    pub fn advance(&mut self, target: u32) -> Option<u32> {
        if let Some(d) = self.doc().filter(|&d| d >= target) {
            return Some(d);
        }
        if let Some((doc, at, read)) = self.list.skip_to(&mut self.next_skip, self.at, target) {
            self.last = doc;
            self.at = at;
            self.read = read;
            self.buf_len = 0;
            self.buf_pos = 0;
        }
        loop {
            let d = self.next()?;
            if d >= target {
                return Some(d);
            }
        }
    }
}

/// Every block of one of our encoded lists decoded straight from its bytes (the skip table
/// read for the block bounds), no cursor and no checks beyond the streams' bounds: the sum of
/// every doc and frequency, as a `next_block()` consumer computes it. The `raw-blocks` rate
/// `Postings::next_block` is held to.
pub fn raw_blocks(bytes: &[u8]) -> u64 {
    use svb_core::{Codec, U32Delta, U32Variant0124};
    use svb_postings::{BLOCK, HEADER_LEN, SKIP_ENTRY_LEN};
    let (mut docs, mut freqs) = ([0u32; BLOCK], [0u32; BLOCK]);
    let n = u32::from_le_bytes(bytes[..4].try_into().unwrap()) as usize;
    let blocks = n.div_ceil(BLOCK);
    let (skips, data) = bytes[HEADER_LEN..].split_at(blocks * SKIP_ENTRY_LEN);
    let at = |b: usize, k: usize| {
        let i = b * SKIP_ENTRY_LEN + 4 * k;
        u32::from_le_bytes(skips[i..i + 4].try_into().unwrap())
    };
    let (mut start, mut prev, mut sum) = (0usize, 0u32, 0u64);
    for b in 0..blocks {
        let len = (n - b * BLOCK).min(BLOCK);
        let end = at(b, 1) as usize;
        // As the reader does: the data to the end of the list (the SIMD loops run to the
        // block's last value), then the streams checked against the block's end.
        let used = U32Delta.decode_to_slice(&data[start..], prev, &mut docs[..len]).unwrap();
        let used = used
            + U32Variant0124.decode_to_slice(&data[start + used..], &mut freqs[..len]).unwrap();
        assert_eq!(start + used, end);
        // The same consumer work as a `next_block` loop: every doc and frequency read.
        for (&d, &f) in docs[..len].iter().zip(&freqs[..len]) {
            sum += d as u64 + f as u64;
        }
        prev = at(b, 0);
        start = end;
    }
    sum
}

/// tantivy-style bit-packed postings (see the module docs).
pub struct BitPacked;

/// A [`BitPacked`] list: the bytes, and per block its last doc and the end of its bytes.
pub struct BitPackedList {
    bytes: Vec<u8>,
    skips: Vec<(u32, u32)>,
    len: usize,
}

impl BitPackedList {
    /// Bytes of the list (skip entries not counted).
    pub fn bytes(&self) -> usize {
        self.bytes.len()
    }
}

impl BitPacked {
    /// Encodes sorted `docs` and their `freqs` (at least 1).
    pub fn encode(docs: &[u32], freqs: &[u32]) -> BitPackedList {
        use bitpacking::{BitPacker, BitPacker4x};
        let bp = BitPacker4x::new();
        let mut bytes = Vec::with_capacity(docs.len() * 2);
        let mut skips = Vec::new();
        let mut prev = 0u32;
        let mut buf = [0u8; 4 * SKIP];
        let whole = docs.len() / SKIP * SKIP;
        for (d, f) in docs[..whole].chunks_exact(SKIP).zip(freqs.chunks_exact(SKIP)) {
            let bits = bp.num_bits_sorted(prev, d);
            let fm: Vec<u32> = f.iter().map(|&f| f - 1).collect();
            let fbits = bp.num_bits(&fm);
            bytes.extend_from_slice(&[bits, fbits]);
            let n = bp.compress_sorted(prev, d, &mut buf, bits);
            bytes.extend_from_slice(&buf[..n]);
            let n = bp.compress(&fm, &mut buf, fbits);
            bytes.extend_from_slice(&buf[..n]);
            prev = d[SKIP - 1];
            skips.push((prev, bytes.len() as u32));
        }
        for (&d, &f) in docs[whole..].iter().zip(&freqs[whole..]) {
            write_vint(&mut bytes, d - prev);
            write_vint(&mut bytes, f - 1);
            prev = d;
        }
        if whole < docs.len() {
            skips.push((prev, bytes.len() as u32));
        }
        BitPackedList { bytes, skips, len: docs.len() }
    }

    /// A reader over `list`.
    pub fn reader(list: &BitPackedList) -> BitPackedReader<'_> {
        BitPackedReader {
            list,
            bp: bitpacking::BitPacker::new(),
            next_block: 0,
            loaded: 0,
            pos: 0,
            freq_at: 0,
            freq_bits: 0,
            freqs_ready: true,
            docs: [0; SKIP],
            freqs: [0; SKIP],
        }
    }
}

/// The [`BitPacked`] reader.
pub struct BitPackedReader<'a> {
    list: &'a BitPackedList,
    bp: bitpacking::BitPacker4x,
    next_block: usize,
    loaded: usize,
    pos: usize,
    freq_at: usize,
    freq_bits: u8,
    freqs_ready: bool,
    docs: [u32; SKIP],
    freqs: [u32; SKIP],
}

impl BitPackedReader<'_> {
    /// Decodes block `b`'s docs (and, for the VInt tail, its frequencies).
    fn load(&mut self, b: usize) -> Option<()> {
        use bitpacking::BitPacker;
        let skips = &self.list.skips;
        let bytes = &self.list.bytes;
        let start = if b == 0 { 0 } else { skips[b - 1].1 as usize };
        let prev = if b == 0 { 0 } else { skips[b - 1].0 };
        let len = (self.list.len - b * SKIP).min(SKIP);
        if len == SKIP {
            let (bits, fbits) = (*bytes.get(start)?, *bytes.get(start + 1)?);
            let at = start + 2;
            let used = bytes.get(at..at + 16 * bits as usize)?;
            self.bp.decompress_sorted(prev, used, &mut self.docs, bits);
            self.freq_at = at + used.len();
            self.freq_bits = fbits;
            self.freqs_ready = false;
        } else {
            let mut at = start;
            let mut doc = prev;
            for i in 0..len {
                doc = doc.wrapping_add(read_vint(bytes, &mut at)?);
                self.docs[i] = doc;
                self.freqs[i] = read_vint(bytes, &mut at)?;
            }
            self.freqs_ready = true;
        }
        self.next_block = b + 1;
        self.loaded = len;
        self.pos = 0;
        Some(())
    }

    /// The next doc.
    #[inline]
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Option<u32> {
        let p = self.pos + 1;
        if p < self.loaded {
            self.pos = p;
            return Some(self.docs[p % SKIP]);
        }
        self.next_slow()
    }

    #[cold]
    fn next_slow(&mut self) -> Option<u32> {
        if self.next_block >= self.list.skips.len() {
            self.pos = self.loaded;
            return None;
        }
        self.load(self.next_block)?;
        Some(self.docs[0])
    }

    /// The current doc's frequency (the block's frequencies unpacked on first use).
    #[inline]
    pub fn freq(&mut self) -> u32 {
        if !self.freqs_ready {
            self.unpack_freqs();
        }
        self.freqs[self.pos % SKIP] + 1
    }

    #[cold]
    fn unpack_freqs(&mut self) {
        use bitpacking::BitPacker;
        let at = self.freq_at;
        let n = 16 * self.freq_bits as usize;
        if let Some(packed) = self.list.bytes.get(at..at + n) {
            self.bp.decompress(packed, &mut self.freqs, self.freq_bits);
        }
        self.freqs_ready = true;
    }

    /// The first doc at or after `target` from the current one.
    pub fn advance(&mut self, target: u32) -> Option<u32> {
        if self.pos < self.loaded {
            if self.docs[self.pos] >= target {
                return Some(self.docs[self.pos]);
            }
            if self.docs[self.loaded - 1] >= target {
                self.pos += self.docs[self.pos..self.loaded]
                    .iter()
                    .map(|&d| (d < target) as usize)
                    .sum::<usize>();
                return Some(self.docs[self.pos]);
            }
        }
        let b = find_skip(&self.list.skips, self.next_block, target)?;
        self.load(b)?;
        self.pos = self.docs[..self.loaded].iter().map(|&d| (d < target) as usize).sum::<usize>();
        Some(self.docs[self.pos])
    }
}
