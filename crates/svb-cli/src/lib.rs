//! The `svb` command: view, get, convert, subset, merge, split, recover, index, verify and
//! decode nanopore raw-signal files (POD5, BLOW5, SLOW5, FAST5) on local disks, object stores
//! and web servers, and benchmark the codecs on built-in realistic signal. The binary is
//! [`main`]; [`command`] is its clap definition (for the shell completions and the man page
//! `cargo xtask man` writes).
#![forbid(unsafe_code)]

mod bench;
mod blow5;
mod convert;
mod decode;
mod degrade;
mod example;
mod fast5;
mod files;
mod get;
mod index;
mod inputs;
mod interrupt;
mod merge;
mod output;
mod pod5;
mod progress;
mod publish;
mod pyrepr;
mod recover;
mod remote;
mod split;
mod subset;
mod view;

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "svb",
    version,
    about = "Nanopore raw-signal files (POD5, BLOW5/SLOW5, FAST5), local or on object stores: view, get, convert, subset, merge, split, recover, degrade, index, verify, decode",
    after_help = "Examples:\n  svb view reads.pod5 | head\n  svb get reads.blow5 0d624d4b-671f-40b8-9798-84f2ccc4d7fc --pa -o read.f32\n  svb convert reads.pod5 -o reads.blow5\n  svb subset -r runs/ --read-ids ids.txt -o picked.pod5\n  svb merge -r run/ -o merged.pod5\n  svb pod5 verify reads.pod5 > reads.sha256.jsonl\n  svb decode -r runs/ -o run.arrow\n  svb view --no-sign-request s3://bucket/run/reads.pod5\n  svb completions bash > /etc/bash_completion.d/svb\n  svb bench"
)]
struct Cli {
    /// Worker threads for decoding and compressing (default: every core).
    #[arg(short = 't', long, global = true, help_heading = "Global options")]
    threads: Option<usize>,
    /// Publish outputs without syncing them to the disk first (as ONT's pod5 and slow5tools
    /// write): faster where the disk is the limit, but a power loss or OS crash soon after
    /// may leave an output short or empty under its final name. A killed svb still leaves
    /// nothing under the final name.
    #[arg(long, global = true, help_heading = "Global options")]
    no_sync: bool,
    /// Quiet: no progress bars (they are shown on a terminal once a command has run a second,
    /// and never when stderr is not a terminal) and no summary of what was written; errors,
    /// what was left out and notes on side files are still said.
    #[arg(short = 'q', long, global = true, help_heading = "Global options")]
    quiet: bool,
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
    Split(Box<split::Args>),
    /// slow5lib's index of BLOW5 / SLOW5 files (FILE.idx), for slow5tools, pyslow5 and svb.
    Index(index::Args),
    /// A BLOW5 / SLOW5 file with each sample's low bits rounded away and stored with ex-zd
    /// (irreversible; about half the size), as slow5tools degrade writes it; a POD5 into POD5.
    Degrade(degrade::Args),
    /// Every whole record of a BLOW5 or SLOW5 file whose writer died, or every read of a POD5
    /// file whose footer is missing or damaged, into a new file of its format.
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
    /// Small POD5, BLOW5, SLOW5 and FAST5 files of realistic signal in a folder, with the names
    /// and read ids the README's examples use.
    Example(example::Args),
    /// A shell's completion script for svb, on stdout.
    #[command(
        after_help = "Examples:\n  svb completions bash > ~/.local/share/bash-completion/completions/svb\n  \
        svb completions zsh > ~/.zfunc/_svb\n  svb completions fish > ~/.config/fish/completions/svb.fish"
    )]
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
}

/// The `svb` command's definition: clap's, with each format's own examples under `svb pod5`,
/// `svb blow5` and `svb fast5` (which share their subcommands).
pub fn command() -> clap::Command {
    let mut cmd = Cli::command();
    for format in ["pod5", "blow5", "fast5"] {
        cmd = cmd.mut_subcommand(format, |c| files::with_examples(c, format));
    }
    // The global options are copied into every subcommand that lacks them when the command
    // is built; a subcommand that has no use for one gets a hidden copy of it instead (still
    // accepted, as clap's global options are everywhere, and absent from its help).
    for (path, unused) in UNUSED_GLOBALS {
        let hidden: Vec<clap::Arg> = cmd
            .get_arguments()
            .filter(|a| unused.contains(&a.get_id().as_str()))
            .map(|a| a.clone().global(false).hide(true))
            .collect();
        cmd = with_args(cmd, path, hidden);
    }
    cmd
}

