//! An S3-compatible server for tests: moto's standalone server (`pip install
//! "moto[server]"`, which s3fs and fsspec test against), started on a free port of
//! 127.0.0.1 and stopped when dropped; buckets and objects put with plain requests (moto
//! checks no signature).

use crate::server_process::ServerProcess;

/// A running moto server.
pub struct S3Server(ServerProcess);

impl S3Server {
    /// Starts `moto_server` (`$MOTO_SERVER`, else `moto_server` on the `PATH`). Without it:
    /// `None` after printing one "skipped" line, or a panic under `CI=true`, where every
    /// server the tests use must start.
    pub fn start() -> Option<S3Server> {
        let args =
            |port: u16| vec!["-H".into(), "127.0.0.1".into(), "-p".into(), port.to_string().into()];
        ServerProcess::start("MOTO_SERVER", "moto_server", "pip install \"moto[server]\"", args)
            .map(S3Server)
    }

    /// The endpoint URL (`AWS_ENDPOINT_URL`).
    pub fn endpoint(&self) -> String {
        self.0.endpoint()
    }

    /// The port it listens on (of 127.0.0.1).
    pub fn port(&self) -> u16 {
        self.0.port
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
        ServerProcess::status(&self.0.request(method, path, headers, body))
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
