//! [`PartialFile`]: a file written under a hidden temporary name beside its destination and
//! published under the destination's name only when complete, never replacing a file that is
//! there unless asked to.

use std::fs::File;
use std::io::{self, BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use crate::stdout::is_stdout;
use crate::stdout::stdout_error;
use crate::temporary_names::{random_u64, remove_stale_partials_of, temporary_name};

/// The page size that [`PartialFile::append_range_of`] aligns kernel copies to.
const PAGE: u64 = 4096;

/// Copies `from` to its end into `to` through one 1 MiB buffer (what
/// [`PartialFile::append_range_of`] does where a kernel copy is slower). Returns the bytes
/// copied.
fn copy_through_buffer(from: &mut impl io::Read, to: &mut impl Write) -> io::Result<u64> {
    let mut buf = vec![0u8; 1 << 20];
    let mut copied = 0u64;
    loop {
        let n = match from.read(&mut buf) {
            Ok(0) => return Ok(copied),
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        to.write_all(&buf[..n])?;
        copied += n as u64;
    }
}

/// What publishing an output does when its destination exists.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OnExisting {
    /// Refuse: creating the output fails with [`io::ErrorKind::AlreadyExists`] when the
    /// destination exists, and publishing it fails the same way (the temporary file removed,
    /// nothing replaced) when one appeared while it was written.
    #[default]
    Refuse,
    /// Replace the destination (atomically: readers see the old file or the new one whole).
    Replace,
}

impl OnExisting {
    /// [`Replace`](OnExisting::Replace) when `force` (a `--force` flag), else
    /// [`Refuse`](OnExisting::Refuse).
    ///
    /// ```
    /// assert_eq!(svb_io::OnExisting::replace_if(true), svb_io::OnExisting::Replace);
    /// assert_eq!(svb_io::OnExisting::replace_if(false), svb_io::OnExisting::Refuse);
    /// ```
    pub fn replace_if(force: bool) -> Self {
        if force {
            OnExisting::Replace
        } else {
            OnExisting::Refuse
        }
    }
}

/// A complete file not yet under its name: [`publish`](Staged::publish) names it; dropped,
/// it is removed. What an operation that writes several outputs holds until every one of
/// them is complete ([`publish_all`](crate::publish_all)).
#[derive(Debug)]
pub struct Staged {
    pub(crate) partial: StagedBytes,
    pub(crate) path: PathBuf,
    pub(crate) publish_at: PathBuf,
    pub(crate) on_existing: OnExisting,
    /// Published, or given up: nothing to remove.
    pub(crate) done: bool,
}

impl Staged {
    /// Publishes the file of a finished writer (`finished`: what the writer counted and its
    /// staged file), giving back the count; an error is made by `io` from the destination and
    /// the cause. What every writer's `finish` does after its `finish_staged`.
    pub fn publish_finished<T, E>(
        finished: (T, Staged), io: impl FnOnce(PathBuf, io::Error) -> E,
    ) -> Result<T, E> {
        let (count, staged) = finished;
        staged.publish().map_err(|(path, source)| io(path, source))?;
        Ok(count)
    }

    /// The destination.
    pub fn destination(&self) -> &Path {
        &self.path
    }

    /// Gives the file its name, as [`PartialFile::commit`] does; an error comes with the
    /// destination it is said of.
    pub fn publish(mut self) -> Result<(), (PathBuf, io::Error)> {
        self.done = true;
        let published = match std::mem::replace(&mut self.partial, StagedBytes::Gone) {
            StagedBytes::File(partial) => {
                let published = publish(&partial, &self.publish_at, self.on_existing);
                if published.is_err() {
                    let _ = std::fs::remove_file(&partial);
                }
                published
            }
            #[cfg(feature = "remote")]
            StagedBytes::Object(upload) => upload.publish(),
            StagedBytes::Gone => Ok(()),
        };
        published.map_err(|e| (self.path.clone(), e))
    }
}

/// Where a staged output's bytes are.
#[derive(Debug)]
pub(crate) enum StagedBytes {
    /// The temporary file.
    File(PathBuf),
    /// An upload with every byte sent (taken back when dropped).
    #[cfg(feature = "remote")]
    Object(crate::remote::StagedUpload),
    /// Published.
    Gone,
}

impl Drop for Staged {
    fn drop(&mut self) {
        if let (false, StagedBytes::File(partial)) = (self.done, &self.partial) {
            let _ = std::fs::remove_file(partial);
        }
    }
}

/// A file being written: `DIR/.NAME.partial-PID-NONCE` (or `DIR/.NAME.TAG.partial-PID-NONCE`
/// for a scratch file) until [`commit`](PartialFile::commit) publishes it as `DIR/NAME`.
/// An object's output (`s3://...`) is uploaded as it is written, in parts that appear under
/// its key only when it is committed (`svb_io::remote`'s `Upload`; two outputs at once, each
/// holding up to 72 MiB: more, as `split` writes, go the other way); its scratch files, the
/// output of [`Publish::create_rewritable`](crate::Publish::create_rewritable) and outputs beyond those two are written to the
/// temporary folder and uploaded when complete.
///
/// - The temporary file is created new (`O_CREAT | O_EXCL`: a file or a symbolic link already
///   at that name is an error, never followed or truncated), at a name no other writer can
///   guess (process id and a random nonce).
/// - Publishing with [`OnExisting::Refuse`] links the file to its name only if the name is
///   free (a hard link fails when the name exists, whatever appeared there meanwhile);
///   [`OnExisting::Replace`] renames over it.
/// - Dropped without a commit (an error, a panic, an early return), the temporary file is
///   removed. A process killed mid-write leaves only the hidden name, which no reader takes
///   for a finished file; the next [`PartialFile::create`] for the same destination removes
///   such leftovers once their process is gone ([`remove_stale_partials`](crate::remove_stale_partials) for a whole
///   directory).
///
/// Writes are buffered and counted: [`position`](PartialFile::position) is the file's
/// length so far, which container formats need for their offsets.
///
/// ```
/// use std::io::Write;
/// use svb_io::{OnExisting, PartialFile};
/// let dir = std::env::temp_dir().join(format!("svb-io-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let path = dir.join("out.bin");
/// let mut f = PartialFile::create(&path, OnExisting::Refuse)?;
/// f.write_all(b"complete")?;
/// assert!(!path.exists()); // not under its name until committed
/// f.commit()?;
/// assert_eq!(std::fs::read(&path)?, b"complete");
///
/// // An existing file is not replaced unless asked to.
/// let err = PartialFile::create(&path, OnExisting::Refuse).unwrap_err();
/// assert_eq!(err.kind(), std::io::ErrorKind::AlreadyExists);
/// let mut again = PartialFile::create(&path, OnExisting::Replace)?;
/// again.write_all(b"new")?;
/// again.commit()?;
/// assert_eq!(std::fs::read(&path)?, b"new");
///
/// let mut g = PartialFile::create(dir.join("dropped.bin"), OnExisting::Refuse)?;
/// g.write_all(b"half")?;
/// drop(g); // no commit: nothing is left behind
/// assert!(!dir.join("dropped.bin").exists());
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct PartialFile {
    out: Option<Out>,
    path: PathBuf,
    /// Where the file is published: `path`, or the file a symbolic link at `path` names.
    publish_at: PathBuf,
    partial: PathBuf,
    on_existing: OnExisting,
    position: u64,
    /// Whether what is written is synced in the background as it is written (for a file
    /// that will be synced when it is committed).
    pub(crate) write_back: bool,
    /// Bytes handed to the OS when the last background sync started.
    synced_to: u64,
    /// Bytes between background syncs ([`SYNC_EVERY`]; less in tests).
    sync_every: u64,
    /// The background sync under way, if any.
    syncing: Option<std::thread::JoinHandle<io::Result<()>>>,
}

/// Buffer of the writer: writes longer than this go to the file without a copy.
const BUFFER: usize = 256 << 10;

/// Bytes written between two background syncs (16 MiB): the disk writes a large output
/// while it is being made, and the sync at its commit waits only for the last of it (104 ms
/// of a 1.6 s conversion writing 260 MB here, when the whole file was synced at the end).
const SYNC_EVERY: u64 = 16 << 20;

/// Where a [`PartialFile`]'s bytes go.
#[derive(Debug)]
enum Out {
    /// The temporary file.
    File(BufWriter<File>),
    /// Standard output (the destination `-`), as written: a pipe has no temporary name, and
    /// what was written before a failure is the reader's already (the exit status says it).
    Stdout(BufWriter<io::Stdout>),
    /// The object store, as they are written.
    #[cfg(feature = "remote")]
    Object(Box<crate::remote::Upload>),
}

/// How a [`PartialFile`] is written: what decides whether an object's output can be uploaded
/// as it is written.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Written {
    /// Front to back.
    InOrder,
    /// With bytes written before rewritten ([`PartialFile::write_at`]).
    Rewritable,
}

