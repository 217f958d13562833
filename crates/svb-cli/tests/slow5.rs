//! SLOW5 text through the `svb` command: converted to and from BLOW5 and POD5 (every field
//! kept), read by `view`, `get`, `verify`, `decode`, subset into `.slow5`; compression options
//! refused for a text output; POD5 repacked by `convert`.

mod common;
use common::{fails, ok, s, svb};
use std::path::Path;
use svb_testdata::TempDir;

#[svb_testdata::data_test]
fn slow5_is_an_input_and_an_output_everywhere(data: &Path, tmp: &TempDir) {
    let src = data.join("blow5/slow5tools/example_multi_rg_v0.2.0_zstd_svb-zd.blow5");
    let text = tmp.join("reads.slow5");
    let back = tmp.join("back.blow5");
    ok(&svb(&["convert", s(&src), "-o", s(&text)]));
    assert!(std::fs::read(&text).unwrap().starts_with(b"#slow5_version\t"));
    ok(&svb(&["convert", s(&text), "-o", s(&back), "--records", "zstd", "--signal", "svb-zd"]));
    // Every record and field as in the source (what the writer's tests check byte for byte).
    let a = svb_blow5::Reader::open(&src).unwrap();
    let b = svb_blow5::Reader::open(&back).unwrap();
    let (ra, rb): (Vec<_>, Vec<_>) =
        (a.records().map(Result::unwrap).collect(), b.records().map(Result::unwrap).collect());
    assert_eq!(format!("{ra:?}"), format!("{rb:?}"));
    assert_eq!(a.header().read_groups, b.header().read_groups);

    // The file commands read it as they read BLOW5, `svb slow5` too.
    let info = ok(&svb(&["slow5", "info", s(&text)]));
    assert!(info.contains("format: SLOW5 (text)"), "{info}");
    assert!(ok(&svb(&["blow5", "info", "--json", s(&text)])).contains("\"format\":\"slow5\""));
    let verify_text = ok(&svb(&["blow5", "verify", s(&text)]));
    let verify_bin = ok(&svb(&["blow5", "verify", s(&src)]));
    assert_eq!(verify_text, verify_bin);
    let view_text =
        ok(&svb(&["view", s(&text), "--fields", "read_id,len_raw_signal,median_before"]));
    let view_bin = ok(&svb(&["view", s(&src), "--fields", "read_id,len_raw_signal,median_before"]));
    assert_eq!(view_text, view_bin);
    let id = &ra[3].read_id;
    let got = svb(&["get", s(&text), id]);
    ok(&got);
    let samples: Vec<i16> =
        got.stdout.chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]])).collect();
    assert_eq!(samples, ra[3].raw_signal);
    ok(&svb(&["decode", s(&text), "-o", s(&tmp.join("t.arrow"))]));

    // Subset into text, and from text into BLOW5.
    let ids = tmp.join("ids.txt");
    std::fs::write(&ids, format!("{}\n{}\n", ra[0].read_id, ra[4].read_id)).unwrap();
    let picked = tmp.join("picked.slow5");
    ok(&svb(&["subset", s(&src), "--read-ids", s(&ids), "-o", s(&picked)]));
    let p = svb_blow5::Reader::open(&picked).unwrap();
    assert_eq!(p.header().form, svb_model::Form::Text);
    assert_eq!(p.len(), 2);
    assert_eq!(p.record(1).unwrap().raw_signal, ra[4].raw_signal);
    let picked_bin = tmp.join("picked.blow5");
    ok(&svb(&["subset", s(&text), "--read-ids", s(&ids), "-o", s(&picked_bin)]));
    assert_eq!(svb_blow5::Reader::open(&picked_bin).unwrap().len(), 2);

    // POD5 <-> SLOW5 with blue-crab's mapping, as for BLOW5.
    let pod5 = data.join("pod5/multi_fast5_zip.pod5");
    let (via_text, via_bin) = (tmp.join("p.slow5"), tmp.join("p.blow5"));
    ok(&svb(&["convert", s(&pod5), "-o", s(&via_text)]));
    ok(&svb(&["convert", s(&pod5), "-o", s(&via_bin)]));
    let (t, b) =
        (svb_blow5::Reader::open(&via_text).unwrap(), svb_blow5::Reader::open(&via_bin).unwrap());
    let rt: Vec<_> = t.records().map(Result::unwrap).collect();
    let rb: Vec<_> = b.records().map(Result::unwrap).collect();
    assert_eq!(format!("{rt:?}"), format!("{rb:?}"));
    let pod5_back = tmp.join("p.pod5");
    ok(&svb(&["convert", s(&via_text), "-o", s(&pod5_back)]));
    let verify = |f: &std::path::Path| ok(&svb(&["pod5", "verify", s(f)]));
    assert_eq!(verify(&pod5_back), verify(&pod5));
}

#[svb_testdata::data_test]
fn a_text_output_takes_no_compression_option(data: &Path, tmp: &TempDir) {
    let src = data.join("blow5/reads_zstd_svb_zd.blow5");
    for extra in [["--records", "zstd"], ["--signal", "ex-zd"]] {
        let out = tmp.join("x.slow5");
        let mut args = vec!["convert", s(&src), "-o", s(&out)];
        args.extend(extra);
        let e = fails(&svb(&args));
        assert!(e.contains("SLOW5 text has no compression"), "{e}");
        assert!(!out.exists());
    }
    // POD5 to POD5 repacks, with the decode-fast profile here: the same reads and samples.
    let pod5 = data.join("pod5/multi_fast5_zip.pod5");
    let repacked = tmp.join("y.pod5");
    ok(&svb(&["convert", s(&pod5), "-o", s(&repacked), "--decode-fast"]));
    let verify = |f: &std::path::Path| ok(&svb(&["pod5", "verify", s(f)]));
    assert_eq!(verify(&repacked), verify(&pod5));
    let fields = "read_id,channel,mux,read_number,start_sample,end_reason,median_before,run_id";
    let view = |f: &std::path::Path| ok(&svb(&["view", s(f), "--fields", fields]));
    assert_eq!(view(&repacked), view(&pod5));
    // Its chunks were compressed anew (raw literals: larger than lib_pod5's).
    let size = |f: &std::path::Path| std::fs::metadata(f).unwrap().len();
    assert!(size(&repacked) > size(&pod5), "{} {}", size(&repacked), size(&pod5));
}

