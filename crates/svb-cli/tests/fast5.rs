//! FAST5 files as inputs of `view`, `get` and `decode`: the same reads, fields and samples as
//! `svb_fast5`'s reader gives; `convert` to POD5 and BLOW5, and back to FAST5 (cut by read
//! count); the other commands, which write their inputs' format, refuse a FAST5 output.

mod common;
use common::{fails, ok, s, svb};
use svb_model::ReadSource;

use arrow_array::cast::AsArray;
use arrow_array::types::Int16Type;
use std::path::Path;
use svb_testdata::TempDir;

const VBZ: &str = "fast5/vbz_compression__multi_fast5_vbz.fast5";
const GZIP: &str = "fast5/pod5-file-format__multi_fast5_zip.fast5";

#[svb_testdata::data_test]
fn view_get_and_decode_read_fast5(data: &Path, tmp: &TempDir) {
    let (vbz, gzip) = (data.join(VBZ), data.join(GZIP));
    let r = svb_fast5::Reader::open(&vbz).unwrap();

    // view: a row a read of both files, every field, the header first.
    let tsv = ok(&svb(&["view", s(&vbz), s(&gzip)]));
    let lines: Vec<&str> = tsv.lines().collect();
    assert_eq!(lines.len(), 1 + 2 * r.len());
    assert!(lines[0].starts_with("read_id\tfilename\tread_number\t"), "{}", lines[0]);
    let read = r.read(0).unwrap();
    let row = lines.iter().find(|l| l.starts_with(&read.read_id)).unwrap();
    assert!(row.contains(&format!("\t{}\t", read.channel_number)), "{row}");
    assert!(row.contains(&read.run_id), "{row}");
    let json = ok(&svb(&["view", "--json", "--fields", "read_id,num_samples", s(&vbz)]));
    let first = json.lines().next().unwrap();
    let n = r.signal(0).unwrap().len();
    assert_eq!(first, format!("{{\"read_id\":\"{}\",\"num_samples\":{n}}}", read.read_id));

    // get: the raw samples, little-endian int16.
    let out = tmp.join("one.i16");
    ok(&svb(&["get", s(&gzip), &read.read_id, "-o", s(&out)]));
    let bytes = std::fs::read(&out).unwrap();
    let got: Vec<i16> = bytes.chunks_exact(2).map(|b| i16::from_le_bytes([b[0], b[1]])).collect();
    assert_eq!(got, r.signal(0).unwrap(), "gzip and VBZ files hold the same samples");

    // decode: an Arrow file, a row a read, the signal as list<int16>.
    let arrow = tmp.join("reads.arrow");
    ok(&svb(&["decode", s(&vbz), "-o", s(&arrow)]));
    let batches: Vec<arrow_array::RecordBatch> =
        arrow_ipc::reader::FileReader::try_new(std::fs::File::open(&arrow).unwrap(), None)
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
    let rows: usize = batches.iter().map(|b| b.num_rows()).sum();
    assert_eq!(rows, r.len());
    let ids = batches[0].column_by_name("read_id").unwrap().as_string::<i32>();
    let i = r.find(ids.value(0)).unwrap();
    let signal = batches[0]["signal"].as_list::<i32>().value(0);
    assert_eq!(signal.as_primitive::<Int16Type>().values(), &r.signal(i).unwrap()[..]);
    let channel = batches[0].column_by_name("channel_number").unwrap().as_string::<i32>();
    assert_eq!(channel.value(0), r.read(i).unwrap().channel_number);

    // convert: FAST5 to POD5 (ONT's mapping), every read; two files holding the same reads
    // are refused, naming the read (POD5 ids are unique).
    let pod5 = tmp.join("from_fast5.pod5");
    ok(&svb(&["convert", s(&vbz), "-o", s(&pod5)]));
    let back = svb_pod5::Reader::open(&pod5).unwrap();
    assert_eq!(back.len(), r.len());
    let j = back.find(&read.read_id).unwrap();
    assert_eq!(back.decode_signal(j).unwrap(), r.signal(0).unwrap());
    let twice = tmp.join("twice.pod5");
    let e = fails(&svb(&["convert", s(&vbz), s(&gzip), "-o", s(&twice)]));
    assert!(e.contains("is already in the file"), "{e}");
    assert!(!twice.exists());

    // And to BLOW5, through the POD5 mapping.
    ok(&svb(&["convert", s(&vbz), "-o", s(&tmp.join("x.blow5"))]));
    assert_eq!(svb_blow5::Reader::open(tmp.join("x.blow5")).unwrap().len(), r.len());

    // And back to FAST5, gzip, cut into files of 4 reads (the last holds the rest).
    let out = tmp.join("x.fast5");
    let said = svb(&[
        "convert",
        s(&tmp.join("x.blow5")),
        "-o",
        s(&out),
        "--signal",
        "gzip",
        "--file-read-count",
        "4",
    ]);
    let said = String::from_utf8_lossy(&said.stderr).into_owned();
    assert!(said.contains("x.0.fast5, ") && said.contains("x.2.fast5"), "{said}");
    let mut back = Vec::new();
    for k in 0..3 {
        let part = svb_fast5::Reader::open(tmp.join(&format!("x.{k}.fast5"))).unwrap();
        back.extend((0..part.len()).map(|i| part.read_id(i).unwrap().to_string()));
    }
    let ids: Vec<String> = (0..r.len()).map(|i| r.read_id(i).unwrap().to_string()).collect();
    assert_eq!(back, ids);
    assert!(!out.exists());

    // Only conversions write FAST5, and only FAST5 outputs are cut by read count.
    let e = fails(&svb(&["subset", s(&vbz), "--read-ids", s(&vbz), "-o", s(&tmp.join("s.fast5"))]));
    assert!(!e.is_empty() && !tmp.join("s.fast5").exists(), "{e}");
    let e = fails(&svb(&["merge", s(&tmp.join("x.blow5")), "-o", s(&tmp.join("m.fast5"))]));
    assert!(e.contains("`svb convert` changes it"), "{e}");
    let e =
        fails(&svb(&["convert", s(&vbz), "-o", s(&tmp.join("y.pod5")), "--file-read-count", "4"]));
    assert!(e.contains("cuts FAST5 outputs"), "{e}");
}

