//! [`AnyReader`]: one reader over every format svb reads.

use std::collections::HashSet;
use std::path::Path;
use std::sync::OnceLock;

use rayon::prelude::*;

use crate::read::{
    blow5_calibration, blow5_fields, fast5_calibration, fast5_fields, pod5_fields, Calibration,
    Read, Signal,
};
use crate::{Format, ReadsError};

/// An open raw-signal file of any format svb reads, its format known by content: its reads
/// by index or by id, decoded into the [`Read`] model. The format's own reader stays
/// reachable ([`pod5`](AnyReader::pod5), [`blow5`](AnyReader::blow5)) for what only that
/// format has.
///
/// ```no_run
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
    Blow5 {
        reader: svb_blow5::Reader,
        /// Read id -> record, built on the first lookup by id (or given at open).
        index: OnceLock<svb_blow5::Index>,
    },
    Fast5(svb_fast5::Reader),
}

impl From<svb_fast5::Reader> for AnyReader {
    fn from(r: svb_fast5::Reader) -> AnyReader {
        AnyReader {
            inner: Inner::Fast5(r),
        }
    }
}

impl From<svb_pod5::Reader> for AnyReader {
    fn from(r: svb_pod5::Reader) -> AnyReader {
        AnyReader {
            inner: Inner::Pod5(r),
        }
    }
}

impl From<svb_blow5::Reader> for AnyReader {
    fn from(r: svb_blow5::Reader) -> AnyReader {
        AnyReader {
            inner: Inner::Blow5 {
                reader: r,
                index: OnceLock::new(),
            },
        }
    }
}

impl AnyReader {
    /// Opens `path`, of the format its first bytes say ([`Format::detect`]).
    pub fn open(path: &Path) -> Result<AnyReader, ReadsError> {
        AnyReader::open_as(path, Format::detect(path)?)
    }

    /// Opens `path` as a file of `format` (refused by that format's reader when it is not).
    pub fn open_as(path: &Path, format: Format) -> Result<AnyReader, ReadsError> {
        Ok(match format {
            Format::Pod5 => svb_pod5::Reader::open(path)?.into(),
            Format::Blow5 | Format::Slow5 => svb_blow5::Reader::open(path)?.into(),
            Format::Fast5 => svb_fast5::Reader::open(path)?.into(),
        })
    }

    /// Opens `path` to look up the reads `ids` alone, as fast as the format allows: a POD5
    /// reads table parsed for those rows only, a BLOW5 file through slow5lib's index beside it
    /// (built and written there when missing or stale, as slow5lib does). Returns a note to
    /// show the user when the index was rebuilt or could not be written.
    pub fn open_for_ids(
        path: &Path,
        ids: &[String],
    ) -> Result<(AnyReader, Option<String>), ReadsError> {
        AnyReader::open_for_ids_with(path, ids, None)
    }

    /// [`open_for_ids`](AnyReader::open_for_ids) with a BLOW5 / SLOW5 file's index read from
    /// `index` (kept elsewhere; never rebuilt: one that does not fit the file is an error).
    pub fn open_for_ids_with(
        path: &Path,
        ids: &[String],
        index: Option<&Path>,
    ) -> Result<(AnyReader, Option<String>), ReadsError> {
        match Format::detect(path)? {
            Format::Pod5 => {
                let wanted: HashSet<[u8; 16]> = ids
                    .iter()
                    .filter_map(|id| svb_pod5::parse_uuid(id))
                    .collect();
                let r = svb_pod5::Reader::open_filtered(path, |id| wanted.contains(id))?;
                Ok((r.into(), None))
            }
            Format::Blow5 | Format::Slow5 => {
                let opened = match index {
                    Some(idx) => svb_blow5::open_with_index_at(path, idx)?,
                    None => svb_blow5::open_with_index(path)?,
                };
                let reader = AnyReader {
                    inner: Inner::Blow5 {
                        reader: opened.reader,
                        index: OnceLock::from(opened.index),
                    },
                };
                Ok((reader, opened.note))
            }
            // Its reads are listed by id at open.
            Format::Fast5 => Ok((svb_fast5::Reader::open(path)?.into(), None)),
        }
    }

    /// The file's format.
    pub fn format(&self) -> Format {
        match &self.inner {
            Inner::Pod5(_) => Format::Pod5,
            Inner::Blow5 { reader, .. } => match reader.header().format {
                svb_io::FileFormat::Slow5 => Format::Slow5,
                _ => Format::Blow5,
            },
            Inner::Fast5(_) => Format::Fast5,
        }
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        match &self.inner {
            Inner::Pod5(r) => r.path(),
            Inner::Blow5 { reader, .. } => reader.path(),
            Inner::Fast5(r) => r.path(),
        }
    }

    /// How many reads the file holds.
    pub fn len(&self) -> usize {
        match &self.inner {
            Inner::Pod5(r) => r.len(),
            Inner::Blow5 { reader, .. } => reader.len(),
            Inner::Fast5(r) => r.len(),
        }
    }

