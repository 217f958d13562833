//! POD5 -> BLOW5 -> POD5 keeps every sample and every mapped field (ONT's file and random
//! reads of two runs); our BLOW5 agrees field by field with blue-crab's for the same POD5,
//! and our POD5 of a BLOW5 with blue-crab's (`pip install blue-crab`; skipped without it,
//! except under CI=true).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use svb_blow5::ont::{CONTEXT_KEYS_ATTRIBUTE, TRACKING_KEYS_ATTRIBUTE};
use svb_blow5::AuxValue;
use svb_convert::{Compression, ConvertError, OnError, Run, Stats};
use svb_model::ont::{ReadInfo, END_REASONS};
use svb_model::Format;
use svb_pod5::{ReadRow, RunInfo};
use svb_testdata::{data_dir, Rng, TempDir};

/// Every field a BLOW5 record carries, and the samples: the reads' Debug forms with the
/// fields BLOW5 does not carry (signal rows, pore type, forced end) taken from `want`, and an
/// absent column (older table versions) as ONT's default, NaN.
fn assert_same_read(want: &ReadRow, got: &ReadRow, what: &str) {
    let comparable = |r: &ReadRow| {
        let mut r = r.clone();
        (r.signal_rows, r.info.pore_type) = (Vec::new(), want.info.pore_type.clone());
        r.info.end_reason_forced = want.info.end_reason_forced;
        for v in [
            &mut r.info.tracked_scaling_scale,
            &mut r.info.tracked_scaling_shift,
            &mut r.info.predicted_scaling_scale,
            &mut r.info.predicted_scaling_shift,
            &mut r.info.time_since_mux_change,
            &mut r.info.open_pore_level,
            &mut r.info.expected_open_pore_level,
            &mut r.info.selected_read_level,
        ] {
            v.get_or_insert(f32::NAN);
        }
        format!("{r:#?}")
    };
    assert_eq!(comparable(got), comparable(want), "{what}");
}

