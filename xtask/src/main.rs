//! `cargo xtask <command>`: the project's automation.
//!
//! | command | what it does |
//! |---|---|
//! | `cross` | aarch64 (NEON under qemu), x86-64 forced-SIMD feature sets and the no_std + alloc build; one line per target, non-zero exit on any failure |
//! | `fuzz [--seconds N]` | every cargo-fuzz target for N seconds (default 20) on a seeded corpus; fails on any crash |
//! | `bench [--quick] [--filter F]` | runs the criterion suites and prints Melem/s per codec and op, with the peers and ratios |
//! | `bench-report [--quick] [--filter F] [--no-run] [--section NAME]` | the same, written to docs/PERFORMANCE.md; with `--section`, only this run's groups, as a named section that later full reports keep |
//! | `bench-dataset [--rounds R] [--only TEXT] [--report]` | the dataset commands (convert, subset, view, verify, decode, get) against blue-crab and ONT's `pod5` tools in one run; `--only` runs the tasks whose name holds TEXT and prints them; with `--report`, the dataset section of docs/PERFORMANCE.md |
//! | `readme` | each Rust block of the README built as a crate of its own, with the dependencies it names alone (the runnable ones run) |
//! | `man [--out DIR]` | the `svb` command's man pages (clap_mangen), one per command, in DIR (default target/man) |
//! | `bench-compare BASE_DIR [--new DIR] [--baseline NAME] [--threshold X]` | flags every benchmark more than 10% (X = 1.10) slower than the base; non-zero exit if any |

mod bench;
mod cross;
mod dataset;
mod fuzz;
mod man;
mod readme;
mod remote;
mod util;

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (cmd, rest) = match args.split_first() {
        Some((c, r)) => (c.as_str(), r),
        None => ("help", &[][..]),
    };
    let result = match cmd {
        "cross" => cross::main(rest),
        "fuzz" => fuzz::main(rest),
        "bench" => bench::main(rest, false),
        "bench-report" => bench::main(rest, true),
        "bench-compare" => bench::compare(rest),
        "bench-dataset" => dataset::main(rest),
        "bench-remote" => remote::main(rest),
        "man" => man::main(rest),
        "readme" => readme::main(rest),
        "help" | "-h" | "--help" => {
            println!("{}", include_str!("usage.txt"));
            Ok(())
        }
        other => Err(format!("unknown command `{other}`\n\n{}", include_str!("usage.txt"))),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("xtask {cmd}: {e}");
            ExitCode::FAILURE
        }
    }
}
