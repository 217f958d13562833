//! `cargo xtask bench` / `bench-report`: run the criterion suites in benches/ and turn
//! criterion's JSON into one table per group: our figure, each peer's, and the ratios.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::SystemTime;

use crate::util::{cargo, check_args, describe, flag, opt, output, root, run};

/// The function id of our implementation in every group; all others are peers.
const OURS: &str = "svb";

#[derive(Clone, Debug)]
struct Row {
    group: String,
    function: String,
    param: String,
    elements: u64,
    mean_ns: f64,
}

impl Row {
    fn melem_s(&self) -> f64 {
        self.elements as f64 / self.mean_ns * 1e3
    }
}

pub fn main(args: &[String], report: bool) -> Result<(), String> {
    check_args(args, &["--quick", "--no-run", "--peer-simd"], &["--filter", "--section"])?;
    let peer_simd = flag(args, "--peer-simd");
    let quick = flag(args, "--quick");
    let criterion_home = root().join("target").join("criterion");
    let started = SystemTime::now();
    let timing: &[&str] = if quick {
        &["--warm-up-time", "0.1", "--measurement-time", "0.25", "--sample-size", "10"]
    } else {
        &["--warm-up-time", "1", "--measurement-time", "3"]
    };
    let mut cmd = cargo();
    cmd.args(["bench", "-p", "svb-bench", "--features", "c-peers", "--benches", "--"]);
    if let Some(f) = opt(args, "--filter") {
        cmd.arg(f);
    }
    cmd.args(timing);
    cmd.arg("--noplot").env("CRITERION_HOME", &criterion_home);
    if let Some(large) = large_pod5() {
        cmd.env("SVB_BENCH_POD5_LARGE", large);
    }
    if peer_simd && cfg!(target_arch = "x86_64") {
        // The peers' best build: streamvbyte64 compiles its SIMD path only with these target
        // features, and svb 0.3.1 inlines its SSE helpers only with them. Our kernels
        // dispatch at run time either way. A separate target dir keeps the main build cached.
        cmd.env("RUSTFLAGS", "-C target-feature=+ssse3,+sse4.1")
            .env("CARGO_TARGET_DIR", root().join("target").join("bench-peer-simd"));
    }
    let command = describe(&cmd);
    let since = if flag(args, "--no-run") {
        None
    } else {
        run(&mut cmd)?;
        if opt(args, "--filter").is_none_or(|f| f.contains("blow5")) {
            // slow5lib as published (its `svb` dependency scalar) needs a build without the
            // peers' SIMD features: the `slow5lib` rows of the blow5_file groups.
            let mut scalar = cargo();
            scalar
                .args(["bench", "-p", "svb-bench", "--no-default-features"])
                .args(["--bench", "slow5_file", "--"])
                .arg(opt(args, "--filter").unwrap_or("blow5_file"))
                .args(timing)
                .arg("--noplot")
                .env("CRITERION_HOME", &criterion_home)
                .env("CARGO_TARGET_DIR", root().join("target").join("bench-peers-scalar"));
            run(&mut scalar)?;
        }
        Some(started)
    };
    let mut rows = collect(&criterion_home, since)?;
    add_file_peers(&mut rows, &criterion_home, since.is_some());
    add_write_peers(&mut rows, &criterion_home, since.is_some());
    if rows.is_empty() {
        return Err(format!("no criterion results under {}", criterion_home.display()));
    }
    let tables = render(&rows) + &profile_table(&rows);
    if let (true, Some(name)) = (report, opt(args, "--section")) {
        // Only this run's groups, as a named section of the existing report.
        let path = root().join("docs").join("PERFORMANCE.md");
        let old = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let body = format!(
            "## {name}\n\n`{command}` ({}; {}), the groups of that run only; ratios are our \
             best variant over each peer in the same run.\n{tables}",
            if quick { "quick timing" } else { "1 s warm-up, 3 s measurement" },
            cpu_line()
        );
        fs::write(&path, with_named_section(&old, name, &body))
            .map_err(|e| format!("{}: {e}", path.display()))?;
        println!("wrote section {name:?} of {}", path.display());
        return Ok(());
    }
    if report {
        let path = root().join("docs").join("PERFORMANCE.md");
        let mut doc = report_doc(&tables, &command, quick, peer_simd);
        // The dataset section (`cargo xtask bench-dataset --report`) is its own run's.
        if let Some(section) =
            fs::read_to_string(&path).ok().as_deref().and_then(crate::dataset::existing_section)
        {
            doc = crate::dataset::with_section(&doc, section);
        }
        // Named sections (`--section`) are their own runs' too.
        if let Ok(old) = fs::read_to_string(&path) {
            for (name, body) in named_sections(&old) {
                doc = with_named_section(&doc, &name, &body);
            }
        }
        fs::write(&path, doc).map_err(|e| format!("{}: {e}", path.display()))?;
        println!("wrote {}", path.display());
    } else {
        println!("{tables}");
    }
    Ok(())
}

