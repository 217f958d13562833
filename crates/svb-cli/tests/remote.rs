//! Every reading command on objects served over HTTP (range requests, as object stores and
//! static file servers answer them) gives what it gives on the local file, byte for byte;
//! faults (503, 429, bodies cut short, dropped connections) are retried; a wrong range or an
//! object replaced while it is read is an error naming it, never wrong data.

mod common;
use common::{fails, ok, run_readme_lines, s, svb, svb_under};
use std::path::Path;
use std::sync::atomic::Ordering;
use svb_testdata::http_server::HttpServer;
use svb_testdata::TempDir;

/// A POD5 file of `n` reads of 2,000 to 40,000 samples in chunks of 4,000, 100 chunks a
/// signal batch (so a read's chunks span batches), and its BLOW5 and SLOW5 conversions, in
/// `dir`.
fn files(dir: &svb_testdata::TempDir, n: u8) -> Vec<std::path::PathBuf> {
    use svb_testdata::pod5::{TestFile, TestRead};
    let mut rng = svb_testdata::Rng(7);
    let reads: Vec<TestRead> = (0..n)
        .map(|r| {
            let len = 2_000 + (rng.next() % 38_000) as usize;
            TestRead::new(r, rng.walk(len, 40))
        })
        .collect();
    let compress = |s: &[i16]| svb_vbz::pod5_blob::compress_signal(s);
    let bytes = TestFile {
        reads,
        chunk_samples: 4_000,
        signal_batch_rows: 100,
        compress: Some(&compress),
        edit: None,
    }
    .write();
    let pod5 = dir.join("reads.pod5");
    std::fs::write(&pod5, bytes).unwrap();
    let mut out = vec![pod5.clone()];
    for ext in ["blow5", "slow5"] {
        let f = dir.join(&format!("reads.{ext}"));
        ok(&svb(&["convert", s(&pod5), "-o", s(&f)]));
        out.push(f);
    }
    out
}

fn name(p: &std::path::Path) -> &str {
    p.file_name().unwrap().to_str().unwrap()
}

#[test]
fn commands_read_urls_as_local_files() {
    let dir = svb_testdata::TempDir::new("remote-commands");
    let local = files(&dir, 60);
    let server = HttpServer::start(&dir.0);
    let ids = read_ids(&local[0]);
    let some: Vec<&str> = ids.lines().step_by(7).collect();
    let list = dir.join("some.txt");
    std::fs::write(&list, some.join("\n")).unwrap();
    for f in &local {
        let url = server.url(name(f));
        let kind = if name(f).ends_with("pod5") { "pod5" } else { "blow5" };
        for args in [
            vec!["view", "{}"],
            vec!["view", "{}", "--json"],
            vec![kind, "info", "{}"],
            vec![kind, "verify", "{}"],
            vec!["get", "{}", some[3], "--pa"],
        ] {
            let with = |p: &str| -> Vec<String> {
                args.iter()
                    .map(|a| if *a == "{}" { p.to_string() } else { a.to_string() })
                    .collect()
            };
            let run = |p: &str| {
                let a = with(p);
                let a: Vec<&str> = a.iter().map(String::as_str).collect();
                common::svb(&a)
            };
            let (here, there) = (run(s(f)), run(&url));
            assert!(there.status.success(), "{args:?} {url}: {}", fails(&there));
            let norm = |o: &std::process::Output| {
                String::from_utf8_lossy(&o.stdout).replace(&url, "FILE").replace(s(f), "FILE")
            };
            assert_eq!(norm(&here), norm(&there), "{args:?} of {url}");
        }
        // Outputs written from a URL are the local file's, byte for byte.
        for (cmd, ext) in [("convert", "pod5"), ("convert", "blow5"), ("subset", "slow5")] {
            let a = dir.join(&format!("from-local-{}.{ext}", name(f)));
            let b = dir.join(&format!("from-url-{}.{ext}", name(f)));
            let extra: Vec<&str> =
                if cmd == "subset" { vec!["--read-ids", s(&list)] } else { vec![] };
            let same_format = ext == kind || (kind == "blow5" && ext == "slow5");
            if cmd == "convert" && same_format && name(f).ends_with(ext) {
                continue;
            }
            let mut la = vec![cmd, s(f), "-o", s(&a)];
            la.extend(&extra);
            let mut lb = vec![cmd, &url, "-o", s(&b)];
            lb.extend(&extra);
            let (ra, rb) = (svb(&la), svb(&lb));
            if !ra.status.success() {
                // A pair svb does not convert: the same refusal from the URL.
                assert!(!rb.status.success());
                continue;
            }
            ok(&rb);
            if ext == "pod5" {
                // A POD5 file's identifier is new in each file written: the reads compared.
                for look in [vec!["view"], vec!["pod5", "verify"]] {
                    let show = |p: &std::path::Path| {
                        let mut l = look.clone();
                        l.push(s(p));
                        ok(&svb(&l)).replace(s(p), "FILE").replace(name(p), "FILE")
                    };
                    assert_eq!(show(&a), show(&b), "{cmd} {url} -o .{ext}");
                }
            } else {
                assert!(
                    std::fs::read(&a).unwrap() == std::fs::read(&b).unwrap(),
                    "{cmd} {url} -o .{ext} differs from the local file's"
                );
            }
        }
    }
    // A prefix and a glob list the objects: the HTTP server cannot list, and says so.
    let e = fails(&svb(&["view", &server.url("")]));
    assert!(e.contains("127.0.0.1"), "{e}");
}

