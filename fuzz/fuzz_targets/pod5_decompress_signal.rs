#![no_main]
//! Arbitrary bytes as a POD5 signal blob of an arbitrary sample count: values or a typed
//! error, never a panic; a successful decode re-compresses to a blob that decodes the same,
//! and passes the copy check (`check_signal`, which never panics either).

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (n, blob) = svb_fuzz::count_and_bytes(data);
    let checked = svb_vbz::pod5_blob::check_signal(blob, n);
    if let Ok(samples) = svb_vbz::pod5_blob::decompress_signal_to_vec(blob, n) {
        // A blob that decodes is one whole frame of a size n samples can have (and frames
        // adding nothing); one followed by a frame that does not say its size is refused.
        let unsaid = matches!(
            checked,
            Err(svb_vbz::VbzError::Zstd(svb_io::zstd_frame::FrameError::ExtraFrame {
                content: None,
                ..
            }))
        );
        assert!(checked.is_ok() || unsaid, "{checked:?}");
        let again = svb_vbz::pod5_blob::compress_signal(&samples);
        assert_eq!(
            svb_vbz::pod5_blob::decompress_signal_to_vec(&again, n).expect("own blob"),
            samples
        );
    }
});
