//! Outputs: how they are published (`--force`, `--no-sync`), checked before anything is
//! written, and written (a read's signal under its id, a directory of outputs).

use std::path::Path;

use crate::output::{npy_i16, output_error};

/// Set once by `--no-sync`: outputs are published without syncing them to the disk first.
static NO_SYNC: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Makes [`publish`] leave the write-back of every output to the OS (`--no-sync`).
pub fn set_no_sync(no_sync: bool) {
    NO_SYNC.store(no_sync, std::sync::atomic::Ordering::Relaxed);
}

/// How a writer publishes its output: synced (unless `--no-sync`), replacing a file that
/// exists when `--force` says so.
pub fn publish(force: bool) -> svb_io::Publish {
    svb_io::Publish {
        sync: !NO_SYNC.load(std::sync::atomic::Ordering::Relaxed),
        on_existing: svb_io::OnExisting::replace_if(force),
    }
}

/// The flags of every command that writes outputs made of its inputs' reads (convert,
/// subset, merge, split, degrade), defined once.
#[derive(clap::Args, Clone, Copy, Debug)]
pub struct Writing {
    /// Replace outputs that exist.
    #[arg(long)]
    pub force: bool,
    /// Go on past an input that cannot be read, or a read that cannot be decoded or mapped:
    /// each is named on stderr and left out, and the exit status is 1 at the end.
    #[arg(long)]
    pub keep_going: bool,
}

impl Writing {
    /// The operation's run: a failure left out with `--keep-going`, the progress reported to
    /// `report`, outputs published as `--force` and `--no-sync` say, stopped by Ctrl-C
    /// (crate::interrupt: nothing is published).
    pub fn run<'a>(&self, report: &'a mut (dyn FnMut(u64, u64) + Send)) -> svb_convert::Run<'a> {
        svb_convert::Run {
            on_error: svb_convert::OnError::skip_if(self.keep_going),
            progress: Some(report),
            publish: publish(self.force),
            interrupted: Some(&svb_io::interrupted),
        }
    }

    /// Says on stderr how many inputs or reads `--keep-going` left out of `command`'s
    /// outputs, if any; whether none were (the exit status then).
    pub fn none_left_out(command: &str, left_out: usize) -> bool {
        if left_out > 0 {
            eprintln!("svb: {command}: {left_out} inputs or reads left out (--keep-going)");
        }
        left_out == 0
    }
}

/// Refuses `output` when it is one of `inputs` (with `--force` too), or, without `force`,
/// when it exists.
pub fn check_output(output: &Path, inputs: &svb_io::Inputs, force: bool) -> Result<(), String> {
    inputs
        .check_output(output)
        .map_err(|e| format!("{}: {e}; choose another output", output.display()))?;
    if !force && !svb_io::is_stdout(output) && std::fs::symlink_metadata(output).is_ok() {
        return Err(format!("{} exists (--force replaces it)", output.display()));
    }
    // `htps://b/x.pod5` or `s3//b/x.pod5` would be a local path under a folder `htps:` or
    // `s3`: refused where that folder does not exist, naming the scheme.
    let parent_missing = output
        .parent()
        .is_some_and(|p| !p.as_os_str().is_empty() && std::fs::symlink_metadata(p).is_err());
    if let Some(what) = svb_io::misspelt_url(output).filter(|_| parent_missing) {
        return Err(format!("{}: {what}", output.display()));
    }
    Ok(())
}

