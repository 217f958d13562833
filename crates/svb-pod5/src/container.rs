//! The POD5 container around the Arrow tables: signature, section marker, and the footer, a
//! flatbuffer (`Minknow.ReadsFormat.Footer`) parsed here by hand with a bounds check on every
//! read.
//!
//! ```text
//! 8B signature | 16B section marker
//! [Arrow IPC file, zero-padded to 8 | 16B marker] x N
//! "FOOTER\0\0" | footer flatbuffer | i64 footer length | 16B marker | 8B signature
//! ```

/// The 8 bytes that open and close every POD5 file.
pub const SIGNATURE: [u8; 8] = [0x8b, b'P', b'O', b'D', b'\r', b'\n', 0x1a, b'\n'];

const FOOTER_MAGIC: &[u8; 8] = b"FOOTER\0\0";
pub(crate) const MARKER_LEN: usize = 16;
/// Signature + marker at the start; footer length + marker + signature at the end.
pub(crate) const HEAD_LEN: usize = SIGNATURE.len() + MARKER_LEN;
const TAIL_LEN: usize = 8 + MARKER_LEN + SIGNATURE.len();

/// What an embedded file holds (`ContentType` of the footer).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContentType {
    /// The reads table.
    ReadsTable,
    /// The signal table.
    SignalTable,
    /// An index by read id.
    ReadIdIndex,
    /// Another index.
    OtherIndex,
    /// The run-info table.
    RunInfoTable,
    /// A content type this reader does not know.
    Unknown(i16),
}

impl std::fmt::Display for ContentType {
    /// `reads table`, `signal table`, `read id index`, `other index`, `run info table`, or
    /// `unknown N`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::ReadsTable => f.write_str("reads table"),
            Self::SignalTable => f.write_str("signal table"),
            Self::ReadIdIndex => f.write_str("read id index"),
            Self::OtherIndex => f.write_str("other index"),
            Self::RunInfoTable => f.write_str("run info table"),
            Self::Unknown(c) => write!(f, "unknown {c}"),
        }
    }
}

impl ContentType {
    fn code(self) -> i16 {
        match self {
            Self::ReadsTable => 0,
            Self::SignalTable => 1,
            Self::ReadIdIndex => 2,
            Self::OtherIndex => 3,
            Self::RunInfoTable => 4,
            Self::Unknown(c) => c,
        }
    }

    fn from_code(code: i16) -> Self {
        match code {
            0 => Self::ReadsTable,
            1 => Self::SignalTable,
            2 => Self::ReadIdIndex,
            3 => Self::OtherIndex,
            4 => Self::RunInfoTable,
            other => Self::Unknown(other),
        }
    }
}

/// One file embedded in the container: where it lies and what it holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EmbeddedFile {
    /// Byte offset of the embedded file in the POD5 file.
    pub offset: u64,
    /// Its length in bytes (without padding).
    pub length: u64,
    /// What it holds.
    pub content_type: ContentType,
}

/// The POD5 footer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Footer {
    /// A UUID shared by the footer and every table's schema metadata.
    pub file_identifier: String,
    /// The software that wrote the file.
    pub software: String,
    /// The pod5 version the table schemas follow.
    pub pod5_version: String,
    /// The embedded files, in footer order.
    pub contents: Vec<EmbeddedFile>,
}

/// Zero bytes that pad an embedded file (or the footer) to a multiple of 8.
impl Footer {
    /// Where the last embedded table ends, its padding and section marker included: the
    /// footer follows. A file cut after this byte has every table whole.
    pub fn tables_end(&self) -> u64 {
        self.contents
            .iter()
            .map(|f| (f.offset + f.length).next_multiple_of(8) + MARKER_LEN as u64)
            .max()
            .unwrap_or(HEAD_LEN as u64)
    }
}

pub(crate) fn padding(len: u64) -> &'static [u8] {
    &[0u8; 8][..(len.next_multiple_of(8) - len) as usize]
}

