//! `svb recover`: a BLOW5 (every compression) or SLOW5 file cut at every record boundary and
//! inside records gives back exactly the whole records before the cut; `verify` of a cut
//! file names the fault and points to `recover`.

mod common;
use common::{fails, ok, s, svb};

fn records(f: &std::path::Path) -> Vec<String> {
    let r = svb_blow5::Reader::open(f).unwrap();
    r.records().map(|x| format!("{:?}", x.unwrap())).collect()
}

#[test]
#[ignore = "needs the shared test data (../shared/data or SVB_TEST_DATA); run with --include-ignored"]
fn cut_files_give_back_every_whole_record() {
    let (data, tmp) = svb_testdata::data_and_tmp_or_skip!("cli-recover");
    let text = tmp.join("reads.slow5");
    ok(&svb(&[
        "convert",
        s(&data.join("blow5/reads_zstd_svb_zd.blow5")),
        "-o",
        s(&text),
    ]));
    for src in [
        data.join("blow5/reads_zstd_ex_zd.blow5"),
        data.join("blow5/reads_zlib_svb_zd.blow5"),
        data.join("blow5/reads_none_none.blow5"),
        text.clone(),
    ] {
        let ext = src.extension().unwrap().to_string_lossy().into_owned();
        let want = records(&src);
        let bytes = std::fs::read(&src).unwrap();
        let r = svb_blow5::Reader::open(&src).unwrap();
        // Every record boundary, the middle of every record, and the end marker cut off.
        let mut cuts = Vec::new();
        let mut boundaries = Vec::new();
        for i in 0..r.len() {
            let (at, size) = r.record_span(i).unwrap();
            cuts.push((at as usize, i));
            cuts.push((at as usize + size as usize / 2, i));
            boundaries.push(at as usize);
        }
        let end = r
            .record_span(r.len() - 1)
            .map(|(a, n)| (a + n) as usize)
            .unwrap();
        cuts.push((end, r.len()));
        for (cut, whole) in cuts {
            let damaged = tmp.join(&format!("cut.{ext}"));
            std::fs::write(&damaged, &bytes[..cut]).unwrap();
            // SLOW5 text has no end marker: one cut between lines is a whole, shorter file.
            let looks_whole = ext == "slow5" && boundaries.contains(&cut);
            if cut < bytes.len() && !looks_whole {
                // verify names the fault and points to recover.
                let e = fails(&svb(&["blow5", "verify", s(&damaged)]));
                assert!(e.contains("svb recover"), "{ext} cut at {cut}: {e}");
            }
            let out = tmp.join(&format!("saved.{ext}"));
            let run = svb(&["recover", s(&damaged), "-o", s(&out), "--force"]);
            let said = String::from_utf8_lossy(&run.stderr).into_owned();
            ok(&run);
            assert!(
                said.contains(&format!("{whole} of {whole} whole records saved"))
                    && (looks_whole || cut == bytes.len() || said.contains("ends early")),
                "{ext} cut at {cut}: {said}"
            );
            assert_eq!(records(&out), want[..whole], "{ext} cut at {cut}");
        }
    }
    // verify --quick: the structure alone, a cut file refused with the pointer to recover.
    let src = data.join("blow5/reads_zstd_svb_zd.blow5");
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
    // A whole file is said to be whole, and recovers to itself.
    let out = tmp.join("whole.blow5");
    let src = data.join("blow5/reads_zstd_svb_zd.blow5");
    let run = svb(&["recover", s(&src), "-o", s(&out)]);
    assert!(String::from_utf8_lossy(&run.stderr).contains("the file was whole"));
    assert_eq!(records(&out), records(&src));
}

/// A cut BLOW5 file with a whole record that does not decode (its sample count larger than
/// its signal): the others are saved as they were stored (the output is the input's bytes
/// without that record, with the end marker), the bad one named (by its place) as lost.
#[test]
#[ignore = "needs the shared test data (../shared/data or SVB_TEST_DATA); run with --include-ignored"]
fn records_that_decode_are_saved_as_stored_and_the_others_named() {
    let (data, tmp) = svb_testdata::data_and_tmp_or_skip!("cli-recover-stored");
    let src = data.join("blow5/reads_none_none.blow5");
    let r = svb_blow5::Reader::open(&src).unwrap();
    let mut bytes = std::fs::read(&src).unwrap();
    let (off, size) = r.record_span(4).unwrap();
    let id = r.record(4).unwrap().read_id;
    let body = &mut bytes[off as usize..(off + size) as usize];
    let at = body
        .windows(id.len())
        .position(|w| w == id.as_bytes())
        .unwrap()
        + id.len()
        + 4
        + 32;
    body[at..at + 8].copy_from_slice(&(1u64 << 40).to_le_bytes());
    // The end marker and half the last record cut off.
    let (last, last_size) = r.record_span(r.len() - 1).unwrap();
    let cut = (last + last_size / 2) as usize;
    let damaged = tmp.join("damaged.blow5");
    std::fs::write(&damaged, &bytes[..cut]).unwrap();
    let out = tmp.join("saved.blow5");
    let run = svb(&["recover", s(&damaged), "-o", s(&out)]);
    let said = String::from_utf8_lossy(&run.stderr).into_owned();
    ok(&run);
    let whole = r.len() - 1;
    assert!(
        said.contains(&format!("{} of {whole} whole records saved", whole - 1)),
        "{said}"
    );
    assert!(
        said.contains("lost:") && said.contains("record 4 at byte"),
        "{said}"
    );
    let saved = std::fs::read(&out).unwrap();
    let mut want = bytes[..off as usize].to_vec();
    want.extend_from_slice(&bytes[(off + size) as usize..last as usize]);
    want.extend_from_slice(b"5WOLB");
    assert_eq!(saved, want);
}

