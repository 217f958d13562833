//! `svb pod5|blow5 info|verify|decode`: the file commands, one implementation for every
//! format through [`SignalFile`].

use std::io::Write;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use clap::Subcommand;

use svb_model::{Format, ReadSource};
use svb_reads::AnyReader;

use crate::output::{
    error_chain, for_each_in_order, quiet_on_closed_pipe, signal_sha256, verify_line,
};
use crate::publish::{output_dir, write_signal};

/// What the file commands need of a format beyond its reads ([`AnyReader`] gives those):
/// its `info`.
pub trait SignalFile: Sync {
    /// The format.
    const FORMAT: Format;
    /// The format's own reader inside `r` (opened as [`Self::FORMAT`]).
    fn of(r: &AnyReader) -> Option<&Self>;
    /// Writes what the file holds (the `info` command, after the line naming the file).
    fn write_info(&self, out: &mut dyn Write) -> std::io::Result<()>;
    /// The same as one JSON object (`info --json`).
    fn info_json(&self, path: &Path) -> String;
    /// Read `read_id` in detail (`info --read`): POD5's alone, as `pod5 inspect read` prints
    /// it; the other formats say where to look instead.
    fn write_read(&self, read_id: &str, out: &mut dyn Write) -> Result<(), String> {
        let _ = (read_id, out);
        Err(format!(
            "--read: one read in detail is POD5's (as `pod5 inspect read`); a {} file's reads \
             are shown by `svb view` (fields) and `svb get` (signal)",
            Self::FORMAT.name()
        ))
    }
    /// The file as slow5tools stats describes it, `file` as given (`info --stats`): BLOW5's
    /// and SLOW5's alone.
    fn write_stats(&self, file: &Path, out: &mut dyn Write) -> Result<(), String> {
        let _ = (file, out);
        Err(format!(
            "--stats: slow5tools stats' layout is BLOW5's and SLOW5's; `svb {} info` describes \
             a {} file",
            Self::FORMAT.extension(),
            Self::FORMAT.name()
        ))
    }
    /// The records as slow5tools skim prints them (`skim`): BLOW5's and SLOW5's alone.
    fn write_skim(&self, what: Skim, out: &mut dyn Write) -> Result<(), String> {
        let _ = (what, out);
        Err(format!(
            "skim: slow5tools skim's table is BLOW5's and SLOW5's; `svb view` shows a {} \
             file's reads",
            Self::FORMAT.name()
        ))
    }
}

/// What `skim` prints (slow5tools skim's modes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Skim {
    /// Every record without its signal.
    Records,
    /// The read ids, one a line (`--rid`).
    ReadIds,
    /// The header as SLOW5 text writes it (`--hdr`).
    Header,
}

#[derive(Subcommand)]
pub enum Command {
    /// What the file holds: its header or footer, tables, runs or read groups, read count,
    /// compression by the names users know (zstd, svb-zd, vbz, ...).
    Info {
        /// The file.
        file: PathBuf,
        /// One JSON object instead of text.
        #[arg(long, conflicts_with = "read")]
        json: bool,
        /// slow5tools stats' lines instead, byte for byte (BLOW5 / SLOW5): the file as given,
        /// its version, format, compression, read groups, auxiliary fields and records.
        #[arg(long, conflicts_with_all = ["read", "json"])]
        stats: bool,
        /// One read in detail instead, as `pod5 inspect read` prints it, byte for byte (POD5):
        /// its fields, channel, end reason, calibration, samples and stored bytes, and its run.
        #[arg(long, value_name = "READ_ID")]
        read: Option<String>,
    },
    /// Decodes every read; prints one JSON line per good read (read_id, num_samples, sha256
    /// of the int16 LE signal) and one line on stderr per bad read, naming it; exits 1 at the
    /// end if any read failed.
    Verify {
        /// The file.
        file: PathBuf,
        /// Check the structure alone (header, every record's or table's place, the end
        /// marker or footer), decoding no signal; says the read count.
        #[arg(long)]
        quick: bool,
    },
    /// slow5tools skim's table, byte for byte (BLOW5 / SLOW5): every record's fields with `.`
    /// for its signal (none is decoded), floats as slow5lib prints them, enums by label; or
    /// the read ids, or the header.
    Skim {
        /// The file.
        file: PathBuf,
        /// The read ids alone, one a line (slow5tools skim --rid).
        #[arg(long, conflicts_with = "hdr")]
        rid: bool,
        /// The header alone, as SLOW5 text writes it (slow5tools skim --hdr).
        #[arg(long)]
        hdr: bool,
    },
    /// Writes every read's signal to DIR as READ_ID.i16 (int16 LE), or READ_ID.npy; stops at
    /// the first read that fails, or whose id is not a file name portable to every OS.
    Decode {
        /// The file.
        file: PathBuf,
        /// Output folder (created if missing).
        #[arg(short, long)]
        output: PathBuf,
        /// Write NumPy .npy files instead of raw .i16.
        #[arg(long)]
        npy: bool,
        /// Replace signal files that exist (without it, an existing one stops the command).
        #[arg(long)]
        force: bool,
    },
}

