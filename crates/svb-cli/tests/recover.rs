//! `svb recover`'s messages and exit codes: `verify` of a cut BLOW5, SLOW5 or POD5 file names
//! the fault and points to `recover`, which says what it saved and lost; a file ONT's writer
//! left when killed gives back the reads ONT's `pod5 recover` saves. (What a recovery saves,
//! cut at every place: svb-convert's tests/recover.rs.)

mod common;
use common::{fails, ok, s, svb};
use std::path::Path;
use svb_testdata::TempDir;

/// The records of `src` cut in the middle of record `i`, written to `dir/cut.EXT`.
fn cut_in_record(
    src: &std::path::Path, i: usize, dir: &svb_testdata::TempDir,
) -> std::path::PathBuf {
    let r = svb_blow5::Reader::open(src).unwrap();
    let (at, size) = r.record_span(i).unwrap();
    let ext = src.extension().unwrap().to_string_lossy();
    let damaged = dir.join(&format!("cut.{ext}"));
    let bytes = std::fs::read(src).unwrap();
    std::fs::write(&damaged, &bytes[..(at + size / 2) as usize]).unwrap();
    damaged
}

#[svb_testdata::data_test]
fn a_cut_file_is_named_by_verify_and_saved_by_recover(data: &Path, tmp: &TempDir) {
    let text = tmp.join("reads.slow5");
    let src = data.join("blow5/reads_zstd_svb_zd.blow5");
    ok(&svb(&["convert", s(&src), "-o", s(&text)]));
    for src in [src.clone(), text.clone()] {
        let damaged = cut_in_record(&src, 3, tmp);
        // verify names the fault and points to recover.
        let e = fails(&svb(&["blow5", "verify", s(&damaged)]));
        assert!(e.contains("svb recover"), "{}: {e}", src.display());
        let out = tmp.join("saved").with_extension(src.extension().unwrap());
        let run = svb(&["recover", s(&damaged), "-o", s(&out), "--force"]);
        let said = String::from_utf8_lossy(&run.stderr).into_owned();
        ok(&run);
        assert!(
            said.contains("3 of 3 whole records saved") && said.contains("ends early"),
            "{}: {said}",
            src.display()
        );
    }
    // verify --quick: the structure alone, a cut file refused with the pointer to recover.
    let quick = svb(&["blow5", "verify", "--quick", s(&src)]);
    ok(&quick);
    assert!(String::from_utf8_lossy(&quick.stderr).contains("structure good, 10 reads"));
    let bytes = std::fs::read(&src).unwrap();
    let damaged = tmp.join("quick.blow5");
    std::fs::write(&damaged, &bytes[..bytes.len() - 2]).unwrap();
    let e = fails(&svb(&["blow5", "verify", "--quick", s(&damaged)]));
    assert!(e.contains("svb recover"), "{e}");
    let pod5 = data.join("pod5/multi_fast5_zip.pod5");
    ok(&svb(&["pod5", "verify", "--quick", s(&pod5)]));
    // A whole file is said to be whole; an existing output is refused without --force.
    let out = tmp.join("whole.blow5");
    let run = svb(&["recover", s(&src), "-o", s(&out)]);
    assert!(String::from_utf8_lossy(&run.stderr).contains("the file was whole"));
    let e = fails(&svb(&["recover", s(&src), "-o", s(&out)]));
    assert!(e.contains("--force"), "{e}");
}

