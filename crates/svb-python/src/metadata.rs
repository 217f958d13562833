//! The header metadata pyslow5 users read, as one value for the Python half
//! (`svb._Reads.get_all_headers`, `get_aux_names`, ...): from a BLOW5 schema, a file's own,
//! the one `svb convert` makes of a POD5 or FAST5 file, or a dataset's merged one.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use svb_blow5::{FieldType, Schema};

/// An auxiliary field: name, slow5lib's type number, enum labels (None for other types).
type AuxInfo = (String, u32, Option<Vec<String>>);

/// What [`header`] gives the Python classes' `_header`: `(groups, aux)`.
pub(crate) type Header<'py> = (Vec<Bound<'py, PyDict>>, Vec<AuxInfo>);

/// `(groups, aux)`: per read group {attribute: value or None} over every attribute name of
/// any group, in header order; per auxiliary field in record order its [`AuxInfo`].
pub(crate) fn header<'py>(py: Python<'py>, schema: &Schema) -> PyResult<Header<'py>> {
    let mut names: Vec<&str> = Vec::new();
    for group in &schema.read_groups {
        for (k, _) in group {
            if !names.contains(&k.as_str()) {
                names.push(k);
            }
        }
    }
    let groups = schema
        .read_groups
        .iter()
        .map(|g| {
            let d = PyDict::new(py);
            for name in &names {
                d.set_item(*name, svb_blow5::group_attribute(g, name))?;
            }
            Ok(d)
        })
        .collect::<PyResult<_>>()?;
    let aux = schema
        .aux
        .iter()
        .map(|f| {
            let labels = match &f.ty {
                FieldType::Enum(labels) => Some(labels.clone()),
                _ => None,
            };
            (f.name.clone(), u32::from(aux_type_code(&f.ty)), labels)
        })
        .collect();
    Ok((groups, aux))
}

/// slow5lib's number of an auxiliary field type (`enum slow5_aux_type`: int8_t 0 ... double
/// 9, char 10, enum 11; arrays 12 more: int8_t* 12 ... char* 22, enum* 23).
fn aux_type_code(ty: &FieldType) -> u8 {
    let scalar = |name: &str| match name {
        "int8_t" => 0,
        "int16_t" => 1,
        "int32_t" => 2,
        "int64_t" => 3,
        "uint8_t" => 4,
        "uint16_t" => 5,
        "uint32_t" => 6,
        "uint64_t" => 7,
        "float" => 8,
        "double" => 9,
        _ => 10, // char: the only other type slow5lib defines (headers are checked at open)
    };
    match ty {
        FieldType::Scalar { name, .. } => scalar(name),
        FieldType::Array { name, .. } => 12 + scalar(name),
        FieldType::Enum(_) => 11,
    }
}
