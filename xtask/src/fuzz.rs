//! `cargo xtask fuzz [--seconds N]`: every cargo-fuzz target, time-boxed, on a corpus seeded
//! with encodings the project itself produces. AddressSanitizer on nightly; without a
//! nightly toolchain it falls back to stable with `-s none` and says so.

use std::fs;
use std::path::Path;
use std::process::Command;

use svb_core::{Codec, Svb16, U32Classic, U32Variant0124, U64Coder1234, U64Coder1248};

use crate::util::{check_args, opt, output, root, run};

pub fn main(args: &[String]) -> Result<(), String> {
    check_args(args, &[], &["--seconds"])?;
    let seconds: u64 = opt(args, "--seconds")
        .unwrap_or("20")
        .parse()
        .map_err(|e| format!("--seconds: {e}"))?;
    let fuzz_dir = root().join("fuzz");
    if output(Command::new("cargo").args(["fuzz", "--version"])).is_none() {
        return Err("cargo-fuzz is not installed (cargo install cargo-fuzz)".into());
    }
    let nightly = output(Command::new("cargo").args(["+nightly", "--version"])).is_some();
    let toolchain: Vec<&str> = if nightly { vec!["+nightly"] } else { vec![] };
    let sanitizer: Vec<&str> = if nightly { vec![] } else { vec!["-s", "none"] };
    if !nightly {
        println!("fuzz: NO NIGHTLY TOOLCHAIN: running without AddressSanitizer (-s none)");
    }

    let mut targets: Vec<String> = fs::read_dir(fuzz_dir.join("fuzz_targets"))
        .map_err(|e| format!("fuzz/fuzz_targets: {e}"))?
        .filter_map(|e| {
            e.ok()?
                .file_name()
                .into_string()
                .ok()?
                .strip_suffix(".rs")
                .map(str::to_owned)
        })
        .collect();
    targets.sort();
    for t in &targets {
        seed_corpus(&fuzz_dir.join("corpus").join(t), t)?;
    }

    run(Command::new("cargo")
        .current_dir(&fuzz_dir)
        .args(&toolchain)
        .args(["fuzz", "build", "-O"])
        .args(&sanitizer))?;
    let mut failed = Vec::new();
    for t in &targets {
        let r = run(Command::new("cargo")
            .current_dir(&fuzz_dir)
            .args(&toolchain)
            .args(["fuzz", "run", "-O"])
            .args(&sanitizer)
            .arg(t)
            .arg("--")
            .arg(format!("-max_total_time={seconds}"))
            .arg("-rss_limit_mb=4096"));
        match r {
            Ok(()) => println!("fuzz: PASS  {t} ({seconds} s)"),
            Err(e) => {
                println!("fuzz: FAIL  {t}: {e} (see fuzz/artifacts/{t}/)");
                failed.push(t.clone());
            }
        }
    }
    if failed.is_empty() {
        println!("fuzz: {} passed, 0 failed", targets.len());
        Ok(())
    } else {
        Err(format!(
            "{} of {} targets crashed: {}",
            failed.len(),
            targets.len(),
            failed.join(", ")
        ))
    }
}

/// Deterministic values of mixed byte widths.
fn mixed(n: usize, max_bytes: u32, seed: u64) -> Vec<u64> {
    let mut x = seed | 1;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let bytes = 1 + (x % max_bytes as u64) as u32;
            if bytes == 8 {
                x
            } else {
                (x >> 8) & ((1u64 << (8 * bytes)) - 1)
            }
        })
        .collect()
}

