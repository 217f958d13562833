//! Inputs that try to make a command hang or take unbounded memory: a read id list with a
//! line of megabytes, a directory tree whose links loop.

mod common;
use common::{fails, ok, s, svb};

use std::path::Path;
use svb_testdata::{data_dir, TempDir};

#[svb_testdata::data_test]
fn a_list_line_too_long_is_refused_with_a_short_message(data: &Path, tmp: &TempDir) {
    let list = tmp.join("ids.txt");
    std::fs::write(&list, format!("read_id\n{}\n", "x".repeat(5 << 20))).unwrap();
    let pod5 = data.join("pod5/multi_fast5_zip.pod5");
    let out = tmp.join("picked.pod5");
    let e = fails(&svb(&["subset", s(&pod5), "-o", s(&out), "--read-ids", s(&list)]));
    assert!(e.contains("line 2: a line longer than 1048576 bytes"), "{e}");
    assert!(e.len() < 300, "{} bytes on stderr", e.len());
    assert!(!out.exists());
}

#[cfg(unix)]
#[svb_testdata::data_test]
fn links_that_loop_are_walked_once(data: &Path, tmp: &TempDir) {
    let sub = tmp.join("L/sub");
    std::fs::create_dir_all(&sub).unwrap();
    std::fs::copy(data.join("pod5/multi_fast5_zip.pod5"), sub.join("a.pod5")).unwrap();
    std::os::unix::fs::symlink("..", sub.join("up")).unwrap();
    std::os::unix::fs::symlink("../sub", sub.join("self")).unwrap();
    let out = ok(&svb(&["view", "-r", s(&tmp.join("L"))]));
    // A header line and the file's 10 reads, each once.
    assert_eq!(out.lines().count(), 11, "{out}");
}

