//! slow5lib's index (`FILE.blow5.idx`, shared with slow5tools and pyslow5): read id ->
//! where the record lies, so that a record is found without decoding the others.
//!
//! ```text
//! "SLOW5IDX\x01" | u8 major, minor, patch (the BLOW5 file's version) | zeros to byte 64
//! [u16 id length | id | u64 offset of the record's size field | u64 size incl. that field] x N
//! "XDI5WOLS"
//! ```

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::reader::Reader;
use crate::error::Blow5Error;

const MAGIC: &[u8; 9] = b"SLOW5IDX\x01";
const EOF: &[u8; 8] = b"XDI5WOLS";
const HEADER_LEN: usize = 64;

/// A BLOW5 file's index: each read id's record position (`offset` of its `u64` size field,
/// `size` including that field), as slow5lib writes and reads it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Index {
    /// The indexed file's version (written into the index header).
    pub version: (u8, u8, u8),
    /// Read id -> (offset, size), in file order.
    entries: Vec<(String, u64, u64)>,
    by_id: HashMap<String, usize>,
}

impl Index {
    /// The index path slow5lib uses for `blow5`: the same name with `.idx` appended.
    pub fn path_for(blow5: &Path) -> PathBuf {
        let mut p = blow5.as_os_str().to_owned();
        p.push(".idx");
        PathBuf::from(p)
    }

    /// Indexes `reader`'s file: every record's id (only the id parsed, on rayon's pool).
    pub fn build(reader: &Reader) -> Result<Index, Blow5Error> {
        let ids: Vec<String> = (0..reader.len())
            .into_par_iter()
            .map(|i| reader.read_id(i))
            .collect::<Result<_, _>>()?;
        let mut index = Index { version: reader.header().version, ..Index::default() };
        for (i, id) in ids.into_iter().enumerate() {
            let (offset, size) = reader.record_span(i).expect("index in range");
            index.push(id, offset, size);
        }
        Ok(index)
    }

    fn push(&mut self, id: String, offset: u64, size: u64) {
        self.by_id.entry(id.clone()).or_insert(self.entries.len());
        self.entries.push((id, offset, size));
    }

    /// Parses an index file's bytes; every read is bounds-checked (a damaged index is an
    /// error, never a panic).
    pub fn parse(bytes: &[u8]) -> Result<Index, String> {
        if bytes.len() < HEADER_LEN + EOF.len() || &bytes[..MAGIC.len()] != MAGIC {
            return Err("not a slow5 index (SLOW5IDX magic missing)".into());
        }
        if &bytes[bytes.len() - EOF.len()..] != EOF {
            return Err("the index's end marker XDI5WOLS is missing (truncated?)".into());
        }
        let mut index = Index { version: (bytes[9], bytes[10], bytes[11]), ..Index::default() };
        let body = &bytes[HEADER_LEN..bytes.len() - EOF.len()];
        let mut at = 0usize;
        while at < body.len() {
            let take = |at: usize, n: usize| {
                body.get(at..at + n)
                    .ok_or_else(|| format!("entry at byte {} runs past the end", HEADER_LEN + at))
            };
            let len = u16::from_le_bytes(take(at, 2)?.try_into().expect("2")) as usize;
            let id = std::str::from_utf8(take(at + 2, len)?)
                .map_err(|_| format!("read id at byte {} is not UTF-8", HEADER_LEN + at))?
                .to_string();
            let nums = take(at + 2 + len, 16)?;
            let offset = u64::from_le_bytes(nums[..8].try_into().expect("8"));
            let size = u64::from_le_bytes(nums[8..].try_into().expect("8"));
            index.push(id, offset, size);
            at += 2 + len + 16;
        }
        Ok(index)
    }

    /// Reads the index at `path` (a URL's object too, with svb-io's `remote` feature).
    pub fn read(path: &Path) -> Result<Index, Blow5Error> {
        let io = |source| Blow5Error::Io { path: path.to_path_buf(), source };
        let src = svb_io::Source::open(path, svb_io::Access::ReadWhole).map_err(io)?;
        // A file is in memory already; an object's kept ranges are copied out once.
        let copied;
        let bytes = match src.as_slice() {
            Some(all) => all,
            None => {
                copied = src.read_vec(0, src.len() as usize).map_err(io)?;
                &copied
            }
        };
        Index::parse(bytes).map_err(|what| Blow5Error::Header {
            path: path.to_path_buf(),
            what: format!("index: {what}"),
        })
    }

