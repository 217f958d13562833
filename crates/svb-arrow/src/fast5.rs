//! FAST5 reads as the columns of a batch: the read layer's FAST5 fields (attributes read per
//! read, no table to read a column from) and the signal.

use std::sync::Arc;

use arrow_array::types::{
    ArrowPrimitiveType, Float32Type, Float64Type, UInt16Type, UInt32Type, UInt64Type, UInt8Type,
};
use arrow_array::{ArrayRef, BooleanArray, PrimitiveArray, StringArray};
use rayon::prelude::*;
use svb_fast5::Reader;
use svb_model::{Calibration, FieldKind, Fields, Value, FAST5_FIELDS};

use crate::columns::{file_name, Wanted};
use crate::{batch_end, signal, ArrowReadError, Batch, Options};

/// The next batch of `r` from read `start`: its columns and its end. Reads are decoded on the
/// current rayon pool (a read's attributes and its signal together; a batch is sized by the
/// datasets' declared counts).
pub(crate) fn batch(r: &Reader, start: usize, options: &Options, wanted: &Wanted) -> Batch {
    let with_signal = options.signal.column().is_some();
    let end = batch_end(start, r.len(), options, |i| r.samples(i).unwrap_or(0));
    // Per read: its fields, its samples (none without a signal column), its calibration, its id.
    let reads: Vec<(Fields, Vec<i16>, Calibration, String)> = (start..end)
        .into_par_iter()
        .map(|i| {
            let read = r.read(i)?;
            // Without a signal column the count is the dataset's, and nothing is decoded.
            let (samples, n) = match with_signal {
                true => r.signal(i).map(|s| {
                    let n = s.len() as u64;
                    (s, n)
                })?,
                false => (Vec::new(), r.samples(i)?),
            };
            Ok((
                svb_fast5::model::fields(&read, n),
                samples,
                svb_fast5::model::calibration(&read),
                read.read_id,
            ))
        })
        .collect::<Result<_, svb_fast5::Fast5Error>>()
        .map_err(svb_reads::ReadsError::from)?;
    let filename = file_name(r.path());
    let mut columns: Vec<ArrayRef> = wanted
        .picked
        .iter()
        .map(|&c| {
            let name = wanted.all.name(c);
            match name {
                "read_id" => crate::columns::text(reads.iter().map(|x| x.3.as_str())),
                "filename" => crate::columns::text(reads.iter().map(|_| filename.as_str())),
                _ => {
                    // A read's fields are FAST5_FIELDS after read_id and filename.
                    let at = FAST5_FIELDS.iter().position(|(n, _)| *n == name);
                    let at = at.expect("a FAST5 column");
                    values(FAST5_FIELDS[at].1, reads.iter().map(|x| &x.0[at - 2].1))
                }
            }
        })
        .collect();
    if with_signal {
        let parts: Vec<(&[i16], Calibration)> =
            reads.iter().map(|x| (x.1.as_slice(), x.2)).collect();
        columns.push(signal::from_decoded(&parts, options.signal).map_err(|(k, samples)| {
            ArrowReadError::ReadTooLong {
                path: r.path().to_path_buf(),
                read_id: reads[k].3.clone(),
                samples,
            }
        })?);
    }
    Ok((columns, end))
}

/// A column of `kind` from the read layer's values (`Value::None`, or a value of another
/// kind, or one out of the column's range, is null).
fn values<'a>(kind: FieldKind, v: impl Iterator<Item = &'a Value>) -> ArrayRef {
    fn uint<N: TryFrom<u64>>(v: &Value) -> Option<N> {
        match *v {
            Value::UInt(u) => N::try_from(u).ok(),
            _ => None,
        }
    }
    fn float(v: &Value) -> Option<f64> {
        match *v {
            Value::Float(f) => Some(f),
            _ => None,
        }
    }
    fn column<T: ArrowPrimitiveType>(values: impl Iterator<Item = Option<T::Native>>) -> ArrayRef {
        Arc::new(PrimitiveArray::<T>::from_iter(values))
    }
    match kind {
        FieldKind::Bool => Arc::new(BooleanArray::from_iter(v.map(|v| match *v {
            Value::Bool(x) => Some(x),
            _ => None,
        }))),
        FieldKind::U8 => column::<UInt8Type>(v.map(uint)),
        FieldKind::U16 => column::<UInt16Type>(v.map(uint)),
        FieldKind::U32 => column::<UInt32Type>(v.map(uint)),
        FieldKind::U64 => column::<UInt64Type>(v.map(uint)),
        FieldKind::F32 => column::<Float32Type>(v.map(|x| float(x).map(|f| f as f32))),
        FieldKind::F64 => column::<Float64Type>(v.map(float)),
        FieldKind::Text => Arc::new(StringArray::from_iter(v.map(|v| match v {
            Value::Text(s) => Some(s.as_str()),
            _ => None,
        }))),
    }
}
