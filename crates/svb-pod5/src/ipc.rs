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
    len: usize, head: &[u8], tail: &[u8],
) -> Result<std::ops::Range<usize>, String> {
    if len < 8 + TAIL_LEN || head[..6] != MAGIC[..] || tail[4..] != MAGIC[..] {
        return Err(format!("not an Arrow IPC file ({len} bytes, ARROW1 magic missing)"));
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
        return Err(format!("not an Arrow IPC file ({len} bytes, ARROW1 magic missing)"));
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
        let batch = dict.data().ok_or_else(|| format!("{what}: no record batch"))?;
        check_buffers(&batch, body_len, std::slice::from_ref(value_type), &what)?;
        decoder.read_dictionary(block, &data).map_err(|e| format!("{what}: {e}"))?;
    }
    let blocks = footer.recordBatches().ok_or("Arrow footer lists no record batches")?;
    let types: Vec<DataType> = schema.fields().iter().map(|f| f.data_type().clone()).collect();
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
    footer_start: usize, block: &arrow_ipc::Block, what: &str,
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
    file: &Buffer, footer_start: usize, block: &arrow_ipc::Block, what: &str,
) -> Result<Buffer, String> {
    let (offset, meta, body) = block_range(footer_start, block, what)?;
    Ok(file.slice_with_length(offset, meta + body))
}

/// The verified message flatbuffer of a block's metadata (after the optional continuation
/// marker and the length prefix).
pub(super) fn message<'a>(meta: &'a [u8], what: &str) -> Result<arrow_ipc::Message<'a>, String> {
    let rest = if meta[..4] == [0xff; 4] { &meta[8..] } else { &meta[4..] };
    arrow_ipc::root_as_message(rest).map_err(|e| format!("{what}: message: {e}"))
}

