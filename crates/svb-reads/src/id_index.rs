//! [`IdIndex`]: a dataset's read id -> (file, read) index, kept in a file and read by
//! positioned reads, so that looking a read up among millions in thousands of files holds
//! neither the ids nor the files in memory.
//!
//! The file (`.svbidx`, little-endian, version 2):
//!
//! | bytes | what |
//! |---|---|
//! | 8 | `SVBDSIDX` |
//! | 4 | version (2) |
//! | 1 | key kind: 0 a POD5 read id's 16 UUID bytes, 1 the read id's text (BLOW5, SLOW5, FAST5) |
//! | 3 | zero |
//! | 4 | files |
//! | 4 | zero |
//! | 8 | entries (the reads of all files) |
//! | per file | reads (8), size (8), modified: seconds since 1970 (8, signed) and nanoseconds (4), path length (4), device (8), inode (8), status changed: seconds (8, signed) and nanoseconds (4), zero (4), the absolute path's bytes |
//! | 0-15 | zero, to a multiple of 16 bytes |
//! | 16 per entry | [`id_hash`] of the key (8), file number (4), read number in the file (4) |
//! | 8 | checksum of every byte before it ([`checksum`]) |
//!
//! Entries are sorted by hash, then file, then read; each read of each file is there once.
//! A lookup finds the entries of its id's hash and checks each read's id in its file, so a
//! hash shared by two ids costs a look, never a wrong read. An index whose files changed
//! (size, modification time, or which file a path names: its device and inode, and its
//! status change time, which no one can set back as a modification time can) no longer fits
//! them and is rebuilt, and so is one whose checksum or structure is wrong (a damaged file).

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{self, BufReader, Read as _, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

use svb_io::{Access, OnExisting, PartialFile, Source};

use crate::ReadsError;

const MAGIC: &[u8; 8] = b"SVBDSIDX";
const VERSION: u32 = 2;
const HEAD: u64 = 32;
const ENTRY: u64 = 16;
/// Bytes of a file's record before its path.
const FILE_RECORD: u64 = 64;
/// Entries between two fences (the hashes kept in memory): a lookup reads 4 KiB.
const FENCE: u64 = 256;
/// Entries sorted in memory at a time while building (32 MiB); more are sorted in runs
/// spilled to a scratch file, then merged.
const RUN: usize = 1 << 21;

/// What a key is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum KeyKind {
    /// A POD5 read id's 16 bytes (so any spelling of the UUID finds it).
    Uuid = 0,
    /// The read id's text.
    Text = 1,
}

/// The hash of a key: stable (it is written in index files), 64 bits.
///
/// ```
/// assert_eq!(svb_reads::id_hash(b""), svb_reads::id_hash(b""));
/// assert_ne!(svb_reads::id_hash(b"read_1"), svb_reads::id_hash(b"read_2"));
/// ```
pub fn id_hash(key: &[u8]) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut h = 0x243F_6A88_85A3_08D3 ^ (key.len() as u64).wrapping_mul(K);
    for chunk in key.chunks(8) {
        let mut word = [0u8; 8];
        word[..chunk.len()].copy_from_slice(chunk);
        h = (h ^ u64::from_le_bytes(word)).wrapping_mul(K);
        h ^= h >> 29;
    }
    h ^= h >> 30;
    h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h ^= h >> 27;
    h = h.wrapping_mul(0x94D0_49BB_1331_11EB);
    h ^ (h >> 31)
}

/// Sets the checksum an index file ends with to that of its bytes before it (a multiple of
/// 8; shorter input is left as it is): an index edited on purpose (a test, a fuzz target) is
/// then judged by its structure, not refused as a damaged file.
///
/// ```
/// let mut bytes = vec![7u8; 40];
/// svb_reads::seal_index(&mut bytes);
/// let sealed = bytes.clone();
/// bytes[0] ^= 1;
/// svb_reads::seal_index(&mut bytes);
/// assert_ne!(bytes[32..], sealed[32..]);
/// ```
pub fn seal_index(bytes: &mut [u8]) {
    let Some(body) = bytes.len().checked_sub(8) else { return };
    if !body.is_multiple_of(8) {
        return;
    }
    let sum = checksum(0, &bytes[..body]);
    bytes[body..].copy_from_slice(&sum.to_le_bytes());
}

