//! The named fields of each format, defined once: their names, in the order `svb view`
//! shows them, and their types. Each format crate's [`ReadSource::fields`](crate::ReadSource::fields)
//! gives a read's values in this order; svb-arrow makes its columns from these lists.

use std::sync::{Arc, LazyLock};

use crate::Format;

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

/// The fields of [`POD5_FIELDS`], [`BLOW5_PRIMARY_FIELDS`] or [`FAST5_FIELDS`] a
/// [`Read`](crate::Read) holds in its `fields` (its id is its own member, the file name the
/// file's).
///
/// ```
/// assert_eq!(svb_model::per_read(&svb_model::POD5_FIELDS)[0].0, "read_number");
/// ```
pub fn per_read(
    list: &'static [(&'static str, FieldKind)],
) -> &'static [(&'static str, FieldKind)] {
    &list[2..]
}

static POD5_NAMES: LazyLock<Vec<Arc<str>>> = LazyLock::new(|| names(per_read(&POD5_FIELDS)));
static BLOW5_PRIMARY_NAMES: LazyLock<Vec<Arc<str>>> =
    LazyLock::new(|| names(per_read(&BLOW5_PRIMARY_FIELDS)));
static FAST5_NAMES: LazyLock<Vec<Arc<str>>> = LazyLock::new(|| names(per_read(&FAST5_FIELDS)));

fn names(fields: &[(&str, FieldKind)]) -> Vec<Arc<str>> {
    fields.iter().map(|(name, _)| Arc::from(*name)).collect()
}

/// The fields of `format`'s reads (a BLOW5 or SLOW5 record's primary fields: its auxiliary
/// fields are the file's own).
///
/// ```
/// use svb_model::{fields_of, Format};
/// assert_eq!(fields_of(Format::Slow5).len(), 8);
/// ```
pub fn fields_of(format: Format) -> &'static [(&'static str, FieldKind)] {
    match format {
        Format::Pod5 => &POD5_FIELDS,
        Format::Blow5 | Format::Slow5 => &BLOW5_PRIMARY_FIELDS,
        Format::Fast5 => &FAST5_FIELDS,
    }
}

/// The names of the per-read fields of `format` (those [`per_read`] gives of
/// [`fields_of`]), made once: every read's [`Fields`](crate::Fields) shares them instead of
/// allocating a name for each field of each read.
///
/// ```
/// let names = svb_model::per_read_names(svb_model::Format::Fast5);
/// assert_eq!(&*names[0], "read_number");
/// ```
pub fn per_read_names(format: Format) -> &'static [Arc<str>] {
    match format {
        Format::Pod5 => &POD5_NAMES,
        Format::Blow5 | Format::Slow5 => &BLOW5_PRIMARY_NAMES,
        Format::Fast5 => &FAST5_NAMES,
    }
}
