//! Compiles the GDAL driver's C++ adapter (src/driver/*.cpp, which includes the private
//! protocol's header src/driver/protocol/rumi_gdal.h and the public include/rumi.h) into the
//! crate, against the installed GDAL (`gdal-config --cflags`, or `$GDAL_CONFIG`), and makes the
//! cdylib refuse undefined symbols so that libgdal always stays in its DT_NEEDED list.
//!
//! Another GDAL than the installed one (scripts/plugin-for-python.sh sets these):
//! - `RUMI_GDAL_INCLUDE`: the folder of that GDAL's headers (scripts/gdal-headers.sh), used
//!   instead of `gdal-config --cflags`;
//! - `RUMI_GDAL_LIBRARY`: the libgdal file the cdylib links, by path, so that its DT_NEEDED is
//!   that file's soname (a pip wheel's `rasterio.libs/libgdal-<hash>.so.<n>`: the loader then
//!   reuses the copy the host loaded). Only the cdylib is linked against it: build with
//!   `--lib` (the tests link the installed GDAL).

use std::process::Command;

fn gdal_config(arg: &str) -> Option<String> {
    let tool = std::env::var("GDAL_CONFIG").unwrap_or_else(|_| "gdal-config".to_owned());
    let out = Command::new(tool).arg(arg).output().ok()?;
    if !out.status.success() {
        return None;
    }
    String::from_utf8(out.stdout).ok().map(|s| s.trim().to_owned())
}

fn main() {
    for path in [
        "build.rs",
        "src/driver/rumidataset.cpp",
        "src/driver/rumidataset.h",
        "src/driver/rumimultidim.cpp",
        "src/driver/rumimultidim.h",
        "src/driver/protocol/rumi_gdal.h",
        "include/rumi.h",
    ] {
        println!("cargo:rerun-if-changed={path}");
    }
    println!("cargo:rerun-if-env-changed=GDAL_CONFIG");
    println!("cargo:rerun-if-env-changed=RUMI_GDAL_INCLUDE");
    println!("cargo:rerun-if-env-changed=RUMI_GDAL_LIBRARY");
    println!("cargo:rerun-if-env-changed=RUMI_TEST_ALLOW_UNDEFINED");
    println!("cargo:rerun-if-env-changed=RUMI_TEST_DEFINES");
    let include = std::env::var("RUMI_GDAL_INCLUDE").ok().filter(|s| !s.is_empty());
    let library = std::env::var("RUMI_GDAL_LIBRARY").ok().filter(|s| !s.is_empty());
    println!("cargo:rerun-if-env-changed=CARGO_CFG_FUZZING");

    let mut build = cc::Build::new();
    build
        .cpp(true)
        .std("c++17")
        .file("src/driver/rumidataset.cpp")
        .file("src/driver/rumimultidim.cpp")
        .include("include")
        .include("src/driver")
        .flag("-fvisibility=hidden")
        .flag("-fvisibility-inlines-hidden")
        .flag_if_supported("-Wextra")
        .warnings(true);
    // Under `cargo fuzz` (`--cfg fuzzing`), compile the adapter with clang's libFuzzer coverage
    // instrumentation (and AddressSanitizer when the Rust code has it), so that the `gdal` fuzz
    // target is guided by the C++ branches too and its memory errors are caught.
    if std::env::var_os("CARGO_CFG_FUZZING").is_some() {
        build.compiler("clang++").flag("-fsanitize=fuzzer-no-link");
        let sanitize = std::env::var("CARGO_CFG_SANITIZE").unwrap_or_default();
        if sanitize.split(',').any(|s| s == "address") {
            build.flag("-fsanitize=address");
        }
    }
    let cflags = match &include {
        Some(dir) => {
            if !std::path::Path::new(dir).join("gdal_version.h").is_file() {
                panic!("RUMI_GDAL_INCLUDE={dir}: no gdal_version.h there (scripts/gdal-headers.sh prints the folder)");
            }
            format!("-I{dir}")
        }
        None => gdal_config("--cflags").unwrap_or_else(|| "-I/usr/include/gdal".to_owned()),
    };
    for flag in cflags.split_whitespace() {
        if let Some(dir) = flag.strip_prefix("-I") {
            build.include(dir);
        } else {
            build.flag(flag);
        }
    }
    // RUMI_TEST_DEFINES="NAME=VALUE ..." (tests only, scripts/test-wheels.sh): e.g. the version
    // macros of gdal_version.h, to build a plugin that claims another GDAL line.
    if let Ok(defines) = std::env::var("RUMI_TEST_DEFINES") {
        for d in defines.split_whitespace() {
            let (name, value) = d.split_once('=').unwrap_or((d, "1"));
            build.define(name, value);
        }
    }
    build.compile("rumi_gdal_driver");

    if let Some(lib) = &library {
        if !std::path::Path::new(lib).is_file() {
            panic!("RUMI_GDAL_LIBRARY={lib}: no such file");
        }
        println!("cargo:rerun-if-changed={lib}");
        // after the objects on the link line, and by path: DT_NEEDED gets the file's soname
        println!("cargo:rustc-cdylib-link-arg={lib}");
    } else if let Some(libs) = gdal_config("--libs") {
        for flag in libs.split_whitespace() {
            if let Some(dir) = flag.strip_prefix("-L") {
                println!("cargo:rustc-link-search=native={dir}");
            } else if let Some(lib) = flag.strip_prefix("-l") {
                println!("cargo:rustc-link-lib=dylib={lib}");
            }
        }
    } else {
        println!("cargo:rustc-link-lib=dylib=gdal");
    }
    // Every symbol of the plugin must resolve at link time (libgdal, libstdc++), or the loader
    // of a host that has not linked libgdal itself fails with "undefined symbol".
    // Not under `cargo fuzz` (`--cfg fuzzing`): its sanitizer runtime is linked into the fuzz
    // binaries only, so the cdylib built beside them has the sanitizer's symbols undefined.
    // RUMI_TEST_ALLOW_UNDEFINED=1 (tests only, scripts/test-wheels.sh): a plugin compiled against
    // another GDAL line's headers links despite the symbols that line lacks, to check that GDAL
    // refuses to register it (GDAL_CHECK_VERSION) before any of them is called.
    let allow_undefined = std::env::var("RUMI_TEST_ALLOW_UNDEFINED").is_ok_and(|v| v == "1");
    if std::env::var_os("CARGO_CFG_FUZZING").is_none() && !allow_undefined {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-z,defs");
    }
    // Export only the plugin's own API (GDALRegister_RUMI and the public rumi_*; the adapter's
    // protocol is hidden by its header): symbols of the archives linked in (the dependencies'
    // rlibs) stay local. Without this, C functions a dependency exports with #[no_mangle]
    // (crc-fast, linked when a workspace build unifies the core's object-store feature for the
    // CLI) would be exported from the plugin too (tests/exports.rs).
    println!("cargo:rustc-cdylib-link-arg=-Wl,--exclude-libs,ALL");
}