    /// Whether the file holds no read.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The format's own reader, to match on (exhaustively: a format added to svb-reads is a
    /// compile error wherever one is handled format by format).
    pub fn by_format(&self) -> ByFormat<'_> {
        match &self.inner {
            Inner::Pod5(r) => ByFormat::Pod5(r),
            Inner::Blow5 { reader, .. } => ByFormat::Blow5(reader),
            Inner::Fast5(r) => ByFormat::Fast5(r),
        }
    }

    /// The POD5 reader, when the file is one.
    pub fn pod5(&self) -> Option<&svb_pod5::Reader> {
        match &self.inner {
            Inner::Pod5(r) => Some(r),
            Inner::Blow5 { .. } | Inner::Fast5(_) => None,
        }
    }

    /// The BLOW5 reader (of BLOW5 and SLOW5 text), when the file is one.
    pub fn blow5(&self) -> Option<&svb_blow5::Reader> {
        match &self.inner {
            Inner::Pod5(_) | Inner::Fast5(_) => None,
            Inner::Blow5 { reader, .. } => Some(reader),
        }
    }

    /// The FAST5 reader, when the file is one.
    pub fn fast5(&self) -> Option<&svb_fast5::Reader> {
        match &self.inner {
            Inner::Fast5(r) => Some(r),
            Inner::Pod5(_) | Inner::Blow5 { .. } => None,
        }
    }

    /// What read `index` weighs before it is decoded, to cut windows of reads
    /// ([`svb_io::window_end`]): its sample count where the file stores one (POD5), else its
    /// stored bytes (BLOW5, about 1-2 bytes a sample); a FAST5 read its dataset's declared
    /// count. 0 past the end.
    pub fn weight(&self, index: usize) -> u64 {
        match &self.inner {
            Inner::Pod5(r) => r.reads().get(index).map_or(0, |x| x.num_samples),
            Inner::Blow5 { reader, .. } => reader.record_span(index).map_or(0, |(_, s)| s),
            Inner::Fast5(r) => r.samples(index).unwrap_or(0),
        }
    }

    /// Read `index`'s id (an index past the last read is the format's error naming it).
    pub fn read_id(&self, index: usize) -> Result<String, ReadsError> {
        Ok(match &self.inner {
            Inner::Pod5(r) => r.read(index)?.read_id_string(),
            Inner::Blow5 { reader, .. } => reader.read_id(index)?,
            Inner::Fast5(r) => r.read_id(index)?.to_string(),
        })
    }

    /// Every read's id, in file order (a BLOW5 file's parsed on the current rayon pool).
    pub fn read_ids(&self) -> Result<Vec<String>, ReadsError> {
        (0..self.len())
            .into_par_iter()
            .map(|i| self.read_id(i))
            .collect()
    }

    /// The index of read `read_id`, `None` when the file does not hold it. A BLOW5 file's
    /// index of ids is built on the first call (every record's id parsed once).
    pub fn find(&self, read_id: &str) -> Result<Option<usize>, ReadsError> {
        match &self.inner {
            Inner::Pod5(r) => Ok(r.find(read_id)),
            Inner::Fast5(r) => Ok(r.find(read_id)),
            Inner::Blow5 { reader, index } => {
                let index = match index.get() {
                    Some(i) => i,
                    None => {
                        let built = svb_blow5::Index::build(reader)?;
                        index.get_or_init(|| built)
                    }
                };
                Ok(index
                    .get(read_id)
                    .and_then(|(offset, size)| reader.record_at(offset, size)))
            }
        }
    }

    /// Read `index`, decoded: id, signal, calibration and every field.
    pub fn read(&self, index: usize) -> Result<Read, ReadsError> {
        let (s, fields) = self.decode(index, true)?;
        Ok(Read {
            read_id: s.read_id,
            signal: s.samples,
            calibration: s.calibration,
            fields,
        })
    }

    /// Read `index`'s id, signal and calibration, without its other fields.
    pub fn signal(&self, index: usize) -> Result<Signal, ReadsError> {
        Ok(self.decode(index, false)?.0)
    }

    /// Read `index`'s signal, and its fields when `with_fields` (else none).
    fn decode(
        &self,
        index: usize,
        with_fields: bool,
    ) -> Result<(Signal, crate::Fields), ReadsError> {
        match &self.inner {
            Inner::Pod5(r) => {
                let read = r.read(index)?;
                let fields = match with_fields {
                    true => pod5_fields(read, r.run_info_of(read)),
                    false => Vec::new(),
                };
                let signal = Signal {
                    read_id: read.read_id_string(),
                    samples: r.decode_signal(index)?,
                    calibration: pod5_calibration(read),
                };
                Ok((signal, fields))
            }
            Inner::Blow5 { reader, .. } => {
                let rec = reader.record(index)?;
                let fields = match with_fields {
                    true => blow5_fields(reader.header(), &rec),
                    false => Vec::new(),
                };
                let signal = Signal {
                    calibration: blow5_calibration(&rec),
                    read_id: rec.read_id,
                    samples: rec.raw_signal,
                };
                Ok((signal, fields))
            }
            Inner::Fast5(r) => {
                let read = r.read(index)?;
                let samples = r.signal(index)?;
                let fields = match with_fields {
                    true => fast5_fields(&read, samples.len() as u64),
                    false => Vec::new(),
                };
                let signal = Signal {
                    calibration: fast5_calibration(&read),
                    read_id: read.read_id,
                    samples,
                };
                Ok((signal, fields))
            }
        }
    }
}

fn pod5_calibration(read: &svb_pod5::Read) -> Calibration {
    Calibration {
        offset: read.calibration_offset,
        scale: read.calibration_scale,
    }
}
