//! A small POD5 writer for tests and fuzz seeds: the container, footer and table schemas of
//! ONT's current writer (table version 3+ columns), with knobs to write inconsistent files
//! on purpose. Signal compression is the caller's (`compress`), so this crate needs no codec.

use std::collections::HashMap;
use std::sync::Arc;

use arrow_array::builder::{
    FixedSizeBinaryBuilder, LargeBinaryBuilder, LargeListBuilder, ListBuilder,
};
use arrow_array::builder::{Int16Builder, MapBuilder, MapFieldNames, StringBuilder, UInt64Builder};
use arrow_array::types::Int16Type;
use arrow_array::{
    ArrayRef, BooleanArray, DictionaryArray, Float32Array, Int16Array, RecordBatch, StringArray,
    TimestampMillisecondArray, UInt16Array, UInt32Array, UInt64Array, UInt8Array,
};
use arrow_ipc::writer::FileWriter;
use arrow_schema::{DataType, Field, Schema, TimeUnit};

/// The POD5 signature.
pub const SIGNATURE: [u8; 8] = [0x8b, b'P', b'O', b'D', b'\r', b'\n', 0x1a, b'\n'];

/// A read to write.
#[derive(Debug, Clone)]
pub struct TestRead {
    /// The read id.
    pub read_id: [u8; 16],
    /// Its samples (split into chunks of [`TestFile::chunk_samples`]).
    pub signal: Vec<i16>,
    /// Read number.
    pub read_number: u32,
    /// Channel.
    pub channel: u16,
    /// Well.
    pub well: u8,
    /// Calibration offset.
    pub calibration_offset: f32,
    /// Calibration scale.
    pub calibration_scale: f32,
    /// Written instead of the real signal rows when set.
    pub signal_rows_override: Option<Vec<u64>>,
    /// Written instead of the real sample count when set.
    pub num_samples_override: Option<u64>,
    /// Written into the signal table's `samples` column for the read's chunks, in order,
    /// instead of their real counts when set.
    pub chunk_samples_override: Option<Vec<u32>>,
}

impl TestRead {
    /// A read with id bytes `[seed; 16]` and the given signal.
    pub fn new(seed: u8, signal: Vec<i16>) -> Self {
        TestRead {
            read_id: [seed; 16],
            signal,
            read_number: u32::from(seed),
            channel: 100 + u16::from(seed),
            well: 1 + seed % 4,
            calibration_offset: -3.0,
            calibration_scale: 0.25,
            signal_rows_override: None,
            num_samples_override: None,
            chunk_samples_override: None,
        }
    }
}

/// A signal compressor: samples to the stored VBZ blob.
pub type Compress<'f> = dyn Fn(&[i16]) -> Vec<u8> + 'f;

/// The file to write.
pub struct TestFile<'a> {
    /// The reads.
    pub reads: Vec<TestRead>,
    /// Samples per chunk (ONT writes 102400).
    pub chunk_samples: usize,
    /// Rows per signal-table batch (ONT writes 100).
    pub signal_batch_rows: usize,
    /// `Some(compress)` writes VBZ `large_binary` chunks; `None` uncompressed
    /// `large_list<int16>`.
    pub compress: Option<&'a Compress<'a>>,
    /// A column of the reads or run-info table removed, renamed or retyped on purpose.
    pub edit: Option<ColumnEdit>,
}

/// A table of the file, for [`ColumnEdit`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Table {
    /// The reads table.
    Reads,
    /// The run-info table.
    RunInfo,
}

/// A change to one column of a table, as a broken or foreign writer would make it.
#[derive(Clone, Debug)]
pub enum ColumnEdit {
    /// The column is left out.
    Remove(Table, String),
    /// The column is written under another name.
    Rename(Table, String, String),
    /// The column is written with another type (text, or uint8 for a text column).
    Retype(Table, String),
}

