//! [`ConvertError`]: why an operation failed, naming the file (and the read).

use std::path::{Path, PathBuf};

/// Why a conversion failed: the file and what went wrong there.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ConvertError {
    /// An input could not be read (the read layer's error: it names the file, and the read,
    /// table or record).
    #[error(transparent)]
    Reads(Box<svb_reads::ReadsError>),
    /// The POD5 output could not be written.
    #[error(transparent)]
    Pod5Write(#[from] svb_pod5::Pod5WriteError),
    /// The BLOW5 output could not be written.
    #[error(transparent)]
    Blow5Write(#[from] svb_blow5::Blow5WriteError),
    /// The FAST5 output could not be written.
    #[error(transparent)]
    Fast5Write(#[from] svb_fast5::Fast5WriteError),
    /// The output's extension names no format svb writes.
    #[error(transparent)]
    OutputFormat(#[from] svb_model::OutputFormatError),
    /// Stopped when [`Run::interrupted`](crate::Run::interrupted) said so; nothing was published.
    #[error("interrupted; nothing was written")]
    Interrupted,
    /// A field has no place on the other side (a read id that is not a UUID, a key that
    /// cannot be a BLOW5 attribute, two runs under one acquisition id).
    #[error("{0}")]
    Mapping(String),
    /// The output cannot be written where asked: it is one of the inputs (by any path or
    /// link), which is refused whatever the replace setting.
    #[error("{}", path.display())]
    Output {
        /// The output.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// An input's error, named by the file.
    #[error("{}", path.display())]
    Input {
        /// The input.
        path: PathBuf,
        /// What went wrong in it.
        #[source]
        source: Box<ConvertError>,
    },
}

impl From<svb_model::ont::MappingError> for ConvertError {
    fn from(e: svb_model::ont::MappingError) -> ConvertError {
        ConvertError::Mapping(e.0)
    }
}

impl<E> From<svb_model::ont::OntReadError<E>> for ConvertError
where
    ConvertError: From<E>,
{
    fn from(e: svb_model::ont::OntReadError<E>) -> ConvertError {
        match e {
            svb_model::ont::OntReadError::Read(e) => e.into(),
            svb_model::ont::OntReadError::Mapping(e) => e.into(),
        }
    }
}

impl From<svb_reads::ReadsError> for ConvertError {
    fn from(e: svb_reads::ReadsError) -> ConvertError {
        ConvertError::Reads(Box::new(e))
    }
}

impl From<svb_pod5::Pod5Error> for ConvertError {
    fn from(e: svb_pod5::Pod5Error) -> ConvertError {
        svb_reads::ReadsError::from(e).into()
    }
}

impl From<svb_blow5::Blow5Error> for ConvertError {
    fn from(e: svb_blow5::Blow5Error) -> ConvertError {
        svb_reads::ReadsError::from(e).into()
    }
}

impl From<svb_fast5::Fast5Error> for ConvertError {
    fn from(e: svb_fast5::Fast5Error) -> ConvertError {
        svb_reads::ReadsError::from(e).into()
    }
}

impl ConvertError {
    pub(crate) fn of(path: &Path) -> impl Fn(ConvertError) -> ConvertError + '_ {
        move |e| ConvertError::Input { path: path.to_path_buf(), source: Box::new(e) }
    }
}
