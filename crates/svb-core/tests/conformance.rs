//! Wire conformance against the bytes of the reference implementations in ../shared/data.

mod common;

use common::*;
use std::path::Path;
use svb_core::{Codec, Svb16, U32Classic, U32Variant0124, U64Coder1234, U64Coder1248};
use svb_testdata::{data_dir, read_u16s, read_u32s};

/// One reference vector: name, values, `streamvbyte_encode` bytes, `streamvbyte_encode_0124` bytes.
type Vector = (String, Vec<u32>, Vec<u8>, Vec<u8>);

fn streamvbyte_vectors() -> Vec<Vector> {
    let Some(dir) = data_dir() else {
        return Vec::new();
    };
    let dir = dir.join("streamvbyte");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.unwrap().file_name().into_string().ok())
        .filter_map(|n| n.strip_suffix(".u32").map(str::to_owned))
        .collect();
    names.sort();
    assert_eq!(names.len(), 22 * 6, "22 lengths x 6 mixes");
    names
        .into_iter()
        .map(|name| {
            let values = read_u32s(&std::fs::read(dir.join(format!("{name}.u32"))).unwrap());
            let c1234 = std::fs::read(dir.join(format!("{name}.1234.svb"))).unwrap();
            let c0124 = std::fs::read(dir.join(format!("{name}.0124.svb"))).unwrap();
            (name, values, c1234, c0124)
        })
        .collect()
}

#[test]
#[ignore = "needs the shared test data (../shared/data or SVB_TEST_DATA); run with --include-ignored"]
fn u32_codecs_match_reference_c_both_ways() {
    let vectors = streamvbyte_vectors();
    for (name, values, c1234, c0124) in &vectors {
        assert_wire_every_isa(&U32Classic, values, c1234, &format!("{name} 1234"));
        assert_wire_every_isa(&U32Variant0124, values, c0124, &format!("{name} 0124"));
        assert_eq!(U32Classic.encoded_len(c1234, values.len()).unwrap(), c1234.len());
        assert_eq!(U32Variant0124.encoded_len(c0124, values.len()).unwrap(), c0124.len());
        assert_eq!(&U32Classic.decode(c1234, values.len()).unwrap(), values);
    }
}

/// zigzag16(delta16) of a signal, as ONT's VBZ computes it before svb16.
fn zigzag_deltas(samples: &[u16]) -> Vec<u16> {
    let mut prev = 0u16;
    samples
        .iter()
        .map(|&s| {
            let d = s.wrapping_sub(prev) as i16;
            prev = s;
            ((d as u16) << 1) ^ ((d >> 15) as u16)
        })
        .collect()
}

#[svb_testdata::data_test]
fn svb16_matches_ont_vbz_payloads_both_ways(dir: &Path) {
    let dir = dir.join("vbz");
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "vbz") {
            continue;
        }
        let blob = std::fs::read(&path).unwrap();
        let samples = read_u16s(&std::fs::read(path.with_extension("i16")).unwrap());
        let payload =
            if blob.is_empty() { Vec::new() } else { zstd::decode_all(&blob[..]).unwrap() };
        let zz = zigzag_deltas(&samples);
        assert_wire_every_isa(&Svb16, &zz, &payload, &path.display().to_string());
        assert_eq!(Svb16.encoded_len(&payload, zz.len()).unwrap(), payload.len());
        count += 1;
    }
    assert!(count >= 15, "expected the 15 VBZ vectors, found {count}");
}

#[test]
#[ignore = "needs the shared test data (../shared/data or SVB_TEST_DATA); run with --include-ignored"]
fn u64_coder1234_matches_reference_c_1234_wire() {
    for (name, values, c1234, _) in streamvbyte_vectors() {
        let wide: Vec<u64> = values.iter().map(|&v| v as u64).collect();
        assert_wire_every_isa(&U64Coder1234, &wide, &c1234, &name);
    }
}

/// streamvbyte64 keeps tags and data apart and needs whole groups of 4.
fn sv64_encode<C: streamvbyte64::Coder>(coder: C, values: &[C::Elem]) -> Vec<u8> {
    let (tl, dl) = C::max_compressed_bytes(values.len());
    let (mut tags, mut data) = (vec![0u8; tl], vec![0u8; dl]);
    let used = coder.encode(values, &mut tags, &mut data);
    tags.extend_from_slice(&data[..used]);
    tags
}

fn sv64_decode<C: streamvbyte64::Coder>(coder: C, bytes: &[u8], n: usize) -> Vec<C::Elem>
where
    C::Elem: Default,
{
    let (tags, data) = bytes.split_at(n / 4);
    let mut out = vec![C::Elem::default(); n];
    coder.decode(tags, data, &mut out);
    out
}

#[test]
fn cross_checked_with_streamvbyte64_both_ways() {
    use streamvbyte64::{Coder, Coder0124, Coder1234, Coder1248};
    let mut rng = svb_testdata::Rng(0x853C_49E6_748F_EA9B);
    for n in (0..2000).step_by(4).chain([4096, 8192]) {
        let mut next = || rng.next();
        let v32: Vec<u32> = (0..n)
            .map(|_| {
                let w = next();
                (w >> 32) as u32 >> (8 * (w % 4))
            })
            .collect();
        let v64: Vec<u64> = (0..n)
            .map(|_| {
                let w = next();
                w >> (8 * (w % 8))
            })
            .collect();

        let ours = U32Classic.encode(&v32);
        assert_eq!(ours, sv64_encode(Coder1234::new(), &v32), "1234 n={n}");
        assert_eq!(sv64_decode(Coder1234::new(), &ours, n), v32);
        let ours = U32Variant0124.encode(&v32);
        assert_eq!(ours, sv64_encode(Coder0124::new(), &v32), "0124 n={n}");
        assert_eq!(sv64_decode(Coder0124::new(), &ours, n), v32);
        let ours = U64Coder1248.encode(&v64);
        assert_eq!(ours, sv64_encode(Coder1248::new(), &v64), "1248 n={n}");
        assert_eq!(sv64_decode(Coder1248::new(), &ours, n), v64);
        assert_eq!(U64Coder1248.decode(&sv64_encode(Coder1248::new(), &v64), n).unwrap(), v64);
    }
}
