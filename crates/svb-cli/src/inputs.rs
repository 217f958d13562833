//! The input files of the dataset commands: files and directories given on the command line,
//! expanded to the POD5 or BLOW5 files they hold.

use std::path::{Path, PathBuf};

use svb_io::FileFormat;

/// A signal file format svb reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// POD5
    Pod5,
    /// BLOW5
    Blow5,
}

impl Format {
    /// The format of `path` by its extension (case-insensitive): for outputs, which do not
    /// exist yet.
    pub fn of(path: &Path) -> Option<Format> {
        match FileFormat::of_extension(path)? {
            FileFormat::Pod5 => Some(Format::Pod5),
            FileFormat::Blow5 => Some(Format::Blow5),
            _ => None,
        }
    }

    /// The format of the input `path` by its content (its first bytes); a stream (a FIFO,
    /// a device), whose first bytes would be consumed, by its extension. A format svb does not
    /// read yet, or none, is an error naming it.
    pub fn detect(path: &Path) -> Result<Format, String> {
        let head = svb_io::read_head(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let Some(head) = head else {
            return Format::of(path).ok_or_else(|| {
                format!(
                    "{}: not a regular file, and no .pod5 or .blow5 extension to tell its format",
                    path.display()
                )
            });
        };
        match FileFormat::detect(&head) {
            Some(FileFormat::Pod5) => Ok(Format::Pod5),
            Some(FileFormat::Blow5) => Ok(Format::Blow5),
            Some(other) => Err(format!(
                "{}: a {} file, which svb does not read yet (POD5 and BLOW5 only)",
                path.display(),
                other.name()
            )),
            None => Err(format!(
                "{}: not a POD5 or BLOW5 file: {}",
                path.display(),
                svb_io::describe_format(&head)
            )),
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

/// The identities of `files`, to refuse an output that is one of them.
pub fn identities(files: &[PathBuf]) -> Result<svb_io::Inputs, String> {
    svb_io::Inputs::new(files).map_err(|e| e.to_string())
}

/// The files of `inputs`: each file as given, each directory's `.pod5` / `.blow5` files in
/// name order (its subdirectories' too with `recursive`; hidden names skipped). All must be of
/// one format, known by content, and there must be at least one.
pub fn expand_inputs(
    inputs: &[PathBuf],
    recursive: bool,
) -> Result<(Format, Vec<PathBuf>), String> {
    let mut files = Vec::new();
    let mut unread = Vec::new();
    for input in inputs {
        if input.is_dir() {
            walk(input, recursive, &mut files, &mut unread)?;
        } else {
            files.push(input.clone());
        }
    }
    let Some(first) = files.first() else {
        let mut what = format!(
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
        );
        if let Some(f) = unread.first() {
            what.push_str(&format!(
                "; {} {} files ({} first), which svb does not read yet",
                unread.len(),
                FileFormat::of_extension(f).map_or("other", |f| f.name()),
                f.display()
            ));
        }
        return Err(what);
    };
    let format = Format::detect(first)?;
    for f in &files[1..] {
        let this = Format::detect(f)?;
        if this != format {
            return Err(format!(
                "{}: a {} file, and {} a {} file (one format at a time)",
                f.display(),
                this.name(),
                first.display(),
                format.name()
            ));
        }
    }
    Ok((format, files))
}

/// Collects `dir`'s POD5 and BLOW5 files by extension into `files`, and its FAST5 and SLOW5
/// files into `unread` (to name them when nothing else is found).
fn walk(
    dir: &Path,
    recursive: bool,
    files: &mut Vec<PathBuf>,
    unread: &mut Vec<PathBuf>,
) -> Result<(), String> {
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
                walk(&path, recursive, files, unread)?;
            }
        } else if Format::of(&path).is_some() {
            files.push(path);
        } else if FileFormat::of_extension(&path).is_some() {
            unread.push(path);
        }
    }
    Ok(())
}
