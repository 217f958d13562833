//! The part of HDF5 a FAST5 file needs, encoded as libhdf5 1.8 and later read it (and as
//! MinKNOW and h5py's default "earliest" format write it): a version-0 superblock, version-1
//! object headers, groups of hard links (the root as a symbol table: a local heap of names,
//! symbol-table nodes and a version-1 B-tree, so opening one read of thousands is a tree
//! lookup; a read's small groups as link messages), scalar attributes (integers, floats,
//! variable-length strings in global heap collections, as h5py and `pod5 convert to_fast5`
//! write them; enums) and one-dimensional chunked datasets whose chunks are
//! indexed by a version-1 B-tree and stored already filtered. Nothing here needs a checksum.
//!
//! Each function returns the bytes of one structure; the caller decides where they go and
//! passes the addresses structures refer to. Layouts are from the HDF5 file format
//! specification (version 3.0), sections II (superblock), III (B-trees, symbol tables,
//! local heaps) and IV (object headers and their messages).

/// An address no structure is at ("undefined address").
pub const UNDEFINED: u64 = u64::MAX;

/// The superblock's length: the root group's symbol-table entry at its end.
pub const SUPERBLOCK_LEN: u64 = 96;

/// Symbol-table node entries are at most `2 * LEAF_K`; B-tree nodes of a group have at most
/// `2 * GROUP_K` children, and those of chunks `2 * CHUNK_K` (libhdf5's defaults: the
/// superblock says the first two, version 0 cannot say the third).
pub const LEAF_K: usize = 4;
/// See [`LEAF_K`].
pub const GROUP_K: usize = 16;
/// See [`LEAF_K`].
pub const CHUNK_K: usize = 32;

/// HDF5 filter ids of the chunk filters a FAST5 signal uses.
pub const FILTER_DEFLATE: u16 = 1;

/// An attribute's (or dataset's) element type.
#[derive(Clone, Debug, PartialEq)]
pub enum Dtype {
    /// A little-endian integer of 1, 2, 4 or 8 bytes.
    Int {
        /// Bytes.
        size: u8,
        /// Two's complement.
        signed: bool,
    },
    /// An IEEE float of 4 or 8 bytes, little-endian.
    Float {
        /// Bytes.
        size: u8,
    },
    /// A variable-length string (h5py's `str`): the attribute holds a global heap id
    /// ([`heap_id`]), the heap object the string's bytes.
    VlenText {
        /// UTF-8 (else ASCII) as the type says.
        utf8: bool,
    },
    /// An enum over unsigned bytes: its members' names and values.
    Enum {
        /// The members, in the type's order.
        members: Vec<(String, u8)>,
    },
}

impl Dtype {
    /// Bytes of one element.
    pub fn size(&self) -> u32 {
        match self {
            Dtype::Int { size, .. } | Dtype::Float { size } => u32::from(*size),
            Dtype::VlenText { .. } => HEAP_ID_LEN as u32,
            Dtype::Enum { .. } => 1,
        }
    }

    /// The datatype message (version 1).
    pub fn encode(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(24);
        let head = |out: &mut Vec<u8>, class: u8, bits: [u8; 3], size: u32| {
            out.push(0x10 | class);
            out.extend_from_slice(&bits);
            out.extend_from_slice(&size.to_le_bytes());
        };
        match self {
            Dtype::Int { size, signed } => {
                head(&mut out, 0, [u8::from(*signed) << 3, 0, 0], self.size());
                out.extend_from_slice(&0u16.to_le_bytes());
                out.extend_from_slice(&(u16::from(*size) * 8).to_le_bytes());
            }
            Dtype::Float { size } => {
                // Mantissa normalised with its leading 1 implied (2 << 4); the sign at the top.
                let (sign, exp_at, exp_len, mant_len, bias) = match size {
                    4 => (31u8, 23u8, 8u8, 23u8, 127u32),
                    _ => (63, 52, 11, 52, 1023),
                };
                head(&mut out, 1, [0x20, sign, 0], self.size());
                out.extend_from_slice(&0u16.to_le_bytes());
                out.extend_from_slice(&(u16::from(*size) * 8).to_le_bytes());
                out.extend_from_slice(&[exp_at, exp_len, 0, mant_len]);
                out.extend_from_slice(&bias.to_le_bytes());
            }
            Dtype::VlenText { utf8 } => {
                // A string (type 1), NUL-terminated padding, ASCII or UTF-8; its base type one
                // unsigned byte, as libhdf5 writes it.
                head(&mut out, 9, [0x01, u8::from(*utf8), 0], self.size());
                out.extend_from_slice(&Dtype::Int { size: 1, signed: false }.encode());
            }
            Dtype::Enum { members } => {
                let n = members.len() as u16;
                let [lo, hi] = n.to_le_bytes();
                head(&mut out, 8, [lo, hi, 0], 1);
                out.extend_from_slice(&Dtype::Int { size: 1, signed: false }.encode());
                for (label, _) in members {
                    out.extend_from_slice(label.as_bytes());
                    out.push(0);
                    pad8(&mut out, label.len() + 1);
                }
                out.extend(members.iter().map(|m| m.1));
            }
        }
        out
    }
}

