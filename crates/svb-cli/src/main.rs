//! `svb`: the command (its definition and its runs are the library's, [`svb_cli::main`]).
#![forbid(unsafe_code)]

fn main() -> std::process::ExitCode {
    svb_cli::main()
}
