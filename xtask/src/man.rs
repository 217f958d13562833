//! `cargo xtask man [--out DIR]`: the `svb` command's man pages (clap_mangen), one per
//! command: `svb.1`, `svb-convert.1`, `svb-pod5-verify.1`, ... (default DIR: target/man).

use std::path::{Path, PathBuf};

use crate::util::{check_args, opt, root};

pub fn main(args: &[String]) -> Result<(), String> {
    check_args(args, &[], &["--out"])?;
    let out = match opt(args, "--out") {
        Some(dir) => PathBuf::from(dir),
        None => root().join("target/man"),
    };
    std::fs::create_dir_all(&out).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut written = 0;
    // Built first, so that each subcommand's page lists the global options too.
    let mut svb = svb_cli::command();
    svb.build();
    write_pages(svb, "svb", &out, &mut written)?;
    println!("{written} man pages in {}", out.display());
    Ok(())
}

/// `cmd`'s page as `NAME.1` in `out`, then each subcommand's as `NAME-SUB.1` (help
/// subcommands left out).
fn write_pages(
    cmd: clap::Command, name: &str, out: &Path, written: &mut usize,
) -> Result<(), String> {
    let cmd = cmd.name(name.to_string()).bin_name(name.replace('-', " "));
    let mut page = Vec::new();
    clap_mangen::Man::new(cmd.clone()).render(&mut page).map_err(|e| format!("{name}: {e}"))?;
    let path = out.join(format!("{name}.1"));
    std::fs::write(&path, page).map_err(|e| format!("{}: {e}", path.display()))?;
    *written += 1;
    for sub in cmd.get_subcommands().filter(|s| s.get_name() != "help") {
        let sub_name = format!("{name}-{}", sub.get_name());
        write_pages(sub.clone(), &sub_name, out, written)?;
    }
    Ok(())
}
