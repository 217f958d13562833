//! A dataset of many files: every read found by id in its file, duplicates listed, the index
//! kept on disk reused while it fits and rebuilt when a file changes, and never written over
//! a file that is not an index.

use std::path::{Path, PathBuf};

use svb_model::Format;
use svb_reads::{Dataset, DatasetOptions};
use svb_testdata::pod5::{TestFile, TestRead};
use svb_testdata::TempDir;

/// A read id of file `file`, read `read`.
fn uuid(file: u16, read: u16) -> [u8; 16] {
    let mut id = [0x5a; 16];
    id[..2].copy_from_slice(&file.to_be_bytes());
    id[2..4].copy_from_slice(&read.to_be_bytes());
    id
}

fn write_pod5(path: &Path, ids: &[[u8; 16]]) {
    let reads = ids
        .iter()
        .enumerate()
        .map(|(i, id)| {
            let mut r = TestRead::new(i as u8, vec![i as i16; 10 + i]);
            r.read_id = *id;
            r
        })
        .collect();
    let bytes = TestFile {
        reads,
        chunk_samples: 102_400,
        signal_batch_rows: 100,
        compress: None,
        edit: None,
    }
    .write();
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, bytes).unwrap();
}

/// 12 POD5 files (file i holds 3 * i reads; file 0 none), half of them in a subdirectory.
fn pod5_dataset(dir: &TempDir) -> Vec<PathBuf> {
    (0..12u16)
        .map(|f| {
            let sub = if f % 2 == 0 { "" } else { "more/" };
            let path = dir.join(&format!("data/{sub}f{f:02}.pod5"));
            let ids: Vec<_> = (0..3 * f).map(|r| uuid(f, r)).collect();
            write_pod5(&path, &ids);
            path
        })
        .collect()
}

fn options(index: Option<PathBuf>) -> DatasetOptions {
    DatasetOptions { recursive: true, index, max_open: 2 }
}

#[test]
fn every_read_of_every_file_is_found_by_id() {
    let dir = TempDir::new("dataset-pod5");
    let paths = pod5_dataset(&dir);
    let data = Dataset::open(&[dir.join("data")], &options(None)).unwrap();
    assert_eq!(data.format(), Format::Pod5);
    // Directories walked in name order: the subdirectory's files after the top's.
    let mut want = paths.clone();
    want.sort_by_key(|p| (p.parent().unwrap().ends_with("more"), p.clone()));
    assert_eq!(data.files(), want);
    assert_eq!(data.len().unwrap(), (0..12).map(|f| 3 * f).sum::<u64>());
    for (i, path) in data.files().iter().enumerate() {
        let f: u16 = path.file_stem().unwrap().to_str().unwrap()[1..].parse().unwrap();
        for r in 0..3 * f {
            let id = svb_pod5::uuid_string(&uuid(f, r));
            assert_eq!(data.locate(&id).unwrap(), Some((i, r as usize)), "{id}");
            // Any spelling of the UUID.
            let upper = id.to_uppercase();
            assert_eq!(data.locate(&upper).unwrap(), Some((i, r as usize)));
            assert_eq!(data.path_of(&id).unwrap(), Some(path.as_path()));
        }
    }
    let read = data.read(&svb_pod5::uuid_string(&uuid(7, 4))).unwrap().unwrap();
    assert_eq!(read.signal, vec![4i16; 14]);
    for absent in [
        svb_pod5::uuid_string(&uuid(7, 21)),
        svb_pod5::uuid_string(&[0; 16]),
        "not a uuid".into(),
        String::new(),
    ] {
        assert_eq!(data.locate(&absent).unwrap(), None, "{absent}");
        assert!(data.read(&absent).unwrap().is_none());
    }
    assert!(data.duplicates().unwrap().is_empty());
    // Many at once, in the order asked, across more files than may be open at once.
    let asked: Vec<String> = [(9, 2), (1, 0), (11, 33), (3, 8), (9, 2), (5, 15), (2, 0)]
        .iter()
        .map(|&(f, r)| svb_pod5::uuid_string(&uuid(f, r)))
        .collect();
    let got = data.reads(&asked).unwrap();
    assert_eq!(got.len(), asked.len());
    for (id, read) in asked.iter().zip(&got) {
        let (f, r) = (
            u16::from_str_radix(&id[..4], 16).unwrap(),
            u16::from_str_radix(&id[4..8], 16).unwrap(),
        );
        match read {
            Some(read) => {
                assert!(r < 3 * f, "{id}");
                assert_eq!(&read.read_id, id);
                assert_eq!(read.signal, vec![r as i16; 10 + r as usize]);
            }
            None => assert!(r >= 3 * f, "{id} is in the dataset"),
        }
    }
    assert_eq!(got.iter().filter(|r| r.is_none()).count(), 2);
    // The index was temporary: its name is gone once it is open (on Unix), and after.
    let index = data.index_path().unwrap().to_path_buf();
    assert!(index.starts_with(std::env::temp_dir()), "{}", index.display());
    assert_eq!(index.exists(), !cfg!(unix));
    drop(data);
    assert!(!index.exists());
}

