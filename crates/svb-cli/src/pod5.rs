//! POD5 files for the file commands.

use std::io::Write;
use std::path::Path;

use svb_pod5::{Reader, TableVersion};

use crate::files::SignalFile;
use svb_model::Format;
use svb_reads::AnyReader;

use crate::output::{error_chain, json_str};
use crate::pyrepr::{py_dict, py_float};

impl SignalFile for Reader {
    const FORMAT: Format = Format::Pod5;

    fn of(r: &AnyReader) -> Option<&Self> {
        r.pod5()
    }

    fn write_info(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let f = self.footer();
        writeln!(out, "file identifier: {}", f.file_identifier)?;
        writeln!(out, "software: {}", f.software)?;
        writeln!(out, "pod5 version: {}", f.pod5_version)?;
        let layout = match self.table_version() {
            TableVersion::V0 => "version 0 (dictionary-of-struct columns)",
            TableVersion::V1OrLater => "version 1 or later",
        };
        writeln!(out, "reads table: {layout}")?;
        writeln!(out, "signal: {}, {} chunks", self.signal_encoding(), self.chunk_count())?;
        for t in &f.contents {
            writeln!(out, "  {} at byte {} ({} bytes)", t.content_type, t.offset, t.length)?;
        }
        writeln!(out, "runs: {}", self.run_infos().len())?;
        for run in self.run_infos() {
            writeln!(
                out,
                "  {}: flow cell {}, kit {}, {} Hz, ADC {}..{}, {}",
                run.acquisition_id,
                run.flow_cell_id,
                run.sequencing_kit,
                run.sample_rate,
                run.adc_min,
                run.adc_max,
                json_str(&run.experiment_name)
            )?;
        }
        let samples: u64 = self.reads().iter().map(|x| x.info.num_samples).sum();
        writeln!(out, "reads: {}", self.len())?;
        writeln!(out, "samples: {samples}")?;
        Ok(())
    }

    fn write_read(&self, read_id: &str, out: &mut dyn Write) -> Result<(), String> {
        if svb_model::ont::parse_uuid(read_id).is_none() {
            return Err(format!("Supplied read_id '{read_id}' is not a valid UUID"));
        }
        let i = self.find(read_id).ok_or_else(|| {
            format!("{}: read {read_id} is not in the file", self.path().display())
        })?;
        let r = &self.reads()[i];
        let run = self.run_of(i).map_err(|e| error_chain(&e))?;
        let chunks = self.chunks(i).map_err(|e| error_chain(&e))?;
        let bytes: u64 = chunks.iter().map(|c| c.stored_bytes).sum();
        // pod5's reader gives the f32 columns as Python floats, a column the file's table
        // version lacks as NaN.
        let f = |v: f32| py_float(f64::from(v));
        let opt = |v: Option<f32>| f(v.unwrap_or(f32::NAN));
        let ratio = bytes as f64 / (r.info.num_samples as f64 * 2.0);
        let time = svb_model::ont::format_utc_ms;
        let mut text = format!(
            "read_id: {}\nread_number:\t{}\nstart_sample:\t{}\nmedian_before:\t{}\n\
             open_pore_level:\t{}\nexpected_open_pore_level:\t{}\nselected_read_level:\t{}\n\
             channel data:\n\tchannel: {}\n\twell: {}\n\tpore_type: {}\n\
             end reason:\n\tname: {}\n\tforced: {}\n\
             calibration:\n\toffset: {}\n\tscale: {}\n\
             samples:\n\tsample_count: {}\n\tbyte_count: {bytes}\n\tcompression ratio: {ratio:.3}\n\
             run info:\n",
            r.read_id_string(),
            r.info.read_number,
            r.info.start_sample,
            f(r.info.median_before),
            opt(r.info.open_pore_level),
            opt(r.info.expected_open_pore_level),
            opt(r.info.selected_read_level),
            r.info.channel,
            r.info.well,
            r.info.pore_type,
            r.info.end_reason,
            if r.info.end_reason_forced { "True" } else { "False" },
            f(r.info.calibration_offset),
            f(r.info.calibration_scale),
            r.info.num_samples,
        );
        for (name, value) in [
            ("acquisition_id", run.acquisition_id.clone()),
            ("acquisition_start_time", time(run.acquisition_start_time_ms)),
            ("adc_max", run.adc_max.to_string()),
            ("adc_min", run.adc_min.to_string()),
            ("context_tags", py_dict(&run.context_tags)),
            ("experiment_name", run.experiment_name.clone()),
            ("flow_cell_id", run.flow_cell_id.clone()),
            ("flow_cell_product_code", run.flow_cell_product_code.clone()),
            ("protocol_name", run.protocol_name.clone()),
            ("protocol_run_id", run.protocol_run_id.clone()),
            ("protocol_start_time", time(run.protocol_start_time_ms)),
            ("sample_id", run.sample_id.clone()),
            ("sample_rate", run.sample_rate.to_string()),
            ("sequencing_kit", run.sequencing_kit.clone()),
            ("sequencer_position", run.sequencer_position.clone()),
            ("sequencer_position_type", run.sequencer_position_type.clone()),
            ("software", run.software.clone()),
            ("system_name", run.system_name.clone()),
            ("system_type", run.system_type.clone()),
            ("tracking_id", py_dict(&run.tracking_id)),
        ] {
            text.push_str(&format!("\t{name}: {value}\n"));
        }
        out.write_all(text.as_bytes()).map_err(|e| e.to_string())
    }

    fn info_json(&self, path: &Path) -> String {
        let f = self.footer();
        let tables: Vec<String> = f
            .contents
            .iter()
            .map(|t| {
                format!(
                    "{{\"content\":{},\"offset\":{},\"length\":{}}}",
                    json_str(&t.content_type.to_string()),
                    t.offset,
                    t.length
                )
            })
            .collect();
        let runs: Vec<String> = self
            .run_infos()
            .iter()
            .map(|r| {
                format!(
                    "{{\"acquisition_id\":{},\"flow_cell_id\":{},\"sequencing_kit\":{},\"sample_rate\":{},\"adc_min\":{},\"adc_max\":{},\"experiment_name\":{}}}",
                    json_str(&r.acquisition_id),
                    json_str(&r.flow_cell_id),
                    json_str(&r.sequencing_kit),
                    r.sample_rate,
                    r.adc_min,
                    r.adc_max,
                    json_str(&r.experiment_name)
                )
            })
            .collect();
        let samples: u64 = self.reads().iter().map(|x| x.info.num_samples).sum();
        format!(
            "{{\"file\":{},\"format\":\"pod5\",\"file_identifier\":{},\"software\":{},\"pod5_version\":{},\"reads_table_version\":\"{}\",\"signal\":\"{}\",\"signal_chunks\":{},\"tables\":[{}],\"runs\":[{}],\"reads\":{},\"samples\":{samples}}}",
            json_str(&path.display().to_string()),
            json_str(&f.file_identifier),
            json_str(&f.software),
            json_str(&f.pod5_version),
            match self.table_version() {
                TableVersion::V0 => "0",
                TableVersion::V1OrLater => "1+",
            },
            self.signal_encoding(),
            self.chunk_count(),
            tables.join(","),
            runs.join(","),
            self.len(),
        )
    }
}
