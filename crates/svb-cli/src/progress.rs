//! Progress bars on stderr: [`Progress`] for a command's own loop, [`SharedProgress`] for an
//! operation's progress callback. A bar appears once its command has run a second, only where
//! stderr is a terminal (indicatif draws nothing elsewhere), and never with `--quiet`; nor does
//! a command's summary of what it wrote ([`summary!`]). Errors, what was left out and notes
//! on side files are said whatever `--quiet` says.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// `--quiet`: no bar is ever drawn, and no summary written.
static QUIET: AtomicBool = AtomicBool::new(false);

/// Turns every progress bar and summary line off (`--quiet`).
pub fn set_quiet(quiet: bool) {
    QUIET.store(quiet, Ordering::Relaxed);
}

/// Whether `--quiet` was given.
pub fn quiet() -> bool {
    QUIET.load(Ordering::Relaxed)
}

/// A command's summary of what it did (`svb: convert: 10 reads ... -> out.blow5`) on stderr,
/// as `eprintln!` formats it; nothing with `--quiet`.
macro_rules! summary {
    ($($arg:tt)*) => {
        if !$crate::progress::quiet() {
            eprintln!($($arg)*);
        }
    };
}
pub(crate) use summary;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A progress bar on stderr that appears only once the work has run for a second.
pub struct Progress {
    bar: ProgressBar,
    what: String,
    started: Instant,
    shown: bool,
    /// When the bytes fetched from object stores were last shown.
    traffic_shown: Instant,
}

impl Progress {
    pub fn new(len: u64, what: &str) -> Self {
        let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::hidden());
        bar.set_style(
            ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} ({eta})")
                .expect("a valid template")
                .progress_chars("=> "),
        );
        bar.set_message(what.to_owned());
        Progress {
            bar,
            what: what.to_owned(),
            started: Instant::now(),
            shown: false,
            traffic_shown: Instant::now(),
        }
    }

    /// Prints `line` on stderr above the bar.
    pub fn eprintln(&self, line: &str) {
        self.bar.suspend(|| eprintln!("{line}"));
    }

    pub fn inc(&mut self, n: u64) {
        self.show_after_a_second();
        self.bar.inc(n);
    }

    /// The total, when it is learnt late.
    pub fn set_length(&mut self, len: u64) {
        self.bar.set_length(len);
    }

    /// Where the work is.
    pub fn set_position(&mut self, done: u64) {
        self.show_after_a_second();
        self.bar.set_position(done);
    }

    fn show_after_a_second(&mut self) {
        if !self.shown
            && !QUIET.load(Ordering::Relaxed)
            && self.started.elapsed() > Duration::from_secs(1)
        {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
            self.shown = true;
        }
        self.show_traffic();
    }

    /// The bytes fetched from object stores and web servers, and the requests made, beside
    /// the label (a few times a second, once there are any).
    fn show_traffic(&mut self) {
        if self.traffic_shown.elapsed() < Duration::from_millis(200) {
            return;
        }
        self.traffic_shown = Instant::now();
        let t = svb_io::remote::traffic();
        if t.requests > 0 {
            self.bar.set_message(format!(
                "{} ({:.1} MB fetched, {} requests)",
                self.what,
                t.bytes as f64 / 1e6,
                t.requests
            ));
        }
    }

    pub fn finish(self) {
        self.bar.finish_and_clear();
    }
}

/// A command's progress bar behind a lock, for a conversion's progress callback (`done`
/// of `total`, either of which may change as it goes).
pub struct SharedProgress(std::sync::Mutex<Progress>);

impl SharedProgress {
    /// A bar labelled `label`, its length set by the first report.
    pub fn new(label: &str) -> Self {
        SharedProgress(std::sync::Mutex::new(Progress::new(0, label)))
    }

    /// `done` of `total`.
    pub fn report(&self, done: u64, total: u64) {
        let mut p = self.0.lock().unwrap_or_else(|e| e.into_inner());
        p.set_length(total);
        p.set_position(done);
    }

    /// Ends the bar.
    pub fn finish(self) {
        self.0.into_inner().unwrap_or_else(|e| e.into_inner()).finish();
    }
}
