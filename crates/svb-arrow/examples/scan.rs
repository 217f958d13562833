//! Times a scan of files through `ReadBatches`: `scan [--pa|--raw] FILE...` prints reads,
//! samples, seconds and Msamples/s of the best of 3 scans.

use svb_arrow::{Options, ReadBatches, SignalColumn};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut signal = SignalColumn::None;
    let mut files = Vec::new();
    for a in std::env::args().skip(1) {
        match a.as_str() {
            "--pa" => signal = SignalColumn::PicoAmps,
            "--raw" => signal = SignalColumn::Raw,
            _ => files.push(a),
        }
    }
    let mut best = f64::MAX;
    let (mut reads, mut samples) = (0usize, 0usize);
    for _ in 0..3 {
        let t = std::time::Instant::now();
        let batch_samples =
            std::env::var("BATCH_SAMPLES").ok().and_then(|v| v.parse().ok()).unwrap_or(16 << 20);
        let mut b =
            ReadBatches::open(&files, Options { signal, batch_samples, ..Options::default() })?;
        (reads, samples) = (0, 0);
        while let Some(batch) = b.next_batch()? {
            reads += batch.num_rows();
            if signal != SignalColumn::None {
                samples += batch.columns().last().unwrap().to_data().child_data()[0].len();
            }
        }
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!(
        "{reads} reads, {samples} samples, {best:.4} s, {:.0} Msamples/s",
        samples as f64 / best / 1e6
    );
    Ok(())
}
