//! Outputs uploaded as they are written ([`Upload`], in parts, published only when complete)
//! and files uploaded whole ([`upload`]).

use super::requests::{block_on, count, io_error};
use super::store::{store_for, store_of};
use object_store::path::Path as ObjectPath;
use object_store::{ObjectStore, ObjectStoreExt};
use std::io;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};

/// Parts of an upload (8 MiB), at most [`UPLOAD_IN_FLIGHT`] in flight.
const PART: usize = 8 << 20;

/// Parts of an upload in flight at once (bounded memory: 8 x 8 MiB, and the part being
/// filled).
const UPLOAD_IN_FLIGHT: usize = 8;

/// Outputs uploaded as they are written at once (2; each holds up to 72 MiB of parts): more,
/// at once (`split`'s outputs), are written to the temporary folder and each uploaded when
/// complete, so that memory stays bounded however many outputs are open.
const STREAMED_AT_ONCE: usize = 2;

/// Outputs being uploaded as they are written.
static STREAMING: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// One of the [`STREAMED_AT_ONCE`] outputs that may be uploaded as they are written, given
/// back when dropped.
#[derive(Debug)]
pub(crate) struct StreamSlot(());

impl StreamSlot {
    /// A slot, if one is free.
    pub(crate) fn take() -> Option<StreamSlot> {
        STREAMING
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n < STREAMED_AT_ONCE).then_some(n + 1)
            })
            .ok()
            .map(|_| StreamSlot(()))
    }
}

impl Drop for StreamSlot {
    fn drop(&mut self) {
        STREAMING.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Uploads the local file `local` to the object at `url` through an `Upload`: the object
/// appears only once it is whole; without `replace` an object already at `url` is never
/// replaced (see `Upload`). Asked to stop ([`crate::interrupt`]) between parts, it aborts the
/// upload (no parts are left) with an [`io::ErrorKind::Interrupted`] error. Web servers are not
/// written to.
pub fn upload(local: &std::path::Path, url: &str, replace: bool) -> io::Result<()> {
    use std::io::Read;
    let mut up = Upload::start(url, replace, None)?;
    let mut file = std::fs::File::open(local)?;
    let mut buf = vec![0u8; PART];
    loop {
        let n = match file.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if crate::interrupted() {
            return Err(upload_stopped());
        }
        up.write(&buf[..n])?;
    }
    up.stage()?.publish()
}

/// The error of an upload stopped by [`crate::interrupt`].
fn upload_stopped() -> io::Error {
    crate::interrupted_error("the upload was aborted; nothing was written")
}

/// An object written as it is made (the output of a [`crate::PartialFile`] whose destination
/// is an object): its bytes go to the store in parts of [`PART`] bytes, at most
/// [`UPLOAD_IN_FLIGHT`] in flight, while the writer goes on making the next ones, and nothing
/// stands under the object's key until [`StagedUpload::publish`]:
///
/// - with `replace`, the parts make a multipart upload of the key itself, completed by the
///   publish (an output of one part: one request at the publish);
/// - without, on S3, the same, completed only where no object is at the key: the completion
///   (or the one request of an output of one part) carries `If-None-Match: *`
///   ([`CreateOnly`]), and S3 refuses it where an object appeared meanwhile;
/// - without, on other stores, they make an object at a hidden key beside it
///   (`.NAME.partial-PID-NONCE`), complete when staged, which the publish copies to the key
///   by a copy that refuses an existing object (GCS's generation 0, Azure's If-None-Match)
///   and then removes; a store that cannot refuse says so, and nothing is replaced.
///
/// Dropped before it is published (an error, a panic, an interrupt), the multipart upload is
/// aborted (no parts left behind) and the hidden object removed.
pub(crate) struct Upload {
    store: Arc<dyn ObjectStore>,
    /// The object's key.
    target: ObjectPath,
    /// Where the parts go: `target`, or the hidden key beside it ([`Publish::Copy`]).
    key: ObjectPath,
    /// How the object is made to appear under `target`.
    publish: Publish,
    /// The part being filled.
    part: Vec<u8>,
    /// The multipart upload, once a first part is sent.
    multipart: Option<Parts>,
    /// Held while the output is uploaded as it is written (none for a complete file).
    slot: Option<StreamSlot>,
}

/// A multipart upload being written (in a mutex only to be `Sync`, as the writers holding it
/// are: it is reached through `&mut` alone, never locked).
type Parts = Mutex<object_store::WriteMultipart>;

/// The upload in `parts`.
pub(crate) fn parts(parts: Parts) -> object_store::WriteMultipart {
    parts.into_inner().unwrap_or_else(|e| e.into_inner())
}

impl std::fmt::Debug for Upload {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Upload").field("key", &self.key.as_ref()).finish_non_exhaustive()
    }
}

impl Upload {
    /// An upload to the object at `url` (holding `slot` until it is published or dropped);
    /// nothing is sent yet.
    pub(crate) fn start(url: &str, replace: bool, slot: Option<StreamSlot>) -> io::Result<Upload> {
        crate::location::check_writable(url)?;
        let scheme = crate::location::scheme_of(url);
        let s3 = ["s3", "s3a"].iter().any(|s| scheme.eq_ignore_ascii_case(s));
        let publish = match (replace, s3) {
            (true, _) => Publish::Replace,
            (false, true) => Publish::Create,
            (false, false) => Publish::Copy,
        };
        // S3 completes where none is through its create-only store.
        let (store, target, _) = store_of(url, publish == Publish::Create)?;
        let key = if publish != Publish::Copy {
            target.clone()
        } else {
            let name = target.filename().unwrap_or("out");
            let hidden = crate::temporary_names::temporary_file_name(
                name,
                None,
                crate::temporary_names::random_u64(),
            );
            match target.as_ref().rsplit_once('/') {
                Some((dir, _)) => ObjectPath::from(format!("{dir}/{hidden}")),
                None => ObjectPath::from(hidden),
            }
        };
        Ok(Upload { store, target, key, publish, part: Vec::new(), multipart: None, slot })
    }

