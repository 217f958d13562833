//! The input files of the dataset commands: files and directories given on the command line,
//! expanded to the POD5 or BLOW5 files they hold.

use std::path::{Path, PathBuf};

/// A signal file format, known by its extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// `.pod5`
    Pod5,
    /// `.blow5`
    Blow5,
}

impl Format {
    /// The format of `path` by its extension (case-insensitive).
    pub fn of(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "pod5" => Some(Format::Pod5),
            "blow5" => Some(Format::Blow5),
            _ => None,
        }
    }

    /// Its name as users know it.
    pub fn name(self) -> &'static str {
        match self {
            Format::Pod5 => "POD5",
            Format::Blow5 => "BLOW5",
        }
    }
}

/// The inputs of a dataset command, as its arguments.
#[derive(clap::Args)]
pub struct Inputs {
    /// POD5 or BLOW5 files, or directories holding them (all of one format).
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// Look for files in the directories' subdirectories too.
    #[arg(short, long)]
    recursive: bool,
}

impl Inputs {
    /// The files they name (see [`expand_inputs`]).
    pub fn expand(&self) -> Result<(Format, Vec<PathBuf>), String> {
        expand_inputs(&self.inputs, self.recursive)
    }
}

/// The files of `inputs`: each file as given, each directory's `.pod5` / `.blow5` files in
/// name order (its subdirectories' too with `recursive`; hidden names skipped). All must be of
/// one format, and there must be at least one.
pub fn expand_inputs(
    inputs: &[PathBuf],
    recursive: bool,
) -> Result<(Format, Vec<PathBuf>), String> {
    let mut files = Vec::new();
    for input in inputs {
        if input.is_dir() {
            walk(input, recursive, &mut files)?;
        } else {
            files.push(input.clone());
        }
    }
    let Some(first) = files.first() else {
        return Err(format!(
            "no .pod5 or .blow5 file in {}{}",
            inputs
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", "),
            if recursive {
                ""
            } else {
                " (-r looks in subdirectories)"
            }
        ));
    };
    let format = Format::of(first)
        .ok_or_else(|| format!("{}: not a .pod5 or .blow5 file", first.display()))?;
    for f in &files {
        if Format::of(f) != Some(format) {
            return Err(format!(
                "{}: not a {} file like {} (one format at a time)",
                f.display(),
                format.name(),
                first.display()
            ));
        }
    }
    Ok((format, files))
}

fn walk(dir: &Path, recursive: bool, files: &mut Vec<PathBuf>) -> Result<(), String> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()
        .map_err(|e| format!("{}: {e}", dir.display()))?;
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
        } else if Format::of(&path).is_some() {
            files.push(path);
        }
    }
    Ok(())
}
