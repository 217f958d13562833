//! Object stores by URL: each store built once (from the environment, the options set and,
//! for S3, the AWS CLI's profiles), its HTTP client, timeouts and retries, and which object a
//! URL names as the store resolves it.

use super::requests::{invalid, settings};
use object_store::path::Path as ObjectPath;
use object_store::{ObjectStore, ObjectStoreScheme};
use std::io;
use std::sync::Arc;
use std::time::Duration;

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
pub(crate) fn store_for(url: &str) -> io::Result<(Arc<dyn ObjectStore>, ObjectPath, url::Url)> {
    store_of(url, false)
}

/// [`store_for`]; with `create_only`, an S3 store whose multipart uploads complete only where
/// no object is ([`CreateOnly`]), kept beside the other.
pub(crate) fn store_of(
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
pub(crate) fn build_store(
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
            built(url, with_azure_cli(b, options).build())?
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
pub(crate) fn retry_config(options: &[(String, String)]) -> object_store::RetryConfig {
    object_store::RetryConfig { retry_timeout: request_timeout(options) / 2, ..Default::default() }
}

/// What opening an object may take in all (1.5 requests' time: its two first ranges, and a
/// metadata request where they are not answered as asked): 45 s by default, a server that
/// answers nothing named then.
pub(crate) fn open_budget(options: &[(String, String)]) -> Duration {
    request_timeout(options) * 3 / 2
}

/// `b` signed in as the Azure CLI is (`az login`: each request's token from `az account
/// get-access-token`, as the Azure SDKs' default credential chain ends) where the
/// environment and the storage options give no credential of their own (a key, a SAS, a
/// token, a service principal, workload identity, the emulator, or unsigned requests), the
/// user has not set `azure_use_azure_cli` either way, and the CLI has signed in (its
/// profile, in `AZURE_CONFIG_DIR` or `~/.azure`, lists a subscription). Otherwise
/// object_store's own choice stands (a VM's managed identity).
fn with_azure_cli(
    b: object_store::azure::MicrosoftAzureBuilder, options: &[(String, String)],
) -> object_store::azure::MicrosoftAzureBuilder {
    use object_store::azure::AzureConfigKey as Key;
    let own = [
        Key::AccessKey,
        Key::SasKey,
        Key::Token,
        Key::ClientSecret,
        Key::FederatedTokenFile,
        Key::UseEmulator,
        Key::UseAzureCli,
        Key::SkipSignature,
    ];
    // The flags read `false` when unset: a flag counts when true; the others when given.
    let set = |k: &Key| b.get_config_value(k).is_some_and(|v| !v.is_empty() && v != "false");
    // `azure_use_azure_cli=false`, in the environment or the storage options, is the user's.
    let declined = std::env::var_os("AZURE_USE_AZURE_CLI").is_some()
        || options.iter().any(|(k, _)| {
            matches!(k.to_ascii_lowercase().as_str(), "azure_use_azure_cli" | "use_azure_cli")
        });
    if own.iter().any(set) || declined || !azure_cli_signed_in() {
        return b;
    }
    b.with_use_azure_cli(true)
}

/// Whether the Azure CLI has signed in: its profile (`azureProfile.json` in
/// `AZURE_CONFIG_DIR`, else `~/.azure`) lists a subscription (`az logout` empties the list).
fn azure_cli_signed_in() -> bool {
    let dir = match std::env::var_os("AZURE_CONFIG_DIR") {
        Some(d) => std::path::PathBuf::from(d),
        None => match std::env::var_os("HOME").or_else(|| std::env::var_os("USERPROFILE")) {
            Some(home) => std::path::PathBuf::from(home).join(".azure"),
            None => return false,
        },
    };
    let Ok(text) = std::fs::read_to_string(dir.join("azureProfile.json")) else {
        return false;
    };
    // `"subscriptions": [` followed by anything but its `]`.
    let Some(at) = text.find("\"subscriptions\"") else {
        return false;
    };
    let rest = text[at + "\"subscriptions\"".len()..].trim_start();
    let Some(rest) = rest.strip_prefix(':').map(str::trim_start) else {
        return false;
    };
    rest.strip_prefix('[').is_some_and(|list| !list.trim_start().starts_with(']'))
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
pub(crate) struct CreateOnly(object_store::client::HttpClient);

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
