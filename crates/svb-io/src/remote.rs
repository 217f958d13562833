//! Objects on object stores and web servers, read by byte ranges through the `object_store`
//! crate (feature `remote`).
//!
//! An object is opened in one round trip: its tail and its head, asked for at once (the tail
//! answers with the object's size and ETag; POD5's footer and tables, a BLOW5 file's end
//! marker, are in it: as much as the format's `FileKind` says, 512 KiB for POD5, 16 KiB for
//! the others). Every later request
//! asks for a range of that same version (`If-Match` its ETag, or its version id): an object
//! replaced while it is read is an error that names it, never a mix of two versions. Small
//! reads are served from ranges fetched whole and kept (at most [`CACHE_BYTES`]); large ones
//! are fetched as asked, and [`Object::prefetch`] fetches many ranges at once (a reader that
//! knows what it will read plans it: one round trip for all of it). Transient failures
//! (connection resets, timeouts, 5xx, 429 / SlowDown) are retried with backoff by
//! `object_store`, then named.
//!
//! Credentials come as the ecosystem provides them: the standard environment variables
//! (`AWS_*`, `GOOGLE_*`, `AZURE_*`, `AWS_ENDPOINT_URL` for S3-compatible stores), instance
//! metadata and web identity; [`set_options`] adds `object_store` configuration keys
//! (`skip_signature` for public buckets, `aws_region`, `aws_endpoint`, ...). No message shows
//! a credential: a URL is shown without user, password and query ([`shown_url`]).

use std::collections::{HashMap, VecDeque};
use std::io;
use std::ops::Range;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use object_store::path::Path as ObjectPath;
use object_store::{GetOptions, GetRange, ObjectStore, ObjectStoreExt, ObjectStoreScheme};

use crate::location::shown_url;

/// The most bytes of fetched ranges an open object keeps (64 MiB): small reads' ranges,
/// planned ranges, and a scan's ranges fetched ahead.
pub const CACHE_BYTES: usize = 64 << 20;

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

static REQUESTS: AtomicU64 = AtomicU64::new(0);
static BYTES: AtomicU64 = AtomicU64::new(0);

/// Requests made and body bytes received from object stores and web servers by this process.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Traffic {
    /// Requests made (each range, each listing page, each metadata request).
    pub requests: u64,
    /// Body bytes received.
    pub bytes: u64,
}

/// This process's [`Traffic`] so far.
pub fn traffic() -> Traffic {
    Traffic { requests: REQUESTS.load(Ordering::Relaxed), bytes: BYTES.load(Ordering::Relaxed) }
}

fn count(requests: u64, bytes: u64) {
    REQUESTS.fetch_add(requests, Ordering::Relaxed);
    BYTES.fetch_add(bytes, Ordering::Relaxed);
}

/// The runtime the requests run on (two I/O threads; each caller blocks on its own
/// requests, so rayon's threads each keep theirs in flight).
fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("svb-remote")
            .enable_all()
            .build()
            .expect("the remote I/O runtime starts")
    })
}

/// `f`, given up at `deadline` (`Err` then): the timer made on the runtime that runs it.
async fn within<F: std::future::Future>(
    deadline: Instant, f: F,
) -> Result<F::Output, tokio::time::error::Elapsed> {
    tokio::time::timeout_at(deadline.into(), f).await
}

/// Runs `f` to its end on the remote runtime. Called from inside an async task (a caller's
/// own runtime), it runs on a thread of its own rather than block that task's executor.
fn block_on<F: std::future::Future + Send>(f: F) -> F::Output
where
    F::Output: Send,
{
    if tokio::runtime::Handle::try_current().is_ok() {
        std::thread::scope(|s| {
            s.spawn(|| runtime().block_on(f)).join().expect("a remote request does not panic")
        })
    } else {
        runtime().block_on(f)
    }
}

struct Settings {
    options: Vec<(String, String)>,
    stores: HashMap<String, Arc<dyn ObjectStore>>,
}

fn settings() -> std::sync::MutexGuard<'static, Settings> {
    static SETTINGS: OnceLock<Mutex<Settings>> = OnceLock::new();
    SETTINGS
        .get_or_init(|| Mutex::new(Settings { options: Vec::new(), stores: HashMap::new() }))
        .lock()
        .unwrap_or_else(|e| e.into_inner())
}

