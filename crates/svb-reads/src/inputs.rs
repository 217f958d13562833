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
    let head = svb_io::read_head(path)
        .map_err(|source| ReadsError::Io { path: path.to_path_buf(), source })?;
    let Some(head) = head else {
        return Format::of_extension(path)
            .ok_or_else(|| ReadsError::NotRegular { path: path.to_path_buf() });
    };
    Format::detect(&head)
        .ok_or_else(|| ReadsError::UnknownFormat { path: path.to_path_buf(), head })
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
/// there must be at least one.
///
/// A URL (`s3://`, `gs://`, `az://`, `http(s)://`; read with svb-io's `remote` feature) is an
/// object; one ending in `/` is a prefix, listed like a directory, and one with `*` in it a
/// pattern its matching objects are listed by ([`svb_io::list_objects`]).
pub fn expand_inputs(
    inputs: &[PathBuf], recursive: bool,
) -> Result<(Format, Vec<PathBuf>), ReadsError> {
    let mut files = Vec::new();
    let mut seen = HashSet::new();
    for input in inputs {
        if let Some(listed) = svb_io::url_of(input).and_then(|u| svb_io::list_objects(u, recursive))
        {
            let listed = listed.map_err(|source| ReadsError::Io { path: input.clone(), source })?;
            let glob = input.to_str().is_some_and(|s| s.contains('*'));
            files.extend(
                listed
                    .into_iter()
                    .map(PathBuf::from)
                    .filter(|p| glob || Format::of_extension(p).is_some()),
            );
        } else if input.is_dir() {
            walk(input, recursive, &mut seen, &mut files)?;
        } else {
            files.push(input.clone());
        }
    }
    let Some(first) = files.first() else {
        return Err(ReadsError::NoInput { inputs: inputs.to_vec(), recursive });
    };
    Ok((one_format(first, &files[1..])?, files))
}

/// The format of `first` and every file of `rest`, which must be the same (each known by
/// content; BLOW5 and SLOW5 text mix, one reader reads both): [`ReadsError::MixedFormats`]
/// names the first file of another.
pub fn one_format(first: &Path, rest: &[PathBuf]) -> Result<Format, ReadsError> {
    let format = detect(first)?;
    for f in rest {
        let found = detect(f)?;
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

/// Collects `dir`'s files of the formats svb reads into `files`, unless `dir` (by its
/// canonical path: the same directory through any link) is in `seen`.
fn walk(
    dir: &Path, recursive: bool, seen: &mut HashSet<PathBuf>, files: &mut Vec<PathBuf>,
) -> Result<(), ReadsError> {
    let io = |source| ReadsError::Io { path: dir.to_path_buf(), source };
    if !seen.insert(std::fs::canonicalize(dir).map_err(io)?) {
        return Ok(());
    }
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(io)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()
        .map_err(io)?;
    entries.sort();
    for path in entries {
        let hidden = path.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with('.'));
        if hidden {
            continue;
        }
        if path.is_dir() {
            if recursive {
                walk(&path, recursive, seen, files)?;
            }
        } else if Format::of_extension(&path).is_some() {
            files.push(path);
        }
    }
    Ok(())
}
