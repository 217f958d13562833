//! BLOW5 outputs made of many files: their options ([`blow5_options_like`]) and their header,
//! by slow5tools merge's rules ([`merge_schemas`], [`HeaderRules`]), the one rule every
//! operation that writes many BLOW5 files into one uses; a record given its output's
//! auxiliary fields ([`fields_of_schema`]).

use std::path::Path;

use svb_blow5::Schema;

use crate::error::ConvertError;

/// The options of a BLOW5 or SLOW5 output `out` made of files whose first is `first`: SLOW5
/// text when `out` ends in `.slow5`, else BLOW5 under `first`'s compression (slow5tools'
/// default, zlib records and SVB-ZD, when `first` is text, as slow5tools merge, split and get
/// write it); published as `publish` says.
pub(crate) fn blow5_options_like(
    out: &Path, first: &svb_blow5::Header, publish: svb_io::Publish,
) -> svb_blow5::WriteOptions {
    use svb_model::{Form, Format};
    let options = if Format::of_output(out).is_ok_and(|f| f == Format::Slow5) {
        svb_blow5::WriteOptions::slow5()
    } else if first.form == Form::Text {
        svb_blow5::WriteOptions {
            record_compression: svb_blow5::RecordCompression::Zlib,
            signal_compression: svb_blow5::SignalCompression::SvbZd,
            ..svb_blow5::WriteOptions::default()
        }
    } else {
        svb_blow5::WriteOptions {
            record_compression: first.record_compression,
            signal_compression: first.signal_compression,
            ..svb_blow5::WriteOptions::default()
        }
    };
    svb_blow5::WriteOptions { publish, ..options }
}

/// The schema of one file holding the records of files with `headers` (each with its path):
/// [`merge_schemas`] of their schemas under `rules`.
pub(crate) fn merged_schema(
    headers: &[(&svb_blow5::Header, &Path)], rules: HeaderRules,
) -> Result<(Schema, Vec<Vec<u32>>), ConvertError> {
    let schemas: Vec<(Schema, &Path)> = headers.iter().map(|(h, p)| (Schema::of(h), *p)).collect();
    merge_schemas(&schemas, rules)
}

/// What a BLOW5 merge does with inputs whose headers differ: slow5tools merge's rules (a POD5
/// merge has no auxiliary fields or read groups, and ignores them). Read groups are matched by
/// their run id; auxiliary fields are the union of the inputs' (a record without one gets its
/// missing value, as slow5lib writes it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HeaderRules {
    /// Write no auxiliary field: records keep their primary fields alone (slow5tools merge
    /// `--lossless false`).
    pub drop_aux: bool,
    /// Merge read groups of one run id whose attributes differ (slow5tools merge `-a`): an
    /// attribute that differs, or that one of them lacks, is left empty. Without it that is an
    /// error naming the run, the attributes and the files.
    pub allow_differing_attributes: bool,
    /// Order the auxiliary fields as slow5tools merge does: enum fields first, in order of
    /// appearance, then the others by name; every record's fields are then written anew.
    /// Without it the fields keep the inputs' order (the union in order of appearance), so
    /// that records of inputs whose fields are the output's are copied as stored.
    pub slow5tools_field_order: bool,
}

/// A read group's run id, `None` when it has none (or an empty one).
fn run_id(group: &[(String, String)]) -> Option<&str> {
    svb_blow5::group_attribute(group, "run_id").filter(|v| !v.is_empty())
}

/// An attribute's value as slow5lib keeps it: `.` is the empty text.
pub(crate) fn attribute_value(v: &str) -> &str {
    if v == "." {
        ""
    } else {
        v
    }
}