/// Sets the `object_store` configuration keys every store opened from now on is built with,
/// on top of the environment's: e.g. `("skip_signature", "true")` for a public bucket (the
/// AWS CLI's `--no-sign-request`), `("aws_region", "eu-west-2")`, `("aws_endpoint",
/// "http://127.0.0.1:9000")`, `("allow_http", "true")`. A key no store knows is an error when
/// a store is built, naming it.
pub fn set_options<K: Into<String>, V: Into<String>>(options: impl IntoIterator<Item = (K, V)>) {
    let mut s = settings();
    s.options = options.into_iter().map(|(k, v)| (k.into(), v.into())).collect();
    s.stores.clear();
}

/// The configuration keys [`set_options`] set.
pub fn options() -> Vec<(String, String)> {
    settings().options.clone()
}

fn invalid(url: &str, what: impl std::fmt::Display) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, format!("{}: {what}", shown_url(url)))
}

/// Which object `url` names, as its store resolves it: the kind of store, the bucket (or
/// host, with its user part and port) and the object's path with dot segments and
/// percent-encoding resolved, so that `s3://b/./x.pod5`, `s3://b/sub/../x.pod5`,
/// `s3://b/%78.pod5`, `S3://B/x.pod5` and `s3a://b/x.pod5` are all `s3://b/x.pod5`: what
/// [`FileId`](crate::FileId) compares an output with the inputs by.
pub(crate) fn object_identity(url: &str) -> io::Result<String> {
    let parsed = url::Url::parse(url).map_err(|e| invalid(url, format!("not a URL: {e}")))?;
    let (scheme, path) =
        ObjectStoreScheme::parse(&parsed).map_err(|e| invalid(url, format!("{e}")))?;
    let kind = match scheme {
        ObjectStoreScheme::AmazonS3 => "s3",
        ObjectStoreScheme::GoogleCloudStorage => "gs",
        ObjectStoreScheme::MicrosoftAzure => "az",
        ObjectStoreScheme::Http => "http",
        _ => parsed.scheme(),
    };
    let user = match parsed.username() {
        "" => String::new(),
        u => format!("{}@", u.to_ascii_lowercase()),
    };
    let host = parsed.host_str().unwrap_or_default().to_ascii_lowercase();
    let port = parsed.port().map(|p| format!(":{p}")).unwrap_or_default();
    Ok(format!("{kind}://{user}{host}{port}/{path}"))
}

/// The store that holds `url`'s object, and the object's path in it. Stores are kept by
/// scheme and bucket (or host), so their connections are reused.
fn store_for(url: &str) -> io::Result<(Arc<dyn ObjectStore>, ObjectPath, url::Url)> {
    store_of(url, false)
}

/// [`store_for`]; with `create_only`, an S3 store whose multipart uploads complete only where
/// no object is ([`CreateOnly`]), kept beside the other.
fn store_of(
    url: &str, create_only: bool,
) -> io::Result<(Arc<dyn ObjectStore>, ObjectPath, url::Url)> {
    if crate::has_credentials(url) {
        return Err(crate::credentials_refused(url));
    }
    let parsed = url::Url::parse(url).map_err(|e| invalid(url, format!("not a URL: {e}")))?;
    let (scheme, path) =
        ObjectStoreScheme::parse(&parsed).map_err(|e| invalid(url, format!("{e}")))?;
    let key = format!(
        "{}://{}{}",
        parsed.scheme(),
        &parsed[url::Position::BeforeHost..url::Position::AfterPort],
        if create_only { " (create only)" } else { "" }
    );
    let mut s = settings();
    if let Some(store) = s.stores.get(&key) {
        return Ok((store.clone(), path, parsed));
    }
    let retry = retry_config(&s.options);
    let store = build_store(url, &parsed, scheme, &s.options, create_only, retry)?;
    s.stores.insert(key, store.clone());
    Ok((store, path, parsed))
}

