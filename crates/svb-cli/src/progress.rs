//! Progress bars on stderr: [`Progress`] for a command's own loop, [`SharedProgress`] for an
//! operation's progress callback.

use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A progress bar on stderr that appears only once the work has run for a second.
pub struct Progress {
    bar: ProgressBar,
    started: Instant,
    shown: bool,
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
            started: Instant::now(),
            shown: false,
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
        if !self.shown && self.started.elapsed() > Duration::from_secs(1) {
            self.bar.set_draw_target(ProgressDrawTarget::stderr());
            self.shown = true;
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
        self.0
            .into_inner()
            .unwrap_or_else(|e| e.into_inner())
            .finish();
    }
}
