//! The FAST5 reader as the read model's [`ReadSource`]: a read's attributes under
//! [`FAST5_FIELDS`](svb_model::FAST5_FIELDS)' names.

use std::path::Path;

use svb_model::{
    per_read, per_read_names, Calibration, Fields, Format, Read as ModelRead, ReadSource, Value,
};

use crate::{Fast5Error, ReadAttributes, Reader};

impl ReadSource for Reader {
    type Error = Fast5Error;

    fn format(&self) -> Format {
        Format::Fast5
    }

    fn path(&self) -> &Path {
        Reader::path(self)
    }

    fn len(&self) -> usize {
        Reader::len(self)
    }

    /// The sample count its signal dataset declares.
    fn weight(&self, index: usize) -> u64 {
        self.samples(index).unwrap_or(0)
    }

    fn read_id(&self, index: usize) -> Result<String, Fast5Error> {
        Reader::read_id(self, index).map(str::to_owned)
    }

    fn find(&self, read_id: &str) -> Result<Option<usize>, Fast5Error> {
        Ok(Reader::find(self, read_id))
    }

    fn signal_into(&self, index: usize, samples: &mut Vec<i16>) -> Result<Calibration, Fast5Error> {
        Ok(calibration(&self.read_with_signal(index, samples)?))
    }

    /// Its attributes, `num_samples` as its signal dataset declares it.
    fn fields(&self, index: usize) -> Result<Fields, Fast5Error> {
        Ok(fields(&self.read(index)?, self.samples(index)?))
    }

    /// Its groups looked up once for the attributes and the signal.
    fn read(&self, index: usize) -> Result<ModelRead, Fast5Error> {
        let mut signal = Vec::new();
        let read = self.read_with_signal(index, &mut signal)?;
        Ok(ModelRead {
            fields: fields(&read, signal.len() as u64),
            calibration: calibration(&read),
            read_id: read.read_id,
            signal,
        })
    }
}

/// A FAST5 read's calibration: `(adc + offset) * range / digitisation`.
pub fn calibration(read: &ReadAttributes) -> Calibration {
    Calibration::of_range(read.offset, read.range, read.digitisation)
}

/// The fields of a FAST5 read, in the order of [`FAST5_FIELDS`](svb_model::FAST5_FIELDS) after
/// `read_id` and `filename`: an attribute the file does not hold (median before, end reason,
/// pore type in older files) is [`Value::None`]; an end reason by its label (its number where
/// no label names it).
pub fn fields(read: &ReadAttributes, num_samples: u64) -> Fields {
    let text = |s: &Option<String>| s.clone().map_or(Value::None, Value::Text);
    per_read(&svb_model::FAST5_FIELDS)
        .iter()
        .zip(per_read_names(Format::Fast5))
        .map(|(&(name, _), key)| {
            let v = match name {
                // int32 in the file; a negative one (no writer makes it) stays signed.
                "read_number" => u64::try_from(read.read_number)
                    .map_or(Value::Int(read.read_number), Value::UInt),
                "start_time" => Value::UInt(read.start_time),
                "duration" => Value::UInt(read.duration),
                "start_mux" => Value::UInt(read.start_mux),
                "median_before" => read.median_before.map_or(Value::None, Value::Float),
                "end_reason" => match &read.end_reason {
                    Some(e) => match (&e.label, e.value) {
                        (Some(label), _) => Value::Text(label.clone()),
                        (None, Some(v)) => Value::Text(v.to_string()),
                        (None, None) => Value::None,
                    },
                    None => Value::None,
                },
                "channel_number" => Value::Text(read.channel_number.clone()),
                "digitisation" => Value::Float(read.digitisation),
                "offset" => Value::Float(read.offset),
                "range" => Value::Float(read.range),
                "sampling_rate" => Value::Float(read.sampling_rate),
                "run_id" => Value::Text(read.run_id.clone()),
                "pore_type" => text(&read.pore_type),
                "num_samples" => Value::UInt(num_samples),
                other => unreachable!("{other} is not a FAST5 field"),
            };
            (key.clone(), v)
        })
        .collect()
}
