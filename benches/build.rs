//! Writes each Rust block of the README to `$OUT_DIR/readme_N.rs` and a module list,
//! `$OUT_DIR/readme_blocks.rs`, so that `tests/readme.rs` runs the README's examples as they
//! are written (the doc-tests only compile the ones that need files).

use std::fmt::Write as _;
use std::path::PathBuf;

fn main() {
    let readme = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../README.md");
    println!("cargo:rerun-if-changed={}", readme.display());
    let text = std::fs::read_to_string(&readme).expect("the README");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR"));
    let mut list = String::from("// The README's Rust blocks: (where, run).\n");
    let mut entries = String::new();
    let mut block: Option<(usize, String)> = None;
    let mut n = 0;
    for (i, line) in text.lines().enumerate() {
        match &mut block {
            None if line.starts_with("```rust") => block = Some((i + 1, String::new())),
            None => {}
            Some((start, code)) if line.starts_with("```") => {
                let file = out.join(format!("readme_{n}.rs"));
                // A block without a `main` is its body, as rustdoc runs it.
                let program = match code.contains("fn main(") {
                    true => code.clone(),
                    false => format!("fn main() {{\n{code}}}\n"),
                };
                std::fs::write(&file, program).expect("write a README block");
                // Each block is a program: its `main` runs under the test's harness.
                writeln!(
                    list,
                    "mod readme_{n} {{\n    #![allow(dead_code, clippy::unit_arg)]\n    include!({file:?});\n    \
                     pub(super) fn run() -> Result<(), String> {{\n        \
                     super::Outcome::outcome(main())\n    }}\n}}"
                )
                .unwrap();
                writeln!(entries, "    (\"README.md:{start}\", readme_{n}::run),").unwrap();
                n += 1;
                block = None;
            }
            Some((_, code)) => {
                code.push_str(line);
                code.push('\n');
            }
        }
    }
    writeln!(list, "pub const BLOCKS: [(&str, Run); {n}] = [\n{entries}];").unwrap();
    std::fs::write(out.join("readme_blocks.rs"), list).expect("write the block list");
}
