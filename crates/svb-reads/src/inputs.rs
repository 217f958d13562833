//! The input files of a command: files and directories expanded to the files of one format,
//! each known by content.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use svb_model::Format;

use crate::ReadsError;

/// The format of the file at `path` by its content (its first bytes:
/// [`Format::detect`]); a stream (a FIFO, a device), whose first bytes a look would consume,
/// by its extension. A file of no known format is an error showing how it starts.
pub fn detect(path: &Path) -> Result<Format, ReadsError> {
    let guess = Format::of_extension(path).map(crate::file_kind);
    let head = svb_io::read_head(path, svb_model::SNIFF_LEN, guess.as_ref()).map_err(|source| {
        ReadsError::Io { path: path.to_path_buf(), source: url_said(path, source) }
    })?;
    let Some(head) = head else {
        return Format::of_extension(path)
            .ok_or_else(|| ReadsError::NotRegular { path: path.to_path_buf() });
    };
    Format::detect(&head)
        .ok_or_else(|| ReadsError::UnknownFormat { path: path.to_path_buf(), head })
}

/// `e`, an error reading `path`, said as a misspelt URL where the path is not there and reads as
/// one (`htps://...`, `s3//...`: [`svb_io::misspelt_url`]).
fn url_said(path: &Path, e: std::io::Error) -> std::io::Error {
    match svb_io::misspelt_url(path) {
        Some(what) if e.kind() == std::io::ErrorKind::NotFound => {
            std::io::Error::new(std::io::ErrorKind::NotFound, what)
        }
        _ => e,
    }
}

/// Whether `input` names many files: a directory, or a URL prefix or pattern
/// ([`svb_io::list_objects`]: `s3://bucket/run/`, `s3://bucket/run/*.pod5`).
pub fn names_many(input: &Path) -> bool {
    match svb_io::url_of(input) {
        Some(url) => svb_io::names_many_objects(url),
        None => input.is_dir(),
    }
}

/// The files of `inputs`: each file as given, each directory's files of the formats svb
/// reads, by extension, in name order (its subdirectories' too with `recursive`; hidden
/// names skipped). Each directory is walked once, however many links lead to it (a link
/// back up the tree is not followed again). All must be of one format, known by content, and
/// there must be at least one. A FIFO, socket or device a walk finds is not an input (it
/// would be waited on, or read as a stream): it is left aside ([`expand`] names them).
///
/// A URL (`s3://`, `gs://`, `az://`, `http(s)://`; read with svb-io's `remote` feature) is an
/// object; one ending in `/` is a prefix, listed like a directory, and one with `*` in it a
/// pattern its matching objects are listed by ([`svb_io::list_objects`]).
pub fn expand_inputs(
    inputs: &[PathBuf], recursive: bool,
) -> Result<(Format, Vec<PathBuf>), ReadsError> {
    let e = expand(inputs, recursive, false)?;
    Ok((e.format, e.files))
}

/// A command's inputs, expanded ([`expand`]).
#[derive(Debug)]
pub struct Expanded {
    /// Their format.
    pub format: Format,
    /// The files, in order.
    pub files: Vec<PathBuf>,
    /// What a walk found that is not a file (a FIFO, a socket, a device) under a name of a
    /// format svb reads: left aside, to be named.
    pub not_files: Vec<PathBuf>,
    /// With `keep_going`: the inputs left out (a file of no known format, or empty, or that
    /// cannot be read; a directory that cannot be listed), each the error that would have
    /// stopped the command.
    pub left_out: Vec<ReadsError>,
}

/// [`expand_inputs`], saying what a walk left aside; with `keep_going` an input whose
/// format cannot be told (empty, of no known format, unreadable, a dangling link) or a
/// directory that cannot be listed is left out and returned in [`Expanded::left_out`]
/// instead of stopping it (files of two known formats still do: that is not damage). The
/// format is the first file's that has one; no file left is [`ReadsError::NoInput`], or the
/// first input left out.
pub fn expand(
    inputs: &[PathBuf], recursive: bool, keep_going: bool,
) -> Result<Expanded, ReadsError> {
    let mut walked = Walk { recursive, keep_going, ..Walk::default() };
    for input in inputs {
        if let Some(listed) = svb_io::url_of(input).and_then(|u| svb_io::list_objects(u, recursive))
        {
            let listed = listed.map_err(|source| ReadsError::Io {
                path: input.clone(),
                source: url_said(input, source),
            })?;
            let glob = input.to_str().is_some_and(|s| s.contains('*'));
            walked.files.extend(
                listed
                    .into_iter()
                    .map(PathBuf::from)
                    .filter(|p| glob || Format::of_extension(p).is_some()),
            );
        } else if input.is_dir() {
            walked.walk(input)?;
        } else {
            walked.files.push(input.clone());
        }
    }
    let Walk { files, not_files, mut left_out, .. } = walked;
    match of_one_format(files, keep_going, &mut left_out)? {
        Some((format, files)) => Ok(Expanded { format, files, not_files, left_out }),
        None => Err(match left_out.into_iter().next() {
            Some(e) => e,
            None => ReadsError::NoInput { inputs: inputs.to_vec(), recursive },
        }),
    }
}

