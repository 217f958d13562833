//! A small BLOW5 writer for tests and fuzz seeds: version 0.2.0, one read group, records
//! stored uncompressed with one auxiliary field (`start_mux`). Signal compression is the
//! caller's (the stored bytes are given), so this crate needs no codec.

/// One record: its read id, its `len_raw_signal` (samples, or the blob's bytes when the
/// signal is compressed, as slow5lib stores it) and the signal bytes as stored.
pub struct TestRecord<'a> {
    /// The read id.
    pub read_id: &'a str,
    /// The `len_raw_signal` field.
    pub len_raw_signal: u64,
    /// The signal as stored (int16 LE, or an SVB-ZD / ex-zd blob).
    pub signal: &'a [u8],
}

/// The file's bytes, with signal compression code `signal_press` (0 none, 1 SVB-ZD, 2 ex-zd).
pub fn write(signal_press: u8, records: &[TestRecord<'_>]) -> Vec<u8> {
    // A binary header's text starts at the attributes (slow5lib refuses anything else).
    let text = "@run_id\tseed\n\
        #char*\tuint32_t\tdouble\tdouble\tdouble\tdouble\tuint64_t\tint16_t*\tuint8_t\n\
        #read_id\tread_group\tdigitisation\toffset\trange\tsampling_rate\tlen_raw_signal\traw_signal\tstart_mux\n";
    let mut f = b"BLOW5\x01".to_vec();
    f.extend([0, 2, 0, 0]);
    f.extend(1u32.to_le_bytes());
    f.push(signal_press);
    f.resize(64, 0);
    f.extend((text.len() as u32).to_le_bytes());
    f.extend(text.as_bytes());
    for r in records {
        let mut rec = Vec::new();
        rec.extend((r.read_id.len() as u16).to_le_bytes());
        rec.extend(r.read_id.as_bytes());
        rec.extend(0u32.to_le_bytes());
        for v in [8192.0f64, 10.0, 1400.0, 4000.0] {
            rec.extend(v.to_le_bytes());
        }
        rec.extend(r.len_raw_signal.to_le_bytes());
        rec.extend(r.signal);
        rec.push(3);
        f.extend((rec.len() as u64).to_le_bytes());
        f.extend(rec);
    }
    f.extend(b"5WOLB");
    f
}

/// Sets the sample count of the uncompressed BLOW5 record at `span` (offset, size) of `file`
/// (its bytes), whose read id is `read_id`, to `n`: the count follows the id, the read group
/// and four doubles. A record that no longer decodes (its count past its signal) when `n` is
/// large.
pub fn set_sample_count(file: &mut [u8], span: (u64, u64), read_id: &str, n: u64) {
    let record = &mut file[span.0 as usize..(span.0 + span.1) as usize];
    let id_at = record
        .windows(read_id.len())
        .position(|w| w == read_id.as_bytes())
        .expect("the record holds its id");
    let at = id_at + read_id.len() + 4 + 32;
    record[at..at + 8].copy_from_slice(&n.to_le_bytes());
}

/// A file of uncompressed records, one a read: `(read id, samples)` each, in this order. Reads
/// whose ids have one length and whose signals have one length make records of one size.
pub fn of_reads(reads: &[(&str, &[i16])]) -> Vec<u8> {
    let signals: Vec<Vec<u8>> =
        reads.iter().map(|(_, x)| x.iter().flat_map(|v| v.to_le_bytes()).collect()).collect();
    let records: Vec<TestRecord<'_>> = reads
        .iter()
        .zip(&signals)
        .map(|((id, x), bytes)| TestRecord {
            read_id: id,
            len_raw_signal: x.len() as u64,
            signal: bytes,
        })
        .collect();
    write(0, &records)
}
