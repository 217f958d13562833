//! `svb decode`: one Arrow IPC file of every read (metadata and signal) read back against
//! the readers, its options, and that a failed decode leaves no output behind.

mod common;
use common::{fails, ok, s, svb};

use std::path::{Path, PathBuf};

use arrow_array::cast::AsArray;
use arrow_array::types::{Float32Type, Int16Type};
use arrow_array::RecordBatch;
use svb_testdata::TempDir;

fn read_ipc(path: &Path) -> Vec<RecordBatch> {
    arrow_ipc::reader::FileReader::try_new(std::fs::File::open(path).unwrap(), None)
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

#[svb_testdata::data_test]
fn arrow_file_holds_every_read_of_every_input(d: &Path, dir: &TempDir) {
    let inputs: Vec<PathBuf> = ["multi_fast5_zip.pod5", "multi_fast5_zip_v4.pod5"]
        .iter()
        .map(|f| d.join("pod5").join(f))
        .collect();
    let out = dir.join("reads.arrow");
    ok(&svb(&["decode", s(&inputs[0]), s(&inputs[1]), "-o", s(&out), "--batch-reads", "4"]));
    let batches = read_ipc(&out);
    let schema = batches[0].schema();
    assert_eq!(schema.field(0).name(), "read_id");
    assert_eq!(schema.fields().last().unwrap().name(), "signal");
    let mut rows = batches.iter().flat_map(|b| {
        let ids = b.column_by_name("read_id").unwrap().as_string::<i32>().clone();
        let sig = b.column_by_name("signal").unwrap().as_list::<i32>().clone();
        (0..b.num_rows()).map(move |k| (ids.value(k).to_string(), sig.value(k)))
    });
    for input in &inputs {
        let r = svb_pod5::Reader::open(input).unwrap();
        for i in 0..r.len() {
            let (id, signal) = rows.next().expect("a row a read");
            assert_eq!(id, r.reads()[i].read_id_string());
            assert_eq!(
                signal.as_primitive::<Int16Type>().values(),
                &r.decode_signal(i).unwrap()[..]
            );
        }
    }
    assert!(rows.next().is_none());
    assert_eq!(dir.entries(), vec!["reads.arrow".to_string()]);

    // An existing output is kept without --force.
    let again = svb(&["decode", s(&inputs[0]), "-o", s(&out)]);
    assert!(fails(&again).contains("--force"));

    // Projection, picoamps.
    ok(&svb(&[
        "decode",
        s(&inputs[0]),
        "-o",
        s(&out),
        "--force",
        "--columns",
        "channel,read_id",
        "--pa",
    ]));
    let batches = read_ipc(&out);
    let names: Vec<String> =
        batches[0].schema().fields().iter().map(|f| f.name().clone()).collect();
    assert_eq!(names, ["channel", "read_id", "signal_pa"]);
    let r = svb_pod5::Reader::open(&inputs[0]).unwrap();
    let pa = batches[0].column(2).as_list::<i32>().value(0);
    let read = &r.reads()[0];
    let want: Vec<f32> = r
        .decode_signal(0)
        .unwrap()
        .iter()
        .map(|&x| (f32::from(x) + read.info.calibration_offset) * read.info.calibration_scale)
        .collect();
    assert_eq!(pa.as_primitive::<Float32Type>().values(), &want[..]);

    // Metadata only.
    ok(&svb(&["decode", s(&inputs[0]), "-o", s(&out), "--force", "--no-signal"]));
    let batches = read_ipc(&out);
    assert!(batches[0].column_by_name("signal").is_none());
    assert_eq!(batches[0].num_rows(), r.len());

    // An unknown column names the ones there are.
    let bad = svb(&["decode", s(&inputs[0]), "-o", s(&out), "--force", "--columns", "nope"]);
    assert!(fails(&bad).contains("read_number"));
}

#[svb_testdata::data_test]
fn blow5_to_arrow_and_directory_output(d: &Path, dir: &TempDir) {
    let input = d.join("blow5/slow5tools/p2solo_ulk114_dna.blow5");
    let out = dir.join("reads.feather");
    ok(&svb(&["decode", s(&input), "-o", s(&out)]));
    let batches = read_ipc(&out);
    let r = svb_blow5::Reader::open(&input).unwrap();
    let rows: usize = batches.iter().map(RecordBatch::num_rows).sum();
    assert_eq!(rows, r.len());
    for name in ["read_id", "digitisation", "channel_number", "end_reason", "signal"] {
        assert!(batches[0].column_by_name(name).is_some(), "{name}");
    }
    let sig = batches[0].column_by_name("signal").unwrap().as_list::<i32>().value(0);
    assert_eq!(sig.as_primitive::<Int16Type>().values(), &r.record(0).unwrap().raw_signal[..]);

    // A directory: one signal file a read, from every input.
    let signals = dir.join("signals");
    let inputs = [
        d.join("blow5/reads_zstd_svb_zd.blow5"),
        d.join("blow5/slow5tools/p2solo_ulk114_dna.blow5"),
    ];
    ok(&svb(&["decode", s(&inputs[0]), s(&inputs[1]), "-o", s(&signals)]));
    let n = std::fs::read_dir(&signals).unwrap().count();
    let want: usize = inputs.iter().map(|p| svb_blow5::Reader::open(p).unwrap().len()).sum();
    assert_eq!(n, want);
    let bad = svb(&["decode", s(&inputs[0]), "-o", s(&signals), "--pa"]);
    assert!(fails(&bad).contains("Arrow output"));
}

#[svb_testdata::data_test]
fn a_failed_decode_leaves_no_output(d: &Path, dir: &TempDir) {
    let src = d.join("blow5/reads_zstd_svb_zd.blow5");
    let r = svb_blow5::Reader::open(&src).unwrap();
    // The last record damaged: the batches before it are written, then the error.
    let (off, _) = r.record_span(r.len() - 1).unwrap();
    let mut bytes = std::fs::read(&src).unwrap();
    bytes[off as usize + 9] ^= 0x5a;
    let bad = dir.join("bad.blow5");
    std::fs::write(&bad, &bytes).unwrap();
    let out = dir.join("out.arrow");
    let run = svb(&["decode", s(&bad), "-o", s(&out), "--batch-reads", "2"]);
    assert!(!run.status.success());
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(err.contains("bad.blow5") && err.contains("record 9"), "{err}");
    assert_eq!(dir.entries(), vec!["bad.blow5".to_string()]);
}
