//! POD5 files with PDZ signal (ONT's second compression, `minknow.pdz`) through the
//! commands: `convert --signal pdz` writes them, every command that reads POD5 reads
//! them (info, view, get, subset, merge, convert back), and the samples and fields are the
//! VBZ original's.

mod common;
use common::{fails, ok, s, svb};

use std::path::Path;

use svb_pod5::{Reader, SignalEncoding};
use svb_testdata::TempDir;

/// Every read of `a` and `b` alike: ids, fields and samples.
fn same_reads(a: &Path, b: &Path) {
    let (a, b) = (Reader::open(a).unwrap(), Reader::open(b).unwrap());
    assert_eq!(a.len(), b.len());
    for i in 0..a.len() {
        let j = b.find(&a.reads()[i].read_id_string()).unwrap();
        let (ra, rb) = (&a.reads()[i], &b.reads()[j]);
        assert_eq!(
            (
                ra.info.channel,
                ra.info.well,
                ra.info.read_number,
                ra.info.start_sample,
                ra.info.num_samples
            ),
            (
                rb.info.channel,
                rb.info.well,
                rb.info.read_number,
                rb.info.start_sample,
                rb.info.num_samples
            )
        );
        assert_eq!(a.decode_signal(i).unwrap(), b.decode_signal(j).unwrap(), "read {i}");
    }
}

#[svb_testdata::data_test]
fn pdz_pod5_through_every_command(d: &Path, dir: &TempDir) {
    let src = d.join("pod5/multi_fast5_zip.pod5");
    let pdz = dir.join("pdz.pod5");
    ok(&svb(&["convert", s(&src), "-o", s(&pdz), "--signal", "pdz"]));
    assert_eq!(Reader::open(&pdz).unwrap().signal_encoding(), SignalEncoding::Pdz);
    same_reads(&src, &pdz);
    // Every stored chunk is the block ONT's codec makes of its samples.
    let r = Reader::open(&pdz).unwrap();
    for i in 0..r.len() {
        let signal = r.decode_signal(i).unwrap();
        let mut at = 0;
        for (k, chunk) in r.chunks(i).unwrap().iter().enumerate() {
            let n = chunk.samples as usize;
            assert_eq!(r.chunk_bytes(i, k).unwrap(), svb_pdz::encode(&signal[at..at + n]).unwrap());
            at += n;
        }
    }

    let info = ok(&svb(&["pod5", "info", s(&pdz)]));
    assert!(info.contains("signal: pdz"), "{info}");
    ok(&svb(&["pod5", "verify", s(&pdz)]));

    // get: the same samples as from the VBZ original.
    let id = r.reads()[3].read_id_string();
    let want = svb(&["get", s(&src), &id]);
    ok(&want);
    assert_eq!(svb(&["get", s(&pdz), &id]).stdout, want.stdout);

    // view: the same lines but the file's own.
    let lines =
        |p: &Path| ok(&svb(&["view", s(p)])).lines().skip(1).map(String::from).collect::<Vec<_>>();
    assert_eq!(lines(&pdz).len(), lines(&src).len());

    // subset and merge read it; back to VBZ by convert.
    let ids = dir.join("ids.txt");
    std::fs::write(&ids, format!("{id}\n")).unwrap();
    let sub = dir.join("sub.pod5");
    ok(&svb(&["subset", s(&pdz), "--read-ids", s(&ids), "-o", s(&sub)]));
    // A copy keeps its input's PDZ blocks as they are.
    let picked = Reader::open(&sub).unwrap();
    assert_eq!(picked.len(), 1);
    assert_eq!(picked.signal_encoding(), SignalEncoding::Pdz);
    let at = r.find(&id).unwrap();
    assert_eq!(picked.chunk_bytes(0, 0).unwrap(), r.chunk_bytes(at, 0).unwrap());
    let parts = dir.join("parts");
    ok(&svb(&["split", s(&pdz), "-o", s(&parts), "--files", "2"]));
    for part in std::fs::read_dir(&parts).unwrap() {
        let part = Reader::open(part.unwrap().path()).unwrap();
        assert_eq!(part.signal_encoding(), SignalEncoding::Pdz);
    }
    let merged = dir.join("merged.pod5");
    ok(&svb(&[
        "merge",
        s(&pdz),
        s(&d.join("pod5/multi_fast5_zip_v4.pod5")),
        "-o",
        s(&merged),
        "--duplicates",
        "keep-first",
    ]));
    // The first input's compression: its blocks as stored, the VBZ input's reads as PDZ.
    let m = Reader::open(&merged).unwrap();
    assert_eq!(m.signal_encoding(), SignalEncoding::Pdz);
    for i in 0..m.len() {
        let n = m.chunks(i).unwrap()[0].samples as usize;
        assert!(svb_pdz::check(&m.chunk_bytes(i, 0).unwrap(), n).is_ok());
    }
    let back = dir.join("back.pod5");
    ok(&svb(&["convert", s(&pdz), "-o", s(&back), "--signal", "vbz"]));
    assert_eq!(Reader::open(&back).unwrap().signal_encoding(), SignalEncoding::Vbz);
    same_reads(&src, &back);
    // And to BLOW5 and back to a PDZ POD5.
    let blow5 = dir.join("reads.blow5");
    ok(&svb(&["convert", s(&pdz), "-o", s(&blow5)]));
    let again = dir.join("again.pod5");
    // --pod5-signal: another name for --signal.
    ok(&svb(&["convert", s(&blow5), "-o", s(&again), "--pod5-signal", "pdz"]));
    assert_eq!(Reader::open(&again).unwrap().signal_encoding(), SignalEncoding::Pdz);

    // The choice is a POD5 output's, and decode-fast is VBZ's.
    let err = fails(&svb(&["convert", s(&src), "-o", s(&dir.join("x.blow5")), "--signal", "pdz"]));
    assert!(
        err.contains("--signal pdz: a .blow5 output's signal is svb-zd, ex-zd or none"),
        "{err}"
    );
    let err =
        fails(&svb(&["convert", s(&src), "-o", s(&dir.join("x.fast5")), "--signal", "ex-zd"]));
    assert!(err.contains("a .fast5 output's signal is vbz, gzip or none"), "{err}");
    let err = fails(&svb(&[
        "convert",
        s(&src),
        "-o",
        s(&dir.join("y.pod5")),
        "--signal",
        "pdz",
        "--decode-fast",
    ]));
    assert!(err.contains("decode-fast"), "{err}");
}
