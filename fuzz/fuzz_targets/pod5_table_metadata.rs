#![no_main]
//! The Arrow IPC validation of POD5's reads and run-info tables, as a property: a POD5 whose
//! table metadata (each message's flatbuffer and the footer) is damaged gives its reads or an
//! error, never other values that look like data. The input is edits, `(u16 place, xor
//! byte)` triples, of the metadata bytes of one of two files svb's writer made (reads of two
//! runs, values of every kind; the first input byte picks the file).
//!
//! Two reference checks, as no reader can tell every change of metadata from the writer's:
//! - whatever svb's reader accepts, arrow-rs's validating IPC reader decodes too (svb's checks
//!   are a superset: alignment, offsets, lengths, null counts, dictionary keys);
//! - when arrow-rs decodes the damaged tables to the very batches of the original (the damage
//!   changed nothing a reader sees), svb's reader gives the original's reads exactly: ids,
//!   every field, signals.

use std::io::Cursor;
use std::ops::Range;
use std::sync::OnceLock;

use arrow_array::RecordBatch;
use libfuzzer_sys::fuzz_target;
use svb_model::ReadSource;
use svb_pod5::{ContentType, Reader};
use svb_testdata::pod5::ipc_metadata_ranges;

struct Fixture {
    bytes: Vec<u8>,
    /// The metadata bytes' places, in file order.
    metadata: Vec<usize>,
    /// The reads and run-info tables' ranges.
    tables: Vec<Range<usize>>,
    /// The tables' batches as arrow-rs decodes them.
    batches: Vec<Vec<RecordBatch>>,
    reads: Vec<svb_model::Read>,
}

/// A file of `n` reads of two runs, values of every kind, written by svb's writer.
fn write(n: usize, chunk_samples: usize) -> Vec<u8> {
    let path =
        std::env::temp_dir().join(format!("svb-fuzz-metadata-{}-{n}.pod5", std::process::id()));
    let options = svb_pod5::WriteOptions {
        chunk_samples,
        publish: svb_io::Publish { sync: false, on_existing: svb_io::OnExisting::Replace },
        ..svb_pod5::WriteOptions::default()
    };
    let mut w = svb_pod5::Writer::create(&path, options).unwrap();
    for r in 0..2u8 {
        let run = svb_pod5::RunInfo {
            acquisition_id: format!("run-{r}"),
            sample_rate: 4000 + u16::from(r) * 1000,
            flow_cell_id: format!("FC{r}"),
            context_tags: vec![("k".into(), format!("v{r}"))],
            ..Default::default()
        };
        w.add_run_info(&run).unwrap();
    }
    for i in 0..n {
        let signal: Vec<i16> = (0..200 + 37 * i).map(|s| (s * 7 % 300) as i16 - 50).collect();
        let mut read = svb_model::ont::ReadInfo::new([i as u8 + 1; 16], format!("run-{}", i % 2));
        read.num_samples = signal.len() as u64;
        read.read_number = 100 + i as u32;
        read.channel = 1 + i as u32 * 3;
        read.well = 1 + (i % 4) as u8;
        read.start_sample = 1000 * i as u64;
        read.median_before = 200.5 + i as f32;
        read.calibration_offset = -10.0 - i as f32;
        read.calibration_scale = 0.15 + i as f32 / 100.0;
        read.end_reason = ["signal_positive", "unblock_mux_change"][i % 2].into();
        read.end_reason_forced = i % 2 == 1;
        read.num_minknow_events = Some(i as u64 * 11);
        read.tracked_scaling_scale = (i % 3 != 0).then_some(1.5);
        w.add_read(&read, &signal).unwrap();
    }
    w.finish().unwrap();
    let bytes = std::fs::read(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    bytes
}

/// Every batch of the embedded Arrow IPC file `ipc`, decoded and validated by arrow-rs.
fn arrow_batches(ipc: &[u8]) -> Result<Vec<RecordBatch>, arrow_schema::ArrowError> {
    arrow_ipc::reader::FileReader::try_new(Cursor::new(ipc), None)?.collect()
}

fn all_reads(r: &Reader) -> Result<Vec<svb_model::Read>, svb_pod5::Pod5Error> {
    (0..r.len()).map(|i| ReadSource::read(r, i)).collect()
}

fn fixtures() -> &'static [Fixture] {
    static F: OnceLock<Vec<Fixture>> = OnceLock::new();
    F.get_or_init(|| {
        [(5, 100_000), (40, 64)]
            .into_iter()
            .map(|(n, chunk)| {
                let bytes = write(n, chunk);
                let r = Reader::from_bytes("fixture.pod5", bytes.clone()).unwrap();
                let tables: Vec<Range<usize>> = r
                    .footer()
                    .contents
                    .iter()
                    .filter(|f| {
                        matches!(
                            f.content_type,
                            ContentType::ReadsTable | ContentType::RunInfoTable
                        )
                    })
                    .map(|f| f.offset as usize..(f.offset + f.length) as usize)
                    .collect();
                let metadata = tables
                    .iter()
                    .flat_map(|t| ipc_metadata_ranges(&bytes[t.clone()], t.start))
                    .flatten()
                    .collect();
                let batches =
                    tables.iter().map(|t| arrow_batches(&bytes[t.clone()]).unwrap()).collect();
                let reads = all_reads(&r).unwrap();
                Fixture { bytes, metadata, tables, batches, reads }
            })
            .collect()
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, edits)) = data.split_first() else {
        return;
    };
    let fx = &fixtures()[usize::from(pick) % 2];
    let mut damaged = fx.bytes.clone();
    for e in edits.chunks_exact(3) {
        let place = usize::from(u16::from_le_bytes([e[0], e[1]])) % fx.metadata.len();
        damaged[fx.metadata[place]] ^= e[2];
    }
    let Ok(r) = Reader::from_bytes("damaged.pod5", damaged.clone()) else {
        return;
    };
    let decoded: Vec<_> = fx.tables.iter().map(|t| arrow_batches(&damaged[t.clone()])).collect();
    for (d, t) in decoded.iter().zip(["reads", "run-info"]) {
        if let Err(e) = d {
            panic!("svb's reader accepts a {t} table that arrow-rs refuses: {e}");
        }
    }
    let same_batches =
        decoded.iter().zip(&fx.batches).all(|(d, want)| d.as_ref().is_ok_and(|d| d == want));
    let reads = all_reads(&r);
    if same_batches {
        let reads = reads.expect("the original's tables, read back");
        assert_eq!(reads.len(), fx.reads.len());
        for (got, want) in reads.iter().zip(&fx.reads) {
            assert_eq!(got.read_id, want.read_id);
            assert_eq!(got.signal, want.signal);
            assert_eq!(format!("{:?}", got.fields), format!("{:?}", want.fields));
            assert_eq!(got.calibration, want.calibration);
        }
    }
});
