//! The `svb` command end to end: `blow5 verify` prints the expected sha256 per read,
//! `blow5 decode` writes the signals, broken files exit non-zero with a message, `bench`
//! runs with no file.

use std::process::Command;

use svb_testdata::data_dir;

fn svb(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_svb"))
        .args(args)
        .output()
        .expect("the svb binary runs")
}

#[test]
fn blow5_verify_matches_expected_sha256() {
    let Some(dir) = data_dir() else { return };
    let expected = std::fs::read_to_string(dir.join("blow5/slow5tools/expected.json")).unwrap();
    let file = dir.join("blow5/slow5tools/example_multi_rg_v0.2.0_zstd_svb-zd.blow5");
    for threads in ["1", "2"] {
        let out = svb(&[
            "--threads",
            threads,
            "blow5",
            "verify",
            file.to_str().unwrap(),
        ]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let stdout = String::from_utf8(out.stdout).unwrap();
        let lines: Vec<&str> = stdout.lines().collect();
        assert!(!lines.is_empty());
        for line in lines {
            assert!(line.starts_with("{\"read_id\":\""), "{line}");
            let sha = line
                .rsplit("\"sha256\":\"")
                .next()
                .unwrap()
                .trim_end_matches("\"}");
            assert_eq!(sha.len(), 64);
            assert!(expected.contains(sha), "{line}");
        }
    }
}

#[test]
fn blow5_decode_writes_every_read() {
    let Some(dir) = data_dir() else { return };
    let file = dir.join("blow5/reads_zstd_ex_zd.blow5");
    let out_dir = std::env::temp_dir().join(format!("svb-cli-decode-{}", std::process::id()));
    for npy in [false, true] {
        let mut args = vec![
            "blow5",
            "decode",
            file.to_str().unwrap(),
            "-o",
            out_dir.to_str().unwrap(),
        ];
        if npy {
            args.push("--npy");
        }
        let out = svb(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let mut checked = 0;
    for e in std::fs::read_dir(dir.join("pod5/multi_fast5_zip.signal")).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_str().unwrap().to_owned();
        assert_eq!(
            std::fs::read(out_dir.join(&name)).unwrap(),
            std::fs::read(&p).unwrap()
        );
        let npy = std::fs::read(out_dir.join(name.replace(".i16", ".npy"))).unwrap();
        assert_eq!(&npy[..6], b"\x93NUMPY");
        assert!(npy.ends_with(&std::fs::read(&p).unwrap()));
        checked += 1;
    }
    assert_eq!(checked, 10);
    std::fs::remove_dir_all(&out_dir).unwrap();
}

#[test]
fn broken_files_exit_non_zero_with_a_message() {
    let Some(dir) = data_dir() else { return };
    let good = std::fs::read(dir.join("blow5/reads_zstd_svb_zd.blow5")).unwrap();
    let path = std::env::temp_dir().join(format!("svb-cli-broken-{}.blow5", std::process::id()));
    std::fs::write(&path, &good[..good.len() / 2]).unwrap();
    let out = svb(&["blow5", "verify", path.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(path.to_str().unwrap()), "{err}");
    std::fs::remove_file(&path).unwrap();
    let out = svb(&["blow5", "info", "/no/such.blow5"]);
    assert!(!out.status.success());
}

#[test]
fn blow5_info_and_bench_run() {
    if let Some(dir) = data_dir() {
        let file = dir.join("blow5/slow5tools/example_multi_rg_v0.2.0_zstd_svb-zd.blow5");
        let out = svb(&["blow5", "info", file.to_str().unwrap()]);
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("read groups: 5"), "{text}");
        assert!(text.contains("Zstd") && text.contains("SvbZd"), "{text}");
    }
    let out = svb(&["bench", "--samples", "20000", "--seconds", "0.01"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    for codec in ["U32Classic", "Svb16", "VBZ", "POD5 VBZ", "SVB-ZD", "ex-zd"] {
        assert!(text.contains(&format!("| {codec} |")), "{text}");
    }
}

#[test]
fn pod5_verify_matches_the_manifests_for_every_writer() {
    let Some(dir) = data_dir() else { return };
    let manifest = std::fs::read_to_string(dir.join("pod5/multi_fast5_zip.json")).unwrap();
    for name in [
        "multi_fast5_zip.pod5",
        "multi_fast5_zip_v4.pod5",
        "multi_fast5_zip_v0.pod5",
    ] {
        let file = dir.join("pod5").join(name);
        for threads in ["1", "2"] {
            let out = svb(&[
                "--threads",
                threads,
                "pod5",
                "verify",
                file.to_str().unwrap(),
            ]);
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            let stdout = String::from_utf8(out.stdout).unwrap();
            assert_eq!(stdout.lines().count(), 10, "{name}");
            for line in stdout.lines() {
                let id = &line[13..49];
                let sha = line
                    .rsplit("\"sha256\":\"")
                    .next()
                    .unwrap()
                    .trim_end_matches("\"}");
                // The manifest lists the id, then its sample count, then its sha256.
                let at = manifest.find(id).unwrap_or_else(|| panic!("{name}: {id}"));
                let entry = &manifest[at..at + 300];
                assert!(entry.contains(sha), "{name}: {line}");
                let n = line
                    .split("\"num_samples\":")
                    .nth(1)
                    .unwrap()
                    .split(',')
                    .next()
                    .unwrap();
                assert!(
                    entry.contains(&format!("\"num_samples\": {n},")),
                    "{name}: {line}"
                );
            }
        }
    }
}

#[test]
fn pod5_decode_info_and_broken_files() {
    let Some(dir) = data_dir() else { return };
    let file = dir.join("pod5/multi_fast5_zip_v4.pod5");
    let out_dir = std::env::temp_dir().join(format!("svb-cli-pod5-{}", std::process::id()));
    let out = svb(&[
        "pod5",
        "decode",
        file.to_str().unwrap(),
        "-o",
        out_dir.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut checked = 0;
    for e in std::fs::read_dir(dir.join("pod5/multi_fast5_zip.signal")).unwrap() {
        let p = e.unwrap().path();
        let name = p.file_name().unwrap().to_owned();
        assert_eq!(
            std::fs::read(out_dir.join(&name)).unwrap(),
            std::fs::read(&p).unwrap()
        );
        checked += 1;
    }
    assert_eq!(checked, 10);
    std::fs::remove_dir_all(&out_dir).unwrap();

    let out = svb(&["pod5", "info", file.to_str().unwrap()]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("reads: 10") && text.contains("samples: 1548931"),
        "{text}"
    );
    assert!(text.contains("Vbz, 22 chunks"), "{text}");

    // A chunk damaged in place: the file opens, verify stops at the broken read.
    let mut bytes = std::fs::read(&file).unwrap();
    let frame = bytes
        .windows(4)
        .position(|w| w == [0x28, 0xb5, 0x2f, 0xfd])
        .unwrap();
    // The frame header descriptor's reserved bit: VBZ has no checksum, so damage inside
    // the compressed data may decode to other samples; this cannot.
    bytes[frame + 4] |= 0x08;
    let path = std::env::temp_dir().join(format!("svb-cli-broken-{}.pod5", std::process::id()));
    std::fs::write(&path, &bytes).unwrap();
    let out = svb(&["pod5", "verify", path.to_str().unwrap()]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(path.to_str().unwrap()) && err.contains("signal table row 0"),
        "{err}"
    );
    std::fs::write(&path, &bytes[..bytes.len() - 1]).unwrap();
    let out = svb(&["pod5", "info", path.to_str().unwrap()]);
    assert!(!out.status.success());
    std::fs::remove_file(&path).unwrap();
}
