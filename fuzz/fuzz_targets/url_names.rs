#![no_main]
//! Any text given where a path or URL goes: telling a URL from a path, showing it without
//! secrets, spotting credentials, telling whether it names many objects; never a panic, and
//! a shown URL never holds a user or password part.

use libfuzzer_sys::fuzz_target;
use std::path::Path;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let url = svb_io::url_of(Path::new(text));
    let shown = svb_io::shown_url(text);
    if svb_io::has_credentials(text) {
        // What is shown has no user or password part: its authority holds no `@`.
        let (_, rest) = shown.split_once("://").expect("credentials are in a URL");
        let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
        assert!(!authority.contains('@'), "{text:?} shown as {shown:?}");
    }
    if url.is_some() {
        let _ = svb_io::FileId::of(Path::new(text));
        let _ = svb_io::check_writable(text);
    }
});