/// What follows the last embedded file's marker: `FOOTER\0\0`, the footer flatbuffer padded
/// to 8, its length, the section marker and the signature.
pub(crate) fn closing_bytes(footer: &Footer, marker: &[u8; MARKER_LEN]) -> Vec<u8> {
    let mut fbb = flatbuffers::FlatBufferBuilder::new();
    let files: Vec<_> = footer
        .contents
        .iter()
        .map(|f| {
            let t = fbb.start_table();
            fbb.push_slot_always::<i64>(4, f.offset as i64);
            fbb.push_slot_always::<i64>(6, f.length as i64);
            // Format 0: Arrow IPC (FeatherV2), the only one.
            fbb.push_slot_always::<i16>(8, 0);
            fbb.push_slot_always::<i16>(10, f.content_type.code());
            fbb.end_table(t)
        })
        .collect();
    let contents = fbb.create_vector(&files);
    let id = fbb.create_string(&footer.file_identifier);
    let software = fbb.create_string(&footer.software);
    let version = fbb.create_string(&footer.pod5_version);
    let t = fbb.start_table();
    fbb.push_slot_always(4, id);
    fbb.push_slot_always(6, software);
    fbb.push_slot_always(8, version);
    fbb.push_slot_always(10, contents);
    let root = fbb.end_table(t);
    fbb.finish_minimal(root);
    let fb = fbb.finished_data();
    let mut out = Vec::with_capacity(fb.len() + 48);
    out.extend_from_slice(FOOTER_MAGIC);
    out.extend_from_slice(fb);
    out.extend_from_slice(padding(fb.len() as u64));
    let footer_len = (out.len() - FOOTER_MAGIC.len()) as i64;
    out.extend_from_slice(&footer_len.to_le_bytes());
    out.extend_from_slice(marker);
    out.extend_from_slice(&SIGNATURE);
    out
}

/// A container error: the byte offset it concerns and what is wrong.
pub(crate) type ContainerError = (u64, String);

fn err<T>(offset: usize, what: impl Into<String>) -> Result<T, ContainerError> {
    Err((offset as u64, what.into()))
}

/// Checks the signature and markers at both ends and parses the footer; every embedded file
/// must lie between the leading marker and the footer. Reads only those parts of `src`.
pub(crate) fn parse(src: &svb_io::Source) -> Result<Footer, ContainerError> {
    let Ok(len) = usize::try_from(src.len()) else {
        return err(0, "file too large for this platform");
    };
    if len < HEAD_LEN + FOOTER_MAGIC.len() + TAIL_LEN {
        return err(0, format!("{len} bytes, too short for a POD5 file"));
    }
    let read = |at: usize, n: usize| {
        src.read_vec(at as u64, n).or_else(|e| err(at, format!("reading {n} bytes: {e}")))
    };
    let head = read(0, HEAD_LEN)?;
    let tail = read(len - TAIL_LEN, TAIL_LEN)?;
    if head[..8] != SIGNATURE {
        return err(0, "not a POD5 file (signature mismatch)");
    }
    if tail[TAIL_LEN - 8..] != SIGNATURE {
        return err(
            len - 8,
            "closing signature missing (a file cut short? `svb recover` rebuilds its footer \
             from the tables it holds)",
        );
    }
    let marker = &head[8..HEAD_LEN];
    if &tail[8..8 + MARKER_LEN] != marker {
        return err(len - 24, "closing section marker differs from the opening one");
    }
    let footer_len = i64::from_le_bytes(tail[..8].try_into().expect("8 bytes"));
    let footer_end = len - TAIL_LEN;
    let footer_room = footer_end - HEAD_LEN - FOOTER_MAGIC.len();
    if footer_len <= 0 || footer_len as u64 > footer_room as u64 {
        return err(
            len - 32,
            format!("footer length {footer_len}, the file leaves room for {footer_room}"),
        );
    }
    let footer_start = footer_end - footer_len as usize;
    let magic_at = footer_start - FOOTER_MAGIC.len();
    if read(magic_at, FOOTER_MAGIC.len())? != FOOTER_MAGIC {
        return err(
            magic_at,
            "footer magic FOOTER\\0\\0 missing (`svb recover` rebuilds a damaged footer from \
             the tables the file holds)",
        );
    }
    let buf = read(footer_start, footer_len as usize)?;
    let fb = Flatbuffer { buf: &buf, base: footer_start };
    let footer = fb.footer()?;
    for (i, f) in footer.contents.iter().enumerate() {
        let end = f.offset.checked_add(f.length);
        if f.offset < HEAD_LEN as u64 || end.is_none_or(|e| e > magic_at as u64) {
            return err(
                footer_start,
                format!(
                    "embedded file {i} ({:?}) at {}+{} lies outside the data section {HEAD_LEN}..{magic_at}",
                    f.content_type, f.offset, f.length
                ),
            );
        }
    }
    Ok(footer)
}

