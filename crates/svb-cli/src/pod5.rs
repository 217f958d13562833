//! `svb pod5 info|verify|decode`.

use std::path::PathBuf;

use clap::Subcommand;
use svb_vbz::pod5::{Reader, TableVersion};

use crate::output::{for_each_in_order, json_str, verify_line, write_signal};

#[derive(Subcommand)]
pub enum Command {
    /// The footer, tables, run info and read count.
    Info {
        /// The POD5 file.
        file: PathBuf,
    },
    /// Decodes every read; prints one JSON line per read (read_id, num_samples, sha256 of
    /// the int16 LE signal). Exits non-zero at the first broken read.
    Verify {
        /// The POD5 file.
        file: PathBuf,
    },
    /// Writes every read's signal to DIR as READ_ID.i16 (int16 LE), or READ_ID.npy.
    Decode {
        /// The POD5 file.
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
    let f = r.footer();
    println!("file: {}", file.display());
    println!("file identifier: {}", f.file_identifier);
    println!("software: {}", f.software);
    println!("pod5 version: {}", f.pod5_version);
    let layout = match r.table_version() {
        TableVersion::V0 => "version 0 (dictionary-of-struct columns)",
        TableVersion::V1OrLater => "version 1 or later",
    };
    println!("reads table: {layout}");
    println!(
        "signal: {:?}, {} chunks",
        r.signal_encoding(),
        r.signal_rows()
    );
    for t in &f.contents {
        println!(
            "  table {:?} at byte {} ({} bytes)",
            t.content_type, t.offset, t.length
        );
    }
    println!("runs: {}", r.run_infos().len());
    for run in r.run_infos() {
        println!(
            "  {}: flow cell {}, kit {}, {} Hz, ADC {}..{}, {}",
            run.acquisition_id,
            run.flow_cell_id,
            run.sequencing_kit,
            run.sample_rate,
            run.adc_min,
            run.adc_max,
            json_str(&run.experiment_name)
        );
    }
    let samples: u64 = r.reads().iter().map(|x| x.num_samples).sum();
    println!("reads: {}", r.len());
    println!("samples: {samples}");
    Ok(())
}

fn signal(r: &Reader, i: usize) -> Result<(String, Vec<i16>), String> {
    let s = r.decode_signal(i).map_err(|e| e.to_string())?;
    Ok((r.reads()[i].read_id_string(), s))
}

fn verify(file: &PathBuf) -> Result<(), String> {
    let r = open(file)?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for_each_in_order(
        r.len(),
        "verify",
        |i| signal(&r, i),
        |(id, s)| verify_line(&mut out, &id, &s),
    )
}

fn decode(file: &PathBuf, dir: &PathBuf, npy: bool) -> Result<(), String> {
    let r = open(file)?;
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for_each_in_order(
        r.len(),
        "decode",
        |i| signal(&r, i),
        |(id, s)| write_signal(dir, &id, &s, npy),
    )
}