/// `convert(src -> out)` with default options; its stats.
fn one<O: Default>(
    convert: fn(&[PathBuf], &Path, O, Run<'_>) -> Result<Stats, ConvertError>, src: &Path,
    out: &Path,
) -> Stats {
    convert(&[src.to_path_buf()], out, O::default(), Run::default()).unwrap()
}

/// `inputs` (files of `from`) converted into `out` as `svb convert` converts them, the output's
/// format by its extension, default compression.
fn conv(from: Format, inputs: &[PathBuf], out: &Path, how: Run<'_>) -> Result<Stats, ConvertError> {
    let to = Format::of_output(out).unwrap();
    svb_convert::convert(inputs, from, out, to, Compression::default(), how)
}

fn blow5_to_pod5(
    inputs: &[PathBuf], out: &Path, _: (), how: Run<'_>,
) -> Result<Stats, ConvertError> {
    conv(Format::Blow5, inputs, out, how)
}

fn fast5_to_pod5(
    inputs: &[PathBuf], out: &Path, _: (), how: Run<'_>,
) -> Result<Stats, ConvertError> {
    conv(Format::Fast5, inputs, out, how)
}

fn pod5_to_blow5(
    inputs: &[PathBuf], out: &Path, _: (), how: Run<'_>,
) -> Result<Stats, ConvertError> {
    conv(Format::Pod5, inputs, out, how)
}

/// FAST5 `inputs` into BLOW5 or SLOW5 `out` (by its extension), as slow5tools f2s maps them.
fn fast5_to_blow5(
    inputs: &[PathBuf], out: &Path, _: (), how: Run<'_>,
) -> Result<Stats, ConvertError> {
    conv(Format::Fast5, inputs, out, how)
}

/// `open(a)` and `open(b)`, both expected to open.
fn open_both<R, E: std::fmt::Debug>(
    open: impl Fn(&Path) -> Result<R, E>, a: &Path, b: &Path,
) -> (R, R) {
    (open(a).unwrap(), open(b).unwrap())
}

fn round_trip(src: &Path, tmp: &TempDir) {
    let name = src.file_name().unwrap().to_string_lossy();
    let b5 = tmp.join(&format!("{name}.blow5"));
    let back = tmp.join(&format!("{name}.back.pod5"));
    let s = one(pod5_to_blow5, src, &b5);
    let t = one(blow5_to_pod5, &b5, &back);
    assert_eq!((s.reads, s.samples), (t.reads, t.samples));
    assert!(s.failed.is_empty() && t.failed.is_empty());
    let (a, b) = (svb_pod5::Reader::open(src).unwrap(), svb_pod5::Reader::open(&back).unwrap());
    assert_eq!(b.len(), a.len());
    assert_eq!(s.reads, a.len() as u64);
    assert_eq!(b.run_infos(), a.run_infos(), "{name}");
    for (i, want) in a.reads().iter().enumerate() {
        let what = format!("{name} {}", want.read_id_string());
        assert_same_read(want, &b.reads()[i], &what);
        assert_eq!(b.decode_signal(i).unwrap(), a.decode_signal(i).unwrap(), "{what}");
    }
    // The BLOW5 in between: blue-crab's auxiliary fields, a read group per run.
    let r = svb_blow5::Reader::open(&b5).unwrap();
    assert_eq!(r.header().aux, svb_blow5::ont::pod5_aux());
    assert_eq!(r.header().read_groups.len(), a.run_infos().len());
}

fn run(id: &str, rate: u16, adc: (i16, i16)) -> RunInfo {
    RunInfo {
        acquisition_id: id.into(),
        acquisition_start_time_ms: 1_700_000_000_123,
        adc_min: adc.0,
        adc_max: adc.1,
        experiment_name: "exp".into(),
        protocol_name: "sequencing/seq".into(),
        protocol_run_id: format!("proto-{id}"),
        protocol_start_time_ms: 1_699_999_999_000,
        sample_id: "sample".into(),
        sample_rate: rate,
        sequencing_kit: "sqk-lsk114".into(),
        sequencer_position: "1A".into(),
        sequencer_position_type: "promethion".into(),
        software: "MinKNOW".into(),
        system_name: "host".into(),
        system_type: "PromethION 24".into(),
        // Not MinKNOW's usual keys, and one empty value: only svb's key lists put them back.
        context_tags: vec![
            ("sample_frequency".into(), rate.to_string()),
            ("custom_context".into(), "yes".into()),
        ],
        tracking_id: vec![
            ("asic_id".into(), "0004A30B".into()),
            ("run_id".into(), id.into()),
            ("empty_one".into(), String::new()),
        ],
        ..RunInfo::default()
    }
}

#[test]
#[ignore = "needs the shared test data (../shared/data or SVB_TEST_DATA); run with --include-ignored"]
fn pod5_blow5_pod5_keeps_every_sample_and_field() {
    let tmp = TempDir::new("convert-round-trip");
    if let Some(data) = data_dir() {
        round_trip(&data.join("pod5/multi_fast5_zip.pod5"), &tmp);
        round_trip(&data.join("pod5/multi_fast5_zip_v4.pod5"), &tmp);
    }
    // Random reads of two runs (two read groups), every field set.
    let path = tmp.join("random.pod5");
    let runs = [run("run-a", 5000, (-4096, 4095)), run("run-b", 4000, (0, 2047))];
    let mut w = svb_pod5::Writer::create(&path, svb_pod5::WriteOptions::default()).unwrap();
    for r in &runs {
        w.add_run_info(r).unwrap();
    }
    let mut rng = Rng(0xC0_4E27);
    for (i, len) in [0usize, 1, 5000, 102_401, 333].into_iter().enumerate() {
        let mut id = [0u8; 16];
        id[..8].copy_from_slice(&rng.next().to_le_bytes());
        let mut read = ReadInfo::new(id, runs[i % 2].acquisition_id.as_str());
        read.num_samples = len as u64;
        read.read_number = rng.next() as u32;
        read.start_sample = rng.next() >> 24;
        read.median_before = 200.25;
        read.channel = 1 + i as u32 * 1000;
        read.well = 1 + (i % 4) as u8;
        read.calibration_offset = -230.0;
        read.calibration_scale = 0.1875;
        let reason = END_REASONS[i * 2 % END_REASONS.len()];
        read.end_reason = Arc::from(reason);
        read.end_reason_forced = reason.contains("mux_change");
        read.num_minknow_events = Some(rng.next() >> 40);
        read.tracked_scaling_scale = Some(1.5);
        read.tracked_scaling_shift = Some(f32::NAN);
        read.predicted_scaling_scale = Some(2.5);
        read.predicted_scaling_shift = Some(-3.25);
        read.num_reads_since_mux_change = Some(9);
        read.time_since_mux_change = Some(12.5);
        read.open_pore_level = Some(230.5);
        read.expected_open_pore_level = Some(f32::NAN);
        read.selected_read_level = Some(80.0);
        w.add_read(&read, &rng.walk(len, 20)).unwrap();
    }
    w.finish().unwrap();
    round_trip(&path, &tmp);
}

#[test]
fn a_reused_record_becomes_the_record_of_each_read() {
    let runs = [run("run-a", 5000, (-4096, 4095)), run("run-b", 4000, (0, 2047))];
    // A record holding something else first: other names and value types in its slots.
    let mut reused = svb_blow5::Record {
        aux: vec![("x".into(), svb_blow5::AuxValue::Float(1.0)); 20],
        ..Default::default()
    };
    for i in 0..6 {
        let run = &runs[i % 2];
        let mut read = ReadInfo::new([i as u8 * 17; 16], run.acquisition_id.as_str());
        read.channel = 7 + i as u32 * 1000;
        read.end_reason = Arc::from(END_REASONS[i % END_REASONS.len()]);
        read.median_before = i as f32;
        let want = svb_blow5::ont::record_of(&read, run, i as u32, vec![5; i]);
        reused.raw_signal = vec![5; i];
        svb_blow5::ont::record_fields_into(&read, run, i as u32, &mut reused);
        // Debug text: the NaN defaults compare equal there.
        assert_eq!(format!("{reused:?}"), format!("{want:?}"), "read {i}");
    }
}

#[test]
fn a_read_id_that_is_not_a_uuid_is_a_typed_error() {
    let tmp = TempDir::new("convert-bad-id");
    let src = tmp.join("ids.blow5");
    let schema = svb_blow5::Schema {
        read_groups: vec![vec![("run_id".into(), "r1".into())]],
        aux: Vec::new(),
    };
    let mut w = svb_blow5::Writer::create(&src, schema, Default::default()).unwrap();
    w.add_record(&svb_blow5::Record {
        read_id: "read_1".into(),
        digitisation: 8192.0,
        range: 1400.0,
        sampling_rate: 4000.0,
        raw_signal: vec![1, 2, 3],
        ..svb_blow5::Record::default()
    })
    .unwrap();
    let good = "0000173c-bf67-44e7-9a9c-1ad0bc728e74";
    w.add_record(&svb_blow5::Record {
        read_id: good.into(),
        digitisation: 8192.0,
        range: 1400.0,
        sampling_rate: 4000.0,
        raw_signal: vec![4, 5, 6, 7],
        ..svb_blow5::Record::default()
    })
    .unwrap();
    w.finish().unwrap();
    let e = blow5_to_pod5(std::slice::from_ref(&src), &tmp.join("out.pod5"), (), Run::default())
        .unwrap_err();
    let chain = format!("{e}: {}", std::error::Error::source(&e).unwrap());
    assert!(chain.contains("ids.blow5") && chain.contains("read_1"), "{chain}");
    assert!(chain.contains("is not a UUID"), "{chain}");
    // Nothing is left under the output's name, nor hidden.
    assert_eq!(tmp.entries(), ["ids.blow5"]);

    // Skipping: the good read is converted, the bad one listed; an input that is not a
    // BLOW5 file is listed and left out too.
    let junk = tmp.join("junk.blow5");
    std::fs::write(&junk, b"not a blow5 file").unwrap();
    let out = tmp.join("out.pod5");
    let mut seen = Vec::new();
    let mut progress = |done, total| seen.push((done, total));
    let how = Run { on_error: OnError::Skip, progress: Some(&mut progress), ..Run::default() };
    let stats = blow5_to_pod5(&[junk, src.clone()], &out, (), how).unwrap();
    // Progress after each window: both records done (the one left out counts), of 2.
    assert_eq!(seen.last(), Some(&(2, 2)), "{seen:?}");
    assert_eq!((stats.reads, stats.samples), (1, 4));
    let failed: Vec<String> = stats
        .failed
        .iter()
        .map(|e| format!("{e}: {}", std::error::Error::source(e).unwrap()))
        .collect();
    assert_eq!(failed.len(), 2, "{failed:?}");
    assert!(failed[0].contains("junk.blow5"), "{failed:?}");
    assert!(failed[1].contains("ids.blow5") && failed[1].contains("read_1"), "{failed:?}");
    let r = svb_pod5::Reader::open(&out).unwrap();
    assert_eq!(r.len(), 1);
    assert_eq!(r.reads()[0].read_id_string(), good);
    assert_eq!(r.decode_signal(0).unwrap(), [4, 5, 6, 7]);

    // And POD5 -> BLOW5 skips an input it cannot open.
    let b5 = tmp.join("back.blow5");
    let stats = pod5_to_blow5(&[tmp.join("missing.pod5"), out], &b5, (), skip()).unwrap();
    assert_eq!((stats.reads, stats.failed.len()), (1, 1));
    assert!(stats.failed[0].to_string().contains("missing.pod5"));
}

/// Runs `blue-crab COMMAND IN -o OUT`; fails the test, with its stderr, unless it succeeds.
fn run_blue_crab(command: &str, input: &Path, out: &Path) {
    let mut c = blue_crab().expect("blue-crab found");
    let o = c.arg(command).arg(input).arg("-o").arg(out).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

fn blue_crab() -> Option<std::process::Command> {
    let ok = std::process::Command::new("blue-crab")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if ok {
        return Some(std::process::Command::new("blue-crab"));
    }
    let ci = std::env::var("CI").is_ok_and(|v| v == "true");
    assert!(!ci, "CI=true needs blue-crab (pip install blue-crab)");
    println!("skipped: blue-crab not found (pip install blue-crab)");
    None
}

fn float_eq(a: f64, b: f64) -> bool {
    a == b || (a.is_nan() && b.is_nan())
}

/// SLOW5 text with slow5lib's float form (`FloatText::Slow5lib`): every record line of a POD5
/// converted is blue-crab p2s's byte for byte (the read group attributes come in another
/// order: compared above as sets); the exact form writes more digits for the ranges.
#[svb_testdata::data_test]
fn slow5_text_with_slow5libs_floats_is_blue_crabs(data: &Path, tmp: &TempDir) {
    let Some(_) = blue_crab() else { return };
    let src = data.join("pod5/multi_fast5_zip.pod5");
    let theirs = tmp.join("theirs.slow5");
    run_blue_crab("p2s", &src, &theirs);
    let records = |p: &Path| -> Vec<String> {
        let text = std::fs::read_to_string(p).unwrap();
        text.lines().filter(|l| !l.starts_with(['#', '@'])).map(String::from).collect()
    };
    for (floats, same) in
        [(svb_blow5::FloatText::Slow5lib, true), (svb_blow5::FloatText::Exact, false)]
    {
        let ours = tmp.join(&format!("ours-{floats:?}.slow5"));
        let compression = svb_convert::Compression { float_text: floats, ..Default::default() };
        svb_convert::convert(
            std::slice::from_ref(&src),
            svb_model::Format::Pod5,
            &ours,
            svb_model::Format::Slow5,
            compression,
            Run::default(),
        )
        .unwrap();
        assert_eq!(records(&ours) == records(&theirs), same, "{floats:?}");
    }
    // The form is a SLOW5 output's.
    let compression = svb_convert::Compression {
        float_text: svb_blow5::FloatText::Slow5lib,
        ..Default::default()
    };
    let e = compression.check(svb_model::Format::Blow5, &tmp.join("x.blow5")).unwrap_err();
    assert!(e.to_string().contains("a .slow5 output's"), "{e}");
}

/// The same POD5 through blue-crab's p2s and ours: the same read group attributes (ours adds
/// the two key lists), the same records field by field; and back through s2p: the same reads.
#[svb_testdata::data_test]
fn agrees_with_blue_crab(data: &Path, tmp: &TempDir) {
    let Some(_) = blue_crab() else { return };
    let src = data.join("pod5/multi_fast5_zip.pod5");
    let (theirs, ours) = (tmp.join("theirs.blow5"), tmp.join("ours.blow5"));
    run_blue_crab("p2s", &src, &theirs);
    one(pod5_to_blow5, &src, &ours);
    let (t, u) = open_both(|p| svb_blow5::Reader::open(p), &theirs, &ours);
    assert_eq!(u.header().aux, t.header().aux);
    let mut tg = t.header().read_groups[0].clone();
    let mut ug: Vec<(String, String)> = u.header().read_groups[0]
        .iter()
        .filter(|(k, _)| k != CONTEXT_KEYS_ATTRIBUTE && k != TRACKING_KEYS_ATTRIBUTE)
        .cloned()
        .collect();
    tg.sort();
    ug.sort();
    assert_eq!(ug, tg);
    assert_eq!(u.len(), t.len());
    for (a, b) in t.records().zip(u.records()) {
        let (a, b) = (a.unwrap(), b.unwrap());
        let what = &a.read_id;
        assert_eq!(b.read_id, a.read_id);
        assert_eq!(b.raw_signal, a.raw_signal, "{what}");
        for (x, y) in [
            (a.digitisation, b.digitisation),
            (a.offset, b.offset),
            (a.range, b.range),
            (a.sampling_rate, b.sampling_rate),
        ] {
            assert!(float_eq(x, y), "{what}: {x} vs {y}");
        }
        for ((ka, va), (kb, vb)) in a.aux.iter().zip(&b.aux) {
            assert_eq!(ka, kb);
            match (va, vb) {
                (AuxValue::Float(x), AuxValue::Float(y)) => {
                    assert!(float_eq(*x, *y), "{what} {ka}: {x} vs {y}")
                }
                _ => assert_eq!(va, vb, "{what} {ka}"),
            }
        }
    }

    // Back to POD5 from blue-crab's BLOW5: their s2p and ours give the same reads.
    let (their_pod5, our_pod5) = (tmp.join("theirs.pod5"), tmp.join("ours.pod5"));
    run_blue_crab("s2p", &theirs, &their_pod5);
    one(blow5_to_pod5, &theirs, &our_pod5);
    let (t, u) = open_both(|p| svb_pod5::Reader::open(p), &their_pod5, &our_pod5);
    assert_eq!(u.len(), t.len());
    for (i, want) in t.reads().iter().enumerate() {
        let what = want.read_id_string();
        let j = u.find(&what).unwrap();
        assert_same_read(want, &u.reads()[j], &what);
        assert_eq!(u.reads()[j].info.end_reason_forced, want.info.end_reason_forced, "{what}");
        assert_eq!(u.decode_signal(j).unwrap(), t.decode_signal(i).unwrap(), "{what}");
    }
    let (tr, ur) = (&t.run_infos()[0], &u.run_infos()[0]);
    assert_eq!(ur.acquisition_id, tr.acquisition_id);
    assert_eq!(ur.acquisition_start_time_ms, tr.acquisition_start_time_ms);
    assert_eq!((ur.adc_min, ur.adc_max), (tr.adc_min, tr.adc_max));
    assert_eq!(ur.sample_rate, tr.sample_rate);
    assert_eq!(ur.protocol_run_id, tr.protocol_run_id);
    assert_eq!(ur.sample_id, tr.sample_id);
}

fn skip() -> Run<'static> {
    Run { on_error: OnError::Skip, ..Run::default() }
}

/// FAST5 -> POD5 gives what ONT's `pod5 convert fast5` gave for the same file (the two
/// conversions beside the conformance files): every read field by field, the samples, the
/// runs but for the software that wrote them.
#[svb_testdata::data_test]
fn fast5_converts_as_onts_converter_does(data: &Path, tmp: &TempDir) {
    for name in [
        "vbz_compression__multi_fast5_vbz.fast5",
        "slow5tools__f2s__various_versions__multi_fast5_v2.3_barcoded.fast5",
    ] {
        let src = data.join("fast5").join(name);
        let theirs = data.join("fast5").join(format!("{name}.pod5_convert.pod5"));
        let ours = tmp.join(&format!("{name}.pod5"));
        let stats = one(fast5_to_pod5, &src, &ours);
        let (t, u) = open_both(|p| svb_pod5::Reader::open(p), &theirs, &ours);
        assert_eq!(stats.reads, t.len() as u64, "{name}");
        assert_eq!(u.len(), t.len(), "{name}");
        let software = |r: &svb_pod5::Reader| -> Vec<RunInfo> {
            let mut runs = r.run_infos().to_vec();
            runs.iter_mut().for_each(|x| x.software.clear());
            runs
        };
        assert_eq!(software(&u), software(&t), "{name}");
        for (i, want) in t.reads().iter().enumerate() {
            let what = format!("{name} {}", want.read_id_string());
            let j = u.find(&want.read_id_string()).unwrap();
            let comparable = |r: &ReadRow| {
                let mut r = r.clone();
                r.signal_rows.clear();
                format!("{r:#?}")
            };
            assert_eq!(comparable(&u.reads()[j]), comparable(want), "{what}");
            assert_eq!(u.decode_signal(j).unwrap(), t.decode_signal(i).unwrap(), "{what}");
        }
    }
}

/// Every shared FAST5 file converts to POD5 with all its reads, or is refused with an error
/// naming the file (and the read and attribute): no file is skipped silently.
#[svb_testdata::data_test]
fn every_fast5_file_converts_or_is_named(data: &Path, tmp: &TempDir) {
    let text = std::fs::read_to_string(data.join("fast5/manifest.json")).unwrap();
    let manifest: serde_json::Value = serde_json::from_str(&text).unwrap();
    // h5py's run ids of each file: one POD5 run each.
    let run_ids = |file: &str| -> Option<usize> {
        let files = manifest["files"].as_array()?;
        let entry = files.iter().find(|f| f["file"].as_str() == Some(file))?;
        Some(entry["run_ids"].as_array()?.len())
    };
    let mut converted = 0;
    for (name, path) in svb_testdata::files_with_suffix(&data.join("fast5"), ".fast5") {
        let out = tmp.join(&format!("{name}.pod5"));
        match fast5_to_pod5(std::slice::from_ref(&path), &out, (), Run::default()) {
            Ok(stats) => {
                let r = svb_fast5::Reader::open(&path).unwrap();
                let back = svb_pod5::Reader::open(&out).unwrap();
                let file = path.file_name().unwrap().to_str().unwrap();
                if let Some(n) = run_ids(file) {
                    assert_eq!(back.run_infos().len(), n, "{name}: a run per run id");
                }
                assert_eq!((stats.reads, back.len()), (r.len() as u64, r.len()), "{name}");
                for i in 0..r.len() {
                    let j = back.find(r.read_id(i).unwrap()).unwrap();
                    assert_eq!(back.decode_signal(j).unwrap(), r.signal(i).unwrap(), "{name}");
                }
                converted += 1;
            }
            Err(e) => {
                let chain = svb_testdata::error_chain(&e);
                assert!(chain.contains(&name), "{name}: {chain}");
                assert!(!out.exists(), "{name}");
            }
        }
    }
    assert!(converted >= 35, "{converted} files converted");
}

/// FAST5 -> BLOW5 / SLOW5 refuses the read where slow5tools f2s refuses the file because SLOW5
/// has no place for something in it (slow5tools' own test files), naming what, and writes
/// nothing; FAST5 -> POD5 (ONT's mapping, as `pod5 convert`) takes the same files.
#[svb_testdata::data_test]
fn fast5_to_blow5_refuses_what_f2s_would_lose(data: &Path, tmp: &TempDir) {
    let cases = [
        ("unusual_fast5__new_attrib_in_raw", "attribute Raw/newstuff is unexpected"),
        ("unusual_fast5__new_attrib_in_read", "attribute bloodyhell of the read's group"),
        ("unusual_fast5__new_attrib_in_channel", "attribute channel_id/newcrap is unexpected"),
        ("unusual_fast5__new_group", "group newgroup is unexpected"),
        ("err_fast5__dupli_attrib", "attribute version is 1.1.21 in tracking_id but 1.0"),
        ("end_reason_fast5__end_reason_datatype_uint8_t", "Raw/end_reason is the number"),
    ];
    for (name, what) in cases {
        let src = data.join(format!("fast5/slow5tools__f2s__{name}.fast5"));
        let out = tmp.join(&format!("{name}.blow5"));
        let e = fast5_to_blow5(std::slice::from_ref(&src), &out, (), Run::default()).unwrap_err();
        let chain = svb_testdata::error_chain(&e);
        assert!(chain.contains(what), "{name}: {chain}");
        assert!(chain.contains("slow5tools f2s refuses the file too"), "{name}: {chain}");
        assert!(!out.exists(), "{name}");
        if !name.starts_with("end_reason") && !name.starts_with("err") {
            let pod5 = tmp.join(&format!("{name}.pod5"));
            fast5_to_pod5(std::slice::from_ref(&src), &pod5, (), Run::default())
                .unwrap_or_else(|e| panic!("{name}: {}", svb_testdata::error_chain(&e)));
        }
    }
}

/// The end reason label h5py read for `read_id` of the shared FAST5 file `name`
/// (fast5/manifest.json).
fn h5py_end_reason(data: &Path, name: &str, read_id: &str) -> Option<&'static str> {
    let text = std::fs::read_to_string(data.join("fast5/manifest.json")).unwrap();
    let m: serde_json::Value = serde_json::from_str(&text).unwrap();
    let file = m["files"].as_array()?.iter().find(|f| f["file"] == format!("{name}.fast5"))?;
    let read = file["reads"].as_array()?.iter().find(|r| r["read_id"] == read_id)?;
    Some(read["end_reason"].as_str()?.to_owned().leak())
}

