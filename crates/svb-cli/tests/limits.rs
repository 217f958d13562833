//! Inputs that try to make a command hang or take unbounded memory: a read id list with a
//! line of megabytes, a directory tree whose links loop.

mod common;
use common::{fails, ok, s, svb};

use svb_testdata::{data_dir, TempDir};

#[test]
fn a_list_line_too_long_is_refused_with_a_short_message() {
    let Some(data) = data_dir() else {
        return;
    };
    let tmp = TempDir::new("cli-long-line");
    let list = tmp.join("ids.txt");
    std::fs::write(&list, format!("read_id\n{}\n", "x".repeat(5 << 20))).unwrap();
    let pod5 = data.join("pod5/multi_fast5_zip.pod5");
    let out = tmp.join("picked.pod5");
    let e = fails(&svb(&[
        "subset",
        s(&pod5),
        "-o",
        s(&out),
        "--read-ids",
        s(&list),
    ]));
    assert!(
        e.contains("line 2: a line longer than 1048576 bytes"),
        "{e}"
    );
    assert!(e.len() < 300, "{} bytes on stderr", e.len());
    assert!(!out.exists());
}

#[cfg(unix)]
#[test]
fn links_that_loop_are_walked_once() {
    let Some(data) = data_dir() else {
        return;
    };
    let tmp = TempDir::new("cli-loops");
    let sub = tmp.join("L/sub");
    std::fs::create_dir_all(&sub).unwrap();
    std::fs::copy(data.join("pod5/multi_fast5_zip.pod5"), sub.join("a.pod5")).unwrap();
    std::os::unix::fs::symlink("..", sub.join("up")).unwrap();
    std::os::unix::fs::symlink("../sub", sub.join("self")).unwrap();
    let out = ok(&svb(&["view", "-r", s(&tmp.join("L"))]));
    // A header line and the file's 10 reads, each once.
    assert_eq!(out.lines().count(), 11, "{out}");
}
