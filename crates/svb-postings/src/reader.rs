//! The reader: a cursor over one posting list that decodes whole blocks into buffers it owns.

use svb_core::{DecodeError, Decoder, DeltaKernels, OffsetKernels, U32Delta, U32Variant0124};

use crate::{PostingsError, PostingsErrorKind as Kind, BLOCK, HEADER_LEN, SKIP_ENTRY_LEN};

/// A cursor over one posting list (see the crate docs for the wire and an example).
///
/// It starts before the first doc: [`next`](Self::next) moves to the first doc,
/// [`advance`](Self::advance) to the first doc at or after a target, and
/// [`next_block`](Self::next_block) hands out the docs after the current one up to the end
/// of their block. [`doc`](Self::doc) and [`freq`](Self::freq) read the current doc.
///
/// Every method that decodes returns a [`PostingsError`] for bytes that are not a valid
/// list (never a panic); after an error the cursor is at the end.
#[derive(Clone)]
pub struct Postings<'a> {
    /// The skip table (checked by `new`).
    skips: &'a [u8],
    /// The block data.
    data: &'a [u8],
    /// Doc count.
    total: usize,
    /// The block the buffers hold is `next_block - 1`; `next_block` is loaded next.
    next_block: usize,
    /// Docs in the buffers (0 before the first block).
    loaded: usize,
    /// Index of the current doc in the buffers (`len` once past the end).
    pos: usize,
    /// Where the loaded block's frequencies start in `data`.
    freq_at: usize,
    /// Whether `freqs` holds the loaded block's frequencies.
    freqs_ready: bool,
    /// The doc ids' and the frequencies' decoders, this CPU's best chosen once (a block is
    /// small: the choice is not made again for each): whole blocks through the block
    /// decoders (a direct call into the kernel built for 128 values), the last block of a
    /// list, shorter, through the slice kernels.
    doc_decoder: Decoder<U32Delta>,
    freq_decoder: Decoder<U32Variant0124>,
    doc_kernels: &'static DeltaKernels,
    freq_kernels: &'static OffsetKernels,
    docs: [u32; BLOCK],
    freqs: [u32; BLOCK],
}

impl core::fmt::Debug for Postings<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Postings")
            .field("len", &self.total)
            .field("doc", &self.doc())
            .finish_non_exhaustive()
    }
}

/// The docs after the current one up to the end of their block, and their frequencies:
/// what [`Postings::next_block`] hands out.
#[derive(Clone, Copy, Debug)]
pub struct Block<'p> {
    docs: &'p [u32],
    freqs: &'p [u32],
}

impl<'p> Block<'p> {
    /// The doc ids, strictly increasing.
    pub fn docs(&self) -> &'p [u32] {
        self.docs
    }

    /// Their frequencies (same length).
    pub fn freqs(&self) -> &'p [u32] {
        self.freqs
    }
}

#[inline(always)]
fn u32_at(bytes: &[u8], at: usize) -> u32 {
    let mut word = [0; 4];
    word.copy_from_slice(&bytes[at..at + 4]);
    u32::from_le_bytes(word)
}