#[test]
fn a_missing_object_is_named() {
    let dir = svb_testdata::TempDir::new("remote-missing");
    let server = HttpServer::start(&dir.0);
    let url = server.url("none.pod5");
    let e = fails(&svb(&["view", &url]));
    assert!(e.contains(&url) && e.contains("no such object"), "{e}");
    // No credential in a message: the URL is shown without user and password.
    let secret = url.replace("http://", "http://me:hunter2@");
    let e = fails(&svb(&["view", &secret]));
    assert!(!e.contains("hunter2") && e.contains("none.pod5"), "{e}");
    assert!(e.contains("refused"), "{e}");
}

#[test]
fn transient_faults_are_retried() {
    let dir = svb_testdata::TempDir::new("remote-faults");
    let local = files(&dir, 30);
    let server = HttpServer::start(&dir.0);
    let want = ok(&svb(&["pod5", "verify", s(&local[0])]));
    let url = server.url("reads.pod5");
    for (fault, n) in [
        (&server.faults.unavailable, 2),
        (&server.faults.too_many, 2),
        (&server.faults.cut_body, 1),
        (&server.faults.drop_connection, 1),
    ] {
        fault.store(n, Ordering::SeqCst);
        let got = ok(&svb(&["pod5", "verify", &url]));
        assert_eq!(got.replace(&url, "F"), want.replace(s(&local[0]), "F"));
        assert_eq!(fault.load(Ordering::SeqCst), 0, "the fault was met");
    }
}

#[test]
fn a_wrong_answer_is_an_error_never_data() {
    let dir = svb_testdata::TempDir::new("remote-wrong");
    let local = files(&dir, 200);
    let server = HttpServer::start(&dir.0);
    let url = server.url("reads.blow5");
    // Every range answered one byte off.
    server.faults.wrong_range.store(1000, Ordering::SeqCst);
    let e = fails(&svb(&["blow5", "verify", &url]));
    // object_store checks the answered range first; svb checks it again.
    assert!(e.contains("got 1..") || e.contains("the server answered"), "{e}");
    server.faults.wrong_range.store(0, Ordering::SeqCst);
    // A server that ignores ranges and sends whole files.
    server.faults.ignore_range.store(1000, Ordering::SeqCst);
    let out = svb(&["blow5", "verify", &url]);
    assert!(!out.status.success());
    server.faults.ignore_range.store(0, Ordering::SeqCst);
    let _ = local;
}

/// `svb pod5 verify` of the server's `reads.pod5` (`pod5`, of `server`), that file replaced
/// by one of the same size while it is read (each request delayed so that it can be; with
/// `later`, its modification time set a few seconds on, as a replacement a second or more
/// after the open has): an error saying so.
fn replaced_while_read(server: &HttpServer, pod5: std::path::PathBuf, later: bool) {
    // The open's round trip answered by 400 ms, the file replaced at 500 ms, while the next
    // requests (the signal table's batches, the scan) wait for their answers (at 800 ms and
    // after): they see the replacement.
    server.faults.delay_ms.store(400, Ordering::SeqCst);
    let swap = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(500));
        let mut bytes = std::fs::read(&pod5).unwrap();
        let n = bytes.len();
        bytes[n / 2] ^= 0xff;
        let was = std::fs::metadata(&pod5).unwrap().modified().unwrap();
        std::fs::write(&pod5, bytes).unwrap();
        if later {
            let f = std::fs::File::options().write(true).open(&pod5).unwrap();
            f.set_modified(was + std::time::Duration::from_secs(5)).unwrap();
        }
    });
    let out = svb(&["pod5", "verify", &server.url("reads.pod5")]);
    swap.join().unwrap();
    let e = fails(&out);
    assert!(e.contains("changed while it was being read"), "{e}");
}

#[test]
fn an_object_replaced_while_read_is_an_error() {
    let dir = svb_testdata::TempDir::new("remote-replaced");
    let local = files(&dir, 200);
    let server = HttpServer::start(&dir.0);
    replaced_while_read(&server, local[0].clone(), false);
}

/// A server that accepts connections and answers nothing is given up within the open's
/// budget (1.5 times the request timeout: 45 s by default, 3 s here), the message saying so
/// (it took 362 s: the open's timeout dropped, then a HEAD retried for three minutes).
#[test]
fn a_server_that_answers_nothing_is_given_up_in_time() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        let mut held = Vec::new();
        for c in listener.incoming() {
            held.push(c);
        }
    });
    let url = format!("http://127.0.0.1:{port}/reads.pod5");
    let start = std::time::Instant::now();
    let out = svb(&["view", &url, "--storage-option", "timeout=2s"]);
    let took = start.elapsed();
    let e = fails(&out);
    assert!(e.contains("no answer within 3 s"), "{e}");
    assert!(took < std::time::Duration::from_secs(20), "{took:?}");
}

/// A web server that does not list its files (no WebDAV): a prefix URL is refused after one
/// request, saying what to do, without the server's HTML page (a 501 was retried ten times
/// and its page printed).
#[test]
fn a_web_server_that_does_not_list_is_asked_once() {
    let dir = svb_testdata::TempDir::new("remote-no-listing");
    files(&dir, 10);
    let server = HttpServer::start(&dir.0);
    let e = fails(&svb(&["view", &server.url("")]));
    assert!(e.contains("this web server does not list its files"), "{e}");
    assert!(!e.contains('<'), "{e}");
    assert_eq!(server.requests(), 1, "{:?}", server.served.log.lock().unwrap());
}

/// A server without ETags (many plain web servers): the version read is told by its
/// Last-Modified and size, so an object replaced by another of the same size while it is read
/// is an error, never a mix of the two (3 of 12 runs gave one with exit 0 before).
#[test]
fn an_object_replaced_on_a_server_without_etags_is_an_error() {
    let dir = svb_testdata::TempDir::new("remote-replaced-no-etag");
    let local = files(&dir, 200);
    let server = HttpServer::start(&dir.0);
    server.faults.no_etag.store(true, Ordering::SeqCst);
    // Unchanged, it reads whole.
    ok(&svb(&["pod5", "verify", &server.url("reads.pod5")]));
    replaced_while_read(&server, local[0].clone(), true);
}

