//! Version 0 of the reads table: the `pore`, `calibration`, `end_reason` and `run_info`
//! columns are dictionaries of structs, resolved here per row.

use arrow_array::cast::AsArray;
use arrow_array::types::{Float32Type, UInt16Type, UInt8Type};
use arrow_array::{Array, StructArray};

use crate::columns::{value, Columns, StringColumn, TableError};
use crate::read::ReadRow;

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
        pore: Dict<'a>,
        cal: Dict<'a>,
        end: Dict<'a>,
        run: Option<&(Vec<Option<usize>>, &'a StructArray)>,
    ) -> Result<Self, TableError> {
        // A dictionary's columns and its text column `name` (`what` in errors).
        fn text<'a>(
            s: &'a StructArray,
            name: &str,
            what: &'static str,
        ) -> Result<(Columns<'a>, StringColumn), TableError> {
            let c = Columns::of_struct(s);
            let t = StringColumn::new(c.get(name), what)?;
            Ok((c, t))
        }
        let pore = pore
            .map(|(k, s)| text(s, "pore_type", "pore.pore_type").map(|(c, t)| (k, c, t)))
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
        Ok(V0Columns {
            pore,
            cal: cal.map(|(k, s)| (k, Columns::of_struct(s))),
            end,
            run,
        })
    }

    pub(super) fn apply(&self, row: usize, r: &mut ReadRow) {
        if let Some((keys, c, types)) = &self.pore {
            if let Some(k) = keys[row] {
                let ch = c.prim::<UInt16Type>("channel").ok().flatten();
                let well = c.prim::<UInt8Type>("well").ok().flatten();
                r.channel = value(ch, k).map_or(0, u32::from);
                r.well = value(well, k).unwrap_or(0);
                r.pore_type = types.get(k);
            }
        }
        if let Some((keys, c)) = &self.cal {
            if let Some(k) = keys[row] {
                let off = c.prim::<Float32Type>("offset").ok().flatten();
                let scale = c.prim::<Float32Type>("scale").ok().flatten();
                r.calibration_offset = value(off, k).unwrap_or(0.0);
                r.calibration_scale = value(scale, k).unwrap_or(1.0);
            }
        }
        if let Some((keys, names, c)) = &self.end {
            if let Some(k) = keys[row] {
                r.end_reason = names.get(k);
                r.end_reason_forced = c
                    .get("forced")
                    .and_then(|a| a.as_boolean_opt())
                    .is_some_and(|f| f.is_valid(k) && f.value(k));
            }
        }
        if let Some((keys, ids)) = &self.run {
            if let Some(k) = keys[row] {
                r.run_info = ids.get(k);
            }
        }
    }
}
