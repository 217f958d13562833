//! Every format's writer is a `svb_model::ReadSink`: reads written through the trait, by one
//! generic function, read back through `svb_model::ReadSource` with their ids and samples;
//! and the POD5 writer adds each read's run once, refusing a read that names another run.

use std::path::Path;
use std::sync::Arc;

use svb_fast5::AttrValue;
use svb_model::{Format, ReadSink, ReadSource};
use svb_pod5::{OntRead, ReadInfo, RunInfo};
use svb_testdata::{Rng, TempDir};

/// Writes `reads` into `w` three at a time through the trait and finishes it.
fn write_through<W: ReadSink>(mut w: W, reads: Vec<W::Read>, format: Format) -> u64
where
    W::Error: std::fmt::Debug,
{
    assert_eq!(w.format(), format);
    assert!(w.is_empty());
    let samples: u64 = reads.iter().map(W::samples).sum();
    assert!(samples > 0);
    let n = reads.len() as u64;
    let mut reads = reads.into_iter().peekable();
    while reads.peek().is_some() {
        w.add_reads(reads.by_ref().take(3).collect()).unwrap();
    }
    assert_eq!(w.len(), n);
    w.finish().unwrap()
}

/// The ids and samples of `path` (any format), read through the trait.
fn read_back(path: &Path) -> Vec<(String, Vec<i16>)> {
    let r = svb_reads::AnyReader::open(path).unwrap();
    let mut samples = Vec::new();
    (0..r.len())
        .map(|i| {
            r.signal_into(i, &mut samples).unwrap();
            (r.read_id(i).unwrap(), samples.clone())
        })
        .collect()
}

/// `got` is `want`, read by read (the ids named, not thousands of samples printed).
fn assert_same(got: Vec<(String, Vec<i16>)>, want: Vec<(String, Vec<i16>)>, what: &str) {
    assert_eq!(got.len(), want.len(), "{what}");
    for ((id, samples), (want_id, want_samples)) in got.iter().zip(&want) {
        assert_eq!(id, want_id, "{what}");
        assert!(samples == want_samples, "{what}: read {id}'s samples differ");
    }
}

/// Seven reads of random ids and signals.
fn reads() -> Vec<(String, Vec<i16>)> {
    let mut rng = Rng(0x5_1AC);
    (0..7)
        .map(|i| {
            let id: [u8; 16] = rng.bytes(16).try_into().unwrap();
            let len = 100 + (rng.next() % 3000) as usize;
            (svb_pod5::uuid_string(&id), rng.walk(len + i, 20))
        })
        .collect()
}

fn run(acquisition_id: &str, sample_rate: u16) -> Arc<RunInfo> {
    let run = RunInfo {
        acquisition_id: acquisition_id.into(),
        sample_rate,
        adc_min: -4096,
        adc_max: 4095,
        ..RunInfo::default()
    };
    Arc::new(run)
}

fn pod5_read(id: &str, signal: &[i16], run: &Arc<RunInfo>) -> OntRead {
    let mut info = ReadInfo::new(svb_pod5::parse_uuid(id).unwrap(), &*run.acquisition_id);
    info.end_reason = "signal_positive".into();
    info.pore_type = "not_set".into();
    OntRead::new(info, run.clone(), signal.to_vec())
}

