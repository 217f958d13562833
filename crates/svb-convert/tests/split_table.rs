//! `split` by a table file: RFC 4180 quoting, read ids in any UUID spelling, rows of another
//! width refused, the table's unknown ids reported, and a line too long refused in bounded
//! memory with a short message.

use std::path::{Path, PathBuf};

use svb_convert::{split_pod5, ConvertError, Run, Split, SplitBy, TableFile};
use svb_model::ReadSource;
use svb_testdata::TempDir;

fn split(input: &Path, table: &str, tmp: &TempDir, name: &str) -> Result<Split, ConvertError> {
    let path = tmp.join(&format!("{name}.csv"));
    std::fs::write(&path, table).unwrap();
    let by = SplitBy::TableFile(TableFile { path, ..TableFile::default() });
    let out = tmp.join(name);
    let options = svb_convert::SplitOptions { max_open: 16, ..Default::default() };
    split_pod5(&[input.to_path_buf()], &out, &by, options, Run::default())
}

fn ids(input: &Path) -> Vec<String> {
    let r = svb_pod5::Reader::open(input).unwrap();
    (0..r.len()).map(|i| r.read_id(i).unwrap()).collect()
}

#[svb_testdata::data_test]
fn a_table_is_read_as_csv_readers_read_it(data: &Path, tmp: &TempDir) {
    let input: PathBuf = data.join("pod5/multi_fast5_zip.pod5");
    let ids = ids(&input);
    // A quoted destination holding the separator is one value.
    let table = format!("read_id,dest\n{},\"bc,0\"\n{},bc1\n", ids[0], ids[1]);
    let got = split(&input, &table, tmp, "quoted").unwrap();
    let keys: Vec<&str> = got.outputs.iter().map(|(k, _, _)| k.as_str()).collect();
    assert_eq!(keys, ["bc,0", "bc1"]);
    // Quoted ids and names, and ids in capitals or without dashes, are the same reads.
    let table = format!(
        "\"read_id\",\"dest\"\n\"{}\",\"bc0\"\n{},bc0\n{},bc0\n",
        ids[0],
        ids[1].to_uppercase(),
        ids[2].replace('-', "")
    );
    let got = split(&input, &table, tmp, "spellings").unwrap();
    assert_eq!(got.outputs.len(), 1);
    assert_eq!(got.outputs[0].2, 3, "{got:?}");
    assert_eq!(got.unlisted as usize, ids.len() - 3);
    // Ids the inputs do not hold are counted and shown.
    let table = format!(
        "read_id\tdest\n{}\tbc0\n00000000-0000-0000-0000-000000000000\tbc1\nread_9\tbc1\n",
        ids[0]
    );
    let got = split(&input, &table, tmp, "unknown").unwrap();
    assert_eq!(got.unknown.count, 2);
    assert_eq!(got.unknown.first, ["00000000-0000-0000-0000-000000000000", "read_9"]);
    // A row wider (or narrower) than the header is an error naming its line.
    let table = format!("read_id,dest\n{},bc0\n{},bc1,extra\n", ids[0], ids[1]);
    let e = split(&input, &table, tmp, "wide").unwrap_err().to_string();
    assert!(e.contains("line 3: 3 columns, the header has 2"), "{e}");
    let table = format!("read_id,dest\n{}\n", ids[0]);
    let e = split(&input, &table, tmp, "narrow").unwrap_err().to_string();
    assert!(e.contains("line 2: 1 columns, the header has 2"), "{e}"); // Keys that differ only by case would be one file on a case-insensitive file system.
    let table = format!("read_id,dest\n{},BC1\n{},bc1\n", ids[0], ids[1]);
    let e = split(&input, &table, tmp, "case").unwrap_err().to_string();
    assert!(e.contains("\"BC1\" and \"bc1\""), "{e}");
    // A key that would make a hidden file name is given a visible one.
    let table = format!("read_id,dest\n{},.hidden\n", ids[0]);
    let got = split(&input, &table, tmp, "hidden").unwrap();
    assert!(got.outputs[0].1.ends_with("_.hidden.pod5"), "{got:?}");
}

#[svb_testdata::data_test]
fn a_line_too_long_is_refused_with_a_short_message(data: &Path, tmp: &TempDir) {
    let input: PathBuf = data.join("pod5/multi_fast5_zip.pod5");
    let table = format!("read_id,dest\n{},bc0\n", "x".repeat(3 << 20));
    let e = split(&input, &table, tmp, "long").unwrap_err().to_string();
    assert!(e.contains("a line longer than 1048576 bytes"), "{e}");
    assert!(e.len() < 300, "{} bytes of message", e.len());
    // So is a header line too long.
    let table = format!("read_id,{}\n", "y".repeat(3 << 20));
    let e = split(&input, &table, tmp, "long_header").unwrap_err().to_string();
    assert!(e.contains("a line longer than") && e.len() < 300, "{e}");
}
