//! The BLOW5 header: a 64-byte binary block (magic, version, compressions, read-group
//! count), then a length-prefixed ASCII header of read-group attributes and the record
//! schema (`#types` and `#names` lines). SLOW5 (text) starts with two `#` lines (version,
//! read-group count) and then the same text header.

use svb_model::Form;

/// How each record is compressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RecordCompression {
    /// Stored as is.
    None,
    /// One zlib stream per record.
    Zlib,
    /// One zstd frame per record.
    Zstd,
}

/// How each record's raw signal is compressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SignalCompression {
    /// i16 little-endian samples.
    None,
    /// slow5lib's SVB-ZD blob.
    SvbZd,
    /// slow5lib's ex-zd blob.
    ExZd,
}

impl std::fmt::Display for RecordCompression {
    /// The name slow5tools uses (`none`, `zlib`, `zstd`).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            RecordCompression::None => "none",
            RecordCompression::Zlib => "zlib",
            RecordCompression::Zstd => "zstd",
        })
    }
}

impl std::fmt::Display for SignalCompression {
    /// The name slow5tools uses (`none`, `svb-zd`, `ex-zd`).
    ///
    /// ```
    /// use svb_blow5::SignalCompression;
    /// assert_eq!(SignalCompression::SvbZd.to_string(), "svb-zd");
    /// ```
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            SignalCompression::None => "none",
            SignalCompression::SvbZd => "svb-zd",
            SignalCompression::ExZd => "ex-zd",
        })
    }
}

/// The type of an auxiliary field, as the `#types` line declares it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FieldType {
    /// `int8_t`, `uint8_t`, ... `double`, `char`: one little-endian value of this many bytes
    /// (the name keeps the C type).
    Scalar {
        /// C type name.
        name: String,
        /// Bytes.
        size: usize,
    },
    /// `T*`: a u64 LE count, then that many values of `size` bytes.
    Array {
        /// C type name of the items.
        name: String,
        /// Bytes per item.
        size: usize,
    },
    /// `enum{a,b,...}`: one u8 index into the labels.
    Enum(Vec<String>),
}

impl FieldType {
    /// The type as a header writes it (`int32_t`, `char*`, `enum{a,b}`): what
    /// [`FieldType::parse`] reads.
    ///
    /// ```
    /// use svb_blow5::FieldType;
    /// for t in ["uint8_t", "char*", "enum{unknown,partial}"] {
    ///     assert_eq!(FieldType::parse(t).unwrap().spelling(), t);
    /// }
    /// ```
    pub fn spelling(&self) -> String {
        match self {
            FieldType::Scalar { name, .. } => name.clone(),
            FieldType::Array { name, .. } => format!("{name}*"),
            FieldType::Enum(labels) => format!("enum{{{}}}", labels.join(",")),
        }
    }

    /// The type slow5lib writes in a header as `t` (`int32_t`, `char*`, `enum{a,b}`, ...), or
    /// `None` for a name it does not define or an enum it refuses (a label empty, twice, or
    /// not a C identifier).
    pub fn parse(t: &str) -> Option<FieldType> {
        if let Some(labels) = t.strip_prefix("enum{").and_then(|r| r.strip_suffix('}')) {
            // slow5lib's rules: C identifiers, none twice, at most 256.
            let labels: Vec<String> = labels.split(',').map(str::to_owned).collect();
            let c_label = |l: &String| {
                l.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                    && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            };
            let unique = labels.iter().collect::<std::collections::HashSet<_>>().len();
            if !labels.iter().all(c_label) || unique != labels.len() || labels.len() > 256 {
                return None;
            }
            return Some(FieldType::Enum(labels));
        }
        let (base, array) = match t.strip_suffix('*') {
            Some(b) => (b, true),
            None => (t, false),
        };
        let size = match base {
            "int8_t" | "uint8_t" | "char" => 1,
            "int16_t" | "uint16_t" => 2,
            "int32_t" | "uint32_t" | "float" => 4,
            "int64_t" | "uint64_t" | "double" => 8,
            _ => return None,
        };
        let name = base.to_owned();
        Some(if array { FieldType::Array { name, size } } else { FieldType::Scalar { name, size } })
    }
}

