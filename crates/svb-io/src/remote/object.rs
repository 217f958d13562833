//! [`Object`]: one version of an object, read by byte ranges: opened in one round trip, small
//! reads served from kept ranges, scans fetched ahead, planned reads fetched at once.

use super::requests::{block_on, count, io_error, runtime, settings, within, CACHE_BYTES};
use super::store::{open_budget, store_for};
use crate::location::shown_url;
use futures_util::StreamExt;
use object_store::path::Path as ObjectPath;
use object_store::{GetOptions, GetRange, ObjectStore, ObjectStoreExt};
use std::collections::VecDeque;
use std::io;
use std::ops::Range;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// A scan fetches ahead in ranges of this size (4 MiB), each its own request.
const PIECE: u64 = 4 << 20;

/// How far ahead of its reads a scan fetches (32 MiB: eight requests in flight; at 100 MB/s
/// and 50 ms a request, twice what fills the link).
const AHEAD: u64 = 32 << 20;

/// Misses this many in a row, each within [`SCAN_GAP`] of the one before, make a scan.
const SCAN_STREAK: u32 = 3;

/// Misses within this distance (8 MiB) of the one before count toward a scan.
const SCAN_GAP: u64 = 8 << 20;

/// The smallest range fetched for a small read (1 MiB): reads of a header, a table's
/// metadata or a record near one another cost one request.
const FETCH: u64 = 1 << 20;

/// Small reads' ranges start at a multiple of this (64 KiB).
const ALIGN: u64 = 64 << 10;

/// The head fetched at open (16 KiB): the signature and a BLOW5 / SLOW5 header.
const HEAD: u64 = 16 << 10;

/// Ranges nearer than this (256 KiB) are fetched as one by [`Object::prefetch`].
const COALESCE: u64 = 256 << 10;

/// The most requests [`Object::prefetch`] keeps in flight.
const IN_FLIGHT: usize = 64;

/// How long an object opened to look at its format is kept for the reader that opens it next
/// (30 s); within it, both are one open.
const REUSE_OPEN: Duration = Duration::from_secs(30);

/// Which version of the object every request asks for: its ETag, or the store's version id;
/// where the server gives neither (many plain web servers), its modification time (to the
/// second, `Last-Modified`) and its size, which every answer must have.
#[derive(Clone, Debug)]
pub(crate) struct Version {
    e_tag: Option<String>,
    version: Option<String>,
    modified: chrono::DateTime<chrono::Utc>,
}

impl Version {
    fn of(meta: &object_store::ObjectMeta) -> Version {
        Version {
            e_tag: meta.e_tag.clone(),
            version: meta.version.clone(),
            modified: meta.last_modified,
        }
    }

    /// Whether only the modification time tells this version (no ETag, no version id).
    fn by_time(&self) -> bool {
        self.e_tag.is_none() && self.version.is_none()
    }

    fn options(&self, range: Range<u64>) -> GetOptions {
        GetOptions {
            range: Some(GetRange::Bounded(range)),
            if_match: self.e_tag.clone(),
            if_unmodified_since: self.by_time().then_some(self.modified),
            version: self.version.clone(),
            ..Default::default()
        }
    }

    fn check(&self, meta: &object_store::ObjectMeta, len: u64) -> io::Result<()> {
        let same_tag = match (&self.e_tag, &meta.e_tag) {
            (Some(a), Some(b)) => a == b,
            _ => true,
        };
        let same_time = !self.by_time() || meta.last_modified == self.modified;
        if !same_tag || !same_time || meta.size != len {
            return Err(io::Error::other(format!(
                "the object changed while it was being read (now {} bytes, ETag {:?}, modified \
                 {}; opened at {len} bytes, ETag {:?}, modified {}): nothing of the new version \
                 was used; read it again",
                meta.size, meta.e_tag, meta.last_modified, self.e_tag, self.modified
            )));
        }
        Ok(())
    }
}