    /// The index file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend([self.version.0, self.version.1, self.version.2]);
        out.resize(HEADER_LEN, 0);
        for (id, offset, size) in &self.entries {
            out.extend((id.len() as u16).to_le_bytes());
            out.extend(id.as_bytes());
            out.extend(offset.to_le_bytes());
            out.extend(size.to_le_bytes());
        }
        out.extend(EOF);
        out
    }

    /// The first read id that two records hold: `(id, first record, second record)`. slow5lib
    /// cannot load an index that lists an id twice (slow5tools index refuses such a file), so
    /// none is written for it ([`Index::write`], `svb index`).
    pub fn duplicate(&self) -> Option<(&str, usize, usize)> {
        self.entries.iter().enumerate().find_map(|(i, (id, _, _))| {
            let first = self.by_id[id];
            (first != i).then_some((id.as_str(), first, i))
        })
    }

    /// Why this index cannot be written: a read id two records hold ([`Index::duplicate`]).
    pub fn unwritable(&self) -> Option<String> {
        self.duplicate().map(|(id, a, b)| {
            format!(
                "read id {id} is in records {a} and {b}: slow5lib's index holds one record per \
                 id, and slow5tools, pyslow5 and svb could not load one of this file"
            )
        })
    }

    /// Writes the index to `path` (under a temporary name, published when complete),
    /// replacing an index that is there: an index is derived data, rebuilt when it does not
    /// fit its file. An index of a file that holds a read id twice is refused
    /// ([`Index::unwritable`]).
    pub fn write(&self, path: &Path) -> std::io::Result<()> {
        if let Some(why) = self.unwritable() {
            return Err(std::io::Error::new(std::io::ErrorKind::InvalidData, why));
        }
        svb_io::write_file(path, &self.to_bytes(), svb_io::OnExisting::Replace)
    }

    /// The position of `read_id`'s record: `(offset of its size field, size with it)`.
    pub fn get(&self, read_id: &str) -> Option<(u64, u64)> {
        self.by_id.get(read_id).map(|&i| {
            let (_, o, s) = &self.entries[i];
            (*o, *s)
        })
    }

    /// Entry `i`'s `(read id, offset of its size field, size with it)`, in index order.
    pub fn entry(&self, i: usize) -> Option<(&str, u64, u64)> {
        self.entries.get(i).map(|(id, o, s)| (id.as_str(), *o, *s))
    }

    /// Every record's `(offset of its size field, size with it)`, in index order.
    pub fn positions(&self) -> impl ExactSizeIterator<Item = (u64, u64)> + '_ {
        self.entries.iter().map(|&(_, o, s)| (o, s))
    }

    /// The number of records indexed.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no record is indexed.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Whether the index's positions are `reader`'s records: the same number of records, each
    /// at the position the file's own size fields give. Its ids are not checked (that needs
    /// the records read): a lookup through it checks them ([`Reader::find_many`]).
    pub fn matches(&self, reader: &Reader) -> bool {
        self.entries.len() == reader.len()
            && self
                .entries
                .iter()
                .enumerate()
                .all(|(i, (_, o, s))| reader.record_span(i) == Some((*o, *s)))
    }

    /// Where this index (one that came with a file) and `records` (the index read from the
    /// file's records) first differ, in words; `None` when they say the same.
    pub fn difference(&self, records: &Index) -> Option<String> {
        let entry = |(i, (id, o, s)): (usize, &(String, u64, u64))| {
            format!("entry {i} is read {id}, {s} bytes at byte {o}")
        };
        let first =
            self.entries.iter().zip(&records.entries).enumerate().find(|(_, (a, b))| a != b);
        match first {
            Some((i, (given, found))) => Some(format!(
                "{}, where the file's record {i} is read {}, {} bytes at byte {}",
                entry((i, given)),
                found.0,
                found.2,
                found.1
            )),
            None if self.entries.len() != records.entries.len() => Some(format!(
                "it lists {} records, the file holds {}",
                self.entries.len(),
                records.entries.len()
            )),
            None => None,
        }
    }
}

/// A BLOW5 file opened to find reads by id (see [`open_with_index`]).
#[derive(Debug)]
pub struct Indexed {
    /// The reader, its lookups by id through the index ([`Reader::find_many`]).
    pub reader: Reader,
    /// What went less well than it could: an index file that did not fit the file (rebuilt,
    /// or set aside), or one that could not be written beside it (rebuilt next time).
    pub note: Option<String>,
}