impl PartialFile {
    /// Creates the temporary file for destination `path`, after removing the leftovers of
    /// killed writers of the same destination whose process is gone. With
    /// [`OnExisting::Refuse`], a destination that exists already is an
    /// [`io::ErrorKind::AlreadyExists`] error. Errors are said of the destination (which the
    /// caller names), never of the temporary file.
    pub fn create(path: impl AsRef<Path>, on_existing: OnExisting) -> io::Result<PartialFile> {
        Self::create_written(path.as_ref(), on_existing, Written::InOrder)
    }

    /// [`create`](Self::create), written as `written` says.
    pub(crate) fn create_written(
        path: &Path, on_existing: OnExisting, written: Written,
    ) -> io::Result<PartialFile> {
        let _ = remove_stale_partials_of(path);
        Self::create_named(path, None, on_existing, BUFFER, written)
    }

    /// A scratch file beside `path` (`DIR/.NAME.TAG.partial-PID-NONCE`), never published:
    /// for what a writer spools before copying it into the destination. It is removed on drop.
    pub fn scratch(path: impl AsRef<Path>, tag: &str) -> io::Result<PartialFile> {
        Self::create_named(
            path.as_ref(),
            Some(tag),
            OnExisting::Refuse,
            BUFFER,
            Written::Rewritable,
        )
    }