/// The body of a ranged GET, checked to be exactly `range` of the version opened; never
/// more than the range's length is taken from the server.
async fn get_range(
    store: &dyn ObjectStore, path: &ObjectPath, version: &Version, len: u64, range: Range<u64>,
    out: &mut [u8],
) -> io::Result<()> {
    debug_assert_eq!(out.len() as u64, range.end - range.start);
    count(1, 0);
    let got = store.get_opts(path, version.options(range.clone())).await.map_err(io_error)?;
    version.check(&got.meta, len)?;
    if got.range != range {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "asked for bytes {}..{}, the server answered {}..{}",
                range.start, range.end, got.range.start, got.range.end
            ),
        ));
    }
    let mut at = 0usize;
    let mut body = got.into_stream();
    while let Some(part) = body.next().await {
        let part = part.map_err(io_error)?;
        let end = at + part.len();
        if end > out.len() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("asked for {} bytes at {}, the server sent more", out.len(), range.start),
            ));
        }
        out[at..end].copy_from_slice(&part);
        count(0, part.len() as u64);
        at = end;
    }
    if at != out.len() {
        return Err(io::Error::new(
            io::ErrorKind::UnexpectedEof,
            format!("asked for {} bytes at {}, the server sent {at}", out.len(), range.start),
        ));
    }
    Ok(())
}

/// The kept ranges of an object, oldest first.
#[derive(Default)]
pub(crate) struct Kept {
    ranges: VecDeque<(u64, Arc<[u8]>)>,
    bytes: usize,
}

impl Kept {
    /// Fills `buf` with the bytes at `offset` from kept ranges (one, or several that follow
    /// one another); `false`, `buf` unspecified, when some byte is not kept.
    fn copy(&mut self, offset: u64, buf: &mut [u8]) -> bool {
        let end = offset + buf.len() as u64;
        let mut at = offset;
        while at < end {
            let Some(i) = self
                .ranges
                .iter()
                .rposition(|(start, b)| *start <= at && at < start + b.len() as u64)
            else {
                return false;
            };
            let (start, bytes) = &self.ranges[i];
            let from = (at - start) as usize;
            let n = (bytes.len() - from).min((end - at) as usize);
            let to = (at - offset) as usize;
            buf[to..to + n].copy_from_slice(&bytes[from..from + n]);
            at += n as u64;
            // Used: kept longest.
            let used = self.ranges.remove(i).expect("found");
            self.ranges.push_back(used);
        }
        true
    }

    /// Whether every byte of `r` is kept (in one range or several that follow one another).
    fn has(&self, r: &Range<u64>) -> bool {
        let mut at = r.start;
        while at < r.end {
            match self
                .ranges
                .iter()
                .filter(|(start, b)| *start <= at && at < start + b.len() as u64)
                .map(|(start, b)| start + b.len() as u64)
                .max()
            {
                Some(end) => at = end,
                None => return false,
            }
        }
        true
    }

    fn keep(&mut self, at: u64, bytes: Arc<[u8]>) {
        self.bytes += bytes.len();
        self.ranges.push_back((at, bytes));
        while self.bytes > CACHE_BYTES && self.ranges.len() > 1 {
            let (_, old) = self.ranges.pop_front().expect("not empty");
            self.bytes -= old.len();
        }
    }
}

/// A range being fetched in the background: done (with its error, if it failed) or not.
#[derive(Default)]
struct Pending {
    done: Mutex<Option<Result<(), String>>>,
    cv: std::sync::Condvar,
}

impl Pending {
    fn finish(&self, r: Result<(), String>) {
        *self.done.lock().unwrap_or_else(|e| e.into_inner()) = Some(r);
        self.cv.notify_all();
    }

    fn wait(&self) -> Result<(), String> {
        let mut done = self.done.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if let Some(r) = &*done {
                return r.clone();
            }
            done = self.cv.wait(done).unwrap_or_else(|e| e.into_inner());
        }
    }
}

/// How an object is being read: where the last miss ended, how many misses in a row came
/// near it (a scan), and the ranges being fetched ahead of it.
#[derive(Default)]
struct Ahead {
    last_end: u64,
    streak: u32,
    /// A scan was announced ([`Object::expect_scan`]): every miss counts toward it.
    scan_expected: bool,
    fetched_to: u64,
    pending: Vec<(Range<u64>, Arc<Pending>)>,
}

/// An object opened for reading by ranges: its store, path, length and version.
pub struct Object {
    url: String,
    store: Arc<dyn ObjectStore>,
    path: ObjectPath,
    len: u64,
    version: Version,
    kept: Arc<Mutex<Kept>>,
    ahead: Mutex<Ahead>,
}

impl std::fmt::Debug for Object {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Object({}, {} bytes)", shown_url(&self.url), self.len)
    }
}

/// Objects opened to tell their format, when, oldest first.
type Recent = VecDeque<(Instant, Arc<Object>)>;

/// Objects opened lately (to tell their format) and not yet opened again by a reader.
fn recent() -> std::sync::MutexGuard<'static, Recent> {
    static RECENT: OnceLock<Mutex<Recent>> = OnceLock::new();
    RECENT.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner())
}