#[test]
fn every_writer_is_a_sink_whose_reads_read_back() {
    let tmp = TempDir::new("convert-sink");
    let want = reads();

    let path = tmp.join("out.pod5");
    let w = svb_pod5::Writer::create(&path, Default::default()).unwrap();
    let r = run("run-a", 5000);
    let items = want.iter().map(|(id, s)| pod5_read(id, s, &r)).collect();
    assert_eq!(write_through(w, items, Format::Pod5), 7);
    assert_same(read_back(&path), want.clone(), "out.pod5");

    for (name, options, format) in [
        ("out.blow5", svb_blow5::WriteOptions::default(), Format::Blow5),
        ("out.slow5", svb_blow5::WriteOptions::slow5(), Format::Slow5),
    ] {
        let path = tmp.join(name);
        let schema = svb_blow5::Schema {
            read_groups: vec![vec![("run_id".into(), "run-a".into())]],
            aux: Vec::new(),
        };
        let w = svb_blow5::Writer::create(&path, schema, options).unwrap();
        let items = want
            .iter()
            .map(|(id, s)| svb_blow5::Record {
                read_id: id.clone(),
                digitisation: 8192.0,
                offset: 4.0,
                range: 1467.6,
                sampling_rate: 5000.0,
                raw_signal: s.clone(),
                ..Default::default()
            })
            .collect();
        assert_eq!(write_through(w, items, format), 7, "{name}");
        assert_same(read_back(&path), want.clone(), name);
    }

    let path = tmp.join("out.fast5");
    let w = svb_fast5::Writer::create(&path, Default::default()).unwrap();
    let float = |k: &str, v: f64| (k.to_string(), AttrValue::Float(v));
    let items = want
        .iter()
        .map(|(id, s)| svb_fast5::NewRead {
            read_id: id.clone(),
            read: vec![("run_id".into(), AttrValue::Text("run-a".into()))],
            raw: vec![
                ("read_id".into(), AttrValue::Text(id.clone())),
                ("read_number".into(), AttrValue::Int(7)),
                ("start_time".into(), AttrValue::UInt(4000)),
                ("duration".into(), AttrValue::UInt(s.len() as u64)),
                ("start_mux".into(), AttrValue::UInt(1)),
            ],
            channel_id: vec![
                ("channel_number".into(), AttrValue::Text("12".into())),
                float("digitisation", 8192.0),
                float("offset", 4.0),
                float("range", 1467.6),
                float("sampling_rate", 5000.0),
            ],
            signal: s.clone(),
            ..Default::default()
        })
        .collect();
    assert_eq!(write_through(w, items, Format::Fast5), 7);
    // A FAST5 file lists its reads by group name.
    let mut sorted = want.clone();
    sorted.sort();
    assert_same(read_back(&path), sorted, "out.fast5");
}

#[test]
fn a_pod5_sink_adds_each_run_once_and_keeps_the_first_of_an_acquisition() {
    let tmp = TempDir::new("convert-sink-runs");
    let want = reads();
    let path = tmp.join("runs.pod5");
    let mut w = svb_pod5::Writer::create(&path, Default::default()).unwrap();
    let (a, b) = (run("run-a", 5000), run("run-b", 4000));
    // A run of acquisition a that differs, as a later read may carry: the first one stays.
    let a_again = run("run-a", 3000);
    let items: Vec<OntRead> = want
        .iter()
        .zip([&a, &b, &a, &a_again, &b, &a, &b])
        .map(|((id, s), run)| pod5_read(id, s, run))
        .collect();
    ReadSink::add_reads(&mut w, items).unwrap();
    assert_eq!(w.run_infos(), [(*a).clone(), (*b).clone()]);
    ReadSink::finish(w).unwrap();
    let r = svb_pod5::Reader::open(&path).unwrap();
    assert_eq!(r.run_infos().len(), 2);
    assert_eq!(r.run_of(3).unwrap().sample_rate, 5000);

    // A read whose row names another run than the one it carries is refused, and so is the
    // whole call: nothing of it is written.
    let path = tmp.join("wrong.pod5");
    let mut w = svb_pod5::Writer::create(&path, Default::default()).unwrap();
    let mut wrong = pod5_read(&want[1].0, &want[1].1, &a);
    wrong.run = b.clone();
    let good = pod5_read(&want[0].0, &want[0].1, &a);
    let e = ReadSink::add_reads(&mut w, vec![good, wrong]).unwrap_err();
    let text = e.to_string();
    assert!(text.contains(&want[1].0) && text.contains("names run run-a"), "{text}");
    assert_eq!(ReadSink::len(&w), 0);
}
