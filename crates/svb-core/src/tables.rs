//! Lookup tables of every codec, generated at compile time from the byte lengths of the
//! 2-bit (or 1-bit) codes. A shuffle entry of `0xFF` writes a zero byte: `pshufb` zeroes on
//! the high bit and NEON `tbl` zeroes on an index of 16 or more, so one table serves both.

/// Byte lengths of the four 2-bit codes of `U32Classic` / `U64Coder1234`.
pub(crate) const LENS_1234: [u8; 4] = [1, 2, 3, 4];
/// Byte lengths of the four 2-bit codes of `U32Variant0124`.
pub(crate) const LENS_0124: [u8; 4] = [0, 1, 2, 4];
/// Byte lengths of the four 2-bit codes of `U64Coder1248`.
pub(crate) const LENS_1248: [u8; 4] = [1, 2, 4, 8];

/// Data bytes used by the four values of each control byte.
pub(crate) const fn ctrl_lens(lens: [u8; 4]) -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut c = 0;
    while c < 256 {
        let mut k = 0;
        while k < 4 {
            t[c] += lens[(c >> (2 * k)) & 3];
            k += 1;
        }
        c += 1;
    }
    t
}

/// Decode shuffles of a 4 x u32 group: the packed bytes of control `c` -> four u32 lanes.
pub(crate) const fn decode_shuffle_32(lens: [u8; 4]) -> [[u8; 16]; 256] {
    let mut t = [[0xFFu8; 16]; 256];
    let mut c = 0;
    while c < 256 {
        let mut src = 0u8;
        let mut k = 0;
        while k < 4 {
            let len = lens[(c >> (2 * k)) & 3];
            let mut b = 0;
            while b < len {
                t[c][4 * k + b as usize] = src;
                src += 1;
                b += 1;
            }
            k += 1;
        }
        c += 1;
    }
    t
}

/// Encode shuffles of a 4 x u32 group: four u32 lanes -> the packed bytes of control `c`.
pub(crate) const fn encode_shuffle_32(lens: [u8; 4]) -> [[u8; 16]; 256] {
    let mut t = [[0xFFu8; 16]; 256];
    let mut c = 0;
    while c < 256 {
        let mut dst = 0usize;
        let mut k = 0;
        while k < 4 {
            let len = lens[(c >> (2 * k)) & 3];
            let mut b = 0;
            while b < len {
                t[c][dst] = (4 * k + b as usize) as u8;
                dst += 1;
                b += 1;
            }
            k += 1;
        }
        c += 1;
    }
    t
}

/// Decode shuffles of a 4 x u32 group widened to four u64 lanes (`U64Coder1234`), 32 bytes.
pub(crate) const fn decode_shuffle_32_to_64(lens: [u8; 4]) -> [[u8; 32]; 256] {
    let mut t = [[0xFFu8; 32]; 256];
    let mut c = 0;
    while c < 256 {
        let mut src = 0u8;
        let mut k = 0;
        while k < 4 {
            let len = lens[(c >> (2 * k)) & 3];
            let mut b = 0;
            while b < len {
                t[c][8 * k + b as usize] = src;
                src += 1;
                b += 1;
            }
            k += 1;
        }
        c += 1;
    }
    t
}

/// The 2-bit code of one value from the zero flags of its bytes (bit `b` set: byte `b` is 0).
#[cfg_attr(
    not(any(target_arch = "x86", target_arch = "x86_64")),
    allow(dead_code)
)]
const fn code_from_zero_flags(lens: [u8; 4], zero: u32, width: u32) -> u8 {
    // Number of significant bytes: index of the highest non-zero byte + 1 (0 for the value 0).
    let mut sig = 0u8;
    let mut b = 0;
    while b < width {
        if zero & (1 << b) == 0 {
            sig = b as u8 + 1;
        }
        b += 1;
    }
    // The smallest code whose length holds `sig` bytes.
    let mut code = 0;
    while code < 3 && lens[code] < sig {
        code += 1;
    }
    code as u8
}

/// For two u32 lanes, the zero-byte flags (8 bits, as `pmovmskb` of a byte compare with 0
/// gives them) -> `ctrl nibble | (data bytes of both) << 8`.
#[cfg_attr(
    not(any(target_arch = "x86", target_arch = "x86_64")),
    allow(dead_code)
)]
pub(crate) const fn encode_pair_32(lens: [u8; 4]) -> [u16; 256] {
    let mut t = [0u16; 256];
    let mut m = 0;
    while m < 256 {
        let a = code_from_zero_flags(lens, (m & 0xF) as u32, 4);
        let b = code_from_zero_flags(lens, (m >> 4) as u32, 4);
        let len = lens[a as usize] as u16 + lens[b as usize] as u16;
        t[m] = (a as u16 | (b as u16) << 2) | len << 8;
        m += 1;
    }
    t
}

/// For one u64 lane, its 8 zero-byte flags -> its 2-bit code.
#[cfg_attr(
    not(any(target_arch = "x86", target_arch = "x86_64")),
    allow(dead_code)
)]
pub(crate) const fn encode_code_64(lens: [u8; 4]) -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut m = 0;
    while m < 256 {
        t[m] = code_from_zero_flags(lens, m as u32, 8);
        m += 1;
    }
    t
}

/// Decode shuffles of two u64 values (one control nibble) -> two u64 lanes.
pub(crate) const fn decode_shuffle_64_pair(lens: [u8; 4]) -> [[u8; 16]; 16] {
    let mut t = [[0xFFu8; 16]; 16];
    let mut c = 0;
    while c < 16 {
        let mut src = 0u8;
        let mut k = 0;
        while k < 2 {
            let len = lens[(c >> (2 * k)) & 3];
            let mut b = 0;
            while b < len {
                t[c][8 * k + b as usize] = src;
                src += 1;
                b += 1;
            }
            k += 1;
        }
        c += 1;
    }
    t
}

