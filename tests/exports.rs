//! The plugin's dynamic symbol table: `gdal_RUMI.so` exports `GDALRegister_RUMI` and exactly the
//! functions of the public header `include/rumi.h`; the GDAL adapter's private protocol
//! (`rumi_gdal_*`, `src/driver/protocol/rumi_gdal.h`) and the C++ stay inside it.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The cdylib cargo built beside this test (`target/<profile>/deps/libgdal_rumi.so`).
fn plugin() -> PathBuf {
    let exe = std::env::current_exe().expect("the test knows its path");
    let deps = exe.parent().expect("the test is in target/<profile>/deps");
    [deps.join("libgdal_rumi.so"), deps.join("../libgdal_rumi.so")]
        .into_iter()
        .find(|p| p.is_file())
        .unwrap_or_else(|| panic!("no libgdal_rumi.so beside {}", exe.display()))
}

/// The function names `include/rumi.h` declares (`rumi_<name>(` at the start of a line,
/// after the return type).
fn public_functions() -> BTreeSet<String> {
    let header = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("include/rumi.h")).unwrap();
    header
        .lines()
        .filter(|l| !l.starts_with([' ', '/', '#', '}']) && !l.starts_with("typedef") && l.contains('('))
        .filter_map(|l| l[..l.find('(').unwrap()].rsplit([' ', '*']).next().map(str::to_owned))
        .collect()
}

#[test]
fn plugin_exports_only_the_entry_point_and_the_public_header() {
    let out = Command::new("nm").args(["-D", "--defined-only"]).arg(plugin()).output().expect("nm runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let exported: BTreeSet<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().last().map(str::to_owned))
        .collect();
    let mut expected = public_functions();
    assert!(expected.len() >= 10 && expected.len() <= 12, "{expected:?}");
    expected.insert("GDALRegister_RUMI".to_owned());
    assert_eq!(exported, expected, "the plugin's exports differ from GDALRegister_RUMI + include/rumi.h");
}