    fn create_named(
        path: &Path, tag: Option<&str>, on_existing: OnExisting, buffer: usize, written: Written,
    ) -> io::Result<PartialFile> {
        if is_stdout(path) && tag.is_none() {
            if written == Written::Rewritable {
                return Err(io::Error::new(
                    io::ErrorKind::Unsupported,
                    "this output rewrites what it wrote before: it cannot go to standard output",
                ));
            }
            return Ok(PartialFile {
                out: Some(Out::Stdout(BufWriter::with_capacity(buffer, io::stdout()))),
                path: path.to_path_buf(),
                publish_at: path.to_path_buf(),
                partial: path.to_path_buf(),
                on_existing,
                position: 0,
                write_back: false,
                synced_to: 0,
                sync_every: SYNC_EVERY,
                syncing: None,
            });
        }
        if let Some(url) = crate::url_of(path) {
            crate::location::check_writable(url)?;
        }
        if tag.is_none() && on_existing == OnExisting::Refuse && exists(path) {
            return Err(already_exists(path));
        }
        let publish_at = through_links(path)?;
        // An object's output written front to back is uploaded as it is written, where a slot
        // is free (else, more outputs at once, it goes to the temporary folder).
        #[cfg(feature = "remote")]
        let streamed = match (crate::url_of(path), written) {
            (Some(url), Written::InOrder) => match crate::remote::StreamSlot::take() {
                Some(slot) => {
                    let replace = on_existing == OnExisting::Replace;
                    let upload = crate::remote::Upload::start(url, replace, Some(slot))?;
                    Some(Out::Object(Box::new(upload)))
                }
                None => None,
            },
            _ => None,
        };
        #[cfg(not(feature = "remote"))]
        let streamed: Option<Out> = {
            let _ = written;
            None
        };
        let (out, partial) = match streamed {
            Some(out) => (out, path.to_path_buf()),
            None => {
                let (file, partial) = create_temporary(&publish_at, tag)?;
                (Out::File(BufWriter::with_capacity(buffer, file)), partial)
            }
        };
        Ok(PartialFile {
            out: Some(out),
            path: path.to_path_buf(),
            publish_at,
            partial,
            on_existing,
            position: 0,
            write_back: tag.is_none(),
            synced_to: 0,
            sync_every: SYNC_EVERY,
            syncing: None,
        })
    }

