//! slow5tools' own split case (`test/data/exp/split/expected_group_split_blow5_input`): a
//! v0.1.0 BLOW5 of five read groups, one of whose attributes is empty (`@asic_id_17`), split
//! by read group into SLOW5 text. Each part's header is slow5tools' line for line (an empty
//! value written back as slow5lib writes it, `.`), and its records are slow5tools' (values
//! up to the 6 decimals slow5tools prints).

use std::path::Path;
use svb_convert::{convert, split_blow5, Compression, Run, SplitBy, SplitOptions};
use svb_model::Format;
use svb_testdata::TempDir;

fn header(text: &str) -> Vec<&str> {
    text.lines().take_while(|l| l.starts_with(['#', '@'])).collect()
}

#[svb_testdata::data_test(slow5_repos)]
fn a_file_with_an_empty_attribute_splits_as_slow5tools_splits_it(repos: &Path, tmp: &TempDir) {
    let data = repos.join("slow5tools/test/data");
    let input = data.join("raw/split/multi_group_blow5s/example_multi_rg_v0.1.0.blow5");
    let parts = tmp.join("parts");
    let options = SplitOptions { max_open: 8, ..Default::default() };
    let got = split_blow5(
        std::slice::from_ref(&input),
        &parts,
        &SplitBy::ReadGroup,
        true,
        options,
        Run::default(),
    )
    .unwrap();
    assert_eq!(got.outputs.len(), 5);
    for i in 0..5 {
        let ours = std::fs::read_to_string(parts.join(format!("rg{i}.slow5"))).unwrap();
        let theirs = std::fs::read_to_string(data.join(format!(
            "exp/split/expected_group_split_blow5_input/example_multi_rg_v0.1.0_{i}.slow5"
        )))
        .unwrap();
        assert_eq!(header(&ours), header(&theirs), "read group {i}");
        let (a, b) = (
            svb_blow5::Reader::open(parts.join(format!("rg{i}.slow5"))).unwrap(),
            svb_blow5::Reader::open(data.join(format!(
                "exp/split/expected_group_split_blow5_input/example_multi_rg_v0.1.0_{i}.slow5"
            )))
            .unwrap(),
        );
        assert_eq!(a.len(), b.len());
        for k in 0..a.len() {
            let (x, y) = (a.record(k).unwrap(), b.record(k).unwrap());
            assert_eq!((&x.read_id, &x.raw_signal), (&y.read_id, &y.raw_signal));
        }
    }
    // Written back whole, in either form, and read again.
    for to in [Format::Blow5, Format::Slow5] {
        let out = tmp.join(&format!("all.{}", to.extension()));
        let stats = convert(
            std::slice::from_ref(&input),
            Format::Blow5,
            &out,
            to,
            Compression::default(),
            Run::default(),
        )
        .unwrap();
        assert_eq!(stats.reads, 7);
        let r = svb_blow5::Reader::open(&out).unwrap();
        assert_eq!(r.header().read_groups.len(), 5);
    }
}

/// slow5tools' test case 3: `split -g rg.slow5 -c zlib -s svb-zd`. Each BLOW5 part holds
/// what slow5tools' does (`exp/split/expected_group_split_blow5_output`): zlib records and
/// SVB-ZD signal, its header and every record's fields and samples (the zlib streams
/// themselves differ: svb deflates with libdeflate).
#[svb_testdata::data_test(slow5_repos)]
fn recompressed_parts_hold_what_slow5tools_split_c_s_writes(repos: &Path, tmp: &TempDir) {
    let data = repos.join("slow5tools/test/data");
    let input = data.join("raw/split/multi_group_slow5s/rg.slow5");
    let parts = tmp.join("parts");
    let compression = Compression {
        records: Some(svb_blow5::RecordCompression::Zlib),
        signal: Some(svb_blow5::SignalCompression::SvbZd),
        ..Compression::default()
    };
    let options =
        SplitOptions { to: Some(Format::Blow5), compression, max_open: 8, ..Default::default() };
    let got = svb_convert::split(
        std::slice::from_ref(&input),
        Format::Slow5,
        &parts,
        &SplitBy::ReadGroup,
        options,
        Run::default(),
    )
    .unwrap();
    assert_eq!(got.outputs.len(), 4);
    for i in 0..4 {
        let a = svb_blow5::Reader::open(parts.join(format!("rg{i}.blow5"))).unwrap();
        let b = svb_blow5::Reader::open(
            data.join(format!("exp/split/expected_group_split_blow5_output/rg_{i}.blow5")),
        )
        .unwrap();
        let (ha, hb) = (a.header(), b.header());
        assert_eq!(
            (ha.record_compression, ha.signal_compression),
            (hb.record_compression, hb.signal_compression),
            "part {i}"
        );
        assert_eq!(ha.read_groups, hb.read_groups, "part {i}");
        assert_eq!(ha.aux, hb.aux, "part {i}");
        assert_eq!(a.len(), b.len());
        for k in 0..a.len() {
            assert_eq!(a.record(k).unwrap(), b.record(k).unwrap(), "part {i} record {k}");
        }
    }
    // POD5 and SLOW5 text outputs have no compression to choose.
    let options =
        SplitOptions { to: Some(Format::Slow5), compression, max_open: 8, ..Default::default() };
    let e = svb_convert::split(
        std::slice::from_ref(&input),
        Format::Slow5,
        &tmp.join("text"),
        &SplitBy::ReadGroup,
        options,
        Run::default(),
    )
    .unwrap_err();
    assert!(e.to_string().contains("SLOW5 text has no compression"), "{e}");
}

/// slow5tools' `duplicate_read.blow5` (a read id twice; `slow5tools index` refuses it,
/// `slow5tools view` rewrites it): converted alone to SLOW5 text and back, every record as it
/// was, the repeated id included; converted with another file (a merge), the id in two
/// places is refused and nothing is written.
#[svb_testdata::data_test(slow5_repos)]
fn a_file_whose_read_id_repeats_is_rewritten_as_it_is(repos: &Path, tmp: &TempDir) {
    let input = repos.join("slow5tools/test/data/exp/index/duplicate_read.blow5");
    let (text, back) = (tmp.join("dup.slow5"), tmp.join("dup.blow5"));
    let run = |from: &std::path::Path, f, out: &std::path::Path, t| {
        convert(
            std::slice::from_ref(&from.to_path_buf()),
            f,
            out,
            t,
            Compression::default(),
            Run::default(),
        )
    };
    run(&input, Format::Blow5, &text, Format::Slow5).unwrap();
    run(&text, Format::Slow5, &back, Format::Blow5).unwrap();
    let (a, b) =
        (svb_blow5::Reader::open(&input).unwrap(), svb_blow5::Reader::open(&back).unwrap());
    assert_eq!(a.len(), b.len());
    let ids: Vec<String> = (0..a.len()).map(|i| a.read_id(i).unwrap()).collect();
    assert!(ids.iter().any(|id| ids.iter().filter(|x| *x == id).count() == 2));
    for i in 0..a.len() {
        assert_eq!(a.record(i).unwrap(), b.record(i).unwrap(), "record {i}");
    }
    let two = [input.clone(), text.clone()];
    let merged = tmp.join("merged.blow5");
    let e = convert(
        &two,
        Format::Blow5,
        &merged,
        Format::Blow5,
        Compression::default(),
        Run::default(),
    )
    .unwrap_err();
    assert!(svb_testdata::error_chain(&e).contains("already in the file"), "{e}");
    assert!(!merged.exists());
}
