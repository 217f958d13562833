//! The `svb` command end to end: `blow5 verify` prints the expected sha256 per read,
//! `blow5 decode` writes the signals, broken files exit non-zero with a message, `bench`
//! runs with no file.

mod common;
use common::{fails, ok, s, svb};
use std::process::Command;

use std::path::Path;
use svb_testdata::data_dir;
use svb_testdata::TempDir;

#[svb_testdata::data_test]
fn blow5_verify_matches_expected_sha256(dir: &Path) {
    let expected = std::fs::read_to_string(dir.join("blow5/slow5tools/expected.json")).unwrap();
    let file = dir.join("blow5/slow5tools/example_multi_rg_v0.2.0_zstd_svb-zd.blow5");
    for threads in ["1", "2"] {
        let stdout = ok(&verify("blow5", &file, threads));
        let lines: Vec<&str> = stdout.lines().collect();
        assert!(!lines.is_empty());
        for line in lines {
            assert!(line.starts_with("{\"read_id\":\""), "{line}");
            let sha = line.rsplit("\"sha256\":\"").next().unwrap().trim_end_matches("\"}");
            assert_eq!(sha.len(), 64);
            assert!(expected.contains(sha), "{line}");
        }
    }
}

#[svb_testdata::data_test]
fn blow5_decode_writes_every_read(dir: &Path) {
    let file = dir.join("blow5/reads_zstd_ex_zd.blow5");
    let out_dir = std::env::temp_dir().join(format!("svb-cli-decode-{}", std::process::id()));
    for npy in [false, true] {
        let mut args = vec!["blow5", "decode", s(&file), "-o", s(&out_dir)];
        if npy {
            args.push("--npy");
        }
        let out = svb(&args);
        ok(&out);
    }
    let mut checked = 0;
    for e in std::fs::read_dir(dir.join("pod5/multi_fast5_zip.signal")).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_str().unwrap().to_owned();
        assert_eq!(std::fs::read(out_dir.join(&name)).unwrap(), std::fs::read(&p).unwrap());
        let npy = std::fs::read(out_dir.join(name.replace(".i16", ".npy"))).unwrap();
        assert_eq!(&npy[..6], b"\x93NUMPY");
        assert!(npy.ends_with(&std::fs::read(&p).unwrap()));
        checked += 1;
    }
    assert_eq!(checked, 10);
    // Existing signal files stop a second decode unless --force.
    let again = ["blow5", "decode", s(&file), "-o", s(&out_dir)];
    let out = svb(&again);
    assert!(fails(&out).contains("--force replaces it"));
    let out = svb(&[&again[..], &["--force"]].concat());
    ok(&out);
    std::fs::remove_dir_all(&out_dir).unwrap();
}

#[svb_testdata::data_test]
fn broken_files_exit_non_zero_with_a_message(dir: &Path) {
    let good = std::fs::read(dir.join("blow5/reads_zstd_svb_zd.blow5")).unwrap();
    let path = std::env::temp_dir().join(format!("svb-cli-broken-{}.blow5", std::process::id()));
    std::fs::write(&path, &good[..good.len() / 2]).unwrap();
    let out = svb(&["blow5", "verify", s(&path)]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(s(&path)), "{err}");
    std::fs::remove_file(&path).unwrap();
    let out = svb(&["blow5", "info", "/no/such.blow5"]);
    assert!(!out.status.success());
}

#[test]
#[ignore = "needs the shared test data (../shared/data or SVB_TEST_DATA); run with --include-ignored"]
fn blow5_info_and_bench_run() {
    if let Some(dir) = data_dir() {
        let file = dir.join("blow5/slow5tools/example_multi_rg_v0.2.0_zstd_svb-zd.blow5");
        let out = svb(&["blow5", "info", s(&file)]);
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("read groups: 5"), "{text}");
        assert!(text.contains("zstd") && text.contains("svb-zd"), "{text}");
    }
    let out = svb(&["bench", "--samples", "20000", "--seconds", "0.01"]);
    let text = ok(&out);
    for codec in ["U32Classic", "Svb16", "VBZ", "POD5 VBZ", "SVB-ZD", "ex-zd"] {
        assert!(text.contains(&format!("| {codec} |")), "{text}");
    }
}

#[svb_testdata::data_test]
fn pod5_verify_matches_the_manifests_for_every_writer(dir: &Path) {
    let manifest = std::fs::read_to_string(dir.join("pod5/multi_fast5_zip.json")).unwrap();
    for name in ["multi_fast5_zip.pod5", "multi_fast5_zip_v4.pod5", "multi_fast5_zip_v0.pod5"] {
        let file = dir.join("pod5").join(name);
        for threads in ["1", "2"] {
            let stdout = ok(&verify("pod5", &file, threads));
            assert_eq!(stdout.lines().count(), 10, "{name}");
            for line in stdout.lines() {
                let id = &line[13..49];
                let sha = line.rsplit("\"sha256\":\"").next().unwrap().trim_end_matches("\"}");
                // The manifest lists the id, then its sample count, then its sha256.
                let at = manifest.find(id).unwrap_or_else(|| panic!("{name}: {id}"));
                let entry = &manifest[at..at + 300];
                assert!(entry.contains(sha), "{name}: {line}");
                let n = line.split("\"num_samples\":").nth(1).unwrap().split(',').next().unwrap();
                assert!(entry.contains(&format!("\"num_samples\": {n},")), "{name}: {line}");
            }
        }
    }
}