/// A flatbuffer with checked reads; `base` is its offset in the file, for error messages.
struct Flatbuffer<'a> {
    buf: &'a [u8],
    base: usize,
}

/// A table: its position and its vtable.
#[derive(Clone, Copy)]
struct Table {
    pos: usize,
    vtable: usize,
    vtable_len: usize,
}

impl Flatbuffer<'_> {
    fn bytes<const N: usize>(&self, pos: usize) -> Result<[u8; N], ContainerError> {
        match pos.checked_add(N).and_then(|end| self.buf.get(pos..end)) {
            Some(b) => Ok(b.try_into().expect("N bytes")),
            None => err(
                self.base + pos.min(self.buf.len()),
                format!("footer: {N}-byte read at {pos} past its {} bytes", self.buf.len()),
            ),
        }
    }
    fn u32(&self, pos: usize) -> Result<usize, ContainerError> {
        Ok(u32::from_le_bytes(self.bytes(pos)?) as usize)
    }
    fn u16(&self, pos: usize) -> Result<usize, ContainerError> {
        Ok(u16::from_le_bytes(self.bytes(pos)?) as usize)
    }

    /// Follows the unsigned offset stored at `pos`.
    fn follow(&self, pos: usize) -> Result<usize, ContainerError> {
        let target = pos + self.u32(pos)?;
        if target >= self.buf.len() {
            return err(self.base + pos, format!("footer: offset to {target} past its end"));
        }
        Ok(target)
    }

    fn table(&self, pos: usize) -> Result<Table, ContainerError> {
        let soffset = i32::from_le_bytes(self.bytes(pos)?) as i64;
        let vtable = pos as i64 - soffset;
        if vtable < 0 || vtable as usize >= self.buf.len() {
            return err(self.base + pos, "footer: vtable outside the footer");
        }
        let vtable = vtable as usize;
        let vtable_len = self.u16(vtable)?;
        if vtable_len < 4 || vtable_len % 2 != 0 || vtable + vtable_len > self.buf.len() {
            return err(self.base + vtable, format!("footer: bad vtable length {vtable_len}"));
        }
        Ok(Table { pos, vtable, vtable_len })
    }

    /// Position of field `id` of `t`, or `None` when absent (default value).
    fn field(&self, t: Table, id: usize) -> Result<Option<usize>, ContainerError> {
        let slot = 4 + 2 * id;
        if slot + 2 > t.vtable_len {
            return Ok(None);
        }
        match self.u16(t.vtable + slot)? {
            0 => Ok(None),
            off => Ok(Some(t.pos + off)),
        }
    }

    fn string(&self, t: Table, id: usize, name: &str) -> Result<String, ContainerError> {
        let Some(at) = self.field(t, id)? else {
            return Ok(String::new());
        };
        let s = self.follow(at)?;
        let n = self.u32(s)?;
        let Some(raw) = self.buf.get(s + 4..).and_then(|r| r.get(..n)) else {
            return err(self.base + s, format!("footer: {name} of {n} bytes past its end"));
        };
        match std::str::from_utf8(raw) {
            Ok(v) => Ok(v.to_owned()),
            Err(_) => err(self.base + s, format!("footer: {name} is not UTF-8")),
        }
    }

    fn scalar<const N: usize>(&self, t: Table, id: usize) -> Result<[u8; N], ContainerError> {
        match self.field(t, id)? {
            Some(at) => self.bytes(at),
            None => Ok([0; N]),
        }
    }

    fn footer(&self) -> Result<Footer, ContainerError> {
        let root = self.table(self.follow(0)?)?;
        let file_identifier = self.string(root, 0, "file_identifier")?;
        let software = self.string(root, 1, "software")?;
        let pod5_version = self.string(root, 2, "pod5_version")?;
        let mut contents = Vec::new();
        if let Some(at) = self.field(root, 3)? {
            let v = self.follow(at)?;
            let n = self.u32(v)?;
            if n > (self.buf.len() - v - 4) / 4 {
                return err(self.base + v, format!("footer: {n} embedded files cannot fit"));
            }
            for i in 0..n {
                let elem = v + 4 + 4 * i;
                let t = self.table(self.follow(elem)?)?;
                let offset = i64::from_le_bytes(self.scalar(t, 0)?);
                let length = i64::from_le_bytes(self.scalar(t, 1)?);
                let format = i16::from_le_bytes(self.scalar(t, 2)?);
                let content = i16::from_le_bytes(self.scalar(t, 3)?);
                if offset < 0 || length < 0 {
                    return err(
                        self.base + elem,
                        format!("footer: embedded file {i} at {offset}+{length}"),
                    );
                }
                if format != 0 {
                    return err(
                        self.base + elem,
                        format!("footer: embedded file {i} has format {format}, only Arrow IPC (0) exists"),
                    );
                }
                contents.push(EmbeddedFile {
                    offset: offset as u64,
                    length: length as u64,
                    content_type: ContentType::from_code(content),
                });
            }
        }
        Ok(Footer { file_identifier, software, pod5_version, contents })
    }
}

