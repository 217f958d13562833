//! `cargo xtask fuzz [--seconds N] [--only TARGET]`: every cargo-fuzz target (or one),
//! time-boxed, on a corpus seeded with encodings the project itself produces, one target per
//! core at a time. AddressSanitizer on nightly; without a nightly toolchain it falls back to
//! stable with `-s none` and says so.

use std::fs;
use std::path::Path;
use std::process::Command;

use svb_core::{Codec, Svb16, U32Classic, U32Variant0124, U64Coder1234, U64Coder1248};

use crate::util::{check_args, opt, output, root, run};

pub fn main(args: &[String]) -> Result<(), String> {
    check_args(args, &[], &["--seconds", "--only"])?;
    let seconds: u64 =
        opt(args, "--seconds").unwrap_or("20").parse().map_err(|e| format!("--seconds: {e}"))?;
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
            e.ok()?.file_name().into_string().ok()?.strip_suffix(".rs").map(str::to_owned)
        })
        .collect();
    targets.sort();
    if let Some(only) = opt(args, "--only") {
        targets.retain(|t| t == only);
        if targets.is_empty() {
            return Err(format!("--only {only}: no such target in fuzz/fuzz_targets"));
        }
    }
    for t in &targets {
        seed_corpus(&fuzz_dir.join("corpus").join(t), t)?;
    }

    run(Command::new("cargo")
        .current_dir(&fuzz_dir)
        .args(&toolchain)
        .args(["fuzz", "build", "-O"])
        .args(&sanitizer))?;
    // The targets run one per core at a time (each fuzzes on one thread).
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut failed = Vec::new();
    for group in targets.chunks(jobs) {
        let running: Vec<_> = group
            .iter()
            .map(|t| {
                let mut cmd = Command::new("cargo");
                cmd.current_dir(&fuzz_dir)
                    .args(&toolchain)
                    .args(["fuzz", "run", "-O"])
                    .args(&sanitizer)
                    .arg(t)
                    .arg("--")
                    .arg(format!("-max_total_time={seconds}"))
                    .arg("-rss_limit_mb=4096");
                eprintln!("$ {}", crate::util::describe(&cmd));
                (t, cmd.spawn())
            })
            .collect();
        for (t, child) in running {
            let status = child.and_then(|mut c| c.wait());
            match status {
                Ok(s) if s.success() => println!("fuzz: PASS  {t} ({seconds} s)"),
                Ok(s) => {
                    println!("fuzz: FAIL  {t}: {s} (see fuzz/artifacts/{t}/)");
                    failed.push(t.clone());
                }
                Err(e) => {
                    println!("fuzz: FAIL  {t}: cannot run cargo fuzz: {e}");
                    failed.push(t.clone());
                }
            }
        }
    }
    if failed.is_empty() {
        println!("fuzz: {} passed, 0 failed", targets.len());
        Ok(())
    } else {
        Err(format!("{} of {} targets crashed: {}", failed.len(), targets.len(), failed.join(", ")))
    }
}

/// Deterministic values of mixed byte widths.
fn mixed(n: usize, max_bytes: u32, seed: u64) -> Vec<u64> {
    let mut rng = svb_testdata::Rng(seed | 1);
    (0..n).map(|_| rng.mixed(max_bytes)).collect()
}

