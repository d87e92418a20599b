//! Issue 12 items 4 and 6, issue 11 item 5: rumi reads what rumi wrote (TIME, TIME_START/
//! TIME_END and BAND_TEXT that the GDAL driver reports survive gdal_translate and come back
//! without flags), and the CLI's small lies are gone (geotransforms, ISO years, impossible
//! dates, 0-based indices, remedies, file names in errors, argument checks), and `validate`
//! asks the EPSG registry.

mod common;

use std::ffi::OsStr;
use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use common::*;
use rumi::codec::Graph;
use rumi::format::{Georef, ModelType, RasterType, SampleEncoding, TimeAxis, TimeKind, Trailer};
use rumi::Limits;
use rumi::{write_array, ImageSpec};
use rumi::{Reader, Window};

fn all_samples(path: &Path) -> Vec<u8> {
    let r = Reader::open(fs::File::open(path).unwrap(), Limits::default()).unwrap();
    let l = *r.layout();
    let win =
        Window { times: 0..l.times, bands: (0..u32::from(l.bands)).collect(), rows: 0..l.length, cols: 0..l.width };
    let mut out = vec![0u8; r.window_bytes(&win).unwrap() as usize];
    r.read_window(&win, &mut out).unwrap();
    out
}

#[test]
fn rumi_reads_what_its_gdal_driver_wrote() {
    let Some(plugin) = Plugin::get("rumi_reads_what_its_gdal_driver_wrote") else { return };
    let dir = tempdir();
    let p = |n: &str| dir.path().join(n);
    let s = |n: &str| p(n).display().to_string();
    let pl = Some(&plugin);
    geotiff::<u16>(&p("src.tif"), (37, 23), 3, &[], None);
    ok(
        None,
        &[
            "convert",
            &s("src.tif"),
            &s("a.rumi"),
            "--time",
            "2020-05-18T13:40:00Z",
            "--band-text",
            "B02",
            "--band-text",
            "B03",
            "--band-text",
            "B04",
            "-q",
        ],
    );
    ok(None, &["convert", &s("src.tif"), &s("i.rumi"), "--interval", "2020-01-01/2021-01-01", "-q"]);
    // rumi -> GeoTIFF / COG -> rumi, without flags
    for (src, fmt) in [("a.rumi", "GTiff"), ("a.rumi", "COG"), ("i.rumi", "GTiff")] {
        let tif = format!("{src}.{fmt}.tif");
        plugin.tool("gdal_translate", &["-q", "-of", fmt, &s(src), &s(&tif)]);
        let back = format!("{tif}.rumi");
        let (_, err) = ok(pl, &["convert", &s(&tif), &s(&back)]);
        assert!(err.contains("taken from its TIME"), "{err}");
        let (a, b) = (info_json(&p(src)), info_json(&p(&back)));
        assert_eq!(a["time"], b["time"], "{tif}");
        assert_eq!(a["band_texts"], b["band_texts"], "{tif}");
        assert_eq!(all_samples(&p(src)), all_samples(&p(&back)), "{tif}");
    }
    assert_eq!(info_json(&p("a.rumi.COG.tif.rumi"))["time"]["steps"][0], "2020-05-18T13:40:00Z");
    assert_eq!(info_json(&p("i.rumi.GTiff.tif.rumi"))["time"]["steps"][0]["end"], "2021-01-01");

    // Time steps of a Cube as sources (RUMI:"cube.rumi":t) of convert and stack.
    geotiff::<u16>(&p("src2.tif"), (37, 23), 3, &[], None);
    ok(
        None,
        &[
            "stack",
            &s("src.tif"),
            &s("src2.tif"),
            &s("c.rumi"),
            "--times",
            "2020-01-01T10:00:00Z,2020-02-01T10:00:00Z",
            "--band-text",
            "B02",
            "--band-text",
            "B03",
            "--band-text",
            "B04",
            "-q",
        ],
    );
    let step = |t: u32| format!("RUMI:\"{}\":{t}", s("c.rumi"));
    ok(pl, &["convert", &step(1), &s("one.rumi"), "-q"]);
    let v = info_json(&p("one.rumi"));
    assert_eq!(v["time"]["steps"][0], "2020-02-01T10:00:00Z");
    assert_eq!(v["band_texts"], serde_json::json!(["B02", "B03", "B04"]));
    ok(pl, &["stack", &step(0), &step(1), &s("c2.rumi"), "-q"]);
    let (c, c2) = (info_json(&p("c.rumi")), info_json(&p("c2.rumi")));
    assert_eq!(c["time"], c2["time"]);
    assert_eq!(c["band_texts"], c2["band_texts"]);
    assert_eq!(all_samples(&p("c.rumi")), all_samples(&p("c2.rumi")));
    // a time step of a file is that file: it cannot be the output
    let before = fs::read(p("c.rumi")).unwrap();
    let err = fails(pl, &["convert", &step(1), &s("c.rumi")]);
    assert!(err.contains("is the same file as the input"), "{err}");
    assert_eq!(fs::read(p("c.rumi")).unwrap(), before);

    // A missing file behind a RUMI: name says why.
    let err =
        fails(pl, &["convert", &format!("RUMI:\"{}\":0", s("missing.rumi")), &s("m.rumi"), "--time", "2020-01-01"]);
    assert!(err.contains("missing.rumi: No such file or directory"), "{err}");
    let err = fails(None, &["convert", &format!("RUMI:\"{}\":0", s("c.rumi")), &s("m.rumi"), "--time", "2020-01-01"]);
    assert!(err.contains("RUMI driver is not loaded") || err.contains("GDAL_DRIVER_PATH"), "{err}");
}