/// FAST5 -> SLOW5 as slow5tools `f2s` maps it: for every shared FAST5 file of slow5tools'
/// f2s tests, what we write holds the records, fields and read-group attributes of the SLOW5
/// file f2s wrote for it (slow5tools' `test/data/exp/f2s`, under `SVB_SLOW5_REPOS`; skipped
/// without it), values equal up to the 6 decimals f2s prints.
#[test]
#[ignore = "needs the shared test data (../shared/data or SVB_TEST_DATA) and slow5lib's and slow5tools' test data (SVB_SLOW5_REPOS); run with --include-ignored"]
fn fast5_to_slow5_is_what_slow5tools_f2s_writes() {
    let Some((data, tmp)) = svb_testdata::data_and_tmp("convert-fast5-f2s") else { return };
    let Some(repos) = svb_testdata::slow5_repos() else { return };
    let mut compared = 0;
    for (name, src) in svb_testdata::files_with_suffix(&data.join("fast5"), ".fast5") {
        // slow5tools__f2s__DIR__FILE.fast5 was test/data/raw/f2s/DIR/FILE.fast5.
        let Some(rest) = name.strip_prefix("slow5tools__") else {
            continue;
        };
        let exp = repos
            .join("slow5tools/test/data/exp")
            .join(format!("{}.slow5", rest.replace("__", "/")));
        if !exp.is_file() {
            continue;
        }
        let ours = tmp.join(&format!("{name}.slow5"));
        let how =
            Run { publish: svb_io::Publish::from(svb_io::OnExisting::Replace), ..Run::default() };
        let made = fast5_to_blow5(std::slice::from_ref(&src), &ours, (), how);
        if name.contains("end_reason_datatype_uint8_t") || name.contains("compress_fast5") {
            // An older slow5tools wrote these files' expected outputs; 1.3 refuses the files
            // (their end reason a bare uint8_t, as ont_fast5_api's compress_fast5 leaves it),
            // and so does svb.
            let e = svb_testdata::error_chain(&made.unwrap_err());
            assert!(e.contains("Raw/end_reason"), "{name}: {e}");
            continue;
        }
        made.unwrap_or_else(|e| panic!("{name}: {}", svb_testdata::error_chain(&e)));
        let (u, t) = open_both(|p| svb_blow5::Reader::open(p), &ours, &exp);
        assert_eq!(u.len(), t.len(), "{name}");
        let names = |r: &svb_blow5::Reader| {
            let mut n: Vec<_> = r.header().aux.clone();
            n.sort_by(|a, b| a.name.cmp(&b.name));
            n
        };
        assert_eq!(names(&u), names(&t), "{name}: auxiliary fields");
        // Every attribute f2s wrote, with its value (f2s prints floats with one decimal too).
        for (k, v) in &t.header().read_groups[0] {
            assert_eq!(
                u.header().attribute(0, k),
                t.header().attribute(0, k),
                "{name}: @{k} (f2s: {v})"
            );
        }
        for i in 0..u.len() {
            let (a, b) = (u.record(i).unwrap(), t.record(i).unwrap());
            let what = format!("{name} {}", b.read_id);
            assert_eq!(a.read_id, b.read_id, "{what}");
            assert_eq!(a.raw_signal, b.raw_signal, "{what}");
            // f2s prints doubles with %f: 6 decimals.
            let close = |x: f64, y: f64| (x.is_nan() && y.is_nan()) || (x - y).abs() <= 5e-7;
            for (x, y) in [
                (a.digitisation, b.digitisation),
                (a.offset, b.offset),
                (a.range, b.range),
                (a.sampling_rate, b.sampling_rate),
            ] {
                assert!(close(x, y), "{what}: {x} vs {y}");
            }
            for (n, want) in &b.aux {
                let got = &a.aux.iter().find(|(m, _)| m == n).unwrap().1;
                let same = match (got, want) {
                    (AuxValue::Float(x), AuxValue::Float(y)) => close(*x, *y),
                    // f2s takes a read's stored number as an index into the first read's
                    // labels; where a later read's enum orders its labels otherwise
                    // (end_reason_differnt_key_order), that names another label than h5py
                    // reads. Ours is h5py's label.
                    (AuxValue::Enum(_, x), AuxValue::Enum(_, y)) => {
                        x == y || x.as_deref() == h5py_end_reason(&data, &name, &b.read_id)
                    }
                    _ => got == want,
                };
                assert!(same, "{what} {n}: {got:?} vs f2s {want:?}");
            }
        }
        compared += 1;
    }
    assert!(compared >= 15, "{compared} files compared with f2s");
    println!("{compared} FAST5 files convert as slow5tools f2s converts them");
}

