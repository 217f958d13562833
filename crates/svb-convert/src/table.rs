//! Destination tables of `split --table`: a TSV or CSV file (RFC 4180 quoting, by the `csv`
//! crate) with a header line, a `read_id` column and a destination column, read a row at a
//! time. A split looks each row's id up among the reads of its inputs, so memory follows the
//! inputs' reads, never the table's length (a table of every read of a run, millions of
//! rows, for a few files); a line longer than [`svb_io::MAX_LINE`] is an error.

use std::collections::HashMap;
use std::io::BufRead;
use std::path::PathBuf;

use crate::error::ConvertError;

/// What a split does with a read a table sends to two destinations or more.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Several {
    /// Refuse the table, naming the read and both destinations.
    #[default]
    Refuse,
    /// Write the read to each (slow5tools split's `--demux`).
    Each,
    /// Write it once, to this destination (slow5tools split's `-u STR`), which must not be
    /// one of the table's own.
    Into(String),
}

/// What a split does with a read of the inputs that no row of the table lists.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Unlisted {
    /// Leave it out, counted ([`Split::unlisted`](crate::Split::unlisted)).
    #[default]
    LeaveOut,
    /// Refuse the split (slow5tools split's `--demux` without `-m`).
    Refuse,
    /// Write it to this destination (slow5tools split's `-m STR`).
    Into(String),
}

/// A table of destinations in a file: its path, the destination columns (none: the one
/// column other than the read ids', when there are two), the read ids' column, and what is
/// done with a read listed under several destinations and with one listed under none.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TableFile {
    /// The TSV (a tab in the header line) or CSV file.
    pub path: PathBuf,
    /// The destination columns' names. With one, a read's destination is its value; with
    /// several (`pod5 subset --columns a b`), `a-VALUE_b-VALUE` (the name `pod5 subset`
    /// gives the file by default).
    pub columns: Vec<String>,
    /// The read ids' column (`None`: `read_id`; `pod5 subset -R`).
    pub read_id_column: Option<String>,
    /// A read listed under several destinations.
    pub several: Several,
    /// A read listed under none.
    pub unlisted: Unlisted,
    /// A row's read id that is no read of the inputs is an error (slow5tools split's
    /// `--demux`), not counted ([`Split::unknown`](crate::Split::unknown)).
    pub refuse_unknown: bool,
}

/// The reads of a split's inputs by id: `(input, read)` for each, UUIDs kept as 16 bytes.
#[derive(Default)]
pub(crate) struct ReadsById {
    uuids: HashMap<[u8; 16], (u32, u32)>,
    others: HashMap<String, (u32, u32)>,
}

impl ReadsById {
    /// Adds the read `id`, `at` (input, read).
    pub(crate) fn insert(&mut self, id: &str, at: (u32, u32)) {
        match canonical_uuid(id) {
            Some(u) => {
                self.uuids.insert(u, at);
            }
            None => {
                self.others.insert(id.to_string(), at);
            }
        }
    }

    /// Adds the read whose id is the UUID `id`, `at` (input, read).
    pub(crate) fn insert_uuid(&mut self, id: [u8; 16], at: (u32, u32)) {
        self.uuids.insert(id, at);
    }

    /// The read of `id`, matched exactly (a UUID in another spelling is another id).
    fn get(&self, id: &str) -> Option<(u32, u32)> {
        match canonical_uuid(id) {
            Some(u) => self.uuids.get(&u).copied(),
            None => self.others.get(id).copied(),
        }
    }
}

/// The 16 bytes of `id` when it is a UUID in any spelling read ids are matched in
/// elsewhere (`svb_pod5::parse_uuid`'s: 32 hex digits of either case, up to 4 dashes);
/// `None` for any other id. No allocation: a table of millions of rows is looked up a row at
/// a time.
fn canonical_uuid(id: &str) -> Option<[u8; 16]> {
    let b = id.as_bytes();
    if !(32..=36).contains(&b.len()) || b.len() - 32 != b.iter().filter(|&&c| c == b'-').count() {
        return None;
    }
    let nibble = |c: u8| match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
        b'A'..=b'F' => Some(c - b'A' + 10),
        _ => None,
    };
    let mut out = [0u8; 16];
    let mut digits = b.iter().filter(|&&c| c != b'-');
    for byte in &mut out {
        let hi = nibble(*digits.next()?)?;
        let lo = nibble(*digits.next()?)?;
        *byte = hi << 4 | lo;
    }
    Some(out)
}

/// The ids of a table that are none of the inputs' reads: how many, and the first few.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Unknown {
    /// Rows whose id is no read of the inputs.
    pub count: u64,
    /// The first [`Unknown::KEPT`] of those ids, in table order.
    pub first: Vec<String>,
}

impl Unknown {
    /// How many ids are kept to show.
    pub const KEPT: usize = 5;

    fn add(&mut self, id: &str) {
        self.count += 1;
        if self.first.len() < Unknown::KEPT {
            self.first.push(id.to_string());
        }
    }
}