/// The store of `scheme` for `url`, under `options` (the storage options), retrying
/// transient failures as `retry` says ([`retry_config`], or none for a web server's listing).
fn build_store(
    url: &str, parsed: &url::Url, scheme: ObjectStoreScheme, options: &[(String, String)],
    create_only: bool, retry: object_store::RetryConfig,
) -> io::Result<Arc<dyn ObjectStore>> {
    use object_store::{aws, azure, gcp, http, ClientConfigKey};
    // TLS through rustls with ring (the build has no aws-lc-rs): the process's provider,
    // unless the program that links us installed its own first (then that one is kept).
    let _ = rustls::crypto::ring::default_provider().install_default();
    let unknown = |key: &str| invalid(url, format!("unknown storage option {key:?}"));
    fn built<S: ObjectStore>(
        url: &str, r: object_store::Result<S>,
    ) -> io::Result<Arc<dyn ObjectStore>> {
        Ok(Arc::new(r.map_err(|e| invalid(url, e))?))
    }
    // The URL up to its path: what the builders parse the bucket, account or host from
    // (never its query, where a signed URL keeps its signature).
    let base = &parsed[..url::Position::AfterPath];
    Ok(match scheme {
        ObjectStoreScheme::AmazonS3 => {
            // Outputs without --force complete only where no object is through the
            // create-only store (`create_only`: If-None-Match on the completion), never by a
            // copy, so the store needs no copy-if-not-exists setting.
            let mut b = aws::AmazonS3Builder::from_env().with_url(base).with_retry(retry.clone());
            for (k, v) in options {
                b = b.with_config(k.to_ascii_lowercase().parse().map_err(|_| unknown(k))?, v);
            }
            b = with_profile(url, b)?;
            if create_only {
                b = b.with_http_connector(CreateOnlyConnector);
            }
            built(url, b.build())?
        }
        ObjectStoreScheme::GoogleCloudStorage => {
            let mut b =
                gcp::GoogleCloudStorageBuilder::from_env().with_url(base).with_retry(retry.clone());
            for (k, v) in options {
                b = b.with_config(k.to_ascii_lowercase().parse().map_err(|_| unknown(k))?, v);
            }
            built(url, b.build())?
        }
        ObjectStoreScheme::MicrosoftAzure => {
            let mut b =
                azure::MicrosoftAzureBuilder::from_env().with_url(base).with_retry(retry.clone());
            for (k, v) in options {
                b = b.with_config(k.to_ascii_lowercase().parse().map_err(|_| unknown(k))?, v);
            }
            built(url, b.build())?
        }
        ObjectStoreScheme::Http => {
            let root = &parsed[..url::Position::BeforePath];
            // A plain `http://` URL is what the user asked for.
            let mut b = http::HttpBuilder::new()
                .with_url(root)
                .with_retry(retry)
                .with_config(ClientConfigKey::AllowHttp, (parsed.scheme() == "http").to_string());
            for (k, v) in options {
                // Another store's keys (`aws_region`, `skip_signature`) mean nothing to a web
                // server; a client key (`timeout`, `allow_http`) applies.
                if let Ok(key) = k.to_ascii_lowercase().parse::<ClientConfigKey>() {
                    b = b.with_config(key, v);
                }
            }
            built(url, b.build())?
        }
        other => return Err(invalid(url, format!("{other:?} URLs are not read"))),
    })
}

/// What one request may take in all, before it is given up: the `timeout` storage option
/// (object_store's client timeout), else object_store's 30 s.
fn request_timeout(options: &[(String, String)]) -> Duration {
    options
        .iter()
        .rev()
        .find(|(k, _)| matches!(k.to_ascii_lowercase().as_str(), "timeout" | "aws_timeout"))
        .and_then(|(_, v)| duration(v))
        .unwrap_or(Duration::from_secs(30))
}

/// A duration as the storage options write it: `30s`, `500ms`, `2m`, or seconds.
fn duration(v: &str) -> Option<Duration> {
    let v = v.trim();
    let split = v.find(|c: char| !c.is_ascii_digit() && c != '.').unwrap_or(v.len());
    let n: f64 = v[..split].parse().ok()?;
    let secs = match v[split..].trim() {
        "" | "s" | "sec" | "secs" | "second" | "seconds" => n,
        "ms" => n / 1e3,
        "m" | "min" | "mins" | "minute" | "minutes" => n * 60.0,
        _ => return None,
    };
    (secs.is_finite() && secs >= 0.0).then(|| Duration::from_secs_f64(secs))
}

/// Retries of transient failures (resets, 5xx, 429) for at most half a request's time
/// ([`request_timeout`]), so that a server that answers nothing is given up within
/// [`open_budget`], not after object_store's three minutes of retries.
fn retry_config(options: &[(String, String)]) -> object_store::RetryConfig {
    object_store::RetryConfig { retry_timeout: request_timeout(options) / 2, ..Default::default() }
}

