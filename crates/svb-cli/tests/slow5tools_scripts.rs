//! slow5tools' own test scripts (`slow5tools/test/test_*.sh` of the shared slow5-repos, at
//! slow5tools c114858), run unchanged against svb through `tools/slow5tools-shim/slow5tools`,
//! each as slow5tools' `test/test.sh` runs it: every case must agree, byte for byte where the
//! script compares bytes, with two kinds of lines left out, listed below with their reasons
//! (docs/SLOW5TOOLS.md gives them for users):
//!
//! - a script's `grep` of slow5tools' own error or warning wording in its log (svb says what
//!   and where in words of its own); the exit status of that command is still checked;
//! - the lines of a case whose inputs are not in the shared data, or where svb differs from
//!   slow5tools on purpose ([`LEFT_OUT`]).
//!
//! Not run: `test_extensive.sh`, `test_all.sh` and `test_with_guppy.sh` (they download a
//! dataset and run guppy), `test_view_integrity.sh` and `test_merge_split_integrity.sh` (they
//! take a dataset as arguments; `test.sh` does not run them), and `test.sh`'s endian check
//! (a C program of slow5tools').

#![cfg(unix)]

use std::path::Path;
use std::process::Command;

use svb_testdata::TempDir;

/// The scripts `test.sh` runs, in its order, with the arguments it gives them.
const SCRIPTS: [(&str, &[&str]); 14] = [
    ("test_view.sh", &[]),
    ("test_f2s.sh", &[]),
    ("test_merge.sh", &[]),
    ("test_split.sh", &[]),
    ("test_f2s_s2f_integrity.sh", &[]),
    ("test_index.sh", &[]),
    ("test_get.sh", &[]),
    (
        "test_f2s_view_diff.sh",
        &[
            "./test/data/raw/f2s_view_diff/sss_median_before_edited.fast5",
            "./test/data/out/f2s_view_diff",
        ],
    ),
    ("test_cat.sh", &[]),
    ("test_stats.sh", &[]),
    ("test_quickcheck.sh", &[]),
    ("test_s2f.sh", &[]),
    ("test_skim.sh", &[]),
    ("test_degrade.sh", &[]),
];

/// Why lines are left out.
const MISSING: &str = "its inputs are not in the shared data (slow5-repos/README.md)";
const DUPLICATE_IDS: &str = "one output would hold a read id twice: svb refuses to write it \
    (slow5tools writes both copies, and its own index then refuses the file)";
const TWO_TYPES: &str = "a field of one name has two types in the inputs: svb refuses \
    (slow5tools writes the second file's values under the first file's type)";
const END_REASON_BY_LABEL: &str = "svb maps a FAST5 end_reason by its label; slow5tools copies \
    the number, which names another label where the reads declare the enum in different orders \
    (its expected file says signal_negative for a signal_positive read)";
const LAYOUT: &str = "sss2_run_id_different.fast5 has a read_* group at its root: svb reads \
    it as the multi-read file it is (slow5tools goes by its file_version, 0.6, takes it for a \
    single-read file, and refuses the folder for its two runs)";
const RUNS_IN_ONE_FILE: &str = "reads of two runs in one multi-read file: svb writes a read \
    group a run (slow5tools refuses without --allow)";
const PORE_TYPE: &str = "a pore_type other than not_set: svb keeps it in the read group \
    (slow5tools refuses the file)";
const CAT_IS_MERGE: &str = "svb has no cat: the shim merges, which takes files whose fields \
    are in another order (slow5tools cat refuses them)";

