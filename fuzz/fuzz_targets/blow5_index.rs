#![no_main]
//! Arbitrary bytes as slow5lib's index file: an index or an error, never a panic; an index
//! that parses writes back the bytes it was read from.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(index) = svb_blow5::Index::parse(data) {
        let bytes = index.to_bytes();
        // The header's padding is not kept: compare from the first entry on.
        assert_eq!(bytes[..12], data[..12]);
        assert_eq!(bytes[64..], data[64..]);
    }
});
