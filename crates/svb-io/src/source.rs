//! [`Source`]: where a file reader's bytes come from.

use std::cell::Cell;
use std::fs::File;
use std::io;
use std::path::Path;

/// What a reader takes a file to be, checked by [`Source::open_as`] from its first bytes before
/// anything more is read. svb-io knows no format: each format's crate gives its own (the
/// bytes from `svb_model::Format`), so this layer stays below the read model.
///
/// ```
/// use svb_io::FileKind;
/// fn fast5_or_not(head: &[u8]) -> String {
///     format!("{} bytes of something else", head.len())
/// }
/// const FAST5: FileKind = FileKind {
///     name: "FAST5",
///     magic: &[b"\x89HDF\r\n\x1a\n"],
///     describe: fast5_or_not,
///     look: 16,
///     open_tail: 16 << 10,
/// };
/// assert!(FAST5.accepts(b"\x89HDF\r\n\x1a\n..."));
/// assert!(!FAST5.accepts(b"\x8bPOD\r\n\x1a\n"));
/// assert!(FAST5.accepts(b"\x89HD")); // shorter than the signature: left to the reader
/// ```
#[derive(Clone, Copy, Debug)]
pub struct FileKind {
    /// The format's name, in errors (`POD5`).
    pub name: &'static str,
    /// The bytes a file the reader reads starts with: any one of them (BLOW5's reader reads
    /// SLOW5 text too).
    pub magic: &'static [&'static [u8]],
    /// What a file whose first bytes are these is, named in the error for a file of another
    /// format ("a FAST5 (HDF5) file", "empty").
    pub describe: fn(&[u8]) -> String,
    /// The bytes of the file's start read for the check and `describe` (the longest magic
    /// when that is more).
    pub look: usize,
    /// The bytes of an object's end the reader reads at open (POD5's footer and tables),
    /// fetched with its head in the open's one round trip.
    pub open_tail: u64,
}

impl FileKind {
    /// The bytes of a file's start a check reads: [`look`](FileKind::look), or the longest
    /// magic.
    pub fn head_len(&self) -> usize {
        self.magic.iter().map(|m| m.len()).fold(self.look, usize::max)
    }

    /// Whether a file starting with `head` may be read: it starts with one of the magics, or
    /// is shorter than the shortest (left to the reader, to refuse in its own words).
    pub fn accepts(&self, head: &[u8]) -> bool {
        let shortest = self.magic.iter().map(|m| m.len()).min().unwrap_or(0);
        head.len() < shortest || self.magic.iter().any(|m| head.starts_with(m))
    }

    /// The error of this reader given a file starting with `head`: names what the file is.
    pub fn wrong_format(&self, head: &[u8]) -> io::Error {
        let what = format!("not a {} file: {}", self.name, (self.describe)(head));
        io::Error::new(io::ErrorKind::InvalidData, what)
    }

    fn check(&self, head: &[u8]) -> io::Result<()> {
        if self.accepts(head) {
            Ok(())
        } else {
            Err(self.wrong_format(head))
        }
    }
}

/// The tail an object's open fetches when no [`FileKind`] says (512 KiB: a POD5 file's
/// footer and, in most files, its tables).
pub const OPEN_TAIL: u64 = 512 << 10;

/// [`Access::Auto`] reads files up to this size (64 MiB) whole and reads larger ones by
/// positioned reads. Reading a small file whole costs less than mapping it (measured on a
/// 3 MB BLOW5 file: a whole-file parallel decode 1.3x faster than from a map, which pays a
/// page fault per page and a TLB shootdown on every thread at unmap).
pub const READ_WHOLE: u64 = 64 << 20;

/// The most bytes read from a stream (a FIFO, a device, a pipe; anything but a regular
/// file), which has no length to check offsets against and may have no end (1 GiB).
pub const STREAM_LIMIT: u64 = 1 << 30;

/// How [`Source::open`] reaches a file's bytes. None of them is undefined behaviour when
/// another process changes the file: a memory map, which is, takes the `unsafe`
/// [`Source::map`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Access {
    /// Read whole up to [`READ_WHOLE`] bytes, by positioned reads above.
    #[default]
    Auto,
    /// Read the whole file into memory at open.
    ReadWhole,
    /// Read each range when it is asked for (`pread`): memory stays at what is being decoded
    /// whatever the file's size. A range that another process has truncated away is an I/O
    /// error; bytes it has rewritten are read as they are now.
    ReadAt,
}