/// `(schema, columns)` with `edit` applied when it concerns `table`.
fn edit(
    edit: Option<&ColumnEdit>, table: Table, schema: Arc<Schema>, mut columns: Vec<ArrayRef>,
) -> (Arc<Schema>, Vec<ArrayRef>) {
    let (t, name) = match edit {
        Some(ColumnEdit::Remove(t, n) | ColumnEdit::Rename(t, n, _) | ColumnEdit::Retype(t, n)) => {
            (*t, n)
        }
        None => return (schema, columns),
    };
    if t != table {
        return (schema, columns);
    }
    let Some(at) = schema.fields().iter().position(|f| f.name() == name) else {
        panic!("no column {name} in the {table:?} table");
    };
    let mut fields: Vec<Field> = schema.fields().iter().map(|f| f.as_ref().clone()).collect();
    match edit.expect("matched") {
        ColumnEdit::Remove(..) => {
            fields.remove(at);
            columns.remove(at);
        }
        ColumnEdit::Rename(_, _, to) => fields[at] = fields[at].clone().with_name(to),
        ColumnEdit::Retype(..) => {
            let rows = columns[at].len();
            let (ty, col): (DataType, ArrayRef) = if *fields[at].data_type() == DataType::Utf8 {
                (DataType::UInt8, Arc::new(UInt8Array::from(vec![1u8; rows])))
            } else {
                (DataType::Utf8, Arc::new(StringArray::from(vec!["1"; rows])))
            };
            fields[at] = Field::new(name, ty, false);
            columns[at] = col;
        }
    }
    (Arc::new(Schema::new(fields).with_metadata(schema.metadata().clone())), columns)
}

/// The `map<utf8, utf8>` type of the run-info table.
fn map_type() -> DataType {
    DataType::Map(
        Arc::new(Field::new(
            "entries",
            DataType::Struct(
                vec![
                    Field::new("key", DataType::Utf8, false),
                    Field::new("value", DataType::Utf8, true),
                ]
                .into(),
            ),
            false,
        )),
        false,
    )
}

/// A one-row map column holding `pairs`.
fn map_of(pairs: &[(&str, &str)]) -> ArrayRef {
    let mut b = MapBuilder::new(
        Some(MapFieldNames { entry: "entries".into(), key: "key".into(), value: "value".into() }),
        StringBuilder::new(),
        StringBuilder::new(),
    )
    .with_values_field(Arc::new(Field::new("value", DataType::Utf8, true)));
    for (k, v) in pairs {
        b.keys().append_value(k);
        b.values().append_value(v);
    }
    b.append(true).expect("map row");
    Arc::new(b.finish())
}

const FILE_ID: &str = "1a2b3c4d-0000-4000-8000-00000000feed";
const MARKER: [u8; 16] = *b"svb-test-marker!";

fn uuid_field(name: &str) -> Field {
    Field::new(name, DataType::FixedSizeBinary(16), false).with_metadata(HashMap::from([
        ("ARROW:extension:name".to_string(), "minknow.uuid".to_string()),
        ("ARROW:extension:metadata".to_string(), String::new()),
    ]))
}

fn metadata() -> HashMap<String, String> {
    HashMap::from([
        ("MINKNOW:file_identifier".to_string(), FILE_ID.to_string()),
        ("MINKNOW:software".to_string(), "svb-testdata".to_string()),
        ("MINKNOW:pod5_version".to_string(), "0.3.49".to_string()),
    ])
}

fn ipc_file(schema: Arc<Schema>, batches: &[RecordBatch]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut w = FileWriter::try_new(&mut out, &schema).expect("schema");
    for b in batches {
        w.write(b).expect("batch");
    }
    w.finish().expect("finish");
    drop(w);
    out
}

