//! Output helpers shared by the subcommands: JSON lines, sha256, progress, .npy files, and
//! the in-order parallel walk over a file's reads.

use std::io::Write;
use std::path::Path;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use sha2::{Digest, Sha256};

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
    for chunk in signal.chunks(4096) {
        let bytes: Vec<u8> = chunk.iter().flat_map(|s| s.to_le_bytes()).collect();
        h.update(&bytes);
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

    pub fn inc(&mut self, n: u64) {
        if !self.shown && self.started.elapsed() > Duration::from_secs(1) {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
            self.shown = true;
        }
        self.bar.inc(n);
    }

    pub fn finish(self) {
        self.bar.finish_and_clear();
    }
}

/// A NumPy `.npy` (format 1.0) file of little-endian int16 samples.
pub fn npy_i16(signal: &[i16]) -> Vec<u8> {
    let mut header = format!(
        "{{'descr': '<i2', 'fortran_order': False, 'shape': ({},), }}",
        signal.len()
    );
    // Magic (6) + version (2) + header length (2) + header, padded to 64 with a newline.
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend((header.len() as u16).to_le_bytes());
    out.extend(header.as_bytes());
    out.extend(signal.iter().flat_map(|s| s.to_le_bytes()));
    out
}

/// Reads are decoded in parallel in windows of this many per thread and handed on in file
/// order: memory stays bounded by the window, not the file.
const WINDOW_PER_THREAD: usize = 16;

/// Decodes items `0..len` in parallel windows (`decode(i)`) and passes each to `each` in
/// order, with a progress bar; stops at the first error.
pub fn for_each_in_order<T: Send>(
    len: usize,
    what: &str,
    decode: impl Fn(usize) -> Result<T, String> + Sync,
    mut each: impl FnMut(T) -> Result<(), String>,
) -> Result<(), String> {
    let window = WINDOW_PER_THREAD * rayon::current_num_threads();
    let mut progress = Progress::new(len as u64, what);
    for start in (0..len).step_by(window) {
        let end = (start + window).min(len);
        let decoded: Vec<_> = (start..end).into_par_iter().map(&decode).collect();
        for item in decoded {
            each(item?)?;
            progress.inc(1);
        }
    }
    progress.finish();
    Ok(())
}

/// The `verify` line of one read.
pub fn verify_line(out: &mut impl Write, read_id: &str, signal: &[i16]) -> Result<(), String> {
    writeln!(
        out,
        "{{\"read_id\":{},\"num_samples\":{},\"sha256\":\"{}\"}}",
        json_str(read_id),
        signal.len(),
        signal_sha256(signal)
    )
    .map_err(|e| format!("stdout: {e}"))
}

/// Writes `DIR/READ_ID.i16` (int16 LE) or `DIR/READ_ID.npy`; refuses ids that are not plain
/// file names.
pub fn write_signal(dir: &Path, read_id: &str, signal: &[i16], npy: bool) -> Result<(), String> {
    if read_id.is_empty() || read_id.contains(['/', '\\']) || read_id.starts_with('.') {
        return Err(format!("read id {read_id:?} is not a safe file name"));
    }
    let (name, bytes) = if npy {
        (format!("{read_id}.npy"), npy_i16(signal))
    } else {
        (
            format!("{read_id}.i16"),
            signal.iter().flat_map(|s| s.to_le_bytes()).collect(),
        )
    };
    let path = dir.join(name);
    std::fs::write(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))
}
