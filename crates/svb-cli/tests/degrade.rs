//! `svb degrade`: its arguments, messages and exit status (what it writes is tested against
//! slow5tools' own cases in svb-convert's tests/slow5tools_degrade.rs).

mod common;
use common::{fails, ok, s, svb};
use std::path::Path;
use svb_testdata::TempDir;

#[svb_testdata::data_test(slow5_repos)]
fn degrade_command(repos: &Path, tmp: &TempDir) {
    let data = repos.join("slow5tools/test/data");
    let (raw, exp) = (data.join("raw/degrade"), data.join("exp/degrade"));
    let out = tmp.join("auto.blow5");
    let run = svb(&["degrade", s(&raw.join("gridr10dna.blow5")), "-o", s(&out)]);
    ok(&run);
    let said = String::from_utf8_lossy(&run.stderr);
    assert!(said.contains("3 bits eliminated (chosen for DNA lsk114 5kHz GridION)"), "{said}");
    assert_eq!(
        std::fs::read(&out).unwrap(),
        std::fs::read(exp.join("gridr10dna_b3.blow5")).unwrap()
    );
    // `svb degrade raw/INPUT -o OUTPUT EXTRA...`.
    let degrade = |input: &str, output: &Path, extra: &[&str]| {
        let input = raw.join(input);
        let mut args = vec!["degrade", s(&input), "-o", s(output)];
        args.extend_from_slice(extra);
        svb(&args)
    };
    // An existing output: refused, then replaced with --force.
    let e = fails(&degrade("gridr10dna.blow5", &out, &["-b", "5"]));
    assert!(e.contains("exists"), "{e}");
    let run = degrade("gridr10dna.blow5", &out, &["-b", "5", "--force"]);
    ok(&run);
    assert!(String::from_utf8_lossy(&run.stderr).contains("more than 4 bits"));
    // Bits outside 1-16, a header of no known dataset, a POD5 output: errors, nothing written.
    let e = fails(&degrade("gridr10dna.blow5", &tmp.join("x.blow5"), &["-b", "17"]));
    assert!(e.contains("17"), "{e}");
    let e = fails(&degrade("promr10dna_badhdr.slow5", &tmp.join("x.blow5"), &[]));
    assert!(e.contains("--bits"), "{e}");
    let e = fails(&degrade("gridr10dna.blow5", &tmp.join("x.pod5"), &["-b", "2"]));
    assert!(e.contains("BLOW5 or SLOW5"), "{e}");
    assert_eq!(tmp.entries(), ["auto.blow5"]);
}