/// The large POD5 file of the `pod5_file_x20` groups: 20 copies of the current file's reads,
/// written by ONT's Python writer into target/bench-data (once). `None` without Python's
/// `pod5` or the conformance data.
fn large_pod5() -> Option<PathBuf> {
    let out = root().join("target").join("bench-data").join("multi_fast5_zip_x20.pod5");
    if out.is_file() {
        return Some(out);
    }
    let data = std::env::var_os("SVB_TEST_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("../shared/data"));
    let src = data.join("pod5").join("multi_fast5_zip.pod5");
    fs::create_dir_all(out.parent()?).ok()?;
    let made = output(
        Command::new("python3")
            .arg(root().join("benches").join("python").join("pod5_decode.py"))
            .arg("--make-large")
            .arg(&src)
            .arg(&out)
            .arg("20"),
    );
    if made.is_none() {
        println!("bench: pod5_file_x20 skipped (python3 with pod5 and {} needed)", src.display());
        return None;
    }
    Some(out)
}

/// The files of the `pod5_file_*` groups by label: the conformance files, the x20 file, and
/// the decode-fast twins the benchmark writes into target/bench-data
/// (`svb_bench::decode_fast_copy`).
fn pod5_files() -> Vec<(&'static str, PathBuf)> {
    let Some(data) = svb_testdata::data_dir() else {
        return Vec::new();
    };
    let bench_data = root().join("target").join("bench-data");
    let mut files = vec![
        ("current", data.join("pod5/multi_fast5_zip.pod5")),
        ("v4", data.join("pod5/multi_fast5_zip_v4.pod5")),
        ("fast", bench_data.join("multi_fast5_zip.decode-fast.pod5")),
        ("x20fast", bench_data.join("multi_fast5_zip_x20.decode-fast.pod5")),
    ];
    if let Some(large) = large_pod5() {
        files.push(("x20", large));
    }
    files.retain(|(_, f)| f.is_file());
    files
}

/// The zstd profile table: each POD5 file beside its decode-fast twin, their bytes per
/// sample and decode rates (chunks alone, whole files on one thread and on every core, ONT's
/// Python reader), from the rows of one run.
fn profile_table(rows: &[Row]) -> String {
    let files = pod5_files();
    let rate = |group: String, function: &str| {
        rows.iter().find(|r| r.group == group && r.function == function).map(Row::melem_s)
    };
    let mut out = String::from(
        "\n### POD5 zstd profiles: standard (lib_pod5's bytes) and decode-fast (raw literals)\n\n\
         Decode-fast files are written by `pod5::Writer` with `ZstdProfile::DecodeFast` from the \
         file beside them. Msamples/s; bytes per sample are the whole file's.\n\n\
         | file | profile | bytes/sample | chunks, one thread | file, one thread | file, all cores | python-pod5 |\n\
         |---|---|---:|---:|---:|---:|---:|\n",
    );
    let fmt = |v: Option<f64>| v.map_or("-".into(), |v| format!("{v:.0}"));
    let mut any = false;
    for (std_label, fast_label, name) in
        [("current", "fast", "shared reads"), ("x20", "x20fast", "shared reads x20")]
    {
        for (label, profile) in [(std_label, "standard"), (fast_label, "decode-fast")] {
            let Some((_, path)) = files.iter().find(|(l, _)| *l == label) else {
                continue;
            };
            let Some(samples) = rows
                .iter()
                .find(|r| r.group == format!("pod5_file_{label}/all_cores"))
                .map(|r| r.elements)
            else {
                continue;
            };
            let bytes = fs::metadata(path).map(|m| m.len()).unwrap_or(0);
            any = true;
            out.push_str(&format!(
                "| {name} | {profile} | {:.3} | {} | {} | {} | {} |\n",
                bytes as f64 / samples as f64,
                fmt(rate(format!("pod5_chunks_{label}/one_thread"), "svb")),
                fmt(rate(format!("pod5_file_{label}/one_thread"), "svb")),
                fmt(rate(format!("pod5_file_{label}/all_cores"), "svb")),
                fmt(rate(format!("pod5_file_{label}/all_cores"), "python-pod5")),
            ));
        }
    }
    if any {
        out
    } else {
        String::new()
    }
}

/// A peer of the `pod5_file_*` groups that runs in its own process right after criterion:
/// it takes the files as arguments and prints one JSON line per file with `samples` and
/// either `mean_ns` (one figure for both groups) or `one_thread_ns` and `all_cores_ns`.
struct FilePeer {
    /// The function name in the report.
    name: &'static str,
    /// Builds the command (`None`, with a line saying why, when it cannot run here).
    command: fn() -> Option<Command>,
    /// Printed when the command fails.
    missing: &'static str,
}

const FILE_PEERS: [FilePeer; 2] = [
    FilePeer {
        name: "python-pod5",
        command: python_pod5,
        missing: "python3 with pod5 not found: pip install pod5",
    },
    FilePeer {
        name: "pod5lib",
        command: pod5lib_peer,
        missing: "benches/peers/pod5lib did not run",
    },
];

/// ONT's Python reader (benches/python/pod5_decode.py); it decodes on one thread, so its
/// figure stands in both groups.
fn python_pod5() -> Option<Command> {
    let mut cmd = Command::new("python3");
    cmd.arg(root().join("benches").join("python").join("pod5_decode.py"));
    Some(cmd)
}

/// The pod5lib crate (benches/peers/pod5lib, its own workspace: its Arrow cannot share a
/// build with the library's), built here in release mode.
fn pod5lib_peer() -> Option<Command> {
    let target = root().join("target").join("peer-pod5lib");
    let mut build = cargo();
    build
        .args(["build", "--release", "--quiet", "--manifest-path"])
        .arg(root().join("benches/peers/pod5lib/Cargo.toml"))
        .arg("--target-dir")
        .arg(&target);
    if run(&mut build).is_err() {
        println!("bench: pod5lib peer skipped (its build failed)");
        return None;
    }
    Some(Command::new(target.join("release").join("svb-peer-pod5lib")))
}

/// The out-of-process peers on the files of the `pod5_file_*` groups present, added as peers
/// of both the one-thread and the all-cores group. Each is skipped, with one line saying so,
/// where it cannot run.
///
/// Measured right after criterion when `measure` (and kept in `criterion_home`, one line per
/// file); a report of earlier results (`--no-run`) reads the figures kept from the run that
/// measured those groups, so every ratio still compares figures of one run.
fn add_file_peers(rows: &mut Vec<Row>, criterion_home: &Path, measure: bool) {
    let files = pod5_files();
    let labels: Vec<(&str, PathBuf)> = files
        .into_iter()
        .filter(|(label, _)| {
            rows.iter().any(|r| r.group.starts_with(&format!("pod5_file_{label}/")))
        })
        .collect();
    if labels.is_empty() {
        return;
    }
    for peer in &FILE_PEERS {
        add_file_peer(peer, &labels, rows, criterion_home, measure);
    }
}

fn add_file_peer(
    peer: &FilePeer, labels: &[(&str, PathBuf)], rows: &mut Vec<Row>, criterion_home: &Path,
    measure: bool,
) {
    let kept_path = criterion_home.join(format!("{}.tsv", peer.name));
    // label -> the peer's JSON line for that file.
    let mut kept: Vec<(String, String)> = fs::read_to_string(&kept_path)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.split_once('\t'))
        .map(|(label, json)| (label.to_owned(), json.to_owned()))
        .collect();
    if measure {
        let Some(mut cmd) = (peer.command)() else { return };
        for (_, f) in labels {
            cmd.arg(f);
        }
        let Some(out) = output(&mut cmd) else {
            println!("bench: {} peer skipped ({})", peer.name, peer.missing);
            return;
        };
        for ((label, _), line) in labels.iter().zip(out.lines()) {
            kept.retain(|(l, _)| l != label);
            kept.push((label.to_string(), line.to_owned()));
        }
        let text: String = kept.iter().map(|(l, j)| format!("{l}\t{j}\n")).collect();
        if let Err(e) = fs::write(&kept_path, text) {
            println!("bench: {}: {e}", kept_path.display());
        }
    }
    for (label, _) in labels {
        let Some((_, line)) = kept.iter().find(|(l, _)| l == label) else {
            println!(
                "bench: no {} figure kept for pod5_file_{label} (run without --no-run)",
                peer.name
            );
            continue;
        };
        let Some(samples) = json_num(line, "samples") else {
            continue;
        };
        for op in ["one_thread", "all_cores"] {
            let Some(mean_ns) =
                json_num(line, &format!("{op}_ns")).or_else(|| json_num(line, "mean_ns"))
            else {
                continue;
            };
            let group = format!("pod5_file_{label}/{op}");
            let param = rows
                .iter()
                .find(|r| r.group == group)
                .map(|r| r.param.clone())
                .unwrap_or_else(|| format!("{samples}"));
            rows.push(Row {
                group,
                function: peer.name.into(),
                param,
                elements: samples as u64,
                mean_ns,
            });
        }
    }
}

