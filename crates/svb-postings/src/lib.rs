//! Posting lists: the sorted doc ids of one term with a frequency each, in blocks of
//! [`BLOCK`] docs coded with StreamVByte, and a reader whose hot path decodes whole blocks.
//!
//! A search engine iterates postings one doc at a time ([`Postings::next`]), skips to a doc
//! ([`Postings::advance`], the step of every intersection) or scores whole blocks
//! ([`Postings::next_block`]). Readers that refill a few docs at a time lose StreamVByte's
//! advantage to their per-refill bookkeeping; this one decodes 128 doc ids in one fused
//! SIMD call ([`svb_core::U32Delta`]: unpack and prefix sum in registers) into a buffer it
//! owns, so `next()` is an index increment and a load, and frequencies are decoded only for
//! the blocks whose frequencies are read.
//!
//! ```
//! use svb_postings::{encode, Postings};
//! let docs: Vec<u32> = (0..1000).map(|i| i * 3 + 1).collect();
//! let freqs: Vec<u32> = (0..1000).map(|i| 1 + i % 5).collect();
//! let bytes = encode(&docs, &freqs)?;
//!
//! let mut p = Postings::new(&bytes)?;
//! assert_eq!(p.len(), 1000);
//! assert_eq!(p.next()?, Some(1));
//! assert_eq!(p.freq()?, 1);
//! // The first doc >= 2000: skips whole blocks through the skip table.
//! assert_eq!(p.advance(2000)?, Some(2002));
//! assert_eq!(p.freq()?, 1 + 667 % 5);
//! // The rest of that block at once, then the next block.
//! let block = p.next_block()?.unwrap();
//! assert_eq!(block.docs()[0], 2005);
//! assert_eq!(block.docs().len(), block.freqs().len());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Wire
//! All integers little-endian. A list of `n` docs has `b = ceil(n / 128)` blocks:
//!
//! | bytes | field |
//! |---|---|
//! | 4 | `n`, the doc count |
//! | 8 `b` | the skip table: per block its last doc id (u32) and the end of its bytes within the block data (u32) |
//! | ... | the block data: per block its doc ids as [`U32Delta`](svb_core::U32Delta) (the first delta from the previous block's last doc, 0 for the first block), then its frequencies minus one as [`U32Variant0124`](svb_core::U32Variant0124) (a frequency of 1 takes no data byte) |
//!
//! Every block holds 128 docs but the last. Doc ids are strictly increasing and frequencies
//! at least 1 (the encoder refuses anything else). The reader trusts nothing: the header and
//! skip table are checked when a list is opened (sizes, increasing last docs, increasing
//! ends that reach the end of the data), each block when it is decoded (the codecs' typed
//! errors, its streams filling its bytes exactly, its last doc matching the skip table), and
//! it never allocates: a [`Postings`] owns two 128-value buffers.
#![forbid(unsafe_code)]

mod encode;
mod error;
mod reader;

pub use encode::{encode, encode_into, max_encoded_len};
pub use error::{EncodeError, PostingsError, PostingsErrorKind};
pub use reader::{Block, Postings};

/// Docs in every block but the last.
pub const BLOCK: usize = 128;

/// Bytes of the header (the doc count).
pub const HEADER_LEN: usize = 4;

/// Bytes of one skip-table entry (last doc, end offset).
pub const SKIP_ENTRY_LEN: usize = 8;