/// The Arrow IPC file magic that opens and closes each embedded table.
const ARROW_MAGIC: &[u8; 6] = b"ARROW1";

/// Bytes scanned for a section marker at a time (4 MiB).
const SCAN_WINDOW: usize = 4 << 20;

/// The embedded files of a POD5 file whose footer is missing or damaged (a writer that
/// died while closing it, a copy cut short), found by scanning: each is an Arrow IPC file
/// (`ARROW1` ... `ARROW1`) padded to 8 bytes and followed by the section marker the file
/// opens with. Returns them in file order with the bytes they span, and where the scan
/// stopped (the first byte that is not a whole embedded file). Their content types are the
/// caller's to tell (by their schemas); they are given here as `Unknown(-1)`.
pub(crate) fn scan(src: &svb_io::Source) -> Result<(Vec<EmbeddedFile>, u64), ContainerError> {
    let len = src.len();
    if len < HEAD_LEN as u64 {
        return err(0, format!("{len} bytes, too short for a POD5 file"));
    }
    let head =
        src.read_vec(0, HEAD_LEN).or_else(|e| err(0, format!("reading {HEAD_LEN} bytes: {e}")))?;
    if head[..8] != SIGNATURE {
        return err(0, "not a POD5 file (signature mismatch)");
    }
    let marker: [u8; MARKER_LEN] = head[8..HEAD_LEN].try_into().expect("16 bytes");
    let mut files = Vec::new();
    let mut at = HEAD_LEN as u64;
    while at + 8 <= len {
        let magic =
            src.read_vec(at, 8).or_else(|e| err(at as usize, format!("reading 8 bytes: {e}")))?;
        if magic[..6] != *ARROW_MAGIC {
            break;
        }
        let Some(end) = embedded_end(src, at, &marker)? else {
            break;
        };
        files.push(EmbeddedFile {
            offset: at,
            length: end - at,
            content_type: ContentType::Unknown(-1),
        });
        at = end.next_multiple_of(8) + MARKER_LEN as u64;
    }
    Ok((files, at))
}

/// The end of the embedded Arrow file that starts at `start`: the first section marker
/// after it whose preceding bytes (less up to 7 of padding) end with `ARROW1`; `None` when
/// none follows (the file is cut inside it).
fn embedded_end(
    src: &svb_io::Source, start: u64, marker: &[u8; MARKER_LEN],
) -> Result<Option<u64>, ContainerError> {
    let len = src.len();
    // Each window overlaps the one before by a marker less a byte, and reaches back to the
    // magic and padding a marker follows.
    let back = (ARROW_MAGIC.len() + 7) as u64;
    let mut from = start + 8;
    while from < len {
        let to = (from + SCAN_WINDOW as u64).min(len);
        let lo = from.saturating_sub(back).max(start);
        let bytes = src
            .read_vec(lo, (to - lo) as usize)
            .or_else(|e| err(lo as usize, format!("reading {} bytes: {e}", to - lo)))?;
        let mut i = (from - lo) as usize;
        while let Some(k) = bytes[i..].windows(MARKER_LEN).position(|w| w == marker).map(|k| k + i)
        {
            let m = lo + k as u64;
            // The Arrow file's length is within 7 bytes before the marker (its padding).
            for pad in 0..8u64 {
                let end = m - pad;
                let ok = end >= start + 8 + ARROW_MAGIC.len() as u64
                    && (end - start).next_multiple_of(8) == m - start
                    && k >= pad as usize + ARROW_MAGIC.len()
                    && bytes[k - pad as usize - ARROW_MAGIC.len()..k - pad as usize]
                        == *ARROW_MAGIC;
                if ok {
                    return Ok(Some(end));
                }
            }
            i = k + 1;
        }
        if to == len {
            break;
        }
        from = to - (MARKER_LEN as u64 - 1);
    }
    Ok(None)
}
