//! The FAST5 writer: every read of every shared FAST5 file that svb reads, written again (VBZ,
//! gzip and plain signal) and read back: the same ids, samples and attributes, shared
//! groups written once; what it refuses, it names.

use std::sync::Arc;

use std::path::Path;
use svb_fast5::{
    AttrValue, Attrs, Fast5WriteError, Layout, ReadAttributes, ReadGroups, Reader, SignalFilter,
    WriteOptions, Writer,
};
use svb_testdata::TempDir;

/// The groups of a read as the writer takes them.
fn groups<'a>(
    read: &'a ReadAttributes, own: &'a [(String, AttrValue)], signal: &'a [i16],
) -> ReadGroups<'a> {
    ReadGroups {
        read_id: &read.read_id,
        read: own,
        raw: &read.raw,
        channel_id: &read.channel_id,
        tracking_id: &read.tracking_id,
        context_tags: &read.context_tags,
        signal,
    }
}

/// The read group's own attributes as the reader maps them.
fn own(read: &ReadAttributes) -> Vec<(String, AttrValue)> {
    let mut out = vec![("run_id".to_string(), AttrValue::Text(read.run_id.clone()))];
    if let Some(p) = &read.pore_type {
        out.push(("pore_type".into(), AttrValue::Text(p.clone())));
    }
    out
}

/// Two attribute lists hold the same values (numbers by value: the writer gives a known
/// attribute ONT's type, which may differ from an odd file's).
fn same_attrs(what: &str, a: &[(String, AttrValue)], b: &[(String, AttrValue)]) {
    let names = |x: &[(String, AttrValue)]| x.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
    let (mut an, mut bn) = (names(a), names(b));
    an.sort();
    bn.sort();
    assert_eq!(an, bn, "{what}: names");
    for (name, va) in a {
        let vb = &b.iter().find(|(n, _)| n == name).unwrap().1;
        let same = match (va.as_f64(), vb.as_f64()) {
            (Some(x), Some(y)) => x == y || (x.is_nan() && y.is_nan()) || (x as f32) == (y as f32),
            _ => va == vb,
        };
        assert!(same, "{what}/{name}: {va:?} written, {vb:?} read");
        if let (
            AttrValue::Enum { labels: la, label: l1, .. },
            AttrValue::Enum { labels: lb, label: l2, .. },
        ) = (va, vb)
        {
            assert_eq!((la, l1), (lb, l2), "{what}/{name}");
        }
    }
}

fn rewrite(input: &Reader, out: &std::path::Path, signal: SignalFilter) -> usize {
    let mut w = Writer::create(out, WriteOptions { signal, ..WriteOptions::default() }).unwrap();
    let mut written = 0;
    for i in 0..input.len() {
        let mut samples = Vec::new();
        let Ok(read) = input.read_with_signal(i, &mut samples) else {
            continue;
        };
        let own = own(&read);
        w.add_reads(&[groups(&read, &own, &samples)]).unwrap();
        written += 1;
    }
    assert_eq!(w.finish().unwrap(), written as u64);
    written
}

fn compare(input: &Reader, output: &Reader, name: &str) {
    assert_eq!(output.layout(), Layout::MultiRead);
    let mut o = 0;
    for i in 0..input.len() {
        let mut a_signal = Vec::new();
        let Ok(a) = input.read_with_signal(i, &mut a_signal) else {
            continue;
        };
        let mut b_signal = Vec::new();
        let b = output.read_with_signal(o, &mut b_signal).unwrap_or_else(|e| panic!("{name}: {e}"));
        o += 1;
        let what = format!("{name} {}", a.read_id);
        assert_eq!(a.read_id, b.read_id, "{what}");
        assert!(a_signal == b_signal, "{what}: signal");
        assert_eq!(
            (
                a.read_number,
                a.start_time,
                a.duration,
                a.start_mux,
                &a.channel_number,
                &a.run_id,
                &a.pore_type
            ),
            (
                b.read_number,
                b.start_time,
                b.duration,
                b.start_mux,
                &b.channel_number,
                &b.run_id,
                &b.pore_type
            ),
            "{what}"
        );
        assert_eq!(a.end_reason, b.end_reason, "{what}");
        for (x, y) in [
            (a.offset, b.offset),
            (a.range, b.range),
            (a.digitisation, b.digitisation),
            (a.sampling_rate, b.sampling_rate),
        ] {
            assert_eq!(x, y, "{what}");
        }
        assert!(
            a.median_before.map(f64::to_bits) == b.median_before.map(f64::to_bits)
                || a.median_before.map(|x| x as f32) == b.median_before.map(|x| x as f32),
            "{what}"
        );
        same_attrs(&format!("{what} Raw"), &a.raw, &b.raw);
        same_attrs(&format!("{what} channel_id"), &a.channel_id, &b.channel_id);
        same_attrs(&format!("{what} tracking_id"), &a.tracking_id, &b.tracking_id);
        same_attrs(&format!("{what} context_tags"), &a.context_tags, &b.context_tags);
    }
    assert_eq!(o, output.len(), "{name}");
}