impl<'a> Postings<'a> {
    /// Opens the posting list in `bytes` (exactly one list), checking its header and skip
    /// table.
    pub fn new(bytes: &'a [u8]) -> Result<Self, PostingsError> {
        let Some(header) = bytes.first_chunk::<HEADER_LEN>() else {
            return Err(Kind::Truncated {
                docs: 0,
                needed: HEADER_LEN as u64,
                available: bytes.len(),
            }
            .into());
        };
        let n = u32::from_le_bytes(*header) as u64;
        let blocks = n.div_ceil(BLOCK as u64);
        let table = HEADER_LEN as u64 + blocks * SKIP_ENTRY_LEN as u64;
        // Every doc takes a quarter control byte and a data byte of its id and a quarter
        // control byte of its frequency.
        let min = table + n + 2 * (n / 4);
        if (bytes.len() as u64) < table {
            return Err(Kind::Truncated { docs: n, needed: table, available: bytes.len() }.into());
        }
        if (bytes.len() as u64) < min {
            return Err(Kind::CountTooLarge { docs: n, available: bytes.len() }.into());
        }
        // Both fit usize now: they are at most bytes.len().
        let (skips, data) = bytes[HEADER_LEN..].split_at(table as usize - HEADER_LEN);
        let (n, blocks) = (n as usize, blocks as usize);
        let mut last = None;
        let mut end = 0usize;
        for b in 0..blocks {
            let doc = u32_at(skips, b * SKIP_ENTRY_LEN);
            let e = u32_at(skips, b * SKIP_ENTRY_LEN + 4) as usize;
            if last.is_some_and(|l| doc <= l) {
                return Err(Kind::BadSkip {
                    block: b,
                    what: "last doc id not larger than the previous block's",
                }
                .into());
            }
            if e <= end || e > data.len() {
                return Err(Kind::BadSkip {
                    block: b,
                    what: "end offset not after the previous block's or past the data",
                }
                .into());
            }
            last = Some(doc);
            end = e;
        }
        if end != data.len() {
            return Err(Kind::BadSkip {
                block: blocks.saturating_sub(1),
                what: "the last block does not end at the end of the data",
            }
            .into());
        }
        Ok(Postings {
            skips,
            data,
            total: n,
            next_block: 0,
            loaded: 0,
            pos: 0,
            freq_at: 0,
            freqs_ready: false,
            doc_decoder: Decoder::new(U32Delta),
            freq_decoder: Decoder::new(U32Variant0124),
            doc_kernels: U32Delta.kernels(),
            freq_kernels: U32Variant0124.offset_kernels(),
            docs: [0; BLOCK],
            freqs: [0; BLOCK],
        })
    }

    /// Doc count of the list.
    pub fn len(&self) -> usize {
        self.total
    }

    /// Whether the list has no docs.
    pub fn is_empty(&self) -> bool {
        self.total == 0
    }

    /// Blocks of the list.
    pub fn blocks(&self) -> usize {
        self.skips.len() / SKIP_ENTRY_LEN
    }

    /// The current doc: `None` before the first [`next`](Self::next) /
    /// [`advance`](Self::advance) and past the end.
    #[inline]
    pub fn doc(&self) -> Option<u32> {
        (self.pos < self.loaded).then(|| self.docs[self.pos])
    }

    /// Moves to the next doc and returns it (`None` past the end). Not an `Iterator`: it
    /// returns a `Result` and leaves the cursor for `doc`, `freq` and `advance`.
    #[inline]
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Result<Option<u32>, PostingsError> {
        let p = self.pos + 1;
        if p < self.loaded {
            self.pos = p;
            // p < loaded <= BLOCK: the mask changes nothing and spares the bounds check.
            return Ok(Some(self.docs[p % BLOCK]));
        }
        self.next_slow()
    }

    #[cold]
    fn next_slow(&mut self) -> Result<Option<u32>, PostingsError> {
        if self.next_block >= self.blocks() {
            self.finish();
            return Ok(None);
        }
        self.load(self.next_block)?;
        Ok(Some(self.docs[0]))
    }

    /// The frequency of the current doc (decoding the block's frequencies on first use).
    ///
    /// # Panics
    /// When there is no current doc ([`doc`](Self::doc) is `None`).
    #[inline]
    pub fn freq(&mut self) -> Result<u32, PostingsError> {
        assert!(self.pos < self.loaded, "Postings::freq without a current doc");
        if !self.freqs_ready {
            self.decode_freqs()?;
        }
        // pos < loaded <= BLOCK (asserted): the mask spares the bounds check.
        Ok(self.freqs[self.pos % BLOCK])
    }

