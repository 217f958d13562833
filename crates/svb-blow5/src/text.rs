//! SLOW5: slow5lib's text form of the same header and records.
//!
//! ```text
//! #slow5_version\t0.2.0
//! #num_read_groups\t1
//! @run_id\t855cdb...            one @ line per attribute, a value per read group ("." unset)
//! #char*\tuint32_t\tdouble...   the types line, as in BLOW5
//! #read_id\tread_group\t...     the names line, as in BLOW5
//! read0\t0\t8192\t6\t1467.6\t4000\t3\t498,492,501\t...   one line per record
//! ```
//!
//! A record is one line of tab-separated fields in the names line's order: integers in
//! decimal (no sign on unsigned types, no leading zero), floating-point numbers in decimal
//! (digits, `.` and `-` only), the raw signal and other arrays as comma-separated items, an
//! enum as its label's index, `.` for a missing value (the type's null: its maximum for
//! integers, NaN for floating point, 0 for a char, an empty string or array). There is no
//! end marker: the file ends after the last record's newline.
//!
//! Read as strictly as slow5lib reads it, and stricter where slow5lib would take a prefix of a
//! field (`1.2.3`, `-`) or drop a character (a last line without its newline): those are
//! errors here. Written so that every value reads back to the same bits: floating-point
//! numbers in their shortest exact decimal form (slow5lib's `%f` keeps 6 decimals), and a
//! value the text cannot hold (a tab in a read id, an infinite range, a char `.`) refused.

use super::header::{self, AuxField, FieldType, Header, RecordCompression, SignalCompression};
use super::record::{int_null, scalar_value, uint_null, AuxValue, Record};
use svb_model::Form;

/// The first bytes of every SLOW5 file.
pub(crate) const SIGNATURE: &[u8] = b"#slow5_version";

/// The version this writer writes (the version slow5lib writes, the first with enums).
const VERSION: &str = "0.2.0";

/// The length of the header at the front of `head` (the file's first bytes): through the
/// newline of the `#read_id` names line; `None` when `head` ends before that line does.
pub(crate) fn header_len(head: &[u8]) -> Option<usize> {
    let mut at = 0;
    while at < head.len() {
        let end = at + memchr::memchr(b'\n', &head[at..])? + 1;
        if head[at..].starts_with(b"#read_id") {
            return Some(end);
        }
        at = end;
    }
    None
}

/// Parses a SLOW5 header (`bytes` are exactly the header, as [`header_len`] measured it).
pub(crate) fn parse_header(bytes: &[u8]) -> Result<Header, String> {
    let mut lines = bytes.splitn(3, |&b| b == b'\n');
    let mut field = |key: &str| -> Result<&[u8], String> {
        let line = lines.next().unwrap_or_default();
        line.strip_prefix(key.as_bytes())
            .and_then(|l| l.strip_prefix(b"\t"))
            .ok_or_else(|| {
                format!(
                    "expected a {key} line, found {:?}",
                    String::from_utf8_lossy(&line[..line.len().min(40)])
                )
            })
    };
    let version = field("#slow5_version")?;
    let parts: Vec<&[u8]> = version.split(|&b| b == b'.').collect();
    let bad_version = || {
        format!(
            "version {:?}: not MAJOR.MINOR.PATCH of numbers 0 to 255",
            String::from_utf8_lossy(version)
        )
    };
    let [major, minor, patch] = parts[..] else {
        return Err(bad_version());
    };
    let number = |p: &[u8]| uint(p, 8).map(|v| v as u8).map_err(|_| bad_version());
    let version = (number(major)?, number(minor)?, number(patch)?);
    if version > (1, 0, 0) {
        return Err(format!(
            "version {}.{}.{} is newer than the 1.0.0 slow5lib and svb read",
            version.0, version.1, version.2
        ));
    }
    let groups = field("#num_read_groups")?;
    let groups = uint(groups, 32).map_err(|w| format!("#num_read_groups: {w}"))? as usize;
    let rest = lines.next().unwrap_or_default();
    let (read_groups, aux) = header::schema(rest, groups)?;
    Ok(Header {
        form: Form::Text,
        version,
        record_compression: RecordCompression::None,
        signal_compression: SignalCompression::None,
        read_groups,
        aux,
        data_start: bytes.len(),
    })
}

