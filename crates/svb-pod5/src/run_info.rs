//! The run-info table (and version 0's embedded run-info dictionary): one [`RunInfo`] per
//! acquisition.

use arrow_array::cast::AsArray;
use arrow_array::types::{Int16Type, TimestampMillisecondType, UInt16Type};
use arrow_array::{Array, ArrayRef, PrimitiveArray, RecordBatch};
use arrow_schema::DataType;

use crate::columns::{strings, value, whole, Columns, StringColumn, TableError};

pub use svb_model::ont::RunInfo;

/// The run-info table (or version 0's embedded run-info dictionary).
pub(crate) fn parse_run_infos_batches(batches: &[RecordBatch]) -> Result<Vec<RunInfo>, TableError> {
    let mut out = Vec::new();
    for b in batches {
        out.extend(parse_run_infos(&Columns::of_batch(b), b.num_rows())?);
    }
    Ok(out)
}

pub(super) fn parse_run_infos(c: &Columns<'_>, rows: usize) -> Result<Vec<RunInfo>, TableError> {
    let s = |name: &str| StringColumn::new(c.get(name), name);
    let acquisition_id = s("acquisition_id")?;
    let experiment_name = s("experiment_name")?;
    let flow_cell_id = s("flow_cell_id")?;
    let flow_cell_product_code = s("flow_cell_product_code")?;
    let protocol_name = s("protocol_name")?;
    let protocol_run_id = s("protocol_run_id")?;
    let sample_id = s("sample_id")?;
    let sequencing_kit = s("sequencing_kit")?;
    let sequencer_position = s("sequencer_position")?;
    let sequencer_position_type = s("sequencer_position_type")?;
    let software = s("software")?;
    let system_name = s("system_name")?;
    let system_type = s("system_type")?;
    let acq_start = timestamp(c, "acquisition_start_time")?;
    let proto_start = timestamp(c, "protocol_start_time")?;
    let adc_max = c.prim::<Int16Type>("adc_max")?;
    let adc_min = c.prim::<Int16Type>("adc_min")?;
    let sample_rate = c.prim::<UInt16Type>("sample_rate")?;
    let context_tags = c.get("context_tags");
    let tracking_id = c.get("tracking_id");
    (0..rows)
        .map(|i| {
            let row = i as u64;
            Ok(RunInfo {
                acquisition_id: acquisition_id.get(i).to_string(),
                acquisition_start_time_ms: value(acq_start, i, row, "acquisition_start_time")?
                    .unwrap_or(0),
                adc_max: value(adc_max, i, row, "adc_max")?.unwrap_or(0),
                adc_min: value(adc_min, i, row, "adc_min")?.unwrap_or(0),
                experiment_name: experiment_name.get(i).to_string(),
                flow_cell_id: flow_cell_id.get(i).to_string(),
                flow_cell_product_code: flow_cell_product_code.get(i).to_string(),
                protocol_name: protocol_name.get(i).to_string(),
                protocol_run_id: protocol_run_id.get(i).to_string(),
                protocol_start_time_ms: value(proto_start, i, row, "protocol_start_time")?
                    .unwrap_or(0),
                sample_id: sample_id.get(i).to_string(),
                sample_rate: value(sample_rate, i, row, "sample_rate")?.unwrap_or(0),
                sequencing_kit: sequencing_kit.get(i).to_string(),
                sequencer_position: sequencer_position.get(i).to_string(),
                sequencer_position_type: sequencer_position_type.get(i).to_string(),
                software: software.get(i).to_string(),
                system_name: system_name.get(i).to_string(),
                system_type: system_type.get(i).to_string(),
                context_tags: map_pairs(context_tags, i, "context_tags")?,
                tracking_id: map_pairs(tracking_id, i, "tracking_id")?,
            })
        })
        .collect()
}

pub(super) fn timestamp<'a>(
    c: &Columns<'a>, name: &str,
) -> Result<Option<&'a PrimitiveArray<TimestampMillisecondType>>, TableError> {
    match c.get(name) {
        None => Ok(None),
        Some(a) => match a.data_type() {
            DataType::Timestamp(arrow_schema::TimeUnit::Millisecond, _) => {
                Ok(a.as_primitive_opt::<TimestampMillisecondType>())
            }
            t => whole(format!("column {name} is {t}, expected timestamp[ms]")),
        },
    }
}

pub(super) fn map_pairs(
    a: Option<&ArrayRef>, row: usize, name: &str,
) -> Result<Vec<(String, String)>, TableError> {
    let Some(a) = a else {
        return Ok(Vec::new());
    };
    let Some(m) = a.as_map_opt() else {
        return whole(format!("column {name} is {}, expected a map", a.data_type()));
    };
    if m.is_null(row) {
        return Ok(Vec::new());
    }
    let entries = m.value(row);
    let (keys, values) = (entries.column(0), entries.column(1));
    let keys = strings(keys, name)?;
    let values = strings(values, name)?;
    Ok(keys.iter().zip(values.iter()).map(|(k, v)| (k.to_string(), v.to_string())).collect())
}