/// `svb FORMAT` (`pod5`, `blow5` or `fast5`) with examples of that format under each of its
/// subcommands (they share one definition, [`Command`]).
pub fn with_examples(cmd: clap::Command, format: &str) -> clap::Command {
    let file = format!("reads.{format}");
    let examples = [
        (
            "info",
            match format {
                "pod5" => format!(
                    "svb {format} info {file}\n  svb {format} info --json {file}\n  \
                     svb {format} info {file} --read 0000173c-bf67-44e7-9a9c-1ad0bc728e74   \
                     (as pod5 inspect read)"
                ),
                "blow5" => format!(
                    "svb {format} info {file}\n  svb {format} info --json {file}\n  \
                     svb {format} info --stats {file}     (slow5tools stats' lines)"
                ),
                _ => format!("svb {format} info {file}\n  svb {format} info --json {file}"),
            },
        ),
        (
            "skim",
            format!(
                "svb {format} skim {file} > records.tsv     (slow5tools skim's table)\n  \
                 svb {format} skim --rid {file}"
            ),
        ),
        (
            "verify",
            format!(
                "svb {format} verify {file} > reads.sha256.jsonl\n  \
                 svb {format} verify --quick {file}     (structure only, no signal decoded)"
            ),
        ),
        (
            "decode",
            format!(
                "svb {format} decode {file} -o signals\n  \
                 svb {format} decode {file} -o signals --npy"
            ),
        ),
    ];
    examples.into_iter().fold(cmd, |cmd, (sub, lines)| {
        cmd.mut_subcommand(sub, |c| c.after_help(format!("Examples:\n  {lines}")))
    })
}

/// Runs `cmd` on a file of format `F`. Output to a closed pipe (`svb pod5 verify f | head`)
/// ends the command quietly.
pub fn run<F: SignalFile>(cmd: Command) -> Result<(), String> {
    let open = |file: &Path| {
        AnyReader::open_as(file, F::FORMAT).map_err(|e| {
            let said = error_chain(&e);
            // A file that ends early: its whole records can be saved.
            let cut = ["runs past the end of the file", "not the 5-byte marker", "cut short"];
            if cut.iter().any(|c| said.contains(c)) {
                format!(
                    "{said}\n`svb recover {} -o OUT` saves the whole records before it",
                    file.display()
                )
            } else {
                said
            }
        })
    };
    match cmd {
        Command::Info { file, json, read, stats } => {
            let r = open(&file)?;
            let f = F::of(&r).expect("opened as this format");
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            if let Some(id) = read {
                f.write_read(&id, &mut out)?;
                return quiet_on_closed_pipe(out.flush());
            }
            if stats {
                f.write_stats(&file, &mut out)?;
                return quiet_on_closed_pipe(out.flush());
            }
            let written = if json {
                writeln!(out, "{}", f.info_json(&file))
            } else {
                writeln!(out, "file: {}", file.display()).and_then(|()| f.write_info(&mut out))
            };
            quiet_on_closed_pipe(written.and_then(|()| out.flush()))
        }
        Command::Skim { file, rid, hdr } => {
            let r = open(&file)?;
            let f = F::of(&r).expect("opened as this format");
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            let what = match (rid, hdr) {
                (true, _) => Skim::ReadIds,
                (_, true) => Skim::Header,
                _ => Skim::Records,
            };
            f.write_skim(what, &mut out)?;
            quiet_on_closed_pipe(out.flush())
        }
        Command::Verify { file, quick: true } => {
            let f = open(&file)?;
            // POD5 tables and BLOW5 records are checked at open; a FAST5 read's groups are
            // found then, and its attributes and its signal dataset's type, shape and declared
            // count are checked here (what a decode checks before it decodes).
            if let Some(r) = f.fast5() {
                for i in 0..r.len() {
                    svb_model::ReadSource::fields(r, i).map_err(|e| error_chain(&e))?;
                }
            }
            crate::progress::summary!(
                "svb: verify --quick: {}: structure good, {} reads (no signal decoded)",
                file.display(),
                f.len()
            );
            Ok(())
        }
        Command::Verify { file, quick: false } => {
            let f = open(&file)?;
            f.expect_scan();
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            let mut failed = 0usize;
            let r = for_each_in_order(
                f.len(),
                "verify",
                // Decoded and hashed on the worker threads; only the lines are in order.
                |i| {
                    f.signal(i)
                        .map(|s| (s.read_id, s.samples.len(), signal_sha256(&s.samples)))
                        .map_err(|e| error_chain(&e))
                },
                |progress, item| match item {
                    Ok((id, n, sha)) => match verify_line(&mut out, &id, n, &sha) {
                        Ok(()) => ControlFlow::Continue(()),
                        Err(e) => ControlFlow::Break(Err(e)),
                    },
                    Err(e) => {
                        failed += 1;
                        progress.eprintln(&format!("svb: verify: {e}"));
                        ControlFlow::Continue(())
                    }
                },
            );
            quiet_on_closed_pipe(r.and_then(|()| out.flush()))?;
            match failed {
                0 => Ok(()),
                _ => Err(format!(
                    "{}: {failed} of {} reads failed to decode",
                    file.display(),
                    f.len()
                )),
            }
        }
        Command::Decode { file, output, npy, force } => {
            let inputs = crate::inputs::identities(std::slice::from_ref(&file))?;
            decode_to_dir(&open(&file)?, &output, npy, force, &inputs)
        }
    }
}

/// Writes every read of `file` to `output` as READ_ID.i16 (or .npy), each published only
/// when complete, stopping at the first failure; an existing signal file stops it unless
/// `force`, and one of `inputs` always.
pub fn decode_to_dir(
    f: &AnyReader, output: &Path, npy: bool, force: bool, inputs: &svb_io::Inputs,
) -> Result<(), String> {
    output_dir(output)?;
    f.expect_scan();
    let r = for_each_in_order(
        f.len(),
        "decode",
        |i| f.signal(i).map_err(|e| error_chain(&e)),
        |_, item| match item
            .and_then(|s| write_signal(output, &s.read_id, &s.samples, npy, force, inputs))
        {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => ControlFlow::Break(Err(std::io::Error::other(e))),
        },
    );
    r.map_err(|e| e.to_string())
}
