//! The `svb` command lines of the README's "On a fresh machine" section, run as they are
//! written, one after another, in an empty directory: its first, `svb example .`, writes the
//! files the others name, as on a fresh machine. A README line that no longer works fails
//! here; no conformance data is needed.

mod common;
use common::{ok, run_readme_lines, svb};

use svb_testdata::TempDir;

/// The arguments of each `cargo run --release -p svb-cli -- ARGS` line of the section, its
/// comment left off.
fn readme_lines() -> Vec<Vec<String>> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md");
    let text = std::fs::read_to_string(path).unwrap();
    let section = text
        .split("## On a fresh machine")
        .nth(1)
        .expect("the README's \"On a fresh machine\" section");
    section
        .lines()
        .filter_map(|l| l.strip_prefix("cargo run --release -p svb-cli -- "))
        .map(|l| {
            let args = l.split(" #").next().unwrap_or(l);
            args.split_whitespace().map(String::from).collect()
        })
        .collect()
}

#[test]
fn readme_command_lines_run() {
    let tmp = TempDir::new("readme-lines");
    let lines = readme_lines();
    assert_eq!(lines[1], ["example", "."], "the README's files come first");
    assert!(lines.len() >= 12, "the README's command lines were not found");
    run_readme_lines(&lines, &tmp.0, &[]);
    // What they wrote is there and reads back.
    for written in ["signals", "blow5_signals", "picked.pod5", "converted.blow5", "read.f32"] {
        assert!(tmp.join(written).exists(), "{written}");
    }
    let f32s = std::fs::read(tmp.join("read.f32")).unwrap().len() / 4;
    let r = svb_pod5::Reader::open(tmp.join("reads.pod5")).unwrap();
    let i = r.find("0000173c-bf67-44e7-9a9c-1ad0bc728e74").unwrap();
    assert_eq!(f32s as u64, r.reads()[i].info.num_samples);
    let view = ok(&svb(&["view", tmp.join("picked.pod5").to_str().unwrap()]));
    assert!(view.contains("0000173c-bf67-44e7-9a9c-1ad0bc728e74"), "{view}");
    assert!(svb_blow5::Reader::open(tmp.join("converted.blow5")).unwrap().len() == r.len());
    assert!(tmp.join("run.arrow").is_file());
}
