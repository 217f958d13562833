//! `svb get`: the signal of reads named by id, from one POD5, BLOW5, SLOW5 or FAST5 file or a
//! directory of them (through a read id index, `svb_reads::Dataset`), as raw int16, NumPy
//! `.npy`, or calibrated picoamperes (float32).

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::inputs::identities;
use crate::output::{error_chain, npy_f32, npy_i16, quiet_on_closed_pipe};
use crate::progress::Progress;
use crate::publish::{output_dir, portable_file_name, write_output};
use svb_model::{ReadSource, Signal};
use svb_reads::{AnyReader, Dataset, DatasetOptions};

#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  svb get reads.pod5 0000173c-bf67-44e7-9a9c-1ad0bc728e74 --npy -o read.npy\n  \
    svb get reads.blow5 read_1 read_2 --pa -o signals/\n  \
    svb get reads.pod5 0000173c-bf67-44e7-9a9c-1ad0bc728e74 | od -s | head\n  \
    svb get reads.blow5 read_1 --index /indexes/reads.blow5.idx -o read_1.i16\n  \
    svb get runs/ 0000173c-bf67-44e7-9a9c-1ad0bc728e74 --id-index runs.svbidx -o read.i16"
)]
pub struct Args {
    /// A POD5, BLOW5, SLOW5 or FAST5 file, or a directory of files of one format (its
    /// subdirectories too), whose reads are found through a read id index (see --id-index).
    file: PathBuf,
    /// The reads' ids.
    #[arg(required = true)]
    read_ids: Vec<String>,
    /// Where to write: a file for one read, a directory for several (READ_ID.i16, .f32 or
    /// .npy in it); standard output when absent or `-` (the reads' values back to back; a
    /// terminal takes them only with `-o -`, as they are binary).
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Write NumPy .npy files (one read on standard output, or files in -o DIR).
    #[arg(long)]
    npy: bool,
    /// Calibrated picoamperes as float32: (sample + offset) * scale (POD5), or
    /// (sample + offset) * range / digitisation (BLOW5).
    #[arg(long)]
    pa: bool,
    /// Replace output files that exist.
    #[arg(long, requires = "output")]
    force: bool,
    /// A BLOW5 / SLOW5 file's slow5lib index kept elsewhere than FILE.idx (used as it is:
    /// an index that does not fit the file is an error, never rebuilt).
    #[arg(long, value_name = "PATH")]
    index: Option<PathBuf>,
    /// Where a directory's read id index is kept: used while it fits the directory's files,
    /// rebuilt when one of them changes (a file there that is not an svb index is an error,
    /// never replaced); without it, an index is made for this run alone.
    #[arg(long, value_name = "PATH", conflicts_with = "index")]
    id_index: Option<PathBuf>,
}

pub fn run(args: &Args) -> Result<(), String> {
    let dataset = match svb_reads::names_many(&args.file) {
        true => {
            if args.index.is_some() {
                return Err(format!(
                    "{}: a directory: --index names one BLOW5 file's index (--id-index keeps a \
                     directory's)",
                    args.file.display()
                ));
            }
            let options = DatasetOptions {
                recursive: true,
                index: args.id_index.clone(),
                ..DatasetOptions::default()
            };
            Some(
                Dataset::open(std::slice::from_ref(&args.file), &options)
                    .map_err(|e| error_chain(&e))?,
            )
        }
        false if args.id_index.is_some() => {
            return Err(format!(
                "{}: --id-index is for a directory of files (a file's reads are found in it)",
                args.file.display()
            ))
        }
        false => None,
    };
    let inputs = match &dataset {
        Some(d) => identities(d.files())?,
        None => identities(std::slice::from_ref(&args.file))?,
    };
    // Standard output: `-o -`, or no -o where it is not a terminal (binary values would
    // garble one: refused as zstd refuses, unless asked for with `-o -`).
    let output = args.output.as_deref().filter(|p| !svb_io::is_stdout(p));
    if args.output.is_none() && std::io::IsTerminal::is_terminal(&std::io::stdout()) {
        return Err("the signal is binary (int16, float32 or .npy) and standard output is a \
                    terminal: give -o FILE (or -o DIR for several reads), or -o - to write it \
                    there anyway"
            .into());
    }
    if let Some(out) = output {
        // Checked before anything is read: the inputs (and a kept index) must survive
        // whatever -o names.
        inputs
            .check_output(out)
            .map_err(|e| format!("{}: {e}; choose another output", out.display()))?;
        if let Some(index) = &args.id_index {
            let same = std::path::absolute(index).ok() == std::path::absolute(out).ok()
                || svb_io::Inputs::new([index]).is_ok_and(|i| i.check_output(out).is_err());
            if same {
                return Err(format!("{}: the read id index; choose another output", out.display()));
            }
        }
    }
    let several = args.read_ids.len() > 1;
    if several && args.npy && output.is_none() {
        return Err("several reads as .npy need -o DIR (one file each)".into());
    }
    // Every id is found before any signal is decoded or written (an id that is not there
    // writes nothing); then each read is decoded and written in turn, so memory holds one
    // read's signal whatever the number of ids.
    let reads = match &dataset {
        Some(d) => Reads::Dataset(d, locate_in_dataset(d, &args.file, &args.read_ids)?),
        None => {
            let (r, found) = locate_in_file(&args.file, &args.read_ids, args.index.as_deref())?;
            Reads::File(Box::new(r), found)
        }
    };
    let bytes = |s: &Signal| -> Vec<u8> {
        match (args.pa, args.npy) {
            (false, false) => s.samples.iter().flat_map(|x| x.to_le_bytes()).collect(),
            (false, true) => npy_i16(&s.samples),
            (true, npy) => {
                let mut pa = vec![0f32; s.samples.len()];
                s.calibration.pa_into(&s.samples, &mut pa);
                if npy {
                    npy_f32(&pa)
                } else {
                    pa.iter().flat_map(|x| x.to_le_bytes()).collect()
                }
            }
        }
    };
    match output {
        None => {
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            match reads.each(|_, s| out.write_all(&bytes(&s)).map_err(Stop::Write)) {
                Ok(()) => quiet_on_closed_pipe(out.flush()),
                Err(Stop::Write(e)) => quiet_on_closed_pipe(Err(e)),
                Err(Stop::Failed(e)) => Err(e),
            }
        }
        Some(path) if !several => {
            let mut one = None;
            reads.each(|_, s| {
                one = Some(s);
                Ok::<_, String>(())
            })?;
            let s = one.expect("one id, one read");
            write_output(path, &bytes(&s), args.force, &inputs)
        }
        Some(dir) => {
            output_dir(dir)?;
            let ext = match (args.npy, args.pa) {
                (true, _) => "npy",
                (false, true) => "f32",
                (false, false) => "i16",
            };
            for id in &args.read_ids {
                portable_file_name(id)?;
            }
            reads.each(|k, s| {
                let path = dir.join(format!("{}.{ext}", args.read_ids[k]));
                write_output(&path, &bytes(&s), args.force, &inputs)
            })
        }
    }
}

