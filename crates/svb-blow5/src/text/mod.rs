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
//!
//! Parsing is `parse.rs`'s, formatting `format.rs`'s.

mod format;
mod parse;

pub(crate) use format::{check_record, header_bytes, record_line};
pub use format::{skim_line, skim_names, FloatText};
pub(crate) use parse::{header_len, parse_header, parse_record, read_id, signal_span};

/// The first bytes of every SLOW5 file.
pub(crate) const SIGNATURE: &[u8] = b"#slow5_version";

#[cfg(test)]
mod tests {
    use super::format::*;
    use super::parse::*;
    use crate::header::{AuxField, FieldType, Header, RecordCompression, SignalCompression};
    use crate::record::{AuxValue, Record};
    use svb_model::Form;

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
        AuxField { name: name.into(), ty: FieldType::parse(ty).unwrap() }
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
        for bad in [&b"1.2.3"[..], b"-", b".", b"1e5", b"inf", b"nan", b" 1", b""] {
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
        assert_eq!((r.read_id.as_str(), r.read_group, r.range), ("r1", 1, 1467.6));
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
                    [1i16, i16::MAX, -3].iter().flat_map(|v| v.to_le_bytes()).collect()
                ),
                &AuxValue::Enum(2, Some("mux_change".into())),
            ]
        );
        let mut text = Vec::new();
        check_record(&r, &h.aux).unwrap();
        record_line(&r, &h.aux, &mut text, FloatText::Exact);
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
        record_line(&r, &h.aux, &mut text, FloatText::Exact);
        assert_eq!(text.strip_suffix(b"\n").unwrap(), missing);
    }

    #[test]
    fn malformed_records_say_which_field() {
        let h = header(vec![field("read_number", "int32_t")]);
        let mut r = Record::default();
        for (line, why) in [
            (&b"r1\t0\t8192\t6\t1467.6\t4000\t1\t5"[..], "before field read_number"),
            (b"r1\t0\t8192\t6\t1467.6\t4000\t1\t5\t7\t8", "10 fields, the header names 9"),
            (b"r1\t2\t8192\t6\t1467.6\t4000\t1\t5\t7", "read group 2"),
            (b"r1\t0\t8192\t6\t1467.6.1\t4000\t1\t5\t7", "range"),
            (b"r1\t0\t8192\t6\t1467.6\t4000\t1\t5\tx", "field read_number"),
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
            aux: vec![("c".into(), AuxValue::Char(b'a')), ("s".into(), AuxValue::Text("x".into()))],
            ..Record::default()
        };
        check_record(&good, &h.aux).unwrap();
        for (change, why) in [
            (
                Box::new(|r: &mut Record| r.read_id = "a\tb".into()) as Box<dyn Fn(&mut Record)>,
                "read id",
            ),
            (Box::new(|r: &mut Record| r.range = f64::INFINITY), "range is inf"),
            (Box::new(|r: &mut Record| r.offset = f64::NAN), "offset is NaN"),
            (Box::new(|r: &mut Record| r.aux[0].1 = AuxValue::Char(b'.')), "field c"),
            (Box::new(|r: &mut Record| r.aux[1].1 = AuxValue::Text(".".into())), "field s"),
        ] {
            let mut r = good.clone();
            change(&mut r);
            let e = check_record(&r, &h.aux).unwrap_err();
            assert!(e.contains(why), "{e}");
        }
    }

    #[test]
    fn floats_round_trip_through_their_shortest_text() {
        for v in [1467.607788085938f64, 0.1, 1e-300, 1e300, -0.0, 8192.0, f64::MIN_POSITIVE] {
            let mut out = Vec::new();
            push_float(&mut out, v, false, "v", FloatText::Exact).unwrap();
            assert_eq!(float(&out).unwrap().to_bits(), v.to_bits(), "{v}");
        }
        for v in [0.1f32, 238.78226, f32::MAX, 1e-40] {
            let mut out = Vec::new();
            push_float(&mut out, v as f64, true, "v", FloatText::Exact).unwrap();
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
            (text.replace("#num_read_groups", "#num_groups"), "#num_read_groups"),
        ] {
            let e = parse_header(bad.as_bytes()).unwrap_err();
            assert!(e.contains(why), "{e}");
        }
    }
}
