//! `svb`: inspect, verify and decode nanopore signal files (POD5, BLOW5), and benchmark the codecs
//! on built-in realistic signal.

mod bench;
mod blow5;
mod files;
mod output;
mod pod5;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "svb",
    version,
    about = "SIMD StreamVByte codecs for nanopore signal",
    after_help = "Examples:\n  svb pod5 info reads.pod5\n  svb pod5 verify reads.pod5 > reads.sha256.jsonl\n  svb --threads 8 blow5 decode reads.blow5 -o signals --npy\n  svb bench"
)]
struct Cli {
    /// Worker threads for parallel decoding (default: every core).
    #[arg(long, global = true)]
    threads: Option<usize>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// POD5 files (ONT): footer and tables, verification, decoding.
    Pod5 {
        #[command(subcommand)]
        command: files::Command,
    },
    /// BLOW5 files (slow5lib): header, verification, decoding.
    Blow5 {
        #[command(subcommand)]
        command: files::Command,
    },
    /// Throughput of the codecs on built-in realistic nanopore signal (no file needed).
    Bench(bench::Args),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    if let Some(n) = cli.threads {
        if let Err(e) = rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global()
        {
            eprintln!("svb: --threads {n}: {e}");
            return ExitCode::FAILURE;
        }
    }
    let result = match cli.command {
        Command::Pod5 { command } => files::run::<svb_vbz::pod5::Reader>(command),
        Command::Blow5 { command } => files::run::<svb_slow5::blow5::Reader>(command),
        Command::Bench(args) => bench::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("svb: {e}");
            ExitCode::FAILURE
        }
    }
}
