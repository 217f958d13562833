//! The input files of the dataset commands: files and directories given on the command line,
//! expanded to the POD5, BLOW5, SLOW5 or FAST5 files they hold.

use std::path::PathBuf;

use svb_model::Format;

use crate::output::error_chain;

/// The inputs of a dataset command, as its arguments.
#[derive(clap::Args)]
pub struct Inputs {
    /// POD5, BLOW5, SLOW5 or FAST5 files, or directories holding them (all of one format).
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// Look for files in the directories' subdirectories too.
    #[arg(short, long)]
    recursive: bool,
}

impl Inputs {
    /// The files they name, all of one format ([`svb_reads::expand`]); a FIFO, socket or
    /// device a directory's walk found under a format's name is left aside and named on
    /// stderr as `command`'s.
    pub fn expand(&self, command: &str) -> Result<(Format, Vec<PathBuf>), String> {
        let (format, files, _) = self.expand_for(command, false)?;
        Ok((format, files))
    }

    /// [`expand`](Inputs::expand); with `keep_going` (`--keep-going`) an input whose format
    /// cannot be told (empty, of no known format, unreadable) or a directory that cannot be
    /// listed is named on stderr and left out instead of stopping the command. Returns the
    /// format, the files and how many inputs were left out.
    pub fn expand_for(
        &self, command: &str, keep_going: bool,
    ) -> Result<(Format, Vec<PathBuf>, usize), String> {
        let e = svb_reads::expand(&self.inputs, self.recursive, keep_going)
            .map_err(|e| error_chain(&e))?;
        for p in &e.not_files {
            eprintln!(
                "svb: {command}: {}: not a file (a FIFO, socket or device); left aside",
                p.display()
            );
        }
        for why in &e.left_out {
            eprintln!("svb: {command}: left out: {}", error_chain(why));
        }
        Ok((e.format, e.files, e.left_out.len()))
    }
}

/// The identities of `files`, to refuse an output that is one of them.
pub fn identities(files: &[PathBuf]) -> Result<svb_io::Inputs, String> {
    svb_io::Inputs::new(files).map_err(|e| e.to_string())
}

/// The format of an output file by its extension ([`Format::of_output`]).
pub fn output_format(output: &std::path::Path) -> Result<Format, String> {
    Format::of_output(output).map_err(|e| e.to_string())
}

/// The value parser of an option that names one of `formats` (`--to blow5`): their extensions'
/// names are the possible values (what `--help` and completions show), each parsed by
/// `Format`'s `FromStr`.
pub fn format_parser(
    formats: &'static [Format],
) -> impl clap::builder::TypedValueParser<Value = Format> {
    use clap::builder::TypedValueParser;
    clap::builder::PossibleValuesParser::new(formats.iter().map(|f| f.extension()))
        .try_map(|name| name.parse::<Format>())
}