impl Object {
    /// Opens the object at `url` (one round trip: its last `tail` bytes and its head at once),
    /// or takes the one opened for it in the last `REUSE_OPEN` to look at its format.
    pub fn open(url: &str, tail: u64) -> io::Result<Arc<Object>> {
        {
            let mut recent = recent();
            recent.retain(|(at, _)| at.elapsed() < REUSE_OPEN);
            if let Some(i) = recent.iter().position(|(_, o)| o.url == url) {
                return Ok(recent.remove(i).expect("found").1);
            }
        }
        Self::open_new(url, tail).map(Arc::new)
    }

    /// Opens the object at `url` and keeps it for the next [`Object::open`] of the same URL
    /// (a format look followed by a reader's open is one open).
    pub fn open_to_look(url: &str, tail: u64) -> io::Result<Arc<Object>> {
        let object = Self::open(url, tail)?;
        let mut recent = recent();
        recent.push_back((Instant::now(), object.clone()));
        while recent.len() > 8 {
            recent.pop_front();
        }
        Ok(object)
    }

    fn open_new(url: &str, tail_len: u64) -> io::Result<Object> {
        let (store, path, _) = store_for(url)?;
        let budget = open_budget(&settings().options);
        let deadline = Instant::now() + budget;
        let silent = || {
            io::Error::new(
                io::ErrorKind::TimedOut,
                format!(
                    "no answer within {} s (the storage option timeout=SECONDS gives each \
                     request longer; opening takes 1.5 times it at most)",
                    budget.as_secs_f64()
                ),
            )
        };
        let (tail, head) = block_on(within(deadline, async {
            count(2, 0);
            let tail = store.get_opts(
                &path,
                GetOptions { range: Some(GetRange::Suffix(tail_len)), ..Default::default() },
            );
            let head = store.get_opts(
                &path,
                GetOptions { range: Some(GetRange::Bounded(0..HEAD)), ..Default::default() },
            );
            let (tail, head) = futures_util::join!(tail, head);
            // Each body is taken as it streams, never past what was asked for (a server that
            // declares or sends more is refused before anything is allocated for it).
            let body = |r: object_store::Result<object_store::GetResult>, most: u64| async move {
                let r = r?;
                let (meta, range) = (r.meta.clone(), r.range.clone());
                if range.end - range.start > most {
                    return Err(object_store::Error::Generic {
                        store: "svb",
                        source: format!(
                            "asked for at most {most} bytes, the server answered {}..{}",
                            range.start, range.end
                        )
                        .into(),
                    });
                }
                let mut bytes = Vec::new();
                let mut stream = r.into_stream();
                while let Some(part) = stream.next().await {
                    let part = part?;
                    if (bytes.len() + part.len()) as u64 > range.end - range.start {
                        return Err(object_store::Error::Generic {
                            store: "svb",
                            source: "the server sent more than the range it answered".into(),
                        });
                    }
                    bytes.extend_from_slice(&part);
                }
                Ok::<_, object_store::Error>((meta, range, bytes))
            };
            (body(tail, tail_len).await, body(head, HEAD).await)
        }))
        .map_err(|_| silent())?;
        let mut kept = Kept::default();
        let (len, version) = match (tail, head) {
            (Ok((meta, tail_range, tail)), Ok((head_meta, head_range, head)))
                if head_meta.e_tag == meta.e_tag
                    && head_meta.last_modified == meta.last_modified
                    && head_meta.size == meta.size
                    && tail.len() as u64 == tail_range.end - tail_range.start
                    && head.len() as u64 == head_range.end - head_range.start
                    && tail_range.end == meta.size
                    && head_range.start == 0 =>
            {
                count(0, (tail.len() + head.len()) as u64);
                kept.keep(head_range.start, head.into());
                kept.keep(tail_range.start, tail.into());
                (meta.size, Version::of(&meta))
            }
            (Err(object_store::Error::NotFound { .. }), _)
            | (_, Err(object_store::Error::NotFound { .. })) => {
                return Err(io::Error::new(io::ErrorKind::NotFound, "no such object"));
            }
            // An empty object (no range of it exists), a server that does not answer suffix
            // ranges, or an object replaced between the two answers: its metadata alone.
            _ => {
                count(1, 0);
                let meta = block_on(within(deadline, store.head(&path)))
                    .map_err(|_| silent())?
                    .map_err(io_error)?;
                (meta.size, Version::of(&meta))
            }
        };
        Ok(Object {
            url: url.to_string(),
            store,
            path,
            len,
            version,
            kept: Arc::new(Mutex::new(kept)),
            ahead: Mutex::default(),
        })
    }

