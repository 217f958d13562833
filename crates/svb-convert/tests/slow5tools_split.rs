//! slow5tools' own split case (`test/data/exp/split/expected_group_split_blow5_input`): a
//! v0.1.0 BLOW5 of five read groups, one of whose attributes is empty (`@asic_id_17`), split
//! by read group into SLOW5 text. Each part's header is slow5tools' line for line (an empty
//! value written back as slow5lib writes it, `.`), and its records are slow5tools' (values
//! up to the 6 decimals slow5tools prints).

use svb_convert::{convert, split_blow5, Compression, Run, SplitBy};
use svb_model::Format;
use svb_testdata::TempDir;

fn header(text: &str) -> Vec<&str> {
    text.lines()
        .take_while(|l| l.starts_with(['#', '@']))
        .collect()
}

#[test]
#[ignore = "needs slow5lib's and slow5tools' test data (SVB_SLOW5_REPOS); run with --include-ignored"]
fn a_file_with_an_empty_attribute_splits_as_slow5tools_splits_it() {
    let Some(repos) = svb_testdata::slow5_repos() else {
        return;
    };
    let data = repos.join("slow5tools/test/data");
    let input = data.join("raw/split/multi_group_blow5s/example_multi_rg_v0.1.0.blow5");
    let tmp = TempDir::new("slow5tools-split");
    let parts = tmp.join("parts");
    let got = split_blow5(
        std::slice::from_ref(&input),
        &parts,
        &SplitBy::ReadGroup,
        None,
        true,
        8,
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
