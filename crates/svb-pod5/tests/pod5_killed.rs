//! A killed writer's files (`Reader::from_killed_writer_bytes`): the signal table without its
//! Arrow footer and the reads and run-info tables as separate footer-less Arrow files, made
//! here from a whole file's tables. Every read comes back when every table is whole; cut
//! anywhere, the tables give their whole record batches, a read whose signal rows are cut
//! off is left out and counted, and every read kept decodes to the whole file's samples.

use svb_pod5::{ContentType, Reader};
use svb_testdata::pod5::{TestFile, TestRead};

fn signal(n: usize, seed: u64) -> Vec<i16> {
    let mut rng = svb_testdata::Rng(seed * 2654435761 + 1);
    (0..n).map(|i| (300 + (i % 40) as i64 + (rng.next() % 21) as i64) as i16).collect()
}

/// A whole file and its three killed-writer parts: head + signal table, reads, run info.
fn parts() -> (Vec<u8>, Vec<u8>, Vec<u8>, Vec<u8>) {
    let compress = |s: &[i16]| svb_vbz::pod5_blob::compress_signal(s);
    let whole = TestFile {
        reads: [10usize, 999, 1000, 1001, 2500, 4000]
            .iter()
            .enumerate()
            .map(|(i, &n)| TestRead::new(i as u8 + 1, signal(n, i as u64)))
            .collect(),
        chunk_samples: 1000,
        signal_batch_rows: 2,
        compress: Some(&compress),
        edit: None,
    }
    .write();
    let r = Reader::from_bytes("whole.pod5", whole.clone()).unwrap();
    let table = |want: ContentType| {
        let f = r.footer().contents.iter().find(|f| f.content_type == want).unwrap();
        whole[f.offset as usize..(f.offset + f.length) as usize].to_vec()
    };
    let head_and_signal = [&whole[..24], &table(ContentType::SignalTable)[..]].concat();
    let reads = table(ContentType::ReadsTable);
    let runs = table(ContentType::RunInfoTable);
    (whole, head_and_signal, reads, runs)
}

#[test]
fn whole_tables_give_every_read() {
    let (whole, main, reads, runs) = parts();
    let want = Reader::from_bytes("whole.pod5", whole).unwrap();
    let (r, said) = Reader::from_killed_writer_bytes("k.pod5", main, reads, runs).unwrap();
    assert!(said.contains("killed"), "{said}");
    assert!(!said.contains("left out"), "{said}");
    assert_eq!(format!("{:?}", r.reads()), format!("{:?}", want.reads()));
    assert_eq!(r.run_infos(), want.run_infos());
    for i in 0..r.len() {
        assert_eq!(r.decode_signal(i).unwrap(), want.decode_signal(i).unwrap());
    }
}

#[test]
fn cut_tables_give_their_whole_batches() {
    let (whole, main, reads, runs) = parts();
    let want = Reader::from_bytes("whole.pod5", whole).unwrap();
    let mut counts = std::collections::BTreeSet::new();
    // The signal table cut every 97 bytes from just after its schema to its end.
    for cut in (24 + 8..=main.len()).step_by(97) {
        let got = Reader::from_killed_writer_bytes(
            "k.pod5",
            main[..cut].to_vec(),
            reads.clone(),
            runs.clone(),
        );
        let Ok((r, said)) = got else {
            // Only before the schema message is whole.
            assert!(cut < 24 + 1024, "cut at {cut}: {}", got.err().unwrap());
            continue;
        };
        counts.insert(r.len());
        if r.len() < want.len() {
            assert!(said.contains("left out"), "cut at {cut}: {said}");
        }
        for (i, read) in r.reads().iter().enumerate() {
            let j = want.find(&read.read_id_string()).unwrap();
            assert_eq!(r.decode_signal(i).unwrap(), want.decode_signal(j).unwrap());
        }
    }
    assert!(counts.len() >= 3, "cuts kept {counts:?} reads");
    // The reads table cut inside its batch: no whole batch, no reads, no error.
    let (r, _) = Reader::from_killed_writer_bytes(
        "k.pod5",
        main.clone(),
        reads[..reads.len() / 2].to_vec(),
        runs.clone(),
    )
    .unwrap();
    assert_eq!(r.len(), 0);
    // Not a POD5 file: refused.
    let mut bad = main.clone();
    bad[0] ^= 1;
    assert!(Reader::from_killed_writer_bytes("k.pod5", bad, reads.clone(), runs.clone()).is_err());
    // A reads table of another file: refused, naming the identifiers.
    let mut other = reads.clone();
    let id = r.footer().file_identifier.clone();
    let at = other.windows(id.len()).position(|w| w == id.as_bytes()).unwrap();
    other[at] = if other[at] == b'0' { b'1' } else { b'0' };
    let e = Reader::from_killed_writer_bytes("k.pod5", main, other, runs.clone()).unwrap_err();
    assert!(e.to_string().contains("file identifier"), "{e}");
}
