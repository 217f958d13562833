//! Version 0 of the reads table: the `pore`, `calibration`, `end_reason` and `run_info`
//! columns are dictionaries of structs, resolved here per row.

use arrow_array::cast::AsArray;
use arrow_array::types::{Float32Type, UInt16Type, UInt8Type};
use arrow_array::{Array, StructArray};

use crate::columns::{value, Columns, StringColumn, TableError};
use svb_model::ont::ReadInfo;

/// A dictionary-of-struct column of table version 0, resolved to (keys, struct values);
/// `None` when absent or of another type (the flat columns of later versions are read
/// instead).
pub(super) fn dict_struct<'a>(c: &Columns<'a>, name: &str) -> Dict<'a> {
    let a = c.get(name)?;
    let d = a.as_any_dictionary_opt()?;
    let s = d.values().as_struct_opt()?;
    let keys = if s.is_empty() {
        vec![None; a.len()]
    } else {
        let nk = d.normalized_keys();
        (0..a.len()).map(|i| a.is_valid(i).then(|| nk[i])).collect()
    };
    Some((keys, s))
}

/// The fields of each version-0 dictionary's structs, as lib_pod5 writes them.
const V0_FIELDS: [(&str, &[&str]); 4] = [
    ("pore", &["channel", "well", "pore_type"]),
    ("calibration", &["offset", "scale"]),
    ("end_reason", &["name", "forced"]),
    ("run_info", &["acquisition_id"]),
];

/// `Err` unless `c`, the structs of version-0 dictionary `dict`, has every field
/// lib_pod5's hold: one missing is damage, and a default in its place would look like data.
fn require(c: &Columns<'_>, dict: &str) -> Result<(), TableError> {
    let fields = V0_FIELDS.iter().filter(|(d, _)| *d == dict).flat_map(|(_, f)| *f);
    for field in fields {
        if c.get(field).is_none() {
            return Err((None, format!("{dict} dictionary: field {field} missing")));
        }
    }
    Ok(())
}

/// The version-0 dictionary-of-struct columns, resolved.
pub(super) struct V0Columns<'a> {
    pore: Option<(Vec<Option<usize>>, Columns<'a>, StringColumn)>,
    cal: Option<(Vec<Option<usize>>, Columns<'a>)>,
    end: Option<(Vec<Option<usize>>, StringColumn, Columns<'a>)>,
    run: Option<(Vec<Option<usize>>, StringColumn)>,
}

pub(super) type Dict<'a> = Option<(Vec<Option<usize>>, &'a StructArray)>;

impl<'a> V0Columns<'a> {
    pub(super) fn new(
        pore: Dict<'a>, cal: Dict<'a>, end: Dict<'a>,
        run: Option<&(Vec<Option<usize>>, &'a StructArray)>,
    ) -> Result<Self, TableError> {
        // A dictionary's columns and its text column `name` (`what` in errors).
        fn text<'a>(
            s: &'a StructArray, name: &str, what: &'static str,
        ) -> Result<(Columns<'a>, StringColumn), TableError> {
            let c = Columns::of_struct(s);
            require(&c, what.split('.').next().unwrap_or(what))?;
            let t = StringColumn::new(c.get(name), what)?;
            Ok((c, t))
        }
        let pore = pore
            .map(|(k, s)| text(s, "pore_type", "pore.pore_type").map(|(c, t)| (k, c, t)))
            .transpose()?;
        let cal = cal
            .map(|(k, s)| {
                let c = Columns::of_struct(s);
                require(&c, "calibration").map(|()| (k, c))
            })
            .transpose()?;
        let end = end
            .map(|(k, s)| text(s, "name", "end_reason.name").map(|(c, n)| (k, n, c)))
            .transpose()?;
        let run = run
            .map(|(k, s)| {
                let (_, id) = text(s, "acquisition_id", "run_info.acquisition_id")?;
                Ok::<_, TableError>((k.clone(), id))
            })
            .transpose()?;
        Ok(V0Columns { pore, cal, end, run })
    }

    /// Sets `r`'s fields from the dictionaries' entries for batch row `index` (table row
    /// `row`, for errors).
    pub(super) fn apply(&self, index: usize, row: u64, r: &mut ReadInfo) -> Result<(), TableError> {
        if let Some((keys, c, types)) = &self.pore {
            if let Some(k) = keys[index] {
                let ch = c.prim::<UInt16Type>("channel")?;
                let well = c.prim::<UInt8Type>("well")?;
                r.channel = value(ch, k, row, "pore.channel")?.map_or(0, u32::from);
                r.well = value(well, k, row, "pore.well")?.unwrap_or(0);
                r.pore_type = types.get(k);
            }
        }
        if let Some((keys, c)) = &self.cal {
            if let Some(k) = keys[index] {
                let off = c.prim::<Float32Type>("offset")?;
                let scale = c.prim::<Float32Type>("scale")?;
                r.calibration_offset = value(off, k, row, "calibration.offset")?.unwrap_or(0.0);
                r.calibration_scale = value(scale, k, row, "calibration.scale")?.unwrap_or(1.0);
            }
        }
        if let Some((keys, names, c)) = &self.end {
            if let Some(k) = keys[index] {
                r.end_reason = names.get(k);
                r.end_reason_forced = c
                    .get("forced")
                    .and_then(|a| a.as_boolean_opt())
                    .is_some_and(|f| f.is_valid(k) && f.value(k));
            }
        }
        if let Some((keys, ids)) = &self.run {
            if let Some(k) = keys[index] {
                r.run_info = ids.get(k);
            }
        }
        Ok(())
    }
}
