//! `svb`: the command (its definition and its runs are the library's, [`svb_cli::main`]).
#![forbid(unsafe_code)]

fn main() -> std::process::ExitCode {
    fixed_mmap_threshold();
    svb_cli::main()
}

/// glibc's malloc raises its mmap threshold each time a large block is freed (up to 32 MiB),
/// so that the multi-megabyte buffers of long reads come from per-thread arenas, which keep
/// them once freed: with 16 threads, a subset of 60 reads of 2 million samples peaked at
/// 413 MB, a merge at 543 MB. With the threshold fixed at 1 MiB such buffers are mapped and
/// given back when freed: 150 MB and 230 MB, at the same speed (docs/PERFORMANCE.md,
/// "Design measurements"). glibc takes the setting from the environment at start only (a call would need
/// `unsafe`), so the binary starts itself again, once, with it set; a threshold the user set
/// is kept, and where the binary cannot be started again it runs as it is.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn fixed_mmap_threshold() {
    use std::os::unix::process::CommandExt;
    const SETTING: &str = "MALLOC_MMAP_THRESHOLD_";
    if std::env::var_os(SETTING).is_some() {
        return;
    }
    let Ok(exe) = std::env::current_exe() else { return };
    let mut args = std::env::args_os();
    let mut again = std::process::Command::new(exe);
    if let Some(name) = args.next() {
        again.arg0(name);
    }
    // Returns only when it could not start.
    let _ = again.args(args).env(SETTING, (1u32 << 20).to_string()).exec();
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn fixed_mmap_threshold() {}