/// Zeros after `len` bytes just appended, to the next multiple of 8.
fn pad8(out: &mut Vec<u8>, len: usize) {
    out.resize(out.len() + (8 - len % 8) % 8, 0);
}

/// A header message: its type and its data.
pub struct Message {
    kind: u16,
    data: Vec<u8>,
}

impl Message {
    /// Overwrites the last bytes of an attribute message's value with `tail` (a
    /// variable-length string's heap id, known once its collection is placed).
    pub fn patch_value_end(&mut self, tail: &[u8]) {
        let at = self.data.len() - tail.len();
        self.data[at..].copy_from_slice(tail);
    }
}

/// Bytes of a global heap id: the object's length (u32), its collection's address, its index
/// in the collection (u32).
pub const HEAP_ID_LEN: usize = 16;

/// The global heap id of object `index` (`len` bytes) of the collection at `collection`: what
/// a variable-length string attribute holds.
pub fn heap_id(len: u32, collection: u64, index: u32) -> [u8; HEAP_ID_LEN] {
    let mut id = [0u8; HEAP_ID_LEN];
    id[..4].copy_from_slice(&len.to_le_bytes());
    id[4..12].copy_from_slice(&collection.to_le_bytes());
    id[12..].copy_from_slice(&index.to_le_bytes());
    id
}

/// The smallest global heap collection libhdf5 makes (4096 bytes).
pub const MIN_COLLECTION: usize = 4096;

/// Bytes `object` takes in a collection: its 16-byte header and its data padded to 8.
pub fn heap_object_len(object: &[u8]) -> usize {
    16 + object.len().div_ceil(8) * 8
}

/// A global heap collection ("GCOL", version 1) of `capacity` bytes holding `objects`
/// (indices from 1, reference count 0, as h5py writes attribute strings) and, where room is
/// left, the free-space object (index 0) that says how much. The objects fit: `capacity` is at
/// least 16 + their lengths ([`heap_object_len`]), and what is left is 0 or at least 16 bytes.
pub fn collection(objects: &[&[u8]], capacity: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(capacity);
    out.extend_from_slice(b"GCOL");
    out.extend_from_slice(&[1, 0, 0, 0]);
    out.extend_from_slice(&(capacity as u64).to_le_bytes());
    for (i, o) in objects.iter().enumerate() {
        out.extend_from_slice(&((i + 1) as u16).to_le_bytes());
        out.extend_from_slice(&[0; 6]);
        out.extend_from_slice(&(o.len() as u64).to_le_bytes());
        out.extend_from_slice(o);
        pad8(&mut out, o.len());
    }
    let free = capacity - out.len();
    debug_assert!(free == 0 || free >= 16, "a collection's free space holds its header");
    if free > 0 {
        out.extend_from_slice(&[0; 8]);
        out.extend_from_slice(&(free as u64).to_le_bytes());
        out.resize(capacity, 0);
    }
    out
}

/// The dataspace message (version 1) of a scalar (`dims` empty) or of a fixed-size array.
fn dataspace(dims: &[u64]) -> Message {
    let mut data = vec![1, dims.len() as u8, 0, 0, 0, 0, 0, 0];
    for d in dims {
        data.extend_from_slice(&d.to_le_bytes());
    }
    Message { kind: 0x01, data }
}

/// The most bytes a header message holds (its size field is 16 bits, and its data is padded
/// to 8 bytes): an attribute kept in its object header, as this writer keeps every one, is
/// at most this with its name, type and dataspace. libhdf5 moves larger ones to dense
/// attribute storage (a fractal heap and a v2 B-tree), which is not written here.
pub const MAX_MESSAGE: usize = u16::MAX as usize / 8 * 8;

