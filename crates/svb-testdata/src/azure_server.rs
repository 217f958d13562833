//! An Azure Blob Storage server for tests: Microsoft's emulator Azurite (`npm install
//! azurite@3.37.0`, which object_store's own Azure tests run against), started on a free
//! port of 127.0.0.1 with its blobs in memory, and stopped when dropped. Containers are
//! created with requests signed by the emulator's well-known account key.

use crate::server_process::ServerProcess;

/// The emulator's account and its published key (not a secret: every Azurite has them).
const ACCOUNT: &str = "devstoreaccount1";
const KEY: &str =
    "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

/// A running Azurite blob server.
pub struct AzureServer(ServerProcess);

impl AzureServer {
    /// Starts `azurite-blob` (`$AZURITE_BLOB`, else `azurite-blob` on the `PATH`). Without
    /// it: `None` after printing one "skipped" line, or a panic under `CI=true`, where every
    /// server the tests use must start.
    pub fn start() -> Option<AzureServer> {
        let args = |port: u16| {
            let mut args: Vec<std::ffi::OsString> = vec!["--blobHost".into(), "127.0.0.1".into()];
            args.extend(["--blobPort".into(), port.to_string().into()]);
            args.extend(
                ["--inMemoryPersistence", "--silent", "--skipApiVersionCheck"].map(Into::into),
            );
            args
        };
        ServerProcess::start("AZURITE_BLOB", "azurite-blob", "npm install azurite@3.37.0", args)
            .map(AzureServer)
    }

    /// The environment a client needs to reach this server (object_store's emulator
    /// settings: the emulator's account and key, plain HTTP).
    pub fn env(&self) -> Vec<(&'static str, String)> {
        vec![
            ("AZURE_STORAGE_USE_EMULATOR", "true".into()),
            ("AZURITE_BLOB_STORAGE_URL", self.0.endpoint()),
        ]
    }

    /// Creates the container `name` (a Shared Key signed request, as the Blob service asks).
    pub fn create_container(&self, name: &str) {
        use base64::Engine;
        let b64 = base64::engine::general_purpose::STANDARD;
        let date = chrono::Utc::now().format("%a, %d %b %Y %H:%M:%S GMT").to_string();
        let version = "2021-08-06";
        // Verb, eleven standard headers (all empty here), the x-ms- headers, the resource.
        let to_sign = format!(
            "PUT\n\n\n\n\n\n\n\n\n\n\n\nx-ms-date:{date}\nx-ms-version:{version}\n\
             /{ACCOUNT}/{ACCOUNT}/{name}\nrestype:container"
        );
        let key = ring::hmac::Key::new(
            ring::hmac::HMAC_SHA256,
            &b64.decode(KEY).expect("the emulator's key is base64"),
        );
        let signature = b64.encode(ring::hmac::sign(&key, to_sign.as_bytes()).as_ref());
        let headers = format!(
            "x-ms-date: {date}\r\nx-ms-version: {version}\r\n\
             Authorization: SharedKey {ACCOUNT}:{signature}\r\n"
        );
        let target = format!("/{ACCOUNT}/{name}?restype=container");
        let answer = self.0.request("PUT", &target, &headers, b"");
        assert!(answer.starts_with("HTTP/1.1 201"), "creating container {name}: {answer}");
    }
}
