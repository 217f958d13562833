//! [`OntRead`]: a read of ONT's model (its fields, its run, its samples), and [`OntSource`]:
//! a reader whose reads map to it, whatever the file's format.

use std::sync::Arc;

use super::{MappingError, ReadInfo, RunInfo};
use crate::ReadSource;

/// A read as ONT's formats hold it, whatever the file it came from: what a writer of ONT reads
/// takes (the POD5 writer as its [`ReadSink::Read`](crate::ReadSink::Read)) and what every
/// format's reader gives through [`OntSource`], so that a conversion is one mapping into the
/// model and one out of it, not one for each pair of formats.
///
/// ```
/// use std::sync::Arc;
/// use svb_model::ont::{OntRead, ReadInfo, RunInfo};
/// let run = Arc::new(RunInfo { acquisition_id: "run-1".into(), ..RunInfo::default() });
/// let read = OntRead::new(ReadInfo::new([7; 16], "run-1"), run, vec![1, 2, 3]);
/// assert_eq!(read.info.num_samples, 3);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct OntRead {
    /// The read's fields (its `run_info` the run's acquisition id).
    pub info: ReadInfo,
    /// The read's run, shared by the reads of one run.
    pub run: Arc<RunInfo>,
    /// The raw samples.
    pub signal: Vec<i16>,
}

impl OntRead {
    /// The read of `info` in `run` holding `signal`, its sample count set to the signal's.
    pub fn new(mut info: ReadInfo, run: Arc<RunInfo>, signal: Vec<i16>) -> OntRead {
        info.num_samples = signal.len() as u64;
        OntRead { info, run, signal }
    }
}

/// Why an [`OntSource`] gives no read: the file's own error, or fields that have no place in
/// ONT's model (a read id that is not a UUID, a run seen twice with other fields).
#[derive(Debug)]
pub enum OntReadError<E> {
    /// The file's reader failed (it names the file and the read).
    Read(E),
    /// The read does not map to the model.
    Mapping(MappingError),
}

impl<E: std::fmt::Display> std::fmt::Display for OntReadError<E> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OntReadError::Read(e) => e.fmt(f),
            OntReadError::Mapping(e) => e.fmt(f),
        }
    }
}

impl<E: std::error::Error + 'static> std::error::Error for OntReadError<E> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            OntReadError::Read(e) => Some(e),
            OntReadError::Mapping(e) => Some(e),
        }
    }
}

impl<E> From<MappingError> for OntReadError<E> {
    fn from(e: MappingError) -> Self {
        OntReadError::Mapping(e)
    }
}

/// A reader whose reads map to ONT's model ([`OntRead`]): what an operation that writes ONT
/// reads takes, whatever its inputs' format. Implemented in each format's crate, by the
/// mapping its reference converter uses (POD5's reads table as it is, a BLOW5 record by
/// blue-crab's, a FAST5 read by ONT's `pod5 convert fast5`).
///
/// A read is made in two steps: [`map_read`](OntSource::map_read) on any thread (the signal
/// decoded, the fields mapped), then [`admit`](OntSource::admit) in file order, where what
/// depends on the reads before it is decided (a run made of a BLOW5 read group's first record,
/// a run seen again in another input), in a [`Runs`](OntSource::Runs) an operation keeps over
/// all its inputs.
///
/// ```
/// use svb_model::ont::{OntRead, OntReadError, OntSource};
///
/// /// Every read of `file`, in order.
/// fn ont_reads<R: OntSource>(file: &R) -> Result<Vec<OntRead>, OntReadError<R::Error>> {
///     let mut runs = R::Runs::default();
///     (0..file.len()).map(|i| file.admit(&mut runs, file.map_read(i)?)).collect()
/// }
/// ```
pub trait OntSource: ReadSource {
    /// A read as [`map_read`](OntSource::map_read) makes it, before its place in the file's
    /// order is known.
    type Mapped: Send;

    /// What [`admit`](OntSource::admit) decides in order: the runs seen so far, over every
    /// input of an operation.
    type Runs: Default + Send;

    /// Read `index` decoded and mapped (any thread).
    fn map_read(&self, index: usize) -> Result<Self::Mapped, OntReadError<Self::Error>>;

    /// The samples of a mapped read: what an operation that changes them (degrade's rounding)
    /// changes on any thread, before the read is admitted.
    fn samples_mut(mapped: &mut Self::Mapped) -> &mut Vec<i16>;

    /// The model read of `mapped`, in file order: its run found in `runs` or made and kept
    /// there.
    fn admit(
        &self, runs: &mut Self::Runs, mapped: Self::Mapped,
    ) -> Result<OntRead, OntReadError<Self::Error>>;
}
