//! `cargo xtask bench-remote [--rounds R] [--report]`: svb's commands on objects served over
//! HTTP with range requests (svb_testdata's server on 127.0.0.1, 50 ms added to every
//! request, bodies capped at 100 MB/s over all connections: a link to a cloud region),
//! against what a user does without svb's remote reads: download the whole object with
//! parallel ranged GETs (8 in flight), then run the command on the local file. Requests and
//! bytes as the server counted them; the best of R runs each, alternately. With `--report`
//! the table is the "Remote reads" section of docs/PERFORMANCE.md.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use svb_testdata::http_server::HttpServer;

use crate::util::{cargo, check_args, flag, opt, root, run};

/// The latency added to every request (ms) and the link's bandwidth (bytes a second).
const DELAY_MS: u64 = 50;
const RATE: u64 = 100_000_000;

/// The section's name in docs/PERFORMANCE.md.
pub const SECTION: &str = "Remote reads (issue 49)";

pub fn main(args: &[String]) -> Result<(), String> {
    check_args(args, &["--report"], &["--rounds", "--only"])?;
    // `--only TEXT`: the commands whose names hold TEXT (a quick look; no report).
    let only = opt(args, "--only");
    if only.is_some() && flag(args, "--report") {
        return Err("--only measures some commands: it writes no report".into());
    }
    let rounds: usize =
        opt(args, "--rounds").unwrap_or("3").parse().map_err(|_| "--rounds takes a number")?;
    let work = root().join("target/bench-data/dataset");
    for f in ["large.pod5", "large.blow5", "large.blow5.idx", "ids_1pct.txt", "medium.slow5"] {
        if !work.join(f).is_file() {
            return Err(format!(
                "{}: missing; `cargo xtask bench-dataset` makes the dataset first",
                work.join(f).display()
            ));
        }
    }
    run(cargo().args(["build", "--release", "-p", "svb-cli"]))?;
    let svb = root().join("target/release/svb");
    let server = HttpServer::start(&work);
    server.faults.delay_ms.store(DELAY_MS, Ordering::SeqCst);
    server.served.bytes_per_second.store(RATE, Ordering::SeqCst);
    let ids = std::fs::read_to_string(work.join("ids_1pct.txt")).map_err(|e| e.to_string())?;
    let id = ids.lines().next().ok_or("ids_1pct.txt is empty")?.to_string();
    let scratch = root().join("target/bench-data/remote");
    std::fs::create_dir_all(&scratch).map_err(|e| e.to_string())?;
    let out = scratch.join("out");
    let words = |w: &[&str]| -> Vec<String> { w.iter().map(|x| x.to_string()).collect() };
    let out = path(&out);
    let get = words(&["get", "{}", &id, "-o", &out, "--force"]);
    // The 1% of the reads subset picks (20), each into its own file.
    let many_out = path(&scratch.join("many"));
    let mut get_many = words(&["get", "{}"]);
    get_many.extend(ids.lines().map(str::to_string));
    get_many.extend(words(&["-o", &many_out, "--force"]));
    // Every command that reads files, on each format: a local output of each (replaced).
    let ids_file = path(&work.join("ids_1pct.txt"));
    let to = |name: &str| path(&scratch.join(name));
    let subset = |ext: &str| {
        words(&["subset", "{}", "--read-ids", &ids_file, "-o", &to(&format!("s.{ext}")), "--force"])
    };
    let into = |cmd: &str, name: &str| words(&[cmd, "{}", "-o", &to(name), "--force"]);
    let split = |ext: &str| {
        words(&["split", "{}", "-o", &to(&format!("split-{ext}")), "--files", "4", "--force"])
    };
    let tasks: Vec<(&str, &str, Vec<String>)> = vec![
        ("get one read", "large.pod5", get.clone()),
        ("get 20 reads (1%)", "large.pod5", get_many),
        ("view", "large.pod5", words(&["view", "{}"])),
        ("pod5 info", "large.pod5", words(&["pod5", "info", "{}"])),
        ("pod5 verify", "large.pod5", words(&["pod5", "verify", "{}"])),
        ("subset 20 reads (1%)", "large.pod5", subset("pod5")),
        ("convert POD5 -> BLOW5", "large.pod5", into("convert", "c.blow5")),
        ("decode POD5 -> Arrow", "large.pod5", into("decode", "d.arrow")),
        ("merge (one POD5)", "large.pod5", into("merge", "m.pod5")),
        ("split --files 4 (POD5)", "large.pod5", split("pod5")),
        ("get one read (BLOW5, .idx beside)", "large.blow5", get),
        ("view (BLOW5)", "large.blow5", words(&["view", "{}"])),
        ("blow5 info", "large.blow5", words(&["blow5", "info", "{}"])),
        ("blow5 verify", "large.blow5", words(&["blow5", "verify", "{}"])),
        ("subset 20 reads (1%, BLOW5)", "large.blow5", subset("blow5")),
        ("convert BLOW5 -> POD5", "large.blow5", into("convert", "c.pod5")),
        ("decode BLOW5 -> Arrow", "large.blow5", into("decode", "d2.arrow")),
        ("merge (one BLOW5)", "large.blow5", into("merge", "m.blow5")),
        ("split --files 4 (BLOW5)", "large.blow5", split("blow5")),
        ("blow5 verify (SLOW5 text, 200 reads)", "medium.slow5", words(&["blow5", "verify", "{}"])),
    ];
    let mut rows = Vec::new();
    for (what, file, args) in tasks.iter().filter(|(w, ..)| only.is_none_or(|o| w.contains(o))) {
        let url = server.url(file);
        let local = scratch.join(file);
        let mut best_remote = (Duration::MAX, 0, 0);
        let mut best_peer = (Duration::MAX, Duration::MAX);
        for _ in 0..rounds {
            let (r0, b0) = (server.requests(), server.bytes());
            let t = Instant::now();
            svb_run(&svb, args, &url)?;
            let took = t.elapsed();
            if took < best_remote.0 {
                best_remote = (took, server.requests() - r0, server.bytes() - b0);
            }
            // The peer: the whole object (and a BLOW5's index) downloaded, then local.
            let _ = std::fs::remove_file(&local);
            let t = Instant::now();
            download(&server, file, &local)?;
            if file.ends_with(".blow5") {
                download(&server, &format!("{file}.idx"), &scratch.join(format!("{file}.idx")))?;
            }
            let fetched = t.elapsed();
            svb_run(&svb, args, &path(&local))?;
            let total = t.elapsed();
            if total < best_peer.1 {
                best_peer = (fetched, total);
            }
        }
        let size = std::fs::metadata(work.join(file)).map_err(|e| e.to_string())?.len();
        // The link's rate as a download of the whole object with parallel ranges reaches it.
        let rate = best_remote.2 as f64 / 1e6 / best_remote.0.as_secs_f64();
        let link = size as f64 / 1e6 / best_peer.0.as_secs_f64();
        rows.push(format!(
            "| {what} | {:.2} s | {} | {:.1} MB ({:.3}x the object) | {rate:.0} MB/s ({:.0}% of {link:.0}) | {:.2} s ({:.2} s fetching) | **{:.1}x** |",
            best_remote.0.as_secs_f64(),
            best_remote.1,
            best_remote.2 as f64 / 1e6,
            best_remote.2 as f64 / size as f64,
            100.0 * rate / link,
            best_peer.1.as_secs_f64(),
            best_peer.0.as_secs_f64(),
            best_peer.1.as_secs_f64() / best_remote.0.as_secs_f64(),
        ));
    }
    let (slow5curl, uploads) = match only {
        Some(_) => (String::new(), String::new()),
        None => (
            slow5curl_rows(&server, &svb, &scratch, &id, rounds)?,
            upload_rows(&svb, &work, &scratch, rounds)?,
        ),
    };
    let _ = std::fs::remove_dir_all(&scratch);
    let table = format!(
        "## {SECTION}\n\n`cargo xtask bench-remote` ({}, best of {rounds} runs each, alternately; \
         {}): the dataset's 2000-read, 262 MB POD5 and its BLOW5 served over HTTP on 127.0.0.1 \
         by svb_testdata's range server with {DELAY_MS} ms added to every request and bodies \
         capped at {} MB/s over all connections. svb reads the object by URL; the peer is what \
         a user does without remote reads: the whole object downloaded with ranged GETs, 8 in \
         flight (and the BLOW5's index), then the same command on the local file. Requests \
         and bytes as the server counted them; MB/s is bytes fetched over svb's wall time, \
         and its share of the link's rate as that download reaches it.\n\n\
         | command | svb on the URL | requests | fetched | rate | download + local | speedup |\n\
         |---|---|---|---|---|---|---|\n{}\n{slow5curl}{uploads}",
        crate::bench::cpu_line(),
        date(),
        RATE / 1_000_000,
        rows.join("\n")
    );
    if flag(args, "--report") {
        let path = root().join("docs/PERFORMANCE.md");
        let doc = std::fs::read_to_string(&path).unwrap_or_default();
        let doc = crate::bench::with_named_section(&doc, SECTION, &table);
        std::fs::write(&path, doc).map_err(|e| format!("{}: {e}", path.display()))?;
        println!("wrote section {SECTION:?} of {}", path.display());
    } else {
        println!("{table}");
    }
    Ok(())
}