#[svb_testdata::data_test]
fn pod5_decode_info_and_broken_files(dir: &Path) {
    let file = dir.join("pod5/multi_fast5_zip_v4.pod5");
    let out_dir = std::env::temp_dir().join(format!("svb-cli-pod5-{}", std::process::id()));
    let out = svb(&["pod5", "decode", s(&file), "-o", s(&out_dir)]);
    ok(&out);
    let mut checked = 0;
    for e in std::fs::read_dir(dir.join("pod5/multi_fast5_zip.signal")).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_owned();
        assert_eq!(std::fs::read(out_dir.join(&name)).unwrap(), std::fs::read(&p).unwrap());
        checked += 1;
    }
    assert_eq!(checked, 10);
    std::fs::remove_dir_all(&out_dir).unwrap();

    let out = svb(&["pod5", "info", s(&file)]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("reads: 10") && text.contains("samples: 1548931"), "{text}");
    assert!(text.contains("vbz, 22 chunks"), "{text}");

    // A chunk damaged in place: the file opens, verify stops at the broken read.
    let mut bytes = std::fs::read(&file).unwrap();
    let frame = bytes.windows(4).position(|w| w == [0x28, 0xb5, 0x2f, 0xfd]).unwrap();
    // The frame header descriptor's reserved bit: VBZ has no checksum, so damage inside
    // the compressed data may decode to other samples; this cannot.
    bytes[frame + 4] |= 0x08;
    let path = std::env::temp_dir().join(format!("svb-cli-broken-{}.pod5", std::process::id()));
    std::fs::write(&path, &bytes).unwrap();
    let out = svb(&["pod5", "verify", s(&path)]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(s(&path)) && err.contains("signal table row 0"), "{err}");
    std::fs::write(&path, &bytes[..bytes.len() - 1]).unwrap();
    let out = svb(&["pod5", "info", s(&path)]);
    assert!(!out.status.success());
    std::fs::remove_file(&path).unwrap();
}

fn temp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("svb-cli-{}-{name}", std::process::id()))
}

/// A POD5 file of `n` reads of 300 samples whose reads in `bad` have a chunk that fails to
/// decode.
fn pod5_with_bad_reads(n: u16, bad: &[u16]) -> Vec<u8> {
    use svb_testdata::pod5::{TestFile, TestRead};
    let reads: Vec<TestRead> = (0..n)
        .map(|r| {
            // The first sample marks the read for the compressor below.
            let mut s: Vec<i16> = (0..300).map(|i| (i % 50) as i16).collect();
            s[0] = if bad.contains(&r) { -12345 } else { r as i16 };
            let mut read = TestRead::new(r as u8, s);
            read.read_id[..2].copy_from_slice(&r.to_be_bytes());
            read
        })
        .collect();
    let compress = |s: &[i16]| {
        if s[0] == -12345 {
            b"not a zstd frame".to_vec()
        } else {
            svb_vbz::pod5_blob::compress_signal(s)
        }
    };
    TestFile {
        reads,
        chunk_samples: 102_400,
        signal_batch_rows: 100,
        compress: Some(&compress),
        edit: None,
    }
    .write()
}

/// The read id [`pod5_with_bad_reads`] gives read `r`.
fn id(r: u16) -> String {
    let mut b = [r as u8; 16];
    b[..2].copy_from_slice(&r.to_be_bytes());
    svb_pod5::uuid_string(&b)
}

