//! Recovery writes its input's format under a name that says so: an output whose extension
//! names another format is refused before anything is read or written.

use std::path::Path;
use svb_convert::{recover_blow5, recover_pod5, Run};
use svb_model::{Format, ReadSource};
use svb_testdata::TempDir;

#[svb_testdata::data_test]
fn a_recovery_is_written_in_its_inputs_format_only(data: &Path, tmp: &TempDir) {
    let blow5 = data.join("blow5/reads_zstd_svb_zd.blow5");
    let pod5 = data.join("pod5/multi_fast5_zip.pod5");
    for out in ["saved.pod5", "saved.fast5", "saved.txt"] {
        let e = recover_blow5(&blow5, &tmp.join(out), Run::default()).unwrap_err();
        assert!(e.to_string().contains(out), "{e}");
    }
    let e = recover_blow5(&blow5, &tmp.join("saved.pod5"), Run::default()).unwrap_err();
    assert!(e.to_string().contains("a BLOW5 file is recovered into its own format (.blow5"), "{e}");
    for out in ["saved.blow5", "saved.slow5"] {
        let e = recover_pod5(&pod5, &tmp.join(out), Run::default()).unwrap_err();
        assert!(e.to_string().contains("a POD5 file is recovered"), "{e}");
    }
    assert!(tmp.entries().is_empty(), "{:?}", tmp.entries());
    // Each form of BLOW5 takes the other's name: the records are rewritten.
    let saved = recover_blow5(&blow5, &tmp.join("saved.slow5"), Run::default()).unwrap();
    assert!(saved.cut.is_none() && saved.stats.reads > 0);
    let text = svb_blow5::Reader::open(tmp.join("saved.slow5")).unwrap();
    assert_eq!(text.header().form, svb_model::Form::Text);
    assert_eq!(text.len() as u64, saved.stats.reads);
}

/// Every record of `f` (BLOW5 or SLOW5), decoded.
fn records(f: &std::path::Path) -> Vec<String> {
    let r = svb_blow5::Reader::open(f).unwrap();
    r.records().map(|x| format!("{:?}", x.unwrap())).collect()
}

/// `Run` that replaces an output which exists.
fn replacing() -> Run<'static> {
    Run {
        publish: svb_io::Publish { on_existing: svb_io::OnExisting::Replace, ..Default::default() },
        ..Run::default()
    }
}

/// A BLOW5 (every compression) or SLOW5 file cut at every record boundary and inside every
/// record gives back exactly the whole records before the cut, and says where it was cut.
#[svb_testdata::data_test]
fn cut_files_give_back_every_whole_record(data: &Path, tmp: &TempDir) {
    let text = tmp.join("reads.slow5");
    let inputs = [data.join("blow5/reads_zstd_svb_zd.blow5")];
    let (compression, how) = (svb_convert::Compression::default(), Run::default());
    svb_convert::convert(&inputs, Format::Blow5, &text, Format::Slow5, compression, how).unwrap();
    for src in [
        data.join("blow5/reads_zstd_ex_zd.blow5"),
        data.join("blow5/reads_zlib_svb_zd.blow5"),
        data.join("blow5/reads_none_none.blow5"),
        text.clone(),
    ] {
        let ext = src.extension().unwrap().to_string_lossy().into_owned();
        let want = records(&src);
        let bytes = std::fs::read(&src).unwrap();
        let r = svb_blow5::Reader::open(&src).unwrap();
        // Every record boundary, the middle of every record, and the end marker cut off.
        let (mut cuts, mut boundaries) = (Vec::new(), Vec::new());
        for i in 0..r.len() {
            let (at, size) = r.record_span(i).unwrap();
            cuts.push((at as usize, i));
            cuts.push((at as usize + size as usize / 2, i));
            boundaries.push(at as usize);
        }
        let (last, size) = r.record_span(r.len() - 1).unwrap();
        cuts.push(((last + size) as usize, r.len()));
        for (cut, whole) in cuts {
            let damaged = tmp.join(&format!("cut.{ext}"));
            std::fs::write(&damaged, &bytes[..cut]).unwrap();
            let out = tmp.join(&format!("saved.{ext}"));
            let saved = recover_blow5(&damaged, &out, replacing()).unwrap();
            let what = format!("{ext} cut at {cut}");
            assert_eq!((saved.records, saved.stats.reads), (whole, whole as u64), "{what}");
            assert!(saved.stats.failed.is_empty(), "{what}");
            // SLOW5 text has no end marker: one cut between lines is a whole, shorter file.
            let looks_whole = ext == "slow5" && (boundaries.contains(&cut) || cut == bytes.len());
            assert_eq!(saved.cut.is_some(), !looks_whole, "{what}");
            assert_eq!(records(&out), want[..whole], "{what}");
        }
    }
    // A whole file is whole, and recovers to itself.
    let src = data.join("blow5/reads_zstd_svb_zd.blow5");
    let out = tmp.join("whole.blow5");
    let saved = recover_blow5(&src, &out, Run::default()).unwrap();
    assert!(saved.cut.is_none());
    assert_eq!(records(&out), records(&src));
}

