//! Times reading a BLOW5 file two ways (records one by one, and `decode_all` on every core):
//! `cargo run --release -p svb-blow5 --example time_blow5 FILE`. A quick look on a user's own
//! file; the figures this project claims come from `benches/`.

fn main() {
    let path = std::env::args().nth(1).unwrap();
    let r = svb_blow5::Reader::open(&path).unwrap();
    for _ in 0..3 {
        let t = std::time::Instant::now();
        let n: usize = r.records().map(|x| x.unwrap().raw_signal.len()).sum();
        let a = t.elapsed();
        let t = std::time::Instant::now();
        let m: usize = r
            .decode_all(svb_blow5::Threads::Current)
            .unwrap()
            .iter()
            .map(|x| x.raw_signal.len())
            .sum();
        let b = t.elapsed();
        println!("{n} {m} seq {a:?} par {b:?} threads {}", rayon::current_num_threads());
    }
}