/// `verify` goes on past bad reads: a line per good read on stdout, a line naming each bad
/// read on stderr, status 1 at the end.
#[test]
fn verify_reports_every_bad_read_and_goes_on() {
    let path = temp("bad-reads.pod5");
    std::fs::write(&path, pod5_with_bad_reads(5, &[1, 3])).unwrap();
    for threads in ["1", "2"] {
        let out = verify("pod5", &path, threads);
        assert_eq!(out.status.code(), Some(1));
        let stdout = String::from_utf8(out.stdout).unwrap();
        let ids: Vec<&str> = stdout
            .lines()
            .map(|l| &l[12..48]) // {"read_id":"<36 chars>"
            .collect();
        assert_eq!(ids, [0u16, 2, 4].map(id), "{stdout}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        let lines: Vec<&str> = stderr.lines().collect();
        assert_eq!(lines.len(), 3, "{stderr}");
        for (line, r) in lines.iter().zip([1u16, 3]) {
            assert!(line.starts_with("svb: verify: "), "{line}");
            assert!(line.contains(&id(r)), "{line}");
        }
        assert!(lines[2].ends_with("2 of 5 reads failed to decode"), "{stderr}");
    }
    std::fs::remove_file(&path).unwrap();
}

/// `svb pod5 verify f | head -1`: the closed pipe ends the command quietly with status 0.
#[test]
fn a_closed_pipe_ends_quietly() {
    use std::io::BufRead;
    let path = temp("many-reads.pod5");
    // 2000 reads: their lines (250 KB) fill a pipe's 64 KiB buffer four times over.
    std::fs::write(&path, pod5_with_bad_reads(2000, &[])).unwrap();
    for cmd in ["verify", "info"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_svb"))
            .args(["pod5", cmd, s(&path)])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = String::new();
        std::io::BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
        assert!(!first.is_empty());
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{cmd}: {:?}", out.status);
        assert_eq!(String::from_utf8_lossy(&out.stderr), "", "{cmd}");
    }
    std::fs::remove_file(&path).unwrap();
}

/// `decode -o DIR` refuses a read id that is not a portable file name, naming it, and
/// writes nothing outside DIR.
#[test]
fn decode_refuses_read_ids_that_are_not_portable_names() {
    use svb_testdata::blow5::{write, TestRecord};
    let signal: Vec<u8> = [1i16, 2, 3].iter().flat_map(|s| s.to_le_bytes()).collect();
    let root = temp("decode-names");
    let out_dir = root.join("out");
    for id in ["../escape", "NUL", "C:evil", ".hidden", "a\\b", "aux.txt"] {
        let path = root.join("ids.blow5");
        std::fs::create_dir_all(&root).unwrap();
        let records = [
            TestRecord { read_id: "fine", len_raw_signal: 3, signal: &signal },
            TestRecord { read_id: id, len_raw_signal: 3, signal: &signal },
        ];
        std::fs::write(&path, write(0, &records)).unwrap();
        let out = svb(&["blow5", "decode", s(&path), "-o", s(&out_dir)]);
        assert_eq!(out.status.code(), Some(1), "{id}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(&format!("{id:?} is not a portable file name")), "{err}");
        assert!(out_dir.join("fine.i16").exists());
        let mut names: Vec<_> = std::fs::read_dir(&root)
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        names.sort();
        assert_eq!(names, ["ids.blow5", "out"], "{id}");
        std::fs::remove_dir_all(&root).unwrap();
    }
}

/// `svb subset` of POD5: the listed reads (a header line, a TSV column, a duplicate and a
/// missing id in the list) with their signals and fields; the missing id is named on stderr
/// and makes the status 1 unless `--missing-ok`; an existing output needs `--force`.
#[svb_testdata::data_test]
fn subset_pod5_keeps_the_listed_reads(dir: &Path, tmp: &TempDir) {
    let src_path = dir.join("pod5/multi_fast5_zip.pod5");
    let src = svb_pod5::Reader::open(&src_path).unwrap();
    let ids = tmp.join("ids.tsv");
    let (a, b) = (src.reads()[1].read_id_string(), src.reads()[7].read_id_string());
    let missing = "00000000-1111-2222-3333-444444444444";
    std::fs::write(&ids, format!("read_id\tfilename\n{b}\tx\n{a}\ty\n{b}\tz\n{missing}\n"))
        .unwrap();
    let out = tmp.join("picked.pod5");
    let args = |extra: &[&str]| {
        let mut v = vec!["subset", s(&src_path), "--read-ids", s(&ids), "-o", s(&out)];
        v.extend_from_slice(extra);
        v.into_iter().map(String::from).collect::<Vec<_>>()
    };
    let run = |extra: &[&str]| {
        let a = args(extra);
        svb(&a.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let o = run(&[]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains(&format!("read id {missing} is in no input")), "{err}");
    let got = svb_pod5::Reader::open(&out).unwrap();
    assert_eq!(got.len(), 2);
    for read in got.reads() {
        let i = src.find(&read.read_id_string()).unwrap();
        let j = got.find(&read.read_id_string()).unwrap();
        assert_eq!(got.decode_signal(j).unwrap(), src.decode_signal(i).unwrap());
        // VBZ chunks are copied as stored.
        for c in 0..src.chunks(i).unwrap().len() {
            assert_eq!(got.chunk_bytes(j, c).unwrap(), src.chunk_bytes(i, c).unwrap());
        }
        assert_eq!(read.info.channel, src.reads()[i].info.channel);
        assert_eq!(read.info.start_sample, src.reads()[i].info.start_sample);
    }
    assert_eq!(got.run_infos(), src.run_infos());

    let o = run(&["--missing-ok"]);
    assert_eq!(o.status.code(), Some(1), "the output exists");
    assert!(String::from_utf8_lossy(&o.stderr).contains("--force"));
    let o = run(&["--missing-ok", "--force"]);
    ok(&o);

    let wrong = tmp.join("picked.blow5");
    let o = svb(&["subset", s(&src_path), "--read-ids", s(&ids), "-o", s(&wrong)]);
    assert!(fails(&o).contains("svb convert"));
    assert!(!wrong.exists());
}

/// `svb subset` of BLOW5 from a directory, ids on stdin: every record keeps its fields and
/// its read group's attributes.
#[svb_testdata::data_test]
fn subset_blow5_keeps_records_and_read_groups(dir: &Path, tmp: &TempDir) {
    let src_path = dir.join("blow5/slow5tools/example_multi_rg_v0.2.0_zstd_svb-zd.blow5");
    let src = svb_blow5::Reader::open(&src_path).unwrap();
    let records: Vec<_> = src.records().map(|r| r.unwrap()).collect();
    let input_dir = tmp.join("in");
    std::fs::create_dir_all(input_dir.join("sub")).unwrap();
    std::fs::copy(&src_path, input_dir.join("sub/a.blow5")).unwrap();
    // Every third record, and the last.
    let picked: Vec<&svb_blow5::Record> = records
        .iter()
        .enumerate()
        .filter(|(i, _)| i % 3 == 0 || *i == records.len() - 1)
        .map(|(_, r)| r)
        .collect();
    let list: String = picked.iter().map(|r| format!("{}\n", r.read_id)).collect();
    let out = tmp.join("picked.blow5");
    let mut child = Command::new(env!("CARGO_BIN_EXE_svb"))
        .args(["subset", "-r", s(&input_dir), "--read-ids", "-", "-o"])
        .arg(&out)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), list.as_bytes()).unwrap();
    let o = child.wait_with_output().unwrap();
    ok(&o);
    let got = svb_blow5::Reader::open(&out).unwrap();
    assert_eq!(got.len(), picked.len());
    for (want, rec) in picked.iter().zip(got.records()) {
        let rec = rec.unwrap();
        assert_eq!(rec.read_id, want.read_id);
        assert_eq!(rec.raw_signal, want.raw_signal);
        assert_eq!(rec.aux, want.aux);
        assert_eq!(
            got.header().read_groups[rec.read_group as usize],
            src.header().read_groups[want.read_group as usize]
        );
    }
    // Without -r the directory's subdirectory is not searched.
    let o = svb(&[
        "subset",
        s(&input_dir),
        "--read-ids",
        "-",
        "-o",
        tmp.join("none.blow5").to_str().unwrap(),
    ]);
    assert!(fails(&o).contains("-r looks in subdirectories"));
}

/// `info` names compression as users know it, and `--json` is one JSON object with the same.
#[svb_testdata::data_test]
fn info_names_formats_and_speaks_json(dir: &Path) {
    let blow5 = dir.join("blow5/reads_zstd_svb_zd.blow5");
    let o = svb(&["blow5", "info", s(&blow5)]);
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.contains("record compression: zstd"), "{text}");
    assert!(text.contains("signal compression: svb-zd"), "{text}");
    let o = svb(&["blow5", "info", "--json", s(&blow5)]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["format"], "blow5");
    assert_eq!(v["record_compression"], "zstd");
    assert_eq!(v["signal_compression"], "svb-zd");
    assert_eq!(v["records"], 10);
    assert_eq!(v["read_groups"].as_array().unwrap().len(), 1);

    for (name, version) in [("multi_fast5_zip.pod5", "1+"), ("multi_fast5_zip_v0.pod5", "0")] {
        let pod5 = dir.join("pod5").join(name);
        let o = svb(&["pod5", "info", "--json", s(&pod5)]);
        ok(&o);
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(v["format"], "pod5");
        assert_eq!(v["signal"], "vbz");
        assert_eq!(v["reads"], 10);
        assert_eq!(v["reads_table_version"], version);
        assert!(v["tables"].as_array().unwrap().iter().any(|t| t["content"] == "signal table"));
    }
    let o = svb(&["pod5", "info", dir.join("pod5/multi_fast5_zip.pod5").to_str().unwrap()]);
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.contains("signal: vbz, 22 chunks"), "{text}");
}

