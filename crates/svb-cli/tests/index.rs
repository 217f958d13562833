//! `svb index`: slow5lib's index written beside a BLOW5 or SLOW5 file, or elsewhere
//! (`--index`, replaced only with `--force`); `svb get --index` reads through one kept
//! elsewhere and refuses one of another file.

mod common;
use common::{fails, ok, s, svb};
use std::path::Path;
use svb_testdata::TempDir;

#[svb_testdata::data_test]
fn index_beside_and_elsewhere_and_get_through_it(data: &Path, tmp: &TempDir) {
    let blow5 = tmp.join("reads.blow5");
    std::fs::copy(data.join("blow5/reads_zstd_svb_zd.blow5"), &blow5).unwrap();
    let slow5 = tmp.join("reads.slow5");
    ok(&svb(&["convert", s(&blow5), "-o", s(&slow5)]));
    ok(&svb(&["index", s(&blow5), s(&slow5)]));
    for f in [&blow5, &slow5] {
        let r = svb_blow5::Reader::open(f).unwrap();
        let want = svb_blow5::Index::build(&r).unwrap();
        let got = svb_blow5::Index::read(&svb_blow5::Index::path_for(f)).unwrap();
        assert_eq!(got, want, "{}", f.display());
        assert!(got.matches(&r));
    }

    // Elsewhere: replaced only with --force.
    let kept = tmp.join("kept/reads.idx");
    std::fs::create_dir_all(kept.parent().unwrap()).unwrap();
    ok(&svb(&["index", s(&blow5), "--index", s(&kept)]));
    let e = fails(&svb(&["index", s(&blow5), "--index", s(&kept)]));
    assert!(e.contains(s(&kept)), "{e}");
    ok(&svb(&["index", s(&blow5), "--index", s(&kept), "--force"]));
    let e = fails(&svb(&["index", s(&blow5), s(&slow5), "--index", s(&kept)]));
    assert!(e.contains("one file"), "{e}");

    // get through the index kept elsewhere, and the same samples without it.
    std::fs::remove_file(svb_blow5::Index::path_for(&blow5)).unwrap();
    let id = svb_blow5::Reader::open(&blow5).unwrap().read_id(2).unwrap();
    let via = ok(&svb(&["get", s(&blow5), &id, "--index", s(&kept), "-o", s(&tmp.join("a.i16"))]));
    let _ = via;
    assert!(!svb_blow5::Index::path_for(&blow5).exists(), "--index writes nothing beside");
    ok(&svb(&["get", s(&blow5), &id, "-o", s(&tmp.join("b.i16"))]));
    assert_eq!(
        std::fs::read(tmp.join("a.i16")).unwrap(),
        std::fs::read(tmp.join("b.i16")).unwrap()
    );
    // subset through the index kept elsewhere (the plain get above wrote one beside).
    std::fs::remove_file(svb_blow5::Index::path_for(&blow5)).unwrap();
    let ids = tmp.join("ids.txt");
    std::fs::write(&ids, format!("{id}\n")).unwrap();
    let picked = tmp.join("picked.blow5");
    ok(&svb(&["subset", s(&blow5), "--read-ids", s(&ids), "-o", s(&picked), "--index", s(&kept)]));
    assert!(!svb_blow5::Index::path_for(&blow5).exists());
    assert_eq!(svb_blow5::Reader::open(&picked).unwrap().read_id(0).unwrap(), id);
    // An index of another file does not fit: an error, the index left as it is.
    let other = tmp.join("other.idx");
    ok(&svb(&["index", s(&slow5), "--index", s(&other)]));
    let before = std::fs::read(&other).unwrap();
    let e = fails(&svb(&["get", s(&blow5), &id, "--index", s(&other)]));
    assert!(e.contains("index"), "{e}");
    let e = fails(&svb(&[
        "subset",
        s(&blow5),
        "--read-ids",
        s(&ids),
        "-o",
        s(&tmp.join("p2.blow5")),
        "--index",
        s(&other),
    ]));
    assert!(e.contains("index"), "{e}");
    assert_eq!(std::fs::read(&other).unwrap(), before);
    // The index never lands on its own file.
    let e = fails(&svb(&["index", s(&blow5), "--index", s(&blow5), "--force"]));
    assert!(e.contains(s(&blow5)), "{e}");
}

