//! The metadata columns of each format: names and Arrow types, and the typed array builders
//! both formats share.

use std::sync::Arc;

use arrow_array::types::ArrowPrimitiveType;
use arrow_array::{ArrayRef, BooleanArray, PrimitiveArray, StringArray};
use arrow_schema::{DataType, Field};
use svb_blow5::{AuxField, FieldType, Header};
use svb_model::{FieldKind, BLOW5_PRIMARY_FIELDS, FAST5_FIELDS, POD5_FIELDS};

/// The Arrow type of a field.
fn data_type(kind: FieldKind) -> DataType {
    match kind {
        FieldKind::Bool => DataType::Boolean,
        FieldKind::U8 => DataType::UInt8,
        FieldKind::U16 => DataType::UInt16,
        FieldKind::U32 => DataType::UInt32,
        FieldKind::U64 => DataType::UInt64,
        FieldKind::F32 => DataType::Float32,
        FieldKind::F64 => DataType::Float64,
        FieldKind::Text => DataType::Utf8,
    }
}

/// Every metadata column of the inputs.
pub(crate) struct Columns {
    /// (name, type, nullable)
    cols: Vec<(String, DataType, bool)>,
    /// BLOW5: the first file's auxiliary fields, which every other input must have.
    aux: Vec<AuxField>,
}

impl Columns {
    /// POD5's fields, none nullable (a read whose run the file lacks is an error).
    pub(crate) fn pod5() -> Columns {
        Columns {
            cols: POD5_FIELDS.iter().map(|&(n, k)| (n.to_string(), data_type(k), false)).collect(),
            aux: Vec::new(),
        }
    }

    /// FAST5's fields, all nullable but the id and the file name: older files lack some
    /// (median before, end reason, pore type), and an attribute's value may not fit its
    /// column (a negative read number, a well past 255), which is then null.
    pub(crate) fn fast5() -> Columns {
        Columns {
            cols: FAST5_FIELDS
                .iter()
                .map(|&(n, k)| (n.to_string(), data_type(k), !matches!(n, "read_id" | "filename")))
                .collect(),
            aux: Vec::new(),
        }
    }

    pub(crate) fn blow5(header: &Header) -> Columns {
        let mut cols: Vec<(String, DataType, bool)> = BLOW5_PRIMARY_FIELDS
            .iter()
            .map(|&(n, k)| (n.to_string(), data_type(k), false))
            .collect();
        cols.extend(header.aux.iter().map(|a| (a.name.clone(), aux_type(&a.ty), true)));
        Columns { cols, aux: header.aux.clone() }
    }

    /// `Err(the first difference)` when `header`'s auxiliary fields are not the first
    /// file's.
    pub(crate) fn check_blow5(&self, header: &Header) -> Result<(), String> {
        if header.aux == self.aux {
            return Ok(());
        }
        let names = |a: &[AuxField]| {
            a.iter()
                .map(|f| format!("{}:{}", f.name, type_name(&f.ty)))
                .collect::<Vec<_>>()
                .join(",")
        };
        Err(format!("auxiliary fields {} instead of {}", names(&header.aux), names(&self.aux)))
    }

    pub(crate) fn len(&self) -> usize {
        self.cols.len()
    }

    pub(crate) fn names(&self) -> Vec<&str> {
        self.cols.iter().map(|c| c.0.as_str()).collect()
    }

    pub(crate) fn position(&self, name: &str) -> Option<usize> {
        self.cols.iter().position(|c| c.0 == name)
    }

    pub(crate) fn name(&self, i: usize) -> &str {
        &self.cols[i].0
    }

    pub(crate) fn field(&self, i: usize) -> Field {
        let (name, ty, nullable) = &self.cols[i];
        Field::new(name, ty.clone(), *nullable)
    }

    /// The type of auxiliary field `j`.
    pub(crate) fn aux_type(&self, j: usize) -> &FieldType {
        &self.aux[j].ty
    }
}

/// The metadata columns a batch is built with: every column, and the chosen ones.
pub(crate) struct Wanted<'a> {
    pub all: &'a Columns,
    pub picked: &'a [usize],
}

/// The C type of a field, as slow5lib writes it in the header.
fn type_name(t: &FieldType) -> String {
    match t {
        FieldType::Scalar { name, .. } => name.clone(),
        FieldType::Array { name, .. } => format!("{name}*"),
        FieldType::Enum(labels) => format!("enum{{{}}}", labels.join(",")),
    }
}

/// The Arrow type of a C scalar type name (`None` for one slow5lib does not define).
pub(crate) fn scalar_type(c: &str) -> Option<DataType> {
    Some(match c {
        "int8_t" => DataType::Int8,
        "int16_t" => DataType::Int16,
        "int32_t" => DataType::Int32,
        "int64_t" => DataType::Int64,
        "uint8_t" => DataType::UInt8,
        "uint16_t" => DataType::UInt16,
        "uint32_t" => DataType::UInt32,
        "uint64_t" => DataType::UInt64,
        "float" => DataType::Float32,
        "double" => DataType::Float64,
        "char" => DataType::Utf8,
        _ => return None,
    })
}

/// The Arrow type of an auxiliary field: scalars by their C type, `char` and `char*` as
/// text, other arrays as lists of their item type, enums as dictionaries of their labels.
pub(crate) fn aux_type(t: &FieldType) -> DataType {
    match t {
        FieldType::Scalar { name, .. } => scalar_type(name).unwrap_or(DataType::Binary),
        FieldType::Array { name, .. } if name == "char" => DataType::Utf8,
        FieldType::Array { name, .. } => match scalar_type(name) {
            Some(item) => DataType::List(Arc::new(Field::new_list_field(item, false))),
            None => DataType::Binary,
        },
        FieldType::Enum(_) => {
            DataType::Dictionary(Box::new(DataType::UInt8), Box::new(DataType::Utf8))
        }
    }
}

/// The `filename` column's value: the file's name without its folder.
pub(crate) fn file_name(path: &std::path::Path) -> String {
    path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
}

/// A primitive column of `T` from its values.
pub(crate) fn prim<T: ArrowPrimitiveType>(values: impl Iterator<Item = T::Native>) -> ArrayRef {
    Arc::new(PrimitiveArray::<T>::from_iter_values(values))
}

/// A text column.
pub(crate) fn text<S: AsRef<str>>(values: impl Iterator<Item = S>) -> ArrayRef {
    Arc::new(StringArray::from_iter_values(values))
}

/// A boolean column.
pub(crate) fn boolean(values: impl Iterator<Item = bool>) -> ArrayRef {
    Arc::new(BooleanArray::from_iter(values.map(Some)))
}