/// The checksum of an index file: its bytes (a multiple of 8) as little-endian words, each
/// mixed in as [`id_hash`] mixes a key's, from `h` (0 at the start).
pub(crate) fn checksum(mut h: u64, bytes: &[u8]) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    debug_assert!(bytes.len().is_multiple_of(8));
    for word in bytes.chunks_exact(8) {
        h = (h ^ u64::from_le_bytes(word.try_into().expect("8 bytes"))).wrapping_mul(K);
        h ^= h >> 29;
    }
    h
}

/// What an index records of one file, to tell whether the file changed since.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Stamp {
    /// The absolute path.
    pub path: PathBuf,
    /// Its size in bytes.
    pub size: u64,
    /// Its modification time: seconds since 1970 (negative before) and nanoseconds.
    pub modified: (i64, u32),
    /// Which file it is, and when its status last changed: device, inode, and the change
    /// time's seconds and nanoseconds. Two files that swap names keep their sizes and times
    /// but not their inodes; a file rewritten in place and given its old modification time
    /// back has a new change time (no call sets it). Zeros for an object (its version is in
    /// `modified`) and where the system has no inodes.
    pub identity: (u64, u64, i64, u32),
}

impl Stamp {
    /// The stamp of `path` now.
    ///
    /// An object's (a URL's) stamp is its length and its version: its ETag (or the store's
    /// version id), hashed where a file's modification time goes.
    pub fn of(path: &Path) -> Result<Stamp, ReadsError> {
        let io = |source| ReadsError::Io { path: path.to_path_buf(), source };
        if let Some(url) = svb_io::url_of(path) {
            let (size, version) = svb_io::object_version(url).map_err(io)?;
            let h = id_hash(version.as_bytes());
            return Ok(Stamp {
                path: path.to_path_buf(),
                size,
                modified: (h as i64, (h >> 32) as u32),
                identity: (0, 0, 0, 0),
            });
        }
        let meta = std::fs::metadata(path).map_err(io)?;
        let modified = meta.modified().map_err(io)?;
        let modified = match modified.duration_since(UNIX_EPOCH) {
            Ok(d) => (d.as_secs() as i64, d.subsec_nanos()),
            Err(e) => {
                let d = e.duration();
                (-(d.as_secs() as i64), d.subsec_nanos())
            }
        };
        Ok(Stamp {
            path: std::path::absolute(path).map_err(io)?,
            size: meta.len(),
            modified,
            identity: identity(&meta),
        })
    }
}

/// A file's device, inode and status change time ([`Stamp::identity`]).
#[cfg(unix)]
fn identity(meta: &std::fs::Metadata) -> (u64, u64, i64, u32) {
    use std::os::unix::fs::MetadataExt;
    (meta.dev(), meta.ino(), meta.ctime(), meta.ctime_nsec() as u32)
}

/// Without inodes a file is told by its size and modification time alone.
#[cfg(not(unix))]
fn identity(_: &std::fs::Metadata) -> (u64, u64, i64, u32) {
    (0, 0, 0, 0)
}

/// An open index: the files it was built from (with their read counts), and one hash in
/// every [`FENCE`] entries in memory.
pub(crate) struct IdIndex {
    source: Source,
    path: PathBuf,
    reads: Vec<u64>,
    entries_at: u64,
    entries: u64,
    fences: Vec<u64>,
    /// Entries whose hash is the one before's: the only places a read id can be twice.
    same_hash: Vec<u64>,
    /// Removed when dropped (an index made for one session).
    temporary: bool,
}

