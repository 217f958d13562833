#![no_main]
//! A damaged or hostile read id index (`.svbidx`) given to a dataset of real files: the first
//! input byte picks the index bytes, the rest of the input (u16 offset, xor byte) edits and
//! a cut of the files' valid index (mode 0: its checksum left as it was, so the damage must
//! be seen; mode 1: resealed, so the structure checks alone must catch it), or (mode 2) the
//! whole index. Every lookup either finds the read where it is, says it is absent, or is an
//! error; never a panic, never a read at a place that holds another id, and the dataset's
//! own files are never written. The files and their valid index are made again for each run
//! (the index stamps each file's inode and status change time) and removed after it: nothing
//! is left in the temporary folder.

use std::path::PathBuf;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use svb_blow5::{OnExisting, Publish, Record, Schema, WriteOptions, Writer};
use svb_model::ReadSource;
use svb_reads::{Dataset, DatasetOptions};

struct Fixture {
    dir: PathBuf,
    /// Each file's path and bytes.
    files: Vec<(PathBuf, Vec<u8>)>,
    ids: Vec<String>,
}

/// Three small BLOW5 files (ids that share prefixes; one file empty) and their valid index,
/// made in this process's folder, which each run fills again and removes.
fn fixture() -> &'static Fixture {
    static F: OnceLock<Fixture> = OnceLock::new();
    F.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("svb-fuzz-dataset-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let mut files = Vec::new();
        let mut ids = Vec::new();
        for (f, n) in [3usize, 0, 5].into_iter().enumerate() {
            let path = dir.join(format!("f{f}.blow5"));
            let schema =
                Schema { read_groups: vec![vec![("run_id".into(), "fuzz".into())]], aux: vec![] };
            let options = WriteOptions {
                publish: Publish { sync: false, on_existing: OnExisting::Replace },
                ..WriteOptions::default()
            };
            let mut w = Writer::create(&path, schema, options).unwrap();
            for r in 0..n {
                let id = format!("read_{}", f * 10 + r);
                w.add_record(&Record {
                    read_id: id.clone(),
                    digitisation: 8192.0,
                    range: 1400.0,
                    sampling_rate: 4000.0,
                    raw_signal: vec![r as i16; r + 1],
                    ..Record::default()
                })
                .unwrap();
                ids.push(id);
            }
            w.finish().unwrap();
            let bytes = std::fs::read(&path).unwrap();
            files.push((path, bytes));
        }
        std::fs::remove_dir_all(&dir).unwrap();
        Fixture { dir, files, ids }
    })
}

impl Fixture {
    fn paths(&self) -> Vec<PathBuf> {
        self.files.iter().map(|(p, _)| p.clone()).collect()
    }

    /// The files as they were made, at one modification time.
    fn write_files(&self) {
        std::fs::create_dir_all(&self.dir).unwrap();
        let when = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_700_000_000);
        for (path, bytes) in &self.files {
            std::fs::write(path, bytes).unwrap();
            std::fs::File::options().write(true).open(path).unwrap().set_modified(when).unwrap();
        }
    }

    /// The valid index of the files as this run wrote them: it stamps each file's device,
    /// inode and status change time, which differ from run to run.
    fn good_index(&self) -> Vec<u8> {
        let at = self.dir.join("good.svbidx");
        let data = Dataset::open(&self.paths(), &options(at.clone())).unwrap();
        data.make_index().unwrap();
        drop(data);
        let good = std::fs::read(&at).unwrap();
        std::fs::remove_file(&at).unwrap();
        good
    }
}

fn options(index: PathBuf) -> DatasetOptions {
    DatasetOptions { recursive: false, index: Some(index), max_open: 2 }
}

fuzz_target!(|data: &[u8]| {
    let fx = fixture();
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    fx.write_files();
    let good = fx.good_index();
    let bytes = if mode % 3 < 2 {
        let mut b = good.clone();
        let mut edits = rest.chunks_exact(3);
        for e in edits.by_ref() {
            let at = usize::from(u16::from_le_bytes([e[0], e[1]]));
            if let Some(x) = b.get_mut(at) {
                *x ^= e[2];
            }
        }
        if let [a, c] = edits.remainder() {
            b.truncate(usize::from(u16::from_le_bytes([*a, *c])));
        }
        if mode % 3 == 1 {
            svb_reads::seal_index(&mut b);
        }
        b
    } else {
        rest.to_vec()
    };
    let at = fx.dir.join("index.svbidx");
    std::fs::write(&at, &bytes).unwrap();
    let paths = fx.paths();
    let Ok(dataset) = Dataset::open(&paths, &options(at.clone())) else {
        let _ = std::fs::remove_dir_all(&fx.dir);
        return;
    };
    let mut asked: Vec<String> = fx.ids.clone();
    asked.extend(["read_1".into(), "read_".into(), String::new(), "read_99".into()]);
    for id in &asked {
        // Not found, or an error: both fine for a damaged index; a hit must be right.
        if let Ok(Some((file, read))) = dataset.locate(id) {
            let f = dataset.file(file).unwrap();
            assert_eq!(&f.read_id(read).unwrap(), id, "found at another read's place");
            assert!(fx.ids.contains(id));
        }
    }
    if let Ok(Some(read)) = dataset.read("read_21") {
        assert_eq!(read.read_id, "read_21");
        assert_eq!(read.signal, vec![1i16; 2]);
    }
    let _ = dataset.duplicates();
    let _ = dataset.len();
    drop(dataset);
    // A rebuilt index is the valid one; the files are as they were.
    if let Ok(now) = std::fs::read(&at) {
        assert!(now == bytes || now == good);
    }
    for (path, want) in &fx.files {
        assert_eq!(&std::fs::read(path).unwrap(), want, "a file was written");
    }
    let _ = std::fs::remove_dir_all(&fx.dir);
});
