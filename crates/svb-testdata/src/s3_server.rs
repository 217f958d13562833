//! An S3-compatible server for tests: moto's standalone server (`pip install
//! "moto[server]"`, which s3fs and fsspec test against), started on a free port of
//! 127.0.0.1 and stopped when dropped; buckets and objects put with plain requests (moto
//! checks no signature).

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running moto server.
pub struct S3Server {
    child: Child,
    port: u16,
}

impl S3Server {
    /// Starts `moto_server` (`$MOTO_SERVER`, else `moto_server` on the `PATH`). Without it:
    /// `None` after printing one "skipped" line, or a panic under `CI=true`, where every
    /// server the tests use must start.
    pub fn start() -> Option<S3Server> {
        let program = std::env::var("MOTO_SERVER").unwrap_or_else(|_| "moto_server".into());
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let child = Command::new(&program)
            .args(["-H", "127.0.0.1", "-p", &port.to_string()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn();
        let Ok(child) = child else {
            let ci = std::env::var("CI").is_ok_and(|v| v == "true");
            assert!(
                !ci,
                "CI=true needs {program} (pip install \"moto[server]\")"
            );
            println!("skipped: {program} not found (pip install \"moto[server]\")");
            return None;
        };
        let server = S3Server { child, port };
        let deadline = Instant::now() + Duration::from_secs(60);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "{program} did not start in 60 s");
            std::thread::sleep(Duration::from_millis(100));
        }
        Some(server)
    }

    /// The endpoint URL (`AWS_ENDPOINT_URL`).
    pub fn endpoint(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// The environment a client needs to reach this server: endpoint, plain HTTP, a region
    /// and dummy credentials (moto accepts any).
    pub fn env(&self) -> Vec<(&'static str, String)> {
        vec![
            ("AWS_ENDPOINT_URL", self.endpoint()),
            ("AWS_ALLOW_HTTP", "true".into()),
            ("AWS_REGION", "us-east-1".into()),
            ("AWS_ACCESS_KEY_ID", "testing".into()),
            ("AWS_SECRET_ACCESS_KEY", "testing".into()),
        ]
    }

    /// Sends one request; returns its status code.
    fn request(&self, method: &str, path: &str, headers: &str, body: &[u8]) -> u16 {
        let mut c = TcpStream::connect(("127.0.0.1", self.port)).expect("moto answers");
        write!(
            c,
            "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Length: {}\r\n\
             {headers}Connection: close\r\n\r\n",
            self.port,
            body.len()
        )
        .expect("request sent");
        c.write_all(body).expect("body sent");
        let mut answer = String::new();
        let _ = c.read_to_string(&mut answer);
        answer
            .split_whitespace()
            .nth(1)
            .and_then(|code| code.parse().ok())
            .unwrap_or(0)
    }

    /// Creates `bucket`.
    pub fn create_bucket(&self, bucket: &str) {
        let code = self.request("PUT", &format!("/{bucket}"), "", b"");
        assert_eq!(code, 200, "moto: creating bucket {bucket}");
    }

    /// Puts `bytes` at `bucket/key`, readable by anyone (as a public bucket's objects are:
    /// unsigned requests read them).
    pub fn put(&self, bucket: &str, key: &str, bytes: &[u8]) {
        let public = "x-amz-acl: public-read\r\n";
        let code = self.request("PUT", &format!("/{bucket}/{key}"), public, bytes);
        assert_eq!(code, 200, "moto: putting {bucket}/{key}");
    }
}

impl Drop for S3Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