/// One auxiliary field of every record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AuxField {
    /// Its name (`#names` line).
    pub name: String,
    /// Its type (`#types` line).
    pub ty: FieldType,
}

/// The parsed header of a BLOW5 or SLOW5 file.
#[derive(Clone, Debug, PartialEq)]
pub struct Header {
    /// [`Form::Binary`] (BLOW5) or [`Form::Text`] (SLOW5: records are lines, never
    /// compressed).
    pub form: Form,
    /// `(major, minor, patch)`.
    pub version: (u8, u8, u8),
    /// Record compression.
    pub record_compression: RecordCompression,
    /// Signal compression (always `None` before version 0.2.0).
    pub signal_compression: SignalCompression,
    /// Per read group, its `@key` attributes in header order (`.` means unset).
    pub read_groups: Vec<Vec<(String, String)>>,
    /// The auxiliary fields after the primary ones, in record order.
    pub aux: Vec<AuxField>,
    /// Bytes from the start of the file to the first record (its first line in SLOW5).
    pub data_start: usize,
}

impl Header {
    /// The attribute `key` of read group `group`, when set.
    pub fn attribute(&self, group: usize, key: &str) -> Option<&str> {
        group_attribute(self.read_groups.get(group)?, key)
    }
}

/// The attribute `key` of a read group's `@key` attributes, when set (missing and `.` are
/// unset).
pub fn group_attribute<'a>(group: &'a [(String, String)], key: &str) -> Option<&'a str> {
    group.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str()).filter(|v| *v != ".")
}

/// The primary fields every record starts with, in this order.
pub(crate) const PRIMARY: [&str; 8] = [
    "read_id",
    "read_group",
    "digitisation",
    "offset",
    "range",
    "sampling_rate",
    "len_raw_signal",
    "raw_signal",
];

/// Magic bytes at the start of every BLOW5 file.
pub const MAGIC: &[u8; 6] = b"BLOW5\x01";

/// Every read group's `@` attributes, in header order.
pub(crate) type ReadGroups = Vec<Vec<(String, String)>>;

/// A text header's parts: every read group's attributes, the types line, the names line.
type TextHeader<'a> = (ReadGroups, &'a str, &'a str);

/// The text header as strictly as slow5lib reads it: `@ATTRIBUTE` lines (one value a read
/// group, no attribute twice), then the `#char*` types line and the `#read_id` names line,
/// each ending in a newline, and nothing after them. A line that is none of these (what a
/// value holding a newline leaves) is an error, never dropped. Returns the read groups'
/// attributes and the types and names lines.
fn parse_text(text: &str, groups: usize) -> Result<TextHeader<'_>, String> {
    let mut read_groups = vec![Vec::new(); groups];
    let mut seen = std::collections::HashSet::new();
    let mut lines = text.split_inclusive('\n').enumerate();
    fn line((n, l): (usize, &str)) -> Result<(usize, &str), String> {
        match l.strip_suffix('\n') {
            Some(l) => Ok((n + 1, l)),
            None => Err(format!("text header line {}: no newline at its end", n + 1)),
        }
    }
    let types = loop {
        let Some(next) = lines.next() else {
            return Err("text header: no #char* types line".into());
        };
        let (n, l) = line(next)?;
        if l.starts_with("#char*") {
            break l;
        }
        let Some(attr) = l.strip_prefix('@') else {
            let shown: String = l.chars().take(40).collect();
            return Err(format!(
                "text header line {n}: expected @ATTRIBUTE or #char*, found {shown:?} (an \
                 attribute value holding a newline?)"
            ));
        };
        let mut cols = attr.split('\t');
        let attr = cols.next().unwrap_or_default();
        if !seen.insert(attr) {
            return Err(format!("text header line {n}: attribute @{attr} twice"));
        }
        let values: Vec<&str> = cols.collect();
        if values.len() != groups {
            return Err(format!(
                "text header line {n}: attribute @{attr} has {} values for {groups} read groups",
                values.len()
            ));
        }
        for (g, v) in read_groups.iter_mut().zip(values) {
            g.push((attr.to_owned(), v.to_owned()));
        }
    };
    let names = match lines.next().map(line).transpose()? {
        Some((_, l)) if l.starts_with("#read_id") => l,
        _ => return Err("text header: no #read_id names line after the types line".into()),
    };
    if let Some((n, _)) = lines.next() {
        return Err(format!(
            "text header line {}: bytes after the #read_id names line (the header length \
             field says more than the header holds)",
            n + 1
        ));
    }
    Ok((read_groups, types, names))
}

