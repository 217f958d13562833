//! `cargo xtask readme`: each Rust block of the README built as a crate of its own, whose
//! dependencies are the crates the block names (`svb_pod5::...` -> `svb-pod5`, with its default
//! features, as a user's Cargo.toml would say), nothing else: a block that compiles only
//! because another crate of the workspace pulls a dependency or a feature in fails here. Blocks
//! marked `rust` (not `no_run`) are run too. (The bench crate's tests run every block with all
//! of the workspace; this is the user's view.)

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::Path;

use crate::util::{cargo, check_args, root, run};

/// Crates outside the workspace a block may name, and the line a user would add for each.
const OTHER_CRATES: [(&str, &str); 2] =
    [("arrow_ipc", "arrow-ipc = \"60\""), ("arrow_array", "arrow-array = \"60\"")];

/// A README block: where it starts, whether it runs, its code.
struct Block {
    line: usize,
    runs: bool,
    code: String,
}

fn blocks(readme: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<Block> = None;
    for (i, line) in readme.lines().enumerate() {
        match &mut open {
            None => {
                if let Some(info) = line.strip_prefix("```rust") {
                    open = Some(Block {
                        line: i + 1,
                        runs: !info.contains("no_run"),
                        code: String::new(),
                    });
                }
            }
            Some(_) if line.starts_with("```") => out.extend(open.take()),
            Some(b) => {
                b.code.push_str(line);
                b.code.push('\n');
            }
        }
    }
    out
}

/// The crates `code` names (`svb_x::` or `use svb_x`), as package names.
fn named_crates(code: &str, workspace: &BTreeSet<String>) -> Result<Vec<String>, String> {
    let mut found = BTreeSet::new();
    let bytes = code.as_bytes();
    for (at, _) in code.match_indices("svb_") {
        if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_') {
            continue;
        }
        let name: String =
            code[at..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        let package = name.replace('_', "-");
        if !workspace.contains(&package) {
            return Err(format!("names {name}, which is no crate of the workspace"));
        }
        found
            .insert(format!("{package} = {{ path = {:?} }}", root().join("crates").join(&package)));
    }
    for (name, line) in OTHER_CRATES {
        if code.contains(&format!("{name}::")) {
            found.insert(line.to_string());
        }
    }
    Ok(found.into_iter().collect())
}

pub fn main(args: &[String]) -> Result<(), String> {
    check_args(args, &[], &[])?;
    let root = root();
    let readme = std::fs::read_to_string(root.join("README.md")).map_err(|e| e.to_string())?;
    let workspace: BTreeSet<String> = std::fs::read_dir(root.join("crates"))
        .map_err(|e| e.to_string())?
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .collect();
    let dir = root.join("target/readme-crates");
    let _ = std::fs::remove_dir_all(&dir);
    let blocks = blocks(&readme);
    if blocks.len() < 5 {
        return Err(format!("{} Rust blocks found in the README", blocks.len()));
    }
    let mut members = Vec::new();
    for (n, b) in blocks.iter().enumerate() {
        let name = format!("readme-block-{n}");
        let deps =
            named_crates(&b.code, &workspace).map_err(|e| format!("README.md:{}: {e}", b.line))?;
        let crate_dir = dir.join(&name);
        std::fs::create_dir_all(crate_dir.join("src")).map_err(|e| e.to_string())?;
        let manifest = format!(
            "[package]\nname = \"{name}\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\
             # README.md:{}\n\n[dependencies]\n{}\n",
            b.line,
            deps.join("\n")
        );
        write(&crate_dir.join("Cargo.toml"), &manifest)?;
        // A block without a `main` is its body, as rustdoc runs it.
        let program = match b.code.contains("fn main(") {
            true => b.code.clone(),
            false => format!("fn main() {{\n{}}}\n", b.code),
        };
        write(&crate_dir.join("src/main.rs"), &program)?;
        members.push((name, b));
    }
    let mut workspace_toml = String::from("[workspace]\nresolver = \"2\"\nmembers = [\n");
    for (name, _) in &members {
        writeln!(workspace_toml, "    \"{name}\",").unwrap();
    }
    // The repository's dev profile (a workspace of its own does not inherit it).
    workspace_toml.push_str("]\n\n[profile.dev]\ndebug = \"line-tables-only\"\n");
    write(&dir.join("Cargo.toml"), &workspace_toml)?;
    // The workspace's versions of every dependency.
    std::fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock")).map_err(|e| e.to_string())?;
    let manifest = dir.join("Cargo.toml");
    let mut failed = Vec::new();
    for (name, b) in &members {
        // One package at a time: its dependencies' features are its own, not the union of
        // every block's.
        let verb = if b.runs { "run" } else { "build" };
        let result = run(cargo()
            .args([verb, "--quiet", "--manifest-path"])
            .arg(&manifest)
            .args(["-p", name])
            .env("CARGO_TARGET_DIR", root.join("target")));
        match result {
            Ok(()) => println!("readme: README.md:{} ({name}) {verb}s", b.line),
            Err(e) => failed.push(format!("README.md:{}: {e}", b.line)),
        }
    }
    match failed.is_empty() {
        true => Ok(()),
        false => Err(failed.join("\n")),
    }
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}
