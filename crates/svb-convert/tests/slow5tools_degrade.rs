//! slow5tools' own degrade cases (`test/test_degrade.sh`: `test/data/raw/degrade` in,
//! `test/data/exp/degrade` expected): every output byte for byte as slow5tools degrade wrote
//! it (the bits given, or chosen from the header), and every file slow5tools refuses refused
//! with nothing written. Then the same files converted (`--records zlib`) are slow5tools'
//! bytes too, as zlib records are zlib's.

use std::path::{Path, PathBuf};

use svb_blow5::SignalCompression;
use svb_convert::{degrade, round_low_bits, Run};
use svb_testdata::TempDir;

fn dirs(repos: &Path) -> (PathBuf, PathBuf) {
    let data = repos.join("slow5tools/test/data");
    (data.join("raw/degrade"), data.join("exp/degrade"))
}

/// (input, bits, svb-zd signal, expected): test_degrade.sh's cases in its order.
const CASES: [(&str, Option<u8>, bool, &str); 12] = [
    ("example2.slow5", Some(1), false, "example2_b1.slow5"),
    ("example2.slow5", Some(4), false, "example2_b4.blow5"),
    ("minir10dna.blow5", None, false, "minir10dna_b3.blow5"),
    ("gridr10dna.blow5", None, false, "gridr10dna_b3.blow5"),
    ("promr10dna4khz.blow5", None, true, "promr10dna4khz_b3.blow5"),
    ("promr10dna5khz.blow5", None, false, "promr10dna5khz_b3.blow5"),
    ("promr10rna.blow5", None, false, "promr10rna_b3.blow5"),
    (
        "na12878_prom_merged_r9.4.1_chr22_read1.blow5",
        None,
        false,
        "na12878_prom_merged_r9.4.1_chr22_read1_b2.blow5",
    ),
    ("PRPN119035_read1.blow5", None, false, "PRPN119035_read1_b2.blow5"),
    ("p2solo_ulk114_dna.blow5", None, false, "p2solo_ulk114_dna_b3.blow5"),
    // The expected bits, given: the same bytes.
    ("minir10dna.blow5", Some(3), false, "minir10dna_b3.blow5"),
    ("PRPN119035_read1.blow5", Some(2), false, "PRPN119035_read1_b2.blow5"),
];

fn same_bytes(ours: &Path, theirs: &Path) {
    let (a, b) = (std::fs::read(ours).unwrap(), std::fs::read(theirs).unwrap());
    let first = a.iter().zip(&b).position(|(x, y)| x != y);
    assert!(
        a == b,
        "{} differs from slow5tools' {} ({} vs {} bytes, first difference at {first:?})",
        ours.display(),
        theirs.display(),
        a.len(),
        b.len()
    );
}

#[svb_testdata::data_test(slow5_repos)]
fn degrade_writes_slow5tools_bytes(repos: &Path, tmp: &TempDir) {
    let (raw, exp) = dirs(repos);
    for (k, (input, bits, svb_zd, expected)) in CASES.iter().enumerate() {
        let out = tmp.join(&format!("{k}_{expected}"));
        let signal = svb_zd.then_some(SignalCompression::SvbZd);
        let got = degrade(&raw.join(input), &out, *bits, None, signal, Run::default())
            .unwrap_or_else(|e| panic!("{input}: {}", svb_io::error_chain(&e)));
        let want_bits: u8 = expected.split("_b").last().unwrap()[..1].parse().unwrap();
        assert_eq!(got.bits, want_bits, "{input}");
        assert_eq!(got.dataset.is_some(), bits.is_none(), "{input}");
        same_bytes(&out, &exp.join(expected));
    }
}

#[svb_testdata::data_test(slow5_repos)]
fn degrade_refuses_what_slow5tools_refuses(repos: &Path, tmp: &TempDir) {
    let (raw, _) = dirs(repos);
    for (input, says) in [
        ("promr10dna_badhdr.slow5", "none of the datasets"),
        ("promr10dna_badhdr_sample_freq.slow5", "none of the datasets"),
        ("promr10dna_badhdr_sample_rate.slow5", "none of the datasets"),
        ("promr10dna_badhdr_sample_rate2.slow5", "none of the datasets"),
        ("promr10dna_badrec.slow5", "sampling rate 4000 are not DNA lsk114 5kHz PromethION's"),
    ] {
        let out = tmp.join(&format!("{input}.blow5"));
        let e = degrade(&raw.join(input), &out, None, None, None, Run::default()).unwrap_err();
        let said = svb_io::error_chain(&e);
        assert!(said.contains(says) && said.contains(input), "{input}: {said}");
        assert!(tmp.entries().is_empty(), "{input}: {:?}", tmp.entries());
    }
    // Bits out of range, and outputs degrade does not write.
    let input = raw.join("minir10dna.blow5");
    for (bits, out, says) in [
        (Some(0), "a.blow5", "1 to 16"),
        (Some(17), "a.blow5", "1 to 16"),
        (Some(2), "a.pod5", "BLOW5 or SLOW5"),
    ] {
        let e = degrade(&input, &tmp.join(out), bits, None, None, Run::default()).unwrap_err();
        assert!(svb_io::error_chain(&e).contains(says), "{e}");
    }
    let e = degrade(
        &input,
        &tmp.join("a.slow5"),
        Some(2),
        None,
        Some(SignalCompression::ExZd),
        Run::default(),
    )
    .unwrap_err();
    assert!(e.to_string().contains("no compression"), "{e}");
    assert!(tmp.entries().is_empty(), "{:?}", tmp.entries());
}