enum Inner {
    Memory(Vec<u8>),
    File(File),
    Mapped(memmap2::Mmap),
    #[cfg(feature = "remote")]
    Remote(std::sync::Arc<crate::remote::Object>),
    /// An object copied whole into a temporary file ([`Source::spooled`]): read by positioned
    /// reads, the file removed when the source is dropped (the read handle first).
    #[cfg(feature = "remote")]
    Spooled {
        file: File,
        _spool: Box<crate::PartialFile>,
    },
}

/// A file's bytes: in memory, read on demand, or mapped. Every range is checked against the
/// length the file had when it was opened.
pub struct Source {
    inner: Inner,
    len: u64,
}

impl std::fmt::Debug for Source {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let how = match self.inner {
            Inner::Memory(_) => "in memory",
            Inner::File(_) => "positioned reads",
            Inner::Mapped(_) => "mapped",
            #[cfg(feature = "remote")]
            Inner::Remote(_) => "ranges of an object",
            #[cfg(feature = "remote")]
            Inner::Spooled { .. } => "an object copied to a temporary file",
        };
        write!(f, "Source({} bytes, {how})", self.len)
    }
}

impl Source {
    /// Opens `path` as `access` says. A file that is not a regular file (a FIFO, a device, a
    /// stream through a symbolic link) is read whole as it arrives, up to [`STREAM_LIMIT`]
    /// bytes: never without end. A URL ([`url_of`](crate::url_of): `s3://`, `gs://`, `az://`,
    /// `http(s)://`) is an object read by ranges (feature `remote`; without it, an error
    /// saying so), whatever `access` says.
    pub fn open(path: &Path, access: Access) -> io::Result<Source> {
        Self::open_inner(path, access, None)
    }

    /// Opens `path` as [`open`](Source::open) does, after checking from its first bytes that
    /// it is a `want` file: another format is an [`io::ErrorKind::InvalidData`] error that
    /// names it (a FAST5 given to the POD5 reader, `/dev/zero`, ...) before anything more is
    /// read. A file shorter than the signature passes, for the reader to refuse in its words.
    ///
    /// ```
    /// use svb_io::{Access, FileKind, Source};
    /// fn hdf5_or_not(head: &[u8]) -> String {
    ///     if head.starts_with(b"\x89HDF") { "a FAST5 (HDF5) file".into() } else { "other".into() }
    /// }
    /// let pod5 = FileKind { name: "POD5", magic: &[b"\x8bPOD\r\n\x1a\n"], describe: hdf5_or_not, look: 16, open_tail: 512 << 10 };
    /// let fast5 = FileKind { name: "FAST5", magic: &[b"\x89HDF\r\n\x1a\n"], ..pod5 };
    /// let path = std::env::temp_dir().join(format!("svb-io-open-as-{}", std::process::id()));
    /// std::fs::write(&path, b"\x89HDF\r\n\x1a\n and the rest of a FAST5 file")?;
    /// let err = Source::open_as(&path, Access::Auto, &pod5).unwrap_err();
    /// assert!(err.to_string().contains("not a POD5 file: a FAST5 (HDF5) file"), "{err}");
    /// assert!(Source::open_as(&path, Access::Auto, &fast5).is_ok());
    /// # std::fs::remove_file(&path)?;
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn open_as(path: &Path, access: Access, want: &FileKind) -> io::Result<Source> {
        Self::open_inner(path, access, Some(want))
    }

