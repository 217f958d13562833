//! `svb convert`: POD5 to BLOW5 / SLOW5 and back with blue-crab's field mapping, FAST5 to POD5
//! with ONT's and to BLOW5 / SLOW5 with slow5tools f2s's (`svb-convert`), BLOW5 to SLOW5 text and
//! back, BLOW5 recompressed, POD5 repacked; the direction chosen by the output's extension.

use std::path::{Path, PathBuf};

use clap::ValueEnum;
use svb_blow5::{RecordCompression, SignalCompression};

use crate::inputs::{identities, Inputs};
use crate::output::error_chain;
use crate::progress::SharedProgress;
use crate::publish::{check_output, output_dir};
use svb_convert::Compression;
use svb_model::Format;

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum RecordCodec {
    Zstd,
    Zlib,
    None,
}

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum SignalCodec {
    SvbZd,
    ExZd,
    None,
}

/// `svb convert --text-floats`.
#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum TextFloats {
    /// The shortest decimal that reads back as the same value.
    Exact,
    /// slow5lib's `%f`, trailing zeros dropped (six decimals).
    Slow5lib,
}

impl TextFloats {
    /// The BLOW5 writer's form of a SLOW5 text output's floats (`None`: exact).
    pub(crate) fn float_text(form: Option<TextFloats>) -> svb_blow5::FloatText {
        match form {
            Some(TextFloats::Slow5lib) => svb_blow5::FloatText::Slow5lib,
            Some(TextFloats::Exact) | None => svb_blow5::FloatText::Exact,
        }
    }
}

/// `svb convert --signal`: the output format's signal compression, whichever that is (as the
/// Python package's `signal=`).
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum OutputSignal {
    /// BLOW5: slow5lib's StreamVByte with zig-zag deltas.
    SvbZd,
    /// BLOW5: slow5lib's ex-zd.
    ExZd,
    /// POD5 and FAST5: ONT's VBZ.
    Vbz,
    /// POD5: ONT's second compression (`minknow.pdz`).
    Pdz,
    /// POD5: int16 samples as they are.
    Uncompressed,
    /// FAST5: HDF5's deflate filter.
    Gzip,
    /// BLOW5 and FAST5: raw samples.
    None,
}
#[derive(clap::Args)]
#[command(after_help = "Examples:\n  svb convert reads.pod5 -o reads.blow5\n  \
    svb convert -r blow5_dir/ -o merged.pod5\n  \
    svb convert -r pod5_dir/ -o blow5_dir/ --to blow5     (one output per input)\n  \
    svb convert -r runs/ -o all.blow5 --keep-going        (bad inputs and reads left out)\n  \
    svb convert -r fast5_dir/ -o reads.pod5              (FAST5, multi- or single-read)\n  \
    svb convert reads.blow5 -o reads.slow5               (SLOW5 text, and back)\n  \
    svb convert reads.pod5 -o reads.slow5 --text-floats slow5lib   (six decimals, as slow5tools)\n  \
    svb convert reads.blow5 -o small.blow5 --signal ex-zd (recompressed)\n  \
    svb convert reads.pod5 -o fast.pod5 --decode-fast    (POD5 repacked)\n  \
    svb convert reads.pod5 -o pdz.pod5 --signal pdz      (ONT's PDZ signal; --signal vbz back)\n  \
    svb convert reads.pod5 -o reads.fast5                (multi-read FAST5, VBZ signal)\n  \
    svb convert -r pod5_dir/ -o fast5_dir/ --to fast5 --signal gzip\n  \
    svb convert reads.pod5 -o reads.fast5 --file-read-count 4000 (reads.0.fast5, ...)\n\n\
    The field mapping is blue-crab's (FAST5 -> POD5: ONT's, end reasons by label; FAST5 ->\n\
    BLOW5 / SLOW5: slow5tools f2s's; POD5 -> FAST5: pod5 convert to_fast5's); docs/FORMATS.md\n\
    lists them.")]
pub struct Args {
    #[command(flatten)]
    inputs: Inputs,
    /// The output: a .pod5, .blow5, .slow5 or .fast5 file for all inputs, or a directory
    /// (with --to) for one output per input, named after it; `-` writes SLOW5 text to
    /// standard output (as slow5tools view).
    #[arg(short, long)]
    output: PathBuf,
    /// The output format when -o is a directory.
    #[arg(long, value_parser = crate::inputs::format_parser(&Format::WRITTEN))]
    to: Option<Format>,
    /// FAST5 outputs cut into files of N reads each, as `pod5 convert to_fast5
    /// --file-read-count` (MinKNOW wrote 4000): -o reads.fast5 gives reads.0.fast5,
    /// reads.1.fast5, ..., published together when the last is complete.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    file_read_count: Option<u64>,
    /// BLOW5 record compression [default: zstd].
    #[arg(long, value_enum)]
    records: Option<RecordCodec>,
    /// The output's signal compression. BLOW5: svb-zd [default], ex-zd or none. POD5: vbz
    /// [default, as MinKNOW and lib_pod5 write it], pdz (ONT's second, `minknow.pdz`, on pod5's
    /// development line: only svb and ONT's newest reader read it) or uncompressed. FAST5: vbz
    /// [default, ONT's HDF5 filter 32020, which readers other than svb open with ONT's vbz
    /// plugin], gzip (opens in every HDF5 reader) or none. (--pod5-signal and --fast5-signal
    /// are other names for it.)
    #[arg(
        long,
        value_enum,
        alias = "pod5-signal",
        alias = "fast5-signal",
        hide_possible_values = true
    )]
    signal: Option<OutputSignal>,
    /// zstd's decode-fast profile (raw literals: larger files that every reader decodes
    /// faster); POD5 output, or BLOW5 with zstd records.
    #[arg(long)]
    decode_fast: bool,
    /// A SLOW5 text output's floating-point values: exact [default: the shortest decimal
    /// that reads back as the same value], or slow5lib's six decimals, byte for byte as
    /// slow5tools writes them (values with more digits read back rounded).
    #[arg(long, value_enum, value_name = "FORM")]
    text_floats: Option<TextFloats>,
    /// Samples a POD5 output's signal chunk holds at most [default: 102400, as lib_pod5]
    /// (pod5 convert's --signal-chunk-size).
    #[arg(long, value_name = "SAMPLES")]
    signal_chunk_size: Option<usize>,
    #[command(flatten)]
    writing: crate::publish::Writing,
}

