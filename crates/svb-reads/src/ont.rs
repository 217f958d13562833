//! ONT's read fields as the formats store them: the end reasons (defined once, by POD5's
//! enum) and the auxiliary fields of ONT reads in BLOW5 files.

use svb_blow5::{AuxField, FieldType};

/// ONT's end reasons in the order of POD5's enum: the `end_reason` dictionary of every POD5
/// file and the labels of BLOW5's `end_reason` enum field (slow5 files written before the
/// last two existed hold the first 8).
pub use svb_pod5::END_REASONS;

/// The scalar auxiliary fields of converted ONT reads (name, C type, bytes), `end_reason`'s
/// place marked by type `enum` and `channel_number` by `char*`.
const STANDARD_AUX: [(&str, &str, usize); 13] = [
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

/// The auxiliary fields slow5tools and blue-crab write for ONT reads converted from POD5,
/// in their order and types (`end_reason` with blue-crab's labels, the first 8 end
/// reasons).
///
/// ```
/// let aux = svb_reads::ont::blow5_standard_aux();
/// assert_eq!(aux[0].name, "channel_number");
/// assert_eq!(aux.len(), 13);
/// ```
pub fn blow5_standard_aux() -> Vec<AuxField> {
    aux_fields(&END_REASONS[..8], &STANDARD_AUX)
}

/// The auxiliary fields pyslow5 1.x and blue-crab write today for reads converted from
/// POD5: [`blow5_standard_aux`], then `open_pore_level`, `expected_open_pore_level` and
/// `selected_read_level`, with all 10 of POD5's end reasons as `end_reason`'s labels.
///
/// ```
/// let aux = svb_reads::ont::blow5_pod5_aux();
/// assert_eq!(aux.len(), 16);
/// assert_eq!(aux[15].name, "selected_read_level");
/// ```
pub fn blow5_pod5_aux() -> Vec<AuxField> {
    let mut names = STANDARD_AUX.to_vec();
    names.extend([
        ("open_pore_level", "float", 4),
        ("expected_open_pore_level", "float", 4),
        ("selected_read_level", "float", 4),
    ]);
    aux_fields(&END_REASONS, &names)
}

fn aux_fields(labels: &[&str], fields: &[(&str, &str, usize)]) -> Vec<AuxField> {
    fields
        .iter()
        .map(|&(name, ty, size)| AuxField {
            name: name.into(),
            ty: match ty {
                "enum" => FieldType::Enum(labels.iter().map(|l| l.to_string()).collect()),
                "char*" => FieldType::Array {
                    name: "char".into(),
                    size,
                },
                _ => FieldType::Scalar {
                    name: ty.into(),
                    size,
                },
            },
        })
        .collect()
}