/// Reads are planned: `view` and `info` of a POD5 object fetch its footer and tables, no
/// signal-table batch and no signal, in at most 2 round trips; `get` of one read, or of ten,
/// adds the signal table's batch metadata and the reads' chunks (3); a scan (`verify`) fetches
/// each byte about once (SLOW5 text too); a BLOW5 object with its index beside it is not
/// scanned to be opened.
#[test]
fn reads_are_planned_not_paged() {
    let dir = svb_testdata::TempDir::new("remote-planned");
    let local = files(&dir, 250);
    let server = HttpServer::start(&dir.0);
    let size = |f: &std::path::Path| std::fs::metadata(f).unwrap().len();
    let (pod5, blow5) = (&local[0], &local[1]);
    let ids = read_ids(pod5);
    let id = ids.lines().nth(123).unwrap();
    let fetched = |args: &[&str]| {
        let before = server.bytes();
        ok(&svb(args));
        server.bytes() - before
    };
    let url = server.url("reads.pod5");
    let tables = 600 << 10;
    let view = fetched(&["view", &url]);
    assert!(view < tables, "view fetched {view} bytes of {}", size(pod5));
    let info = fetched(&["pod5", "info", &url]);
    assert!(info < tables, "info fetched {info} bytes");
    let get = fetched(&["get", &url, id, "-o", s(&dir.join("one.i16"))]);
    let read_bytes = 2 * std::fs::metadata(dir.join("one.i16")).unwrap().len();
    assert!(get < tables + read_bytes, "get fetched {get} bytes for a {read_bytes}-byte read");
    // `subset` of three reads far apart fetches their chunks as planned ranges, not a
    // megabyte around each (what a miss fetches: 3 MiB and more here, before it planned).
    let list = dir.join("three.txt");
    let three: Vec<&str> = [10, 120, 230].iter().map(|&n| ids.lines().nth(n).unwrap()).collect();
    std::fs::write(&list, three.join("\n")).unwrap();
    let picked = dir.join("three.pod5");
    let subset = fetched(&["subset", &url, "--read-ids", s(&list), "-o", s(&picked)]);
    let out = size(&picked);
    assert!(subset < tables + 2 * out, "subset fetched {subset} bytes for a {out}-byte output");
    // In round trips, with every answer 600 ms late: `view` opens the object (its head and
    // tail at once, its tables); `get` adds the signal table's batch metadata and the read's
    // chunks. (Requests sent at once may arrive up to 300 ms apart on a loaded machine and
    // still count as one.)
    server.faults.delay_ms.store(600, Ordering::SeqCst);
    let gap = std::time::Duration::from_millis(300);
    // `get` of ten reads fetches their chunks together: one round trip more, not ten.
    let ten: Vec<&str> = ids.lines().skip(40).step_by(19).take(10).collect();
    let ten_dir = dir.join("ten");
    let many = [&["get", &url][..], &ten, &["-o", s(&ten_dir)]].concat();
    for (args, most) in [
        (vec!["view", &url], 2),
        (vec!["get", &url, id, "-o", s(&dir.join("two.i16"))], 3),
        (many, 3),
    ] {
        let since = server.served.log.lock().unwrap().len();
        ok(&svb(&args));
        let trips = server.round_trips(since, gap);
        let log = server.served.log.lock().unwrap()[since..].join("; ");
        assert!(trips <= most, "{args:?}: {trips} round trips: {log}");
    }
    server.faults.delay_ms.store(0, Ordering::SeqCst);
    // Each byte about once: 1.02x of this 5 MB object on a quiet machine (what the open
    // and the first reads fetched is left off the scan's ranges). On a loaded 2-core machine
    // the BLOW5 scan was seen at 1.26x (reads racing the ranges fetched ahead): the bound
    // is 1.5x, still far below a second pass (2x) or page-sized requests.
    let verify = fetched(&["pod5", "verify", &url]);
    assert!(
        verify < size(pod5) * 3 / 2,
        "verify fetched {verify} bytes of a {}-byte object",
        size(pod5)
    );
    // BLOW5: located through its index when there is one beside it.
    let burl = server.url("reads.blow5");
    let id0 = ids.lines().next().unwrap();
    let scanned = fetched(&["get", &burl, id0, "-o", s(&dir.join("b.i16"))]);
    ok(&svb(&["index", s(blow5)]));
    let indexed = fetched(&["get", &burl, id0, "-o", s(&dir.join("c.i16"))]);
    assert!(
        indexed * 4 < scanned,
        "get through the index fetched {indexed} bytes, by a scan {scanned}"
    );
    assert_eq!(
        std::fs::read(dir.join("b.i16")).unwrap(),
        std::fs::read(dir.join("c.i16")).unwrap()
    );
    let verify = fetched(&["blow5", "verify", &burl]);
    assert!(
        verify < size(blow5) * 3 / 2,
        "verify fetched {verify} bytes of a {}-byte object",
        size(blow5)
    );
    // SLOW5 text, whose records are found by reading every line, is fetched once (copied to
    // a temporary file), not once to find the records and again to decode them.
    let slow5 = &local[2];
    let verify = fetched(&["blow5", "verify", &server.url("reads.slow5")]);
    assert!(
        verify < size(slow5) * 6 / 5,
        "verify fetched {verify} bytes of a {}-byte SLOW5 object",
        size(slow5)
    );
}

/// The subcommand of the format of `file` (`pod5`, else `blow5`).
fn kind(file: &std::path::Path) -> &'static str {
    if name(file).ends_with("pod5") {
        "pod5"
    } else {
        "blow5"
    }
}

