//! `svb view`: one row per read of POD5, BLOW5, SLOW5 or FAST5 files, as TSV (the columns and
//! formatting of ONT's `pod5 view` for POD5; the record fields for BLOW5) or JSON lines. The rows
//! are `svb-arrow`'s record batches (the columns `svb decode` and the Python package give), without
//! a signal column: no signal is decoded.

use std::io::Write;
use std::path::PathBuf;

use arrow_array::cast::AsArray;
use arrow_array::types::*;
use arrow_array::{Array, RecordBatch};
use arrow_schema::DataType;
use svb_arrow::{Options, ReadBatches, SignalColumn};

use crate::inputs::{identities, Inputs};
use crate::output::{error_chain, json_str, output_error, quiet_on_closed_pipe};
use crate::progress::Progress;
use crate::publish::check_output;
use svb_model::Format;

#[derive(clap::Args)]
#[command(after_help = "Examples:\n  svb view reads.pod5 > summary.tsv\n  \
    svb view -r runs/ --fields read_id,channel,num_samples\n  \
    svb view reads.pod5 -x run_id,sample_id --separator ,\n  \
    svb view reads.blow5 -L                  (the fields and their types)\n  \
    svb view reads.blow5 --json | head\n\n\
    pod5 view's options are taken as it spells them: -i/--include for --fields, -I/--ids,\n\
    -x/--exclude, -H/--no-header, --separator, -L/--list-fields, -f/--force-overwrite.")]
pub struct Args {
    #[command(flatten)]
    inputs: Inputs,
    /// The columns, in this order (default: all; POD5's are `pod5 view`'s).
    #[arg(long, short = 'i', visible_alias = "include", value_delimiter = ',')]
    fields: Vec<String>,
    /// The read ids alone (--fields read_id).
    #[arg(short = 'I', long, conflicts_with_all = ["fields", "exclude"])]
    ids: bool,
    /// Leave these columns out.
    #[arg(short = 'x', long, value_delimiter = ',')]
    exclude: Vec<String>,
    /// The columns' separator in the table [default: a tab].
    #[arg(long, value_name = "TEXT", conflicts_with = "json")]
    separator: Option<String>,
    /// Print the fields the table would have (each with its type) and stop.
    #[arg(short = 'L', long)]
    list_fields: bool,
    /// JSON lines (one object a read) instead of TSV.
    #[arg(long)]
    json: bool,
    /// Leave out the TSV header line.
    #[arg(short = 'H', long)]
    no_header: bool,
    /// Write here instead of standard output (published when complete).
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Replace the output file if it exists.
    #[arg(long, short = 'f', visible_alias = "force-overwrite", requires = "output")]
    force: bool,
}

/// Appends the TSV text of `a[row]`: integers as they are, floats with 8 decimals (as
/// `pod5 view`; NaN as `NaN`), text (a tab, newline, carriage return or backslash in it as
/// `\t`, `\n`, `\r`, `\\`, so that a row is one line of its columns whatever it holds, a
/// file name included; an empty text as `""`, as `pod5 view` writes it, so that it differs from
/// a null, which is empty), enum labels, lists comma-separated.
fn tsv(a: &dyn Array, row: usize, out: &mut String) {
    cell(a, row, out, false)
}

/// Appends the JSON text of `a[row]`: floats shortest round-trip (non-finite and nulls as
/// `null`), text quoted, lists as arrays.
fn json(a: &dyn Array, row: usize, out: &mut String) {
    cell(a, row, out, true)
}

fn float(f: f64, out: &mut String, json: bool) {
    use std::fmt::Write;
    match (json, f.is_finite()) {
        (true, false) => out.push_str("null"),
        (true, true) => {
            let _ = write!(out, "{f}");
        }
        (false, _) if f.is_nan() => out.push_str("NaN"),
        (false, _) => {
            let _ = write!(out, "{f:.8}");
        }
    }
}