/// A peer of a writer benchmark: a Python script writing the group's reads, run as
/// `SCRIPT SRC COPIES THREADS OUT_DIR` and printing `{"samples", "mean_ns"}`.
struct WritePeer {
    /// The criterion group (benches/benches/*_write.rs).
    group: &'static str,
    /// The peer's row name.
    name: &'static str,
    /// Under benches/python.
    script: &'static str,
    /// The source file, under the conformance data.
    src: &'static str,
    /// Copies of the source's reads (the benchmark's `COPIES`).
    copies: u32,
    /// What to install when it is missing.
    missing: &'static str,
}

const WRITE_PEERS: [WritePeer; 2] = [
    // pyslow5's `write_record_batch` on 2 threads (benches/benches/blow5_write.rs).
    WritePeer {
        group: "blow5_write_zstd_svb_zd/all_cores",
        name: "pyslow5",
        script: "blow5_write.py",
        src: "blow5/reads_none_none.blow5",
        copies: 20,
        missing: "python3 with pyslow5 not found: pip install pyslow5",
    },
    // ONT's `pod5.Writer` (benches/benches/pod5_write.rs).
    WritePeer {
        group: "pod5_write_vbz/all_cores",
        name: "python-pod5",
        script: "pod5_write.py",
        src: "pod5/multi_fast5_zip.pod5",
        copies: 50,
        missing: "python3 with pod5 not found: pip install pod5",
    },
];