/// An attribute message (version 1): `value` of type `dtype`, a scalar (`dims` empty) or an
/// array of `dims` (`value` holds every element's `dtype.size()` bytes); `None` when it is
/// larger than a header message holds ([`MAX_MESSAGE`]).
pub fn attribute(name: &str, dtype: &Dtype, dims: &[u64], value: &[u8]) -> Option<Message> {
    debug_assert_eq!(value.len() as u64, u64::from(dtype.size()) * dims.iter().product::<u64>());
    let ty = dtype.encode();
    let space = dataspace(dims).data;
    let mut data = vec![1, 0];
    data.extend_from_slice(&((name.len() + 1) as u16).to_le_bytes());
    data.extend_from_slice(&(ty.len() as u16).to_le_bytes());
    data.extend_from_slice(&(space.len() as u16).to_le_bytes());
    data.extend_from_slice(name.as_bytes());
    data.push(0);
    pad8(&mut data, name.len() + 1);
    data.extend_from_slice(&ty);
    pad8(&mut data, ty.len());
    data.extend_from_slice(&space);
    pad8(&mut data, space.len());
    data.extend_from_slice(value);
    (data.len() <= MAX_MESSAGE).then_some(Message { kind: 0x0c, data })
}

/// The messages that make an object header a group of link messages ("compact" storage):
/// link info and group info, then one hard link per `(name, address)`.
pub fn compact_group(links: &[(&str, u64)]) -> Vec<Message> {
    let mut link_info = vec![0, 0];
    link_info.extend_from_slice(&UNDEFINED.to_le_bytes());
    link_info.extend_from_slice(&UNDEFINED.to_le_bytes());
    let mut out =
        vec![Message { kind: 0x02, data: link_info }, Message { kind: 0x0a, data: vec![0, 0] }];
    for (name, address) in links {
        debug_assert!(!name.is_empty() && name.len() < 256);
        // Version 1; flags 0: a one-byte name length, a hard link, ASCII.
        let mut data = vec![1, 0, name.len() as u8];
        data.extend_from_slice(name.as_bytes());
        data.extend_from_slice(&address.to_le_bytes());
        out.push(Message { kind: 0x06, data });
    }
    out
}

/// A version-1 object header holding `messages`, linked to from `links` places.
pub fn object_header(messages: &[Message], links: u32) -> Vec<u8> {
    let body: usize = messages.iter().map(|m| 8 + m.data.len().div_ceil(8) * 8).sum();
    let mut out = Vec::with_capacity(16 + body);
    out.extend_from_slice(&[1, 0]);
    out.extend_from_slice(&(messages.len() as u16).to_le_bytes());
    out.extend_from_slice(&links.to_le_bytes());
    out.extend_from_slice(&(body as u32).to_le_bytes());
    out.extend_from_slice(&[0; 4]);
    for m in messages {
        let len = m.data.len().div_ceil(8) * 8;
        out.extend_from_slice(&m.kind.to_le_bytes());
        out.extend_from_slice(&(len as u16).to_le_bytes());
        out.extend_from_slice(&[0; 4]);
        out.extend_from_slice(&m.data);
        pad8(&mut out, m.data.len());
    }
    out
}

/// Where an object header keeps its link count: the caller patches it when it learns how many
/// places link to the object.
pub const LINK_COUNT_OFFSET: u64 = 4;

/// How a dataset's chunks are filtered.
pub struct Filter {
    /// The filter's id.
    pub id: u16,
    /// Its name (filters outside HDF5's own, such as VBZ's `vbz`).
    pub name: Option<&'static str>,
    /// Optional: a reader without it still opens the file (it cannot read the data).
    pub optional: bool,
    /// Its `cd_values`.
    pub client_data: Vec<u32>,
}