    fn open_inner(path: &Path, access: Access, want: Option<&FileKind>) -> io::Result<Source> {
        if let Some(url) = crate::location::url_of(path) {
            return Self::open_url(url, want);
        }
        let mut file = File::open(path)?;
        let meta = file.metadata()?;
        if meta.is_dir() {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, "a directory, not a file"));
        }
        if !meta.is_file() {
            return read_stream(file, want, STREAM_LIMIT).map(Source::from_vec);
        }
        if let Some(want) = want {
            let mut head = vec![0u8; want.head_len()];
            let n = read_up_to(&mut file, &mut head)?;
            want.check(&head[..n])?;
            io::Seek::seek(&mut file, io::SeekFrom::Start(0))?;
        }
        let len = meta.len();
        let whole = match access {
            Access::Auto => len <= READ_WHOLE,
            Access::ReadWhole => true,
            // Platforms without positioned reads read the file whole.
            Access::ReadAt => !cfg!(any(unix, windows)),
        };
        if whole {
            // The length at open bounds what is read: a file that grows meanwhile is read as
            // it was.
            let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
            io::Read::read_to_end(&mut io::Read::take(&file, len), &mut bytes)?;
            return Ok(Source::from_vec(bytes));
        }
        Ok(Source { inner: Inner::File(file), len })
    }

    #[cfg(feature = "remote")]
    fn open_url(url: &str, want: Option<&FileKind>) -> io::Result<Source> {
        let tail = want.map_or(OPEN_TAIL, |w| w.open_tail);
        let object = crate::remote::Object::open(url, tail)?;
        let source = Source { len: object.len(), inner: Inner::Remote(object) };
        if let Some(want) = want {
            let n = source.len.min(want.head_len() as u64) as usize;
            want.check(&source.read_vec(0, n)?)?;
        }
        Ok(source)
    }

    /// An object's bytes copied whole, once, into a temporary file (in the temporary folder,
    /// removed when the source is dropped) and read from there: what a reader that must read
    /// every byte to find its records (SLOW5 text, whose records are lines) takes instead of
    /// reading the object twice, once to find them and once to decode them. The object is
    /// read front to back as a scan (fetched ahead at the link's rate), 8 MiB at a time. Any
    /// other source is returned as it is.
    #[cfg(feature = "remote")]
    pub fn spooled(self) -> io::Result<Source> {
        let Inner::Remote(object) = &self.inner else {
            return Ok(self);
        };
        // A scratch file in the temporary folder, named after nothing of the URL's.
        let mut spool =
            crate::PartialFile::scratch(std::env::temp_dir().join("svb-object"), "spool")?;
        object.expect_scan();
        let mut buf = vec![0u8; (8 << 20).min(self.len as usize)];
        let mut at = 0u64;
        while at < self.len {
            let n = buf.len().min((self.len - at) as usize);
            self.read_into(at, &mut buf[..n])?;
            io::Write::write_all(&mut spool, &buf[..n])?;
            at += n as u64;
        }
        io::Write::flush(&mut spool)?;
        let file = File::open(spool.path_written())?;
        Ok(Source { inner: Inner::Spooled { file, _spool: Box::new(spool) }, len: self.len })
    }

    /// [`spooled`](Source::spooled) without the `remote` feature: no source is an object's.
    #[cfg(not(feature = "remote"))]
    pub fn spooled(self) -> io::Result<Source> {
        Ok(self)
    }

    #[cfg(not(feature = "remote"))]
    fn open_url(url: &str, _: Option<&FileKind>) -> io::Result<Source> {
        Err(crate::location::remote_not_built(url))
    }

    /// Fetches `ranges` ahead of the reads that will ask for them: an object's ranges all at
    /// once (one round trip instead of one a read; see
    /// [`remote::Object::prefetch`](crate::remote::Object::prefetch)); nothing for a local
    /// file, whose reads cost no round trip. A range past the end is left to the read that
    /// asks for it to report.
    pub fn prefetch(&self, ranges: &[std::ops::Range<u64>]) -> io::Result<()> {
        match &self.inner {
            #[cfg(feature = "remote")]
            Inner::Remote(o) => o.prefetch(ranges),
            _ => {
                let _ = ranges;
                Ok(())
            }
        }
    }

    /// Whether reading `range` costs no request: always for a local file, and for an
    /// object's when the range was fetched already (at open, or planned) and is still kept.
    pub fn has_fetched(&self, range: std::ops::Range<u64>) -> bool {
        match &self.inner {
            #[cfg(feature = "remote")]
            Inner::Remote(o) => o.has_fetched(&range),
            _ => {
                let _ = range;
                true
            }
        }
    }

    /// Says that the bytes will be read from start to end (a scan): an object's are fetched
    /// ahead from the first miss on, rather than once misses are seen to follow one another.
    /// Nothing for a local file.
    pub fn expect_scan(&self) {
        #[cfg(feature = "remote")]
        if let Inner::Remote(o) = &self.inner {
            o.expect_scan();
        }
    }

    /// Whether the bytes are an object's, read by requests to a store or server (each read
    /// a round trip unless planned with [`prefetch`](Source::prefetch)).
    pub fn is_remote(&self) -> bool {
        match &self.inner {
            #[cfg(feature = "remote")]
            Inner::Remote(_) => true,
            _ => false,
        }
    }

    /// Memory-maps `path` read-only (an empty file is read instead: it cannot be mapped).
    ///
    /// # Safety
    /// The file must not be modified or truncated, by this process or another, while the
    /// returned source (or a reader built on it) is alive. A change is undefined behaviour
    /// under Rust's rules (memory behind a shared reference changes); truncation makes a read
    /// of the lost pages raise SIGBUS and kill the process. [`Source::open`] has neither
    /// hazard.
    pub unsafe fn map(path: &Path) -> io::Result<Source> {
        if let Some(url) = crate::location::url_of(path) {
            // An object cannot be mapped: it is read by ranges, as `open` reads it.
            return Self::open_url(url, None);
        }
        let file = File::open(path)?;
        let len = file.metadata()?.len();
        if len == 0 {
            return Ok(Source::from_vec(Vec::new()));
        }
        // SAFETY: the caller promises the file stays unchanged while the map lives (this
        // function's contract); it is opened read-only and only ever read.
        let map = unsafe { memmap2::Mmap::map(&file) }?;
        let len = map.len() as u64;
        Ok(Source { inner: Inner::Mapped(map), len })
    }

    /// Bytes already in memory.
    pub fn from_vec(bytes: Vec<u8>) -> Source {
        Source { len: bytes.len() as u64, inner: Inner::Memory(bytes) }
    }

    /// The file's length when it was opened.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the file is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// All the bytes, when they are in memory or mapped (`None` for positioned reads).
    pub fn as_slice(&self) -> Option<&[u8]> {
        match &self.inner {
            Inner::Memory(v) => Some(v),
            Inner::Mapped(m) => Some(m),
            _ => None,
        }
    }

    /// The open file, where its bytes are read on demand by positioned reads (a spooled
    /// object's temporary file too; `None` in memory, mapped or remote). Its cursor is not
    /// used by this source: a copy may seek it.
    pub fn file(&self) -> Option<&File> {
        match &self.inner {
            Inner::File(f) => Some(f),
            #[cfg(feature = "remote")]
            Inner::Spooled { file, .. } => Some(file),
            _ => None,
        }
    }

    /// Whether the bytes were read into memory at open (neither mapped nor read on demand).
    pub fn is_in_memory(&self) -> bool {
        matches!(self.inner, Inner::Memory(_))
    }

    /// `offset..offset + len` as indices, or an error when it runs past the file's length.
    pub fn check_range(&self, offset: u64, len: u64) -> io::Result<std::ops::Range<usize>> {
        match offset.checked_add(len) {
            Some(end) if end <= self.len => Ok(offset as usize..end as usize),
            _ => Err(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                format!("{len} bytes at {offset} run past the end of the {}-byte file", self.len),
            )),
        }
    }

    /// Fills `buf` with the bytes at `offset`.
    pub fn read_into(&self, offset: u64, buf: &mut [u8]) -> io::Result<()> {
        let range = self.check_range(offset, buf.len() as u64)?;
        match &self.inner {
            Inner::Memory(v) => buf.copy_from_slice(&v[range]),
            Inner::Mapped(m) => buf.copy_from_slice(&m[range]),
            Inner::File(f) => read_exact_at(f, buf, offset)?,
            #[cfg(feature = "remote")]
            Inner::Spooled { file, .. } => read_exact_at(file, buf, offset)?,
            #[cfg(feature = "remote")]
            Inner::Remote(o) => o.read_into(offset, buf)?,
        }
        Ok(())
    }

    /// A copy of `len` bytes at `offset`.
    pub fn read_vec(&self, offset: u64, len: usize) -> io::Result<Vec<u8>> {
        self.check_range(offset, len as u64)?;
        let mut v = vec![0u8; len];
        self.read_into(offset, &mut v)?;
        Ok(v)
    }

    /// Runs `f` on `len` bytes at `offset`: borrowed when the bytes are in memory or mapped,
    /// else read into this thread's reused buffer.
    pub fn with_bytes<R>(
        &self, offset: u64, len: usize, f: impl FnOnce(&[u8]) -> R,
    ) -> io::Result<R> {
        let range = self.check_range(offset, len as u64)?;
        match &self.inner {
            Inner::Memory(v) => Ok(f(&v[range])),
            Inner::Mapped(m) => Ok(f(&m[range])),
            _ => {
                // Taken out while in use: a nested call finds none and makes its own.
                let mut buf = READ_BUFFER.take();
                if buf.len() < len {
                    // The range was checked against the file's length: the file justifies it.
                    buf.resize(len, 0);
                }
                let r = self.read_into(offset, &mut buf[..len]).map(|()| f(&buf[..len]));
                // Kept for the thread's next read up to its share (keep_per_thread).
                crate::trim_scratch(&mut buf);
                READ_BUFFER.set(buf);
                r
            }
        }
    }
}