/// A record that does not decode is named as lost, by its place.
#[svb_testdata::data_test]
fn a_record_that_does_not_decode_is_named(data: &Path, tmp: &TempDir) {
    let src = data.join("blow5/reads_none_none.blow5");
    let r = svb_blow5::Reader::open(&src).unwrap();
    let mut bytes = std::fs::read(&src).unwrap();
    let id = r.record(4).unwrap().read_id;
    svb_testdata::blow5::set_sample_count(&mut bytes, r.record_span(4).unwrap(), &id, 1 << 40);
    let damaged = tmp.join("damaged.blow5");
    std::fs::write(&damaged, &bytes[..bytes.len() - 5]).unwrap();
    let out = tmp.join("saved.blow5");
    let run = svb(&["recover", s(&damaged), "-o", s(&out)]);
    let said = String::from_utf8_lossy(&run.stderr).into_owned();
    ok(&run);
    let whole = r.len();
    assert!(said.contains(&format!("{} of {whole} whole records saved", whole - 1)), "{said}");
    assert!(said.contains("lost:") && said.contains("record 4 at byte"), "{said}");
    // --cleanup keeps an input whose reads were not all recovered, saying so.
    let run = svb(&["recover", s(&damaged), "-o", s(&out), "--force", "--cleanup"]);
    ok(&run);
    assert!(String::from_utf8_lossy(&run.stderr).contains("--cleanup: "), "kept, said");
    assert!(damaged.exists());
}

/// --cleanup (pod5 recover's): the cut input is removed once its whole records are in the
/// output and the output reads back with as many.
#[svb_testdata::data_test]
fn cleanup_removes_the_input_once_recovered(data: &Path, tmp: &TempDir) {
    let src = data.join("blow5/reads_zstd_svb_zd.blow5");
    let damaged = cut_in_record(&src, 3, tmp);
    let out = tmp.join("saved.blow5");
    let run = svb(&["recover", s(&damaged), "-o", s(&out), "--cleanup"]);
    let said = String::from_utf8_lossy(&run.stderr).into_owned();
    ok(&run);
    assert!(said.contains(&format!("--cleanup: removed {}", damaged.display())), "{said}");
    assert!(!damaged.exists());
    assert_eq!(svb_blow5::Reader::open(&out).unwrap().len(), 3);
}

/// A POD5 file without its footer: verify points to recover, recover says the footer was
/// rebuilt; one cut into its tables is refused, saying which table.
#[svb_testdata::data_test]
fn a_pod5_without_its_footer_is_named_and_saved(data: &Path, tmp: &TempDir) {
    let src = data.join("pod5/multi_fast5_zip.pod5");
    let whole = ok(&svb(&["pod5", "verify", s(&src)]));
    let bytes = std::fs::read(&src).unwrap();
    let r = svb_pod5::Reader::open(&src).unwrap();
    let tables_end = r.footer().tables_end() as usize;
    let (cut, saved) = (tmp.join("cut.pod5"), tmp.join("saved.pod5"));
    std::fs::write(&cut, &bytes[..tables_end]).unwrap();
    let e = fails(&svb(&["pod5", "verify", s(&cut)]));
    assert!(e.contains("svb recover"), "{e}");
    let out = svb(&["recover", s(&cut), "-o", s(&saved)]);
    let said = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{said}");
    assert!(said.contains("footer was rebuilt"), "{said}");
    let n = r.len();
    assert!(said.contains(&format!("{n} of {n} reads saved")), "{said}");
    assert_eq!(ok(&svb(&["pod5", "verify", s(&saved)])), whole);
    // Cut inside the last table: refused, exit 1, nothing written.
    std::fs::remove_file(&saved).unwrap();
    std::fs::write(&cut, &bytes[..tables_end - 40]).unwrap();
    let e = fails(&svb(&["recover", s(&cut), "-o", s(&saved)]));
    assert!(e.contains("table before byte"), "{e}");
    assert!(!saved.exists());
    let out = svb(&["recover", s(&src), "-o", s(&saved)]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("the file was whole"));
}