/// Writes seed inputs for `target` into `dir` (kept if already there).
fn seed_corpus(dir: &Path, target: &str) -> Result<(), String> {
    fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut seeds: Vec<Vec<u8>> = Vec::new();
    // FAST5 seeds are the conformance data's small files (no HDF5 writer here).
    let sizes: &[usize] = match target {
        "fast5_reader" => {
            seeds.extend(fast5_seeds());
            &[]
        }
        // The valid index of the target's own files (which the target holds: a seed is a mode
        // and edits of it): untouched, with a flipped byte in its entries, cut short; the
        // same resealed (a file count, an entry's file and read number, a path byte changed,
        // so the structure checks see them); and no index at all.
        "dataset_index" => {
            seeds.extend([
                vec![0],
                vec![0, 120, 0, 1],
                vec![0, 100, 0, 0x80, 8, 0],
                vec![1],
                vec![1, 16, 0, 1],
                vec![1, 0x40, 0, 0x7f],
                vec![1, 0xe4, 0, 2, 0xe8, 0, 1],
                vec![1, 200, 0, 0x20, 120, 0],
                vec![2],
            ]);
            &[]
        }
        // Each of the target's two files (it holds them: a seed picks one and edits its
        // tables' metadata), untouched, and with a byte of a message, of a footer, and two
        // bytes of a buffer's description changed.
        "pod5_table_metadata" => {
            seeds.extend([
                vec![0],
                vec![1],
                vec![0, 40, 0, 0x41],
                vec![1, 200, 0, 0x08],
                vec![0, 0x20, 1, 0x80, 0x21, 1, 0x01],
                vec![1, 0xff, 0xff, 0x10],
            ]);
            &[]
        }
        // Each wire's encoding (the target holds them: a seed picks one and edits it),
        // untouched, and with a byte of its header, of its middle and of its end changed.
        "signal_wire_flips" => {
            for wire in 0..4u8 {
                seeds.extend([
                    vec![wire],
                    vec![wire, 2, 0, 0x01],
                    vec![wire, 0x00, 0x10, 0x41],
                    vec![wire, 0xff, 0xff, 0x80],
                ]);
            }
            &[]
        }
        _ => &[0, 1, 5, 16, 33, 200, 1000],
    };
    for (i, &n) in sizes.iter().enumerate() {
        let seed = 0x9E37_79B9_7F4A_7C15 ^ i as u64;
        let (enc, raw): (Vec<u8>, Vec<u8>) = match target
            .trim_start_matches("decode_")
            .trim_start_matches("roundtrip_")
            .trim_start_matches("pod5_")
            .trim_start_matches("fast5_")
        {
            _ if target == "pod5_reader" || target == "arrow_batches" => {
                let compress = |s: &[i16]| svb_vbz::pod5_blob::compress_signal(s);
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
                    edit: None,
                };
                if target == "arrow_batches" {
                    // Mode byte (signal column, one read a batch), then the file: POD5 and BLOW5.
                    let mode = (i as u8 % 3) | if i % 2 == 1 { 0x80 } else { 0 };
                    let v: Vec<i16> =
                        mixed(n, 2, seed).into_iter().map(|x| x as i16 >> 4).collect();
                    seeds.push([&[mode][..], &file.write()].concat());
                    seeds.push([&[mode][..], &tiny_blow5(&v, i % 3)].concat());
                } else {
                    seeds.push(file.write());
                }
                continue;
            }
            _ if target == "roundtrip_fast5_writer" => {
                // A filter byte, then reads: an id byte, a u16 sample count and its samples
                // (a walk), six Raw attributes (each a kind byte and 8 bytes: an int, three
                // uints, a float, an enum) and the calibration offset (a float).
                let mut s = vec![i as u8 % 3];
                for r in 0..1 + i % 4 {
                    let len = (n + 97 * r) % 4000;
                    let walk = svb_testdata::Rng(seed ^ r as u64).walk(len, 40);
                    s.push(r as u8);
                    s.extend((len as u16).to_le_bytes());
                    s.extend(walk.iter().flat_map(|x| x.to_le_bytes()));
                    s.push(6);
                    for (kind, v) in [
                        (0u8, 1093u64),
                        (1, 4_534_321),
                        (1, len as u64),
                        (1, 4),
                        (2, 183.1f64.to_bits()),
                        (4, 0x0002_0005),
                    ] {
                        s.push(kind);
                        s.extend(v.to_le_bytes());
                    }
                    s.push(2);
                    s.extend(21.0f64.to_bits().to_le_bytes());
                }
                seeds.push(s);
                continue;
            }
            _ if target == "roundtrip_pod5_writer" || target == "roundtrip_blow5_writer" => {
                // The writers' inputs: a mode (POD5: and a sizes byte), then reads of a u16
                // sample count and their samples, signals like a nanopore's (a walk), of
                // every length class.
                let mut s = match target {
                    "roundtrip_pod5_writer" => vec![i as u8, (i as u8).wrapping_mul(37)],
                    _ => vec![(i as u8 % 9) | if i % 2 == 1 { 0x40 } else { 0 }],
                };
                for r in 0..1 + i % 4 {
                    let len = (n + 97 * r) % 4000;
                    let walk = svb_testdata::Rng(seed ^ r as u64).walk(len, 40);
                    s.extend((len as u16).to_le_bytes());
                    s.extend(walk.iter().flat_map(|x| x.to_le_bytes()));
                }
                seeds.push(s);
                continue;
            }
            _ if target == "blow5_open_indexed" => {
                // A tiny file with its own index, and with the index of another tiny file.
                let v: Vec<i16> = mixed(n, 2, seed).into_iter().map(|x| x as i16 >> 4).collect();
                let file = tiny_blow5(&v, i % 3);
                let other = tiny_blow5(&v[..v.len() / 2], (i + 1) % 3);
                for (idx_of, bytes) in [(&file, &file), (&other, &file)] {
                    let r = svb_blow5::Reader::from_bytes("seed", idx_of.clone())
                        .map_err(|e| e.to_string())?;
                    let idx = svb_blow5::Index::build(&r).map_err(|e| e.to_string())?.to_bytes();
                    let mut s = (idx.len() as u16).to_le_bytes().to_vec();
                    s.extend(idx);
                    s.extend(bytes.iter());
                    seeds.push(s);
                }
                continue;
            }
            _ if target == "blow5_records" => {
                let v: Vec<i16> = mixed(n, 2, seed).into_iter().map(|x| x as i16 >> 4).collect();
                seeds.push(tiny_blow5(&v, i % 3));
                seeds.push(tiny_slow5(&v));
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
                (U64Coder1248.encode(&v), v.iter().flat_map(|x| x.to_le_bytes()).collect())
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
                (Svb16.encode(&v), v.iter().flat_map(|x| x.to_le_bytes()).collect())
            }
            "vbz_fused" | "decompress_signal" => {
                let v: Vec<i16> = mixed(n, 2, seed).into_iter().map(|x| (x as i16) >> 3).collect();
                let enc = if target.contains("pod5") {
                    svb_vbz::pod5_blob::compress_signal(&v)
                } else {
                    svb_vbz::encode_vbz(&v)
                };
                let prefix: Vec<u8> = if target.contains("pod5") { vec![] } else { vec![0, 0] };
                (prefix.into_iter().chain(enc).collect(), Vec::new())
            }
            "vbz2" | "vbzk" => {
                let v: Vec<i16> = mixed(n, 2, seed).into_iter().map(|x| (x as i16) >> 2).collect();
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
                let opts = svb_vbz::hdf5_filter::Options::SIGNAL;
                let mut s = vec![2 + 4 + 8];
                s.extend(
                    svb_vbz::hdf5_filter::compress_sized(&v, &opts).map_err(|e| e.to_string())?,
                );
                seeds.push(s);
                continue;
            }
            "svbzd" => {
                let v: Vec<i16> = mixed(n, 2, seed).into_iter().map(|x| x as i16).collect();
                (svb_slow5_signal::encode_svbzd(&v), Vec::new())
            }
            "u32_delta" => {
                // Count, prev, then the stream of a sorted list from prev.
                let prev = seed as u32 >> 4;
                let mut at = prev;
                let v: Vec<u32> = mixed(n, 2, seed)
                    .into_iter()
                    .map(|g| {
                        at = at.wrapping_add(g as u32);
                        at
                    })
                    .collect();
                let mut s = (n as u16).to_le_bytes().to_vec();
                s.extend(prev.to_le_bytes());
                s.extend(svb_core::U32Delta.encode(prev, &v));
                seeds.push(s);
                continue;
            }
            "i32_zigzag" => {
                let v: Vec<i32> =
                    mixed(n, 4, seed).into_iter().map(|x| (x as i32) >> (i % 9)).collect();
                (svb_core::I32Zigzag.encode(&v), Vec::new())
            }
            "postings_reader" => {
                // Advance targets (16 bytes), then a list: gaps of 1-3 bytes, frequencies 1-4.
                let gaps = mixed(n, 2 + i as u32 % 2, seed);
                let mut d = 0u32;
                let docs: Vec<u32> = gaps
                    .iter()
                    .map(|&g| {
                        d = d.saturating_add(1 + g as u32);
                        d
                    })
                    .collect();
                let freqs: Vec<u32> = gaps.iter().map(|&g| 1 + (g % 4) as u32).collect();
                let mut s: Vec<u8> = (0..16u8).map(|k| k.wrapping_mul(37) ^ i as u8).collect();
                s.extend(svb_postings::encode(&docs, &freqs).map_err(|e| e.to_string())?);
                seeds.push(s);
                continue;
            }
            "exzd" => {
                let v: Vec<i16> = mixed(n, 2, seed)
                    .into_iter()
                    .map(|x| ((x as i16) >> (i % 3)) << (i % 4))
                    .collect();
                seeds.push(svb_slow5_signal::encode_exzd(&v));
                continue;
            }
            _ => return Ok(()),
        };
        seeds.push(if target.starts_with("decode_") || target.starts_with("pod5_") {
            let mut s = (n as u16).to_le_bytes().to_vec();
            s.extend_from_slice(&enc);
            s
        } else {
            raw
        });
    }
    seeds.extend(hostile_seeds(target));
    for (i, s) in seeds.iter().enumerate() {
        let path = dir.join(format!("seed-{i}"));
        if !path.exists() {
            fs::write(&path, s).map_err(|e| format!("{}: {e}", path.display()))?;
        }
    }
    Ok(())
}

