//! [`FileStorage`]: the bytes of a FAST5 file as the HDF5 layer asks for them, in few system
//! calls.
//!
//! The HDF5 layer asks for small ranges: an object header's prefix, then its messages, a
//! B-tree node, a heap, then a read's chunks (a few KiB each in MinKNOW's and ONT's files,
//! one after another). Read one by one, that is about 60 positioned reads a read (121,785 for
//! a 2000-read file). Here a range up to [`DIRECT`] bytes is served from 16 KiB blocks of the
//! file kept in a cache that every open FAST5 file shares (its memory bounded by
//! [`CACHE_BLOCKS`] whatever the number of files open), without a copy when it lies in one
//! block; a larger range is read into a buffer that goes back to a pool when the HDF5 layer
//! drops it. A file changed by another process is read as it is when a block is read: a
//! range that its truncation took away is an I/O error, never a read past the end.

use std::io;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use hdf5_reader::error::{Error as Hdf5Error, Result as Hdf5Result};
use hdf5_reader::storage::{Storage, StorageBuffer};
use svb_io::{Access, Recycler, Source};

/// Bytes in a block of the cache (16 KiB).
const BLOCK: u64 = 16 << 10;

/// Blocks in the cache every FAST5 file shares (256: 4 MiB).
const CACHE_BLOCKS: usize = 256;

/// A range above this size (4 KiB) is read by itself, not through the cache.
const DIRECT: usize = 4 << 10;

/// Bytes of capacity up to which a buffer of a large read goes back to its pool (2 MiB: a
/// run of chunks, `vbz_chunks`); a larger one (a single chunk of many MiB) is freed.
const LARGE_KEEP: usize = 2 << 20;

/// Buffers handed to the HDF5 layer come back here when it drops them, those of up to `keep`
/// bytes of capacity. Two pools: one for blocks and small reads, one for large reads, so that
/// a block of the cache never holds a buffer a large read grew.
struct Buffers {
    free: Recycler<Vec<u8>>,
    keep: usize,
}

type Pool = Arc<Buffers>;

/// A buffer the HDF5 layer holds; back to its pool when dropped.
struct Pooled {
    bytes: Vec<u8>,
    pool: Pool,
}

impl AsRef<[u8]> for Pooled {
    fn as_ref(&self) -> &[u8] {
        &self.bytes
    }
}

impl Drop for Pooled {
    fn drop(&mut self) {
        if self.bytes.capacity() <= self.pool.keep {
            self.pool.free.give(std::mem::take(&mut self.bytes));
        }
    }
}

/// A file's bytes held whole (a stream read at open): lent without copying.
struct Whole(Arc<Source>);

impl AsRef<[u8]> for Whole {
    fn as_ref(&self) -> &[u8] {
        self.0.as_slice().unwrap_or(&[])
    }
}

/// A cached block: (file, block number), the bytes.
type Entry = (u64, u64, Arc<Pooled>);

/// The blocks every FAST5 file shares, most recently used last.
struct Cache {
    entries: Mutex<Vec<Entry>>,
    /// Buffers of blocks and of reads up to a block's size.
    pool: Pool,
    /// Buffers of larger reads.
    large: Pool,
}

fn cache() -> &'static Cache {
    static CACHE: std::sync::OnceLock<Cache> = std::sync::OnceLock::new();
    CACHE.get_or_init(|| Cache {
        entries: Mutex::new(Vec::with_capacity(CACHE_BLOCKS)),
        pool: Arc::new(Buffers { free: Recycler::default(), keep: BLOCK as usize }),
        large: Arc::new(Buffers { free: Recycler::default(), keep: LARGE_KEEP }),
    })
}

impl Cache {
    fn entries(&self) -> std::sync::MutexGuard<'_, Vec<Entry>> {
        // A panic elsewhere leaves the list as valid as it was.
        self.entries.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn get(&self, file: u64, block: u64) -> Option<Arc<Pooled>> {
        let mut entries = self.entries();
        let at = entries.iter().rposition(|(f, b, _)| *f == file && *b == block)?;
        let entry = entries.remove(at);
        let bytes = entry.2.clone();
        entries.push(entry);
        Some(bytes)
    }

    fn insert(&self, file: u64, block: u64, bytes: Arc<Pooled>) {
        let mut entries = self.entries();
        if entries.iter().any(|(f, b, _)| *f == file && *b == block) {
            return;
        }
        if entries.len() == CACHE_BLOCKS {
            entries.remove(0);
        }
        entries.push((file, block, bytes));
    }
}

/// Positioned reads of one FAST5 file through the shared block cache.
pub(crate) struct FileStorage {
    source: Arc<Source>,
    /// This file's key in the cache: unique for the process's lifetime.
    id: u64,
}

impl FileStorage {
    /// Opens `path` for positioned reads (a stream, which has none, is read whole).
    pub(crate) fn open(path: &Path) -> io::Result<Self> {
        static NEXT_ID: AtomicU64 = AtomicU64::new(0);
        Ok(FileStorage {
            source: Arc::new(Source::open_as(path, Access::ReadAt, &crate::FILE_KIND)?),
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
        })
    }

