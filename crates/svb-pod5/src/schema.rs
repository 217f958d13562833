//! The table schemas a POD5 file must have, checked as ONT's reader checks them: the footer's
//! `pod5_version` says which reads-table layout the writer used, and every column of that
//! layout must be present with its type. A missing or retyped column is an error naming the
//! table and the column, never a default value that looks like data (a missing
//! `calibration_offset` read as 0 would make every picoampere value wrong).

use arrow_schema::{DataType, Schema, TimeUnit};

/// A writer's pod5 version (`major.minor.patch`).
pub(crate) type Version = (u16, u16, u16);

/// Parses `a.b.c` as lib_pod5 does (three decimal components, nothing else).
pub(crate) fn parse_version(s: &str) -> Option<Version> {
    let mut parts = s.split('.').map(|p| {
        (!p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
            .then(|| p.parse::<u16>().ok())
            .flatten()
    });
    let v = (parts.next()??, parts.next()??, parts.next()??);
    parts.next().is_none().then_some(v)
}

/// The writer versions at which lib_pod5's reads table changed (its migrations): v1 added the
/// MinKNOW event count and scalings, v2 `num_samples`, v3 flattened the dictionaries of
/// structs into columns (and moved run infos into their own table), v4 `open_pore_level`.
const V1: Version = (0, 0, 24);
const V2: Version = (0, 0, 32);
const V3: Version = (0, 0, 38);
const V4: Version = (0, 3, 30);

/// Whether a file of writer version `v` keeps its run infos in a run-info table (v3 on).
pub(crate) fn has_run_info_table(v: Version) -> bool {
    v >= V3
}

/// A column's expected type.
#[derive(Clone, Copy)]
enum Ty {
    U8,
    U16,
    U32,
    U64,
    I16,
    F32,
    Bool,
    Utf8,
    /// 16-byte ids (`minknow.uuid`).
    Uuid,
    /// `list<uint64>`.
    ListU64,
    /// `dictionary<int16, utf8>`.
    DictText,
    /// `dictionary<int16, struct>` (table versions 0-2).
    DictStruct,
    /// `timestamp[ms]`.
    TimestampMs,
    /// `map<utf8, utf8>`.
    MapText,
}

impl Ty {
    fn matches(self, t: &DataType) -> bool {
        let dict = |t: &DataType, value: fn(&DataType) -> bool| matches!(t, DataType::Dictionary(k, v) if **k == DataType::Int16 && value(v));
        match self {
            Ty::U8 => *t == DataType::UInt8,
            Ty::U16 => *t == DataType::UInt16,
            Ty::U32 => *t == DataType::UInt32,
            Ty::U64 => *t == DataType::UInt64,
            Ty::I16 => *t == DataType::Int16,
            Ty::F32 => *t == DataType::Float32,
            Ty::Bool => *t == DataType::Boolean,
            Ty::Utf8 => *t == DataType::Utf8,
            Ty::Uuid => *t == DataType::FixedSizeBinary(16),
            Ty::ListU64 => matches!(t, DataType::List(f) if *f.data_type() == DataType::UInt64),
            Ty::DictText => dict(t, |v| *v == DataType::Utf8),
            Ty::DictStruct => dict(t, |v| matches!(v, DataType::Struct(_))),
            Ty::TimestampMs => matches!(t, DataType::Timestamp(TimeUnit::Millisecond, _)),
            Ty::MapText => matches!(t, DataType::Map(f, _) if matches!(
                f.data_type(),
                DataType::Struct(kv) if kv.len() == 2
                    && *kv[0].data_type() == DataType::Utf8
                    && *kv[1].data_type() == DataType::Utf8
            )),
        }
    }

    fn name(self) -> &'static str {
        match self {
            Ty::U8 => "uint8",
            Ty::U16 => "uint16",
            Ty::U32 => "uint32",
            Ty::U64 => "uint64",
            Ty::I16 => "int16",
            Ty::F32 => "float32",
            Ty::Bool => "bool",
            Ty::Utf8 => "utf8",
            Ty::Uuid => "fixed_size_binary(16) (minknow.uuid)",
            Ty::ListU64 => "list<uint64>",
            Ty::DictText => "dictionary<int16, utf8>",
            Ty::DictStruct => "dictionary<int16, struct>",
            Ty::TimestampMs => "timestamp[ms]",
            Ty::MapText => "map<utf8, utf8>",
        }
    }
}

