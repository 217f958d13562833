//! BLOW5 batches: the records of a batch decoded on rayon (their fields only, without a
//! signal column), as columns typed by the header's C types.

use std::sync::Arc;

use arrow_array::types::*;
use arrow_array::{ArrayRef, BinaryArray, DictionaryArray, ListArray, PrimitiveArray, StringArray};
use arrow_buffer::{NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow_schema::{DataType, Field};
use rayon::prelude::*;
use svb_blow5::{AuxValue, FieldType, Reader, Record};

use crate::columns::{file_name, prim, scalar_type, text, Wanted};
use crate::signal::{self, Calibration};
use crate::{batch_end, ArrowReadError, Batch, Options};

/// The next batch of `r` from record `start`: its columns and its end.
pub(crate) fn batch(r: &Reader, start: usize, options: &Options, wanted: &Wanted) -> Batch {
    let with_signal = options.signal.column().is_some();
    // Stored record sizes stand in for sample counts (about 1-2 bytes a sample).
    let end = batch_end(start, r.len(), options, |i| r.record_span(i).map_or(0, |(_, size)| size));
    let records: Vec<(Record, u64)> = (start..end)
        .into_par_iter()
        .map(|i| {
            let mut rec = Record::default();
            let samples = if with_signal {
                r.record_into(i, &mut rec).map(|()| rec.raw_signal.len() as u64)
            } else {
                r.fields_into(i, &mut rec)
            }?;
            Ok((rec, samples))
        })
        .collect::<Result<_, ArrowReadError>>()?;
    let filename = file_name(r.path());
    let mut columns: Vec<ArrayRef> =
        wanted.picked.iter().map(|&c| column(wanted, c, &records, &filename)).collect();
    if with_signal {
        let parts: Vec<(&[i16], Calibration)> = records
            .iter()
            .map(|(rec, _)| (rec.raw_signal.as_slice(), svb_blow5::model::calibration(rec)))
            .collect();
        columns.push(signal::from_decoded(&parts, options.signal).map_err(|(k, samples)| {
            ArrowReadError::ReadTooLong {
                path: r.path().to_path_buf(),
                read_id: records[k].0.read_id.clone(),
                samples,
            }
        })?);
    }
    Ok((columns, end))
}

/// Column `c` of the records.
fn column(wanted: &Wanted<'_>, c: usize, records: &[(Record, u64)], filename: &str) -> ArrayRef {
    let it = || records.iter().map(|(rec, _)| rec);
    match wanted.all.name(c) {
        "read_id" if c == 0 => text(it().map(|x| &x.read_id)),
        "filename" if c == 1 => text(it().map(|_| filename)),
        "read_group" if c == 2 => prim::<UInt32Type>(it().map(|x| x.read_group)),
        "digitisation" if c == 3 => prim::<Float64Type>(it().map(|x| x.digitisation)),
        "offset" if c == 4 => prim::<Float64Type>(it().map(|x| x.offset)),
        "range" if c == 5 => prim::<Float64Type>(it().map(|x| x.range)),
        "sampling_rate" if c == 6 => prim::<Float64Type>(it().map(|x| x.sampling_rate)),
        "len_raw_signal" if c == 7 => prim::<UInt64Type>(records.iter().map(|&(_, n)| n)),
        _ => {
            let j = c - svb_model::BLOW5_PRIMARY_FIELDS.len();
            aux_column(wanted.all.aux_type(j), it().map(|x| x.aux.get(j).map(|(_, v)| v)))
        }
    }
}

/// An auxiliary column from each record's value (`None` where a record lacks it, or its
/// value is not of the field's type: a null).
fn aux_column<'a>(ty: &FieldType, values: impl Iterator<Item = Option<&'a AuxValue>>) -> ArrayRef {
    let values: Vec<Option<&AuxValue>> = values.collect();
    match ty {
        FieldType::Scalar { name, .. } => match scalar_type(name) {
            Some(DataType::Int8) => ints::<Int8Type>(&values),
            Some(DataType::Int16) => ints::<Int16Type>(&values),
            Some(DataType::Int32) => ints::<Int32Type>(&values),
            Some(DataType::Int64) => ints::<Int64Type>(&values),
            Some(DataType::UInt8) => ints::<UInt8Type>(&values),
            Some(DataType::UInt16) => ints::<UInt16Type>(&values),
            Some(DataType::UInt32) => ints::<UInt32Type>(&values),
            Some(DataType::UInt64) => ints::<UInt64Type>(&values),
            Some(DataType::Float32) => {
                Arc::new(PrimitiveArray::<Float32Type>::from_iter(values.iter().map(|v| match v {
                    Some(AuxValue::Float(f)) => Some(*f as f32),
                    _ => None,
                })))
            }
            Some(DataType::Float64) => {
                Arc::new(PrimitiveArray::<Float64Type>::from_iter(values.iter().map(|v| match v {
                    Some(AuxValue::Float(f)) => Some(*f),
                    _ => None,
                })))
            }
            Some(DataType::Utf8) => {
                Arc::new(StringArray::from_iter(values.iter().map(|v| match v {
                    Some(AuxValue::Char(c)) => Some(char::from(*c).to_string()),
                    _ => None,
                })))
            }
            _ => bytes(&values),
        },
        FieldType::Array { name, .. } if name == "char" => {
            Arc::new(StringArray::from_iter(values.iter().map(|v| match v {
                Some(AuxValue::Text(t)) => Some(t.as_str()),
                _ => None,
            })))
        }
        FieldType::Array { name, .. } => match scalar_type(name) {
            Some(DataType::Int8) => list::<Int8Type, 1>(&values, i8::from_le_bytes),
            Some(DataType::Int16) => list::<Int16Type, 2>(&values, i16::from_le_bytes),
            Some(DataType::Int32) => list::<Int32Type, 4>(&values, i32::from_le_bytes),
            Some(DataType::Int64) => list::<Int64Type, 8>(&values, i64::from_le_bytes),
            Some(DataType::UInt8) => list::<UInt8Type, 1>(&values, u8::from_le_bytes),
            Some(DataType::UInt16) => list::<UInt16Type, 2>(&values, u16::from_le_bytes),
            Some(DataType::UInt32) => list::<UInt32Type, 4>(&values, u32::from_le_bytes),
            Some(DataType::UInt64) => list::<UInt64Type, 8>(&values, u64::from_le_bytes),
            Some(DataType::Float32) => list::<Float32Type, 4>(&values, f32::from_le_bytes),
            Some(DataType::Float64) => list::<Float64Type, 8>(&values, f64::from_le_bytes),
            _ => bytes(&values),
        },
        FieldType::Enum(labels) => {
            let keys = PrimitiveArray::<UInt8Type>::from_iter(values.iter().map(|v| match v {
                Some(AuxValue::Enum(i, Some(_))) => Some(*i),
                _ => None,
            }));
            let labels = Arc::new(StringArray::from_iter_values(labels.iter()));
            Arc::new(
                DictionaryArray::<UInt8Type>::try_new(keys, labels)
                    .expect("keys are label indices"),
            )
        }
    }
}

