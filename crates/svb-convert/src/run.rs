//! How an operation runs and what it reports ([`Run`], [`OnError`], [`Stats`]): its inputs
//! looked at and kept open or opened again (`look_at_inputs`), an output that is an input
//! refused, failed inputs and reads settled by `on_error`.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use crate::error::ConvertError;
use crate::reopen;

/// Samples (or, for BLOW5 inputs, stored bytes) decoded at once (at least one read): with the
/// window being written, the memory bound of a conversion.
pub(crate) const WINDOW_SAMPLES: u64 = 8 << 20;

impl Stats {
    /// Why an operation that opened none of its inputs stops: the last input's error (the
    /// others are in `failed`), or, with no input at all, that there was nothing to `job`.
    pub(crate) fn nothing_opened(&mut self, job: &str) -> ConvertError {
        self.failed.pop().unwrap_or_else(|| ConvertError::Mapping(format!("no input to {job}")))
    }

    /// The samples written, where every read's were counted (`None` where some reads were
    /// copied as stored: [`samples_uncounted`](Stats::samples_uncounted)).
    pub fn samples_counted(&self) -> Option<u64> {
        (self.samples_uncounted == 0).then_some(self.samples)
    }
}

/// What a conversion wrote.
#[derive(Debug, Default)]
pub struct Stats {
    /// Reads written.
    pub reads: u64,
    /// Samples written (of the reads whose sample count was read: see
    /// `samples_uncounted`).
    pub samples: u64,
    /// Reads copied as stored without their records parsed (BLOW5 records by merge and
    /// split): their samples are not in `samples`.
    pub samples_uncounted: u64,
    /// With [`OnError::Skip`]: the inputs and reads left out, each error naming its file
    /// (and read), in input order.
    pub failed: Vec<ConvertError>,
    /// What the operation has to say of what it wrote (fields of the inputs the output has no
    /// place for, left out), for the user.
    pub notes: Vec<String>,
}

/// What a conversion does when an input cannot be opened or one of its reads cannot be
/// decoded or mapped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OnError {
    /// Stop: the conversion returns the error and leaves no output.
    #[default]
    Stop,
    /// Leave the input or read out, list the error in [`Stats::failed`], and go on.
    Skip,
}

impl OnError {
    /// [`Skip`](OnError::Skip) when `keep_going` (a `--keep-going` flag), else
    /// [`Stop`](OnError::Stop).
    pub fn skip_if(keep_going: bool) -> Self {
        match keep_going {
            true => OnError::Skip,
            false => OnError::Stop,
        }
    }
}

/// How a conversion runs: what it does with a failed input or read, and whom it tells of
/// its progress.
#[derive(Default)]
pub struct Run<'a> {
    /// A failed input or read stops the conversion, or is left out.
    pub on_error: OnError,
    /// Called after each window of reads is written: `(reads done, reads in all inputs)`
    /// (reads left out count as done).
    pub progress: Option<&'a mut (dyn FnMut(u64, u64) + Send)>,
    /// How outputs are published: whether one replaces a file at its path (default: refused)
    /// and whether it is synced to the disk first (default: synced). The conversions take
    /// this from their writer options (`publish`).
    pub publish: svb_io::Publish,
    /// Asked after each window of reads whether to stop (a user's Ctrl-C): when it says so,
    /// the operation ends with [`ConvertError::Interrupted`] and publishes nothing.
    pub interrupted: Option<&'a (dyn Fn() -> bool + Sync)>,
}

/// Refuses an output that is one of the inputs (the same file by any path or link): writing
/// it would destroy what is being read, whatever the replace setting.
pub(crate) fn check_output(inputs: &[PathBuf], out: &Path) -> Result<(), ConvertError> {
    let output = |source| ConvertError::Output { path: out.to_path_buf(), source };
    // An input that does not exist is reported when it is opened; an object (a URL) is
    // known by its URL whether or not it exists.
    let existing = inputs.iter().filter(|p| svb_io::is_url(p) || p.exists());
    svb_io::Inputs::new(existing).and_then(|ids| ids.check_output(out)).map_err(output)
}

impl<'a> Run<'a> {
    /// Reports `done` of `total`; `Err(Interrupted)` when [`Run::interrupted`] says to stop.
    pub(crate) fn report(&mut self, done: u64, total: u64) -> Result<(), ConvertError> {
        if let Some(p) = self.progress.as_mut() {
            p(done, total);
        }
        match self.interrupted {
            Some(stop) if stop() => Err(ConvertError::Interrupted),
            _ => Ok(()),
        }
    }
}