/// What [`IdIndex::load`] found at a path.
pub(crate) enum Loaded {
    /// An index of these files, as they are.
    Fits(IdIndex),
    /// An svb index, of other files or of these as they were (why, to tell the user).
    Stale(String),
}

impl IdIndex {
    /// The file the index is read from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Each file's read count.
    pub fn reads(&self) -> &[u64] {
        &self.reads
    }

    /// Entries whose hash is the one before's (positions, in order).
    pub fn same_hash(&self) -> &[u64] {
        &self.same_hash
    }

    /// Entry `i`: (file, read).
    pub fn entry(&self, i: u64) -> Result<(u32, u32), ReadsError> {
        let mut e = [0u8; ENTRY as usize];
        self.read_at(self.entries_at + i * ENTRY, &mut e)?;
        let (_, file, read) = parse_entry(&e);
        Ok((file, read))
    }

    /// The (file, read) of every entry of hash `hash`, in file order.
    pub fn candidates(&self, hash: u64) -> Result<Vec<(u32, u32)>, ReadsError> {
        let mut out = Vec::new();
        let block = self.fences.partition_point(|&f| f < hash).saturating_sub(1) as u64;
        let mut at = block * FENCE;
        let mut buf = vec![0u8; (FENCE * ENTRY) as usize];
        while at < self.entries {
            let n = (self.entries - at).min(FENCE);
            let bytes = &mut buf[..(n * ENTRY) as usize];
            self.read_at(self.entries_at + at * ENTRY, bytes)?;
            for e in bytes.chunks_exact(ENTRY as usize) {
                let (h, file, read) = parse_entry(e);
                if h > hash {
                    return Ok(out);
                }
                if h == hash {
                    out.push((file, read));
                }
            }
            at += n;
        }
        Ok(out)
    }

    fn read_at(&self, offset: u64, buf: &mut [u8]) -> Result<(), ReadsError> {
        self.source
            .read_into(offset, buf)
            .map_err(|source| ReadsError::Io { path: self.path.clone(), source })
    }