/// Asserts that each of `commands` prints the same for the object at `url` (reached with
/// `env`) as for the local file `local`, their names aside.
fn same_as_local(env: &[(&str, String)], local: &std::path::Path, url: &str, commands: &[&[&str]]) {
    for args in commands {
        let here = ok(&svb(&[args, &[s(local)][..]].concat())).replace(s(local), "F");
        let there = ok(&svb_with(env, &[args, &[url][..]].concat())).replace(url, "F");
        assert_eq!(here, there, "{args:?} {url}");
    }
}

/// Asserts that `svb get` of read `id` from the object at `url` (reached with `env`) writes
/// the samples it writes from the local file `local` (both written in `dir`).
fn same_read(
    env: &[(&str, String)], local: &std::path::Path, url: &str, id: &str, dir: &std::path::Path,
) {
    let (got, want) = (dir.join("got-read.i16"), dir.join("want-read.i16"));
    ok(&svb_with(env, &["get", url, id, "-o", s(&got), "--force"]));
    ok(&svb(&["get", s(local), id, "-o", s(&want), "--force"]));
    assert!(std::fs::read(&got).unwrap() == std::fs::read(&want).unwrap(), "{id} of {url}");
}

/// The read ids of the local file `f`, a line each (`svb view`).
fn read_ids(f: &std::path::Path) -> String {
    ok(&svb(&["view", s(f), "--fields", "read_id", "--no-header"]))
}

/// Runs `svb` with `args` in the environment `env` adds to.
fn svb_with(env: &[(&str, String)], args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_svb"))
        .args(args)
        .envs(env.iter().map(|(k, v)| (*k, v.as_str())))
        .output()
        .expect("the svb binary runs")
}

/// An S3-compatible store (moto's server): objects read as the local files, by key, by
/// prefix (`-r s3://bucket/run/`) and by pattern (`s3://bucket/run/*.blow5`); a missing key
/// named; unsigned requests with --no-sign-request.
#[test]
#[ignore = "needs moto_server (pip install \"moto[server]\"); run with --include-ignored"]
fn s3_objects_read_as_local_files() {
    let Some(s3) = svb_testdata::s3_server::S3Server::start() else { return };
    let dir = svb_testdata::TempDir::new("remote-s3");
    let local = files(&dir, 40);
    s3.create_bucket("ont-open-data");
    for f in &local {
        let key = format!("run1/pod5_pass/{}", name(f));
        s3.put("ont-open-data", &key, &std::fs::read(f).unwrap());
    }
    let env = s3.env();
    for f in &local {
        let url = format!("s3://ont-open-data/run1/pod5_pass/{}", name(f));
        same_as_local(&env, f, &url, &[&["view"], &[kind(f), "verify"]]);
    }
    // A prefix: every file below it, which must be of one format.
    let e = fails(&svb_with(&env, &["view", "-r", "s3://ont-open-data/run1/"]));
    assert!(e.contains("one format at a time"), "{e}");
    s3.put("ont-open-data", "run2/a.pod5", &std::fs::read(&local[0]).unwrap());
    s3.put("ont-open-data", "run2/sub/b.pod5", &std::fs::read(&local[0]).unwrap());
    let view = |args: &[&str]| ok(&svb_with(&env, args)).lines().count();
    assert_eq!(view(&["view", "s3://ont-open-data/run2/", "--no-header"]), 40);
    assert_eq!(view(&["view", "-r", "s3://ont-open-data/run2/", "--no-header"]), 80);
    // A pattern: the BLOW5 object alone.
    let blow5 = ok(&svb_with(
        &env,
        &["view", "s3://ont-open-data/run1/*/*.blow5", "--fields", "read_id", "--no-header"],
    ));
    let want = read_ids(&local[1]);
    assert_eq!(blow5, want);
    // Reads found by id in a prefix through a local read id index, which keeps the objects'
    // sizes and ETags: used while they are the same, rebuilt when one changes.
    s3.put("ont-open-data", "run3/a.pod5", &std::fs::read(&local[0]).unwrap());
    let idx = dir.join("run3.svbidx");
    let ids = read_ids(&local[0]);
    let id30 = ids.lines().nth(30).unwrap();
    let get = |id: &str| {
        svb_with(
            &env,
            &[
                "get",
                "s3://ont-open-data/run3/",
                id,
                "--id-index",
                s(&idx),
                "-o",
                s(&dir.join("got.i16")),
                "--force",
            ],
        )
    };
    ok(&get(id30));
    ok(&svb(&["get", s(&local[0]), id30, "-o", s(&dir.join("want.i16"))]));
    assert_eq!(
        std::fs::read(dir.join("got.i16")).unwrap(),
        std::fs::read(dir.join("want.i16")).unwrap()
    );
    let again = get(id30);
    ok(&again);
    assert!(!String::from_utf8_lossy(&again.stderr).contains("rebuilt"));
    // The object replaced by one of 10 reads: the index is rebuilt, read 30 is gone.
    let small = svb_testdata::TempDir::new("remote-s3-small");
    let fewer = files(&small, 10);
    s3.put("ont-open-data", "run3/a.pod5", &std::fs::read(&fewer[0]).unwrap());
    let e = fails(&get(id30));
    assert!(e.contains(id30), "{e}");
    ok(&get(ids.lines().nth(5).unwrap()));
    // A missing key is named.
    let e = fails(&svb_with(&env, &["view", "s3://ont-open-data/run1/none.pod5"]));
    assert!(e.contains("none.pod5") && e.contains("no such object"), "{e}");
    // Unsigned requests (a public bucket): moto answers them too.
    let v = ok(&svb_with(
        &env,
        &["--no-sign-request", "view", "s3://ont-open-data/run1/pod5_pass/reads.pod5"],
    ));
    assert_eq!(v.lines().count(), 41);
}

