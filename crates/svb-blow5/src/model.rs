//! The BLOW5 reader (of BLOW5 and SLOW5 text) as the read model's [`ReadSource`]: a record's
//! primary fields under [`BLOW5_PRIMARY_FIELDS`](svb_model::BLOW5_PRIMARY_FIELDS)' names,
//! then its auxiliary fields by their own.

use std::path::Path;

use svb_model::{
    per_read, per_read_names, Calibration, Fields, Format, Read, ReadSource, Signal, Value,
};

use crate::{AuxValue, Blow5Error, FieldType, Header, Reader, Record};

impl ReadSource for Reader {
    type Error = Blow5Error;

    fn expect_scan(&self) {
        self.source().expect_scan();
    }

    /// Their records, fetched together.
    fn plan(&self, indices: &[usize]) {
        Reader::plan(self, indices);
    }

    fn format(&self) -> Format {
        self.header().form.format()
    }

    fn path(&self) -> &Path {
        Reader::path(self)
    }

    fn len(&self) -> usize {
        Reader::len(self)
    }

    /// Its stored bytes (about 1-2 bytes a sample).
    fn weight(&self, index: usize) -> u64 {
        self.record_span(index).map_or(0, |(_, size)| size)
    }

    fn read_id(&self, index: usize) -> Result<String, Blow5Error> {
        Reader::read_id(self, index)
    }

    /// Through the reader's index of ids ([`Reader::find_many`]): the one that came with the
    /// file ([`Reader::use_index`]), checked against the record it leads to, else one read
    /// from the records on the first call.
    fn find(&self, read_id: &str) -> Result<Option<usize>, Blow5Error> {
        Ok(self.find_many(&[read_id.to_string()])?.pop().flatten())
    }

    fn find_many(&self, read_ids: &[String]) -> Result<Vec<Option<usize>>, Blow5Error> {
        Reader::find_many(self, read_ids)
    }

    fn signal_into(&self, index: usize, samples: &mut Vec<i16>) -> Result<Calibration, Blow5Error> {
        let mut rec = Record { raw_signal: std::mem::take(samples), ..Record::default() };
        let r = self.record_into(index, &mut rec);
        *samples = std::mem::take(&mut rec.raw_signal);
        r.map(|()| calibration(&rec))
    }

    /// The record's fields, its signal not decoded.
    fn fields(&self, index: usize) -> Result<Fields, Blow5Error> {
        let mut rec = Record::default();
        let samples = self.fields_into(index, &mut rec)?;
        Ok(fields_with_len(self.header(), &rec, samples))
    }

    /// The record decoded once for its fields and its signal.
    fn signal(&self, index: usize) -> Result<Signal, Blow5Error> {
        let rec = self.record(index)?;
        Ok(Signal { calibration: calibration(&rec), read_id: rec.read_id, samples: rec.raw_signal })
    }

    /// The record decoded once for its fields and its signal.
    fn read(&self, index: usize) -> Result<Read, Blow5Error> {
        let rec = self.record(index)?;
        Ok(Read {
            fields: fields(self.header(), &rec),
            calibration: calibration(&rec),
            read_id: rec.read_id,
            signal: rec.raw_signal,
        })
    }
}

/// A record's calibration: slow5lib's `(adc + offset) * range / digitisation`.
pub fn calibration(rec: &Record) -> Calibration {
    Calibration::of_range(rec.offset, rec.range, rec.digitisation)
}

/// The fields of a record: the primary fields
/// ([`BLOW5_PRIMARY_FIELDS`](svb_model::BLOW5_PRIMARY_FIELDS) after `read_id` and `filename`),
/// then every auxiliary field by name (arrays as lists of their C type, `char*` as text, enums
/// by their label).
pub fn fields(header: &Header, rec: &Record) -> Fields {
    fields_with_len(header, rec, rec.raw_signal.len() as u64)
}

/// [`fields`] of a record whose signal holds `samples` samples (decoded or not).
fn fields_with_len(header: &Header, rec: &Record, samples: u64) -> Fields {
    let mut fields: Fields = per_read(&svb_model::BLOW5_PRIMARY_FIELDS)
        .iter()
        .zip(per_read_names(Format::Blow5))
        .map(|(&(name, _), key)| {
            let v = match name {
                "read_group" => Value::UInt(rec.read_group.into()),
                "digitisation" => Value::Float(rec.digitisation),
                "offset" => Value::Float(rec.offset),
                "range" => Value::Float(rec.range),
                "sampling_rate" => Value::Float(rec.sampling_rate),
                "len_raw_signal" => Value::UInt(samples),
                other => unreachable!("{other} is not a BLOW5 primary field"),
            };
            (key.clone(), v)
        })
        .collect();
    for (j, (name, v)) in rec.aux.iter().enumerate() {
        let ty = header.aux.get(j).map(|a| &a.ty);
        fields.push((name.as_str().into(), aux_value(ty, v)));
    }
    fields
}

/// An auxiliary value as a [`Value`] of its field's type.
fn aux_value(ty: Option<&FieldType>, v: &AuxValue) -> Value {
    match v {
        AuxValue::Int(i) => Value::Int(*i),
        AuxValue::UInt(u) => Value::UInt(*u),
        AuxValue::Float(f) => Value::Float(*f),
        AuxValue::Text(t) => Value::Text(t.clone()),
        AuxValue::Char(c) => Value::Text(char::from(*c).to_string()),
        // An index with no label (slow5lib's missing value, 255) is missing.
        AuxValue::Enum(_, label) => label.clone().map_or(Value::None, Value::Text),
        AuxValue::Array(b) => {
            let Some(FieldType::Array { name, size }) = ty else {
                return Value::Bytes(b.clone());
            };
            let items = b.chunks_exact((*size).max(1));
            match name.as_str() {
                "float" => Value::Floats(
                    items.map(|c| f32::from_le_bytes(c.try_into().expect("4")).into()).collect(),
                ),
                "double" => Value::Floats(
                    items.map(|c| f64::from_le_bytes(c.try_into().expect("8"))).collect(),
                ),
                n if n.starts_with("uint") || n.starts_with("int") => {
                    let signed = n.starts_with("int");
                    Value::Ints(
                        items
                            .map(|c| {
                                let mut le = [0u8; 8];
                                le[..c.len()].copy_from_slice(c);
                                let u = u64::from_le_bytes(le);
                                let bits = 8 * c.len() as u32;
                                if signed && bits < 64 {
                                    // Sign-extend from the item's width.
                                    ((u << (64 - bits)) as i64) >> (64 - bits)
                                } else {
                                    u as i64
                                }
                            })
                            .collect(),
                    )
                }
                _ => Value::Bytes(b.clone()),
            }
        }
    }
}
