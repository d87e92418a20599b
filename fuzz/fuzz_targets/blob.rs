//! Fuzz target `blob`: see `rumi_fuzz::blob` (fuzz/src/lib.rs) for what it exercises.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| rumi_fuzz::blob(data));