/// Objects on Google Cloud Storage (`gs://`) read as local files: every reading command, a
/// prefix and a pattern listed, a read fetched by id; a missing object named.
#[test]
#[ignore = "needs fake-gcs-server (go install github.com/fsouza/fake-gcs-server@v1.56.1); run with --include-ignored"]
fn gcs_objects_read_as_local_files() {
    let dir = svb_testdata::TempDir::new("remote-gcs");
    let local = files(&dir, 30);
    let run = dir.join("buckets/ont-bucket/run1");
    std::fs::create_dir_all(&run).unwrap();
    for f in &local {
        std::fs::copy(f, run.join(name(f))).unwrap();
    }
    let Some(gcs) = svb_testdata::gcs_server::GcsServer::start(&dir.join("buckets")) else {
        return;
    };
    let env = gcs.env();
    for f in &local {
        let url = format!("gs://ont-bucket/run1/{}", name(f));
        let commands: [&[&str]; 3] = [&["view"], &[kind(f), "verify"], &[kind(f), "info"]];
        same_as_local(&env, f, &url, &commands);
    }
    let ids = read_ids(&local[0]);
    let id = ids.lines().nth(17).unwrap();
    same_read(&env, &local[0], "gs://ont-bucket/run1/reads.pod5", id, &dir.0);
    let listed =
        |url: &str| ok(&svb_with(&env, &["view", url, "--fields", "read_id", "--no-header"]));
    assert_eq!(listed("gs://ont-bucket/run1/*.blow5"), ids);
    let e = fails(&svb_with(&env, &["view", "gs://ont-bucket/run1/"]));
    assert!(e.contains("one format at a time"), "{e}");
    let e = fails(&svb_with(&env, &["view", "gs://ont-bucket/run1/none.pod5"]));
    assert!(e.contains("none.pod5") && e.contains("no such object"), "{e}");
}

/// Objects on Azure Blob Storage (`az://`) written and read back: a conversion's output
/// (one block and several) is the local one's bytes, an existing blob is replaced only with
/// --force, reading commands and a get by id give what they give on the local file, a pattern
/// is listed.
#[test]
#[ignore = "needs azurite-blob (npm install azurite@3.37.0); run with --include-ignored"]
fn azure_objects_written_and_read() {
    let Some(az) = svb_testdata::azure_server::AzureServer::start() else { return };
    az.create_container("runs");
    let env = az.env();
    let dir = svb_testdata::TempDir::new("remote-azure");
    let local = files(&dir, 120);
    // The local conversions, named as the blobs are (`view` shows the file's name).
    std::fs::create_dir_all(dir.join("want")).unwrap();
    for (from, key) in [(&local[0], "reads.blow5"), (&local[0], "reads.slow5")] {
        let url = format!("az://runs/run1/{key}");
        ok(&svb_with(&env, &["convert", s(from), "-o", &url]));
        let want = dir.join("want").join(key);
        ok(&svb(&["convert", s(from), "-o", s(&want)]));
        let back = dir.join(&format!("back-{key}"));
        ok(&svb_with(&env, &["convert", &url, "-o", s(&back)]));
        assert_eq!(std::fs::read(&back).unwrap(), std::fs::read(&want).unwrap());
        same_as_local(&env, &want, &url, &[&["view"], &["blow5", "verify"]]);
    }
    let url = "az://runs/run1/reads.blow5";
    let e = fails(&svb_with(&env, &["convert", s(&local[2]), "-o", url]));
    assert!(e.contains("exists"), "{e}");
    ok(&svb_with(&env, &["convert", s(&local[2]), "-o", url, "--force"]));
    let ids = read_ids(&local[2]);
    let listed = ok(&svb_with(
        &env,
        &["view", "az://runs/run1/*.blow5", "--fields", "read_id", "--no-header"],
    ));
    assert_eq!(listed, ids);
    same_read(&env, &local[2], url, ids.lines().nth(77).unwrap(), &dir.0);
}

/// The README's "Data in the cloud" command lines, run as written against an S3-compatible
/// server holding the files they name (the README's POD5 at every key they name).
#[test]
#[ignore = "needs moto_server (pip install \"moto[server]\") and the shared test data; run with --include-ignored"]
fn readme_cloud_lines_run() {
    let Some((data, tmp)) = svb_testdata::data_and_tmp("cli-readme-cloud") else { return };
    let Some(s3) = svb_testdata::s3_server::S3Server::start() else { return };
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md");
    let text = std::fs::read_to_string(path).unwrap();
    let section = text
        .split("## Data in the cloud")
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .expect("the README's \"Data in the cloud\" section");
    let lines: Vec<Vec<&str>> = section
        .lines()
        .filter_map(|l| l.strip_prefix("svb "))
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert!(lines.len() >= 5, "the README's cloud lines were not found");
    let pod5 = std::fs::read(data.join("pod5/multi_fast5_zip.pod5")).unwrap();
    s3.create_bucket("ont-open-data");
    for word in lines.iter().flatten() {
        if let Some(key) = word.strip_prefix("s3://ont-open-data/") {
            if key.ends_with(".pod5") && !key.contains('*') {
                s3.put("ont-open-data", key, &pod5);
            }
        }
    }
    let env = s3.env();
    run_readme_lines(&lines, &tmp.0, &env);
    assert!(tmp.join("read.f32").is_file() && tmp.join("hg002_run1.blow5").is_file());
}

