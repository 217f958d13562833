//! slow5tools' own merge cases (`test/test_merge.sh`: `test/data/raw/merge` in,
//! `test/data/exp/merge` expected): every merge slow5tools makes, svb makes with the same
//! records (ids in the same order, every primary and auxiliary field by name, missing ones
//! missing) under the same read-group attributes (each record's group, by key); every merge
//! slow5tools refuses, svb refuses, writing nothing. The order of auxiliary fields and of
//! header attributes may differ (slow5tools puts enum fields first and sorts the others);
//! slow5lib and pyslow5 read fields by name.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use svb_blow5::{AuxValue, Reader};
use svb_convert::{merge, Duplicates, HeaderRules, Run};
use svb_testdata::TempDir;

fn dirs(repos: &Path) -> (PathBuf, PathBuf) {
    let data = repos.join("slow5tools/test/data");
    (data.join("raw/merge"), data.join("exp/merge"))
}

/// A record as compared: its fields but the read group, its aux fields by name (NaN as a
/// text, so that missing floats compare equal), its group's attributes by key ("." empty).
/// Floating-point values to the 6 decimals slow5tools prints in SLOW5 text.
type Seen = (String, Vec<String>, BTreeMap<String, String>, BTreeMap<String, String>);

fn records(path: &Path) -> Vec<Seen> {
    let r = Reader::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let groups: Vec<BTreeMap<String, String>> = r
        .header()
        .read_groups
        .iter()
        .map(|g| {
            g.iter()
                .map(|(k, v)| (k.clone(), if v == "." { String::new() } else { v.clone() }))
                .collect()
        })
        .collect();
    r.records()
        .map(|rec| {
            let rec = rec.unwrap();
            let primary = vec![
                format!("{:.6}", rec.digitisation),
                format!("{:.6}", rec.offset),
                format!("{:.6}", rec.range),
                format!("{:.6}", rec.sampling_rate),
                format!("{:?}", rec.raw_signal),
            ];
            let aux = rec
                .aux
                .iter()
                .map(|(k, v)| {
                    let v = match v {
                        AuxValue::Float(f) if f.is_nan() => "NaN".to_string(),
                        // slow5tools prints SLOW5 text floats to 6 decimals.
                        AuxValue::Float(f) => format!("{f:.6}"),
                        AuxValue::Enum(i, _) => format!("enum {i}"),
                        v => format!("{v:?}"),
                    };
                    (k.clone(), v)
                })
                .collect();
            (rec.read_id.clone(), primary, aux, groups[rec.read_group as usize].clone())
        })
        .collect()
}

fn rules(drop_aux: bool, allow: bool) -> HeaderRules {
    HeaderRules { drop_aux, allow_differing_attributes: allow, ..HeaderRules::default() }
}

