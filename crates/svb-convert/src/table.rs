//! Destination tables of `split --table`: a TSV or CSV file with a header line, a `read_id`
//! column and a destination column, read a line at a time. A split looks each line's id up
//! among the reads of its inputs, so memory follows the inputs' reads, never the table's
//! length (a table of every read of a run, millions of lines, for a few files).

use std::collections::HashMap;
use std::io::BufRead;
use std::path::PathBuf;

use crate::ConvertError;

/// A table of destinations in a file: its path, and the destination column (`None`: the one
/// column other than `read_id`, when there are two).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableFile {
    /// The TSV (a tab in the header line) or CSV file.
    pub path: PathBuf,
    /// The destination column's name.
    pub column: Option<String>,
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

/// The 16 bytes of `id` when it is a UUID as read ids are written (36 characters, lowercase
/// hex, dashes after 8, 12, 16 and 20 digits); `None` for any other id. No allocation: a
/// table of millions of lines is looked up a line at a time.
fn canonical_uuid(id: &str) -> Option<[u8; 16]> {
    let b = id.as_bytes();
    if b.len() != 36 || [8, 13, 18, 23].iter().any(|&i| b[i] != b'-') {
        return None;
    }
    let nibble = |c: u8| match c {
        b'0'..=b'9' => Some(c - b'0'),
        b'a'..=b'f' => Some(c - b'a' + 10),
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

impl TableFile {
    /// Streams the table: for each line whose read id is one of `reads`, `assign(input,
    /// read, read id, destination)` gives that read its destination (an error from it, such
    /// as an id sent to two destinations, names the line). Lines of other ids are read and
    /// checked, not kept.
    pub(crate) fn assign(
        &self,
        reads: &ReadsById,
        mut assign: impl FnMut(u32, u32, &str, &str) -> Result<(), String>,
    ) -> Result<(), ConvertError> {
        let path = &self.path;
        let at = |n: usize, what: String| {
            ConvertError::Mapping(format!("{}, line {n}: {what}", path.display()))
        };
        let f = std::fs::File::open(path).map_err(|e| at(0, e.to_string()))?;
        let mut lines = std::io::BufReader::with_capacity(1 << 20, f);
        let mut header = String::new();
        match lines.read_line(&mut header) {
            Ok(0) => return Err(at(1, "empty (a header line is needed)".into())),
            Ok(_) => {}
            Err(e) => return Err(at(1, e.to_string())),
        }
        let header = header.trim_end_matches(['\n', '\r']);
        let sep = if header.contains('\t') { '\t' } else { ',' };
        let names_of: Vec<&str> = header.split(sep).map(str::trim).collect();
        let id_col = names_of
            .iter()
            .position(|n| *n == "read_id")
            .ok_or_else(|| at(1, format!("no read_id column in {names_of:?}")))?;
        let dest_col = match &self.column {
            Some(c) => names_of
                .iter()
                .position(|n| n == c)
                .ok_or_else(|| at(1, format!("no column {c:?} in {names_of:?}")))?,
            None if names_of.len() == 2 => 1 - id_col,
            None => {
                return Err(at(
                    1,
                    format!("{} columns: name the destination column", names_of.len()),
                ))
            }
        };
        let mut line = String::new();
        for n in 2.. {
            line.clear();
            match lines.read_line(&mut line) {
                Ok(0) => break,
                Ok(_) => {}
                Err(e) => return Err(at(n, e.to_string())),
            }
            let line = line.trim_end_matches(['\n', '\r']);
            if line.trim().is_empty() {
                continue;
            }
            let mut cols = line.split(sep).map(str::trim);
            let count = || line.split(sep).count();
            let (id, dest) = if id_col < dest_col {
                (cols.nth(id_col), cols.nth(dest_col - id_col - 1))
            } else {
                let dest = cols.nth(dest_col);
                (cols.nth(id_col - dest_col - 1), dest)
            };
            let (Some(id), Some(dest)) = (id, dest) else {
                let what = format!("{} columns, the header has {}", count(), names_of.len());
                return Err(at(n, what));
            };
            if let Some((input, read)) = reads.get(id) {
                assign(input, read, id, dest).map_err(|what| at(n, what))?;
            }
        }
        Ok(())
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
        for other in [
            "0000173C-BF67-44E7-9A9C-1AD0BC728E74",
            "0000173cbf6744e79a9c1ad0bc728e74",
            "0000173c-bf67-44e7-9a9c-1ad0bc728e7",
            "0000173c-bf67-44e7-9a9c-1ad0bc728e7g",
            "0000173c-bf67-44e7-9a9c+1ad0bc728e74",
            "read_1",
            "",
        ] {
            assert_eq!(canonical_uuid(other), None, "{other}");
        }
    }
}