/// Outputs to an object store: the object appears whole when the command ends (no hidden
/// key left beside it), an existing object is never replaced without --force, and with it is.
#[test]
#[ignore = "needs moto_server (pip install \"moto[server]\"); run with --include-ignored"]
fn s3_outputs_appear_whole_and_replace_nothing_unasked() {
    let Some(s3) = svb_testdata::s3_server::S3Server::start() else { return };
    let dir = svb_testdata::TempDir::new("remote-s3-out");
    let local = files(&dir, 120);
    s3.create_bucket("out");
    let env = s3.env();
    // This process reaches the server too (to look at what the commands wrote).
    svb_io::remote::set_options([
        ("aws_endpoint", s3.endpoint()),
        ("allow_http", "true".into()),
        ("aws_region", "us-east-1".into()),
        ("aws_access_key_id", "testing".into()),
        ("aws_secret_access_key", "testing".into()),
    ]);
    let want = dir.join("want.blow5");
    ok(&svb(&["convert", s(&local[0]), "-o", s(&want)]));
    let url = "s3://out/converted/reads.blow5";
    ok(&svb_with(&env, &["convert", s(&local[0]), "-o", url]));
    // Read back through svb (the object, byte for byte the local conversion).
    let back = dir.join("back.blow5");
    ok(&svb_with(&env, &["convert", url, "-o", s(&back)]));
    assert_eq!(std::fs::read(&back).unwrap(), std::fs::read(&want).unwrap());
    // Nothing but the output under the prefix (no hidden partial key).
    let listed = ok(&svb_with(&env, &["view", "s3://out/converted/", "--fields", "read_id"]));
    assert_eq!(listed.lines().count(), 121);
    // An existing object: refused without --force, replaced with it.
    let e = fails(&svb_with(&env, &["convert", s(&local[2]), "-o", url]));
    assert!(e.contains("exists"), "{e}");
    ok(&svb_with(&env, &["convert", url, "-o", s(&dir.join("same.blow5"))]));
    assert_eq!(std::fs::read(dir.join("same.blow5")).unwrap(), std::fs::read(&want).unwrap());
    ok(&svb_with(&env, &["convert", s(&local[2]), "-o", url, "--force"]));
    // An output that is an input is refused, --force or not.
    let e = fails(&svb_with(&env, &["convert", url, "-o", url, "--force"]));
    assert!(e.contains("input"), "{e}");
    // A large output (several parts): a multipart upload.
    let big = "s3://out/big.slow5";
    ok(&svb_with(&env, &["convert", s(&local[0]), "-o", big]));
    let got = dir.join("big-back.slow5");
    ok(&svb_with(&env, &["convert", big, "-o", s(&got)]));
    ok(&svb(&["convert", s(&local[0]), "-o", s(&dir.join("big-want.slow5"))]));
    assert_eq!(std::fs::read(&got).unwrap(), std::fs::read(dir.join("big-want.slow5")).unwrap());
    // An output is uploaded as it is written: none of it goes to the temporary folder (one
    // that does not exist here), with --force (parts of the key itself) or without (a hidden
    // key, copied), in one part or several.
    let mut no_tmp = env.clone();
    no_tmp.push(("TMPDIR", s(&dir.join("no-such-folder")).to_string()));
    for (key, from, force) in [
        ("streamed.slow5", &local[0], false),
        ("streamed-forced.slow5", &local[0], true),
        ("streamed-small.blow5", &local[2], false),
    ] {
        let url = format!("s3://out/{key}");
        let mut args = vec!["convert", s(from), "-o", &url];
        if force {
            args.push("--force");
        }
        ok(&svb_with(&no_tmp, &args));
        let back = dir.join(&format!("back-{key}"));
        ok(&svb_with(&env, &["convert", &url, "-o", s(&back)]));
        let want = dir.join(&format!("want-{key}"));
        ok(&svb(&["convert", s(from), "-o", s(&want)]));
        assert_eq!(std::fs::read(&back).unwrap(), std::fs::read(&want).unwrap());
    }
    // Several outputs at once (split's): two are uploaded as they are written, the others
    // written to the temporary folder first (bounded memory); all appear, each the bytes of
    // the local split's.
    let parts = dir.join("parts");
    ok(&svb(&["split", s(&local[1]), "-o", s(&parts), "--files", "5"]));
    // Run from the test's folder: no local `s3:/out/parts` folder is made for the prefix.
    let split = std::process::Command::new(env!("CARGO_BIN_EXE_svb"))
        .args(["split", s(&local[1]), "-o", "s3://out/parts/", "--files", "5"])
        .envs(env.iter().map(|(k, v)| (*k, v.as_str())))
        .current_dir(&dir.0)
        .output()
        .unwrap();
    ok(&split);
    assert!(!dir.join("s3:").exists(), "a local folder was made for s3://out/parts/");
    let mut names: Vec<_> = std::fs::read_dir(&parts)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names.len(), 5, "{names:?}");
    for name in &names {
        let url = format!("s3://out/parts/{name}");
        let object =
            svb_io::Source::open(std::path::Path::new(&url), svb_io::Access::ReadWhole).unwrap();
        let want = std::fs::read(parts.join(name)).unwrap();
        assert!(object.read_vec(0, object.len() as usize).unwrap() == want, "{name}");
    }
    // Synced as a local output is (every 16 MiB and at the end), an upload has nothing to
    // sync: 20 MiB in three parts, published whole.
    let mut f = svb_io::Publish::default().create("s3://out/synced.bin").unwrap();
    let bytes: Vec<u8> = (0..20u32 << 20).map(|i| (i % 251) as u8).collect();
    std::io::Write::write_all(&mut f, &bytes).unwrap();
    svb_io::Publish::default().commit(f).unwrap();
    let synced = svb_io::Source::open(
        std::path::Path::new("s3://out/synced.bin"),
        svb_io::Access::ReadWhole,
    )
    .unwrap();
    assert!(synced.read_vec(0, bytes.len()).unwrap() == bytes);
    // Dropped part way (an error, a panic), an output whose parts were sent aborts its
    // multipart upload: nothing stays (checked with the interrupted uploads below).
    for on_existing in [svb_io::OnExisting::Replace, svb_io::OnExisting::Refuse] {
        let mut f = svb_io::PartialFile::create("s3://out/dropped.slow5", on_existing).unwrap();
        std::io::Write::write_all(&mut f, &vec![7u8; 20 << 20]).unwrap();
        drop(f);
    }
    // The refusal does not rest on the look before: an object that appears while an output
    // is written is kept and the output refused, in one part (a conditional put) or in
    // several (a conditional CompleteMultipartUpload), streamed or uploaded from a file.
    for (key, len) in [("raced-small.bin", 1usize << 20), ("raced-big.bin", 20 << 20)] {
        let url = format!("s3://out/{key}");
        let mut f = svb_io::PartialFile::create(&url, svb_io::OnExisting::Refuse).unwrap();
        std::io::Write::write_all(&mut f, &vec![1u8; len]).unwrap();
        let theirs = std::path::Path::new(&url);
        svb_io::write_file(theirs, b"theirs", svb_io::OnExisting::Replace).unwrap();
        let e = f.commit().unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::AlreadyExists, "{key}: {e}");
        let kept = svb_io::Source::open(theirs, svb_io::Access::ReadWhole).unwrap();
        assert_eq!(kept.read_vec(0, kept.len() as usize).unwrap(), b"theirs");
    }
    let e = svb_io::remote::upload(&local[1], url, false).unwrap_err();
    assert_eq!(e.kind(), std::io::ErrorKind::AlreadyExists, "{e}");
    svb_io::remote::upload(&local[1], "s3://out/fresh.blow5", false).unwrap();
    // `svb index` of an object writes the index beside it (as slow5lib's beside a file),
    // or where --index says; both fit the object (slow5lib's bytes, as of the local file).
    ok(&svb_with(&env, &["index", url]));
    let local_idx = dir.join("local.idx");
    ok(&svb_with(&env, &["index", url, "--index", s(&local_idx)]));
    ok(&svb(&["convert", s(&local[2]), "-o", s(&dir.join("c.blow5"))]));
    ok(&svb(&["index", s(&dir.join("c.blow5"))]));
    let want_idx = std::fs::read(dir.join("c.blow5.idx")).unwrap();
    assert_eq!(std::fs::read(&local_idx).unwrap(), want_idx);
    let beside = std::path::Path::new("s3://out/converted/reads.blow5.idx");
    let beside = svb_io::Source::open(beside, svb_io::Access::ReadWhole).unwrap();
    assert_eq!(beside.read_vec(0, beside.len() as usize).unwrap(), want_idx);
    // An output to a bucket that is not there is named so.
    let e = fails(&svb_with(&env, &["convert", s(&local[0]), "-o", "s3://no-such-bucket/x.slow5"]));
    assert!(e.contains("bucket does not exist"), "{e}");
    // An output to a web server is refused, naming why.
    let e = fails(&svb(&["convert", s(&local[0]), "-o", "http://127.0.0.1:9/x.blow5"]));
    assert!(e.contains("object stores"), "{e}");
    // Asked to stop (Ctrl-C), an upload of several parts aborts its multipart upload, with
    // --force or without: no object, no upload left open.
    let big_file = dir.join("big-want.slow5");
    assert!(std::fs::metadata(&big_file).unwrap().len() > 8 << 20);
    svb_io::interrupt();
    for (key, replace) in [("stopped-a.slow5", true), ("stopped-b.slow5", false)] {
        let url = format!("s3://out/{key}");
        let e = svb_io::remote::upload(&big_file, &url, replace).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::Interrupted, "{e}");
    }
    // A streamed output asked to stop while written: its writes go on (a write that said
    // "interrupted" would be retried forever by std's io::copy, write_all and BufWriter),
    // and its commit refuses, taking the upload back.
    let url = "s3://out/stopped-c.slow5";
    let mut f = svb_io::PartialFile::create(url, svb_io::OnExisting::Replace).unwrap();
    std::io::copy(&mut std::fs::File::open(&big_file).unwrap(), &mut f).unwrap();
    let e = f.commit().unwrap_err();
    assert_eq!(e.kind(), std::io::ErrorKind::Interrupted, "{e}");
    svb_io::clear_interrupt();
    let open_uploads = http_get(&s3.endpoint(), "/out?uploads");
    assert!(
        open_uploads.contains("ListMultipartUploadsResult") && !open_uploads.contains("<Upload>"),
        "{open_uploads}"
    );
    let listed = http_get(&s3.endpoint(), "/out?list-type=2");
    assert!(
        !listed.contains("stopped-") && !listed.contains("dropped") && !listed.contains("partial"),
        "{listed}"
    );
}