/// The global options each subcommand ignores: `bench` and `completions` read and write no
/// file; `info` and `verify` write none; `example` writes local files of its own.
const UNUSED_GLOBALS: [(&[&str], &[&str]); 9] = [
    (&["example"], &["no_sign_request", "storage_options"]),
    (&["bench"], &["no_sync", "quiet", "no_sign_request", "storage_options"]),
    (&["completions"], &["no_sync", "quiet", "threads", "no_sign_request", "storage_options"]),
    (&["pod5", "info"], &["no_sync"]),
    (&["pod5", "verify"], &["no_sync"]),
    (&["blow5", "info"], &["no_sync"]),
    (&["blow5", "verify"], &["no_sync"]),
    (&["fast5", "info"], &["no_sync"]),
    (&["fast5", "verify"], &["no_sync"]),
];

fn with_args(cmd: clap::Command, path: &[&str], args: Vec<clap::Arg>) -> clap::Command {
    match path {
        [] => cmd.args(args),
        [first, rest @ ..] => cmd.mut_subcommand(*first, |c| with_args(c, rest, args)),
    }
}

/// The `svb` command: parses the process's arguments, runs the command, says how it went.
pub fn main() -> ExitCode {
    ExitCode::from(run_with(std::env::args_os()))
}

/// The `svb` command run with `args` (the first the program's name), as [`main`] runs it with
/// the process's: its exit status (0, 1, 130 when stopped by Ctrl-C; 2 for a command line
/// clap refuses, which, like `--help` and `--version`, ends the process as clap does). What
/// the Python package's `svb` command calls.
pub fn run_with(args: impl IntoIterator<Item = std::ffi::OsString>) -> u8 {
    let args: Vec<std::ffi::OsString> = args.into_iter().collect();
    if let Err(e) = remote::refuse_credentials(args.iter().skip(1).cloned()) {
        eprintln!("svb: {e}");
        return 1;
    }
    let cli = match Cli::from_arg_matches(&command().get_matches_from(args)) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    publish::set_no_sync(cli.no_sync);
    progress::set_quiet(cli.quiet);
    if let Err(e) = cli.remote.apply() {
        eprintln!("svb: {e}");
        return 1;
    }
    if let Some(n) = cli.threads {
        if let Err(e) = rayon::ThreadPoolBuilder::new().num_threads(n).build_global() {
            eprintln!("svb: --threads {n}: {e}");
            return 1;
        }
    }
    let writes_through_run = matches!(
        cli.command,
        Command::Subset(_)
            | Command::Merge(_)
            | Command::Split(_)
            | Command::Recover(_)
            | Command::Degrade(_)
            | Command::Convert(_)
    );
    if writes_through_run {
        if let Err(e) = interrupt::catch() {
            eprintln!("svb: {e}");
            return 1;
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
        Command::Degrade(args) => degrade::run(&args),
        Command::Convert(args) => convert::run(&args),
        Command::Decode(args) => decode::run(&args).map(|()| true),
        Command::Get(args) => get::run(&args).map(|()| true),
        Command::View(args) => view::run(&args).map(|()| true),
        Command::Bench(args) => bench::run(&args).map(|()| true),
        Command::Example(args) => example::run(&args),
        Command::Completions { shell } => {
            // Made in memory, then written (clap_complete panics on a failed write).
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut command(), "svb", &mut script);
            let mut out = std::io::stdout().lock();
            let written = std::io::Write::write_all(&mut out, &script)
                .and_then(|()| std::io::Write::flush(&mut out));
            output::quiet_on_closed_pipe(written).map(|()| true)
        }
    };
    match result {
        // Stopped by Ctrl-C or SIGTERM: nothing was published (128 + SIGINT, as a shell
        // reports a process a Ctrl-C ended).
        Err(e) if svb_io::interrupted() => {
            eprintln!("svb: {e}");
            130
        }
        Ok(true) => 0,
        Ok(false) => 1,
        // The reader of standard output closed it (`-o - | head`): quietly, as `view`.
        Err(_) if svb_io::stdout_closed() => 0,
        Err(e) => {
            eprintln!("svb: {e}");
            1
        }
    }
}