    /// The temporary name the bytes are written under (the destination itself for an
    /// object's output uploaded as it is written).
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

    /// Writes `bytes` over what was written at `offset` (a header completed at the end), the
    /// file's end staying where it was. `offset + bytes.len()` must not pass
    /// [`position`](PartialFile::position).
    pub fn write_at(&mut self, offset: u64, bytes: &[u8]) -> io::Result<()> {
        if offset.saturating_add(bytes.len() as u64) > self.position {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{} bytes at {offset} are past the {} written", bytes.len(), self.position),
            ));
        }
        let out = self.file("rewritten")?;
        out.flush()?;
        let file = out.get_mut();
        file.seek(SeekFrom::Start(offset))?;
        file.write_all(bytes)?;
        file.seek(SeekFrom::End(0))?;
        Ok(())
    }

    /// Appends `len` bytes of the open file `src` from `offset` (its cursor moved). Where
    /// `offset` and the end of this file lie at the same place in a 4 KiB page, the kernel
    /// copies them (`copy_file_range` on Linux, which shares the blocks on file systems that
    /// reflink): no byte passes through this process. Elsewhere they go through a 1 MiB
    /// buffer: the kernel's copy of bytes that straddle pages differently (which no file
    /// system can reflink) was measured 1.6x slower than reading and writing them (262 MB
    /// into 20 files: 0.10 s against 0.064 s, page cache to page cache). An
    /// [`io::ErrorKind::UnexpectedEof`] error where `src` holds fewer bytes there.
    pub fn append_range_of(&mut self, src: &File, offset: u64, len: u64) -> io::Result<()> {
        use std::io::Read;
        let mut from = src;
        from.seek(SeekFrom::Start(offset))?;
        let same_page_offset = offset % PAGE == self.position % PAGE;
        #[cfg(feature = "remote")]
        let through_buffer = matches!(&self.out, Some(Out::Object(_) | Out::Stdout(_)));
        #[cfg(not(feature = "remote"))]
        let through_buffer = matches!(&self.out, Some(Out::Stdout(_)));
        if through_buffer {
            let copied = copy_through_buffer(&mut from.take(len), self)?;
            if copied != len {
                return Err(short_source(copied, len, offset));
            }
            return Ok(());
        }
        let out = self.file("appended to")?;
        out.flush()?;
        let copied = if same_page_offset {
            io::copy(&mut from.take(len), out.get_mut())?
        } else {
            copy_through_buffer(&mut from.take(len), out.get_mut())?
        };
        self.position += copied;
        if copied != len {
            return Err(short_source(copied, len, offset));
        }
        self.write_back()
    }

    /// Flushes what is buffered and copies the whole file so far to `to` (a scratch file's
    /// contents into the destination). Returns the bytes copied.
    pub fn copy_to(&mut self, to: &mut impl Write) -> io::Result<u64> {
        let out = self.file("read back")?;
        out.flush()?;
        let file = out.get_mut();
        file.seek(SeekFrom::Start(0))?;
        let copied = io::copy(file, to)?;
        file.seek(SeekFrom::End(0))?;
        Ok(copied)
    }

    /// Flushes, syncs the data to the disk and publishes the file under its destination's
    /// name: after a crash, the destination holds the whole file or is as it was.
    pub fn commit(self) -> io::Result<()> {
        self.finish(true)
    }

    /// Flushes and publishes the file, leaving the write-back to the OS (as most writers
    /// do): faster, but a crash soon after may leave the destination short.
    pub fn commit_unsynced(self) -> io::Result<()> {
        self.finish(false)
    }

    /// Starts syncing what the OS holds of the file on another thread, once [`SYNC_EVERY`]
    /// bytes were written since the last start and that one is done.
    fn write_back(&mut self) -> io::Result<()> {
        if !self.write_back || self.position - self.synced_to < self.sync_every {
            return Ok(());
        }
        if self.syncing.as_ref().is_some_and(|h| !h.is_finished()) {
            return Ok(());
        }
        self.wait_for_sync()?;
        let file = match &self.out {
            Some(Out::File(out)) => out.get_ref().try_clone()?,
            // An upload has nothing to sync.
            _ => return Ok(()),
        };
        self.synced_to = self.position;
        self.syncing = Some(std::thread::spawn(move || file.sync_data()));
        Ok(())
    }

    /// Waits for the background sync under way; its error, if it failed.
    fn wait_for_sync(&mut self) -> io::Result<()> {
        match self.syncing.take().map(std::thread::JoinHandle::join) {
            None | Some(Ok(Ok(()))) => Ok(()),
            Some(Ok(Err(e))) => Err(e),
            Some(Err(_)) => Err(io::Error::other("the background sync panicked")),
        }
    }

    pub(crate) fn finish(self, sync: bool) -> io::Result<()> {
        self.stage(sync)?.publish().map_err(|(_, e)| e)
    }

    /// Flushes, syncs (when `sync`) and closes the file, complete but not yet under its name.
    pub(crate) fn stage(mut self, sync: bool) -> io::Result<Staged> {
        let out = self.out.take().expect("open until commit");
        let mut staged = Staged {
            partial: StagedBytes::Gone,
            path: self.path.clone(),
            publish_at: self.publish_at.clone(),
            on_existing: self.on_existing,
            done: false,
        };
        match out {
            Out::File(out) => {
                // Removed with `staged` if what follows fails.
                staged.partial = StagedBytes::File(self.partial.clone());
                let synced = self.wait_for_sync();
                let file = out.into_inner().map_err(|e| e.into_error())?;
                synced?;
                if sync {
                    file.sync_data()?;
                }
            }
            Out::Stdout(mut out) => {
                out.flush().map_err(stdout_error)?;
                staged.done = true;
            }
            #[cfg(feature = "remote")]
            Out::Object(upload) => staged.partial = StagedBytes::Object(upload.stage()?),
        }
        Ok(staged)
    }

    /// The temporary file; an error for an object's output uploaded as it is written, or
    /// standard output, which cannot be `what` (rewritten, read back).
    fn file(&mut self, what: &str) -> io::Result<&mut BufWriter<File>> {
        #[cfg(not(feature = "remote"))]
        let _ = what;
        match self.out.as_mut().expect("open until commit") {
            Out::File(out) => Ok(out),
            Out::Stdout(_) => Err(io::Error::new(
                io::ErrorKind::Unsupported,
                format!("standard output is written as it goes: what was written cannot be {what}"),
            )),
            #[cfg(feature = "remote")]
            Out::Object(_) => Err(io::Error::new(
                io::ErrorKind::Unsupported,
                format!(
                    "an object is uploaded as it is written: what was written cannot be \
                     {what} (Publish::create_rewritable writes it whole first)"
                ),
            )),
        }
    }
}

