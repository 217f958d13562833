//! `svb view`: one row per read of POD5 or BLOW5 files, as TSV (the columns and formatting of
//! ONT's `pod5 view` for POD5; the record fields for BLOW5) or JSON lines.

use std::io::Write;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use svb_slow5::blow5::{self, AuxValue};
use svb_vbz::pod5;

use crate::inputs::{Format, Inputs};
use crate::output::{error_chain, json_str, quiet_on_closed_pipe, Progress};

#[derive(clap::Args)]
#[command(after_help = "Examples:\n  svb view reads.pod5 > summary.tsv\n  \
    svb view -r runs/ --fields read_id,channel,num_samples\n  \
    svb view reads.blow5 --json | head")]
pub struct Args {
    #[command(flatten)]
    inputs: Inputs,
    /// The columns, in this order (default: all; POD5's are `pod5 view`'s).
    #[arg(long, value_delimiter = ',')]
    fields: Vec<String>,
    /// JSON lines (one object a read) instead of TSV.
    #[arg(long)]
    json: bool,
    /// Leave out the TSV header line.
    #[arg(long)]
    no_header: bool,
    /// Write here instead of standard output.
    #[arg(short, long)]
    output: Option<PathBuf>,
}

/// A cell: how TSV and JSON write it.
enum Cell {
    Int(i128),
    /// Written with 8 decimals in TSV (as `pod5 view`), shortest round-trip in JSON; NaN is
    /// `NaN` in TSV and `null` in JSON.
    Float(f64),
    Text(String),
}

impl Cell {
    fn tsv(&self, out: &mut String) {
        match self {
            Cell::Int(i) => out.push_str(&i.to_string()),
            Cell::Float(f) if f.is_nan() => out.push_str("NaN"),
            Cell::Float(f) => out.push_str(&format!("{f:.8}")),
            Cell::Text(s) => out.push_str(s),
        }
    }

    fn json(&self, out: &mut String) {
        match self {
            Cell::Int(i) => out.push_str(&i.to_string()),
            Cell::Float(f) if !f.is_finite() => out.push_str("null"),
            Cell::Float(f) => out.push_str(&f.to_string()),
            Cell::Text(s) => out.push_str(&json_str(s)),
        }
    }
}

/// `pod5 view`'s columns, in its order.
const POD5_FIELDS: [&str; 27] = [
    "read_id",
    "filename",
    "read_number",
    "channel",
    "mux",
    "end_reason",
    "start_time",
    "start_sample",
    "duration",
    "num_samples",
    "minknow_events",
    "sample_rate",
    "median_before",
    "predicted_scaling_scale",
    "predicted_scaling_shift",
    "tracked_scaling_scale",
    "tracked_scaling_shift",
    "num_reads_since_mux_change",
    "time_since_mux_change",
    "run_id",
    "sample_id",
    "experiment_id",
    "flow_cell_id",
    "pore_type",
    "open_pore_level",
    "expected_open_pore_level",
    "selected_read_level",
];

/// The primary fields of a BLOW5 record (auxiliary fields follow, by name).
const BLOW5_FIELDS: [&str; 8] = [
    "read_id",
    "filename",
    "read_group",
    "digitisation",
    "offset",
    "range",
    "sampling_rate",
    "len_raw_signal",
];

fn not_set(s: &str) -> String {
    if s.is_empty() {
        "not_set".into()
    } else {
        s.into()
    }
}

/// A POD5 read's cells, in `POD5_FIELDS` order.
fn pod5_row(read: &pod5::Read, run: Option<&pod5::RunInfo>, filename: &str) -> Vec<Cell> {
    let f = |v: Option<f32>| Cell::Float(v.map_or(f64::NAN, f64::from));
    let rate = run.map_or(0, |r| r.sample_rate);
    let seconds = |n: u64| {
        Cell::Float(if rate == 0 {
            f64::NAN
        } else {
            n as f64 / f64::from(rate)
        })
    };
    let run_field = |get: fn(&pod5::RunInfo) -> &str| run.map_or("", get);
    vec![
        Cell::Text(read.read_id_string()),
        Cell::Text(filename.into()),
        Cell::Int(read.read_number.into()),
        Cell::Int(read.channel.into()),
        Cell::Int(read.well.into()),
        Cell::Text(read.end_reason.to_string()),
        seconds(read.start_sample),
        Cell::Int(read.start_sample.into()),
        seconds(read.num_samples),
        Cell::Int(read.num_samples.into()),
        Cell::Int(read.num_minknow_events.unwrap_or(0).into()),
        Cell::Int(rate.into()),
        Cell::Float(read.median_before.into()),
        f(read.predicted_scaling_scale),
        f(read.predicted_scaling_shift),
        f(read.tracked_scaling_scale),
        f(read.tracked_scaling_shift),
        Cell::Int(read.num_reads_since_mux_change.unwrap_or(0).into()),
        Cell::Float(read.time_since_mux_change.map_or(0.0, f64::from)),
        Cell::Text(run_field(|r| &r.protocol_run_id).into()),
        Cell::Text(not_set(run_field(|r| &r.sample_id))),
        Cell::Text(not_set(run_field(|r| &r.experiment_name))),
        Cell::Text(not_set(run_field(|r| &r.flow_cell_id))),
        Cell::Text(read.pore_type.to_string()),
        f(read.open_pore_level),
        f(read.expected_open_pore_level),
        f(read.selected_read_level),
    ]
}

