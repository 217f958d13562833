//! FAST5 -> BLOW5 / SLOW5 as slow5tools `f2s` maps it: a read group per run whose attributes
//! are the file's root attributes, the read's `tracking_id` and `context_tags` attributes,
//! its `run_id` and `pore_type` (keys sorted, as slow5lib writes them; numbers as f2s prints
//! them: `%.1f` for floating point, an enum by its number); the primary fields from
//! `channel_id`; the auxiliary fields f2s keeps, in the order the `Raw` group stores them
//! (`start_time` uint64_t, `read_number` int32_t, `start_mux` uint8_t, `median_before`
//! double, `end_reason` an enum of the file's own labels), then `channel_number` (char*).
//! An attribute a read lacks is not a field (f2s leaves it out); where the files of one
//! conversion differ, the fields are their union and a read lacking one has `.`.

use svb_blow5::{AuxField, AuxValue, FieldType, Record};
use svb_fast5::{AttrValue, Attrs};

use crate::error::ConvertError;

/// The auxiliary fields f2s takes from the `Raw` group, with their types.
const RAW_FIELDS: [(&str, &str); 4] = [
    ("start_time", "uint64_t"),
    ("read_number", "int32_t"),
    ("start_mux", "uint8_t"),
    ("median_before", "double"),
];

/// A header value as f2s writes it: text as it is (empty as `.`, slow5lib's unset), floating
/// point with one decimal (`%.1f`), integers in decimal, an enum by its number.
fn header_value(v: &AttrValue) -> Option<String> {
    Some(match v {
        AttrValue::Text(t) if t.is_empty() => ".".into(),
        AttrValue::Text(t) => t.clone(),
        AttrValue::Float(f) => format!("{f:.1}"),
        AttrValue::Int(i) => i.to_string(),
        AttrValue::UInt(u) => u.to_string(),
        AttrValue::Enum { value, .. } => value.to_string(),
        // A one-element array: f2s reads its element.
        AttrValue::OneElement(v) => return header_value(v),
        _ => return None,
    })
}

/// The read group of `read` (of a file whose root attributes are `root`): its attributes,
/// sorted by key, each once (the first value seen).
pub(crate) fn read_group(root: &Attrs, read: &svb_fast5::ReadAttributes) -> Vec<(String, String)> {
    let mut attrs: Vec<(String, String)> = Vec::new();
    let mut add = |k: &str, v: Option<String>| {
        if let Some(v) = v {
            if !attrs.iter().any(|(x, _)| x == k) {
                attrs.push((k.to_owned(), v));
            }
        }
    };
    add("run_id", Some(read.run_id.clone()));
    add("pore_type", read.pore_type.clone());
    for group in [root, &read.tracking_id, &read.context_tags] {
        for (k, v) in group.iter() {
            add(k, header_value(v));
        }
    }
    attrs.sort();
    attrs
}

/// Adds the attributes of `more` whose keys `attrs` lacks (a key's first value stays, as f2s
/// keeps it), keeping the keys sorted.
pub(crate) fn merge_attributes(attrs: &mut Vec<(String, String)>, more: Vec<(String, String)>) {
    let before = attrs.len();
    for (k, v) in more {
        if !attrs[..before].iter().any(|(x, _)| *x == k) {
            attrs.push((k, v));
        }
    }
    if attrs.len() > before {
        attrs.sort();
    }
}

/// The auxiliary fields of `read`, in f2s's order.
pub(crate) fn fields_of(read: &svb_fast5::ReadAttributes) -> Vec<AuxField> {
    let mut out = Vec::new();
    for (name, value) in read.raw.iter() {
        if let Some((_, ty)) = RAW_FIELDS.iter().find(|(n, _)| n == name) {
            out.push(AuxField {
                name: name.clone(),
                ty: FieldType::parse(ty).expect("a slow5lib type"),
            });
        } else if let ("end_reason", AttrValue::Enum { labels, .. }) = (name.as_str(), value) {
            // (A bare integer is refused: `check_mapped`.)
            out.push(AuxField { name: name.clone(), ty: FieldType::Enum(labels.clone()) });
        }
    }
    out.push(AuxField {
        name: "channel_number".into(),
        ty: FieldType::parse("char*").expect("a slow5lib type"),
    });
    out
}

/// The `channel_id` attributes f2s maps (the primary fields and `channel_number`).
const CHANNEL_ATTRIBUTES: [&str; 5] =
    ["channel_number", "digitisation", "offset", "range", "sampling_rate"];
/// The read group's attributes f2s maps (into the read group).
const READ_GROUP_ATTRIBUTES: [&str; 3] = ["run_id", "pore_type", "file_version"];
/// The groups of a read f2s reads, or skips as slow5tools does (`Analyses`, basecalls, and
/// `PreviousReadInfo`).
const READ_SUBGROUPS: [&str; 6] =
    ["Raw", "channel_id", "context_tags", "tracking_id", "Analyses", "PreviousReadInfo"];

