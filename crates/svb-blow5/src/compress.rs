//! Record compression for the writer: zlib streams through libdeflate (the zstd frames go
//! through `svb-io`), each thread with its reused compressor.

use std::cell::RefCell;

thread_local! {
    static ZLIB: RefCell<Option<libdeflater::Compressor>> = const { RefCell::new(None) };
}

/// Appends one zlib stream of `src` (libdeflate's default level, 6, zlib's too) to `out`.
/// slow5lib's zlib (or zlib-ng) emits other bytes for the same record; both inflate alike.
pub(super) fn zlib_compress_into(src: &[u8], out: &mut Vec<u8>) {
    ZLIB.with_borrow_mut(|z| {
        let z = z.get_or_insert_with(|| {
            libdeflater::Compressor::new(libdeflater::CompressionLvl::default())
        });
        let start = out.len();
        out.resize(start + z.zlib_compress_bound(src.len()), 0);
        let n = z
            .zlib_compress(src, &mut out[start..])
            .expect("zlib_compress_bound bytes always hold the stream");
        out.truncate(start + n);
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn zlib_streams_inflate_back() {
        for len in [0usize, 1, 100, 70_000] {
            let src: Vec<u8> = (0..len).map(|i| (i * 7 % 251) as u8).collect();
            let mut out = vec![9u8];
            super::zlib_compress_into(&src, &mut out);
            let mut back = vec![0u8; len];
            let n = libdeflater::Decompressor::new()
                .zlib_decompress(&out[1..], &mut back)
                .unwrap();
            assert_eq!((n, &back[..]), (len, &src[..]));
        }
    }
}