/// The body of an unsigned GET of `target` from the server at `endpoint` (moto answers it).
fn http_get(endpoint: &str, target: &str) -> String {
    use std::io::{Read, Write};
    let host = endpoint.trim_start_matches("http://");
    let mut c = std::net::TcpStream::connect(host).unwrap();
    write!(c, "GET {target} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n").unwrap();
    let mut answer = String::new();
    c.read_to_string(&mut answer).unwrap();
    answer
}

/// FAST5 objects (HDF5 read through the block cache over the object's ranges) read as the
/// local files: `view` and `fast5 verify` of every shared FAST5 file.
#[svb_testdata::data_test]
fn fast5_objects_read_as_local_files(data: &Path, _tmp: &TempDir) {
    let dir = data.join("fast5");
    let server = HttpServer::start(&dir);
    let mut n = 0;
    for (_, path) in svb_testdata::files_with_suffix(&dir, ".fast5") {
        let url = server.url(name(&path));
        for args in [vec!["view"], vec!["fast5", "verify"]] {
            let run = |p: &str| {
                let mut a = args.clone();
                a.push(p);
                svb(&a)
            };
            let (here, there) = (run(s(&path)), run(&url));
            assert_eq!(here.status.success(), there.status.success(), "{args:?} {url}");
            let norm = |o: &std::process::Output, p: &str| {
                String::from_utf8_lossy(&o.stdout).replace(p, "F")
            };
            assert_eq!(norm(&here, s(&path)), norm(&there, &url), "{args:?} {url}");
        }
        n += 1;
    }
    assert!(n > 10, "{n} FAST5 files");
}

