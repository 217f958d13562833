//! `svb merge`'s arguments, messages and exit codes: the output's format by its extension,
//! `--duplicates`, `--lossless false`, `--signal`, and what it refuses (the merge itself:
//! svb-convert's tests/merge.rs).

mod common;
use common::{fails, ok, s, svb};
use std::path::Path;
use svb_testdata::TempDir;

/// Splits `src` into two BLOW5 or POD5 files by `svb subset` (reads 0..half and half..).
fn halves(
    src: &std::path::Path, dir: &svb_testdata::TempDir, ext: &str,
) -> [std::path::PathBuf; 2] {
    let ids = ok(&svb(&["view", s(src), "--fields", "read_id", "--no-header"]));
    let ids: Vec<&str> = ids.lines().collect();
    let half = ids.len() / 2;
    [(0, &ids[..half]), (1, &ids[half..])].map(|(k, part)| {
        let list = dir.join(&format!("ids{k}.txt"));
        std::fs::write(&list, part.join("\n")).unwrap();
        let out = dir.join(&format!("part{k}.{ext}"));
        let list = s(&list);
        ok(&svb(&["subset", s(src), "--read-ids", list, "-o", s(&out)]));
        out
    })
}

#[svb_testdata::data_test]
fn merge_arguments_and_messages(data: &Path, tmp: &TempDir) {
    let src = data.join("pod5/multi_fast5_zip.pod5");
    let [a, b] = halves(&src, tmp, "pod5");
    let merged = tmp.join("merged.pod5");
    ok(&svb(&["merge", s(&a), s(&b), "-o", s(&merged)]));
    let verify = |f: &std::path::Path| ok(&svb(&["pod5", "verify", s(f)]));
    assert_eq!(verify(&merged), verify(&src));
    // An existing output is refused without --force.
    let e = fails(&svb(&["merge", s(&a), s(&b), "-o", s(&merged)]));
    assert!(e.contains("--force"), "{e}");

    // A read in two inputs: both files named, exit 1, nothing written.
    let twice = tmp.join("twice.pod5");
    let e = fails(&svb(&["merge", s(&a), s(&src), "-o", s(&twice)]));
    assert!(e.contains(s(&a)) && e.contains(s(&src)), "{e}");
    assert!(!twice.exists());
    // --duplicates keep-first says how many reads it left out.
    let keep_first = ["--duplicates", "keep-first"];
    let out = svb(&[&["merge", s(&a), s(&src), "-o", s(&twice)], &keep_first[..]].concat());
    let said = String::from_utf8_lossy(&out.stderr).into_owned();
    ok(&out);
    assert!(said.contains("5 reads left out"), "{said}");
    assert_eq!(verify(&twice), verify(&src));

    // BLOW5: --signal, --lossless false, and a POD5 output refused (convert's job).
    let src = data.join("blow5/slow5tools/example_multi_rg_v0.2.0_zstd_svb-zd.blow5");
    let [a, b] = halves(&src, tmp, "blow5");
    let out = tmp.join("ex-zd.blow5");
    ok(&svb(&["merge", s(&a), s(&b), "-o", s(&out), "--signal", "ex-zd"]));
    let r = svb_blow5::Reader::open(&out).unwrap();
    assert_eq!(r.header().signal_compression, svb_blow5::SignalCompression::ExZd);
    let lossy = tmp.join("lossy.blow5");
    ok(&svb(&["merge", s(&a), s(&b), "-o", s(&lossy), "--lossless", "false"]));
    assert!(svb_blow5::Reader::open(&lossy).unwrap().header().aux.is_empty());
    let e = fails(&svb(&["merge", s(&a), "-o", s(&tmp.join("x.pod5"))]));
    assert!(e.contains("svb convert"), "{e}");
}
