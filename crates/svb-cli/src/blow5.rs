//! `svb blow5 info|verify|decode`.

use std::io::Write;
use std::path::PathBuf;

use clap::Subcommand;
use rayon::prelude::*;
use svb_slow5::blow5::Reader;

use crate::output::{json_str, npy_i16, signal_sha256, Progress};

#[derive(Subcommand)]
pub enum Command {
    /// The header: version, compressions, read groups, record count, auxiliary fields.
    Info {
        /// The BLOW5 file.
        file: PathBuf,
    },
    /// Decodes every read; prints one JSON line per read (read_id, num_samples, sha256 of
    /// the int16 LE signal). Exits non-zero at the first broken read.
    Verify {
        /// The BLOW5 file.
        file: PathBuf,
    },
    /// Writes every read's signal to DIR as READ_ID.i16 (int16 LE), or READ_ID.npy.
    Decode {
        /// The BLOW5 file.
        file: PathBuf,
        /// Output folder (created if missing).
        #[arg(short, long)]
        output: PathBuf,
        /// Write NumPy .npy files instead of raw .i16.
        #[arg(long)]
        npy: bool,
    },
}

pub fn run(cmd: Command) -> Result<(), String> {
    match cmd {
        Command::Info { file } => info(&file),
        Command::Verify { file } => verify(&file),
        Command::Decode { file, output, npy } => decode(&file, &output, npy),
    }
}

fn open(file: &PathBuf) -> Result<Reader, String> {
    Reader::open(file).map_err(|e| e.to_string())
}

fn info(file: &PathBuf) -> Result<(), String> {
    let r = open(file)?;
    let h = r.header();
    println!("file: {}", file.display());
    println!("version: {}.{}.{}", h.version.0, h.version.1, h.version.2);
    println!("record compression: {:?}", h.record_compression);
    println!("signal compression: {:?}", h.signal_compression);
    println!("read groups: {}", h.read_groups.len());
    for (g, attrs) in h.read_groups.iter().enumerate() {
        if let Some(run) = h.attribute(g, "run_id") {
            println!("  {g}: run_id {run} ({} attributes)", attrs.len());
        }
    }
    println!("records: {}", r.len());
    let aux: Vec<&str> = h.aux.iter().map(|a| a.name.as_str()).collect();
    println!("auxiliary fields: {}", aux.join(", "));
    Ok(())
}

/// Records are decoded in parallel in windows of this many per thread, printed in file
/// order: memory stays bounded by the window, not the file.
const WINDOW_PER_THREAD: usize = 16;

fn for_each_window(
    r: &Reader,
    what: &str,
    mut each: impl FnMut(svb_slow5::blow5::Record) -> Result<(), String>,
) -> Result<(), String> {
    let window = WINDOW_PER_THREAD * rayon::current_num_threads();
    let mut progress = Progress::new(r.len() as u64, what);
    for start in (0..r.len()).step_by(window) {
        let end = (start + window).min(r.len());
        let decoded: Vec<_> = (start..end)
            .into_par_iter()
            .map(|i| r.record(i).expect("index in range"))
            .collect();
        for rec in decoded {
            each(rec.map_err(|e| e.to_string())?)?;
            progress.inc(1);
        }
    }
    progress.finish();
    Ok(())
}

fn verify(file: &PathBuf) -> Result<(), String> {
    let r = open(file)?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for_each_window(&r, "verify", |rec| {
        writeln!(
            out,
            "{{\"read_id\":{},\"num_samples\":{},\"sha256\":\"{}\"}}",
            json_str(&rec.read_id),
            rec.raw_signal.len(),
            signal_sha256(&rec.raw_signal)
        )
        .map_err(|e| format!("stdout: {e}"))
    })
}

fn decode(file: &PathBuf, dir: &PathBuf, npy: bool) -> Result<(), String> {
    let r = open(file)?;
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for_each_window(&r, "decode", |rec| {
        if rec.read_id.is_empty()
            || rec.read_id.contains(['/', '\\'])
            || rec.read_id.starts_with('.')
        {
            return Err(format!("read id {:?} is not a safe file name", rec.read_id));
        }
        let (name, bytes) = if npy {
            (format!("{}.npy", rec.read_id), npy_i16(&rec.raw_signal))
        } else {
            (
                format!("{}.i16", rec.read_id),
                rec.raw_signal
                    .iter()
                    .flat_map(|s| s.to_le_bytes())
                    .collect(),
            )
        };
        let path = dir.join(name);
        std::fs::write(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))
    })
}