    /// The object's length when it was opened.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the object is empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The object's URL.
    pub fn url(&self) -> &str {
        &self.url
    }

    fn kept(&self) -> std::sync::MutexGuard<'_, Kept> {
        self.kept.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Fills `buf` with the bytes at `offset` (the caller checked they lie in the object):
    /// from a kept range or one being fetched ahead, else one request (a small read fetches
    /// at least `FETCH` bytes around it and keeps them). Misses that follow one another
    /// (a scan: `SCAN_STREAK` in a row within `SCAN_GAP`) start fetching ahead: `PIECE`
    /// ranges, `AHEAD` bytes ahead of the read, in flight at once, so that a scan keeps
    /// the link full while it decodes.
    pub fn read_into(&self, offset: u64, buf: &mut [u8]) -> io::Result<()> {
        if buf.is_empty() {
            return Ok(());
        }
        let n = buf.len() as u64;
        let want = offset..offset + n;
        if self.kept().copy(offset, buf) {
            // A scan reading what was fetched ahead keeps the fetches ahead of it going.
            self.plan_ahead(&want, false);
            return Ok(());
        }
        let waits = self.plan_ahead(&want, true);
        for w in waits {
            // A failed fetch ahead is retried below as this read's own request.
            let _ = w.wait();
        }
        if self.kept().copy(offset, buf) {
            return Ok(());
        }
        if n >= FETCH {
            return block_on(get_range(
                &*self.store,
                &self.path,
                &self.version,
                self.len,
                want,
                buf,
            ));
        }
        let start = offset - offset % ALIGN;
        let end = (offset + n).max(start + FETCH).min(self.len);
        let bytes = self.fetch(start..end)?;
        let from = (offset - start) as usize;
        buf.copy_from_slice(&bytes[from..from + buf.len()]);
        self.kept().keep(start, bytes);
        Ok(())
    }

    /// Notes a miss of `want`; in a scan, starts the fetches ahead of it that are not in
    /// flight yet. Returns the fetches in flight that `want` overlaps, to wait for.
    /// Says that the object will be read from start to end: the next miss starts fetching
    /// ahead.
    pub fn expect_scan(&self) {
        let mut ahead = self.ahead.lock().unwrap_or_else(|e| e.into_inner());
        ahead.scan_expected = true;
        ahead.streak = ahead.streak.max(SCAN_STREAK - 1);
    }

    /// A read served from what was kept (`miss` false) only moves a scan's fetches ahead.
    fn plan_ahead(&self, want: &Range<u64>, miss: bool) -> Vec<Arc<Pending>> {
        let mut ahead = self.ahead.lock().unwrap_or_else(|e| e.into_inner());
        ahead.pending.retain(|(_, p)| p.done.lock().map(|d| d.is_none()).unwrap_or(false));
        if miss {
            let near = ahead.scan_expected
                || (want.start + SCAN_GAP >= ahead.last_end
                    && want.start <= ahead.last_end + SCAN_GAP);
            ahead.streak = if near { ahead.streak + 1 } else { 0 };
            ahead.last_end = if near { ahead.last_end.max(want.end) } else { want.end };
        } else {
            if ahead.streak < SCAN_STREAK {
                return Vec::new();
            }
            ahead.last_end = ahead.last_end.max(want.end);
            if want.end + AHEAD / 2 <= ahead.fetched_to {
                return Vec::new();
            }
        }
        if ahead.streak >= SCAN_STREAK {
            let mut from = ahead.fetched_to.max(want.start - want.start % PIECE);
            if ahead.fetched_to < want.start.saturating_sub(AHEAD) {
                // The scan jumped past what was fetched ahead: start again at the read.
                from = want.start - want.start % PIECE;
            }
            let to = (want.end + AHEAD).min(self.len);
            while from < to {
                let mut r = from..(from + PIECE).min(self.len);
                from = r.end;
                {
                    // What the open and the reads before the scan was seen fetched (the
                    // object's head and tail, its first reads) is not asked again: kept
                    // aligned blocks are left off both ends of the range.
                    let kept = self.kept();
                    while r.start < r.end && kept.has(&(r.start..(r.start + ALIGN).min(r.end))) {
                        r.start = (r.start + ALIGN).min(r.end);
                    }
                    while r.start < r.end {
                        let last = ((r.end - 1) - (r.end - 1) % ALIGN).max(r.start);
                        if !kept.has(&(last..r.end)) {
                            break;
                        }
                        r.end = last;
                    }
                }
                if r.is_empty() {
                    continue;
                }
                let pending = Arc::new(Pending::default());
                ahead.pending.push((r.clone(), pending.clone()));
                self.spawn_fetch(r, pending);
            }
            // The end of the last range asked for (a whole piece past `to`).
            ahead.fetched_to = ahead.fetched_to.max(from);
        }
        ahead
            .pending
            .iter()
            .filter(|(r, _)| r.start < want.end && want.start < r.end)
            .map(|(_, p)| p.clone())
            .collect()
    }

