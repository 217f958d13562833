//! A Google Cloud Storage server for tests: fsouza's fake-gcs-server (`go install
//! github.com/fsouza/fake-gcs-server@v1.56.1`, which object_store's own GCS tests run
//! against), started on a free port of 127.0.0.1 over plain HTTP with the objects of a local
//! folder (`ROOT/BUCKET/KEY`) loaded, and stopped when dropped. It serves the JSON API's reads
//! and listings; it has no XML API, through which object_store writes, so outputs to `gs://`
//! are not tried against it.

use std::path::Path;

use crate::server_process::ServerProcess;

/// A running fake-gcs-server.
pub struct GcsServer(ServerProcess);

impl GcsServer {
    /// Starts `fake-gcs-server` (`$FAKE_GCS_SERVER`, else `fake-gcs-server` on the `PATH`)
    /// serving the buckets that are the folders of `root`. Without it: `None` after printing
    /// one "skipped" line, or a panic under `CI=true`, where every server the tests use must
    /// start.
    pub fn start(root: &Path) -> Option<GcsServer> {
        let args = |port: u16| {
            let mut args: Vec<std::ffi::OsString> =
                ["-scheme", "http", "-host", "127.0.0.1", "-backend", "memory"]
                    .map(Into::into)
                    .into();
            args.extend(["-port".into(), port.to_string().into()]);
            args.extend(["-public-host".into(), format!("127.0.0.1:{port}").into()]);
            args.extend(["-data".into(), root.into()]);
            args
        };
        let install = "go install github.com/fsouza/fake-gcs-server@v1.56.1";
        ServerProcess::start("FAKE_GCS_SERVER", "fake-gcs-server", install, args).map(GcsServer)
    }

    /// The environment a client needs to reach this server: its address
    /// (`GOOGLE_BASE_URL`) and a service account that asks for no token.
    pub fn env(&self) -> Vec<(&'static str, String)> {
        vec![
            ("GOOGLE_BASE_URL", self.0.endpoint()),
            (
                "GOOGLE_SERVICE_ACCOUNT_KEY",
                r#"{"private_key": "none", "private_key_id": "none", "client_email": "none", "disable_oauth": true}"#
                    .into(),
            ),
        ]
    }
}
