//! Fuzz target `gdal`: see `rumi_fuzz::gdal` (fuzz/src/gdal.rs) for what it exercises.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| rumi_fuzz::gdal(data));
