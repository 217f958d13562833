//! Portable prefix sums (and the tails of the SIMD loops).

/// Defines the scalar prefix-sum loops of one element type.
macro_rules! scalar_loops {
    ($t:ty, $decode:ident $(, $chains:ident)?) => {
        /// Decodes `n` wrapping deltas from `src` to `dst` (which may equal `src`); returns
        /// the last value.
        ///
        /// # Safety
        /// `src` is readable and `dst` writable for `n` elements.
        pub(crate) unsafe fn $decode(initial: $t, src: *const $t, dst: *mut $t, n: usize) -> $t {
            let mut last = initial;
            for i in 0..n {
                // SAFETY: i < n elements are readable at src and writable at dst.
                unsafe {
                    last = last.wrapping_add(*src.add(i));
                    *dst.add(i) = last;
                }
            }
            last
        }

        $(
        /// `K` chains interleaved element by element (independent adds overlap).
        ///
        /// # Safety
        /// Every `src[j]` is readable and `dst[j]` writable for `len` elements.
        pub(crate) unsafe fn $chains<const K: usize>(
            src: [*const $t; K],
            dst: [*mut $t; K],
            mut carries: [$t; K],
            len: usize,
        ) -> (usize, [$t; K]) {
            for i in 0..len {
                for j in 0..K {
                    // SAFETY: i < len elements of every chain are readable/writable.
                    unsafe {
                        carries[j] = carries[j].wrapping_add(*src[j].add(i));
                        *dst[j].add(i) = carries[j];
                    }
                }
            }
            (len, carries)
        }
        )?
    };
}

scalar_loops!(u16, decode_u16, chains_u16);
scalar_loops!(u32, decode_u32);
scalar_loops!(u64, decode_u64);