/// The header slow5lib writes for `groups` read groups whose text header (attributes, types
/// and names lines) is `text`.
pub(crate) fn header_bytes(groups: usize, text: &str) -> Vec<u8> {
    format!("#slow5_version\t{VERSION}\n#num_read_groups\t{groups}\n{text}").into_bytes()
}

/// The tab-separated fields of a record line, each found by `memchr`.
struct Columns<'a> {
    line: &'a [u8],
    at: usize,
    done: bool,
}

impl<'a> Columns<'a> {
    fn next(&mut self, name: &str) -> Result<&'a [u8], String> {
        if self.done {
            return Err(format!("the line ends before field {name}"));
        }
        let rest = &self.line[self.at..];
        Ok(match memchr::memchr(b'\t', rest) {
            Some(n) => {
                self.at += n + 1;
                &rest[..n]
            }
            None => {
                self.done = true;
                rest
            }
        })
    }
}

/// Parses the record `line` (without its newline) of a file whose header is `header` into
/// `record`, its signal too when `signal` (left empty otherwise); returns the sample count.
pub(crate) fn parse_record(
    line: &[u8],
    header: &Header,
    signal: bool,
    record: &mut Record,
) -> Result<u64, String> {
    let mut cols = Columns {
        line,
        at: 0,
        done: false,
    };
    let id = cols.next("read_id")?;
    // An empty id is read, as slow5lib reads it (its test data has one).
    let id = std::str::from_utf8(id).map_err(|e| format!("read_id: {e}"))?;
    record.read_id.clear();
    record.read_id.push_str(id);
    let read_group = uint(cols.next("read_group")?, 32).map_err(|w| format!("read_group: {w}"))?;
    if read_group as usize >= header.read_groups.len() {
        return Err(format!(
            "read group {read_group}, the header declares {}",
            header.read_groups.len()
        ));
    }
    let mut f64s = [0f64; 4];
    for (v, name) in f64s
        .iter_mut()
        .zip(["digitisation", "offset", "range", "sampling_rate"])
    {
        *v = float(cols.next(name)?).map_err(|w| format!("{name}: {w}"))?;
    }
    let len = uint(cols.next("len_raw_signal")?, 64).map_err(|w| format!("len_raw_signal: {w}"))?;
    let samples = cols.next("raw_signal")?;
    record.raw_signal.clear();
    if signal {
        signal_into(samples, len, &mut record.raw_signal)?;
    } else {
        check_signal_len(samples, len)?;
    }
    let fields = &header.aux;
    record.aux.truncate(fields.len());
    for (i, field) in fields.iter().enumerate() {
        let value = cols
            .next(&field.name)
            .and_then(|tok| aux_value(&field.ty, tok))
            .map_err(|w| format!("field {}: {w}", field.name))?;
        record.set_aux(i, &field.name, value);
    }
    if !cols.done {
        return Err(format!(
            "{} fields, the header names {}",
            8 + fields.len() + line[cols.at..].split(|&b| b == b'\t').count(),
            8 + fields.len()
        ));
    }
    let [digitisation, offset, range, sampling_rate] = f64s;
    record.read_group = read_group as u32;
    record.digitisation = digitisation;
    record.offset = offset;
    record.range = range;
    record.sampling_rate = sampling_rate;
    Ok(len)
}

/// The read id of a record line: its first field (the only one parsed, as slow5lib's index
/// builder does).
pub(crate) fn read_id(line: &[u8]) -> Result<&str, String> {
    let id = &line[..memchr::memchr(b'\t', line).unwrap_or(line.len())];
    std::str::from_utf8(id).map_err(|e| format!("read_id: {e}"))
}

/// Where a record line's raw_signal field is: `(offset, length)` in the line.
pub(crate) fn signal_span(line: &[u8]) -> Result<(usize, usize), String> {
    let mut cols = Columns {
        line,
        at: 0,
        done: false,
    };
    for name in super::header::PRIMARY.iter().take(7) {
        cols.next(name)?;
    }
    let at = cols.at;
    Ok((at, cols.next("raw_signal")?.len()))
}

/// The most values a comma-separated field of `bytes` bytes can hold.
fn most_items(bytes: usize) -> u64 {
    (bytes as u64).div_ceil(2)
}