#[cfg(test)]
mod tests {
    use super::command;

    /// The `svb ...` lines of every command's help examples (`after_help`), each as its
    /// arguments: a line's words up to a comment in parentheses, a redirection or a pipe.
    fn example_lines(cmd: &clap::Command, out: &mut Vec<(String, Vec<String>)>) {
        if let Some(help) = cmd.get_after_help() {
            for line in help.to_string().lines() {
                let Some(rest) = line.trim_start().strip_prefix("svb ") else {
                    continue;
                };
                let args = rest
                    .split_whitespace()
                    .take_while(|w| !w.starts_with('(') && !matches!(*w, ">" | "|"))
                    .map(String::from)
                    .collect();
                out.push((line.trim().to_string(), args));
            }
        }
        for sub in cmd.get_subcommands() {
            example_lines(sub, out);
        }
    }

    #[test]
    fn every_help_example_parses() {
        let mut lines = Vec::new();
        example_lines(&command(), &mut lines);
        assert!(lines.len() > 40, "{} example lines found", lines.len());
        for (line, args) in &lines {
            let argv = std::iter::once("svb".to_string()).chain(args.iter().cloned());
            if let Err(e) = command().try_get_matches_from(argv) {
                panic!("the help example `{line}` does not parse: {e}");
            }
        }
    }

    /// `svb pod5`, `svb blow5` and `svb fast5` share their subcommands; each shows its own
    /// format in its examples.
    #[test]
    fn each_format_shows_its_own_examples() {
        let cmd = command();
        for format in ["pod5", "blow5", "fast5"] {
            let group = cmd.find_subcommand(format).expect(format);
            for sub in group.get_subcommands() {
                let help = sub.get_after_help().expect("examples").to_string();
                for other in ["pod5", "blow5", "fast5"] {
                    let said = help.contains(&format!("svb {other} "))
                        || help.contains(&format!(".{other}"));
                    assert_eq!(said, other == format, "svb {format} {}: {help}", sub.get_name());
                }
            }
        }
    }

    /// A subcommand's help leaves out the global options it ignores, which it still accepts.
    #[test]
    fn unused_global_options_are_hidden_not_refused() {
        let help = |path: &[&str]| {
            let mut cmd = command();
            cmd.build();
            let mut sub = &mut cmd;
            for name in path {
                sub = sub.find_subcommand_mut(name).expect(name);
            }
            sub.render_long_help().to_string()
        };
        let bench = help(&["bench"]);
        for hidden in ["--no-sync", "--quiet", "--no-sign-request", "--storage-option"] {
            assert!(!bench.contains(hidden), "bench shows {hidden}");
        }
        assert!(bench.contains("--threads"));
        assert!(!help(&["pod5", "verify"]).contains("--no-sync"));
        assert!(help(&["convert"]).contains("--no-sync"));
        assert!(help(&["pod5", "decode"]).contains("--no-sync"));
        for argv in [
            &["svb", "bench", "--no-sync", "--quiet"][..],
            &["svb", "--no-sync", "pod5", "verify", "x.pod5"],
            &["svb", "blow5", "info", "--no-sync", "x.blow5"],
        ] {
            command().try_get_matches_from(argv).expect("accepted");
        }
    }

    #[test]
    fn completions_cover_every_subcommand() {
        for shell in
            [clap_complete::Shell::Bash, clap_complete::Shell::Zsh, clap_complete::Shell::Fish]
        {
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut command(), "svb", &mut script);
            let script = String::from_utf8(script).unwrap();
            for sub in command().get_subcommands() {
                assert!(script.contains(sub.get_name()), "{shell}: {}", sub.get_name());
            }
            assert!(script.contains("no-sign-request"), "{shell}");
        }
    }
}
