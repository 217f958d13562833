//! Opening a FAST5 file: the HDF5 layer set up (its filters, its block cache) and the reads
//! listed in either layout.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use hdf5_reader::error::Error as Hdf5Error;
use hdf5_reader::{FilterRegistry, Hdf5File, OpenOptions};

use super::*;
use crate::attrs::AttrValue;
use crate::storage::FileStorage;
use crate::vbz_chunks::{MAX_CHUNK_BYTES, VBZ_FILTER_ID};
use crate::Fast5Error;

/// The filters FAST5 signal uses: the HDF5 built-ins (gzip) and VBZ.
fn filters() -> FilterRegistry {
    let mut registry = FilterRegistry::new();
    registry.register(
        VBZ_FILTER_ID,
        Box::new(|filter, data, _element_size| {
            let options = svb_vbz::hdf5_filter::Options::from_cd_values(&filter.client_data)
                .map_err(|e| Hdf5Error::FilterError(format!("VBZ: {e}")))?;
            let len = svb_vbz::hdf5_filter::decompressed_size(data)
                .map_err(|e| Hdf5Error::FilterError(format!("VBZ: {e}")))?;
            if len > MAX_CHUNK_BYTES {
                return Err(Hdf5Error::FilterError(format!(
                    "VBZ: a chunk of {len} bytes (at most {MAX_CHUNK_BYTES})"
                )));
            }
            svb_vbz::hdf5_filter::decompress_sized(data, &options)
                .map_err(|e| Hdf5Error::FilterError(format!("VBZ: {e}")))
        }),
    );
    registry
}

/// How the HDF5 layer opens a FAST5 file: its filters, the chunk cap, no chunk cache.
fn options() -> OpenOptions {
    OpenOptions::default()
        .with_filter_registry(filters())
        .with_max_chunk_bytes(MAX_CHUNK_BYTES)
        .with_chunk_cache_bytes(0)
}

impl Reader {
    /// Opens `path` and lists its reads. The file is read where it is asked for (positioned
    /// reads, the metadata through 16 KiB blocks of a 4 MiB cache every open FAST5 file
    /// shares: memory holds what is being decoded, not the file), and each chunk is decoded
    /// once, so no decoded chunk is cached.
    pub fn open(path: impl AsRef<Path>) -> Result<Self, Fast5Error> {
        let path = path.as_ref().to_path_buf();
        let storage = match FileStorage::open(&path) {
            Ok(s) => s,
            Err(source) => return Err(Fast5Error::Io { path, source }),
        };
        let file = Hdf5File::from_storage_with_options(Arc::new(storage), options());
        Self::from_file(path, file)
    }

    /// A reader over a FAST5 file already in memory (`path` names it in errors).
    pub fn from_bytes(path: impl Into<PathBuf>, bytes: Vec<u8>) -> Result<Self, Fast5Error> {
        let file = Hdf5File::from_vec_with_options(bytes, options());
        Self::from_file(path.into(), file)
    }

    fn from_file(path: PathBuf, file: Result<Hdf5File, Hdf5Error>) -> Result<Self, Fast5Error> {
        let file = file.map_err(|source| Fast5Error::Hdf5 {
            path: path.clone(),
            what: "not a readable HDF5 file".into(),
            source,
        })?;
        let mut reader = Reader {
            path,
            file,
            layout: Layout::MultiRead,
            reads: Vec::new(),
            by_id: HashMap::new(),
            groups: Mutex::new(HashMap::new()),
        };
        reader.list_reads()?;
        Ok(reader)
    }

    fn list_reads(&mut self) -> Result<(), Fast5Error> {
        let root = self.file.root_group().map_err(self.hdf5("/"))?;
        // The groups themselves, not their names: each read's is then at hand, where a lookup
        // by name from a root of thousands of members walks its B-tree again.
        let groups = root.groups().map_err(self.hdf5("/"))?;
        let mut reads: Vec<Entry> = groups
            .iter()
            .filter_map(|g| g.name().strip_prefix("read_").map(|id| (g, id)))
            .map(|(g, id)| Entry {
                read_id: id.to_string(),
                group: format!("/{}", g.name()),
                raw: format!("/{}/Raw", g.name()),
                shared: format!("/{}", g.name()),
                handle: Some(g.clone()),
            })
            .collect();
        if reads.is_empty() && groups.iter().any(|g| g.name() == "Raw") {
            self.layout = Layout::SingleRead;
            let raw = self.file.group("/Raw/Reads").map_err(self.hdf5("/Raw/Reads"))?;
            let (names, _) = raw.member_names().map_err(self.hdf5("/Raw/Reads"))?;
            for name in names {
                let raw = format!("/Raw/Reads/{name}");
                let attrs = self.attrs_at(&raw)?;
                let read_id = match find(&attrs, "read_id") {
                    Some(AttrValue::Text(id)) => id.clone(),
                    _ => {
                        return Err(Fast5Error::Field {
                            path: self.path.clone(),
                            read: raw.clone(),
                            field: format!("{raw}/read_id"),
                            what: "missing, or not a string".into(),
                        })
                    }
                };
                reads.push(Entry {
                    read_id,
                    group: "/".into(),
                    raw,
                    shared: "/UniqueGlobalKey".into(),
                    handle: None,
                });
            }
        }
        // A multi-read file of no reads says what it is (its root's file_type); any other
        // HDF5 file without reads is not FAST5.
        let empty_multi_read = || {
            self.attrs_at("/").is_ok_and(
                |a| matches!(find(&a, "file_type"), Some(AttrValue::Text(t)) if t == "multi-read"),
            )
        };
        if reads.is_empty() && !empty_multi_read() {
            return Err(Fast5Error::NotFast5 {
                path: self.path.clone(),
                what: "no reads: neither /read_* groups nor /Raw/Reads".into(),
            });
        }
        for (i, e) in reads.iter().enumerate() {
            if self.by_id.insert(e.read_id.clone(), i).is_some() {
                return Err(Fast5Error::Field {
                    path: self.path.clone(),
                    read: e.read_id.clone(),
                    field: e.raw.clone(),
                    what: "a read id that an earlier read of the file has".into(),
                });
            }
        }
        self.reads = reads;
        Ok(())
    }
}
