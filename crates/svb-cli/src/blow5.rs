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

    fn write_stats(&self, file: &Path, out: &mut dyn Write) -> Result<(), String> {
        out.write_all(stats_text(self, file).as_bytes()).map_err(|e| e.to_string())
    }

    fn write_skim(&self, what: crate::files::Skim, out: &mut dyn Write) -> Result<(), String> {
        write_skim(self, what, out)
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

/// slow5tools stats' lines of `r` (`path` as the user gave it).
fn stats_text(r: &Reader, path: &Path) -> String {
    let h = r.header();
    let (major, minor, patch) = h.version;
    let format = match h.form {
        svb_model::Form::Text => "SLOW5 ASCII",
        svb_model::Form::Binary => "BLOW5",
    };
    let aux: Vec<&str> = h.aux.iter().map(|a| a.name.as_str()).collect();
    let aux_line = match aux.is_empty() {
        true => "auxiliary fields\n".to_string(),
        false => format!("auxiliary fields\t{}\n", aux.join(",")),
    };
    format!(
        "file path\t{}\nfile version\t{major}.{minor}.{patch}\nfile format\t{format}\n\
         record compression method\t{}\nsignal compression method\t{}\n\
         number of read groups\t{}\nnumber of auxiliary fields\t{}\n{aux_line}\
         number of records\t{}\n",
        path.display(),
        h.record_compression,
        h.signal_compression,
        h.read_groups.len(),
        aux.len(),
        r.len()
    )
}

/// slow5tools skim's output of `r`: its records (read a window at a time on every core, no
/// signal decoded), its read ids or its header.
pub(crate) fn write_skim(
    r: &Reader, what: crate::files::Skim, out: &mut dyn Write,
) -> Result<(), String> {
    use rayon::prelude::*;
    let io = |e: std::io::Error| e.to_string();
    let h = r.header();
    match what {
        crate::files::Skim::Header => {
            let text =
                svb_blow5::Schema::of(h).text().map_err(|e| crate::output::error_chain(&e))?;
            let (major, minor, patch) = h.version;
            write!(
                out,
                "#slow5_version\t{major}.{minor}.{patch}\n#num_read_groups\t{}\n{text}",
                h.read_groups.len()
            )
            .map_err(io)
        }
        crate::files::Skim::ReadIds => {
            for i in 0..r.len() {
                let id = r.read_id(i).map_err(|e| crate::output::error_chain(&e))?;
                writeln!(out, "{id}").map_err(io)?;
            }
            Ok(())
        }
        crate::files::Skim::Records => {
            out.write_all(svb_blow5::skim_names(&h.aux).as_bytes()).map_err(io)?;
            let n = r.len();
            for start in (0..n).step_by(4096) {
                let lines: Vec<Result<Vec<u8>, String>> = (start..(start + 4096).min(n))
                    .into_par_iter()
                    .map_init(svb_blow5::Record::default, |rec, i| {
                        let samples =
                            r.fields_into(i, rec).map_err(|e| crate::output::error_chain(&e))?;
                        let mut line = Vec::with_capacity(256);
                        svb_blow5::skim_line(rec, samples, &h.aux, &mut line);
                        Ok(line)
                    })
                    .collect();
                for line in lines {
                    out.write_all(&line?).map_err(io)?;
                }
            }
            Ok(())
        }
    }
}
