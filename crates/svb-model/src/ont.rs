//! ONT's read fields as the formats store them, defined once: the end reasons (POD5's enum,
//! BLOW5's `end_reason` labels, FAST5's `end_reason` numbers less one) and the auxiliary
//! fields ONT reads carry in BLOW5 files.

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