/// The writer peers, measured right after criterion and kept in `criterion_home` for
/// `--no-run` reports, as the file peers are.
fn add_write_peers(rows: &mut Vec<Row>, criterion_home: &Path, measure: bool) {
    for peer in &WRITE_PEERS {
        add_write_peer(peer, rows, criterion_home, measure);
    }
}

fn add_write_peer(peer: &WritePeer, rows: &mut Vec<Row>, criterion_home: &Path, measure: bool) {
    let Some(ours) = rows.iter().find(|r| r.group == peer.group).cloned() else { return };
    let Some(data) = svb_testdata::data_dir() else { return };
    let kept_path = criterion_home.join(format!("{}-write.json", peer.name));
    if measure {
        let scratch = root().join("target").join("bench-data");
        let _ = fs::create_dir_all(&scratch);
        let got = output(
            Command::new("python3")
                .arg(root().join("benches/python").join(peer.script))
                .arg(data.join(peer.src))
                .arg(peer.copies.to_string())
                .arg("2")
                .arg(&scratch),
        );
        match got {
            Some(line) => {
                if let Err(e) = fs::write(&kept_path, line) {
                    println!("bench: {}: {e}", kept_path.display());
                }
            }
            None => {
                println!("bench: {} write peer skipped ({})", peer.name, peer.missing);
                return;
            }
        }
    }
    let Ok(line) = fs::read_to_string(&kept_path) else {
        println!("bench: no {} write figure kept (run without --no-run)", peer.name);
        return;
    };
    let (Some(samples), Some(mean_ns)) = (json_num(&line, "samples"), json_num(&line, "mean_ns"))
    else {
        return;
    };
    rows.push(Row {
        group: peer.group.into(),
        function: peer.name.into(),
        param: ours.param,
        elements: samples as u64,
        mean_ns,
    });
}

/// Every `new/benchmark.json` under `dir` (written after `since`, when given).
fn collect(dir: &Path, since: Option<SystemTime>) -> Result<Vec<Row>, String> {
    collect_leaf(dir, "new", since)
}

