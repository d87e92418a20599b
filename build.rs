//! Compiles the GDAL driver's C++ adapter (src/driver/*.cpp) into the crate, against the
//! installed GDAL (`gdal-config --cflags`, or `$GDAL_CONFIG`), and makes the cdylib refuse
//! undefined symbols so that libgdal always stays in its DT_NEEDED list.

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
        "include/rumi.h",
    ] {
        println!("cargo:rerun-if-changed={path}");
    }
    println!("cargo:rerun-if-env-changed=GDAL_CONFIG");
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
    let cflags = gdal_config("--cflags").unwrap_or_else(|| "-I/usr/include/gdal".to_owned());
    for flag in cflags.split_whitespace() {
        if let Some(dir) = flag.strip_prefix("-I") {
            build.include(dir);
        } else {
            build.flag(flag);
        }
    }
    build.compile("rumi_gdal_driver");

    // gdal-sys links libgdal too; naming it here keeps the link explicit for the C++ objects.
    if let Some(libs) = gdal_config("--libs") {
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
    if std::env::var_os("CARGO_CFG_FUZZING").is_none() {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-z,defs");
    }
}