/// `svb convert X.blow5 -o X.slow5` is slow5tools view's SLOW5 byte for byte on slow5tools' own
/// test pairs (a BLOW5 and the SLOW5 slow5tools wrote of it): the input's version kept (0.1.0
/// files give 0.1.0 text), every field as slow5lib writes it.
#[test]
#[ignore = "needs slow5lib's and slow5tools' test data (SVB_SLOW5_REPOS); run with --include-ignored"]
fn blow5_to_slow5_is_slow5tools_view_byte_for_byte() {
    let Some(repos) = svb_testdata::slow5_repos() else { return };
    let exp = repos.join("slow5tools/test/data/exp");
    let tmp = TempDir::new("slow5-view-bytes");
    let pairs = [
        "one_fast5/exp_1_lossless",
        "one_fast5/exp_1_lossy",
        "one_fast5/exp_1_lossless_v0.2.0",
        "one_fast5/exp_1_lossy_v0.2.0",
        "two_rg/exp_default",
        "aux_array/exp_lossless",
    ];
    for name in pairs {
        let (blow5, want) = (exp.join(format!("{name}.blow5")), exp.join(format!("{name}.slow5")));
        for floats in ["exact", "slow5lib"] {
            let out = tmp.join("out.slow5");
            let args = ["convert", s(&blow5), "-o", s(&out), "--force", "--text-floats", floats];
            ok(&svb(&args));
            assert!(
                std::fs::read(&out).unwrap() == std::fs::read(&want).unwrap(),
                "{name} ({floats})"
            );
        }
    }
}

/// `svb blow5 skim` and `svb blow5 info --stats` write what slow5tools skim and stats write,
/// byte for byte, on slow5tools' own cases (`test_skim.sh`, `test_stats.sh`: the file path as
/// given, from slow5tools' folder); a BLOW5 of a version slow5lib does not know is refused, as
/// slow5tools stats refuses it; `--rid` lists the read ids, `--hdr` the header; a POD5 has no
/// skim.
#[test]
#[ignore = "needs slow5lib's and slow5tools' test data (SVB_SLOW5_REPOS); run with --include-ignored"]
fn skim_and_stats_are_slow5tools_byte_for_byte() {
    let Some(repos) = svb_testdata::slow5_repos() else { return };
    let root = repos.join("slow5tools");
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_svb"))
            .args(args)
            .current_dir(&root)
            .output()
            .unwrap()
    };
    let exp = |p: &str| std::fs::read_to_string(root.join(p)).unwrap();
    for name in ["sp1_dna", "sequin_rna"] {
        let got = ok(&run(&["blow5", "skim", &format!("test/data/raw/skim/{name}.blow5")]));
        assert!(got == exp(&format!("test/data/exp/skim/{name}.exp")), "skim {name}");
    }
    for name in [
        "exp_1_lossless.slow5",
        "exp_1_lossy.blow5",
        "zlib_svb-zd_multi_rg_v0.2.0.blow5",
        "zlib_svb-zd_multi_rg_v1.0.0.blow5",
    ] {
        let got = ok(&run(&["blow5", "info", "--stats", &format!("test/data/raw/stats/{name}")]));
        let stem = name.rsplit_once('.').unwrap().0;
        assert_eq!(got, exp(&format!("test/data/exp/stats/{stem}.stdout")), "stats {name}");
    }
    let e = fails(&run(&[
        "blow5",
        "info",
        "--stats",
        "test/data/raw/stats/zlib_svb-zd_multi_rg_v1.1.0.blow5",
    ]));
    assert!(e.contains("version 1.1.0"), "{e}");
    // The read ids, and the header as SLOW5 text writes it.
    let file = "test/data/raw/skim/sp1_dna.blow5";
    let ids = ok(&run(&["blow5", "skim", "--rid", file]));
    let table = exp("test/data/exp/skim/sp1_dna.exp");
    let want: Vec<&str> = table.lines().skip(1).map(|l| l.split('\t').next().unwrap()).collect();
    assert_eq!(ids.lines().collect::<Vec<_>>(), want);
    let hdr = ok(&run(&["blow5", "skim", "--hdr", file]));
    assert!(hdr.starts_with("#slow5_version\t0.2.0\n#num_read_groups\t1\n@"), "{hdr}");
    assert!(hdr.lines().last().unwrap().starts_with("#read_id\tread_group"), "{hdr}");
    let tmp = TempDir::new("skim-pod5");
    ok(&svb(&["example", s(&tmp.join("ex"))]));
    let pod5 = fails(&svb(&["pod5", "skim", s(&tmp.join("ex/reads.pod5"))]));
    assert!(pod5.contains("BLOW5's and SLOW5's"), "{pod5}");
    let pod5 = fails(&svb(&["pod5", "info", "--stats", s(&tmp.join("ex/reads.pod5"))]));
    assert!(pod5.contains("BLOW5's and SLOW5's"), "{pod5}");
}