/// A cut BLOW5 file with a whole record that does not decode (its sample count larger than
/// its signal): the others are saved as they were stored (the output is the input's bytes
/// without that record, with the end marker), the bad one named, by its place, as lost.
#[svb_testdata::data_test]
fn records_that_decode_are_saved_as_stored_and_the_others_named(data: &Path, tmp: &TempDir) {
    let src = data.join("blow5/reads_none_none.blow5");
    let r = svb_blow5::Reader::open(&src).unwrap();
    let mut bytes = std::fs::read(&src).unwrap();
    let (id, (off, size)) = (r.record(4).unwrap().read_id, r.record_span(4).unwrap());
    svb_testdata::blow5::set_sample_count(&mut bytes, (off, size), &id, 1 << 40);
    // The end marker and half the last record cut off.
    let (last, last_size) = r.record_span(r.len() - 1).unwrap();
    let cut = (last + last_size / 2) as usize;
    let damaged = tmp.join("damaged.blow5");
    std::fs::write(&damaged, &bytes[..cut]).unwrap();
    let out = tmp.join("saved.blow5");
    let saved = recover_blow5(&damaged, &out, Run::default()).unwrap();
    let whole = r.len() - 1;
    assert_eq!(saved.records, whole);
    assert_eq!(saved.stats.reads, whole as u64 - 1);
    assert_eq!(saved.stats.failed.len(), 1);
    let lost = format!("{:?}", saved.stats.failed[0]);
    assert!(lost.contains("damaged.blow5") && lost.contains("index: 4"), "{lost}");
    let mut want = bytes[..off as usize].to_vec();
    want.extend_from_slice(&bytes[(off + size) as usize..last as usize]);
    want.extend_from_slice(b"5WOLB");
    assert_eq!(std::fs::read(&out).unwrap(), want);
}

/// A POD5 file whose footer alone is cut (every length of it) gives back every read exactly,
/// with its runs; cut into its last table, it is refused, saying which table is cut, and
/// nothing is written.
#[svb_testdata::data_test]
fn a_pod5_without_its_footer_gives_back_every_read(data: &Path, tmp: &TempDir) {
    let reads = |f: &std::path::Path| {
        let r = svb_reads::AnyReader::open(f).unwrap();
        let all: Vec<String> = (0..r.len()).map(|i| format!("{:?}", r.read(i).unwrap())).collect();
        all
    };
    for name in [
        "pod5/multi_fast5_zip.pod5",
        "pod5/multi_fast5_zip_v0.pod5",
        "pod5/multi_fast5_zip_v4.pod5",
    ] {
        let src = data.join(name);
        let want = reads(&src);
        let bytes = std::fs::read(&src).unwrap();
        let r = svb_pod5::Reader::open(&src).unwrap();
        let tables_end = r.footer().tables_end() as usize;
        let (cut, out) = (tmp.join("cut.pod5"), tmp.join("saved.pod5"));
        // Cut anywhere in the footer: from its last byte to all of it.
        for keep in [bytes.len() - 1, bytes.len() - 8, bytes.len() - 40, tables_end + 3, tables_end]
        {
            std::fs::write(&cut, &bytes[..keep]).unwrap();
            let saved = recover_pod5(&cut, &out, replacing()).unwrap();
            let what = format!("{name} cut at {keep}");
            assert!(saved.fault.is_some(), "{what}");
            assert_eq!((saved.reads, saved.stats.reads), (r.len(), r.len() as u64));
            assert!(saved.stats.failed.is_empty(), "{what}");
            // The file's name is the saved file's: every other field and the samples.
            let same = |v: Vec<String>| v.join("\n").replace("saved.pod5", "");
            let src_name = src.file_name().unwrap().to_string_lossy().into_owned();
            assert_eq!(same(reads(&out)), same(want.clone()).replace(&src_name, ""), "{what}");
            let runs =
                |f: &std::path::Path| svb_pod5::Reader::open(f).unwrap().run_infos().to_vec();
            assert_eq!(runs(&out), runs(&src), "{what}");
        }
        // Cut inside the last table: refused, nothing written.
        std::fs::remove_file(&out).unwrap();
        std::fs::write(&cut, &bytes[..tables_end - 40]).unwrap();
        let e = recover_pod5(&cut, &out, Run::default()).unwrap_err();
        let chain = format!("{e}: {:?}", std::error::Error::source(&e));
        assert!(chain.contains("table before byte"), "{name}: {chain}");
        assert!(!out.exists());
        // A whole file recovers as it is.
        let saved = recover_pod5(&src, &out, Run::default()).unwrap();
        assert!(saved.fault.is_none());
        std::fs::remove_file(&out).unwrap();
    }
}

/// A PDZ POD5 without its footer: every read given back, each PDZ block copied as stored
/// into a PDZ file.
#[svb_testdata::data_test]
fn a_pdz_pod5_without_its_footer_keeps_its_blocks(data: &Path, tmp: &TempDir) {
    let src = data.join("pod5/multi_fast5_zip.pod5");
    let pdz = tmp.join("pdz.pod5");
    let compression = svb_convert::Compression {
        pod5_signal: Some(svb_pod5::SignalEncoding::Pdz),
        ..svb_convert::Compression::default()
    };
    svb_convert::convert(&[src], Format::Pod5, &pdz, Format::Pod5, compression, Run::default())
        .unwrap();
    let r = svb_pod5::Reader::open(&pdz).unwrap();
    let bytes = std::fs::read(&pdz).unwrap();
    let cut = tmp.join("cut.pod5");
    std::fs::write(&cut, &bytes[..bytes.len() - 8]).unwrap();
    let out = tmp.join("saved.pod5");
    let saved = recover_pod5(&cut, &out, Run::default()).unwrap();
    assert_eq!(saved.stats.reads, r.len() as u64);
    let back = svb_pod5::Reader::open(&out).unwrap();
    assert_eq!(back.signal_encoding(), svb_pod5::SignalEncoding::Pdz);
    for i in 0..r.len() {
        let j = back.find(&r.reads()[i].read_id_string()).unwrap();
        for c in 0..r.chunks(i).unwrap().len() {
            assert_eq!(back.chunk_bytes(j, c).unwrap(), r.chunk_bytes(i, c).unwrap());
        }
    }
}