/// Every `<leaf>/benchmark.json` under `dir` (`new`, or a criterion baseline's name).
fn collect_leaf(dir: &Path, leaf: &str, since: Option<SystemTime>) -> Result<Vec<Row>, String> {
    let mut files = Vec::new();
    walk(dir, leaf, &mut files);
    let mut rows = Vec::new();
    for bench in files {
        if let Some(since) = since {
            let fresh = fs::metadata(&bench).and_then(|m| m.modified()).is_ok_and(|t| t >= since);
            if !fresh {
                continue;
            }
        }
        let b = fs::read_to_string(&bench).map_err(|e| format!("{}: {e}", bench.display()))?;
        let est_path = bench.with_file_name("estimates.json");
        let e =
            fs::read_to_string(&est_path).map_err(|e| format!("{}: {e}", est_path.display()))?;
        let (Some(group), Some(function), Some(elements), Some(mean_ns)) = (
            json_str(&b, "group_id"),
            json_str(&b, "function_id"),
            json_num(&b, "Elements"),
            json_str_after(&e, "\"mean\"").and_then(|m| json_num(m, "point_estimate")),
        ) else {
            continue;
        };
        let param = json_str(&b, "value_str").unwrap_or_default();
        rows.push(Row { group, function, param, elements: elements as u64, mean_ns });
    }
    Ok(rows)
}

fn walk(dir: &Path, leaf: &str, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            walk(&p, leaf, out);
        } else if p.file_name().is_some_and(|n| n == "benchmark.json")
            && p.parent().is_some_and(|d| d.ends_with(leaf))
        {
            out.push(p);
        }
    }
}

fn json_str_after<'a>(s: &'a str, key: &str) -> Option<&'a str> {
    s.find(key).map(|i| &s[i + key.len()..])
}

/// The string value of `"key":"..."` (criterion's ids hold no escaped quotes).
fn json_str(s: &str, key: &str) -> Option<String> {
    let rest =
        json_str_after(s, &format!("\"{key}\""))?.trim_start().strip_prefix(':')?.trim_start();
    let rest = rest.strip_prefix('"')?;
    Some(rest[..rest.find('"')?].to_string())
}

/// The numeric value of `"key":123.4`.
fn json_num(s: &str, key: &str) -> Option<f64> {
    let rest =
        json_str_after(s, &format!("\"{key}\""))?.trim_start().strip_prefix(':')?.trim_start();
    let end =
        rest.find(|c: char| !(c.is_ascii_digit() || "+-.eE".contains(c))).unwrap_or(rest.len());
    rest[..end].parse().ok()
}

/// Bytes per input integer of a group (`U32Classic/decode` -> 4), for GB/s.
fn elem_bytes(group: &str) -> Option<f64> {
    // An element-type suffix on the operation wins (`delta/decode_u32`), else the codec.
    let op = group.rsplit('/').next().unwrap_or("");
    for (suffix, bytes) in [("16", 2.0), ("32", 4.0), ("64", 8.0)] {
        if op.ends_with(&format!("i{suffix}")) || op.ends_with(&format!("u{suffix}")) {
            return Some(bytes);
        }
    }
    let codec = group.split('/').next()?;
    if codec.starts_with("U64") {
        Some(8.0)
    } else if codec.starts_with("U32") {
        Some(4.0)
    } else if codec.contains("16")
        || codec.contains("vbz")
        || codec.contains("svbzd")
        || codec.contains("pod5")
    {
        Some(2.0)
    } else {
        None
    }
}

/// Whether a function id is one of ours (`svb`, `svb-k4`, ...) rather than a peer's
/// (`svb-0.3.1`, `streamvbyte64`, `pod5lib`, ...).
fn is_ours(function: &str) -> bool {
    function == OURS || (function.starts_with("svb-") && !function.starts_with("svb-0."))
}

