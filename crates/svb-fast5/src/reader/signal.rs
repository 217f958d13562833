//! A FAST5 read's signal: its dataset checked, its chunks decoded and appended one at a
//! time (VBZ straight into the samples where it can), or every read on every core.

use hdf5_reader::Datatype;
use rayon::prelude::*;
use svb_io::Threads;

use super::*;
use crate::vbz_chunks::{self, ChunkError};
use crate::Fast5Error;

/// Samples a signal's buffer is sized for before its chunks are decoded (1 Mi: 2 MiB), at
/// most: a longer read's buffer grows with the samples its chunks really hold.
const RESERVE_SAMPLES: usize = 1 << 20;

impl Reader {
    /// Read `index`'s sample count as its signal dataset declares it (its shape: nothing is
    /// decoded; [`signal`](Reader::signal) checks that the chunks hold as many).
    pub fn samples(&self, index: usize) -> Result<u64, Fast5Error> {
        Ok(self.signal_dataset(index)?.3)
    }

    /// Read `index`'s signal dataset, its path, whether it is little-endian, and its declared
    /// samples, the type and shape checked.
    pub(crate) fn signal_dataset(
        &self, index: usize,
    ) -> Result<(hdf5_reader::Dataset, String, bool, u64), Fast5Error> {
        let e = self.entry(index)?;
        let (ds, path) = self.signal_of_entry(e)?;
        let (little, n) = self.check_signal(e, &ds)?;
        Ok((ds, path, little, n))
    }

    /// Read `e`'s signal dataset and its path (from its read group where the file has one).
    fn signal_of_entry(&self, e: &Entry) -> Result<(hdf5_reader::Dataset, String), Fast5Error> {
        let path = format!("{}/Signal", e.raw);
        let ds = match &e.handle {
            Some(g) => g.group("Raw").and_then(|raw| raw.dataset("Signal")),
            None => self.file.dataset(&path),
        };
        Ok((ds.map_err(self.hdf5(path.clone()))?, path))
    }

    /// Whether read `e`'s signal dataset `ds` is little-endian, and its declared samples, its
    /// type and shape checked.
    fn check_signal(
        &self, e: &Entry, ds: &hdf5_reader::Dataset,
    ) -> Result<(bool, u64), Fast5Error> {
        let bad = |what: String| self.signal_error(e, what);
        let little = match ds.dtype() {
            Datatype::FixedPoint { size: 2, signed: true, byte_order } => {
                *byte_order == hdf5_reader::ByteOrder::LittleEndian
            }
            t => return Err(bad(format!("a dataset of {t:?}, not int16"))),
        };
        if ds.ndim() != 1 {
            let shape = ds.shape();
            return Err(bad(format!("a dataset of shape {shape:?}, not one dimension")));
        }
        let n = ds.shape()[0];
        if n > MAX_SAMPLES {
            return Err(bad(format!("{n} samples declared (at most {MAX_SAMPLES})")));
        }
        Ok((little, n))
    }

    fn signal_error(&self, e: &Entry, what: String) -> Fast5Error {
        Fast5Error::Signal { path: self.path.clone(), read: e.read_id.clone(), what }
    }

    /// Read `index`'s raw signal (ADC samples).
    pub fn signal(&self, index: usize) -> Result<Vec<i16>, Fast5Error> {
        let mut out = Vec::new();
        self.signal_into(index, &mut out).map(|()| out)
    }

    /// Read `index`'s raw signal into `out` (replacing what it held; its capacity is reused).
    /// Chunks are decoded one after another and appended: memory grows with the samples
    /// actually decoded, never with what a header declares.
    pub fn signal_into(&self, index: usize, out: &mut Vec<i16>) -> Result<(), Fast5Error> {
        let e = self.entry(index)?;
        let (ds, path) = self.signal_of_entry(e)?;
        self.signal_of(e, ds, path, out)
    }

    /// The samples of `ds`, read `e`'s signal dataset at `path`, into `out`.
    pub(super) fn signal_of(
        &self, e: &Entry, ds: hdf5_reader::Dataset, path: String, out: &mut Vec<i16>,
    ) -> Result<(), Fast5Error> {
        out.clear();
        let bad = |what: String| self.signal_error(e, what);
        let (little, n) = self.check_signal(e, &ds)?;
        let n = n as usize;
        // The VBZ chunk path reserves what the chunk index justifies (reserving here first
        // would make that a reallocation, a copy of the whole buffer).
        let fast = match little && ds.chunks().is_some() {
            true => vbz_chunks::decode(&self.file, &ds, n, out),
            false => Err(ChunkError::NotHere),
        };
        match fast {
            Ok(()) => {}
            Err(ChunkError::Hdf5(source)) => return Err(self.hdf5(path)(source)),
            Err(ChunkError::Signal(what)) => {
                out.clear();
                return Err(bad(what));
            }
            Err(ChunkError::NotHere) => {
                // Room for the declared samples up to a bound (what a header declares is not
                // trusted further: past it, memory grows with the samples decoded).
                out.reserve(n.min(RESERVE_SAMPLES));
                self.signal_through_hdf5(e, &ds, path, little, n, out)?
            }
        }
        if out.len() != n {
            let got = out.len();
            out.clear();
            return Err(bad(format!("{got} samples stored of the {n} declared")));
        }
        Ok(())
    }

    /// The samples of `ds` decoded by the HDF5 layer's chunk pipeline (any filter it
    /// knows), or read as they are (contiguous or compact), appended to `out`.
    pub(crate) fn signal_through_hdf5(
        &self, e: &Entry, ds: &hdf5_reader::Dataset, path: String, little: bool, n: usize,
        out: &mut Vec<i16>,
    ) -> Result<(), Fast5Error> {
        let bad = |what: String| self.signal_error(e, what);
        let push = |out: &mut Vec<i16>, bytes: &[u8]| {
            let pairs = bytes.as_chunks::<2>().0.iter();
            match little {
                true => out.extend(pairs.map(|b| i16::from_le_bytes(*b))),
                false => out.extend(pairs.map(|b| i16::from_be_bytes(*b))),
            }
        };
        if ds.chunks().is_some() {
            for chunk in ds.iter_chunks().map_err(self.hdf5(path.clone()))? {
                let chunk = chunk.map_err(self.hdf5(path.clone()))?;
                let at = chunk.offsets().first().copied().unwrap_or(0);
                if at != out.len() as u64 {
                    return Err(bad(format!(
                        "a chunk at sample {at} where sample {} was next",
                        out.len()
                    )));
                }
                let take = (n - out.len()).min(chunk.bytes().len() / 2);
                push(out, &chunk.bytes()[..2 * take]);
            }
        } else {
            // Contiguous or compact: the bytes are in the file as they are.
            if (n as u64) * 2 > self.file.storage().len() {
                return Err(bad(format!("{n} samples declared in a smaller file")));
            }
            let bytes = ds.read_raw_bytes().map_err(self.hdf5(path.clone()))?;
            push(out, &bytes[..bytes.len().min(2 * n)]);
        }
        Ok(())
    }

    /// Every read's attributes and signal on the pool `threads` names, `f(index, read,
    /// signal)` for each (in no particular order); the first error stops it.
    pub fn for_each_parallel<F>(&self, threads: Threads, f: F) -> Result<(), Fast5Error>
    where
        F: Fn(usize, &ReadAttributes, &[i16]) + Sync + Send,
    {
        threads.run(|| {
            (0..self.len()).into_par_iter().try_for_each_init(Vec::new, |signal, i| {
                let read = self.read_with_signal(i, signal)?;
                f(i, &read, signal);
                Ok(())
            })
        })
    }
}
