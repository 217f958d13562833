//! A web server for tests: serves a folder's files on 127.0.0.1 with HTTP/1.1 range requests
//! (`bytes=a-b`, `bytes=a-`, `bytes=-n`), `HEAD`, an `ETag` of each file's content and
//! `If-Match`, as object stores and static file servers answer them (no listing: other methods
//! are 501); and faults on demand
//! ([`Faults`]): 503 and 429 answers, bodies cut short, connections dropped, a wrong
//! `Content-Range`, a delay. It counts the requests and body bytes it serves.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Faults the server injects, each into the next `n` GET requests it answers (counted down).
#[derive(Default, Debug)]
pub struct Faults {
    /// Answer `503 Service Unavailable`.
    pub unavailable: AtomicU64,
    /// Answer `429 Too Many Requests` (S3's SlowDown).
    pub too_many: AtomicU64,
    /// Send the headers and half the body, then close the connection.
    pub cut_body: AtomicU64,
    /// Close the connection without an answer.
    pub drop_connection: AtomicU64,
    /// Answer a range other than the one asked for (one byte later), with its bytes.
    pub wrong_range: AtomicU64,
    /// Ignore the range and send the whole file with `200 OK`.
    pub ignore_range: AtomicU64,
    /// Answer with a body that never ends (chunked, the range's bytes then zeros forever),
    /// until the client hangs up.
    pub endless_body: AtomicU64,
    /// Declare a body of 2^50 bytes (`Content-Length`) for the range asked, and send the
    /// range's bytes, then zeros until the client hangs up.
    pub huge_length: AtomicU64,
    /// Redirect to the same URL (a loop).
    pub redirect_loop: AtomicU64,
    /// Delay every answer by this many milliseconds (not counted down).
    pub delay_ms: AtomicU64,
    /// Answer without an `ETag` (as many plain web servers do; not counted down): the
    /// file's `Last-Modified` and size are all a client can tell a version by.
    pub no_etag: AtomicBool,
}

fn take(n: &AtomicU64) -> bool {
    n.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |v| v.checked_sub(1)).is_ok()
}

/// What the server has answered.
#[derive(Default, Debug)]
pub struct Served {
    /// Requests answered (every method, faults included).
    pub requests: AtomicU64,
    /// GET requests answered with a range (206).
    pub ranges: AtomicU64,
    /// Body bytes sent.
    pub bytes: AtomicU64,
    /// Each request's method, path and range header, in order.
    pub log: Mutex<Vec<String>>,
    /// When each request of `log` arrived.
    pub arrived: Mutex<Vec<std::time::Instant>>,
    /// Each request's `Authorization` header (empty where it had none), in the order of
    /// `log`: what credentials a client signed with.
    pub authorization: Mutex<Vec<String>>,
    /// Bodies sent at this many bytes a second at most, all connections together (0: no
    /// cap): a link's bandwidth.
    pub bytes_per_second: AtomicU64,
    /// Held while a slice of a body is sent under the cap.
    link: crate::link::Link,
}

/// A running server; it stops when dropped.
pub struct HttpServer {
    root: PathBuf,
    port: u16,
    stop: Arc<AtomicBool>,
    /// The faults to inject.
    pub faults: Arc<Faults>,
    /// What it has served.
    pub served: Arc<Served>,
}

impl HttpServer {
    /// Serves the files under `root` on a free port of 127.0.0.1.
    pub fn start(root: impl Into<PathBuf>) -> HttpServer {
        let root = root.into();
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
        let port = listener.local_addr().expect("bound").port();
        let stop = Arc::new(AtomicBool::new(false));
        let faults = Arc::new(Faults::default());
        let served = Arc::new(Served::default());
        let (r, s, f, sv) = (root.clone(), stop.clone(), faults.clone(), served.clone());
        std::thread::spawn(move || {
            for conn in listener.incoming() {
                if s.load(Ordering::SeqCst) {
                    break;
                }
                let Ok(conn) = conn else { continue };
                let (r, f, sv) = (r.clone(), f.clone(), sv.clone());
                std::thread::spawn(move || {
                    let _ = serve_connection(conn, &r, &f, &sv);
                });
            }
        });
        HttpServer { root, port, stop, faults, served }
    }

    /// The URL of `relative` (a path under the served folder).
    pub fn url(&self, relative: &str) -> String {
        format!("http://127.0.0.1:{}/{relative}", self.port)
    }