/// One markdown table per group: rows are sizes; columns our variants, then each peer with
/// the ratio of our best variant to it.
fn render(rows: &[Row]) -> String {
    let mut groups: BTreeMap<&str, BTreeMap<u64, Vec<&Row>>> = BTreeMap::new();
    for r in rows {
        groups
            .entry(&r.group)
            .or_default()
            .entry(r.param.parse().unwrap_or(r.elements))
            .or_default()
            .push(r);
    }
    let mut out = String::new();
    for (group, by_size) in &groups {
        let ids = |pick: fn(&str) -> bool| {
            let mut v: Vec<&str> = by_size
                .values()
                .flatten()
                .map(|r| r.function.as_str())
                .filter(|f| pick(f))
                .collect();
            v.sort();
            v.dedup();
            v
        };
        let ours = ids(is_ours);
        let peers = ids(|f| !is_ours(f));
        let best = if ours.len() > 1 { "best svb" } else { "svb" };
        out.push_str(&format!("\n### {group}\n\n| n |"));
        for o in &ours {
            out.push_str(&format!(" {o} Melem/s |"));
        }
        out.push_str(&format!(" {best} GB/s |"));
        for p in &peers {
            out.push_str(&format!(" {p} Melem/s | {best} / {p} |"));
        }
        out.push_str("\n|---:|");
        out.push_str(&"---:|".repeat(ours.len() + 1 + 2 * peers.len()));
        out.push('\n');
        for (size, rs) in by_size {
            let find = |id: &str| rs.iter().find(|r| r.function == id);
            out.push_str(&format!("| {size} |"));
            for o in &ours {
                out.push_str(&find(o).map_or(" - |".into(), |r| format!(" {:.0} |", r.melem_s())));
            }
            let top = ours
                .iter()
                .filter_map(|o| find(o))
                .map(|r| r.melem_s())
                .fold(None, |m: Option<f64>, x| Some(m.map_or(x, |m| m.max(x))));
            let gbs = match (top, elem_bytes(group)) {
                (Some(t), Some(b)) => format!("{:.2}", t * b / 1e3),
                _ => "-".into(),
            };
            out.push_str(&format!(" {gbs} |"));
            for p in &peers {
                match find(p) {
                    Some(peer) => {
                        let ratio =
                            top.map_or("-".into(), |t| format!("{:.2}x", t / peer.melem_s()));
                        out.push_str(&format!(" {:.0} | {ratio} |", peer.melem_s()));
                    }
                    None => out.push_str(" - | - |"),
                }
            }
            out.push('\n');
        }
    }
    out
}

/// The markers of a named section of docs/PERFORMANCE.md.
fn section_marks(name: &str) -> (String, String) {
    (
        format!("<!-- section {name}: cargo xtask bench-report --section -->"),
        format!("<!-- end of section {name} -->"),
    )
}

/// `doc` with the named section's body replaced by `body` (appended when it has none).
pub(crate) fn with_named_section(doc: &str, name: &str, body: &str) -> String {
    let (begin, end) = section_marks(name);
    let section = format!("{begin}\n{}\n{end}", body.trim_end());
    crate::util::replace_marked(doc, &begin, &end, &section)
}

/// Every named section of `doc`: (name, body).
fn named_sections(doc: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = doc;
    while let Some(a) = rest.find("<!-- section ") {
        let after = &rest[a + "<!-- section ".len()..];
        let Some(colon) = after.find(':') else { break };
        let name = after[..colon].to_string();
        let (begin, end) = section_marks(&name);
        let Some(b) = rest[a..].find(&end).map(|b| b + a) else {
            break;
        };
        let body = rest[a + begin.len()..b].trim().to_string();
        out.push((name, body));
        rest = &rest[b + end.len()..];
    }
    out
}

/// The CPU model and core count, for report headers.
pub(crate) fn cpu_line() -> String {
    let cores = fs::read_to_string("/proc/cpuinfo")
        .unwrap_or_default()
        .lines()
        .filter(|l| l.starts_with("processor"))
        .count();
    format!("{}, {cores} cores", crate::util::cpu_model())
}

