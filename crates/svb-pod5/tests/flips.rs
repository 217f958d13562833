//! A POD5 whose table metadata is damaged by one flipped byte gives its own reads or an
//! error, never other values: the Arrow IPC metadata of the reads and run-info tables (every
//! message and the footer) is checked as the Arrow C++ reader checks it, alignment included.

use std::path::Path;
use svb_model::ReadSource;
use svb_pod5::{ContentType, Reader};
use svb_testdata::pod5::ipc_metadata_ranges;

#[svb_testdata::data_test]
fn a_flipped_metadata_byte_gives_the_files_reads_or_an_error(data: &Path) {
    for name in ["multi_fast5_zip.pod5", "multi_fast5_zip_v0.pod5"] {
        let path = data.join("pod5").join(name);
        let bytes = std::fs::read(&path).unwrap();
        let original = Reader::open(&path).unwrap();
        let fields: Vec<_> = (0..original.len())
            .map(|i| (original.read_id(i).unwrap(), original.fields(i).unwrap()))
            .collect();
        let tables = original.footer().contents.iter().filter(|f| {
            matches!(f.content_type, ContentType::ReadsTable | ContentType::RunInfoTable)
        });
        let (mut flips, mut refused) = (0, 0);
        for table in tables {
            let (at, len) = (table.offset as usize, table.length as usize);
            for range in ipc_metadata_ranges(&bytes[at..at + len], at) {
                for at in range {
                    let mut damaged = bytes.clone();
                    damaged[at] ^= 0x41;
                    flips += 1;
                    let Ok(r) = Reader::from_bytes(&path, damaged) else {
                        refused += 1;
                        continue;
                    };
                    let same = r.len() == fields.len()
                        && fields.iter().enumerate().all(|(i, (id, f))| {
                            r.read_id(i).is_ok_and(|x| x == *id)
                                && r.fields(i).is_ok_and(|x| format!("{x:?}") == format!("{f:?}"))
                        });
                    assert!(same, "{name}: byte {at} flipped gives other reads");
                }
            }
        }
        assert!(flips > 500 && refused > 0, "{name}: {flips} flips, {refused} refused");
    }
}
