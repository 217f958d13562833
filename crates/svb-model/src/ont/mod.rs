//! ONT's reads as the formats store them, defined once: a read's fields ([`ReadInfo`]) and its
//! run's ([`RunInfo`]), what every format's ONT reads map to and from; the end reasons (POD5's
//! enum, BLOW5's `end_reason` labels, FAST5's `end_reason` numbers less one), the auxiliary
//! fields ONT reads carry in BLOW5 files, read ids as text ([`uuid_string`], [`parse_uuid`])
//! and times as BLOW5 headers write them ([`format_utc_ms`], [`parse_utc_ms`]).

mod ont_read;
mod read_info;
mod run_info;
mod time;
mod uuid;

pub use ont_read::{OntRead, OntReadError, OntSource};
pub use read_info::{forced, ReadInfo};
pub use run_info::RunInfo;
pub use time::{format_utc_ms, parse_utc_ms};
pub use uuid::{parse_uuid, push_uuid, uuid_string};

/// A read or run that has no place in a format's file (a read id that is not a UUID where one
/// is needed, a channel that is not a number, a key that cannot be a BLOW5 attribute): what
/// it is and why, said by the format's mapping.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MappingError(pub String);

impl std::fmt::Display for MappingError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for MappingError {}

/// ONT's end reasons in the order of POD5's enum: the `end_reason` dictionary of every POD5
/// file and the labels of BLOW5's `end_reason` enum field (slow5 files written before the
/// last two existed hold the first 8).
pub const END_REASONS: [&str; 10] = [
    "unknown",
    "mux_change",
    "unblock_mux_change",
    "data_service_unblock_mux_change",
    "signal_positive",
    "signal_negative",
    "api_request",
    "device_data_error",
    "analysis_config_change",
    "paused",
];

/// The scalar auxiliary fields slow5tools and blue-crab write for ONT reads (name, C type,
/// bytes), in their order: `end_reason`'s place marked by type `enum` and `channel_number`'s
/// by `char*`.
pub const BLOW5_STANDARD_AUX: [(&str, &str, usize); 13] = [
    ("channel_number", "char*", 1),
    ("median_before", "double", 8),
    ("read_number", "int32_t", 4),
    ("start_mux", "uint8_t", 1),
    ("start_time", "uint64_t", 8),
    ("end_reason", "enum", 1),
    ("tracked_scaling_shift", "float", 4),
    ("tracked_scaling_scale", "float", 4),
    ("predicted_scaling_shift", "float", 4),
    ("predicted_scaling_scale", "float", 4),
    ("num_reads_since_mux_change", "uint32_t", 4),
    ("time_since_mux_change", "float", 4),
    ("num_minknow_events", "uint64_t", 8),
];

/// The auxiliary fields pyslow5 1.x and blue-crab write after [`BLOW5_STANDARD_AUX`] for
/// reads converted from POD5 (whose `end_reason` then has all of [`END_REASONS`] as labels).
pub const BLOW5_POD5_EXTRA_AUX: [(&str, &str, usize); 3] = [
    ("open_pore_level", "float", 4),
    ("expected_open_pore_level", "float", 4),
    ("selected_read_level", "float", 4),
];

/// ONT's per-read fields under each format's name, as the conversions map them (blue-crab's
/// POD5 <-> BLOW5, ONT's FAST5 -> POD5, slow5tools f2s's FAST5 -> BLOW5): `(POD5, BLOW5,
/// FAST5)`, each a name of that format's field list (`POD5_FIELDS`, a BLOW5 record's primary
/// or auxiliary fields, `FAST5_FIELDS`), `None` where the format has no such field. A value
/// keeps its meaning across the names (`start_sample` is samples in each; `channel` is text
/// in BLOW5 and FAST5), and a missing one its missing value (NaN, 0).
///
/// ```
/// use svb_model::ont::READ_FIELDS;
/// let mux = READ_FIELDS.iter().find(|f| f.0 == Some("mux")).unwrap();
/// assert_eq!(mux, &(Some("mux"), Some("start_mux"), Some("start_mux")));
/// ```
pub const READ_FIELDS: [(Option<&str>, Option<&str>, Option<&str>); 20] = [
    (Some("read_number"), Some("read_number"), Some("read_number")),
    (Some("channel"), Some("channel_number"), Some("channel_number")),
    (Some("mux"), Some("start_mux"), Some("start_mux")),
    (Some("end_reason"), Some("end_reason"), Some("end_reason")),
    (Some("start_sample"), Some("start_time"), Some("start_time")),
    (Some("num_samples"), Some("len_raw_signal"), Some("num_samples")),
    (Some("sample_rate"), Some("sampling_rate"), Some("sampling_rate")),
    (Some("median_before"), Some("median_before"), Some("median_before")),
    (Some("minknow_events"), Some("num_minknow_events"), None),
    (Some("predicted_scaling_scale"), Some("predicted_scaling_scale"), None),
    (Some("predicted_scaling_shift"), Some("predicted_scaling_shift"), None),
    (Some("tracked_scaling_scale"), Some("tracked_scaling_scale"), None),
    (Some("tracked_scaling_shift"), Some("tracked_scaling_shift"), None),
    (Some("num_reads_since_mux_change"), Some("num_reads_since_mux_change"), None),
    (Some("time_since_mux_change"), Some("time_since_mux_change"), None),
    (Some("open_pore_level"), Some("open_pore_level"), None),
    (Some("expected_open_pore_level"), Some("expected_open_pore_level"), None),
    (Some("selected_read_level"), Some("selected_read_level"), None),
    (Some("acquisition_id"), None, Some("run_id")),
    (Some("pore_type"), None, Some("pore_type")),
];
