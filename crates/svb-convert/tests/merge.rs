//! `merge`: a file split by `subset` merges back into every read and field of the original
//! (POD5; BLOW5 into BLOW5 and SLOW5, records copied as stored where the output stores them
//! so, decoded and renumbered where their read groups differ); a read id in two inputs is an
//! error naming both, or the first is kept; runs and read groups are kept once; other
//! auxiliary fields are merged as slow5tools merges them, or dropped; a failed merge leaves
//! no output. (The command's arguments and messages: svb-cli's tests/merge.rs.)

use std::path::{Path, PathBuf};

use svb_convert::{merge, subset, Duplicates, HeaderRules, ReadOrder, Run};
use svb_model::ReadSource;
use svb_testdata::TempDir;

/// Splits `src` into two files of its format by `subset` (reads 0..half and half..), in `dir`.
fn halves(src: &Path, dir: &TempDir, ext: &str) -> [PathBuf; 2] {
    let r = svb_reads::AnyReader::open(src).unwrap();
    let ids: Vec<String> = (0..r.len()).map(|i| r.read_id(i).unwrap()).collect();
    let half = ids.len() / 2;
    [(0, &ids[..half]), (1, &ids[half..])].map(|(k, part)| {
        let out = dir.join(&format!("part{k}.{ext}"));
        let inputs = [src.to_path_buf()];
        let done = subset(&inputs, part, &out, ReadOrder::Files, Run::default()).unwrap();
        assert!(done.missing.is_empty());
        out
    })
}

/// Every read of `f` (any format) through the read model: id, samples, fields.
fn reads(f: &Path) -> Vec<String> {
    let r = svb_reads::AnyReader::open(f).unwrap();
    (0..r.len()).map(|i| format!("{:?}", r.read(i).unwrap())).collect()
}

/// `merge(inputs -> out)` under `duplicates`, replacing `out`.
fn merged(inputs: &[&Path], out: &Path, duplicates: Duplicates) -> svb_convert::Merged {
    let inputs: Vec<PathBuf> = inputs.iter().map(|p| p.to_path_buf()).collect();
    let how = Run {
        publish: svb_io::Publish { on_existing: svb_io::OnExisting::Replace, ..Default::default() },
        ..Run::default()
    };
    merge(&inputs, out, duplicates, HeaderRules::default(), how).unwrap()
}

#[svb_testdata::data_test]
fn pod5_split_and_merged_is_the_original(data: &Path, tmp: &TempDir) {
    let src = data.join("pod5/multi_fast5_zip.pod5");
    let [a, b] = halves(&src, tmp, "pod5");
    let out = tmp.join("merged.pod5");
    let done = merged(&[&a, &b], &out, Duplicates::Error);
    assert_eq!(reads(&out), reads(&src));
    assert_eq!(done.stats.reads, reads(&src).len() as u64);
    // One run, as in the original.
    let runs = |f: &Path| svb_pod5::Reader::open(f).unwrap().run_infos().to_vec();
    assert_eq!(runs(&out), runs(&src));

    // A read in two inputs: both files named, nothing written.
    let twice = tmp.join("twice.pod5");
    let inputs = [a.clone(), src.clone()];
    let how = Run::default();
    let e = merge(&inputs, &twice, Duplicates::Error, HeaderRules::default(), how).unwrap_err();
    let mut e: &dyn std::error::Error = &e;
    let mut chain = e.to_string();
    while let Some(source) = e.source() {
        chain = format!("{chain}: {source}");
        e = source;
    }
    let e = chain;
    assert!(e.contains(&*a.to_string_lossy()) && e.contains(&*src.to_string_lossy()), "{e}");
    assert_eq!(tmp.entries(), ["merged.pod5", "part0.pod5", "part1.pod5"]);
    // Duplicates::KeepFirst keeps the first copy of each id: a's reads, then those of src
    // that a lacks (b's), the original's order.
    let done = merged(&[&a, &src], &twice, Duplicates::KeepFirst);
    assert_eq!(done.duplicates, 5);
    assert_eq!(reads(&twice), reads(&src));
}