fn aux_cell(v: &AuxValue) -> Cell {
    match v {
        AuxValue::Int(i) => Cell::Int((*i).into()),
        AuxValue::UInt(u) => Cell::Int((*u).into()),
        AuxValue::Float(f) => Cell::Float(*f),
        AuxValue::Text(t) => Cell::Text(t.clone()),
        AuxValue::Char(c) => Cell::Text(char::from(*c).to_string()),
        AuxValue::Enum(i, label) => match label {
            Some(l) => Cell::Text(l.clone()),
            None => Cell::Int((*i).into()),
        },
        AuxValue::Array(b) => Cell::Text(b.iter().map(|x| format!("{x:02x}")).collect()),
    }
}

/// The chosen columns: indices into the full row, and their names.
fn select(all: &[String], wanted: &[String]) -> Result<Vec<(usize, String)>, String> {
    if wanted.is_empty() {
        return Ok(all.iter().cloned().enumerate().collect());
    }
    wanted
        .iter()
        .map(|w| {
            all.iter()
                .position(|a| a == w)
                .map(|i| (i, w.clone()))
                .ok_or_else(|| format!("no field {w}; the fields are {}", all.join(",")))
        })
        .collect()
}

pub fn run(args: &Args) -> Result<(), String> {
    let (format, files) = args.inputs.expand()?;
    let mut out: Box<dyn Write> = match &args.output {
        Some(p) => Box::new(std::io::BufWriter::new(
            std::fs::File::create(p).map_err(|e| format!("{}: {e}", p.display()))?,
        )),
        None => Box::new(std::io::BufWriter::new(std::io::stdout().lock())),
    };
    let mut columns: Option<Vec<(usize, String)>> = None;
    let mut progress = Progress::new(files.len() as u64, "view");
    for path in &files {
        let (names, rows) = match format {
            Format::Pod5 => pod5_rows(path)?,
            Format::Blow5 => blow5_rows(path)?,
        };
        let cols = match &columns {
            Some(c) => c.clone(),
            None => {
                let c = select(&names, &args.fields)?;
                if !args.json && !args.no_header {
                    let header: Vec<&str> = c.iter().map(|(_, n)| n.as_str()).collect();
                    quiet_on_closed_pipe(writeln!(out, "{}", header.join("\t")))?;
                }
                columns = Some(c.clone());
                c
            }
        };
        let mut text = String::new();
        for row in &rows {
            text.clear();
            if args.json {
                text.push('{');
                for (k, (i, name)) in cols.iter().enumerate() {
                    if k > 0 {
                        text.push(',');
                    }
                    text.push_str(&json_str(name));
                    text.push(':');
                    match row.get(*i) {
                        Some(c) => c.json(&mut text),
                        None => text.push_str("null"),
                    }
                }
                text.push('}');
            } else {
                for (k, (i, _)) in cols.iter().enumerate() {
                    if k > 0 {
                        text.push('\t');
                    }
                    if let Some(c) = row.get(*i) {
                        c.tsv(&mut text);
                    }
                }
            }
            text.push('\n');
            quiet_on_closed_pipe(out.write_all(text.as_bytes()))?;
        }
        progress.inc(1);
    }
    progress.finish();
    quiet_on_closed_pipe(out.flush())
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// A POD5 file's rows: its tables only, no signal decoded.
fn pod5_rows(path: &Path) -> Result<(Vec<String>, Vec<Vec<Cell>>), String> {
    let r = pod5::Reader::open(path).map_err(|e| error_chain(&e))?;
    let name = file_name(path);
    let rows = r
        .reads()
        .iter()
        .map(|read| pod5_row(read, r.run_info_of(read), &name))
        .collect();
    Ok((POD5_FIELDS.map(String::from).to_vec(), rows))
}

/// A BLOW5 file's rows: its records' fields decoded on every core (their signal is not).
fn blow5_rows(path: &Path) -> Result<(Vec<String>, Vec<Vec<Cell>>), String> {
    let r = blow5::Reader::open(path).map_err(|e| error_chain(&e))?;
    let name = file_name(path);
    let mut names: Vec<String> = BLOW5_FIELDS.map(String::from).to_vec();
    names.extend(r.header().aux.iter().map(|a| a.name.clone()));
    let aux_names: Vec<&str> = r.header().aux.iter().map(|a| a.name.as_str()).collect();
    let rows = (0..r.len())
        .into_par_iter()
        .map(|i| {
            let mut rec = blow5::Record::default();
            let samples = r
                .fields_into(i, &mut rec)
                .expect("index in range")
                .map_err(|e| error_chain(&e))?;
            let mut row = vec![
                Cell::Text(rec.read_id.clone()),
                Cell::Text(name.clone()),
                Cell::Int(rec.read_group.into()),
                Cell::Float(rec.digitisation),
                Cell::Float(rec.offset),
                Cell::Float(rec.range),
                Cell::Float(rec.sampling_rate),
                Cell::Int(samples.into()),
            ];
            for n in &aux_names {
                row.push(match rec.aux.iter().find(|(k, _)| k == n) {
                    Some((_, v)) => aux_cell(v),
                    None => Cell::Text(String::new()),
                });
            }
            Ok(row)
        })
        .collect::<Result<_, String>>()?;
    Ok((names, rows))
}
