//! POD5 files for the file commands.

use std::path::Path;

use svb_vbz::pod5::{Reader, TableVersion};

use crate::files::SignalFile;
use crate::output::json_str;

impl SignalFile for Reader {
    fn open(path: &Path) -> Result<Self, String> {
        Reader::open(path).map_err(|e| e.to_string())
    }

    fn len(&self) -> usize {
        Reader::len(self)
    }

    fn read(&self, index: usize) -> Result<(String, Vec<i16>), String> {
        let s = self.decode_signal(index).map_err(|e| e.to_string())?;
        Ok((self.reads()[index].read_id_string(), s))
    }

    fn print_info(&self, path: &Path) {
        let f = self.footer();
        println!("file: {}", path.display());
        println!("file identifier: {}", f.file_identifier);
        println!("software: {}", f.software);
        println!("pod5 version: {}", f.pod5_version);
        let layout = match self.table_version() {
            TableVersion::V0 => "version 0 (dictionary-of-struct columns)",
            TableVersion::V1OrLater => "version 1 or later",
        };
        println!("reads table: {layout}");
        println!(
            "signal: {:?}, {} chunks",
            self.signal_encoding(),
            self.signal_rows()
        );
        for t in &f.contents {
            println!(
                "  table {:?} at byte {} ({} bytes)",
                t.content_type, t.offset, t.length
            );
        }
        println!("runs: {}", self.run_infos().len());
        for run in self.run_infos() {
            println!(
                "  {}: flow cell {}, kit {}, {} Hz, ADC {}..{}, {}",
                run.acquisition_id,
                run.flow_cell_id,
                run.sequencing_kit,
                run.sample_rate,
                run.adc_min,
                run.adc_max,
                json_str(&run.experiment_name)
            );
        }
        let samples: u64 = self.reads().iter().map(|x| x.num_samples).sum();
        println!("reads: {}", self.len());
        println!("samples: {samples}");
    }
}
