//! POD5 -> FAST5 as ONT's `pod5 convert to_fast5` (pod5 0.3.49) writes it: both outputs read
//! by h5py with ONT's VBZ plugin, every attribute of every group of every read, its value and
//! (for numbers) its HDF5 type, and every sample, equal; and `pod5 convert fast5` of svb's
//! FAST5 gives back the POD5 reads it came from. BLOW5 and FAST5 inputs: read back by svb
//! with the same samples and calibration; slow5tools' s2f inputs come back from FAST5 as
//! they were.

use std::path::Path;

use svb_convert::{convert, Compression, Run};
use svb_model::{Format, ReadSource};
use svb_reads::AnyReader;
use svb_testdata::TempDir;

/// Prints, for each read of the FAST5 file argv[1] (by id), one line per attribute of each
/// group (`group/name=value:type`; text by its characters, whatever its HDF5 storage) and
/// the sha256 of its samples; then the root's attributes.
const DUMP: &str = r#"
import hashlib, sys
import vbz_h5py_plugin  # noqa: F401 (registers HDF5 filter 32020)
import h5py, numpy

def show(v, stored):
    if isinstance(v, bytes):
        return v.decode(), "text"
    if isinstance(v, str):
        return v, "text"
    v = numpy.asarray(v)
    if v.dtype.kind == "f" and numpy.isnan(v):
        return "nan", v.dtype.str
    # An enum's stored type is its member numbers' type with the labels as metadata.
    labels = h5py.check_enum_dtype(stored)
    if labels is not None:
        return str(v.item()), "enum" + repr(sorted(labels.items()))
    return repr(v.item()), v.dtype.str

f = h5py.File(sys.argv[1], "r")
for key in sorted(f.keys()):
    g = f[key]
    for group in ["", "Raw", "channel_id", "tracking_id", "context_tags"]:
        node = g[group] if group else g
        for name in sorted(node.attrs.keys()):
            value, kind = show(node.attrs[name], node.attrs.get_id(name).dtype)
            print(f"{key}/{group}/{name}={value}:{kind}")
    signal = g["Raw/Signal"][()]
    print(f"{key}/Signal={signal.dtype.str}:{len(signal)}:" + hashlib.sha256(signal.astype("<i2").tobytes()).hexdigest())
for name in sorted(f.attrs.keys()):
    print(f"/{name}={show(f.attrs[name], f.attrs.get_id(name).dtype)}")
"#;

/// Runs ONT's `pod5 convert ARGS OUT INPUT` (pod5 0.3.49's command line); panics with its
/// stderr when it fails.
fn pod5_tool(python: &str, args: &[&str], out: &Path, input: &Path) {
    let done = std::process::Command::new(python)
        .args(["-m", "pod5.tools.main", "convert"])
        .args(args)
        .arg(out)
        .arg(input)
        .output()
        .unwrap();
    assert!(done.status.success(), "{}", String::from_utf8_lossy(&done.stderr));
}

fn dump(python: &str, script: &Path, fast5: &Path) -> Vec<String> {
    svb_testdata::python_lines(python, script, [fast5])
}

