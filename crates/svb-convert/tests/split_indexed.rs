//! A split of a BLOW5 file with its index beside it copies each part's records by kernel
//! copies, never reading them: the parts are byte for byte those of a split that reads each
//! record's first bytes for its id (the file without its index), and in both the samples of
//! records copied as stored go uncounted; an index that does not fit the file is not used.

use std::path::Path;

use svb_convert::{split, Run, SplitBy};
use svb_model::Format;
use svb_testdata::TempDir;

fn parts(input: &Path, dir: &Path, by: &SplitBy) -> svb_convert::Split {
    let inputs = [input.to_path_buf()];
    let options = svb_convert::SplitOptions { max_open: 8, ..Default::default() };
    split(&inputs, Format::Blow5, dir, by, options, Run::default()).unwrap()
}

fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| {
            let e = e.unwrap();
            (e.file_name().to_string_lossy().into_owned(), std::fs::read(e.path()).unwrap())
        })
        .collect();
    out.sort();
    out
}

#[svb_testdata::data_test]
fn parts_copied_through_the_index_are_those_copied_by_record_heads(data: &Path, tmp: &TempDir) {
    let source = data.join("blow5/slow5tools/example_multi_rg_v0.2.0_zstd_svb-zd.blow5");
    let (plain, indexed) = (tmp.join("plain.blow5"), tmp.join("indexed.blow5"));
    std::fs::copy(&source, &plain).unwrap();
    std::fs::copy(&source, &indexed).unwrap();
    let index = svb_blow5::Index::build(&svb_blow5::Reader::open(&indexed).unwrap()).unwrap();
    index.write(&svb_blow5::Index::path_for(&indexed)).unwrap();
    for by in [SplitBy::Files(3), SplitBy::Reads(2), SplitBy::ReadGroup] {
        let (a, b) = (tmp.join(&format!("{by:?}-plain")), tmp.join(&format!("{by:?}-indexed")));
        let (x, y) = (parts(&plain, &a, &by), parts(&indexed, &b, &by));
        assert_eq!(files(&a), files(&b), "{by:?}");
        assert_eq!(x.stats.reads, y.stats.reads);
        // Records whose read group keeps its number in their part are copied as stored,
        // found through the index or by their first bytes (the others are read and
        // renumbered, their samples counted).
        assert_eq!(x.stats.samples_uncounted, y.stats.samples_uncounted);
        assert!(y.stats.samples_uncounted > 0, "{by:?}");
        assert_eq!(y.stats.samples, x.stats.samples, "{by:?}");
    }
    // An index of another file (here: of fewer records) is not used.
    let other = tmp.join("other.blow5");
    let first_two = svb_blow5::Reader::open(&indexed).unwrap();
    let mut w = svb_blow5::Writer::create(
        &other,
        svb_blow5::Schema {
            read_groups: first_two.header().read_groups.clone(),
            aux: first_two.header().aux.clone(),
        },
        Default::default(),
    )
    .unwrap();
    w.add_record(&first_two.record(0).unwrap()).unwrap();
    w.finish().unwrap();
    let stale = svb_blow5::Index::build(&svb_blow5::Reader::open(&other).unwrap()).unwrap();
    stale.write(&svb_blow5::Index::path_for(&plain)).unwrap();
    let c = tmp.join("stale");
    let z = parts(&plain, &c, &SplitBy::Files(3));
    assert_eq!(z.stats.reads, svb_blow5::Reader::open(&plain).unwrap().len() as u64);
    assert_eq!(files(&c), files(&tmp.join("Files(3)-plain")));
}