/// Lines of the scripts not run (1-based), each with a text it must hold (so that a change of
/// the scripts is seen) and why.
const LEFT_OUT: &[(&str, &[u32], &str, &str)] = &[
    ("test_cat.sh", &[98, 99, 104, 105, 106, 111, 112, 117, 118, 119], "/output.", MISSING),
    ("test_cat.sh", &[124, 128, 132, 136], "/output.", MISSING),
    ("test_cat.sh", &[140], "different_aux_order", CAT_IS_MERGE),
    ("test_f2s.sh", &[93, 94, 101, 102], "single-fast5", DUPLICATE_IDS),
    ("test_f2s.sh", &[122, 123], "multi-fast5", DUPLICATE_IDS),
    ("test_f2s.sh", &[141, 142, 148, 149, 150, 151], "single-and-multi-fast5", DUPLICATE_IDS),
    ("test_f2s.sh", &[222, 240], "run_id_conflicts/single_fast5", LAYOUT),
    ("test_f2s.sh", &[246, 259, 265], "run_id_conflicts", DUPLICATE_IDS),
    ("test_f2s.sh", &[341, 347, 348], "retain_dir_structure", MISSING),
    ("test_f2s.sh", &[407], "end_reason_differnt_key_order", END_REASON_BY_LABEL),
    ("test_f2s.sh", &[446, 452, 458, 464, 470], "run_id_missing", MISSING),
    ("test_f2s.sh", &[539], "pore_set.fast5", PORE_TYPE),
    ("test_f2s.sh", &[667, 674], "various_versions/$FILE.fast5", RUNS_IN_ONE_FILE),
    ("test_merge.sh", &[271, 272, 289, 290], "merged_output", DUPLICATE_IDS),
    ("test_merge.sh", &[307, 308], "merged_output", DUPLICATE_IDS),
    ("test_merge.sh", &[336, 337], "same_rg_diff_aux_field", TWO_TYPES),
];

/// Whether `line` checks slow5tools' wording in a log: `grep -q ... err.log || die ...`.
fn checks_wording(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("grep -q")
        && (t.contains("err.log") || t.contains("$LOG"))
        && t.contains("|| die")
}

/// Copies the folder `from` to `to` (files and folders; the scripts write into it).
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let (src, dst) = (e.path(), to.join(e.file_name()));
        if e.file_type().unwrap().is_dir() {
            copy_tree(&src, &dst);
        } else {
            std::fs::copy(&src, &dst).unwrap();
        }
    }
}

#[svb_testdata::data_test(slow5_repos)]
fn slow5tools_own_scripts_pass_through_the_shim(repos: &Path, tmp: &TempDir) {
    let root = tmp.join("slow5tools");
    let test = root.join("test");
    copy_tree(&repos.join("slow5tools/test"), &test);
    let shim = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tools/slow5tools-shim/slow5tools");
    std::os::unix::fs::symlink(shim.canonicalize().unwrap(), root.join("slow5tools")).unwrap();
    // What test.sh's prep() makes.
    for d in ["bin", "data/out/one_fast5", "data/out/two_rg", "data/out/aux_array"] {
        std::fs::create_dir_all(test.join(d)).unwrap();
    }
    let mut wording = 0;
    let mut left_out = 0;
    for (script, args) in SCRIPTS {
        let path = test.join(script);
        let text = std::fs::read_to_string(&path).unwrap();
        let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
        for line in lines.iter_mut().filter(|l| checks_wording(l)) {
            *line = format!(": # slow5tools' wording: {line}");
            wording += 1;
        }
        for (_, numbers, holds, why) in LEFT_OUT.iter().filter(|(s, ..)| *s == script) {
            for &n in *numbers {
                let line = &mut lines[n as usize - 1];
                assert!(line.contains(holds), "{script}:{n} is not the line left out: {line}");
                *line = format!(": # left out ({why}): {line}");
                left_out += 1;
            }
        }
        std::fs::write(&path, lines.join("\n") + "\n").unwrap();
        let out = Command::new("bash")
            .arg(format!("test/{script}"))
            .args(args)
            .current_dir(&root)
            .env("SVB", env!("CARGO_BIN_EXE_svb"))
            // slow5tools built with zstd (svb always reads and writes it).
            .env("zstd", "1")
            .output()
            .expect("bash runs");
        assert!(
            out.status.success(),
            "{script} failed through the shim:\n{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    // The lines left out are the ones listed (none found changed), and the wording checks
    // are the scripts' 25 active ones.
    assert_eq!(left_out, LEFT_OUT.iter().map(|(_, n, ..)| n.len()).sum::<usize>());
    assert_eq!(wording, 25, "the scripts' checks of slow5tools' wording changed");
}
