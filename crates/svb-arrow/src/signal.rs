//! The signal column: each read's samples decoded on rayon, one list array a batch.

use std::sync::Arc;

use arrow_array::types::{Float32Type, Int16Type};
use arrow_array::{ArrayRef, ListArray, PrimitiveArray};
use arrow_buffer::{OffsetBuffer, ScalarBuffer};
use arrow_schema::{DataType, Field};
use rayon::prelude::*;

use crate::Signal;

/// The signal column's field: `list<int16>` raw, `list<float32>` in pA.
pub(crate) fn field(name: &str, signal: Signal) -> Field {
    Field::new(name, list_type(signal), false)
}

fn item(signal: Signal) -> DataType {
    match signal {
        Signal::PicoAmps => DataType::Float32,
        _ => DataType::Int16,
    }
}

fn list_type(signal: Signal) -> DataType {
    DataType::List(Arc::new(Field::new_list_field(item(signal), false)))
}

/// One read's calibration: pA = (adc + offset) * scale.
#[derive(Clone, Copy)]
pub(crate) struct Calibration {
    pub offset: f32,
    pub scale: f32,
}

/// The signal column of reads `range`: `decode(i)` gives read `i`'s samples and its
/// calibration; reads are decoded in parallel on the current rayon pool. `too_long(i, total)`
/// is the error when the batch's samples up to read `i` pass what an Arrow list holds.
pub(crate) fn column<E: Send>(
    range: std::ops::Range<usize>,
    signal: Signal,
    decode: impl Fn(usize) -> Result<(Vec<i16>, Calibration), E> + Sync + Send,
    too_long: impl Fn(usize, u64) -> E,
) -> Result<ArrayRef, E> {
    let start = range.start;
    let parts: Vec<(Vec<i16>, Calibration)> = range
        .into_par_iter()
        .map(&decode)
        .collect::<Result<_, E>>()?;
    from_decoded(parts, signal).map_err(|(k, n)| too_long(start + k, n))
}

/// The signal column of decoded reads (in pA: each converted on the current rayon pool).
/// `Err((k, total))` when the samples up to read `k` pass what an Arrow list holds.
pub(crate) fn from_decoded(
    parts: Vec<(Vec<i16>, Calibration)>,
    signal: Signal,
) -> Result<ArrayRef, (usize, u64)> {
    match signal {
        Signal::PicoAmps => {
            let pa: Vec<Vec<f32>> = parts
                .into_par_iter()
                .map(|(s, c)| {
                    s.iter()
                        .map(|&x| (f32::from(x) + c.offset) * c.scale)
                        .collect()
                })
                .collect();
            list::<Float32Type>(pa, signal)
        }
        _ => list::<Int16Type>(parts.into_iter().map(|(s, _)| s).collect(), signal),
    }
}

/// One list array of `parts`, one list each; `Err((k, total))` when the samples up to part
/// `k` pass `i32::MAX`.
fn list<T: arrow_array::types::ArrowPrimitiveType>(
    parts: Vec<Vec<T::Native>>,
    signal: Signal,
) -> Result<ArrayRef, (usize, u64)> {
    let mut total = 0u64;
    for (k, p) in parts.iter().enumerate() {
        total += p.len() as u64;
        if total > i32::MAX as u64 {
            return Err((k, total));
        }
    }
    let mut values: Vec<T::Native> = Vec::with_capacity(total as usize);
    for p in &parts {
        values.extend_from_slice(p);
    }
    let offsets = OffsetBuffer::<i32>::from_lengths(parts.iter().map(Vec::len));
    let values = PrimitiveArray::<T>::new(ScalarBuffer::from(values), None);
    let DataType::List(item) = list_type(signal) else {
        unreachable!("a list type")
    };
    Ok(Arc::new(ListArray::new(
        item,
        offsets,
        Arc::new(values),
        None,
    )))
}
