//! ONT's fields as the reference tools write them.

use std::path::Path;
use svb_blow5::ont;
use svb_model::ont::END_REASONS;

#[svb_testdata::data_test]
fn standard_aux_fields_are_blue_crabs(data: &Path) {
    // A file blue-crab converted from POD5 (slow5tools' test data).
    let r = svb_blow5::Reader::open(data.join("blow5/slow5tools/p2solo_ulk114_dna.blow5")).unwrap();
    assert_eq!(ont::standard_aux(), r.header().aux);
}

#[test]
fn pod5_aux_fields_extend_the_standard_ones_with_every_end_reason() {
    let standard = ont::standard_aux();
    let pod5 = ont::pod5_aux();
    assert_eq!(pod5.len(), standard.len() + 3);
    let labels = |aux: &[svb_blow5::AuxField]| match &aux
        .iter()
        .find(|f| f.name == "end_reason")
        .unwrap()
        .ty
    {
        svb_blow5::FieldType::Enum(l) => l.clone(),
        other => panic!("end_reason is {other:?}"),
    };
    assert_eq!(labels(&pod5), END_REASONS);
    assert_eq!(labels(&standard), END_REASONS[..8]);
}
