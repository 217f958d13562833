//! The three tables as the writer writes them: their Arrow schemas (those of ONT's pod5
//! 0.3.49: reads table version 4 with the 0.3.49 columns, signal table, run-info table) and
//! the record batches built from [`ReadRow`]s, signal chunks and [`RunInfo`]s.

use std::collections::HashMap;
use std::sync::Arc;

use arrow_array::builder::Int16Builder;
use arrow_array::builder::{
    FixedSizeBinaryBuilder, LargeListBuilder, ListBuilder, MapBuilder, MapFieldNames,
    StringBuilder, UInt64Builder,
};
use arrow_array::types::Int16Type;
use arrow_array::{
    Array, ArrayRef, BooleanArray, DictionaryArray, FixedSizeBinaryArray, Float32Array, Int16Array,
    LargeBinaryArray, RecordBatch, StringArray, TimestampMillisecondArray, UInt16Array,
    UInt32Array, UInt64Array, UInt8Array,
};
use arrow_buffer::{Buffer, OffsetBuffer, ScalarBuffer};
use arrow_schema::{ArrowError, DataType, Field, Schema, SchemaRef, TimeUnit};

use crate::read::ReadRow;
use crate::run_info::RunInfo;
use crate::signal::SignalEncoding;

/// The pod5 release whose table layout the writer follows (written into every table's
/// metadata and the footer).
pub(crate) const POD5_VERSION: &str = "0.3.49";

/// The schema metadata every table of one file carries.
pub(crate) fn metadata(file_identifier: &str, software: &str) -> HashMap<String, String> {
    HashMap::from([
        ("MINKNOW:file_identifier".to_string(), file_identifier.to_string()),
        ("MINKNOW:software".to_string(), software.to_string()),
        ("MINKNOW:pod5_version".to_string(), POD5_VERSION.to_string()),
    ])
}

fn extension(field: Field, name: &str) -> Field {
    field.with_metadata(HashMap::from([
        ("ARROW:extension:name".to_string(), name.to_string()),
        ("ARROW:extension:metadata".to_string(), String::new()),
    ]))
}

fn read_id_field() -> Field {
    extension(Field::new("read_id", DataType::FixedSizeBinary(16), true), "minknow.uuid")
}

fn item(ty: DataType) -> Arc<Field> {
    Arc::new(Field::new("item", ty, true))
}

/// The signal table: `read_id`, `signal` (`large_binary` of extension `minknow.vbz` or
/// `minknow.pdz`, or `large_list<int16>`), `samples`.
pub(crate) fn signal_schema(encoding: SignalEncoding, meta: HashMap<String, String>) -> SchemaRef {
    let signal = match encoding.extension_name() {
        Some(name) => extension(Field::new("signal", DataType::LargeBinary, true), name),
        None => Field::new("signal", DataType::LargeList(item(DataType::Int16)), true),
    };
    Arc::new(
        Schema::new(vec![read_id_field(), signal, Field::new("samples", DataType::UInt32, true)])
            .with_metadata(meta),
    )
}

/// A chunk of a read's signal to store: samples to encode, or a VBZ blob stored as given.
#[derive(Clone, Copy)]
pub(crate) struct ChunkRef<'a> {
    pub read_id: [u8; 16],
    /// The samples (empty when `stored`).
    pub samples: &'a [i16],
    /// A checked VBZ blob and its sample count, copied as it is.
    pub stored: Option<(&'a [u8], u32)>,
}

/// Appends the stored form of one chunk's samples to `out`: its VBZ blob (under `profile`)
/// or its PDZ block. A chunk holds at most `chunk_samples` samples (checked by the writer to
/// fit a u32), so the PDZ encoder's one refusal, a count past u32, cannot happen; zstd
/// failing to allocate aborts as it does for VBZ.
pub(crate) fn compress_chunk(
    samples: &[i16], encoding: SignalEncoding, profile: crate::ZstdProfile, out: &mut Vec<u8>,
) {
    match encoding {
        SignalEncoding::Pdz => {
            svb_pdz::encode_into(samples, out).expect("a chunk's samples fit a PDZ block");
        }
        _ => svb_vbz::pod5_blob::compress_signal_with_into(samples, profile, out),
    }
}