    /// The folder served.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Requests answered so far.
    pub fn requests(&self) -> u64 {
        self.served.requests.load(Ordering::SeqCst)
    }

    /// Body bytes sent so far.
    pub fn bytes(&self) -> u64 {
        self.served.bytes.load(Ordering::SeqCst)
    }

    /// The sequential round trips among the requests since the `since`-th: with every answer
    /// delayed ([`Faults::delay_ms`]), requests sent together arrive together, and each
    /// that arrives more than `gap` after the first of its group starts a new one (a request
    /// sent once an answer came). `gap` must be well under the delay.
    pub fn round_trips(&self, since: usize, gap: Duration) -> usize {
        let arrived = self.served.arrived.lock().unwrap();
        let mut waves = 0;
        let mut first: Option<std::time::Instant> = None;
        for &t in arrived.iter().skip(since) {
            if first.is_none_or(|f| t.duration_since(f) > gap) {
                waves += 1;
                first = Some(t);
            }
        }
        waves
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wakes the accept loop so that it sees the flag.
        let _ = TcpStream::connect(("127.0.0.1", self.port));
    }
}

/// The ETag of a file of `len` bytes last modified at `modified` (as static file servers
/// make it: a file rewritten gets another).
fn etag(len: u64, modified: Option<std::time::SystemTime>) -> String {
    let ns = modified
        .and_then(|m| m.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_nanos());
    format!("\"{len:x}-{ns:x}\"")
}

/// `t` as an HTTP date (`Wed, 01 Jan 2025 00:00:00 GMT`), to the second.
fn http_date(t: std::time::SystemTime) -> String {
    chrono::DateTime::<chrono::Utc>::from(t).format("%a, %d %b %Y %H:%M:%S GMT").to_string()
}

/// `n` bytes of `f` at `at`.
fn read_range(f: &mut std::fs::File, at: u64, n: u64) -> std::io::Result<Vec<u8>> {
    use std::io::{Read, Seek};
    f.seek(std::io::SeekFrom::Start(at))?;
    let mut bytes = vec![0u8; n as usize];
    f.read_exact(&mut bytes)?;
    Ok(bytes)
}

