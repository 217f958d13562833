//! What an object store says of URLs: an object's version now ([`object_version`]), and the
//! objects a prefix or a pattern names ([`list_objects`]), asked of the store through
//! `remote` (without the `remote` feature, an error saying so).

#[cfg(not(feature = "remote"))]
use crate::location::remote_not_built;

/// The length and version (its ETag, or the store's version id; empty when the server gives
/// neither) of the object at `url`, as it is now (one metadata request, no body): what tells
/// that an object changed since an index of it was made, or that an output's key is taken.
pub fn object_version(url: &str) -> std::io::Result<(u64, String)> {
    #[cfg(feature = "remote")]
    {
        crate::remote::head(url)
    }
    #[cfg(not(feature = "remote"))]
    {
        Err(remote_not_built(url))
    }
}

/// The URLs of the objects `pattern` names: those under a prefix ending in `/`
/// (`s3://bucket/run/`: directly under it, or every one below it with `recursive`), or those
/// whose URL matches a pattern with `*` (any characters but `/`) or `**` (any characters)
/// in its last part (`s3://bucket/run/*.pod5`, `s3://bucket/run/**/*.pod5`); in name order.
/// `None` for a URL that is neither (one object).
pub fn list_objects(pattern: &str, recursive: bool) -> Option<std::io::Result<Vec<String>>> {
    names_many_objects(pattern).then(|| list_matching(pattern, pattern.contains('*'), recursive))
}

/// Whether the URL `url` names many objects (a prefix ending in `/`, or a pattern with `*`)
/// rather than one: what [`list_objects`] lists.
pub fn names_many_objects(url: &str) -> bool {
    url.ends_with('/') || url.contains('*')
}

#[cfg(feature = "remote")]
fn list_matching(pattern: &str, glob: bool, recursive: bool) -> std::io::Result<Vec<String>> {
    if !glob {
        return crate::remote::list(pattern, recursive);
    }
    let star = pattern.find('*').expect("a glob");
    let prefix = &pattern[..pattern[..star].rfind('/').map_or(0, |i| i + 1)];
    let deep = pattern[star..].contains('/') || pattern.contains("**");
    let urls = crate::remote::list(prefix, deep)?;
    Ok(urls.into_iter().filter(|u| glob_match(pattern, u)).collect())
}

#[cfg(not(feature = "remote"))]
fn list_matching(pattern: &str, _: bool, _: bool) -> std::io::Result<Vec<String>> {
    Err(remote_not_built(pattern))
}

/// Whether `text` matches `pattern`: `**` any characters, `*` any but `/`, all else itself.
#[cfg_attr(not(feature = "remote"), allow(dead_code))]
fn glob_match(pattern: &str, text: &str) -> bool {
    let (p, t) = (pattern.as_bytes(), text.as_bytes());
    // Iterative matching with backtracking to the last star (linear in practice, never
    // exponential: one backtrack point per kind of star).
    fn go(p: &[u8], t: &[u8]) -> bool {
        if p.is_empty() {
            return t.is_empty();
        }
        if p.starts_with(b"**") {
            let rest = &p[2..];
            return (0..=t.len()).any(|i| go(rest, &t[i..]));
        }
        if p[0] == b'*' {
            let rest = &p[1..];
            let mut i = 0;
            loop {
                if go(rest, &t[i..]) {
                    return true;
                }
                if i == t.len() || t[i] == b'/' {
                    return false;
                }
                i += 1;
            }
        }
        !t.is_empty() && t[0] == p[0] && go(&p[1..], &t[1..])
    }
    go(p, t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_match_within_and_across_slashes() {
        assert!(glob_match("s3://b/run/*.pod5", "s3://b/run/a.pod5"));
        assert!(!glob_match("s3://b/run/*.pod5", "s3://b/run/x/a.pod5"));
        assert!(!glob_match("s3://b/run/*.pod5", "s3://b/run/a.blow5"));
        assert!(glob_match("s3://b/run/**.pod5", "s3://b/run/x/a.pod5"));
        assert!(glob_match("s3://b/run/**/*.pod5", "s3://b/run/x/y/a.pod5"));
        assert!(glob_match("s3://b/*/pod5/*_0.pod5", "s3://b/s1/pod5/r_0.pod5"));
    }

    #[test]
    fn one_object_is_not_listed() {
        assert!(list_objects("s3://b/k.pod5", false).is_none());
        assert!(names_many_objects("s3://b/run/") && names_many_objects("s3://b/*.pod5"));
    }
}