/// Whether `name` is a file name on every common OS: not empty, no path separator or drive
/// prefix, no character Windows forbids (`<>:"/\\|?*`, controls), no leading dot (hidden, or
/// `.` and `..`), no trailing dot or space, not a reserved device name (`CON`, `NUL`,
/// `COM1`, ... with any extension), at most 200 bytes.
pub fn portable_file_name(name: &str) -> Result<(), String> {
    let bad = |why: &str| Err(format!("read id {name:?} is not a portable file name ({why})"));
    if name.is_empty() {
        return bad("empty");
    }
    if name.len() > 200 {
        return bad("longer than 200 bytes");
    }
    if let Some(c) = name.chars().find(|&c| {
        c.is_control() || matches!(c, '<' | '>' | ':' | '"' | '/' | '\\' | '|' | '?' | '*')
    }) {
        return bad(&format!("contains {c:?}"));
    }
    if name.starts_with('.') {
        return bad("starts with a dot");
    }
    if name.ends_with(['.', ' ']) {
        return bad("ends with a dot or a space");
    }
    let stem = name.split('.').next().unwrap_or(name).trim_end().to_ascii_uppercase();
    let reserved = matches!(stem.as_str(), "CON" | "PRN" | "AUX" | "NUL" | "CONIN$" | "CONOUT$")
        || (stem.len() == 4
            && (stem.starts_with("COM") || stem.starts_with("LPT"))
            && matches!(stem.as_bytes()[3], b'0'..=b'9' | 0xB9 | 0xB2 | 0xB3));
    if reserved {
        return bad("a reserved device name on Windows");
    }
    Ok(())
}

/// Writes `DIR/READ_ID.i16` (int16 LE) or `DIR/READ_ID.npy`, published only when complete;
/// refuses read ids that are not portable file names, so nothing is written outside DIR, a
/// file that exists unless `force`, and one of `inputs` always.
pub fn write_signal(
    dir: &Path, read_id: &str, signal: &[i16], npy: bool, force: bool, inputs: &svb_io::Inputs,
) -> Result<(), String> {
    portable_file_name(read_id)?;
    let (name, bytes) = if npy {
        (format!("{read_id}.npy"), npy_i16(signal))
    } else {
        (format!("{read_id}.i16"), signal.iter().flat_map(|s| s.to_le_bytes()).collect())
    };
    write_output(&dir.join(name), &bytes, force, inputs)
}

/// Writes `bytes` to the output `path` (published when complete; an existing file replaced
/// only with `force`, an input never).
pub fn write_output(
    path: &Path, bytes: &[u8], force: bool, inputs: &svb_io::Inputs,
) -> Result<(), String> {
    if force {
        inputs
            .check_output(path)
            .map_err(|e| format!("{}: {e}; choose another output", path.display()))?;
    }
    svb_io::write_file(path, bytes, svb_io::OnExisting::replace_if(force))
        .map_err(|e| output_error(path, &e))
}

/// Makes the output directory `dir` (with its parents) and removes the leftovers of killed
/// runs in it; an existing file that is not a directory is an error.
pub fn output_dir(dir: &Path) -> Result<(), String> {
    // An object store's prefix (`s3://bucket/run/`) is no folder: nothing to make (a local
    // `./s3:/bucket/run` was made before).
    if svb_io::is_url(dir) {
        return Ok(());
    }
    if std::fs::metadata(dir).is_ok_and(|m| !m.is_dir()) {
        return Err(format!(
            "{}: exists and is not a directory (the output here is a directory)",
            dir.display()
        ));
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let _ = svb_io::remove_stale_partials(dir);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn portable_names() {
        for ok in
            ["0a1b2c3d-aaaa-bbbb-cccc-0123456789ab", "read_1", "a.b", "CONSOLE", "COM10", "x y"]
        {
            assert_eq!(portable_file_name(ok), Ok(()), "{ok}");
        }
        for bad in [
            "", "../x", "a/b", "a\\b", ".hidden", ".", "..", "C:x", "c:", "a:b", "NUL", "nul.txt",
            "Con", "COM1", "lpt9.dat", "aux ", "x.", "x ", "a\nb", "a\0b", "a|b", "a?b", "a*b",
            "a<b", "a\"b",
        ] {
            let e = portable_file_name(bad).unwrap_err();
            assert!(e.contains("not a portable file name"), "{bad}: {e}");
        }
        assert!(portable_file_name(&"x".repeat(201)).is_err());
    }
}
