//! A storage server the tests start as a process of its own (moto, fake-gcs-server,
//! Azurite): on a free port of 127.0.0.1, waited for until it listens, asked plain HTTP
//! requests, and stopped when dropped.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running server process.
pub struct ServerProcess {
    child: Child,
    /// The port it listens on.
    pub port: u16,
}

impl ServerProcess {
    /// Starts the program `$VAR`, else `default` on the `PATH`, with the arguments `args`
    /// gives for a free port. Without it: `None` after printing one "skipped" line saying
    /// how to `install` it, or a panic under `CI=true`, where every server the tests use must
    /// start.
    pub fn start(
        var: &str, default: &str, install: &str, args: impl FnOnce(u16) -> Vec<std::ffi::OsString>,
    ) -> Option<ServerProcess> {
        let program = std::env::var(var).unwrap_or_else(|_| default.into());
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let child = Command::new(&program)
            .args(args(port))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn();
        let Ok(child) = child else {
            let ci = std::env::var("CI").is_ok_and(|v| v == "true");
            assert!(!ci, "CI=true needs {program} ({install})");
            println!("skipped: {program} not found ({install})");
            return None;
        };
        let server = ServerProcess { child, port };
        let deadline = Instant::now() + Duration::from_secs(60);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "{program} did not start in 60 s");
            std::thread::sleep(Duration::from_millis(100));
        }
        Some(server)
    }

    /// Its address, `http://127.0.0.1:PORT`.
    pub fn endpoint(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    /// Sends one request (`headers`: whole lines, each ending in CRLF); returns the answer's
    /// status line and the rest of it.
    pub fn request(&self, method: &str, target: &str, headers: &str, body: &[u8]) -> String {
        let mut c = TcpStream::connect(("127.0.0.1", self.port)).expect("the server answers");
        write!(
            c,
            "{method} {target} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Length: {}\r\n\
             {headers}Connection: close\r\n\r\n",
            self.port,
            body.len()
        )
        .expect("request sent");
        c.write_all(body).expect("body sent");
        let mut answer = String::new();
        let _ = c.read_to_string(&mut answer);
        answer
    }

    /// The status code of `answer` (0 when it has none).
    pub fn status(answer: &str) -> u16 {
        answer.split_whitespace().nth(1).and_then(|code| code.parse().ok()).unwrap_or(0)
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