impl TestFile<'_> {
    /// The POD5 file's bytes.
    pub fn write(&self) -> Vec<u8> {
        // Signal table rows: every read's chunks, in read order.
        let mut rows: Vec<([u8; 16], &[i16], u32)> = Vec::new();
        let mut read_rows: Vec<Vec<u64>> = Vec::new();
        for r in &self.reads {
            let mut mine = Vec::new();
            for (i, chunk) in r.signal.chunks(self.chunk_samples.max(1)).enumerate() {
                mine.push(rows.len() as u64);
                let samples = match &r.chunk_samples_override {
                    Some(s) => s[i],
                    None => chunk.len() as u32,
                };
                rows.push((r.read_id, chunk, samples));
            }
            read_rows.push(mine);
        }
        let signal_field = match self.compress {
            Some(_) => {
                Field::new("signal", DataType::LargeBinary, false).with_metadata(HashMap::from([
                    ("ARROW:extension:name".to_string(), "minknow.vbz".to_string()),
                    ("ARROW:extension:metadata".to_string(), String::new()),
                ]))
            }
            None => Field::new(
                "signal",
                DataType::LargeList(Arc::new(Field::new("item", DataType::Int16, true))),
                false,
            ),
        };
        let signal_schema = Arc::new(
            Schema::new(vec![
                uuid_field("read_id"),
                signal_field,
                Field::new("samples", DataType::UInt32, false),
            ])
            .with_metadata(metadata()),
        );
        let mut signal_batches = Vec::new();
        for part in rows.chunks(self.signal_batch_rows.max(1)) {
            let mut ids = FixedSizeBinaryBuilder::new(16);
            let mut samples = Vec::new();
            for (id, _, n) in part {
                ids.append_value(id).expect("16 bytes");
                samples.push(*n);
            }
            let signal: ArrayRef = match self.compress {
                Some(compress) => {
                    let mut b = LargeBinaryBuilder::new();
                    for (_, chunk, _) in part {
                        b.append_value(compress(chunk));
                    }
                    Arc::new(b.finish())
                }
                None => {
                    let mut b = LargeListBuilder::new(Int16Builder::new())
                        .with_field(Arc::new(Field::new("item", DataType::Int16, true)));
                    for (_, chunk, _) in part {
                        b.values().append_slice(chunk);
                        b.append(true);
                    }
                    Arc::new(b.finish())
                }
            };
            signal_batches.push(
                RecordBatch::try_new(
                    signal_schema.clone(),
                    vec![Arc::new(ids.finish()), signal, Arc::new(UInt32Array::from(samples))],
                )
                .expect("signal batch"),
            );
        }

        let dict = |name: &str, id: i64| {
            #[allow(deprecated)]
            Field::new_dict(
                name,
                DataType::Dictionary(Box::new(DataType::Int16), Box::new(DataType::Utf8)),
                false,
                id,
                false,
            )
        };
        let reads_schema = Arc::new(
            Schema::new(vec![
                uuid_field("read_id"),
                Field::new(
                    "signal",
                    DataType::List(Arc::new(Field::new("item", DataType::UInt64, true))),
                    false,
                ),
                Field::new("read_number", DataType::UInt32, false),
                Field::new("start", DataType::UInt64, false),
                Field::new("median_before", DataType::Float32, false),
                Field::new("num_minknow_events", DataType::UInt64, false),
                Field::new("tracked_scaling_scale", DataType::Float32, false),
                Field::new("tracked_scaling_shift", DataType::Float32, false),
                Field::new("predicted_scaling_scale", DataType::Float32, false),
                Field::new("predicted_scaling_shift", DataType::Float32, false),
                Field::new("num_reads_since_mux_change", DataType::UInt32, false),
                Field::new("time_since_mux_change", DataType::Float32, false),
                Field::new("num_samples", DataType::UInt64, false),
                Field::new("channel", DataType::UInt16, false),
                Field::new("well", DataType::UInt8, false),
                dict("pore_type", 1),
                Field::new("calibration_offset", DataType::Float32, false),
                Field::new("calibration_scale", DataType::Float32, false),
                dict("end_reason", 2),
                Field::new("end_reason_forced", DataType::Boolean, false),
                dict("run_info", 3),
                Field::new("open_pore_level", DataType::Float32, false),
            ])
            .with_metadata(metadata()),
        );
        let n = self.reads.len();
        let mut lists = ListBuilder::new(UInt64Builder::new());
        for (r, mine) in self.reads.iter().zip(&read_rows) {
            lists.values().append_slice(r.signal_rows_override.as_deref().unwrap_or(mine));
            lists.append(true);
        }
        let keys = || Int16Array::from(vec![0i16; n]);
        let dict_col = |v: &str| -> ArrayRef {
            Arc::new(
                DictionaryArray::<Int16Type>::try_new(keys(), Arc::new(StringArray::from(vec![v])))
                    .expect("dictionary"),
            )
        };
        let mut ids = FixedSizeBinaryBuilder::new(16);
        for r in &self.reads {
            ids.append_value(r.read_id).expect("16 bytes");
        }
        let f32s = |f: &dyn Fn(&TestRead) -> f32| -> ArrayRef {
            Arc::new(Float32Array::from(self.reads.iter().map(f).collect::<Vec<_>>()))
        };
        let reads_batch = RecordBatch::try_new(
            reads_schema.clone(),
            vec![
                Arc::new(ids.finish()),
                Arc::new(lists.finish()),
                Arc::new(UInt32Array::from_iter_values(self.reads.iter().map(|r| r.read_number))),
                Arc::new(UInt64Array::from_iter_values(
                    self.reads.iter().map(|r| 1000 * u64::from(r.read_number)),
                )),
                f32s(&|_| 200.0),
                Arc::new(UInt64Array::from(vec![0u64; n])),
                f32s(&|_| f32::NAN),
                f32s(&|_| f32::NAN),
                f32s(&|_| f32::NAN),
                f32s(&|_| f32::NAN),
                Arc::new(UInt32Array::from(vec![0u32; n])),
                f32s(&|_| 0.0),
                Arc::new(UInt64Array::from_iter_values(
                    self.reads
                        .iter()
                        .map(|r| r.num_samples_override.unwrap_or(r.signal.len() as u64)),
                )),
                Arc::new(UInt16Array::from_iter_values(self.reads.iter().map(|r| r.channel))),
                Arc::new(UInt8Array::from_iter_values(self.reads.iter().map(|r| r.well))),
                dict_col("not_set"),
                f32s(&|r| r.calibration_offset),
                f32s(&|r| r.calibration_scale),
                dict_col("signal_positive"),
                Arc::new(BooleanArray::from(vec![false; n])),
                dict_col("acq-svb-test"),
                f32s(&|_| 210.5),
            ],
        )
        .expect("reads batch");

        let text = |name: &str| Field::new(name, DataType::Utf8, false);
        let time = |name: &str| {
            Field::new(name, DataType::Timestamp(TimeUnit::Millisecond, Some("UTC".into())), false)
        };
        let map = |name: &str| Field::new(name, map_type(), false);
        let run_schema = Arc::new(
            Schema::new(vec![
                text("acquisition_id"),
                time("acquisition_start_time"),
                Field::new("adc_max", DataType::Int16, false),
                Field::new("adc_min", DataType::Int16, false),
                map("context_tags"),
                text("experiment_name"),
                text("flow_cell_id"),
                text("flow_cell_product_code"),
                text("protocol_name"),
                text("protocol_run_id"),
                time("protocol_start_time"),
                text("sample_id"),
                Field::new("sample_rate", DataType::UInt16, false),
                text("sequencing_kit"),
                text("sequencer_position"),
                text("sequencer_position_type"),
                text("software"),
                text("system_name"),
                text("system_type"),
                map("tracking_id"),
            ])
            .with_metadata(metadata()),
        );
        let one = |v: &str| -> ArrayRef { Arc::new(StringArray::from(vec![v])) };
        let ms = |v: i64| -> ArrayRef {
            Arc::new(TimestampMillisecondArray::from(vec![v]).with_timezone("UTC"))
        };
        let run_columns: Vec<ArrayRef> = vec![
            one("acq-svb-test"),
            ms(1_700_000_000_000),
            Arc::new(Int16Array::from(vec![2047i16])),
            Arc::new(Int16Array::from(vec![-2048i16])),
            map_of(&[("sample_frequency", "5000")]),
            one("svb-experiment"),
            one("FAX00000"),
            one("FLO-MIN106"),
            one("sequencing/protocol"),
            one("protocol-run-1"),
            ms(1_699_999_000_000),
            one("sample-1"),
            Arc::new(UInt16Array::from(vec![5000u16])),
            one("SQK-LSK109"),
            one("MN00000"),
            one("MinION"),
            one("MinKNOW 23.04"),
            one("host"),
            one("minion"),
            map_of(&[("run_id", "svb-run")]),
        ];
        let (reads_schema, reads_columns) =
            edit(self.edit.as_ref(), Table::Reads, reads_schema, reads_batch.columns().to_vec());
        let reads_batch =
            RecordBatch::try_new(reads_schema.clone(), reads_columns).expect("reads batch");
        let (run_schema, run_columns) =
            edit(self.edit.as_ref(), Table::RunInfo, run_schema, run_columns);
        let run_batch =
            RecordBatch::try_new(run_schema.clone(), run_columns).expect("run info batch");

        let tables = [
            (1i16, ipc_file(signal_schema, &signal_batches)),
            (4, ipc_file(run_schema, &[run_batch])),
            (0, ipc_file(reads_schema, &[reads_batch])),
        ];
        let mut out = Vec::new();
        out.extend_from_slice(&SIGNATURE);
        out.extend_from_slice(&MARKER);
        let mut embedded = Vec::new();
        for (content, bytes) in &tables {
            embedded.push((out.len() as i64, bytes.len() as i64, *content));
            out.extend_from_slice(bytes);
            out.resize(out.len().next_multiple_of(8), 0);
            out.extend_from_slice(&MARKER);
        }
        out.extend_from_slice(b"FOOTER\0\0");
        let start = out.len();
        out.extend_from_slice(&footer(&embedded));
        out.resize(out.len().next_multiple_of(8), 0);
        let footer_len = (out.len() - start) as i64;
        out.extend_from_slice(&footer_len.to_le_bytes());
        out.extend_from_slice(&MARKER);
        out.extend_from_slice(&SIGNATURE);
        out
    }
}

