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
    /// The files they name, all of one format ([`svb_reads::expand_inputs`]).
    pub fn expand(&self) -> Result<(Format, Vec<PathBuf>), String> {
        svb_reads::expand_inputs(&self.inputs, self.recursive).map_err(|e| error_chain(&e))
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
