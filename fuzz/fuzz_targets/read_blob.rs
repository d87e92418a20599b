//! Fuzz target `read_blob`: see `rumi_fuzz::read_blob` (fuzz/src/lib.rs) for what it exercises.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| rumi_fuzz::read_blob(data));