/// `svb get`: a read's samples as pod5 wrote them (the shared .i16 files), as .npy, as pA;
/// several reads into a directory; a missing id is an error naming it.
#[svb_testdata::data_test]
fn get_writes_reads_signal(dir: &Path) {
    let pod5 = dir.join("pod5/multi_fast5_zip.pod5");
    let id = "0000173c-bf67-44e7-9a9c-1ad0bc728e74";
    let want = std::fs::read(dir.join(format!("pod5/multi_fast5_zip.signal/{id}.i16"))).unwrap();
    let o = svb(&["get", s(&pod5), id]);
    ok(&o);
    assert_eq!(o.stdout, want);

    let o = svb(&["get", s(&pod5), id, "--npy"]);
    assert!(o.stdout.starts_with(b"\x93NUMPY\x01\x00"));
    assert_eq!(o.stdout.len() % 64, want.len() % 64);
    assert!(o.stdout.ends_with(&want));

    let r = svb_pod5::Reader::open(&pod5).unwrap();
    let read = r.read_by_id(id).unwrap();
    let o = svb(&["get", s(&pod5), id, "--pa"]);
    let pa: Vec<f32> =
        o.stdout.chunks_exact(4).map(|c| f32::from_le_bytes(c.try_into().unwrap())).collect();
    assert_eq!(pa.len() * 2, want.len());
    let s0 = i16::from_le_bytes([want[0], want[1]]);
    assert_eq!(pa[0], (f32::from(s0) + read.info.calibration_offset) * read.info.calibration_scale);

    let tmp = svb_testdata::TempDir::new("cli-get");
    // A copy: `get` writes slow5lib's index beside the file, never into the shared data.
    let blow5 = tmp.join("reads.blow5");
    std::fs::copy(dir.join("blow5/reads_zstd_ex_zd.blow5"), &blow5).unwrap();
    let other = "002fde30-9e23-4125-9eae-d112c18a81a7";
    let out = tmp.join("signals");
    let o = svb(&["get", s(&blow5), other, id, "-o", s(&out)]);
    ok(&o);
    for rid in [id, other] {
        let got = std::fs::read(out.join(format!("{rid}.i16"))).unwrap();
        let want =
            std::fs::read(dir.join(format!("pod5/multi_fast5_zip.signal/{rid}.i16"))).unwrap();
        assert_eq!(got, want, "{rid}");
    }

    // The index was written and is used the next time.
    let index = svb_blow5::Index::read(&svb_blow5::Index::path_for(&blow5)).unwrap();
    assert_eq!(index.len(), 10);
    let o = svb(&["get", s(&blow5), "no-such-read"]);
    assert!(fails(&o).contains("no read no-such-read"));
    // Every id is found before any read is written: one missing writes nothing, to a
    // directory or to standard output.
    let none = tmp.join("none");
    let blow5 = s(&blow5);
    let o = svb(&["get", blow5, other, "no-such-read", "-o", s(&none)]);
    assert!(fails(&o).contains("no read no-such-read"));
    assert!(!none.exists() || std::fs::read_dir(&none).unwrap().next().is_none());
    let o = svb(&["get", blow5, other, "no-such-read"]);
    assert!(fails(&o).contains("no read no-such-read"));
    assert!(o.stdout.is_empty());
}

