//! [`PartialFile`]: a file written under a hidden temporary name beside its destination and
//! renamed into place only when complete, so that no reader ever finds a half-written file
//! under the destination's name.

use std::fs::File;
use std::io::{self, BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// A file being written: `DIR/.NAME.partial-PID` (or `DIR/.NAME.TAG.partial-PID` for a
/// scratch file) until [`commit`](PartialFile::commit) renames it to `DIR/NAME`. Dropped
/// without a commit (an error, a panic, an early return), it removes itself; a process killed
/// mid-write leaves only the hidden name, which no reader takes for a finished file.
///
/// Writes are buffered and counted: [`position`](PartialFile::position) is the file's
/// length so far, which container formats need for their offsets.
///
/// ```
/// use std::io::Write;
/// let dir = std::env::temp_dir().join(format!("svb-io-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let path = dir.join("out.bin");
/// let mut f = svb_io::PartialFile::create(&path)?;
/// f.write_all(b"complete")?;
/// assert!(!path.exists()); // not under its name until committed
/// f.commit()?;
/// assert_eq!(std::fs::read(&path)?, b"complete");
///
/// let mut g = svb_io::PartialFile::create(dir.join("dropped.bin"))?;
/// g.write_all(b"half")?;
/// drop(g); // no commit: nothing is left behind
/// assert!(!dir.join("dropped.bin").exists());
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct PartialFile {
    out: Option<BufWriter<File>>,
    path: PathBuf,
    partial: PathBuf,
    position: u64,
}

/// Buffer of the writer: writes longer than this go to the file without a copy.
const BUFFER: usize = 256 << 10;

impl PartialFile {
    /// Creates the temporary file for destination `path` (truncating a stale one of this
    /// process). On an error, [`partial_path`](Self::partial_path)`(path, None)` is the name
    /// that could not be created.
    pub fn create(path: impl AsRef<Path>) -> io::Result<PartialFile> {
        Self::create_named(path.as_ref(), Self::partial_path(path.as_ref(), None))
    }

    /// A scratch file beside `path` (`DIR/.NAME.TAG.partial-PID`), never committed: for what
    /// a writer spools before copying it into the destination. It is removed on drop.
    pub fn scratch(path: impl AsRef<Path>, tag: &str) -> io::Result<PartialFile> {
        Self::create_named(path.as_ref(), Self::partial_path(path.as_ref(), Some(tag)))
    }

    /// The temporary name used for destination `path` (with a scratch `tag`, or none).
    pub fn partial_path(path: &Path, tag: Option<&str>) -> PathBuf {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| "out".into());
        let tag = tag.map(|t| format!(".{t}")).unwrap_or_default();
        path.with_file_name(format!(".{name}{tag}.partial-{}", std::process::id()))
    }

    fn create_named(path: &Path, partial: PathBuf) -> io::Result<PartialFile> {
        let file = File::options()
            .read(true)
            .write(true)
            .create(true)
            .truncate(true)
            .open(&partial)?;
        Ok(PartialFile {
            out: Some(BufWriter::with_capacity(BUFFER, file)),
            path: path.to_path_buf(),
            partial,
            position: 0,
        })
    }

    /// The temporary name the bytes are written under.
    pub fn path_written(&self) -> &Path {
        &self.partial
    }

    /// The destination.
    pub fn destination(&self) -> &Path {
        &self.path
    }

    /// Bytes written so far.
    pub fn position(&self) -> u64 {
        self.position
    }

    /// Flushes what is buffered and copies the whole file so far to `to` (a scratch file's
    /// contents into the destination). Returns the bytes copied.
    pub fn copy_to(&mut self, to: &mut impl Write) -> io::Result<u64> {
        let out = self.writer();
        out.flush()?;
        let file = out.get_mut();
        file.seek(SeekFrom::Start(0))?;
        let copied = io::copy(file, to)?;
        file.seek(SeekFrom::End(0))?;
        Ok(copied)
    }

    /// Flushes, syncs the data to the disk and renames the file to its destination: after a
    /// crash, the destination holds the whole file or does not exist.
    pub fn commit(self) -> io::Result<()> {
        self.finish(true)
    }

    /// Flushes and renames the file to its destination, leaving the write-back to the OS (as
    /// most writers do): faster, but a crash soon after may leave the destination short.
    pub fn commit_unsynced(self) -> io::Result<()> {
        self.finish(false)
    }

    fn finish(mut self, sync: bool) -> io::Result<()> {
        let out = self.out.take().expect("open until commit");
        let file = out.into_inner().map_err(|e| e.into_error())?;
        if sync {
            file.sync_data()?;
        }
        drop(file);
        std::fs::rename(&self.partial, &self.path)
    }

    fn writer(&mut self) -> &mut BufWriter<File> {
        self.out.as_mut().expect("open until commit")
    }
}

impl Write for PartialFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.writer().write(buf)?;
        self.position += n as u64;
        Ok(n)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.writer().write_all(buf)?;
        self.position += buf.len() as u64;
        Ok(())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.writer().flush()
    }
}

impl Drop for PartialFile {
    /// Without a commit, the temporary file is removed.
    fn drop(&mut self) {
        if let Some(out) = self.out.take() {
            // Unflushed bytes are dropped, not written to a file about to go.
            drop(out.into_parts());
            let _ = std::fs::remove_file(&self.partial);
        }
    }
}