/// The FAST5 files of the conformance data under 128 KiB (single-read, multi-read, gzip,
/// VBZ, odd attributes): the fuzzer mutates real HDF5 structure.
fn fast5_seeds() -> Vec<Vec<u8>> {
    let Some(dir) = svb_testdata::data_dir().map(|d| d.join("fast5")) else {
        return Vec::new();
    };
    let mut files: Vec<_> = fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "fast5"))
        .filter(|p| fs::metadata(p).is_ok_and(|m| m.len() < 128 << 10))
        .collect();
    files.sort();
    files.iter().filter_map(|p| fs::read(p).ok()).collect()
}

/// Inputs valid everywhere except one declared size (the shapes of the hostile-file issue):
/// a zstd header that lies about its content, a POD5 `samples` column that disagrees with
/// its row, a read listing one row many times.
fn hostile_seeds(target: &str) -> Vec<Vec<u8>> {
    use svb_testdata::pod5::{TestFile, TestRead};
    use svb_testdata::zstd_raw_frame;
    let signal = |n: usize| -> Vec<i16> { (0..n).map(|i| ((i * 37) % 400) as i16 - 200).collect() };
    match target {
        "pod5_decompress_signal" => {
            // 8000 samples claimed, a frame declaring a plausible stream but holding 100 bytes.
            let mut s = 8000u16.to_le_bytes().to_vec();
            s.extend(zstd_raw_frame(&[0u8; 100], 9000 + 1000));
            vec![s]
        }
        "fast5_decompress" => {
            // Signal options; 200000 bytes claimed by the size header, the frame declares the
            // smallest stream of 100000 values and holds 100 bytes.
            let mut s = vec![2 + 4 + 8];
            s.extend(200_000u32.to_le_bytes());
            s.extend(zstd_raw_frame(&[0u8; 100], 125_000));
            vec![s]
        }
        "pod5_reader" => {
            let compress = |s: &[i16]| svb_vbz::pod5_blob::compress_signal(s);
            let file = |reads: Vec<TestRead>, vbz: bool| {
                TestFile {
                    reads,
                    chunk_samples: 300,
                    signal_batch_rows: 2,
                    compress: if vbz { Some(&compress) } else { None },
                    edit: None,
                }
                .write()
            };
            // An uncompressed row whose samples column claims 0xF0000000.
            let mut lying_samples = TestRead::new(1, signal(300));
            lying_samples.chunk_samples_override = Some(vec![0xF000_0000]);
            lying_samples.num_samples_override = Some(0xF000_0000);
            // A read listing its one chunk 50 times.
            let mut repeated = TestRead::new(2, signal(300));
            repeated.signal_rows_override = Some(vec![0; 50]);
            repeated.num_samples_override = Some(50 * 300);
            // A chunk whose frame and samples claim 20000 samples it does not hold.
            let lying_frame = |_: &[i16]| zstd_raw_frame(&[0u8; 200], 22_500);
            let mut big = TestRead::new(3, signal(10));
            big.chunk_samples_override = Some(vec![20_000]);
            big.num_samples_override = Some(20_000);
            let lying = TestFile {
                reads: vec![big, TestRead::new(4, signal(50))],
                chunk_samples: 300,
                signal_batch_rows: 2,
                compress: Some(&lying_frame),
                edit: None,
            }
            .write();
            // A killed writer's three files (the target's second input), made of a whole
            // file's tables: the container head and signal table, the reads table, the run
            // info table (each followed by its Arrow footer, where the salvage stops).
            let whole = file(vec![TestRead::new(5, signal(700))], true);
            let mut killed = Vec::new();
            if let Ok(r) = svb_pod5::Reader::from_bytes("seed.pod5", whole.clone()) {
                let table = |want: svb_pod5::ContentType| {
                    r.footer()
                        .contents
                        .iter()
                        .find(|f| f.content_type == want)
                        .map(|f| &whole[f.offset as usize..(f.offset + f.length) as usize])
                };
                if let (Some(sig), Some(reads), Some(runs)) = (
                    table(svb_pod5::ContentType::SignalTable),
                    table(svb_pod5::ContentType::ReadsTable),
                    table(svb_pod5::ContentType::RunInfoTable),
                ) {
                    let head = &whole[..24];
                    killed.extend(((head.len() + sig.len()) as u32).to_le_bytes());
                    killed.extend((reads.len() as u32).to_le_bytes());
                    killed.extend([head, sig, reads, runs].concat());
                }
            }
            vec![file(vec![lying_samples], false), file(vec![repeated], true), lying, killed]
        }
        _ => Vec::new(),
    }
}

