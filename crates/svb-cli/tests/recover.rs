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

/// A POD5 file whose footer alone is cut (every length of it) gives back every read exactly,
/// its VBZ chunks as stored; cut into its reads table, it is refused, saying which table is
/// cut, and nothing is written; `verify` of it points to `recover`.
#[test]
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