/// Checks that a raw_signal field can hold `len` samples (and is empty for none).
fn check_signal_len(tok: &[u8], len: u64) -> Result<(), String> {
    if len == 0 && !(tok.is_empty() || tok == b".") {
        return Err("raw_signal holds samples, len_raw_signal says 0".into());
    }
    if len > most_items(tok.len()) {
        return Err(format!(
            "len_raw_signal {len}: a raw_signal field of {} bytes holds fewer samples",
            tok.len()
        ));
    }
    Ok(())
}

/// Parses the comma-separated samples of a raw_signal field that must hold `len` of them,
/// appending them to `out` (capacity reserved once: `len` is first checked against the
/// field's bytes).
fn signal_into(tok: &[u8], len: u64, out: &mut Vec<i16>) -> Result<(), String> {
    check_signal_len(tok, len)?;
    if len == 0 {
        return Ok(());
    }
    let len = len as usize;
    out.reserve(len);
    let mut i = 0usize;
    loop {
        let start = i;
        let negative = tok.get(i) == Some(&b'-');
        i += negative as usize;
        let digits = i;
        let mut v: u32 = 0;
        while let Some(&b) = tok.get(i) {
            let d = b.wrapping_sub(b'0');
            if d > 9 {
                break;
            }
            v = v * 10 + d as u32;
            if v > 32768 {
                return Err(bad_sample(tok, out.len(), start));
            }
            i += 1;
        }
        let n = i - digits;
        let leading_zero = n > 1 && tok[digits] == b'0' && !negative;
        let value = if negative { -(v as i32) } else { v as i32 };
        if n == 0 || leading_zero || value > i16::MAX as i32 {
            return Err(bad_sample(tok, out.len(), start));
        }
        if out.len() == len {
            return Err(format!(
                "raw_signal holds more than len_raw_signal {len} samples"
            ));
        }
        out.push(value as i16);
        match tok.get(i) {
            None => break,
            Some(b',') => i += 1,
            Some(_) => return Err(bad_sample(tok, out.len() - 1, start)),
        }
    }
    if out.len() != len {
        return Err(format!(
            "raw_signal holds {} samples, len_raw_signal says {len}",
            out.len()
        ));
    }
    Ok(())
}

fn bad_sample(tok: &[u8], index: usize, at: usize) -> String {
    let end = tok[at..]
        .iter()
        .position(|&b| b == b',')
        .map_or(tok.len(), |n| at + n)
        .min(at + 24);
    format!(
        "raw_signal sample {index}: {:?} is not an int16_t",
        String::from_utf8_lossy(&tok[at..end])
    )
}

/// An unsigned integer of `bits` bits as slow5lib writes one: digits only, no leading zero.
fn uint(tok: &[u8], bits: u32) -> Result<u64, String> {
    let shown = || String::from_utf8_lossy(tok).into_owned();
    let digits = !tok.is_empty() && tok.iter().all(u8::is_ascii_digit);
    if !digits || (tok.len() > 1 && tok[0] == b'0') {
        return Err(format!("{:?} is not an unsigned integer", shown()));
    }
    std::str::from_utf8(tok)
        .ok()
        .and_then(|t| t.parse::<u64>().ok())
        .filter(|&v| bits == 64 || v < 1u64 << bits)
        .ok_or_else(|| format!("{:?} does not fit uint{bits}_t", shown()))
}

/// A signed integer of `bits` bits: an optional `-`, then digits (no leading zero without a
/// sign, as slow5lib checks).
fn int(tok: &[u8], bits: u32) -> Result<i64, String> {
    let shown = || String::from_utf8_lossy(tok).into_owned();
    let body = tok.strip_prefix(b"-").unwrap_or(tok);
    let digits = !body.is_empty() && body.iter().all(u8::is_ascii_digit);
    if !digits || (tok.len() > 1 && tok[0] == b'0') {
        return Err(format!("{:?} is not an integer", shown()));
    }
    std::str::from_utf8(tok)
        .ok()
        .and_then(|t| t.parse::<i64>().ok())
        .filter(|&v| bits == 64 || (v >= -(1i64 << (bits - 1)) && v < 1i64 << (bits - 1)))
        .ok_or_else(|| format!("{:?} does not fit int{bits}_t", shown()))
}

