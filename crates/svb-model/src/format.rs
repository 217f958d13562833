//! [`Format`]: the nanopore raw-signal formats, told apart by their first bytes, named, and
//! picked for an output by its extension; [`Form`]: BLOW5's binary and text forms.

use std::path::{Path, PathBuf};

/// A nanopore raw-signal file format, known by its content.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// ONT's POD5 (`\x8bPOD\r\n\x1a\n`).
    Pod5,
    /// slow5lib's binary BLOW5 (`BLOW5\x01`).
    Blow5,
    /// slow5lib's text SLOW5 (`#slow5_version`), read and written by the BLOW5 crate.
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

impl Format {
    /// Every format, in the order users meet them.
    pub const ALL: [Format; 4] = [Format::Pod5, Format::Blow5, Format::Slow5, Format::Fast5];

    /// The formats svb writes: an output's extension must name one
    /// ([`of_output`](Format::of_output)).
    pub const WRITTEN: [Format; 4] = [Format::Pod5, Format::Blow5, Format::Slow5, Format::Fast5];

    /// The format whose signature `head` (a file's first bytes) starts with.
    ///
    /// ```
    /// use svb_model::Format;
    /// assert_eq!(Format::detect(b"BLOW5\x01\x00\x02"), Some(Format::Blow5));
    /// assert_eq!(Format::detect(b"\x89HDF\r\n\x1a\n\0\0"), Some(Format::Fast5));
    /// assert_eq!(Format::detect(b"#slow5_version\t0.2.0\n"), Some(Format::Slow5));
    /// assert_eq!(Format::detect(&[0; 16]), None);
    /// ```
    pub fn detect(head: &[u8]) -> Option<Format> {
        Format::ALL.into_iter().find(|f| head.starts_with(f.signature()))
    }

    /// The bytes a file of this format starts with.
    pub const fn signature(self) -> &'static [u8] {
        match self {
            Format::Pod5 => POD5,
            Format::Blow5 => BLOW5,
            Format::Slow5 => SLOW5,
            Format::Fast5 => HDF5,
        }
    }

    /// Its name as users know it (`POD5`, `SLOW5 (text)`).
    pub const fn name(self) -> &'static str {
        match self {
            Format::Pod5 => "POD5",
            Format::Blow5 => "BLOW5",
            Format::Slow5 => "SLOW5 (text)",
            Format::Fast5 => "FAST5 (HDF5)",
        }
    }

    /// Its file extension, without the dot (`pod5`).
    pub fn extension(self) -> &'static str {
        match self {
            Format::Pod5 => "pod5",
            Format::Blow5 => "blow5",
            Format::Slow5 => "slow5",
            Format::Fast5 => "fast5",
        }
    }

    /// The format `path` names by its extension (case-insensitive): for outputs, which do
    /// not exist yet, and for streams, whose first bytes a look would consume. `None` for an
    /// extension of no format.
    ///
    /// ```
    /// use svb_model::Format;
    /// assert_eq!(Format::of_extension("out/x.POD5".as_ref()), Some(Format::Pod5));
    /// assert_eq!(Format::of_extension("x.fast5".as_ref()), Some(Format::Fast5));
    /// assert_eq!(Format::of_extension("x.slow5".as_ref()), Some(Format::Slow5));
    /// assert_eq!(Format::of_extension("x.txt".as_ref()), None);
    /// ```
    pub fn of_extension(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?;
        Format::ALL.into_iter().find(|f| f.extension().eq_ignore_ascii_case(ext))
    }

    /// The format an output at `path` is written in, by its extension: one of
    /// [`WRITTEN`](Format::WRITTEN), else an error that names the extensions svb writes. `-`,
    /// standard output, is SLOW5 text, as slow5tools writes to a pipe.
    ///
    /// ```
    /// use svb_model::Format;
    /// assert_eq!(Format::of_output("x.slow5".as_ref()).unwrap(), Format::Slow5);
    /// assert_eq!(Format::of_output("-".as_ref()).unwrap(), Format::Slow5);
    /// assert_eq!(Format::of_output("x.fast5".as_ref()).unwrap(), Format::Fast5);
    /// let e = Format::of_output("x.txt".as_ref()).unwrap_err();
    /// assert_eq!(e.to_string(), "x.txt: the output must end in .pod5, .blow5, .slow5 or .fast5");
    /// ```
    pub fn of_output(path: &Path) -> Result<Format, OutputFormatError> {
        if path == Path::new("-") {
            return Ok(Format::Slow5);
        }
        match Format::of_extension(path) {
            Some(f) if Format::WRITTEN.contains(&f) => Ok(f),
            found => Err(OutputFormatError { path: path.to_path_buf(), found }),
        }
    }

    /// Whether one reader reads files of both formats: slow5lib's two forms (BLOW5 binary,
    /// SLOW5 text) have one reader.
    ///
    /// ```
    /// use svb_model::Format;
    /// assert!(Format::Blow5.same_reader(Format::Slow5));
    /// assert!(!Format::Pod5.same_reader(Format::Blow5));
    /// ```
    pub fn same_reader(self, other: Format) -> bool {
        self == other || (self.form().is_some() && other.form().is_some())
    }

    /// The BLOW5 form this format is (`None` for the formats that are not slow5lib's).
    pub fn form(self) -> Option<Form> {
        match self {
            Format::Blow5 => Some(Form::Binary),
            Format::Slow5 => Some(Form::Text),
            Format::Pod5 | Format::Fast5 => None,
        }
    }
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Format {
    type Err = UnknownFormatName;

    /// A format by its extension's name, as users write it on a command line or in Python
    /// (`pod5`, `BLOW5`: any case, without the dot).
    ///
    /// ```
    /// use svb_model::Format;
    /// assert_eq!("slow5".parse::<Format>().unwrap(), Format::Slow5);
    /// assert_eq!("FAST5".parse::<Format>().unwrap(), Format::Fast5);
    /// let e = "bam".parse::<Format>().unwrap_err();
    /// assert_eq!(e.to_string(), "bam: not a format (pod5, blow5, slow5 or fast5)");
    /// ```
    fn from_str(s: &str) -> Result<Format, UnknownFormatName> {
        Format::ALL
            .into_iter()
            .find(|f| f.extension().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownFormatName(s.to_string()))
    }
}

