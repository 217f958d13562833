//! A VBZ signal dataset's chunks decoded straight into the read's samples.
//!
//! Through the HDF5 layer's filter interface, a chunk's samples are decoded into a byte
//! buffer the filter must return (zeroed first), checked, and copied into the read's
//! samples: three passes over every sample besides the decode (2.5 GB of memory traffic for
//! a 310-Msample file). For the layout every FAST5 writer uses (a chunked dataset indexed by
//! a version 1 B-tree, VBZ its only filter), the chunk index is walked here and each chunk's
//! stored bytes decoded by `svb_vbz::hdf5_filter` into the samples directly; chunks stored one
//! after another (as writers store a read's) are read a run of up to 1 MiB at a time. Any
//! other layout or filter pipeline goes through the HDF5 layer as before.

use hdf5_reader::btree_v1::{collect_btree_v1_leaves_storage, BTreeV1Key};
use hdf5_reader::error::Error as Hdf5Error;
use hdf5_reader::messages::layout::DataLayout;
use hdf5_reader::messages::HdfMessage;
use hdf5_reader::storage::StorageBuffer;
use hdf5_reader::{Dataset, Hdf5File};

/// HDF5 filter id of ONT's VBZ compression.
pub const VBZ_FILTER_ID: u16 = 32020;

/// The largest chunk the HDF5 layer decodes (a FAST5 writer's chunks hold one read's signal,
/// at most a few MiB).
pub(crate) const MAX_CHUNK_BYTES: usize = 64 << 20;

/// Why a dataset's chunks could not be decoded here.
pub(crate) enum ChunkError {
    /// Not the layout this path reads: the HDF5 layer reads it.
    NotHere,
    /// The HDF5 structure (the header, the chunk index, a chunk's bytes) could not be read.
    Hdf5(Hdf5Error),
    /// A chunk is not where the samples need it, or is not a valid VBZ stream.
    Signal(String),
}

/// Appends the `n` samples of the little-endian int16 dataset `ds` of `file` to `out`.
pub(crate) fn decode(
    file: &Hdf5File, ds: &Dataset, n: usize, out: &mut Vec<i16>,
) -> Result<(), ChunkError> {
    let header = file.get_or_parse_header(ds.address()).map_err(ChunkError::Hdf5)?;
    let mut layout = None;
    let mut filters = None;
    for m in &header.messages {
        match m {
            HdfMessage::DataLayout(l) => layout = Some(&l.layout),
            HdfMessage::FilterPipeline(p) => filters = Some(&p.filters),
            _ => {}
        }
    }
    let sb = file.superblock();
    let (address, dims) = match layout {
        Some(DataLayout::Chunked { address, dims, chunk_indexing: None, .. })
            if !dims.is_empty() && dims[0] > 0 =>
        {
            (*address, dims)
        }
        _ => return Err(ChunkError::NotHere),
    };
    let options = match filters.map(Vec::as_slice) {
        Some([only]) if only.id == VBZ_FILTER_ID => {
            svb_vbz::hdf5_filter::Options::from_cd_values(&only.client_data)
                .map_err(|e| ChunkError::Signal(format!("VBZ filter options: {e}")))?
        }
        _ => return Err(ChunkError::NotHere),
    };
    if hdf5_reader::io::Cursor::is_undefined_offset(address, sb.offset_size) {
        // No chunk written: the HDF5 layer gives the fill value, or its error.
        return Err(ChunkError::NotHere);
    }
    let chunk_samples = dims[0] as usize;
    if chunk_samples * 2 > MAX_CHUNK_BYTES {
        return Err(ChunkError::Signal(format!(
            "chunks of {chunk_samples} samples (at most {})",
            MAX_CHUNK_BYTES / 2
        )));
    }
    let storage = file.storage();
    let leaves = collect_btree_v1_leaves_storage(
        storage,
        address,
        sb.offset_size,
        sb.length_size,
        Some(1),
        dims,
        None,
    )
    .map_err(ChunkError::Hdf5)?;
    // Room for the samples the chunk index holds (each of its chunks is `chunk_samples`
    // long), at most the declared count and the padding of its last chunk (which is decoded
    // whole, then cut): no growth, so no copy of the read, while the chunks are decoded.
    let room =
        n.next_multiple_of(chunk_samples.max(1)).min(leaves.len().saturating_mul(chunk_samples));
    if out.is_empty() && out.capacity() < room {
        // A fresh buffer: growing the old one would copy all of its capacity.
        *out = Vec::with_capacity(room);
    }
    out.reserve(room);
    let start = out.len();
    // The chunks the samples need (those wholly past the dataset's extent, kept after a
    // shrink, are not samples), read a run of adjacent ones at a time.
    let needed = &leaves[..leaves.len().min(n.div_ceil(chunk_samples.max(1)))];
    let mut run: Option<(u64, StorageBuffer)> = None;
    for (k, (key, at)) in needed.iter().enumerate() {
        let BTreeV1Key::RawData { chunk_size, filter_mask, offsets } = key else {
            return Err(ChunkError::Hdf5(Hdf5Error::InvalidData(
                "a chunk B-tree with a group key".into(),
            )));
        };
        let done = out.len() - start;
        let first = offsets.first().copied().unwrap_or(0);
        if first != done as u64 {
            return Err(ChunkError::Signal(format!(
                "a chunk at sample {first} where sample {done} was next"
            )));
        }
        let (at, size) = (*at, *chunk_size as usize);
        // The run read before holds this chunk, or the run starting with it is read.
        let (from, bytes) = match run.take() {
            Some((from, bytes)) if at >= from && at - from + size as u64 <= bytes.len() as u64 => {
                (from, bytes)
            }
            _ => {
                let len = adjacent_run(&needed[k..]);
                (at, storage.read_range(at, len).map_err(ChunkError::Hdf5)?)
            }
        };
        let stored = &bytes[(at - from) as usize..][..size];
        let before = out.len();
        if filter_mask & 1 == 0 {
            let declared = svb_vbz::hdf5_filter::decompressed_size(stored).map_err(|e| {
                ChunkError::Signal(format!("the chunk at sample {first}: VBZ: {e}"))
            })?;
            if declared != chunk_samples * 2 {
                return Err(ChunkError::Signal(format!(
                    "the chunk at sample {first} declares {declared} bytes, not the {} of \
                     {chunk_samples} samples",
                    chunk_samples * 2
                )));
            }
            svb_vbz::hdf5_filter::decompress_sized_samples_into(stored, &options, out).map_err(
                |e| ChunkError::Signal(format!("the chunk at sample {first}: VBZ: {e}")),
            )?;
        } else {
            // The filter was skipped for this chunk: its samples are stored as they are.
            let pairs = stored.as_chunks::<2>().0;
            out.extend(pairs.iter().map(|b| i16::from_le_bytes(*b)));
        }
        run = Some((from, bytes));
        let got = out.len() - before;
        if got != chunk_samples {
            return Err(ChunkError::Signal(format!(
                "the chunk at sample {first} holds {got} samples, not the chunk size {chunk_samples}"
            )));
        }
    }
    // The last chunk's samples past the extent are padding.
    out.truncate(start + n.min(out.len() - start));
    Ok(())
}

