//! `svb subset`: the reads named in a list, from any number of POD5 or BLOW5 / SLOW5 files,
//! into one file of the same format (BLOW5 or SLOW5 text by the output's extension), a window of reads at a time (memory holds one window, whatever
//! the inputs' size): VBZ chunks are copied as stored, other signal decoded and compressed
//! on every core.

use std::collections::HashSet;
use std::io::BufRead;
use std::path::PathBuf;

use crate::convert::{RecordCodec, SignalCodec};
use crate::inputs::{identities, output_format, Inputs};
use crate::output::error_chain;
use crate::progress::Progress;
use crate::publish::check_output;
use svb_model::Format;

#[derive(clap::Args)]
#[command(after_help = "Examples:\n  svb subset reads.pod5 --read-ids ids.txt -o picked.pod5\n  \
    cut -f1 summary.tsv | svb subset -r runs/ --read-ids - -o picked.blow5\n  \
    svb subset -r runs/ --read-ids ids.txt -o picked.pod5 --keep-going\n  \
    svb subset reads.blow5 --read-ids ids.txt -o picked.slow5   (SLOW5 text)\n  \
    svb subset -r runs/ --read-ids ids.txt -o picked.blow5 --in-order   (the list's order)\n  \
    svb subset -r fast5_dir/ --read-ids ids.txt -o picked.pod5  (FAST5: into POD5, BLOW5 or \
    SLOW5)\n  \
    svb subset reads.blow5 --read-ids ids.txt -o picked.blow5 -c zlib -s ex-zd   (as \
    slow5tools get -c zlib -s ex-zd)\n  \
    svb subset reads.blow5 --read-ids ids.txt -o - --in-order --text-floats slow5lib   \
    (slow5tools get's text)")]
pub struct Args {
    #[command(flatten)]
    inputs: Inputs,
    /// The read ids to keep: a file with one per line (the first column of a TSV or CSV; a
    /// `read_id` header is skipped), or `-` for standard input.
    #[arg(long, value_name = "FILE|-")]
    read_ids: String,
    /// The output file (.pod5, or .blow5 / .slow5 for BLOW5 or SLOW5 inputs; any of them for
    /// FAST5 inputs, converted), written under a temporary name and renamed when complete;
    /// `-` writes SLOW5 text to standard output (as slow5tools get).
    #[arg(short, long)]
    output: PathBuf,
    /// Ids found in no input are listed on stderr but do not make the exit status 1.
    #[arg(long)]
    missing_ok: bool,
    #[command(flatten)]
    writing: crate::publish::Writing,
    /// Write the reads in the list's order (as slow5tools get does), each from whichever
    /// input holds it, rather than in the inputs' order (the default, the fastest: each
    /// input read once, front to back, BLOW5 records and POD5 chunks copied as stored).
    #[arg(long)]
    in_order: bool,
    /// BLOW5 record compression of a BLOW5 output [default: the first input's] (slow5tools
    /// get's -c).
    #[arg(short = 'c', long, value_enum)]
    records: Option<RecordCodec>,
    /// BLOW5 signal compression of a BLOW5 output [default: the first input's] (slow5tools
    /// get's -s).
    #[arg(short = 's', long, value_enum)]
    signal: Option<SignalCodec>,
    /// A SLOW5 text output's floating-point values: exact [default], or slow5lib's six
    /// decimals, byte for byte as slow5tools get writes them.
    #[arg(long, value_enum, value_name = "FORM")]
    text_floats: Option<crate::convert::TextFloats>,
    /// A BLOW5 / SLOW5 input's slow5lib index kept elsewhere than FILE.idx (one input; used
    /// as it is: an index that does not fit the file is an error, never rebuilt).
    #[arg(long, value_name = "PATH")]
    index: Option<PathBuf>,
}

