//! [`FileId`]: which file a path reaches, so that an output that is one of the inputs (by
//! another path, a symbolic link or a hard link) can be refused before anything is written.

use std::io;
use std::path::{Path, PathBuf};

/// The identity of a file: device and inode on Unix; elsewhere the canonical path (which
/// follows links but cannot see hard links).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FileId(Id);

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Id {
    #[cfg(unix)]
    Inode(u64, u64),
    #[cfg_attr(unix, allow(dead_code))]
    Path(PathBuf),
    /// An object, by the store, bucket and key its URL resolves to ([`object_identity`]).
    Url(String),
}

/// The identity of the object `url` names: as its store resolves it (aliases of one object,
/// `s3://b/./x` and `s3a://b/x`, are one; with the `remote` feature), else its text with the
/// scheme and host in lower case.
fn object_identity(url: &str) -> String {
    #[cfg(feature = "remote")]
    if let Ok(id) = crate::remote::object_identity(url) {
        return id;
    }
    let (scheme, rest) = url.split_once("://").expect("a URL");
    let (host, key) = rest.split_once('/').unwrap_or((rest, ""));
    format!("{}://{}/{key}", scheme.to_ascii_lowercase(), host.to_ascii_lowercase())
}

impl FileId {
    /// The file `path` reaches (links followed); an error when there is none. An object's
    /// identity is its URL ([`url_of`](crate::url_of)), whether or not it exists.
    pub fn of(path: &Path) -> io::Result<FileId> {
        if let Some(url) = crate::url_of(path) {
            return Ok(FileId(Id::Url(object_identity(url))));
        }
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            let m = std::fs::metadata(path)?;
            Ok(FileId(Id::Inode(m.dev(), m.ino())))
        }
        #[cfg(not(unix))]
        {
            Ok(FileId(Id::Path(std::fs::canonicalize(path)?)))
        }
    }
}

/// The inputs a command reads, to check its outputs against.
///
/// ```
/// use svb_io::Inputs;
/// let dir = std::env::temp_dir().join(format!("svb-io-inputs-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let input = dir.join("a.pod5");
/// std::fs::write(&input, b"x")?;
/// let inputs = Inputs::new([&input])?;
/// assert!(inputs.check_output(&dir.join("./a.pod5")).is_err()); // the same file
/// assert!(inputs.check_output(&dir.join("b.pod5")).is_ok()); // not there: not an input
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct Inputs {
    files: Vec<(FileId, PathBuf)>,
}

impl Inputs {
    /// The identities of `paths` (each must exist).
    pub fn new<P: AsRef<Path>>(paths: impl IntoIterator<Item = P>) -> io::Result<Inputs> {
        let files = paths
            .into_iter()
            .map(|p| {
                let p = p.as_ref();
                FileId::of(p)
                    .map(|id| (id, p.to_path_buf()))
                    .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", p.display())))
            })
            .collect::<io::Result<_>>()?;
        Ok(Inputs { files })
    }

    /// The input that `output` is, if it is one (the same file by any path or link).
    pub fn input_at(&self, output: &Path) -> Option<&Path> {
        let id = FileId::of(output).ok()?;
        self.files.iter().find(|(f, _)| *f == id).map(|(_, p)| p.as_path())
    }

    /// An [`io::ErrorKind::InvalidInput`] error when `output` is one of the inputs (the
    /// caller names `output`); what a writer must refuse whatever its replace setting.
    pub fn check_output(&self, output: &Path) -> io::Result<()> {
        match self.input_at(output) {
            None => Ok(()),
            Some(input) => Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                if input == output {
                    "the output is one of the inputs".to_string()
                } else {
                    format!("the output is the input {} (the same file)", input.display())
                },
            )),
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn links_reach_the_same_file() {
        let d = std::env::temp_dir().join(format!("svb-io-fileid-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        let a = d.join("a.pod5");
        std::fs::write(&a, b"x").unwrap();
        std::os::unix::fs::symlink(&a, d.join("sym.pod5")).unwrap();
        std::fs::hard_link(&a, d.join("hard.pod5")).unwrap();
        std::fs::write(d.join("other.pod5"), b"x").unwrap();
        let inputs = Inputs::new([&a]).unwrap();
        for same in ["sym.pod5", "hard.pod5", "a.pod5"] {
            let e = inputs.check_output(&d.join(same)).unwrap_err();
            assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
            assert!(e.to_string().contains("input"), "{e}");
        }
        assert!(inputs.check_output(&d.join("other.pod5")).is_ok());
        std::fs::remove_dir_all(d).unwrap();
    }

    /// Every spelling of one object is that object: an output URL that names an input in
    /// another spelling is refused (with `--force`, `subset` once replaced its input so).
    #[cfg(feature = "remote")]
    #[test]
    fn aliases_of_an_object_are_the_object() {
        let inputs = Inputs::new([Path::new("s3://b/x.pod5")]).unwrap();
        for alias in [
            "s3://b/./x.pod5",
            "s3://b/sub/../x.pod5",
            "s3://b/%78.pod5",
            "s3a://b/x.pod5",
            "S3://B/x.pod5",
        ] {
            let e = inputs.check_output(Path::new(alias));
            assert!(e.is_err(), "{alias} was not taken for s3://b/x.pod5");
        }
        for other in ["s3://b/y.pod5", "s3://c/x.pod5", "gs://b/x.pod5", "s3://b/sub/x.pod5"] {
            assert!(inputs.check_output(Path::new(other)).is_ok(), "{other}");
        }
        let inputs = Inputs::new([Path::new("https://host:8080/data/r.blow5")]).unwrap();
        assert!(inputs.check_output(Path::new("https://HOST:8080/data/./r.blow5")).is_err());
        assert!(inputs.check_output(Path::new("https://host:8081/data/r.blow5")).is_ok());
    }
}
