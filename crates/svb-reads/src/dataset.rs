//! [`Dataset`]: the reads of many files of one format (directories of them) as one
//! collection: counted, walked file by file, and looked up by read id through an index kept
//! on disk ([`crate::id_index`]), with a bounded number of files open.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use rayon::prelude::*;

use crate::id_index::{id_hash, Builder, IdIndex, KeyKind, Loaded, Stamp};
use svb_model::{Format, Read, ReadSource};

use crate::{expand_inputs, AnyReader, ByFormat, ReadsError};

/// How a [`Dataset`] is opened.
#[derive(Clone, Debug)]
pub struct DatasetOptions {
    /// Look in directories' subdirectories too.
    pub recursive: bool,
    /// Where the read id index is kept: used as it is when it fits the files, else (re)built
    /// there (a file there that is not an svb dataset index is an error, never replaced).
    /// `None`: an index in the temporary directory, removed when the dataset is dropped.
    pub index: Option<PathBuf>,
    /// Files kept open at once (at least 1).
    pub max_open: usize,
}

impl Default for DatasetOptions {
    fn default() -> Self {
        DatasetOptions { recursive: true, index: None, max_open: 16 }
    }
}

/// Many files of one format as one set of reads.
///
/// A lookup by read id ([`locate`](Dataset::locate), [`read`](Dataset::read)) builds the
/// index on first use (every file's ids read once, in parallel, a few files at a time) or
/// loads the one kept at [`DatasetOptions::index`]; after that a lookup reads 4 KiB of the
/// index and opens (or finds open) the one file that holds the read. Memory: the files
/// open (at most [`DatasetOptions::max_open`]) and 8 bytes for every 256 reads.
///
/// ```no_run
/// use svb_reads::{Dataset, DatasetOptions};
/// let options = DatasetOptions { index: Some("runs.svbidx".into()), ..Default::default() };
/// let data = Dataset::open(&["runs/".into()], &options)?;
/// println!("{} files, {} reads", data.files().len(), data.len()?);
/// if let Some(read) = data.read("0d624d4b-671f-40b8-9798-84f2ccc4d7fc")? {
///     println!("{} samples", read.signal.len());
/// }
/// # Ok::<(), svb_reads::ReadsError>(())
/// ```
pub struct Dataset {
    format: Format,
    files: Vec<PathBuf>,
    options: DatasetOptions,
    /// Open files, the most recently used last.
    open: Mutex<Vec<(usize, Arc<AnyReader>)>>,
    counts: OnceLock<Vec<u64>>,
    index: OnceLock<IdIndex>,
    /// Held while the index is built or loaded, so that it is made once.
    making: Mutex<Option<String>>,
}

/// A read id found more than once in a dataset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Duplicate {
    /// The id.
    pub read_id: String,
    /// Every (file, read) that holds it, in file order.
    pub places: Vec<(usize, usize)>,
}

impl Dataset {
    /// The files of `inputs` (files, and directories' files of the formats svb reads, as
    /// [`expand_inputs`] finds them), which must be of one format. No file is read yet
    /// beyond its first bytes.
    pub fn open(inputs: &[PathBuf], options: &DatasetOptions) -> Result<Dataset, ReadsError> {
        let (format, files) = expand_inputs(inputs, options.recursive)?;
        if let Some(index) = &options.index {
            let inputs = svb_io::Inputs::new(&files)
                .map_err(|source| ReadsError::Io { path: files[0].clone(), source })?;
            inputs
                .check_output(index)
                .map_err(|source| ReadsError::Io { path: index.clone(), source })?;
        }
        Ok(Dataset {
            format,
            files,
            options: DatasetOptions { max_open: options.max_open.max(1), ..options.clone() },
            open: Mutex::new(Vec::new()),
            counts: OnceLock::new(),
            index: OnceLock::new(),
            making: Mutex::new(None),
        })
    }

    /// The files' format.
    pub fn format(&self) -> Format {
        self.format
    }

    /// The files, in the order their reads are walked.
    pub fn files(&self) -> &[PathBuf] {
        &self.files
    }

    /// Each file's read count (from the index when it is made, else each file opened once).
    pub fn counts(&self) -> Result<&[u64], ReadsError> {
        if let Some(c) = self.counts.get() {
            return Ok(c);
        }
        let counts = match self.index.get() {
            Some(index) => index.reads().to_vec(),
            None => self
                .files
                .par_iter()
                .enumerate()
                .map(|(i, _)| self.file(i).map(|f| f.len() as u64))
                .collect::<Result<_, _>>()?,
        };
        Ok(self.counts.get_or_init(|| counts))
    }

    /// How many reads the files hold.
    pub fn len(&self) -> Result<u64, ReadsError> {
        Ok(self.counts()?.iter().sum())
    }

