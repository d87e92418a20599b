//! Fuzz target `ifd`: see `rumi_fuzz::ifd` (fuzz/src/lib.rs) for what it exercises.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| rumi_fuzz::ifd(data));
