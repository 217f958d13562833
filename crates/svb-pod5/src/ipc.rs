//! One Arrow IPC file embedded in a POD5 container, decoded with `arrow-ipc`'s `FileDecoder`
//! straight from the mapped bytes (zero-copy: record batches point into the map).
//!
//! `arrow-ipc` trusts parts of its input (it panics on a schema field without a name, an
//! unknown type code, a buffer range past the message body, a message with fewer buffers than
//! its schema needs), so every flatbuffer is verified and checked here first: the schema
//! against the types POD5 uses, each block against the file, each message's buffers against
//! its body and their count against the schema. Array contents are then fully validated by
//! `arrow-data` as the arrays are built.

use std::collections::HashMap;
use std::sync::Arc;

use arrow_array::RecordBatch;
use arrow_buffer::Buffer;
use arrow_ipc::reader::FileDecoder;
use arrow_schema::{DataType, Field, Schema};

/// An Arrow IPC file: its schema and its record batches.
pub(crate) struct IpcFile {
    pub schema: Arc<Schema>,
    pub batches: Vec<RecordBatch>,
}

pub(super) const MAGIC: &[u8; 6] = b"ARROW1";
/// Nesting deeper than this is not a POD5 table.
const MAX_DEPTH: usize = 8;

/// Bytes after an Arrow IPC file's footer: its length (i32 LE) and the magic.
pub(super) const TAIL_LEN: usize = 10;

/// Where the footer of an Arrow IPC file of `len` bytes lies (`start..end`), from its first 6
/// bytes and its last [`TAIL_LEN`] (`len` must be at least [`TAIL_LEN`]).
pub(super) fn footer_range(
    len: usize,
    head: &[u8],
    tail: &[u8],
) -> Result<std::ops::Range<usize>, String> {
    if len < 8 + TAIL_LEN || head[..6] != MAGIC[..] || tail[4..] != MAGIC[..] {
        return Err(format!(
            "not an Arrow IPC file ({len} bytes, ARROW1 magic missing)"
        ));
    }
    let footer_len = i32::from_le_bytes(tail[..4].try_into().expect("4 bytes"));
    let footer_end = len - TAIL_LEN;
    if footer_len <= 0 || footer_len as usize > footer_end - 8 {
        return Err(format!(
            "Arrow footer length {footer_len}, the file leaves room for {}",
            footer_end - 8
        ));
    }
    Ok(footer_end - footer_len as usize..footer_end)
}

