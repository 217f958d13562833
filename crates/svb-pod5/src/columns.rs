//! Column access shared by the POD5 table parsers: named columns of a batch or struct,
//! typed and checked, and the errors they report.

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::{
    Array, ArrayRef, ArrowPrimitiveType, FixedSizeBinaryArray, PrimitiveArray, RecordBatch,
    StructArray,
};
use arrow_schema::DataType;

/// A table-level error: the row it concerns (if one) and what is wrong.
pub(crate) type TableError = (Option<u64>, String);

pub(super) fn at<T>(row: u64, what: impl Into<String>) -> Result<T, TableError> {
    Err((Some(row), what.into()))
}

pub(super) fn whole<T>(what: impl Into<String>) -> Result<T, TableError> {
    Err((None, what.into()))
}

/// Named columns of a record batch or of a struct array.
pub(super) struct Columns<'a> {
    names: Vec<&'a str>,
    arrays: Vec<&'a ArrayRef>,
}

impl<'a> Columns<'a> {
    pub(super) fn of_batch(b: &'a RecordBatch) -> Self {
        Columns {
            names: b.schema_ref().fields().iter().map(|f| f.name().as_str()).collect(),
            arrays: b.columns().iter().collect(),
        }
    }

    pub(super) fn of_struct(s: &'a StructArray) -> Self {
        Columns { names: s.column_names(), arrays: s.columns().iter().collect() }
    }

    pub(super) fn get(&self, name: &str) -> Option<&'a ArrayRef> {
        let i = self.names.iter().position(|n| *n == name)?;
        Some(self.arrays[i])
    }

    pub(super) fn prim<T: ArrowPrimitiveType>(
        &self, name: &str,
    ) -> Result<Option<&'a PrimitiveArray<T>>, TableError> {
        match self.get(name) {
            None => Ok(None),
            Some(a) => match a.as_primitive_opt::<T>() {
                Some(p) if *a.data_type() == T::DATA_TYPE => Ok(Some(p)),
                _ => {
                    whole(format!("column {name} is {}, expected {}", a.data_type(), T::DATA_TYPE))
                }
            },
        }
    }

    pub(super) fn required<T: ArrowPrimitiveType>(
        &self, name: &str,
    ) -> Result<&'a PrimitiveArray<T>, TableError> {
        self.prim::<T>(name)?.map_or_else(|| whole(format!("column {name} missing")), Ok)
    }
}

/// Value of a primitive column at `index`: `None` when the column is absent (a table version
/// without it); a null is an error naming `row` and the column (ONT's writers write every
/// value, so a null is damage, and a default in its place would look like data).
pub(super) fn value<T: ArrowPrimitiveType>(
    a: Option<&PrimitiveArray<T>>, index: usize, row: u64, name: &str,
) -> Result<Option<T::Native>, TableError> {
    match a {
        None => Ok(None),
        Some(a) if a.is_null(index) => at(row, format!("{name} is null")),
        Some(a) => Ok(Some(a.value(index))),
    }
}

/// A string, dictionary-of-string, or missing column, resolved per row to shared strings.
pub(super) struct StringColumn {
    /// Per row: index into `values`, or None.
    keys: Vec<Option<usize>>,
    values: Vec<Arc<str>>,
}

impl StringColumn {
    pub(super) fn new(a: Option<&ArrayRef>, name: &str) -> Result<Self, TableError> {
        let Some(a) = a else {
            return Ok(StringColumn { keys: Vec::new(), values: Vec::new() });
        };
        if let Some(d) = a.as_any_dictionary_opt() {
            let values = strings(d.values(), name)?;
            let keys = if values.is_empty() {
                vec![None; a.len()]
            } else {
                let nk = d.normalized_keys();
                (0..a.len()).map(|i| a.is_valid(i).then(|| nk[i])).collect()
            };
            return Ok(StringColumn { keys, values });
        }
        let values = strings(a, name)?;
        let keys = (0..a.len()).map(|i| a.is_valid(i).then_some(i)).collect();
        Ok(StringColumn { keys, values })
    }

    pub(super) fn get(&self, row: usize) -> Arc<str> {
        match self.keys.get(row).copied().flatten() {
            Some(k) => self.values[k].clone(),
            None => Arc::from(""),
        }
    }
}

pub(super) fn strings(a: &ArrayRef, name: &str) -> Result<Vec<Arc<str>>, TableError> {
    match a.data_type() {
        DataType::Utf8 => {
            Ok(a.as_string::<i32>().iter().map(|s| Arc::from(s.unwrap_or(""))).collect())
        }
        DataType::LargeUtf8 => {
            Ok(a.as_string::<i64>().iter().map(|s| Arc::from(s.unwrap_or(""))).collect())
        }
        t => whole(format!("column {name} is {t}, expected strings")),
    }
}

pub(super) fn fixed16<'a>(
    a: Option<&'a ArrayRef>, name: &str,
) -> Result<&'a FixedSizeBinaryArray, TableError> {
    match a {
        Some(a) => match a.as_fixed_size_binary_opt() {
            Some(f) if f.value_length() == 16 => Ok(f),
            _ => {
                whole(format!("column {name} is {}, expected fixed_size_binary[16]", a.data_type()))
            }
        },
        None => whole(format!("column {name} missing")),
    }
}
