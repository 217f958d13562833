//! Test support shared by the crates' conformance tests: the conformance data folder made
//! by the reference implementations, read in place (never copied into the repository).

pub mod alloc;
pub mod azure_server;
pub mod blow5;
pub mod gcs_server;
pub mod http_server;
pub mod link;
#[cfg(feature = "pod5")]
pub mod pod5;
pub mod s3_server;
pub mod server_process;
pub mod throttle_proxy;

use std::path::PathBuf;

/// The conformance data folder: `SVB_TEST_DATA`, else `shared/data` beside the checkout.
/// `None` (after printing one "skipped" line) where it is missing, except with `CI=true`,
/// where a missing folder fails the test instead.
pub fn data_dir() -> Option<PathBuf> {
    let dir = shared_data();
    if dir.is_dir() {
        return Some(dir);
    }
    missing(&format!("conformance data not found at {} (set SVB_TEST_DATA)", dir.display()));
    None
}

/// Where the shared data is: `$SVB_TEST_DATA`, else `../shared/data` beside the repository.
fn shared_data() -> PathBuf {
    std::env::var_os("SVB_TEST_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"))
}

/// What a test lacks, said: a panic under `CI=true` (where nothing may be skipped), else one
/// "skipped" line.
fn missing(what: &str) {
    assert!(!std::env::var("CI").is_ok_and(|v| v == "true"), "CI=true: {what}");
    println!("skipped: {what}");
}

/// Little-endian u16 values.
pub fn read_u16s(bytes: &[u8]) -> Vec<u16> {
    bytes.chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]])).collect()
}

/// Little-endian i16 values.
pub fn read_i16s(bytes: &[u8]) -> Vec<i16> {
    bytes.chunks_exact(2).map(|c| i16::from_le_bytes([c[0], c[1]])).collect()
}

/// Little-endian u32 values.
pub fn read_u32s(bytes: &[u8]) -> Vec<u32> {
    bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

/// The files of `dir` whose names end with `suffix`, sorted, as (stem, path).
pub fn files_with_suffix(dir: &std::path::Path, suffix: &str) -> Vec<(String, PathBuf)> {
    let mut v: Vec<(String, PathBuf)> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| {
            let e = e.ok()?;
            let name = e.file_name().into_string().ok()?;
            Some((name.strip_suffix(suffix)?.to_owned(), e.path()))
        })
        .collect();
    v.sort();
    v
}

/// Rewrites the content size in the header of the zstd frame at the start of `frame` (its
/// field must be 4 or 8 bytes wide: frames of more than 64 KiB have one), as a hostile file
/// would, leaving the blocks as they are.
///
/// # Panics
/// If `frame` is not a zstd frame with a 4- or 8-byte content-size field, or `size` does not
/// fit it.
pub fn zstd_set_content_size(frame: &mut [u8], size: u64) {
    assert_eq!(frame[..4], 0xFD2F_B528u32.to_le_bytes(), "not a zstd frame");
    let fhd = frame[4];
    let single_segment = (fhd >> 5) & 1 == 1;
    let dict_id = [0, 1, 2, 4][(fhd & 3) as usize];
    let at = 5 + usize::from(!single_segment) + dict_id;
    match fhd >> 6 {
        2 => frame[at..at + 4]
            .copy_from_slice(&u32::try_from(size).expect("fits 4 bytes").to_le_bytes()),
        3 => frame[at..at + 8].copy_from_slice(&size.to_le_bytes()),
        f => panic!("content-size field flag {f}: not 4 or 8 bytes"),
    }
}

/// A zstd frame of one raw block holding `content` (at most 128 KiB) whose header declares
/// `declared` bytes (8-byte field, single segment): a well-formed frame except for that size
/// when it differs from `content.len()`.
pub fn zstd_raw_frame(content: &[u8], declared: u64) -> Vec<u8> {
    assert!(content.len() < 1 << 17, "one raw block holds at most 128 KiB");
    let mut f = 0xFD2F_B528u32.to_le_bytes().to_vec();
    f.push(0b1110_0000);
    f.extend(declared.to_le_bytes());
    let header = 1 | ((content.len() as u32) << 3); // last block, raw
    f.extend(&header.to_le_bytes()[..3]);
    f.extend(content);
    f
}

/// A zstd frame of `len` incompressible (pseudo-random) bytes whose header declares
/// `declared` bytes: what a hostile file's blob looks like to a decoder that trusts the
/// header.
pub fn zstd_lying_frame(len: usize, declared: u64) -> Vec<u8> {
    zstd_raw_frame(&Rng(0x9E37_79B9_7F4A_7C15).bytes(len), declared)
}