impl TableFile {
    /// Streams the table: for each line whose read id is one of `reads`, `assign(input,
    /// read, read id, destination)` gives that read its destination (an error from it, such
    /// as an id sent to two destinations, names the line). Lines of other ids are read and
    /// checked, not kept.
    pub(crate) fn assign(
        &self, reads: &ReadsById,
        mut assign: impl FnMut(u32, u32, &str, &str) -> Result<(), String>,
    ) -> Result<Unknown, ConvertError> {
        let path = &self.path;
        let at = |n: u64, what: String| {
            ConvertError::Mapping(format!("{}, line {n}: {what}", path.display()))
        };
        let f = std::fs::File::open(path).map_err(|e| at(0, e.to_string()))?;
        let mut text =
            std::io::BufReader::with_capacity(1 << 20, svb_io::LineLimit::new(f, svb_io::MAX_LINE));
        // The separator by the header line: a tab makes it TSV.
        let head = text.fill_buf().map_err(|e| at(1, e.to_string()))?;
        let first_line = head.split(|&b| b == b'\n').next().unwrap_or_default();
        let sep = if first_line.contains(&b'\t') { b'\t' } else { b',' };
        let mut rows = csv::ReaderBuilder::new()
            .delimiter(sep)
            .has_headers(true)
            .trim(csv::Trim::All)
            .from_reader(text);
        let line = |e: &csv::Error| e.position().map_or(0, |p| p.line());
        let csv_err = |e: csv::Error| {
            let n = line(&e);
            let what = match e.kind() {
                csv::ErrorKind::UnequalLengths { expected_len, len, .. } => {
                    format!("{len} columns, the header has {expected_len}")
                }
                csv::ErrorKind::Io(io) => io.to_string(),
                csv::ErrorKind::Utf8 { .. } => "not UTF-8 text".to_string(),
                _ => e.to_string(),
            };
            at(n, what)
        };
        let names_of: Vec<String> = match rows.headers() {
            Ok(h) if !h.is_empty() => h.iter().map(str::to_string).collect(),
            Ok(_) => return Err(at(1, "empty (a header line is needed)".into())),
            Err(e) => return Err(csv_err(e)),
        };
        let names = || {
            let shown: Vec<String> = names_of.iter().map(|n| svb_io::excerpt(n, 40)).collect();
            format!("[{}]", shown.join(", "))
        };
        let column = |c: &str| {
            names_of.iter().position(|n| n == c).ok_or_else(|| {
                at(1, format!("no column {} in {}", svb_io::excerpt(c, 40), names()))
            })
        };
        let id_col = match &self.read_id_column {
            Some(c) => column(c)?,
            None => names_of
                .iter()
                .position(|n| n == "read_id")
                .ok_or_else(|| at(1, format!("no read_id column in {}", names())))?,
        };
        let dest_cols: Vec<usize> = match &self.columns[..] {
            [] if names_of.len() == 2 => vec![1 - id_col],
            [] => {
                return Err(at(
                    1,
                    format!("{} columns: name the destination column", names_of.len()),
                ))
            }
            named => named.iter().map(|c| column(c)).collect::<Result<_, _>>()?,
        };
        let mut dest = String::new();
        let mut unknown = Unknown::default();
        // Bytes: only the two fields used are checked to be text.
        let mut row = csv::ByteRecord::new();
        loop {
            match rows.read_byte_record(&mut row) {
                Ok(true) => {}
                Ok(false) => break,
                Err(e) => return Err(csv_err(e)),
            }
            let n = row.position().map_or(0, |p| p.line());
            let text =
                |k: usize| std::str::from_utf8(&row[k]).map_err(|_| at(n, "not UTF-8 text".into()));
            let id = text(id_col)?;
            dest.clear();
            match &dest_cols[..] {
                [one] => dest.push_str(text(*one)?),
                several => {
                    for (k, &c) in several.iter().enumerate() {
                        if k > 0 {
                            dest.push('_');
                        }
                        dest.push_str(&names_of[c]);
                        dest.push('-');
                        dest.push_str(text(c)?);
                    }
                }
            }
            if id.is_empty() {
                if row.iter().all(<[u8]>::is_empty) {
                    continue;
                }
                return Err(at(n, "no read id".into()));
            }
            match reads.get(id) {
                Some((input, read)) => {
                    assign(input, read, id, &dest).map_err(|what| at(n, what))?
                }
                None => unknown.add(id),
            }
        }
        Ok(unknown)
    }
}

#[cfg(test)]
mod tests {
    use super::canonical_uuid;

    #[test]
    fn canonical_uuids_only() {
        let id = "0000173c-bf67-44e7-9a9c-1ad0bc728e74";
        let u = canonical_uuid(id).unwrap();
        assert_eq!(svb_pod5::uuid_string(&u), id);
        // Any spelling read ids are matched in elsewhere.
        for same in [
            "0000173C-BF67-44E7-9A9C-1AD0BC728E74",
            "0000173cbf6744e79a9c1ad0bc728e74",
            "0000173c-bf6744e7-9a9c-1ad0bc728e74",
        ] {
            assert_eq!(canonical_uuid(same), Some(u), "{same}");
        }
        for other in [
            "0000173c-bf67-44e7-9a9c-1ad0bc728e7",
            "0000173c-bf67-44e7-9a9c-1ad0bc728e744",
            "-0000173c-bf67-44e7-9a9c-1ad0bc728e74-",
            "0000173c-bf67-44e7-9a9c-1ad0bc728e7g",
            "0000173c-bf67-44e7-9a9c+1ad0bc728e74",
            "read_1",
            "",
        ] {
            assert_eq!(canonical_uuid(other), None, "{other}");
        }
    }
}
