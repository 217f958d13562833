#![no_main]
//! Arbitrary bytes as a sized fast5 VBZ chunk under any of the 48 option sets (first byte):
//! bytes or a typed error, never a panic or an allocation the input cannot justify; what
//! decodes re-compresses to a chunk that decodes the same.

use libfuzzer_sys::fuzz_target;
use svb_vbz::hdf5_filter::{self, Options};

fuzz_target!(|data: &[u8]| {
    let Some((&pick, chunk)) = data.split_first() else {
        return;
    };
    let pick = pick as u32 % 48;
    let opts = Options {
        integer_size: [0, 1, 2, 4][(pick % 4) as usize],
        delta_zigzag: (pick / 4) % 2 == 1,
        zstd_level: [0, 1, 3][((pick / 8) % 3) as usize],
        version: pick / 24,
    };
    if let Ok(bytes) = hdf5_filter::decompress_sized(chunk, &opts) {
        let again = hdf5_filter::compress_sized(&bytes, &opts).expect("valid options");
        assert_eq!(hdf5_filter::decompress_sized(&again, &opts).expect("own chunk"), bytes);
    }
});
