//! Recovery writes its input's format under a name that says so: an output whose extension
//! names another format is refused before anything is read or written.

use svb_convert::{recover_blow5, recover_pod5, Run};
use svb_testdata::{data_dir, TempDir};

#[test]
#[ignore = "needs the shared test data (../shared/data or SVB_TEST_DATA); run with --include-ignored"]
fn a_recovery_is_written_in_its_inputs_format_only() {
    let Some(data) = data_dir() else {
        return;
    };
    let tmp = TempDir::new("recover-ext");
    let blow5 = data.join("blow5/reads_zstd_svb_zd.blow5");
    let pod5 = data.join("pod5/multi_fast5_zip.pod5");
    for out in ["saved.pod5", "saved.fast5", "saved.txt"] {
        let e = recover_blow5(&blow5, &tmp.join(out), Run::default()).unwrap_err();
        assert!(e.to_string().contains(out), "{e}");
    }
    let e = recover_blow5(&blow5, &tmp.join("saved.pod5"), Run::default()).unwrap_err();
    assert!(
        e.to_string()
            .contains("a BLOW5 file is recovered into its own format (.blow5"),
        "{e}"
    );
    for out in ["saved.blow5", "saved.slow5"] {
        let e = recover_pod5(&pod5, &tmp.join(out), Run::default()).unwrap_err();
        assert!(e.to_string().contains("a POD5 file is recovered"), "{e}");
    }
    assert!(tmp.entries().is_empty(), "{:?}", tmp.entries());
    // Each form of BLOW5 takes the other's name: the records are rewritten.
    let saved = recover_blow5(&blow5, &tmp.join("saved.slow5"), Run::default()).unwrap();
    assert!(saved.cut.is_none() && saved.stats.reads > 0);
    let text = svb_blow5::Reader::open(tmp.join("saved.slow5")).unwrap();
    assert_eq!(text.header().form, svb_model::Form::Text);
    assert_eq!(text.len() as u64, saved.stats.reads);
}
