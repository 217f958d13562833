//! `svb recover`: every whole record of a BLOW5 or SLOW5 file whose writer died, or every
//! read of a POD5 file whose footer is missing or damaged or whose writer (ONT's) was killed,
//! into a new file, with a report of what was saved and what was lost.

use std::path::PathBuf;

use svb_convert::{Recovery, Run};

use crate::output::error_chain;
use crate::progress::SharedProgress;

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
    let progress = SharedProgress::new("recover");
    let mut report = |done: u64, total: u64| progress.report(done, total);
    let how = Run {
        publish: crate::publish::publish(args.force),
        progress: Some(&mut report),
        interrupted: Some(&svb_io::interrupted),
        ..Run::default()
    };
    let recovered = svb_convert::recover(&args.file, &args.output, how);
    progress.finish();
    match recovered.map_err(|e| error_chain(&e))? {
        Recovery::Blow5(got) => report_blow5(args, &got),
        Recovery::Pod5(got) => report_pod5(args, &got),
    }
}

/// What a BLOW5 / SLOW5 recovery saved and lost, on stderr.
fn report_blow5(args: &Args, got: &svb_convert::Recovered) -> Result<bool, String> {
    for e in &got.stats.failed {
        eprintln!("svb: recover: lost: {}", error_chain(e));
    }
    match &got.cut {
        Some(cut) => eprintln!(
            "svb: recover: the file ends early at byte {}: {} ({} bytes after the last whole \
             record lost)",
            cut.offset, cut.what, cut.bytes
        ),
        None => crate::progress::summary!("svb: recover: the file was whole"),
    }
    crate::progress::summary!(
        "svb: recover: {} of {} whole records saved ({} samples) -> {}",
        got.stats.reads,
        got.records,
        got.stats.samples,
        args.output.display()
    );
    Ok(true)
}

/// What a POD5 recovery saved and lost, on stderr.
fn report_pod5(args: &Args, got: &svb_convert::RecoveredPod5) -> Result<bool, String> {
    for e in &got.stats.failed {
        eprintln!("svb: recover: lost: {}", error_chain(e));
    }
    match &got.fault {
        Some(fault) => eprintln!(
            "svb: recover: the footer was rebuilt from the tables found in the file ({fault})"
        ),
        None => crate::progress::summary!("svb: recover: the file was whole"),
    }
    crate::progress::summary!(
        "svb: recover: {} of {} reads saved ({} samples) -> {}",
        got.stats.reads,
        got.reads,
        got.stats.samples,
        args.output.display()
    );
    Ok(got.stats.failed.is_empty())
}