/// Bytes from a hex string (two digits a byte), as fuzzers print their inputs.
///
/// # Panics
/// On an odd length or a character that is not a hex digit.
pub fn from_hex(hex: &str) -> Vec<u8> {
    assert!(hex.len().is_multiple_of(2), "odd hex length {}", hex.len());
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex digits"))
        .collect()
}

/// slow5lib's SVB-ZD pre-pass over a signal (and that of ONT's portable fast5 VBZ path):
/// zigzag of each sample's 32-bit difference from the one before (the first from `prev`: 0
/// for a whole signal), written the obvious way, as the tests' reference.
pub fn zigzag_deltas(prev: i16, samples: &[i16]) -> Vec<u32> {
    let mut prev = i32::from(prev);
    samples
        .iter()
        .map(|&s| {
            let d = i32::from(s) - prev;
            prev = i32::from(s);
            ((d << 1) ^ (d >> 31)) as u32
        })
        .collect()
}

/// Fails the test unless `isas` (the ISAs whose kernels a test ran) has the scalar one and
/// every SIMD one this machine has: NEON on aarch64 (under qemu too), AVX2 where the CPU
/// has it. A test that silently ran scalar code only would prove nothing of the SIMD paths.
pub fn assert_simd_ran(isas: impl IntoIterator<Item = svb_dispatch::Isa>) {
    use svb_dispatch::Isa;
    let isas: Vec<Isa> = isas.into_iter().collect();
    assert!(isas.contains(&Isa::Scalar), "scalar kernels not exercised");
    #[cfg(target_arch = "aarch64")]
    assert!(isas.contains(&Isa::Neon), "NEON kernels not exercised");
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        assert!(isas.contains(&Isa::Avx2), "AVX2 kernels not exercised");
    }
}

/// The tests' pseudo-random numbers: xorshift64, reproducible from its seed (which must not
/// be 0). One generator for every crate's tests, so that a failing seed means the same
/// input everywhere.
#[derive(Clone, Debug)]
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A value with a uniformly drawn number of significant bytes in `1..=max_bytes` (at
    /// most 8): every code of a variable-byte codec, evenly.
    pub fn mixed(&mut self, max_bytes: u32) -> u64 {
        let bytes = 1 + (self.next() % max_bytes as u64) as u32;
        let v = self.next();
        if bytes >= 8 {
            v
        } else {
            v & ((1u64 << (8 * bytes)) - 1)
        }
    }

    /// `len` random bytes (incompressible: zstd cannot shrink them).
    pub fn bytes(&mut self, len: usize) -> Vec<u8> {
        (0..len).map(|_| self.next() as u8).collect()
    }
}

impl Rng {
    /// `n` samples of a nanopore-like signal: a random walk from 400 with steps in
    /// `-spread..=spread` (wrapping), and every 97th sample a jump anywhere in the i16 range.
    pub fn walk(&mut self, n: usize, spread: u64) -> Vec<i16> {
        let mut v = 400i16;
        (0..n)
            .map(|i| {
                let x = self.next();
                v = if i % 97 == 96 {
                    (x >> 16) as i16
                } else {
                    v.wrapping_add(((x % (2 * spread + 1)) as i64 - spread as i64) as i16)
                };
                v
            })
            .collect()
    }
}

/// Checks that `f` maps each byte of a word to `table`'s entry for it (a SIMD-within-a-register
/// form of a lookup table), on 1000 random words and the extremes.
pub fn assert_bytewise(f: impl Fn(u64) -> u64, table: &[u8; 256]) {
    let mut rng = Rng(0x0123_4567_89AB_CDEF);
    let words = (0..1000).map(|_| rng.next());
    for x in words.chain([0, u64::MAX, 0x0123_4567_89AB_CDEF]) {
        let y = f(x);
        for k in 0..8 {
            let byte = (x >> (8 * k)) as u8;
            assert_eq!((y >> (8 * k)) as u8, table[byte as usize], "byte {byte:#04x} of {x:#x}");
        }
    }
}

/// The conformance data folder and a fresh temporary directory for a test that needs both;
/// `None` (the test returns, after the one "skipped" line) where there is no data.
pub fn data_and_tmp(tag: &str) -> Option<(PathBuf, TempDir)> {
    Some((data_dir()?, TempDir::new(tag)))
}

/// A test that needs the shared conformance data, written `fn name(data: &Path)` or
/// `fn name(data: &Path, tmp: &TempDir)`: ignored unless run with `--include-ignored` (its
/// reason says what it needs), given the data folder and, with a second parameter, a fresh
/// temporary directory named after the test; where there is no data it returns after one
/// "skipped" line, or fails under `CI=true`.
///
/// ```ignore
/// #[svb_testdata::data_test]
/// fn reads_a_pod5(data: &Path, tmp: &TempDir) {
///     let out = tmp.join("out.blow5");
///     // ... data.join("pod5/multi_fast5_zip.pod5") ...
/// }
/// ```
pub use svb_testdata_macros::data_test;

