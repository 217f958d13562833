//! Output helpers shared by the subcommands: JSON lines, sha256, progress, .npy files, and
//! the in-order parallel walk over a file's reads.

use std::io::Write;
use std::ops::ControlFlow;
use std::path::Path;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use sha2::{Digest, Sha256};

/// An error's message and every source's after it, `: ` between them, each text once (a
/// source whose text the message already holds is not repeated; one that repeats the message
/// and adds to it replaces it). An output that exists gets the way to replace it.
pub fn error_chain(e: &(dyn std::error::Error + 'static)) -> String {
    let mut s = svb_io::error_chain(e);
    let mut cause = Some(e);
    while let Some(c) = cause {
        if is_already_exists(c) {
            s.push_str(" (--force replaces it)");
            break;
        }
        cause = c.source();
    }
    s
}

fn is_already_exists(e: &(dyn std::error::Error + 'static)) -> bool {
    e.downcast_ref::<std::io::Error>()
        .is_some_and(|io| io.kind() == std::io::ErrorKind::AlreadyExists)
}

/// An error writing the output `path`, said once and with what to do.
pub fn output_error(path: &Path, e: &std::io::Error) -> String {
    format!("{}: {}", path.display(), error_chain(e))
}

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

/// Refuses `output` when it is one of `inputs` (with `--force` too), or, without `force`,
/// when it exists.
pub fn check_output(output: &Path, inputs: &svb_io::Inputs, force: bool) -> Result<(), String> {
    inputs
        .check_output(output)
        .map_err(|e| format!("{}: {e}; choose another output", output.display()))?;
    if !force && std::fs::symlink_metadata(output).is_ok() {
        return Err(format!("{} exists (--force replaces it)", output.display()));
    }
    Ok(())
}

/// A JSON string literal of `s`.
pub fn json_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// sha256 (hex) of the samples as little-endian int16.
pub fn signal_sha256(signal: &[i16]) -> String {
    let mut h = Sha256::new();
    let mut bytes = [0u8; 8192];
    for chunk in signal.chunks(bytes.len() / 2) {
        for (b, s) in bytes.chunks_exact_mut(2).zip(chunk) {
            b.copy_from_slice(&s.to_le_bytes());
        }
        h.update(&bytes[..2 * chunk.len()]);
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// A progress bar on stderr that appears only once the work has run for a second.
pub struct Progress {
    bar: ProgressBar,
    started: Instant,
    shown: bool,
}

impl Progress {
    pub fn new(len: u64, what: &str) -> Self {
        let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::hidden());
        bar.set_style(
            ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} ({eta})")
                .expect("a valid template")
                .progress_chars("=> "),
        );
        bar.set_message(what.to_owned());
        Progress {
            bar,
            started: Instant::now(),
            shown: false,
        }
    }

    /// Prints `line` on stderr above the bar.
    pub fn eprintln(&self, line: &str) {
        self.bar.suspend(|| eprintln!("{line}"));
    }

    pub fn inc(&mut self, n: u64) {
        self.show_after_a_second();
        self.bar.inc(n);
    }

    /// The total, when it is learnt late.
    pub fn set_length(&mut self, len: u64) {
        self.bar.set_length(len);
    }

    /// Where the work is.
    pub fn set_position(&mut self, done: u64) {
        self.show_after_a_second();
        self.bar.set_position(done);
    }

    fn show_after_a_second(&mut self) {
        if !self.shown && self.started.elapsed() > Duration::from_secs(1) {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
            self.shown = true;
        }
    }

    pub fn finish(self) {
        self.bar.finish_and_clear();
    }
}

/// A NumPy `.npy` (format 1.0) file of little-endian int16 samples.
pub fn npy_i16(signal: &[i16]) -> Vec<u8> {
    npy(
        "<i2",
        signal.len(),
        signal.iter().flat_map(|s| s.to_le_bytes()),
    )
}

/// A NumPy `.npy` (format 1.0) file of little-endian float32 values.
pub fn npy_f32(values: &[f32]) -> Vec<u8> {
    npy(
        "<f4",
        values.len(),
        values.iter().flat_map(|s| s.to_le_bytes()),
    )
}

/// A 1-D `.npy` of `len` values of NumPy type `descr` whose bytes are `data`.
fn npy(descr: &str, len: usize, data: impl Iterator<Item = u8>) -> Vec<u8> {
    let mut header = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': ({len},), }}");
    // Magic (6) + version (2) + header length (2) + header, padded to 64 with a newline.
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend((header.len() as u16).to_le_bytes());
    out.extend(header.as_bytes());
    out.extend(data);
    out
}

/// Reads are decoded in parallel in windows of this many per thread and handed on in file
/// order: memory stays bounded by the window, not the file.
const WINDOW_PER_THREAD: usize = 16;

/// Decodes items `0..len` in parallel windows (`decode(i)`) and passes each result to
/// `each` in order, with a progress bar; stops when `each` breaks.
pub fn for_each_in_order<T: Send>(
    len: usize,
    what: &str,
    decode: impl Fn(usize) -> Result<T, String> + Sync,
    mut each: impl FnMut(&Progress, Result<T, String>) -> ControlFlow<std::io::Result<()>>,
) -> std::io::Result<()> {
    let window = WINDOW_PER_THREAD * rayon::current_num_threads();
    let mut progress = Progress::new(len as u64, what);
    for start in (0..len).step_by(window) {
        let end = (start + window).min(len);
        let decoded: Vec<_> = (start..end).into_par_iter().map(&decode).collect();
        for item in decoded {
            if let ControlFlow::Break(r) = each(&progress, item) {
                progress.finish();
                return r;
            }
            progress.inc(1);
        }
    }
    progress.finish();
    Ok(())
}

/// An error writing to standard output, except a closed pipe (the reader of
/// `svb ... | head` has all it wanted), which ends the command quietly.
pub fn quiet_on_closed_pipe(r: std::io::Result<()>) -> Result<(), String> {
    match r {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(format!("standard output: {e}")),
        Ok(()) => Ok(()),
    }
}

/// The `verify` line of one read.
pub fn verify_line(
    out: &mut impl Write,
    read_id: &str,
    samples: usize,
    sha256: &str,
) -> std::io::Result<()> {
    writeln!(
        out,
        "{{\"read_id\":{},\"num_samples\":{samples},\"sha256\":\"{sha256}\"}}",
        json_str(read_id),
    )
}

/// Whether `name` is a file name on every common OS: not empty, no path separator or drive
/// prefix, no character Windows forbids (`<>:"/\\|?*`, controls), no leading dot (hidden, or
/// `.` and `..`), no trailing dot or space, not a reserved device name (`CON`, `NUL`,
/// `COM1`, ... with any extension), at most 200 bytes.
pub fn portable_file_name(name: &str) -> Result<(), String> {
    let bad = |why: &str| {
        Err(format!(
            "read id {name:?} is not a portable file name ({why})"
        ))
    };
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
    let stem = name
        .split('.')
        .next()
        .unwrap_or(name)
        .trim_end()
        .to_ascii_uppercase();
    let reserved = matches!(
        stem.as_str(),
        "CON" | "PRN" | "AUX" | "NUL" | "CONIN$" | "CONOUT$"
    ) || (stem.len() == 4
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
    dir: &Path,
    read_id: &str,
    signal: &[i16],
    npy: bool,
    force: bool,
    inputs: &svb_io::Inputs,
) -> Result<(), String> {
    portable_file_name(read_id)?;
    let (name, bytes) = if npy {
        (format!("{read_id}.npy"), npy_i16(signal))
    } else {
        (
            format!("{read_id}.i16"),
            signal.iter().flat_map(|s| s.to_le_bytes()).collect(),
        )
    };
    write_output(&dir.join(name), &bytes, force, inputs)
}

/// Writes `bytes` to the output `path` (published when complete; an existing file replaced
/// only with `force`, an input never).
pub fn write_output(
    path: &Path,
    bytes: &[u8],
    force: bool,
    inputs: &svb_io::Inputs,
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

/// A command's progress bar behind a lock, for a conversion's progress callback (`done`
/// of `total`, either of which may change as it goes).
pub struct SharedProgress(std::sync::Mutex<Progress>);

impl SharedProgress {
    /// A bar labelled `label`, its length set by the first report.
    pub fn new(label: &str) -> Self {
        SharedProgress(std::sync::Mutex::new(Progress::new(0, label)))
    }

    /// `done` of `total`.
    pub fn report(&self, done: u64, total: u64) {
        let mut p = self.0.lock().unwrap_or_else(|e| e.into_inner());
        p.set_length(total);
        p.set_position(done);
    }

    /// Ends the bar.
    pub fn finish(self) {
        self.0
            .into_inner()
            .unwrap_or_else(|e| e.into_inner())
            .finish();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn portable_names() {
        for ok in [
            "0a1b2c3d-aaaa-bbbb-cccc-0123456789ab",
            "read_1",
            "a.b",
            "CONSOLE",
            "COM10",
            "x y",
        ] {
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

    #[test]
    fn sha256_of_samples_is_of_their_le_bytes() {
        let s: Vec<i16> = (0..10_000).map(|i| (i * 7 - 3000) as i16).collect();
        let bytes: Vec<u8> = s.iter().flat_map(|x| x.to_le_bytes()).collect();
        let want: String = Sha256::digest(&bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        assert_eq!(signal_sha256(&s), want);
        assert_eq!(
            signal_sha256(&[]),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }
}