/// A POD5 file whose footer alone is cut (every length of it) gives back every read exactly,
/// its VBZ chunks as stored; cut into its reads table, it is refused, saying which table is
/// cut, and nothing is written; `verify` of it points to `recover`.
#[test]
#[ignore = "needs the shared test data (../shared/data or SVB_TEST_DATA); run with --include-ignored"]
fn a_pod5_without_its_footer_gives_back_every_read() {
    let (data, tmp) = svb_testdata::data_and_tmp_or_skip!("cli-recover-pod5");
    for name in [
        "pod5/multi_fast5_zip.pod5",
        "pod5/multi_fast5_zip_v0.pod5",
        "pod5/multi_fast5_zip_v4.pod5",
    ] {
        let src = data.join(name);
        let whole = ok(&svb(&["pod5", "verify", s(&src)]));
        let bytes = std::fs::read(&src).unwrap();
        let r = svb_pod5::Reader::open(&src).unwrap();
        let tables_end = r.footer().tables_end() as usize;
        let cut = tmp.join("cut.pod5");
        let saved = tmp.join("saved.pod5");
        // Cut anywhere in the footer: from its last byte to all of it.
        for keep in [
            bytes.len() - 1,
            bytes.len() - 8,
            bytes.len() - 40,
            tables_end + 3,
            tables_end,
        ] {
            std::fs::write(&cut, &bytes[..keep]).unwrap();
            let e = fails(&svb(&["pod5", "verify", s(&cut)]));
            assert!(e.contains("svb recover"), "{name} cut at {keep}: {e}");
            let out = svb(&["recover", s(&cut), "-o", s(&saved), "--force"]);
            let said = String::from_utf8_lossy(&out.stderr).into_owned();
            assert!(out.status.success(), "{name} cut at {keep}: {said}");
            assert!(said.contains("footer was rebuilt"), "{said}");
            assert!(
                said.contains(&format!("{} of {} reads saved", r.len(), r.len())),
                "{said}"
            );
            assert_eq!(
                ok(&svb(&["pod5", "verify", s(&saved)])),
                whole,
                "{name} cut at {keep}"
            );
        }
        // Cut inside the last table: refused, nothing written.
        std::fs::remove_file(&saved).unwrap();
        std::fs::write(&cut, &bytes[..tables_end - 40]).unwrap();
        let e = fails(&svb(&["recover", s(&cut), "-o", s(&saved)]));
        assert!(e.contains("table before byte"), "{name}: {e}");
        assert!(!saved.exists());
        // A whole file recovers as it is.
        let out = svb(&["recover", s(&src), "-o", s(&saved)]);
        assert!(String::from_utf8_lossy(&out.stderr).contains("the file was whole"));
        assert_eq!(ok(&svb(&["pod5", "verify", s(&saved)])), whole);
        std::fs::remove_file(&saved).unwrap();
    }
}

#[test]
#[ignore = "needs Python with pod5 (pip); run with --include-ignored"]
fn a_killed_ont_writer_gives_back_the_reads_pod5_recover_saves() {
    let Some(python) = svb_testdata::python_with("pod5", "pod5") else {
        return;
    };
    let tmp = svb_testdata::TempDir::new("cli-recover-killed");
    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python/pod5_killed_writer.py");
    let killed = tmp.join("killed.pod5");
    // 1501 reads: ONT's writer has flushed the first 1000 rows of its reads table.
    let run = std::process::Command::new(&python)
        .arg(&script)
        .arg(&killed)
        .arg("1501")
        .output()
        .unwrap();
    assert_eq!(
        run.status.code(),
        Some(9),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
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
    assert!(
        ont.status.success(),
        "{}",
        String::from_utf8_lossy(&ont.stderr)
    );
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
