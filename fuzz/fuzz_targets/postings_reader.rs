#![no_main]
//! Arbitrary bytes as a posting list read by next/freq, next_block and advance: errors or
//! consistent, increasing docs, never a panic.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| svb_fuzz::check_postings(data));
