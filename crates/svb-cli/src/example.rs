//! `svb example DIR`: small POD5, BLOW5, SLOW5 and FAST5 files of realistic signal, with the
//! file names and read ids the README's examples use, so that every line of it runs as
//! written on a fresh machine.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::Args as ClapArgs;
use svb_model::ont::{parse_uuid, ReadInfo, RunInfo};
use svb_model::Format;

use crate::output::error_chain;

/// The read ids the README's examples name: `svb get`'s and the Python dataset's.
pub const README_IDS: [&str; 2] =
    ["0000173c-bf67-44e7-9a9c-1ad0bc728e74", "0d624d4b-671f-40b8-9798-84f2ccc4d7fc"];

#[derive(ClapArgs)]
#[command(after_help = "Examples:\n  svb example demo/\n  svb example . --reads 100\n\n\
    Writes reads.pod5 (one run, VBZ signal, as MinKNOW writes it), reads.blow5 and text.slow5\n\
    (blue-crab's mapping), reads.fast5 (a multi-read file as pod5 convert to_fast5 writes it),\n\
    a.pod5 (reads.pod5's reads) and b.pod5 (half as many others), run/ (a and b),\n\
    runs/ and pod5_dir/ (a) and ids.txt (one read id): the files the README's command lines\n\
    read. The reads are synthetic (a random walk between current levels, the\n\
    same every time); the first two have the ids the README names.")]
pub struct Args {
    /// The folder to write them in (made if missing).
    dir: PathBuf,
    /// Reads in each file (the first two have the README's ids).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(2..=100_000))]
    reads: u64,
    /// Replace files of these names that are there.
    #[arg(long)]
    force: bool,
}

/// The files written: what the README's command lines read.
const FILES: [&str; 11] = [
    "reads.pod5",
    "reads.blow5",
    "text.slow5",
    "reads.fast5",
    "a.pod5",
    "b.pod5",
    "run/a.pod5",
    "run/b.pod5",
    "runs/a.pod5",
    "pod5_dir/a.pod5",
    "ids.txt",
];

pub fn run(args: &Args) -> Result<bool, String> {
    let dir = &args.dir;
    if !args.force {
        if let Some(there) = FILES.iter().map(|f| dir.join(f)).find(|p| p.exists()) {
            return Err(format!("{} exists (--force replaces it)", there.display()));
        }
    }
    for sub in ["run", "runs", "pod5_dir"] {
        let d = dir.join(sub);
        std::fs::create_dir_all(&d).map_err(|e| format!("{}: {e}", d.display()))?;
    }
    let n = args.reads as usize;
    let publish = crate::publish::publish(args.force);
    let run = Arc::new(example_run());
    // reads.pod5 holds the first n reads, b.pod5 the next n / 2 (no id in both, as a subset
    // or a dataset of the two needs).
    let mut all: Vec<(ReadInfo, Vec<i16>)> =
        (0..n + n / 2).map(|k| example_read(k, &run)).collect();
    let others = all.split_off(n);
    write_pod5(&dir.join("reads.pod5"), &run, all, publish)?;
    write_pod5(&dir.join("b.pod5"), &run, others, publish)?;
    let reads = dir.join("reads.pod5");
    let convert = |to: Format, out: &Path| -> Result<(), String> {
        let how = svb_convert::Run { publish, ..svb_convert::Run::default() };
        let compression = svb_convert::Compression::default();
        svb_convert::convert(std::slice::from_ref(&reads), Format::Pod5, out, to, compression, how)
            .map(|_| ())
            .map_err(|e| error_chain(&e))
    };
    convert(Format::Blow5, &dir.join("reads.blow5"))?;
    convert(Format::Slow5, &dir.join("text.slow5"))?;
    convert(Format::Fast5, &dir.join("reads.fast5"))?;
    let copies = [
        ("reads.pod5", "a.pod5"),
        ("reads.pod5", "run/a.pod5"),
        ("b.pod5", "run/b.pod5"),
        ("reads.pod5", "runs/a.pod5"),
        ("reads.pod5", "pod5_dir/a.pod5"),
    ];
    for (from, to) in copies {
        let bytes = std::fs::read(dir.join(from)).map_err(|e| format!("{from}: {e}"))?;
        svb_io::write_file(&dir.join(to), &bytes, publish.on_existing)
            .map_err(|e| format!("{}: {e}", dir.join(to).display()))?;
    }
    svb_io::write_file(
        &dir.join("ids.txt"),
        format!("{}\n", README_IDS[0]).as_bytes(),
        publish.on_existing,
    )
    .map_err(|e| format!("{}: {e}", dir.join("ids.txt").display()))?;
    crate::progress::summary!(
        "svb: example: {n} reads in reads.pod5, reads.blow5, text.slow5 and reads.fast5, and {} more files -> {}",
        FILES.len() - 4,
        dir.display()
    );
    Ok(true)
}

