//! `svb blow5 info|verify|decode`.

use std::path::PathBuf;

use clap::Subcommand;
use svb_slow5::blow5::Reader;

use crate::output::{for_each_in_order, verify_line, write_signal};

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

fn verify(file: &PathBuf) -> Result<(), String> {
    let r = open(file)?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for_each_in_order(
        r.len(),
        "verify",
        |i| record(&r, i),
        |rec| verify_line(&mut out, &rec.read_id, &rec.raw_signal),
    )
}

fn decode(file: &PathBuf, dir: &PathBuf, npy: bool) -> Result<(), String> {
    let r = open(file)?;
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for_each_in_order(
        r.len(),
        "decode",
        |i| record(&r, i),
        |rec| write_signal(dir, &rec.read_id, &rec.raw_signal, npy),
    )
}

fn record(r: &Reader, i: usize) -> Result<svb_slow5::blow5::Record, String> {
    r.record(i)
        .expect("index in range")
        .map_err(|e| e.to_string())
}