/// `svb get DIR`: a read found among a directory's files through a read id index, made for
/// the run or kept (`--id-index`, reused, never written over another file), the same samples
/// as from its own file.
#[svb_testdata::data_test]
fn get_from_a_directory_through_a_read_id_index(data: &Path, tmp: &TempDir) {
    let dir = tmp.join("runs");
    std::fs::create_dir_all(dir.join("more")).unwrap();
    let blow5 = data.join("blow5/reads_zstd_svb_zd.blow5");
    let reader = svb_blow5::Reader::open(&blow5).unwrap();
    let ids: Vec<String> = (0..reader.len()).map(|i| reader.read_id(i).unwrap()).collect();
    // The reads split over three files, one in a subdirectory.
    let thirds: Vec<&[String]> = ids.chunks(ids.len().div_ceil(3)).collect();
    for (k, part) in thirds.iter().enumerate() {
        let list = tmp.join(&format!("ids{k}.txt"));
        std::fs::write(&list, part.join("\n") + "\n").unwrap();
        let to = match k {
            2 => dir.join("more/c.blow5"),
            _ => dir.join(format!("{}.blow5", ["a", "b"][k])),
        };
        ok(&svb(&["subset", s(&blow5), "--read-ids", s(&list), "-o", s(&to)]));
    }
    let last = ids.last().unwrap();
    let first = &ids[0];
    ok(&svb(&["get", s(&blow5), last, "-o", s(&tmp.join("want.i16"))]));
    ok(&svb(&["get", s(&dir), last, "-o", s(&tmp.join("got.i16"))]));
    let want = std::fs::read(tmp.join("want.i16")).unwrap();
    assert_eq!(std::fs::read(tmp.join("got.i16")).unwrap(), want);

    // A kept index: made, then reused (not rewritten), several reads into a directory.
    let kept = tmp.join("runs.svbidx");
    let out = tmp.join("signals");
    ok(&svb(&["get", s(&dir), first, last, "--id-index", s(&kept), "-o", s(&out)]));
    let made = std::fs::metadata(&kept).unwrap().modified().unwrap();
    assert_eq!(std::fs::read(out.join(format!("{last}.i16"))).unwrap(), want);
    ok(&svb(&["get", s(&dir), last, "--id-index", s(&kept), "-o", s(&tmp.join("again.i16"))]));
    assert_eq!(std::fs::metadata(&kept).unwrap().modified().unwrap(), made);
    assert_eq!(std::fs::read(tmp.join("again.i16")).unwrap(), want);

    // Absent ids, another file at --id-index, -o naming the index or an input: errors, and
    // nothing is written over.
    let e = fails(&svb(&["get", s(&dir), "no_such_read", "-o", s(&tmp.join("x.i16"))]));
    assert!(e.contains("no read no_such_read"), "{e}");
    assert!(!tmp.join("x.i16").exists());
    let notes = tmp.join("notes.txt");
    std::fs::write(&notes, "mine").unwrap();
    let e = fails(&svb(&["get", s(&dir), last, "--id-index", s(&notes)]));
    assert!(e.contains("not an svb dataset index"), "{e}");
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "mine");
    let e = fails(&svb(&["get", s(&dir), last, "--id-index", s(&kept), "-o", s(&kept), "--force"]));
    assert!(e.contains("read id index"), "{e}");
    let input = dir.join("a.blow5");
    let before = std::fs::read(&input).unwrap();
    let e = fails(&svb(&["get", s(&dir), last, "-o", s(&input), "--force"]));
    assert!(e.contains("choose another output"), "{e}");
    assert_eq!(std::fs::read(&input).unwrap(), before);
    // --index is one BLOW5 file's, --id-index a directory's.
    let e = fails(&svb(&["get", s(&dir), last, "--index", s(&kept)]));
    assert!(e.contains("--id-index"), "{e}");
    let e = fails(&svb(&["get", s(&blow5), last, "--id-index", s(&kept)]));
    assert!(e.contains("for a directory"), "{e}");

    // A read in two files: written once (the first file's copy), with a warning naming both.
    let copy = dir.join("more/copy.blow5");
    std::fs::copy(dir.join("b.blow5"), &copy).unwrap();
    let twice = &thirds[1][0];
    let got = svb(&["get", s(&dir), twice, "-o", s(&tmp.join("twice.i16"))]);
    ok(&got);
    let said = String::from_utf8_lossy(&got.stderr);
    assert!(said.contains(&format!("read {twice} is in 2 places")), "{said}");
    assert!(said.contains(s(&dir.join("b.blow5"))) && said.contains(s(&copy)), "{said}");
    let from_b = tmp.join("b.i16");
    ok(&svb(&["get", s(&dir.join("b.blow5")), twice, "-o", s(&from_b)]));
    assert_eq!(std::fs::read(tmp.join("twice.i16")).unwrap(), std::fs::read(&from_b).unwrap());
    // A read in one file: no warning.
    let once = svb(&["get", s(&dir), last, "-o", s(&tmp.join("once.i16"))]);
    ok(&once);
    assert!(!String::from_utf8_lossy(&once.stderr).contains("warning"));

    // --id-index a symbolic link (to an index kept elsewhere): the index is written where
    // the link points, made and remade, and the link stays a link.
    #[cfg(unix)]
    {
        let store = tmp.join("store");
        std::fs::create_dir_all(&store).unwrap();
        let link = tmp.join("linked.svbidx");
        std::os::unix::fs::symlink("store/ids.svbidx", &link).unwrap();
        let is_link =
            |p: &std::path::Path| std::fs::symlink_metadata(p).unwrap().file_type().is_symlink();
        for (k, to) in ["l1.i16", "l2.i16"].iter().enumerate() {
            if k == 1 {
                // The directory changed: the index is rebuilt, through the link again.
                std::fs::remove_file(&copy).unwrap();
            }
            ok(&svb(&["get", s(&dir), last, "--id-index", s(&link), "-o", s(&tmp.join(to))]));
            assert!(is_link(&link));
            assert!(store.join("ids.svbidx").is_file());
            assert_eq!(std::fs::read(tmp.join(to)).unwrap(), want);
        }
    }
}