/// One read of the BLOW5 object by id, svb against slow5curl (hasindu2008/slow5curl, C with
/// libcurl: the object's slow5lib index fetched whole, then the record's range), in the same
/// run, alternately: where `SLOW5CURL` names its binary (it is not on pip: built from its
/// source), else nothing.
fn slow5curl_rows(
    server: &HttpServer, svb: &Path, scratch: &Path, id: &str, rounds: usize,
) -> Result<String, String> {
    let Some(peer) = std::env::var_os("SLOW5CURL").map(PathBuf::from) else {
        return Ok(String::new());
    };
    let url = server.url("large.blow5");
    let out = path(&scratch.join("one.i16"));
    let records = path(&scratch.join("one.blow5"));
    let svb_args: Vec<String> =
        ["get", "{}", id, "-o", &out, "--force"].iter().map(|x| x.to_string()).collect();
    // (time, requests, bytes) of the best run of each.
    let mut best = [(Duration::MAX, 0u64, 0u64); 2];
    for _ in 0..rounds {
        for (k, best) in best.iter_mut().enumerate() {
            let (r0, b0) = (server.requests(), server.bytes());
            let t = Instant::now();
            if k == 0 {
                svb_run(svb, &svb_args, &url)?;
            } else {
                let _ = std::fs::remove_file(&records);
                let got = Command::new(&peer)
                    .args(["get", &url, id, "-o", &records, "-t", "1"])
                    .output()
                    .map_err(|e| format!("{}: {e}", peer.display()))?;
                if !got.status.success() {
                    return Err(format!("slow5curl get: {}", String::from_utf8_lossy(&got.stderr)));
                }
            }
            let took = t.elapsed();
            if took < best.0 {
                *best = (took, server.requests() - r0, server.bytes() - b0);
            }
        }
    }
    let [ours, theirs] = best;
    Ok(format!(
        "\nOne BLOW5 read by id against slow5curl (built from its source; `slow5curl get URL \
         ID -t 1`, which fetches the object's slow5lib index whole, then the record), on the \
         same server in the same run:\n\n\
         | command | time | requests | fetched | peer | peer time | peer requests | peer \
         fetched | peer s / svb s |\n|---|---|---|---|---|---|---|---|---|\n\
         | get one read (BLOW5, .idx beside) | {:.3} s | {} | {:.1} KB | slow5curl get | \
         {:.3} s | {} | {:.1} KB | **{:.1}x** |\n",
        ours.0.as_secs_f64(),
        ours.1,
        ours.2 as f64 / 1e3,
        theirs.0.as_secs_f64(),
        theirs.1,
        theirs.2 as f64 / 1e3,
        theirs.0.as_secs_f64() / ours.0.as_secs_f64(),
    ))
}

