//! Text inputs read a line at a time in bounded memory: [`LineLimit`] refuses a line longer
//! than its limit as it is read (a 300 MB line is an error after its first MiB, never a
//! 300 MB buffer), and [`excerpt`] quotes at most a few dozen bytes of a line in a message.

use std::io::{self, Read};

/// The longest line a table or a list of read ids may hold (1 MiB: a read id is 36 bytes, a
/// table row a few hundred).
pub const MAX_LINE: usize = 1 << 20;

/// A reader that fails, as its input is read, once a line (bytes between two newlines) is
/// longer than its limit.
///
/// ```
/// use std::io::{BufRead, BufReader};
/// let text = format!("short\n{}\n", "x".repeat(100));
/// let mut lines = BufReader::new(svb_io::LineLimit::new(text.as_bytes(), 50)).lines();
/// assert_eq!(lines.next().unwrap().unwrap(), "short");
/// let e = lines.next().unwrap().unwrap_err();
/// assert_eq!(e.to_string(), "a line longer than 50 bytes");
/// ```
pub struct LineLimit<R> {
    inner: R,
    limit: usize,
    /// Bytes of the current line read so far.
    run: usize,
}

impl<R: Read> LineLimit<R> {
    /// `inner`, its lines at most `limit` bytes (the newline not counted).
    pub fn new(inner: R, limit: usize) -> Self {
        LineLimit {
            inner,
            limit,
            run: 0,
        }
    }
}

impl<R: Read> Read for LineLimit<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        // Never more than one byte past the limit is handed out: the caller buffers at most
        // `limit` bytes of a line before the error.
        let room = (self.limit + 1).saturating_sub(self.run).max(1);
        let want = buf.len().min(room);
        let n = self.inner.read(&mut buf[..want])?;
        for &b in &buf[..n] {
            if b == b'\n' {
                self.run = 0;
            } else {
                self.run += 1;
                if self.run > self.limit {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidData,
                        format!("a line longer than {} bytes", self.limit),
                    ));
                }
            }
        }
        Ok(n)
    }
}

/// `s` quoted for a message: at most `max` bytes of it (cut at a character boundary), an
/// ellipsis and its length after a cut.
///
/// ```
/// assert_eq!(svb_io::excerpt("read_1", 20), "\"read_1\"");
/// assert_eq!(svb_io::excerpt(&"é".repeat(50), 7), "\"ééé\"... (100 bytes)");
/// ```
pub fn excerpt(s: &str, max: usize) -> String {
    if s.len() <= max {
        return format!("{s:?}");
    }
    let mut cut = max;
    while !s.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{:?}... ({} bytes)", &s[..cut], s.len())
}
