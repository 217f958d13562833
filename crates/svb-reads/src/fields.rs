//! The named fields of each format, defined once: their names, in the order `svb view`
//! shows them, and their types. [`pod5_fields`](crate::pod5_fields) and
//! [`blow5_fields`](crate::blow5_fields) give a read's values in this order; svb-arrow makes
//! its columns from these lists.

/// A field's type, as the format stores it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldKind {
    /// A flag.
    Bool,
    /// An unsigned 8-bit integer.
    U8,
    /// An unsigned 16-bit integer.
    U16,
    /// An unsigned 32-bit integer.
    U32,
    /// An unsigned 64-bit integer.
    U64,
    /// A 32-bit float.
    F32,
    /// A 64-bit float.
    F64,
    /// Text.
    Text,
}

/// A POD5 read's fields: ONT's `pod5 view` columns in its order, then the calibration,
/// whether the end was forced, and the run's acquisition id. `read_id` and `filename` (the
/// file's name without its folder) come first, as in `pod5 view`; the others are a read's
/// [`fields`](crate::Read::fields).
pub const POD5_FIELDS: [(&str, FieldKind); 31] = [
    ("read_id", FieldKind::Text),
    ("filename", FieldKind::Text),
    ("read_number", FieldKind::U32),
    ("channel", FieldKind::U32),
    ("mux", FieldKind::U8),
    ("end_reason", FieldKind::Text),
    ("start_time", FieldKind::F64),
    ("start_sample", FieldKind::U64),
    ("duration", FieldKind::F64),
    ("num_samples", FieldKind::U64),
    ("minknow_events", FieldKind::U64),
    ("sample_rate", FieldKind::U16),
    ("median_before", FieldKind::F32),
    ("predicted_scaling_scale", FieldKind::F32),
    ("predicted_scaling_shift", FieldKind::F32),
    ("tracked_scaling_scale", FieldKind::F32),
    ("tracked_scaling_shift", FieldKind::F32),
    ("num_reads_since_mux_change", FieldKind::U32),
    ("time_since_mux_change", FieldKind::F32),
    ("run_id", FieldKind::Text),
    ("sample_id", FieldKind::Text),
    ("experiment_id", FieldKind::Text),
    ("flow_cell_id", FieldKind::Text),
    ("pore_type", FieldKind::Text),
    ("open_pore_level", FieldKind::F32),
    ("expected_open_pore_level", FieldKind::F32),
    ("selected_read_level", FieldKind::F32),
    ("calibration_offset", FieldKind::F32),
    ("calibration_scale", FieldKind::F32),
    ("end_reason_forced", FieldKind::Bool),
    ("acquisition_id", FieldKind::Text),
];

/// How many of [`POD5_FIELDS`] are `pod5 view`'s (what `svb view` shows by default).
pub const POD5_VIEW_FIELDS: usize = 27;

/// A BLOW5 record's primary fields (`filename` after the read id, as `svb view` shows them);
/// the auxiliary fields the file's header declares follow them.
pub const BLOW5_PRIMARY_FIELDS: [(&str, FieldKind); 8] = [
    ("read_id", FieldKind::Text),
    ("filename", FieldKind::Text),
    ("read_group", FieldKind::U32),
    ("digitisation", FieldKind::F64),
    ("offset", FieldKind::F64),
    ("range", FieldKind::F64),
    ("sampling_rate", FieldKind::F64),
    ("len_raw_signal", FieldKind::U64),
];

/// A FAST5 read's fields: the attributes converters map, under their FAST5 names (`Raw`'s,
/// then `channel_id`'s, then the run and the pore type of the read's group).
pub const FAST5_FIELDS: [(&str, FieldKind); 16] = [
    ("read_id", FieldKind::Text),
    ("filename", FieldKind::Text),
    ("read_number", FieldKind::U32),
    ("start_time", FieldKind::U64),
    ("duration", FieldKind::U64),
    ("start_mux", FieldKind::U8),
    ("median_before", FieldKind::F64),
    ("end_reason", FieldKind::Text),
    ("channel_number", FieldKind::Text),
    ("digitisation", FieldKind::F64),
    ("offset", FieldKind::F64),
    ("range", FieldKind::F64),
    ("sampling_rate", FieldKind::F64),
    ("run_id", FieldKind::Text),
    ("pore_type", FieldKind::Text),
    ("num_samples", FieldKind::U64),
];

/// The fields of [`POD5_FIELDS`] or [`BLOW5_PRIMARY_FIELDS`] a [`Read`](crate::Read) holds
/// in its `fields` (its id is its own member, the file name the file's).
pub(crate) fn per_read(
    list: &'static [(&'static str, FieldKind)],
) -> &'static [(&'static str, FieldKind)] {
    &list[2..]
}
