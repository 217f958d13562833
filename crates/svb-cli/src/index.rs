//! `svb index`: slow5lib's index of BLOW5 and SLOW5 files (`FILE.idx`, what slow5tools,
//! pyslow5 and `svb get` / `svb subset` use to find a record without reading the others).

use std::path::PathBuf;

use crate::output::error_chain;
use crate::progress::Progress;

#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  svb index reads.blow5                 (writes reads.blow5.idx)\n  \
    svb index run1.blow5 run2.slow5\n  \
    svb index reads.blow5 --index /indexes/reads.blow5.idx\n\n\
    FILE.idx beside a file is derived data, rewritten when it no longer fits the file (as\n\
    slow5lib does); an index written elsewhere (--index) replaces a file there only with\n\
    --force. An index never decides what a file holds: get and subset read each record it\n\
    leads to and compare the read id; where it leads to another read, or lacks a read, the\n\
    ids are read from the records, the answer is theirs and FILE.idx is rewritten (an index\n\
    given by --index is left as it is, and one whose positions are not the file's records\n\
    is an error). merge and split take every id from the records themselves."
)]
pub struct Args {
    /// BLOW5 or SLOW5 files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Write the index here instead of beside the file (one file only).
    #[arg(long, value_name = "PATH")]
    index: Option<PathBuf>,
    /// Replace a file at --index PATH.
    #[arg(long, requires = "index")]
    force: bool,
}

pub fn run(args: &Args) -> Result<bool, String> {
    if args.index.is_some() && args.files.len() > 1 {
        return Err("--index names one index: give one file".into());
    }
    let mut progress = Progress::new(args.files.len() as u64, "index");
    for file in &args.files {
        let r = svb_blow5::Reader::open(file).map_err(|e| error_chain(&e))?;
        let index = svb_blow5::Index::build(&r).map_err(|e| error_chain(&e))?;
        if let Some(why) = index.unwritable() {
            return Err(format!("{}: {why}; no index written", file.display()));
        }
        let (path, on_existing) = match &args.index {
            Some(p) => (p.clone(), svb_io::OnExisting::replace_if(args.force)),
            None => (svb_blow5::Index::path_for(file), svb_io::OnExisting::Replace),
        };
        // An index must never land on the file it indexes.
        let inputs = svb_io::Inputs::new([file]).map_err(|e| e.to_string())?;
        inputs.check_output(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        svb_io::write_file(&path, &index.to_bytes(), on_existing)
            .map_err(|e| format!("{}: {e}", path.display()))?;
        if !crate::progress::quiet() {
            progress.eprintln(&format!(
                "svb: index: {}: {} records -> {}",
                file.display(),
                index.len(),
                path.display()
            ));
        }
        progress.inc(1);
    }
    progress.finish();
    Ok(true)
}
