//! `--keep-going` of `svb subset` and `svb convert`: without it the first bad input stops the
//! command and leaves no output; with it the bad input is named, the others are written, and
//! the exit status is 1.

mod common;
use common::{fails, s, svb};
use std::path::Path;
use svb_testdata::TempDir;

#[svb_testdata::data_test]
fn subset_and_convert_go_past_a_bad_input(d: &Path, tmp: &TempDir) {
    let good = d.join("pod5/multi_fast5_zip.pod5");
    let bad = tmp.join("bad.pod5");
    std::fs::write(&bad, b"\x8bPOD\r\n\x1a\n truncated").unwrap();
    let r = svb_pod5::Reader::open(&good).unwrap();
    let ids: Vec<String> = r.reads().iter().map(|x| x.read_id_string()).collect();
    let list = tmp.join("ids.txt");
    std::fs::write(&list, ids.join("\n")).unwrap();

    // subset: stops without --keep-going, nothing written.
    let out = tmp.join("picked.pod5");
    let run = svb(&["subset", s(&bad), s(&good), "--read-ids", s(&list), "-o", s(&out)]);
    assert!(fails(&run).contains("bad.pod5"));
    assert!(!out.exists());
    // With it: the good file's reads, the bad one named, status 1.
    let run =
        svb(&["subset", s(&bad), s(&good), "--read-ids", s(&list), "-o", s(&out), "--keep-going"]);
    assert_eq!(run.status.code(), Some(1));
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(err.contains("left out") && err.contains("bad.pod5"), "{err}");
    let picked = svb_pod5::Reader::open(&out).unwrap();
    assert_eq!(picked.len(), ids.len());

    // convert: the same.
    let b5 = tmp.join("all.blow5");
    let run = svb(&["convert", s(&bad), s(&good), "-o", s(&b5)]);
    assert!(!run.status.success());
    assert!(!b5.exists());
    let run = svb(&["convert", s(&bad), s(&good), "-o", s(&b5), "--keep-going"]);
    assert_eq!(run.status.code(), Some(1));
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(err.contains("left out") && err.contains("bad.pod5"), "{err}");
    assert_eq!(svb_blow5::Reader::open(&b5).unwrap().len(), ids.len());

    // One output per input: the bad input has none, the good one its own.
    let dir = tmp.join("each");
    let run = svb(&["convert", s(&bad), s(&good), "-o", s(&dir), "--to", "blow5", "--keep-going"]);
    assert_eq!(run.status.code(), Some(1));
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["multi_fast5_zip.blow5"]);
}

#[svb_testdata::data_test]
fn subset_goes_past_a_damaged_read(d: &Path, tmp: &TempDir) {
    // The shared records with uncompressed records (so that a damaged field leaves the read
    // id readable: the index finds it) and SVB-ZD signal.
    let shared = svb_blow5::Reader::open(d.join("blow5/reads_zstd_svb_zd.blow5")).unwrap();
    let src = tmp.join("plain.blow5");
    let options = svb_blow5::WriteOptions {
        record_compression: svb_blow5::RecordCompression::None,
        signal_compression: svb_blow5::SignalCompression::SvbZd,
        ..svb_blow5::WriteOptions::default()
    };
    let mut w =
        svb_blow5::Writer::create(&src, svb_blow5::Schema::of(shared.header()), options).unwrap();
    let records: Vec<svb_blow5::Record> = shared.records().collect::<Result<_, _>>().unwrap();
    w.add_records(&records).unwrap();
    w.finish().unwrap();
    let r = svb_blow5::Reader::open(&src).unwrap();
    let ids: Vec<String> = records.iter().map(|x| x.read_id.clone()).collect();
    // Record 3's sample count made larger than its signal bytes can hold.
    let mut bytes = std::fs::read(&src).unwrap();
    svb_testdata::blow5::set_sample_count(&mut bytes, r.record_span(3).unwrap(), &ids[3], 1 << 40);
    let bad = tmp.join("damaged.blow5");
    std::fs::write(&bad, &bytes).unwrap();
    let list = tmp.join("ids.txt");
    std::fs::write(&list, ids.join("\n")).unwrap();
    let out = tmp.join("picked.blow5");
    let run = svb(&["subset", s(&bad), "--read-ids", s(&list), "-o", s(&out), "--keep-going"]);
    let err = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "{err}");
    assert!(err.contains("left out"), "{err}");
    let picked = svb_blow5::Reader::open(&out).unwrap();
    assert_eq!(picked.len(), ids.len() - 1);
}

/// `path` holding a BLOW5 file of reads `a`, `b`, `c` (100, `middle` and 50 samples).
fn small_blow5(path: &Path, middle: usize) {
    let (a, b, c): (Vec<i16>, Vec<i16>, Vec<i16>) =
        ((0..100).collect(), (0..middle as i16).collect(), (0..50).collect());
    let reads: [(&str, &[i16]); 3] = [("a", &a), ("b", &b), ("c", &c)];
    std::fs::write(path, svb_testdata::blow5::of_reads(&reads)).unwrap();
}

