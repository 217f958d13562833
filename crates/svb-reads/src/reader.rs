//! [`AnyReader`]: one reader over every format svb reads.

use std::collections::HashSet;
use std::path::Path;

use rayon::prelude::*;
use svb_model::{Calibration, Fields, Format, Read, ReadSource, Signal};

use crate::{detect, ReadsError};

/// An open raw-signal file of any format svb reads, its format known by content: its reads
/// by index or by id, decoded into the [`Read`] model through each format's [`ReadSource`]
/// (which `AnyReader` is too). The format's own reader stays reachable
/// ([`pod5`](AnyReader::pod5), [`blow5`](AnyReader::blow5)) for what only that format has.
///
/// ```no_run
/// use svb_model::ReadSource;
/// let file = svb_reads::AnyReader::open("reads.blow5".as_ref())?;
/// println!("{}: {} reads", file.format(), file.len());
/// if let Some(i) = file.find("0d624d4b-671f-40b8-9798-84f2ccc4d7fc")? {
///     let read = file.read(i)?;
///     println!("{} samples, channel {:?}", read.signal.len(), read.field("channel_number"));
/// }
/// # Ok::<(), svb_reads::ReadsError>(())
/// ```
pub struct AnyReader {
    inner: Inner,
}

/// An [`AnyReader`]'s own reader, by format.
#[derive(Clone, Copy)]
pub enum ByFormat<'a> {
    /// A POD5 file.
    Pod5(&'a svb_pod5::Reader),
    /// A BLOW5 file.
    Blow5(&'a svb_blow5::Reader),
    /// A FAST5 file.
    Fast5(&'a svb_fast5::Reader),
}

enum Inner {
    Pod5(svb_pod5::Reader),
    Blow5(svb_blow5::Reader),
    Fast5(svb_fast5::Reader),
}

/// A file opened to find reads by id ([`AnyReader::open_for_ids`]).
pub struct Found {
    /// The file's reader.
    pub reader: AnyReader,
    /// Each id's read in it, in the order of the ids; `None` where it has none.
    pub reads: Vec<Option<usize>>,
    /// What to tell the user of the file's index (rebuilt, set aside, not written).
    pub note: Option<String>,
}

impl From<svb_fast5::Reader> for AnyReader {
    fn from(r: svb_fast5::Reader) -> AnyReader {
        AnyReader { inner: Inner::Fast5(r) }
    }
}

impl From<svb_pod5::Reader> for AnyReader {
    fn from(r: svb_pod5::Reader) -> AnyReader {
        AnyReader { inner: Inner::Pod5(r) }
    }
}

impl From<svb_blow5::Reader> for AnyReader {
    fn from(r: svb_blow5::Reader) -> AnyReader {
        AnyReader { inner: Inner::Blow5(r) }
    }
}

impl AnyReader {
    /// Opens `path`, of the format its first bytes say ([`detect`](crate::detect)).
    pub fn open(path: &Path) -> Result<AnyReader, ReadsError> {
        AnyReader::open_as(path, detect(path)?)
    }

    /// Opens `path` as a file of `format` (refused by that format's reader when it is not).
    /// An object's BLOW5 / SLOW5 (a URL) is opened through slow5lib's index beside it when
    /// there is one that fits, so that its records are not all fetched to be located;
    /// otherwise by a scan of its records.
    pub fn open_as(path: &Path, format: Format) -> Result<AnyReader, ReadsError> {
        Ok(match format {
            Format::Pod5 => svb_pod5::Reader::open(path)?.into(),
            Format::Blow5 | Format::Slow5 if svb_io::is_url(path) => {
                let idx = svb_blow5::Index::path_for(path);
                let indexed = svb_blow5::Index::read(&idx).ok().and_then(|index| {
                    let mut r = svb_blow5::Reader::open_indexed(path, &index).ok()?;
                    r.use_index(index);
                    Some(r)
                });
                match indexed {
                    Some(r) => r.into(),
                    None => svb_blow5::Reader::open(path)?.into(),
                }
            }
            Format::Blow5 | Format::Slow5 => svb_blow5::Reader::open(path)?.into(),
            Format::Fast5 => svb_fast5::Reader::open(path)?.into(),
        })
    }

    /// Opens `path` to look up the reads `ids` alone, as fast as the format allows, and finds
    /// them: a POD5 reads table parsed for those rows only, a BLOW5 file through slow5lib's
    /// index beside it (built and written there when missing, rewritten when it does not fit
    /// the records, as [`svb_blow5::find_reads`] says). Returns the reader, each id's read
    /// (`None` where the file has none) and a note to show the user when the index was
    /// rebuilt, set aside or could not be written.
    pub fn open_for_ids(path: &Path, ids: &[String]) -> Result<Found, ReadsError> {
        AnyReader::open_for_ids_with(path, ids, None)
    }

    /// [`open_for_ids`](AnyReader::open_for_ids) with a BLOW5 / SLOW5 file's index read from
    /// `index` (kept elsewhere; never rebuilt or replaced: one whose positions do not fit the
    /// file is an error, one whose ids do not is set aside for the records' ids).
    pub fn open_for_ids_with(
        path: &Path, ids: &[String], index: Option<&Path>,
    ) -> Result<Found, ReadsError> {
        let reader: AnyReader = match detect(path)? {
            Format::Pod5 => {
                let wanted: HashSet<[u8; 16]> =
                    ids.iter().filter_map(|id| svb_pod5::parse_uuid(id)).collect();
                svb_pod5::Reader::open_filtered(path, |id| wanted.contains(id))?.into()
            }
            Format::Blow5 | Format::Slow5 => {
                let (opened, reads) = svb_blow5::find_reads(path, ids, index)?;
                return Ok(Found { reader: opened.reader.into(), reads, note: opened.note });
            }
            // Its reads are listed by id at open.
            Format::Fast5 => svb_fast5::Reader::open(path)?.into(),
        };
        let reads = reader.find_many(ids)?;
        Ok(Found { reader, reads, note: None })
    }

    /// The format's own reader, to match on (exhaustively: a format added to svb-reads is a
    /// compile error wherever one is handled format by format).
    pub fn by_format(&self) -> ByFormat<'_> {
        match &self.inner {
            Inner::Pod5(r) => ByFormat::Pod5(r),
            Inner::Blow5(r) => ByFormat::Blow5(r),
            Inner::Fast5(r) => ByFormat::Fast5(r),
        }
    }

    /// The POD5 reader, when the file is one.
    pub fn pod5(&self) -> Option<&svb_pod5::Reader> {
        match &self.inner {
            Inner::Pod5(r) => Some(r),
            Inner::Blow5(_) | Inner::Fast5(_) => None,
        }
    }

    /// The BLOW5 reader (of BLOW5 and SLOW5 text), when the file is one.
    pub fn blow5(&self) -> Option<&svb_blow5::Reader> {
        match &self.inner {
            Inner::Pod5(_) | Inner::Fast5(_) => None,
            Inner::Blow5(r) => Some(r),
        }
    }

    /// The FAST5 reader, when the file is one.
    pub fn fast5(&self) -> Option<&svb_fast5::Reader> {
        match &self.inner {
            Inner::Fast5(r) => Some(r),
            Inner::Pod5(_) | Inner::Blow5(_) => None,
        }
    }

    /// Every read's id, in file order (a BLOW5 file's parsed on the current rayon pool).
    pub fn read_ids(&self) -> Result<Vec<String>, ReadsError> {
        (0..self.len()).into_par_iter().map(|i| self.read_id(i)).collect()
    }
}

/// `$call` on the format's reader (as its [`ReadSource`]), its error made a [`ReadsError`].
macro_rules! each {
    ($self:ident, $r:ident => $call:expr) => {
        match &$self.inner {
            Inner::Pod5($r) => $call.map_err(ReadsError::from),
            Inner::Blow5($r) => $call.map_err(ReadsError::from),
            Inner::Fast5($r) => $call.map_err(ReadsError::from),
        }
    };
    (infallible $self:ident, $r:ident => $call:expr) => {
        match &$self.inner {
            Inner::Pod5($r) => $call,
            Inner::Blow5($r) => $call,
            Inner::Fast5($r) => $call,
        }
    };
}

impl ReadSource for AnyReader {
    type Error = ReadsError;

    fn format(&self) -> Format {
        each!(infallible self, r => ReadSource::format(r))
    }

    fn path(&self) -> &Path {
        each!(infallible self, r => ReadSource::path(r))
    }

    fn len(&self) -> usize {
        each!(infallible self, r => ReadSource::len(r))
    }

    fn weight(&self, index: usize) -> u64 {
        each!(infallible self, r => ReadSource::weight(r, index))
    }

    fn expect_scan(&self) {
        each!(infallible self, r => ReadSource::expect_scan(r))
    }

    fn plan(&self, indices: &[usize]) {
        each!(infallible self, r => ReadSource::plan(r, indices))
    }

    fn read_id(&self, index: usize) -> Result<String, ReadsError> {
        each!(self, r => ReadSource::read_id(r, index))
    }

    fn find(&self, read_id: &str) -> Result<Option<usize>, ReadsError> {
        each!(self, r => ReadSource::find(r, read_id))
    }

    fn find_many(&self, read_ids: &[String]) -> Result<Vec<Option<usize>>, ReadsError> {
        each!(self, r => ReadSource::find_many(r, read_ids))
    }

    fn signal_into(&self, index: usize, samples: &mut Vec<i16>) -> Result<Calibration, ReadsError> {
        each!(self, r => ReadSource::signal_into(r, index, samples))
    }

    fn fields(&self, index: usize) -> Result<Fields, ReadsError> {
        each!(self, r => ReadSource::fields(r, index))
    }

    fn signal(&self, index: usize) -> Result<Signal, ReadsError> {
        each!(self, r => ReadSource::signal(r, index))
    }

    fn read(&self, index: usize) -> Result<Read, ReadsError> {
        each!(self, r => ReadSource::read(r, index))
    }
}