/// A one-record BLOW5 file (v0.2.0, records stored as they are) of `signal`, its signal
/// stored raw (0), as SVB-ZD (1) or as ex-zd (2).
/// One record of `signal` as SLOW5 text, with an auxiliary field of each kind, written here
/// (not by the writer under test).
fn tiny_slow5(signal: &[i16]) -> Vec<u8> {
    let samples: Vec<String> = signal.iter().map(i16::to_string).collect();
    format!(
        "#slow5_version\t0.2.0\n#num_read_groups\t1\n@run_id\tfuzz\n\
         #char*\tuint32_t\tdouble\tdouble\tdouble\tdouble\tuint64_t\tint16_t*\tchar*\tdouble\tuint8_t\tint32_t*\tenum{{a,b}}\n\
         #read_id\tread_group\tdigitisation\toffset\trange\tsampling_rate\tlen_raw_signal\traw_signal\tchannel_number\tmedian_before\tstart_mux\tarr\tend_reason\n\
         read\t0\t8192\t6\t1467.6\t4000\t{}\t{}\t42\t.\t3\t1,-2,.\t1\n",
        signal.len(),
        samples.join(",")
    )
    .into_bytes()
}

fn tiny_blow5(signal: &[i16], signal_press: usize) -> Vec<u8> {
    let blob: Vec<u8> = match signal_press {
        0 => signal.iter().flat_map(|s| s.to_le_bytes()).collect(),
        1 => svb_slow5_signal::svbzd::encode_blob(signal),
        _ => svb_slow5_signal::encode_exzd(signal),
    };
    let len = if signal_press == 0 { signal.len() } else { blob.len() };
    svb_testdata::blow5::write(
        signal_press as u8,
        &[svb_testdata::blow5::TestRecord {
            read_id: "read",
            len_raw_signal: len as u64,
            signal: &blob,
        }],
    )
}
