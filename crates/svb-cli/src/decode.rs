//! `svb decode`: every read of POD5, BLOW5, SLOW5 or FAST5 files into one Arrow IPC file (one row a
//! read: the metadata columns and the signal), or one signal file a read in a directory.

use std::path::{Path, PathBuf};

use svb_arrow::{Options, ReadBatches, SignalColumn};

use crate::files::decode_to_dir;
use crate::inputs::{identities, Inputs};
use crate::output::error_chain;
use crate::progress::Progress;
use crate::publish::check_output;

#[derive(clap::Args)]
#[command(after_help = "Examples:\n  svb decode reads.pod5 -o reads.arrow\n  \
    svb decode -r runs/ -o run.arrow --columns read_id,channel,num_samples --pa\n  \
    svb decode -r runs/ -o meta.arrow --no-signal\n  \
    svb decode reads.blow5 -o signals/ --npy          (one file a read)\n\n\
    An .arrow output is one Arrow IPC file: a row a read, the columns `svb view` shows\n\
    (POD5: `pod5 view`'s, then calibration_offset, calibration_scale, end_reason_forced,\n\
    acquisition_id; BLOW5: the record fields, then the auxiliary fields) and the signal as\n\
    `signal` list<int16> (`signal_pa` list<float32> with --pa). pyarrow.ipc.open_file,\n\
    pandas.read_feather, polars.read_ipc and DuckDB read it as it is.")]
pub struct Args {
    #[command(flatten)]
    inputs: Inputs,
    /// The output: FILE.arrow (also .ipc, .feather) for one Arrow IPC file, or a directory
    /// for one READ_ID.i16 (or .npy) file a read.
    #[arg(short, long)]
    output: PathBuf,
    /// Arrow output: these metadata columns, in this order (default: all).
    #[arg(long, value_delimiter = ',')]
    columns: Option<Vec<String>>,
    /// Arrow output: the signal in picoamps (`signal_pa`, a list of float32) instead of raw ADC.
    #[arg(long, conflicts_with = "no_signal")]
    pa: bool,
    /// Arrow output: metadata only, no signal decoded.
    #[arg(long)]
    no_signal: bool,
    /// Arrow output: at most this many reads a record batch.
    #[arg(long, default_value_t = 1024)]
    batch_reads: usize,
    /// Directory output: NumPy .npy files instead of raw .i16.
    #[arg(long)]
    npy: bool,
    /// Replace an output file, or signal files, that exist.
    #[arg(long)]
    force: bool,
}

/// Whether `path` names an Arrow IPC file.
fn is_arrow(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| ["arrow", "ipc", "feather"].contains(&e.to_ascii_lowercase().as_str()))
}

pub fn run(args: &Args) -> Result<(), String> {
    let (format, files) = args.inputs.expand("decode")?;
    let inputs = identities(&files)?;
    if !is_arrow(&args.output) {
        if args.pa || args.no_signal || args.columns.is_some() {
            return Err(format!(
                "--pa, --no-signal and --columns are for an Arrow output (-o FILE.arrow), not \
                 the directory {}",
                args.output.display()
            ));
        }
        let (out, npy, force) = (&args.output, args.npy, args.force);
        for file in &files {
            let r = svb_reads::AnyReader::open_as(file, format).map_err(|e| error_chain(&e))?;
            decode_to_dir(&r, out, npy, force, &inputs)?;
        }
        return Ok(());
    }
    if args.npy {
        return Err("--npy is for a directory output, not an Arrow file".into());
    }
    check_output(&args.output, &inputs, args.force)?;
    let options = Options {
        columns: args.columns.clone(),
        signal: if args.no_signal {
            SignalColumn::None
        } else if args.pa {
            SignalColumn::PicoAmps
        } else {
            SignalColumn::Raw
        },
        batch_reads: args.batch_reads,
        ..Options::default()
    };
    let stats = write_arrow(&files, &args.output, options, crate::publish::publish(args.force))?;
    crate::progress::summary!(
        "svb: decode: {} reads in {} record batches -> {}",
        stats.0,
        stats.1,
        args.output.display()
    );
    Ok(())
}

/// Writes the reads of `files` to `out` as one Arrow IPC file (under a hidden name until
/// complete): (reads, batches).
fn write_arrow(
    files: &[PathBuf], out: &Path, options: Options, publish: svb_io::Publish,
) -> Result<(u64, u64), String> {
    let mut batches = ReadBatches::open(files, options).map_err(|e| error_chain(&e))?;
    let io =
        |e: &(dyn std::error::Error + 'static)| format!("{}: {}", out.display(), error_chain(e));
    let file = publish.create(out).map_err(|e| io(&e))?;
    let mut w =
        arrow_ipc::writer::FileWriter::try_new(file, &batches.schema()).map_err(|e| io(&e))?;
    let mut progress = Progress::new(files.len() as u64, "decode");
    let (mut reads, mut count, mut opened) = (0u64, 0u64, 1);
    // The next batch decodes while the last one is written.
    svb_io::pipeline(
        || {
            let batch = batches.next_batch().map_err(|e| error_chain(&e))?;
            Ok::<_, String>(batch.map(|b| (b, batches.files_opened())))
        },
        |(batch, now)| {
            w.write(&batch).map_err(|e| io(&e))?;
            reads += batch.num_rows() as u64;
            count += 1;
            progress.inc((now - opened) as u64);
            opened = now;
            Ok(())
        },
    )?;
    w.finish().map_err(|e| io(&e))?;
    progress.inc(1);
    progress.finish();
    let file = w.into_inner().map_err(|e| io(&e))?;
    publish.commit(file).map_err(|e| io(&e))?;
    Ok((reads, count))
}
