//! POD5 files for the file commands.

use std::io::Write;
use std::path::Path;

use svb_pod5::{Reader, TableVersion};

use crate::files::SignalFile;
use svb_model::Format;
use svb_reads::AnyReader;

use crate::output::json_str;

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
        writeln!(out, "signal: {}, {} chunks", self.signal_encoding(), self.signal_rows())?;
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
        let samples: u64 = self.reads().iter().map(|x| x.num_samples).sum();
        writeln!(out, "reads: {}", self.len())?;
        writeln!(out, "samples: {samples}")?;
        Ok(())
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
        let samples: u64 = self.reads().iter().map(|x| x.num_samples).sum();
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
            self.signal_rows(),
            tables.join(","),
            runs.join(","),
            self.len(),
        )
    }
}