/// Fills as much of `buf` as the reader has: the count read (less only at its end).
fn read_up_to(r: &mut impl io::Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match r.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// The first `len` bytes of the file at `path` (fewer when it is shorter), to tell its format;
/// `None` for a file that is not a regular file (a FIFO, a device), whose first bytes a look
/// would consume. A directory is an error.
///
/// A URL's object is opened to look (one round trip, with the tail `guess`, the kind of
/// the format its name suggests, reads at open: [`OPEN_TAIL`] without one) and kept for the
/// reader that opens it next.
pub fn read_head(path: &Path, len: usize, guess: Option<&FileKind>) -> io::Result<Option<Vec<u8>>> {
    if let Some(url) = crate::location::url_of(path) {
        return read_url_head(url, len, guess.map_or(OPEN_TAIL, |g| g.open_tail)).map(Some);
    }
    let meta = std::fs::metadata(path)?;
    if meta.is_dir() {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, "a directory, not a file"));
    }
    if !meta.is_file() {
        return Ok(None);
    }
    let mut head = vec![0u8; len];
    let n = read_up_to(&mut File::open(path)?, &mut head)?;
    head.truncate(n);
    Ok(Some(head))
}

#[cfg(feature = "remote")]
fn read_url_head(url: &str, len: usize, tail: u64) -> io::Result<Vec<u8>> {
    let object = crate::remote::Object::open_to_look(url, tail)?;
    let mut head = vec![0u8; object.len().min(len as u64) as usize];
    object.read_into(0, &mut head)?;
    Ok(head)
}