#[test]
#[ignore = "needs the shared test data and Python's pod5 (pip install pod5); run with --include-ignored"]
fn pod5_to_fast5_as_pod5_convert_to_fast5_writes_it() {
    let Some((data, tmp)) = svb_testdata::data_and_tmp("to-fast5-peer") else { return };
    let Some(python) = svb_testdata::python_with("pod5", "pod5") else { return };
    let script = tmp.join("dump.py");
    std::fs::write(&script, DUMP).unwrap();
    let mut lines = 0;
    for name in ["multi_fast5_zip.pod5", "multi_fast5_zip_v0.pod5", "multi_fast5_zip_v4.pod5"] {
        let input = data.join("pod5").join(name);
        let ours = tmp.join(&format!("{name}.fast5"));
        let stats = convert(
            std::slice::from_ref(&input),
            Format::Pod5,
            &ours,
            Format::Fast5,
            Compression::default(),
            Run::default(),
        )
        .unwrap();
        assert!(stats.reads > 0 && stats.failed.is_empty(), "{name}");
        let theirs_dir = tmp.join(&format!("{name}.pod5-tool"));
        pod5_tool(&python, &["to_fast5", "-o"], &theirs_dir, &input);
        let theirs = std::fs::read_dir(&theirs_dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.extension().is_some_and(|e| e == "fast5"))
            .expect("pod5 wrote a FAST5 file");
        let (a, b) = (dump(&python, &script, &ours), dump(&python, &script, &theirs));
        for (x, y) in a.iter().zip(&b) {
            assert_eq!(x, y, "{name}: svb's line, then pod5's");
        }
        assert_eq!(a.len(), b.len(), "{name}");
        lines += a.len();

        // ONT's own FAST5 -> POD5 reads svb's FAST5 back into the reads it came from.
        let back = tmp.join(&format!("{name}.back.pod5"));
        pod5_tool(&python, &["fast5", "--output"], &back, &ours);
        let (x, y) =
            (svb_pod5::Reader::open(&input).unwrap(), svb_pod5::Reader::open(&back).unwrap());
        assert_eq!(x.len(), y.len(), "{name}");
        for (i, a) in x.reads().iter().enumerate() {
            let j = y
                .reads()
                .iter()
                .position(|b| b.info.read_id == a.info.read_id)
                .unwrap_or_else(|| panic!("{name}: {}", a.read_id_string()));
            let b = &y.reads()[j];
            let fields = |r: &svb_pod5::ReadRow| {
                (
                    r.info.read_number,
                    r.info.start_sample,
                    r.info.channel,
                    r.info.well,
                    r.info.num_samples,
                    r.info.calibration_offset.to_bits(),
                    r.info.calibration_scale.to_bits(),
                    r.info.median_before.to_bits(),
                    r.info.end_reason.clone(),
                )
            };
            assert_eq!(fields(a), fields(b), "{name} {}", a.read_id_string());
            let (mut sa, mut sb) = (Vec::new(), Vec::new());
            x.decode_signal_into(i, &mut sa).unwrap();
            y.decode_signal_into(j, &mut sb).unwrap();
            assert!(sa == sb, "{name} {}: signal", a.read_id_string());
        }
    }
    assert!(lines > 1000, "{lines} attribute lines compared");
}

/// Every read of `input` (of `from`) converted to FAST5 reads back with its samples and its
/// calibration.
fn round_trip(input: &Path, from: Format, out: &Path) -> usize {
    convert(
        &[input.to_path_buf()],
        from,
        out,
        Format::Fast5,
        Compression::default(),
        Run::default(),
    )
    .unwrap_or_else(|e| panic!("{}: {}", input.display(), svb_testdata::error_chain(&e)));
    let a = AnyReader::open(input).unwrap();
    let b = svb_fast5::Reader::open(out).unwrap();
    assert_eq!(a.len(), b.len());
    for i in 0..a.len() {
        // FAST5's root lists reads by name (an HDF5 symbol table): found by id.
        let x = a.read(i).unwrap();
        let j = b.find(&x.read_id).unwrap_or_else(|| panic!("{}", x.read_id));
        let y = ReadSource::read(&b, j).unwrap();
        assert!(x.signal == y.signal, "{}", x.read_id);
        assert_eq!(x.calibration, y.calibration, "{}", x.read_id);
    }
    a.len()
}

