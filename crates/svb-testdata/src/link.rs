//! A link of capped bandwidth for benchmarks: bytes sent through it, from any number of
//! connections, go at most at its rate, in 10 ms slices (what svb_testdata's range server
//! and its throttling proxy send through, as a link to a cloud region).

use std::io::Write;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The link every sender shares.
#[derive(Debug, Default)]
pub struct Link(Mutex<()>);

impl Link {
    /// Writes `bytes` to `out` at most at `rate` bytes a second over all senders (all at once
    /// where `rate` is 0).
    pub fn send(&self, out: &mut impl Write, bytes: &[u8], rate: u64) -> std::io::Result<()> {
        if rate == 0 {
            return out.write_all(bytes);
        }
        let slice = (rate / 100).max(1) as usize;
        for part in bytes.chunks(slice) {
            let _link = self.0.lock().unwrap_or_else(|e| e.into_inner());
            let started = Instant::now();
            out.write_all(part)?;
            let due = Duration::from_secs_f64(part.len() as f64 / rate as f64);
            if let Some(wait) = due.checked_sub(started.elapsed()) {
                std::thread::sleep(wait);
            }
        }
        Ok(())
    }
}
