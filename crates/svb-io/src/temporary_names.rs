//! The hidden names outputs are written under until they are complete
//! (`.NAME[.TAG].partial-PID-NONCE`, beside the destination or, for an object, in the temporary
//! folder and under the object's prefix), and the removal of those a killed writer left.

use std::io;
use std::path::{Path, PathBuf};

/// What every temporary name holds before the writer's process id.
const PARTIAL: &str = ".partial-";

/// A name for the temporary file of `path`: `.NAME[.TAG].partial-PID-NONCE`.
pub(crate) fn temporary_name(path: &Path, tag: Option<&str>, nonce: u64) -> PathBuf {
    let name =
        path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "out".into());
    path.with_file_name(temporary_file_name(&name, tag, nonce))
}

/// The temporary name of a file or object named `name`: `.NAME[.TAG].partial-PID-NONCE`.
pub(crate) fn temporary_file_name(name: &str, tag: Option<&str>, nonce: u64) -> String {
    let tag = tag.map(|t| format!(".{t}")).unwrap_or_default();
    format!(".{name}{tag}{PARTIAL}{}-{nonce:016x}", std::process::id())
}

/// 64 random bits (std's per-process random hash keys, the time and a counter).
pub(crate) fn random_u64() -> u64 {
    use std::hash::BuildHasher;
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let state = std::collections::hash_map::RandomState::new();
    state.hash_one((
        std::process::id(),
        std::time::SystemTime::now(),
        COUNTER.fetch_add(1, Ordering::Relaxed),
    ))
}

/// The process id in a temporary name made by [`temporary_name`], if `name` is one.
fn partial_pid(name: &str) -> Option<u32> {
    if !name.starts_with('.') {
        return None;
    }
    let at = name.rfind(PARTIAL)?;
    let (pid, nonce) = name[at + PARTIAL.len()..].split_once('-')?;
    if nonce.len() != 16 || !nonce.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    pid.parse().ok()
}

/// Whether process `pid` is gone for certain (Linux: no `/proc/PID`; elsewhere it cannot be
/// told without a system call std does not offer, and every process counts as alive).
fn process_gone(pid: u32) -> bool {
    if pid == std::process::id() {
        return false;
    }
    cfg!(target_os = "linux")
        && Path::new("/proc/self").exists()
        && !Path::new(&format!("/proc/{pid}")).exists()
}

/// Removes the temporary files in `dir` left by killed writers (any destination), those
/// whose process is gone; returns how many. Files of live processes, and every file on
/// systems where that cannot be told, are left.
pub fn remove_stale_partials(dir: &Path) -> io::Result<usize> {
    remove_stale(dir, |_| true)
}

/// [`remove_stale_partials`] for the temporary files of destination `path` alone: what
/// creating an output there does first, and what a writer whose outputs take other names
/// (FAST5 parts of `-o x.fast5 --file-read-count N`) runs for the name it was given.
pub fn remove_stale_partials_of(path: &Path) -> io::Result<usize> {
    if crate::is_url(path) {
        return Ok(0);
    }
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return Ok(0);
    };
    let prefix = format!(".{name}.");
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    remove_stale(dir, |n| {
        // `.NAME.partial-..` or `.NAME.TAG.partial-..` with a tag free of dots.
        n.strip_prefix(&prefix).is_some_and(|rest| {
            rest.starts_with(&PARTIAL[1..])
                || rest
                    .split_once('.')
                    .is_some_and(|(tag, more)| !tag.is_empty() && more.starts_with(&PARTIAL[1..]))
        })
    })
}

fn remove_stale(dir: &Path, mine: impl Fn(&str) -> bool) -> io::Result<usize> {
    let mut removed = 0;
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let Some(pid) = partial_pid(name) else {
            continue;
        };
        if mine(name)
            && process_gone(pid)
            && entry.file_type().is_ok_and(|t| t.is_file())
            && std::fs::remove_file(entry.path()).is_ok()
        {
            removed += 1;
        }
    }
    Ok(removed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temporary_names_parse_back() {
        let p = temporary_name(Path::new("/x/out.pod5"), None, 0xabc);
        let name = p.file_name().unwrap().to_str().unwrap();
        assert_eq!(partial_pid(name), Some(std::process::id()));
        let s = temporary_name(Path::new("out.pod5"), Some("reads"), 7);
        assert!(s.to_str().unwrap().starts_with(".out.pod5.reads.partial-"));
        for not in ["out.pod5", ".out.pod5.partial-12", ".x.partial-12-zz", "a.partial-1-0"] {
            assert_eq!(partial_pid(not), None, "{not}");
        }
    }
}