/// The run every example read belongs to: a PromethION run as MinKNOW describes it.
fn example_run() -> RunInfo {
    RunInfo {
        acquisition_id: "a1b2c3d4e5f60718293a4b5c6d7e8f9012345678".into(),
        acquisition_start_time_ms: 1_700_000_000_000,
        adc_max: 4095,
        adc_min: -4096,
        experiment_name: "svb-example".into(),
        flow_cell_id: "PAW00000".into(),
        flow_cell_product_code: "FLO-PRO114M".into(),
        protocol_name: "sequencing/sequencing_PRO114_DNA_e8_2_400K:FLO-PRO114M:SQK-LSK114".into(),
        protocol_run_id: "5e0cd7a2-0000-4000-8000-00000000cafe".into(),
        protocol_start_time_ms: 1_699_999_990_000,
        sample_id: "example".into(),
        sample_rate: 5000,
        sequencing_kit: "sqk-lsk114".into(),
        sequencer_position: "1A".into(),
        sequencer_position_type: "promethion".into(),
        software: "MinKNOW 24.02 (svb example)".into(),
        system_name: "PC24A000".into(),
        system_type: "PromethION 24".into(),
        context_tags: vec![
            ("basecall_config_filename".into(), "dna_r10.4.1_e8.2_400bps_hac_prom.cfg".into()),
            ("experiment_type".into(), "genomic_dna".into()),
            ("sample_frequency".into(), "5000".into()),
            ("sequencing_kit".into(), "sqk-lsk114".into()),
        ],
        tracking_id: vec![
            ("asic_id".into(), "0004A30B00000000".into()),
            ("device_id".into(), "1A".into()),
            ("exp_start_time".into(), "2023-11-14T22:13:20Z".into()),
            ("flow_cell_id".into(), "PAW00000".into()),
            ("run_id".into(), "a1b2c3d4e5f60718293a4b5c6d7e8f9012345678".into()),
            ("sample_id".into(), "example".into()),
        ],
    }
}

/// Example read `k` of `run`: the README's ids first, then ids made from `k`; 4,000 to
/// 40,000 samples of [`signal_seeded`](crate::bench::signal_seeded), a channel, well and
/// start of its own, PromethION's calibration.
fn example_read(k: usize, run: &RunInfo) -> (ReadInfo, Vec<i16>) {
    let id = match README_IDS.get(k) {
        Some(id) => parse_uuid(id).expect("a UUID"),
        None => {
            let x = (k as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let mut id = [0u8; 16];
            id[..8].copy_from_slice(&x.to_be_bytes());
            id[8..].copy_from_slice(&x.rotate_left(29).to_be_bytes());
            id[6] = 0x40 | (id[6] & 0x0f);
            id[8] = 0x80 | (id[8] & 0x3f);
            id
        }
    };
    let n = 4000 + (k * 7919) % 36_000;
    let signal = crate::bench::signal_seeded(n, 0x853C_49E6_748F_EA9B ^ (k as u64 + 1) << 17);
    let mut read = ReadInfo::new(id, run.acquisition_id.as_str());
    read.read_number = 100 + k as u32 * 3;
    read.start_sample = 1_000_000 + k as u64 * 50_000;
    read.median_before = 190.0 + (k % 7) as f32 * 4.5;
    read.num_samples = n as u64;
    read.channel = 1 + (k as u32 * 37) % 2675;
    read.well = 1 + (k % 4) as u8;
    read.calibration_offset = -243.0;
    read.calibration_scale = 0.146_587_5;
    read.end_reason = Arc::from(if k % 5 == 3 { "unblock_mux_change" } else { "signal_positive" });
    read.end_reason_forced = svb_model::ont::forced(&read.end_reason);
    read.num_minknow_events = Some(n as u64 / 9);
    read.predicted_scaling_scale = Some(8.2);
    read.predicted_scaling_shift = Some(88.0);
    read.num_reads_since_mux_change = Some(k as u32);
    read.time_since_mux_change = Some(k as f32 * 1.5);
    read.open_pore_level = Some(230.0);
    (read, signal)
}

/// `reads` of `run` into a new POD5 file at `path`.
fn write_pod5(
    path: &Path, run: &Arc<RunInfo>, reads: Vec<(ReadInfo, Vec<i16>)>, publish: svb_io::Publish,
) -> Result<(), String> {
    let failed = |e: svb_pod5::Pod5WriteError| error_chain(&e);
    let options = svb_pod5::WriteOptions { publish, ..svb_pod5::WriteOptions::default() };
    let mut w = svb_pod5::Writer::create(path, options).map_err(failed)?;
    let new: Vec<svb_pod5::OntRead> = reads
        .into_iter()
        .map(|(info, signal)| svb_pod5::OntRead { info, run: Arc::clone(run), signal })
        .collect();
    svb_model::ReadSink::add_reads(&mut w, new).map_err(failed)?;
    w.finish().map(|_| ()).map_err(failed)
}