#[svb_testdata::data_test]
fn a_damaged_fast5_is_named(data: &Path, tmp: &TempDir) {
    let mut bytes = std::fs::read(data.join(VBZ)).unwrap();
    bytes.truncate(bytes.len() / 2);
    let bad = tmp.join("half.fast5");
    std::fs::write(&bad, &bytes).unwrap();
    let e = fails(&svb(&["decode", s(&bad), "-o", s(&tmp.join("o.arrow"))]));
    assert!(e.contains("half.fast5"), "{e}");
    assert!(!tmp.join("o.arrow").exists());
}

#[svb_testdata::data_test]
fn fast5_info_and_verify(data: &Path, _tmp: &TempDir) {
    let two_runs = data.join(
        "fast5/slow5tools__f2s__various_versions__single_v0.6_to_multi_v2.0_fast5_diff_run_id.fast5",
    );
    let info = ok(&svb(&["fast5", "info", "--json", s(&two_runs)]));
    let v: serde_json::Value = serde_json::from_str(&info).unwrap();
    assert_eq!((v["layout"].as_str(), v["reads"].as_u64()), (Some("multi-read"), Some(2)));
    assert_eq!(v["runs"].as_array().unwrap().len(), 2, "{info}");
    // verify: a JSON line a read, its sha256 the one h5py gives (the manifest's).
    let text = std::fs::read_to_string(data.join("fast5/manifest.json")).unwrap();
    let manifest: serde_json::Value = serde_json::from_str(&text).unwrap();
    let entry = manifest["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["file"] == "vbz_compression__multi_fast5_vbz.fast5")
        .unwrap();
    let lines = ok(&svb(&["fast5", "verify", s(&data.join(VBZ))]));
    assert_eq!(lines.lines().count(), 10);
    for line in lines.lines() {
        let got: serde_json::Value = serde_json::from_str(line).unwrap();
        let want = entry["reads"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["read_id"] == got["read_id"])
            .unwrap();
        assert_eq!(got["sha256"], want["sha256"], "{line}");
    }
}

/// `subset` of FAST5 inputs writes the picked reads as POD5, BLOW5 or SLOW5 (svb writes no
/// FAST5): each the same reads, in file order, as the whole file's conversion holds.
#[svb_testdata::data_test]
fn subset_of_fast5_is_written_in_any_format_svb_writes(data: &Path, tmp: &TempDir) {
    let vbz = data.join(VBZ);
    let a = svb_fast5::Reader::open(&vbz).unwrap();
    let wanted = [a.read_id(5).unwrap(), a.read_id(0).unwrap(), a.read_id(3).unwrap()];
    let ids = tmp.join("ids.txt");
    std::fs::write(&ids, format!("{}\nnot-there\n", wanted.join("\n"))).unwrap();
    let whole = tmp.join("whole.blow5");
    ok(&svb(&["convert", s(&vbz), "-o", s(&whole)]));
    let whole = svb_blow5::Reader::open(&whole).unwrap();
    for ext in ["pod5", "blow5", "slow5"] {
        let out = tmp.join(&format!("picked.{ext}"));
        let run = svb(&["subset", s(&vbz), "--read-ids", s(&ids), "-o", s(&out)]);
        // An id found nowhere is named, and the exit status says so.
        assert!(fails(&run).contains("not-there"), "{ext}");
        let r = svb_reads::AnyReader::open(&out).unwrap();
        let got: Vec<String> = (0..r.len()).map(|i| r.read(i).unwrap().read_id).collect();
        // File order, not the list's.
        assert_eq!(got, [wanted[1], wanted[2], wanted[0]], "{ext}");
        for (i, id) in got.iter().enumerate() {
            let j = (0..whole.len()).find(|&j| whole.read_id(j).unwrap() == *id).unwrap();
            assert_eq!(r.signal(i).unwrap().samples, whole.record(j).unwrap().raw_signal);
        }
    }
}

/// `fast5 verify --quick` checks what a decode checks before it decodes (every read's
/// attributes and signal dataset): on every shared FAST5 file it fails where the full verify
/// fails, decoding nothing.
#[svb_testdata::data_test]
fn quick_verify_fails_where_verify_fails(data: &Path) {
    let mut failing = 0;
    for (name, path) in svb_testdata::files_with_suffix(&data.join("fast5"), ".fast5") {
        let status = |quick: bool| {
            let mut args = vec!["fast5", "verify"];
            if quick {
                args.push("--quick");
            }
            args.push(path.to_str().unwrap());
            svb(&args).status.success()
        };
        let full = status(false);
        assert_eq!(status(true), full, "{name}");
        failing += usize::from(!full);
    }
    assert!(failing >= 5, "{failing} failing files");
}