    /// A pooled buffer holding `len` bytes at `offset`, read by one positioned read.
    fn read_direct(&self, offset: u64, len: usize) -> io::Result<Pooled> {
        let cache = cache();
        let pool = if len <= BLOCK as usize { cache.pool.clone() } else { cache.large.clone() };
        let mut bytes = pool.free.take();
        // The range was checked against the file's length: the file justifies the size.
        bytes.resize(len, 0);
        let mut pooled = Pooled { bytes, pool };
        self.source.read_into(offset, &mut pooled.bytes)?;
        Ok(pooled)
    }

    /// Block `block` of the file, from the cache or read into it.
    fn block(&self, block: u64) -> io::Result<Arc<Pooled>> {
        let cache = cache();
        if let Some(b) = cache.get(self.id, block) {
            return Ok(b);
        }
        let start = block * BLOCK;
        let len = BLOCK.min(self.source.len() - start) as usize;
        let bytes = Arc::new(self.read_direct(start, len)?);
        cache.insert(self.id, block, bytes.clone());
        Ok(bytes)
    }

    fn read(&self, offset: u64, len: usize) -> io::Result<StorageBuffer> {
        self.source.check_range(offset, len as u64)?;
        if self.source.as_slice().is_some() {
            let owner = Arc::new(Whole(self.source.clone()));
            return StorageBuffer::from_shared_owner(owner, offset as usize, len)
                .map_err(|e| io::Error::new(io::ErrorKind::UnexpectedEof, e.to_string()));
        }
        if len == 0 || len > DIRECT {
            let bytes = self.read_direct(offset, len)?;
            return StorageBuffer::from_shared_owner(Arc::new(bytes), 0, len)
                .map_err(|e| io::Error::new(io::ErrorKind::UnexpectedEof, e.to_string()));
        }
        let first = offset / BLOCK;
        let last = (offset + len as u64 - 1) / BLOCK;
        let at = (offset - first * BLOCK) as usize;
        let block = self.block(first)?;
        if first == last {
            return StorageBuffer::from_shared_owner(block, at, len)
                .map_err(|e| io::Error::new(io::ErrorKind::UnexpectedEof, e.to_string()));
        }
        // Across two blocks (a range is at most half a block long): joined in a buffer.
        let next = self.block(last)?;
        let pool = cache().pool.clone();
        let mut bytes = pool.free.take();
        bytes.clear();
        bytes.extend_from_slice(&block.bytes[at..]);
        let rest = len - bytes.len();
        bytes.extend_from_slice(&next.bytes[..rest]);
        let joined = Arc::new(Pooled { bytes, pool });
        StorageBuffer::from_shared_owner(joined, 0, len)
            .map_err(|e| io::Error::new(io::ErrorKind::UnexpectedEof, e.to_string()))
    }
}

impl Storage for FileStorage {
    fn len(&self) -> u64 {
        self.source.len()
    }

    fn read_range(&self, offset: u64, len: usize) -> Hdf5Result<StorageBuffer> {
        self.read(offset, len).map_err(|e| match e.kind() {
            io::ErrorKind::UnexpectedEof => Hdf5Error::UnexpectedEof {
                offset,
                needed: len as u64,
                available: self.source.len().saturating_sub(offset),
            },
            _ => Hdf5Error::Io(e),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_range_reads_the_file_bytes() {
        let mut bytes: Vec<u8> = (0..300_000u32).map(|i| (i * 31 % 251) as u8).collect();
        // HDF5's signature first: the open checks it.
        bytes[..8].copy_from_slice(svb_model::Format::Fast5.signature());
        let path = std::env::temp_dir().join(format!("svb-fast5-storage-{}", std::process::id()));
        std::fs::write(&path, &bytes).unwrap();
        let s = FileStorage::open(&path).unwrap();
        let block = BLOCK as usize;
        let mut ranges = vec![
            (0, 0),
            (0, 8),
            (block - 3, 6),
            (block - 1, 1),
            (block, DIRECT),
            (block - 5, DIRECT),
            (3 * block - 100, DIRECT + 1),
            (bytes.len() - 7, 7),
            (bytes.len(), 0),
            (12345, 100_000),
        ];
        for i in 0..200 {
            let at = (i * 7919 * 13) % bytes.len();
            ranges.push((at, ((i * 613) % 9000).min(bytes.len() - at)));
        }
        for (at, len) in ranges {
            let got = s.read_range(at as u64, len).unwrap();
            assert_eq!(&got[..], &bytes[at..at + len], "{len} bytes at {at}");
        }
        for (at, len) in [(bytes.len() - 7, 8), (bytes.len() + 1, 0), (u64::MAX as usize, 2)] {
            match s.read_range(at as u64, len) {
                Err(Hdf5Error::UnexpectedEof { .. }) => {}
                Err(e) => panic!("{len} bytes at {at}: {e:?}"),
                Ok(_) => panic!("{len} bytes at {at}: read past the end"),
            }
        }
        // A file truncated after it was opened: an error, never bytes past its end.
        std::fs::write(&path, &bytes[..1000]).unwrap();
        let s2 = FileStorage::open(&path).unwrap();
        std::fs::write(&path, &bytes[..10]).unwrap();
        assert!(s2.read_range(500, 100).is_err());
        std::fs::remove_file(&path).unwrap();
    }
}
