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
        LineLimit { inner, limit, run: 0 }
    }
}

impl<R: Read> Read for LineLimit<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        // Never more than one byte past the limit is handed out: the caller buffers at most
        // `limit` bytes of a line before the error.
        let room = (self.limit + 1).saturating_sub(self.run).max(1);
        let want = buf.len().min(room);
        let n = self.inner.read(&mut buf[..want])?;
        let got = &buf[..n];
        // A line wholly inside `got` is shorter than `want` <= the room left: only the line
        // `got` continues and the one it starts can be too long, so only the bytes before its
        // first newline and after its last are looked at.
        let (head, tail) = match got.iter().position(|&b| b == b'\n') {
            None => (n, None),
            Some(first) => {
                let last = got.iter().rposition(|&b| b == b'\n').unwrap_or(first);
                (first, Some(n - 1 - last))
            }
        };
        if self.run + head > self.limit {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("a line longer than {} bytes", self.limit),
            ));
        }
        self.run = match tail {
            None => self.run + head,
            Some(t) => t,
        };
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::BufRead;

    /// A reader handing out at most `step` bytes a call.
    struct Trickle<'a>(&'a [u8], usize);

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = buf.len().min(self.1).min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    fn lines(text: &[u8], limit: usize, step: usize, cap: usize) -> Result<Vec<usize>, String> {
        let r = std::io::BufReader::with_capacity(cap, LineLimit::new(Trickle(text, step), limit));
        r.split(b'\n').map(|l| l.map(|l| l.len()).map_err(|e| e.to_string())).collect()
    }

    #[test]
    fn lines_up_to_the_limit_pass_and_longer_ones_fail_however_the_bytes_come() {
        for limit in [1, 2, 7, 64] {
            for step in [1, 2, 3, 5, 64, 1000] {
                for cap in [1, 4, 100, 8192] {
                    let ok: Vec<usize> = vec![limit, 0, 1, limit, limit / 2];
                    let text: Vec<u8> = ok
                        .iter()
                        .flat_map(|&n| std::iter::repeat_n(b'x', n).chain([b'\n']))
                        .collect();
                    assert_eq!(lines(&text, limit, step, cap), Ok(ok.clone()));
                    // The same, then one line a byte too long, then more.
                    let mut bad = text.clone();
                    bad.extend(std::iter::repeat_n(b'y', limit + 1));
                    bad.extend(b"\nz\n");
                    let got = lines(&bad, limit, step, cap);
                    assert_eq!(
                        got,
                        Err(format!("a line longer than {limit} bytes")),
                        "limit {limit} step {step} cap {cap}"
                    );
                    // A last line without its newline, at the limit.
                    let mut last = text.clone();
                    last.extend(std::iter::repeat_n(b'w', limit));
                    let mut want = ok.clone();
                    want.push(limit);
                    assert_eq!(lines(&last, limit, step, cap), Ok(want));
                }
            }
        }
    }
}
