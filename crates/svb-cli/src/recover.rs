//! `svb recover`: every whole record of a BLOW5 or SLOW5 file whose writer died, or every
//! read of a POD5 file whose footer is missing or damaged or whose writer (ONT's) was killed,
//! into a new file, with a report of what was saved and what was lost.

use std::path::PathBuf;

use svb_convert::Run;

use crate::output::error_chain;

#[derive(clap::Args)]
#[command(after_help = "Examples:\n  svb recover cut.blow5 -o saved.blow5\n  \
    svb recover cut.slow5 -o saved.slow5\n  \
    svb recover no_footer.pod5 -o saved.pod5\n  \
    svb recover killed.pod5 -o saved.pod5\n\n\
    BLOW5 / SLOW5: the records before the cut are decoded and written (the input's header and\n\
    compression; a .slow5 output as text); one that does not decode is named and left out.\n\
    What was lost (the cut's offset, its bytes, what is there) is said on stderr.\n\
    POD5: a footer that is missing or damaged is rebuilt from the tables a scan of the file\n\
    finds, and every read they hold is copied (its VBZ chunks as stored); a file whose reads\n\
    table is cut short is refused, saying so. A file ONT's writer left when it was killed\n\
    (the signal table alone, the reads and run info in its hidden .FILE_ID.tmp-reads and\n\
    .FILE_ID.tmp-run-info files beside it) gives every read whose row and signal were\n\
    written, as `pod5 recover` does; the hidden files are read, never changed.")]
pub struct Args {
    /// The damaged BLOW5, SLOW5 or POD5 file (read, never changed).
    file: PathBuf,
    /// The recovered file (.blow5 or .slow5; .pod5 for a POD5 input).
    #[arg(short, long)]
    output: PathBuf,
    /// Replace the output if it exists.
    #[arg(long)]
    force: bool,
}

pub fn run(args: &Args) -> Result<bool, String> {
    let format = svb_reads::detect(&args.file).map_err(|e| error_chain(&e))?;
    let how = Run {
        publish: crate::publish::publish(args.force),
        ..Run::default()
    };
    match format {
        svb_model::Format::Blow5 | svb_model::Format::Slow5 => {}
        svb_model::Format::Pod5 => return recover_pod5(args, how),
        _ => {
            return Err(format!(
                "{}: a {} file; svb recovers BLOW5, SLOW5 and POD5 files",
                args.file.display(),
                format.name()
            ))
        }
    }
    let got =
        svb_convert::recover_blow5(&args.file, &args.output, how).map_err(|e| error_chain(&e))?;
    for e in &got.stats.failed {
        eprintln!("svb: recover: lost: {}", error_chain(e));
    }
    match &got.cut {
        Some(cut) => eprintln!(
            "svb: recover: the file ends early at byte {}: {} ({} bytes after the last whole \
             record lost)",
            cut.offset, cut.what, cut.bytes
        ),
        None => eprintln!("svb: recover: the file was whole"),
    }
    eprintln!(
        "svb: recover: {} of {} whole records saved ({} samples) -> {}",
        got.stats.reads,
        got.records,
        got.stats.samples,
        args.output.display()
    );
    Ok(true)
}

fn recover_pod5(args: &Args, how: Run<'_>) -> Result<bool, String> {
    let got =
        svb_convert::recover_pod5(&args.file, &args.output, how).map_err(|e| error_chain(&e))?;
    for e in &got.stats.failed {
        eprintln!("svb: recover: lost: {}", error_chain(e));
    }
    match &got.fault {
        Some(fault) => eprintln!(
            "svb: recover: the footer was rebuilt from the tables found in the file ({fault})"
        ),
        None => eprintln!("svb: recover: the file was whole"),
    }
    eprintln!(
        "svb: recover: {} of {} reads saved ({} samples) -> {}",
        got.stats.reads,
        got.reads,
        got.stats.samples,
        args.output.display()
    );
    Ok(got.stats.failed.is_empty())
}
