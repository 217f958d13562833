//! Subset's two orders: the inputs' (each input's reads as stored) and the list's (as
//! slow5tools get writes them), for POD5 and BLOW5 inputs whose reads are spread over two
//! files, the list naming them across both, backwards, one id twice and one nowhere.

use std::path::{Path, PathBuf};

use svb_convert::{subset, ReadOrder, Run};
use svb_model::ReadSource;
use svb_testdata::TempDir;

fn ids_of(path: &Path) -> Vec<String> {
    let r = svb_reads::AnyReader::open(path).unwrap();
    (0..r.len()).map(|i| r.read_id(i).unwrap()).collect()
}

/// `src` split into two files (`a`: the even reads, `b`: the odd ones) in `dir`, by subset.
fn halves(src: &Path, dir: &Path, ext: &str) -> (Vec<PathBuf>, Vec<String>) {
    let all = ids_of(src);
    let mut out = Vec::new();
    for (name, parity) in [("a", 0), ("b", 1)] {
        let part: Vec<String> = all.iter().skip(parity).step_by(2).cloned().collect();
        let path = dir.join(format!("{name}.{ext}"));
        subset(&[src.to_path_buf()], &part, &path, ReadOrder::Files, Run::default()).unwrap();
        out.push(path);
    }
    (out, all)
}

#[svb_testdata::data_test]
fn subset_writes_the_inputs_order_or_the_lists(data: &Path, tmp: &TempDir) {
    for (src, ext) in [
        (data.join("pod5/multi_fast5_zip.pod5"), "pod5"),
        (data.join("blow5/slow5tools/example_multi_rg_v0.2.0_zstd_svb-zd.blow5"), "blow5"),
    ] {
        let dir = tmp.join(ext);
        std::fs::create_dir_all(&dir).unwrap();
        let (inputs, all) = halves(&src, &dir, ext);
        assert!(all.len() >= 4, "{ext}");
        // Backwards across both inputs, the last id twice, and an id no input holds.
        let absent = "00000000-0000-0000-0000-000000000000".to_string();
        let mut list: Vec<String> = all.iter().rev().cloned().collect();
        list.insert(1, all[all.len() - 1].clone());
        list.push(absent.clone());
        let in_list = dir.join(format!("list.{ext}"));
        let got = subset(&inputs, &list, &in_list, ReadOrder::List, Run::default()).unwrap();
        let want: Vec<String> = all.iter().rev().cloned().collect();
        assert_eq!(ids_of(&in_list), want, "{ext}");
        assert_eq!(got.missing, std::slice::from_ref(&absent), "{ext}");
        assert_eq!(got.stats.reads, all.len() as u64);
        // The inputs' order: a's reads (the even ones) then b's (the odd ones), as stored.
        let in_files = dir.join(format!("files.{ext}"));
        subset(&inputs, &list, &in_files, ReadOrder::Files, Run::default()).unwrap();
        let evens = all.iter().step_by(2);
        let odds = all.iter().skip(1).step_by(2);
        let want: Vec<String> = evens.chain(odds).cloned().collect();
        assert_eq!(ids_of(&in_files), want, "{ext}");
        // The same reads either way, signal and fields.
        let (x, y) = (
            svb_reads::AnyReader::open(&in_list).unwrap(),
            svb_reads::AnyReader::open(&in_files).unwrap(),
        );
        for id in &all {
            let (i, j) = (x.find(id).unwrap().unwrap(), y.find(id).unwrap().unwrap());
            let (a, b) = (x.read(i).unwrap(), y.read(j).unwrap());
            assert!(a.signal == b.signal, "{ext} {id}: signal");
            // As text: a missing float is NaN, which equals nothing.
            let (fa, fb) = (format!("{:?}", a.fields), format!("{:?}", b.fields));
            assert_eq!(fa, fb, "{ext} {id}");
        }
    }
}