/// Reads the Arrow IPC file that fills `file` exactly.
pub(crate) fn read(file: &Buffer) -> Result<IpcFile, String> {
    let len = file.len();
    if len < 8 + TAIL_LEN {
        return Err(format!(
            "not an Arrow IPC file ({len} bytes, ARROW1 magic missing)"
        ));
    }
    let footer = footer_range(len, &file[..6], &file[len - TAIL_LEN..])?;
    let (footer_start, footer_end) = (footer.start, footer.end);
    let footer = arrow_ipc::root_as_footer(&file[footer_start..footer_end])
        .map_err(|e| format!("Arrow footer: {e}"))?;
    let fb_schema = footer.schema().ok_or("Arrow footer without a schema")?;
    check_schema(&fb_schema)?;
    let schema = Arc::new(
        arrow_ipc::convert::try_fb_to_schema(fb_schema)
            .map_err(|e| format!("Arrow schema: {e}"))?,
    );
    let version = footer.version();

    let mut decoder = FileDecoder::new(schema.clone(), version);
    let dict_types = dictionary_value_types(&schema);
    for (i, block) in footer.dictionaries().iter().flatten().enumerate() {
        let what = format!("dictionary batch {i}");
        let data = block_data(file, footer_start, block, &what)?;
        let body_len = data.len() - block.metaDataLength() as usize;
        let message = message(&data[..block.metaDataLength() as usize], &what)?;
        let dict = message
            .header_as_dictionary_batch()
            .ok_or_else(|| format!("{what}: not a dictionary batch"))?;
        let value_type = dict_types
            .get(&dict.id())
            .ok_or_else(|| format!("{what}: dictionary id {} not in the schema", dict.id()))?;
        let batch = dict
            .data()
            .ok_or_else(|| format!("{what}: no record batch"))?;
        check_buffers(&batch, body_len, std::slice::from_ref(value_type), &what)?;
        decoder
            .read_dictionary(block, &data)
            .map_err(|e| format!("{what}: {e}"))?;
    }
    let blocks = footer
        .recordBatches()
        .ok_or("Arrow footer lists no record batches")?;
    let types: Vec<DataType> = schema
        .fields()
        .iter()
        .map(|f| f.data_type().clone())
        .collect();
    let mut batches = Vec::with_capacity(blocks.len());
    for (i, block) in blocks.iter().enumerate() {
        let what = format!("record batch {i}");
        let data = block_data(file, footer_start, block, &what)?;
        let body_len = data.len() - block.metaDataLength() as usize;
        let message = message(&data[..block.metaDataLength() as usize], &what)?;
        let batch = message
            .header_as_record_batch()
            .ok_or_else(|| format!("{what}: not a record batch"))?;
        check_buffers(&batch, body_len, &types, &what)?;
        match decoder.read_record_batch(block, &data) {
            Ok(Some(b)) => batches.push(b),
            Ok(None) => return Err(format!("{what}: empty message")),
            Err(e) => return Err(format!("{what}: {e}")),
        }
    }
    Ok(IpcFile { schema, batches })
}

/// Where one block lies: `(offset, metadata length, body length)`, checked to lie after the
/// magic and before the footer.
pub(super) fn block_range(
    footer_start: usize,
    block: &arrow_ipc::Block,
    what: &str,
) -> Result<(usize, usize, usize), String> {
    let (offset, meta, body) = (block.offset(), block.metaDataLength(), block.bodyLength());
    let end = (offset as i128) + (meta as i128) + (body as i128);
    if offset < 8 || meta < 8 || body < 0 || end > footer_start as i128 {
        return Err(format!(
            "{what}: block at {offset} (metadata {meta}, body {body}) outside the file's data"
        ));
    }
    Ok((offset as usize, meta as usize, body as usize))
}

/// The bytes of one block (metadata + body), checked to lie before the footer.
fn block_data(
    file: &Buffer,
    footer_start: usize,
    block: &arrow_ipc::Block,
    what: &str,
) -> Result<Buffer, String> {
    let (offset, meta, body) = block_range(footer_start, block, what)?;
    Ok(file.slice_with_length(offset, meta + body))
}

/// The verified message flatbuffer of a block's metadata (after the optional continuation
/// marker and the length prefix).
pub(super) fn message<'a>(meta: &'a [u8], what: &str) -> Result<arrow_ipc::Message<'a>, String> {
    let rest = if meta[..4] == [0xff; 4] {
        &meta[8..]
    } else {
        &meta[4..]
    };
    arrow_ipc::root_as_message(rest).map_err(|e| format!("{what}: message: {e}"))
}