/// The error of [`PartialFile::append_range_of`] where the source holds fewer bytes.
fn short_source(copied: u64, len: u64, offset: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::UnexpectedEof,
        format!("{copied} of {len} bytes at {offset} copied (the source is shorter)"),
    )
}

impl Write for PartialFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.write_all(buf)?;
        Ok(buf.len())
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        match self.out.as_mut().expect("open until commit") {
            Out::File(out) => out.write_all(buf)?,
            Out::Stdout(out) => out.write_all(buf).map_err(stdout_error)?,
            #[cfg(feature = "remote")]
            Out::Object(upload) => upload.write(buf)?,
        }
        self.position += buf.len() as u64;
        self.write_back()
    }

    fn flush(&mut self) -> io::Result<()> {
        match self.out.as_mut().expect("open until commit") {
            Out::File(out) => out.flush(),
            Out::Stdout(out) => out.flush().map_err(stdout_error),
            #[cfg(feature = "remote")]
            Out::Object(_) => Ok(()),
        }
    }
}

impl Drop for PartialFile {
    /// Without a commit, the temporary file is removed (an upload is aborted).
    fn drop(&mut self) {
        match self.out.take() {
            Some(Out::File(out)) => {
                // Unflushed bytes are dropped, not written to a file about to go.
                drop(out.into_parts());
                let _ = std::fs::remove_file(&self.partial);
            }
            // What a pipe was given is its reader's; the rest is not sent.
            Some(Out::Stdout(out)) => drop(out.into_parts()),
            #[cfg(feature = "remote")]
            Some(Out::Object(upload)) => drop(upload),
            None => {}
        }
    }
}