/// The format of `first` and every file of `rest`, which must be the same (each known by
/// content; BLOW5 and SLOW5 text mix, one reader reads both): [`ReadsError::MixedFormats`]
/// names the first file of another.
pub fn one_format(first: &Path, rest: &[PathBuf]) -> Result<Format, ReadsError> {
    let files = std::iter::once(first.to_path_buf()).chain(rest.iter().cloned()).collect();
    let (format, _) = of_one_format(files, false, &mut Vec::new())?.expect("one file at least");
    Ok(format)
}

/// The format of `files`, each known by content, and those that have it: every one must
/// share it (BLOW5 and SLOW5 text mix), [`ReadsError::MixedFormats`] naming the first of
/// another. One whose format cannot be told stops it, or with `keep_going` goes to
/// `left_out`. `None` when no file is left.
fn of_one_format(
    files: Vec<PathBuf>, keep_going: bool, left_out: &mut Vec<ReadsError>,
) -> Result<Option<(Format, Vec<PathBuf>)>, ReadsError> {
    let mut first: Option<(PathBuf, Format)> = None;
    let mut kept = Vec::with_capacity(files.len());
    for f in files {
        let found = match detect(&f) {
            Ok(found) => found,
            Err(e) if keep_going => {
                left_out.push(e);
                continue;
            }
            Err(e) => return Err(e),
        };
        match &first {
            None => first = Some((f.clone(), found)),
            Some((path, expected)) if !found.same_reader(*expected) => {
                return Err(ReadsError::MixedFormats {
                    path: f,
                    first: path.clone(),
                    expected: *expected,
                    found,
                });
            }
            Some(_) => {}
        }
        kept.push(f);
    }
    Ok(first.map(|(_, format)| (format, kept)))
}

/// A walk of directories: what it found, and what it left aside or out.
#[derive(Default)]
struct Walk {
    recursive: bool,
    keep_going: bool,
    /// Directories walked, by canonical path.
    seen: HashSet<PathBuf>,
    files: Vec<PathBuf>,
    not_files: Vec<PathBuf>,
    left_out: Vec<ReadsError>,
}

impl Walk {
    /// Collects `dir`'s files of the formats svb reads, unless `dir` (by its canonical path:
    /// the same directory through any link) was walked already. A directory that cannot be
    /// listed stops it, or is left out with `keep_going`.
    fn walk(&mut self, dir: &Path) -> Result<(), ReadsError> {
        match self.entries(dir) {
            Ok(Some(entries)) => self.take(entries),
            Ok(None) => Ok(()),
            Err(e) if self.keep_going => {
                self.left_out.push(e);
                Ok(())
            }
            Err(e) => Err(e),
        }
    }

    /// `dir`'s entries in name order; `None` when it was walked already.
    fn entries(&mut self, dir: &Path) -> Result<Option<Vec<PathBuf>>, ReadsError> {
        let io = |source| ReadsError::Io { path: dir.to_path_buf(), source };
        if !self.seen.insert(std::fs::canonicalize(dir).map_err(io)?) {
            return Ok(None);
        }
        let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(io)?
            .map(|e| e.map(|e| e.path()))
            .collect::<Result<_, _>>()
            .map_err(io)?;
        entries.sort();
        Ok(Some(entries))
    }

    fn take(&mut self, entries: Vec<PathBuf>) -> Result<(), ReadsError> {
        for path in entries {
            let hidden =
                path.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with('.'));
            if hidden {
                continue;
            }
            // Through links; a dangling link is kept by its name (opening it says what it is).
            let meta = std::fs::metadata(&path);
            if meta.as_ref().is_ok_and(|m| m.is_dir()) {
                if self.recursive {
                    self.walk(&path)?;
                }
            } else if Format::of_extension(&path).is_some() {
                match meta {
                    Ok(m) if !m.is_file() => self.not_files.push(path),
                    _ => self.files.push(path),
                }
            }
        }
        Ok(())
    }
}
