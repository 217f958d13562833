//! The signal column: each batch's samples decoded on rayon straight into the one buffer the
//! list array keeps (fresh memory costs a page fault per 4 KiB, so nothing is decoded into a
//! buffer of its own and copied).

use std::cell::RefCell;
use std::sync::Arc;

use arrow_array::types::{ArrowPrimitiveType, Float32Type, Int16Type};
use arrow_array::{ArrayRef, ListArray, PrimitiveArray};
use arrow_buffer::{OffsetBuffer, ScalarBuffer};
use arrow_schema::{DataType, Field};
use rayon::prelude::*;

pub(crate) use svb_model::Calibration;

use crate::SignalColumn;

/// The signal column's field: `list<int16>` raw, `list<float32>` in pA.
pub(crate) fn field(name: &str, signal: SignalColumn) -> Field {
    Field::new(name, list_type(signal), false)
}

fn item(signal: SignalColumn) -> DataType {
    match signal {
        SignalColumn::PicoAmps => DataType::Float32,
        _ => DataType::Int16,
    }
}

fn list_type(signal: SignalColumn) -> DataType {
    DataType::List(Arc::new(Field::new_list_field(item(signal), false)))
}

thread_local! {
    /// A worker's decode buffer for calibrated output (the int16 samples before they are
    /// converted into the batch's buffer).
    static SCRATCH: RefCell<Vec<i16>> = const { RefCell::new(Vec::new()) };
}

/// The signal column of reads whose sample counts `lens` are known before they are decoded
/// (their sum bounded by the batch): `decode(k, out)` decodes read `k` into `out` (of
/// `lens[k]` samples) on the current rayon pool, into the batch's buffer, or for pA into a
/// worker's scratch and then calibrated by `calibration(k)` into the buffer.
pub(crate) fn decode_known<E: Send>(
    lens: &[usize], signal: SignalColumn,
    decode: impl Fn(usize, &mut [i16]) -> Result<(), E> + Sync + Send,
    calibration: impl Fn(usize) -> Calibration + Sync + Send,
) -> Result<ArrayRef, E> {
    match signal {
        SignalColumn::PicoAmps => {
            let values = fill::<f32, E>(lens, |k, out| {
                svb_io::with_scratch(&SCRATCH, |scratch| {
                    scratch.clear();
                    scratch.resize(out.len(), 0);
                    let r = decode(k, scratch);
                    if r.is_ok() {
                        calibration(k).pa_into(scratch, out);
                    }
                    r
                })
            })?;
            Ok(list::<Float32Type>(values, lens, signal))
        }
        _ => Ok(list::<Int16Type>(fill(lens, decode)?, lens, signal)),
    }
}

/// The signal column of reads already decoded: copied (or calibrated) into the batch's
/// buffer on the current rayon pool. `Err((k, total))` when the samples up to read `k` pass
/// what an Arrow list holds.
pub(crate) fn from_decoded(
    parts: &[(&[i16], Calibration)], signal: SignalColumn,
) -> Result<ArrayRef, (usize, u64)> {
    let lens: Vec<usize> = parts.iter().map(|(s, _)| s.len()).collect();
    check_total(&lens)?;
    Ok(match signal {
        SignalColumn::PicoAmps => {
            let values = fill::<f32, ()>(&lens, |k, out| {
                parts[k].1.pa_into(parts[k].0, out);
                Ok(())
            })
            .expect("infallible");
            list::<Float32Type>(values, &lens, signal)
        }
        _ => {
            let values = fill::<i16, ()>(&lens, |k, out| {
                out.copy_from_slice(parts[k].0);
                Ok(())
            })
            .expect("infallible");
            list::<Int16Type>(values, &lens, signal)
        }
    })
}

/// The signal column of one read decoded on its own (a read longer than a batch: its
/// samples grew with what its chunks really held), without a copy for raw samples.
pub(crate) fn single(
    samples: Vec<i16>, calibration: Calibration, signal: SignalColumn,
) -> ArrayRef {
    let lens = [samples.len()];
    match signal {
        SignalColumn::PicoAmps => {
            let mut values = vec![0f32; samples.len()];
            values
                .par_chunks_mut(1 << 16)
                .zip(samples.par_chunks(1 << 16))
                .for_each(|(o, s)| calibration.pa_into(s, o));
            list::<Float32Type>(values, &lens, signal)
        }
        _ => list::<Int16Type>(samples, &lens, signal),
    }
}

/// `Err((k, total))` when the samples up to part `k` pass `i32::MAX` (an Arrow list's
/// offsets).
pub(crate) fn check_total(lens: &[usize]) -> Result<(), (usize, u64)> {
    let mut total = 0u64;
    for (k, &n) in lens.iter().enumerate() {
        total += n as u64;
        if total > i32::MAX as u64 {
            return Err((k, total));
        }
    }
    Ok(())
}

/// One buffer of `lens`' total, its read `k`'s span filled by `f(k, span)` on the current
/// rayon pool. The buffer is allocated zeroed (fresh pages from the OS, not written twice)
/// and each span first touched by the thread that fills it.
fn fill<T: Copy + Default + Send + Sync, E: Send>(
    lens: &[usize], f: impl Fn(usize, &mut [T]) -> Result<(), E> + Sync + Send,
) -> Result<Vec<T>, E> {
    let total = lens.iter().sum();
    let mut values = vec![T::default(); total];
    let mut spans: Vec<&mut [T]> = Vec::with_capacity(lens.len());
    let mut rest = values.as_mut_slice();
    for &n in lens {
        let (span, tail) = rest.split_at_mut(n);
        spans.push(span);
        rest = tail;
    }
    spans.into_par_iter().with_max_len(1).enumerate().try_for_each(|(k, span)| f(k, span))?;
    Ok(values)
}

/// One list array of `values`, `lens[k]` items in list `k` (their sum is `values.len()`,
/// within `i32::MAX`).
fn list<T: ArrowPrimitiveType>(
    values: Vec<T::Native>, lens: &[usize], signal: SignalColumn,
) -> ArrayRef {
    let offsets = OffsetBuffer::<i32>::from_lengths(lens.iter().copied());
    let values = PrimitiveArray::<T>::new(ScalarBuffer::from(values), None);
    let DataType::List(item) = list_type(signal) else { unreachable!("a list type") };
    Arc::new(ListArray::new(item, offsets, Arc::new(values), None))
}