/// Writes `bytes` to `path` the way [`PartialFile`] does (a temporary file, published when
/// complete, an existing destination replaced only with [`OnExisting::Replace`]), without the
/// scan for stale leftovers: for many small outputs in one directory, whose caller runs
/// [`remove_stale_partials`](crate::remove_stale_partials) on it once.
///
/// ```
/// use svb_io::{write_file, OnExisting};
/// let path = std::env::temp_dir().join(format!("svb-io-write-{}", std::process::id()));
/// write_file(&path, b"one", OnExisting::Refuse)?;
/// assert!(write_file(&path, b"two", OnExisting::Refuse).is_err());
/// assert_eq!(std::fs::read(&path)?, b"one");
/// # std::fs::remove_file(&path)?;
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn write_file(path: &Path, bytes: &[u8], on_existing: OnExisting) -> io::Result<()> {
    let mut f = PartialFile::create_named(path, None, on_existing, 0, Written::InOrder)?;
    f.write_all(bytes)?;
    f.commit_unsynced()
}

/// The file a local `path` names through its symbolic links (each resolved from the folder
/// of the link, a dangling one included), so that publishing a file replaces the file a link
/// points to and keeps the link, as `cp` and `sort -o` write through one; `path` itself when
/// it is no link, or an object. A loop of links is an error.
fn through_links(path: &Path) -> io::Result<PathBuf> {
    if crate::url_of(path).is_some() {
        return Ok(path.to_path_buf());
    }
    let mut at = path.to_path_buf();
    // Linux's own bound on the links one lookup follows.
    for _ in 0..40 {
        match std::fs::symlink_metadata(&at) {
            Ok(m) if m.file_type().is_symlink() => {
                let target = std::fs::read_link(&at)?;
                at = match at.parent() {
                    Some(dir) => dir.join(target),
                    None => target,
                };
            }
            _ => return Ok(at),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::InvalidInput,
        "cannot be written: its symbolic links form a loop",
    ))
}

fn exists(path: &Path) -> bool {
    if let Some(url) = crate::url_of(path) {
        // An object that cannot be looked at is taken as there: never replaced unasked.
        return !matches!(
            crate::object_version(url),
            Err(e) if e.kind() == io::ErrorKind::NotFound
        );
    }
    // A dangling symbolic link is an existing name too.
    std::fs::symlink_metadata(path).is_ok()
}

fn already_exists(path: &Path) -> io::Error {
    let what = match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => "a directory is there",
        _ => "exists",
    };
    io::Error::new(io::ErrorKind::AlreadyExists, format!("{what}, and is not replaced"))
}

/// Creates a new temporary file for `path` (`O_EXCL`: never an existing file or link).
fn create_temporary(path: &Path, tag: Option<&str>) -> io::Result<(File, PathBuf)> {
    let mut last = None;
    for _ in 0..8 {
        let partial = match crate::url_of(path) {
            // An object's output is written to the temporary folder, and uploaded when it is
            // complete.
            Some(_) => std::env::temp_dir()
                .join(temporary_name(path, tag, random_u64()).file_name().expect("a name")),
            None => temporary_name(path, tag, random_u64()),
        };
        match File::options().read(true).write(true).create_new(true).open(&partial) {
            Ok(f) => return Ok((f, partial)),
            // Taken (by chance or by someone): another nonce.
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(name_destination(path, e)),
        }
    }
    Err(name_destination(path, last.expect("tried")))
}

/// The error of creating `path`'s temporary file, said of `path` (the temporary name means
/// nothing to the user; the caller names `path`): a missing directory is named.
fn name_destination(path: &Path, e: io::Error) -> io::Error {
    if crate::url_of(path).is_some() {
        return io::Error::new(
            e.kind(),
            format!(
                "cannot be written: its file in the temporary folder {} cannot be created ({e})",
                std::env::temp_dir().display()
            ),
        );
    }
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty());
    match (e.kind(), dir) {
        (io::ErrorKind::NotFound, Some(dir)) if !dir.exists() => io::Error::new(
            io::ErrorKind::NotFound,
            format!("cannot be created: directory {} does not exist", dir.display()),
        ),
        _ => io::Error::new(e.kind(), format!("cannot be created: {e}")),
    }
}