#[svb_testdata::data_test]
fn blow5_and_fast5_inputs_read_back_from_fast5(data: &Path, tmp: &TempDir) {
    let (mut reads, mut refused) = (0, 0);
    let files = ["blow5", "blow5/slow5lib", "blow5/slow5tools"]
        .iter()
        .flat_map(|d| svb_testdata::files_with_suffix(&data.join(d), ".blow5"));
    for (name, path) in files {
        // Files without the fields a FAST5 read needs are refused (FAST5 readers need them).
        let Ok(r) = svb_blow5::Reader::open(&path) else {
            continue;
        };
        let essential =
            ["start_time", "read_number", "start_mux", "median_before", "channel_number"];
        let lacks = essential.iter().find(|f| !r.header().aux.iter().any(|a| a.name == **f));
        if let Some(field) = lacks {
            let e = convert(
                std::slice::from_ref(&path),
                Format::Blow5,
                &tmp.join("refused.fast5"),
                Format::Fast5,
                Compression::default(),
                Run::default(),
            )
            .unwrap_err();
            let e = svb_testdata::error_chain(&e);
            assert!(e.contains(field) && e.contains(&name), "{e}");
            assert!(!tmp.join("refused.fast5").exists());
            refused += 1;
            continue;
        }
        if r.is_empty() {
            continue;
        }
        reads += round_trip(&path, Format::Blow5, &tmp.join(&format!("{name}.fast5")));
    }
    let fast5 = data.join("fast5/vbz_compression__multi_fast5_vbz.fast5");
    reads += round_trip(&fast5, Format::Fast5, &tmp.join("vbz.fast5"));
    assert!(reads >= 30 && refused >= 1, "{reads} reads, {refused} files refused");
}

#[svb_testdata::data_test]
fn file_read_count_cuts_the_output_and_publishes_all_or_none(data: &Path, tmp: &TempDir) {
    let input = data.join("pod5/multi_fast5_zip.pod5");
    let out = tmp.join("reads.fast5");
    let ids: Vec<String> = {
        let r = AnyReader::open(&input).unwrap();
        (0..r.len()).map(|i| r.read_id(i).unwrap()).collect()
    };
    let run = |how: Run<'_>| {
        svb_convert::to_fast5_files(
            std::slice::from_ref(&input),
            Format::Pod5,
            &out,
            Default::default(),
            Some(3),
            how,
        )
    };
    // A file at the third part's name: nothing is published, it is left as it was.
    let third = tmp.join("reads.2.fast5");
    std::fs::write(&third, b"theirs").unwrap();
    let e = run(Run::default()).unwrap_err();
    assert!(svb_testdata::error_chain(&e).contains("reads.2.fast5"), "{e}");
    assert_eq!(tmp.entries(), ["reads.2.fast5"]);
    assert_eq!(std::fs::read(&third).unwrap(), b"theirs");
    std::fs::remove_file(&third).unwrap();

    let (stats, files) = run(Run::default()).unwrap();
    assert_eq!(stats.reads as usize, ids.len());
    let names: Vec<String> =
        files.iter().map(|p| p.file_name().unwrap().to_string_lossy().into_owned()).collect();
    assert_eq!(names, ["reads.0.fast5", "reads.1.fast5", "reads.2.fast5", "reads.3.fast5"]);
    let mut read_back = Vec::new();
    for (k, f) in files.iter().enumerate() {
        let r = svb_fast5::Reader::open(f).unwrap();
        assert_eq!(r.len(), if k < 3 { 3 } else { ids.len() - 9 });
        read_back.extend((0..r.len()).map(|i| r.read_id(i).unwrap().to_string()));
    }
    assert_eq!(read_back, ids);
    let e = svb_convert::to_fast5_files(
        std::slice::from_ref(&input),
        Format::Pod5,
        &out,
        Default::default(),
        Some(0),
        Run::default(),
    )
    .unwrap_err();
    assert!(e.to_string().contains("0 reads"), "{e}");
}

