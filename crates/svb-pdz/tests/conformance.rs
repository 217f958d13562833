//! The 40 PDZ blocks written by ONT's own codec (../shared/data/pdz, made from the sources
//! and commits its README names): each decodes to its samples on every ISA, our encoder
//! writes its bytes exactly (libzstd 1.5.7 at level 1), and the manifest's header fields,
//! plane sizes and encode bound are ours too.

use std::path::Path;

use svb_pdz::{Header, Isa};
use svb_testdata::{files_with_suffix, read_i16s};

#[svb_testdata::data_test]
fn ont_blocks_decode_and_encode_byte_for_byte(dir: &Path) {
    let dir = dir.join("pdz");
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).unwrap()).unwrap();
    let cases = manifest["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 40, "the 40 PDZ vectors");
    assert_eq!(files_with_suffix(&dir, ".pdz").len(), 40);
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let block = std::fs::read(dir.join(case["pdz_file"].as_str().unwrap())).unwrap();
        let samples =
            read_i16s(&std::fs::read(dir.join(case["input_file"].as_str().unwrap())).unwrap());
        let n = samples.len();
        assert_eq!(n as u64, case["num_samples"].as_u64().unwrap(), "{name}");
        let header = Header::parse(&block).unwrap();
        assert_eq!(
            (header.samples, header.low_len, header.high_len),
            (
                case["header"]["n"].as_u64().unwrap(),
                case["header"]["z_l_size"].as_u64().unwrap(),
                case["header"]["z_h_size"].as_u64().unwrap()
            ),
            "{name}"
        );
        assert_eq!(svb_pdz::check(&block, n), Ok(header), "{name}");
        assert_eq!(svb_pdz::max_encoded_len(n) as u64, case["encode_bound"].as_u64().unwrap());
        assert_eq!(
            block.len() as u64 - 24 - header.low_len - header.high_len,
            case["b_u_size"].as_u64().unwrap(),
            "{name}"
        );
        assert_eq!(svb_pdz::decode(&block, n).unwrap(), samples, "{name}");
        for isa in Isa::available() {
            let mut out = vec![0x5555i16; n];
            svb_pdz::decode_into_with_isa(&block, &mut out, isa).unwrap().unwrap();
            assert_eq!(out, samples, "{name} on {isa}");
        }
        assert_eq!(
            svb_pdz::encode(&samples).unwrap(),
            block,
            "{name}: our block differs from ONT's"
        );
    }
}

/// The README's worked example, `len_3`, byte for byte.
#[test]
fn worked_example_len_3() {
    let block = svb_pdz::encode(&[371, 370, 373]).unwrap();
    assert_eq!(&block[..8], &3u64.to_le_bytes());
    assert_eq!(&block[8..16], &12u64.to_le_bytes());
    assert_eq!(&block[16..24], &12u64.to_le_bytes());
    assert_eq!(block[24], 0x3f, "B_u");
    assert_eq!(block.len(), 24 + 1 + 12 + 12);
    assert_eq!(svb_pdz::decode(&block, 3).unwrap(), [371, 370, 373]);
}

/// No samples: the header, no B_u and two empty 9-byte frames, 42 bytes.
#[test]
fn empty_signal_is_42_bytes() {
    let block = svb_pdz::encode(&[]).unwrap();
    assert_eq!(block.len(), 42);
    assert_eq!(svb_pdz::decode(&block, 0).unwrap(), Vec::<i16>::new());
}
