//! Decoding a POD5 read's signal: one read into the caller's buffer, or every read on
//! every core in windows of bounded memory.

use rayon::prelude::*;
use svb_vbz::Threads;

use super::Reader;
use crate::error::{Pod5Error, SignalError, TableKind};
use crate::read::ReadRow;
use crate::signal::{SignalEncoding, SignalRow};

impl Reader {
    /// Decodes read `index`'s signal (its chunks in order) into `out`, whose length must be
    /// the read's `num_samples`.
    pub fn decode_signal_to_slice(&self, index: usize, out: &mut [i16]) -> Result<(), Pod5Error> {
        let read = self.read(index)?;
        if out.len() as u64 != read.info.num_samples {
            return Err(Pod5Error::OutputLength {
                read_id: read.read_id_string(),
                expected: read.info.num_samples,
                got: out.len(),
            });
        }
        self.plan_signals(&[index]);
        let mut at = 0usize;
        for (row, r) in self.chunk_rows(index)? {
            let n = samples(r);
            self.decode_chunk(index, row, r, &mut out[at..at + n])?;
            at += n;
        }
        Ok(())
    }

    /// Decodes read `index`'s signal, appending it to `out`, which grows chunk by chunk with
    /// what is decoded (a chunk whose header lies about its size fails before its samples
    /// are allocated). `out` is left as it was on an error.
    pub fn decode_signal_into(&self, index: usize, out: &mut Vec<i16>) -> Result<(), Pod5Error> {
        let start = out.len();
        self.plan_signals(&[index]);
        let r =
            self.chunk_rows(index)?.try_for_each(|(row, r)| self.append_chunk(index, row, r, out));
        if r.is_err() {
            out.truncate(start);
        }
        r
    }

    /// Fetches the chunks of reads `indices` at once (one round trip; a read's chunks lie
    /// together) when the file is an object's; a local file's reads cost no round trip. A
    /// failure is left to the chunk reads to report, an index past the end to its read.
    pub(crate) fn plan_signals(&self, indices: &[usize]) {
        if self.src.is_remote() {
            // The table's batches first (a failure is left to the reads to report).
            let Ok(table) = self.signal() else { return };
            let plan: Vec<std::ops::Range<u64>> = indices
                .iter()
                .filter(|&&i| i < self.reads.len())
                .flat_map(|&i| self.rows(table, i).map(|(_, r)| r.offset..r.offset + r.bytes))
                .collect();
            let _ = self.src.prefetch(&plan);
        }
    }