    /// Whether the files hold no read.
    pub fn is_empty(&self) -> Result<bool, ReadsError> {
        Ok(self.len()? == 0)
    }

    /// File `i`, open (kept among the [`DatasetOptions::max_open`] most recently used).
    pub fn file(&self, i: usize) -> Result<Arc<AnyReader>, ReadsError> {
        let path = self.files.get(i).ok_or_else(|| ReadsError::Io {
            path: PathBuf::from(format!("file {i}")),
            source: std::io::Error::new(
                std::io::ErrorKind::NotFound,
                format!("a dataset of {} files", self.files.len()),
            ),
        })?;
        {
            let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(at) = open.iter().position(|(f, _)| *f == i) {
                let entry = open.remove(at);
                let file = entry.1.clone();
                open.push(entry);
                return Ok(file);
            }
        }
        let file = Arc::new(AnyReader::open_as(path, self.format)?);
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        if !open.iter().any(|(f, _)| *f == i) {
            open.push((i, file.clone()));
            while open.len() > self.options.max_open {
                open.remove(0);
            }
        }
        Ok(file)
    }

    fn key_kind(&self) -> KeyKind {
        match self.format {
            Format::Pod5 => KeyKind::Uuid,
            Format::Blow5 | Format::Slow5 | Format::Fast5 => KeyKind::Text,
        }
    }

    /// The read id index: loaded from [`DatasetOptions::index`] when that fits the files as
    /// they are, else built (there, or in the temporary directory).
    fn index(&self) -> Result<&IdIndex, ReadsError> {
        if let Some(i) = self.index.get() {
            return Ok(i);
        }
        let mut note = self.making.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(i) = self.index.get() {
            return Ok(i);
        }
        let kind = self.key_kind();
        let stamps = self.files.iter().map(|p| Stamp::of(p)).collect::<Result<Vec<_>, _>>()?;
        let made = match &self.options.index {
            Some(at) => {
                let kept = match at.exists() {
                    true => match IdIndex::load(at, kind, &stamps)? {
                        Loaded::Fits(index) => Some(index),
                        Loaded::Stale(why) => {
                            *note = Some(format!("{}: rebuilt ({why})", at.display()));
                            None
                        }
                    },
                    false => None,
                };
                match kept {
                    Some(index) => index,
                    None => self.build(at, kind, stamps, false)?,
                }
            }
            None => self.build(&temporary_path(), kind, stamps, true)?,
        };
        Ok(self.index.get_or_init(|| made))
    }

    /// Builds (or loads) the read id index now rather than at the first lookup.
    pub fn make_index(&self) -> Result<(), ReadsError> {
        self.index().map(|_| ())
    }

    /// Where the index is kept (`None` before it is made; a temporary one's path is gone).
    pub fn index_path(&self) -> Option<&Path> {
        self.index.get().map(IdIndex::path)
    }

