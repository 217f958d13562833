//! `svb get`: the signal of reads named by id, from one POD5 or BLOW5 file, as raw int16,
//! NumPy `.npy`, or calibrated picoamperes (float32).

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::inputs::{identities, Format};
use crate::output::{
    error_chain, npy_f32, npy_i16, output_dir, portable_file_name, quiet_on_closed_pipe,
    write_output,
};

#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  svb get reads.pod5 0000173c-bf67-44e7-9a9c-1ad0bc728e74 --npy -o read.npy\n  \
    svb get reads.blow5 read_1 read_2 --pa -o signals/\n  \
    svb get reads.pod5 0000173c-bf67-44e7-9a9c-1ad0bc728e74 | od -s | head"
)]
pub struct Args {
    /// A POD5 or BLOW5 file.
    file: PathBuf,
    /// The reads' ids.
    #[arg(required = true)]
    read_ids: Vec<String>,
    /// Where to write: a file for one read, a directory for several (READ_ID.i16, .f32 or
    /// .npy in it); standard output when absent (the reads' values back to back).
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
}

/// A read's samples and its calibration: pA = (sample + offset) * scale.
struct Signal {
    samples: Vec<i16>,
    offset: f32,
    scale: f32,
}

pub fn run(args: &Args) -> Result<(), String> {
    let format = Format::detect(&args.file)?;
    let inputs = identities(std::slice::from_ref(&args.file))?;
    if let Some(out) = &args.output {
        // Checked before anything is read: the input must survive whatever -o names.
        inputs
            .check_output(out)
            .map_err(|e| format!("{}: {e}; choose another output", out.display()))?;
    }
    let several = args.read_ids.len() > 1;
    if several && args.npy && args.output.is_none() {
        return Err("several reads as .npy need -o DIR (one file each)".into());
    }
    let signals = match format {
        Format::Pod5 => pod5_signals(&args.file, &args.read_ids)?,
        Format::Blow5 => blow5_signals(&args.file, &args.read_ids)?,
    };
    let bytes = |s: &Signal| -> Vec<u8> {
        match (args.pa, args.npy) {
            (false, false) => s.samples.iter().flat_map(|x| x.to_le_bytes()).collect(),
            (false, true) => npy_i16(&s.samples),
            (true, npy) => {
                let pa: Vec<f32> = s
                    .samples
                    .iter()
                    .map(|&x| (f32::from(x) + s.offset) * s.scale)
                    .collect();
                if npy {
                    npy_f32(&pa)
                } else {
                    pa.iter().flat_map(|x| x.to_le_bytes()).collect()
                }
            }
        }
    };
    match &args.output {
        None => {
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            let written = signals
                .iter()
                .try_for_each(|s| out.write_all(&bytes(s)))
                .and_then(|()| out.flush());
            quiet_on_closed_pipe(written)
        }
        Some(path) if !several => write_output(path, &bytes(&signals[0]), args.force, &inputs),
        Some(dir) => {
            output_dir(dir)?;
            let ext = match (args.npy, args.pa) {
                (true, _) => "npy",
                (false, true) => "f32",
                (false, false) => "i16",
            };
            for (id, s) in args.read_ids.iter().zip(&signals) {
                portable_file_name(id)?;
                let path = dir.join(format!("{id}.{ext}"));
                write_output(&path, &bytes(s), args.force, &inputs)?;
            }
            Ok(())
        }
    }
}

fn missing(file: &Path, id: &str) -> String {
    format!("{}: no read {id}", file.display())
}

fn pod5_signals(file: &Path, ids: &[String]) -> Result<Vec<Signal>, String> {
    // Only the wanted rows of the reads table are parsed.
    let wanted: std::collections::HashSet<[u8; 16]> = ids
        .iter()
        .filter_map(|id| svb_pod5::parse_uuid(id))
        .collect();
    let r = svb_pod5::Reader::open_filtered(file, |id| wanted.contains(id))
        .map_err(|e| error_chain(&e))?;
    ids.iter()
        .map(|id| {
            let i = r.find(id).ok_or_else(|| missing(file, id))?;
            let read = &r.reads()[i];
            Ok(Signal {
                samples: r.decode_signal(i).map_err(|e| error_chain(&e))?,
                offset: read.calibration_offset,
                scale: read.calibration_scale,
            })
        })
        .collect()
}

fn blow5_signals(file: &Path, ids: &[String]) -> Result<Vec<Signal>, String> {
    let opened = svb_blow5::open_with_index(file).map_err(|e| error_chain(&e))?;
    if let Some(note) = &opened.note {
        eprintln!("svb: get: {note}");
    }
    let (r, index) = (opened.reader, opened.index);
    ids.iter()
        .map(|id| {
            let rec = r
                .record_by_id(&index, id)
                .ok_or_else(|| missing(file, id))?
                .map_err(|e| error_chain(&e))?;
            Ok(Signal {
                offset: rec.offset as f32,
                scale: (rec.range / rec.digitisation) as f32,
                samples: rec.raw_signal,
            })
        })
        .collect()
}
