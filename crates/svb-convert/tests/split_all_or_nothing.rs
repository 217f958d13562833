//! A split's outputs appear together or not at all: interrupted after some outputs are
//! complete, or meeting a file that appeared at a later output's name while it ran, a split
//! leaves nothing of its own behind (no output, no temporary file); the file that appeared is
//! left as it was.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use svb_convert::{split, ConvertError, Run, SplitBy};
use svb_model::Format;
use svb_testdata::TempDir;

/// Splits `input` into `dir`, five outputs written one at a time, asking `interrupted` after
/// each window.
fn five_parts(
    input: &Path, format: Format, dir: &Path, interrupted: &(dyn Fn() -> bool + Sync),
) -> Result<svb_convert::Split, ConvertError> {
    let how = Run { interrupted: Some(interrupted), ..Run::default() };
    let inputs = [input.to_path_buf()];
    let options = svb_convert::SplitOptions { max_open: 1, ..Default::default() };
    split(&inputs, format, dir, &SplitBy::Files(5), options, how)
}

fn entries(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|d| d.map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default();
    names.sort();
    names
}

#[svb_testdata::data_test]
fn a_split_publishes_every_output_or_none(data: &Path, tmp: &TempDir) {
    let cases = [
        (data.join("pod5/multi_fast5_zip.pod5"), Format::Pod5),
        (data.join("blow5/reads_zstd_svb_zd.blow5"), Format::Blow5),
    ];
    for (input, format) in cases {
        let tag = format!("{format:?}");
        let whole = tmp.join(&format!("{tag}-whole"));
        let windows = AtomicUsize::new(0);
        let count = || windows.fetch_add(1, Ordering::SeqCst) == usize::MAX;
        let got = five_parts(&input, format, &whole, &count).unwrap();
        let windows = windows.load(Ordering::SeqCst);
        let parts: Vec<PathBuf> = got.outputs.iter().map(|(_, p, _)| p.clone()).collect();
        assert_eq!(parts.len(), 5, "{tag}");
        assert_eq!(entries(&whole).len(), 5, "{tag}");

        // Interrupted once three outputs are complete: none of them is published.
        let asked = AtomicUsize::new(0);
        let dir = tmp.join(&format!("{tag}-interrupted"));
        std::fs::create_dir_all(&dir).unwrap();
        let stop_late = || asked.fetch_add(1, Ordering::SeqCst) >= 3;
        let e = five_parts(&input, format, &dir, &stop_late).unwrap_err();
        assert!(matches!(e, ConvertError::Interrupted), "{tag}: {e}");
        assert!(asked.load(Ordering::SeqCst) > 3, "{tag}: outputs were complete");
        assert_eq!(entries(&dir), Vec::<String>::new(), "{tag}");

        // A file appears at the fourth output's name while the split runs: early (before
        // that output is begun) or late (after the last window, that output complete). The
        // split fails naming it, publishes none of its outputs (late: those published before
        // it are taken back), and leaves that file alone.
        for (when, at) in [("early", 1), ("late", windows - 1)] {
            let dir = tmp.join(&format!("{tag}-raced-{when}"));
            std::fs::create_dir_all(&dir).unwrap();
            let fourth = dir.join(parts[3].file_name().unwrap());
            let asked = AtomicUsize::new(0);
            let race = || {
                if asked.fetch_add(1, Ordering::SeqCst) == at {
                    std::fs::write(&fourth, b"theirs").unwrap();
                }
                false
            };
            let e = five_parts(&input, format, &dir, &race).unwrap_err();
            let said = svb_io::error_chain(&e);
            assert!(
                said.contains(fourth.to_str().unwrap()) && said.contains("exists"),
                "{tag} {when}: {said}"
            );
            if when == "late" {
                assert!(said.contains("no output of the split"), "{tag}: {said}");
            }
            assert_eq!(
                entries(&dir),
                vec![fourth.file_name().unwrap().to_string_lossy().into_owned()],
                "{tag} {when}"
            );
            assert_eq!(std::fs::read(&fourth).unwrap(), b"theirs");
        }
    }
}
