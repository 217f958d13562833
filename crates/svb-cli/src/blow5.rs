//! BLOW5 files and SLOW5 text for the file commands.

use std::io::Write;
use std::path::Path;

use svb_blow5::Reader;

use crate::files::SignalFile;
use svb_model::Format;
use svb_reads::AnyReader;

use crate::output::json_str;

impl SignalFile for Reader {
    const FORMAT: Format = Format::Blow5;

    fn of(r: &AnyReader) -> Option<&Self> {
        r.blow5()
    }

    fn write_info(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let h = self.header();
        writeln!(out, "format: {}", h.form.format().name())?;
        writeln!(out, "version: {}.{}.{}", h.version.0, h.version.1, h.version.2)?;
        writeln!(out, "record compression: {}", h.record_compression)?;
        writeln!(out, "signal compression: {}", h.signal_compression)?;
        writeln!(out, "read groups: {}", h.read_groups.len())?;
        for (g, attrs) in h.read_groups.iter().enumerate() {
            if let Some(run) = h.attribute(g, "run_id") {
                writeln!(out, "  {g}: run_id {run} ({} attributes)", attrs.len())?;
            }
        }
        writeln!(out, "records: {}", self.len())?;
        let aux: Vec<&str> = h.aux.iter().map(|a| a.name.as_str()).collect();
        writeln!(out, "auxiliary fields: {}", aux.join(", "))?;
        Ok(())
    }

    fn info_json(&self, path: &Path) -> String {
        let h = self.header();
        let groups: Vec<String> = h
            .read_groups
            .iter()
            .map(|attrs| {
                let kv: Vec<String> =
                    attrs.iter().map(|(k, v)| format!("{}:{}", json_str(k), json_str(v))).collect();
                format!("{{{}}}", kv.join(","))
            })
            .collect();
        let aux: Vec<String> = h.aux.iter().map(|a| json_str(&a.name)).collect();
        format!(
            "{{\"file\":{},\"format\":\"{}\",\"version\":\"{}.{}.{}\",\"record_compression\":\"{}\",\"signal_compression\":\"{}\",\"read_groups\":[{}],\"auxiliary_fields\":[{}],\"records\":{}}}",
            json_str(&path.display().to_string()),
            h.form.format().extension(),
            h.version.0,
            h.version.1,
            h.version.2,
            h.record_compression,
            h.signal_compression,
            groups.join(","),
            aux.join(","),
            self.len()
        )
    }
}