/// Runs `svb args` while a thread writes `bytes` into the FIFO `pipe` once; fails the test if
/// the command has not ended after 60 s (a second open of the FIFO would wait forever).
#[cfg(unix)]
fn with_fifo(
    pipe: &std::path::Path, bytes: Option<Vec<u8>>, args: &[&str],
) -> std::process::Output {
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    assert!(Command::new("mkfifo").arg(pipe).status().unwrap().success());
    let mut child = Command::new(env!("CARGO_BIN_EXE_svb"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // No bytes: no writer ever opens the FIFO.
    let p = pipe.to_path_buf();
    let feeder = bytes.map(|bytes| std::thread::spawn(move || std::fs::write(p, bytes)));
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(60) {
            child.kill().unwrap();
            // (The feeder, if still waiting for a reader, is left behind with the test.)
            panic!("svb {args:?} hangs on a FIFO input");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    if let Some(feeder) = feeder {
        feeder.join().unwrap().unwrap();
    }
    child.wait_with_output().unwrap()
}

#[cfg(unix)]
#[svb_testdata::data_test]
fn a_fifo_is_read_once_by_the_commands_that_read_twice(data: &Path, tmp: &TempDir) {
    let blow5 = data.join("blow5/reads_zstd_svb_zd.blow5");
    let bytes = std::fs::read(&blow5).unwrap();
    let other = data.join("blow5/reads_zlib_svb_zd.blow5");
    let merged = tmp.join("merged.blow5");
    let pipe = tmp.join("in1.blow5");
    let out = with_fifo(
        &pipe,
        Some(bytes.clone()),
        &["merge", s(&pipe), s(&other), "-o", s(&merged), "--duplicates", "keep-first"],
    );
    ok(&out);
    assert!(merged.exists());
    let pipe = tmp.join("in2.blow5");
    let parts = tmp.join("parts");
    let out = with_fifo(&pipe, Some(bytes), &["split", s(&pipe), "-o", s(&parts), "--files", "2"]);
    ok(&out);
    assert_eq!(std::fs::read_dir(&parts).unwrap().count(), 2);
    let pipe = tmp.join("in3.pod5");
    let pod5 = std::fs::read(data.join("pod5/multi_fast5_zip.pod5")).unwrap();
    let parts = tmp.join("pod5_parts");
    let out = with_fifo(&pipe, Some(pod5), &["split", s(&pipe), "-o", s(&parts), "--files", "2"]);
    ok(&out);
    assert_eq!(std::fs::read_dir(&parts).unwrap().count(), 2);
    // A FIFO at --id-index, which nothing writes: refused at once (an index is a file svb
    // writes; opening the FIFO waited forever), and left as it is.
    let dir = tmp.join("dir");
    std::fs::create_dir(&dir).unwrap();
    std::fs::copy(&blow5, dir.join("a.blow5")).unwrap();
    let id = svb_blow5::Reader::open(&blow5).unwrap().read_id(0).unwrap();
    let pipe = tmp.join("ids.svbidx");
    let got = tmp.join("got.i16");
    let out = with_fifo(&pipe, None, &["get", s(&dir), &id, "--id-index", s(&pipe), "-o", s(&got)]);
    let e = fails(&out);
    assert!(e.contains("not a regular file"), "{e}");
    use std::os::unix::fs::FileTypeExt;
    let kept = std::fs::symlink_metadata(&pipe).unwrap().file_type();
    assert!(kept.is_fifo());
    assert!(!got.exists());
}

#[cfg(unix)]
#[test]
fn many_inputs_convert_under_a_low_limit_of_open_files() {
    let tmp = TempDir::new("cli-many-inputs");
    // 100 inputs of one read each, each its own id.
    let many = tmp.join("many");
    std::fs::create_dir(&many).unwrap();
    for n in 0..100u8 {
        let path = many.join(format!("{n:03}.pod5"));
        let mut w = svb_pod5::Writer::create(&path, svb_pod5::WriteOptions::default()).unwrap();
        let run = svb_pod5::RunInfo {
            acquisition_id: "run-1".into(),
            sample_rate: 4000,
            ..Default::default()
        };
        w.add_run_info(&run).unwrap();
        let signal: Vec<i16> = (0..500).map(|i| 400 + (i % 31) as i16 + i16::from(n)).collect();
        let mut read = svb_model::ont::ReadInfo::new([n; 16], "run-1");
        read.num_samples = signal.len() as u64;
        w.add_read(&read, &signal).unwrap();
        w.finish().unwrap();
    }
    let blow5 = tmp.join("all.blow5");
    let out = common::svb_under("ulimit -n 48", &["convert", "-r", s(&many), "-o", s(&blow5)]);
    ok(&out);
    assert_eq!(svb_blow5::Reader::open(&blow5).unwrap().len(), 100);
    // And back, and BLOW5 to BLOW5.
    let bparts = tmp.join("bparts");
    ok(&svb(&["split", s(&blow5), "-o", s(&bparts), "--reads", "1"]));
    for (to, name) in [("pod5", "back.pod5"), ("slow5", "text.slow5")] {
        let out_path = tmp.join(name);
        let out =
            common::svb_under("ulimit -n 48", &["convert", "-r", s(&bparts), "-o", s(&out_path)]);
        ok(&out);
        assert!(out_path.exists(), "{to}");
    }
}

/// FAST5 conversions open their inputs a bounded number at a time, as the others do (they
/// kept every input open: 200 files failed with "Too many open files" at `ulimit -n 64`):
/// the shared FAST5 files that read whole and hold reads no other holds, converted to POD5
/// and BLOW5 at a limit below their number.
#[cfg(unix)]
#[test]
#[ignore = "needs the shared test data (../shared/data or SVB_TEST_DATA); run with --include-ignored"]
fn many_fast5_inputs_convert_under_a_low_limit_of_open_files() {
    use svb_model::ReadSource;
    let Some(data) = data_dir() else { return };
    let tmp = TempDir::new("cli-many-fast5");
    let many = tmp.join("many");
    std::fs::create_dir(&many).unwrap();
    let mut seen = std::collections::HashSet::new();
    let mut reads = 0;
    let mut files = svb_testdata::files_with_suffix(&data.join("fast5"), ".fast5");
    files.sort();
    let mut picked = 0;
    for (name, path) in files {
        let Ok(r) = svb_fast5::Reader::open(&path) else {
            continue;
        };
        let ids = (0..r.len()).map(|i| ReadSource::read_id(&r, i));
        let Ok(ids) = ids.collect::<Result<Vec<String>, _>>() else {
            continue;
        };
        let whole = (0..r.len()).all(|i| r.read(i).is_ok());
        if !whole || ids.is_empty() || ids.iter().any(|id| seen.contains(id)) {
            continue;
        }
        // Each alone converts to both (some test files hold what f2s or POD5 refuses).
        let converts = |ext: &str| {
            let alone = tmp.join(&format!("alone-{name}.{ext}"));
            svb(&["convert", s(&path), "-o", s(&alone)]).status.success()
        };
        if !converts("blow5") || !converts("pod5") {
            continue;
        }
        reads += ids.len();
        seen.extend(ids);
        std::fs::copy(&path, many.join(path.file_name().unwrap())).unwrap();
        picked += 1;
    }
    // More inputs than the 16 files the limit lets the process open at once.
    assert!(picked > 16, "{picked} FAST5 files");
    for name in ["all.pod5", "all.blow5"] {
        let out = tmp.join(name);
        ok(&common::svb_under("ulimit -n 16", &["convert", "-r", s(&many), "-o", s(&out)]));
        assert_eq!(svb_reads::AnyReader::open(&out).unwrap().len(), reads, "{name}");
    }
}

#[cfg(unix)]
#[svb_testdata::data_test]
fn a_file_name_with_a_tab_or_newline_keeps_view_one_row_a_line(data: &Path, tmp: &TempDir) {
    let odd = tmp.join("a\tb\nc\\d.pod5");
    std::fs::copy(data.join("pod5/multi_fast5_zip.pod5"), &odd).unwrap();
    let out = ok(&svb(&["view", s(&odd)]));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 11, "{out}");
    let columns = lines[0].split('\t').count();
    assert!(lines.iter().all(|l| l.split('\t').count() == columns), "{out}");
    assert!(lines[1].contains("a\\tb\\nc\\\\d.pod5"), "{}", lines[1]);
}