    /// Appends `bytes`; each part filled is sent, waiting while [`UPLOAD_IN_FLIGHT`] are.
    /// Never an [`io::ErrorKind::Interrupted`] error (a stop asked is taken by
    /// [`stage`](Self::stage), and by the work that writes, between its steps): `std`'s
    /// `write_all`, `io::copy` and `BufWriter` retry a write that says that, forever.
    pub(crate) fn write(&mut self, mut bytes: &[u8]) -> io::Result<()> {
        while !bytes.is_empty() {
            if self.part.capacity() == 0 {
                self.part.reserve_exact(PART);
            }
            let n = (PART - self.part.len()).min(bytes.len());
            self.part.extend_from_slice(&bytes[..n]);
            bytes = &bytes[n..];
            if self.part.len() == PART {
                self.send_part()?;
            }
        }
        Ok(())
    }

    /// Sends the full part (starting the multipart upload with the first).
    fn send_part(&mut self) -> io::Result<()> {
        let part = std::mem::take(&mut self.part);
        let (store, key, multipart) = (&self.store, &self.key, &mut self.multipart);
        block_on(async {
            if multipart.is_none() {
                count(1, 0);
                let upload = store.put_multipart(key).await.map_err(write_error)?;
                *multipart = Some(Mutex::new(object_store::WriteMultipart::new_with_chunk_size(
                    upload, PART,
                )));
            }
            let writer = multipart.as_mut().expect("started");
            let writer = writer.get_mut().unwrap_or_else(|e| e.into_inner());
            writer.wait_for_capacity(UPLOAD_IN_FLIGHT).await.map_err(write_error)?;
            count(1, 0);
            writer.put(part.into());
            Ok(())
        })
    }

    /// Sends what is left and waits for every part: all but the step that makes the object
    /// appear under its key, which [`StagedUpload::publish`] takes.
    pub(crate) fn stage(mut self) -> io::Result<StagedUpload> {
        if crate::interrupted() {
            return Err(upload_stopped());
        }
        let last = std::mem::take(&mut self.part);
        let copy = self.publish == Publish::Copy;
        let step = match (self.multipart.take(), copy) {
            (None, false) => Step::Put(last),
            (None, true) => {
                count(1, 0);
                let (store, key) = (&self.store, &self.key);
                block_on(async { store.put(key, last.into()).await.map_err(write_error) })?;
                Step::Copy
            }
            (Some(writer), copy) => {
                let mut writer = parts(writer);
                let last_part = !last.is_empty();
                if last_part {
                    writer.put(last.into());
                }
                let sent = block_on(async {
                    if let Err(e) = writer.wait_for_capacity(0).await {
                        let _ = writer.abort().await;
                        return Err(write_error(e));
                    }
                    if !copy {
                        return Ok(Some(writer));
                    }
                    count(1 + u64::from(last_part), 0);
                    writer.finish().await.map_err(write_error)?;
                    Ok(None)
                })?;
                match sent {
                    Some(writer) => Step::Complete(Mutex::new(writer), last_part),
                    None => Step::Copy,
                }
            }
        };
        Ok(StagedUpload {
            store: self.store.clone(),
            target: self.target.clone(),
            key: self.key.clone(),
            publish: self.publish,
            step: Some(step),
            _slot: self.slot.take(),
        })
    }
}

impl Drop for Upload {
    fn drop(&mut self) {
        if let Some(writer) = self.multipart.take() {
            count(1, 0);
            let _ = block_on(parts(writer).abort());
        }
    }
}

/// How an upload's object comes to stand under its key.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Publish {
    /// Whatever is there (`--force`).
    Replace,
    /// Only where nothing is: the completion, or the one put, is conditional (S3).
    Create,
    /// Only where nothing is: written at a hidden key, then copied by a copy that refuses an
    /// existing object (other stores).
    Copy,
}

