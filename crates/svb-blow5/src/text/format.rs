//! SLOW5 text written: the header and a record line, every value so that it reads back to
//! the same bits.

use crate::header::{AuxField, FieldType};
use crate::record::{int_null, scalar_value, uint_null, AuxValue, Record};

/// The header slow5lib writes for `groups` read groups whose text header (attributes, types
/// and names lines) is `text`, saying `version`.
pub(crate) fn header_bytes(version: (u8, u8, u8), groups: usize, text: &str) -> Vec<u8> {
    let (major, minor, patch) = version;
    format!("#slow5_version\t{major}.{minor}.{patch}\n#num_read_groups\t{groups}\n{text}")
        .into_bytes()
}

/// How SLOW5 text writes floating-point values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FloatText {
    /// The shortest decimal that reads back as the same bits (default): nothing is lost.
    #[default]
    Exact,
    /// As slow5lib writes them (`printf`'s `%f`, trailing zeros and a bare `.` dropped): six
    /// decimals, what slow5tools' outputs hold byte for byte; a value with more digits (a range
    /// of `scale x digitisation` from a POD5 read, an `f32` level) reads back rounded.
    Slow5lib,
}

/// Appends a finite floating-point number (no exponent: slow5lib reads digits, `.` and `-`
/// only) as `floats` says; NaN as `.`, slow5lib's missing value.
pub(super) fn push_float(
    out: &mut Vec<u8>, v: f64, single: bool, what: &str, floats: FloatText,
) -> Result<(), String> {
    use std::io::Write;
    if v.is_nan() {
        out.push(b'.');
    } else if v.is_infinite() {
        return Err(format!(
            "{what} is {v}, which SLOW5 text cannot hold (slow5lib reads digits, '.' and '-')"
        ));
    } else if floats == FloatText::Slow5lib {
        // slow5lib's slow5_double_to_str: `%f` (an f32 widened), then trailing zeros, and the
        // point when nothing is left after it, dropped; "-0" is "0".
        let text = format!("{v:.6}");
        let text = text.trim_end_matches('0').trim_end_matches('.');
        out.extend_from_slice(if text == "-0" { b"0" } else { text.as_bytes() });
    } else if single {
        write!(out, "{}", v as f32).expect("writing to a Vec");
    } else {
        write!(out, "{v}").expect("writing to a Vec");
    }
    Ok(())
}

/// Appends a checked scalar value of a type named `name` (`size` bytes), its null as `.`.
pub(super) fn push_value(
    out: &mut Vec<u8>, name: &str, size: usize, v: &AuxValue, what: &str, floats: FloatText,
) -> Result<(), String> {
    use std::io::Write;
    match *v {
        AuxValue::Char(0) => out.push(b'.'),
        AuxValue::Char(c @ (b'.' | b'\t' | b'\n' | b',')) => {
            return Err(format!(
                "{what}: the char {:?} cannot be told apart from SLOW5 text's separators or \
                 its missing-value mark",
                c as char
            ))
        }
        AuxValue::Char(c) => out.push(c),
        // A `float` field holds the value as an f32 (an f64 beyond its range is infinite).
        AuxValue::Float(f) if name == "float" => {
            push_float(out, f as f32 as f64, true, what, floats)?
        }
        AuxValue::Float(f) => push_float(out, f, false, what, floats)?,
        AuxValue::UInt(u) if u == uint_null(size) => out.push(b'.'),
        AuxValue::UInt(u) => write!(out, "{u}").expect("writing to a Vec"),
        AuxValue::Int(i) if i == int_null(size) => out.push(b'.'),
        AuxValue::Int(i) => write!(out, "{i}").expect("writing to a Vec"),
        _ => unreachable!("checked against the field type"),
    }
    Ok(())
}

/// Whether `s` can be a SLOW5 text field as is: no tab or newline, and not the `.` that
/// reads back as missing.
pub(super) fn is_text_field(s: &str) -> bool {
    s != "." && !s.contains(['\t', '\n', '\r'])
}