/// The messages of a one-dimensional dataset of `len` elements of `dtype`: chunked into
/// chunks of `chunk` elements indexed by the B-tree at `btree` (each filtered by `filter`),
/// or, for `len` 0, contiguous and empty.
pub fn dataset(
    dtype: &Dtype, len: u64, chunk: u32, btree: u64, filter: Option<&Filter>,
) -> Vec<Message> {
    let mut out = vec![
        dataspace(&[len]),
        Message { kind: 0x03, data: dtype.encode() },
        // Fill value message version 2: space allocated incrementally, the fill value
        // written only when one is set, none set.
        Message { kind: 0x05, data: vec![2, 3, 2, 0] },
    ];
    let mut layout = vec![3];
    if len == 0 {
        layout.push(1);
        layout.extend_from_slice(&UNDEFINED.to_le_bytes());
        layout.extend_from_slice(&0u64.to_le_bytes());
        out.push(Message { kind: 0x08, data: layout });
        return out;
    }
    layout.extend_from_slice(&[2, 2]);
    layout.extend_from_slice(&btree.to_le_bytes());
    layout.extend_from_slice(&chunk.to_le_bytes());
    layout.extend_from_slice(&dtype.size().to_le_bytes());
    out.push(Message { kind: 0x08, data: layout });
    if let Some(f) = filter {
        let mut data = vec![1, 1, 0, 0, 0, 0, 0, 0];
        let name_len = f.name.map_or(0, |n| (n.len() + 1).div_ceil(8) * 8);
        data.extend_from_slice(&f.id.to_le_bytes());
        data.extend_from_slice(&(name_len as u16).to_le_bytes());
        data.extend_from_slice(&u16::from(f.optional).to_le_bytes());
        data.extend_from_slice(&(f.client_data.len() as u16).to_le_bytes());
        if let Some(n) = f.name {
            data.extend_from_slice(n.as_bytes());
            data.push(0);
            pad8(&mut data, n.len() + 1);
        }
        for v in &f.client_data {
            data.extend_from_slice(&v.to_le_bytes());
        }
        if f.client_data.len() % 2 == 1 {
            data.extend_from_slice(&[0; 4]);
        }
        out.push(Message { kind: 0x0b, data });
    }
    out
}

/// Bytes of a B-tree node's fixed part: signature, type, level, entries, two siblings.
const NODE_HEAD: usize = 24;

/// The version-1 B-tree node (type 1, a leaf) indexing the chunks of a one-dimensional
/// dataset: `chunks[i]` is `(address, stored bytes)` of the chunk starting at element
/// `i * chunk`. Its length is what libhdf5 reads for a node of [`CHUNK_K`] (unused entries
/// zero). At most `2 * CHUNK_K` chunks.
pub fn chunk_node(chunks: &[(u64, u32)], chunk: u32) -> Vec<u8> {
    assert!(chunks.len() <= 2 * CHUNK_K);
    let key_len = 4 + 4 + 16;
    let len = NODE_HEAD + 2 * CHUNK_K * (key_len + 8) + key_len;
    let mut out = Vec::with_capacity(len);
    out.extend_from_slice(b"TREE");
    out.extend_from_slice(&[1, 0]);
    out.extend_from_slice(&(chunks.len() as u16).to_le_bytes());
    out.extend_from_slice(&UNDEFINED.to_le_bytes());
    out.extend_from_slice(&UNDEFINED.to_le_bytes());
    let key = |out: &mut Vec<u8>, size: u32, start: u64| {
        out.extend_from_slice(&size.to_le_bytes());
        out.extend_from_slice(&0u32.to_le_bytes()); // every filter applied
        out.extend_from_slice(&start.to_le_bytes());
        out.extend_from_slice(&0u64.to_le_bytes()); // the element's own dimension
    };
    for (i, &(address, size)) in chunks.iter().enumerate() {
        key(&mut out, size, i as u64 * u64::from(chunk));
        out.extend_from_slice(&address.to_le_bytes());
    }
    key(&mut out, 0, chunks.len() as u64 * u64::from(chunk));
    out.resize(len, 0);
    out
}

