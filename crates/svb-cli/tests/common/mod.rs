//! What the `svb` command's tests share: running the binary and reading what it said.

// Each test file uses what it needs of these.
#![allow(dead_code)]

use std::path::Path;
use std::process::{Command, Output};

/// Runs the `svb` binary with `args`.
pub fn svb(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_svb")).args(args).output().expect("the svb binary runs")
}

/// Runs the `svb` binary with `args` under a shell's `setup` (limits set with `ulimit`, signals
/// trapped) before it is exec'd.
pub fn svb_under(setup: &str, args: &[&str]) -> Output {
    Command::new("sh")
        .arg("-c")
        .arg(format!("{setup}; exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_svb"))
        .args(args)
        .output()
        .expect("sh runs the svb binary")
}

/// Fails the test, with the command's stderr, unless it succeeded; returns its stdout (as
/// text, lossily: a binary stdout is for the caller to read from `out`).
pub fn ok(out: &Output) -> String {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Fails the test unless the command failed; returns what it said on stderr.
pub fn fails(out: &Output) -> String {
    assert!(!out.status.success(), "succeeded: {}", String::from_utf8_lossy(&out.stdout));
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A path as a command-line argument.
pub fn s(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

/// Runs each of the README's command lines (`svb` left out) in `dir` with `env` added to the
/// environment, failing the test, with the line and its stderr, on the first that fails.
pub fn run_readme_lines<S: AsRef<str>>(lines: &[Vec<S>], dir: &Path, env: &[(&str, String)]) {
    for args in lines {
        let args: Vec<&str> = args.iter().map(AsRef::as_ref).collect();
        let out = Command::new(env!("CARGO_BIN_EXE_svb"))
            .args(&args)
            .envs(env.iter().map(|(k, v)| (*k, v.as_str())))
            .current_dir(dir)
            .output()
            .expect("the svb binary runs");
        assert!(
            out.status.success(),
            "`svb {}` (README) failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
