//! The objects under a prefix, listed.

use super::requests::{block_on, count, io_error, settings};
use super::store::{build_store, retry_config, store_for};
use futures_util::StreamExt;
use object_store::path::Path as ObjectPath;
use object_store::{ObjectStore, ObjectStoreScheme};
use std::io;

/// The URLs of the objects under `prefix_url` (a "directory": `s3://bucket/run/`), in name
/// order: every object below it with `recursive`, else those directly in it.
pub fn list(prefix_url: &str, recursive: bool) -> io::Result<Vec<String>> {
    let (mut store, prefix, parsed) = store_for(prefix_url)?;
    let web = matches!(parsed.scheme(), "http" | "https");
    if web {
        // A web server lists through WebDAV's PROPFIND or not at all: asked once, no retries
        // of a plain server's 501.
        let options = settings().options.clone();
        let once = object_store::RetryConfig { max_retries: 0, ..retry_config(&options) };
        let http = ObjectStoreScheme::Http;
        store = build_store(prefix_url, &parsed, http, &options, false, once)?;
    }
    let prefix = (!prefix.as_ref().is_empty()).then_some(prefix);
    let metas = block_on(async {
        if recursive {
            let mut out = Vec::new();
            let mut listing = store.list(prefix.as_ref());
            count(1, 0);
            while let Some(m) = listing.next().await {
                out.push(m?);
            }
            Ok(out)
        } else {
            count(1, 0);
            store.list_with_delimiter(prefix.as_ref()).await.map(|l| l.objects)
        }
    })
    .map_err(|e| {
        let e = io_error(e);
        if web {
            // Its answer, without the HTML page a plain server sends with it.
            let said = e.to_string();
            let said = said.lines().next().unwrap_or_default();
            let said = said.rsplit_once("status code: ").map_or(said, |(_, s)| s);
            let said = said.split(':').next().unwrap_or(said).trim();
            return io::Error::new(
                e.kind(),
                format!(
                    "listing it: this web server does not list its files (WebDAV PROPFIND \
                     answered {}): name the files, or use an object store's URL (s3://, gs://, \
                     az://), which lists",
                    crate::excerpt(said, 80)
                ),
            );
        }
        io::Error::new(e.kind(), format!("listing it: {e}"))
    })?;
    let mut urls: Vec<String> =
        metas.into_iter().map(|m| object_url(&parsed, prefix.as_ref(), &m.location)).collect();
    urls.sort();
    Ok(urls)
}

/// The URL of the object at `path` in the store that `base`, the URL of `prefix` in it,
/// names: `base` up to where its object path starts, then `path`.
fn object_url(base: &url::Url, prefix: Option<&ObjectPath>, path: &ObjectPath) -> String {
    let full = &base[..url::Position::AfterPath];
    let full = full.strip_suffix('/').unwrap_or(full);
    let root = match prefix {
        Some(p) => full.strip_suffix(p.as_ref()).unwrap_or(full),
        None => full,
    };
    let root = root.strip_suffix('/').unwrap_or(root);
    format!("{root}/{path}")
}
