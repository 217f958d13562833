//! A Google Cloud Storage server for tests: fsouza's fake-gcs-server (`go install
//! github.com/fsouza/fake-gcs-server@v1.56.1`, which object_store's own GCS tests run
//! against), started on a free port of 127.0.0.1 over plain HTTP with the objects of a local
//! folder (`ROOT/BUCKET/KEY`) loaded, and stopped when dropped. It serves the JSON API's reads
//! and listings; it has no XML API, through which object_store writes, so outputs to `gs://`
//! are not tried against it.

use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running fake-gcs-server.
pub struct GcsServer {
    child: Child,
    port: u16,
}

impl GcsServer {
    /// Starts `fake-gcs-server` (`$FAKE_GCS_SERVER`, else `fake-gcs-server` on the `PATH`)
    /// serving the buckets that are the folders of `root`. Without it: `None` after printing
    /// one "skipped" line, or a panic under `CI=true`, where every server the tests use must
    /// start.
    pub fn start(root: &Path) -> Option<GcsServer> {
        let program = std::env::var("FAKE_GCS_SERVER").unwrap_or_else(|_| "fake-gcs-server".into());
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let child = Command::new(&program)
            .args([
                "-scheme",
                "http",
                "-host",
                "127.0.0.1",
                "-backend",
                "memory",
            ])
            .args(["-port", &port.to_string()])
            .args(["-public-host", &format!("127.0.0.1:{port}")])
            .arg("-data")
            .arg(root)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn();
        let Ok(child) = child else {
            let ci = std::env::var("CI").is_ok_and(|v| v == "true");
            let install = "go install github.com/fsouza/fake-gcs-server@v1.56.1";
            assert!(!ci, "CI=true needs {program} ({install})");
            println!("skipped: {program} not found ({install})");
            return None;
        };
        let server = GcsServer { child, port };
        let deadline = Instant::now() + Duration::from_secs(60);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "{program} did not start in 60 s");
            std::thread::sleep(Duration::from_millis(100));
        }
        Some(server)
    }

    /// The environment a client needs to reach this server: its address
    /// (`GOOGLE_BASE_URL`) and a service account that asks for no token.
    pub fn env(&self) -> Vec<(&'static str, String)> {
        vec![
            ("GOOGLE_BASE_URL", format!("http://127.0.0.1:{}", self.port)),
            (
                "GOOGLE_SERVICE_ACCOUNT_KEY",
                r#"{"private_key": "none", "private_key_id": "none", "client_email": "none", "disable_oauth": true}"#
                    .into(),
            ),
        ]
    }
}

impl Drop for GcsServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