/// The reads-table columns of lib_pod5, with the writer version that added each and, for
/// the dictionaries of structs, the one that removed it.
const READS: &[(&str, Ty, Version, Option<Version>)] = &[
    ("read_id", Ty::Uuid, (0, 0, 0), None),
    ("signal", Ty::ListU64, (0, 0, 0), None),
    ("read_number", Ty::U32, (0, 0, 0), None),
    ("start", Ty::U64, (0, 0, 0), None),
    ("median_before", Ty::F32, (0, 0, 0), None),
    ("pore", Ty::DictStruct, (0, 0, 0), Some(V3)),
    ("calibration", Ty::DictStruct, (0, 0, 0), Some(V3)),
    ("end_reason", Ty::DictStruct, (0, 0, 0), Some(V3)),
    ("run_info", Ty::DictStruct, (0, 0, 0), Some(V3)),
    ("num_minknow_events", Ty::U64, V1, None),
    ("tracked_scaling_scale", Ty::F32, V1, None),
    ("tracked_scaling_shift", Ty::F32, V1, None),
    ("predicted_scaling_scale", Ty::F32, V1, None),
    ("predicted_scaling_shift", Ty::F32, V1, None),
    ("num_reads_since_mux_change", Ty::U32, V1, None),
    ("time_since_mux_change", Ty::F32, V1, None),
    ("num_samples", Ty::U64, V2, None),
    ("channel", Ty::U16, V3, None),
    ("well", Ty::U8, V3, None),
    ("pore_type", Ty::DictText, V3, None),
    ("calibration_offset", Ty::F32, V3, None),
    ("calibration_scale", Ty::F32, V3, None),
    ("end_reason", Ty::DictText, V3, None),
    ("end_reason_forced", Ty::Bool, V3, None),
    ("run_info", Ty::DictText, V3, None),
    ("open_pore_level", Ty::F32, V4, None),
];

/// The run-info table's columns (one layout since the table exists).
const RUN_INFO: &[(&str, Ty)] = &[
    ("acquisition_id", Ty::Utf8),
    ("acquisition_start_time", Ty::TimestampMs),
    ("adc_max", Ty::I16),
    ("adc_min", Ty::I16),
    ("context_tags", Ty::MapText),
    ("experiment_name", Ty::Utf8),
    ("flow_cell_id", Ty::Utf8),
    ("flow_cell_product_code", Ty::Utf8),
    ("protocol_name", Ty::Utf8),
    ("protocol_run_id", Ty::Utf8),
    ("protocol_start_time", Ty::TimestampMs),
    ("sample_id", Ty::Utf8),
    ("sample_rate", Ty::U16),
    ("sequencing_kit", Ty::Utf8),
    ("sequencer_position", Ty::Utf8),
    ("sequencer_position_type", Ty::Utf8),
    ("software", Ty::Utf8),
    ("system_name", Ty::Utf8),
    ("system_type", Ty::Utf8),
    ("tracking_id", Ty::MapText),
];

fn check(schema: &Schema, name: &str, ty: Ty, why: impl Fn() -> String) -> Result<(), String> {
    match schema.column_with_name(name) {
        None => Err(format!("column {name} missing ({})", why())),
        Some((_, f)) if !ty.matches(f.data_type()) => {
            Err(format!("column {name} is {}, expected {}", f.data_type(), ty.name()))
        }
        Some(_) => Ok(()),
    }
}

fn version_text(v: Version) -> String {
    format!("{}.{}.{}", v.0, v.1, v.2)
}

/// Checks the reads table's schema against the layout of writer version `v`.
pub(crate) fn check_reads(schema: &Schema, v: Version) -> Result<(), String> {
    for &(name, ty, added, removed) in READS {
        if v < added || removed.is_some_and(|r| v >= r) {
            continue;
        }
        check(schema, name, ty, || {
            format!(
                "required in files of pod5 {} and later; this one says {}",
                version_text(added),
                version_text(v)
            )
        })?;
    }
    Ok(())
}

/// Checks the run-info table's schema.
pub(crate) fn check_run_info(schema: &Schema) -> Result<(), String> {
    for &(name, ty) in RUN_INFO {
        check(schema, name, ty, || "required in every run-info table".into())?;
    }
    Ok(())
}

/// Every reads-table column that the layout of writer version `v` requires (for tests and the
/// schema fuzz target).
pub fn required_reads_columns(v: &str) -> Option<Vec<&'static str>> {
    let v = parse_version(v)?;
    Some(
        READS
            .iter()
            .filter(|(_, _, added, removed)| v >= *added && removed.is_none_or(|r| v < r))
            .map(|(name, ..)| *name)
            .collect(),
    )
}

/// Every run-info column (for tests and the schema fuzz target).
pub fn required_run_info_columns() -> impl Iterator<Item = &'static str> {
    RUN_INFO.iter().map(|(name, _)| *name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_parse_as_lib_pod5_parses_them() {
        assert_eq!(parse_version("0.3.49"), Some((0, 3, 49)));
        assert_eq!(parse_version("1.0.0"), Some((1, 0, 0)));
        for bad in ["", "0.3", "0.3.49.1", "0.3.x", "0..1", "-1.0.0", "0.3.49 "] {
            assert_eq!(parse_version(bad), None, "{bad}");
        }
    }

    #[test]
    fn the_layout_follows_the_writer_version() {
        let v0 = required_reads_columns("0.0.20").unwrap();
        assert!(v0.contains(&"pore") && !v0.contains(&"num_samples"));
        let v3 = required_reads_columns("0.0.40").unwrap();
        assert!(!v3.contains(&"pore") && v3.contains(&"calibration_offset"));
        assert!(!v3.contains(&"open_pore_level"));
        let v4 = required_reads_columns("0.3.49").unwrap();
        assert!(v4.contains(&"open_pore_level") && v4.len() == v3.len() + 1);
    }
}