/// A [`ChunkRef`] that owns its data (a chunk waiting for its batch between calls).
pub(crate) struct OwnedChunk {
    read_id: [u8; 16],
    samples: Vec<i16>,
    stored: Option<(Vec<u8>, u32)>,
}

impl OwnedChunk {
    pub(crate) fn of(c: &ChunkRef<'_>) -> Self {
        OwnedChunk {
            read_id: c.read_id,
            samples: c.samples.to_vec(),
            stored: c.stored.map(|(b, n)| (b.to_vec(), n)),
        }
    }

    /// `c` kept compressed as `encoding` (under `profile` for VBZ), or its stored blob
    /// copied.
    pub(crate) fn compressed(
        c: &ChunkRef<'_>, encoding: SignalEncoding, profile: crate::ZstdProfile,
    ) -> Self {
        let stored = match c.stored {
            Some((blob, n)) => (blob.to_vec(), n),
            None => {
                let mut blob = Vec::new();
                compress_chunk(c.samples, encoding, profile, &mut blob);
                (blob, c.samples.len() as u32)
            }
        };
        OwnedChunk { read_id: c.read_id, samples: Vec::new(), stored: Some(stored) }
    }

    pub(crate) fn as_ref(&self) -> ChunkRef<'_> {
        ChunkRef {
            read_id: self.read_id,
            samples: &self.samples,
            stored: self.stored.as_ref().map(|(b, n)| (b.as_slice(), *n)),
        }
    }
}

/// VBZ signal-table rows ready to write: each row's read id and sample count, the blobs back
/// to back (one copy of each blob, given to Arrow as it is).
#[derive(Default)]
pub(crate) struct CompressedBatch {
    ids: Vec<u8>,
    samples: Vec<u32>,
    offsets: Vec<i64>,
    blobs: Vec<u8>,
}

impl CompressedBatch {
    pub(crate) fn with_capacity(rows: usize, bytes: usize) -> Self {
        let mut offsets = Vec::with_capacity(rows + 1);
        offsets.push(0);
        CompressedBatch {
            ids: Vec::with_capacity(16 * rows),
            samples: Vec::with_capacity(rows),
            offsets,
            blobs: Vec::with_capacity(bytes),
        }
    }

