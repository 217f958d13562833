#![no_main]
//! Bytes flipped in a signal of each wire (the first input byte picks it: fast5 VBZ chunk,
//! POD5 VBZ blob, BLOW5 SVB-ZD blob, BLOW5 ex-zd blob); the rest of the input is `(u16 place,
//! xor byte)` edits of the signal's encoding, a nanopore-like walk encoded by svb's writers
//! (the layouts ONT's and slow5lib's writers make). A damaged signal decodes to an error or
//! to exactly the samples its wire declares (the sized header, the count POD5's table gives,
//! the blob's count): never another count, never a panic. Which changed samples are caught
//! besides: crates/svb-vbz/tests/hdf5_filter.rs (as libzstd 1.3 catches them).

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use svb_slow5_signal::svbzd;
use svb_vbz::{hdf5_filter, pod5_blob};

/// The signal, and its encoding on each wire.
fn encodings() -> &'static (Vec<i16>, [Vec<u8>; 4]) {
    static E: OnceLock<(Vec<i16>, [Vec<u8>; 4])> = OnceLock::new();
    E.get_or_init(|| {
        // A nanopore-like walk, as the writer targets' seeds are.
        let signal = svb_testdata::Rng(0x9E37_79B9_7F4A_7C15).walk(6000, 40);
        let wires = [
            hdf5_filter::compress_signal(&signal),
            pod5_blob::compress_signal(&signal),
            svbzd::encode_blob(&signal),
            svb_slow5_signal::encode_exzd(&signal),
        ];
        (signal, wires)
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, edits)) = data.split_first() else {
        return;
    };
    let (signal, wires) = encodings();
    let wire = usize::from(pick) % 4;
    let mut damaged = wires[wire].clone();
    for e in edits.chunks_exact(3) {
        let place = usize::from(u16::from_le_bytes([e[0], e[1]])) % damaged.len();
        damaged[place] ^= e[2];
    }
    let n = signal.len();
    match wire {
        0 => {
            if let Ok(samples) = hdf5_filter::decompress_signal(&damaged) {
                let declared = hdf5_filter::decompressed_size(&damaged).expect("decoded");
                assert_eq!(samples.len() * 2, declared, "fast5 VBZ");
            }
        }
        1 => {
            // POD5's table gives the count: the blob decodes to it or fails.
            if let Ok(samples) = pod5_blob::decompress_signal_to_vec(&damaged, n) {
                assert_eq!(samples.len(), n, "POD5 VBZ");
            }
        }
        2 => {
            if let Ok(samples) = svbzd::decode_blob(&damaged) {
                let declared = svbzd::blob_samples(&damaged).expect("decoded");
                assert_eq!(samples.len(), declared, "SVB-ZD");
            }
        }
        _ => {
            let _ = svb_slow5_signal::decode_exzd(&damaged);
        }
    }
    if edits.len() < 3 {
        // Undamaged: the signal itself.
        let back = match wire {
            0 => hdf5_filter::decompress_signal(&damaged).unwrap(),
            1 => pod5_blob::decompress_signal_to_vec(&damaged, n).unwrap(),
            2 => svbzd::decode_blob(&damaged).unwrap(),
            _ => svb_slow5_signal::decode_exzd(&damaged).unwrap(),
        };
        assert_eq!(&back, signal);
        // A count other than the blob's is refused, not filled or cut.
        if wire == 1 {
            assert!(pod5_blob::decompress_signal_to_vec(&damaged, n + 1).is_err());
            assert!(pod5_blob::decompress_signal_to_vec(&damaged, n - 1).is_err());
        }
    }
});