/// Writes seed inputs for `target` into `dir` (kept if already there).
fn seed_corpus(dir: &Path, target: &str) -> Result<(), String> {
    fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut seeds: Vec<Vec<u8>> = Vec::new();
    for (i, n) in [0usize, 1, 5, 16, 33, 200, 1000].into_iter().enumerate() {
        let seed = 0x9E37_79B9_7F4A_7C15 ^ i as u64;
        let (enc, raw): (Vec<u8>, Vec<u8>) = match target
            .trim_start_matches("decode_")
            .trim_start_matches("roundtrip_")
            .trim_start_matches("pod5_")
            .trim_start_matches("fast5_")
        {
            _ if target == "pod5_reader" => {
                let compress = |s: &[i16]| svb_vbz::pod5::compress_signal(s);
                let reads = (0..1 + i % 3)
                    .map(|r| {
                        let v: Vec<i16> = mixed(n, 2, seed ^ r as u64)
                            .into_iter()
                            .map(|x| (x as i16) >> 4)
                            .collect();
                        svb_testdata::pod5::TestRead::new(r as u8, v)
                    })
                    .collect();
                let file = svb_testdata::pod5::TestFile {
                    reads,
                    chunk_samples: 300,
                    signal_batch_rows: 2,
                    compress: if i % 2 == 0 { Some(&compress) } else { None },
                };
                seeds.push(file.write());
                continue;
            }
            _ if target == "blow5_records" => {
                let v: Vec<i16> = mixed(n, 2, seed)
                    .into_iter()
                    .map(|x| x as i16 >> 4)
                    .collect();
                seeds.push(tiny_blow5(&v, i % 3));
                continue;
            }
            "u32_classic" | "u32_variant0124" => {
                let v: Vec<u32> = mixed(n, 4, seed).into_iter().map(|x| x as u32).collect();
                let enc = if target.ends_with("classic") {
                    U32Classic.encode(&v)
                } else {
                    U32Variant0124.encode(&v)
                };
                (enc, v.iter().flat_map(|x| x.to_le_bytes()).collect())
            }
            "u64_coder1248" => {
                let v = mixed(n, 8, seed);
                (
                    U64Coder1248.encode(&v),
                    v.iter().flat_map(|x| x.to_le_bytes()).collect(),
                )
            }
            "u64_coder1234" => {
                let v = mixed(n, 4, seed);
                let raw = v
                    .iter()
                    .flat_map(|x| {
                        let b = x.to_le_bytes();
                        [b[0], b[1], b[2], b[3], 0]
                    })
                    .collect();
                (U64Coder1234.encode(&v), raw)
            }
            "svb16" => {
                let v: Vec<u16> = mixed(n, 2, seed).into_iter().map(|x| x as u16).collect();
                (
                    Svb16.encode(&v),
                    v.iter().flat_map(|x| x.to_le_bytes()).collect(),
                )
            }
            "vbz_fused" | "decompress_signal" => {
                let v: Vec<i16> = mixed(n, 2, seed)
                    .into_iter()
                    .map(|x| (x as i16) >> 3)
                    .collect();
                let enc = if target.contains("pod5") {
                    svb_vbz::pod5::compress_signal(&v)
                } else {
                    svb_vbz::encode_vbz(&v)
                };
                let prefix: Vec<u8> = if target.contains("pod5") {
                    vec![]
                } else {
                    vec![0, 0]
                };
                (prefix.into_iter().chain(enc).collect(), Vec::new())
            }
            "vbz2" | "vbzk" => {
                let v: Vec<i16> = mixed(n, 2, seed)
                    .into_iter()
                    .map(|x| (x as i16) >> 2)
                    .collect();
                let enc = if target.ends_with("vbz2") {
                    svb_vbz::encode_vbz2(&v)
                } else {
                    svb_vbz::encode_vbzk(&v, 1 + i % 4)
                };
                (enc, Vec::new())
            }
            "decompress" => {
                // Option set 2 + 8 * 1 + 4: integer size 2, delta + zigzag, zstd level 1.
                let v: Vec<u8> = mixed(n, 2, seed)
                    .into_iter()
                    .flat_map(|x| ((x as i16) >> 3).to_le_bytes())
                    .collect();
                let opts = svb_vbz::fast5::Options::SIGNAL;
                let mut s = vec![2 + 4 + 8];
                s.extend(svb_vbz::fast5::compress_sized(&v, &opts).map_err(|e| e.to_string())?);
                seeds.push(s);
                continue;
            }
            "svbzd" => {
                let v: Vec<i16> = mixed(n, 2, seed).into_iter().map(|x| x as i16).collect();
                (svb_slow5::encode_svbzd(&v), Vec::new())
            }
            "exzd" => {
                let v: Vec<i16> = mixed(n, 2, seed)
                    .into_iter()
                    .map(|x| ((x as i16) >> (i % 3)) << (i % 4))
                    .collect();
                seeds.push(svb_slow5::encode_exzd(&v));
                continue;
            }
            _ => return Ok(()),
        };
        seeds.push(
            if target.starts_with("decode_") || target.starts_with("pod5_") {
                let mut s = (n as u16).to_le_bytes().to_vec();
                s.extend_from_slice(&enc);
                s
            } else {
                raw
            },
        );
    }
    for (i, s) in seeds.iter().enumerate() {
        let path = dir.join(format!("seed-{i}"));
        if !path.exists() {
            fs::write(&path, s).map_err(|e| format!("{}: {e}", path.display()))?;
        }
    }
    Ok(())
}

/// A one-record BLOW5 file (v0.2.0, records stored as they are) of `signal`, its signal
/// stored raw (0), as SVB-ZD (1) or as ex-zd (2).
fn tiny_blow5(signal: &[i16], signal_press: usize) -> Vec<u8> {
    let text = "#slow5_version\t0.2.0\n#num_read_groups\t1\n@run_id\tseed\n\
        #char*\tuint32_t\tdouble\tdouble\tdouble\tdouble\tuint64_t\tint16_t*\tuint8_t\n\
        #read_id\tread_group\tdigitisation\toffset\trange\tsampling_rate\tlen_raw_signal\traw_signal\tstart_mux\n";
    let mut f = b"BLOW5\x01".to_vec();
    f.extend([0, 2, 0, 0]);
    f.extend(1u32.to_le_bytes());
    f.push(signal_press as u8);
    f.resize(64, 0);
    f.extend((text.len() as u32).to_le_bytes());
    f.extend(text.as_bytes());
    let blob: Vec<u8> = match signal_press {
        0 => signal.iter().flat_map(|s| s.to_le_bytes()).collect(),
        1 => svb_slow5::svbzd::encode_blob(signal),
        _ => svb_slow5::encode_exzd(signal),
    };
    let mut rec = Vec::new();
    rec.extend(4u16.to_le_bytes());
    rec.extend(b"read");
    rec.extend(0u32.to_le_bytes());
    for v in [8192.0f64, 10.0, 1400.0, 4000.0] {
        rec.extend(v.to_le_bytes());
    }
    let len = if signal_press == 0 {
        signal.len()
    } else {
        blob.len()
    };
    rec.extend((len as u64).to_le_bytes());
    rec.extend(&blob);
    rec.push(3);
    f.extend((rec.len() as u64).to_le_bytes());
    f.extend(rec);
    f.extend(b"5WOLB");
    f
}