fn path(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

fn date() -> String {
    Command::new("date")
        .arg("+%Y-%m-%d")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default()
}

/// An output written to an S3 object: `svb convert` of the POD5 to BLOW5 at an `s3://` URL
/// (uploaded as it is written), against converting to a local file and then uploading it with
/// boto3's `upload_file` (8 MiB parts, 8 threads: the AWS SDK's transfer manager), on moto's
/// S3 server behind a proxy of the same link (`RATE`, `DELAY_MS` for each new connection),
/// in the same run, alternately. Nothing where moto's server (`MOTO_SERVER`, else
/// `moto_server` on the `PATH`) and a Python with boto3 beside it are missing.
fn upload_rows(svb: &Path, work: &Path, scratch: &Path, rounds: usize) -> Result<String, String> {
    let Some(s3) = svb_testdata::s3_server::S3Server::start() else {
        return Ok(String::new());
    };
    let moto = PathBuf::from(std::env::var("MOTO_SERVER").unwrap_or_else(|_| "moto_server".into()));
    let python = match moto.parent().filter(|d| !d.as_os_str().is_empty()) {
        Some(dir) => dir.join("python"),
        None => PathBuf::from("python3"),
    };
    s3.create_bucket("bench");
    let proxy = svb_testdata::throttle_proxy::ThrottleProxy::start(
        s3.port(),
        RATE,
        Duration::from_millis(DELAY_MS),
    );
    let mut env = s3.env();
    env.retain(|(k, _)| *k != "AWS_ENDPOINT_URL");
    env.push(("AWS_ENDPOINT_URL", proxy.endpoint()));
    let input = path(&work.join("large.pod5"));
    let local = scratch.join("upload.blow5");
    let upload = "import boto3, sys\n\
        from boto3.s3.transfer import TransferConfig\n\
        boto3.client('s3').upload_file(sys.argv[1], 'bench', 'peer.blow5', \
        Config=TransferConfig(multipart_chunksize=8 << 20, max_concurrency=8))\n";
    let run = |cmd: &mut Command, what: &str| -> Result<(), String> {
        let out = cmd
            .envs(env.iter().map(|(k, v)| (k, v)))
            .output()
            .map_err(|e| format!("{what}: {e}"))?;
        if !out.status.success() {
            return Err(format!("{what}: {}", String::from_utf8_lossy(&out.stderr)));
        }
        Ok(())
    };
    // (total, bytes sent) of svb's best run; (local conversion, total) of the peer's.
    let mut ours = (Duration::MAX, 0u64);
    let mut theirs = (Duration::MAX, Duration::MAX);
    for round in 0..rounds {
        let sent = proxy.bytes_up();
        let t = Instant::now();
        // A new key each time: written as users write, refusing an existing object.
        let url = format!("s3://bench/svb-{round}.blow5");
        run(Command::new(svb).args(["convert", &input, "-o", &url]), "svb convert")?;
        let took = t.elapsed();
        if took < ours.0 {
            ours = (took, proxy.bytes_up() - sent);
        }
        let _ = std::fs::remove_file(&local);
        let t = Instant::now();
        run(
            Command::new(svb).args(["convert", &input, "-o", &path(&local)]),
            "svb convert (local)",
        )?;
        let converted = t.elapsed();
        run(Command::new(&python).args(["-c", upload, &path(&local)]), "boto3 upload_file")?;
        let total = t.elapsed();
        if total < theirs.1 {
            theirs = (converted, total);
        }
    }
    let size = std::fs::metadata(&local).map_err(|e| e.to_string())?.len();
    Ok(format!(
        "\nAn output to S3 (moto's server behind a proxy of the same link: {} MB/s over all \
         connections, {DELAY_MS} ms before each new one), in the same run, alternately: svb \
         uploads the output as it is written; the peer converts to a local file, then uploads \
         it with boto3's `upload_file` (8 MiB parts, 8 threads). Here moto's server and the \
         proxy take the same two cores as the conversion, and they, not the link, bound both \
         (moto alone takes 262 MB in about 1.4 s): the figure is the overlap this machine \
         allows, not a cloud link's.\n\n\
         | command | svb to the URL | sent | convert locally + boto3 upload | speedup |\n\
         |---|---|---|---|---|\n\
         | convert POD5 -> BLOW5 ({:.0} MB out) | {:.2} s | {:.1} MB | {:.2} s ({:.2} s converting) | **{:.2}x** |\n",
        RATE / 1_000_000,
        size as f64 / 1e6,
        ours.0.as_secs_f64(),
        ours.1 as f64 / 1e6,
        theirs.1.as_secs_f64(),
        theirs.0.as_secs_f64(),
        theirs.1.as_secs_f64() / ours.0.as_secs_f64(),
    ))
}

/// Runs svb with `args`, `{}` replaced by `target`; its output discarded.
fn svb_run(svb: &Path, args: &[String], target: &str) -> Result<(), String> {
    let args: Vec<String> =
        args.iter().map(|a| if a == "{}" { target.to_string() } else { a.clone() }).collect();
    let out = Command::new(svb).args(&args).output().map_err(|e| format!("svb: {e}"))?;
    if !out.status.success() {
        return Err(format!("svb {}: {}", args.join(" "), String::from_utf8_lossy(&out.stderr)));
    }
    Ok(())
}

/// Downloads `name` from `server` into `to` as a downloader does: its size from a HEAD, then
/// 8 MiB ranges, 8 in flight, each written at its place.
fn download(server: &HttpServer, name: &str, to: &PathBuf) -> Result<(), String> {
    let url = server.url(name);
    let rest = url.strip_prefix("http://").ok_or("an http URL")?;
    let (host, target) = rest.split_once('/').ok_or("a path")?;
    let target = format!("/{target}");
    let (_, len) = request(host, "HEAD", &target, None)?;
    let file = std::fs::File::create(to).map_err(|e| e.to_string())?;
    file.set_len(len).map_err(|e| e.to_string())?;
    const PIECE: u64 = 8 << 20;
    let next = AtomicU64::new(0);
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..8)
            .map(|_| {
                s.spawn(|| -> Result<(), String> {
                    loop {
                        let at = next.fetch_add(PIECE, Ordering::SeqCst);
                        if at >= len {
                            return Ok(());
                        }
                        let end = (at + PIECE).min(len) - 1;
                        let (body, _) =
                            request(host, "GET", &target, Some(format!("bytes={at}-{end}")))?;
                        write_all_at(&file, &body, at).map_err(|e| e.to_string())?;
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .try_for_each(|w| w.join().map_err(|_| "a download thread panicked".to_string())?)
    })
}

/// One HTTP/1.1 request: the body and the Content-Length the server declared.
fn request(
    host: &str, method: &str, target: &str, range: Option<String>,
) -> Result<(Vec<u8>, u64), String> {
    let mut c = TcpStream::connect(host).map_err(|e| e.to_string())?;
    let range = range.map(|r| format!("Range: {r}\r\n")).unwrap_or_default();
    write!(c, "{method} {target} HTTP/1.1\r\nHost: {host}\r\n{range}Connection: close\r\n\r\n")
        .map_err(|e| e.to_string())?;
    let mut answer = Vec::new();
    c.read_to_end(&mut answer).map_err(|e| e.to_string())?;
    let split = answer.windows(4).position(|w| w == b"\r\n\r\n").ok_or("no header end")?;
    let head = String::from_utf8_lossy(&answer[..split]).to_string();
    let len = head
        .lines()
        .find_map(|l| l.strip_prefix("Content-Length: "))
        .and_then(|v| v.trim().parse().ok())
        .ok_or_else(|| format!("no Content-Length in {head}"))?;
    Ok((answer[split + 4..].to_vec(), len))
}

/// `bytes` written into `file` at `offset` (each download thread writes its own ranges).
#[cfg(unix)]
fn write_all_at(file: &std::fs::File, bytes: &[u8], offset: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::write_all_at(file, bytes, offset)
}

/// `bytes` written into `file` at `offset` (each download thread writes its own ranges).
#[cfg(windows)]
fn write_all_at(file: &std::fs::File, mut bytes: &[u8], mut offset: u64) -> std::io::Result<()> {
    while !bytes.is_empty() {
        let n = std::os::windows::fs::FileExt::seek_write(file, bytes, offset)?;
        if n == 0 {
            return Err(std::io::ErrorKind::WriteZero.into());
        }
        bytes = &bytes[n..];
        offset += n as u64;
    }
    Ok(())
}