/// slow5tools' `s2f` test inputs (`test/data/raw/s2f`) to FAST5 and back to BLOW5 (f2s's
/// mapping): the same records, every auxiliary field included; an end reason slow5lib
/// marks missing (`.`) stays missing (no FAST5 attribute, no BLOW5 field after). An end
/// reason stored as a bare uint8_t goes to FAST5 as one (as s2f writes it), and that FAST5
/// does not come back: f2s refuses such an end reason (slow5tools' as svb's).
#[svb_testdata::data_test(slow5_repos)]
fn slow5tools_s2f_inputs_come_back_from_fast5_as_they_were(repos: &Path, tmp: &TempDir) {
    let raw = repos.join("slow5tools/test/data/raw/s2f");
    let mut records = 0;
    for name in [
        "a.slow5",
        "end_reason_is_enum.slow5",
        "end_reason_is_unint8_t.slow5",
        "end_reason_empty.slow5",
        "median_before_nan.blow5",
    ] {
        let input = raw.join(name);
        let from = svb_reads::detect(&input).unwrap();
        let fast5 = tmp.join(&format!("{name}.fast5"));
        let back = tmp.join(&format!("{name}.blow5"));
        let run = |i: &Path, f, o: &Path, t| {
            convert(
                std::slice::from_ref(&i.to_path_buf()),
                f,
                o,
                t,
                Compression::default(),
                Run::default(),
            )
            .unwrap_or_else(|e| panic!("{name}: {}", svb_testdata::error_chain(&e)))
        };
        run(&input, from, &fast5, Format::Fast5);
        if name == "end_reason_is_unint8_t.slow5" {
            let how = Run::default();
            let fast5s = std::slice::from_ref(&fast5);
            let e =
                convert(fast5s, Format::Fast5, &back, Format::Blow5, Compression::default(), how)
                    .unwrap_err();
            let e = svb_testdata::error_chain(&e);
            assert!(e.contains("Raw/end_reason"), "{name}: {e}");
            continue;
        }
        run(&fast5, Format::Fast5, &back, Format::Blow5);
        let (a, b) =
            (svb_blow5::Reader::open(&input).unwrap(), svb_blow5::Reader::open(&back).unwrap());
        assert_eq!(a.len(), b.len(), "{name}");
        for i in 0..a.len() {
            let (mut x, y) = (a.record(i).unwrap(), b.record(i).unwrap());
            // Missing end reasons: slow5lib's missing value, which FAST5 cannot hold.
            x.aux.retain(|(n, v)| {
                !(n == "end_reason" && matches!(v, svb_blow5::AuxValue::Enum(_, None)))
            });
            let mut y = y;
            y.read_group = x.read_group;
            // f2s orders the fields its own way when the header's order lacks one.
            x.aux.sort_by(|a, b| a.0.cmp(&b.0));
            y.aux.sort_by(|a, b| a.0.cmp(&b.0));
            // Compared as printed: a missing median is NaN on both sides.
            assert_eq!(format!("{x:?}"), format!("{y:?}"), "{name} record {i}");
            records += 1;
        }
    }
    assert!(records >= 20, "{records}");
}

/// A BLOW5 blue-crab made of a POD5 (its newer auxiliary fields: `open_pore_level`, ...) into
/// FAST5: every `Raw` attribute is one FAST5 readers take (slow5tools f2s refuses a file with
/// any other), the fields that have none are left out and the conversion says which.
#[svb_testdata::data_test]
fn fields_fast5_readers_refuse_are_left_out_and_named(data: &Path, tmp: &TempDir) {
    // Our POD5 -> BLOW5 writes blue-crab's fields, the newer levels among them.
    let input = tmp.join("blue_crab.blow5");
    convert(
        &[data.join("pod5/multi_fast5_zip.pod5")],
        Format::Pod5,
        &input,
        Format::Blow5,
        Compression::default(),
        Run::default(),
    )
    .unwrap();
    let header = svb_blow5::Reader::open(&input).unwrap().header().clone();
    assert!(header.aux.iter().any(|f| f.name == "open_pore_level"));
    let out = tmp.join("out.fast5");
    let stats = convert(
        std::slice::from_ref(&input),
        Format::Blow5,
        &out,
        Format::Fast5,
        Compression::default(),
        Run::default(),
    )
    .unwrap();
    let note = stats.notes.join("\n");
    assert!(note.contains("open_pore_level") && note.contains("are left out"), "{note}");
    let f = svb_fast5::Reader::open(&out).unwrap();
    let taken = [
        "start_time",
        "read_number",
        "start_mux",
        "median_before",
        "end_reason",
        "num_minknow_events",
        "tracked_scaling_scale",
        "tracked_scaling_shift",
        "predicted_scaling_scale",
        "predicted_scaling_shift",
        "num_reads_since_mux_change",
        "time_since_mux_change",
        "duration",
        "read_id",
    ];
    for i in 0..f.len() {
        let read = f.read(i).unwrap();
        for (name, _) in read.raw.iter() {
            assert!(taken.contains(&name.as_str()), "Raw/{name}");
        }
    }
    assert!(!f.is_empty());
}