/// A batch must be uncompressed (arrow-ipc is built without codecs), its buffers must lie
/// inside its body at 8-byte aligned offsets (as the Arrow C++ reader requires), and walking the columns' types as arrow-ipc does, every field node must
/// have a sane length and null count, a validity bitmap long enough for its length when it
/// has nulls, and buffers holding whole values. arrow-data panics on the last two before its
/// own validation runs. Returns where each column's field nodes and buffers start:
/// `(node index, buffer index)`.
pub(super) fn check_buffers(
    batch: &arrow_ipc::RecordBatch<'_>, body_len: usize, types: &[DataType], what: &str,
) -> Result<Vec<(usize, usize)>, String> {
    if batch.compression().is_some() {
        return Err(format!("{what}: compressed Arrow buffers are not supported"));
    }
    let buffers = batch.buffers().ok_or_else(|| format!("{what}: no buffer list"))?;
    let nodes = batch.nodes().ok_or_else(|| format!("{what}: no field node list"))?;
    for (i, b) in buffers.iter().enumerate() {
        let (o, l) = (b.offset(), b.length());
        if o < 0 || l < 0 || (o as i128 + l as i128) > body_len as i128 {
            return Err(format!("{what}: buffer {i} at {o}+{l} outside the {body_len}-byte body"));
        }
        // Every writer aligns buffers to 8 bytes, and the Arrow C++ reader (lib_pod5's)
        // refuses one that is not: an offset that is off its alignment is damage, and the
        // bytes it points at are not the column's.
        if o % 8 != 0 {
            return Err(format!(
                "{what}: buffer {i} does not start on an 8-byte aligned offset ({o})"
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
            return Err(format!("{what}: fewer field nodes than the schema has columns"));
        };
        self.node += 1;
        if len < 0 || nulls < 0 || nulls > len {
            return Err(format!("{what}: field node of length {len} with {nulls} nulls"));
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
            return Err(format!("{what}: validity bitmap of {} bytes for {len} values", lens[0]));
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
        t => return bad(&format!("type {t:?} with {n_children} children is not used by POD5")),
    }
    if let Some(c) = children {
        if !matches!(f.type_type(), Type::List | Type::LargeList | Type::Map | Type::Struct_)
            && !c.is_empty()
        {
            return bad("children on a type that has none");
        }
        c.iter().try_for_each(|c| check_field(&c, depth + 1))?;
    }
    Ok(())
}

/// What [`salvage`] finds in an Arrow IPC file whose footer was never written (a writer that
/// died): a footer rebuilt from its whole messages, and where those end.
pub(crate) struct Salvaged {
    /// A footer flatbuffer listing the schema, dictionary and record batch blocks found.
    pub footer: Vec<u8>,
    /// The end of the last whole message: the rebuilt footer's start.
    pub end: u64,
    /// Record batches found.
    pub batches: usize,
    /// The schema its schema message holds.
    pub schema: Schema,
}

/// Most bytes a message's metadata (flatbuffer) may take: lib_pod5's are a few KiB.
const MAX_META: u64 = 1 << 20;
/// Where the first message starts at the latest: arrow-rs pads the 8-byte magic to its
/// 64-byte alignment (lib_pod5 starts it at 8).
const FIRST_ALIGN: u64 = 64;

/// Walks the messages of the Arrow IPC file of `len` bytes (its `ARROW1` magic at 0; bytes
/// read with `read(offset, n)`) from the first on: a schema, then dictionary and record
/// batches, each whole only when its metadata and body end inside the file. Stops at the end
/// of stream, at a message cut short or not an Arrow message (what a killed writer leaves),
/// and builds the footer the file would have had over the whole ones. The schema message must
/// be whole; nothing of a record batch is read but its metadata.
pub(crate) fn salvage(
    len: u64, read: impl Fn(u64, u64) -> Result<Vec<u8>, String>,
) -> Result<Salvaged, String> {
    if len < 8 || read(0, 6)? != MAGIC[..] {
        return Err(format!("not an Arrow IPC file ({len} bytes, ARROW1 magic missing)"));
    }
    let (mut at, mut schema, mut version) = (8u64, None, arrow_ipc::MetadataVersion::V5);
    let mut dict_ids = Vec::new();
    let (mut dictionaries, mut records) = (Vec::new(), Vec::new());
    while at + 8 <= len {
        let head = read(at, 8)?;
        if at < FIRST_ALIGN && head == [0; 8] {
            // arrow-rs pads the magic to its alignment before the schema message.
            at += 8;
            continue;
        }
        let word = |i: usize| i32::from_le_bytes(head[i..i + 4].try_into().expect("4 bytes"));
        // The continuation marker, or the older length-only prefix.
        let (prefix, meta_len) = if word(0) == -1 { (8u64, word(4)) } else { (4u64, word(0)) };
        if meta_len <= 0 || meta_len as u64 > MAX_META || at + prefix + meta_len as u64 > len {
            break; // end of stream, or cut inside the metadata
        }
        let meta_total = prefix + meta_len as u64;
        let meta = read(at, meta_total)?;
        let Ok(message) = message(&meta, "message") else {
            break;
        };
        let body = message.bodyLength();
        if body < 0 || at + meta_total + body as u64 > len {
            break; // its body cut short
        }
        let block = arrow_ipc::Block::new(at as i64, meta_total as i32, body);
        match message.header_type() {
            arrow_ipc::MessageHeader::Schema if schema.is_none() => {
                let fb = message.header_as_schema().ok_or("schema message without a schema")?;
                check_schema(&fb)?;
                dict_ids = dictionary_ids(&fb);
                schema = Some(
                    arrow_ipc::convert::try_fb_to_schema(fb)
                        .map_err(|e| format!("Arrow schema: {e}"))?,
                );
                version = message.version();
            }
            arrow_ipc::MessageHeader::DictionaryBatch if schema.is_some() => {
                dictionaries.push(block)
            }
            arrow_ipc::MessageHeader::RecordBatch if schema.is_some() => records.push(block),
            _ => break,
        }
        at += meta_total + body as u64;
    }
    let schema = schema.ok_or_else(|| format!("no whole schema message in its {len} bytes"))?;
    let mut fbb = flatbuffers::FlatBufferBuilder::new();
    // The schema written again numbers its dictionaries in field order, as lib_pod5 does;
    // checked below against the ids the dictionary batches were written with.
    let mut tracker = arrow_ipc::writer::DictionaryTracker::new(false);
    let fb_schema = arrow_ipc::convert::IpcSchemaEncoder::new()
        .with_dictionary_tracker(&mut tracker)
        .schema_to_fb_offset(&mut fbb, &schema);
    let dicts = fbb.create_vector(&dictionaries);
    let recs = fbb.create_vector(&records);
    let mut footer = arrow_ipc::FooterBuilder::new(&mut fbb);
    footer.add_version(version);
    footer.add_schema(fb_schema);
    footer.add_dictionaries(dicts);
    footer.add_recordBatches(recs);
    let footer = footer.finish();
    fbb.finish(footer, None);
    let footer = fbb.finished_data().to_vec();
    let rebuilt = arrow_ipc::root_as_footer(&footer)
        .ok()
        .and_then(|f| f.schema())
        .map(|s| dictionary_ids(&s));
    if rebuilt.as_ref() != Some(&dict_ids) {
        return Err(format!(
            "its dictionary ids {dict_ids:?} are not numbered in field order: the footer \
             cannot be rebuilt"
        ));
    }
    Ok(Salvaged { footer, end: at, batches: records.len(), schema })
}

/// The dictionary ids of a schema's fields, depth first.
fn dictionary_ids(schema: &arrow_ipc::Schema<'_>) -> Vec<i64> {
    fn walk(f: arrow_ipc::Field<'_>, ids: &mut Vec<i64>, depth: usize) {
        if let Some(d) = f.dictionary() {
            ids.push(d.id());
        }
        if depth < MAX_DEPTH {
            for c in f.children().iter().flatten() {
                walk(c, ids, depth + 1);
            }
        }
    }
    let mut ids = Vec::new();
    for f in schema.fields().iter().flatten() {
        walk(f, &mut ids, 0);
    }
    ids
}

/// The Arrow IPC file in `bytes` made whole: its whole messages followed by the footer
/// [`salvage`] rebuilt, then the footer's length and the magic. Returns it and the record
/// batches it holds.
pub(crate) fn completed(bytes: &[u8]) -> Result<(Vec<u8>, usize), String> {
    let len = bytes.len() as u64;
    let s = salvage(len, |at, n| Ok(bytes[at as usize..(at + n).min(len) as usize].to_vec()))?;
    let mut file = Vec::with_capacity(s.end as usize + s.footer.len() + TAIL_LEN);
    file.extend_from_slice(&bytes[..s.end as usize]);
    file.extend_from_slice(&s.footer);
    file.extend_from_slice(&(s.footer.len() as i32).to_le_bytes());
    file.extend_from_slice(MAGIC);
    Ok((file, s.batches))
}
