//! `svb merge`: a file split by `subset` merges back into every read and field of the
//! original (POD5; BLOW5 into BLOW5 and SLOW5, records copied as stored where the output
//! stores them so, decoded and renumbered where their read groups differ); a read id in two inputs is an error naming
//! both, or the first is kept; runs and read groups are kept once; a failed merge leaves no
//! output.

mod common;
use common::{fails, ok, s, svb};

/// Splits `src` into two files of its format by `subset` (reads 0..half and half..), in `dir`.
fn halves(
    src: &std::path::Path,
    dir: &svb_testdata::TempDir,
    ext: &str,
) -> [std::path::PathBuf; 2] {
    let ids = ok(&svb(&[
        "view",
        s(src),
        "--fields",
        "read_id",
        "--no-header",
    ]));
    let ids: Vec<&str> = ids.lines().collect();
    let half = ids.len() / 2;
    [&ids[..half], &ids[half..]]
        .iter()
        .enumerate()
        .map(|(k, part)| {
            let list = dir.join(&format!("ids{k}.txt"));
            std::fs::write(&list, part.join("\n")).unwrap();
            let out = dir.join(&format!("part{k}.{ext}"));
            ok(&svb(&[
                "subset",
                s(src),
                "--read-ids",
                s(&list),
                "-o",
                s(&out),
            ]));
            out
        })
        .collect::<Vec<_>>()
        .try_into()
        .unwrap()
}

#[test]
#[ignore = "needs the shared test data (../shared/data or SVB_TEST_DATA); run with --include-ignored"]
fn pod5_split_and_merged_is_the_original() {
    let (data, tmp) = svb_testdata::data_and_tmp_or_skip!("cli-merge-pod5");
    let src = data.join("pod5/multi_fast5_zip.pod5");
    let [a, b] = halves(&src, &tmp, "pod5");
    let merged = tmp.join("merged.pod5");
    ok(&svb(&["merge", s(&a), s(&b), "-o", s(&merged)]));
    let verify = |f: &std::path::Path| ok(&svb(&["pod5", "verify", s(f)]));
    assert_eq!(verify(&merged), verify(&src));
    let fields = "read_id,channel,mux,read_number,start_sample,end_reason,run_id,median_before,calibration_scale,acquisition_id";
    let view = |f: &std::path::Path| ok(&svb(&["view", s(f), "--fields", fields]));
    assert_eq!(view(&merged), view(&src));
    // One run, as in the original.
    assert_eq!(
        svb_pod5::Reader::open(&merged).unwrap().run_infos().len(),
        svb_pod5::Reader::open(&src).unwrap().run_infos().len()
    );

    // A read in two inputs: both files named, nothing written.
    let twice = tmp.join("twice.pod5");
    let e = fails(&svb(&["merge", s(&a), s(&src), "-o", s(&twice)]));
    assert!(e.contains(s(&a)) && e.contains(s(&src)), "{e}");
    assert!(!twice.exists());
    // --duplicates keep-first keeps the first copy of each id.
    let out = svb(&[
        "merge",
        s(&a),
        s(&src),
        "-o",
        s(&twice),
        "--duplicates",
        "keep-first",
    ]);
    let said = String::from_utf8_lossy(&out.stderr).into_owned();
    ok(&out);
    assert!(said.contains("5 reads left out"), "{said}");
    // a's reads, then those of src that a lacks (b's): the original's order.
    assert_eq!(verify(&twice), verify(&src));
}

