//! Wire conformance against the bytes of the reference implementations in ../shared/data.

mod common;

use common::*;
use svb_core::{Codec, U32Classic, U32Variant0124};

fn streamvbyte_vectors() -> Vec<(String, Vec<u32>, Vec<u8>, Vec<u8>)> {
    let Some(dir) = data_dir() else { return Vec::new() };
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
fn u32_codecs_match_reference_c_both_ways() {
    let vectors = streamvbyte_vectors();
    for (name, values, c1234, c0124) in &vectors {
        for k in all_kernels(&U32Classic) {
            assert_eq!(&encode_with(&U32Classic, k, values), c1234, "{name} 1234 encode {}", k.isa);
            let (got, used) = decode_with::<U32Classic>(k, c1234, values.len()).unwrap();
            assert_eq!((&got, used), (values, c1234.len()), "{name} 1234 decode {}", k.isa);
        }
        for k in all_kernels(&U32Variant0124) {
            assert_eq!(&encode_with(&U32Variant0124, k, values), c0124, "{name} 0124 encode {}", k.isa);
            let (got, used) = decode_with::<U32Variant0124>(k, c0124, values.len()).unwrap();
            assert_eq!((&got, used), (values, c0124.len()), "{name} 0124 decode {}", k.isa);
        }
        assert_eq!(U32Classic.encoded_len(c1234, values.len()).unwrap(), c1234.len());
        assert_eq!(U32Variant0124.encoded_len(c0124, values.len()).unwrap(), c0124.len());
        assert_eq!(&U32Classic.decode(c1234, values.len()).unwrap(), values);
    }
}
