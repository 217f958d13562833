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
    written, as `pod5 recover` does; the hidden files are read, never changed.\n\n\
    With --cleanup (pod5 recover's), once every read the input still holds is in the output\n\
    and the output reads back, the input and the hidden files beside it are removed; where a\n\
    read could not be recovered they are kept, saying so.")]
pub struct Args {
    /// The damaged BLOW5, SLOW5 or POD5 file (read, never changed).
    file: PathBuf,
    /// The recovered file (.blow5 or .slow5; .pod5 for a POD5 input).
    #[arg(short, long)]
    output: PathBuf,
    /// Replace the output if it exists.
    #[arg(long)]
    force: bool,
    /// Remove the input (and a POD5 writer's hidden .FILE_ID.tmp-* files beside it) once
    /// every read it still holds is in the output and the output reads back (pod5 recover
    /// --cleanup); kept where a read could not be recovered.
    #[arg(long)]
    cleanup: bool,
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
    // What --cleanup removes: the hidden files are found before the recovery reads them.
    let side_files = match args.cleanup {
        true => svb_pod5::Reader::writer_side_files(&args.file),
        false => Vec::new(),
    };
    let recovered = svb_convert::recover(&args.file, &args.output, how);
    progress.finish();
    let (ok, stats) = match recovered.map_err(|e| error_chain(&e))? {
        Recovery::Blow5(got) => (report_blow5(args, &got)?, got.stats),
        Recovery::Pod5(got) => (report_pod5(args, &got)?, got.stats),
    };
    if args.cleanup {
        cleanup(args, stats.failed.is_empty(), stats.reads, &side_files)?;
    }
    Ok(ok)
}

/// `--cleanup`: the input and `side_files` removed once `saved` reads are in the output, which
/// reads back with as many; kept, saying why, where a read the input holds was lost (`whole`
/// false).
fn cleanup(args: &Args, whole: bool, saved: u64, side_files: &[PathBuf]) -> Result<(), String> {
    if !whole {
        eprintln!(
            "svb: recover: --cleanup: {} kept, as some reads could not be recovered",
            args.file.display()
        );
        return Ok(());
    }
    let back = svb_reads::AnyReader::open(&args.output)
        .map_err(|e| format!("--cleanup: the output does not read back: {}", error_chain(&e)))?;
    if svb_model::ReadSource::len(&back) as u64 != saved {
        return Err(format!(
            "--cleanup: {} holds {} reads, not the {saved} recovered; nothing removed",
            args.output.display(),
            svb_model::ReadSource::len(&back)
        ));
    }
    drop(back);
    for f in std::iter::once(&args.file).chain(side_files) {
        match std::fs::remove_file(f) {
            Ok(()) => crate::progress::summary!("svb: recover: --cleanup: removed {}", f.display()),
            // As pod5 recover: a file that cannot be removed is a warning, the recovery stands.
            Err(e) => {
                eprintln!("svb: recover: warning: --cleanup could not remove {}: {e}", f.display())
            }
        }
    }
    Ok(())
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