/// Reads whose bytes are fetched together from an object (a window of a `get`).
const PLANNED: usize = 64;

/// Why writing reads to standard output stopped: a read that failed, or the output (a
/// closed pipe ends quietly).
enum Stop {
    Failed(String),
    Write(std::io::Error),
}

impl From<String> for Stop {
    fn from(e: String) -> Stop {
        Stop::Failed(e)
    }
}

/// The reads of a `get`, found: in one file (each id's index) or in a directory's files
/// (each id's file and index).
enum Reads<'a> {
    File(Box<AnyReader>, Vec<usize>),
    Dataset(&'a Dataset, Vec<(usize, usize)>),
}

impl Reads<'_> {
    /// Says to the readers that the reads at positions `window` are read next: an object's
    /// are fetched together (one round trip, not one a read).
    fn plan(&self, window: std::ops::Range<usize>) {
        match self {
            Reads::File(r, found) => r.plan(&found[window]),
            Reads::Dataset(d, found) => {
                let mut by_file: Vec<(usize, Vec<usize>)> = Vec::new();
                for &(file, read) in &found[window] {
                    match by_file.iter_mut().find(|(f, _)| *f == file) {
                        Some((_, reads)) => reads.push(read),
                        None => by_file.push((file, vec![read])),
                    }
                }
                for (file, reads) in by_file {
                    if let Ok(f) = d.file(file) {
                        f.plan(&reads);
                    }
                }
            }
        }
    }

    /// Decodes each read in the order of the ids and hands it to `emit(position, signal)`,
    /// under a progress bar; the first error stops it.
    fn each<E: From<String>>(
        &self, mut emit: impl FnMut(usize, Signal) -> Result<(), E>,
    ) -> Result<(), E> {
        let n = match self {
            Reads::File(_, found) => found.len(),
            Reads::Dataset(_, found) => found.len(),
        };
        let mut progress = Progress::new(n as u64, "get");
        for k in 0..n {
            if k % PLANNED == 0 {
                self.plan(k..n.min(k + PLANNED));
            }
            let signal = match self {
                Reads::File(r, found) => r.signal(found[k]),
                Reads::Dataset(d, found) => {
                    let (file, read) = found[k];
                    d.file(file).and_then(|f| f.signal(read))
                }
            };
            emit(k, signal.map_err(|e| error_chain(&e))?)?;
            progress.inc(1);
        }
        progress.finish();
        Ok(())
    }
}

/// Reads `ids` of `file`, opened for them alone (a POD5 file's reads table parsed for them
/// alone, a BLOW5 file read through its index), and each id's index in it.
fn locate_in_file(
    file: &Path, ids: &[String], index: Option<&Path>,
) -> Result<(AnyReader, Vec<usize>), String> {
    let found = AnyReader::open_for_ids_with(file, ids, index).map_err(|e| error_chain(&e))?;
    if let Some(note) = found.note {
        eprintln!("svb: get: {note}");
    }
    let reads = ids
        .iter()
        .zip(found.reads)
        .map(|(id, at)| at.ok_or_else(|| format!("{}: no read {id}", file.display())))
        .collect::<Result<_, String>>()?;
    Ok((found.reader, reads))
}

/// Where reads `ids` are among the files of `dir`, found through its read id index: each
/// id's file and index (the first place of an id in several, with a warning).
fn locate_in_dataset(
    data: &Dataset, dir: &Path, ids: &[String],
) -> Result<Vec<(usize, usize)>, String> {
    let found = ids
        .iter()
        .map(|id| {
            let places = data.locate_all(id).map_err(|e| error_chain(&e))?;
            let &first = places
                .first()
                .ok_or_else(|| format!("{}: no read {id} in its files", dir.display()))?;
            if places.len() > 1 {
                let files = data.files();
                let list: Vec<String> =
                    places.iter().map(|&(f, _)| files[f].display().to_string()).collect();
                eprintln!(
                    "svb: get: warning: read {id} is in {} places ({}); the first one's \
                     signal is written",
                    places.len(),
                    list.join(", ")
                );
            }
            Ok(first)
        })
        .collect::<Result<_, String>>()?;
    if let Some(note) = data.index_note() {
        eprintln!("svb: get: {note}");
    }
    Ok(found)
}
