//! Record compression for the writer: zlib streams through zlib itself (flate2 on libz, so
//! that a record is the bytes slow5lib writes for it: `svb convert --records zlib` and `svb
//! degrade` give slow5tools' files byte for byte), the zstd frames through `svb-io`; each
//! thread with its reused compressor.

use std::cell::RefCell;

use flate2::{Compress, Compression, FlushCompress, Status};

thread_local! {
    static ZLIB: RefCell<Option<Compress>> = const { RefCell::new(None) };
}

/// Appends one zlib stream of `src` to `out`, as slow5lib makes it: `deflateInit2` with the
/// default level (6), a 32 KiB window, memory level 8 and the default strategy, the record
/// deflated whole.
pub(super) fn zlib_compress_into(src: &[u8], out: &mut Vec<u8>) {
    ZLIB.with_borrow_mut(|z| {
        let z = z.get_or_insert_with(|| Compress::new(Compression::default(), true));
        z.reset();
        // zlib's deflateBound for these settings, with room to spare: one call finishes.
        out.reserve(src.len() + src.len() / 1000 + 64);
        loop {
            let before = z.total_in() as usize;
            let status = z
                .compress_vec(&src[before..], out, FlushCompress::Finish)
                .expect("deflate of a whole buffer into a growing vector");
            match status {
                Status::StreamEnd => return,
                Status::Ok | Status::BufError => out.reserve(out.capacity().max(64)),
            }
        }
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
            let n = libdeflater::Decompressor::new().zlib_decompress(&out[1..], &mut back).unwrap();
            assert_eq!((n, &back[..]), (len, &src[..]));
        }
    }
}
