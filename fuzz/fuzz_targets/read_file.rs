//! Fuzz target `read_file`: see `rumi_fuzz::read_file` (fuzz/src/lib.rs) for what it exercises.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| rumi_fuzz::read_file(data));