/// What opening an object may take in all (1.5 requests' time: its two first ranges, and a
/// metadata request where they are not answered as asked): 45 s by default, a server that
/// answers nothing named then.
fn open_budget(options: &[(String, String)]) -> Duration {
    request_timeout(options) * 3 / 2
}

/// `b` with what the AWS CLI's profile gives (`~/.aws/config` and `~/.aws/credentials`, or
/// the files and profile the environment names: [`crate::aws_profile`]) where the
/// environment and the storage options set nothing: keys, region, endpoint, web identity,
/// or credentials from its `credential_process`. Nothing is read for a store that signs no
/// request (`--no-sign-request`).
fn with_profile(
    url: &str, mut b: object_store::aws::AmazonS3Builder,
) -> io::Result<object_store::aws::AmazonS3Builder> {
    use object_store::aws::AmazonS3ConfigKey as Key;
    let set = |b: &object_store::aws::AmazonS3Builder, k: &Key| b.get_config_value(k).is_some();
    if b.get_config_value(&Key::SkipSignature).is_some_and(|v| v.eq_ignore_ascii_case("true")) {
        return Ok(b);
    }
    let Some(profile) = crate::aws_profile::from_env().map_err(|e| invalid(url, e))? else {
        return Ok(b);
    };
    let had_keys = set(&b, &Key::AccessKeyId);
    for (k, v) in &profile.settings {
        let key: Key = k.parse().map_err(|_| invalid(url, format!("profile key {k}")))?;
        let credential = matches!(key, Key::AccessKeyId | Key::SecretAccessKey | Key::Token);
        // The environment's keys come whole or not at all: never a profile's secret with
        // the environment's key id.
        let taken = set(&b, &key) || (credential && had_keys);
        if !taken {
            b = b.with_config(key, v);
        }
    }
    let signs_in = set(&b, &Key::AccessKeyId) || set(&b, &Key::WebIdentityTokenFile);
    if let (Some(command), false) = (&profile.process, signs_in) {
        b = b.with_credentials(Arc::new(crate::aws_profile::ProcessCredentials::new(
            command.clone(),
        )));
    }
    Ok(b)
}

/// The transport of an S3 store that writes objects only where none is: a multipart
/// upload's completion (`POST ?uploadId=`) is sent with `If-None-Match: *`, which S3 refuses
/// (412) where an object stands at the key. object_store 0.14 completes its uploads
/// unconditionally; its own conditional copy sends this header on this request the same way
/// (unsigned, after signing), so an upload completed here has the guarantee that copy had,
/// without the copy (a second write of every byte, at most 5 GiB).
#[derive(Debug, Default)]
struct CreateOnlyConnector;

impl object_store::client::HttpConnector for CreateOnlyConnector {
    fn connect(
        &self, options: &object_store::ClientOptions,
    ) -> object_store::Result<object_store::client::HttpClient> {
        let inner = object_store::client::ReqwestConnector::default().connect(options)?;
        Ok(object_store::client::HttpClient::new(CreateOnly(inner)))
    }
}

/// The service of [`CreateOnlyConnector`].
#[derive(Debug)]
struct CreateOnly(object_store::client::HttpClient);

/// Whether a request is a multipart upload's completion.
fn completes_upload(method: &http::Method, uri: &http::Uri) -> bool {
    method == http::Method::POST
        && uri.query().is_some_and(|q| q.split('&').any(|p| p.starts_with("uploadId=")))
}

#[async_trait::async_trait]
impl object_store::client::HttpService for CreateOnly {
    async fn call(
        &self, mut request: object_store::client::HttpRequest,
    ) -> Result<object_store::client::HttpResponse, object_store::client::HttpError> {
        if completes_upload(request.method(), request.uri()) {
            request
                .headers_mut()
                .insert(http::header::IF_NONE_MATCH, http::HeaderValue::from_static("*"));
        }
        self.0.execute(request).await
    }
}

/// An `object_store` error as an I/O error of the matching kind (the URL is the caller's to
/// name: every reader's error names the path it was given).
fn io_error(e: object_store::Error) -> io::Error {
    match e {
        object_store::Error::NotFound { .. } => {
            io::Error::new(io::ErrorKind::NotFound, "no such object")
        }
        object_store::Error::Precondition { .. } => io::Error::other(
            "the object changed while it was being read (its ETag or version differs from \
             the one opened): nothing of the new version was used; read it again",
        ),
        other => io::Error::other(other),
    }
}