/// The ids of a list: the first field of each non-empty line, a `read_id` header skipped,
/// duplicates dropped, in the list's order; a line longer than [`svb_io::MAX_LINE`] is an
/// error.
pub fn read_id_list(source: &str) -> Result<Vec<String>, String> {
    // Lines are bounded as they are read: a list with a line of hundreds of MB is an error
    // after its first MiB.
    let reader: Box<dyn BufRead> = if source == "-" {
        let stdin = svb_io::LineLimit::new(std::io::stdin().lock(), svb_io::MAX_LINE);
        Box::new(std::io::BufReader::new(stdin))
    } else {
        let f = std::fs::File::open(source).map_err(|e| format!("{source}: {e}"))?;
        Box::new(std::io::BufReader::new(svb_io::LineLimit::new(f, svb_io::MAX_LINE)))
    };
    let mut seen = HashSet::new();
    let mut ids = Vec::new();
    for (n, line) in reader.lines().enumerate() {
        let line = line.map_err(|e| format!("{source}, line {}: {e}", n + 1))?;
        let Some(id) = line.split(['\t', ',', ' ']).map(str::trim).find(|f| !f.is_empty()) else {
            continue;
        };
        if n == 0 && id == "read_id" {
            continue;
        }
        if seen.insert(id.to_string()) {
            ids.push(id.to_string());
        }
    }
    Ok(ids)
}

pub fn run(args: &Args) -> Result<bool, String> {
    let (format, files, unopened) = args.inputs.expand_for("subset", args.writing.keep_going)?;
    let out_format = output_format(&args.output)?;
    // FAST5 reads are picked into any format svb writes (it writes no FAST5).
    if format != Format::Fast5 && !out_format.same_reader(format) {
        return Err(format!(
            "{}: subset writes the inputs' format ({}); `svb convert` changes it",
            args.output.display(),
            format.name()
        ));
    }
    check_output(&args.output, &identities(&files)?, args.writing.force)?;
    let wanted = read_id_list(&args.read_ids)?;
    let progress = std::sync::Mutex::new(Progress::new(wanted.len() as u64, "subset"));
    let mut report = |done: u64, _total: u64| {
        progress.lock().expect("not poisoned").set_position(done);
    };
    let how = args.writing.run(&mut report);
    let blow5 = matches!(format, Format::Blow5 | Format::Slow5);
    if args.index.is_some() && !blow5 {
        return Err("--index is a BLOW5 / SLOW5 file's slow5lib index".into());
    }
    let order = svb_convert::ReadOrder::list_if(args.in_order);
    let compression = svb_convert::Compression {
        records: args.records.map(RecordCodec::compression),
        signal: args.signal.map(SignalCodec::compression),
        float_text: crate::convert::TextFloats::float_text(args.text_floats),
        ..svb_convert::Compression::default()
    };
    if compression != svb_convert::Compression::default() && !blow5 {
        return Err("-c/--records, -s/--signal and --text-floats are for BLOW5 / SLOW5 inputs \
                    (POD5 chunks are copied as stored; `svb convert` recompresses)"
            .into());
    }
    let result = match (&args.index, &files[..]) {
        (Some(_), [_, _, ..]) => Err(svb_convert::ConvertError::Mapping(
            "--index names one file's index: give one input".into(),
        )),
        _ if blow5 => {
            let (index, out) = (args.index.as_deref(), &args.output);
            svb_convert::subset_blow5_with(&files, index, &wanted, out, order, &compression, how)
        }
        _ => svb_convert::subset(&files, &wanted, &args.output, order, how),
    };
    progress.into_inner().expect("not poisoned").finish();
    let result = result.map_err(|e| error_chain(&e))?;
    for note in &result.notes {
        eprintln!("svb: subset: {note}");
    }
    for e in &result.stats.failed {
        eprintln!("svb: subset: left out: {}", error_chain(e));
    }
    for id in &result.missing {
        eprintln!("svb: subset: read id {id} is in no input");
    }
    if !result.missing.is_empty() {
        eprintln!(
            "svb: subset: {} of {} read ids not found; {} written to {}",
            result.missing.len(),
            wanted.len(),
            result.stats.reads,
            args.output.display()
        );
    }
    let none_left_out =
        crate::publish::Writing::none_left_out("subset", unopened + result.stats.failed.len());
    Ok((result.missing.is_empty() || args.missing_ok) && none_left_out)
}
