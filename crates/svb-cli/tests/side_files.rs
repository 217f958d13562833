//! Side files never change an answer: a slow5lib index beside a BLOW5 file (stale after the
//! file was rewritten, another file's, or naming a read twice) only says where a read should
//! be. `get`, `subset`, `merge` and `split` give what the records say, each checked here
//! against the records themselves, locally, through `--index` and over HTTP.

mod common;
use common::{fails, ok, s, svb};
use std::path::{Path, PathBuf};
use svb_testdata::TempDir;

/// Read `k`'s id: all of one length, so that records of one signal length are of one size.
fn id(k: usize) -> String {
    format!("read_{k:03}")
}

/// Read `k`'s samples: `len` values no other read has.
fn signal(k: usize, len: usize) -> Vec<i16> {
    (0..len).map(|i| (k * 1000 + i) as i16).collect()
}

/// A BLOW5 file of reads `order` (read `k` of `len(k)` samples) at `path`.
fn write_reads(path: &Path, order: &[usize], len: impl Fn(usize) -> usize) {
    let reads: Vec<(String, Vec<i16>)> =
        order.iter().map(|&k| (id(k), signal(k, len(k)))).collect();
    let refs: Vec<(&str, &[i16])> = reads.iter().map(|(i, x)| (i.as_str(), x.as_slice())).collect();
    std::fs::write(path, svb_testdata::blow5::of_reads(&refs)).unwrap();
}

/// The samples of a raw int16 output.
fn samples(bytes: &[u8]) -> Vec<i16> {
    bytes.chunks_exact(2).map(|b| i16::from_le_bytes([b[0], b[1]])).collect()
}

/// Every read of a BLOW5 file, as `(id, samples)`, in file order.
fn reads_of(path: &Path) -> Vec<(String, Vec<i16>)> {
    let r = svb_blow5::Reader::open(path).unwrap();
    r.records().map(|x| x.map(|x| (x.read_id, x.raw_signal)).unwrap()).collect()
}

const N: usize = 10;

/// Reads of one size (records of one size) and reads of sizes that differ.
fn same_size(_: usize) -> usize {
    50
}
fn sizes_differ(k: usize) -> usize {
    20 + 7 * k
}

/// `reads.blow5` indexed beside, then rewritten with the same reads in reverse order: the
/// index still fits the file's length (and, with records of one size, every position).
fn stale(tmp: &Path, len: fn(usize) -> usize) -> PathBuf {
    let blow5 = tmp.join("reads.blow5");
    let order: Vec<usize> = (0..N).collect();
    write_reads(&blow5, &order, len);
    ok(&svb(&["index", s(&blow5)]));
    let reversed: Vec<usize> = (0..N).rev().collect();
    write_reads(&blow5, &reversed, len);
    blow5
}

#[test]
fn get_through_a_stale_index_gives_each_reads_own_signal() {
    for len in [same_size as fn(usize) -> usize, sizes_differ] {
        let tmp = TempDir::new("side_files_get");
        let blow5 = stale(&tmp.0, len);
        let idx = svb_blow5::Index::path_for(&blow5);
        let out = tmp.join("x.i16");
        let said = svb(&["get", s(&blow5), &id(2), "-o", s(&out), "--force"]);
        ok(&said);
        assert_eq!(samples(&std::fs::read(&out).unwrap()), signal(2, len(2)));
        let note = String::from_utf8_lossy(&said.stderr);
        assert!(note.contains("does not fit") && note.contains("rewritten"), "{note}");
        // Rewritten from the records: it fits now, and says so no more.
        let r = svb_blow5::Reader::open(&blow5).unwrap();
        assert_eq!(svb_blow5::Index::read(&idx).unwrap(), svb_blow5::Index::build(&r).unwrap());
        for k in 0..N {
            let said = svb(&["get", s(&blow5), &id(k), "-o", s(&out), "--force"]);
            ok(&said);
            assert!(said.stderr.is_empty(), "{}", String::from_utf8_lossy(&said.stderr));
            assert_eq!(samples(&std::fs::read(&out).unwrap()), signal(k, len(k)));
        }
        // Another file's index (records of the same sizes, other ids) beside it: several
        // reads at once, to standard output, in the order asked.
        let other = tmp.join("other.blow5");
        write_reads(&other, &(100..100 + N).collect::<Vec<_>>(), |k| len(k - 100));
        ok(&svb(&["index", s(&other)]));
        std::fs::copy(svb_blow5::Index::path_for(&other), &idx).unwrap();
        let got = svb(&["get", s(&blow5), &id(7), &id(0), &id(3)]);
        ok(&got);
        let want: Vec<i16> = [7, 0, 3].iter().flat_map(|&k| signal(k, len(k))).collect();
        assert_eq!(samples(&got.stdout), want);
        // A read the file does not hold is named, whatever the index holds.
        let e = fails(&svb(&["get", s(&blow5), &id(100)]));
        assert!(e.contains(&format!("no read {}", id(100))), "{e}");
    }
}

