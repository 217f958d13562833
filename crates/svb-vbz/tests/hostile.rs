//! Crafted VBZ blobs (POD5's and fast5's wires) valid everywhere except one declared size:
//! each is a typed error, with a peak allocation under 64 MiB (counted by the global
//! allocator of this test binary).

use svb_testdata::alloc::{peak_during, Counting};
use svb_testdata::zstd_lying_frame as lying_frame;
use svb_vbz::hdf5_filter::{self, Options};

#[global_allocator]
static ALLOC: Counting = Counting;

const LIMIT: usize = 64 << 20;

/// Case 3, POD5 blobs: the same lie through the codec entry point.
#[test]
fn pod5_blob_whose_frame_header_lies() {
    let n = 1usize << 30;
    let blob = lying_frame(100_000, (n + n / 8) as u64);
    let (r, peak) = peak_during(|| svb_vbz::pod5_blob::decompress_signal_to_vec(&blob, n));
    assert!(peak < LIMIT, "peak {peak}");
    let e = r.unwrap_err();
    assert!(matches!(e, svb_vbz::VbzError::Zstd(_)), "{e}");
}

/// Case 3, fast5: an 82 KB sized chunk whose size header is 0xFFFFFFFC and whose zstd frame
/// declares the smallest StreamVByte stream of that many 2-byte integers.
#[test]
fn fast5_chunk_whose_size_header_lies() {
    let len = 0xFFFF_FFFCusize;
    let n = len / 2;
    let declared = n + n.div_ceil(4);
    let mut chunk = (len as u32).to_le_bytes().to_vec();
    chunk.extend(lying_frame(82_000, declared as u64));
    assert!(chunk.len() < 84_000);
    let (r, peak) = peak_during(|| hdf5_filter::decompress_sized(&chunk, &Options::SIGNAL));
    assert!(peak < LIMIT, "decompress_sized peak {peak}");
    assert!(matches!(r.unwrap_err(), svb_vbz::VbzError::Zstd(_)));
    let (r, peak) = peak_during(|| hdf5_filter::decompress_signal(&chunk));
    assert!(peak < LIMIT, "decompress_signal peak {peak}");
    assert!(r.is_err());
    let (r, peak) = peak_during(|| hdf5_filter::decompress(&chunk[4..], len, &Options::SIGNAL));
    assert!(peak < LIMIT, "decompress peak {peak}");
    assert!(r.is_err());
    let mut out = vec![1u8; 2];
    let (r, peak) =
        peak_during(|| hdf5_filter::decompress_sized_into(&chunk, &Options::SIGNAL, &mut out));
    assert!(peak < LIMIT, "decompress_sized_into peak {peak}");
    assert!(r.is_err());
    assert_eq!(out, [1, 1]);
}
