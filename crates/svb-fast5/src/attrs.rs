//! HDF5 attributes as FAST5 uses them: numbers of any width and byte order, fixed and
//! variable-length strings, enums with their labels, and one-element arrays (some writers
//! store a scalar that way).

use std::sync::Arc;

use hdf5_reader::{Attribute, ByteOrder, Datatype, StringSize};

/// One attribute's value.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum AttrValue {
    /// A signed integer (any width).
    Int(i64),
    /// An unsigned integer (any width).
    UInt(u64),
    /// A floating-point number (32 or 64 bits).
    Float(f64),
    /// A string (fixed or variable length).
    Text(String),
    /// An enum member: its label (`None` for a value no member has) and its number.
    Enum {
        /// The member's label.
        label: Option<String>,
        /// The stored number.
        value: i64,
        /// Every member's label, in the type's order (what slow5tools makes the enum of its
        /// BLOW5 field).
        labels: Vec<String>,
        /// Every member's number, in the order of `labels`.
        values: Vec<i64>,
    },
    /// A one-element array: its element. Not a scalar to the read's fields (slow5tools
    /// refuses one there), but what slow5tools writes into a header for it.
    OneElement(Box<AttrValue>),
    /// A value of another type or shape (longer arrays, compounds), described.
    Other(String),
}

impl AttrValue {
    /// The value as text, as slow5tools writes an attribute into a header (numbers in their
    /// shortest form, an enum by its label).
    pub fn to_text(&self) -> String {
        match self {
            AttrValue::Int(v) => v.to_string(),
            AttrValue::UInt(v) => v.to_string(),
            AttrValue::Float(v) => v.to_string(),
            AttrValue::Text(s) => s.clone(),
            AttrValue::Enum { label, value, .. } => {
                label.clone().unwrap_or_else(|| value.to_string())
            }
            AttrValue::OneElement(v) => v.to_text(),
            AttrValue::Other(what) => what.clone(),
        }
    }

    /// The value as an error shows it: a one-element array said to be one.
    pub fn described(&self) -> String {
        match self {
            AttrValue::OneElement(v) => format!("an array of one element, {}", v.described()),
            other => format!("{other:?}"),
        }
    }

    /// The value as a number, when it is one (an enum by its number, a string never).
    pub fn as_f64(&self) -> Option<f64> {
        match *self {
            AttrValue::Int(v) => Some(v as f64),
            AttrValue::UInt(v) => Some(v as f64),
            AttrValue::Float(v) => Some(v),
            AttrValue::Enum { value, .. } => Some(value as f64),
            _ => None,
        }
    }

    /// The value as an unsigned integer, when it is a non-negative integer.
    pub fn as_u64(&self) -> Option<u64> {
        match *self {
            AttrValue::Int(v) => u64::try_from(v).ok(),
            AttrValue::UInt(v) => Some(v),
            AttrValue::Enum { value, .. } => u64::try_from(value).ok(),
            _ => None,
        }
    }

    /// The value as a signed integer, when it is an integer that fits.
    pub fn as_i64(&self) -> Option<i64> {
        match *self {
            AttrValue::Int(v) => Some(v),
            AttrValue::UInt(v) => i64::try_from(v).ok(),
            AttrValue::Enum { value, .. } => Some(value),
            _ => None,
        }
    }
}

/// A group's attributes by name, in file order.
pub type Attrs = Arc<[(String, AttrValue)]>;

/// The first `size` bytes of `raw` as an integer of that byte order (sign-extended when
/// `signed`), or `None` when `raw` is shorter or `size` is not 1, 2, 4 or 8.
fn int_bytes(raw: &[u8], size: u8, order: ByteOrder, signed: bool) -> Option<(i64, u64)> {
    let n = size as usize;
    if !matches!(n, 1 | 2 | 4 | 8) || raw.len() < n {
        return None;
    }
    let mut b = [0u8; 8];
    match order {
        ByteOrder::LittleEndian => b[..n].copy_from_slice(&raw[..n]),
        ByteOrder::BigEndian => {
            for (i, &x) in raw[..n].iter().rev().enumerate() {
                b[i] = x;
            }
        }
    }
    let u = u64::from_le_bytes(b);
    let shift = 64 - 8 * n as u32;
    let i = if signed { ((u << shift) as i64) >> shift } else { u as i64 };
    Some((i, u))
}