fn serve_connection(
    conn: TcpStream, root: &Path, faults: &Faults, served: &Served,
) -> std::io::Result<()> {
    conn.set_read_timeout(Some(Duration::from_secs(30)))?;
    let mut reader = BufReader::new(conn.try_clone()?);
    let mut out = conn;
    // The request before asked for the connection to close after its answer.
    let mut closing = false;
    loop {
        if closing {
            return Ok(());
        }
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 {
            return Ok(());
        }
        let mut parts = line.split_whitespace();
        let method = parts.next().unwrap_or("").to_string();
        let target = parts.next().unwrap_or("/").to_string();
        let mut range = None;
        let mut if_match = None;
        let mut unmodified_since = None;
        let mut authorization = String::new();
        let mut close = false;
        loop {
            let mut h = String::new();
            if reader.read_line(&mut h)? == 0 {
                return Ok(());
            }
            let h = h.trim_end();
            if h.is_empty() {
                break;
            }
            if let Some((k, v)) = h.split_once(':') {
                match k.trim().to_ascii_lowercase().as_str() {
                    "range" => range = Some(v.trim().to_string()),
                    "if-match" => if_match = Some(v.trim().to_string()),
                    "authorization" => authorization = v.trim().to_string(),
                    "if-unmodified-since" => unmodified_since = Some(v.trim().to_string()),
                    "connection" => close = v.trim().eq_ignore_ascii_case("close"),
                    _ => {}
                }
            }
        }
        closing = close;
        served.requests.fetch_add(1, Ordering::SeqCst);
        let mut log = served.log.lock().unwrap();
        log.push(format!("{method} {target} {}", range.as_deref().unwrap_or("-")));
        served.arrived.lock().unwrap().push(std::time::Instant::now());
        served.authorization.lock().unwrap().push(authorization);
        drop(log);
        let delay = faults.delay_ms.load(Ordering::SeqCst);
        if delay > 0 {
            std::thread::sleep(Duration::from_millis(delay));
        }
        // A plain web server: GET and HEAD; anything else (WebDAV's PROPFIND) is 501 with an
        // HTML page, as Python's http.server and most static servers answer it.
        if method != "GET" && method != "HEAD" {
            let page =
                b"<!DOCTYPE HTML>\n<html><body><h1>Error response</h1>\n<p>501</p></body></html>\n";
            respond(&mut out, "501 Not Implemented", &[], page, false, served)?;
            continue;
        }
        let path = target.split('?').next().unwrap_or("/");
        let file = root.join(path.trim_start_matches('/'));
        let opened = if path.contains("..") {
            None
        } else {
            std::fs::File::open(&file)
                .and_then(|f| f.metadata().map(|m| (f, m)))
                .ok()
                .filter(|(_, m)| m.is_file())
        };
        let Some((mut f, meta)) = opened else {
            respond(&mut out, "404 Not Found", &[], b"", method == "HEAD", served)?;
            continue;
        };
        let len = meta.len();
        let tag = etag(len, meta.modified().ok());
        let modified = http_date(meta.modified().unwrap_or(std::time::UNIX_EPOCH));
        let mut base = vec![format!("Last-Modified: {modified}"), "Accept-Ranges: bytes".into()];
        let no_etag = faults.no_etag.load(Ordering::SeqCst);
        if !no_etag {
            base.push(format!("ETag: {tag}"));
        }
        // A version asked for by its date: this one, or 412.
        if unmodified_since.as_deref().is_some_and(|d| d != modified) {
            respond(&mut out, "412 Precondition Failed", &[], b"", method == "HEAD", served)?;
            continue;
        }
        if method == "GET" {
            if take(&faults.drop_connection) {
                return Ok(());
            }
            if take(&faults.unavailable) {
                respond(&mut out, "503 Service Unavailable", &[], b"busy", false, served)?;
                continue;
            }
            if take(&faults.redirect_loop) {
                let headers = [format!("Location: {target}")];
                respond(&mut out, "302 Found", &headers, b"", false, served)?;
                continue;
            }
            if take(&faults.too_many) {
                respond(&mut out, "429 Too Many Requests", &[], b"SlowDown", false, served)?;
                continue;
            }
        }
        if if_match.as_deref().is_some_and(|m| m != tag && m != "*") {
            respond(&mut out, "412 Precondition Failed", &[], b"", method == "HEAD", served)?;
            continue;
        }
        let asked = match range.as_deref().map(|r| parse_range(r, len)) {
            None => None,
            Some(Some(r)) if !(method == "GET" && take(&faults.ignore_range)) => Some(r),
            Some(Some(_)) => None,
            Some(None) => {
                let headers = [format!("Content-Range: bytes */{len}")];
                respond(&mut out, "416 Range Not Satisfiable", &headers, b"", false, served)?;
                continue;
            }
        };
        let head = method == "HEAD";
        match asked {
            None => {
                let bytes = if head { Vec::new() } else { read_range(&mut f, 0, len)? };
                let headers = base.to_vec();
                respond_len(&mut out, "200 OK", &headers, len, &bytes, head, served)?;
            }
            Some((mut a, mut b)) => {
                if method == "GET" && take(&faults.wrong_range) && b + 1 < len {
                    a += 1;
                    b += 1;
                }
                let mut headers = base.to_vec();
                headers.push(format!("Content-Range: bytes {a}-{b}/{len}"));
                let body = &read_range(&mut f, a, b + 1 - a)?[..];
                if method == "GET" && take(&faults.endless_body) {
                    write!(
                        out,
                        "HTTP/1.1 206 Partial Content\r\nTransfer-Encoding: chunked\r\n{}\r\n\r\n",
                        headers.join("\r\n")
                    )?;
                    write!(out, "{:x}\r\n", body.len())?;
                    out.write_all(body)?;
                    out.write_all(b"\r\n")?;
                    let zeros = vec![0u8; 1 << 16];
                    loop {
                        write!(out, "{:x}\r\n", zeros.len())?;
                        out.write_all(&zeros)?;
                        out.write_all(b"\r\n")?;
                    }
                }
                if method == "GET" && take(&faults.huge_length) {
                    write!(
                        out,
                        "HTTP/1.1 206 Partial Content\r\nContent-Length: {}\r\n{}\r\n\r\n",
                        1u64 << 50,
                        headers.join("\r\n")
                    )?;
                    out.write_all(body)?;
                    let zeros = vec![0u8; 1 << 16];
                    loop {
                        out.write_all(&zeros)?;
                    }
                }
                if method == "GET" && take(&faults.cut_body) {
                    write!(
                        out,
                        "HTTP/1.1 206 Partial Content\r\nContent-Length: {}\r\n{}\r\n\r\n",
                        body.len(),
                        headers.join("\r\n")
                    )?;
                    out.write_all(&body[..body.len() / 2])?;
                    out.flush()?;
                    return Ok(());
                }
                served.ranges.fetch_add(1, Ordering::SeqCst);
                respond(&mut out, "206 Partial Content", &headers, body, head, served)?;
            }
        }
    }
}