fn report_doc(tables: &str, command: &str, quick: bool, peer_simd: bool) -> String {
    let cpu = crate::util::cpu_model();
    let rustc = output(Command::new("rustc").arg("--version")).unwrap_or_default();
    let date = output(Command::new("date").args(["-u", "+%Y-%m-%d %H:%M UTC"])).unwrap_or_default();
    let isa = svb_core::Isa::best();
    let sv64_simd = if peer_simd {
        "yes: built with -C target-feature=+ssse3,+sse4.1 (the peers' best case)"
    } else {
        "no: default target features, as a dependency gets it (it needs +ssse3,+sse4.1); `--peer-simd` builds the peers' best case"
    };
    format!(
        "# Performance\n\n\
         <!-- GENERATED by `cargo xtask bench-report`: do not edit the tables by hand. -->\n\n\
         Generated by `cargo xtask bench-report{}`; every ratio compares figures taken in the same run\n\
         on the same machine (absolute numbers on shared machines drift by 15% or more; ratios are the claim).\n\n\
         - CPU: {cpu}\n- ISA chosen by the dispatcher: {isa}\n- rustc: {}\n- date: {}\n\
         - streamvbyte64 SIMD path compiled: {sv64_simd}\n- `svb-0.3.1` is the `svb` crate 0.3.1 with its `simd-auto` feature\n\
         - `slow5lib-simd` is the slow5lib crate 0.1.0 with its `svb` dependency's `simd-auto` (the features of one build are shared), `slow5lib` the same crate as published (scalar `svb`; a `--no-default-features` build of the bench run right after); `slow5` is the slow5 crate 0.12.1 (slow5lib's C library 1.3.0)\n\
         - `pod5lib` is the pod5lib crate 0.2.0 (`reads_iter` on one thread, `par_reads_iter(0)` on all cores), built in its own workspace (benches/peers/pod5lib: its Arrow 53 cannot share a build with the library's) and run right after criterion, mean of >= 5 runs and 2 s; `python-pod5` is ONT's `pod5` Python package (pip), run the same way by benches/python/pod5_decode.py; it decodes on one thread, so it is the same figure in both groups\n\
         - command: `{command}`\n\n\
         Throughput is in input integers: Melem/s, and GB/s = Melem/s x bytes per integer / 1000.\n{tables}",
        match (quick, peer_simd) {
            (true, true) => " --quick --peer-simd",
            (true, false) => " --quick",
            (false, true) => " --peer-simd",
            (false, false) => "",
        },
        rustc.trim(),
        date.trim(),
    )
}

/// `cargo xtask bench-compare BASE_DIR [--new DIR] [--baseline NAME] [--threshold X]`:
/// compares two criterion result folders (or, with `--baseline`, a saved criterion baseline
/// against the latest run in one folder) and flags every benchmark whose mean time grew by
/// more than the threshold (default 1.10, i.e. 10% slower). Non-zero exit when any did.
pub fn compare(args: &[String]) -> Result<(), String> {
    let (base, rest) = match args.split_first() {
        Some((b, r)) if !b.starts_with("--") => (PathBuf::from(b), r),
        _ => (root().join("target").join("criterion"), args),
    };
    check_args(rest, &[], &["--new", "--baseline", "--threshold"])?;
    let threshold: f64 = opt(rest, "--threshold")
        .map(|t| t.parse().map_err(|_| format!("--threshold {t}: not a number")))
        .transpose()?
        .unwrap_or(1.10);
    let new_dir = opt(rest, "--new")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("target").join("criterion"));
    let (old_rows, new_rows) = match opt(rest, "--baseline") {
        Some(name) => (collect_leaf(&base, name, None)?, collect_leaf(&base, "new", None)?),
        None => (collect(&base, None)?, collect(&new_dir, None)?),
    };
    if old_rows.is_empty() || new_rows.is_empty() {
        return Err(format!(
            "nothing to compare: {} base and {} new results",
            old_rows.len(),
            new_rows.len()
        ));
    }
    let key = |r: &Row| (r.group.clone(), r.function.clone(), r.param.clone());
    let old: BTreeMap<_, f64> = old_rows.iter().map(|r| (key(r), r.mean_ns)).collect();
    let mut compared = 0;
    let mut slower = Vec::new();
    let mut lines = Vec::new();
    for r in &new_rows {
        let Some(&was) = old.get(&key(r)) else {
            continue;
        };
        compared += 1;
        let ratio = r.mean_ns / was;
        let verdict = if ratio > threshold {
            slower.push(format!("{}/{}/{}", r.group, r.function, r.param));
            "SLOWER"
        } else if ratio < 1.0 / threshold {
            "faster"
        } else {
            ""
        };
        lines.push(format!(
            "| {}/{}/{} | {:.0} | {:.0} | {:.2}x | {verdict} |",
            r.group, r.function, r.param, was, r.mean_ns, ratio
        ));
    }
    lines.sort();
    println!("| benchmark | base ns | new ns | new/base | |\n|---|---:|---:|---:|---|");
    for l in &lines {
        println!("{l}");
    }
    println!(
        "bench-compare: {compared} benchmarks compared, {} more than {:.0}% slower",
        slower.len(),
        (threshold - 1.0) * 100.0
    );
    if slower.is_empty() {
        Ok(())
    } else {
        Err(format!("slower than the base: {}", slower.join(", ")))
    }
}
