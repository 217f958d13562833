//! `svb`: inspect, verify and decode nanopore signal files (POD5, BLOW5, SLOW5, FAST5), and
//! benchmark the codecs on built-in realistic signal.
#![forbid(unsafe_code)]

mod bench;
mod blow5;
mod convert;
mod decode;
mod fast5;
mod files;
mod get;
mod index;
mod inputs;
mod merge;
mod output;
mod pod5;
mod progress;
mod publish;
mod recover;
mod remote;
mod split;
mod subset;
mod view;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "svb",
    version,
    about = "SIMD StreamVByte codecs for nanopore signal",
    after_help = "Examples:\n  svb pod5 info reads.pod5\n  svb convert reads.pod5 -o reads.blow5\n  svb subset -r runs/ --read-ids ids.txt -o picked.pod5\n  svb pod5 verify reads.pod5 > reads.sha256.jsonl\n  svb decode -r runs/ -o run.arrow\n  svb --threads 8 blow5 decode reads.blow5 -o signals --npy\n  svb bench"
)]
struct Cli {
    /// Worker threads for decoding and compressing (default: every core).
    #[arg(short = 't', long, global = true)]
    threads: Option<usize>,
    /// Publish outputs without syncing them to the disk first (as ONT's pod5 and slow5tools
    /// write): faster where the disk is the limit, but a power loss or OS crash soon after
    /// may leave an output short or empty under its final name. A killed svb still leaves
    /// nothing under the final name.
    #[arg(long, global = true)]
    no_sync: bool,
    #[command(flatten)]
    remote: remote::Remote,
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
    /// BLOW5 files and SLOW5 text (slow5lib): header, verification, decoding (also `svb
    /// slow5`).
    #[command(alias = "slow5")]
    Blow5 {
        #[command(subcommand)]
        command: files::Command,
    },
    /// FAST5 files (ONT, HDF5): layout and runs, verification, decoding.
    Fast5 {
        #[command(subcommand)]
        command: files::Command,
    },
    /// POD5 to BLOW5 / SLOW5 and back (the direction by the output's extension), with
    /// blue-crab's field mapping; FAST5 to any of them, through ONT's; BLOW5 to SLOW5 text
    /// and back, BLOW5 recompressed.
    Convert(convert::Args),
    /// The reads named in a list, from POD5 or BLOW5 / SLOW5 files, into one file of their
    /// format;
    /// ids found nowhere are listed on stderr and make the exit status 1.
    Subset(subset::Args),
    /// Many POD5, or BLOW5 / SLOW5, files into one: runs and read groups once each, a read
    /// id seen twice an error naming both files (or --duplicates keep-first).
    Merge(merge::Args),
    /// The reads of POD5, or BLOW5 / SLOW5, files into many files in a directory: by run,
    /// read group, channel or end reason, N reads or N files, or a table of destinations.
    Split(split::Args),
    /// slow5lib's index of BLOW5 / SLOW5 files (FILE.idx), for slow5tools, pyslow5 and svb.
    Index(index::Args),
    /// Every whole record of a BLOW5 or SLOW5 file whose writer died, into a new file.
    Recover(recover::Args),
    /// Every read of POD5, BLOW5, SLOW5 or FAST5 files into one Arrow IPC file (a row a read:
    /// metadata
    /// and signal), or into one signal file a read.
    Decode(decode::Args),
    /// The signal of reads named by id: raw int16, .npy, or calibrated pA (float32).
    Get(get::Args),
    /// One row per read: TSV with `pod5 view`'s columns for POD5, the record fields for
    /// BLOW5, the mapped attributes for FAST5, or JSON lines; no signal is decoded (FAST5's
    /// sample count is its dataset's).
    View(view::Args),
    /// Throughput of the codecs on built-in realistic nanopore signal (no file needed).
    Bench(bench::Args),
}

fn main() -> ExitCode {
    if let Err(e) = remote::refuse_credentials(std::env::args_os().skip(1)) {
        eprintln!("svb: {e}");
        return ExitCode::FAILURE;
    }
    let cli = Cli::parse();
    publish::set_no_sync(cli.no_sync);
    if let Err(e) = cli.remote.apply() {
        eprintln!("svb: {e}");
        return ExitCode::FAILURE;
    }
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
        Command::Pod5 { command } => files::run::<svb_pod5::Reader>(command).map(|()| true),
        Command::Blow5 { command } => files::run::<svb_blow5::Reader>(command).map(|()| true),
        Command::Fast5 { command } => files::run::<svb_fast5::Reader>(command).map(|()| true),
        Command::Subset(args) => subset::run(&args),
        Command::Merge(args) => merge::run(&args),
        Command::Split(args) => split::run(&args),
        Command::Index(args) => index::run(&args),
        Command::Recover(args) => recover::run(&args),
        Command::Convert(args) => convert::run(&args),
        Command::Decode(args) => decode::run(&args).map(|()| true),
        Command::Get(args) => get::run(&args).map(|()| true),
        Command::View(args) => view::run(&args).map(|()| true),
        Command::Bench(args) => bench::run(&args).map(|()| true),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("svb: {e}");
            ExitCode::FAILURE
        }
    }
}