/// A floating-point number: digits, `.` and `-` only (what slow5lib accepts), and the whole
/// of it a number (`1.2.3` and `-` are errors, not 1.2 and 0); parsed straight to `T`, so the
/// value is the `T` nearest to the text.
fn number<T: std::str::FromStr>(tok: &[u8]) -> Result<T, String> {
    let ok = !tok.is_empty()
        && tok
            .iter()
            .all(|&b| b.is_ascii_digit() || b == b'.' || b == b'-');
    ok.then(|| std::str::from_utf8(tok).ok()?.parse::<T>().ok())
        .flatten()
        .ok_or_else(|| format!("{:?} is not a decimal number", String::from_utf8_lossy(tok)))
}

fn float(tok: &[u8]) -> Result<f64, String> {
    number(tok)
}

/// Bits of an integer type of `size` bytes.
fn bits(size: usize) -> u32 {
    8 * size as u32
}

/// One item of a scalar or array type named `name` (`size` bytes), `.` its null, as
/// little-endian bytes appended to `out`.
fn item_into(name: &str, size: usize, tok: &[u8], out: &mut Vec<u8>) -> Result<(), String> {
    let missing = tok == b".";
    match name {
        "char" => match tok {
            b"." => out.push(0),
            [c] => out.push(*c),
            _ => {
                return Err(format!(
                    "{:?} is not one char",
                    String::from_utf8_lossy(tok)
                ))
            }
        },
        "float" => {
            let v = if missing {
                f32::NAN
            } else {
                number::<f32>(tok)?
            };
            out.extend(v.to_le_bytes());
        }
        "double" => {
            let v = if missing { f64::NAN } else { float(tok)? };
            out.extend(v.to_le_bytes());
        }
        n if n.starts_with('u') => {
            let v = if missing {
                uint_null(size)
            } else {
                uint(tok, bits(size))?
            };
            out.extend(&v.to_le_bytes()[..size]);
        }
        _ => {
            let v = if missing {
                int_null(size)
            } else {
                int(tok, bits(size))?
            };
            out.extend(&v.to_le_bytes()[..size]);
        }
    }
    Ok(())
}

/// An auxiliary field's value from its text.
fn aux_value(ty: &FieldType, tok: &[u8]) -> Result<AuxValue, String> {
    let missing = tok == b".";
    Ok(match ty {
        FieldType::Enum(labels) => {
            let i = if missing {
                u8::MAX
            } else {
                uint(tok, 8)? as u8
            };
            AuxValue::Enum(i, labels.get(i as usize).cloned())
        }
        FieldType::Scalar { name, size } => {
            let mut b = Vec::with_capacity(8);
            item_into(name, *size, tok, &mut b)?;
            scalar_value(name, &b)
        }
        FieldType::Array { name, .. } if name == "char" => AuxValue::Text(if missing {
            String::new()
        } else {
            std::str::from_utf8(tok)
                .map_err(|e| format!("char*: {e}"))?
                .to_owned()
        }),
        FieldType::Array { name, size } => {
            let mut bytes = Vec::new();
            if !missing {
                bytes.reserve(most_items(tok.len()) as usize * size);
                for item in tok.split(|&b| b == b',') {
                    item_into(name, *size, item, &mut bytes)?;
                }
            }
            AuxValue::Array(bytes)
        }
    })
}