#[test]
#[ignore = "needs Python with pod5 (pip); run with --include-ignored"]
fn a_killed_ont_writer_gives_back_the_reads_pod5_recover_saves() {
    let Some(python) = svb_testdata::python_with("pod5", "pod5") else { return };
    let tmp = svb_testdata::TempDir::new("cli-recover-killed");
    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/pod5_killed_writer.py");
    let killed = tmp.join("killed.pod5");
    // 1501 reads: ONT's writer has flushed the first 1000 rows of its reads table.
    let run =
        std::process::Command::new(&python).arg(&script).arg(&killed).arg("1501").output().unwrap();
    assert_eq!(run.status.code(), Some(9), "{}", String::from_utf8_lossy(&run.stderr));
    // Copies for ONT's recover (which may clean up) and ours.
    let ont_dir = tmp.join("ont");
    std::fs::create_dir(&ont_dir).unwrap();
    for e in std::fs::read_dir(&tmp.0).unwrap() {
        let p = e.unwrap().path();
        if p.is_file() {
            std::fs::copy(&p, ont_dir.join(p.file_name().unwrap())).unwrap();
        }
    }
    let e = fails(&svb(&["pod5", "verify", s(&killed)]));
    assert!(e.contains("svb recover"), "{e}");
    let ont = std::process::Command::new(&python)
        .args([
            "-c",
            "import sys; from pod5.tools.main import main; sys.argv[0] = 'pod5'; sys.exit(main())",
        ])
        .arg("recover")
        .arg(ont_dir.join("killed.pod5"))
        .output()
        .unwrap();
    assert!(ont.status.success(), "{}", String::from_utf8_lossy(&ont.stderr));
    // `killed_recovered.pod5` (pod5 0.3): found by its suffix.
    let ont_saved = std::fs::read_dir(&ont_dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().ends_with("recovered.pod5"))
        .expect("pod5 recover wrote its file");

    let saved = tmp.join("saved.pod5");
    let out = svb(&["recover", s(&killed), "-o", s(&saved)]);
    let said = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{said}");
    assert!(said.contains("killed"), "{said}");
    assert!(said.contains("1000 of 1000 reads saved"), "{said}");
    // The same reads as ONT's recover: every signal (verify's hashes) and every field (view's
    // table, the file name column aside).
    let sorted = |text: String| {
        let mut v: Vec<String> = text.lines().map(str::to_owned).collect();
        v.sort();
        v
    };
    assert_eq!(
        sorted(ok(&svb(&["pod5", "verify", s(&saved)]))),
        sorted(ok(&svb(&["pod5", "verify", s(&ont_saved)])))
    );
    let fields = |f: &std::path::Path| {
        sorted(ok(&svb(&["view", s(f)])))
            .into_iter()
            .map(|l| {
                let mut cols: Vec<&str> = l.split('\t').collect();
                cols.remove(1);
                cols.join("\t")
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(fields(&saved), fields(&ont_saved));
    // ONT's reader reads ours.
    let count = std::process::Command::new(&python)
        .args(["-c", "import pod5, sys; r = pod5.Reader(sys.argv[1]); print(sum(len(x.signal) > 0 for x in r.reads()))"])
        .arg(&saved)
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&count.stdout).trim(), "1000");
    // --cleanup removes the killed file and the writer's hidden files beside it, and nothing
    // else, once the output holds their reads.
    let clean = tmp.join("clean");
    std::fs::create_dir(&clean).unwrap();
    let mut copied = Vec::new();
    for e in std::fs::read_dir(&tmp.0).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        if p.is_file() && (name == "killed.pod5" || name.contains(".tmp-")) {
            std::fs::copy(&p, clean.join(&name)).unwrap();
            copied.push(name);
        }
    }
    assert_eq!(copied.len(), 3, "{copied:?}");
    let saved_clean = tmp.join("saved_clean.pod5");
    ok(&svb(&["recover", s(&clean.join("killed.pod5")), "-o", s(&saved_clean), "--cleanup"]));
    assert_eq!(std::fs::read_dir(&clean).unwrap().count(), 0);
    assert_eq!(svb_pod5::Reader::open(&saved_clean).unwrap().len(), 1000);
    // Without the reads file beside it, nothing can be saved: the error says why.
    let alone = tmp.join("alone");
    std::fs::create_dir(&alone).unwrap();
    std::fs::copy(&killed, alone.join("killed.pod5")).unwrap();
    let e = fails(&svb(&[
        "recover",
        s(&alone.join("killed.pod5")),
        "-o",
        s(&alone.join("saved.pod5")),
    ]));
    assert!(e.contains("table before byte"), "{e}");
    assert!(!alone.join("saved.pod5").exists());
}
