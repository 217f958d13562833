//! Read ids as ONT's formats hold them: 16 bytes in POD5, hyphenated lowercase text in
//! BLOW5 and FAST5.

/// Formats 16 bytes as `8-4-4-4-12` lowercase hex.
pub fn uuid_string(id: &[u8; 16]) -> String {
    let mut s = String::with_capacity(36);
    push_uuid(id, &mut s);
    s
}

/// Appends 16 bytes as `8-4-4-4-12` lowercase hex to `out` (no allocation once `out` has
/// room: for ids written read after read into one string).
///
/// ```
/// let mut s = String::from("id=");
/// svb_model::ont::push_uuid(&[0xAB; 16], &mut s);
/// assert_eq!(s, "id=abababab-abab-abab-abab-abababababab");
/// ```
pub fn push_uuid(id: &[u8; 16], out: &mut String) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    for (i, b) in id.iter().enumerate() {
        if matches!(i, 4 | 6 | 8 | 10) {
            out.push('-');
        }
        out.push(char::from(HEX[usize::from(b >> 4)]));
        out.push(char::from(HEX[usize::from(b & 15)]));
    }
}

/// Parses a hyphenated (or bare 32-digit) UUID.
pub fn parse_uuid(s: &str) -> Option<[u8; 16]> {
    let hex: Vec<u8> = s.bytes().filter(|&b| b != b'-').collect();
    if hex.len() != 32 || s.len() - hex.len() > 4 {
        return None;
    }
    let mut out = [0u8; 16];
    for (o, pair) in out.iter_mut().zip(hex.chunks(2)) {
        *o = u8::from_str_radix(std::str::from_utf8(pair).ok()?, 16).ok()?;
    }
    Some(out)
}