/// Which version of the object every request asks for: its ETag, or the store's version id;
/// where the server gives neither (many plain web servers), its modification time (to the
/// second, `Last-Modified`) and its size, which every answer must have.
#[derive(Clone, Debug)]
struct Version {
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
struct Kept {
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

/// The URLs of the objects under `prefix_url` (a "directory": `s3://bucket/run/`), in name
/// order: every object below it with `recursive`, else those directly in it.
pub fn list(prefix_url: &str, recursive: bool) -> io::Result<Vec<String>> {
    let (mut store, prefix, parsed) = store_for(prefix_url)?;
    let web = matches!(parsed.scheme(), "http" | "https");
    if web {
        // A web server lists through WebDAV's PROPFIND or not at all: asked once, no retries
        // of a plain server's 501.
        let options = settings().options.clone();
        let once = object_store::RetryConfig { max_retries: 0, ..retry_config(&options) };
        let http = ObjectStoreScheme::Http;
        store = build_store(prefix_url, &parsed, http, &options, false, once)?;
    }
    let prefix = (!prefix.as_ref().is_empty()).then_some(prefix);
    let metas = block_on(async {
        if recursive {
            let mut out = Vec::new();
            let mut listing = store.list(prefix.as_ref());
            count(1, 0);
            while let Some(m) = listing.next().await {
                out.push(m?);
            }
            Ok(out)
        } else {
            count(1, 0);
            store.list_with_delimiter(prefix.as_ref()).await.map(|l| l.objects)
        }
    })
    .map_err(|e| {
        let e = io_error(e);
        if web {
            // Its answer, without the HTML page a plain server sends with it.
            let said = e.to_string();
            let said = said.lines().next().unwrap_or_default();
            let said = said.rsplit_once("status code: ").map_or(said, |(_, s)| s);
            let said = said.split(':').next().unwrap_or(said).trim();
            return io::Error::new(
                e.kind(),
                format!(
                    "listing it: this web server does not list its files (WebDAV PROPFIND \
                     answered {}): name the files, or use an object store's URL (s3://, gs://, \
                     az://), which lists",
                    crate::excerpt(said, 80)
                ),
            );
        }
        io::Error::new(e.kind(), format!("listing it: {e}"))
    })?;
    let mut urls: Vec<String> =
        metas.into_iter().map(|m| object_url(&parsed, prefix.as_ref(), &m.location)).collect();
    urls.sort();
    Ok(urls)
}

/// The URL of the object at `path` in the store that `base`, the URL of `prefix` in it,
/// names: `base` up to where its object path starts, then `path`.
fn object_url(base: &url::Url, prefix: Option<&ObjectPath>, path: &ObjectPath) -> String {
    let full = &base[..url::Position::AfterPath];
    let full = full.strip_suffix('/').unwrap_or(full);
    let root = match prefix {
        Some(p) => full.strip_suffix(p.as_ref()).unwrap_or(full),
        None => full,
    };
    let root = root.strip_suffix('/').unwrap_or(root);
    format!("{root}/{path}")
}

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
fn parts(parts: Parts) -> object_store::WriteMultipart {
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
enum Publish {
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

#[cfg(test)]
mod tests {
    /// Only a multipart upload's completion is made conditional: not its creation
    /// (`POST ?uploads`), its parts (`PUT ?partNumber=..&uploadId=..`), a batch delete.
    #[test]
    fn only_completions_are_made_conditional() {
        use http::Method;
        let is = |m: Method, uri: &str| super::completes_upload(&m, &uri.parse().unwrap());
        assert!(is(Method::POST, "http://h/b/k.pod5?uploadId=abc"));
        assert!(is(Method::POST, "https://b.s3.amazonaws.com/k?x=1&uploadId=abc"));
        assert!(!is(Method::POST, "http://h/b/k.pod5?uploads"));
        assert!(!is(Method::PUT, "http://h/b/k.pod5?partNumber=1&uploadId=abc"));
        assert!(!is(Method::POST, "http://h/b?delete"));
        assert!(!is(Method::POST, "http://h/b/uploadId=k"));
    }
}