/// A batch must be uncompressed (arrow-ipc is built without codecs), its buffers must lie
/// inside its body, and walking the columns' types as arrow-ipc does, every field node must
/// have a sane length and null count, a validity bitmap long enough for its length when it
/// has nulls, and buffers holding whole values. arrow-data panics on the last two before its
/// own validation runs. Returns where each column's field nodes and buffers start:
/// `(node index, buffer index)`.
pub(super) fn check_buffers(
    batch: &arrow_ipc::RecordBatch<'_>,
    body_len: usize,
    types: &[DataType],
    what: &str,
) -> Result<Vec<(usize, usize)>, String> {
    if batch.compression().is_some() {
        return Err(format!(
            "{what}: compressed Arrow buffers are not supported"
        ));
    }
    let buffers = batch
        .buffers()
        .ok_or_else(|| format!("{what}: no buffer list"))?;
    let nodes = batch
        .nodes()
        .ok_or_else(|| format!("{what}: no field node list"))?;
    for (i, b) in buffers.iter().enumerate() {
        let (o, l) = (b.offset(), b.length());
        if o < 0 || l < 0 || (o as i128 + l as i128) > body_len as i128 {
            return Err(format!(
                "{what}: buffer {i} at {o}+{l} outside the {body_len}-byte body"
            ));
        }
    }
    if batch.length() < 0 {
        return Err(format!("{what}: negative row count {}", batch.length()));
    }
    let mut walk = Walk {
        nodes: nodes.iter().map(|n| (n.length(), n.null_count())).collect(),
        buffers: buffers.iter().map(|b| b.length() as u64).collect(),
        node: 0,
        buffer: 0,
        what,
    };
    types
        .iter()
        .map(|t| {
            let start = (walk.node, walk.buffer);
            walk.column(t).map(|()| start)
        })
        .collect()
}

/// The nodes (length, null count) and buffer lengths of a batch, consumed in arrow-ipc's
/// order: per column one node, its own buffers, then its children.
struct Walk<'a> {
    nodes: Vec<(i64, i64)>,
    buffers: Vec<u64>,
    node: usize,
    buffer: usize,
    what: &'a str,
}

impl Walk<'_> {
    fn column(&mut self, t: &DataType) -> Result<(), String> {
        let what = self.what;
        let Some(&(len, nulls)) = self.nodes.get(self.node) else {
            return Err(format!(
                "{what}: fewer field nodes than the schema has columns"
            ));
        };
        self.node += 1;
        if len < 0 || nulls < 0 || nulls > len {
            return Err(format!(
                "{what}: field node of length {len} with {nulls} nulls"
            ));
        }
        // Each own buffer as the multiple its length must be (1: bitmaps and bytes).
        let own: &[u64] = match t {
            DataType::Utf8 | DataType::Binary => &[1, 4, 1],
            DataType::LargeUtf8 | DataType::LargeBinary => &[1, 8, 1],
            DataType::List(_) | DataType::Map(..) => &[1, 4],
            DataType::LargeList(_) => &[1, 8],
            DataType::Struct(_) => &[1],
            DataType::Dictionary(k, _) => match k.primitive_width() {
                Some(2) => &[1, 2],
                Some(4) => &[1, 4],
                Some(8) => &[1, 8],
                _ => &[1, 1],
            },
            _ => match t.primitive_width() {
                Some(2) => &[1, 2],
                Some(4) => &[1, 4],
                Some(8) => &[1, 8],
                _ => &[1, 1],
            },
        };
        let Some(lens) = self.buffers.get(self.buffer..self.buffer + own.len()) else {
            return Err(format!("{what}: fewer buffers than the schema needs"));
        };
        if nulls > 0 && lens[0].saturating_mul(8) < len as u64 {
            return Err(format!(
                "{what}: validity bitmap of {} bytes for {len} values",
                lens[0]
            ));
        }
        for (&l, &w) in lens.iter().zip(own) {
            if l % w != 0 {
                return Err(format!(
                    "{what}: buffer of {l} bytes, not a whole number of {w}-byte values"
                ));
            }
        }
        self.buffer += own.len();
        match t {
            DataType::List(c) | DataType::LargeList(c) | DataType::Map(c, _) => {
                self.column(c.data_type())
            }
            DataType::Struct(fields) => fields.iter().try_for_each(|f| self.column(f.data_type())),
            _ => Ok(()),
        }
    }
}