/// Opens `path` with its slow5lib index (`FILE.idx`): when the index is there and its
/// positions fit the file, the reader takes the record positions from it
/// ([`Reader::open_indexed`]) and reads no record up front, and finds ids through it, each
/// checked against the record it leads to ([`Reader::use_index`]); otherwise the file is
/// opened in full, indexed (every record's id) and the index written beside it for next
/// time, as slow5lib does. [`find_reads`] also replaces an index whose ids do not fit.
pub fn open_with_index(path: &Path) -> Result<Indexed, Blow5Error> {
    let idx = Index::path_for(path);
    let mut note = None;
    if let Ok(index) = Index::read(&idx) {
        match Reader::open_indexed(path, &index) {
            Ok(mut reader) => {
                reader.use_index(index);
                return Ok(Indexed { reader, note: None });
            }
            Err(e) => note = Some(format!("{e}; the index was rebuilt")),
        }
    }
    let (reader, unwritten) = open_and_index(path)?;
    Ok(Indexed { reader, note: unwritten.or(note) })
}

/// Opens `path` in full, reads every record's id and writes the index beside it (a file's:
/// a stream or an object has nothing it could be kept beside); the note says where it could
/// not be written.
fn open_and_index(path: &Path) -> Result<(Reader, Option<String>), Blow5Error> {
    let mut reader = Reader::open(path)?;
    let index = Index::build(&reader)?;
    let note = write_beside(path, &index)
        .and_then(|(idx, written)| written.err().map(|e| (idx, e)))
        .map(|(idx, e)| format!("{}: index not written: {e}", idx.display()));
    reader.use_own_index(index);
    Ok((reader, note))
}

/// Writes `index` beside `path` (`FILE.idx`), where an index can be kept beside it (a file:
/// a stream or an object has nothing it could be kept beside; an object's is written by
/// `svb index` alone): where it went and whether it was written, `None` where it cannot be.
fn write_beside(path: &Path, index: &Index) -> Option<(PathBuf, std::io::Result<()>)> {
    let regular = !svb_io::is_url(path) && std::fs::metadata(path).is_ok_and(|m| m.is_file());
    let idx = Index::path_for(path);
    regular.then(|| {
        let written = index.write(&idx);
        (idx, written)
    })
}

/// [`open_with_index`] with the index kept at `idx` (slow5tools' `--index`), whose positions
/// must fit the file (an error otherwise): an index given by its path is never rebuilt or
/// replaced. Its ids are checked as [`open_with_index`]'s are.
pub fn open_with_index_at(path: &Path, idx: &Path) -> Result<Indexed, Blow5Error> {
    let index = Index::read(idx)?;
    let mut reader = Reader::open_indexed(path, &index)?;
    reader.use_index(index);
    Ok(Indexed { reader, note: None })
}

/// Opens `path` to find reads `read_ids` through its slow5lib index (`idx`, else `FILE.idx`
/// beside it), and finds them: each id's record, `None` where the file holds no such read,
/// as the records say whatever the index says ([`Reader::find_many`]). An index beside the
/// file that does not fit it (stale, or another file's) is rewritten from the records; one
/// named by `idx` is left as it is and the records' ids are used; the note says which.
pub fn find_reads(
    path: &Path, read_ids: &[String], idx: Option<&Path>,
) -> Result<(Indexed, Vec<Option<usize>>), Blow5Error> {
    let mut opened = match idx {
        Some(idx) => open_with_index_at(path, idx)?,
        None => open_with_index(path)?,
    };
    let found = match opened.reader.find_many(read_ids) {
        Err(Blow5Error::IndexMisfit { what, .. }) if idx.is_none() => {
            // Its positions fitted the file's length but not its records: the file is read
            // in full and indexed anew.
            let (reader, unwritten) = open_and_index(path)?;
            opened.reader = reader;
            opened.note = unwritten.or(Some(format!(
                "{}: does not fit {} ({what}): rewritten from its records",
                Index::path_for(path).display(),
                path.display()
            )));
            opened.reader.find_many(read_ids)?
        }
        other => other?,
    };
    if let Some(why) = opened.reader.index_note() {
        opened.note = Some(match idx {
            None => match write_beside(path, &*opened.reader.index_in_use()?) {
                Some((beside, Err(e))) => {
                    format!("{why}; {}: not rewritten: {e}", beside.display())
                }
                Some((beside, Ok(()))) => format!("{why}; {} rewritten", beside.display()),
                None => why,
            },
            Some(idx) => format!("{why}; {} is left as it is", idx.display()),
        });
    }
    Ok((opened, found))
}
