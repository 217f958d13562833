//! The formats svb reads, known by content, and the input files of a command.

use std::path::{Path, PathBuf};

use svb_io::FileFormat;

use crate::ReadsError;

/// A raw-signal file format svb reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// ONT's POD5.
    Pod5,
    /// slow5lib's BLOW5.
    Blow5,
    /// slow5lib's SLOW5 text (read by the BLOW5 reader: [`AnyReader::blow5`](crate::AnyReader::blow5)).
    Slow5,
    /// ONT's FAST5 (HDF5).
    Fast5,
}

impl std::fmt::Display for Format {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl Format {
    /// Every format svb reads.
    pub const ALL: [Format; 4] = [Format::Pod5, Format::Blow5, Format::Slow5, Format::Fast5];

    /// Its name as users know it (`POD5`).
    pub fn name(self) -> &'static str {
        self.file_format().name()
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

    /// Whether files of both formats are read by one reader (BLOW5 and SLOW5 text are).
    pub fn same_reader(self, other: Format) -> bool {
        self.file_format().reader_reads(other.file_format())
    }

    fn file_format(self) -> FileFormat {
        match self {
            Format::Pod5 => FileFormat::Pod5,
            Format::Blow5 => FileFormat::Blow5,
            Format::Slow5 => FileFormat::Slow5,
            Format::Fast5 => FileFormat::Fast5,
        }
    }

    fn of_file_format(f: FileFormat) -> Option<Format> {
        Format::ALL.into_iter().find(|x| x.file_format() == f)
    }

    /// The format `path` names by its extension (case-insensitive): for outputs, which do
    /// not exist yet. `None` for a format svb does not read.
    ///
    /// ```
    /// use svb_reads::Format;
    /// assert_eq!(Format::of_extension("out/x.POD5".as_ref()), Some(Format::Pod5));
    /// assert_eq!(Format::of_extension("x.fast5".as_ref()), Some(Format::Fast5));
    /// assert_eq!(Format::of_extension("x.slow5".as_ref()), Some(Format::Slow5));
    /// assert_eq!(Format::of_extension("x.txt".as_ref()), None);
    /// ```
    pub fn of_extension(path: &Path) -> Option<Format> {
        Format::of_file_format(FileFormat::of_extension(path)?)
    }

    /// The format of the file at `path` by its content (its first bytes); a stream (a FIFO,
    /// a device), whose first bytes a look would consume, by its extension. A file of no
    /// known format is an error showing how it starts.
    pub fn detect(path: &Path) -> Result<Format, ReadsError> {
        let head = svb_io::read_head(path).map_err(|source| ReadsError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        let Some(head) = head else {
            return Format::of_extension(path).ok_or_else(|| ReadsError::NotRegular {
                path: path.to_path_buf(),
            });
        };
        match FileFormat::detect(&head).and_then(Format::of_file_format) {
            Some(f) => Ok(f),
            None => Err(ReadsError::UnknownFormat {
                path: path.to_path_buf(),
                head,
            }),
        }
    }
}

/// The files of `inputs`: each file as given, each directory's files of the formats svb
/// reads, by extension, in name order (its subdirectories' too with `recursive`; hidden
/// names skipped). All must be of one format, known by content, and there must be at least
/// one.
pub fn expand_inputs(
    inputs: &[PathBuf],
    recursive: bool,
) -> Result<(Format, Vec<PathBuf>), ReadsError> {
    let mut files = Vec::new();
    for input in inputs {
        if input.is_dir() {
            walk(input, recursive, &mut files)?;
        } else {
            files.push(input.clone());
        }
    }
    let Some(first) = files.first() else {
        return Err(ReadsError::NoInput {
            inputs: inputs.to_vec(),
            recursive,
        });
    };
    Ok((one_format(first, &files[1..])?, files))
}

/// The format of `first` and every file of `rest`, which must be the same (each known by
/// content; BLOW5 and SLOW5 text mix, one reader reads both): [`ReadsError::MixedFormats`]
/// names the first file of another.
pub fn one_format(first: &Path, rest: &[PathBuf]) -> Result<Format, ReadsError> {
    let format = Format::detect(first)?;
    for f in rest {
        let found = Format::detect(f)?;
        if !found.same_reader(format) {
            return Err(ReadsError::MixedFormats {
                path: f.clone(),
                first: first.to_path_buf(),
                expected: format,
                found,
            });
        }
    }
    Ok(format)
}

/// Collects `dir`'s files of the formats svb reads into `files`.
fn walk(dir: &Path, recursive: bool, files: &mut Vec<PathBuf>) -> Result<(), ReadsError> {
    let io = |source| ReadsError::Io {
        path: dir.to_path_buf(),
        source,
    };
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(io)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()
        .map_err(io)?;
    entries.sort();
    for path in entries {
        let hidden = path
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with('.'));
        if hidden {
            continue;
        }
        if path.is_dir() {
            if recursive {
                walk(&path, recursive, files)?;
            }
        } else if Format::of_extension(&path).is_some() {
            files.push(path);
        }
    }
    Ok(())
}
