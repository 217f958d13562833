//! [`error_chain`]: an error as a user reads it.

/// `e` and its sources joined by ": ", each text once: a source whose text the line already
/// holds is skipped, and one that starts with the line so far replaces it. What the CLI, the
/// Python package and the tests print.
///
/// ```
/// let io = std::io::Error::new(std::io::ErrorKind::NotFound, "no such file");
/// #[derive(Debug)]
/// struct Open(std::io::Error);
/// impl std::fmt::Display for Open {
///     fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
///         f.write_str("reads.blow5")
///     }
/// }
/// impl std::error::Error for Open {
///     fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
///         Some(&self.0)
///     }
/// }
/// assert_eq!(svb_io::error_chain(&Open(io)), "reads.blow5: no such file");
/// ```
pub fn error_chain(e: &(dyn std::error::Error + 'static)) -> String {
    let mut s = e.to_string();
    let mut source = e.source();
    while let Some(c) = source {
        let text = c.to_string();
        if text.starts_with(&s) {
            s = text;
        } else if !s.contains(&text) {
            s.push_str(": ");
            s.push_str(&text);
        }
        source = c.source();
    }
    s
}

/// Whether `e` or one of its sources is an I/O error of `kind` (an output that exists,
/// `AlreadyExists`, however deep an operation wrapped it): what the front ends say or raise
/// for it.
///
/// ```
/// use std::io::{Error, ErrorKind};
/// assert!(svb_io::caused_by(&Error::new(ErrorKind::AlreadyExists, "x"), ErrorKind::AlreadyExists));
/// assert!(!svb_io::caused_by(&Error::new(ErrorKind::NotFound, "x"), ErrorKind::AlreadyExists));
/// ```
pub fn caused_by(e: &(dyn std::error::Error + 'static), kind: std::io::ErrorKind) -> bool {
    let mut cause = Some(e);
    while let Some(c) = cause {
        if c.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == kind) {
            return true;
        }
        cause = c.source();
    }
    false
}