/// What publishing a staged upload does.
enum Step {
    /// Puts these bytes at the key (an output of one part).
    Put(Vec<u8>),
    /// Completes the multipart upload of the key (sending its buffered last part first,
    /// when the flag says there is one).
    Complete(Parts, bool),
    /// Copies the hidden object to the key where none is, and removes it.
    Copy,
}

/// An [`Upload`] with every byte sent, not yet under its key: [`publish`](Self::publish)
/// makes it appear; dropped, it is taken back (the multipart upload aborted, the hidden object
/// removed).
pub(crate) struct StagedUpload {
    store: Arc<dyn ObjectStore>,
    target: ObjectPath,
    key: ObjectPath,
    publish: Publish,
    /// `None` once published.
    step: Option<Step>,
    /// Given back with the last part's memory.
    _slot: Option<StreamSlot>,
}

impl std::fmt::Debug for StagedUpload {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StagedUpload")
            .field("target", &self.target.as_ref())
            .finish_non_exhaustive()
    }
}

impl StagedUpload {
    /// Makes the object appear under its key (without `replace`: only where none is, an
    /// [`io::ErrorKind::AlreadyExists`] error otherwise).
    pub(crate) fn publish(mut self) -> io::Result<()> {
        if crate::interrupted() {
            return Err(upload_stopped());
        }
        let step = self.step.take().expect("published once");
        let (store, target, key) = (&self.store, &self.target, &self.key);
        // Where the write itself refuses an existing object, its refusal says so.
        let refused = |e| match self.publish {
            Publish::Create => create_error(e),
            _ => write_error(e),
        };
        block_on(async {
            match step {
                Step::Put(bytes) => {
                    count(1, 0);
                    let mode = match self.publish {
                        Publish::Create => object_store::PutMode::Create,
                        _ => object_store::PutMode::Overwrite,
                    };
                    store.put_opts(target, bytes.into(), mode.into()).await.map_err(refused)?;
                    Ok(())
                }
                Step::Complete(writer, last_part) => {
                    count(1 + u64::from(last_part), 0);
                    parts(writer).finish().await.map_err(refused)?;
                    Ok(())
                }
                Step::Copy => {
                    count(2, 0);
                    let copied = store.copy_if_not_exists(key, target).await;
                    let _ = store.delete(key).await;
                    copied.map_err(create_error)
                }
            }
        })
    }
}

impl Drop for StagedUpload {
    fn drop(&mut self) {
        let (store, key) = (&self.store, &self.key);
        match self.step.take() {
            None | Some(Step::Put(_)) => {}
            Some(Step::Complete(writer, _)) => {
                count(1, 0);
                let _ = block_on(parts(writer).abort());
            }
            Some(Step::Copy) => {
                count(1, 0);
                let _ = block_on(async { store.delete(key).await });
            }
        }
    }
}

/// An `object_store` error of a write as an I/O error: a missing object there means a
/// missing bucket (or container).
fn write_error(e: object_store::Error) -> io::Error {
    match e {
        object_store::Error::NotFound { .. } => {
            io::Error::new(io::ErrorKind::NotFound, "cannot be written: its bucket does not exist")
        }
        other => io_error(other),
    }
}

/// The error of a write that refuses an existing object (the conditional completion or put,
/// or the conditional copy, that publishes an upload without `replace`).
fn create_error(e: object_store::Error) -> io::Error {
    match e {
        object_store::Error::AlreadyExists { .. } | object_store::Error::Precondition { .. } => {
            io::Error::new(io::ErrorKind::AlreadyExists, "exists, and is not replaced")
        }
        e @ (object_store::Error::NotSupported { .. }
        | object_store::Error::NotImplemented { .. }) => io::Error::new(
            io::ErrorKind::Unsupported,
            format!(
                "this store cannot write an object only where none is (it would race another \
                 writer): nothing was written; --force replaces what is there ({e})"
            ),
        ),
        e => write_error(e),
    }
}

/// Deletes the object at `url` (one this process uploaded: [`crate::publish_all`] taking back
/// what it published when a later output fails).
pub(crate) fn delete(url: &str) -> io::Result<()> {
    let (store, path, _) = store_for(url)?;
    block_on(async {
        count(1, 0);
        store.delete(&path).await.map_err(io_error)
    })
}
