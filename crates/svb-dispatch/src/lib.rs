//! What every svb kernel crate shares: the instruction-set choice and the one dispatch
//! mechanism, [`PerIsa`], and the one bridge to uninitialised output, [`uninit`].
//!
//! The CPU is inspected once; the answer is cached in an atomic and every later call
//! costs one relaxed load (none when the build's target features already decide it). Kernel
//! crates keep one [`PerIsa`] table set per kernel family, so a hot call is at most one
//! atomic load plus one indirect call, never a CPUID per call.
//!
//! ```
//! use svb_dispatch::Isa;
//! let isa = Isa::best();
//! assert!(isa.is_available());
//! println!("decoding with {isa}");
//! ```
//!
//! The environment variable `SVB_ISA=scalar|ssse3|avx2|neon` (read once, with `std`) caps
//! the choice, so a whole program can be checked on a slower path.

#![cfg_attr(not(feature = "std"), no_std)]

#[cfg(feature = "alloc")]
extern crate alloc;

mod per_isa;
pub mod uninit;

use core::fmt;
use core::sync::atomic::{AtomicU8, Ordering};

pub use per_isa::PerIsa;

/// An instruction set a kernel can be written for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Isa {
    /// Portable Rust, every target.
    Scalar = 1,
    /// x86 / x86-64 with SSSE3 (`pshufb`).
    Ssse3 = 2,
    /// x86-64 with AVX2.
    Avx2 = 3,
    /// AArch64 Advanced SIMD.
    Neon = 4,
}

impl Isa {
    /// Every ISA, slowest first.
    pub const ALL: [Isa; 4] = [Isa::Scalar, Isa::Ssse3, Isa::Avx2, Isa::Neon];

    /// The lower-case name (`"avx2"`).
    pub const fn name(self) -> &'static str {
        match self {
            Isa::Scalar => "scalar",
            Isa::Ssse3 => "ssse3",
            Isa::Avx2 => "avx2",
            Isa::Neon => "neon",
        }
    }

    /// Parses a name as printed by [`Isa::name`] (case-insensitive).
    pub fn from_name(name: &str) -> Option<Isa> {
        Isa::ALL.into_iter().find(|isa| isa.name().eq_ignore_ascii_case(name.trim()))
    }

    /// Whether this CPU can run kernels written for `self`. Detected once, then cached.
    pub fn is_available(self) -> bool {
        features() & (1 << self as u8) != 0
    }

    /// The ISAs this CPU can run, slowest first (always starts with [`Isa::Scalar`]).
    pub fn available() -> impl Iterator<Item = Isa> {
        Isa::ALL.into_iter().filter(|isa| isa.is_available())
    }

    /// The fastest available ISA, capped by `SVB_ISA` when set. Detected once, then cached.
    /// When the build's target features already guarantee an ISA (see [`Isa::STATIC_BEST`])
    /// that ISA is the answer, known at compile time, and `SVB_ISA` does not lower it.
    #[inline]
    pub fn best() -> Isa {
        if let Some(isa) = Isa::STATIC_BEST {
            return isa;
        }
        match BEST.load(Ordering::Relaxed) {
            0 => init_best(),
            v => Isa::from_u8(v),
        }
    }

    /// The best ISA that the build's target features guarantee (`-C target-cpu=native`,
    /// `-C target-feature=+avx2`, NEON on AArch64), in the order the `simd-*` features
    /// prefer; `None` when only run-time detection can tell (the default x86-64 build).
    pub const STATIC_BEST: Option<Isa> = static_best();

    fn from_u8(v: u8) -> Isa {
        match v {
            2 => Isa::Ssse3,
            3 => Isa::Avx2,
            4 => Isa::Neon,
            _ => Isa::Scalar,
        }
    }
}