/// Appends one record as a SLOW5 line (with its newline). The record was checked against the
/// schema and by [`check_record`]: nothing here fails.
pub(crate) fn record_line(r: &Record, aux: &[AuxField], out: &mut Vec<u8>, floats: FloatText) {
    out.reserve(64 + r.read_id.len() + 7 * r.raw_signal.len());
    fields_before_signal(r, out, floats).expect("checked by check_record");
    if let Some((last, rest)) = r.raw_signal.split_last() {
        for &s in rest {
            push_i16(out, s);
            out.push(b',');
        }
        push_i16(out, *last);
    }
    fields_after_signal(r, aux, out, floats).expect("checked by check_record");
    out.push(b'\n');
}

/// Whether SLOW5 text can hold every field of `r` (a record checked against the schema):
/// the error says which field cannot. The signal always can; it is not looked at.
pub(crate) fn check_record(r: &Record, aux: &[AuxField]) -> Result<(), String> {
    let mut scratch = Vec::new();
    fields_before_signal(r, &mut scratch, FloatText::Exact)?;
    fields_after_signal(r, aux, &mut scratch, FloatText::Exact)
}

/// The fields up to the raw signal's, with the tab before it.
pub(super) fn fields_before_signal(
    r: &Record, out: &mut Vec<u8>, floats: FloatText,
) -> Result<(), String> {
    use std::io::Write;
    if !is_text_field(&r.read_id) {
        return Err(format!(
            "read id {:?}: a tab, newline or a lone '.' cannot be a SLOW5 field",
            r.read_id
        ));
    }
    out.extend_from_slice(r.read_id.as_bytes());
    write!(out, "\t{}", r.read_group).expect("writing to a Vec");
    for (v, name) in [
        (r.digitisation, "digitisation"),
        (r.offset, "offset"),
        (r.range, "range"),
        (r.sampling_rate, "sampling_rate"),
    ] {
        out.push(b'\t');
        if v.is_nan() {
            return Err(format!("{name} is NaN, which a primary field cannot hold"));
        }
        push_float(out, v, false, name, floats)?;
    }
    write!(out, "\t{}\t", r.raw_signal.len()).expect("writing to a Vec");
    Ok(())
}

/// The auxiliary fields, each after its tab.
pub(super) fn fields_after_signal(
    r: &Record, aux: &[AuxField], out: &mut Vec<u8>, floats: FloatText,
) -> Result<(), String> {
    for f in aux {
        out.push(b'\t');
        aux_text(&f.ty, r.checked_aux(&f.name), out, floats)
            .map_err(|w| format!("field {}: {w}", f.name))?;
    }
    Ok(())
}

/// Appends a checked auxiliary value's text.
pub(super) fn aux_text(
    ty: &FieldType, v: &AuxValue, out: &mut Vec<u8>, floats: FloatText,
) -> Result<(), String> {
    use std::io::Write;
    match (ty, v) {
        (FieldType::Enum(_), AuxValue::Enum(i, _)) => {
            if *i == u8::MAX {
                out.push(b'.');
            } else {
                write!(out, "{i}").expect("writing to a Vec");
            }
        }
        (FieldType::Scalar { name, size }, v) => {
            push_value(out, name, *size, v, "the value", floats)?;
        }
        (FieldType::Array { .. }, AuxValue::Text(t)) => {
            if t.is_empty() {
                out.push(b'.');
            } else if !is_text_field(t) {
                return Err(format!("{t:?}: a tab, newline or a lone '.' cannot be a SLOW5 field"));
            } else {
                out.extend_from_slice(t.as_bytes());
            }
        }
        (FieldType::Array { name, size }, AuxValue::Array(b)) => {
            if b.is_empty() {
                out.push(b'.');
            }
            for (i, item) in b.chunks_exact(*size).enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                let what = format!("item {i}");
                push_value(out, name, *size, &scalar_value(name, item), &what, floats)?;
            }
        }
        _ => unreachable!("checked against the field type"),
    }
    Ok(())
}