#[test]
fn duplicates_are_listed_and_the_first_file_wins() {
    let dir = TempDir::new("dataset-dups");
    pod5_dataset(&dir);
    // A later file holding reads 1 and 4 of file 2 (f02) and a read of its own.
    write_pod5(&dir.join("data/z.pod5"), &[uuid(2, 4), uuid(99, 0), uuid(2, 1)]);
    let data = Dataset::open(&[dir.join("data")], &options(None)).unwrap();
    let f02 = data.files().iter().position(|p| p.ends_with("f02.pod5")).unwrap();
    let z = data.files().iter().position(|p| p.ends_with("z.pod5")).unwrap();
    let mut dups = data.duplicates().unwrap();
    dups.sort_by(|a, b| a.read_id.cmp(&b.read_id));
    assert_eq!(dups.len(), 2);
    assert_eq!(dups[0].read_id, svb_pod5::uuid_string(&uuid(2, 1)));
    assert_eq!(dups[0].places, vec![(f02, 1), (z, 2)]);
    assert_eq!(dups[1].places, vec![(f02, 4), (z, 0)]);
    let id = svb_pod5::uuid_string(&uuid(2, 4));
    assert_eq!(data.locate(&id).unwrap(), Some((f02, 4)));
    let own = svb_pod5::uuid_string(&uuid(99, 0));
    assert_eq!(data.locate(&own).unwrap(), Some((z, 1)));
}

#[test]
fn a_kept_index_is_reused_while_it_fits_and_rebuilt_when_a_file_changes() {
    let dir = TempDir::new("dataset-kept");
    pod5_dataset(&dir);
    let at = dir.join("ids.svbidx");
    let data = Dataset::open(&[dir.join("data")], &options(Some(at.clone()))).unwrap();
    assert!(!at.exists(), "made at the first lookup, not at open");
    data.make_index().unwrap();
    assert_eq!(data.index_path(), Some(at.as_path()));
    assert_eq!(data.index_note(), None);
    let made = std::fs::read(&at).unwrap();
    let modified = std::fs::metadata(&at).unwrap().modified().unwrap();
    drop(data);
    std::thread::sleep(std::time::Duration::from_millis(20));

    // Reused: the same bytes, no note, and the counts come from it.
    let data = Dataset::open(&[dir.join("data")], &options(Some(at.clone()))).unwrap();
    data.make_index().unwrap();
    assert_eq!(data.index_note(), None);
    assert_eq!(data.len().unwrap(), 198);
    assert_eq!(std::fs::read(&at).unwrap(), made);
    // Not rewritten (a rebuild is published under a new file).
    assert_eq!(std::fs::metadata(&at).unwrap().modified().unwrap(), modified);
    drop(data);

    // A file rewritten with other reads: the index no longer fits, and is rebuilt.
    write_pod5(&dir.join("data/f04.pod5"), &[uuid(44, 0), uuid(44, 1)]);
    let data = Dataset::open(&[dir.join("data")], &options(Some(at.clone()))).unwrap();
    let id = svb_pod5::uuid_string(&uuid(44, 1));
    let f04 = data.files().iter().position(|p| p.ends_with("f04.pod5")).unwrap();
    assert_eq!(data.locate(&id).unwrap(), Some((f04, 1)));
    let note = data.index_note().unwrap();
    assert!(note.contains("f04.pod5 changed"), "{note}");
    assert_eq!(data.len().unwrap(), 198 - 12 + 2);
    assert_eq!(data.locate(&svb_pod5::uuid_string(&uuid(4, 0))).unwrap(), None);
    // Nothing but the index beside the data.
    let names: Vec<_> =
        std::fs::read_dir(&dir.0).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names.len(), 2, "{names:?}");
}

#[test]
fn an_index_path_holding_something_else_or_an_input_is_refused() {
    let dir = TempDir::new("dataset-refused");
    let paths = pod5_dataset(&dir);
    let at = dir.join("notes.txt");
    std::fs::write(&at, "a user's file, which no index may replace").unwrap();
    let data = Dataset::open(&[dir.join("data")], &options(Some(at.clone()))).unwrap();
    let err = data.make_index().unwrap_err().to_string();
    assert!(err.contains("not an svb dataset index"), "{err}");
    let err = data.locate(&svb_pod5::uuid_string(&uuid(3, 0))).unwrap_err();
    assert!(err.to_string().contains("notes.txt"), "{err}");
    assert_eq!(std::fs::read_to_string(&at).unwrap(), "a user's file, which no index may replace");
    // An index that would be one of the inputs.
    let input = paths[3].clone();
    let before = std::fs::read(&input).unwrap();
    let err = Dataset::open(&[dir.join("data")], &options(Some(input.clone()))).err().unwrap();
    assert!(err.to_string().contains("f03.pod5"), "{err}");
    assert_eq!(std::fs::read(&input).unwrap(), before);
}

#[test]
fn blow5_read_ids_are_looked_up_as_text() {
    use svb_testdata::blow5::{write, TestRecord};
    let dir = TempDir::new("dataset-blow5");
    let signal: Vec<u8> = [1i16, 2, 3].iter().flat_map(|s| s.to_le_bytes()).collect();
    let names: Vec<Vec<String>> =
        (0..5).map(|f| (0..f * 2).map(|r| format!("read_{f}_{r}")).collect()).collect();
    for (f, ids) in names.iter().enumerate() {
        let records: Vec<TestRecord<'_>> = ids
            .iter()
            .map(|id| TestRecord { read_id: id, len_raw_signal: 3, signal: &signal })
            .collect();
        std::fs::write(dir.join(&format!("r{f}.blow5")), write(0, &records)).unwrap();
    }
    let data = Dataset::open(std::slice::from_ref(&dir.0), &options(None)).unwrap();
    assert_eq!(data.format(), Format::Blow5);
    assert_eq!(data.len().unwrap(), 20);
    for (f, ids) in names.iter().enumerate() {
        for (r, id) in ids.iter().enumerate() {
            assert_eq!(data.locate(id).unwrap(), Some((f, r)));
        }
    }
    assert_eq!(data.read("read_3_5").unwrap().unwrap().signal, [1, 2, 3]);
    // Text ids are exact.
    assert_eq!(data.locate("READ_3_5").unwrap(), None);
    assert_eq!(data.locate("read_3_").unwrap(), None);
}