    /// Fetches `r` in the background into the kept ranges, and marks `pending` done.
    fn spawn_fetch(&self, r: Range<u64>, pending: Arc<Pending>) {
        let (store, path, version, len, kept) = (
            self.store.clone(),
            self.path.clone(),
            self.version.clone(),
            self.len,
            self.kept.clone(),
        );
        runtime().spawn(async move {
            let mut bytes = vec![0u8; (r.end - r.start) as usize];
            let got = get_range(&*store, &path, &version, len, r.clone(), &mut bytes).await;
            if got.is_ok() {
                kept.lock().unwrap_or_else(|e| e.into_inner()).keep(r.start, bytes.into());
            }
            pending.finish(got.map_err(|e| e.to_string()));
        });
    }

    fn fetch(&self, range: Range<u64>) -> io::Result<Arc<[u8]>> {
        let mut bytes = vec![0u8; (range.end - range.start) as usize];
        block_on(get_range(&*self.store, &self.path, &self.version, self.len, range, &mut bytes))?;
        Ok(bytes.into())
    }

    /// Whether `range` was fetched and is still kept (reading it makes no request).
    pub fn has_fetched(&self, range: &Range<u64>) -> bool {
        self.kept().has(range)
    }

    /// Fetches `ranges` (each within the object) with many requests in flight at once,
    /// ranges nearer than 256 KiB one request, and keeps them for the reads that follow:
    /// what a reader that knows what it will read asks first (one round trip for all of it).
    /// Ranges already kept are not fetched again. At most [`CACHE_BYTES`] are fetched; the
    /// rest is left to the reads.
    pub fn prefetch(&self, ranges: &[Range<u64>]) -> io::Result<()> {
        let mut want: Vec<Range<u64>> = {
            let kept = self.kept();
            ranges
                .iter()
                .filter(|r| r.start < r.end && r.end <= self.len && !kept.has(r))
                .cloned()
                .collect()
        };
        // Planned reads count toward a scan as misses do; what is being fetched ahead is
        // waited for rather than asked for again.
        if let (Some(lo), Some(hi)) =
            (want.iter().map(|r| r.start).min(), want.iter().map(|r| r.end).max())
        {
            for w in self.plan_ahead(&(lo..hi), true) {
                let _ = w.wait();
            }
            let kept = self.kept();
            want.retain(|r| !kept.has(r));
        }
        want.sort_by_key(|r| r.start);
        let mut merged: Vec<Range<u64>> = Vec::new();
        let mut total = 0u64;
        for r in want {
            if total >= CACHE_BYTES as u64 / 2 {
                break;
            }
            match merged.last_mut() {
                Some(last) if r.start <= last.end + COALESCE => {
                    total += r.end.saturating_sub(last.end);
                    last.end = last.end.max(r.end);
                }
                _ => {
                    total += r.end - r.start;
                    merged.push(r);
                }
            }
        }
        let fetched: Vec<io::Result<(u64, Arc<[u8]>)>> = block_on(async {
            futures_util::stream::iter(merged.into_iter().map(|r| async move {
                let mut bytes = vec![0u8; (r.end - r.start) as usize];
                get_range(&*self.store, &self.path, &self.version, self.len, r.clone(), &mut bytes)
                    .await?;
                Ok((r.start, Arc::<[u8]>::from(bytes)))
            }))
            .buffer_unordered(IN_FLIGHT)
            .collect()
            .await
        });
        let mut kept = self.kept();
        for f in fetched {
            let (at, bytes) = f?;
            kept.keep(at, bytes);
        }
        Ok(())
    }
}

/// The length of the object at `url` and its version (its ETag, else the store's version id,
/// else empty: a server that gives neither), from one metadata request.
pub fn head(url: &str) -> io::Result<(u64, String)> {
    let (store, path, _) = store_for(url)?;
    count(1, 0);
    let meta = block_on(store.head(&path)).map_err(io_error)?;
    let tag = meta.e_tag.or(meta.version).unwrap_or_default();
    Ok((meta.size, tag))
}