/// Converts; `Ok(false)` when `--keep-going` left inputs or reads out.
pub fn run(args: &Args) -> Result<bool, String> {
    let (from, files, unopened) = args.inputs.expand_for("convert", args.writing.keep_going)?;
    let inputs = identities(&files)?;
    let (to, outputs): (Format, Vec<(Vec<PathBuf>, PathBuf)>) = match args.to {
        Some(to) => {
            let ext = to.extension();
            let outs = files
                .iter()
                .map(|f| {
                    let stem = f.file_stem().unwrap_or_default().to_string_lossy();
                    (vec![f.clone()], args.output.join(format!("{stem}.{ext}")))
                })
                .collect();
            (to, outs)
        }
        None => {
            let to = Format::of_output(&args.output)
                .map_err(|e| format!("{e} (or be a directory, with --to)"))?;
            (to, vec![(files.clone(), args.output.clone())])
        }
    };
    let mut compression = Compression {
        records: args.records.map(RecordCodec::compression),
        decode_fast: args.decode_fast,
        pod5_chunk_samples: args.signal_chunk_size,
        float_text: TextFloats::float_text(args.text_floats),
        ..Compression::default()
    };
    if let Some(signal) = args.signal {
        signal.set(to, &mut compression)?;
    }
    compression.check(to, &args.output).map_err(|e| error_chain(&e))?;
    if args.file_read_count.is_some() && to != Format::Fast5 {
        return Err("--file-read-count cuts FAST5 outputs (svb split cuts the others)".into());
    }
    // Two inputs of one name (in two folders) would make one output, the second's reads
    // replacing the first's: refused before anything is written, as slow5tools does.
    let mut names: std::collections::HashMap<&Path, &Path> = std::collections::HashMap::new();
    for (ins, out) in &outputs {
        if let Some(first) = names.insert(out, &ins[0]) {
            return Err(format!(
                "{} and {} would both be converted to {}: rename one, or convert them in two \
                 runs to two folders",
                first.display(),
                ins[0].display(),
                out.display()
            ));
        }
    }
    // Every output is checked before anything is written (the folder made only then).
    for (_, out) in &outputs {
        check_output(out, &inputs, args.writing.force)?;
    }
    if args.to.is_some() {
        output_dir(&args.output)?;
    } else if let Some(parent) = args.output.parent().filter(|p| !p.as_os_str().is_empty()) {
        // `-o newdir/x.fast5` makes newdir, as ONT's `pod5 convert` does.
        output_dir(parent)?;
    }
    let mut left_out = unopened;
    for (ins, out) in &outputs {
        let progress = SharedProgress::new("convert");
        let mut report = |done: u64, total: u64| progress.report(done, total);
        let how = args.writing.run(&mut report);
        let (stats, written) = match args.file_read_count {
            Some(n) => {
                let options = compression.fast5(&how);
                let n = usize::try_from(n).unwrap_or(usize::MAX);
                match svb_convert::to_fast5_files(ins, from, out, options, Some(n), how) {
                    Ok((stats, files)) => (Ok(stats), files),
                    Err(e) => (Err(e), Vec::new()),
                }
            }
            None => (svb_convert::convert(ins, from, out, to, compression, how), vec![out.clone()]),
        };
        progress.finish();
        let stats = match stats {
            Ok(stats) => stats,
            // One output per input: a failed input is named, and the others go on.
            Err(e) if args.writing.keep_going && outputs.len() > 1 => {
                eprintln!("svb: convert: {}", error_chain(&e));
                left_out += 1;
                continue;
            }
            Err(e) => return Err(error_chain(&e)),
        };
        for e in &stats.failed {
            eprintln!("svb: convert: left out: {}", error_chain(e));
        }
        for note in &stats.notes {
            eprintln!("svb: convert: {note}");
        }
        left_out += stats.failed.len();
        let shown: Vec<String> = written.iter().map(|p| display(p)).collect();
        crate::progress::summary!(
            "svb: convert: {} reads, {} samples -> {}",
            stats.reads,
            stats.samples,
            match shown.len() {
                0 => format!(
                    "no file ({} of {} reads each)",
                    display(out),
                    args.file_read_count.unwrap_or(0)
                ),
                _ => shown.join(", "),
            }
        );
    }
    Ok(crate::publish::Writing::none_left_out("convert", left_out))
}