/// A group stored as a symbol table (the root of a FAST5 file: thousands of reads), laid out
/// from `at`: the local heap of names, the symbol-table nodes, the B-tree over them. `links`
/// are `(name, object header address)`, any order; names must be distinct and hold no NUL.
/// Returns the bytes and the addresses of the B-tree's root and of the heap (the group's
/// symbol-table message and the superblock's root entry name both).
pub fn symbol_table(at: u64, links: &[(String, u64)]) -> (Vec<u8>, u64, u64) {
    let mut sorted: Vec<&(String, u64)> = links.iter().collect();
    sorted.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    // The heap's data: "" at 0 (the root's own name, and the B-tree's smallest key), then
    // each name, NUL-terminated, padded to 8 bytes.
    let mut names = vec![0u8; 8];
    let mut offsets = Vec::with_capacity(sorted.len());
    for (name, _) in &sorted {
        offsets.push(names.len() as u64);
        names.extend_from_slice(name.as_bytes());
        names.push(0);
        pad8(&mut names, name.len() + 1);
    }
    let heap_at = at;
    let data_at = heap_at + 32;
    let mut out = Vec::new();
    out.extend_from_slice(b"HEAP");
    out.extend_from_slice(&[0, 0, 0, 0]);
    out.extend_from_slice(&(names.len() as u64).to_le_bytes());
    // No free block: libhdf5 spells it 1 (H5HL_FREE_NULL), not the undefined address the
    // specification names, and refuses any offset past the data that is not 1.
    out.extend_from_slice(&1u64.to_le_bytes());
    out.extend_from_slice(&data_at.to_le_bytes());
    out.extend_from_slice(&names);

    // Symbol-table nodes of at most 2 * LEAF_K entries each, full size.
    let per_node = 2 * LEAF_K;
    let node_len = 8 + per_node * 40;
    let mut leaves: Vec<(u64, u64)> = Vec::new(); // (address, heap offset of its last name)
    let entries: Vec<(u64, u64)> =
        sorted.iter().zip(&offsets).map(|((_, address), &off)| (off, *address)).collect();
    for group in entries.chunks(per_node) {
        let address = at + out.len() as u64;
        let start = out.len();
        out.extend_from_slice(b"SNOD");
        out.extend_from_slice(&[1, 0]);
        out.extend_from_slice(&(group.len() as u16).to_le_bytes());
        for &(off, object) in group {
            out.extend_from_slice(&off.to_le_bytes());
            out.extend_from_slice(&object.to_le_bytes());
            out.extend_from_slice(&[0; 24]); // cache type 0, reserved, scratch
        }
        out.resize(start + node_len, 0);
        leaves.push((address, group.last().expect("a node holds an entry").0));
    }

    // The B-tree, level by level: each node's keys are the heap offsets of "" (or of the
    // last name left of it) and of the last name under each child.
    let fanout = 2 * GROUP_K;
    let tree_len = NODE_HEAD + fanout * 16 + 8;
    let mut level = 0u8;
    let mut children = leaves;
    if children.is_empty() {
        // No links: one empty leaf node.
        let base = at + out.len() as u64;
        out.extend_from_slice(b"TREE");
        out.extend_from_slice(&[0, 0, 0, 0]);
        out.extend_from_slice(&UNDEFINED.to_le_bytes());
        out.extend_from_slice(&UNDEFINED.to_le_bytes());
        out.resize(out.len() + tree_len - NODE_HEAD, 0);
        return (out, base, heap_at);
    }
    loop {
        let nodes = children.len().div_ceil(fanout).max(1);
        let base = at + out.len() as u64;
        let mut parents = Vec::with_capacity(nodes);
        for (n, group) in children.chunks(fanout).enumerate() {
            let address = base + (n * tree_len) as u64;
            let left = match n {
                0 => UNDEFINED,
                _ => address - tree_len as u64,
            };
            let right = match n + 1 < nodes {
                true => address + tree_len as u64,
                false => UNDEFINED,
            };
            let start = out.len();
            out.extend_from_slice(b"TREE");
            out.extend_from_slice(&[0, level]);
            out.extend_from_slice(&(group.len() as u16).to_le_bytes());
            out.extend_from_slice(&left.to_le_bytes());
            out.extend_from_slice(&right.to_le_bytes());
            // Left of the first child: "" for the leftmost node, else the last name under
            // the node before.
            let lead = match n {
                0 => 0,
                _ => children[n * fanout - 1].1,
            };
            out.extend_from_slice(&lead.to_le_bytes());
            for &(child, last) in group {
                out.extend_from_slice(&child.to_le_bytes());
                out.extend_from_slice(&last.to_le_bytes());
            }
            out.resize(start + tree_len, 0);
            parents.push((address, group.last().expect("a node has a child").1));
        }
        if nodes == 1 {
            return (out, base, heap_at);
        }
        children = parents;
        level += 1;
    }
}

