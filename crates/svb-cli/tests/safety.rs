//! Users' data is never destroyed, replaced or half-written: every probe of the data-safety
//! issue as a test. Outputs that are inputs (by any path or link), existing outputs without
//! `--force`, two writers racing, a file appearing while an output is written, a writer killed
//! mid-write, a full disk (a file-size limit), streams and devices as inputs, and the files the
//! reference readers refuse (a POD5 missing a required column, a BLOW5 header with a broken
//! line) or read (BLOW5 1.0.0).

mod common;
use common::{fails, ok, s, svb};

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use svb_testdata::TempDir;

const READ: &str = "0000173c-bf67-44e7-9a9c-1ad0bc728e74";

fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Fails unless the command failed with a message containing `want`.
fn fails_with(out: &std::process::Output, want: &str) -> String {
    let e = stderr(out);
    assert!(!out.status.success(), "succeeded; stderr: {e}");
    assert!(e.contains(want), "wanted {want:?} in: {e}");
    e
}

/// A copy of the shared POD5 file in `dir` (the tests change what is around it).
fn pod5_copy(data: &Path, dir: &TempDir) -> PathBuf {
    let p = dir.join("a.pod5");
    std::fs::copy(data.join("pod5/multi_fast5_zip.pod5"), &p).unwrap();
    p
}

/// Names in `dir` that are temporary files of a writer.
fn partials(dir: &TempDir) -> Vec<String> {
    dir.entries().into_iter().filter(|n| n.contains(".partial-")).collect()
}

#[svb_testdata::data_test]
fn an_output_that_is_an_input_is_refused_even_with_force(data: &Path, dir: &TempDir) {
    let a = pod5_copy(data, dir);
    let before = std::fs::read(&a).unwrap();
    std::os::unix::fs::symlink(&a, dir.join("sym.pod5")).unwrap();
    std::fs::hard_link(&a, dir.join("hard.blow5")).unwrap();
    std::fs::hard_link(&a, dir.join("hard.arrow")).unwrap();
    std::fs::hard_link(&a, dir.join("hard.tsv")).unwrap();
    let (a_, sym, blow5, arrow, tsv) = (
        s(&a).to_string(),
        s(&dir.join("sym.pod5")).to_string(),
        s(&dir.join("hard.blow5")).to_string(),
        s(&dir.join("hard.arrow")).to_string(),
        s(&dir.join("hard.tsv")).to_string(),
    );
    let ids = dir.join("ids.txt");
    std::fs::write(&ids, format!("{READ}\n")).unwrap();
    let runs: Vec<Vec<&str>> = vec![
        vec!["view", &a_, "-o", &a_],
        vec!["view", &a_, "-o", &a_, "--force"],
        vec!["view", &a_, "-o", &tsv, "--force"],
        vec!["get", &a_, READ, "-o", &a_],
        vec!["get", &a_, READ, "-o", &sym, "--force"],
        vec!["convert", &a_, "-o", &blow5, "--force"],
        vec!["decode", &a_, "-o", &arrow, "--force"],
        vec!["subset", &a_, "--read-ids", s(&ids), "-o", &sym, "--force"],
    ];
    for args in runs {
        let out = svb(&args);
        let e = fails_with(&out, "input");
        assert!(e.contains("choose another output"), "{args:?}: {e}");
        assert_eq!(std::fs::read(&a).unwrap(), before, "{args:?} changed the input");
    }
    assert!(partials(dir).is_empty(), "{:?}", dir.entries());
}

#[svb_testdata::data_test]
fn existing_outputs_are_replaced_only_with_force(data: &Path, dir: &TempDir) {
    let a = pod5_copy(data, dir);
    let sigs = dir.join("sigs");
    std::fs::create_dir(&sigs).unwrap();
    let outputs = [
        ("x.i16", vec!["get", s(&a), READ, "-o"]),
        ("x.tsv", vec!["view", s(&a), "-o"]),
        ("x.arrow", vec!["decode", s(&a), "-o"]),
        ("x.blow5", vec!["convert", s(&a), "-o"]),
        ("sigs/0000173c-bf67-44e7-9a9c-1ad0bc728e74.i16", vec!["pod5", "decode", s(&a), "-o"]),
    ];
    for (name, args) in outputs {
        let path = dir.join(name);
        std::fs::write(&path, b"keep me").unwrap();
        let target = if name.starts_with("sigs/") { sigs.clone() } else { path.clone() };
        let mut args = args.clone();
        args.push(s(&target));
        fails_with(&svb(&args), "exists");
        fails_with(&svb(&args), "(--force replaces it)");
        assert_eq!(std::fs::read(&path).unwrap(), b"keep me", "{name}");
        args.push("--force");
        ok(&svb(&args));
        assert_ne!(std::fs::read(&path).unwrap(), b"keep me", "{name}");
    }
    assert!(partials(dir).is_empty(), "{:?}", dir.entries());
}

