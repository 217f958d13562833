//! [`ReadSink`]: the writer every format crate implements.

use crate::Format;

/// An output file of reads being written, whatever its format: what the operations need of
/// a format's writer, so that their windows of reads are written by one loop for every
/// format. A writer of ONT's reads takes the model's read ([`OntRead`](crate::ont::OntRead)):
/// `svb_pod5::Writer` (each read's run added to the file the first time a read names it) and
/// `svb_blow5::ont::OntWriter` (blue-crab's mapping; its read groups, one a run, made when it
/// is created, as a BLOW5 header lists them before any record). A format's own writer takes
/// its own reads where an operation copies that format exactly: `svb_blow5::Writer`
/// (`svb_blow5::Record`s, every field as the input holds it) and `svb_fast5::Writer`
/// (`svb_fast5::NewRead`, a read's groups, as the reference converters to FAST5 write them).
///
/// A read is made on any thread (`Send`). Nothing is under the output's name before [`finish`](ReadSink::finish); a writer
/// dropped unfinished leaves nothing. The format's own writer keeps what only that format
/// has (POD5's and BLOW5's stored chunks and records copied unchanged).
///
/// ```
/// use svb_model::ReadSink;
///
/// /// Writes `reads` into `out` in windows of 64 and completes it.
/// fn write_all<W: ReadSink>(mut out: W, reads: Vec<W::Read>) -> Result<u64, W::Error> {
///     let mut reads = reads.into_iter().peekable();
///     while reads.peek().is_some() {
///         out.add_reads(reads.by_ref().take(64).collect())?;
///     }
///     out.finish()
/// }
/// ```
pub trait ReadSink {
    /// The format's error (it names the output and the read).
    type Error: std::error::Error + Send + Sync + 'static;

    /// A read as the format writes it.
    type Read: Send;

    /// The output's format (BLOW5 or SLOW5 text by the writer's form).
    fn format(&self) -> Format;

    /// How many reads were added.
    fn len(&self) -> u64;

    /// Whether no read was added.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The raw samples `read` holds (what an operation counts).
    fn samples(read: &Self::Read) -> u64;

    /// Whether [`add_reads`](ReadSink::add_reads) would refuse `read` for what it holds (a
    /// value the format cannot store), its error if so: what an operation that goes on past
    /// bad reads asks first, to leave such a read out and name it.
    fn check(&self, read: &Self::Read) -> Result<(), Self::Error> {
        let _ = read;
        Ok(())
    }

    /// Adds `reads` in order, each checked first: a bad read is an error naming it. The reads
    /// are the writer's to keep (a writer that maps them moves their samples).
    fn add_reads(&mut self, reads: Vec<Self::Read>) -> Result<(), Self::Error>;

    /// Writes what is buffered and gives the output its name; returns how many reads it
    /// holds.
    fn finish(self) -> Result<u64, Self::Error>
    where
        Self: Sized;
}