/// Inputs at most this many are kept open from their first look to their conversion; more
/// are opened again one at a time when their turn comes (a thousand files under a limit of
/// open files).
const KEEP_OPEN: usize = 16;

/// An input a conversion has looked at: its path, its reads, and its reader when it is kept
/// open (a stream, whose bytes a second open would not give, or one of few inputs).
pub(crate) struct Looked<R> {
    pub(crate) path: PathBuf,
    pub(crate) reads: usize,
    pub(crate) kept: Option<R>,
}

impl<R> Looked<R> {
    /// The input for its conversion: its kept reader, or its file opened again; one that no
    /// longer opens stops the conversion, or is left out (`None`) and listed in `failed`, as
    /// `on_error` says.
    pub(crate) fn reopen<E: Into<ConvertError>>(
        &self, open: impl FnOnce(&Path) -> Result<R, E>, on_error: OnError,
        failed: &mut Vec<ConvertError>,
    ) -> Result<Option<reopen::Reopened<'_, R>>, ConvertError> {
        let opened = reopen::reopen(&self.kept, &self.path, open).map_err(Into::into);
        Ok(settle(vec![opened], on_error, failed, ConvertError::of(&self.path))?.pop())
    }
}

/// Refuses an output that is an input ([`check_output`]), then opens every input in turn,
/// `look(reader, path)` at it (what a header needs of it) and, unless it must be kept, closes
/// it again: a bounded number of files are open at any time. With [`OnError::Skip`] an input
/// that fails to open is listed in the returned stats' `failed` and left out (when none
/// opens, the first one's error is returned: there is nothing to convert). A conversion reads
/// every read of each input in order, and says so to its reader
/// ([`ReadSource::expect_scan`](svb_model::ReadSource::expect_scan): an object is fetched
/// ahead).
pub(crate) fn look_at_inputs<R: svb_model::ReadSource, E: Into<ConvertError>>(
    inputs: &[PathBuf], output: &Path, on_error: OnError, open: impl Fn(&Path) -> Result<R, E>,
    mut look: impl FnMut(&R, &Path) -> Result<(), ConvertError>,
) -> Result<(Vec<Looked<R>>, Stats), ConvertError> {
    let keep_all = inputs.len() <= KEEP_OPEN;
    let open = |p: &Path| open(p).inspect(R::expect_scan);
    check_output(inputs, output)?;
    let (mut out, mut stats) = (Vec::new(), Stats::default());
    for p in inputs {
        let r = match (open(p).map_err(Into::into), on_error) {
            (Ok(r), _) => r,
            (Err(e), OnError::Skip) => {
                stats.failed.push(ConvertError::of(p)(e));
                continue;
            }
            (Err(e), OnError::Stop) => return Err(e),
        };
        look(&r, p).map_err(ConvertError::of(p))?;
        let n = r.len();
        let kept = match keep_all {
            true => Some(r),
            false => reopen::keep_stream(p, r),
        };
        out.push(Looked { path: p.clone(), reads: n, kept });
    }
    if out.is_empty() && !stats.failed.is_empty() {
        return Err(stats.failed.remove(0));
    }
    Ok((out, stats))
}

/// Each of `items` paired with what a writer said of it (`outcomes`, in the same order): the
/// item where it was written, the writer's error where not; for [`settle`].
pub(crate) fn each_written<T, E: Into<ConvertError>>(
    items: impl IntoIterator<Item = T>, outcomes: Vec<Result<(), E>>,
) -> Vec<Result<T, ConvertError>> {
    items
        .into_iter()
        .zip(outcomes)
        .map(|(item, added)| added.map(|()| item).map_err(Into::into))
        .collect()
}

/// The values of `items`; an error stops the conversion, or with [`OnError::Skip`] goes to
/// `failed` (named by `in_file`).
pub(crate) fn settle<T>(
    items: Vec<Result<T, ConvertError>>, on_error: OnError, failed: &mut Vec<ConvertError>,
    in_file: impl Fn(ConvertError) -> ConvertError,
) -> Result<Vec<T>, ConvertError> {
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        match (item, on_error) {
            (Ok(v), _) => out.push(v),
            (Err(e), OnError::Skip) => failed.push(in_file(e)),
            (Err(e), OnError::Stop) => return Err(in_file(e)),
        }
    }
    Ok(out)
}

pub(crate) fn missing(wanted: &[String], found: &HashSet<String>) -> Vec<String> {
    wanted.iter().filter(|id| !found.contains(*id)).cloned().collect()
}