#[test]
fn get_through_a_stale_index_named_by_path_leaves_it_as_it_is() {
    for len in [same_size as fn(usize) -> usize, sizes_differ] {
        let tmp = TempDir::new("side_files_get_index");
        let blow5 = stale(&tmp.0, len);
        let kept = tmp.join("kept.idx");
        std::fs::rename(svb_blow5::Index::path_for(&blow5), &kept).unwrap();
        let before = std::fs::read(&kept).unwrap();
        let out = tmp.join("x.i16");
        let said = svb(&["get", s(&blow5), &id(4), "--index", s(&kept), "-o", s(&out)]);
        if len(0) == len(1) {
            // Its positions are the file's records: the ids are read from them.
            ok(&said);
            assert_eq!(samples(&std::fs::read(&out).unwrap()), signal(4, len(4)));
            let note = String::from_utf8_lossy(&said.stderr);
            assert!(note.contains("left as it is"), "{note}");
        } else {
            // Its positions are not: an error naming it, never another read.
            let e = fails(&said);
            assert!(e.contains("index"), "{e}");
            assert!(!out.exists());
        }
        assert_eq!(std::fs::read(&kept).unwrap(), before);
        assert!(!svb_blow5::Index::path_for(&blow5).exists());
    }
}

#[test]
fn subset_through_stale_and_foreign_indexes_finds_every_read_present() {
    for len in [same_size as fn(usize) -> usize, sizes_differ] {
        let tmp = TempDir::new("side_files_subset");
        let blow5 = stale(&tmp.0, len);
        let list = tmp.join("ids.txt");
        let wanted = [1, 8, 5];
        let lines: String = wanted.iter().map(|&k| id(k) + "\n").collect();
        std::fs::write(&list, format!("{lines}read_999\n")).unwrap();
        let out = tmp.join("picked.blow5");
        let args = ["subset", s(&blow5), "--read-ids", s(&list), "-o", s(&out), "--missing-ok"];
        ok(&svb(&args));
        let mut got = reads_of(&out);
        got.sort();
        let mut want: Vec<(String, Vec<i16>)> =
            wanted.iter().map(|&k| (id(k), signal(k, len(k)))).collect();
        want.sort();
        assert_eq!(got, want);

        // Another file's index, of records of the same sizes and other ids.
        let other = tmp.join("other.blow5");
        let others: Vec<usize> = (100..100 + N).collect();
        write_reads(&other, &others, |k| len(k - 100));
        ok(&svb(&["index", s(&other)]));
        std::fs::copy(svb_blow5::Index::path_for(&other), svb_blow5::Index::path_for(&blow5))
            .unwrap();
        let out = tmp.join("picked2.blow5");
        let args = ["subset", s(&blow5), "--read-ids", s(&list), "-o", s(&out), "--missing-ok"];
        ok(&svb(&args));
        let mut got = reads_of(&out);
        got.sort();
        assert_eq!(got, want);
        // Without --missing-ok, the read that is not there is the one named.
        std::fs::write(&list, lines).unwrap();
        let out = tmp.join("picked3.blow5");
        ok(&svb(&["subset", s(&blow5), "--read-ids", s(&list), "-o", s(&out)]));
        assert_eq!(reads_of(&out).len(), wanted.len());
    }
}

