//! `svb pod5|blow5 info|verify|decode`: the file commands, one implementation for every
//! format through [`SignalFile`].

use std::path::{Path, PathBuf};

use clap::Subcommand;

use crate::output::{for_each_in_order, verify_line, write_signal};

/// What the file commands need of a signal file format.
pub trait SignalFile: Sized + Sync {
    /// Opens and checks the file's structure.
    fn open(path: &Path) -> Result<Self, String>;
    /// Number of reads.
    fn len(&self) -> usize;
    /// Read `index`'s id and decoded signal (`index < len()`).
    fn read(&self, index: usize) -> Result<(String, Vec<i16>), String>;
    /// Prints what the file holds (the `info` command).
    fn print_info(&self, path: &Path);
}

#[derive(Subcommand)]
pub enum Command {
    /// What the file holds: its header or footer, tables, runs or read groups, read count.
    Info {
        /// The file.
        file: PathBuf,
    },
    /// Decodes every read; prints one JSON line per read (read_id, num_samples, sha256 of
    /// the int16 LE signal). Exits non-zero at the first broken read.
    Verify {
        /// The file.
        file: PathBuf,
    },
    /// Writes every read's signal to DIR as READ_ID.i16 (int16 LE), or READ_ID.npy.
    Decode {
        /// The file.
        file: PathBuf,
        /// Output folder (created if missing).
        #[arg(short, long)]
        output: PathBuf,
        /// Write NumPy .npy files instead of raw .i16.
        #[arg(long)]
        npy: bool,
    },
}

/// Runs `cmd` on a file of format `F`.
pub fn run<F: SignalFile>(cmd: Command) -> Result<(), String> {
    match cmd {
        Command::Info { file } => {
            F::open(&file)?.print_info(&file);
            Ok(())
        }
        Command::Verify { file } => {
            let f = F::open(&file)?;
            let stdout = std::io::stdout();
            let mut out = stdout.lock();
            for_each_in_order(
                f.len(),
                "verify",
                |i| f.read(i),
                |(id, s)| verify_line(&mut out, &id, &s),
            )
        }
        Command::Decode { file, output, npy } => {
            let f = F::open(&file)?;
            std::fs::create_dir_all(&output).map_err(|e| format!("{}: {e}", output.display()))?;
            for_each_in_order(
                f.len(),
                "decode",
                |i| f.read(i),
                |(id, s)| write_signal(&output, &id, &s, npy),
            )
        }
    }
}
