//! `svb merge`: many POD5, or BLOW5 / SLOW5, files into one: runs and read groups once each,
//! a read id seen twice an error naming both files (or the first kept), inputs opened one at
//! a time.

use std::path::PathBuf;

use clap::ValueEnum;
use svb_convert::Duplicates;

use crate::convert::{blow5_options, RecordCodec, SignalCodec};
use crate::inputs::{identities, output_format, Inputs};
use crate::output::error_chain;
use crate::progress::SharedProgress;
use crate::publish::{check_output, publish};
use svb_model::Format;

#[derive(Clone, Copy, ValueEnum)]
enum OnDuplicate {
    /// Stop, naming both files.
    Error,
    /// Keep the first read of an id, leave later ones out (counted on stderr).
    KeepFirst,
}

#[derive(clap::Args)]
#[command(after_help = "Examples:\n  svb merge -r run1/ run2/ -o all.pod5\n  \
    svb merge a.blow5 b.blow5 -o ab.blow5 --duplicates keep-first\n  \
    svb merge -r blow5_dir/ -o all.blow5 --signal ex-zd     (recompressed as it is merged)\n  \
    svb merge a.slow5 b.blow5 -o ab.slow5                   (BLOW5 and SLOW5 mix)\n  \
    svb merge a.blow5 b.blow5 -o ab.blow5 --lossless false  (no auxiliary fields)\n  \
    svb merge a.blow5 b.blow5 -o ab.blow5 -a                (one run's differing attributes)\n  \
    svb merge a.slow5 b.slow5 -o ab.slow5 --field-order slow5tools  (slow5tools merge's bytes)\n\n\
    POD5 signal chunks are copied as stored; BLOW5 records are copied as stored where the\n\
    output keeps their compression, read group and fields, else decoded and written under\n\
    the output's compression (the first input's unless --records / --signal say).\n\
    BLOW5 / SLOW5 inputs merge as slow5tools merge merges them: read groups matched by run\n\
    id (two of one run whose attributes differ are an error naming them, unless -a), and\n\
    the auxiliary fields of every input (a record without one gets slow5lib's missing\n\
    value; a field whose type differs between inputs is an error).")]
pub struct Args {
    #[command(flatten)]
    inputs: Inputs,
    /// The output: .pod5 for POD5 inputs, .blow5 or .slow5 for BLOW5 / SLOW5 inputs; written
    /// under a temporary name and renamed when complete; `-` writes SLOW5 text to standard
    /// output.
    #[arg(short, long)]
    output: PathBuf,
    /// A read id in two inputs (or twice in one).
    #[arg(long, value_enum, default_value = "error")]
    duplicates: OnDuplicate,
    /// BLOW5 / SLOW5: keep the auxiliary fields (the union of the inputs'); `--lossless
    /// false` writes none, as slow5tools merge -l false.
    #[arg(short, long, default_value_t = true, action = clap::ArgAction::Set, value_name = "BOOL")]
    lossless: bool,
    /// BLOW5 / SLOW5: merge read groups of one run id whose attributes differ, leaving what
    /// differs empty (slow5tools merge -a); without it, that is an error.
    #[arg(short = 'a', long = "allow")]
    allow: bool,
    /// BLOW5 / SLOW5: the auxiliary fields' order in the output: the inputs' [default: each
    /// field where it first appears; records whose fields are the output's are copied as
    /// stored], or slow5tools merge's (enum fields first, then the others by name: its bytes,
    /// every record written anew).
    #[arg(long, value_enum, default_value = "inputs", value_name = "ORDER")]
    field_order: FieldOrder,
    /// A SLOW5 text output's floating-point values: exact [default], or slow5lib's six
    /// decimals, byte for byte as slow5tools merge writes them.
    #[arg(long, value_enum, value_name = "FORM")]
    text_floats: Option<crate::convert::TextFloats>,
    /// BLOW5 record compression [default: the first input's].
    #[arg(long, value_enum)]
    records: Option<RecordCodec>,
    /// BLOW5 signal compression [default: the first input's].
    #[arg(long, value_enum)]
    signal: Option<SignalCodec>,
    #[command(flatten)]
    writing: crate::publish::Writing,
}

pub fn run(args: &Args) -> Result<bool, String> {
    let (format, files, unopened) = args.inputs.expand_for("merge", args.writing.keep_going)?;
    let out_format = output_format(&args.output)?;
    if format == Format::Fast5 {
        return Err("FAST5 inputs: `svb convert` writes many FAST5 files into one .pod5, \
                    .blow5 or .slow5"
            .into());
    }
    if !out_format.same_reader(format) {
        return Err(format!(
            "{}: merge writes the inputs' format ({}); `svb convert` changes it",
            args.output.display(),
            format.name()
        ));
    }
    let compression = args.records.is_some() || args.signal.is_some();
    if compression && out_format != Format::Blow5 {
        return Err(format!(
            "{}: --records and --signal are for a .blow5 output",
            args.output.display()
        ));
    }
    if args.text_floats.is_some() && out_format != Format::Slow5 {
        return Err(format!("{}: --text-floats is for a .slow5 output", args.output.display()));
    }
    check_output(&args.output, &identities(&files)?, args.writing.force)?;
    let duplicates = match args.duplicates {
        OnDuplicate::Error => Duplicates::Error,
        OnDuplicate::KeepFirst => Duplicates::KeepFirst,
    };
    let rules = svb_convert::HeaderRules {
        drop_aux: !args.lossless,
        allow_differing_attributes: args.allow,
        slow5tools_field_order: args.field_order == FieldOrder::Slow5tools,
    };
    if rules != svb_convert::HeaderRules::default() && format == Format::Pod5 {
        return Err("--lossless, -a and --field-order are for BLOW5 / SLOW5 inputs".into());
    }
    let progress = SharedProgress::new("merge");
    let mut report = |done: u64, total: u64| progress.report(done, total);
    let how = args.writing.run(&mut report);
    let result = if let Some(form) = args.text_floats {
        let options = svb_blow5::WriteOptions {
            publish: publish(args.writing.force),
            float_text: crate::convert::TextFloats::float_text(Some(form)),
            ..svb_blow5::WriteOptions::slow5()
        };
        svb_convert::merge_blow5(&files, &args.output, options, duplicates, rules, how)
    } else if out_format == Format::Blow5 && compression {
        let first = svb_blow5::Reader::open(&files[0]).ok();
        let options = svb_blow5::WriteOptions {
            publish: publish(args.writing.force),
            ..blow5_options(args.records, args.signal, first.as_ref().map(|r| r.header()))
        };
        svb_convert::merge_blow5(&files, &args.output, options, duplicates, rules, how)
    } else {
        svb_convert::merge(&files, &args.output, duplicates, rules, how)
    };
    progress.finish();
    let result = result.map_err(|e| error_chain(&e))?;
    for e in &result.stats.failed {
        eprintln!("svb: merge: left out: {}", error_chain(e));
    }
    if result.duplicates > 0 {
        eprintln!(
            "svb: merge: {} reads left out as later copies of an id (--duplicates keep-first)",
            result.duplicates
        );
    }
    let samples = match result.stats.samples_counted() {
        Some(n) => format!("{n} samples"),
        None => "records copied as stored".into(),
    };
    crate::progress::summary!(
        "svb: merge: {} files, {} reads, {samples} -> {}",
        files.len(),
        result.stats.reads,
        args.output.display()
    );
    Ok(crate::publish::Writing::none_left_out("merge", unopened + result.stats.failed.len()))
}

/// `svb merge --field-order`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum FieldOrder {
    /// Each field where it first appears in the inputs.
    Inputs,
    /// slow5tools merge's: enum fields first (in order of appearance), then the others by name.
    Slow5tools,
}
