//! An operation asked to stop (a user's Ctrl-C, through `Run::interrupted`) ends with
//! `ConvertError::Interrupted` after the window it is on, and publishes nothing.

use std::sync::atomic::{AtomicUsize, Ordering};

use std::path::Path;
use svb_convert::{convert, merge, Compression, ConvertError, Duplicates, Run};
use svb_model::Format;
use svb_testdata::TempDir;

#[svb_testdata::data_test]
fn an_interrupted_operation_publishes_nothing(data: &Path, tmp: &TempDir) {
    let pod5 = data.join("pod5/multi_fast5_zip.pod5");
    let asked = AtomicUsize::new(0);
    let stop = || {
        asked.fetch_add(1, Ordering::Relaxed);
        true
    };
    for to in [Format::Blow5, Format::Pod5] {
        let out = tmp.join(&format!("out.{}", to.extension()));
        let how = Run { interrupted: Some(&stop), ..Run::default() };
        let e = convert(
            std::slice::from_ref(&pod5),
            Format::Pod5,
            &out,
            to,
            Compression::default(),
            how,
        );
        assert!(matches!(e, Err(ConvertError::Interrupted)), "{e:?}");
        assert!(!out.exists());
    }
    let blow5 = data.join("blow5/reads_zstd_svb_zd.blow5");
    let out = tmp.join("merged.blow5");
    let how = Run { interrupted: Some(&stop), ..Run::default() };
    let rules = svb_convert::HeaderRules::default();
    let e = merge(&[blow5.clone(), blow5], &out, Duplicates::KeepFirst, rules, how);
    assert!(matches!(e, Err(ConvertError::Interrupted)), "{e:?}");
    assert!(asked.load(Ordering::Relaxed) >= 3);
    assert!(tmp.entries().is_empty(), "{:?}", tmp.entries());
}
