//! [`PerIsa`]: one table of kernels per instruction set and the cached choice of the best,
//! the one dispatch mechanism every svb kernel crate uses.

use core::sync::atomic::{AtomicPtr, Ordering};

use crate::Isa;

/// Declares a `static` [`PerIsa`] from one table expression per ISA, each behind the `cfg`
/// of the architecture it compiles on. The tables become anonymous statics that only the
/// `PerIsa` can hand out.
#[macro_export]
macro_rules! per_isa {
    (
        $(#[$attr:meta])*
        $vis:vis static $name:ident: PerIsa<$t:ty> = {
            Scalar => $scalar:expr
            $(, $(#[$cfg:meta])* $isa:ident => $table:expr)* $(,)?
        };
    ) => {
        $(#[$attr])*
        $vis static $name: $crate::PerIsa<$t> = {
            static SCALAR: $t = $scalar;
            let t = $crate::PerIsa::new(&SCALAR);
            $(
                $(#[$cfg])*
                // An x86-64 target without SSE2 is a soft-float one (kernels, firmware:
                // `x86_64-unknown-none`): it may not use vector registers, so it gets no
                // SIMD table (and LLVM, asked to compile such kernels there, fails).
                #[cfg(not(all(target_arch = "x86_64", not(target_feature = "sse2"))))]
                let t = {
                    static TABLE: $t = $table;
                    t.with($crate::Isa::$isa, &TABLE)
                };
            )*
            t
        };
    };
}

/// One kernel table per ISA (the scalar one always present) and the cached choice of the
/// best one this CPU runs.
///
/// The pattern that makes kernels sound to call: a crate keeps its tables private and hands
/// them out only through [`PerIsa::get`] (which checks the CPU) and [`PerIsa::best`], so a
/// `&'static` table is the proof that the CPU has the features its `unsafe fn` kernels were
/// compiled for, and the table's safe methods may call them.
///
/// Declared with [`per_isa!`](crate::per_isa):
///
/// ```
/// use svb_dispatch::{per_isa, Isa, PerIsa};
/// pub struct Kernels { isa: Isa, sum: unsafe fn(&[u32]) -> u32 }
/// fn sum_scalar(v: &[u32]) -> u32 { v.iter().sum() }
/// per_isa! {
///     static KERNELS: PerIsa<Kernels> = {
///         Scalar => Kernels { isa: Isa::Scalar, sum: sum_scalar },
///         // #[cfg(target_arch = "x86_64")]
///         // Avx2 => Kernels { isa: Isa::Avx2, sum: x86_64::sum_avx2 },
///     };
/// }
/// impl Kernels {
///     pub fn sum(&self, v: &[u32]) -> u32 {
///         // SAFETY: `self` came from `KERNELS`, which hands out only tables this CPU runs.
///         unsafe { (self.sum)(v) }
///     }
/// }
/// assert_eq!(KERNELS.best().sum(&[1, 2, 3]), 6);
/// assert_eq!(KERNELS.get(Isa::Scalar).unwrap().isa, Isa::Scalar);
/// ```
///
/// The tables are shared by every thread, so they must be `Sync`: a table of `Cell`s (whose
/// unsynchronised updates from two threads would race) does not compile.
///
/// ```compile_fail,E0277
/// use std::cell::Cell;
/// use svb_dispatch::PerIsa;
/// let table: &'static Cell<u64> = Box::leak(Box::new(Cell::new(0)));
/// let racy = PerIsa::new(table);
/// ```
pub struct PerIsa<T: Sync + 'static> {
    scalar: &'static T,
    /// Indexed by `Isa as usize - 1` (the scalar entry is `scalar`).
    tables: [Option<&'static T>; 4],
    best: AtomicPtr<T>,
}

impl<T: Sync + 'static> PerIsa<T> {
    /// A set holding only the scalar table (which every CPU runs).
    pub const fn new(scalar: &'static T) -> Self {
        PerIsa {
            scalar,
            tables: [Some(scalar), None, None, None],
            best: AtomicPtr::new(core::ptr::null_mut()),
        }
    }

    /// Adds the table of `isa`: kernels that may be called whenever `isa.is_available()`.
    pub const fn with(mut self, isa: Isa, table: &'static T) -> Self {
        self.tables[isa as usize - 1] = Some(table);
        self
    }

    /// The table of `isa`, or `None` when this CPU (or build) cannot run it.
    #[inline]
    pub fn get(&self, isa: Isa) -> Option<&'static T> {
        if isa.is_available() {
            self.tables[isa as usize - 1]
        } else {
            None
        }
    }

    /// The table of the best ISA: known at compile time when the target features guarantee
    /// it ([`Isa::STATIC_BEST`]), otherwise chosen on the first call and then read with one
    /// atomic load. Falls back to the fastest table present when the best ISA has none.
    #[inline]
    pub fn best(&self) -> &'static T {
        if let Some(isa) = Isa::STATIC_BEST {
            if let Some(t) = self.tables[isa as usize - 1] {
                return t;
            }
        }
        let p = self.best.load(Ordering::Acquire);
        if p.is_null() {
            self.choose()
        } else {
            // SAFETY: the only non-null value ever stored is a `&'static T` from `tables`.
            unsafe { &*p }
        }
    }

    #[cold]
    fn choose(&self) -> &'static T {
        let best = Isa::best();
        // The fastest table present among the ISAs the choice (and `SVB_ISA`) allows.
        let t = Isa::available()
            .filter(|&isa| crate::allowed_under(isa, Some(best)))
            .filter_map(|isa| self.tables[isa as usize - 1])
            .last()
            .unwrap_or(self.scalar);
        self.best.store(t as *const T as *mut T, Ordering::Release);
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Table(Isa);
    static SCALAR: Table = Table(Isa::Scalar);
    static SSSE3: Table = Table(Isa::Ssse3);
    static AVX2: Table = Table(Isa::Avx2);
    static NEON: Table = Table(Isa::Neon);

    #[test]
    fn get_checks_the_cpu_and_best_is_the_fastest_present() {
        static ALL: PerIsa<Table> = PerIsa::new(&SCALAR)
            .with(Isa::Ssse3, &SSSE3)
            .with(Isa::Avx2, &AVX2)
            .with(Isa::Neon, &NEON);
        for isa in Isa::ALL {
            assert_eq!(ALL.get(isa).map(|t| t.0), isa.is_available().then_some(isa));
        }
        assert_eq!(ALL.best().0, Isa::best());
        assert!(core::ptr::eq(ALL.best(), ALL.best()));
    }

    #[test]
    fn best_falls_back_to_a_slower_table() {
        static ONLY_SSSE3: PerIsa<Table> = PerIsa::new(&SCALAR).with(Isa::Ssse3, &SSSE3);
        let want = if Isa::best() >= Isa::Ssse3 && Isa::best() != Isa::Neon {
            Isa::Ssse3
        } else {
            Isa::Scalar
        };
        assert_eq!(ONLY_SSSE3.best().0, want);
        static ONLY_SCALAR: PerIsa<Table> = PerIsa::new(&SCALAR);
        assert_eq!(ONLY_SCALAR.best().0, Isa::Scalar);
        assert!(ONLY_SCALAR.get(Isa::Avx2).is_none());
    }
}
