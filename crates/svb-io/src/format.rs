//! [`FileFormat`]: the nanopore signal formats told apart by their first bytes, so that a
//! reader refuses another format by name before it reads anything else.

/// A nanopore raw-signal file format, known by its content.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FileFormat {
    /// ONT's POD5 (`\x8bPOD\r\n\x1a\n`).
    Pod5,
    /// slow5lib's binary BLOW5 (`BLOW5\x01`).
    Blow5,
    /// slow5lib's text SLOW5 (`#slow5_version`).
    Slow5,
    /// ONT's FAST5: an HDF5 file (`\x89HDF\r\n\x1a\n`).
    Fast5,
}

const POD5: &[u8] = b"\x8bPOD\r\n\x1a\n";
const BLOW5: &[u8] = b"BLOW5\x01";
const SLOW5: &[u8] = b"#slow5_version";
const HDF5: &[u8] = b"\x89HDF\r\n\x1a\n";

/// Bytes enough to tell every format apart.
pub const SNIFF_LEN: usize = 16;

impl FileFormat {
    /// Every format, in the order users meet them.
    pub const ALL: [FileFormat; 4] = [
        FileFormat::Pod5,
        FileFormat::Blow5,
        FileFormat::Slow5,
        FileFormat::Fast5,
    ];

    /// The format whose signature `head` (a file's first bytes) starts with.
    ///
    /// ```
    /// use svb_io::FileFormat;
    /// assert_eq!(FileFormat::detect(b"BLOW5\x01\x00\x02"), Some(FileFormat::Blow5));
    /// assert_eq!(FileFormat::detect(b"\x89HDF\r\n\x1a\n\0\0"), Some(FileFormat::Fast5));
    /// assert_eq!(FileFormat::detect(b"#slow5_version\t0.2.0\n"), Some(FileFormat::Slow5));
    /// assert_eq!(FileFormat::detect(&[0; 16]), None);
    /// ```
    pub fn detect(head: &[u8]) -> Option<FileFormat> {
        FileFormat::ALL
            .into_iter()
            .find(|f| head.starts_with(f.signature()))
    }

    /// The bytes a file of this format starts with.
    pub fn signature(self) -> &'static [u8] {
        match self {
            FileFormat::Pod5 => POD5,
            FileFormat::Blow5 => BLOW5,
            FileFormat::Slow5 => SLOW5,
            FileFormat::Fast5 => HDF5,
        }
    }

    /// Its name as users know it.
    pub fn name(self) -> &'static str {
        match self {
            FileFormat::Pod5 => "POD5",
            FileFormat::Blow5 => "BLOW5",
            FileFormat::Slow5 => "SLOW5 (text)",
            FileFormat::Fast5 => "FAST5 (HDF5)",
        }
    }

    /// The usual file extension, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            FileFormat::Pod5 => "pod5",
            FileFormat::Blow5 => "blow5",
            FileFormat::Slow5 => "slow5",
            FileFormat::Fast5 => "fast5",
        }
    }

    /// The format a path's extension names (case-insensitive).
    pub fn of_extension(path: &std::path::Path) -> Option<FileFormat> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        FileFormat::ALL.into_iter().find(|f| f.extension() == ext)
    }

    /// Whether the reader of this format reads files of `found` too: slow5lib's two forms
    /// (BLOW5 binary, SLOW5 text) have one reader.
    ///
    /// ```
    /// use svb_io::FileFormat;
    /// assert!(FileFormat::Blow5.reader_reads(FileFormat::Slow5));
    /// assert!(!FileFormat::Pod5.reader_reads(FileFormat::Blow5));
    /// ```
    pub fn reader_reads(self, found: FileFormat) -> bool {
        use FileFormat::{Blow5, Slow5};
        self == found || matches!((self, found), (Blow5, Slow5) | (Slow5, Blow5))
    }
}

impl std::fmt::Display for FileFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What a file starting with `head` is, said for an error: the format's name, or its first
/// bytes in hex.
pub fn describe(head: &[u8]) -> String {
    match FileFormat::detect(head) {
        Some(f) => format!("a {} file", f.name()),
        None if head.is_empty() => "empty".to_string(),
        None => {
            let hex: Vec<String> = head.iter().take(8).map(|b| format!("{b:02x}")).collect();
            format!("of no known format (it starts with {})", hex.join(" "))
        }
    }
}

/// The error of a reader of `want` given a file starting with `head`: names what the file is.
pub fn wrong_format(want: FileFormat, head: &[u8]) -> std::io::Error {
    let what = format!("not a {} file: {}", want.name(), describe(head));
    std::io::Error::new(std::io::ErrorKind::InvalidData, what)
}