#[test]
fn merge_and_split_take_ids_from_the_records_not_the_index() {
    let tmp = TempDir::new("side_files_merge");
    let a = tmp.join("a.blow5");
    let b = tmp.join("b.blow5");
    write_reads(&a, &(0..N).collect::<Vec<_>>(), same_size);
    write_reads(&b, &(N..2 * N).collect::<Vec<_>>(), same_size);
    // An index beside `a` that names one read twice (its entry 1 says read 0).
    let r = svb_blow5::Reader::open(&a).unwrap();
    let mut bytes = svb_blow5::Index::build(&r).unwrap().to_bytes();
    let second = bytes.windows(id(1).len()).position(|w| w == id(1).as_bytes()).unwrap();
    bytes[second..second + id(0).len()].copy_from_slice(id(0).as_bytes());
    std::fs::write(svb_blow5::Index::path_for(&a), &bytes).unwrap();
    let out = tmp.join("merged.blow5");
    ok(&svb(&["merge", s(&a), s(&b), "-o", s(&out), "--duplicates", "keep-first"]));
    let want: Vec<(String, Vec<i16>)> = (0..2 * N).map(|k| (id(k), signal(k, 50))).collect();
    assert_eq!(reads_of(&out), want);

    // A stale index beside `a` (its reads rewritten in reverse order).
    let reversed: Vec<usize> = (0..N).rev().collect();
    ok(&svb(&["index", s(&a)]));
    write_reads(&a, &reversed, same_size);
    let out = tmp.join("merged2.blow5");
    ok(&svb(&["merge", s(&a), s(&b), "-o", s(&out)]));
    let mut want: Vec<(String, Vec<i16>)> =
        reversed.iter().map(|&k| (id(k), signal(k, 50))).collect();
    want.extend((N..2 * N).map(|k| (id(k), signal(k, 50))));
    assert_eq!(reads_of(&out), want);

    // split by a table through the same stale index: each read where the table sends it.
    let table = tmp.join("table.tsv");
    let part = |k: usize| if k.is_multiple_of(2) { "even" } else { "odd" };
    let rows: String = (0..N).map(|k| format!("{}\t{}\n", id(k), part(k))).collect();
    std::fs::write(&table, format!("read_id\tpart\n{rows}")).unwrap();
    let dir = tmp.join("parts");
    ok(&svb(&["split", s(&a), "--table", s(&table), "-o", s(&dir)]));
    for name in ["even", "odd"] {
        let got = reads_of(&dir.join(format!("{name}.blow5")));
        let want: Vec<(String, Vec<i16>)> = reversed
            .iter()
            .filter(|&&k| part(k) == name)
            .map(|&k| (id(k), signal(k, 50)))
            .collect();
        assert_eq!(got, want, "{name}");
    }
}

#[test]
fn get_over_http_through_a_stale_index_gives_the_reads_own_signal() {
    let tmp = TempDir::new("side_files_http");
    stale(&tmp.0, same_size);
    let server = svb_testdata::http_server::HttpServer::start(tmp.0.clone());
    let url = server.url("reads.blow5");
    for k in [0, 6] {
        let got = svb(&["get", &url, &id(k)]);
        ok(&got);
        assert_eq!(samples(&got.stdout), signal(k, 50), "read {k}");
    }
    let got = svb(&["get", &url, &id(9), &id(1)]);
    ok(&got);
    let want: Vec<i16> = [9, 1].iter().flat_map(|&k| signal(k, 50)).collect();
    assert_eq!(samples(&got.stdout), want);
}

#[test]
fn a_read_id_index_of_files_that_swapped_names_is_rebuilt() {
    let tmp = TempDir::new("side_files_svbidx");
    let dir = tmp.join("runs");
    std::fs::create_dir(&dir).unwrap();
    let (a, b) = (dir.join("a.blow5"), dir.join("b.blow5"));
    write_reads(&a, &(0..N).collect::<Vec<_>>(), same_size);
    write_reads(&b, &(100..100 + N).collect::<Vec<_>>(), same_size);
    let when = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_700_000_000);
    for f in [&a, &b] {
        std::fs::File::options().write(true).open(f).unwrap().set_modified(when).unwrap();
    }
    let index = tmp.join("runs.svbidx");
    let out = tmp.join("x.i16");
    ok(&svb(&["get", s(&dir), &id(3), "--id-index", s(&index), "-o", s(&out)]));
    assert_eq!(samples(&std::fs::read(&out).unwrap()), signal(3, 50));
    // The two files swap names; sizes and modification times stay what they were.
    let aside = dir.join("aside");
    std::fs::rename(&a, &aside).unwrap();
    std::fs::rename(&b, &a).unwrap();
    std::fs::rename(&aside, &b).unwrap();
    for f in [&a, &b] {
        std::fs::File::options().write(true).open(f).unwrap().set_modified(when).unwrap();
    }
    for k in [3, 104] {
        let said =
            svb(&["get", s(&dir), &id(k), "--id-index", s(&index), "-o", s(&out), "--force"]);
        ok(&said);
        assert_eq!(samples(&std::fs::read(&out).unwrap()), signal(k, 50), "read {k}");
    }
}