#[test]
fn info_geotransform_is_gdals_for_pixel_is_point() {
    let dir = tempdir();
    let p = |n: &str| dir.path().join(n);
    let s = |n: &str| p(n).display().to_string();
    geotiff::<u16>(&p("point.tif"), (37, 23), 1, &[("AREA_OR_POINT", "Point")], None);
    let gt = gdal::Dataset::open(p("point.tif")).unwrap().geo_transform().unwrap();
    ok(None, &["convert", &s("point.tif"), &s("point.rumi"), "--time", "2020-01-01", "-q"]);
    let v = info_json(&p("point.rumi"));
    assert_eq!(v["georef"]["raster_type"], "PixelIsPoint");
    assert_eq!(v["georef"]["geotransform"], serde_json::json!(gt), "GDAL's geotransform of the source");
    assert_eq!(v["georef"]["affine"], serde_json::json!([2.0, 0.0, 1001.0, 0.0, -2.0, 4999.0]));
    if let Some(plugin) = Plugin::get("info_geotransform_is_gdals_for_pixel_is_point (gdalinfo part)") {
        assert_eq!(plugin.info(&s("point.rumi"), &[])["geoTransform"], v["georef"]["geotransform"]);
    }
}

#[test]
fn times_are_valid_iso_and_impossible_ones_say_why() {
    let dir = tempdir();
    let p = |n: &str| dir.path().join(n);
    let s = |n: &str| p(n).display().to_string();
    geotiff::<u8>(&p("a.tif"), (37, 23), 1, &[], None);
    geotiff::<u8>(&p("b.tif"), (37, 23), 1, &[], None);
    // years before 1: ISO 8601 with four digits
    ok(None, &["convert", &s("a.tif"), &s("old.rumi"), "--time=-0001-01-01", "-q"]);
    let v = info_json(&p("old.rumi"));
    assert_eq!(v["time"]["steps"][0], "-0001-01-01");
    let (t, _) = ok(None, &["info", &s("old.rumi")]);
    assert!(t.contains("0: -0001-01-01"), "{t}");
    for (value, want) in [
        ("2021-02-29", "February 2021 has 28 days, so day 29 does not exist"),
        ("2021-02-29T10:00:00Z", "day 29 does not exist"),
        ("2016-12-31T23:59:60Z", "leap seconds are not representable"),
        ("2020-01-01T00:00:00.5Z", "fraction of a second"),
    ] {
        let err = fails(None, &["convert", &s("a.tif"), &s("x.rumi"), "--time", value]);
        assert!(err.contains(want) && err.contains("--time"), "{value}: {err}");
    }
    // fractional seconds in metadata are rounded, and -q does not hide that (nor TIFFTAG_DATETIME)
    geotiff::<u8>(&p("frac.tif"), (37, 23), 1, &[("ACQUISITIONDATETIME", "2020-05-18T13:40:00.6Z")], None);
    let (_, err) = ok(None, &["convert", &s("frac.tif"), &s("frac.rumi"), "-q"]);
    assert!(err.contains("rounded to the nearest second"), "{err}");
    assert_eq!(info_json(&p("frac.rumi"))["time"]["steps"][0], "2020-05-18T13:40:01Z");
    geotiff::<u8>(&p("tiff.tif"), (37, 23), 1, &[("TIFFTAG_DATETIME", "2021:04:01 06:57:06")], None);
    let (_, err) = ok(None, &["convert", &s("tiff.tif"), &s("tiff.rumi"), "-q"]);
    assert!(err.contains("warning") && err.contains("TIFFTAG_DATETIME"), "-q hid the notice: {err}");
    geotiff::<u8>(&p("leap.tif"), (37, 23), 1, &[("TIFFTAG_DATETIME", "2016:12:31 23:59:60")], None);
    let err = fails(None, &["convert", &s("leap.tif"), &s("x.rumi")]);
    assert!(err.contains("leap seconds are not representable") && err.contains("TIFFTAG_DATETIME"), "{err}");
    // a date-time without a zone is UTC (as Python's rumi.write reads it: one parser, the
    // core's); a zone is honoured; an unreadable text is named
    ok(
        None,
        &[
            "stack",
            &s("a.tif"),
            &s("b.tif"),
            &s("z.rumi"),
            "--times",
            "2015-03-09T17:30:17,2017-03-09T06:43:56+01:00",
            "-q",
        ],
    );
    let steps = &info_json(&p("z.rumi"))["time"]["steps"];
    assert_eq!((steps[0].as_str(), steps[1].as_str()), (Some("2015-03-09T17:30:17Z"), Some("2017-03-09T05:43:56Z")));
    let err = fails(
        None,
        &["stack", &s("a.tif"), &s("b.tif"), &s("y.rumi"), "--times", "2015-03-09T17:30:17,2015-03-09T17:30:17X"],
    );
    assert!(err.contains("--times:") && err.contains("\"2015-03-09T17:30:17X\" is not an ISO 8601 time"), "{err}");
    let err = fails(None, &["convert", &s("a.tif"), &s("y.rumi"), "--time", "2015-03-09T24:00:00"]);
    assert!(err.contains("--time:") && err.contains("\"2015-03-09T24:00:00\"") && err.contains("hour 24"), "{err}");
    assert!(!p("y.rumi").exists());
    // --times with spaces; errors name --times; 0-based time steps
    ok(None, &["stack", &s("a.tif"), &s("b.tif"), &s("c.rumi"), "--times", "2020-01-01, 2020-02-01", "-q"]);
    assert_eq!(info_json(&p("c.rumi"))["time"]["steps"][1], "2020-02-01");
    let err = fails(None, &["stack", &s("a.tif"), &s("b.tif"), &s("c.rumi"), "--times", "2020-01-01, 2020-02-30"]);
    assert!(err.contains("--times:") && err.contains("day 30 does not exist"), "{err}");
    let err = fails(None, &["stack", &s("a.tif"), &s("b.tif"), &s("c.rumi"), "--times", "2020-03-01,2020-02-01"]);
    assert!(err.contains("time step 1 (2020-02-01) is before time step 0 (2020-03-01)"), "{err}");
    let err = fails(None, &["stack", &s("a.tif"), &s("b.tif"), &s("c.rumi"), "--intervals", "2020-01-01/2020-01-01,x"]);
    assert!(err.contains("--intervals:"), "{err}");
    assert!(!p("x.rumi").exists());
}