/// `svb view` of POD5 is `pod5 view`'s table byte for byte (ONT's tool from pip; skipped
/// without it, except under CI=true); `--fields` picks and orders columns, `--json` writes
/// one object a read, an unknown field is an error listing the fields.
#[svb_testdata::data_test]
fn view_is_pod5_views_table(dir: &Path) {
    let python = std::env::var("PYTHON").unwrap_or_else(|_| "python3".into());
    for name in ["multi_fast5_zip.pod5", "multi_fast5_zip_v4.pod5", "multi_fast5_zip_v0.pod5"] {
        let file = dir.join("pod5").join(name);
        let ours = svb(&["view", s(&file)]);
        ok(&ours);
        let theirs =
            Command::new(&python).args(["-m", "pod5.tools.main", "view"]).arg(&file).output();
        match theirs {
            Ok(t) if t.status.success() => {
                assert_eq!(
                    String::from_utf8(ours.stdout).unwrap(),
                    String::from_utf8(t.stdout).unwrap(),
                    "{name}"
                );
            }
            _ => {
                let ci = std::env::var("CI").is_ok_and(|v| v == "true");
                assert!(!ci, "CI=true needs {python} with pod5 (pip install pod5)");
                println!("skipped: pod5 view not found (pip install pod5)");
            }
        }
    }
    // Empty text (a run id, a pore type) is `""`, as pod5 view writes it (a
    // null stays empty).
    let tmp = svb_testdata::TempDir::new("cli_view_empty_text");
    let empty = tmp.join("empty.pod5");
    let mut w = svb_pod5::Writer::create(&empty, svb_pod5::WriteOptions::default()).unwrap();
    let run = svb_pod5::RunInfo { acquisition_id: "acq".into(), ..svb_pod5::RunInfo::default() };
    w.add_run_info(&run).unwrap();
    let mut read = svb_pod5::ReadInfo::new([5; 16], "acq");
    read.pore_type = "".into();
    read.num_samples = 3;
    w.add_read(&read, &[1, 2, 3]).unwrap();
    w.finish().unwrap();
    let ours = ok(&svb(&["view", s(&empty), "-i", "read_id,run_id,pore_type"]));
    assert_eq!(ours.lines().nth(1), Some("05050505-0505-0505-0505-050505050505\t\"\"\t\"\""));
    let theirs = Command::new(&python)
        .args(["-m", "pod5.tools.main", "view", "-i", "read_id,run_id,pore_type"])
        .arg(&empty)
        .output();
    match theirs {
        Ok(t) if t.status.success() => assert_eq!(ours, String::from_utf8(t.stdout).unwrap()),
        _ => assert!(std::env::var("CI").map_or(true, |v| v != "true"), "CI=true needs pod5"),
    }

    let file = dir.join("pod5/multi_fast5_zip.pod5");
    // pod5 view's own options, as it spells them: the same bytes.
    for args in [
        &["-x", "run_id,sample_id,pore_type", "--separator", ","][..],
        &["-I"],
        &["-i", "read_id,channel", "-H"],
        &["--include", "mux,read_id", "--exclude", "mux"],
    ] {
        let mut ours = vec!["view", s(&file)];
        ours.extend_from_slice(args);
        let ours = ok(&svb(&ours));
        let theirs = Command::new(&python)
            .args(["-m", "pod5.tools.main", "view"])
            .arg(&file)
            .args(args)
            .output();
        match theirs {
            Ok(t) if t.status.success() => {
                assert_eq!(ours, String::from_utf8(t.stdout).unwrap(), "{args:?}");
            }
            _ => assert!(std::env::var("CI").map_or(true, |v| v != "true"), "CI=true needs pod5"),
        }
    }
    // The fields and their types.
    let listed = ok(&svb(&["view", s(&file), "-L"]));
    assert_eq!(listed.lines().next(), Some("read_id\tUtf8"));
    assert_eq!(listed.lines().count(), 27);
    let e = fails(&svb(&["view", s(&file), "-x", "bogus"]));
    assert!(e.contains("--exclude bogus: no such field"), "{e}");
    let o = svb(&["view", s(&file), "--fields", "num_samples,read_id"]);
    let text = String::from_utf8(o.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "num_samples\tread_id");
    assert_eq!(lines[1], "123627\t0000173c-bf67-44e7-9a9c-1ad0bc728e74");
    assert_eq!(lines.len(), 11);

    let blow5 = dir.join("blow5/slow5tools/p2solo_ulk114_dna.blow5");
    let o = svb(&["view", s(&blow5), "--json"]);
    ok(&o);
    let first: serde_json::Value =
        serde_json::from_str(String::from_utf8(o.stdout).unwrap().lines().next().unwrap()).unwrap();
    assert_eq!(first["len_raw_signal"], 2050027);
    assert_eq!(first["end_reason"], "signal_positive");
    assert_eq!(first["channel_number"], "571");

    let o = svb(&["view", s(&file), "--fields", "read_id,bogus"]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("no field bogus") && err.contains("median_before"), "{err}");
}