/// slow5lib's reader (pyslow5) reads the BLOW5 we write of a FAST5 file with every sample.
#[test]
#[ignore = "needs the shared test data (../shared/data or SVB_TEST_DATA) and Python with pyslow5 (pip); run with --include-ignored"]
fn pyslow5_reads_the_blow5_of_a_fast5_file() {
    let Some((data, tmp)) = svb_testdata::data_and_tmp("convert-fast5-pyslow5") else { return };
    let Some(python) = svb_testdata::python_with("pyslow5", "pyslow5") else { return };
    let name = "vbz_compression__multi_fast5_vbz.fast5";
    let src = data.join("fast5").join(name);
    let ours = tmp.join("ours.blow5");
    one(fast5_to_blow5, &src, &ours);
    let script =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../svb-blow5/tests/python/pyslow5_read.py");
    let lines = svb_testdata::python_lines(&python, &script, [&ours]);
    assert_eq!(lines.len(), 1 + 10);
    let f = svb_fast5::Reader::open(&src).unwrap();
    for line in &lines[1..] {
        let got: serde_json::Value = serde_json::from_str(line).unwrap();
        let i = f.find(got["read_id"].as_str().unwrap()).unwrap();
        assert_eq!(got["samples"].as_u64(), Some(f.signal(i).unwrap().len() as u64));
    }
}