/// Dictionary id -> value type, for every dictionary field at any depth.
fn dictionary_value_types(schema: &Schema) -> HashMap<i64, DataType> {
    fn walk(f: &Field, out: &mut HashMap<i64, DataType>) {
        match f.data_type() {
            DataType::Dictionary(_, v) =>
            {
                #[allow(deprecated)]
                if let Some(id) = f.dict_id() {
                    out.entry(id).or_insert_with(|| (**v).clone());
                }
            }
            DataType::List(c) | DataType::LargeList(c) | DataType::Map(c, _) => walk(c, out),
            DataType::Struct(fields) => fields.iter().for_each(|c| walk(c, out)),
            _ => {}
        }
    }
    let mut out = HashMap::new();
    schema.fields().iter().for_each(|f| walk(f, &mut out));
    out
}

/// The schema may only use the types POD5 tables use, each well formed, so that
/// `fb_to_schema` cannot panic.
pub(super) fn check_schema(s: &arrow_ipc::Schema<'_>) -> Result<(), String> {
    if s.endianness() != arrow_ipc::Endianness::Little {
        return Err("big-endian Arrow data".into());
    }
    let fields = s.fields().ok_or("Arrow schema without fields")?;
    fields.iter().try_for_each(|f| check_field(&f, 0))
}

fn check_field(f: &arrow_ipc::Field<'_>, depth: usize) -> Result<(), String> {
    use arrow_ipc::Type;
    let name = f.name().ok_or("Arrow schema field without a name")?;
    if depth > MAX_DEPTH {
        return Err(format!("field {name}: nested deeper than {MAX_DEPTH}"));
    }
    let bad = |what: &str| Err(format!("field {name}: {what}"));
    if let Some(d) = f.dictionary() {
        match d.indexType() {
            Some(i) if matches!(i.bitWidth(), 8 | 16 | 32 | 64) => {}
            _ => return bad("dictionary without a valid index type"),
        }
    }
    let children = f.children();
    let n_children = children.map_or(0, |c| c.len());
    match f.type_type() {
        Type::Int => match f.type_as_int() {
            Some(i) if matches!(i.bitWidth(), 8 | 16 | 32 | 64) => {}
            _ => return bad("integer of an unsupported width"),
        },
        Type::FloatingPoint => match f.type_as_floating_point() {
            Some(p)
                if matches!(
                    p.precision(),
                    arrow_ipc::Precision::HALF
                        | arrow_ipc::Precision::SINGLE
                        | arrow_ipc::Precision::DOUBLE
                ) => {}
            _ => return bad("float of an unsupported precision"),
        },
        Type::Timestamp => match f.type_as_timestamp() {
            Some(t)
                if matches!(
                    t.unit(),
                    arrow_ipc::TimeUnit::SECOND
                        | arrow_ipc::TimeUnit::MILLISECOND
                        | arrow_ipc::TimeUnit::MICROSECOND
                        | arrow_ipc::TimeUnit::NANOSECOND
                ) => {}
            _ => return bad("timestamp of an unsupported unit"),
        },
        Type::FixedSizeBinary => match f.type_as_fixed_size_binary() {
            Some(b) if b.byteWidth() > 0 => {}
            _ => return bad("fixed-size binary without a positive width"),
        },
        Type::Bool | Type::Utf8 | Type::LargeUtf8 | Type::Binary | Type::LargeBinary => {}
        Type::List | Type::LargeList if n_children == 1 => {}
        Type::Map if n_children == 1 => {
            let entries = children.expect("one child").get(0);
            let kv = entries.children().map_or(0, |c| c.len());
            if entries.type_type() != Type::Struct_ || kv != 2 || entries.dictionary().is_some() {
                return bad("map entries are not a struct of key and value");
            }
        }
        Type::Struct_ => {}
        t => {
            return bad(&format!(
                "type {t:?} with {n_children} children is not used by POD5"
            ))
        }
    }
    if let Some(c) = children {
        if !matches!(
            f.type_type(),
            Type::List | Type::LargeList | Type::Map | Type::Struct_
        ) && !c.is_empty()
        {
            return bad("children on a type that has none");
        }
        c.iter().try_for_each(|c| check_field(&c, depth + 1))?;
    }
    Ok(())
}