/// One attribute as an [`AttrValue`].
pub(crate) fn value(a: &Attribute) -> AttrValue {
    // FAST5 writers store scalars; an array, even of one element, is not the field a reader
    // expects (slow5tools refuses such files), so it is described rather than unwrapped.
    if a.shape.iter().product::<u64>() == 1 && !a.shape.is_empty() {
        let scalar = Attribute { shape: Vec::new(), ..a.clone() };
        return match value(&scalar) {
            v @ AttrValue::Other(_) => v,
            v => AttrValue::OneElement(Box::new(v)),
        };
    }
    if !a.shape.is_empty() {
        return AttrValue::Other(format!("an array {:?} of {}", a.shape, type_name(&a.datatype)));
    }
    let raw = a.raw_data.as_slice();
    match &a.datatype {
        Datatype::FixedPoint { size, signed, byte_order } => {
            match int_bytes(raw, *size, *byte_order, *signed) {
                Some((i, _)) if *signed => AttrValue::Int(i),
                Some((_, u)) => AttrValue::UInt(u),
                None => AttrValue::Other(format!("an integer of {size} bytes")),
            }
        }
        Datatype::FloatingPoint { size, byte_order } => {
            match int_bytes(raw, *size, *byte_order, false) {
                Some((_, u)) if *size == 4 => AttrValue::Float(f32::from_bits(u as u32) as f64),
                Some((_, u)) if *size == 8 => AttrValue::Float(f64::from_bits(u)),
                _ => AttrValue::Other(format!("a float of {size} bytes")),
            }
        }
        Datatype::String { .. } | Datatype::VarLen { .. } => match a.read_string() {
            Ok(s) => AttrValue::Text(s),
            Err(e) => AttrValue::Other(format!("an unreadable string ({e})")),
        },
        Datatype::Enum { base, members } => {
            let Datatype::FixedPoint { size, signed, byte_order } = base.as_ref() else {
                return AttrValue::Other(format!("an enum of {}", type_name(base)));
            };
            let Some((value, _)) = int_bytes(raw, *size, *byte_order, *signed) else {
                return AttrValue::Other(format!("an enum of {size}-byte integers"));
            };
            let label = members
                .iter()
                .find(|m| {
                    int_bytes(&m.value, *size, *byte_order, *signed) == Some((value, value as u64))
                })
                .map(|m| m.name.clone());
            let labels = members.iter().map(|m| m.name.clone()).collect();
            let values = members
                .iter()
                .map(|m| int_bytes(&m.value, *size, *byte_order, *signed).map_or(i64::MIN, |v| v.0))
                .collect();
            AttrValue::Enum { label, value, labels, values }
        }
        other => AttrValue::Other(type_name(other)),
    }
}

/// An HDF5 type in words.
fn type_name(t: &Datatype) -> String {
    match t {
        Datatype::FixedPoint { size, signed, .. } => {
            format!("{}int{}", if *signed { "" } else { "u" }, 8 * *size as u32)
        }
        Datatype::FloatingPoint { size, .. } => format!("float{}", 8 * *size as u32),
        Datatype::String { size: StringSize::Fixed(n), .. } => format!("string of {n} bytes"),
        Datatype::String { .. } | Datatype::VarLen { .. } => "string".to_string(),
        Datatype::Enum { .. } => "enum".to_string(),
        Datatype::Compound { .. } => "compound".to_string(),
        Datatype::Array { base, dims } => format!("array {dims:?} of {}", type_name(base)),
        Datatype::Opaque { .. } => "opaque".to_string(),
        Datatype::Reference { .. } => "reference".to_string(),
        Datatype::Bitfield { .. } => "bitfield".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_of_every_width_and_order() {
        let le = ByteOrder::LittleEndian;
        assert_eq!(int_bytes(&[0xff], 1, le, true), Some((-1, 0xff)));
        assert_eq!(int_bytes(&[0xff], 1, le, false), Some((255, 0xff)));
        assert_eq!(int_bytes(&[0x34, 0x12], 2, le, false), Some((0x1234, 0x1234)));
        assert_eq!(
            int_bytes(&[0x12, 0x34], 2, ByteOrder::BigEndian, false),
            Some((0x1234, 0x1234))
        );
        assert_eq!(int_bytes(&[1, 2, 3], 4, le, false), None);
        assert_eq!(int_bytes(&[0; 3], 3, le, false), None);
    }
}
