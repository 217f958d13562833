//! Values as Python prints them (`repr` of a float, a str and a dict of str): what the output
//! of ONT's `pod5` tool holds, written byte for byte where a command prints what it prints.

use std::fmt::Write;

/// `repr(x)` of a Python float: the shortest digits that read back as `x`, in fixed notation
/// from 1e-4 to 1e16 (a whole number with `.0`), else as `d.ddde+XX`; `nan`, `inf`: 190.0 is
/// `190.0`, 0.1f32 `0.10000000149011612`, 1e16 `1e+16`, 0.00001 `1e-05` (the tests below).
pub fn py_float(x: f64) -> String {
    if x.is_nan() {
        return "nan".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf" } else { "-inf" }.into();
    }
    if x == 0.0 {
        return if x.is_sign_negative() { "-0.0" } else { "0.0" }.into();
    }
    // Rust's `{:e}` gives the fewest digits that read back as `x`; where two strings of that
    // many digits do (a tie), Python's is the one correctly rounded, what `{:.N$e}` writes.
    let shortest = format!("{x:e}");
    let digits = shortest.split('e').next().expect("a mantissa").bytes().filter(u8::is_ascii_digit);
    let text = format!("{x:.*e}", digits.count() - 1);
    let (mantissa, exp) = text.split_once('e').expect("`{:e}` has an exponent");
    let exp: i32 = exp.parse().expect("a decimal exponent");
    let (sign, mantissa) = mantissa.strip_prefix('-').map_or(("", mantissa), |m| ("-", m));
    let digits: String = mantissa.chars().filter(|&c| c != '.').collect();
    if (-4..16).contains(&exp) {
        if exp >= 0 {
            let whole = exp as usize + 1;
            if digits.len() <= whole {
                format!("{sign}{digits}{}.0", "0".repeat(whole - digits.len()))
            } else {
                format!("{sign}{}.{}", &digits[..whole], &digits[whole..])
            }
        } else {
            format!("{sign}0.{}{digits}", "0".repeat((-exp - 1) as usize))
        }
    } else {
        let m = match digits.len() {
            1 => digits,
            _ => format!("{}.{}", &digits[..1], &digits[1..]),
        };
        format!("{sign}{m}e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs())
    }
}

/// `repr(s)` of a Python str: single quotes (double where `s` holds a single quote and no
/// double one), backslashes, the quote and control characters escaped.
pub fn py_str(s: &str) -> String {
    let quote = if s.contains('\'') && !s.contains('"') { '"' } else { '\'' };
    let mut out = String::with_capacity(s.len() + 2);
    out.push(quote);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == quote => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => {
                let n = u32::from(c);
                let _ = match n {
                    0..=0xff => write!(out, "\\x{n:02x}"),
                    0x100..=0xffff => write!(out, "\\u{n:04x}"),
                    _ => write!(out, "\\U{n:08x}"),
                };
            }
            c => out.push(c),
        }
    }
    out.push(quote);
    out
}

/// `repr(dict(pairs))` of str keys and values: `{'k': 'v', ...}`; a key given twice keeps its
/// first place and takes its last value, as a dict built from the pairs does.
pub fn py_dict(pairs: &[(String, String)]) -> String {
    let mut kept: Vec<(&str, &str)> = Vec::with_capacity(pairs.len());
    for (k, v) in pairs {
        match kept.iter_mut().find(|(key, _)| key == k) {
            Some(slot) => slot.1 = v,
            None => kept.push((k, v)),
        }
    }
    let items: Vec<String> =
        kept.iter().map(|(k, v)| format!("{}: {}", py_str(k), py_str(v))).collect();
    format!("{{{}}}", items.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_as_python_writes_them() {
        for (x, want) in [
            (190.0, "190.0"),
            (f64::from(0.146_587_5f32), "0.14658750593662262"),
            (f64::from(0.1f32), "0.10000000149011612"),
            // A tie between two shortest strings: Python's is the one correctly rounded.
            (f64::from(219.046_42_f32), "219.04641723632812"),
            (-243.0, "-243.0"),
            (1e16, "1e+16"),
            (1.5e16, "1.5e+16"),
            (123_456_789_012_345.6, "123456789012345.6"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (-2.5e-7, "-2.5e-07"),
            (1e300, "1e+300"),
            (f64::NAN, "nan"),
            (f64::INFINITY, "inf"),
            (-0.0, "-0.0"),
        ] {
            assert_eq!(py_float(x), want, "{x:e}");
        }
    }

    #[test]
    fn strs_and_dicts_as_python_writes_them() {
        assert_eq!(py_str("abc"), "'abc'");
        assert_eq!(py_str("it's"), "\"it's\"");
        assert_eq!(py_str("a'b\"c"), "'a\\'b\"c'");
        assert_eq!(py_str("tab\there\\ \u{1} é"), "'tab\\there\\\\ \\x01 é'");
        let pairs = [
            ("a".to_string(), "1".to_string()),
            ("b".into(), "2".into()),
            ("a".into(), "3".into()),
        ];
        assert_eq!(py_dict(&pairs), "{'a': '3', 'b': '2'}");
        assert_eq!(py_dict(&[]), "{}");
    }
}