/// Appends `v` in decimal.
pub(super) fn push_i16(out: &mut Vec<u8>, v: i16) {
    let mut buf = [0u8; 6];
    let mut at = buf.len();
    let mut u = v.unsigned_abs();
    loop {
        at -= 1;
        buf[at] = b'0' + (u % 10) as u8;
        u /= 10;
        if u == 0 {
            break;
        }
    }
    if v < 0 {
        at -= 1;
        buf[at] = b'-';
    }
    out.extend_from_slice(&buf[at..]);
}

/// The names line of [`skim_line`]'s table, with its newline: the primary fields, then
/// `aux`'s names.
pub fn skim_names(aux: &[AuxField]) -> String {
    let mut line = String::from(
        "#read_id\tread_group\tdigitisation\toffset\trange\tsampling_rate\tlen_raw_signal\traw_signal",
    );
    for f in aux {
        line.push('\t');
        line.push_str(&f.name);
    }
    line.push('\n');
    line
}

/// Appends record `r` (of `samples` samples, its signal not looked at) as slow5tools skim
/// prints it, with its newline: the SLOW5 line with `.` for the signal, floating-point values
/// as slow5lib writes them (six decimals, trailing zeros dropped), an enum by its label, a
/// missing value `.`. slow5tools skim prints `.` for every field it has no printer for;
/// here each field is printed by its type. A value SLOW5 text cannot hold (an infinity, a
/// separator in a text) is written as it is.
///
/// ```
/// use svb_blow5::{AuxField, AuxValue, FieldType, Record};
/// let aux = [AuxField { name: "end_reason".into(), ty: FieldType::Enum(vec!["unknown".into(), "signal_positive".into()]) }];
/// let r = Record {
///     read_id: "r1".into(),
///     digitisation: 8192.0,
///     offset: 14.0,
///     range: 1402.8823,
///     sampling_rate: 4000.0,
///     aux: vec![("end_reason".into(), AuxValue::Enum(1, None))],
///     ..Record::default()
/// };
/// let mut line = Vec::new();
/// svb_blow5::skim_line(&r, 4365, &aux, &mut line);
/// assert_eq!(line, b"r1\t0\t8192\t14\t1402.8823\t4000\t4365\t.\tsignal_positive\n");
/// ```
pub fn skim_line(r: &Record, samples: u64, aux: &[AuxField], out: &mut Vec<u8>) {
    use std::io::Write;
    let floats = FloatText::Slow5lib;
    out.extend_from_slice(r.read_id.as_bytes());
    write!(out, "\t{}", r.read_group).expect("writing to a Vec");
    for v in [r.digitisation, r.offset, r.range, r.sampling_rate] {
        out.push(b'\t');
        if push_float(out, v, false, "", floats).is_err() {
            write!(out, "{v}").expect("writing to a Vec");
        }
    }
    write!(out, "\t{samples}\t.").expect("writing to a Vec");
    for f in aux {
        out.push(b'\t');
        let Some((_, v)) = r.aux.iter().find(|(n, _)| *n == f.name) else {
            out.push(b'.');
            continue;
        };
        match (&f.ty, v) {
            (_, AuxValue::Enum(u8::MAX, _)) => out.push(b'.'),
            (FieldType::Enum(labels), AuxValue::Enum(i, _)) => match labels.get(*i as usize) {
                Some(label) => out.extend_from_slice(label.as_bytes()),
                None => write!(out, "{i}").expect("writing to a Vec"),
            },
            (FieldType::Array { .. }, AuxValue::Text(t)) if t.is_empty() => out.push(b'.'),
            (FieldType::Array { .. }, AuxValue::Text(t)) => out.extend_from_slice(t.as_bytes()),
            (ty, v) => {
                let at = out.len();
                if aux_text(ty, v, out, floats).is_err() {
                    out.truncate(at);
                    write!(out, "{v:?}").expect("writing to a Vec");
                }
            }
        }
    }
    out.push(b'\n');
}