/// Bytes read at once for a run of chunks at most (1 MiB): a read's chunks, written one
/// after another, come in one positioned read instead of one each (45,000 reads of 6.5 KB
/// for a 2000-read file), and no more is held than this (or one larger chunk).
const RUN_BYTES: u64 = 1 << 20;

/// The bytes of the run of chunks starting with `leaves[0]`: it and those after it that
/// start where the one before ends, while the run stays within [`RUN_BYTES`] (the first chunk
/// alone when it is larger).
fn adjacent_run(leaves: &[(BTreeV1Key, u64)]) -> usize {
    let size = |key: &BTreeV1Key| match key {
        BTreeV1Key::RawData { chunk_size, .. } => u64::from(*chunk_size),
        _ => 0,
    };
    let Some((key, at)) = leaves.first() else {
        return 0;
    };
    let mut end = at.saturating_add(size(key));
    for (key, at) in &leaves[1..] {
        let next = at.saturating_add(size(key));
        if *at != end || next - leaves[0].1 > RUN_BYTES {
            break;
        }
        end = next;
    }
    (end - leaves[0].1) as usize
}

#[cfg(test)]
mod tests {
    use crate::Reader;

    /// Every read of every conformance file: the chunks decoded here and through the HDF5
    /// layer's filter pipeline give the same samples, or both fail.
    #[svb_testdata::data_test]
    fn the_direct_decode_matches_the_hdf5_layers(dir: &std::path::Path) {
        let mut direct_reads = 0;
        for (name, path) in svb_testdata::files_with_suffix(&dir.join("fast5"), ".fast5") {
            let Ok(r) = Reader::open(&path) else { continue };
            for i in 0..r.len() {
                let e = r.entry(i).unwrap();
                let Ok((ds, path, little, n)) = r.signal_dataset(i) else {
                    continue;
                };
                let mut direct = Vec::new();
                let fast = super::decode(&r.file, &ds, n as usize, &mut direct);
                let mut layer = Vec::new();
                let slow = r.signal_through_hdf5(e, &ds, path, little, n as usize, &mut layer);
                match fast {
                    Ok(()) => {
                        direct_reads += 1;
                        assert!(slow.is_ok(), "{name} read {i}: the HDF5 layer fails");
                        layer.truncate(n as usize);
                        assert_eq!(direct, layer, "{name} read {i}");
                    }
                    Err(super::ChunkError::NotHere) => {}
                    Err(_) => assert!(
                        slow.is_err() || layer.len() != n as usize,
                        "{name} read {i}: only the direct decode fails"
                    ),
                }
            }
        }
        // The VBZ reads of the set (the others are gzip, which the HDF5 layer decodes).
        assert!(direct_reads >= 20, "{direct_reads} reads decoded directly");
    }
}