    pub(crate) fn push(&mut self, read_id: [u8; 16], samples: u32, blob: &[u8]) {
        if self.offsets.is_empty() {
            self.offsets.push(0);
        }
        self.ids.extend_from_slice(&read_id);
        self.samples.push(samples);
        self.blobs.extend_from_slice(blob);
        self.offsets.push(self.blobs.len() as i64);
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    /// The rows as a record batch of `schema` (the signal table's, VBZ), without copying.
    pub(crate) fn into_batch(self, schema: &SchemaRef) -> Result<RecordBatch, ArrowError> {
        let ids = FixedSizeBinaryArray::try_new(16, Buffer::from_vec(self.ids), None)?;
        let offsets = OffsetBuffer::new(ScalarBuffer::from(self.offsets));
        let blobs = LargeBinaryArray::try_new(offsets, Buffer::from_vec(self.blobs), None)?;
        RecordBatch::try_new(
            schema.clone(),
            vec![Arc::new(ids), Arc::new(blobs), Arc::new(UInt32Array::from(self.samples))],
        )
    }
}

fn ids_column(ids: impl ExactSizeIterator<Item = [u8; 16]>) -> Result<ArrayRef, ArrowError> {
    let mut b = FixedSizeBinaryBuilder::with_capacity(ids.len(), 16);
    for id in ids {
        b.append_value(id)?;
    }
    Ok(Arc::new(b.finish()))
}

/// A batch of uncompressed signal-table rows.
pub(crate) fn uncompressed_batch(
    schema: &SchemaRef, rows: &[ChunkRef<'_>],
) -> Result<RecordBatch, ArrowError> {
    let samples = rows.iter().map(|r| r.samples.len()).sum();
    let mut b = LargeListBuilder::with_capacity(Int16Builder::with_capacity(samples), rows.len())
        .with_field(item(DataType::Int16));
    for r in rows {
        b.values().append_slice(r.samples);
        b.append(true);
    }
    let samples = rows.iter().map(|r| r.samples.len() as u32);
    signal_batch(schema, rows.iter().map(|r| r.read_id), Arc::new(b.finish()), samples)
}

/// A batch of signal-table rows: their read ids, their signal column, their sample counts.
fn signal_batch(
    schema: &SchemaRef, ids: impl ExactSizeIterator<Item = [u8; 16]>, signal: ArrayRef,
    samples: impl Iterator<Item = u32>,
) -> Result<RecordBatch, ArrowError> {
    let columns = vec![ids_column(ids)?, signal, Arc::new(UInt32Array::from_iter_values(samples))];
    RecordBatch::try_new(schema.clone(), columns)
}

fn dictionary_type() -> DataType {
    DataType::Dictionary(Box::new(DataType::Int16), Box::new(DataType::Utf8))
}

/// The reads table, version 4 with the columns pod5 0.3.49 adds, in ONT's column order.
pub(crate) fn reads_schema(meta: HashMap<String, String>) -> SchemaRef {
    let f32_ = |name: &str| Field::new(name, DataType::Float32, true);
    Arc::new(
        Schema::new(vec![
            read_id_field(),
            Field::new("signal", DataType::List(item(DataType::UInt64)), true),
            Field::new("read_number", DataType::UInt32, true),
            Field::new("start", DataType::UInt64, true),
            f32_("median_before"),
            Field::new("num_minknow_events", DataType::UInt64, true),
            f32_("tracked_scaling_scale"),
            f32_("tracked_scaling_shift"),
            f32_("predicted_scaling_scale"),
            f32_("predicted_scaling_shift"),
            Field::new("num_reads_since_mux_change", DataType::UInt32, true),
            f32_("time_since_mux_change"),
            Field::new("num_samples", DataType::UInt64, true),
            Field::new("channel", DataType::UInt16, true),
            Field::new("well", DataType::UInt8, true),
            Field::new("pore_type", dictionary_type(), true),
            f32_("calibration_offset"),
            f32_("calibration_scale"),
            Field::new("end_reason", dictionary_type(), true),
            Field::new("end_reason_forced", DataType::Boolean, true),
            Field::new("run_info", dictionary_type(), true),
            f32_("open_pore_level"),
            f32_("expected_open_pore_level"),
            f32_("selected_read_level"),
            Field::new("channel_32bit", DataType::UInt32, true),
        ])
        .with_metadata(meta),
    )
}

/// The values of a dictionary column in order of first use; every batch carries all of them
/// so far (a prefix of the next batch's, which Arrow writes as a delta).
#[derive(Default)]
pub(crate) struct Dictionary {
    values: Vec<Arc<str>>,
    keys: HashMap<Arc<str>, i16>,
}

impl Dictionary {
    pub(crate) fn with(values: &[&str]) -> Self {
        let mut d = Dictionary::default();
        for v in values {
            d.key(v).expect("fewer than 2^15 values");
        }
        d
    }

    /// The key of `value` (added when new); `None` past the 32767 keys an int16 index holds.
    pub(crate) fn key(&mut self, value: &str) -> Option<i16> {
        if let Some(&k) = self.keys.get(value) {
            return Some(k);
        }
        let k = i16::try_from(self.values.len()).ok()?;
        let v: Arc<str> = Arc::from(value);
        self.values.push(v.clone());
        self.keys.insert(v, k);
        Some(k)
    }

    pub(crate) fn len(&self) -> usize {
        self.values.len()
    }

    pub(crate) fn get(&self, value: &str) -> Option<i16> {
        self.keys.get(value).copied()
    }

    fn column(&self, keys: Vec<i16>) -> Result<ArrayRef, ArrowError> {
        let values = StringArray::from_iter_values(self.values.iter().map(|v| &**v));
        Ok(Arc::new(DictionaryArray::<Int16Type>::try_new(
            Int16Array::from(keys),
            Arc::new(values),
        )?))
    }
}

/// A reads-table row waiting for its batch: the read (its `signal_rows` are the rows its
/// chunks were given) and its dictionary keys.
pub(crate) struct PendingRow {
    pub read: ReadRow,
    pub pore_type: i16,
    pub end_reason: i16,
    pub run_info: i16,
}

/// The dictionaries of the reads table.
pub(crate) struct ReadDictionaries {
    pub pore_type: Dictionary,
    pub end_reason: Dictionary,
    pub run_info: Dictionary,
}

/// A batch of reads-table rows. An unset optional field is written as ONT's writer writes an
/// unknown one (NaN, or 0 for the counters).
pub(crate) fn reads_batch(
    schema: &SchemaRef, rows: &[PendingRow], dicts: &ReadDictionaries,
) -> Result<RecordBatch, ArrowError> {
    let f32s = |f: &dyn Fn(&ReadRow) -> f32| -> ArrayRef {
        Arc::new(Float32Array::from_iter_values(rows.iter().map(|r| f(&r.read))))
    };
    let nan = |v: Option<f32>| v.unwrap_or(f32::NAN);
    let mut lists = ListBuilder::new(UInt64Builder::new()).with_field(item(DataType::UInt64));
    for r in rows {
        lists.values().append_slice(&r.read.signal_rows);
        lists.append(true);
    }
    let columns: Vec<ArrayRef> = vec![
        ids_column(rows.iter().map(|r| r.read.info.read_id))?,
        Arc::new(lists.finish()),
        Arc::new(UInt32Array::from_iter_values(rows.iter().map(|r| r.read.info.read_number))),
        Arc::new(UInt64Array::from_iter_values(rows.iter().map(|r| r.read.info.start_sample))),
        f32s(&|r| r.info.median_before),
        Arc::new(UInt64Array::from_iter_values(
            rows.iter().map(|r| r.read.info.num_minknow_events.unwrap_or(0)),
        )),
        f32s(&|r| nan(r.info.tracked_scaling_scale)),
        f32s(&|r| nan(r.info.tracked_scaling_shift)),
        f32s(&|r| nan(r.info.predicted_scaling_scale)),
        f32s(&|r| nan(r.info.predicted_scaling_shift)),
        Arc::new(UInt32Array::from_iter_values(
            rows.iter().map(|r| r.read.info.num_reads_since_mux_change.unwrap_or(0)),
        )),
        f32s(&|r| r.info.time_since_mux_change.unwrap_or(0.0)),
        Arc::new(UInt64Array::from_iter_values(rows.iter().map(|r| r.read.info.num_samples))),
        // The 16-bit column of older readers; channel_32bit holds the value.
        Arc::new(UInt16Array::from_iter_values(
            rows.iter().map(|r| u16::try_from(r.read.info.channel).unwrap_or(u16::MAX)),
        )),
        Arc::new(UInt8Array::from_iter_values(rows.iter().map(|r| r.read.info.well))),
        dicts.pore_type.column(rows.iter().map(|r| r.pore_type).collect())?,
        f32s(&|r| r.info.calibration_offset),
        f32s(&|r| r.info.calibration_scale),
        dicts.end_reason.column(rows.iter().map(|r| r.end_reason).collect())?,
        Arc::new(BooleanArray::from_iter(rows.iter().map(|r| Some(r.read.info.end_reason_forced)))),
        dicts.run_info.column(rows.iter().map(|r| r.run_info).collect())?,
        f32s(&|r| nan(r.info.open_pore_level)),
        f32s(&|r| nan(r.info.expected_open_pore_level)),
        f32s(&|r| nan(r.info.selected_read_level)),
        Arc::new(UInt32Array::from_iter_values(rows.iter().map(|r| r.read.info.channel))),
    ];
    RecordBatch::try_new(schema.clone(), columns)
}

fn map_builder() -> MapBuilder<StringBuilder, StringBuilder> {
    MapBuilder::new(
        Some(MapFieldNames { entry: "entries".into(), key: "key".into(), value: "value".into() }),
        StringBuilder::new(),
        StringBuilder::new(),
    )
}

fn map_type() -> DataType {
    map_builder().finish().data_type().clone()
}

fn timestamp_type() -> DataType {
    DataType::Timestamp(TimeUnit::Millisecond, Some("UTC".into()))
}

/// The run-info table, in ONT's column order.
pub(crate) fn run_info_schema(meta: HashMap<String, String>) -> SchemaRef {
    let s = |name: &str| Field::new(name, DataType::Utf8, true);
    Arc::new(
        Schema::new(vec![
            s("acquisition_id"),
            Field::new("acquisition_start_time", timestamp_type(), true),
            Field::new("adc_max", DataType::Int16, true),
            Field::new("adc_min", DataType::Int16, true),
            Field::new("context_tags", map_type(), true),
            s("experiment_name"),
            s("flow_cell_id"),
            s("flow_cell_product_code"),
            s("protocol_name"),
            s("protocol_run_id"),
            Field::new("protocol_start_time", timestamp_type(), true),
            s("sample_id"),
            Field::new("sample_rate", DataType::UInt16, true),
            s("sequencing_kit"),
            s("sequencer_position"),
            s("sequencer_position_type"),
            s("software"),
            s("system_name"),
            s("system_type"),
            Field::new("tracking_id", map_type(), true),
        ])
        .with_metadata(meta),
    )
}

/// A batch of one run info (ONT writes the run-info table a row a batch).
pub(crate) fn run_info_batch(schema: &SchemaRef, r: &RunInfo) -> Result<RecordBatch, ArrowError> {
    let s = |v: &str| -> ArrayRef { Arc::new(StringArray::from(vec![v])) };
    let ts = |ms: i64| -> ArrayRef {
        Arc::new(TimestampMillisecondArray::from(vec![ms]).with_timezone("UTC"))
    };
    let map = |pairs: &[(String, String)]| -> Result<ArrayRef, ArrowError> {
        let mut b = map_builder();
        for (k, v) in pairs {
            b.keys().append_value(k);
            b.values().append_value(v);
        }
        b.append(true)?;
        Ok(Arc::new(b.finish()))
    };
    RecordBatch::try_new(
        schema.clone(),
        vec![
            s(&r.acquisition_id),
            ts(r.acquisition_start_time_ms),
            Arc::new(Int16Array::from(vec![r.adc_max])),
            Arc::new(Int16Array::from(vec![r.adc_min])),
            map(&r.context_tags)?,
            s(&r.experiment_name),
            s(&r.flow_cell_id),
            s(&r.flow_cell_product_code),
            s(&r.protocol_name),
            s(&r.protocol_run_id),
            ts(r.protocol_start_time_ms),
            s(&r.sample_id),
            Arc::new(UInt16Array::from(vec![r.sample_rate])),
            s(&r.sequencing_kit),
            s(&r.sequencer_position),
            s(&r.sequencer_position_type),
            s(&r.software),
            s(&r.system_name),
            s(&r.system_type),
            map(&r.tracking_id)?,
        ],
    )
}