/// The bytes of POD5 `path` with its run-info table's acquisition id changed (one
/// character), so that every read names a run the file lacks.
fn without_its_run(path: &std::path::Path) -> Vec<u8> {
    let mut bytes = std::fs::read(path).unwrap();
    let r = svb_pod5::Reader::open(path).unwrap();
    let id = r.run_infos()[0].acquisition_id.to_string();
    let table = r
        .footer()
        .contents
        .iter()
        .find(|f| f.content_type == svb_pod5::ContentType::RunInfoTable)
        .unwrap();
    let (at, len) = (table.offset as usize, table.length as usize);
    let found = bytes[at..at + len]
        .windows(id.len())
        .position(|w| w == id.as_bytes())
        .expect("the acquisition id is in the run-info table");
    // A hex digit for another one: still a well-formed id.
    let c = &mut bytes[at + found];
    *c = if *c == b'0' { b'1' } else { b'0' };
    bytes
}

/// A POD5 whose reads name a run the file lacks (its run-info table's acquisition id
/// changed): the read's fields are an error naming the read and the run, in the library and
/// in `view` as in `convert` (`view` showed null run columns where convert refused), never
/// values left empty; the signal still decodes.
#[test]
#[ignore = "needs the shared test data (../shared/data or SVB_TEST_DATA); run with --include-ignored"]
fn a_read_whose_run_the_file_lacks_is_an_error() {
    use svb_model::ReadSource;
    let Some(dir) = data_dir() else { return };
    let tmp = svb_testdata::TempDir::new("cli-no-run");
    let src = dir.join("pod5/multi_fast5_zip.pod5");
    let damaged = tmp.join("no-run.pod5");
    std::fs::write(&damaged, without_its_run(&src)).unwrap();
    let original = svb_pod5::Reader::open(&src).unwrap();
    let r = svb_pod5::Reader::open(&damaged).unwrap();
    let id = r.read_id(0).unwrap();
    let run = &original.run_infos()[0].acquisition_id;
    let said = format!("read {id} names run {run}, which the file lacks");
    let e = r.fields(0).unwrap_err().to_string();
    assert!(e.contains(&said), "{e}");
    assert_eq!(r.signal(0).unwrap(), original.signal(0).unwrap());
    let d = s(&damaged);
    for args in [
        vec!["view", d],
        vec!["view", d, "--fields", "read_id,run_id"],
        vec!["convert", d, "-o", tmp.join("x.blow5").to_str().unwrap()],
    ] {
        let e = fails(&svb(&args));
        assert!(e.contains(&said) && e.contains(d), "{args:?}: {e}");
    }
    assert!(!tmp.join("x.blow5").exists());
}

/// `svb convert`: POD5 -> BLOW5 (one output per input into a directory, ex-zd signals) ->
/// POD5 keeps every read's samples; converting to the inputs' own format is refused.
#[svb_testdata::data_test]
fn convert_both_ways(dir: &Path, tmp: &TempDir) {
    let src = dir.join("pod5/multi_fast5_zip.pod5");
    let out_dir = tmp.join("blow5");
    let o = svb(&["convert", s(&src), "-o", s(&out_dir), "--to", "blow5", "--signal", "ex-zd"]);
    ok(&o);
    let b5 = out_dir.join("multi_fast5_zip.blow5");
    let r = svb_blow5::Reader::open(&b5).unwrap();
    assert_eq!(r.header().signal_compression, svb_blow5::SignalCompression::ExZd);
    let back = tmp.join("back.pod5");
    let o = svb(&["convert", s(&out_dir), "-o", s(&back)]);
    ok(&o);
    let (a, b) = (svb_pod5::Reader::open(&src).unwrap(), svb_pod5::Reader::open(&back).unwrap());
    assert_eq!(a.len(), b.len());
    for i in 0..a.len() {
        assert_eq!(a.decode_signal(i).unwrap(), b.decode_signal(i).unwrap());
    }
    // POD5 to POD5 is a repack: the same reads and samples.
    let same = tmp.join("same.pod5");
    ok(&svb(&["convert", s(&src), "-o", s(&same)]));
    let c = svb_pod5::Reader::open(&same).unwrap();
    assert_eq!(c.len(), a.len());
    for i in 0..a.len() {
        assert_eq!(a.decode_signal(i).unwrap(), c.decode_signal(i).unwrap());
    }
}

/// `svb --threads THREADS FORMAT verify FILE`.
fn verify(format: &str, file: &std::path::Path, threads: &str) -> std::process::Output {
    svb(&["--threads", threads, format, "verify", s(file)])
}

/// `convert -o newdir/x.slow5` makes the folders the output is to be in, as ONT's `pod5
/// convert` does.
#[test]
fn convert_makes_the_outputs_folder() {
    let tmp = svb_testdata::TempDir::new("cli_convert_folder");
    let input = tmp.join("in.blow5");
    let signal: Vec<i16> = (0..10).collect();
    std::fs::write(&input, svb_testdata::blow5::of_reads(&[("r", &signal)])).unwrap();
    let out = tmp.join("new/deeper/x.slow5");
    ok(&svb(&["convert", s(&input), "-o", s(&out)]));
    assert_eq!(svb_blow5::Reader::open(&out).unwrap().len(), 1);
}

