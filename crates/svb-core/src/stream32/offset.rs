//! Frame-of-reference decoding of the plain u32 wires ([`U32Classic`](super::U32Classic),
//! [`U32Variant0124`](super::U32Variant0124)): each value plus a base, added in registers
//! as each group is unpacked (the plain kernels with the `Offset` finish step), so a stream
//! of values stored minus a base (a column's minimum, a count's lower bound of one) decodes
//! in one pass with no second one over the output.

use crate::DecodeResult;
use core::mem::MaybeUninit;

use svb_dispatch::{uninit, Isa};

/// Decode kernel: `(input, base, out) -> (bytes consumed, base)`.
pub(crate) type OffsetFn =
    unsafe fn(&[u8], u32, &mut [MaybeUninit<u32>]) -> DecodeResult<(usize, u32)>;

/// One ISA's offset decoder of one u32 wire. Obtain it with the codec's
/// `offset_kernels_for` (which checks the CPU) to compare ISAs; the codec's
/// `decode_offset_to_slice` uses the cached best choice.
///
/// A `&'static OffsetKernels` exists only for an ISA this CPU runs (the tables are private
/// and handed out through [`PerIsa`](svb_dispatch::PerIsa)), so its methods are safe.
pub struct OffsetKernels {
    pub(crate) isa: Isa,
    pub(crate) decode: OffsetFn,
}

debug_by_isa!(OffsetKernels);

impl OffsetKernels {
    /// The instruction set this decoder uses.
    pub fn isa(&self) -> Isa {
        self.isa
    }

    /// Decodes `out.len()` values from the front of `input`, each plus `base` (wrapping);
    /// returns the bytes consumed.
    pub fn decode_to_slice(&self, input: &[u8], base: u32, out: &mut [u32]) -> DecodeResult {
        // SAFETY: the kernels write only initialised values; `self` is one of the codecs'
        // private tables, handed out only for ISAs this CPU runs.
        unsafe { (self.decode)(input, base, uninit::as_uninit_mut(out)) }.map(|(used, _)| used)
    }
}
