//! FAST5 files for the file commands.

use std::io::Write;
use std::path::Path;

use svb_fast5::{Layout, Reader};

use crate::files::SignalFile;
use svb_model::Format;
use svb_reads::AnyReader;

use crate::output::json_str;

/// What `info` says of a FAST5 file: its layout, its `file_version`, its runs (in first-read
/// order) and how many reads' attributes did not read.
fn summary(r: &Reader) -> (&'static str, String, Vec<String>, usize) {
    let layout = match r.layout() {
        Layout::SingleRead => "single-read",
        _ => "multi-read",
    };
    let version = r
        .root_attributes()
        .ok()
        .and_then(|a| svb_fast5::find(&a, "file_version").map(|v| v.to_text()))
        .unwrap_or_default();
    let mut runs: Vec<String> = Vec::new();
    let mut unreadable = 0;
    for i in 0..r.len() {
        match r.read(i) {
            Ok(read) if !runs.contains(&read.run_id) => runs.push(read.run_id),
            Ok(_) => {}
            Err(_) => unreadable += 1,
        }
    }
    (layout, version, runs, unreadable)
}

impl SignalFile for Reader {
    const FORMAT: Format = Format::Fast5;

    fn of(r: &AnyReader) -> Option<&Self> {
        r.fast5()
    }

    fn write_info(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let (layout, version, runs, unreadable) = summary(self);
        writeln!(out, "layout: {layout}")?;
        writeln!(out, "file_version: {version}")?;
        writeln!(out, "runs: {}", runs.len())?;
        for run in &runs {
            writeln!(out, "  run_id {run}")?;
        }
        writeln!(out, "reads: {}", self.len())?;
        if unreadable > 0 {
            writeln!(
                out,
                "reads whose attributes do not read: {unreadable} (svb view names them)"
            )?;
        }
        Ok(())
    }

    fn info_json(&self, path: &Path) -> String {
        let (layout, version, runs, unreadable) = summary(self);
        let runs: Vec<String> = runs.iter().map(|r| json_str(r)).collect();
        format!(
            "{{\"file\":{},\"format\":\"fast5\",\"layout\":\"{layout}\",\"file_version\":{},\"runs\":[{}],\"reads\":{},\"unreadable_reads\":{unreadable}}}",
            json_str(&path.display().to_string()),
            json_str(&version),
            runs.join(","),
            self.len()
        )
    }
}