    /// Moves to the first doc at or after `target`, looking at the current doc and those
    /// after it (never back), and returns it (`None` when no such doc is left). Whole blocks
    /// are passed over through the skip table without decoding them.
    pub fn advance(&mut self, target: u32) -> Result<Option<u32>, PostingsError> {
        if self.pos < self.loaded {
            if self.docs[self.pos] >= target {
                return Ok(Some(self.docs[self.pos]));
            }
            if self.docs[self.loaded - 1] >= target {
                self.pos += self.count_below(self.pos, target);
                return Ok(Some(self.docs[self.pos]));
            }
        } else if self.loaded != 0 && self.next_block >= self.blocks() {
            return Ok(None); // past the end
        }
        let Some(b) = self.find_block(self.next_block, target) else {
            self.finish();
            return Ok(None);
        };
        self.load(b)?;
        // The block's last doc (checked against the skip table) is >= target, so the count
        // stops inside the block.
        self.pos = self.count_below(0, target);
        Ok(Some(self.docs[self.pos]))
    }

    /// The docs after the current one up to the end of their block (the next whole block
    /// when the current doc ends its block, the first block before the first `next`), with
    /// their frequencies; the last of them becomes the current doc. `None` past the end.
    pub fn next_block(&mut self) -> Result<Option<Block<'_>>, PostingsError> {
        let first = if self.pos + 1 < self.loaded {
            if !self.freqs_ready {
                self.decode_freqs()?;
            }
            self.pos + 1
        } else if self.next_block < self.blocks() {
            // Both streams of the next block in one go (the block's bounds read once).
            let b = self.next_block;
            let r =
                self.decode_docs(b).and_then(|(start, end)| self.decode_freqs_of(b, start, end));
            self.at_end_on_error(r)?;
            0
        } else {
            self.finish();
            return Ok(None);
        };
        self.pos = self.loaded - 1;
        Ok(Some(Block {
            docs: &self.docs[first..self.loaded],
            freqs: &self.freqs[first..self.loaded],
        }))
    }

    /// Index of the first doc in `docs[from..len]` at or above `target`, counted (the
    /// comparisons vectorise; docs are increasing, so the count is that index).
    #[inline]
    fn count_below(&self, from: usize, target: u32) -> usize {
        self.docs[from..self.loaded]
            .iter()
            .map(|&d| (d < target) as usize)
            .sum::<usize>()
            .min(self.loaded - from - 1)
    }

    #[inline]
    fn skip_last(&self, b: usize) -> u32 {
        u32_at(self.skips, b * SKIP_ENTRY_LEN)
    }

    #[inline]
    fn skip_end(&self, b: usize) -> usize {
        u32_at(self.skips, b * SKIP_ENTRY_LEN + 4) as usize
    }

    /// The first block from `from` whose last doc is at or above `target`: a galloping
    /// search over the skip table (its last docs increase, checked by `new`).
    fn find_block(&self, from: usize, target: u32) -> Option<usize> {
        let blocks = self.blocks();
        if from >= blocks || self.skip_last(blocks - 1) < target {
            return None;
        }
        // Gallop to a block at or above the target, then bisect the last step.
        let (mut lo, mut step) = (from, 1);
        let mut hi = from;
        while self.skip_last(hi) < target {
            lo = hi + 1;
            hi = (hi + step).min(blocks - 1);
            step *= 2;
        }
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.skip_last(mid) < target {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        Some(lo)
    }

    /// Where block `b`'s bytes start and end in `data` (checked by `new`).
    #[inline]
    fn block_bounds(&self, b: usize) -> (usize, usize) {
        let start = if b == 0 { 0 } else { self.skip_end(b - 1) };
        (start, self.skip_end(b))
    }

    /// Decodes block `b`'s doc ids into the buffer; the cursor moves to its first doc. On
    /// error the cursor is at the end.
    fn load(&mut self, b: usize) -> Result<(), PostingsError> {
        let r = self.decode_docs(b);
        self.at_end_on_error(r).map(drop)
    }

    /// `r` as the reader's error; when it is one, the cursor moves to the end.
    #[inline]
    fn at_end_on_error<T>(&mut self, r: Result<T, Kind>) -> Result<T, PostingsError> {
        if r.is_err() {
            self.finish();
        }
        Ok(r?)
    }

    /// Decodes block `b`'s doc ids into the buffer and moves the cursor to its first doc;
    /// returns the block's bounds in `data`.
    #[inline(always)]
    fn decode_docs(&mut self, b: usize) -> Result<(usize, usize), Kind> {
        let (start, end) = self.block_bounds(b);
        let len = (self.total - b * BLOCK).min(BLOCK);
        let prev = if b == 0 { 0 } else { self.skip_last(b - 1) };
        let expected = self.skip_last(b);
        // The decoder is given the data up to the end of the list, not of the block: its
        // SIMD loops then run to the block's last doc instead of stopping short of the end
        // of the input. A stream that runs past its block is caught below.
        // Strictly increasing, from the previous block's last doc on (the check fused into
        // the decode): a hostile block cannot hand out docs out of order. The first block's
        // first doc may be 0.
        let (input, prev) = (&self.data[start..], (b > 0).then_some(prev));
        let decoded = if len == BLOCK {
            self.doc_decoder.decode_increasing_block_from(input, prev, &mut self.docs)
        } else {
            self.doc_kernels.decode_increasing_to_slice(input, prev, &mut self.docs[..len])
        };
        let docs = &self.docs[..len];
        let used = decoded.map_err(|source| match source {
            DecodeError::NotIncreasing { .. } => {
                Kind::BadSkip { block: b, what: "its doc ids do not increase strictly" }
            }
            source => Kind::Block { block: b, stream: "doc ids", source },
        })?;
        if used >= end - start {
            // The doc ids take the whole block (or more): no room for the frequencies.
            return Err(Kind::BlockLength {
                block: b,
                used: used + len.div_ceil(4),
                len: end - start,
            });
        }
        if docs[len - 1] != expected {
            return Err(Kind::LastDocMismatch { block: b, decoded: docs[len - 1], expected });
        }
        self.next_block = b + 1;
        self.loaded = len;
        self.pos = 0;
        self.freq_at = start + used;
        self.freqs_ready = false;
        Ok((start, end))
    }

    /// Decodes the loaded block's frequencies (for `freq`, the first time it is asked for one
    /// of the block's). On error the cursor is at the end.
    #[cold]
    fn decode_freqs(&mut self) -> Result<(), PostingsError> {
        let block = self.next_block - 1;
        let (start, end) = self.block_bounds(block);
        let r = self.decode_freqs_of(block, start, end);
        self.at_end_on_error(r)
    }

    /// Decodes the frequencies of the loaded block `block` (bounds `start..end` in `data`).
    #[inline]
    fn decode_freqs_of(&mut self, block: usize, start: usize, end: usize) -> Result<(), Kind> {
        // As for the doc ids, the data to the end of the list (the check below keeps the
        // stream inside its block).
        // Stored minus one: the one added as each group is unpacked.
        let input = &self.data[self.freq_at..];
        let decoded = if self.loaded == BLOCK {
            self.freq_decoder.decode_block_offset(input, 1, &mut self.freqs)
        } else {
            self.freq_kernels.decode_to_slice(input, 1, &mut self.freqs[..self.loaded])
        };
        match decoded {
            Ok(used) if self.freq_at + used == end => {
                self.freqs_ready = true;
                Ok(())
            }
            Ok(used) => Err(Kind::BlockLength {
                block,
                used: self.freq_at - start + used,
                len: end - start,
            }),
            Err(source) => Err(Kind::Block { block, stream: "frequencies", source }),
        }
    }

    /// Moves past the end (after the last doc, or after an error).
    fn finish(&mut self) {
        self.next_block = self.blocks();
        self.pos = self.loaded;
    }
}
