//! Wire cross-checks against the peer crate `svb` 0.3.1: its VBZ, VBZ2 and VBZ-K streams
//! (the layouts of seed 000) are byte-identical to ours and decode both ways.
#![allow(deprecated)] // the peer marks VBZ2 deprecated in favour of VBZ-K

use svb_bench::signal_i16;

fn signals() -> Vec<Vec<i16>> {
    let mut v: Vec<Vec<i16>> = [0usize, 1, 7, 8, 15, 16, 17, 100, 1023, 4099, 8192, 102_400]
        .iter()
        .map(|&n| signal_i16(n))
        .collect();
    v.push((0..5000).map(|i| if i % 3 == 0 { i16::MIN } else { i16::MAX }).collect());
    v
}

#[test]
fn vbz_streams_match_the_peer() {
    for s in signals() {
        let ours = svb_vbz::encode_vbz(&s);
        assert_eq!(ours, svb_peer::encode_vbz(&s), "n={}", s.len());
        assert_eq!(svb_peer::decode_vbz_fused(&ours, s.len()).unwrap(), s);
    }
}

#[test]
fn vbz2_streams_match_the_peer() {
    for s in signals() {
        let ours = svb_vbz::encode_vbz2(&s);
        let theirs = svb_peer::encode_vbz2(&s);
        assert_eq!(ours, theirs, "n={}", s.len());
        assert_eq!(svb_vbz::decode_vbz2(&theirs, s.len()).unwrap(), s);
        assert_eq!(svb_peer::decode_vbz2(&ours, s.len()).unwrap(), s);
    }
}

#[test]
fn vbzk_streams_match_the_peer() {
    for s in signals() {
        for k in [1, 2, 3, 4, 8, 16] {
            let ours = svb_vbz::encode_vbzk(&s, k);
            let theirs = svb_peer::encode_vbzk(&s, k);
            assert_eq!(ours, theirs, "n={} k={k}", s.len());
            assert_eq!(svb_vbz::decode_vbzk_parallel(&theirs, s.len()).unwrap(), s);
            assert_eq!(svb_peer::decode_vbzk(&ours, s.len()).unwrap(), s);
        }
    }
}