/// Gives the complete temporary file `partial` the name `path`.
pub(crate) fn publish(partial: &Path, path: &Path, on_existing: OnExisting) -> io::Result<()> {
    if let Some(url) = crate::url_of(path) {
        let uploaded = upload(partial, url, on_existing == OnExisting::Replace);
        let _ = std::fs::remove_file(partial);
        return uploaded;
    }
    if on_existing == OnExisting::Replace {
        return std::fs::rename(partial, path);
    }
    // A hard link is created only if the name is free: atomic, and nothing that appeared at
    // the name while the file was written is replaced.
    match std::fs::hard_link(partial, path) {
        Ok(()) => {
            let _ = std::fs::remove_file(partial);
            Ok(())
        }
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Err(already_exists(path)),
        // A file system without hard links (FAT, some network mounts): checked, then
        // renamed. A file appearing between the two steps would be replaced; no atomic
        // no-replace rename is reachable from std.
        Err(_) if !exists(path) => std::fs::rename(partial, path),
        Err(_) => Err(already_exists(path)),
    }
}

#[cfg(feature = "remote")]
fn upload(local: &Path, url: &str, replace: bool) -> io::Result<()> {
    crate::remote::upload(local, url, replace)
}

#[cfg(not(feature = "remote"))]
fn upload(_: &Path, url: &str, _: bool) -> io::Result<()> {
    Err(crate::location::remote_not_built(url))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::remove_stale_partials;

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("svb-io-publish-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn background_syncs_keep_every_byte_and_abandoning_leaves_nothing() {
        let d = dir("write-back");
        let bytes: Vec<u8> = (0..200_000u32).map(|i| (i * 13 % 251) as u8).collect();
        for commit in [true, false] {
            let path = d.join(format!("out-{commit}.bin"));
            let mut f = PartialFile::create(&path, OnExisting::Refuse).unwrap();
            f.sync_every = 4096;
            for piece in bytes.chunks(1000) {
                f.write_all(piece).unwrap();
            }
            assert!(f.synced_to > 0, "a sync was started");
            let written = f.path_written().to_path_buf();
            if commit {
                f.commit().unwrap();
                assert_eq!(std::fs::read(&path).unwrap(), bytes);
            } else {
                drop(f);
                assert!(!path.exists() && !written.exists());
            }
        }
        // A scratch file is never synced.
        let mut s = PartialFile::scratch(d.join("s.bin"), "tmp").unwrap();
        s.sync_every = 1;
        s.write_all(&bytes).unwrap();
        assert!(s.syncing.is_none() && s.synced_to == 0);
        drop(s);
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn ranges_of_other_files_append_whole_at_any_page_offset() {
        let d = dir("append-range");
        let src = d.join("src.bin");
        let bytes: Vec<u8> = (0..3_000_000u32).map(|i| (i * 31 % 253) as u8).collect();
        std::fs::write(&src, &bytes).unwrap();
        let file = File::open(&src).unwrap();
        let path = d.join("out.bin");
        let mut f = PartialFile::create(&path, OnExisting::Refuse).unwrap();
        let mut expected = Vec::new();
        // A kernel copy (both at page offset 0 and later 100), then copies through the
        // buffer (page offsets differing), one longer than the buffer.
        let pieces = [
            (None, 0u64, 8192u64),
            (Some(&b"head"[..]), 100 + 4096, 10_000),
            (None, 4100, 1_500_000),
            (Some(b"x"), 0, 1),
            (None, 2_999_000, 1000),
        ];
        for (before, offset, len) in pieces {
            if let Some(b) = before {
                f.write_all(b).unwrap();
                expected.extend_from_slice(b);
            }
            f.append_range_of(&file, offset, len).unwrap();
            expected.extend_from_slice(&bytes[offset as usize..(offset + len) as usize]);
            assert_eq!(f.position(), expected.len() as u64);
        }
        // A range past the source's end is an error.
        let e = f.append_range_of(&file, 2_999_999, 2).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::UnexpectedEof);
        drop(f);
        let mut f = PartialFile::create(&path, OnExisting::Refuse).unwrap();
        for (offset, len) in [(0u64, 4096u64), (17, 300_000), (1, 0)] {
            f.append_range_of(&file, offset, len).unwrap();
        }
        f.commit().unwrap();
        let want = [&bytes[..4096], &bytes[17..300_017]].concat();
        assert_eq!(std::fs::read(&path).unwrap(), want);
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_file_appearing_meanwhile_is_not_replaced() {
        let d = dir("race");
        let path = d.join("out.bin");
        let mut f = PartialFile::create(&path, OnExisting::Refuse).unwrap();
        f.write_all(b"mine").unwrap();
        std::fs::write(&path, b"theirs").unwrap();
        let err = f.commit().unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::AlreadyExists);
        assert!(err.to_string().contains("exists"), "{err}");
        assert_eq!(std::fs::read(&path).unwrap(), b"theirs");
        // Nothing else is left in the directory.
        assert_eq!(std::fs::read_dir(&d).unwrap().count(), 1);
        std::fs::remove_dir_all(d).unwrap();
    }

    #[test]
    fn errors_name_the_destination() {
        let d = dir("names");
        let path = d.join("no").join("sub").join("out.bin");
        let err = PartialFile::create(&path, OnExisting::Refuse).unwrap_err();
        let text = err.to_string();
        assert!(!text.contains("partial-"), "{text}");
        assert!(text.contains("does not exist"), "{text}");
        std::fs::remove_dir_all(d).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_symbolic_link_at_the_destination_exists_and_is_written_through() {
        let d = dir("link");
        let target = d.join("target");
        std::fs::write(&target, b"keep").unwrap();
        let link = d.join("out.bin");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        assert!(PartialFile::create(&link, OnExisting::Refuse).is_err());
        assert!(write_file(&link, b"x", OnExisting::Refuse).is_err());
        assert_eq!(std::fs::read(&target).unwrap(), b"keep");
        // Replaced, the link is written through (as `cp` and a shell's `>` do): the link
        // stays, its target holds the new bytes, published whole beside it.
        write_file(&link, b"new", OnExisting::Replace).unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        assert_eq!(std::fs::read(&target).unwrap(), b"new");
        // A relative link, through a second link, to a file that does not exist yet.
        let sub = d.join("sub");
        std::fs::create_dir(&sub).unwrap();
        std::os::unix::fs::symlink("../fresh", sub.join("hop")).unwrap();
        std::os::unix::fs::symlink("hop", sub.join("index")).unwrap();
        let mut f = PartialFile::create(sub.join("index"), OnExisting::Replace).unwrap();
        f.write_all(b"built").unwrap();
        f.commit().unwrap();
        assert_eq!(std::fs::read(d.join("fresh")).unwrap(), b"built");
        assert!(std::fs::symlink_metadata(sub.join("index")).unwrap().file_type().is_symlink());
        // A loop of links is an error, and nothing is written.
        std::os::unix::fs::symlink("loop-b", d.join("loop-a")).unwrap();
        std::os::unix::fs::symlink("loop-a", d.join("loop-b")).unwrap();
        let err = write_file(&d.join("loop-a"), b"x", OnExisting::Replace).unwrap_err();
        assert!(err.to_string().contains("loop"), "{err}");
        assert_eq!(std::fs::read_dir(&d).unwrap().count(), 6);
        std::fs::remove_dir_all(d).unwrap();
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn leftovers_of_gone_processes_are_removed_and_live_ones_kept() {
        let d = dir("stale");
        let path = d.join("out.bin");
        // A pid above the kernel's maximum (4194304) is never alive.
        let gone = d.join(format!(".out.bin.partial-4194399-{:016x}", 1));
        let gone_scratch = d.join(format!(".out.bin.reads.partial-4194399-{:016x}", 2));
        let live = d.join(format!(".out.bin.partial-{}-{:016x}", std::process::id(), 3));
        let other = d.join(format!(".other.partial-4194399-{:016x}", 4));
        for f in [&gone, &gone_scratch, &live, &other] {
            std::fs::write(f, b"x").unwrap();
        }
        let f = PartialFile::create(&path, OnExisting::Refuse).unwrap();
        assert!(!gone.exists() && !gone_scratch.exists());
        assert!(live.exists() && other.exists());
        drop(f);
        assert_eq!(remove_stale_partials(&d).unwrap(), 1);
        assert!(!other.exists() && live.exists());
        std::fs::remove_dir_all(d).unwrap();
    }
}
