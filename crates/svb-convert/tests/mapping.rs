//! Every conversion carries each read's fields as the model's field map says
//! (`svb_model::ont::READ_FIELDS`): the value a reader of the output gives under the output
//! format's name is the value a reader of the input gave under the input's, missing values
//! included, and the signal and its picoamps are the input's.

use std::path::{Path, PathBuf};

use svb_convert::{convert, Compression, Run};
use svb_model::ont::READ_FIELDS;
use svb_model::{Format, Read, ReadSource, Value};
use svb_reads::AnyReader;
use svb_testdata::TempDir;

/// A value as a number, where it is one (text holding a number included).
fn number(v: &Value) -> Option<f64> {
    match v {
        Value::Int(i) => Some(*i as f64),
        Value::UInt(u) => Some(*u as f64),
        Value::Float(f) => Some(*f),
        Value::Text(t) => t.trim().parse().ok(),
        _ => None,
    }
}

/// The same value in two formats: equal numbers (compared as f32, the narrower type some
/// formats store), NaN for NaN, equal text, or missing in one and the other format's
/// unknown value in the other (ONT's writer's: 0, NaN, end reason `unknown`).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Text(x), Value::Text(y)) if x == y => true,
        (Value::None, Value::None) => true,
        (Value::None, v) | (v, Value::None) => {
            number(v).is_some_and(|x| x.is_nan() || x == 0.0)
                || matches!(v, Value::Text(t) if t == "unknown")
        }
        _ => match (number(a), number(b)) {
            (Some(x), Some(y)) => (x as f32 == y as f32) || (x.is_nan() && y.is_nan()),
            _ => false,
        },
    }
}

/// A row of the field map.
type Names = (Option<&'static str>, Option<&'static str>, Option<&'static str>);

/// The name a row of the field map gives a field of `format`.
fn column(format: Format) -> fn(&Names) -> Option<&'static str> {
    match format {
        Format::Pod5 => |f| f.0,
        Format::Blow5 | Format::Slow5 => |f| f.1,
        Format::Fast5 => |f| f.2,
    }
}

/// Checks every read of `output` against `input`'s by the field map; returns the fields
/// compared.
fn agree(input: &Path, output: &Path) -> usize {
    let a = AnyReader::open(input).unwrap();
    let b = AnyReader::open(output).unwrap();
    assert_eq!(a.len(), b.len(), "{}", output.display());
    let (from, to) = (column(a.format()), column(b.format()));
    let mut compared = 0;
    for i in 0..a.len() {
        let ra: Read = a.read(i).unwrap();
        let j = b.find(&ra.read_id).unwrap().expect("every read converted");
        let rb: Read = b.read(j).unwrap();
        assert_eq!(ra.signal, rb.signal, "{}", ra.read_id);
        for (x, y) in ra.signal_pa().iter().zip(rb.signal_pa()).step_by(97) {
            assert!((x - y).abs() <= 1e-3 * x.abs().max(1.0), "{}: {x} pA -> {y} pA", ra.read_id);
        }
        for f in &READ_FIELDS {
            let (Some(na), Some(nb)) = (from(f), to(f)) else {
                continue;
            };
            // A field a file's writer did not declare (a BLOW5 file's auxiliary fields are
            // its own) is missing there.
            let (va, vb) =
                (ra.field(na).unwrap_or(&Value::None), rb.field(nb).unwrap_or(&Value::None));
            if matches!((va, vb), (Value::None, Value::None)) {
                continue;
            }
            assert!(
                same(va, vb),
                "{} -> {}, read {}: {na} {va:?} became {nb} {vb:?}",
                input.display(),
                output.display(),
                ra.read_id
            );
            compared += 1;
        }
    }
    compared
}

#[svb_testdata::data_test]
fn every_conversion_keeps_the_fields_the_model_maps(data: &Path, tmp: &TempDir) {
    let cases: [(&str, Format); 7] = [
        ("pod5/multi_fast5_zip.pod5", Format::Blow5),
        ("pod5/multi_fast5_zip_v0.pod5", Format::Slow5),
        ("pod5/multi_fast5_zip_v4.pod5", Format::Blow5),
        ("blow5/slow5tools/p2solo_ulk114_dna.blow5", Format::Pod5),
        ("blow5/reads_zstd_svb_zd.blow5", Format::Pod5),
        ("fast5/vbz_compression__multi_fast5_vbz.fast5", Format::Pod5),
        ("fast5/vbz_compression__multi_fast5_vbz.fast5", Format::Blow5),
    ];
    let mut total = 0;
    for (k, (input, to)) in cases.into_iter().enumerate() {
        let input: PathBuf = data.join(input);
        let from = svb_reads::detect(&input).unwrap();
        let out = tmp.join(&format!("{k}.{}", to.extension()));
        let stats = convert(
            std::slice::from_ref(&input),
            from,
            &out,
            to,
            Compression::default(),
            Run::default(),
        )
        .unwrap();
        assert!(stats.reads > 0);
        let n = agree(&input, &out);
        assert!(n > 0, "{}: no field compared", input.display());
        total += n;
    }
    assert!(total > 100);
}
