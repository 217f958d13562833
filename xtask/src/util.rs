//! Small helpers: the workspace root, running commands, reading options.

use std::path::PathBuf;
use std::process::Command;

/// The workspace root (the parent of this crate).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives in the workspace")
        .to_path_buf()
}

/// `cargo` as cargo itself was invoked.
pub fn cargo() -> Command {
    let mut c = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()));
    c.current_dir(root());
    c
}

/// Runs `cmd`, echoing it; Ok when it exits 0.
pub fn run(cmd: &mut Command) -> Result<(), String> {
    eprintln!("$ {}", describe(cmd));
    let status = cmd.status().map_err(|e| format!("cannot run {}: {e}", describe(cmd)))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("`{}` failed ({status})", describe(cmd)))
    }
}

/// Runs `cmd` and returns its stdout when it succeeds.
pub fn output(cmd: &mut Command) -> Option<String> {
    let out = cmd.output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

pub fn describe(cmd: &Command) -> String {
    let mut s = String::new();
    for (k, v) in cmd.get_envs() {
        if let Some(v) = v {
            s.push_str(&format!("{}={} ", k.to_string_lossy(), v.to_string_lossy()));
        }
    }
    s.push_str(&cmd.get_program().to_string_lossy());
    for a in cmd.get_args() {
        s.push(' ');
        s.push_str(&a.to_string_lossy());
    }
    s
}

/// `--name VALUE` from `args`.
pub fn opt<'a>(args: &'a [String], name: &str) -> Option<&'a str> {
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).map(String::as_str)
}

/// Whether the bare flag `name` is in `args`.
pub fn flag(args: &[String], name: &str) -> bool {
    args.iter().any(|a| a == name)
}

/// Fails on any argument not in `known` (flags) or `with_value` (options taking a value).
pub fn check_args(args: &[String], known: &[&str], with_value: &[&str]) -> Result<(), String> {
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        if with_value.contains(&a) {
            if i + 1 >= args.len() {
                return Err(format!("{a} needs a value"));
            }
            i += 2;
        } else if known.contains(&a) {
            i += 1;
        } else {
            return Err(format!("unexpected argument `{a}`"));
        }
    }
    Ok(())
}

/// `doc` with the text from `begin` to `end` (markers included) replaced by `section`, which
/// carries the markers itself; `section` is appended when `doc` has no such text.
pub fn replace_marked(doc: &str, begin: &str, end: &str, section: &str) -> String {
    match (doc.find(begin), doc.find(end)) {
        (Some(a), Some(b)) if a < b => {
            format!("{}{section}{}", &doc[..a], &doc[b + end.len()..])
        }
        _ => format!("{}\n{section}\n", doc.trim_end()),
    }
}

/// The CPU model from /proc/cpuinfo (the architecture where there is none).
pub fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|c| {
            c.lines()
                .find(|l| l.starts_with("model name"))
                .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_string())
        })
        .unwrap_or_else(|| std::env::consts::ARCH.to_string())
}