/// The footer flatbuffer (`Minknow.ReadsFormat.Footer`).
fn footer(embedded: &[(i64, i64, i16)]) -> Vec<u8> {
    let mut fbb = flatbuffers::FlatBufferBuilder::new();
    let files: Vec<_> = embedded
        .iter()
        .map(|&(offset, length, content)| {
            let t = fbb.start_table();
            fbb.push_slot::<i64>(4, offset, 0);
            fbb.push_slot::<i64>(6, length, 0);
            fbb.push_slot::<i16>(8, 0, 0);
            fbb.push_slot::<i16>(10, content, 0);
            fbb.end_table(t)
        })
        .collect();
    let contents = fbb.create_vector(&files);
    let id = fbb.create_string(FILE_ID);
    let software = fbb.create_string("svb-testdata");
    let version = fbb.create_string("0.3.49");
    let t = fbb.start_table();
    fbb.push_slot_always(4, id);
    fbb.push_slot_always(6, software);
    fbb.push_slot_always(8, version);
    fbb.push_slot_always(10, contents);
    let root = fbb.end_table(t);
    fbb.finish_minimal(root);
    fbb.finished_data().to_vec()
}

/// The byte ranges of an embedded Arrow IPC file `ipc` (a POD5 table, at `at` in its file)
/// that are metadata: the footer, and each dictionary's and record batch's message. What a
/// test or fuzz target damages to check a reader's table validation.
pub fn ipc_metadata_ranges(ipc: &[u8], at: usize) -> Vec<std::ops::Range<usize>> {
    let len = ipc.len();
    let footer_len = u32::from_le_bytes(ipc[len - 10..len - 6].try_into().unwrap()) as usize;
    let footer_start = len - 10 - footer_len;
    let footer = arrow_ipc::root_as_footer(&ipc[footer_start..len - 10]).unwrap();
    let mut out = Vec::new();
    out.push(at + footer_start..at + len - 10);
    let blocks = footer.dictionaries().into_iter().flatten();
    for b in blocks.chain(footer.recordBatches().into_iter().flatten()) {
        let start = at + b.offset() as usize;
        out.push(start..start + b.metaDataLength() as usize);
    }
    out
}
