//! Fuzz target `trailer`: see `rumi_fuzz::trailer` (fuzz/src/lib.rs) for what it exercises.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| rumi_fuzz::trailer(data));
