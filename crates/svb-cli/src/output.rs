//! What the subcommands print and write: error messages, JSON lines, sha256, .npy files,
//! verify lines, and the in-order parallel walk over a file's reads. Progress bars are
//! `progress.rs`'s, publishing outputs `publish.rs`'s.

use std::io::Write;
use std::ops::ControlFlow;
use std::path::Path;

use rayon::prelude::*;

use sha2::{Digest, Sha256};

use crate::progress::Progress;

/// An error's message and every source's after it, `: ` between them, each text once (a
/// source whose text the message already holds is not repeated; one that repeats the message
/// and adds to it replaces it). An output that exists gets the way to replace it.
pub fn error_chain(e: &(dyn std::error::Error + 'static)) -> String {
    let mut s = svb_io::error_chain(e);
    if svb_io::caused_by(e, std::io::ErrorKind::AlreadyExists) {
        s.push_str(" (--force replaces it)");
    }
    s
}

/// An error writing the output `path`, said once and with what to do.
pub fn output_error(path: &Path, e: &std::io::Error) -> String {
    format!("{}: {}", path.display(), error_chain(e))
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

/// A NumPy `.npy` (format 1.0) file of little-endian int16 samples.
pub fn npy_i16(signal: &[i16]) -> Vec<u8> {
    npy("<i2", signal.len(), signal.iter().flat_map(|s| s.to_le_bytes()))
}

/// A NumPy `.npy` (format 1.0) file of little-endian float32 values.
pub fn npy_f32(values: &[f32]) -> Vec<u8> {
    npy("<f4", values.len(), values.iter().flat_map(|s| s.to_le_bytes()))
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
    len: usize, what: &str, decode: impl Fn(usize) -> Result<T, String> + Sync,
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
    out: &mut impl Write, read_id: &str, samples: usize, sha256: &str,
) -> std::io::Result<()> {
    writeln!(
        out,
        "{{\"read_id\":{},\"num_samples\":{samples},\"sha256\":\"{sha256}\"}}",
        json_str(read_id),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sha256_of_samples_is_of_their_le_bytes() {
        let s: Vec<i16> = (0..10_000).map(|i| (i * 7 - 3000) as i16).collect();
        let bytes: Vec<u8> = s.iter().flat_map(|x| x.to_le_bytes()).collect();
        let want: String = Sha256::digest(&bytes).iter().map(|b| format!("{b:02x}")).collect();
        assert_eq!(signal_sha256(&s), want);
        assert_eq!(
            signal_sha256(&[]),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }
}