#[svb_testdata::data_test]
fn two_writers_racing_for_one_output_leave_one_complete_file(data: &Path, dir: &TempDir) {
    let a = pod5_copy(data, dir);
    let out = dir.join("out.blow5");
    let spawn = || {
        Command::new(env!("CARGO_BIN_EXE_svb"))
            .args(["convert", s(&a), "-o", s(&out)])
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    for round in 0..4 {
        let _ = std::fs::remove_file(&out);
        let (x, y) = (spawn(), spawn());
        let (x, y) = (x.wait_with_output().unwrap(), y.wait_with_output().unwrap());
        let wins = [&x, &y].iter().filter(|o| o.status.success()).count();
        assert_eq!(wins, 1, "round {round}: {} / {}", stderr(&x), stderr(&y));
        let loser = if x.status.success() { &y } else { &x };
        fails_with(loser, "exists");
        ok(&svb(&["blow5", "verify", s(&out)]));
        assert!(partials(dir).is_empty(), "{:?}", dir.entries());
    }
}

/// A FIFO at `path` (what makes a command wait mid-write, for as long as a test needs).
fn fifo(path: &Path) {
    let made = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(made.success());
}

/// Waits until `dir` holds a temporary file of a writer.
fn wait_for_partial(dir: &TempDir) {
    let start = Instant::now();
    while partials(dir).is_empty() {
        assert!(start.elapsed() < Duration::from_secs(60), "no temporary file appeared");
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[svb_testdata::data_test]
fn a_file_appearing_at_the_output_meanwhile_is_not_replaced(data: &Path, dir: &TempDir) {
    let a = pod5_copy(data, dir);
    let pipe = dir.join("later.pod5");
    fifo(&pipe);
    let out = dir.join("rows.tsv");
    // `view` writes the first input's rows, then waits for the FIFO's writer.
    let child = Command::new(env!("CARGO_BIN_EXE_svb"))
        .args(["view", s(&a), s(&pipe), "-o", s(&out)])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for_partial(dir);
    std::fs::write(&out, b"someone else's").unwrap();
    std::fs::write(&pipe, std::fs::read(&a).unwrap()).unwrap();
    let done = child.wait_with_output().unwrap();
    fails_with(&done, "rows.tsv: exists, and is not replaced");
    assert_eq!(std::fs::read(&out).unwrap(), b"someone else's");
    assert!(partials(dir).is_empty(), "{:?}", dir.entries());
}

#[svb_testdata::data_test]
fn a_killed_writer_leaves_nothing_under_the_final_name_and_the_next_run_cleans_up(
    data: &Path, dir: &TempDir,
) {
    let a = pod5_copy(data, dir);
    let pipe = dir.join("later.pod5");
    fifo(&pipe);
    let out = dir.join("rows.tsv");
    let mut child = Command::new(env!("CARGO_BIN_EXE_svb"))
        .args(["view", s(&a), s(&pipe), "-o", s(&out)])
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for_partial(dir);
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    assert!(!out.exists());
    let left = partials(dir);
    assert_eq!(left.len(), 1, "{left:?}");
    assert!(left[0].starts_with(".rows.tsv.partial-"), "{left:?}");
    // The next run, its writer gone, removes what it left.
    ok(&svb(&["view", s(&a), "-o", s(&out)]));
    assert!(out.exists());
    assert!(partials(dir).is_empty(), "{:?}", dir.entries());
}

/// `svb ARGS` under a file-size limit of `kib` KiB with SIGXFSZ ignored: writes past it fail
/// with EFBIG as on a full disk.
fn svb_with_file_limit(kib: u64, args: &[&str]) -> std::process::Output {
    common::svb_under(&format!("trap '' XFSZ; ulimit -f {}", kib * 2), args)
}

#[svb_testdata::data_test]
fn a_full_disk_leaves_no_output_and_says_why_once(data: &Path, dir: &TempDir) {
    let a = pod5_copy(data, dir);
    let sigs = dir.join("sigs");
    let cases: Vec<(PathBuf, Vec<&str>)> = vec![
        (dir.join("x.blow5"), vec!["convert", s(&a), "-o"]),
        (dir.join("x.arrow"), vec!["decode", s(&a), "-o"]),
        (dir.join("x.tsv"), vec!["view", s(&a), "--json", "-o"]),
        (dir.join("x.i16"), vec!["get", s(&a), READ, "-o"]),
        (sigs.clone(), vec!["decode", s(&a), "-o"]),
    ];
    for (out, mut args) in cases {
        args.push(s(&out));
        // ulimit counts 512-byte blocks in sh: 2 per KiB. 8 KiB stops every output here.
        let done = svb_with_file_limit(4, &args);
        let e = fails_with(&done, "File too large");
        assert_eq!(e.matches("File too large").count(), 1, "{e}");
        assert!(!e.contains(".partial-"), "{e}");
        if out == sigs {
            // The reads written before the limit are whole; the one cut short is absent.
            for f in std::fs::read_dir(&sigs).unwrap() {
                let f = f.unwrap();
                let name = f.file_name().to_string_lossy().into_owned();
                assert!(!name.contains(".partial-"), "{name}");
                let want = data.join("pod5/multi_fast5_zip.signal").join(&name);
                assert_eq!(std::fs::read(f.path()).unwrap(), std::fs::read(want).unwrap());
            }
        } else {
            assert!(!out.exists(), "{}", out.display());
        }
    }
    assert!(partials(dir).is_empty(), "{:?}", dir.entries());
}

#[svb_testdata::data_test]
fn streams_and_devices_are_checked_before_they_are_read(data: &Path, dir: &TempDir) {
    let started = Instant::now();
    fails_with(&svb(&["blow5", "verify", "/dev/zero"]), "not a BLOW5 file");
    fails_with(&svb(&["pod5", "info", "/dev/zero"]), "not a POD5 file");
    let z = dir.join("z.blow5");
    std::os::unix::fs::symlink("/dev/zero", &z).unwrap();
    fails_with(&svb(&["get", s(&z), "read_1"]), "not a BLOW5 file");
    fails_with(&svb(&["view", "/dev/zero"]), "not a regular file");
    assert!(started.elapsed() < Duration::from_secs(30));

    // A FIFO that holds a real file is read as one.
    let pipe = dir.join("in.blow5");
    fifo(&pipe);
    let src = data.join("blow5/reads_zstd_svb_zd.blow5");
    let feeder = {
        let (pipe, src) = (pipe.clone(), src.clone());
        std::thread::spawn(move || std::fs::write(pipe, std::fs::read(src).unwrap()))
    };
    let streamed = svb(&["blow5", "verify", s(&pipe)]);
    ok(&streamed);
    feeder.join().unwrap().unwrap();
    let direct = svb(&["blow5", "verify", s(&src)]);
    assert_eq!(streamed.stdout, direct.stdout);
    // No index is written beside a stream.
    assert!(!dir.join("in.blow5.idx").exists());
}

#[svb_testdata::data_test]
fn other_formats_are_named(data: &Path, dir: &TempDir) {
    let fast5 = data.join("fast5/vbz_compression__multi_fast5_vbz.fast5");
    let slow5 = dir.join("reads.slow5");
    // SLOW5 text is read (by the BLOW5 reader); a header cut short is named as such.
    std::fs::write(&slow5, "#slow5_version\t0.2.0\n#num_read_groups\t1\n").unwrap();
    for args in [
        vec!["view", s(&slow5)],
        vec!["convert", s(&slow5), "-o", s(&dir.join("o.blow5"))],
        vec!["blow5", "verify", s(&slow5)],
        vec!["slow5", "verify", s(&slow5)],
    ] {
        fails_with(&svb(&args), "no #read_id names line");
    }
    fails_with(&svb(&["pod5", "info", s(&slow5)]), "not a POD5 file: a SLOW5 (text) file");
    // A FAST5 file is read; a command of another format names it.
    fails_with(&svb(&["blow5", "verify", s(&fast5)]), "not a BLOW5 file: a FAST5 (HDF5) file");
    fails_with(&svb(&["pod5", "info", s(&fast5)]), "not a POD5 file: a FAST5 (HDF5) file");
    let junk = dir.join("junk.pod5");
    std::fs::write(&junk, [0u8; 64]).unwrap();
    fails_with(&svb(&["view", s(&junk)]), "not a POD5, BLOW5, SLOW5 or FAST5 file");
}

#[test]
fn a_pod5_missing_a_required_column_is_refused() {
    use svb_testdata::pod5::{ColumnEdit, Table, TestFile, TestRead};
    let dir = TempDir::new("safety-column");
    let compress = |s: &[i16]| svb_vbz::pod5_blob::compress_signal(s);
    for (table, column, error) in [
        (Table::Reads, "calibration_offset", "reads table: column calibration_offset missing"),
        (Table::Reads, "median_before", "reads table: column median_before missing"),
        (Table::RunInfo, "protocol_run_id", "run-info table: column protocol_run_id missing"),
        (Table::RunInfo, "sample_rate", "run-info table: column sample_rate missing"),
    ] {
        let bytes = TestFile {
            reads: vec![TestRead::new(3, (0..5000).map(|i| (i % 300) as i16).collect())],
            chunk_samples: 102_400,
            signal_batch_rows: 100,
            compress: Some(&compress),
            edit: Some(ColumnEdit::Rename(table, column.into(), format!("{column}_x"))),
        }
        .write();
        let f = dir.join("missing.pod5");
        std::fs::write(&f, bytes).unwrap();
        for args in [
            vec!["pod5", "verify", s(&f)],
            vec!["convert", s(&f), "-o", s(&dir.join("out.blow5"))],
            vec!["view", s(&f)],
        ] {
            fails_with(&svb(&args), error);
        }
        assert!(!dir.join("out.blow5").exists());
    }
}

/// The shared BLOW5 file with bytes `at` replaced by `with`.
fn patched_blow5(data: &Path, dir: &TempDir, name: &str, edit: impl Fn(&mut Vec<u8>)) -> PathBuf {
    let mut bytes = std::fs::read(data.join("blow5/reads_zstd_svb_zd.blow5")).unwrap();
    edit(&mut bytes);
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

#[svb_testdata::data_test]
fn blow5_versions_and_headers_as_slow5lib_reads_them(data: &Path, dir: &TempDir) {
    let original = svb(&["blow5", "verify", s(&data.join("blow5/reads_zstd_svb_zd.blow5"))]);
    ok(&original);
    // 1.0.0 is 0.2.0's format (slow5lib: "file version 0.2.0 is same as 1.0.0").
    let v1 = patched_blow5(data, dir, "v1.blow5", |b| b[6..9].copy_from_slice(&[1, 0, 0]));
    let out = svb(&["blow5", "verify", s(&v1)]);
    ok(&out);
    assert_eq!(out.stdout, original.stdout);
    let v101 = patched_blow5(data, dir, "v101.blow5", |b| b[6..9].copy_from_slice(&[1, 0, 1]));
    fails_with(&svb(&["blow5", "verify", s(&v101)]), "version 1.0.1 is newer");
    // An attribute value holding a newline leaves a line that is no attribute: refused, as
    // slow5lib refuses it, never dropped.
    let broken = patched_blow5(data, dir, "newline.blow5", |b| {
        let at = b.windows(16).position(|w| w == b"\n@asic_id_eeprom").expect("the attribute");
        b[at + 1] = b'x';
    });
    fails_with(&svb(&["blow5", "verify", s(&broken)]), "expected @ATTRIBUTE");
}

/// Two inputs of one file name in two folders would be converted to one output, the second's
/// reads replacing the first's (with --force) or a partial folder left (without): refused
/// before anything is written, naming both.
#[test]
fn one_output_per_input_refuses_two_inputs_of_one_name() {
    let tmp = TempDir::new("safety_same_name");
    for (dir, id) in [("a", "read_a"), ("b", "read_b")] {
        std::fs::create_dir(tmp.join(dir)).unwrap();
        let signal: Vec<i16> = (0..20).collect();
        let bytes = svb_testdata::blow5::of_reads(&[(id, &signal)]);
        std::fs::write(tmp.join(dir).join("x.blow5"), bytes).unwrap();
    }
    let (a, b, out) = (tmp.join("a"), tmp.join("b"), tmp.join("out"));
    for force in [false, true] {
        let mut args = vec!["convert", s(&a), s(&b), "-o", s(&out), "--to", "slow5"];
        if force {
            args.push("--force");
        }
        let e = fails(&svb(&args));
        assert!(e.contains("a/x.blow5") && e.contains("b/x.blow5"), "{e}");
        assert!(!out.exists(), "nothing is written");
    }
}