#[svb_testdata::data_test(slow5_repos)]
fn merges_hold_what_slow5tools_merges_hold(repos: &Path, tmp: &TempDir) {
    let (raw, exp) = dirs(repos);
    let four = ["rg0.slow5", "rg1.slow5", "rg2.slow5", "rg3.slow5"];
    let cases: Vec<(Vec<&str>, HeaderRules, &str)> = vec![
        (four.to_vec(), rules(false, false), "merged_different_rg.slow5"),
        (four.to_vec(), rules(true, false), "lossy_merged_different_rg.slow5"),
        (
            vec![
                "aux_no_enum.slow5",
                "none_v0.1.0.blow5",
                "zlib_svb-zd_v0.2.0.blow5",
                "zlib_v0.2.0.blow5",
            ],
            rules(false, false),
            "merged_output_formats.slow5",
        ),
        (four.to_vec(), rules(false, false), "merged_expected_zlib_svb.blow5"),
        (
            vec!["rg0_asic_id_missing.slow5", "rg1.slow5"],
            rules(false, false),
            "rg0_asic_id_missing_with_rg1.slow5",
        ),
        (
            vec!["rg1.slow5", "rg0_asic_id_missing.slow5"],
            rules(false, false),
            "rg1_with_rg0_asic_id_missing.slow5",
        ),
        (vec!["rg0.slow5", "rg0_1.slow5"], rules(false, false), "same_rg.slow5"),
        (
            vec!["rg0.slow5", "rg1.slow5", "rg0_1.slow5"],
            rules(false, false),
            "same_rg_and_diff_rg.slow5",
        ),
        (
            vec!["rg0.slow5", "rg0_2_aux_order.slow5"],
            rules(false, false),
            "same_rg_aux_order.slow5",
        ),
        (
            vec!["rg0_2_aux_order.slow5", "rg1.slow5"],
            rules(false, false),
            "diff_rg_aux_order.slow5",
        ),
        (
            vec!["aux_no_enum.slow5", "aux_enum.slow5"],
            rules(false, false),
            "merged_output_enum.slow5",
        ),
        (
            vec!["aux_enum.slow5", "aux_no_enum.slow5"],
            rules(false, false),
            "merged_output_enum2.slow5",
        ),
        (
            vec!["rg0_asic_id_missing.slow5", "rg0.slow5"],
            rules(false, true),
            "asic_id_missing_expected.slow5",
        ),
        (
            vec!["rg0.slow5", "rg0_asic_id_missing.slow5"],
            rules(false, true),
            "asic_id_missing_expected.slow5",
        ),
        (
            vec!["rg0.slow5", "rg0_diff_attr.slow5"],
            rules(false, true),
            "same_run_id_different_attribute_values.slow5",
        ),
        (
            vec!["rg0.slow5", "rg1_1_new_aux_field.slow5"],
            rules(false, false),
            "diff_rg_diff_aux_field.slow5",
        ),
    ];
    for (k, (inputs, rules, expected)) in cases.iter().enumerate() {
        let inputs: Vec<PathBuf> = inputs.iter().map(|n| raw.join(n)).collect();
        let ext = Path::new(expected).extension().unwrap().to_str().unwrap();
        let out = tmp.join(&format!("{k}.{ext}"));
        let twice = rules.allow_differing_attributes;
        let duplicates = match twice {
            true => Duplicates::KeepFirst,
            false => Duplicates::Error,
        };
        merge(&inputs, &out, duplicates, *rules, Run::default())
            .unwrap_or_else(|e| panic!("{expected}: {}", svb_io::error_chain(&e)));
        let (ours, mut theirs) = (records(&out), records(&exp.join(expected)));
        if twice {
            let mut seen = std::collections::HashSet::new();
            theirs.retain(|r| seen.insert(r.0.clone()));
            let e = merge(
                &inputs,
                &tmp.join("refused.slow5"),
                Duplicates::Error,
                *rules,
                Run::default(),
            )
            .unwrap_err();
            assert!(svb_io::error_chain(&e).contains("keep-first"), "{e}");
        }
        assert_eq!(ours.len(), theirs.len(), "{expected}");
        for (a, b) in ours.iter().zip(&theirs) {
            assert_eq!(a.0, b.0, "{expected}: read ids");
            assert!(a.1 == b.1, "{expected}: {}: primary fields differ", a.0);
            assert_eq!(a.2, b.2, "{expected}: {}: auxiliary fields", a.0);
            let differ: Vec<_> = a.3.iter().filter(|(k, v)| b.3.get(*k) != Some(v)).collect();
            let lack: Vec<_> = b.3.keys().filter(|k| !a.3.contains_key(*k)).collect();
            assert!(
                differ.is_empty() && lack.is_empty(),
                "{expected}: {}: read group attributes: ours {differ:?}, theirs {:?}; we lack {lack:?}",
                a.0,
                differ.iter().map(|(k, _)| b.3.get(*k)).collect::<Vec<_>>()
            );
        }
    }
}

#[svb_testdata::data_test(slow5_repos)]
fn merges_slow5tools_refuses_are_refused(repos: &Path, tmp: &TempDir) {
    let (raw, _) = dirs(repos);
    for (inputs, says) in [
        (["aux_enum.slow5", "aux_enum_diff_label.slow5"], "auxiliary field end_reason is enum{"),
        (["aux_enum.slow5", "aux_enum_order_label.slow5"], "auxiliary field end_reason is enum{"),
        (["aux_enum.slow5", "aux_enum_new_label.slow5"], "auxiliary field end_reason is enum{"),
        (["aux_enum.slow5", "aux_enum_uint8_t.slow5"], "auxiliary field end_reason is uint8_t"),
        (["aux_enum_uint8_t.slow5", "aux_enum.slow5"], "auxiliary field end_reason is enum{"),
        (["rg0_asic_id_missing.slow5", "rg0.slow5"], "@asic_id is missing in"),
        (["rg0.slow5", "rg0_asic_id_missing.slow5"], "but missing in"),
        (["rg0.slow5", "rg0_diff_attr.slow5"], "read groups of one run differ"),
        (["rg0.slow5", "rg0_1_diff_aux_type.slow5"], "auxiliary field"),
        (["rg0.slow5", "rg1_1_diff_aux_type.slow5"], "auxiliary field"),
    ] {
        let inputs: Vec<PathBuf> = inputs.iter().map(|n| raw.join(n)).collect();
        let out = tmp.join("out.slow5");
        let e = merge(&inputs, &out, Duplicates::Error, rules(false, false), Run::default())
            .unwrap_err();
        let said = svb_io::error_chain(&e);
        assert!(said.contains(says), "{inputs:?}: {said}");
        assert!(tmp.entries().is_empty(), "{:?}", tmp.entries());
    }
}