    /// Appends one chunk's samples to `out`.
    fn append_chunk(
        &self, index: usize, row: u64, r: &SignalRow, out: &mut Vec<i16>,
    ) -> Result<(), Pod5Error> {
        let n = samples(r);
        self.with_chunk(index, row, r, |bytes| match self.signal.encoding {
            SignalEncoding::Vbz => svb_vbz::pod5_blob::decompress_signal_into(bytes, n, out)
                .map_err(|e| self.chunk_error(index, row, e.into())),
            SignalEncoding::Pdz => {
                // The block's checks (its count against the row's) come before the samples
                // are made room for.
                svb_pdz::check(bytes, n).map_err(|e| self.chunk_error(index, row, e.into()))?;
                let start = out.len();
                out.resize(start + n, 0);
                svb_pdz::decode_into(bytes, &mut out[start..]).map_err(|e| {
                    out.truncate(start);
                    self.chunk_error(index, row, e.into())
                })
            }
            SignalEncoding::Uncompressed => {
                // The row's bytes (checked at open to be 2 a sample) justify the samples.
                out.extend(bytes.chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]])));
                Ok(())
            }
        })
    }

    /// Runs `f` on the stored bytes of one chunk.
    pub(super) fn with_chunk<R>(
        &self, index: usize, row: u64, r: &SignalRow, f: impl FnOnce(&[u8]) -> Result<R, Pod5Error>,
    ) -> Result<R, Pod5Error> {
        self.src.with_bytes(r.offset, r.bytes as usize, f).map_err(|e| Pod5Error::Row {
            path: self.path.clone(),
            table: TableKind::Signal,
            row,
            what: format!(
                "read {}: reading {} bytes at byte {}: {e}",
                self.reads[index].read_id_string(),
                r.bytes,
                r.offset
            ),
        })?
    }

    fn chunk_error(&self, index: usize, signal_row: u64, source: SignalError) -> Pod5Error {
        Pod5Error::Signal {
            path: self.path.clone(),
            read_id: self.reads[index].read_id_string(),
            row: index as u64,
            signal_row,
            source,
        }
    }

    /// Read `index`'s signal in a new vector.
    pub fn decode_signal(&self, index: usize) -> Result<Vec<i16>, Pod5Error> {
        let mut out = Vec::new();
        self.decode_signal_into(index, &mut out)?;
        Ok(out)
    }

    /// Decodes every read on rayon (`threads`) and calls `f(index, read, signal)` for each,
    /// in parallel, in no particular order. Reads are taken in windows of about 4 million
    /// samples (at least one read): every chunk of a window is decoded on every core, largest
    /// first, into one buffer (kept by the calling thread for the next call), then `f` sees
    /// the window's reads. Memory stays at one window whatever the file's size; a read longer
    /// than a window is its own window, and its buffer grows a window's worth of chunks at a
    /// time, each only once the chunks before it have decoded.
    ///
    /// At the first window holding a read that fails, the error of its lowest failing read
    /// is returned; `f` has then been called for every read of the windows before it only.
    pub fn for_each_parallel<F>(&self, threads: Threads<'_>, f: F) -> Result<(), Pod5Error>
    where
        F: Fn(usize, &ReadRow, &[i16]) + Sync,
    {
        threads.run(|| {
            let mut buf = WINDOW_BUFFER.take();
            let r = self.decode_windows(&mut buf, &f);
            if buf.len() <= KEEP_WINDOW_BUFFER {
                WINDOW_BUFFER.set(buf);
            }
            r
        })
    }

    fn decode_windows<F>(&self, buf: &mut Vec<i16>, f: &F) -> Result<(), Pod5Error>
    where
        F: Fn(usize, &ReadRow, &[i16]) + Sync,
    {
        let table = self.signal()?;
        let mut start = 0;
        while start < self.reads.len() {
            // The window: reads start..end, offsets of each read's samples in `buf`.
            let end = svb_io::window_end(
                start,
                self.reads.len(),
                usize::MAX,
                WINDOW_SAMPLES as u64,
                |i| self.reads[i].info.num_samples,
            );
            let mut offsets = Vec::with_capacity(end - start + 1);
            offsets.push(0usize);
            for read in &self.reads[start..end] {
                let total = *offsets.last().expect("non-empty");
                offsets.push(total.saturating_add(read.info.num_samples as usize));
            }
            let len = offsets[end - start];
            if len > WINDOW_SAMPLES {
                self.decode_long_read(start, buf)?;
            } else {
                let chunks = (start..end)
                    .flat_map(|index| self.rows(table, index).map(move |(row, r)| (index, row, r)));
                self.decode_chunks_at(buf, 0, len, chunks)?;
            }
            let buf = &buf[..len];
            (start..end).into_par_iter().for_each(|i| {
                let (a, b) = (offsets[i - start], offsets[i - start + 1]);
                f(i, &self.reads[i], &buf[a..b]);
            });
            start = end;
        }
        Ok(())
    }

    /// Decodes read `index`, longer than a window, into `buf[..num_samples]`: its chunks in
    /// groups of up to a window's samples, each group on every core once the groups before it
    /// have decoded (a chunk longer than a window alone, growing with what it decodes), so
    /// that `buf` never holds more than a window of samples not yet decoded.
    fn decode_long_read(&self, index: usize, buf: &mut Vec<i16>) -> Result<(), Pod5Error> {
        let rows: Vec<(u64, &SignalRow)> = self.rows(self.signal()?, index).collect();
        let mut at = 0usize;
        let mut first = 0;
        while first < rows.len() {
            let mut last = first;
            let mut group = 0usize;
            while last < rows.len()
                && (last == first || group + samples(rows[last].1) <= WINDOW_SAMPLES)
            {
                group += samples(rows[last].1);
                last += 1;
            }
            if group > WINDOW_SAMPLES {
                let (row, r) = rows[first];
                buf.truncate(at);
                self.append_chunk(index, row, r, buf)?;
            } else {
                let chunks = rows[first..last].iter().map(|&(row, r)| (index, row, r));
                self.decode_chunks_at(buf, at, group, chunks)?;
            }
            at += group;
            first = last;
        }
        Ok(())
    }

    /// Decodes `chunks` (read index, signal row, row), holding `len` samples, back to back into
    /// `buf[at..]` on rayon, one task each, largest first; the error is the first chunk's in
    /// the given order. `buf` is grown to hold them, never shrunk: no zero-filling once the
    /// largest window is seen.
    fn decode_chunks_at<'r>(
        &'r self, buf: &mut Vec<i16>, at: usize, len: usize,
        chunks: impl Iterator<Item = (usize, u64, &'r SignalRow)>,
    ) -> Result<(), Pod5Error> {
        if buf.len() < at + len {
            buf.resize(at + len, 0);
        }
        let mut tasks = Vec::new();
        let mut rest = &mut buf[at..at + len];
        for (order, (index, row, r)) in chunks.enumerate() {
            let (part, tail) = rest.split_at_mut(samples(r));
            tasks.push((order, (index, row, r, part)));
            rest = tail;
        }
        svb_io::run_largest_first(
            tasks,
            |(order, (_, _, _, part))| (part.len(), *order),
            |(_, (index, row, r, part))| self.decode_chunk(index, row, r, part),
        )
    }

    /// Decodes one stored chunk (signal row `row`) of read `index` into `part`.
    fn decode_chunk(
        &self, index: usize, row: u64, r: &SignalRow, part: &mut [i16],
    ) -> Result<(), Pod5Error> {
        self.with_chunk(index, row, r, |bytes| match self.signal.encoding {
            SignalEncoding::Vbz => svb_vbz::pod5_blob::decompress_signal(bytes, part)
                .map_err(|e| self.chunk_error(index, row, e.into())),
            SignalEncoding::Pdz => svb_pdz::decode_into(bytes, part)
                .map_err(|e| self.chunk_error(index, row, e.into())),
            SignalEncoding::Uncompressed => {
                // Checked at open: 2 bytes a sample.
                for (s, c) in part.iter_mut().zip(bytes.chunks_exact(2)) {
                    *s = i16::from_le_bytes([c[0], c[1]]);
                }
                Ok(())
            }
        })
    }
}

/// A row's sample count (rows a read refers to were checked at open to have one).
fn samples(r: &SignalRow) -> usize {
    r.samples.unwrap_or(0) as usize
}

thread_local! {
    /// The calling thread's window buffer, kept between calls (a fresh one would be
    /// zero-filled and page-faulted in again for every file).
    static WINDOW_BUFFER: std::cell::Cell<Vec<i16>> = const { std::cell::Cell::new(Vec::new()) };
}

/// Samples decoded together by [`Reader::for_each_parallel`] (8 MiB of int16).
const WINDOW_SAMPLES: usize = 4 << 20;

/// A window buffer up to this many samples (32 MiB) stays with its thread (a single read
/// longer than a window makes a larger one, which is dropped).
const KEEP_WINDOW_BUFFER: usize = 16 << 20;
