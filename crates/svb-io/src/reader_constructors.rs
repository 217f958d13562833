//! [`reader_constructors!`]: the constructors every format's reader has, written once.

/// Writes a reader's `open_with`, `open_mapped` and `from_bytes` (the ways to get at a file:
/// an [`Access`](crate::Access), a memory map, bytes already in memory) for a type with
/// `fn from_source(path: PathBuf, src: Source) -> Result<Self, $error>` and an
/// `$error::Io { path, source }` variant; each reader writes its own `open` (its default
/// access differs by format).
///
/// `$kind` is the `FileKind` of the files opened (the format crate's), `$item` what is read when it
/// is decoded ("chunk", "record"), `$krate` and `$example` name the crate and a file in the
/// examples.
#[doc(hidden)]
#[macro_export]
macro_rules! reader_constructors {
    ($krate:ident, $error:ident, $kind:expr, $item:literal, $example:literal) => {
        #[doc = concat!(
            "Opens `path` with the given access: [`Access::ReadWhole`](svb_io::Access) reads it ",
            "into memory, [`Access::ReadAt`](svb_io::Access) reads each ", $item,
            " when it is decoded (memory stays at what is being decoded, whatever the file's size)."
        )]
        pub fn open_with(
            path: impl AsRef<std::path::Path>,
            access: $crate::Access,
        ) -> Result<Self, $error> {
            let path = path.as_ref().to_path_buf();
            match $crate::Source::open_as(&path, access, &$kind) {
                Ok(src) => Self::from_source(path, src),
                Err(source) => Err($error::Io { path, source }),
            }
        }

        /// Opens `path` memory-mapped, whatever its size.
        ///
        /// # Safety
        /// The file must not be modified or truncated, by this process or another, while the
        /// reader is alive: a change is undefined behaviour, and a read of pages truncated away
        /// raises SIGBUS (see [`Source::map`](svb_io::Source::map)). `Reader::open` has neither
        /// hazard.
        ///
        #[doc = concat!(
            "```no_run\n",
            "// SAFETY: ", $example, " is finished and nothing writes to it while it is read.\n",
            "let reader = unsafe { ", stringify!($krate), "::Reader::open_mapped(\"", $example,
            "\") }?;\n",
            "# Ok::<(), ", stringify!($krate), "::", stringify!($error), ">(())\n",
            "```"
        )]
        pub unsafe fn open_mapped(path: impl AsRef<std::path::Path>) -> Result<Self, $error> {
            let path = path.as_ref().to_path_buf();
            // SAFETY: the caller keeps the file unchanged while the reader lives (this
            // function's contract, passed on).
            match unsafe { $crate::Source::map(&path) } {
                Ok(src) => Self::from_source(path, src),
                Err(source) => Err($error::Io { path, source }),
            }
        }

        /// A reader over a file already in memory (`path` names it in errors).
        pub fn from_bytes(
            path: impl Into<std::path::PathBuf>,
            bytes: Vec<u8>,
        ) -> Result<Self, $error> {
            Self::from_source(path.into(), $crate::Source::from_vec(bytes))
        }
    };
}
