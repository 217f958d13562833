//! Lookup tables of every codec, generated at compile time from the byte lengths of the
//! 2-bit (or 1-bit) codes. A shuffle entry of `0xFF` writes a zero byte: `pshufb` zeroes on
//! the high bit and NEON `tbl` zeroes on an index of 16 or more, so one table serves both.

/// Byte lengths of the four 2-bit codes of `U32Classic` / `U64Coder1234`.
pub(crate) const LENS_1234: [u8; 4] = [1, 2, 3, 4];
/// Byte lengths of the four 2-bit codes of `U32Variant0124`.
pub(crate) const LENS_0124: [u8; 4] = [0, 1, 2, 4];
/// Byte lengths of the four 2-bit codes of `U64Coder1248`.
pub(crate) const LENS_1248: [u8; 4] = [1, 2, 4, 8];

/// Byte lengths of the two 1-bit codes of `Svb16`.
pub(crate) const LENS_SVB16: [u8; 2] = [1, 2];

/// The code of lane `k` in control `c`, for a code table of `lens.len()` (2 or 4) entries.
const fn code(lens: &[u8], c: usize, k: usize) -> usize {
    let bits = lens.len().trailing_zeros() as usize;
    (c >> (bits * k)) & (lens.len() - 1)
}

/// Lanes of one control: `N == lens.len().pow(lanes)`, checked when the table is built.
const fn lanes_of<const N: usize>(lens: &[u8]) -> usize {
    let bits = lens.len().trailing_zeros() as usize;
    assert!(lens.len() == 2 || lens.len() == 4, "codes of 1 or 2 bits");
    let lanes = N.trailing_zeros() as usize / bits;
    assert!(N.is_power_of_two() && lanes * bits == N.trailing_zeros() as usize);
    lanes
}

/// Data bytes used by the values of each of the `N` controls.
pub(crate) const fn data_lens<const N: usize>(lens: &[u8]) -> [u8; N] {
    let lanes = lanes_of::<N>(lens);
    let mut t = [0u8; N];
    let mut c = 0;
    while c < N {
        let mut k = 0;
        while k < lanes {
            t[c] += lens[code(lens, c, k)];
            k += 1;
        }
        c += 1;
    }
    t
}

/// Decode shuffles of every control `c`: the packed data bytes of its values -> lanes of
/// `ROW / lanes` bytes each (byte `b` of lane `k` at `k * width + b`, the rest 0xFF), for
/// every codec: u32 groups (16-byte rows), u32 widened to u64 (32), u64 pairs (16), Svb16
/// (eight u16 lanes).
pub(crate) const fn decode_shuffle<const N: usize, const ROW: usize>(
    lens: &[u8],
) -> [[u8; ROW]; N] {
    shuffle(lens, true)
}

/// Encode shuffles of every control `c`: lanes of `ROW / lanes` bytes -> the packed data
/// bytes of their values (the inverse of [`decode_shuffle`]; the rest 0xFF).
pub(crate) const fn encode_shuffle<const N: usize, const ROW: usize>(
    lens: &[u8],
) -> [[u8; ROW]; N] {
    shuffle(lens, false)
}

/// Pairs each packed data byte with its place in the lanes: a decode row maps lane bytes to
/// packed positions, an encode row packed positions to lane bytes.
const fn shuffle<const N: usize, const ROW: usize>(lens: &[u8], decode: bool) -> [[u8; ROW]; N] {
    let lanes = lanes_of::<N>(lens);
    let width = ROW / lanes;
    let mut t = [[0xFFu8; ROW]; N];
    let mut c = 0;
    while c < N {
        let mut packed = 0usize;
        let mut k = 0;
        while k < lanes {
            let mut b = 0;
            while b < lens[code(lens, c, k)] as usize {
                let lane = k * width + b;
                if decode {
                    t[c][lane] = packed as u8;
                } else {
                    t[c][packed] = lane as u8;
                }
                packed += 1;
                b += 1;
            }
            k += 1;
        }
        c += 1;
    }
    t
}

/// The 2-bit code of one value from the zero flags of its bytes (bit `b` set: byte `b` is 0).
#[cfg_attr(not(any(target_arch = "x86", target_arch = "x86_64")), allow(dead_code))]
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
#[cfg_attr(not(any(target_arch = "x86", target_arch = "x86_64")), allow(dead_code))]
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
#[cfg_attr(not(any(target_arch = "x86", target_arch = "x86_64")), allow(dead_code))]
pub(crate) const fn encode_code_64(lens: [u8; 4]) -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut m = 0;
    while m < 256 {
        t[m] = code_from_zero_flags(lens, m as u32, 8);
        m += 1;
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
        let lens = data_lens::<256>(&LENS_1234);
        assert_eq!(lens[0], 4);
        assert_eq!(lens[0xFF], 16);
        assert_eq!(lens[0b01_00_11_10], 3 + 4 + 1 + 2);
        let dec = decode_shuffle::<256, 16>(&LENS_1234);
        // control 0: one byte per value.
        assert_eq!(
            dec[0],
            [0, 0xFF, 0xFF, 0xFF, 1, 0xFF, 0xFF, 0xFF, 2, 0xFF, 0xFF, 0xFF, 3, 0xFF, 0xFF, 0xFF]
        );
        let enc = encode_shuffle::<256, 16>(&LENS_1234);
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
        let lens = data_lens::<256>(&LENS_SVB16);
        assert_eq!((lens[0], lens[0xFF], lens[0b1011]), (8, 16, 11));
        let d = decode_shuffle::<256, 16>(&LENS_SVB16);
        assert_eq!(d[1][..4], [0, 1, 2, 0xFF]);
        let e = encode_shuffle::<256, 16>(&LENS_SVB16);
        assert_eq!(e[1][..4], [0, 1, 2, 4]);
    }
}