/// The BLOW5 schema of one file holding the records of files with `schemas` (each with its
/// path), as `svb merge` writes it, by slow5tools merge's rules ([`HeaderRules`]): read
/// groups matched by run id, in order of appearance (a group without a run id is matched by
/// all its attributes); two groups of one run whose attributes differ are an error naming
/// them, or with `rules.allow_differing_attributes` one group, what differs left empty.
/// Auxiliary fields are the union of the files', in order of appearance (or slow5tools merge's
/// order with `rules.slow5tools_field_order`; a field whose type
/// differs between two files, enum labels included, an error naming both), or none with
/// `rules.drop_aux`. Returns it with, per file, its read groups' indices in it.
///
/// ```
/// use svb_blow5::Schema;
/// use svb_convert::HeaderRules;
/// let group = |run: &str| vec![("run_id".to_string(), run.to_string())];
/// let a = Schema { read_groups: vec![group("r1"), group("r2")], aux: vec![] };
/// let b = Schema { read_groups: vec![group("r2"), group("r3")], aux: vec![] };
/// let inputs = [(a, "a.blow5".as_ref()), (b, "b.blow5".as_ref())];
/// let (merged, maps) = svb_convert::merge_schemas(&inputs, HeaderRules::default())?;
/// assert_eq!(merged.read_groups, [group("r1"), group("r2"), group("r3")]);
/// assert_eq!(maps, [vec![0, 1], vec![1, 2]]);
/// # Ok::<(), svb_convert::ConvertError>(())
/// ```
pub fn merge_schemas(
    headers: &[(svb_blow5::Schema, &Path)], rules: HeaderRules,
) -> Result<(svb_blow5::Schema, Vec<Vec<u32>>), ConvertError> {
    if headers.is_empty() {
        return Err(ConvertError::Mapping("no input".into()));
    }
    let mut groups: Vec<Vec<(String, String)>> = Vec::new();
    let mut group_from: Vec<&Path> = Vec::new();
    let mut aux: Vec<svb_blow5::AuxField> = Vec::new();
    let mut aux_from: Vec<&Path> = Vec::new();
    let mut differ: Vec<String> = Vec::new();
    let mut maps = Vec::with_capacity(headers.len());
    for (h, path) in headers {
        let path: &Path = path;
        if !rules.drop_aux {
            for f in &h.aux {
                match aux.iter().position(|x| x.name == f.name) {
                    None => {
                        aux.push(f.clone());
                        aux_from.push(path);
                    }
                    Some(i) if aux[i].ty == f.ty => {}
                    Some(i) => {
                        let why = format!(
                            "auxiliary field {} is {} here but {} in {}",
                            f.name,
                            f.ty.spelling(),
                            aux[i].ty.spelling(),
                            aux_from[i].display()
                        );
                        return Err(ConvertError::of(path)(ConvertError::Mapping(why)));
                    }
                }
            }
        }
        let mut map = Vec::with_capacity(h.read_groups.len());
        for group in &h.read_groups {
            // The same group: the same run id, or without one every attribute the same.
            let id = run_id(group);
            let same = |g: &Vec<(String, String)>| match id {
                Some(id) => run_id(g) == Some(id),
                None => g == group,
            };
            let found = groups.iter().position(same);
            let (Some(k), Some(id)) = (found, id) else {
                let k = found.unwrap_or_else(|| {
                    groups.push(group.clone());
                    group_from.push(path);
                    groups.len() - 1
                });
                map.push(k as u32);
                continue;
            };
            // The same run: every attribute of either must be the other's.
            let out = &mut groups[k];
            let mut keys: Vec<String> = out.iter().map(|(key, _)| key.clone()).collect();
            for (key, _) in group {
                if !keys.contains(key) {
                    keys.push(key.clone());
                }
            }
            for key in keys {
                let theirs = out.iter().position(|(x, _)| *x == key);
                let ours = group.iter().find(|(x, _)| *x == key).map(|(_, v)| v);
                let same = match (theirs, ours) {
                    (Some(t), Some(v)) => attribute_value(&out[t].1) == attribute_value(v),
                    _ => false,
                };
                if same {
                    continue;
                }
                let shown =
                    |v: Option<&String>| v.map_or("missing".to_string(), |v| format!("{v:?}"));
                differ.push(format!(
                    "run {id}: @{key} is {} in {} but {} in {}",
                    shown(theirs.map(|t| &out[t].1)),
                    group_from[k].display(),
                    shown(ours),
                    path.display()
                ));
                match theirs {
                    Some(t) => out[t].1 = String::new(),
                    None => out.push((key, String::new())),
                }
            }
            map.push(k as u32);
        }
        maps.push(map);
    }
    if !differ.is_empty() && !rules.allow_differing_attributes {
        let more = match differ.len() {
            n if n > 3 => format!(" (and {} more)", n - 3),
            _ => String::new(),
        };
        differ.truncate(3);
        return Err(ConvertError::Mapping(format!(
            "read groups of one run differ: {}{more}; allowing it (slow5tools merge -a) merges \
             them, leaving what differs empty",
            differ.join("; ")
        )));
    }
    if rules.slow5tools_field_order {
        // Stable: the enum fields keep their order of appearance.
        aux.sort_by(|a, b| {
            let is_enum = |f: &svb_blow5::AuxField| matches!(f.ty, svb_blow5::FieldType::Enum(_));
            match (is_enum(a), is_enum(b)) {
                (true, true) => std::cmp::Ordering::Equal,
                (x, y) if x != y => y.cmp(&x),
                _ => a.name.cmp(&b.name),
            }
        });
    }
    let schema = svb_blow5::Schema { read_groups: groups, aux };
    Ok((schema, maps))
}

/// `rec`'s auxiliary fields made `aux`'s: each field it lacks given its missing value (as
/// slow5lib writes one), all of them dropped when `aux` is empty.
pub(crate) fn fields_of_schema(rec: &mut svb_blow5::Record, aux: &[svb_blow5::AuxField]) {
    if aux.is_empty() {
        rec.aux.clear();
        return;
    }
    for f in aux {
        if !rec.aux.iter().any(|(name, _)| *name == f.name) {
            rec.aux.push((f.name.clone(), svb_blow5::AuxValue::missing(&f.ty)));
        }
    }
}
