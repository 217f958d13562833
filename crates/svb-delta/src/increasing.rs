//! Whether a u32 sequence strictly increases (sorted doc ids, row ids): the check a decoder
//! of untrusted sorted lists runs over what it decoded, so a hostile stream cannot hand out
//! ids out of order. Each ISA compares every value with the one before it, eight (AVX2) or
//! four (SSSE3, NEON) at a time from two loads one value apart (the last step ending at the
//! last value, overlapping pairs already checked), and folds the results without a branch;
//! the scalar kernel is the same fold.
//!
//! ```
//! use svb_delta::increasing::strictly_increasing;
//! assert!(strictly_increasing(&[1, 5, 9, 70_000]));
//! assert!(!strictly_increasing(&[1, 5, 5, 9]));
//! assert!(!strictly_increasing(&[u32::MAX, 0])); // no wrap-around
//! assert!(strictly_increasing(&[]));
//! ```

use svb_dispatch::{per_isa, Isa};

/// Kernel: whether `values` strictly increase.
type CheckFn = unsafe fn(&[u32]) -> bool;

/// One ISA's check. Obtain it with [`kernels_for`] (which checks the CPU) to compare ISAs;
/// [`strictly_increasing`] uses the cached best choice.
///
/// A `&'static Kernels` exists only for an ISA this CPU runs (the tables are private and
/// handed out through [`PerIsa`](svb_dispatch::PerIsa)), so its method is safe.
pub struct Kernels {
    isa: Isa,
    check: CheckFn,
}

impl core::fmt::Debug for Kernels {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Kernels").field("isa", &self.isa).finish_non_exhaustive()
    }
}

impl Kernels {
    /// The instruction set this check uses.
    pub fn isa(&self) -> Isa {
        self.isa
    }

    /// Whether every value of `values` is above the one before it (unsigned).
    pub fn strictly_increasing(&self, values: &[u32]) -> bool {
        // SAFETY: `self` is one of the private tables below, handed out only for ISAs this
        // CPU runs.
        unsafe { (self.check)(values) }
    }
}

per_isa! {
    static KERNELS: PerIsa<Kernels> = {
        Scalar => Kernels { isa: Isa::Scalar, check: scalar },
        #[cfg(target_arch = "x86_64")]
        Ssse3 => Kernels { isa: Isa::Ssse3, check: ssse3 },
        #[cfg(target_arch = "x86_64")]
        Avx2 => Kernels { isa: Isa::Avx2, check: avx2 },
        #[cfg(target_arch = "aarch64")]
        Neon => Kernels { isa: Isa::Neon, check: neon },
    };
}

/// The check of `isa`, or `None` when this CPU (or build) cannot run it.
pub fn kernels_for(isa: Isa) -> Option<&'static Kernels> {
    KERNELS.get(isa)
}

/// Whether every value of `values` is above the one before it (unsigned; an empty or
/// one-value slice is increasing), with the best kernel this CPU runs.
#[inline]
pub fn strictly_increasing(values: &[u32]) -> bool {
    KERNELS.best().strictly_increasing(values)
}

/// The portable fold: one compare a pair, no branch.
///
/// # Safety
/// None (unsafe only to share the kernels' signature).
unsafe fn scalar(values: &[u32]) -> bool {
    fold(values)
}

/// The fold over every pair (the kernels' answer for slices shorter than one step).
#[inline(always)]
fn fold(values: &[u32]) -> bool {
    let bad = values
        .iter()
        .zip(values.iter().skip(1))
        .fold(0u32, |acc, (&before, &next)| acc | (next <= before) as u32);
    bad == 0
}

/// SSSE3 (SSE2's compares suffice): `next > before` as signed compares of the values with
/// their top bit flipped, four pairs a step.
///
/// # Safety
/// The CPU must support SSSE3.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "ssse3")]
unsafe fn ssse3(values: &[u32]) -> bool {
    use core::arch::x86_64::*;
    let (p, n) = (values.as_ptr(), values.len());
    if n < 5 {
        return fold(values);
    }
    let bias = _mm_set1_epi32(i32::MIN);
    let mut good = _mm_set1_epi32(-1);
    // Pairs (at + k, at + k + 1) for k < 4; the last step ends at the last value.
    let mut i = 0;
    while i + 1 < n {
        let at = i.min(n - 5);
        // SAFETY: values at..at + 5 exist (at <= n - 5).
        let (before, next) =
            unsafe { (_mm_loadu_si128(p.add(at).cast()), _mm_loadu_si128(p.add(at + 1).cast())) };
        let gt = _mm_cmpgt_epi32(_mm_xor_si128(next, bias), _mm_xor_si128(before, bias));
        good = _mm_and_si128(good, gt);
        i = at + 4;
    }
    _mm_movemask_epi8(good) == 0xFFFF
}

/// AVX2: `before >= next` as `max(before, next) == before`, eight pairs a step.
///
/// # Safety
/// The CPU must support AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn avx2(values: &[u32]) -> bool {
    use core::arch::x86_64::*;
    let (p, n) = (values.as_ptr(), values.len());
    if n < 9 {
        return fold(values);
    }
    let mut bad = _mm256_setzero_si256();
    // Pairs (at + k, at + k + 1) for k < 8; the last step ends at the last value.
    let mut i = 0;
    while i + 1 < n {
        let at = i.min(n - 9);
        // SAFETY: values at..at + 9 exist (at <= n - 9).
        let (before, next) = unsafe {
            (_mm256_loadu_si256(p.add(at).cast()), _mm256_loadu_si256(p.add(at + 1).cast()))
        };
        bad = _mm256_or_si256(bad, _mm256_cmpeq_epi32(_mm256_max_epu32(before, next), before));
        i = at + 8;
    }
    _mm256_testz_si256(bad, bad) == 1
}

/// NEON: `next <= before` as `vcleq_u32`, four pairs a step.
///
/// # Safety
/// The CPU must support NEON.
#[cfg(target_arch = "aarch64")]
#[target_feature(enable = "neon")]
unsafe fn neon(values: &[u32]) -> bool {
    use core::arch::aarch64::*;
    let (p, n) = (values.as_ptr(), values.len());
    if n < 5 {
        return fold(values);
    }
    let mut bad = vdupq_n_u32(0);
    // Pairs (at + k, at + k + 1) for k < 4; the last step ends at the last value.
    let mut i = 0;
    while i + 1 < n {
        let at = i.min(n - 5);
        // SAFETY: values at..at + 5 exist (at <= n - 5).
        let (before, next) = unsafe { (vld1q_u32(p.add(at)), vld1q_u32(p.add(at + 1))) };
        bad = vorrq_u32(bad, vcleq_u32(next, before));
        i = at + 4;
    }
    vmaxvq_u32(bad) == 0
}