#[svb_testdata::data_test]
fn blow5_split_and_merged_into_blow5_and_slow5_is_the_original(data: &Path, tmp: &TempDir) {
    let src = data.join("blow5/slow5tools/example_multi_rg_v0.2.0_zstd_svb-zd.blow5");
    let [a, b] = halves(&src, tmp, "blow5");
    let records = |f: &Path| {
        let r = svb_blow5::Reader::open(f).unwrap();
        let recs: Vec<_> = r.records().map(Result::unwrap).collect();
        (format!("{recs:?}"), r.header().read_groups.clone())
    };
    let want = records(&src);
    for name in ["merged.blow5", "merged.slow5"] {
        let out = tmp.join(name);
        merged(&[&a, &b], &out, Duplicates::Error);
        // Every record and field; the read groups once each, as in the original.
        assert_eq!(records(&out), want, "{name}");
    }
    // Recompressed: decoded and written under other options.
    let ex_zd = tmp.join("ex-zd.blow5");
    let options = svb_blow5::WriteOptions {
        signal_compression: svb_blow5::SignalCompression::ExZd,
        ..Default::default()
    };
    let inputs = [a.clone(), b.clone()];
    let (dup, rules) = (Duplicates::Error, HeaderRules::default());
    svb_convert::merge_blow5(&inputs, &ex_zd, options, dup, rules, Run::default()).unwrap();
    assert_eq!(records(&ex_zd), want);

    // The records of an input stored as the output stores them are copied byte for byte
    // (by subset into the halves, by merge back: slow5lib's bytes, which a recompression by
    // svb does not give); an input whose read groups come in another order is decoded and
    // its groups renumbered.
    let out = tmp.join("merged.blow5");
    let (rs, rm) = (svb_blow5::Reader::open(&src).unwrap(), svb_blow5::Reader::open(&out).unwrap());
    assert_eq!(rs.len(), rm.len());
    for i in 0..rs.len() {
        let (want, got) = (rs.stored_record(i).unwrap(), rm.stored_record(i).unwrap());
        assert_eq!(want, got, "{i}");
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
    merged(&[&a, &reordered], &out, Duplicates::Error);
    assert_eq!(records(&out), want);

    // BLOW5 and SLOW5 inputs mix.
    let mixed = tmp.join("mixed.blow5");
    merged(&[&tmp.join("merged.slow5")], &mixed, Duplicates::Error);
    assert_eq!(records(&mixed), want);

    // Other auxiliary fields (here none, and another run): merged as slow5tools merges
    // them, every field of either input in the output, a record without one given its
    // missing value; or, with `drop_aux`, no auxiliary field at all.
    let other = data.join("blow5/reads_zstd_svb_zd.blow5");
    let out = tmp.join("other.blow5");
    merged(&[&a, &other], &out, Duplicates::Error);
    let (ra, ro, rm) = (
        svb_blow5::Reader::open(&a).unwrap(),
        svb_blow5::Reader::open(&other).unwrap(),
        svb_blow5::Reader::open(&out).unwrap(),
    );
    assert_eq!(rm.len(), ra.len() + ro.len());
    assert_eq!(rm.header().aux, ra.header().aux);
    let groups = rm.header().read_groups.len();
    assert_eq!(groups, ra.header().read_groups.len() + 1);
    let last = rm.record(rm.len() - 1).unwrap();
    assert!(!last.aux.is_empty());
    for (f, (name, v)) in rm.header().aux.iter().zip(&last.aux) {
        assert_eq!(&f.name, name);
        let missing = svb_blow5::AuxValue::missing(&f.ty);
        assert_eq!(format!("{v:?}"), format!("{missing:?}"));
    }
    let lossy = tmp.join("lossy.blow5");
    let rules = HeaderRules { drop_aux: true, ..HeaderRules::default() };
    let inputs = [a.clone(), other.clone()];
    merge(&inputs, &lossy, Duplicates::Error, rules, Run::default()).unwrap();
    let rl = svb_blow5::Reader::open(&lossy).unwrap();
    assert!(rl.header().aux.is_empty() && rl.len() == rm.len());
    assert!(rl.record(0).unwrap().aux.is_empty());
}

/// `HeaderRules::slow5tools_field_order`: the merged auxiliary fields in slow5tools merge's
/// order (enum fields first, in order of appearance, then the others by name); without it, in
/// the inputs' order.
#[test]
fn slow5tools_field_order_puts_enums_first_and_sorts_the_rest() {
    use svb_blow5::{AuxField, FieldType, Schema};
    let scalar = |name: &str| AuxField {
        name: name.into(),
        ty: FieldType::Scalar { name: "int32_t".into(), size: 4 },
    };
    let labels = |l: &[&str]| FieldType::Enum(l.iter().map(|s| s.to_string()).collect());
    let group = vec![("run_id".to_string(), "r".to_string())];
    let a = Schema {
        read_groups: vec![group.clone()],
        aux: vec![
            scalar("start_time"),
            scalar("read_number"),
            AuxField { name: "end_reason".into(), ty: labels(&["unknown", "partial"]) },
        ],
    };
    let b = Schema {
        read_groups: vec![group],
        aux: vec![scalar("channel"), AuxField { name: "pore".into(), ty: labels(&["a", "b"]) }],
    };
    let inputs = [(a, Path::new("a.blow5")), (b, Path::new("b.blow5"))];
    let names = |rules: HeaderRules| {
        let (schema, _) = svb_convert::merge_schemas(&inputs, rules).unwrap();
        schema.aux.into_iter().map(|f| f.name).collect::<Vec<_>>()
    };
    let ordered = HeaderRules { slow5tools_field_order: true, ..HeaderRules::default() };
    assert_eq!(names(ordered), ["end_reason", "pore", "channel", "read_number", "start_time"]);
    assert_eq!(
        names(HeaderRules::default()),
        ["start_time", "read_number", "end_reason", "channel", "pore"]
    );
}
