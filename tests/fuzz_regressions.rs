//! Replays every input the fuzzers ever crashed on (image-tiff's `tests/fuzz_tests.rs` habit).
//!
//! Inputs live in `tests/fuzz_regressions/<failure class>/<target>-<name>`: the file name's
//! prefix names the fuzz target whose harness (`fuzz/src/lib.rs`, shared with `cargo fuzz`)
//! replays it. A new crash found by `scripts/fuzz.sh` is fixed in the right layer, and its input
//! is copied here under the class of the failure, so that `cargo test` keeps it fixed.

#[path = "../crates/rumi/tests/common/mod.rs"]
mod common;
#[path = "../fuzz/src/lib.rs"]
mod harness;

use std::path::{Path, PathBuf};

fn inputs() -> Vec<(String, PathBuf)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz_regressions");
    let mut out = Vec::new();
    for class in std::fs::read_dir(&root).expect("tests/fuzz_regressions exists") {
        let class = class.expect("readable folder").path();
        if !class.is_dir() {
            continue;
        }
        for file in std::fs::read_dir(&class).expect("readable class folder") {
            let path = file.expect("readable entry").path();
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_owned();
            out.push((name, path));
        }
    }
    out.sort();
    out
}

#[test]
fn every_kept_input_names_a_target() {
    let inputs = inputs();
    assert!(!inputs.is_empty(), "no kept inputs under tests/fuzz_regressions");
    for (name, path) in inputs {
        let known = harness::TARGETS.iter().any(|t| name.starts_with(&format!("{t}-")));
        assert!(known, "{}: the name must start with a fuzz target and '-' ({:?})", path.display(), harness::TARGETS);
    }
}

#[test]
fn kept_inputs_run_without_panicking() {
    let mut failed = Vec::new();
    for (name, path) in inputs() {
        let data = std::fs::read(&path).expect("readable input");
        let target = harness::TARGETS.iter().find(|t| name.starts_with(&format!("{t}-"))).copied().unwrap_or("");
        let outcome = std::panic::catch_unwind(|| harness::run(target, &data));
        if !matches!(outcome, Ok(true)) {
            failed.push(path.display().to_string());
        }
    }
    assert!(failed.is_empty(), "inputs that still fail: {failed:#?}");
}

#[test]
fn valid_files_pass_every_target() {
    // The harness's oracles hold on valid files (as the seeds of examples/fuzz_seeds.rs).
    use rumi::format::SampleEncoding;
    for (enc, unit, (b, t)) in [(SampleEncoding::U16, 4, (3, 2)), (SampleEncoding::Bool, 0, (1, 1))] {
        let (x, y) = (19, 11);
        let n = x as usize * y as usize * usize::from(b) * t as usize;
        let (file, blob) =
            common::write(common::spec(enc, x, y, b, t, (8, 8), unit, common::utm()), &common::samples(enc, n, 1));
        let reader = rumi::Reader::open(file.as_slice(), rumi::Limits::default()).unwrap();
        let trailer = [&b.to_le_bytes()[..], &t.to_le_bytes(), &file[reader.trailer_offset() as usize..]].concat();
        let split = [&(blob.len() as u16).to_le_bytes()[..], &blob, &file].concat();
        let inputs: [(&str, Vec<u8>); 11] = [
            ("ifd", file.clone()),
            ("trailer", trailer),
            ("blob", blob.clone()),
            ("read_file", file.clone()),
            ("read_blob", split.clone()),
            ("capi", [&[0u8][..], &file].concat()),
            ("capi", [&[1u8][..], &split].concat()),
            ("gdal", [&[0u8][..], &file].concat()),
            ("gdal", [&[0b0000_0111u8][..], &split].concat()),
            ("gdal", [&[0b0010_1001u8][..], &split].concat()),
            ("gdal", [&[0b0001_0011u8][..], &split].concat()),
        ];
        for (target, data) in inputs {
            assert!(harness::run(target, &data), "{target}");
            if target == "gdal" {
                assert!(harness::gdal_opens(&data), "GDAL opens a valid file (mode {})", data[0]);
            }
        }
    }
}