    /// Reads the index at `path` for files `stamps` (keys of `kind`). A file that is not an
    /// svb index is an error (it is never replaced); an index that is damaged or does not fit
    /// these files as they are is [`Loaded::Stale`].
    pub fn load(path: &Path, kind: KeyKind, stamps: &[Stamp]) -> Result<Loaded, ReadsError> {
        let io = |source| ReadsError::Io { path: path.to_path_buf(), source };
        // A FIFO or a device would be waited on (or read as a stream) and then replaced: an
        // index is a file svb wrote.
        if svb_io::url_of(path).is_none() {
            let meta = std::fs::metadata(path).map_err(io)?;
            if !meta.is_file() {
                return Err(ReadsError::DatasetIndex {
                    path: path.to_path_buf(),
                    what: "not a regular file (a FIFO, a device or a folder), so not an svb \
                           dataset index; not replaced"
                        .into(),
                });
            }
        }
        let source = Source::open(path, Access::ReadAt).map_err(io)?;
        let len = source.len();
        let mut head = [0u8; HEAD as usize];
        if len < HEAD || {
            source.read_into(0, &mut head).map_err(io)?;
            &head[..8] != MAGIC
        } {
            return Err(ReadsError::DatasetIndex {
                path: path.to_path_buf(),
                what: "not an svb dataset index (no SVBDSIDX signature); not replaced".into(),
            });
        }
        let stale = |why: String| Ok(Loaded::Stale(why));
        let version = u32_at(&head, 8);
        if version != VERSION {
            return stale(format!("index version {version}, not {VERSION}"));
        }
        if head[12] != kind as u8 {
            return stale("an index of another format's read ids".into());
        }
        let files = u64::from(u32_at(&head, 16));
        let entries = u64_at(&head, 24);
        if files != stamps.len() as u64 {
            return stale(format!("an index of {files} files, not {}", stamps.len()));
        }
        // The file table, record by record (its size is bounded by the file's), kept with the
        // header for the checksum.
        let mut prefix = head.to_vec();
        let mut at = HEAD;
        let mut reads = Vec::with_capacity(stamps.len());
        for (i, want) in stamps.iter().enumerate() {
            let mut rec = [0u8; FILE_RECORD as usize];
            if at + FILE_RECORD > len {
                return stale(format!("cut in its file table (file {i})"));
            }
            source.read_into(at, &mut rec).map_err(io)?;
            let path_len = u64::from(u32_at(&rec, 28));
            if at + FILE_RECORD + path_len > len {
                return stale(format!("cut in its file table (file {i})"));
            }
            let mut name = vec![0u8; path_len as usize];
            source.read_into(at + FILE_RECORD, &mut name).map_err(io)?;
            prefix.extend_from_slice(&rec);
            prefix.extend_from_slice(&name);
            let found = Stamp {
                path: path_from_bytes(name),
                size: u64_at(&rec, 8),
                modified: (u64_at(&rec, 16) as i64, u32_at(&rec, 24)),
                identity: (
                    u64_at(&rec, 32),
                    u64_at(&rec, 40),
                    u64_at(&rec, 48) as i64,
                    u32_at(&rec, 56),
                ),
            };
            if found != *want {
                return stale(format!("{} changed since the index was made", want.path.display()));
            }
            reads.push(u64_at(&rec, 0));
            at += FILE_RECORD + path_len;
        }
        let entries_at = at.next_multiple_of(ENTRY);
        let body = entries.checked_mul(ENTRY).and_then(|b| b.checked_add(8));
        if len.checked_sub(entries_at) != body {
            return stale(format!("{len} bytes, not the size its {entries} entries make"));
        }
        if reads.iter().try_fold(0u64, |a, &r| a.checked_add(r)) != Some(entries) {
            return stale("its file table and its entries disagree".into());
        }
        // Every entry once: sorted, in bounds, each (file, read) seen once.
        let mut bases = Vec::with_capacity(reads.len());
        let mut total = 0u64;
        for &r in &reads {
            bases.push(total);
            total += r;
        }
        // The padding after the table (inside the file: checked above).
        prefix.resize(entries_at as usize, 0);
        source.read_into(at, &mut prefix[at as usize..]).map_err(io)?;
        let mut sum = checksum(0, &prefix);
        drop(prefix);
        let mut seen = vec![0u64; entries.div_ceil(64) as usize];
        let mut fences = Vec::with_capacity(entries.div_ceil(FENCE) as usize);
        let mut same_hash = Vec::new();
        let mut prev: Option<(u64, u32, u32)> = None;
        let mut buf = vec![0u8; 1 << 20];
        let mut i = 0u64;
        while i < entries {
            let n = (entries - i).min(buf.len() as u64 / ENTRY);
            let bytes = &mut buf[..(n * ENTRY) as usize];
            source.read_into(entries_at + i * ENTRY, bytes).map_err(io)?;
            sum = checksum(sum, bytes);
            for e in bytes.chunks_exact(ENTRY as usize) {
                let cur = parse_entry(e);
                let (h, file, read) = cur;
                let Some(&count) = reads.get(file as usize) else {
                    return stale(format!("entry {i} names file {file} of {files}"));
                };
                if u64::from(read) >= count {
                    return stale(format!("entry {i} names read {read} of {count}"));
                }
                if prev.is_some_and(|p| p >= cur) {
                    return stale(format!("entry {i} out of order"));
                }
                let slot = bases[file as usize] + u64::from(read);
                let (word, bit) = ((slot / 64) as usize, slot % 64);
                if seen[word] >> bit & 1 == 1 {
                    return stale(format!("entry {i} repeats a read"));
                }
                seen[word] |= 1 << bit;
                if i.is_multiple_of(FENCE) {
                    fences.push(h);
                }
                if prev.is_some_and(|p| p.0 == h) {
                    same_hash.push(i);
                }
                prev = Some(cur);
                i += 1;
            }
        }
        let mut stored = [0u8; 8];
        source.read_into(entries_at + entries * ENTRY, &mut stored).map_err(io)?;
        if u64::from_le_bytes(stored) != sum {
            return stale("its checksum does not match its bytes (a damaged file)".into());
        }
        Ok(Loaded::Fits(IdIndex {
            source,
            path: path.to_path_buf(),
            reads,
            entries_at,
            entries,
            fences,
            same_hash,
            temporary: false,
        }))
    }
}