/// `subset -c / -s` as `slow5tools get -c / -s`: the BLOW5 output's record and signal
/// compression, the reads' samples and fields unchanged, in either order; refused for a POD5
/// input and a SLOW5 output.
#[svb_testdata::data_test]
fn subset_recompresses_as_slow5tools_get(data: &Path, tmp: &TempDir) {
    let input = data.join("blow5/reads_zstd_svb_zd.blow5");
    let r = svb_blow5::Reader::open(&input).unwrap();
    let ids: Vec<String> = (0..r.len()).rev().step_by(2).map(|i| r.read_id(i).unwrap()).collect();
    let list = tmp.join("ids.txt");
    std::fs::write(&list, ids.join("\n")).unwrap();
    for order in [None, Some("--in-order")] {
        let out = tmp.join(&format!("picked{}.blow5", order.is_some()));
        let mut args = vec!["subset", s(&input), "--read-ids", s(&list), "-o", s(&out)];
        args.extend(["-c", "zlib", "-s", "ex-zd"]);
        args.extend(order);
        ok(&svb(&args));
        let got = svb_blow5::Reader::open(&out).unwrap();
        assert_eq!(got.header().record_compression, svb_blow5::RecordCompression::Zlib);
        assert_eq!(got.header().signal_compression, svb_blow5::SignalCompression::ExZd);
        assert_eq!(got.len(), ids.len());
        for rec in got.records() {
            let rec = rec.unwrap();
            let want = r.record_by_id(&rec.read_id).unwrap().unwrap();
            assert_eq!(rec, want, "{}", rec.read_id);
        }
    }
    let pod5 = data.join("pod5/multi_fast5_zip.pod5");
    let e = fails(&svb(&[
        "subset",
        s(&pod5),
        "--read-ids",
        s(&list),
        "-o",
        s(&tmp.join("p.pod5")),
        "-c",
        "zlib",
    ]));
    assert!(e.contains("-c/--records, -s/--signal and --text-floats are for BLOW5"), "{e}");
    let e = fails(&svb(&[
        "subset",
        s(&input),
        "--read-ids",
        s(&list),
        "-o",
        s(&tmp.join("t.slow5")),
        "-s",
        "ex-zd",
    ]));
    assert!(e.contains("SLOW5 text has no compression"), "{e}");
}

