//! `cargo xtask cross`: every build the CI matrix covers, runnable on one x86-64 machine.
//! aarch64 runs under qemu-user, so the NEON kernels are executed, not only compiled.

use std::path::Path;
use std::process::Command;

use crate::util::{cargo, check_args, output, run};

const AARCH64: &str = "aarch64-unknown-linux-gnu";
const NO_STD: &str = "x86_64-unknown-none";
const WINDOWS: &str = "x86_64-pc-windows-gnu";
/// The crates that hold or test kernels: their tests run on aarch64 and with each forced x86
/// ISA.
const KERNEL_CRATES: [&str; 14] = [
    "-p",
    "svb-dispatch",
    "-p",
    "svb-core",
    "-p",
    "svb-delta",
    "-p",
    "svb-vbz",
    "-p",
    "svb-pdz",
    "-p",
    "svb-slow5-signal",
    "-p",
    "svb-postings",
];
/// The file formats that call the kernels: their tests run on aarch64 too. With a forced x86
/// ISA they are left out (they only call the kernels above, and the README's test command runs
/// them with runtime dispatch), which keeps Arrow and the other format dependencies out of
/// those release builds.
const FORMAT_CRATES: [&str; 4] = ["-p", "svb-pod5", "-p", "svb-blow5"];

struct Step {
    name: &'static str,
    result: Result<(), String>,
}

fn run_all() -> Vec<Step> {
    vec![
        Step { name: "aarch64-unknown-linux-gnu (NEON, tests under qemu)", result: aarch64() },
        Step {
            name: "x86_64 --features simd-ssse3",
            result: x86(&["--features", "svb-core/simd-ssse3,svb-delta/simd-ssse3"]),
        },
        Step {
            name: "x86_64 --features simd-avx2",
            result: x86(&["--features", "svb-core/simd-avx2,svb-delta/simd-avx2"]),
        },
        Step { name: "x86_64-unknown-none no_std + alloc", result: no_std() },
        Step {
            name: "x86_64-pc-windows-gnu (cargo check of every crate but the benches)",
            result: windows(),
        },
    ]
}

pub fn main(args: &[String]) -> Result<(), String> {
    check_args(args, &[], &[])?;
    let steps = run_all();
    println!();
    let mut failed = 0;
    for s in &steps {
        match &s.result {
            Ok(()) => println!("cross: PASS  {}", s.name),
            Err(e) => {
                failed += 1;
                println!("cross: FAIL  {}: {e}", s.name);
            }
        }
    }
    if failed > 0 {
        Err(format!("{failed} of {} targets failed", steps.len()))
    } else {
        Ok(())
    }
}

/// Installs a rustup target when it is missing.
fn ensure_target(target: &str) -> Result<(), String> {
    let installed =
        output(Command::new("rustup").args(["target", "list", "--installed"])).unwrap_or_default();
    if installed.lines().any(|l| l.trim() == target) {
        return Ok(());
    }
    run(Command::new("rustup").args(["target", "add", target])).map_err(|e| {
        format!("THE {target} TARGET CANNOT BE INSTALLED ({e}); nothing was tested for it")
    })
}

fn on_path(tool: &str) -> bool {
    Command::new(tool).arg("--version").output().is_ok_and(|o| o.status.success())
}

fn aarch64() -> Result<(), String> {
    ensure_target(AARCH64)?;
    for tool in ["aarch64-linux-gnu-gcc", "qemu-aarch64"] {
        if !on_path(tool) {
            return Err(format!(
                "{tool} NOT FOUND: NEON kernels cannot run (apt-get install -y qemu-user gcc-aarch64-linux-gnu libc6-dev-arm64-cross)"
            ));
        }
    }
    let mut cmd = cargo();
    // Every test, those that need the shared data included (`#[ignore]`d for a plain
    // `cargo test` without it).
    cmd.args(["test", "--release", "--target", AARCH64, "--tests"])
        .args(KERNEL_CRATES)
        .args(FORMAT_CRATES)
        .args(["--", "--include-ignored"])
        .env("CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER", "aarch64-linux-gnu-gcc")
        .env("CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER", "qemu-aarch64");
    // qemu-user needs the target's dynamic loader; Debian's cross libc keeps it here.
    if !Path::new("/lib/ld-linux-aarch64.so.1").exists() {
        cmd.env("QEMU_LD_PREFIX", "/usr/aarch64-linux-gnu");
    }
    run(&mut cmd)
}

fn x86(features: &[&str]) -> Result<(), String> {
    if !cfg!(target_arch = "x86_64") {
        return Err("this step needs an x86-64 host".into());
    }
    run(cargo()
        .args(["test", "--release", "--tests"])
        .args(KERNEL_CRATES)
        .args(features)
        .args(["--", "--include-ignored"]))
}

fn no_std() -> Result<(), String> {
    ensure_target(NO_STD)?;
    for krate in ["svb-core", "svb-delta"] {
        for features in ["alloc", "", "alloc,simd-avx2"] {
            let mut cmd = cargo();
            cmd.args([
                "build",
                "--release",
                "--target",
                NO_STD,
                "-p",
                krate,
                "--no-default-features",
            ]);
            if !features.is_empty() {
                cmd.args(["--features", features]);
            }
            // Cargo's default release profile, as a crate depending on ours builds it: with
            // the workspace's LTO the kernels were never compiled to machine code here, and
            // LLVM failing on them (SIMD on a soft-float target) went unseen.
            cmd.env("CARGO_PROFILE_RELEASE_LTO", "false")
                .env("CARGO_PROFILE_RELEASE_CODEGEN_UNITS", "16");
            run(&mut cmd)?;
        }
    }
    Ok(())
}

/// The Windows build (the command and the wheel's crates): `cargo check` for
/// x86_64-pc-windows-gnu, C dependencies (zstd, ring, libdeflate) compiled by MinGW. Its own
/// target folder, so that the host's builds are not invalidated.
fn windows() -> Result<(), String> {
    ensure_target(WINDOWS)?;
    let gcc = "x86_64-w64-mingw32-gcc";
    if !on_path(gcc) {
        return Err(format!(
            "{gcc} NOT FOUND: the Windows build cannot be checked (apt-get install -y gcc-mingw-w64-x86-64)"
        ));
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/windows");
    run(cargo()
        .args(["check", "--target", WINDOWS, "--workspace", "--exclude", "svb-bench"])
        .env("CARGO_TARGET_DIR", dir))
}
