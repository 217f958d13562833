//! `svb split`: the reads of POD5, or BLOW5 / SLOW5, files into many files of that format in
//! a directory, one a run, read group, channel or end reason, a part of N reads, one of N
//! files, or the destination a table gives each read id.

use std::path::PathBuf;

use clap::ValueEnum;
use svb_convert::SplitBy;

use crate::inputs::{identities, Inputs};
use crate::output::error_chain;
use crate::progress::SharedProgress;
use svb_model::Format;

#[derive(Clone, Copy, ValueEnum)]
enum By {
    /// One file a run (POD5 acquisition id, BLOW5 run_id).
    Run,
    /// One file a read group (BLOW5; a POD5 run).
    ReadGroup,
    /// One file a channel.
    Channel,
    /// One file an end reason.
    EndReason,
}

#[derive(clap::Args)]
#[command(after_help = "Examples:\n  svb split reads.pod5 -o by_run/ --by run\n  \
    svb split -r blow5_dir/ -o groups/ --by read-group\n  \
    svb split reads.pod5 -o parts/ --reads 4000          (part0000.pod5, part0001.pod5, ...)\n  \
    svb split reads.blow5 -o parts/ --files 8 --to slow5\n  \
    svb split reads.blow5 -o groups/ --by read-group -c zlib -s ex-zd   (recompressed)\n  \
    svb split -r runs/ -o demux/ --table barcodes.tsv --column barcode\n  \
    svb split reads.blow5 -o demux/ -x barcode_summary.txt -u mixed   (slow5tools split -x)\n  \
    svb split reads.pod5 -o by_run/ --by run --template 'run_{key}'   (run_KEY.pod5)\n  \
    svb split -r blow5_dir/ -o parts/ --reads 4000 --per-input   (slow5tools split -r: STEM_0.blow5, ...)\n  \
    svb split reads.blow5 -o groups/ --by read-group --to slow5 --text-floats slow5lib   (slow5tools split's text)\n\n\
    A table is a TSV or CSV file with a header line: a read_id column and the destination\n\
    column (--column, default the other column); reads it does not list are left out and\n\
    counted. It is read a line at a time once the inputs' read ids are known: a table of\n\
    millions of ids takes the memory of the inputs' reads, not of its lines.\n\n\
    Outputs are named after their key (--template to change it); at most --max-open are\n\
    written at a time (each group of them one pass over the inputs). They appear together\n\
    once all are complete: an error or Ctrl-C leaves none of them.")]
pub struct Args {
    #[command(flatten)]
    inputs: Inputs,
    /// The output directory (created if missing).
    #[arg(short, long)]
    output: PathBuf,
    /// One output file a value of this field.
    #[arg(long, value_enum, conflicts_with_all = ["reads", "files", "table", "demux"])]
    by: Option<By>,
    /// Parts of this many reads each, in input order.
    #[arg(long, conflicts_with_all = ["files", "table", "demux"])]
    reads: Option<u64>,
    /// This many parts of about equal reads, in input order.
    #[arg(long, conflicts_with_all = ["table", "demux"])]
    files: Option<u64>,
    /// A table of read ids and their destinations (TSV or CSV with a header line).
    #[arg(long, value_name = "FILE", conflicts_with = "demux")]
    table: Option<PathBuf>,
    /// Demultiplex one file as slow5tools split -x does: a TSV (Nanopore's
    /// sequencing_summary.txt, buttery-eel's barcode_summary.txt) maps read ids
    /// (--demux-rid) to categories (--demux-code), a read under several categories written
    /// to each (or, with --demux-uniq, once to its own); every read must be listed (or go
    /// to --demux-missing) and every listed id be a read; outputs named FILE-STEM_CATEGORY.
    #[arg(short = 'x', long, value_name = "TSV")]
    demux: Option<PathBuf>,
    /// The read ids' column of --demux's table.
    #[arg(long, value_name = "NAME", default_value = "parent_read_id", requires = "demux")]
    demux_rid: String,
    /// The categories' column of --demux's table.
    #[arg(long, value_name = "NAME", default_value = "barcode_arrangement", requires = "demux")]
    demux_code: String,
    /// Reads --demux's table lists under several categories go once into this one (which
    /// must not be one of the table's).
    #[arg(short = 'u', long, value_name = "CATEGORY", requires = "demux")]
    demux_uniq: Option<String>,
    /// Reads --demux's table does not list go into this category (without it they are an
    /// error).
    #[arg(short = 'm', long, value_name = "CATEGORY", requires = "demux")]
    demux_missing: Option<String>,
    /// The table's destination column (default: the column other than read_id); given
    /// several times, each output is named `a-VALUE_b-VALUE` (pod5 subset's default name).
    #[arg(long, requires = "table")]
    column: Vec<String>,
    /// The table's destination columns, as pod5 subset takes them (`--columns a b`): the
    /// same as --column a --column b.
    #[arg(long, num_args = 1.., requires = "table", conflicts_with = "column")]
    columns: Vec<String>,
    /// The table's read id column (default: read_id; pod5 subset's -R).
    #[arg(short = 'R', long, value_name = "NAME", requires = "table")]
    read_id_column: Option<String>,
    /// Output file names: this text with {key} replaced by the key (the format's extension
    /// added when it does not end with it; default: {key}).
    #[arg(long, value_name = "TEXT")]
    template: Option<String>,
    /// Split each input on its own and name its parts after it, as slow5tools split does:
    /// STEM_N, read groups and parts numbered from 0 (rg.blow5 by read group: rg_0.blow5,
    /// rg_1.blow5, ...), STEM_KEY for the other keys. Two inputs of one file stem are refused.
    #[arg(long)]
    per_input: bool,
    /// Outputs as SLOW5 text or BLOW5 (BLOW5 / SLOW5 inputs; default: the first input's).
    #[arg(long, value_parser = crate::inputs::format_parser(&[Format::Blow5, Format::Slow5]))]
    to: Option<Format>,
    /// BLOW5 outputs' record compression (slow5tools split's -c) [default: the first
    /// input's; records stored so are copied as they are].
    #[arg(short = 'c', long, value_enum, visible_alias = "compress")]
    records: Option<crate::convert::RecordCodec>,
    /// BLOW5 outputs' signal compression (slow5tools split's -s) [default: the first
    /// input's].
    #[arg(short = 's', long, value_enum, visible_alias = "sig-compress")]
    signal: Option<crate::convert::SignalCodec>,
    /// zstd's decode-fast profile for BLOW5 outputs' zstd records (raw literals: larger
    /// files that every reader decodes faster).
    #[arg(long)]
    decode_fast: bool,
    /// SLOW5 text outputs' floating-point values: exact [default], or slow5lib's six
    /// decimals, byte for byte as slow5tools split writes them.
    #[arg(long, value_enum, value_name = "FORM")]
    text_floats: Option<crate::convert::TextFloats>,
    /// Outputs written at a time (each group of them one pass over the inputs).
    #[arg(long, default_value_t = 128)]
    max_open: usize,
    /// BLOW5 / SLOW5: keep the auxiliary fields; `--lossless false` writes none, as slow5tools
    /// split -l false.
    #[arg(short, long, default_value_t = true, action = clap::ArgAction::Set, value_name = "BOOL")]
    lossless: bool,
    #[command(flatten)]
    writing: crate::publish::Writing,
}

pub fn run(args: &Args) -> Result<bool, String> {
    let (format, files, unopened) = args.inputs.expand_for("split", args.writing.keep_going)?;
    let by = match (args.by, args.reads, args.files, &args.table) {
        (Some(By::Run), ..) => SplitBy::Run,
        (Some(By::ReadGroup), ..) => SplitBy::ReadGroup,
        (Some(By::Channel), ..) => SplitBy::Channel,
        (Some(By::EndReason), ..) => SplitBy::EndReason,
        (_, Some(0), ..) | (_, _, Some(0), _) => {
            return Err("--reads and --files need 1 or more".into())
        }
        (_, Some(n), ..) => SplitBy::Reads(n),
        (_, _, Some(n), _) => SplitBy::Files(n),
        (_, _, _, Some(t)) => SplitBy::TableFile(svb_convert::TableFile {
            path: t.clone(),
            columns: [&args.column[..], &args.columns[..]].concat(),
            read_id_column: args.read_id_column.clone(),
            ..svb_convert::TableFile::default()
        }),
        _ => match &args.demux {
            Some(t) => SplitBy::TableFile(svb_convert::TableFile {
                path: t.clone(),
                columns: vec![args.demux_code.clone()],
                read_id_column: Some(args.demux_rid.clone()),
                several: match &args.demux_uniq {
                    Some(u) => svb_convert::Several::Into(u.clone()),
                    None => svb_convert::Several::Each,
                },
                unlisted: match &args.demux_missing {
                    Some(m) => svb_convert::Unlisted::Into(m.clone()),
                    None => svb_convert::Unlisted::Refuse,
                },
                refuse_unknown: true,
            }),
            None => {
                return Err("say how to split: --by, --reads, --files, --table or --demux".into())
            }
        },
    };
    // slow5tools names a demultiplexed file's parts after it: FILE-STEM_CATEGORY.
    if args.demux.is_some() && files.len() != 1 {
        return Err("--demux splits one file (as slow5tools split -x); give one input".into());
    }
    identities(&files)?;
    let progress = SharedProgress::new("split");
    let mut report = |done: u64, total: u64| progress.report(done, total);
    let how = args.writing.run(&mut report);
    let to = args.to;
    let template = args.template.as_deref();
    let compression = svb_convert::Compression {
        records: args.records.map(crate::convert::RecordCodec::compression),
        signal: args.signal.map(crate::convert::SignalCodec::compression),
        decode_fast: args.decode_fast,
        float_text: crate::convert::TextFloats::float_text(args.text_floats),
        ..svb_convert::Compression::default()
    };
    let options = svb_convert::SplitOptions {
        template,
        to,
        compression,
        max_open: args.max_open,
        lossless: args.lossless,
        per_input: args.per_input || args.demux.is_some(),
    };
    let result = svb_convert::split(&files, format, &args.output, &by, options, how);
    progress.finish();
    let result = result.map_err(|e| error_chain(&e))?;
    for e in &result.stats.failed {
        eprintln!("svb: split: left out: {}", error_chain(e));
    }
    if result.unlisted > 0 {
        eprintln!("svb: split: {} reads the table does not list were left out", result.unlisted);
    }
    if result.unknown.count > 0 {
        let first: Vec<String> =
            result.unknown.first.iter().map(|id| svb_io::excerpt(id, 60)).collect();
        eprintln!(
            "svb: split: {} read ids of the table are not among the inputs' reads (first: {})",
            result.unknown.count,
            first.join(", ")
        );
    }
    for (key, path, reads) in &result.outputs {
        crate::progress::summary!("svb: split: {key}: {reads} reads -> {}", path.display());
    }
    Ok(crate::publish::Writing::none_left_out("split", unopened + result.stats.failed.len()))
}
