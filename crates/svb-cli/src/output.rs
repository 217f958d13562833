//! Output helpers shared by the subcommands: JSON lines, sha256, progress, .npy files.

use std::time::{Duration, Instant};

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
