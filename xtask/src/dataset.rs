//! `cargo xtask bench-dataset [--rounds R] [--report]`: the dataset commands of `svb`
//! (convert, subset, merge, split, view, verify, decode, get) against the tools users run for the
//! same job (blue-crab, `pod5 filter`, `pod5 view`, `pod5 merge`, `pod5` / pyslow5 + hashlib),
//! timed alternately in one run by benches/python/dataset.py on a 2000-read, 310M-sample POD5
//! written by ONT's writer and its BLOW5. With `--report` the table replaces the dataset section of docs/PERFORMANCE.md
//! (which `bench-report` keeps when it rewrites the rest).

use std::fs;
use std::process::Command;

use crate::util::{cargo, check_args, flag, opt, root, run};

/// The markers around the dataset section of docs/PERFORMANCE.md.
pub const BEGIN: &str = "<!-- dataset section: cargo xtask bench-dataset --report -->";
pub const END: &str = "<!-- end of dataset section -->";

pub fn main(args: &[String]) -> Result<(), String> {
    check_args(args, &["--report"], &["--rounds", "--only"])?;
    let rounds = opt(args, "--rounds").unwrap_or("3");
    let only = opt(args, "--only");
    if only.is_some() && flag(args, "--report") {
        return Err("--only measures some tasks: the report is of them all".into());
    }
    run(cargo().args(["build", "--release", "-p", "svb-cli"]))?;
    let svb = root().join("target/release/svb");
    let work = root().join("target/bench-data/dataset");
    let out = Command::new("python3")
        .arg(root().join("benches/python/dataset.py"))
        .arg(&svb)
        .arg(&work)
        .args(["--rounds", rounds])
        .args(only.map(|t| ["--only", t]).into_iter().flatten())
        .output()
        .map_err(|e| format!("python3: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "benches/python/dataset.py failed (it needs python3 with pod5 and blue-crab: pip \
             install pod5 blue-crab):\n{}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let lines = String::from_utf8_lossy(&out.stdout).into_owned();
    let mut section = section(&lines, rounds);
    if only.is_some() {
        println!("{section}");
        return Ok(());
    }
    if let Some(py) = python_table(&work, rounds)? {
        section = section.replace(END, &format!("{py}{END}"));
    }
    if flag(args, "--report") {
        let path = root().join("docs/PERFORMANCE.md");
        let doc = fs::read_to_string(&path).unwrap_or_default();
        let doc = with_section(&doc, &section);
        fs::write(&path, doc).map_err(|e| format!("{}: {e}", path.display()))?;
        println!("wrote the dataset section of {}", path.display());
    } else {
        println!("{section}");
    }
    Ok(())
}

/// The Python package against `pod5` and `pyslow5` (benches/python/svb_python.py), when
/// target/venv exists (what .ci/run makes: maturin, pod5, pyslow5): the package is built
/// into it first.
fn python_table(work: &std::path::Path, rounds: &str) -> Result<Option<String>, String> {
    let venv = root().join("target/venv");
    let python = venv.join("bin/python");
    if !python.is_file() {
        println!("bench-dataset: no target/venv (make it as .ci/run does); Python rows skipped");
        return Ok(None);
    }
    run(Command::new(venv.join("bin/maturin"))
        .args(["develop", "--release", "--quiet"])
        .current_dir(root().join("crates/svb-python"))
        .env("VIRTUAL_ENV", &venv)
        .env("CARGO_TARGET_DIR", root().join("target")))?;
    let out = Command::new(&python)
        .arg(root().join("benches/python/svb_python.py"))
        .arg(work.join("large.pod5"))
        .arg(work.join("large.blow5"))
        .args(["--rounds", rounds])
        .arg("--dataset")
        .arg(work.join("parts1000"))
        .output()
        .map_err(|e| format!("{}: {e}", python.display()))?;
    if !out.status.success() {
        return Err(format!(
            "benches/python/svb_python.py failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let mut t = String::from(
        "\nThe Python package (`import svb`) in the same run, one process, best of the rounds; \
         Msamples/s of the signal decoded into numpy arrays (or Arrow batches):\n\n\
         | task | svb | svb Msamples/s | peer | peer Msamples/s | svb / peer |\n\
         |---|---|---:|---|---:|---:|\n",
    );
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let (Some(task), Some(ours), Some(n), Some(s)) =
            (text(line, "task"), text(line, "ours"), num(line, "samples"), num(line, "ours_s"))
        else {
            continue;
        };
        let rate = |secs: f64| n / secs / 1e6;
        let (peer, peer_rate, ratio) = match (text(line, "peer"), num(line, "peer_s")) {
            (Some(p), Some(ps)) => (p, format!("{:.0}", rate(ps)), format!("{:.2}x", ps / s)),
            _ => ("-".into(), "-".into(), "-".into()),
        };
        let ours_rate = if task.contains("metadata") {
            format!("{:.1} ms for {n} reads", s * 1e3)
        } else {
            format!("{:.0}", rate(s))
        };
        t.push_str(&format!(
            "| {task} | {ours} | {ours_rate} | {peer} | {peer_rate} | {ratio} |\n"
        ));
    }
    Ok(Some(t))
}

/// `doc` with its dataset section replaced by `section` (appended when it has none).
pub fn with_section(doc: &str, section: &str) -> String {
    crate::util::replace_marked(doc, BEGIN, END, section)
}

/// The dataset section of `doc`, markers included, when it has one.
pub fn existing_section(doc: &str) -> Option<&str> {
    let a = doc.find(BEGIN)?;
    let b = doc[a..].find(END)? + a;
    Some(&doc[a..b + END.len()])
}

fn num(line: &str, key: &str) -> Option<f64> {
    let at = line.find(&format!("\"{key}\": "))? + key.len() + 4;
    let rest = &line[at..];
    let end = rest.find([',', '}']).unwrap_or(rest.len());
    rest[..end].trim().parse().ok()
}

fn text(line: &str, key: &str) -> Option<String> {
    let at = line.find(&format!("\"{key}\": \""))? + key.len() + 5;
    let rest = &line[at..];
    Some(rest[..rest.find('"')?].to_string())
}

fn section(lines: &str, rounds: &str) -> String {
    let date = crate::util::output(Command::new("date").args(["-u", "+%Y-%m-%d %H:%M UTC"]))
        .unwrap_or_default();
    let mut out = format!(
        "{BEGIN}\n## Dataset commands\n\n\
         `cargo xtask bench-dataset --report` ({}, best of {rounds} runs each, svb and its peer \
         alternately, each run started after a sync on an idle disk, 2 cores): a 2000-read POD5 of 310M samples written by ONT's `pod5.Writer` \
         (the shared reads x 200), its BLOW5 made by blue-crab p2s (zstd records, svb-zd) and \
         its FAST5 made by ONT's `pod5 convert to_fast5` (one VBZ multi-read file); the merge \
         inputs are its reads split by `svb subset` into 20 and 1000 files; the SLOW5 text is \
         200 of its reads. Wall time \
         and peak RSS of each process (the RSS includes ~18 MB of the Python parent at fork). \
         Peers: blue-crab 0.6 (`p2s -c zstd -s svb-zd -t 2`, `s2p`), ONT's `pod5 convert fast5 \
         -t 2` and `convert to_fast5 -t 2`, `pod5 filter`, `pod5 view`, `pod5 merge`, `pod5 \
         subset --table`, ONT's `pod5` reader + hashlib for verify, pyslow5 + hashlib for \
         SLOW5, and slow5tools 1.3 (split, merge, degrade, s2f, index; 2 threads or processes \
         where it has the option) where it is installed (`SLOW5TOOLS` or the PATH; built from \
         its source, it is not on pip: its rows are absent elsewhere), and `cat` of the same bytes \
         for the copy-through rows (split and merge of BLOW5 records copied as stored: below \
         1.0x, svb takes longer than `cat`). svb syncs each output to the disk before it publishes it, and the peers do not: \
         where the disk is the limit (merge, split), the rows marked `--no-sync` give svb's \
         time publishing as the peers do.\n\n\
         | task | svb s | svb peak RSS MB | peer | peer s | peer peak RSS MB | peer s / svb s |\n\
         |---|---:|---:|---|---:|---:|---:|\n",
        date.trim()
    );
    for line in lines.lines().filter(|l| l.starts_with('{')) {
        let task = text(line, "task").unwrap_or_default();
        let ours = num(line, "ours_s").unwrap_or(f64::NAN);
        let ours_rss = num(line, "ours_rss_mb").unwrap_or(f64::NAN);
        let (peer, peer_s, peer_rss, ratio) = match (text(line, "peer"), num(line, "peer_s")) {
            (Some(p), Some(s)) => (
                p,
                format!("{s:.3}"),
                format!("{:.0}", num(line, "peer_rss_mb").unwrap_or(f64::NAN)),
                match s / ours {
                    r if r < 1.0 => format!("{r:.2}x"),
                    r => format!("{r:.1}x"),
                },
            ),
            _ => ("-".into(), "-".into(), "-".into(), "-".into()),
        };
        out.push_str(&format!(
            "| {task} | {ours:.3} | {ours_rss:.0} | {peer} | {peer_s} | {peer_rss} | {ratio} |\n"
        ));
    }
    out.push_str(END);
    out
}