fn cell(a: &dyn Array, row: usize, out: &mut String, as_json: bool) {
    use std::fmt::Write;
    if a.is_null(row) {
        if as_json {
            out.push_str("null");
        }
        return;
    }
    macro_rules! int {
        ($t:ty) => {{
            let _ = write!(out, "{}", a.as_primitive::<$t>().value(row));
        }};
    }
    match a.data_type() {
        DataType::Int8 => int!(Int8Type),
        DataType::Int16 => int!(Int16Type),
        DataType::Int32 => int!(Int32Type),
        DataType::Int64 => int!(Int64Type),
        DataType::UInt8 => int!(UInt8Type),
        DataType::UInt16 => int!(UInt16Type),
        DataType::UInt32 => int!(UInt32Type),
        DataType::UInt64 => int!(UInt64Type),
        DataType::Float32 => float(a.as_primitive::<Float32Type>().value(row).into(), out, as_json),
        DataType::Float64 => float(a.as_primitive::<Float64Type>().value(row), out, as_json),
        DataType::Boolean => {
            let _ = write!(out, "{}", a.as_boolean().value(row));
        }
        DataType::Utf8 => {
            let s = a.as_string::<i32>().value(row);
            if as_json {
                out.push_str(&json_str(s));
            } else if s.is_empty() {
                out.push_str("\"\"");
            } else {
                for c in s.chars() {
                    match c {
                        '\t' => out.push_str("\\t"),
                        '\n' => out.push_str("\\n"),
                        '\r' => out.push_str("\\r"),
                        '\\' => out.push_str("\\\\"),
                        c => out.push(c),
                    }
                }
            }
        }
        DataType::Dictionary(..) => {
            let d = a.as_dictionary::<UInt8Type>();
            let key = d.keys().value(row) as usize;
            cell(d.values().as_ref(), key, out, as_json);
        }
        DataType::List(_) => {
            let items = a.as_list::<i32>().value(row);
            out.push_str(if as_json { "[" } else { "" });
            for k in 0..items.len() {
                if k > 0 {
                    out.push(',');
                }
                cell(items.as_ref(), k, out, as_json);
            }
            out.push_str(if as_json { "]" } else { "" });
        }
        DataType::Binary => {
            let hex: String =
                a.as_binary::<i32>().value(row).iter().map(|b| format!("{b:02x}")).collect();
            if as_json {
                out.push_str(&json_str(&hex));
            } else {
                out.push_str(&hex);
            }
        }
        other => {
            let _ = write!(out, "<{other}>");
        }
    }
}

pub fn run(args: &Args) -> Result<(), String> {
    let (format, files) = args.inputs.expand("view")?;
    match &args.output {
        Some(path) => {
            check_output(path, &identities(&files)?, args.force)?;
            let mut file =
                svb_io::PartialFile::create(path, svb_io::OnExisting::replace_if(args.force))
                    .map_err(|e| output_error(path, &e))?;
            write_rows(args, format, &files, &mut file).map_err(|e| match e {
                Failure::Write(e) => output_error(path, &e),
                Failure::Other(e) => e,
            })?;
            file.commit_unsynced().map_err(|e| output_error(path, &e))
        }
        None => {
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            let written = write_rows(args, format, &files, &mut out)
                .and_then(|()| out.flush().map_err(Failure::Write));
            match written {
                Err(Failure::Write(e)) => quiet_on_closed_pipe(Err(e)),
                Err(Failure::Other(e)) => Err(e),
                Ok(()) => Ok(()),
            }
        }
    }
}

/// Why the rows were not all written: the output failed, or something else.
enum Failure {
    Write(std::io::Error),
    Other(String),
}

impl From<String> for Failure {
    fn from(e: String) -> Self {
        Failure::Other(e)
    }
}

