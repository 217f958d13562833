//! How outputs are published: [`Publish`] (the options every writer shares) and
//! [`publish_all`] (several complete outputs appearing together, or none).

use std::io;
use std::path::{Path, PathBuf};

use crate::partial::{OnExisting, PartialFile, Staged, Written};

/// How a writer publishes its file: the options every format's writer shares
/// (`svb_pod5::WriteOptions::publish`, `svb_blow5::WriteOptions::publish`).
///
/// ```
/// use svb_io::{OnExisting, Publish};
///
/// let dir = std::env::temp_dir().join(format!("svb-publish-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let how = Publish { on_existing: OnExisting::Replace, ..Publish::default() };
/// let mut f = how.create(dir.join("out.bin"))?;
/// std::io::Write::write_all(&mut f, b"whole")?;
/// how.commit(f)?;
/// assert_eq!(std::fs::read(dir.join("out.bin"))?, b"whole");
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Publish {
    /// Whether finishing the file syncs it to the disk before renaming it (default true:
    /// after a crash the file is whole or absent). `false` leaves the write-back to the OS, as
    /// the reference writers (ONT's, slow5lib) do: faster, but a crash soon after may leave it
    /// short (a POD5 without its footer, a BLOW5 without its end-of-file marker: files
    /// readers refuse).
    pub sync: bool,
    /// What happens when a file is at the path already (default [`OnExisting::Refuse`]:
    /// creating the writer fails, and so does finishing it if one appeared meanwhile;
    /// [`OnExisting::Replace`] replaces it when the new file is complete).
    pub on_existing: OnExisting,
}

impl Default for Publish {
    fn default() -> Self {
        Publish { sync: true, on_existing: OnExisting::Refuse }
    }
}

impl From<OnExisting> for Publish {
    /// Synced (the default), with `on_existing` for a file already at the path.
    fn from(on_existing: OnExisting) -> Self {
        Publish { on_existing, ..Publish::default() }
    }
}

impl Publish {
    /// The file to write for `path` ([`PartialFile::create`] with [`Publish::on_existing`]):
    /// written front to back (an object's is uploaded as it is written).
    pub fn create(&self, path: impl AsRef<Path>) -> io::Result<PartialFile> {
        self.create_as(path.as_ref(), Written::InOrder)
    }

    /// [`create`](Self::create) for a writer that rewrites bytes it wrote before
    /// ([`PartialFile::write_at`]: a header completed at the end): an object's file is
    /// written whole to the temporary folder and uploaded when it is complete.
    pub fn create_rewritable(&self, path: impl AsRef<Path>) -> io::Result<PartialFile> {
        self.create_as(path.as_ref(), Written::Rewritable)
    }

    fn create_as(&self, path: &Path, written: Written) -> io::Result<PartialFile> {
        let mut file = PartialFile::create_written(path, self.on_existing, written)?;
        file.write_back = self.sync;
        Ok(file)
    }

    /// Publishes `file`, synced first when [`Publish::sync`] says so.
    pub fn commit(&self, file: PartialFile) -> io::Result<()> {
        file.finish(self.sync)
    }

    /// Completes `file` (synced when [`Publish::sync`] says so) without giving it its name:
    /// for one of several outputs that appear together ([`publish_all`]).
    pub fn stage(&self, file: PartialFile) -> io::Result<Staged> {
        file.stage(self.sync)
    }
}

/// Publishes several complete files together: all of them, or, when one cannot be (a file
/// appeared at its name meanwhile, a full disk while uploading), none that were new: those
/// this call had published with [`OnExisting::Refuse`] are removed again (they were created
/// by it: nothing was there) and the rest are not published. A file that replaced another
/// ([`OnExisting::Replace`]) stays, as the other is gone. The error names the destination
/// that failed.
///
/// ```
/// use std::io::Write;
/// use svb_io::{publish_all, OnExisting, PartialFile, Publish};
/// let dir = std::env::temp_dir().join(format!("svb-io-all-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let publish = Publish { sync: false, on_existing: OnExisting::Refuse };
/// let mut staged = Vec::new();
/// for name in ["a.bin", "b.bin"] {
///     let mut f = publish.create(dir.join(name))?;
///     f.write_all(name.as_bytes())?;
///     staged.push(publish.stage(f)?);
/// }
/// std::fs::write(dir.join("b.bin"), b"theirs")?; // appears meanwhile
/// let (failed, _) = publish_all(staged).unwrap_err();
/// assert_eq!(failed, dir.join("b.bin"));
/// assert!(!dir.join("a.bin").exists()); // all or nothing
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn publish_all(staged: Vec<Staged>) -> Result<(), (PathBuf, io::Error)> {
    let mut new = Vec::new();
    let mut rest = staged.into_iter();
    for file in rest.by_ref() {
        let publish_at = file.publish_at.clone();
        let refused_before = file.on_existing == OnExisting::Refuse;
        match file.publish() {
            Ok(()) if refused_before => new.push(publish_at),
            Ok(()) => {}
            Err(failed) => {
                for made in &new {
                    let _ = remove_published(made);
                }
                // The others are removed as they are dropped.
                drop(rest);
                return Err(failed);
            }
        }
    }
    Ok(())
}

/// Removes a file this process published a moment ago (an object: deleted from its store).
fn remove_published(path: &Path) -> io::Result<()> {
    match crate::url_of(path) {
        #[cfg(feature = "remote")]
        Some(url) => crate::remote::delete(url),
        #[cfg(not(feature = "remote"))]
        Some(_) => Ok(()),
        None => std::fs::remove_file(path),
    }
}