#[test]
#[ignore = "needs the shared test data (../shared/data or SVB_TEST_DATA); run with --include-ignored"]
fn blow5_split_and_merged_into_blow5_and_slow5_is_the_original() {
    let (data, tmp) = svb_testdata::data_and_tmp_or_skip!("cli-merge-blow5");
    let src = data.join("blow5/slow5tools/example_multi_rg_v0.2.0_zstd_svb-zd.blow5");
    let [a, b] = halves(&src, &tmp, "blow5");
    let records = |f: &std::path::Path| {
        let r = svb_blow5::Reader::open(f).unwrap();
        let recs: Vec<_> = r.records().map(Result::unwrap).collect();
        (format!("{recs:?}"), r.header().read_groups.clone())
    };
    let want = records(&src);
    for (ext, extra) in [
        ("blow5", vec![]),
        ("slow5", vec![]),
        ("blow5", vec!["--signal", "ex-zd"]),
    ] {
        let merged = tmp.join(&format!("merged.{ext}"));
        let mut args = vec!["merge", s(&a), s(&b), "-o", s(&merged), "--force"];
        args.extend(extra.iter().copied());
        ok(&svb(&args));
        // Every record and field; the read groups once each, as in the original.
        assert_eq!(records(&merged), want, "{ext} {extra:?}");
    }
    // The records of an input stored as the output stores them are copied byte for byte
    // (by subset into the halves, by merge back: slow5lib's bytes, which a recompression by
    // svb does not give); an input whose read groups come in another order is decoded and its
    // groups renumbered.
    let merged = tmp.join("merged.blow5");
    ok(&svb(&["merge", s(&a), s(&b), "-o", s(&merged), "--force"]));
    let (rs, rm) = (
        svb_blow5::Reader::open(&src).unwrap(),
        svb_blow5::Reader::open(&merged).unwrap(),
    );
    assert_eq!(rs.len(), rm.len());
    for i in 0..rs.len() {
        assert_eq!(
            rs.stored_record(i).unwrap(),
            rm.stored_record(i).unwrap(),
            "{i}"
        );
    }
    let reordered = tmp.join("reordered.blow5");
    {
        let rb = svb_blow5::Reader::open(&b).unwrap();
        let groups = rb.header().read_groups.len() as u32;
        assert!(groups > 1, "the example has several read groups");
        let mut schema = svb_blow5::Schema::of(rb.header());
        schema.read_groups.reverse();
        let options = svb_blow5::WriteOptions::default();
        let mut w = svb_blow5::Writer::create(&reordered, schema, options).unwrap();
        for rec in rb.records() {
            let mut rec = rec.unwrap();
            rec.read_group = groups - 1 - rec.read_group;
            w.add_record(&rec).unwrap();
        }
        w.finish().unwrap();
    }
    ok(&svb(&[
        "merge",
        s(&a),
        s(&reordered),
        "-o",
        s(&merged),
        "--force",
    ]));
    assert_eq!(records(&merged), want);

    let text = tmp.join("merged.slow5");
    let mixed = tmp.join("mixed.blow5");
    // BLOW5 and SLOW5 inputs mix.
    ok(&svb(&["merge", s(&text), "-o", s(&mixed)]));
    assert_eq!(records(&mixed), want);
    // Other auxiliary fields (here none, and another run): merged as slow5tools merges
    // them, every field of either input in the output, a record without one given its
    // missing value; or, with --lossless false, no auxiliary field at all.
    let other = data.join("blow5/reads_zstd_svb_zd.blow5");
    let out = tmp.join("other.blow5");
    ok(&svb(&["merge", s(&a), s(&other), "-o", s(&out)]));
    let (ra, ro, rm) = (
        svb_blow5::Reader::open(&a).unwrap(),
        svb_blow5::Reader::open(&other).unwrap(),
        svb_blow5::Reader::open(&out).unwrap(),
    );
    assert_eq!(rm.len(), ra.len() + ro.len());
    assert_eq!(rm.header().aux, ra.header().aux);
    assert_eq!(
        rm.header().read_groups.len(),
        ra.header().read_groups.len() + 1
    );
    let last = rm.record(rm.len() - 1).unwrap();
    assert!(!last.aux.is_empty());
    for (f, (name, v)) in rm.header().aux.iter().zip(&last.aux) {
        assert_eq!(&f.name, name);
        assert_eq!(
            format!("{v:?}"),
            format!("{:?}", svb_blow5::AuxValue::missing(&f.ty))
        );
    }
    let lossy = tmp.join("lossy.blow5");
    ok(&svb(&[
        "merge",
        s(&a),
        s(&other),
        "-o",
        s(&lossy),
        "--lossless",
        "false",
    ]));
    let rl = svb_blow5::Reader::open(&lossy).unwrap();
    assert!(rl.header().aux.is_empty() && rl.len() == rm.len());
    assert!(rl.record(0).unwrap().aux.is_empty());
    // A POD5 output of BLOW5 inputs is convert's job.
    let e = fails(&svb(&["merge", s(&a), "-o", s(&tmp.join("x.pod5"))]));
    assert!(e.contains("svb convert"), "{e}");
}