/// The columns asked of every file (`--fields`, `--ids`), else POD5's `pod5 view` columns;
/// `None`: every column of the first file.
fn asked_columns(args: &Args, format: Format) -> Option<Vec<String>> {
    if args.ids {
        Some(vec!["read_id".into()])
    } else if !args.fields.is_empty() {
        Some(args.fields.clone())
    } else if format == Format::Pod5 {
        Some(svb_arrow::pod5_view_columns().map(String::from).collect())
    } else {
        None
    }
}

/// The positions among `all` (the first file's columns) of those the table keeps: all but
/// the `--exclude` names, each of which must be one of them.
fn kept_columns(args: &Args, all: &[String]) -> Result<Vec<usize>, String> {
    if let Some(x) = args.exclude.iter().find(|x| !all.contains(x)) {
        return Err(format!("--exclude {x}: no such field; the fields are {}", all.join(", ")));
    }
    let kept: Vec<usize> = (0..all.len()).filter(|&k| !args.exclude.contains(&all[k])).collect();
    if kept.is_empty() {
        return Err("--exclude leaves no field".into());
    }
    Ok(kept)
}

/// Writes the rows of `files` to `out`.
fn write_rows(
    args: &Args, format: Format, files: &[PathBuf], out: &mut impl Write,
) -> Result<(), Failure> {
    let asked = asked_columns(args, format);
    let separator = args.separator.as_deref().unwrap_or("\t");
    // The columns of the table, as the first file gives them less those excluded: the
    // columns every later file is opened with.
    let mut names: Option<Vec<String>> = None;
    let mut progress = Progress::new(files.len() as u64, "view");
    let mut text = String::new();
    for path in files {
        let options = Options {
            columns: names.clone().or_else(|| asked.clone()),
            signal: SignalColumn::None,
            batch_reads: 4096,
            ..Options::default()
        };
        let mut batches = ReadBatches::open([path], options).map_err(|e| match e {
            svb_arrow::ArrowReadError::NoColumn { name, available } => {
                format!("no field {name}; the fields are {available}")
            }
            e => error_chain(&e),
        })?;
        // The first file's columns that are kept, where some are excluded (the later files
        // are opened with those alone).
        let mut project: Option<Vec<usize>> = None;
        if names.is_none() {
            let schema = batches.schema();
            let all: Vec<String> = schema.fields().iter().map(|f| f.name().clone()).collect();
            let kept = kept_columns(args, &all)?;
            let n: Vec<String> = kept.iter().map(|&k| all[k].clone()).collect();
            if args.list_fields {
                for &k in &kept {
                    let f = schema.field(k);
                    writeln!(out, "{}\t{}", f.name(), f.data_type()).map_err(Failure::Write)?;
                }
                return out.flush().map_err(Failure::Write);
            }
            if !args.json && !args.no_header {
                writeln!(out, "{}", n.join(separator)).map_err(Failure::Write)?;
            }
            project = (kept.len() != all.len()).then_some(kept);
            names = Some(n);
        }
        let names = names.as_ref().expect("set above");
        // The reader's own errors (not Arrow's `ExternalError` around them, which would add
        // "External error:" to every message).
        while let Some(batch) = batches.next_batch().map_err(|e| error_chain(&e))? {
            let batch: RecordBatch = match &project {
                Some(kept) => batch.project(kept).map_err(|e| e.to_string())?,
                None => batch,
            };
            for row in 0..batch.num_rows() {
                text.clear();
                if args.json {
                    text.push('{');
                    for (k, name) in names.iter().enumerate() {
                        if k > 0 {
                            text.push(',');
                        }
                        text.push_str(&json_str(name));
                        text.push(':');
                        json(batch.column(k).as_ref(), row, &mut text);
                    }
                    text.push('}');
                } else {
                    for k in 0..names.len() {
                        if k > 0 {
                            text.push_str(separator);
                        }
                        tsv(batch.column(k).as_ref(), row, &mut text);
                    }
                }
                text.push('\n');
                out.write_all(text.as_bytes()).map_err(Failure::Write)?;
            }
        }
        progress.inc(1);
    }
    progress.finish();
    out.flush().map_err(Failure::Write)
}
