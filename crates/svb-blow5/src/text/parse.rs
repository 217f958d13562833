//! SLOW5 text parsed: the header, a record line, its id or its signal alone, as strictly as
//! slow5lib reads them.

use svb_model::Form;

use crate::header::{self, FieldType, Header, RecordCompression, SignalCompression};
use crate::record::{int_null, scalar_value, uint_null, AuxValue, Record};

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
        line.strip_prefix(key.as_bytes()).and_then(|l| l.strip_prefix(b"\t")).ok_or_else(|| {
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
    line: &[u8], header: &Header, signal: bool, record: &mut Record,
) -> Result<u64, String> {
    let mut cols = Columns { line, at: 0, done: false };
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
    for (v, name) in f64s.iter_mut().zip(["digitisation", "offset", "range", "sampling_rate"]) {
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
    let mut cols = Columns { line, at: 0, done: false };
    for name in crate::header::PRIMARY.iter().take(7) {
        cols.next(name)?;
    }
    let at = cols.at;
    Ok((at, cols.next("raw_signal")?.len()))
}

/// The most values a comma-separated field of `bytes` bytes can hold.
pub(super) fn most_items(bytes: usize) -> u64 {
    (bytes as u64).div_ceil(2)
}

/// Checks that a raw_signal field can hold `len` samples (and is empty for none).
pub(super) fn check_signal_len(tok: &[u8], len: u64) -> Result<(), String> {
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
pub(super) fn signal_into(tok: &[u8], len: u64, out: &mut Vec<i16>) -> Result<(), String> {
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
            return Err(format!("raw_signal holds more than len_raw_signal {len} samples"));
        }
        out.push(value as i16);
        match tok.get(i) {
            None => break,
            Some(b',') => i += 1,
            Some(_) => return Err(bad_sample(tok, out.len() - 1, start)),
        }
    }
    if out.len() != len {
        return Err(format!("raw_signal holds {} samples, len_raw_signal says {len}", out.len()));
    }
    Ok(())
}

pub(super) fn bad_sample(tok: &[u8], index: usize, at: usize) -> String {
    let end = tok[at..].iter().position(|&b| b == b',').map_or(tok.len(), |n| at + n).min(at + 24);
    format!(
        "raw_signal sample {index}: {:?} is not an int16_t",
        String::from_utf8_lossy(&tok[at..end])
    )
}

/// An unsigned integer of `bits` bits as slow5lib writes one: digits only, no leading zero.
pub(super) fn uint(tok: &[u8], bits: u32) -> Result<u64, String> {
    integer(tok, false, ("an unsigned integer", "uint", bits), |v: u64| {
        bits == 64 || v < 1u64 << bits
    })
}

/// A signed integer of `bits` bits: an optional `-`, then digits (no leading zero without a
/// sign, as slow5lib checks).
pub(super) fn int(tok: &[u8], bits: u32) -> Result<i64, String> {
    integer(tok, true, ("an integer", "int", bits), |v: i64| {
        bits == 64 || (v >= -(1i64 << (bits - 1)) && v < 1i64 << (bits - 1))
    })
}

/// `tok` as a `T`: a `-` where `signed` allows one, then digits, no leading zero (slow5lib's
/// rule), and a value for which `fits` holds; the errors name `what` (the kind of number,
/// and the C type's name and width).
fn integer<T: std::str::FromStr + Copy>(
    tok: &[u8], signed: bool, what: (&str, &str, u32), fits: impl Fn(T) -> bool,
) -> Result<T, String> {
    let shown = || String::from_utf8_lossy(tok).into_owned();
    let (kind, c_type, bits) = what;
    let body = if signed { tok.strip_prefix(b"-").unwrap_or(tok) } else { tok };
    let digits = !body.is_empty() && body.iter().all(u8::is_ascii_digit);
    if !digits || (tok.len() > 1 && tok[0] == b'0') {
        return Err(format!("{:?} is not {kind}", shown()));
    }
    std::str::from_utf8(tok)
        .ok()
        .and_then(|t| t.parse::<T>().ok())
        .filter(|&v| fits(v))
        .ok_or_else(|| format!("{:?} does not fit {c_type}{bits}_t", shown()))
}

/// A floating-point number: digits, `.` and `-` only (what slow5lib accepts), and the whole
/// of it a number (`1.2.3` and `-` are errors, not 1.2 and 0); parsed straight to `T`, so the
/// value is the `T` nearest to the text.
pub(super) fn number<T: std::str::FromStr>(tok: &[u8]) -> Result<T, String> {
    let ok = !tok.is_empty() && tok.iter().all(|&b| b.is_ascii_digit() || b == b'.' || b == b'-');
    ok.then(|| std::str::from_utf8(tok).ok()?.parse::<T>().ok())
        .flatten()
        .ok_or_else(|| format!("{:?} is not a decimal number", String::from_utf8_lossy(tok)))
}

pub(super) fn float(tok: &[u8]) -> Result<f64, String> {
    number(tok)
}

/// Bits of an integer type of `size` bytes.
pub(super) fn bits(size: usize) -> u32 {
    8 * size as u32
}

/// One item of a scalar or array type named `name` (`size` bytes), `.` its null, as
/// little-endian bytes appended to `out`.
pub(super) fn item_into(
    name: &str, size: usize, tok: &[u8], out: &mut Vec<u8>,
) -> Result<(), String> {
    let missing = tok == b".";
    match name {
        "char" => match tok {
            b"." => out.push(0),
            [c] => out.push(*c),
            _ => return Err(format!("{:?} is not one char", String::from_utf8_lossy(tok))),
        },
        "float" => {
            let v = if missing { f32::NAN } else { number::<f32>(tok)? };
            out.extend(v.to_le_bytes());
        }
        "double" => {
            let v = if missing { f64::NAN } else { float(tok)? };
            out.extend(v.to_le_bytes());
        }
        n if n.starts_with('u') => {
            let v = if missing { uint_null(size) } else { uint(tok, bits(size))? };
            out.extend(&v.to_le_bytes()[..size]);
        }
        _ => {
            let v = if missing { int_null(size) } else { int(tok, bits(size))? };
            out.extend(&v.to_le_bytes()[..size]);
        }
    }
    Ok(())
}

/// An auxiliary field's value from its text.
pub(super) fn aux_value(ty: &FieldType, tok: &[u8]) -> Result<AuxValue, String> {
    let missing = tok == b".";
    Ok(match ty {
        FieldType::Enum(labels) => {
            let i = if missing { u8::MAX } else { uint(tok, 8)? as u8 };
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
            std::str::from_utf8(tok).map_err(|e| format!("char*: {e}"))?.to_owned()
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