    /// What happened to a kept index that did not fit the files (rebuilt, and why).
    pub fn index_note(&self) -> Option<String> {
        self.making.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    fn build(
        &self, dest: &Path, kind: KeyKind, stamps: Vec<Stamp>, temporary: bool,
    ) -> Result<IdIndex, ReadsError> {
        let mut builder = Builder::new(dest, kind, stamps, temporary);
        let group = rayon::current_num_threads().max(1) * 2;
        for chunk in self.files.chunks(group) {
            let hashes: Vec<Result<Vec<u64>, ReadsError>> = chunk
                .par_iter()
                .map(|path| {
                    let file = AnyReader::open_as(path, self.format)?;
                    key_hashes(&file)
                })
                .collect();
            for h in hashes {
                builder.add_file(&h?)?;
            }
        }
        builder.finish()
    }

    /// Where read `read_id` is: (file, read in the file); `None` when no file holds it. With
    /// the id in several files, the first file's ([`Dataset::locate_all`] gives every one).
    pub fn locate(&self, read_id: &str) -> Result<Option<(usize, usize)>, ReadsError> {
        Ok(self.locate_all(read_id)?.into_iter().next())
    }

    /// Every place that holds read `read_id`: (file, read in the file), in file order; empty
    /// when no file holds it.
    pub fn locate_all(&self, read_id: &str) -> Result<Vec<(usize, usize)>, ReadsError> {
        let uuid;
        let key: &[u8] = match self.key_kind() {
            KeyKind::Uuid => match svb_pod5::parse_uuid(read_id) {
                Some(u) => {
                    uuid = u;
                    &uuid
                }
                None => return Ok(Vec::new()),
            },
            KeyKind::Text => read_id.as_bytes(),
        };
        let mut places = Vec::new();
        for (file, read) in self.index()?.candidates(id_hash(key))? {
            let (file, read) = (file as usize, read as usize);
            if self.key_at(file, read)? == key {
                places.push((file, read));
            }
        }
        Ok(places)
    }

    /// The key of read `read` of file `file` (its UUID's bytes or its id's).
    fn key_at(&self, file: usize, read: usize) -> Result<Vec<u8>, ReadsError> {
        let f = self.file(file)?;
        Ok(match f.by_format() {
            ByFormat::Pod5(r) => r.read(read)?.info.read_id.to_vec(),
            ByFormat::Blow5(_) | ByFormat::Fast5(_) => f.read_id(read)?.into_bytes(),
        })
    }

    /// The path of the file that holds `read_id` (the first, when several do).
    pub fn path_of(&self, read_id: &str) -> Result<Option<&Path>, ReadsError> {
        Ok(self.locate(read_id)?.map(|(file, _)| self.files[file].as_path()))
    }

    /// Read `read_id`, decoded (`None` when no file holds it).
    pub fn read(&self, read_id: &str) -> Result<Option<Read>, ReadsError> {
        match self.locate(read_id)? {
            Some((file, read)) => Ok(Some(self.file(file)?.read(read)?)),
            None => Ok(None),
        }
    }

    /// The reads `read_ids`, in that order (`None` for an id no file holds), looked up and
    /// decoded in parallel on the current rayon pool, with at most
    /// [`DatasetOptions::max_open`] files open at a time.
    pub fn reads<S: AsRef<str> + Sync>(
        &self, read_ids: &[S],
    ) -> Result<Vec<Option<Read>>, ReadsError> {
        let places: Vec<Option<(usize, usize)>> =
            read_ids.par_iter().map(|id| self.locate(id.as_ref())).collect::<Result<_, _>>()?;
        let mut order: Vec<(usize, usize, usize)> = places
            .iter()
            .enumerate()
            .filter_map(|(at, p)| p.map(|(file, read)| (file, read, at)))
            .collect();
        order.sort_unstable();
        let mut out: Vec<Option<Read>> = read_ids.iter().map(|_| None).collect();
        let mut rest = &order[..];
        while !rest.is_empty() {
            // The places of the next max_open files.
            let mut files = Vec::new();
            let mut end = 0;
            while end < rest.len() {
                let file = rest[end].0;
                if files.last().is_none_or(|(f, _)| *f != file) {
                    if files.len() == self.options.max_open {
                        break;
                    }
                    files.push((file, self.file(file)?));
                }
                end += 1;
            }
            let (batch, later) = rest.split_at(end);
            let decoded: Vec<Read> = batch
                .par_iter()
                .with_max_len(1)
                .map(|&(file, read, _)| {
                    let at = files.partition_point(|(f, _)| *f < file);
                    files[at].1.read(read)
                })
                .collect::<Result<_, _>>()?;
            for (&(_, _, at), read) in batch.iter().zip(decoded) {
                out[at] = Some(read);
            }
            rest = later;
        }
        Ok(out)
    }

    /// The read ids found in more than one place (ids of two reads that share a hash are
    /// compared, so only true duplicates are listed).
    pub fn duplicates(&self) -> Result<Vec<Duplicate>, ReadsError> {
        let index = self.index()?;
        let mut out = Vec::new();
        let same = index.same_hash();
        let mut at = 0;
        while at < same.len() {
            // A run of entries that share one hash: same[at] - 1 ..= the run's last.
            let first = same[at] - 1;
            let mut last = same[at];
            at += 1;
            while at < same.len() && same[at] == last + 1 {
                last = same[at];
                at += 1;
            }
            let mut keyed: Vec<(Vec<u8>, (usize, usize))> = Vec::new();
            for i in first..=last {
                let (file, read) = index.entry(i)?;
                let (file, read) = (file as usize, read as usize);
                keyed.push((self.key_at(file, read)?, (file, read)));
            }
            keyed.sort();
            for group in keyed.chunk_by(|a, b| a.0 == b.0) {
                if group.len() > 1 {
                    let (file, read) = group[0].1;
                    out.push(Duplicate {
                        read_id: self.file(file)?.read_id(read)?,
                        places: group.iter().map(|g| g.1).collect(),
                    });
                }
            }
        }
        Ok(out)
    }
}

/// The key hashes of every read of `file`, in file order.
fn key_hashes(file: &AnyReader) -> Result<Vec<u64>, ReadsError> {
    match file.by_format() {
        ByFormat::Pod5(r) => Ok(r.reads().iter().map(|x| id_hash(&x.info.read_id)).collect()),
        ByFormat::Blow5(_) | ByFormat::Fast5(_) => (0..file.len())
            .into_par_iter()
            .map(|i| file.read_id(i).map(|id| id_hash(id.as_bytes())))
            .collect(),
    }
}

/// A fresh path in the temporary directory for an index made for one dataset.
fn temporary_path() -> PathBuf {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let nonce = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    std::env::temp_dir().join(format!(
        "svb-dataset-{}-{}-{nonce}.svbidx",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ))
}