/// Runs `svb args`, killed (and the test failed) if it has not ended within 60 s.
fn svb_within_a_minute(args: &[&str]) -> std::process::Output {
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_svb"))
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > std::time::Duration::from_secs(60) {
            child.kill().unwrap();
            panic!("svb {args:?} still running after 60 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

#[cfg(unix)]
#[test]
fn a_walk_leaves_fifos_aside_and_keep_going_leaves_out_inputs_of_no_format() {
    let tmp = TempDir::new("keep_going_walk");
    let dir = tmp.join("runs");
    std::fs::create_dir(&dir).unwrap();
    small_blow5(&dir.join("good.blow5"), 10);
    // A FIFO no one writes to, under a format's name: opening it would wait forever.
    let made = std::process::Command::new("mkfifo").arg(dir.join("fifo.blow5")).status().unwrap();
    assert!(made.success());
    for args in [
        vec!["view", "-r", s(&dir)],
        vec!["convert", "-r", s(&dir), "-o", s(&tmp.join("all.blow5"))],
        vec!["merge", "-r", s(&dir), "-o", s(&tmp.join("merged.blow5"))],
        vec!["split", "-r", s(&dir), "-o", s(&tmp.join("parts")), "--reads", "2"],
    ] {
        let run = svb_within_a_minute(&args);
        let err = String::from_utf8_lossy(&run.stderr);
        assert!(run.status.success(), "{args:?}: {err}");
        assert!(err.contains("fifo.blow5") && err.contains("not a file"), "{args:?}: {err}");
    }
    assert_eq!(svb_blow5::Reader::open(tmp.join("all.blow5")).unwrap().len(), 3);

    // Inputs whose format cannot be told: stop the command, or are named and left out.
    std::fs::write(dir.join("empty.blow5"), b"").unwrap();
    std::fs::write(dir.join("junk.blow5"), b"hello\n").unwrap();
    std::os::unix::fs::symlink(tmp.join("nowhere"), dir.join("dangling.blow5")).unwrap();
    let out = tmp.join("kept.blow5");
    let run = svb_within_a_minute(&["convert", "-r", s(&dir), "-o", s(&out)]);
    assert!(!run.status.success());
    assert!(!out.exists());
    for command in ["convert", "merge", "subset"] {
        let out = tmp.join(&format!("{command}.blow5"));
        let ids = tmp.join("ids.txt");
        std::fs::write(&ids, "a\nb\nc\n").unwrap();
        let mut args = vec![command, "-r", s(&dir), "-o", s(&out), "--keep-going"];
        if command == "subset" {
            args.extend(["--read-ids", s(&ids)]);
        }
        let run = svb_within_a_minute(&args);
        assert_eq!(run.status.code(), Some(1), "{command}");
        let err = String::from_utf8_lossy(&run.stderr);
        for bad in ["empty.blow5", "junk.blow5", "dangling.blow5"] {
            assert!(err.contains(&format!("left out: {}", s(&dir.join(bad)))), "{command}: {err}");
        }
        assert_eq!(svb_blow5::Reader::open(&out).unwrap().len(), 3, "{command}");
    }
    // A file the system cannot read from the start.
    if Path::new("/proc/self/mem").exists() {
        let out = tmp.join("mem.blow5");
        let good = dir.join("good.blow5");
        let run = svb_within_a_minute(&[
            "convert",
            s(&good),
            "/proc/self/mem",
            "-o",
            s(&out),
            "--keep-going",
        ]);
        assert_eq!(run.status.code(), Some(1));
        assert!(String::from_utf8_lossy(&run.stderr).contains("left out: /proc/self/mem"));
        assert_eq!(svb_blow5::Reader::open(&out).unwrap().len(), 3);
    }
}

#[test]
fn degrade_keep_going_leaves_out_a_read_ex_zd_cannot_hold() {
    let tmp = TempDir::new("keep_going_degrade");
    let input = tmp.join("in.blow5");
    small_blow5(&input, 0);
    let out = tmp.join("out.blow5");
    let e = fails(&svb(&["degrade", s(&input), "-o", s(&out), "--bits", "2"]));
    assert!(e.contains("record b") && e.contains("ex-zd"), "{e}");
    assert!(!out.exists());
    let run = svb(&["degrade", s(&input), "-o", s(&out), "--bits", "2", "--keep-going"]);
    assert_eq!(run.status.code(), Some(1));
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(err.contains("left out") && err.contains("record b"), "{err}");
    let r = svb_blow5::Reader::open(&out).unwrap();
    let ids: Vec<String> = (0..r.len()).map(|i| r.read_id(i).unwrap()).collect();
    assert_eq!(ids, ["a", "c"]);
}

#[svb_testdata::data_test]
fn fast5_parts_remove_what_a_killed_writer_of_their_name_left(data: &Path, tmp: &TempDir) {
    let input = data.join("pod5/multi_fast5_zip.pod5");
    // What a killed `svb convert in.blow5 -o x.fast5` leaves (its process long gone).
    let leftover = tmp.join(".x.fast5.partial-4194303-0123456789abcdef");
    std::fs::write(&leftover, b"half a file").unwrap();
    let out = tmp.join("x.fast5");
    let run = svb(&["convert", s(&input), "-o", s(&out), "--file-read-count", "2"]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    if Path::new("/proc/self").exists() {
        assert!(!leftover.exists(), "{:?}", tmp.entries());
    }
}