/// Appends `v` in decimal.
fn push_i16(out: &mut Vec<u8>, v: i16) {
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

/// Appends a finite floating-point number in its shortest exact decimal form (no exponent:
/// slow5lib reads digits, `.` and `-` only); NaN as `.` where `nan_missing`.
fn push_float(out: &mut Vec<u8>, v: f64, single: bool, what: &str) -> Result<(), String> {
    use std::io::Write;
    if v.is_nan() {
        out.push(b'.');
    } else if v.is_infinite() {
        return Err(format!(
            "{what} is {v}, which SLOW5 text cannot hold (slow5lib reads digits, '.' and '-')"
        ));
    } else if single {
        write!(out, "{}", v as f32).expect("writing to a Vec");
    } else {
        write!(out, "{v}").expect("writing to a Vec");
    }
    Ok(())
}

/// Appends a checked scalar value of a type named `name` (`size` bytes), its null as `.`.
fn push_value(
    out: &mut Vec<u8>,
    name: &str,
    size: usize,
    v: &AuxValue,
    what: &str,
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
        AuxValue::Float(f) if name == "float" => push_float(out, f as f32 as f64, true, what)?,
        AuxValue::Float(f) => push_float(out, f, false, what)?,
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
fn is_text_field(s: &str) -> bool {
    s != "." && !s.contains(['\t', '\n', '\r'])
}

/// Appends one record as a SLOW5 line (with its newline). The record was checked against the
/// schema and by [`check_record`]: nothing here fails.
pub(crate) fn record_line(r: &Record, aux: &[AuxField], out: &mut Vec<u8>) {
    out.reserve(64 + r.read_id.len() + 7 * r.raw_signal.len());
    fields_before_signal(r, out).expect("checked by check_record");
    if let Some((last, rest)) = r.raw_signal.split_last() {
        for &s in rest {
            push_i16(out, s);
            out.push(b',');
        }
        push_i16(out, *last);
    }
    fields_after_signal(r, aux, out).expect("checked by check_record");
    out.push(b'\n');
}

/// Whether SLOW5 text can hold every field of `r` (a record checked against the schema):
/// the error says which field cannot. The signal always can; it is not looked at.
pub(crate) fn check_record(r: &Record, aux: &[AuxField]) -> Result<(), String> {
    let mut scratch = Vec::new();
    fields_before_signal(r, &mut scratch)?;
    fields_after_signal(r, aux, &mut scratch)
}

/// The fields up to the raw signal's, with the tab before it.
fn fields_before_signal(r: &Record, out: &mut Vec<u8>) -> Result<(), String> {
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
        push_float(out, v, false, name)?;
    }
    write!(out, "\t{}\t", r.raw_signal.len()).expect("writing to a Vec");
    Ok(())
}

/// The auxiliary fields, each after its tab.
fn fields_after_signal(r: &Record, aux: &[AuxField], out: &mut Vec<u8>) -> Result<(), String> {
    for f in aux {
        out.push(b'\t');
        aux_text(&f.ty, r.checked_aux(&f.name), out)
            .map_err(|w| format!("field {}: {w}", f.name))?;
    }
    Ok(())
}

/// Appends a checked auxiliary value's text.
fn aux_text(ty: &FieldType, v: &AuxValue, out: &mut Vec<u8>) -> Result<(), String> {
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
            push_value(out, name, *size, v, "the value")?;
        }
        (FieldType::Array { .. }, AuxValue::Text(t)) => {
            if t.is_empty() {
                out.push(b'.');
            } else if !is_text_field(t) {
                return Err(format!(
                    "{t:?}: a tab, newline or a lone '.' cannot be a SLOW5 field"
                ));
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
                push_value(
                    out,
                    name,
                    *size,
                    &scalar_value(name, item),
                    &format!("item {i}"),
                )?;
            }
        }
        _ => unreachable!("checked against the field type"),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(aux: Vec<AuxField>) -> Header {
        Header {
            form: Form::Text,
            version: (0, 2, 0),
            record_compression: RecordCompression::None,
            signal_compression: SignalCompression::None,
            read_groups: vec![vec![]; 2],
            aux,
            data_start: 0,
        }
    }

    fn field(name: &str, ty: &str) -> AuxField {
        AuxField {
            name: name.into(),
            ty: FieldType::parse(ty).unwrap(),
        }
    }

    #[test]
    fn signal_parses_exactly_and_refuses_what_slow5lib_refuses() {
        let mut out = Vec::new();
        signal_into(b"1039,-588,0,32767,-32768,-0", 6, &mut out).unwrap();
        assert_eq!(out, [1039, -588, 0, 32767, -32768, 0]);
        for (tok, len, why) in [
            (&b"1,2"[..], 3, "len_raw_signal 3"),
            (b"1,2,3", 2, "more than len_raw_signal 2"),
            (b"1,,3,4", 3, "sample 1"),
            (b"1,02,3", 3, "sample 1: \"02\""),
            (b"1,32768", 2, "sample 1"),
            (b"-32769", 1, "sample 0"),
            (b"1,2a", 2, "sample 1"),
            (b"1,2,3,", 3, "sample 3"),
            (b"+1", 1, "sample 0"),
            (b"5", 0, "len_raw_signal says 0"),
            (b"1,2,3,4,5", u64::MAX, "holds fewer samples"),
        ] {
            let e = signal_into(tok, len, &mut Vec::new()).unwrap_err();
            assert!(e.contains(why), "{tok:?}: {e}");
        }
        signal_into(b"", 0, &mut out).unwrap();
        signal_into(b".", 0, &mut out).unwrap();
    }

    #[test]
    fn every_i16_prints_and_parses_back() {
        let all: Vec<i16> = (i16::MIN..=i16::MAX).collect();
        let mut text = Vec::new();
        for &v in &all {
            push_i16(&mut text, v);
            text.push(b',');
        }
        text.pop();
        let mut back = Vec::new();
        signal_into(&text, all.len() as u64, &mut back).unwrap();
        assert_eq!(back, all);
    }

    #[test]
    fn numbers_are_checked_as_slow5lib_checks_them_and_whole() {
        assert_eq!(uint(b"0", 8), Ok(0));
        assert_eq!(uint(b"255", 8), Ok(255));
        assert!(uint(b"256", 8).is_err());
        assert!(uint(b"01", 32).is_err());
        assert!(uint(b"-1", 32).is_err());
        assert!(uint(b"", 32).is_err());
        assert!(uint(b"18446744073709551616", 64).is_err());
        assert_eq!(int(b"-128", 8), Ok(-128));
        assert!(int(b"-129", 8).is_err());
        assert!(int(b"1-2", 32).is_err());
        assert_eq!(float(b"1467.6"), Ok(1467.6));
        assert_eq!(float(b"-0.5"), Ok(-0.5));
        for bad in [
            &b"1.2.3"[..],
            b"-",
            b".",
            b"1e5",
            b"inf",
            b"nan",
            b" 1",
            b"",
        ] {
            assert!(float(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn records_parse_with_every_aux_type_and_missing_values() {
        let h = header(vec![
            field("channel_number", "char*"),
            field("median_before", "double"),
            field("read_number", "int32_t"),
            field("start_mux", "uint8_t"),
            field("f", "float"),
            field("c", "char"),
            field("arr", "int16_t*"),
            field("end_reason", "enum{unknown,partial,mux_change}"),
        ]);
        let line = b"r1\t1\t8192\t6\t1467.6\t4000\t3\t498,-492,501\t504\t238.78\t-17\t4\t0.1\tx\t1,.,-3\t2";
        let mut r = Record::default();
        assert_eq!(parse_record(line, &h, true, &mut r), Ok(3));
        assert_eq!(
            (r.read_id.as_str(), r.read_group, r.range),
            ("r1", 1, 1467.6)
        );
        assert_eq!(r.raw_signal, [498, -492, 501]);
        let values: Vec<&AuxValue> = r.aux.iter().map(|(_, v)| v).collect();
        assert_eq!(
            values,
            [
                &AuxValue::Text("504".into()),
                &AuxValue::Float(238.78),
                &AuxValue::Int(-17),
                &AuxValue::UInt(4),
                &AuxValue::Float(0.1f32 as f64),
                &AuxValue::Char(b'x'),
                &AuxValue::Array(
                    [1i16, i16::MAX, -3]
                        .iter()
                        .flat_map(|v| v.to_le_bytes())
                        .collect()
                ),
                &AuxValue::Enum(2, Some("mux_change".into())),
            ]
        );
        let mut text = Vec::new();
        check_record(&r, &h.aux).unwrap();
        record_line(&r, &h.aux, &mut text);
        assert_eq!(text.strip_suffix(b"\n").unwrap(), line);

        let missing = b"r2\t0\t8192\t6\t1467.6\t4000\t0\t\t.\t.\t.\t.\t.\t.\t.\t.";
        assert_eq!(parse_record(missing, &h, true, &mut r), Ok(0));
        let values: Vec<&AuxValue> = r.aux.iter().map(|(_, v)| v).collect();
        assert_eq!(values[0], &AuxValue::Text(String::new()));
        assert!(matches!(values[1], AuxValue::Float(f) if f.is_nan()));
        assert_eq!(values[2], &AuxValue::Int(i32::MAX as i64));
        assert_eq!(values[3], &AuxValue::UInt(255));
        assert_eq!(values[5], &AuxValue::Char(0));
        assert_eq!(values[6], &AuxValue::Array(vec![]));
        assert_eq!(values[7], &AuxValue::Enum(255, None));
        text.clear();
        check_record(&r, &h.aux).unwrap();
        record_line(&r, &h.aux, &mut text);
        assert_eq!(text.strip_suffix(b"\n").unwrap(), missing);
    }

    #[test]
    fn malformed_records_say_which_field() {
        let h = header(vec![field("read_number", "int32_t")]);
        let mut r = Record::default();
        for (line, why) in [
            (
                &b"r1\t0\t8192\t6\t1467.6\t4000\t1\t5"[..],
                "before field read_number",
            ),
            (
                b"r1\t0\t8192\t6\t1467.6\t4000\t1\t5\t7\t8",
                "10 fields, the header names 9",
            ),
            (b"r1\t2\t8192\t6\t1467.6\t4000\t1\t5\t7", "read group 2"),
            (b"r1\t0\t8192\t6\t1467.6.1\t4000\t1\t5\t7", "range"),
            (
                b"r1\t0\t8192\t6\t1467.6\t4000\t1\t5\tx",
                "field read_number",
            ),
            (b"r1", "before field read_group"),
        ] {
            let e = parse_record(line, &h, true, &mut r).unwrap_err();
            assert!(e.contains(why), "{:?}: {e}", String::from_utf8_lossy(line));
        }
    }

    #[test]
    fn values_text_cannot_hold_are_refused_on_write() {
        let h = header(vec![field("c", "char"), field("s", "char*")]);
        let good = Record {
            read_id: "r".into(),
            raw_signal: vec![1],
            aux: vec![
                ("c".into(), AuxValue::Char(b'a')),
                ("s".into(), AuxValue::Text("x".into())),
            ],
            ..Record::default()
        };
        check_record(&good, &h.aux).unwrap();
        for (change, why) in [
            (
                Box::new(|r: &mut Record| r.read_id = "a\tb".into()) as Box<dyn Fn(&mut Record)>,
                "read id",
            ),
            (
                Box::new(|r: &mut Record| r.range = f64::INFINITY),
                "range is inf",
            ),
            (
                Box::new(|r: &mut Record| r.offset = f64::NAN),
                "offset is NaN",
            ),
            (
                Box::new(|r: &mut Record| r.aux[0].1 = AuxValue::Char(b'.')),
                "field c",
            ),
            (
                Box::new(|r: &mut Record| r.aux[1].1 = AuxValue::Text(".".into())),
                "field s",
            ),
        ] {
            let mut r = good.clone();
            change(&mut r);
            let e = check_record(&r, &h.aux).unwrap_err();
            assert!(e.contains(why), "{e}");
        }
    }

    #[test]
    fn floats_round_trip_through_their_shortest_text() {
        for v in [
            1467.607788085938f64,
            0.1,
            1e-300,
            1e300,
            -0.0,
            8192.0,
            f64::MIN_POSITIVE,
        ] {
            let mut out = Vec::new();
            push_float(&mut out, v, false, "v").unwrap();
            assert_eq!(float(&out).unwrap().to_bits(), v.to_bits(), "{v}");
        }
        for v in [0.1f32, 238.78226, f32::MAX, 1e-40] {
            let mut out = Vec::new();
            push_float(&mut out, v as f64, true, "v").unwrap();
            assert_eq!(number::<f32>(&out).unwrap(), v, "{v}");
        }
    }

    #[test]
    fn headers_parse_and_refuse_bad_first_lines() {
        let text = "#slow5_version\t0.2.0\n#num_read_groups\t2\n@run_id\ta\tb\n#char*\tuint32_t\tdouble\tdouble\tdouble\tdouble\tuint64_t\tint16_t*\n#read_id\tread_group\tdigitisation\toffset\trange\tsampling_rate\tlen_raw_signal\traw_signal\n";
        let bytes = format!("{text}r1\t0\t...");
        assert_eq!(header_len(bytes.as_bytes()), Some(text.len()));
        let h = parse_header(text.as_bytes()).unwrap();
        assert_eq!(h.version, (0, 2, 0));
        assert_eq!(h.attribute(1, "run_id"), Some("b"));
        for (bad, why) in [
            (text.replace("0.2.0", "0.2"), "version"),
            (text.replace("0.2.0", "1.0.1"), "newer"),
            (text.replace("0.2.0", "0.02.0"), "version"),
            (text.replace("\t2\n", "\t0\n"), "0 read groups"),
            (text.replace("\t2\n", "\t3\n"), "3 read groups"),
            (
                text.replace("#num_read_groups", "#num_groups"),
                "#num_read_groups",
            ),
        ] {
            let e = parse_header(bad.as_bytes()).unwrap_err();
            assert!(e.contains(why), "{e}");
        }
    }
}
