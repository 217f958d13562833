//! ONT's reads in BLOW5 files: their auxiliary fields, as slow5tools, blue-crab and pyslow5
//! write them (from the model's data: [`svb_model::ont`]), and blue-crab's mapping of the
//! model's [`ReadInfo`](svb_model::ont::ReadInfo) and [`RunInfo`](svb_model::ont::RunInfo) to
//! records and read groups and back (`mapping.rs`).

mod mapping;
mod source;
mod writer;

pub use source::{GroupRuns, MappedRecord};
pub use writer::OntWriter;

pub use mapping::{
    acquisition_id_of, context_and_tracking, read_group_of, read_info_of, record_fields_into,
    record_of, run_info_of, CONTEXT_KEYS, CONTEXT_KEYS_ATTRIBUTE, RUN_KEYS,
    TRACKING_KEYS_ATTRIBUTE,
};

use svb_model::ont::{BLOW5_POD5_EXTRA_AUX, BLOW5_STANDARD_AUX, END_REASONS};

use crate::{AuxField, FieldType};

/// The auxiliary fields slow5tools and blue-crab write for ONT reads converted from POD5,
/// in their order and types (`end_reason` with blue-crab's labels, the first 8 end
/// reasons).
///
/// ```
/// let aux = svb_blow5::ont::standard_aux();
/// assert_eq!(aux[0].name, "channel_number");
/// assert_eq!(aux.len(), 13);
/// ```
pub fn standard_aux() -> Vec<AuxField> {
    aux_fields(&END_REASONS[..8], &BLOW5_STANDARD_AUX)
}

/// The auxiliary fields pyslow5 1.x and blue-crab write today for reads converted from
/// POD5: [`standard_aux`], then `open_pore_level`, `expected_open_pore_level` and
/// `selected_read_level`, with all 10 of POD5's end reasons as `end_reason`'s labels.
///
/// ```
/// let aux = svb_blow5::ont::pod5_aux();
/// assert_eq!(aux.len(), 16);
/// assert_eq!(aux[15].name, "selected_read_level");
/// ```
pub fn pod5_aux() -> Vec<AuxField> {
    let mut names = BLOW5_STANDARD_AUX.to_vec();
    names.extend(BLOW5_POD5_EXTRA_AUX);
    aux_fields(&END_REASONS, &names)
}

fn aux_fields(labels: &[&str], fields: &[(&str, &str, usize)]) -> Vec<AuxField> {
    fields
        .iter()
        .map(|&(name, ty, size)| AuxField {
            name: name.into(),
            ty: match ty {
                "enum" => FieldType::Enum(labels.iter().map(|l| l.to_string()).collect()),
                "char*" => FieldType::Array { name: "char".into(), size },
                _ => FieldType::Scalar { name: ty.into(), size },
            },
        })
        .collect()
}
