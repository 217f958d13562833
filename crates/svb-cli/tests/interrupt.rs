//! Ctrl-C (SIGINT) and SIGTERM during a command that writes: the operation stops between two
//! windows of reads, publishes nothing (no output, no hidden temporary file left) and exits
//! 130; a command killed outright would leave its temporary file and die by the signal.

mod common;
use common::s;

#[cfg(unix)]
#[test]
#[ignore = "needs the shared test data (../shared/data or SVB_TEST_DATA); run with --include-ignored"]
fn a_signal_stops_the_operation_and_publishes_nothing() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    let Some(data) = svb_testdata::data_dir() else { return };
    let tmp = svb_testdata::TempDir::new("cli-interrupt");
    let bytes = std::fs::read(data.join("blow5/reads_zstd_svb_zd.blow5")).unwrap();
    for (k, (signal, command)) in
        [("INT", "convert"), ("TERM", "split"), ("INT", "merge")].into_iter().enumerate()
    {
        let dir = tmp.join(&format!("{k}"));
        std::fs::create_dir_all(&dir).unwrap();
        let pipe = dir.join("in.blow5");
        assert!(Command::new("mkfifo").arg(&pipe).status().unwrap().success());
        let out = dir.join("out");
        let other = data.join("blow5/reads_zlib_svb_zd.blow5");
        let args: Vec<&str> = match command {
            "convert" => vec!["convert", s(&pipe), "-o", "out.pod5"],
            "split" => vec!["split", s(&pipe), "-o", s(&out), "--files", "2"],
            _ => {
                vec!["merge", s(&pipe), s(&other), "-o", "out.blow5", "--duplicates", "keep-first"]
            }
        };
        let child = Command::new(env!("CARGO_BIN_EXE_svb"))
            .args(&args)
            .current_dir(&dir)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Opening the FIFO waits for svb to open it: its handlers are set by then.
        let mut feed = std::fs::OpenOptions::new().write(true).open(&pipe).unwrap();
        let pid = child.id().to_string();
        // The shell's own `kill` (no procps needed).
        let kill = format!("kill -{signal} {pid}");
        assert!(Command::new("sh").args(["-c", &kill]).status().unwrap().success());
        std::thread::sleep(Duration::from_millis(200));
        feed.write_all(&bytes).unwrap();
        drop(feed);
        let start = Instant::now();
        let mut child = child;
        while child.try_wait().unwrap().is_none() {
            assert!(start.elapsed() < Duration::from_secs(60), "svb {command} hangs");
            std::thread::sleep(Duration::from_millis(10));
        }
        let done = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&done.stderr);
        assert_eq!(done.status.code(), Some(130), "{command}: {err}");
        assert!(err.contains("interrupted"), "{command}: {err}");
        // Nothing but the FIFO: no output, no temporary file (the split's folder is made
        // empty).
        let mut left: Vec<String> = walk(&dir);
        left.sort();
        assert_eq!(left, ["in.blow5"], "{command}: {err}");
    }
}

#[cfg(unix)]
fn walk(dir: &std::path::Path) -> Vec<String> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_dir() {
            out.extend(walk(&e.path()));
        } else {
            out.push(e.file_name().to_string_lossy().into_owned());
        }
    }
    out
}