/// `(first, last)` byte of a `bytes=` range header for a file of `len` bytes; `None` when it
/// cannot be satisfied.
fn parse_range(header: &str, len: u64) -> Option<(u64, u64)> {
    let spec = header.strip_prefix("bytes=")?;
    let (a, b) = spec.split_once('-')?;
    if a.is_empty() {
        let n: u64 = b.parse().ok()?;
        if n == 0 || len == 0 {
            return None;
        }
        return Some((len.saturating_sub(n), len - 1));
    }
    let a: u64 = a.parse().ok()?;
    if a >= len {
        return None;
    }
    let b = if b.is_empty() { len - 1 } else { b.parse::<u64>().ok()?.min(len - 1) };
    (a <= b).then_some((a, b))
}

fn respond(
    out: &mut TcpStream, status: &str, headers: &[String], body: &[u8], head: bool, served: &Served,
) -> std::io::Result<()> {
    respond_len(out, status, headers, body.len() as u64, body, head, served)
}

/// An answer whose `Content-Length` is `len` (`body` is sent unless `head`).
fn respond_len(
    out: &mut TcpStream, status: &str, headers: &[String], len: u64, body: &[u8], head: bool,
    served: &Served,
) -> std::io::Result<()> {
    let mut text = format!("HTTP/1.1 {status}\r\nContent-Length: {len}\r\n");
    for h in headers {
        text.push_str(h);
        text.push_str("\r\n");
    }
    text.push_str("\r\n");
    out.write_all(text.as_bytes())?;
    if !head {
        let rate = served.bytes_per_second.load(Ordering::SeqCst);
        served.link.send(out, body, rate)?;
        served.bytes.fetch_add(body.len() as u64, Ordering::SeqCst);
    }
    out.flush()
}

#[cfg(test)]
mod tests {

    #[test]
    fn http_dates_are_the_calendar() {
        let at =
            |s: u64| super::http_date(std::time::UNIX_EPOCH + std::time::Duration::from_secs(s));
        assert_eq!(at(1_735_689_600), "Wed, 01 Jan 2025 00:00:00 GMT");
        assert_eq!(at(0), "Thu, 01 Jan 1970 00:00:00 GMT");
        assert_eq!(at(951_782_400 + 3_723), "Tue, 29 Feb 2000 01:02:03 GMT");
    }
    use super::*;
    use std::io::Read;

    fn get(port: u16, path: &str, range: Option<&str>) -> String {
        let mut c = TcpStream::connect(("127.0.0.1", port)).unwrap();
        let range = range.map(|r| format!("Range: {r}\r\n")).unwrap_or_default();
        write!(c, "GET {path} HTTP/1.1\r\nHost: x\r\n{range}Connection: close\r\n\r\n").unwrap();
        c.shutdown(std::net::Shutdown::Write).unwrap();
        let mut s = String::new();
        c.read_to_string(&mut s).unwrap();
        s
    }

    #[test]
    fn answers_ranges_as_servers_do() {
        let dir = std::env::temp_dir().join(format!("svb-http-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("f"), b"0123456789").unwrap();
        let server = HttpServer::start(&dir);
        let port = server.port;
        let r = get(port, "/f", Some("bytes=2-4"));
        assert!(r.starts_with("HTTP/1.1 206"), "{r}");
        assert!(r.contains("Content-Range: bytes 2-4/10") && r.ends_with("234"), "{r}");
        assert!(get(port, "/f", Some("bytes=-3")).ends_with("789"));
        assert!(get(port, "/f", Some("bytes=8-")).ends_with("89"));
        assert!(get(port, "/f", Some("bytes=10-")).starts_with("HTTP/1.1 416"));
        assert!(get(port, "/f", None).ends_with("0123456789"));
        assert!(get(port, "/g", None).starts_with("HTTP/1.1 404"));
        server.faults.unavailable.store(1, Ordering::SeqCst);
        assert!(get(port, "/f", None).starts_with("HTTP/1.1 503"));
        assert!(get(port, "/f", None).starts_with("HTTP/1.1 200"));
        assert_eq!(server.requests(), 8);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
