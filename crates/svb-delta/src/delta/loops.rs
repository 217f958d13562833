//! The decode loops shared by every ISA, written once as a macro over one block operation:
//! `$block(x, carry) -> (sums, carry_out)` (see [`crate::kernels`]). The carry out is
//! `carry + total(x)`, where the total is computed from `x` alone, so the loop-carried
//! dependency is one vector add per block and the prefix sums of consecutive blocks overlap.

/// Defines, inside an ISA module, `unsafe fn $decode(initial, src, dst, n) -> last` and
/// `unsafe fn $chains<const K: usize>(src, dst, carries, len) -> (done, carries)`.
macro_rules! prefix_loops {
    // The loops of all three widths of one ISA: each width's vector type, lanes and block
    // prefix, the loads, stores, splats and first-lane reads named `load16` .. `first64`.
    ($feature:literal: $($t:ident x $lanes:literal in $v:ident by $block:ident),+ $(,)?) => {
        $(prefix_loops!(@width $feature, $t, $lanes, $v, $block);)+
    };
    (@width $feature:literal, u16, $lanes:literal, $v:ty, $block:ident) => {
        prefix_loops! {
            feature: $feature, elem: u16, lanes: $lanes, vector: $v,
            load: load16, store: store16, splat: splat16, first: first16,
            block: $block, decode: decode_u16, chains: chains_u16,
        }
    };
    (@width $feature:literal, u32, $lanes:literal, $v:ty, $block:ident) => {
        prefix_loops! {
            feature: $feature, elem: u32, lanes: $lanes, vector: $v,
            load: load32, store: store32, splat: splat32, first: first32,
            block: $block, decode: decode_u32,
        }
    };
    (@width $feature:literal, u64, $lanes:literal, $v:ty, $block:ident) => {
        prefix_loops! {
            feature: $feature, elem: u64, lanes: $lanes, vector: $v,
            load: load64, store: store64, splat: splat64, first: first64,
            block: $block, decode: decode_u64,
        }
    };
    (
        feature: $feature:literal,
        elem: $t:ty,
        lanes: $lanes:expr,
        vector: $v:ty,
        load: $load:path,
        store: $store:path,
        splat: $splat:path,
        first: $first:path,
        block: $block:path,
        decode: $decode:ident
        $(, chains: $chains:ident)? $(,)?
    ) => {
        /// Decodes `n` wrapping deltas from `src` to `dst` (which may be `src`), starting
        /// from `initial`; returns the last value (or `initial` when `n == 0`).
        ///
        /// # Safety
        /// The CPU supports the kernel's feature; `src` is readable and `dst` writable for
        /// `n` elements.
        #[target_feature(enable = $feature)]
        pub(crate) unsafe fn $decode(initial: $t, src: *const $t, dst: *mut $t, n: usize) -> $t {
            let mut carry: $v = $splat(initial);
            let mut i = 0usize;
            while i + $lanes <= n {
                // SAFETY: i + lanes <= n elements are readable at src and writable at dst.
                unsafe {
                    let (sums, next) = $block($load(src.add(i)), carry);
                    $store(dst.add(i), sums);
                    carry = next;
                }
                i += $lanes;
            }
            let mut last: $t = $first(carry);
            while i < n {
                // SAFETY: i < n.
                unsafe {
                    last = last.wrapping_add(*src.add(i));
                    *dst.add(i) = last;
                }
                i += 1;
            }
            last
        }

        $(
        /// Decodes `K` independent chains of `len` deltas each, interleaved block by block so
        /// their carry dependencies overlap; chain `j` reads `src[j]`, writes `dst[j]` and
        /// starts from `carries[j]`. Stops at the last whole block; returns the elements done
        /// per chain and each chain's last value.
        ///
        /// # Safety
        /// The CPU supports the kernel's feature; every `src[j]` is readable and `dst[j]`
        /// writable for `len` elements.
        #[target_feature(enable = $feature)]
        pub(crate) unsafe fn $chains<const K: usize>(
            src: [*const $t; K],
            dst: [*mut $t; K],
            carries: [$t; K],
            len: usize,
        ) -> (usize, [$t; K]) {
            let mut carry: [$v; K] = core::array::from_fn(|j| $splat(carries[j]));
            let mut i = 0usize;
            while i + $lanes <= len {
                for j in 0..K {
                    // SAFETY: i + lanes <= len elements of every chain are readable/writable.
                    unsafe {
                        let (sums, next) = $block($load(src[j].add(i)), carry[j]);
                        $store(dst[j].add(i), sums);
                        carry[j] = next;
                    }
                }
                i += $lanes;
            }
            (i, core::array::from_fn(|j| $first(carry[j])))
        }
        )?
    };
}