#[cfg(not(feature = "remote"))]
fn read_url_head(url: &str, _: usize, _: u64) -> io::Result<Vec<u8>> {
    Err(crate::location::remote_not_built(url))
}

/// Reads a stream whole, its format checked from its first bytes, failing past `limit`.
fn read_stream(mut r: impl io::Read, want: Option<&FileKind>, limit: u64) -> io::Result<Vec<u8>> {
    let mut bytes = vec![0u8; want.map_or(0, FileKind::head_len)];
    let n = read_up_to(&mut r, &mut bytes)?;
    bytes.truncate(n);
    if let Some(want) = want {
        want.check(&bytes)?;
    }
    io::Read::read_to_end(&mut io::Read::take(r, limit + 1 - n as u64), &mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "not a regular file, and longer than the {} MiB read from a stream: copy it \
                 to a file first",
                limit >> 20
            ),
        ));
    }
    Ok(bytes)
}

thread_local! {
    static READ_BUFFER: Cell<Vec<u8>> = const { Cell::new(Vec::new()) };
}

#[cfg(unix)]
fn read_exact_at(f: &File, buf: &mut [u8], offset: u64) -> io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(f, buf, offset)
}

#[cfg(windows)]
fn read_exact_at(f: &File, mut buf: &mut [u8], mut offset: u64) -> io::Result<()> {
    while !buf.is_empty() {
        match std::os::windows::fs::FileExt::seek_read(f, buf, offset) {
            Ok(0) => return Err(io::ErrorKind::UnexpectedEof.into()),
            Ok(n) => {
                buf = &mut buf[n..];
                offset += n as u64;
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

#[cfg(not(any(unix, windows)))]
fn read_exact_at(_: &File, _: &mut [u8], _: u64) -> io::Result<()> {
    // `Source::open` reads whole on these platforms: no `File` source exists.
    Err(io::ErrorKind::Unsupported.into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn what(head: &[u8]) -> String {
        format!("{} other bytes", head.len())
    }

    const BLOW5: FileKind = FileKind {
        name: "BLOW5",
        magic: &[b"BLOW5\x01", b"#slow5_version"],
        describe: what,
        look: 0,
        open_tail: 16 << 10,
    };
    const POD5: FileKind = FileKind { name: "POD5", magic: &[b"\x8bPOD\r\n\x1a\n"], ..BLOW5 };

    #[test]
    fn signatures_take_any_magic_and_leave_short_heads_to_the_reader() {
        assert_eq!(BLOW5.head_len(), 14);
        assert!(BLOW5.accepts(b"BLOW5\x01...") && BLOW5.accepts(b"#slow5_version\t0.2.0"));
        assert!(BLOW5.accepts(b"BLO"));
        assert!(!BLOW5.accepts(b"#slow5_v") && !BLOW5.accepts(b"\x8bPOD\r\n\x1a\n"));
        let e = POD5.wrong_format(b"abc");
        assert_eq!(e.kind(), io::ErrorKind::InvalidData);
        assert_eq!(e.to_string(), "not a POD5 file: 3 other bytes");
    }

    fn temp_file(name: &str, bytes: &[u8]) -> std::path::PathBuf {
        let path = std::env::temp_dir().join(format!("svb-io-{}-{name}", std::process::id()));
        std::fs::write(&path, bytes).unwrap();
        path
    }

    #[test]
    fn every_access_reads_the_same_bytes() {
        let bytes: Vec<u8> = (0..100_000u32).map(|i| (i * 7 % 251) as u8).collect();
        let path = temp_file("same", &bytes);
        // SAFETY: the test file is not changed while the map lives.
        let mapped = unsafe { Source::map(&path) }.unwrap();
        for src in [
            Source::open(&path, Access::Auto).unwrap(),
            Source::open(&path, Access::ReadWhole).unwrap(),
            Source::open(&path, Access::ReadAt).unwrap(),
            mapped,
        ] {
            assert_eq!(src.len(), bytes.len() as u64);
            assert_eq!(src.read_vec(1000, 5000).unwrap(), &bytes[1000..6000]);
            let sum =
                src.with_bytes(99_000, 1000, |b| b.iter().map(|&x| x as u64).sum::<u64>()).unwrap();
            assert_eq!(sum, bytes[99_000..].iter().map(|&x| x as u64).sum::<u64>());
            let err = src.read_vec(99_999, 2).unwrap_err();
            assert_eq!(err.kind(), io::ErrorKind::UnexpectedEof);
            assert!(err.to_string().contains("100000-byte file"), "{err}");
            assert!(src.with_bytes(u64::MAX, 2, |_| ()).is_err());
        }
        std::fs::remove_file(path).unwrap();
    }

    #[test]
    fn positioned_reads_of_a_truncated_file_are_errors() {
        let path = temp_file("truncated", &[5u8; 4096]);
        let src = Source::open(&path, Access::ReadAt).unwrap();
        assert!(!src.is_in_memory() && src.as_slice().is_none());
        std::fs::OpenOptions::new().write(true).open(&path).unwrap().set_len(100).unwrap();
        let err = src.read_vec(1000, 100).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::UnexpectedEof);
        // What is still there reads as it is now.
        std::fs::write(&path, [9u8; 100]).unwrap();
        assert_eq!(src.read_vec(0, 4).unwrap(), [9, 9, 9, 9]);
        std::fs::remove_file(path).unwrap();
    }

    #[test]
    fn streams_are_checked_first_and_bounded() {
        let zeros = std::io::repeat(0);
        let e = read_stream(zeros, Some(&BLOW5), 1 << 20).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidData);
        assert!(e.to_string().contains("not a BLOW5 file"), "{e}");
        let endless = io::Read::chain(&b"BLOW5\x01"[..], std::io::repeat(7));
        let e = read_stream(endless, Some(&BLOW5), 1 << 20).unwrap_err();
        assert!(e.to_string().contains("longer than the 1 MiB"), "{e}");
        let short = read_stream(&b"BLOW5\x01abc"[..], Some(&BLOW5), 9).unwrap();
        assert_eq!(short, b"BLOW5\x01abc");
        assert!(read_stream(&b"BLOW5\x01abcd"[..], None, 9).is_err());
    }

    #[cfg(unix)]
    #[test]
    fn devices_are_streams() {
        let e = Source::open_as(Path::new("/dev/zero"), Access::Auto, &POD5).unwrap_err();
        assert!(e.to_string().contains("not a POD5 file"), "{e}");
        let e = Source::open(Path::new("/"), Access::Auto).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
    }

    #[test]
    fn empty_files_open_every_way() {
        let path = temp_file("empty", &[]);
        // SAFETY: the test file is not changed while the map lives.
        let mapped = unsafe { Source::map(&path) }.unwrap();
        assert!(mapped.is_empty() && mapped.as_slice() == Some(&[][..]));
        assert!(Source::open(&path, Access::ReadAt).unwrap().is_empty());
        std::fs::remove_file(path).unwrap();
    }
}