/// Parses the header at the front of `file`; errors are plain descriptions.
pub(crate) fn parse(file: &[u8]) -> Result<Header, String> {
    if file.len() < 68 {
        return Err(format!("{} bytes, shorter than the 68-byte header", file.len()));
    }
    if &file[..6] != MAGIC {
        return Err(format!("magic {:02x?}, not BLOW5\\x01", &file[..6]));
    }
    let version = (file[6], file[7], file[8]);
    // slow5lib reads every version up to 1.0.0 (its header: "file version 0.2.0 is same as
    // 1.0.0") and refuses later ones.
    if version > (1, 0, 0) {
        return Err(format!(
            "version {}.{}.{} is newer than the 1.0.0 slow5lib and svb read",
            version.0, version.1, version.2
        ));
    }
    let record_compression = match file[9] {
        0 => RecordCompression::None,
        1 => RecordCompression::Zlib,
        2 => RecordCompression::Zstd,
        c => return Err(format!("record compression {c} (0 none, 1 zlib, 2 zstd)")),
    };
    let groups = u32::from_le_bytes(file[10..14].try_into().expect("4 bytes")) as usize;
    // The signal compression byte exists from version 0.2.0.
    let signal_compression = if version >= (0, 2, 0) {
        match file[14] {
            0 => SignalCompression::None,
            1 => SignalCompression::SvbZd,
            2 => SignalCompression::ExZd,
            c => return Err(format!("signal compression {c} (0 none, 1 svb-zd, 2 ex-zd)")),
        }
    } else {
        SignalCompression::None
    };
    let text_len = u32::from_le_bytes(file[64..68].try_into().expect("4 bytes")) as usize;
    let Some(text) = file.get(68..68 + text_len) else {
        return Err(format!(
            "text header of {text_len} bytes runs past the end of the {}-byte file",
            file.len()
        ));
    };
    let (read_groups, aux) = schema(text, groups)?;
    Ok(Header {
        form: Form::Binary,
        version,
        record_compression,
        signal_compression,
        read_groups,
        aux,
        data_start: 68 + text_len,
    })
}

/// The read groups and auxiliary fields of a text header (`@` lines, `#char*` types line,
/// `#read_id` names line; BLOW5's and SLOW5's are the same) announced to hold `groups` read
/// groups.
pub(crate) fn schema(text: &[u8], groups: usize) -> Result<(ReadGroups, Vec<AuxField>), String> {
    let text = std::str::from_utf8(text).map_err(|e| format!("text header: {e}"))?;
    if groups == 0 || groups > text.len() {
        return Err(format!("{groups} read groups for a {}-byte text header", text.len()));
    }
    let (read_groups, types, names) = parse_text(text, groups)?;
    let types: Vec<&str> = types[1..].split('\t').collect();
    let names: Vec<&str> = names[1..].split('\t').collect();
    if types.len() != names.len() || names.len() < PRIMARY.len() || names[..8] != PRIMARY {
        return Err(format!("record schema {names:?} does not start with {PRIMARY:?}"));
    }
    let mut aux = Vec::new();
    for (name, ty) in names[8..].iter().zip(&types[8..]) {
        let ty = FieldType::parse(ty).ok_or_else(|| {
            format!(
                "field {name}: type {ty} is none slow5lib defines (or an enum whose labels are \
                 not distinct C identifiers)"
            )
        })?;
        aux.push(AuxField { name: (*name).to_owned(), ty });
    }
    Ok((read_groups, aux))
}
