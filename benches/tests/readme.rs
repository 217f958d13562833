//! The README's Rust examples run as they are written, in a directory holding the files they
//! name (made from the conformance data), and the byte examples of docs/FORMATS.md checked
//! against the codecs: an example that no longer works, or no longer says what the code
//! does, fails here.

use std::path::Path;
use svb_testdata::TempDir;

/// What a README example's `main` returned: success, or the error it ended with.
trait Outcome {
    fn outcome(self) -> Result<(), String>;
}

impl Outcome for () {
    fn outcome(self) -> Result<(), String> {
        Ok(())
    }
}

impl<E: std::fmt::Debug> Outcome for Result<(), E> {
    fn outcome(self) -> Result<(), String> {
        self.map_err(|e| format!("{e:?}"))
    }
}

/// A README example's `main`, its outcome as a `Result`.
type Run = fn() -> Result<(), String>;

include!(concat!(env!("OUT_DIR"), "/readme_blocks.rs"));

#[svb_testdata::data_test]
fn readme_rust_examples_run(data: &Path, tmp: &TempDir) {
    svb_testdata::readme_files(data, &tmp.0);
    // The examples name files relative to where they run; this test is the only one of its
    // binary, so the working directory is its own.
    std::env::set_current_dir(&tmp.0).unwrap();
    assert!(BLOCKS.len() >= 10, "the README's Rust blocks were not found");
    for (name, main) in BLOCKS {
        // A block that panics is named too (its panic points into a generated copy).
        match std::panic::catch_unwind(main) {
            Ok(Ok(())) => {}
            Ok(Err(e)) => panic!("the README's example at {name} failed: {e}"),
            Err(_) => panic!("the README's example at {name} panicked (its message above)"),
        }
    }
    // What the writing examples wrote reads back.
    let copy = svb_pod5::Reader::open(Path::new("copy.pod5")).unwrap();
    assert_eq!(copy.len(), svb_pod5::Reader::open("reads.pod5").unwrap().len());
    let copy = svb_blow5::Reader::open("copy.blow5").unwrap();
    assert_eq!(copy.len(), svb_blow5::Reader::open("reads.blow5").unwrap().len());
    assert!(Path::new("run.arrow").is_file());
}

/// `bytes` as docs/FORMATS.md writes them: hex bytes, the parts of lengths `parts` (the rest
/// last) apart by ` | `.
fn hex(bytes: &[u8], parts: &[usize]) -> String {
    let mut out = Vec::new();
    let mut rest = bytes;
    for &n in parts {
        let (part, tail) = rest.split_at(n);
        out.push(part);
        rest = tail;
    }
    out.push(rest);
    let part = |p: &[u8]| p.iter().map(|b| format!("{b:02x}")).collect::<Vec<_>>().join(" ");
    out.iter().map(|p| part(p)).collect::<Vec<_>>().join(" | ")
}

#[test]
fn formats_examples_are_what_the_codecs_write() {
    use svb_core::{Codec, Svb16, U32Classic};
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/FORMATS.md");
    let text = std::fs::read_to_string(path).unwrap();
    // One line, as the examples wrap.
    let doc = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let says = |what: &str| assert!(doc.contains(what), "docs/FORMATS.md does not say {what}");

    let v: Vec<u32> = (0..8).map(|i| i * 100).collect();
    says(&format!("`{}`", hex(&U32Classic.encode(&v), &[2])));

    let signal = [10i16, 12, 11, 11, 13, 14, 15, 16, 300, -300];
    let zz = svb_testdata::zigzag_deltas(0, &signal);
    let zz16: Vec<u16> = zz.iter().map(|&z| z as u16).collect();
    says("`20,4,1,0,4,2,2,2,568,1199`");
    assert_eq!(zz16, [20, 4, 1, 0, 4, 2, 2, 2, 568, 1199]);
    says(&format!("`{}`", hex(&Svb16.encode(&zz16), &[2])));
    assert_eq!(svb_vbz::encode_vbz(&signal), Svb16.encode(&zz16));

    let vbz2 = svb_vbz::encode_vbz2(&(0..20).collect::<Vec<i16>>());
    says(&format!("header `{}`", hex(&vbz2[..6], &[2])));
    says(&format!("keys `{}`", hex(&vbz2[6..9], &[])));
    assert_eq!(vbz2[9..], [[0u8].as_slice(), &[2; 19]].concat());
    says("twenty data bytes `00 02 02 ... 02`");

    let fast5 = svb_vbz::hdf5_filter::Options {
        delta_zigzag: true,
        integer_size: 1,
        zstd_level: 0,
        version: 1,
    };
    let packed = svb_vbz::hdf5_filter::compress(&[0x00, 0x01, 0xff, 0x14], &fast5).unwrap();
    says(&format!(
        "bytes `00 01 ff 14` with delta + zigzag give values `0, 2, 3, 42`, stream `{}`",
        hex(&packed, &[])
    ));

    says(&format!(
        "`10, 11, 9` -> zigzag `20, 2, 3` -> `{}`",
        hex(&svb_slow5_signal::encode_svbzd(&[10, 11, 9]), &[1])
    ));
    let far = svb_slow5_signal::encode_svbzd(&[-20000, 20000]);
    says(&format!("key `{}`, data `{}`", hex(&far[..1], &[]), hex(&far[1..], &[2])));

    let exzd = svb_slow5_signal::encode_exzd(&[16, 32, 48, 1040]);
    says(&format!("`{}`", hex(&exzd, &[1, 8, 1, 2, 4])));
}