#[test]
fn indices_remedies_paths_and_arguments() {
    let dir = tempdir();
    let p = |n: &str| dir.path().join(n);
    let s = |n: &str| p(n).display().to_string();
    geotiff::<u8>(&p("a.tif"), (37, 23), 2, &[], None);
    // 0-based band indices in texts and listings
    ok(None, &["convert", &s("a.tif"), &s("a.rumi"), "--time", "2020-01-01", "-q"]);
    let (t, _) = ok(None, &["info", &s("a.rumi")]);
    assert!(t.contains("bands             0: band 0\n                  1: band 1\n"), "{t}");
    assert!(t.contains("times             0: 2020-01-01"), "{t}");
    // limits name the CLI's remedy
    let vrt = |w: u32, h: u32| {
        format!(
            r#"<VRTDataset rasterXSize="{w}" rasterYSize="{h}"><VRTRasterBand dataType="Byte" band="1"/></VRTDataset>"#
        )
    };
    fs::write(p("wide.vrt"), vrt(17000, 17000)).unwrap();
    let err = fails(None, &["convert", &s("wide.vrt"), &s("w.rumi"), "--time", "2020-01-01", "--tile", "17000"]);
    assert!(err.contains("smaller --tile") && !err.contains("RUMI_MAX") && !err.contains("Limits::"), "{err}");
    fs::write(p("huge.vrt"), vrt(200000, 200000)).unwrap();
    let err = fails(None, &["convert", &s("huge.vrt"), &s("w.rumi"), "--time", "2020-01-01", "--tile", "16"]);
    assert!(err.contains("larger --tile") && !err.contains("RUMI_MAX"), "{err}");
    // I/O errors name the file
    let err = fails(None, &["header", &s("a.rumi"), "-o", &s("nowhere/a.header")]);
    assert!(err.contains("nowhere/a.header"), "{err}");
    let err = fails(None, &["info", dir.path().to_str().unwrap()]);
    assert!(err.contains(dir.path().to_str().unwrap()), "{err}");
    // non-UTF-8 source paths
    let latin1 = dir.path().join(OsStr::from_bytes(b"caf\xe9.tif"));
    fs::copy(p("a.tif"), &latin1).unwrap();
    let out = dir.path().join(OsStr::from_bytes(b"caf\xe9.rumi"));
    let o = run(
        None,
        &[
            OsStr::new("convert"),
            latin1.as_os_str(),
            out.as_os_str(),
            OsStr::new("--time"),
            OsStr::new("2020-01-01"),
            OsStr::new("-q"),
        ],
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert_eq!(all_samples(&out), all_samples(&p("a.rumi")));
    // arguments out of range are usage errors (exit 2) that say why
    for args in [
        ["--level", "0"],
        ["--level", "23"],
        ["--level=-1", "-q"],
        ["-oo", "NUM_THREADS=abc"],
        ["--oo", "NUM_THREADS=0"],
    ] {
        let mut a = vec!["convert", "a.tif", "x.rumi", "--time", "2020-01-01"];
        a.extend(args);
        let o = run(None, &a);
        assert_eq!(o.status.code(), Some(2), "{a:?}: {}", text(&o.stderr));
        let e = text(&o.stderr);
        assert!(e.contains("1..=22") || e.contains("NUM_THREADS"), "{e}");
    }
    ok(
        None,
        &["convert", &s("a.tif"), &s("l.rumi"), "--time", "2020-01-01", "--level", "22", "-oo", "NUM_THREADS=2", "-q"],
    );
}

/// A file the writer accepts (the core checks only the EPSG range) with `epsg` and `model`.
fn with_epsg(path: &Path, epsg: u16, model: ModelType) {
    let spec = ImageSpec {
        width: 8,
        length: 4,
        times: 1,
        bands: 1,
        encoding: SampleEncoding::U8,
        tile_width: 8,
        tile_length: 4,
        frame_unit: 0,
        georef: Georef::Epsg { model, raster_type: RasterType::Area, epsg, affine: [1.0, 0.0, 0.0, 0.0, -1.0, 0.0] },
        trailer: Trailer {
            band_texts: vec!["b".into()],
            time: TimeAxis::from_seconds(TimeKind::Instant, vec![0], 1).unwrap(),
        },
    };
    write_array(fs::File::create(path).unwrap(), spec, Graph::Numeric(7), &[7u8; 32]).unwrap();
}

#[test]
fn validate_asks_the_epsg_registry() {
    let dir = tempdir();
    let p = |n: &str| dir.path().join(n);
    let s = |n: &str| p(n).display().to_string();
    with_epsg(&p("good.rumi"), 32631, ModelType::Projected);
    assert!(ok(None, &["validate", &s("good.rumi")]).0.contains("compliant"));
    for code in [9999u16, 1024] {
        let name = format!("e{code}.rumi");
        with_epsg(&p(&name), code, ModelType::Projected);
        let err = fails(None, &["validate", &s(&name)]);
        assert!(err.contains(&format!("EPSG:{code} is not defined by the EPSG registry")), "{err}");
        let err = fails(None, &["header", &s(&name)]);
        assert!(err.contains("not defined by the EPSG registry"), "{err}");
        assert!(!p(&format!("{name}.header")).exists());
    }
    with_epsg(&p("kind.rumi"), 4326, ModelType::Projected);
    let err = fails(None, &["validate", &s("kind.rumi")]);
    assert!(err.contains("declares EPSG:4326 as a projected CRS") && err.contains("geographic"), "{err}");
}
