//! What every request to a store shares: the runtime they run on, their count
//! ([`traffic`]), the options stores are built with ([`set_options`]) and the errors they end
//! in.

use crate::location::shown_url;
use object_store::ObjectStore;
use std::collections::HashMap;
use std::io;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

/// The most bytes of fetched ranges an open object keeps (64 MiB): small reads' ranges,
/// planned ranges, and a scan's ranges fetched ahead.
pub const CACHE_BYTES: usize = 64 << 20;

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

pub(crate) fn count(requests: u64, bytes: u64) {
    REQUESTS.fetch_add(requests, Ordering::Relaxed);
    BYTES.fetch_add(bytes, Ordering::Relaxed);
}

/// The runtime the requests run on (two I/O threads; each caller blocks on its own
/// requests, so rayon's threads each keep theirs in flight).
pub(crate) fn runtime() -> &'static tokio::runtime::Runtime {
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
pub(crate) async fn within<F: std::future::Future>(
    deadline: Instant, f: F,
) -> Result<F::Output, tokio::time::error::Elapsed> {
    tokio::time::timeout_at(deadline.into(), f).await
}

/// Runs `f` to its end on the remote runtime. Called from inside an async task (a caller's
/// own runtime), it runs on a thread of its own rather than block that task's executor.
pub(crate) fn block_on<F: std::future::Future + Send>(f: F) -> F::Output
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

pub(crate) struct Settings {
    pub(crate) options: Vec<(String, String)>,
    pub(crate) stores: HashMap<String, Arc<dyn ObjectStore>>,
}

pub(crate) fn settings() -> std::sync::MutexGuard<'static, Settings> {
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

pub(crate) fn invalid(url: &str, what: impl std::fmt::Display) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, format!("{}: {what}", shown_url(url)))
}

/// An `object_store` error as an I/O error of the matching kind (the URL is the caller's to
/// name: every reader's error names the path it was given).
pub(crate) fn io_error(e: object_store::Error) -> io::Error {
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
