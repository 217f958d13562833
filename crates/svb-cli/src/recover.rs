//! `svb recover`: every whole record of a BLOW5 or SLOW5 file whose writer died into a new
//! file, with a report of what was saved and what was lost.

use std::path::PathBuf;

use svb_convert::Run;

use crate::output::error_chain;

#[derive(clap::Args)]
#[command(after_help = "Examples:\n  svb recover cut.blow5 -o saved.blow5\n  \
    svb recover cut.slow5 -o saved.slow5\n\n\
    The records before the cut are decoded and written (the input's header and compression;\n\
    a .slow5 output as text); one that does not decode is named and left out. What was lost\n\
    (the cut's offset, its bytes, what is there) is said on stderr. POD5 recovery is not\n\
    built yet.")]
pub struct Args {
    /// The damaged BLOW5 or SLOW5 file (read, never changed).
    file: PathBuf,
    /// The recovered file (.blow5 or .slow5).
    #[arg(short, long)]
    output: PathBuf,
    /// Replace the output if it exists.
    #[arg(long)]
    force: bool,
}

pub fn run(args: &Args) -> Result<bool, String> {
    let format = svb_reads::Format::detect(&args.file).map_err(|e| error_chain(&e))?;
    if !matches!(format, svb_reads::Format::Blow5 | svb_reads::Format::Slow5) {
        return Err(format!(
            "{}: a {} file; svb recovers BLOW5 and SLOW5 files (POD5 not yet)",
            args.file.display(),
            format.name()
        ));
    }
    crate::inputs::output_format(&args.output)?;
    let how = Run {
        on_existing: svb_io::OnExisting::replace_if(args.force),
        ..Run::default()
    };
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