/// An integer column: each record's value when it fits `T` (the field's type says it does).
fn ints<T: ArrowPrimitiveType>(values: &[Option<&AuxValue>]) -> ArrayRef
where
    T::Native: TryFrom<i64> + TryFrom<u64>,
{
    Arc::new(PrimitiveArray::<T>::from_iter(values.iter().map(|v| match v {
        Some(AuxValue::Int(i)) => T::Native::try_from(*i).ok(),
        Some(AuxValue::UInt(u)) => T::Native::try_from(*u).ok(),
        _ => None,
    })))
}

/// A list column of little-endian items of `N` bytes.
fn list<T: ArrowPrimitiveType, const N: usize>(
    values: &[Option<&AuxValue>], from_le: fn([u8; N]) -> T::Native,
) -> ArrayRef {
    let arrays: Vec<Option<&[u8]>> = values
        .iter()
        .map(|v| match v {
            Some(AuxValue::Array(b)) if b.len() % N == 0 => Some(b.as_slice()),
            _ => None,
        })
        .collect();
    let items: Vec<T::Native> = arrays
        .iter()
        .flatten()
        .flat_map(|b| b.chunks_exact(N))
        .map(|c| from_le(c.try_into().expect("N bytes")))
        .collect();
    let offsets =
        OffsetBuffer::<i32>::from_lengths(arrays.iter().map(|b| b.map_or(0, |b| b.len() / N)));
    let nulls = NullBuffer::from_iter(arrays.iter().map(Option::is_some));
    let item = Arc::new(Field::new_list_field(T::DATA_TYPE, false));
    Arc::new(ListArray::new(
        item,
        offsets,
        Arc::new(PrimitiveArray::<T>::new(ScalarBuffer::from(items), None)),
        Some(nulls),
    ))
}

/// A field of a type slow5lib does not define: its bytes.
fn bytes(values: &[Option<&AuxValue>]) -> ArrayRef {
    Arc::new(BinaryArray::from_iter(values.iter().map(|v| match v {
        Some(AuxValue::Array(b)) => Some(b.as_slice()),
        _ => None,
    })))
}
