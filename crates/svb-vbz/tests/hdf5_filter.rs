//! The fast5 VBZ wire (vbz_compression, HDF5 filter 32020): ONT's chunks in
//! ../shared/data/fast5_vbz decode and re-encode byte for byte; hand-made streams pin both
//! packings; every option combination round-trips; bad input gives typed errors.

use proptest::prelude::*;
use std::path::Path;
use svb_core::{Codec, U32Classic};
use svb_testdata::{files_with_suffix, read_i16s};
use svb_vbz::hdf5_filter::{self, Options};
use svb_vbz::VbzError;

fn le_bytes(s: &[i16]) -> Vec<u8> {
    s.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// A byte flipped in a fast5 VBZ chunk's zstd frame is caught at least as often as ONT's
/// plugin and slow5lib catch it. libzstd 1.5's fast Huffman decoder does not check that each
/// of a block's four literal streams is consumed exactly, so it decodes flips that libzstd
/// 1.3.8 (what the references link) calls "Corrupted block detected": on this chunk, every
/// 11th byte xor 0x41, libzstd 1.3.8 refuses 801 of 2,868 flips, libzstd 1.5.7 as built by
/// default 54, and libzstd 1.5.7 without the fast decoder (`HUF_DISABLE_FAST_DECODE`, which
/// .cargo/config.toml passes to every C build of the workspace) the same 801. A build
/// without it fails here.
#[svb_testdata::data_test]
fn flipped_frames_are_refused_as_libzstd_1_3_refuses_them(dir: &Path) {
    let path = dir.join("fast5_vbz/read_002fde30-9e23-4125-9eae-d112c18a81a7_c0.vbz");
    let chunk = std::fs::read(&path).unwrap();
    let original = hdf5_filter::decompress_signal(&chunk).unwrap();
    let (mut refused, mut flips) = (0, 0);
    // The sized header (4 bytes) is checked on its own; the frame follows it.
    for at in (4..chunk.len()).step_by(11) {
        let mut damaged = chunk.clone();
        damaged[at] ^= 0x41;
        flips += 1;
        match hdf5_filter::decompress_signal(&damaged) {
            Err(_) => refused += 1,
            Ok(samples) => assert_eq!(samples.len(), original.len(), "byte {at}"),
        }
    }
    assert_eq!(flips, 2868);
    assert!(refused >= 801, "{refused} of {flips} flips refused");
    // One that only the exact end check of a literal stream catches.
    let mut damaged = chunk.clone();
    damaged[4 + 22] ^= 0x41;
    assert!(hdf5_filter::decompress_signal(&damaged).is_err());
}

#[svb_testdata::data_test]
fn ont_chunks_decode_and_reencode_byte_for_byte(dir: &Path) {
    let dir = dir.join("fast5_vbz");
    let manifest = std::fs::read_to_string(dir.join("manifest.json")).unwrap();
    assert!(manifest.contains("\"hdf5_filter_32020_cd_values\""));
    // The manifest's cd_values ([0, 2, 1, 1, ...]) are the signal options.
    assert_eq!(Options::from_cd_values(&[0, 2, 1, 1, 1]).unwrap(), Options::SIGNAL);
    let vectors = files_with_suffix(&dir, ".vbz");
    assert_eq!(vectors.len(), 5, "the 5 fast5 VBZ chunks");
    for (name, path) in vectors {
        let chunk = std::fs::read(&path).unwrap();
        let samples = read_i16s(&std::fs::read(path.with_extension("i16")).unwrap());
        assert!(manifest.contains(&format!("\"samples\": {}", samples.len())), "{name}");
        assert_eq!(hdf5_filter::decompressed_size(&chunk).unwrap(), 2 * samples.len());
        assert_eq!(hdf5_filter::decompress_signal(&chunk).unwrap(), samples, "{name}");
        assert_eq!(
            hdf5_filter::decompress_sized(&chunk, &Options::SIGNAL).unwrap(),
            le_bytes(&samples)
        );
        // Re-encoding: the header and the StreamVByte stream inside ONT's zstd frame are
        // ours byte for byte. The frame itself came from libzstd 1.3.x, whose level-1 output
        // differs from the libzstd 1.5.7 pinned here for lib_pod5 (see docs/FORMATS.md;
        // tools/zstd-compat shows libzstd 1.3.8 turns this same stream into ONT's frame).
        let ours = hdf5_filter::compress_signal(&samples);
        assert_eq!(ours[..4], chunk[..4], "{name}");
        let raw = Options { zstd_level: 0, ..Options::SIGNAL };
        let stream = hdf5_filter::compress(&le_bytes(&samples), &raw).unwrap();
        assert_eq!(
            zstd::decode_all(&chunk[4..]).unwrap(),
            stream,
            "{name}: the StreamVByte stream differs from ONT's"
        );
        assert_eq!(zstd::decode_all(&ours[4..]).unwrap(), stream);
        // The unsized form is the sized one without the header.
        assert_eq!(
            hdf5_filter::compress(&le_bytes(&samples), &Options::SIGNAL).unwrap(),
            ours[4..]
        );
        assert_eq!(
            hdf5_filter::decompress(&chunk[4..], 2 * samples.len(), &Options::SIGNAL).unwrap(),
            le_bytes(&samples)
        );
    }
}

#[test]
fn hand_made_streams() {
    let raw = Options { zstd_level: 0, ..Options::SIGNAL };
    // v0: 10, 12 -> deltas 10, 2 -> zigzag 20, 4 -> one key byte (two 1-byte codes), data.
    assert_eq!(hdf5_filter::compress(&le_bytes(&[10, 12]), &raw).unwrap(), [0x00, 20, 4]);
    // A 16-bit delta that overflows: ONT's x86 build wraps it (at most 2 bytes a value).
    let jump = [-20000i16, 20000];
    let ours = hdf5_filter::compress(&le_bytes(&jump), &raw).unwrap();
    assert_eq!(ours, [0b0101, 0x3f, 0x9c, 0x7f, 0xc7]);
    // v1, 1-byte integers: 0, 1, -1, 20 -> deltas 0, 1, -2, 21 -> zigzag 0, 2, 3, 42 ->
    // codes 0, 1, 1, 2 and nibbles 2, 3, 0xA, 0x2.
    let v1 = Options { integer_size: 1, version: 1, zstd_level: 0, delta_zigzag: true };
    let bytes = [0u8, 1, 0xFF, 20];
    let packed = hdf5_filter::compress(&bytes, &v1).unwrap();
    assert_eq!(packed, [0b10_01_01_00, 0x32, 0x2A]);
    assert_eq!(hdf5_filter::decompress(&packed, 4, &v1).unwrap(), bytes);
    // v1 without delta: a negative byte sign-extends to 32 bits, so it takes code 3 and its
    // low 16 bits, as vbz_compression writes it.
    let plain = Options { delta_zigzag: false, ..v1 };
    let packed = hdf5_filter::compress(&[0xFF, 5], &plain).unwrap();
    assert_eq!(packed, [0b01_11, 0xFF, 0xFF, 0x05]);
    assert_eq!(hdf5_filter::decompress(&packed, 2, &plain).unwrap(), [0xFF, 5]);
}

#[test]
fn three_byte_values_of_onts_portable_build_decode() {
    // ONT's portable path zigzags 32-bit deltas of the widened samples: a step of 40000
    // gives an 80000 (3-byte) value. Build that stream by hand and decode it.
    let samples: Vec<i16> = vec![-20000, 20000, -20000, 100, 32767, -32768, 0, 5];
    let values = svb_testdata::zigzag_deltas(0, &samples);
    assert!(values.iter().any(|&v| v > 0xFFFF));
    let packed = U32Classic.encode(&values);
    let mut sized = ((2 * samples.len()) as u32).to_le_bytes().to_vec();
    sized.extend(zstd::bulk::compress(&packed, 1).unwrap());
    assert_eq!(hdf5_filter::decompress_signal(&sized).unwrap(), samples);
    // Ours wraps in 16 bits and decodes to the same samples.
    assert_eq!(
        hdf5_filter::decompress_signal(&hdf5_filter::compress_signal(&samples)).unwrap(),
        samples
    );
}

fn all_options() -> Vec<Options> {
    let mut v = Vec::new();
    for integer_size in [0, 1, 2, 4] {
        for delta_zigzag in [false, true] {
            for zstd_level in [0, 1, 5] {
                for version in [0, 1] {
                    v.push(Options { delta_zigzag, integer_size, zstd_level, version });
                }
            }
        }
    }
    v
}

fn round_trip(bytes: &[u8], opts: &Options) {
    let whole =
        bytes.len() / (opts.integer_size.max(1) as usize) * (opts.integer_size.max(1) as usize);
    let bytes = &bytes[..whole];
    let sized = hdf5_filter::compress_sized(bytes, opts).unwrap();
    assert_eq!(
        hdf5_filter::decompress_sized(&sized, opts).unwrap(),
        bytes,
        "{opts:?} len {}",
        bytes.len()
    );
    let unsized_ = hdf5_filter::compress(bytes, opts).unwrap();
    assert_eq!(sized[4..], unsized_[..]);
    assert_eq!(hdf5_filter::decompress(&unsized_, bytes.len(), opts).unwrap(), bytes);
}

#[test]
fn every_option_round_trips() {
    let mut rng = svb_testdata::Rng(0x9E37_79B9_7F4A_7C15);
    for len in (0..=70).chain([1021, 4096, 4099]) {
        let bytes: Vec<u8> = (0..len)
            .map(|i| {
                let x = rng.next();
                if i % 5 == 0 {
                    x as u8
                } else {
                    (i as u8) / 3
                }
            })
            .collect();
        for opts in all_options() {
            round_trip(&bytes, &opts);
        }
    }
    let extremes: Vec<u8> =
        [i32::MIN, i32::MAX, 0, -1, i32::MIN, 1].iter().flat_map(|v| v.to_le_bytes()).collect();
    for opts in all_options() {
        round_trip(&extremes, &opts);
    }
}

#[test]
fn bad_input_gives_typed_errors() {
    let samples: Vec<i16> = (0..3000).map(|i| (i * 7 % 400) as i16).collect();
    let chunk = hdf5_filter::compress_signal(&samples);
    // Truncation anywhere.
    for cut in 0..chunk.len() {
        assert!(hdf5_filter::decompress_signal(&chunk[..cut]).is_err(), "cut {cut}");
    }
    // A header claiming 4 GB for a small chunk: refused from the frame header.
    let mut lying = chunk.clone();
    lying[..4].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(matches!(
        hdf5_filter::decompress_signal(&lying),
        Err(VbzError::NotWholeIntegers { .. })
    ));
    lying[..4].copy_from_slice(&(u32::MAX - 1).to_le_bytes());
    assert!(matches!(hdf5_filter::decompress_signal(&lying), Err(VbzError::FrameTooSmall { .. })));
    // Too small a claim: the frame declares more than the samples can need.
    lying[..4].copy_from_slice(&20u32.to_le_bytes());
    assert!(matches!(hdf5_filter::decompress_signal(&lying), Err(VbzError::FrameTooLarge { .. })));
    // One sample fewer: the stream has bytes left over.
    lying[..4].copy_from_slice(&(2 * 2999u32).to_le_bytes());
    assert!(hdf5_filter::decompress_signal(&lying).is_err());
    // Unsized without zstd: trailing bytes, and a stream too short for the count.
    let raw = Options { zstd_level: 0, ..Options::SIGNAL };
    let mut packed = hdf5_filter::compress(&le_bytes(&samples), &raw).unwrap();
    packed.push(0);
    assert!(matches!(
        hdf5_filter::decompress(&packed, 6000, &raw),
        Err(VbzError::LengthMismatch { .. })
    ));
    assert!(matches!(
        hdf5_filter::decompress(&packed, 1 << 40, &raw),
        Err(VbzError::StreamVByte(_))
    ));
    // Options vbz_compression does not define.
    for bad in [
        Options { integer_size: 3, ..Options::SIGNAL },
        Options { version: 2, ..Options::SIGNAL },
        Options { zstd_level: 23, ..Options::SIGNAL },
    ] {
        assert!(matches!(
            hdf5_filter::compress(&[0; 12], &bad),
            Err(VbzError::InvalidOption { .. })
        ));
        assert!(matches!(
            hdf5_filter::decompress_sized(&chunk, &bad),
            Err(VbzError::InvalidOption { .. })
        ));
    }
    assert!(Options::from_cd_values(&[0, 2, 1]).is_err());
    assert!(matches!(
        hdf5_filter::compress(&[0; 3], &Options::SIGNAL),
        Err(VbzError::NotWholeIntegers { .. })
    ));
    assert!(matches!(
        hdf5_filter::decompressed_size(&[1, 2]),
        Err(VbzError::HeaderTruncated { .. })
    ));
}

proptest! {
    #[test]
    fn random_bytes_round_trip(bytes in proptest::collection::vec(any::<u8>(), 0..600), pick in 0usize..48) {
        round_trip(&bytes, &all_options()[pick]);
    }

    #[test]
    fn arbitrary_streams_never_panic(data in proptest::collection::vec(any::<u8>(), 0..300), pick in 0usize..48) {
        let opts = all_options()[pick];
        let _ = hdf5_filter::decompress_sized(&data, &opts);
        let _ = hdf5_filter::decompress(&data, data.len() * 2, &opts);
    }
}