/// FAST5 files none of whose reads can be mapped (an attribute of the wrong type, a missing
/// channel group): FAST5 -> BLOW5 names the file, the first read and the cause, as FAST5 ->
/// POD5 does (it said "schema: no read groups", naming neither), and writes nothing.
#[svb_testdata::data_test]
fn a_fast5_file_without_a_convertible_read_is_named_with_its_cause(data: &Path, tmp: &TempDir) {
    for name in [
        "slow5tools__f2s__end_reason_fast5__end_reason_string.fast5",
        "slow5tools__f2s__err_fast5__missing_primary_field.fast5",
        "vbz_compression__multi_fast5_vbz_v1.fast5",
    ] {
        let input = [data.join("fast5").join(name)];
        let blow5 = tmp.join(&format!("{name}.blow5"));
        let pod5 = tmp.join(&format!("{name}.pod5"));
        let e = fast5_to_blow5(&input, &blow5, (), Run::default()).unwrap_err();
        let said = svb_io::error_chain(&e);
        let e = fast5_to_pod5(&input, &pod5, (), Run::default()).unwrap_err();
        assert_eq!(said, svb_io::error_chain(&e), "{name}");
        assert!(said.contains(name) && said.contains(": read "), "{said}");
        assert!(!blow5.exists() && !pod5.exists());
    }
}