/// The messages of a group stored as a symbol table whose B-tree and heap are at `btree` and
/// `heap`.
pub fn symbol_table_group(btree: u64, heap: u64) -> Message {
    let mut data = btree.to_le_bytes().to_vec();
    data.extend_from_slice(&heap.to_le_bytes());
    Message { kind: 0x11, data }
}

/// The superblock (version 0) of a file `eof` bytes long whose root group's object header is
/// at `root`, its symbol table's B-tree and heap at `btree` and `heap`.
pub fn superblock(root: u64, btree: u64, heap: u64, eof: u64) -> Vec<u8> {
    let mut out = Vec::with_capacity(SUPERBLOCK_LEN as usize);
    out.extend_from_slice(b"\x89HDF\r\n\x1a\n");
    // Versions: superblock, free space, root entry, reserved, shared headers; sizes of
    // offsets and lengths; reserved.
    out.extend_from_slice(&[0, 0, 0, 0, 0, 8, 8, 0]);
    out.extend_from_slice(&(LEAF_K as u16).to_le_bytes());
    out.extend_from_slice(&(GROUP_K as u16).to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes()); // consistency flags
    out.extend_from_slice(&0u64.to_le_bytes()); // base address
    out.extend_from_slice(&UNDEFINED.to_le_bytes()); // free-space info
    out.extend_from_slice(&eof.to_le_bytes());
    out.extend_from_slice(&UNDEFINED.to_le_bytes()); // driver info
                                                     // The root's symbol-table entry: name at heap offset 0, its header, cache type 1 (a
                                                     // symbol table, whose B-tree and heap the scratch pad holds).
    out.extend_from_slice(&0u64.to_le_bytes());
    out.extend_from_slice(&root.to_le_bytes());
    out.extend_from_slice(&1u32.to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    out.extend_from_slice(&btree.to_le_bytes());
    out.extend_from_slice(&heap.to_le_bytes());
    debug_assert_eq!(out.len() as u64, SUPERBLOCK_LEN);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn datatypes_have_the_specified_lengths() {
        assert_eq!(Dtype::Int { size: 4, signed: true }.encode().len(), 12);
        assert_eq!(Dtype::Float { size: 8 }.encode().len(), 20);
        // h5py's `str`: a variable-length UTF-8 string over one unsigned byte.
        assert_eq!(
            Dtype::VlenText { utf8: true }.encode(),
            [0x19, 1, 1, 0, 16, 0, 0, 0, 0x10, 0, 0, 0, 1, 0, 0, 0, 0, 0, 8, 0]
        );
        let c = collection(&[b"3.0", b"multi-read"], 4096);
        assert_eq!(c.len(), 4096);
        assert_eq!(&c[..16], b"GCOL\x01\0\0\0\0\x10\0\0\0\0\0\0");
        assert_eq!(&c[16..32], [1, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0]);
        assert_eq!(&c[72..88], [0, 0, 0, 0, 0, 0, 0, 0, 0xb8, 0x0f, 0, 0, 0, 0, 0, 0]);
        let e =
            Dtype::Enum { members: vec![("unknown".into(), 0), ("partial".into(), 1)] }.encode();
        // Head, base type, two names of 7 bytes and their NULs (8 each, no padding), two
        // values.
        assert_eq!(e.len(), 8 + 12 + 8 + 8 + 2);
    }

    #[test]
    fn object_headers_align_their_messages() {
        let h =
            object_header(&[attribute("a", &Dtype::Float { size: 4 }, &[], &[0; 4]).unwrap()], 1);
        assert_eq!(h.len() % 8, 0);
        assert_eq!(u32::from_le_bytes(h[8..12].try_into().unwrap()) as usize, h.len() - 16);
    }

    #[test]
    fn symbol_tables_of_many_names_have_several_levels() {
        let links: Vec<(String, u64)> = (0..2000).map(|i| (format!("read_{i:05}"), i)).collect();
        let (bytes, btree, heap) = symbol_table(1000, &links);
        assert_eq!(heap, 1000);
        // 250 leaves, 8 nodes above them, one root.
        let tree_len = (NODE_HEAD + 32 * 16 + 8) as u64;
        assert_eq!(btree + tree_len, 1000 + bytes.len() as u64);
        let root = (btree - 1000) as usize;
        assert_eq!(&bytes[root..root + 4], b"TREE");
        assert_eq!(bytes[root + 5], 1, "level");
        assert_eq!(u16::from_le_bytes([bytes[root + 6], bytes[root + 7]]), 8);
    }
}
