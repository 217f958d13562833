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

/// A POD5 degraded into a POD5: every run (in the input's order) and every read's fields as
/// they were, each read's samples rounded as `round_low_bits` rounds them; a file whose runs
/// are no known dataset asks for the bits.
#[svb_testdata::data_test]
fn degrade_pod5_keeps_runs_and_fields(data: &Path, tmp: &TempDir) {
    let input = data.join("pod5/multi_fast5_zip.pod5");
    let out = tmp.join("degraded.pod5");
    ok(&svb(&["degrade", s(&input), "-o", s(&out), "-b", "3"]));
    let a = svb_pod5::Reader::open(&input).unwrap();
    let b = svb_pod5::Reader::open(&out).unwrap();
    assert_eq!(b.run_infos(), a.run_infos());
    assert_eq!(b.len(), a.len());
    for i in 0..a.len() {
        let (want, got) = (&a.reads()[i].info, &b.reads()[i].info);
        // Debug forms: NaN fields compare as NaN.
        assert_eq!(format!("{got:?}"), format!("{want:?}"), "read {i}");
        let mut samples = a.decode_signal(i).unwrap();
        svb_convert::round_low_bits(&mut samples, 3);
        assert_eq!(b.decode_signal(i).unwrap(), samples, "read {i}");
    }
    let e = fails(&svb(&["degrade", s(&input), "-o", s(&tmp.join("auto.pod5"))]));
    assert!(e.contains("--bits"), "{e}");
    assert!(!tmp.join("auto.pod5").exists());
}

/// A POD5 of a known dataset (its bits chosen from its runs) with a run whose ADC range is
/// not the dataset's: each read of that run is named and stops the degrade, or with
/// --keep-going is left out while the others are rounded and written.
#[test]
fn degrade_pod5_checks_each_read_against_the_dataset() {
    let tmp = TempDir::new("degrade_pod5_dataset");
    let input = tmp.join("gridion.pod5");
    let run = |id: &str, adc_min: i16, adc_max: i16| svb_pod5::RunInfo {
        acquisition_id: id.into(),
        adc_min,
        adc_max,
        sample_rate: 5000,
        sequencing_kit: "sqk-lsk114".into(),
        context_tags: vec![("experiment_type".into(), "genomic_dna".into())],
        tracking_id: vec![("device_type".into(), "gridion".into())],
        ..svb_pod5::RunInfo::default()
    };
    let (good, bad) = (run("good", -4096, 4095), run("bad", 0, 2047));
    let mut w = svb_pod5::Writer::create(&input, svb_pod5::WriteOptions::default()).unwrap();
    w.add_run_info(&good).unwrap();
    w.add_run_info(&bad).unwrap();
    let signal: Vec<i16> = (0..1000).map(|i| 300 + (i * 7 % 61) as i16).collect();
    for (k, run) in ["good", "bad", "good"].iter().enumerate() {
        let mut read = svb_pod5::ReadInfo::new([k as u8 + 1; 16], *run);
        read.num_samples = signal.len() as u64;
        w.add_read(&read, &signal).unwrap();
    }
    w.finish().unwrap();
    let out = tmp.join("degraded.pod5");
    let e = fails(&svb(&["degrade", s(&input), "-o", s(&out)]));
    assert!(e.contains("02020202-0202-0202-0202-020202020202") && e.contains("2048"), "{e}");
    assert!(!out.exists());
    let run = svb(&["degrade", s(&input), "-o", s(&out), "--keep-going"]);
    // Written, with a read left out: exit 1, as every command that leaves reads out.
    assert_eq!(run.status.code(), Some(1));
    let said = String::from_utf8_lossy(&run.stderr);
    assert!(said.contains("left out") && said.contains("02020202-0202-0202-0202-020202020202"));
    let back = svb_pod5::Reader::open(&out).unwrap();
    assert_eq!(back.len(), 2);
    let mut rounded = signal.clone();
    svb_convert::round_low_bits(&mut rounded, 3);
    for i in 0..2 {
        assert_eq!(back.decode_signal(i).unwrap(), rounded);
    }
    assert_eq!(back.reads()[1].info.read_id, [3; 16]);
}