#[svb_testdata::data_test]
fn every_readable_read_of_every_shared_file_round_trips(data: &Path, tmp: &TempDir) {
    let mut files = 0;
    let mut reads = 0;
    for (name, path) in svb_testdata::files_with_suffix(&data.join("fast5"), ".fast5") {
        let Ok(input) = Reader::open(&path) else {
            continue;
        };
        let filters: &[SignalFilter] = match files {
            0 => &[SignalFilter::Vbz, SignalFilter::Gzip(6), SignalFilter::None],
            _ => &[SignalFilter::Vbz],
        };
        for &filter in filters {
            let out = tmp.join(&format!("{name}.{filter:?}.fast5"));
            let n = rewrite(&input, &out, filter);
            if n == 0 {
                continue;
            }
            let output = Reader::open(&out).unwrap_or_else(|e| panic!("{name}: {e}"));
            compare(&input, &output, &name);
            reads += n;
        }
        files += 1;
    }
    assert!(files >= 40 && reads >= 100, "{files} files, {reads} reads");
}

fn text(s: &str) -> AttrValue {
    AttrValue::Text(s.into())
}

/// A read of `samples` samples with the attributes every reader needs.
fn read_of(
    id: &str, run: &Attrs, signal: &[i16],
    f: impl FnOnce(&ReadGroups<'_>) -> Result<(), Fast5WriteError>,
) -> Result<(), Fast5WriteError> {
    let raw = vec![
        ("read_id".to_string(), text(id)),
        ("read_number".to_string(), AttrValue::Int(1)),
        ("start_time".to_string(), AttrValue::UInt(0)),
        ("duration".to_string(), AttrValue::UInt(signal.len() as u64)),
        ("start_mux".to_string(), AttrValue::UInt(1)),
    ];
    let channel = vec![
        ("channel_number".to_string(), text("1")),
        ("digitisation".to_string(), AttrValue::Float(8192.0)),
        ("offset".to_string(), AttrValue::Float(0.0)),
        ("range".to_string(), AttrValue::Float(1000.0)),
        ("sampling_rate".to_string(), AttrValue::Float(4000.0)),
    ];
    let own = vec![("run_id".to_string(), text("r"))];
    f(&ReadGroups {
        read_id: id,
        read: &own,
        raw: &raw,
        channel_id: &channel,
        tracking_id: run,
        context_tags: run,
        signal,
    })
}

#[test]
fn many_reads_share_their_run_groups_and_are_found_by_id() {
    let tmp = svb_testdata::TempDir::new("fast5-writer-many");
    let out = tmp.join("many.fast5");
    let run: Attrs = Arc::from(vec![("run_id".to_string(), text("r"))]);
    let mut w = Writer::create(&out, WriteOptions::default()).unwrap();
    let mut rng = svb_testdata::Rng(7);
    let mut expected = Vec::new();
    for i in 0..600 {
        let id = format!("{:08x}-0000-4000-8000-{:012x}", rng.next() as u32, i);
        let signal = rng.walk((i % 50) * 37, 200);
        read_of(&id, &run, &signal, |g| w.add_reads(&[*g])).unwrap();
        expected.push((id, signal));
    }
    w.finish().unwrap();
    let r = Reader::open(&out).unwrap();
    assert_eq!(r.len(), 600);
    for (id, signal) in &expected {
        let i = r.find(id).unwrap();
        assert_eq!(&r.signal(i).unwrap(), signal, "{id}");
        assert_eq!(r.read(i).unwrap().run_id, "r");
    }
    // One tracking_id group for the 600 reads: the file is far smaller than 600 copies.
    let len = std::fs::metadata(&out).unwrap().len();
    assert!(len < 600 * 6_000, "{len} bytes");
}

#[test]
fn refusals_name_the_read_and_leave_no_file() {
    let tmp = svb_testdata::TempDir::new("fast5-writer-refused");
    let out = tmp.join("refused.fast5");
    let run: Attrs = Arc::from(Vec::new());
    let mut w = Writer::create(&out, WriteOptions::default()).unwrap();
    read_of("a", &run, &[1, 2], |g| w.add_reads(&[*g])).unwrap();
    let e = read_of("a", &run, &[1], |g| w.add_reads(&[*g])).unwrap_err();
    assert!(e.to_string().contains("read a: is in the file already"), "{e}");
    let e = read_of("x/y", &run, &[1], |g| w.add_reads(&[*g])).unwrap_err();
    assert!(e.to_string().contains("x/y"), "{e}");
    let too_big = vec![("start_mux".to_string(), AttrValue::UInt(300))];
    let e = read_of("b", &run, &[1], |g| w.add_reads(&[ReadGroups { raw: &too_big, ..*g }]))
        .unwrap_err();
    assert!(e.to_string().contains("Raw/start_mux"), "{e}");
    drop(w);
    assert!(tmp.entries().is_empty(), "{:?}", tmp.entries());
    let e = Writer::create(
        &out,
        WriteOptions { signal: SignalFilter::Gzip(12), ..WriteOptions::default() },
    )
    .err()
    .unwrap();
    assert!(format!("{e:?}").contains("gzip level 12"), "{e:?}");
}

/// String attributes of any size round-trip (read back by our reader, and by h5py where it is
/// installed): they are variable-length strings whose bytes are in global heap collections, as
/// h5py writes them, not in the group's object header (64 KiB at most), so a 16 MiB context tag
/// and a read id of 65,600 characters are written as they are.
#[test]
fn string_attributes_of_any_size_round_trip() {
    let tmp = svb_testdata::TempDir::new("fast5-writer-large-attributes");
    let out = tmp.join("large.fast5");
    let mut w = Writer::create(&out, WriteOptions::default()).unwrap();
    let mut kept = Vec::new();
    for (k, len) in [60_000usize, 65_400, 64 << 10, 1 << 20, 16 << 20].into_iter().enumerate() {
        let tag: Attrs = Arc::from(vec![("barcoding".to_string(), text(&"x".repeat(len)))]);
        let id = format!("read-{k}");
        read_of(&id, &tag, &[1, 2, 3], |g| {
            w.check(g)?;
            w.add_reads(&[*g])
        })
        .unwrap();
        kept.push((id, len));
    }
    let long = "r".repeat(65_600);
    let run: Attrs = Arc::from(Vec::new());
    read_of(&long, &run, &[1], |g| w.add_reads(&[*g])).unwrap();
    w.finish().unwrap();
    let r = Reader::open(&out).unwrap();
    assert_eq!(r.len(), kept.len() + 1);
    for (id, len) in &kept {
        let read = r.read(r.find(id).unwrap()).unwrap();
        let tag = read.context_tags.iter().find(|(n, _)| n == "barcoding").unwrap();
        assert_eq!(tag.1, text(&"x".repeat(*len)), "{id}");
    }
    assert_eq!(r.read(r.find(&long).unwrap()).unwrap().read_id, long);
    // h5py reads the same values.
    let script = tmp.join("tags.py");
    std::fs::write(
        &script,
        "import sys, h5py\nf = h5py.File(sys.argv[1], 'r')\nfor k in sorted(f.keys()):\n    \
         if len(k) > 1000: continue\n    \
         v = f[k]['context_tags'].attrs['barcoding']\n    \
         print(k, len(v), set(v.decode() if isinstance(v, bytes) else v))\n",
    )
    .unwrap();
    if let Some(python) = svb_testdata::python_with("h5py", "h5py") {
        let lines = svb_testdata::python_lines(&python, &script, [&out]);
        let want: Vec<String> =
            kept.iter().map(|(id, len)| format!("read_{id} {len} {{'x'}}")).collect();
        assert_eq!(lines, want);
    }
}