/// The files the README's Rust examples name, made in `dir` from the conformance folder `data`
/// (copies): `reads.pod5`, `reads.blow5` and `reads.fast5`, `a.pod5` and `b.pod5`, `run/a.pod5` and
/// `run/b.pod5`, `runs/a.pod5`, `pod5_dir/a.pod5`, and `ids.txt` (one read id of
/// `reads.pod5`).
pub fn readme_files(data: &std::path::Path, dir: &std::path::Path) {
    let pod5 = data.join("pod5/multi_fast5_zip.pod5");
    let pod5_v4 = data.join("pod5/multi_fast5_zip_v4.pod5");
    let blow5 = data.join("blow5/reads_zstd_svb_zd.blow5");
    let fast5 = data.join("fast5/vbz_compression__multi_fast5_vbz.fast5");
    for (from, to) in [
        (&pod5, "reads.pod5"),
        (&blow5, "reads.blow5"),
        (&fast5, "reads.fast5"),
        (&pod5, "a.pod5"),
        (&pod5_v4, "b.pod5"),
        (&pod5, "run/a.pod5"),
        (&pod5_v4, "run/b.pod5"),
        (&pod5, "runs/a.pod5"),
        (&pod5, "pod5_dir/a.pod5"),
    ] {
        let to = dir.join(to);
        std::fs::create_dir_all(to.parent().expect("a folder")).expect("make a folder");
        std::fs::copy(from, &to).expect("copy a conformance file");
    }
    std::fs::write(dir.join("ids.txt"), "0000173c-bf67-44e7-9a9c-1ad0bc728e74\n")
        .expect("write ids.txt");
}

/// A fresh directory under the system temp dir (`svb-TAG-PID`), removed on drop.
#[derive(Debug)]
pub struct TempDir(pub PathBuf);

impl TempDir {
    /// Creates it (emptied when a previous run left it).
    pub fn new(tag: &str) -> TempDir {
        let d = std::env::temp_dir().join(format!("svb-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).expect("create a temporary directory");
        TempDir(d)
    }

    /// `dir/name`.
    pub fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    /// The names of the entries in the directory, sorted (hidden ones included).
    pub fn entries(&self) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(&self.0)
            .expect("list the temporary directory")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The test data of slow5lib and slow5tools (their `test/` folders as in their
/// repositories): `$SVB_SLOW5_REPOS`, else the shared data's `slow5-repos`. Without it: `None`
/// after printing one "skipped" line, or a panic under `CI=true`.
pub fn slow5_repos() -> Option<PathBuf> {
    let repos = std::env::var_os("SVB_SLOW5_REPOS")
        .map(PathBuf::from)
        .or_else(|| {
            let shared =
                std::env::var_os("SVB_TEST_DATA").map(PathBuf::from).unwrap_or_else(|| {
                    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data")
                });
            Some(shared.join("slow5-repos"))
        })
        .filter(|r| r.join("slow5tools/test/data").is_dir());
    if repos.is_none() {
        let ci = std::env::var("CI").is_ok_and(|v| v == "true");
        assert!(!ci, "CI=true needs slow5lib's and slow5tools' test data (SVB_SLOW5_REPOS)");
        println!("skipped: no SVB_SLOW5_REPOS");
    }
    repos
}

/// The Python interpreter (`$PYTHON`, else `python3`) when it can import `module` (a
/// reference tool from pip: `pod5`, `pyslow5`, ...). Without it: `None` after printing one
/// "skipped" line, or a panic under `CI=true`, where every reference tool must be present.
pub fn python_with(module: &str, pip: &str) -> Option<String> {
    let python = std::env::var("PYTHON").unwrap_or_else(|_| "python3".into());
    let has = std::process::Command::new(&python)
        .args(["-c", &format!("import {module}")])
        .output()
        .is_ok_and(|o| o.status.success());
    if has {
        return Some(python);
    }
    let ci = std::env::var("CI").is_ok_and(|v| v == "true");
    assert!(!ci, "CI=true needs {python} with {module} (pip install {pip})");
    println!("skipped: {python} with {module} not found (pip install {pip})");
    None
}

pub use svb_io::error_chain;

/// Runs the Python `script` with `args` under `python` (from [`python_with`]) and returns
/// its output lines; panics with its stderr when it fails.
pub fn python_lines<A: AsRef<std::ffi::OsStr>>(
    python: &str, script: &std::path::Path, args: impl IntoIterator<Item = A>,
) -> Vec<String> {
    let out = std::process::Command::new(python)
        .arg(script)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{python} {}: {e}", script.display()));
    assert!(
        out.status.success(),
        "{} failed: {}",
        script.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .expect("the script prints UTF-8")
        .lines()
        .map(str::to_owned)
        .collect()
}