/// `-o -` writes SLOW5 text to standard output (as slow5tools writes to a pipe): convert,
/// subset, merge and degrade give there the bytes they write to a .slow5 file; a pipe its
/// reader closes early ends the command quietly.
#[test]
fn standard_output_is_slow5_text() {
    let tmp = svb_testdata::TempDir::new("cli_stdout");
    let input = tmp.join("in.blow5");
    let a: Vec<i16> = (0..200_000).map(|x| (x % 3000) as i16).collect();
    let b: Vec<i16> = (0..5000).map(|x| x % 700).collect();
    let reads: [(&str, &[i16]); 3] = [("r1", &a), ("r2", &b), ("r3", &a)];
    std::fs::write(&input, svb_testdata::blow5::of_reads(&reads)).unwrap();
    let ids = tmp.join("ids.txt");
    std::fs::write(&ids, "r3\nr1\n").unwrap();
    let file = tmp.join("x.slow5");
    for command in [
        &["convert", s(&input)][..],
        &["subset", s(&input), "--read-ids", s(&ids)],
        &["merge", s(&input)],
        &["degrade", s(&input), "--bits", "2"],
    ] {
        let piped = svb(&[command, &["-o", "-"]].concat());
        ok(&piped);
        ok(&svb(&[command, &["-o", s(&file), "--force"]].concat()));
        assert_eq!(piped.stdout, std::fs::read(&file).unwrap(), "{command:?}");
        assert!(piped.stdout.starts_with(b"#slow5_version"), "{command:?}");
    }
    // A reader that stops early.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_svb"))
        .args(["convert", s(&input), "-o", "-"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 8];
    std::io::Read::read_exact(child.stdout.as_mut().unwrap(), &mut first).unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(&first, b"#slow5_v");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(!String::from_utf8_lossy(&out.stderr).contains("Broken pipe"));
}

/// `convert --signal-chunk-size N` (pod5 convert's option): a POD5 output's chunks hold at
/// most N samples, the reads' samples unchanged; refused for other outputs and for 0.
#[svb_testdata::data_test]
fn convert_cuts_pod5_signal_into_chunks_of_the_size_asked(data: &Path, tmp: &TempDir) {
    let input = data.join("blow5/reads_zstd_svb_zd.blow5");
    let out = tmp.join("small_chunks.pod5");
    ok(&svb(&["convert", s(&input), "-o", s(&out), "--signal-chunk-size", "1000"]));
    let (b, p) = (svb_blow5::Reader::open(&input).unwrap(), svb_pod5::Reader::open(&out).unwrap());
    assert_eq!(p.len(), b.len());
    for i in 0..p.len() {
        let chunks = p.chunks(i).unwrap();
        assert!(chunks.iter().all(|c| c.samples <= 1000), "read {i}");
        let id = p.reads()[i].read_id_string();
        let want = b.record_by_id(&id).unwrap().unwrap().raw_signal;
        assert_eq!(chunks.len(), want.len().div_ceil(1000), "read {i}");
        assert_eq!(p.decode_signal(i).unwrap(), want, "read {i}");
    }
    let e = fails(&svb(&[
        "convert",
        s(&input),
        "-o",
        s(&tmp.join("x.slow5")),
        "--signal-chunk-size",
        "10",
    ]));
    assert!(e.contains("signal chunk size is a .pod5 output's"), "{e}");
    let e = fails(&svb(&[
        "convert",
        s(&input),
        "-o",
        s(&tmp.join("y.pod5")),
        "--signal-chunk-size",
        "0",
    ]));
    assert!(e.contains("1 to 4294967295 samples"), "{e}");
}

/// CLI manners: `-q` keeps errors and leaves out the summary; `get -o -` writes the binary
/// signal to standard output; a misspelt URL says which scheme or `://` is wrong, for an input
/// and an output; the global options have a heading of their own in every subcommand's help.
#[svb_testdata::data_test]
fn quiet_stdout_and_misspelt_urls(data: &Path, tmp: &TempDir) {
    let input = data.join("blow5/reads_zstd_svb_zd.blow5");
    let out = tmp.join("q.slow5");
    let loud = svb(&["convert", s(&input), "-o", s(&out)]);
    ok(&loud);
    assert!(String::from_utf8_lossy(&loud.stderr).contains("svb: convert: "));
    let quiet = svb(&["-q", "convert", s(&input), "-o", s(&tmp.join("q2.slow5"))]);
    ok(&quiet);
    assert_eq!(String::from_utf8_lossy(&quiet.stderr), "");
    // Errors are still said.
    let e = fails(&svb(&["convert", "-q", s(&input), "-o", s(&out)]));
    assert!(e.contains("exists (--force replaces it)"), "{e}");

    // `-o -`: standard output, whatever it is.
    let r = svb_blow5::Reader::open(&input).unwrap();
    let rec = r.record(0).unwrap();
    let got = svb(&["get", s(&input), &rec.read_id, "-o", "-"]);
    ok(&got);
    let want: Vec<u8> = rec.raw_signal.iter().flat_map(|x| x.to_le_bytes()).collect();
    assert_eq!(got.stdout, want);

    for (input, said) in [
        ("htps://host/reads.pod5", "htps:// is not a URL scheme svb reads"),
        ("s3//bucket/reads.pod5", "did you mean s3://bucket/reads.pod5?"),
        ("s3:/bucket/reads.pod5", "did you mean s3://bucket/reads.pod5?"),
    ] {
        let e = fails(&svb(&["view", input]));
        assert!(e.contains(said), "{input}: {e}");
    }
    let e = fails(&svb(&["convert", s(&input), "-o", "htps://host/out.pod5"]));
    assert!(e.contains("htps:// is not a URL scheme svb reads"), "{e}");
    assert!(!Path::new("htps:").exists());

    let help = ok(&svb(&["convert", "--help"]));
    let global = help.find("Global options:").expect("a heading of their own");
    assert!(help[global..].contains("--threads") && help[global..].contains("--quiet"), "{help}");
    assert!(!help[..global].contains("--threads"), "{help}");
}

/// `svb pod5 info --read ID` is `pod5 inspect read ID`'s text byte for byte (ONT's tool from
/// pip; skipped without it, except under CI=true), on every table version; a read not in the
/// file and an id that is no UUID are errors; other formats point elsewhere.
#[svb_testdata::data_test]
fn pod5_info_read_is_pod5_inspect_read(dir: &Path) {
    let python = svb_testdata::python_with("pod5", "pod5");
    for name in ["multi_fast5_zip.pod5", "multi_fast5_zip_v4.pod5", "multi_fast5_zip_v0.pod5"] {
        let file = dir.join("pod5").join(name);
        let r = svb_pod5::Reader::open(&file).unwrap();
        for i in [0, r.len() / 2, r.len() - 1] {
            let id = r.reads()[i].read_id_string();
            let ours = ok(&svb(&["pod5", "info", s(&file), "--read", &id]));
            assert!(ours.starts_with(&format!("read_id: {id}\n")), "{ours}");
            assert!(ours.contains(&format!("\tsample_count: {}\n", r.reads()[i].info.num_samples)));
            if let Some(python) = &python {
                let theirs = Command::new(python)
                    .args(["-m", "pod5.tools.main", "inspect", "read"])
                    .arg(&file)
                    .arg(&id)
                    .output()
                    .unwrap();
                assert_eq!(ours, String::from_utf8(theirs.stdout).unwrap(), "{name} {id}");
            }
        }
    }
    let file = dir.join("pod5/multi_fast5_zip.pod5");
    let e =
        fails(&svb(&["pod5", "info", s(&file), "--read", "00000000-0000-0000-0000-000000000000"]));
    assert!(e.contains("read 00000000-0000-0000-0000-000000000000 is not in the file"), "{e}");
    let e = fails(&svb(&["pod5", "info", s(&file), "--read", "not-a-uuid"]));
    assert!(e.contains("Supplied read_id 'not-a-uuid' is not a valid UUID"), "{e}");
    let blow5 = dir.join("blow5/reads_zstd_svb_zd.blow5");
    let e = fails(&svb(&["blow5", "info", s(&blow5), "--read", "x"]));
    assert!(e.contains("one read in detail is POD5's"), "{e}");
}