impl Drop for IdIndex {
    fn drop(&mut self) {
        if self.temporary {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

fn parse_entry(e: &[u8]) -> (u64, u32, u32) {
    (u64_at(e, 0), u32_at(e, 8), u32_at(e, 12))
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

#[cfg(unix)]
fn path_bytes(p: &Path) -> Option<&[u8]> {
    use std::os::unix::ffi::OsStrExt;
    Some(p.as_os_str().as_bytes())
}

#[cfg(not(unix))]
fn path_bytes(p: &Path) -> Option<&[u8]> {
    p.to_str().map(str::as_bytes)
}

#[cfg(unix)]
fn path_from_bytes(b: Vec<u8>) -> PathBuf {
    use std::os::unix::ffi::OsStringExt;
    PathBuf::from(std::ffi::OsString::from_vec(b))
}

#[cfg(not(unix))]
fn path_from_bytes(b: Vec<u8>) -> PathBuf {
    PathBuf::from(String::from_utf8_lossy(&b).into_owned())
}

/// Builds an index: each file's key hashes are added in file order ([`Builder::add_file`]),
/// then [`Builder::finish`] sorts and writes them. Memory: [`RUN`] entries; more are sorted
/// in runs spilled beside the destination and merged.
pub(crate) struct Builder {
    dest: PathBuf,
    kind: KeyKind,
    temporary: bool,
    stamps: Vec<Stamp>,
    reads: Vec<u64>,
    run: Vec<(u64, u64)>,
    /// Entries sorted in memory at a time ([`RUN`]; less in tests).
    run_limit: usize,
    spill: Option<PartialFile>,
    runs: Vec<(u64, u64)>,
}

impl Builder {
    /// An index of keys of `kind` of the files `stamps` (added in this order), to be
    /// published at `dest` (replacing what is there: the caller checked it is an index); a
    /// `temporary` one is removed when dropped.
    pub fn new(dest: &Path, kind: KeyKind, stamps: Vec<Stamp>, temporary: bool) -> Builder {
        Builder {
            dest: dest.to_path_buf(),
            kind,
            temporary,
            reads: Vec::with_capacity(stamps.len()),
            stamps,
            run: Vec::new(),
            run_limit: RUN,
            spill: None,
            runs: Vec::new(),
        }
    }

    fn io(&self) -> impl Fn(io::Error) -> ReadsError {
        io_at(&self.dest)
    }

    /// Adds the next file's reads, by their keys' hashes in read order.
    pub fn add_file(&mut self, hashes: &[u64]) -> Result<(), ReadsError> {
        let file = self.reads.len() as u64;
        let too_many = |what: &str| ReadsError::DatasetIndex {
            path: self.stamps[file as usize].path.clone(),
            what: format!("more than 2^32 {what}: beyond what a dataset index holds"),
        };
        if file > u64::from(u32::MAX) {
            return Err(too_many("files"));
        }
        if hashes.len() as u64 > u64::from(u32::MAX) {
            return Err(too_many("reads in one file"));
        }
        self.reads.push(hashes.len() as u64);
        for (read, &h) in hashes.iter().enumerate() {
            self.run.push((h, file << 32 | read as u64));
            if self.run.len() >= self.run_limit {
                self.spill_run()?;
            }
        }
        Ok(())
    }

    fn spill_run(&mut self) -> Result<(), ReadsError> {
        self.run.sort_unstable();
        if self.spill.is_none() {
            let scratch = PartialFile::scratch(&self.dest, "runs").map_err(self.io())?;
            self.spill = Some(scratch);
        }
        let spill = self.spill.as_mut().expect("made above");
        let start = spill.position();
        let mut bytes = Vec::with_capacity(self.run.len() * ENTRY as usize);
        for &(h, fr) in &self.run {
            bytes.extend_from_slice(&h.to_le_bytes());
            bytes.extend_from_slice(&fr.to_le_bytes());
        }
        let wrote = spill.write_all(&bytes);
        wrote.map_err(|source| ReadsError::Io { path: self.dest.clone(), source })?;
        self.runs.push((start, self.run.len() as u64));
        self.run.clear();
        Ok(())
    }

    /// Sorts, writes and publishes the index, and opens it.
    pub fn finish(mut self) -> Result<IdIndex, ReadsError> {
        let entries: u64 = self.reads.iter().sum();
        let mut out = PartialFile::create(&self.dest, OnExisting::Replace).map_err(self.io())?;
        let mut head = Vec::with_capacity(HEAD as usize);
        head.extend_from_slice(MAGIC);
        head.extend_from_slice(&VERSION.to_le_bytes());
        head.extend_from_slice(&[self.kind as u8, 0, 0, 0]);
        head.extend_from_slice(&(self.stamps.len() as u32).to_le_bytes());
        head.extend_from_slice(&[0; 4]);
        head.extend_from_slice(&entries.to_le_bytes());
        for (stamp, reads) in self.stamps.iter().zip(&self.reads) {
            let name = path_bytes(&stamp.path).ok_or_else(|| ReadsError::DatasetIndex {
                path: stamp.path.clone(),
                what: "a path that is not UTF-8 cannot be kept in a dataset index here".into(),
            })?;
            head.extend_from_slice(&reads.to_le_bytes());
            head.extend_from_slice(&stamp.size.to_le_bytes());
            head.extend_from_slice(&stamp.modified.0.to_le_bytes());
            head.extend_from_slice(&stamp.modified.1.to_le_bytes());
            head.extend_from_slice(&(name.len() as u32).to_le_bytes());
            let (device, inode, changed, changed_ns) = stamp.identity;
            head.extend_from_slice(&device.to_le_bytes());
            head.extend_from_slice(&inode.to_le_bytes());
            head.extend_from_slice(&changed.to_le_bytes());
            head.extend_from_slice(&changed_ns.to_le_bytes());
            head.extend_from_slice(&[0; 4]);
            head.extend_from_slice(name);
        }
        head.resize((head.len() as u64).next_multiple_of(ENTRY) as usize, 0);
        let entries_at = head.len() as u64;
        out.write_all(&head).map_err(self.io())?;
        let sum = checksum(0, &head);

        let mut fences = Vec::with_capacity(entries.div_ceil(FENCE) as usize);
        let mut same_hash = Vec::new();
        let mut w = EntryWriter {
            out: &mut out,
            i: 0,
            prev: None,
            sum,
            fences: &mut fences,
            same_hash: &mut same_hash,
        };
        if self.runs.is_empty() {
            self.run.sort_unstable();
            for &e in &self.run {
                w.push(e).map_err(self.io())?;
            }
        } else {
            if !self.run.is_empty() {
                self.spill_run()?;
            }
            let io = self.io();
            let spill = self.spill.as_mut().expect("runs were spilled");
            spill.flush().map_err(io)?;
            let scratch = spill.path_written().to_path_buf();
            merge_runs(&scratch, &self.runs, &mut w).map_err(self.io())?;
        }
        let sum = w.sum;
        out.write_all(&sum.to_le_bytes()).map_err(self.io())?;
        match self.temporary {
            true => out.commit_unsynced(),
            false => out.commit(),
        }
        .map_err(self.io())?;
        self.spill = None;
        let source = Source::open(&self.dest, Access::ReadAt).map_err(self.io())?;
        let temporary = self.temporary;
        if temporary && cfg!(unix) {
            // Open already: on Unix the name can go now, so that nothing is left behind even
            // if the process is killed.
            let _ = std::fs::remove_file(&self.dest);
        }
        Ok(IdIndex {
            source,
            path: std::mem::take(&mut self.dest),
            reads: std::mem::take(&mut self.reads),
            entries_at,
            entries,
            fences,
            same_hash,
            temporary: temporary && !cfg!(unix),
        })
    }
}

/// An I/O error of `path`.
fn io_at(path: &Path) -> impl Fn(io::Error) -> ReadsError {
    let path = path.to_path_buf();
    move |source| ReadsError::Io { path: path.clone(), source }
}

/// Writes sorted entries, noting fences and repeated hashes.
struct EntryWriter<'a, W: Write> {
    out: &'a mut W,
    i: u64,
    prev: Option<u64>,
    /// [`checksum`] of the bytes so far.
    sum: u64,
    fences: &'a mut Vec<u64>,
    same_hash: &'a mut Vec<u64>,
}

impl<W: Write> EntryWriter<'_, W> {
    fn push(&mut self, (h, fr): (u64, u64)) -> io::Result<()> {
        if self.i.is_multiple_of(FENCE) {
            self.fences.push(h);
        }
        if self.prev == Some(h) {
            self.same_hash.push(self.i);
        }
        self.prev = Some(h);
        self.i += 1;
        let mut e = [0u8; ENTRY as usize];
        e[..8].copy_from_slice(&h.to_le_bytes());
        e[8..12].copy_from_slice(&((fr >> 32) as u32).to_le_bytes());
        e[12..].copy_from_slice(&(fr as u32).to_le_bytes());
        self.sum = checksum(self.sum, &e);
        self.out.write_all(&e)
    }
}

/// Merges the sorted runs `runs` (offset, entries) of file `scratch` into `w`.
fn merge_runs<W: Write>(
    scratch: &Path, runs: &[(u64, u64)], w: &mut EntryWriter<'_, W>,
) -> io::Result<()> {
    let mut readers = Vec::with_capacity(runs.len());
    let mut heap = BinaryHeap::with_capacity(runs.len());
    for (r, &(at, n)) in runs.iter().enumerate() {
        let mut f = File::open(scratch)?;
        f.seek(SeekFrom::Start(at))?;
        let mut reader = (BufReader::with_capacity(1 << 16, f), n);
        if let Some(e) = next_entry(&mut reader)? {
            heap.push(Reverse((e, r)));
        }
        readers.push(reader);
    }
    while let Some(Reverse((e, r))) = heap.pop() {
        w.push(e)?;
        if let Some(next) = next_entry(&mut readers[r])? {
            heap.push(Reverse((next, r)));
        }
    }
    Ok(())
}

fn next_entry((reader, left): &mut (BufReader<File>, u64)) -> io::Result<Option<(u64, u64)>> {
    if *left == 0 {
        return Ok(None);
    }
    *left -= 1;
    let mut e = [0u8; ENTRY as usize];
    reader.read_exact(&mut e)?;
    Ok(Some((u64_at(&e, 0), u64_at(&e, 8))))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stamps(dir: &Path, n: usize) -> Vec<Stamp> {
        (0..n)
            .map(|i| {
                let p = dir.join(format!("f{i}.blow5"));
                std::fs::write(&p, vec![0u8; i + 1]).unwrap();
                Stamp::of(&p).unwrap()
            })
            .collect()
    }

    fn scratch_dir(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("svb-id-index-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    /// Hashes in a small range, so that many entries share one.
    fn hashes(file: usize, n: usize) -> Vec<u64> {
        (0..n).map(|r| ((file * 7919 + r * 104_729) % 1000) as u64).collect()
    }

    /// Every `step`-th read of every file is among its hash's candidates.
    fn check_all(index: &IdIndex, files: usize, per: usize, step: usize) {
        for f in 0..files {
            for (r, h) in hashes(f, per).into_iter().enumerate().step_by(step) {
                let c = index.candidates(h).unwrap();
                assert!(c.contains(&(f as u32, r as u32)), "{f} {r}");
                assert!(c.windows(2).all(|w| w[0] < w[1]));
            }
        }
        assert!(index.candidates(5000).unwrap().is_empty());
    }

    #[test]
    fn built_in_memory_and_in_runs_alike() {
        let dir = scratch_dir("runs");
        let st = stamps(&dir, 3);
        let per = 5011; // three files in runs of 10000: one run in memory at the end
        let mut b = Builder::new(&dir.join("x.svbidx"), KeyKind::Text, st.clone(), false);
        b.run_limit = 10_000;
        for f in 0..3 {
            b.add_file(&hashes(f, per)).unwrap();
        }
        let index = b.finish().unwrap();
        assert_eq!(index.reads(), &[per as u64; 3]);
        check_all(&index, 3, per, 7);
        // No scratch file left beside it.
        let left: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(left.len(), 4, "{left:?}");
        drop(index);
        let Loaded::Fits(again) = IdIndex::load(&dir.join("x.svbidx"), KeyKind::Text, &st).unwrap()
        else {
            panic!("the index fits its files")
        };
        check_all(&again, 3, per, 7);
        assert_eq!(again.same_hash().len(), 3 * per - 1000);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn damaged_or_stale_indexes_are_told_apart_from_other_files() {
        let dir = scratch_dir("damaged");
        let st = stamps(&dir, 2);
        let at = dir.join("x.svbidx");
        let mut b = Builder::new(&at, KeyKind::Text, st.clone(), false);
        b.add_file(&hashes(0, 60)).unwrap();
        b.add_file(&hashes(1, 40)).unwrap();
        drop(b.finish().unwrap());
        let good = std::fs::read(&at).unwrap();
        let is_stale = |bytes: &[u8], kind, st: &[Stamp]| {
            std::fs::write(&at, bytes).unwrap();
            matches!(IdIndex::load(&at, kind, st), Ok(Loaded::Stale(_)))
        };
        assert!(!is_stale(&good, KeyKind::Text, &st));
        assert!(is_stale(&good, KeyKind::Uuid, &st));
        assert!(is_stale(&good, KeyKind::Text, &st[..1]));
        // Every cut, and a flipped byte anywhere in the entries or the file table.
        for cut in 32..good.len() {
            assert!(is_stale(&good[..cut], KeyKind::Text, &st), "cut at {cut}");
        }
        // Any byte flipped after the signature: caught (structure or checksum).
        for at_byte in 8..good.len() {
            let mut bad = good.clone();
            bad[at_byte] ^= 0x40;
            assert!(is_stale(&bad, KeyKind::Text, &st), "flip at {at_byte}");
        }
        // A file that is not an index is an error, not stale.
        std::fs::write(&at, b"ordinary user data, long enough to be read").unwrap();
        assert!(IdIndex::load(&at, KeyKind::Text, &st).is_err());
        // A file changed since.
        std::fs::write(&at, &good).unwrap();
        std::fs::write(&st[1].path, b"longer than it was").unwrap();
        assert!(is_stale(&good, KeyKind::Text, &[st[0].clone(), Stamp::of(&st[1].path).unwrap()]));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_temporary_index_leaves_nothing() {
        let dir = scratch_dir("temp");
        let st = stamps(&dir, 1);
        let at = dir.join("t.svbidx");
        let mut b = Builder::new(&at, KeyKind::Uuid, st, true);
        b.add_file(&[1, 2, 3]).unwrap();
        let index = b.finish().unwrap();
        assert_eq!(index.candidates(2).unwrap(), vec![(0, 1)]);
        drop(index);
        assert!(!at.exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
