//! [`ReadSource`]: the reader every format crate implements.

use std::path::Path;

use crate::{Calibration, Fields, Format, Read, Signal};

/// An open file of reads, whatever its format: what the read layer, the operations and the
/// front ends need of a format's reader, so that each of them is written once. Implemented by
/// `svb_pod5::Reader`, `svb_blow5::Reader` (BLOW5 and SLOW5 text) and `svb_fast5::Reader`.
///
/// Reads are numbered `0..len()` in file order; an index past the last read is the format's
/// error naming it. The format's own reader keeps what only that format has (POD5's run
/// infos, BLOW5's header and stored records, FAST5's layout).
///
/// ```
/// use svb_model::ReadSource;
///
/// /// Every read's mean in picoamps, for a file of any format.
/// fn means<R: ReadSource>(file: &R) -> Result<Vec<f32>, R::Error> {
///     let mut samples = Vec::new();
///     (0..file.len())
///         .map(|i| {
///             let c = file.signal_into(i, &mut samples)?;
///             let sum: f32 = samples.iter().map(|&x| c.to_pa(x)).sum();
///             Ok(sum / samples.len().max(1) as f32)
///         })
///         .collect()
/// }
/// ```
pub trait ReadSource {
    /// The format's error (it names the file and the read).
    type Error: std::error::Error + Send + Sync + 'static;

    /// The file's format (BLOW5 or SLOW5 text by the file's form).
    fn format(&self) -> Format;

    /// The file's path.
    fn path(&self) -> &Path;

    /// How many reads the file holds.
    fn len(&self) -> usize;

    /// Whether the file holds no read.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// What read `index` weighs before it is decoded, to cut windows of reads of bounded
    /// memory: its sample count where the file stores one (POD5, a FAST5 dataset's declared
    /// count), else its stored bytes (BLOW5, about 1-2 bytes a sample). 0 past the end.
    fn weight(&self, index: usize) -> u64;

    /// Says that every read will be read, in order (a verify, a conversion, a decode): a
    /// reader of an object fetches ahead from the first read rather than once its reads are
    /// seen to follow one another. Nothing for a local file (the default).
    fn expect_scan(&self) {}

    /// Says that reads `indices` will be read next (a `get` of many ids): an object's reader
    /// fetches their bytes together, one round trip for all of them (as much as its cache
    /// holds) rather than one a read. Nothing for a local file (the default); an index past
    /// the end is left to the read that asks for it.
    fn plan(&self, indices: &[usize]) {
        let _ = indices;
    }

    /// Read `index`'s id.
    fn read_id(&self, index: usize) -> Result<String, Self::Error>;

    /// The index of read `read_id`, `None` when the file does not hold it (a BLOW5 file's ids
    /// are indexed on the first call).
    fn find(&self, read_id: &str) -> Result<Option<usize>, Self::Error>;

    /// [`find`](ReadSource::find) of each of `read_ids`, in their order: a reader that
    /// checks what an index says of a read does it for all of them together (an object's
    /// records fetched in one round trip).
    fn find_many(&self, read_ids: &[String]) -> Result<Vec<Option<usize>>, Self::Error> {
        read_ids.iter().map(|id| self.find(id)).collect()
    }

    /// Read `index`'s raw samples into `samples` (replacing what it held; its capacity is
    /// reused) and their calibration. On an error `samples`' contents are unspecified.
    fn signal_into(&self, index: usize, samples: &mut Vec<i16>)
        -> Result<Calibration, Self::Error>;

    /// Read `index`'s fields, in the order of [`fields_of`](crate::fields_of) the format (a
    /// BLOW5 record's auxiliary fields after its primary ones); a value the file does not
    /// hold is [`Value::None`](crate::Value::None).
    fn fields(&self, index: usize) -> Result<Fields, Self::Error>;

    /// Read `index`'s id, samples and calibration, without its other fields.
    fn signal(&self, index: usize) -> Result<Signal, Self::Error> {
        let mut samples = Vec::new();
        let calibration = self.signal_into(index, &mut samples)?;
        Ok(Signal { read_id: self.read_id(index)?, samples, calibration })
    }

    /// Read `index`, decoded: id, signal, calibration and every field.
    fn read(&self, index: usize) -> Result<Read, Self::Error> {
        let Signal { read_id, samples, calibration } = self.signal(index)?;
        Ok(Read { read_id, signal: samples, calibration, fields: self.fields(index)? })
    }
}