fn display(p: &Path) -> String {
    p.display().to_string()
}

impl RecordCodec {
    pub(crate) fn compression(self) -> RecordCompression {
        match self {
            RecordCodec::Zstd => RecordCompression::Zstd,
            RecordCodec::Zlib => RecordCompression::Zlib,
            RecordCodec::None => RecordCompression::None,
        }
    }
}

impl OutputSignal {
    /// Sets the compression of a `to` output to this one; an error naming the output
    /// format's choices where it has no such compression.
    fn set(self, to: Format, compression: &mut Compression) -> Result<(), String> {
        use svb_pod5::SignalEncoding;
        let name = self.to_possible_value().map(|v| v.get_name().to_string()).unwrap_or_default();
        let refused = |choices: &str| {
            Err(format!("--signal {name}: a .{} output's signal is {choices}", to.extension()))
        };
        match to {
            Format::Blow5 => {
                compression.signal = Some(match self {
                    OutputSignal::SvbZd => SignalCompression::SvbZd,
                    OutputSignal::ExZd => SignalCompression::ExZd,
                    OutputSignal::None => SignalCompression::None,
                    _ => return refused("svb-zd, ex-zd or none"),
                })
            }
            Format::Pod5 => {
                compression.pod5_signal = Some(match self {
                    OutputSignal::Vbz => SignalEncoding::Vbz,
                    OutputSignal::Pdz => SignalEncoding::Pdz,
                    OutputSignal::Uncompressed => SignalEncoding::Uncompressed,
                    _ => return refused("vbz, pdz or uncompressed"),
                })
            }
            Format::Fast5 => {
                compression.fast5_signal = Some(match self {
                    OutputSignal::Vbz => svb_fast5::SignalFilter::Vbz,
                    // h5py's default level, as `compression="gzip"` writes it.
                    OutputSignal::Gzip => svb_fast5::SignalFilter::Gzip(4),
                    OutputSignal::None => svb_fast5::SignalFilter::None,
                    _ => return refused("vbz, gzip or none"),
                })
            }
            Format::Slow5 => {
                return Err(format!(
                    "--signal {name}: SLOW5 text has no compression (a .blow5 output has)"
                ))
            }
        }
        Ok(())
    }
}

impl SignalCodec {
    pub(crate) fn compression(self) -> SignalCompression {
        match self {
            SignalCodec::SvbZd => SignalCompression::SvbZd,
            SignalCodec::ExZd => SignalCompression::ExZd,
            SignalCodec::None => SignalCompression::None,
        }
    }
}

/// The BLOW5 compressions asked for: each given one, else `default`'s (else slow5tools'
/// zstd records and SVB-ZD signal).
pub(crate) fn blow5_options(
    records: Option<RecordCodec>, signal: Option<SignalCodec>, default: Option<&svb_blow5::Header>,
) -> svb_blow5::WriteOptions {
    let record_compression = match records {
        Some(r) => r.compression(),
        None => default.map_or(RecordCompression::Zstd, |h| h.record_compression),
    };
    let signal_compression = match signal {
        Some(s) => s.compression(),
        None => default.map_or(SignalCompression::SvbZd, |h| h.signal_compression),
    };
    svb_blow5::WriteOptions {
        record_compression,
        signal_compression,
        ..svb_blow5::WriteOptions::default()
    }
}
