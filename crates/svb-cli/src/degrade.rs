//! `svb degrade`: slow5tools' lossy compression of a BLOW5 or SLOW5 file (each sample's least
//! significant bits rounded away, then zlib records and ex-zd signal), byte for byte as
//! `slow5tools degrade` writes it; of a POD5 file into POD5 (VBZ) too.

use std::path::PathBuf;

use crate::convert::{RecordCodec, SignalCodec};
use crate::output::error_chain;
use crate::progress::SharedProgress;

#[derive(clap::Args)]
#[command(after_help = "Examples:\n  svb degrade reads.blow5 -o small.blow5             \
    (the bits chosen from the header)\n  \
    svb degrade reads.blow5 -o small.blow5 --bits 2\n  \
    svb degrade reads.slow5 -o small.slow5 --bits 1\n  \
    svb degrade reads.blow5 -o small.blow5 --signal svb-zd\n  \
    svb degrade reads.pod5 -o small.pod5 --bits 3     (POD5 into POD5, VBZ)\n\n\
    Irreversible: each sample is rounded to the nearest multiple of 2^bits. Without --bits,\n\
    the bits are slow5tools' choice for the header's dataset (device_type, sample_frequency,\n\
    sequencing_kit and experiment_type of every read group: 3 for R10.4.1 DNA and RNA004, 2\n\
    for R9.4.1 DNA and RNA002), and every read must have that dataset's digitisation and\n\
    sampling rate; a header of another dataset needs --bits. More than 4 bits may cost\n\
    basecalling accuracy.\n\n\
    The output is slow5tools degrade's, byte for byte, except where a sample lies within\n\
    2^(bits-1) of 32767: rounding it up would pass the largest int16, and slow5lib's\n\
    rounding wraps it to a large negative sample (32767 with 2 bits becomes -32768); svb\n\
    rounds it down instead (32764), the nearest value the bits allow.")]
pub struct Args {
    /// The BLOW5, SLOW5 or POD5 file (read, never changed).
    file: PathBuf,
    /// The degraded file (.blow5, or .slow5 for SLOW5 text; .pod5 for a POD5 input); `-`
    /// writes SLOW5 text to standard output (as slow5tools degrade).
    #[arg(short, long)]
    output: PathBuf,
    /// Least significant bits to eliminate, 1 to 16 [default: chosen from the header].
    #[arg(short, long, value_parser = clap::value_parser!(u8).range(1..=16))]
    bits: Option<u8>,
    /// BLOW5 record compression [default: zlib, as slow5tools degrade].
    #[arg(long, value_enum)]
    records: Option<RecordCodec>,
    /// BLOW5 signal compression [default: ex-zd, as slow5tools degrade].
    #[arg(long, value_enum)]
    signal: Option<SignalCodec>,
    #[command(flatten)]
    writing: crate::publish::Writing,
}

pub fn run(args: &Args) -> Result<bool, String> {
    if args.bits.is_some_and(|b| b > 4) {
        eprintln!("svb: degrade: warning: more than 4 bits may cost basecalling accuracy");
    }
    let progress = SharedProgress::new("degrade");
    let mut report = |done: u64, total: u64| progress.report(done, total);
    let how = args.writing.run(&mut report);
    let got = svb_convert::degrade(
        &args.file,
        &args.output,
        args.bits,
        args.records.map(RecordCodec::compression),
        args.signal.map(SignalCodec::compression),
        how,
    );
    progress.finish();
    let got = got.map_err(|e| error_chain(&e))?;
    for e in &got.stats.failed {
        eprintln!("svb: degrade: left out: {}", error_chain(e));
    }
    let chosen = match got.dataset {
        Some(d) => format!(" (chosen for {})", d.name),
        None => String::new(),
    };
    crate::progress::summary!(
        "svb: degrade: {} reads, {} samples, {} bits eliminated{chosen} -> {}",
        got.stats.reads,
        got.stats.samples,
        got.bits,
        args.output.display()
    );
    Ok(got.stats.failed.is_empty())
}