impl fmt::Display for Isa {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What the target features enabled at compile time guarantee, in preference order.
const fn static_best() -> Option<Isa> {
    let x86 = cfg!(any(target_arch = "x86", target_arch = "x86_64"));
    let avx2 = x86 && cfg!(all(target_feature = "avx2", target_feature = "ssse3"));
    let ssse3 = x86 && cfg!(target_feature = "ssse3");
    let neon = cfg!(all(target_arch = "aarch64", target_feature = "neon"));
    let order = preference_order();
    let mut i = 0;
    while i < order.len() {
        let ok = match order[i] {
            Isa::Avx2 => avx2,
            Isa::Ssse3 => ssse3,
            Isa::Neon => neon,
            Isa::Scalar => false,
        };
        if ok {
            return Some(order[i]);
        }
        i += 1;
    }
    None
}

/// Bit `1 << isa` set for every available ISA; bit 0 marks "detected".
static FEATURES: AtomicU8 = AtomicU8::new(0);
/// `Isa as u8` of the best choice, 0 until computed.
static BEST: AtomicU8 = AtomicU8::new(0);

#[inline]
fn features() -> u8 {
    match FEATURES.load(Ordering::Relaxed) {
        0 => {
            let f = detect() | 1;
            FEATURES.store(f, Ordering::Relaxed);
            f
        }
        f => f,
    }
}

#[cold]
fn init_best() -> Isa {
    let f = features();
    let cap = cap_from_env();
    let best = preference_order()
        .into_iter()
        .find(|isa| f & (1 << *isa as u8) != 0 && allowed_under(*isa, cap))
        .unwrap_or(Isa::Scalar);
    BEST.store(best as u8, Ordering::Relaxed);
    best
}

/// Whether `isa` may be chosen when `SVB_ISA` caps the choice at `cap`.
fn allowed_under(isa: Isa, cap: Option<Isa>) -> bool {
    match cap {
        None => true,
        Some(Isa::Neon) => matches!(isa, Isa::Scalar | Isa::Neon),
        Some(c) => isa != Isa::Neon && isa <= c,
    }
}

/// The order in which ISAs are tried: forced compile-time features first.
const fn preference_order() -> [Isa; 4] {
    if cfg!(feature = "simd-neon") {
        [Isa::Neon, Isa::Avx2, Isa::Ssse3, Isa::Scalar]
    } else if cfg!(feature = "simd-avx2") {
        [Isa::Avx2, Isa::Ssse3, Isa::Neon, Isa::Scalar]
    } else if cfg!(feature = "simd-ssse3") {
        [Isa::Ssse3, Isa::Avx2, Isa::Neon, Isa::Scalar]
    } else {
        [Isa::Avx2, Isa::Neon, Isa::Ssse3, Isa::Scalar]
    }
}

#[cfg(feature = "std")]
fn cap_from_env() -> Option<Isa> {
    std::env::var("SVB_ISA").ok().and_then(|v| Isa::from_name(&v))
}

#[cfg(not(feature = "std"))]
fn cap_from_env() -> Option<Isa> {
    None
}

fn detect() -> u8 {
    let mut f = 1 << Isa::Scalar as u8;
    #[cfg(all(feature = "std", any(target_arch = "x86", target_arch = "x86_64")))]
    {
        if std::is_x86_feature_detected!("ssse3") {
            f |= 1 << Isa::Ssse3 as u8;
        }
        if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("ssse3") {
            f |= 1 << Isa::Avx2 as u8;
        }
    }
    #[cfg(all(not(feature = "std"), any(target_arch = "x86", target_arch = "x86_64")))]
    {
        if cfg!(target_feature = "ssse3") {
            f |= 1 << Isa::Ssse3 as u8;
        }
        if cfg!(all(target_feature = "avx2", target_feature = "ssse3")) {
            f |= 1 << Isa::Avx2 as u8;
        }
    }
    #[cfg(all(feature = "std", target_arch = "aarch64"))]
    {
        if std::arch::is_aarch64_feature_detected!("neon") {
            f |= 1 << Isa::Neon as u8;
        }
    }
    #[cfg(all(not(feature = "std"), target_arch = "aarch64"))]
    {
        if cfg!(target_feature = "neon") {
            f |= 1 << Isa::Neon as u8;
        }
    }
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn best_is_available_and_stable() {
        let a = Isa::best();
        assert!(a.is_available());
        assert_eq!(a, Isa::best());
        assert!(Isa::Scalar.is_available());
        assert_eq!(Isa::available().next(), Some(Isa::Scalar));
    }

    #[test]
    fn names_round_trip() {
        for isa in Isa::ALL {
            assert_eq!(Isa::from_name(isa.name()), Some(isa));
            assert_eq!(Isa::from_name(&isa.name().to_uppercase()), Some(isa));
        }
        assert_eq!(Isa::from_name("avx512"), None);
    }

    #[test]
    fn isa_matches_target() {
        #[cfg(target_arch = "x86_64")]
        assert!(!Isa::Neon.is_available());
        #[cfg(target_arch = "aarch64")]
        {
            assert!(!Isa::Avx2.is_available());
            assert!(!Isa::Ssse3.is_available());
        }
    }

    #[test]
    fn cap_limits_choice() {
        assert!(allowed_under(Isa::Avx2, None));
        assert!(allowed_under(Isa::Ssse3, Some(Isa::Avx2)));
        assert!(!allowed_under(Isa::Avx2, Some(Isa::Ssse3)));
        assert!(!allowed_under(Isa::Ssse3, Some(Isa::Scalar)));
        assert!(allowed_under(Isa::Neon, Some(Isa::Neon)));
        assert!(!allowed_under(Isa::Neon, Some(Isa::Avx2)));
    }
}