/// Refuses a read holding what SLOW5 has no place for, as slow5tools f2s refuses it ("Bad
/// fast5: Attribute ... is unexpected", "... is duplicated and has two different values"): a
/// `Raw`, `channel_id` or read group attribute f2s does not map, a group of the read it does
/// not read, or a header attribute with one value in `tracking_id` and another in
/// `context_tags`. Converting such a read would lose that attribute without a word.
pub(crate) fn check_mapped(read: &svb_fast5::ReadAttributes) -> Result<(), ConvertError> {
    const NO_PLACE: &str = "SLOW5 and BLOW5 have no place for it, so converting would lose it";
    let raw_known =
        |n: &str| n == "duration" || n == "read_id" || svb_fast5::RAW_ATTRIBUTES.contains(&n);
    let unmapped = |attrs: &svb_fast5::Attrs, known: &dyn Fn(&str) -> bool| {
        attrs.iter().find(|(n, _)| !known(n)).map(|(n, _)| n.clone())
    };
    let refused: Option<(String, &str)> = unmapped(&read.raw, &raw_known)
        .map(|n| (format!("attribute Raw/{n} is unexpected"), NO_PLACE))
        .or_else(|| {
            let n = unmapped(&read.channel_id, &|n| CHANNEL_ATTRIBUTES.contains(&n))?;
            Some((format!("attribute channel_id/{n} is unexpected"), NO_PLACE))
        })
        .or_else(|| {
            let n = unmapped(&read.read_group, &|n| READ_GROUP_ATTRIBUTES.contains(&n))?;
            Some((format!("attribute {n} of the read's group is unexpected"), NO_PLACE))
        })
        .or_else(|| {
            let g = read.subgroups.iter().find(|g| !READ_SUBGROUPS.contains(&g.as_str()))?;
            Some((format!("group {g} is unexpected"), NO_PLACE))
        })
        .or_else(|| {
            // ONT's enum, or nothing: a bare number is what ont_fast5_api's compress_fast5
            // left of it, whose value slow5tools does not trust ("is corrupted").
            let v = read.raw.iter().find(|(n, _)| n == "end_reason").map(|(_, v)| v)?;
            (!matches!(v, AttrValue::Enum { .. })).then(|| {
                let what = match v {
                    AttrValue::Text(t) => format!("the text {t:?}"),
                    v => format!("the number {}", v.to_text()),
                };
                (
                    format!("Raw/end_reason is {what}, not ONT's enum"),
                    "ont_fast5_api's compress_fast5 leaves such a value, which may not be the \
                     read's end reason",
                )
            })
        })
        .or_else(|| {
            // One header attribute in tracking_id and context_tags with two values: the read
            // group could hold one of them only.
            read.tracking_id.iter().find_map(|(k, v)| {
                let (_, theirs) = read.context_tags.iter().find(|(x, _)| x == k)?;
                let (a, b) = (header_value(v), header_value(theirs));
                (a != b).then(|| {
                    let what = format!(
                        "attribute {k} is {} in tracking_id but {} in context_tags",
                        a.unwrap_or_default(),
                        b.unwrap_or_default()
                    );
                    (what, "the read group can hold one of them only")
                })
            })
        });
    match refused {
        None => Ok(()),
        Some((what, why)) => Err(ConvertError::Mapping(format!(
            "read {}: {what}: {why} (slow5tools f2s refuses the file too)",
            read.read_id
        ))),
    }
}

/// Adds the fields of `more` that `fields` lacks (by name), after them.
pub(crate) fn union(fields: &mut Vec<AuxField>, more: Vec<AuxField>) {
    for f in more {
        if !fields.iter().any(|x| x.name == f.name) {
            fields.push(f);
        }
    }
}

/// The BLOW5 record of `read` (its `signal` decoded) in read group `group` of a file whose
/// auxiliary fields are `fields`.
pub(crate) fn record(
    read: &svb_fast5::ReadAttributes, signal: Vec<i16>, group: u32, fields: &[AuxField],
) -> Result<Record, ConvertError> {
    check_mapped(read)?;
    let bad = |what: String| ConvertError::Mapping(format!("read {}: {what}", read.read_id));
    let mut aux = Vec::with_capacity(fields.len());
    for f in fields {
        let raw = read.raw.iter().find(|(n, _)| *n == f.name).map(|(_, v)| v);
        let value = match (f.name.as_str(), &f.ty, raw) {
            ("channel_number", _, _) => AuxValue::Text(read.channel_number.clone()),
            ("start_time", _, Some(_)) => AuxValue::UInt(read.start_time),
            ("start_mux", _, Some(_)) => AuxValue::UInt(
                u8::try_from(read.start_mux)
                    .map_err(|_| bad(format!("start_mux {} is not a uint8_t", read.start_mux)))?
                    .into(),
            ),
            ("read_number", _, Some(_)) => AuxValue::Int(
                i32::try_from(read.read_number)
                    .map_err(|_| {
                        bad(format!("read_number {} is not an int32_t", read.read_number))
                    })?
                    .into(),
            ),
            ("median_before", _, Some(_)) => {
                AuxValue::Float(read.median_before.unwrap_or(f64::NAN))
            }
            ("end_reason", FieldType::Enum(labels), Some(_)) => {
                let e = read.end_reason.as_ref().expect("the attribute is there");
                let i = match &e.label {
                    Some(l) => labels.iter().position(|x| x == l),
                    None => e.value.and_then(|v| usize::try_from(v).ok()),
                }
                .filter(|&i| i < labels.len())
                .ok_or_else(|| {
                    bad(format!(
                        "end_reason {:?} is none of the labels {labels:?} of the first file's enum",
                        e.label.clone().or(e.value.map(|v| v.to_string()))
                    ))
                })?;
                AuxValue::Enum(i as u8, Some(labels[i].clone()))
            }
            (_, ty, _) => AuxValue::missing(ty),
        };
        aux.push((f.name.clone(), value));
    }
    Ok(Record {
        read_id: read.read_id.clone(),
        read_group: group,
        digitisation: read.digitisation,
        offset: read.offset,
        range: read.range,
        sampling_rate: read.sampling_rate,
        raw_signal: signal,
        aux,
    })
}