/// A name that is no format's ([`Format`]'s `FromStr`): it says which names are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownFormatName(pub String);

impl std::fmt::Display for UnknownFormatName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = Format::ALL.iter().map(|f| f.extension()).collect();
        let (last, rest) = names.split_last().expect("some format");
        write!(f, "{}: not a format ({} or {last})", self.0, rest.join(", "))
    }
}

impl std::error::Error for UnknownFormatName {}

/// The form of one of slow5lib's files: binary BLOW5 or SLOW5 text. Both hold the same header
/// and records; one reader reads both, one writer writes either.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Form {
    /// BLOW5: a binary header, then length-prefixed (optionally compressed) records, then an
    /// end marker.
    #[default]
    Binary,
    /// SLOW5 text: a header of `#` and `@` lines, then one line a record.
    Text,
}

impl Form {
    /// The [`Format`] of a file of this form.
    pub fn format(self) -> Format {
        match self {
            Form::Binary => Format::Blow5,
            Form::Text => Format::Slow5,
        }
    }
}

/// An output whose extension names no format svb writes ([`Format::of_output`]), or a FAST5
/// output of an operation other than a conversion ([`OutputFormatError::not_written`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputFormatError {
    /// The output.
    pub path: PathBuf,
    /// The format its extension names, when the operation does not write that one.
    pub found: Option<Format>,
}

impl OutputFormatError {
    /// The error of an output at `path` in `format`, which the operation does not write
    /// (FAST5: only conversions write it).
    ///
    /// ```
    /// use svb_model::{Format, OutputFormatError};
    /// let e = OutputFormatError::not_written("x.fast5".as_ref(), Format::Fast5);
    /// assert_eq!(e.to_string(), "x.fast5: FAST5 (HDF5) is written by conversions only; this output must end in .pod5, .blow5 or .slow5");
    /// ```
    pub fn not_written(path: &Path, format: Format) -> OutputFormatError {
        OutputFormatError { path: path.to_path_buf(), found: Some(format) }
    }
}

impl std::fmt::Display for OutputFormatError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: ", self.path.display())?;
        let written: Vec<Format> = match self.found {
            Some(found) => {
                write!(f, "{found} is written by conversions only; this ")?;
                Format::WRITTEN.into_iter().filter(|w| *w != found).collect()
            }
            None => {
                write!(f, "the ")?;
                Format::WRITTEN.to_vec()
            }
        };
        let list: Vec<String> = written.iter().map(|w| format!(".{}", w.extension())).collect();
        let (last, rest) = list.split_last().expect("svb writes some format");
        write!(f, "output must end in {} or {last}", rest.join(", "))
    }
}

impl std::error::Error for OutputFormatError {}

/// What a file starting with `head` is, said for an error: the format's name, or its first
/// bytes in hex.
///
/// ```
/// assert_eq!(svb_model::describe(b"BLOW5\x01"), "a BLOW5 file");
/// assert_eq!(svb_model::describe(b"PK\x03\x04"), "of no known format (it starts with 50 4b 03 04)");
/// assert_eq!(svb_model::describe(b""), "empty");
/// ```
pub fn describe(head: &[u8]) -> String {
    match Format::detect(head) {
        Some(f) => format!("a {} file", f.name()),
        None if head.is_empty() => "empty".to_string(),
        None => {
            let hex: Vec<String> = head.iter().take(8).map(|b| format!("{b:02x}")).collect();
            format!("of no known format (it starts with {})", hex.join(" "))
        }
    }
}