/// Encode shuffles of two u64 lanes -> the packed bytes of control nibble `c`.
pub(crate) const fn encode_shuffle_64_pair(lens: [u8; 4]) -> [[u8; 16]; 16] {
    let mut t = [[0xFFu8; 16]; 16];
    let mut c = 0;
    while c < 16 {
        let mut dst = 0usize;
        let mut k = 0;
        while k < 2 {
            let len = lens[(c >> (2 * k)) & 3];
            let mut b = 0;
            while b < len {
                t[c][dst] = (8 * k + b as usize) as u8;
                dst += 1;
                b += 1;
            }
            k += 1;
        }
        c += 1;
    }
    t
}

/// Data bytes of the two values of a control nibble.
pub(crate) const fn nibble_lens(lens: [u8; 4]) -> [u8; 16] {
    let mut t = [0u8; 16];
    let mut c = 0;
    while c < 16 {
        t[c] = lens[c & 3] + lens[c >> 2];
        c += 1;
    }
    t
}

/// Svb16 decode shuffles: the packed bytes of key `k` (8 values) -> eight u16 lanes.
pub(crate) const fn svb16_decode_shuffle() -> [[u8; 16]; 256] {
    let mut t = [[0xFFu8; 16]; 256];
    let mut key = 0;
    while key < 256 {
        let mut src = 0u8;
        let mut k = 0;
        while k < 8 {
            t[key][2 * k] = src;
            src += 1;
            if key & (1 << k) != 0 {
                t[key][2 * k + 1] = src;
                src += 1;
            }
            k += 1;
        }
        key += 1;
    }
    t
}

/// Svb16 encode shuffles: eight u16 lanes -> the packed bytes of key `k`.
pub(crate) const fn svb16_encode_shuffle() -> [[u8; 16]; 256] {
    let mut t = [[0xFFu8; 16]; 256];
    let mut key = 0;
    while key < 256 {
        let mut dst = 0;
        let mut k = 0;
        while k < 8 {
            t[key][dst] = (2 * k) as u8;
            dst += 1;
            if key & (1 << k) != 0 {
                t[key][dst] = (2 * k + 1) as u8;
                dst += 1;
            }
            k += 1;
        }
        key += 1;
    }
    t
}

/// Svb16 data bytes of each key byte: 8 + popcount.
pub(crate) const fn svb16_lens() -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut key = 0;
    while key < 256 {
        t[key] = 8 + (key as u32).count_ones() as u8;
        key += 1;
    }
    t
}

/// 16-byte aligned table row, so SIMD kernels may use aligned loads.
#[derive(Clone, Copy)]
#[repr(C, align(16))]
pub(crate) struct Row16(pub [u8; 16]);

/// 32-byte aligned table row.
#[derive(Clone, Copy)]
#[repr(C, align(32))]
pub(crate) struct Row32(pub [u8; 32]);

pub(crate) const fn rows16<const N: usize>(t: [[u8; 16]; N]) -> [Row16; N] {
    let mut out = [Row16([0; 16]); N];
    let mut i = 0;
    while i < N {
        out[i] = Row16(t[i]);
        i += 1;
    }
    out
}

pub(crate) const fn rows32<const N: usize>(t: [[u8; 32]; N]) -> [Row32; N] {
    let mut out = [Row32([0; 32]); N];
    let mut i = 0;
    while i < N {
        out[i] = Row32(t[i]);
        i += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classic_tables_match_the_reference_layout() {
        let lens = ctrl_lens(LENS_1234);
        assert_eq!(lens[0], 4);
        assert_eq!(lens[0xFF], 16);
        assert_eq!(lens[0b01_00_11_10], 3 + 4 + 1 + 2);
        let dec = decode_shuffle_32(LENS_1234);
        // control 0: one byte per value.
        assert_eq!(
            dec[0],
            [0, 0xFF, 0xFF, 0xFF, 1, 0xFF, 0xFF, 0xFF, 2, 0xFF, 0xFF, 0xFF, 3, 0xFF, 0xFF, 0xFF]
        );
        let enc = encode_shuffle_32(LENS_1234);
        assert_eq!(&enc[0][..4], &[0, 4, 8, 12]);
        assert_eq!(enc[0xFF], core::array::from_fn(|i| i as u8));
    }

    #[test]
    fn zero_flags_give_smallest_code() {
        // All bytes zero: value 0.
        assert_eq!(code_from_zero_flags(LENS_1234, 0xF, 4), 0);
        assert_eq!(code_from_zero_flags(LENS_0124, 0xF, 4), 0);
        // Only byte 0 non-zero.
        assert_eq!(code_from_zero_flags(LENS_0124, 0b1110, 4), 1);
        // Byte 2 non-zero: 3 bytes.
        assert_eq!(code_from_zero_flags(LENS_1234, 0b1011, 4), 2);
        assert_eq!(code_from_zero_flags(LENS_0124, 0b1011, 4), 3);
        // u64 with byte 4 set needs 8 bytes.
        assert_eq!(code_from_zero_flags(LENS_1248, 0b1110_1111, 8), 3);
        assert_eq!(code_from_zero_flags(LENS_1248, 0b1111_1011, 8), 2);
    }

    #[test]
    fn svb16_tables() {
        assert_eq!(svb16_lens()[0], 8);
        assert_eq!(svb16_lens()[0xFF], 16);
        let d = svb16_decode_shuffle();
        assert_eq!(d[1][..4], [0, 1, 2, 0xFF]);
    }
}