/// A hostile server cannot make svb hang or allocate beyond what it asked for: a body that
/// never ends, a declared length of 2^50 bytes, a redirect loop are errors, quickly.
#[test]
fn a_hostile_server_is_an_error_not_a_hang() {
    let dir = svb_testdata::TempDir::new("remote-hostile");
    let _local = files(&dir, 200);
    let server = HttpServer::start(&dir.0);
    let url = server.url("reads.pod5");
    for (what, fault) in [
        ("endless body", &server.faults.endless_body),
        ("huge length", &server.faults.huge_length),
        ("redirect loop", &server.faults.redirect_loop),
    ] {
        // Every request meets the fault (retries too).
        fault.store(1_000, Ordering::SeqCst);
        let started = std::time::Instant::now();
        let out = svb_under("ulimit -v 4000000", &["pod5", "verify", &url]);
        let e = fails(&out);
        assert!(e.contains(&url), "{what}: {e}");
        assert!(
            started.elapsed() < std::time::Duration::from_secs(120),
            "{what}: {:?}",
            started.elapsed()
        );
        fault.store(0, Ordering::SeqCst);
    }
}

/// An object's POD5 signal table is read when a read's signal is first asked for: `view` and
/// `info` fetch none of its record batches (the requests of a deferred open: the object's
/// head and tail, its tables), `get` reads them and the read's chunks, and gives the read's
/// samples; `verify` checks every read as a local open does.
#[test]
fn view_and_info_fetch_no_signal_batch() {
    let dir = svb_testdata::TempDir::new("remote-signal-deferred");
    let local = files(&dir, 250);
    let server = HttpServer::start(&dir.0);
    let url = server.url("reads.pod5");
    let r = svb_pod5::Reader::open(&local[0]).unwrap();
    let table = r
        .footer()
        .contents
        .iter()
        .find(|f| f.content_type == svb_pod5::ContentType::SignalTable)
        .copied()
        .unwrap();
    // Each range a command fetched.
    let ranges = |since: usize| -> Vec<(u64, u64)> {
        let log = server.served.log.lock().unwrap();
        log[since..]
            .iter()
            .filter_map(|l| {
                let r = l.split_whitespace().nth(2)?.strip_prefix("bytes=")?;
                let (a, b) = r.split_once('-')?;
                Some((a.parse().ok()?, b.parse().ok()?))
            })
            .collect()
    };
    // The signal table's batches past the object's head (fetched at open, 16 KiB) and before
    // its Arrow footer (read at open; everything of the table but its last 256 KiB here).
    let batches = table.offset + (64 << 10)..table.offset + table.length - (256 << 10);
    let touches = |(a, b): (u64, u64)| a < batches.end && b >= batches.start;
    for args in [&["view", &url][..], &["pod5", "info", &url], &["view", &url, "--json"]] {
        let since = server.served.log.lock().unwrap().len();
        ok(&svb(args));
        let got = ranges(since);
        assert!(!got.iter().any(|&r| touches(r)), "{args:?} fetched {got:?} of {batches:?}");
    }
    // `get` reads the batches and the read's chunks.
    let ids = read_ids(&local[0]);
    let id = ids.lines().nth(200).unwrap();
    let out = dir.join("one.i16");
    ok(&svb(&["get", &url, id, "-o", s(&out)]));
    let i = r.find(id).unwrap();
    let want: Vec<u8> = r.decode_signal(i).unwrap().iter().flat_map(|x| x.to_le_bytes()).collect();
    assert_eq!(std::fs::read(&out).unwrap(), want);
    ok(&svb(&["pod5", "verify", &url]));
}

/// A scan of a POD5 object larger than what a reader keeps (80 MB, 64 MiB kept) fetches it
/// ahead in large pieces: the signal table is parsed before the scan is announced (parsed
/// after it, the batches' scattered ranges started the fetches ahead at the table's start,
/// every read then missed on its own: a request or more a chunk).
#[test]
fn a_scan_of_a_large_pod5_object_fetches_ahead() {
    use svb_testdata::pod5::{TestFile, TestRead};
    let dir = svb_testdata::TempDir::new("remote-large-scan");
    // 40 reads of 1M int16 samples each, stored uncompressed: 80 MB.
    let reads: Vec<TestRead> = (0..40u8)
        .map(|r| TestRead::new(r, (0..1_000_000).map(|x| (x % 997) as i16).collect()))
        .collect();
    let bytes = TestFile {
        reads,
        chunk_samples: 102_400,
        signal_batch_rows: 10,
        compress: None,
        edit: None,
    }
    .write();
    std::fs::write(dir.join("large.pod5"), &bytes).unwrap();
    let server = HttpServer::start(&dir.0);
    let before = server.requests();
    let out = ok(&svb(&["pod5", "verify", &server.url("large.pod5"), "-t", "1"]));
    assert_eq!(out.lines().count(), 40);
    let (requests, fetched) = (server.requests() - before, server.bytes());
    // 80 MB in 4 MiB pieces, the open and the table: about 80 requests here; fetched about
    // once, one decoding thread (the table parsed after the scan's announcement: 2.0x).
    assert!(requests <= 160, "verify made {requests} requests");
    assert!(
        fetched < bytes.len() as u64 * 3 / 2,
        "verify fetched {fetched} of {} bytes",
        bytes.len()
    );
}