/// What degrade keeps: every field, and each sample rounded as slow5lib rounds it (read back
/// from the output, compared with the input's samples rounded here).
#[svb_testdata::data_test(slow5_repos)]
fn degraded_reads_are_the_inputs_rounded(repos: &Path, tmp: &TempDir) {
    let (raw, _) = dirs(repos);
    let input = raw.join("p2solo_ulk114_dna.blow5");
    let out = tmp.join("out.blow5");
    degrade(&input, &out, Some(5), None, None, Run::default()).unwrap();
    let (a, b) = (svb_blow5::Reader::open(&input).unwrap(), svb_blow5::Reader::open(&out).unwrap());
    assert_eq!(a.len(), b.len());
    for i in 0..a.len() {
        let (mut want, got) = (a.record(i).unwrap(), b.record(i).unwrap());
        round_low_bits(&mut want.raw_signal, 5);
        assert!(got.raw_signal.iter().all(|s| s % 32 == 0));
        assert_eq!(got, want);
    }
}

#[svb_testdata::data_test(slow5_repos)]
fn zlib_records_are_slow5tools_bytes(repos: &Path, tmp: &TempDir) {
    let (raw, _) = dirs(repos);
    let mut compared = 0;
    for entry in std::fs::read_dir(&raw).unwrap() {
        let input = entry.unwrap().path();
        if input.extension().is_none_or(|e| e != "blow5") {
            continue;
        }
        // slow5tools wrote these with zlib records and SVB-ZD signal.
        let out = tmp.join("again.blow5");
        let _ = std::fs::remove_file(&out);
        let compression = svb_convert::Compression {
            records: Some(svb_blow5::RecordCompression::Zlib),
            signal: Some(SignalCompression::SvbZd),
            ..svb_convert::Compression::default()
        };
        let to = svb_model::Format::Blow5;
        let inputs = std::slice::from_ref(&input);
        svb_convert::convert(inputs, to, &out, to, compression, Run::default()).unwrap();
        same_bytes(&out, &input);
        compared += 1;
    }
    assert!(compared >= 8, "{compared} files compared");
}

/// POD5 into POD5: every sample rounded as BLOW5's are, every field and run kept; without
/// bits, a run of no known dataset is refused asking for them; POD5 into BLOW5 is refused.
#[svb_testdata::data_test]
fn pod5_degrades_into_pod5(data: &Path, tmp: &TempDir) {
    let input = data.join("pod5/multi_fast5_zip.pod5");
    let out = tmp.join("small.pod5");
    let got = svb_convert::degrade(&input, &out, Some(3), None, None, Run::default()).unwrap();
    assert_eq!((got.bits, got.dataset), (3, None));
    let (a, b) = (svb_pod5::Reader::open(&input).unwrap(), svb_pod5::Reader::open(&out).unwrap());
    assert_eq!(got.stats.reads as usize, a.len());
    assert_eq!(a.run_infos(), b.run_infos());
    for i in 0..a.len() {
        let mut want = a.decode_signal(i).unwrap();
        svb_convert::round_low_bits(&mut want, 3);
        assert_eq!(b.decode_signal(i).unwrap(), want);
        let mut x = a.reads()[i].clone();
        let y = b.reads()[i].clone();
        x.signal_rows = y.signal_rows.clone();
        // As printed: NaN fields are NaN on both sides.
        assert_eq!(format!("{x:?}"), format!("{y:?}"));
    }
    assert!(std::fs::metadata(&out).unwrap().len() < std::fs::metadata(&input).unwrap().len());
    let e = svb_convert::degrade(&input, &tmp.join("auto.pod5"), None, None, None, Run::default())
        .unwrap_err();
    assert!(svb_testdata::error_chain(&e).contains("--bits"), "{e}");
    let e = svb_convert::degrade(&input, &tmp.join("x.blow5"), Some(2), None, None, Run::default())
        .unwrap_err();
    assert!(e.to_string().contains("POD5 is degraded into a POD5"), "{e}");
    assert_eq!(tmp.entries(), ["small.pod5"]);
}
