//! Where an input or output is: a local path or the URL of an object (an object store's
//! `s3://bucket/key`, `gs://`, `az://` / `abfs://`, or a web server's `http(s)://`), which
//! every reader and command takes wherever it takes a path. What a URL says by its text alone:
//! nothing here asks a store (that is `objects.rs` and `remote`).

use std::path::Path;

/// The URL schemes read as objects: S3 (and S3-compatible stores), Google Cloud Storage,
/// Azure Blob Storage / Data Lake, and web servers that answer range requests.
pub const URL_SCHEMES: &[&str] =
    &["s3", "s3a", "gs", "az", "adl", "azure", "abfs", "abfss", "http", "https"];

/// `path` as a URL when it is one: `scheme://...` with a scheme of [`URL_SCHEMES`]. Any other
/// path is a local path (a file named `s3:` in a directory `x` is `./s3:/x`, never a URL).
///
/// ```
/// use std::path::Path;
/// assert_eq!(svb_io::url_of(Path::new("s3://bucket/run/a.pod5")), Some("s3://bucket/run/a.pod5"));
/// assert_eq!(svb_io::url_of(Path::new("run/a.pod5")), None);
/// assert_eq!(svb_io::url_of(Path::new("ftp://host/a.pod5")), None);
/// ```
pub fn url_of(path: &Path) -> Option<&str> {
    let text = path.to_str()?;
    let (scheme, rest) = text.split_once("://")?;
    let known = URL_SCHEMES.iter().any(|s| s.eq_ignore_ascii_case(scheme));
    (known && !rest.is_empty()).then_some(text)
}

/// What is wrong with `path` where it reads as a URL svb does not take: a scheme it does not
/// know (`htps://host/x.pod5`, `ftp://...`), or a known scheme whose `://` is misspelt
/// (`s3//bucket/x`, `s3:/bucket/x`, `https:/host/x`); `None` for a URL svb reads and for a
/// path that does not look like a URL. What a missing input or an output whose folder does
/// not exist says, rather than "No such file or directory".
///
/// ```
/// use std::path::Path;
/// let e = svb_io::misspelt_url(Path::new("htps://host/x.pod5")).unwrap();
/// assert!(e.starts_with("htps:// is not a URL scheme svb reads"), "{e}");
/// let e = svb_io::misspelt_url(Path::new("s3//bucket/x.pod5")).unwrap();
/// assert_eq!(e, "did you mean s3://bucket/x.pod5?");
/// assert_eq!(svb_io::misspelt_url(Path::new("s3://bucket/x.pod5")), None);
/// assert_eq!(svb_io::misspelt_url(Path::new("runs/x.pod5")), None);
/// ```
pub fn misspelt_url(path: &Path) -> Option<String> {
    let text = path.to_str()?;
    if url_of(path).is_some() {
        return None;
    }
    if let Some((scheme, _)) = text.split_once("://") {
        let word = !scheme.is_empty()
            && scheme.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'));
        return word.then(|| {
            format!(
                "{scheme}:// is not a URL scheme svb reads (it reads {}://)",
                URL_SCHEMES.join("://, ")
            )
        });
    }
    let known = URL_SCHEMES.iter().find(|s| {
        text.len() > s.len()
            && text[..s.len()].eq_ignore_ascii_case(s)
            && text.is_char_boundary(s.len())
    })?;
    let rest = &text[known.len()..];
    let body = rest
        .strip_prefix("//")
        .or_else(|| rest.strip_prefix(":/"))
        .or_else(|| rest.strip_prefix(":"))
        .filter(|b| !b.is_empty() && !b.starts_with('/'))?;
    Some(format!("did you mean {}://{body}?", &text[..known.len()]))
}

/// Whether `path` is the URL of an object ([`url_of`]).
pub fn is_url(path: &Path) -> bool {
    url_of(path).is_some()
}

/// `url` as it may be shown in a message: without a user name, password, query or fragment
/// (where a signed URL or a URL with credentials keeps its secrets).
///
/// ```
/// assert_eq!(
///     svb_io::shown_url("https://me:secret@host/a.pod5?X-Amz-Signature=abc"),
///     "https://host/a.pod5"
/// );
/// ```
pub fn shown_url(url: &str) -> String {
    let Some((scheme, authority, path)) = url_parts(url) else {
        return url.to_string();
    };
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    format!("{scheme}://{host}{path}")
}

/// The scheme of `url` (before `://`; empty where there is none), as written.
pub(crate) fn scheme_of(url: &str) -> &str {
    url.split_once("://").map_or("", |(s, _)| s)
}

/// `text` as `scheme://authority/path?query#fragment`: its scheme, authority (user and
/// password with the host) and path (without query or fragment); `None` without `://`.
fn url_parts(text: &str) -> Option<(&str, &str, &str)> {
    let (scheme, rest) = text.split_once("://")?;
    let rest = rest.split(['?', '#']).next().unwrap_or("");
    let (authority, path) = match rest.find('/') {
        Some(i) => rest.split_at(i),
        None => (rest, ""),
    };
    Some((scheme, authority, path))
}

/// An error unless svb writes objects at `url`: object stores do (`s3://`, `gs://`, `az://`,
/// with the `remote` feature); web servers (`http(s)://`) are read only.
pub fn check_writable(url: &str) -> std::io::Result<()> {
    let scheme = scheme_of(url);
    if scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https") {
        return Err(std::io::Error::new(
            std::io::ErrorKind::Unsupported,
            "svb writes objects to object stores (s3://, gs://, az://), not to web servers",
        ));
    }
    #[cfg(not(feature = "remote"))]
    return Err(remote_not_built(url));
    #[cfg(feature = "remote")]
    Ok(())
}

/// Whether the URL `text` carries a user name or password (`https://user:pass@host/...`).
/// svb refuses such URLs wherever it takes one: a secret there shows in every message that
/// names the input, and in the process list. Credentials go in the environment.
///
/// ```
/// assert!(svb_io::has_credentials("https://me:secret@host/a.pod5"));
/// assert!(!svb_io::has_credentials("s3://bucket/run/a@b.pod5"));
/// ```
pub fn has_credentials(text: &str) -> bool {
    url_parts(text).is_some_and(|(_, authority, _)| authority.contains('@'))
}

/// The error for a URL that carries credentials ([`has_credentials`]), showing it without.
pub fn credentials_refused(text: &str) -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::InvalidInput,
        format!(
            "{}: a user name or password in a URL is refused (it would show in messages and \
             the process list): give credentials through the environment (AWS_ACCESS_KEY_ID, \
             GOOGLE_APPLICATION_CREDENTIALS, AZURE_STORAGE_ACCOUNT_KEY, ...)",
            shown_url(text)
        ),
    )
}

/// The error of a build without the `remote` feature given a URL.
#[cfg(not(feature = "remote"))]
pub(crate) fn remote_not_built(url: &str) -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::Unsupported,
        format!(
            "{} is a URL, and this build reads local files only: build svb with the \
             `remote` feature (the svb command and the Python package have it)",
            shown_url(url)
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_known_schemes_are_urls() {
        assert!(is_url(Path::new("gs://b/k")));
        assert!(is_url(Path::new("HTTPS://host/k")));
        assert!(!is_url(Path::new("s3://")));
        assert!(!is_url(Path::new("/data/s3:/k")));
    }
}
