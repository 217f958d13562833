//! POD5 VBZ blobs made by ONT's lib_pod5 (../shared/data/vbz): every blob decodes to its
//! samples, and compressing the samples reproduces lib_pod5's bytes.

use std::path::Path;
use svb_testdata::{files_with_suffix, read_i16s};
use svb_vbz::{pod5_blob, VbzError};

/// The 9-byte empty zstd frame lib_pod5's C++ `compress_signal` writes for 0 samples.
const EMPTY_FRAME: [u8; 9] = [0x28, 0xb5, 0x2f, 0xfd, 0x20, 0x00, 0x01, 0x00, 0x00];

#[svb_testdata::data_test]
fn lib_pod5_blobs_decode_and_reencode_byte_for_byte(dir: &Path) {
    let vectors = files_with_suffix(&dir.join("vbz"), ".vbz");
    assert_eq!(vectors.len(), 15, "the 15 VBZ vectors");
    for (name, path) in vectors {
        let blob = std::fs::read(&path).unwrap();
        let samples = read_i16s(&std::fs::read(path.with_extension("i16")).unwrap());
        let mut out = vec![0i16; samples.len()];
        pod5_blob::decompress_signal(&blob, &mut out).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(out, samples, "{name}");
        assert_eq!(
            pod5_blob::decompress_signal_to_vec(&blob, samples.len()).unwrap(),
            samples,
            "{name}"
        );
        let ours = pod5_blob::compress_signal(&samples);
        if samples.is_empty() {
            // The Python wrapper stored an empty blob; the C++ writer makes the empty frame.
            assert_eq!(ours, EMPTY_FRAME);
        } else {
            assert_eq!(ours, blob, "{name}: compressed bytes differ from lib_pod5's");
        }
        // The 3-pass and fused decoders agree on the decompressed stream.
        if !blob.is_empty() {
            let vbz = zstd::decode_all(&blob[..]).unwrap();
            assert_eq!(svb_vbz::decode_vbz(&vbz, samples.len()).unwrap(), samples, "{name}");
            assert_eq!(svb_vbz::encode_vbz(&samples), vbz, "{name}");
        }
    }
}

#[test]
fn zero_samples_accept_empty_blob_and_empty_frame() {
    let mut none: [i16; 0] = [];
    pod5_blob::decompress_signal(&[], &mut none).unwrap();
    pod5_blob::decompress_signal(&EMPTY_FRAME, &mut none).unwrap();
    assert_eq!(pod5_blob::decompress_signal_to_vec(&EMPTY_FRAME, 0).unwrap(), Vec::<i16>::new());
}

#[test]
fn bad_blobs_give_typed_errors_before_allocating() {
    let signal: Vec<i16> = (0..5000).map(|i| (i % 300) as i16).collect();
    let blob = pod5_blob::compress_signal(&signal);
    // Wrong sample counts.
    let mut short = vec![0i16; 4999];
    assert!(matches!(
        pod5_blob::decompress_signal(&blob, &mut short),
        Err(VbzError::LengthMismatch { .. })
    ));
    let mut long = vec![0i16; 5001];
    assert!(pod5_blob::decompress_signal(&blob, &mut long).is_err());
    // A frame that declares far more than n samples can need is refused from its header.
    assert!(matches!(
        pod5_blob::decompress_signal_to_vec(&blob, 10),
        Err(VbzError::FrameTooLarge { .. })
    ));
    // A claim of 4 billion samples for a small blob: refused, not allocated.
    assert!(matches!(
        pod5_blob::decompress_signal_to_vec(&blob, 4_000_000_000),
        Err(VbzError::FrameTooSmall { .. })
    ));
    // Truncated and corrupted frames.
    for cut in [1, 4, 8, blob.len() / 2, blob.len() - 1] {
        let mut out = vec![0i16; signal.len()];
        assert!(pod5_blob::decompress_signal(&blob[..cut], &mut out).is_err(), "cut {cut}");
    }
    let mut out = vec![0i16; signal.len()];
    assert!(matches!(
        pod5_blob::decompress_signal(b"not zstd at all", &mut out),
        Err(VbzError::Zstd(_))
    ));
    let mut bad = blob.clone();
    let last = bad.len() - 3;
    bad[last] ^= 0x55;
    let _ = pod5_blob::decompress_signal(&bad, &mut out); // any result but no panic
}

#[svb_testdata::data_test]
fn batches_of_lib_pod5_blobs_decode_in_parallel(dir: &Path) {
    let mut blobs = Vec::new();
    let mut expected = Vec::new();
    for (_, path) in files_with_suffix(&dir.join("vbz"), ".vbz") {
        let samples = read_i16s(&std::fs::read(path.with_extension("i16")).unwrap());
        blobs.push((std::fs::read(&path).unwrap(), samples.len()));
        expected.extend(samples);
    }
    let chunks: Vec<svb_vbz::Chunk> =
        blobs.iter().map(|(b, n)| svb_vbz::Chunk { data: b, samples: *n }).collect();
    let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    for threads in [svb_vbz::Threads::Current, svb_vbz::Threads::Pool(&pool)] {
        let mut out = vec![0i16; expected.len()];
        pod5_blob::decompress_batch(&chunks, &mut out, threads).unwrap();
        assert_eq!(out, expected);
    }
    let mut broken = chunks.clone();
    let last = broken.len() - 1;
    broken[last].samples += 1;
    let mut out = vec![0i16; expected.len() + 1];
    assert!(matches!(
        pod5_blob::decompress_batch(&broken, &mut out, svb_vbz::Threads::Current),
        Err(VbzError::Chunk { .. })
    ));
}
