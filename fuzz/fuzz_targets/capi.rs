//! Fuzz target `capi`: see `rumi_fuzz::capi` (fuzz/src/lib.rs) for what it exercises.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| rumi_fuzz::capi(data));
