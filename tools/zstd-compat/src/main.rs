//! ONT's fast5 VBZ chunks (../shared/data/fast5_vbz) hold zstd frames written by libzstd
//! 1.3.x. svb-vbz's tests show the content of each frame is exactly the StreamVByte stream
//! svb-vbz writes; this program shows libzstd 1.3.8 at level 1 turns that content into the
//! very frame ONT stored, so the only byte difference of a re-encode is the libzstd version.
//! Run: `cargo run --release --manifest-path tools/zstd-compat/Cargo.toml`.

use std::os::raw::c_void;
use std::path::PathBuf;
use std::process::ExitCode;

fn data_dir() -> PathBuf {
    std::env::var_os("SVB_TEST_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"))
}

/// Decompresses one frame and compresses its content again at `level`.
fn recompress(frame: &[u8], level: i32) -> Result<Vec<u8>, String> {
    // SAFETY: every pointer/length pair below describes a live buffer of that length.
    unsafe {
        let size = zstd_sys::ZSTD_getFrameContentSize(frame.as_ptr().cast(), frame.len());
        if size >= zstd_sys::ZSTD_CONTENTSIZE_ERROR as u64 - 1 || size > 1 << 30 {
            return Err("no usable content size".into());
        }
        let mut content = vec![0u8; size as usize];
        let n = zstd_sys::ZSTD_decompress(
            content.as_mut_ptr() as *mut c_void,
            content.len(),
            frame.as_ptr().cast(),
            frame.len(),
        );
        if zstd_sys::ZSTD_isError(n) != 0 || n != content.len() {
            return Err("decompression failed".into());
        }
        let mut out = vec![0u8; zstd_sys::ZSTD_compressBound(content.len())];
        let m = zstd_sys::ZSTD_compress(
            out.as_mut_ptr() as *mut c_void,
            out.len(),
            content.as_ptr().cast(),
            content.len(),
            level,
        );
        if zstd_sys::ZSTD_isError(m) != 0 {
            return Err("compression failed".into());
        }
        out.truncate(m);
        Ok(out)
    }
}

fn main() -> ExitCode {
    let dir = data_dir().join("fast5_vbz");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        if std::env::var_os("CI").is_some_and(|v| v == "true") {
            eprintln!("zstd-compat: no conformance data at {}", dir.display());
            return ExitCode::FAILURE;
        }
        println!("skipped: no conformance data");
        return ExitCode::SUCCESS;
    };
    // SAFETY: a plain query of the linked library.
    let version = unsafe { zstd_sys::ZSTD_versionNumber() };
    let mut paths: Vec<PathBuf> = entries
        .map(|e| e.expect("readable folder").path())
        .filter(|p| p.extension().is_some_and(|x| x == "vbz"))
        .collect();
    paths.sort();
    let mut failed = 0;
    for p in &paths {
        let chunk = std::fs::read(p).expect("readable chunk");
        let verdict = match chunk.get(4..).map(|frame| (frame, recompress(frame, 1))) {
            Some((frame, Ok(again))) if again == frame => "identical".to_string(),
            Some((frame, Ok(again))) => {
                format!("DIFFERS ({} vs {} bytes)", again.len(), frame.len())
            }
            Some((_, Err(e))) => format!("FAILED: {e}"),
            None => "FAILED: shorter than the sized header".into(),
        };
        if verdict != "identical" {
            failed += 1;
        }
        println!("{}: {verdict}", p.file_name().unwrap().to_string_lossy());
    }
    println!(
        "zstd-compat: libzstd {version} level 1 reproduces {}/{} ONT fast5 frames",
        paths.len() - failed,
        paths.len()
    );
    if failed > 0 || paths.is_empty() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
