//! Helpers shared by the CLI's integration tests: running `rumi` and GDAL's tools (with this
//! tree's RUMI plugin when it is built), small GeoTIFFs written with GDAL, directory snapshots.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use gdal::raster::GdalType;
use gdal::DriverManager;

pub const BIN: &str = env!("CARGO_BIN_EXE_rumi");

pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

pub fn tempdir() -> tempfile::TempDir {
    tempfile::Builder::new().prefix("rumi-cli-test-").tempdir().expect("temp dir")
}

/// This tree's GDAL plugin, copied as `gdal_RUMI.so` into a folder for GDAL_DRIVER_PATH (as
/// tests/gdal_autotest/conftest.py does), or `None` with the reason printed.
pub struct Plugin {
    dir: tempfile::TempDir,
}

impl Plugin {
    pub fn get(test: &str) -> Option<Plugin> {
        let target = std::env::var_os("CARGO_TARGET_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target"));
        let so = target.join("release/libgdal_rumi.so");
        let tools = ["gdal_translate", "gdalinfo", "gdaladdo"];
        if let Some(t) = tools.iter().find(|t| Command::new(t).arg("--version").output().is_err()) {
            eprintln!("SKIPPED {test}: GDAL's {t} is not installed (apt-get install gdal-bin)");
            return None;
        }
        if !so.is_file() {
            eprintln!("SKIPPED {test}: {} is not built (cargo build --release --lib)", so.display());
            return None;
        }
        let dir = tempfile::Builder::new().prefix("rumi-plugin-").tempdir().ok()?;
        fs::copy(&so, dir.path().join("gdal_RUMI.so")).ok()?;
        Some(Plugin { dir })
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Runs a GDAL tool with the plugin; asserts success; returns stdout.
    pub fn tool<S: AsRef<OsStr>>(&self, tool: &str, args: &[S]) -> String {
        let o = Command::new(tool)
            .args(args)
            .env("GDAL_DRIVER_PATH", self.path())
            .output()
            .unwrap_or_else(|e| panic!("run {tool}: {e}"));
        assert!(o.status.success(), "{tool} failed: {}", text(&o.stderr));
        text(&o.stdout)
    }

    /// `gdalinfo -json` (plus `extra`) of `name`.
    pub fn info(&self, name: &str, extra: &[&str]) -> serde_json::Value {
        let mut args: Vec<&str> = vec!["-json"];
        args.extend_from_slice(extra);
        args.push(name);
        serde_json::from_str(&self.tool("gdalinfo", &args)).expect("gdalinfo -json output")
    }
}

/// Runs `rumi args` (with the plugin on GDAL_DRIVER_PATH when given).
pub fn run<S: AsRef<OsStr>>(plugin: Option<&Plugin>, args: &[S]) -> Output {
    let mut c = Command::new(BIN);
    c.args(args);
    if let Some(p) = plugin {
        c.env("GDAL_DRIVER_PATH", p.path());
    }
    c.output().expect("run the rumi binary")
}

/// Runs `rumi args`, asserts success; returns (stdout, stderr).
pub fn ok<S: AsRef<OsStr> + std::fmt::Debug>(plugin: Option<&Plugin>, args: &[S]) -> (String, String) {
    let o = run(plugin, args);
    assert!(o.status.success(), "rumi {args:?} failed: {}", text(&o.stderr));
    (text(&o.stdout), text(&o.stderr))
}

/// Runs `rumi args`, asserts exit code 1 with a `rumi: ` message; returns stderr.
pub fn fails<S: AsRef<OsStr> + std::fmt::Debug>(plugin: Option<&Plugin>, args: &[S]) -> String {
    let o = run(plugin, args);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "rumi {args:?}: expected exit 1, stderr: {err}");
    assert!(err.starts_with("rumi: "), "error not prefixed: {err}");
    err
}

/// Every file of `dir` (names starting with a dot included) with its bytes.
pub fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().unwrap().is_file())
        .map(|e| (e.file_name().to_string_lossy().into_owned(), fs::read(e.path()).unwrap()))
        .collect()
}

pub fn entries(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> =
        fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    v.sort();
    v
}

/// A GeoTIFF of `w` x `h`, `bands` bands of `T` (a ramp), EPSG:32631, with dataset metadata
/// `md`, and nodata `nodata` on every band when given.
pub fn geotiff<T: GdalType + Copy + From<u8>>(
    path: &Path,
    (w, h): (usize, usize),
    bands: usize,
    md: &[(&str, &str)],
    nodata: Option<f64>,
) {
    let driver = DriverManager::get_driver_by_name("GTiff").unwrap();
    let mut ds = driver.create_with_band_type::<T, _>(path, w, h, bands).unwrap();
    ds.set_geo_transform(&[1000.0, 2.0, 0.0, 5000.0, 0.0, -2.0]).unwrap();
    ds.set_spatial_ref(&gdal::spatial_ref::SpatialRef::from_epsg(32631).unwrap()).unwrap();
    for (k, v) in md {
        gdal::Metadata::set_metadata_item(&mut ds, k, v, "").unwrap();
    }
    for b in 1..=bands {
        let data: Vec<T> = (0..w * h).map(|i| T::from(((i * 7 + b * 31) % 251) as u8)).collect();
        let mut buf = gdal::raster::Buffer::new((w, h), data);
        let mut band = ds.rasterband(b).unwrap();
        band.write((0, 0), (w, h), &mut buf).unwrap();
        if let Some(v) = nodata {
            band.set_no_data_value(Some(v)).unwrap();
        }
    }
}

/// `rumi info --json` of a file.
pub fn info_json(path: &Path) -> serde_json::Value {
    let (out, _) = ok(None, &[OsStr::new("info"), path.as_os_str(), OsStr::new("--json")]);
    serde_json::from_str(&out).unwrap()
}
