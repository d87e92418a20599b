//! End-to-end tests of the `rumi` binary: real rasters from the shared data folder (skipped with
//! a printed reason when it is absent) and small synthetic rasters written with GDAL.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use gdal::raster::{GdalDataType, GdalType};
use gdal::{Dataset, DriverManager, Metadata};
use rumi::format::{Georef, ModelType, RasterType, SampleEncoding, TimeKind};
use rumi::Limits;
use rumi::{Reader, Window};

const BIN: &str = env!("CARGO_BIN_EXE_rumi");

/// The shared real-data folder (`$RUMI_TEST_DATA`, else `../shared/data` from the project, else
/// `/work/shared/data`), or `None` with the reason printed.
fn data_dir() -> Option<PathBuf> {
    let candidates: Vec<PathBuf> = match std::env::var_os("RUMI_TEST_DATA") {
        Some(d) => vec![PathBuf::from(d)],
        None => {
            vec![Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data"), PathBuf::from("/work/shared/data")]
        }
    };
    let found = candidates.iter().find(|d| d.join("MANIFEST.tsv").is_file()).cloned();
    if found.is_none() {
        let tried: Vec<String> = candidates.iter().map(|d| d.display().to_string()).collect();
        eprintln!("SKIPPED: no real-data folder ({} not found; set RUMI_TEST_DATA to point at it)", tried.join(", "));
    }
    found
}

fn rumi<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Output {
    Command::new(BIN).args(args).output().expect("run the rumi binary")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Runs `rumi args` and asserts it succeeds; returns stdout.
fn ok<S: AsRef<std::ffi::OsStr> + std::fmt::Debug>(args: &[S]) -> String {
    let o = rumi(args);
    assert!(o.status.success(), "rumi {args:?} failed: {}", text(&o.stderr));
    text(&o.stdout)
}

/// Runs `rumi args`, asserts exit code 1 with a `rumi: ` message; returns stderr.
fn fails<S: AsRef<std::ffi::OsStr> + std::fmt::Debug>(args: &[S]) -> String {
    let o = rumi(args);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "rumi {args:?}: expected exit 1, stderr: {err}");
    assert!(err.starts_with("rumi: "), "error not prefixed: {err}");
    err
}

fn tempdir() -> tempfile::TempDir {
    tempfile::Builder::new().prefix("rumi-cli-test-").tempdir().expect("temp dir")
}

fn entries(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> =
        fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    v.sort();
    v
}

/// All samples of band `b` (1-based) as little-endian bytes, read through the gdal crate.
fn gdal_band_bytes(ds: &Dataset, b: usize) -> Vec<u8> {
    fn read<T: GdalType + Copy>(band: &gdal::raster::RasterBand, f: impl Fn(T) -> Vec<u8>) -> Vec<u8> {
        let (x, y) = band.size();
        let buf = band.read_as::<T>((0, 0), (x, y), (x, y), None).unwrap();
        buf.data().iter().flat_map(|&v| f(v)).collect()
    }
    let band = ds.rasterband(b).unwrap();
    match band.band_type() {
        GdalDataType::UInt8 => read::<u8>(&band, |v| vec![v]),
        GdalDataType::UInt16 => read::<u16>(&band, |v| v.to_le_bytes().to_vec()),
        GdalDataType::Int16 => read::<i16>(&band, |v| v.to_le_bytes().to_vec()),
        GdalDataType::UInt32 => read::<u32>(&band, |v| v.to_le_bytes().to_vec()),
        GdalDataType::Int32 => read::<i32>(&band, |v| v.to_le_bytes().to_vec()),
        GdalDataType::UInt64 => read::<u64>(&band, |v| v.to_le_bytes().to_vec()),
        GdalDataType::Int64 => read::<i64>(&band, |v| v.to_le_bytes().to_vec()),
        GdalDataType::Float32 => read::<f32>(&band, |v| v.to_le_bytes().to_vec()),
        GdalDataType::Float64 => read::<f64>(&band, |v| v.to_le_bytes().to_vec()),
        other => panic!("test helper cannot read {other:?}"),
    }
}

/// Every sample of time step `t` of a rumi file, `[b][y][x]`.
fn rumi_step(r: &Reader<fs::File>, t: u32) -> Vec<u8> {
    let l = *r.layout();
    let win = Window { times: t..t + 1, bands: (0..u32::from(l.bands)).collect(), rows: 0..l.length, cols: 0..l.width };
    let mut out = vec![0u8; r.window_bytes(&win).unwrap() as usize];
    r.read_window(&win, &mut out).unwrap();
    out
}

/// Asserts time step `t` of `out` holds exactly the samples of `src` and carries its grid.
fn assert_same_as_source(out: &Path, src: &Path, t: u32) {
    let r = Reader::open(fs::File::open(out).unwrap(), Limits::default()).unwrap();
    let ds = Dataset::open(src).unwrap();
    let l = *r.layout();
    assert_eq!((l.width as usize, l.length as usize), ds.raster_size(), "{}", src.display());
    assert_eq!(usize::from(l.bands), ds.raster_count());
    let got = rumi_step(&r, t);
    let plane = l.width as usize * l.length as usize * l.encoding.decoded_bytes();
    for b in 0..usize::from(l.bands) {
        let want = gdal_band_bytes(&ds, b + 1);
        let have = &got[b * plane..(b + 1) * plane];
        if let Some(i) = want.iter().zip(have).position(|(x, y)| x != y) {
            panic!("{}: band {} differs at byte {i} of {}", src.display(), b + 1, want.len());
        }
        assert_eq!(want.len(), have.len());
    }
    let gt = ds.geo_transform().unwrap();
    let epsg = ds.spatial_ref().unwrap().auth_code().unwrap();
    match r.georef().unwrap() {
        Georef::Epsg { epsg: e, affine, raster_type, model } => {
            assert_eq!(i32::from(e), epsg, "{}", src.display());
            assert_eq!(model, ModelType::Projected);
            assert_eq!(raster_type, RasterType::Area);
            assert_eq!(affine, [gt[1], gt[2], gt[0], gt[4], gt[5], gt[3]], "{}", src.display());
        }
        g => panic!("{}: georeferencing lost: {g:?}", src.display()),
    }
    // The sidecar is the header blob of the file.
    let blob = fs::read(format!("{}.header", out.display())).unwrap();
    assert_eq!(blob, r.blob().to_bytes().unwrap());
}

/// Files of the shared data folder rumi stores, with the options they need.
const STORABLE: &[(&str, &[&str])] = &[
    ("gdal_byte.tif", &[]),
    ("eolearn_dem_float32.tif", &["--interval", "2015-01-01/2018-01-01"]),
    ("eolearn_lulc_uint16.tif", &[]),
    ("eolearn_s2_clm_68t_uint8.tif", &[]),
    ("eolearn_s2_ndvi_68t_float32.tif", &[]),
    ("landsat8_LC08_L1TP_224078_20200518_3band_uint16.tif", &["--time", "2020-05-18T13:40:00Z"]),
    ("naip_m_3607824_se_17_1_20160620_sub.tif", &["--time", "2016-06-20"]),
    (
        "xrspatial_s2_4band_10m_uint16.tif",
        &["--band-text", "B02", "--band-text", "B03", "--band-text", "B04", "--band-text", "NIR"],
    ),
    ("rasterio_RGB.byte.tif", &["--allow-nodata-loss"]),
    ("lf_elev_220_mt_hood_utm.tif", &["--allow-nodata-loss", "--frame-unit", "0", "--tile", "200x100"]),
    ("lf_fbfm40_220_mt_hood_utm.tif", &["--allow-nodata-loss", "--graph", "generic"]),
    (
        "S1A__IW___A_20150309T173017_VV_grd_mli_geo_norm_db.tif",
        &["--allow-nodata-loss", "--time", "2015-03-09T17:30:17Z"],
    ),
    (
        "S1A__IW___D_20170309T054356_VV_grd_mli_geo_norm_db.tif",
        &["--allow-nodata-loss", "--time", "2017-03-09T05:43:56Z", "--level", "3"],
    ),
];

/// Files of the shared data folder rumi refuses (tested in `refuses_what_rumi_cannot_store...`).
const REFUSED: &[&str] = &["stars_olinda_dem_utm25s.tif", "rioxarray_s1a_iw_slc_cint16.tif"];

#[test]
fn converts_every_storable_real_file() {
    let Some(data) = data_dir() else { return };
    // Every file of the manifest is either converted here or refused below.
    let manifest = fs::read_to_string(data.join("MANIFEST.tsv")).unwrap();
    for name in manifest.lines().skip(1).filter_map(|l| l.split('\t').next()).filter(|n| !n.is_empty()) {
        assert!(
            STORABLE.iter().any(|s| s.0 == name) || REFUSED.contains(&name),
            "{name} is in MANIFEST.tsv but in neither STORABLE nor REFUSED: add it to the tests"
        );
    }
    let dir = tempdir();
    for (name, extra) in STORABLE {
        let src = data.join(name);
        let out = dir.path().join(format!("{name}.rumi"));
        let mut args: Vec<String> =
            vec!["convert".into(), src.display().to_string(), out.display().to_string(), "--quiet".into()];
        args.extend(extra.iter().map(|s| s.to_string()));
        if !extra.iter().any(|a| *a == "--time" || *a == "--interval") {
            args.extend(["--time".into(), "2020-01-01".into()]);
        }
        ok(&args);
        assert_same_as_source(&out, &src, 0);
    }
    // Band texts: source descriptions, explicit --band-text, or `band N`.
    let texts = |name: &str| {
        let r =
            Reader::open(fs::File::open(dir.path().join(format!("{name}.rumi"))).unwrap(), Limits::default()).unwrap();
        r.trailer().unwrap().band_texts.clone()
    };
    assert_eq!(texts("eolearn_dem_float32.tif"), ["DEM"]);
    assert_eq!(texts("xrspatial_s2_4band_10m_uint16.tif"), ["B02", "B03", "B04", "NIR"]);
    assert_eq!(texts("naip_m_3607824_se_17_1_20160620_sub.tif"), ["band 0", "band 1", "band 2", "band 3"]);
    assert_eq!(texts("eolearn_s2_ndvi_68t_float32.tif")[7], "2015-12-08T10:04:09");
    let r =
        Reader::open(fs::File::open(dir.path().join("lf_elev_220_mt_hood_utm.tif.rumi")).unwrap(), Limits::default())
            .unwrap();
    assert_eq!((r.layout().tile_width, r.layout().tile_length, r.layout().frame_unit.value()), (200, 100, 0));
    let r = Reader::open(fs::File::open(dir.path().join("eolearn_dem_float32.tif.rumi")).unwrap(), Limits::default())
        .unwrap();
    assert_eq!(r.trailer().unwrap().time.step_iso(0), "2015-01-01/2018-01-01");
    // The default graph is auto: the same bytes as `--graph auto`, and on the DEM (where the
    // gradient predictor wins; 18.6 % measured) at least 15 % smaller than OpenZL's numeric graph alone.
    let default = fs::read(dir.path().join("lf_elev_220_mt_hood_utm.tif.rumi")).unwrap();
    let with = |graph: &str| {
        let out = dir.path().join(format!("dem-{graph}.rumi"));
        let src = data.join("lf_elev_220_mt_hood_utm.tif");
        let (_, extra) = STORABLE.iter().find(|s| s.0 == "lf_elev_220_mt_hood_utm.tif").unwrap();
        let mut args = vec!["convert", src.to_str().unwrap(), out.to_str().unwrap(), "--quiet"];
        args.extend(extra.iter().copied());
        args.extend(["--time", "2020-01-01", "--graph", graph]);
        ok(&args);
        assert_same_as_source(&out, &src, 0);
        fs::read(&out).unwrap()
    };
    assert!(with("auto") == default, "the default file differs from --graph auto");
    let numeric = with("numeric").len();
    assert!(default.len() * 100 < numeric * 85, "default {} bytes vs numeric {numeric}", default.len());
}

/// The decode-speed setting and the auto rule's weight (`--graph fast`, `--graph auto:N`) write
/// files whose pixels equal the source's, read by the unchanged reader: `auto:4` is `auto`
/// byte for byte; fast keeps the shape's frame unit (no sampled cells: its left predictor would
/// difference the bands), the auto weights sample it as auto does; a bad name or a level with
/// fast is a usage error naming the accepted values.
#[test]
fn graph_fast_and_auto_weights_read_back() {
    let Some(data) = data_dir() else { return };
    let dir = tempdir();
    for (name, auto_unit) in [("naip_m_3607824_se_17_1_20160620_sub.tif", "2"), ("lf_elev_220_mt_hood_utm.tif", "0")] {
        let src = data.join(name);
        let write = |graph: &str| {
            let out = dir.path().join(format!("{name}.{graph}.rumi"));
            let mut args = vec!["convert", src.to_str().unwrap(), out.to_str().unwrap(), "--quiet"];
            args.extend(["--time", "2020-01-01", "--allow-nodata-loss"]);
            if !graph.is_empty() {
                args.extend(["--graph", graph]);
            }
            ok(&args);
            assert_same_as_source(&out, &src, 0);
            let info = ok(&["info", out.to_str().unwrap()]);
            let unit = info.lines().find(|l| l.starts_with("frame unit")).unwrap_or_default().to_string();
            (
                fs::read(&out).unwrap(),
                unit.split_whitespace().nth(2).unwrap_or_default().trim_end_matches(':').to_string(),
            )
        };
        let (default, unit) = write("");
        assert_eq!(unit, auto_unit, "{name}");
        assert!(write("auto:4").0 == default, "{name}: auto:4 differs from the default");
        for graph in ["fast", "auto:0", "auto:10", "auto:100"] {
            let (_, unit) = write(graph);
            // (auto:100 samples too, and finds NAIP's cells not worth their decode at that weight)
            let want = match graph {
                "fast" if auto_unit == "2" => "1",
                "auto:100" => continue,
                _ => auto_unit,
            };
            assert_eq!(unit, want, "{name} --graph {graph}");
        }
    }
    for (args, says) in [
        (&["--graph", "nonsense"][..], "graph \"nonsense\" is not one of: auto (the default), auto:<percent>"),
        (&["--graph", "auto:101"][..], "\"101\" is not a whole percent 0..=100"),
        (&["--graph", "fast", "--level", "3"][..], "--level cannot be combined with --graph fast"),
    ] {
        let mut a = vec!["convert", "a.tif", "b.rumi"];
        a.extend_from_slice(args);
        let o = rumi(&a);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(says) && (args[1] != "nonsense" || err.contains("fast, image (the smallest)")), "{err}");
    }
}

/// Pixel-interleaved 8-bit frames (`--frame-unit 2`) try the band-difference predictors
/// (`Predictor::Bands`, `BandsLz`): the real NAIP tile (4 bands) comes out at least 15 % smaller
/// than the default layout (measured: 224,724 against 269,022 bytes) and the RGB scene (3 bands
/// and a nodata collar) at least 3 % smaller with `--graph image` (740,682 against 768,908), the
/// Sentinel-2 tile (4 bands, 16-bit) at least 3 % smaller (221,324 against 232,060), the pixels
/// equal to the source.
#[test]
fn band_prediction_shrinks_pixel_interleaved_8_bit_imagery() {
    // pixel-interleaved cells (unit 2, the band predictors) against band-planar ones (unit 1),
    // and the unit `convert` picks from a sampled tile row when none is asked for
    let Some(data) = data_dir() else { return };
    let dir = tempdir();
    for (name, extra, at_most, picked) in [
        ("naip_m_3607824_se_17_1_20160620_sub.tif", &[][..], 85, "2"),
        ("rasterio_RGB.byte.tif", &["--graph", "image"][..], 97, "1"),
        ("xrspatial_s2_4band_10m_uint16.tif", &[][..], 97, "2"),
        ("landsat8_LC08_L1TP_224078_20200518_3band_uint16.tif", &[][..], 101, "1"),
    ] {
        let src = data.join(name);
        let out = |tag: &str| dir.path().join(format!("{name}.{tag}.rumi"));
        let size = |tag: &str, args: &[&str]| {
            let o = out(tag);
            let mut a = vec!["convert", src.to_str().unwrap(), o.to_str().unwrap(), "--quiet", "--time", "2020-01-01"];
            a.extend_from_slice(args);
            ok(&a);
            assert_same_as_source(&o, &src, 0);
            fs::metadata(&o).unwrap().len()
        };
        let unit = |tag: &str| {
            let info = ok(&["info", out(tag).to_str().unwrap()]);
            let line = info.lines().find(|l| l.starts_with("frame unit")).unwrap_or_default().to_string();
            line.split_whitespace().nth(2).unwrap_or_default().trim_end_matches(':').to_string()
        };
        let planar = size("planar", &["--frame-unit", "1"]);
        let mut args = vec!["--frame-unit", "2"];
        args.extend_from_slice(extra);
        let bands = size("bands", &args);
        if at_most <= 100 {
            assert!(bands * 100 <= planar * at_most, "{name}: {bands} bytes with {args:?} against {planar} planar");
        } else {
            assert!(bands > planar, "{name}: {bands} bytes with {args:?} against {planar} planar");
        }
        let default = size("default", &[]);
        assert_eq!(unit("default"), picked, "{name}: the frame unit convert picks");
        let want = if picked == "2" { size("cells", &["--frame-unit", "2"]) } else { planar };
        assert_eq!(default, want, "{name}: the default file is the picked unit's");
    }
}

#[test]
fn refuses_what_rumi_cannot_store_and_leaves_nothing() {
    let Some(data) = data_dir() else { return };
    let dir = tempdir();
    let out = dir.path().join("out.rumi");
    let cases: &[(&str, &[&str], &[&str])] = &[
        ("stars_olinda_dem_utm25s.tif", &[], &["has no EPSG code", "--no-georef"]),
        (
            "rioxarray_s1a_iw_slc_cint16.tif",
            &["--allow-nodata-loss"],
            &["complex integers (CInt16)", "210 ground control points"],
        ),
        ("gdal_byte.tif", &["--band-text", "a", "--band-text", "b"], &["--band-text was given 2 time(s)", "1 band(s)"]),
    ];
    for (name, extra, needles) in cases {
        let mut args: Vec<String> =
            vec!["convert".into(), data.join(name).display().to_string(), out.display().to_string()];
        args.extend(["--time".into(), "2020-01-01".into()]);
        args.extend(extra.iter().map(|s| s.to_string()));
        let err = fails(&args);
        for n in *needles {
            assert!(err.contains(n), "{name}: {n:?} not in {err}");
        }
        assert!(entries(dir.path()).is_empty(), "{name} left {:?}", entries(dir.path()));
    }
    // No time coordinate: never invented.
    let err = fails(&["convert", &data.join("gdal_byte.tif").display().to_string(), &out.display().to_string()]);
    assert!(err.contains("--time ISO or --interval START/END"), "{err}");
    // GCP-only and non-EPSG sources can be stored without georeferencing when asked.
    let src = data.join("stars_olinda_dem_utm25s.tif");
    ok(&[
        "convert",
        &src.display().to_string(),
        &out.display().to_string(),
        "--time",
        "2020-01-01",
        "--no-georef",
        "-q",
    ]);
    let r = Reader::open(fs::File::open(&out).unwrap(), Limits::default()).unwrap();
    assert_eq!(r.georef().unwrap(), Georef::Undefined { raster_type: RasterType::Area });
    assert_eq!(rumi_step(&r, 0), gdal_band_bytes(&Dataset::open(&src).unwrap(), 1));
}

#[test]
fn stacks_two_sar_dates_into_a_cube() {
    let Some(data) = data_dir() else { return };
    let dir = tempdir();
    let a = data.join("S1A__IW___A_20150309T173017_VV_grd_mli_geo_norm_db.tif");
    let b = data.join("S1A__IW___D_20170309T054356_VV_grd_mli_geo_norm_db.tif");
    let out = dir.path().join("s1.rumi");
    let (sa, sb, so) = (a.display().to_string(), b.display().to_string(), out.display().to_string());
    ok(&["stack", &sa, &sb, &so, "--times", "2015-03-09T17:30:17Z,2017-03-09T05:43:56Z", "--allow-nodata-loss", "-q"]);
    let r = Reader::open(fs::File::open(&out).unwrap(), Limits::default()).unwrap();
    let l = *r.layout();
    assert_eq!((l.times, l.bands, l.length, l.width, l.encoding), (2, 1, 217, 268, SampleEncoding::F32));
    assert_eq!(l.frame_unit.value(), 0, "default for B = 1, T = 2 is a frame a date");
    let t = &r.trailer().unwrap().time;
    assert_eq!(t.kind, TimeKind::Instant);
    assert_eq!((t.step_iso(0).as_str(), t.step_iso(1).as_str()), ("2015-03-09T17:30:17Z", "2017-03-09T05:43:56Z"));
    assert_same_as_source(&out, &a, 0);
    assert_same_as_source(&out, &b, 1);

    // Intervals, frame unit 2, and the stateless path through the sidecar.
    ok(&[
        "stack",
        &sa,
        &sb,
        &so,
        "--intervals",
        "2015-03-01/2015-04-01,2017-03-01/2017-04-01",
        "--allow-nodata-loss",
        "--frame-unit",
        "2",
        "-q",
    ]);
    let json = ok(&["info", &so, "--json", "--header", &format!("{so}.header")]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["kind"], "Cube");
    assert_eq!(v["frame_unit"]["layout"], "h w t");
    assert_eq!(v["time"]["steps"][1]["end"], "2017-04-01");

    // Grids that differ are refused, naming the difference; nothing is left behind.
    let other = data.join("gdal_byte.tif").display().to_string();
    let o2 = dir.path().join("bad.rumi");
    let err = fails(&[
        "stack",
        &sa,
        &other,
        &o2.display().to_string(),
        "--times",
        "2015-03-09,2017-03-09",
        "--allow-nodata-loss",
    ]);
    for n in ["differs from", "size 20 x 20 vs 268 x 217", "data type Byte vs Float32", "EPSG:26711", "geotransform"] {
        assert!(err.contains(n), "{n:?} not in {err}");
    }
    let err = fails(&["stack", &sa, &sb, &o2.display().to_string(), "--times", "2015-03-09", "--allow-nodata-loss"]);
    assert!(err.contains("--times has 1 value(s) but there are 2 source(s)"), "{err}");
    let err = fails(&[
        "stack",
        &sb,
        &sa,
        &o2.display().to_string(),
        "--times",
        "2017-03-09,2015-03-09",
        "--allow-nodata-loss",
    ]);
    assert!(err.contains("time"), "{err}");
    assert!(!o2.exists());
    // the sources' nodata (-99) is kept for GDAL readers in the PAM sidecar
    assert_eq!(entries(dir.path()), ["s1.rumi", "s1.rumi.aux.xml", "s1.rumi.header"]);
}

/// A small GeoTIFF written with GDAL: `bands` bands of `T`, a ramp, optional georeferencing.
fn synthetic<T: GdalType + Copy + From<u8>>(
    path: &Path,
    bands: usize,
    epsg: Option<u32>,
    md: &[(&str, &str)],
    options: &[&str],
) {
    let driver = DriverManager::get_driver_by_name("GTiff").unwrap();
    let opts: gdal::raster::RasterCreationOptions = options.iter().copied().collect();
    let mut ds = driver.create_with_band_type_with_options::<T, _>(path, 37, 23, bands, &opts).unwrap();
    if let Some(code) = epsg {
        ds.set_geo_transform(&[1000.0, 2.0, 0.0, 5000.0, 0.0, -2.0]).unwrap();
        ds.set_spatial_ref(&gdal::spatial_ref::SpatialRef::from_epsg(code).unwrap()).unwrap();
    }
    for (k, v) in md {
        ds.set_metadata_item(k, v, "").unwrap();
    }
    for b in 1..=bands {
        let data: Vec<T> = (0..37 * 23).map(|i| T::from(((i * 7 + b * 31) % 251) as u8)).collect();
        let mut buf = gdal::raster::Buffer::new((37, 23), data);
        ds.rasterband(b).unwrap().write((0, 0), (37, 23), &mut buf).unwrap();
    }
}

#[test]
fn synthetic_types_point_rasters_metadata_times() {
    let dir = tempdir();
    let p = |n: &str| dir.path().join(n);
    let s = |n: &str| p(n).display().to_string();

    // PixelIsPoint: the origin moves to the centre of pixel (0, 0), as GeoTIFF stores it.
    synthetic::<u16>(
        &p("point.tif"),
        2,
        Some(4326),
        &[("AREA_OR_POINT", "Point"), ("TIFFTAG_DATETIME", "2021:04:01 06:57:06")],
        &[],
    );
    let o = rumi(&["convert", &s("point.tif"), &s("point.rumi")]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("TIFFTAG_DATETIME"), "the metadata time is announced: {}", text(&o.stderr));
    let v: serde_json::Value = serde_json::from_str(&ok(&["info", &s("point.rumi"), "--json"])).unwrap();
    assert_eq!(v["georef"]["epsg"], 4326);
    assert_eq!(v["georef"]["model"], "geographic");
    assert_eq!(v["georef"]["raster_type"], "PixelIsPoint");
    assert_eq!(v["georef"]["affine"], serde_json::json!([2.0, 0.0, 1001.0, 0.0, -2.0, 4999.0]));
    assert_eq!(v["time"]["steps"][0], "2021-04-01T06:57:06Z");
    assert_eq!(v["band_texts"], serde_json::json!(["band 0", "band 1"]));
    assert_same_pixels(&p("point.rumi"), &p("point.tif"));

    // Sample types, signed bytes, no georeferencing at all.
    synthetic::<u8>(&p("i8.tif"), 1, None, &[], &["PIXELTYPE=SIGNEDBYTE"]);
    synthetic::<u32>(&p("u32.tif"), 1, Some(32631), &[], &[]);
    synthetic::<i32>(&p("i32.tif"), 3, Some(32631), &[], &[]);
    synthetic::<f64>(&p("f64.tif"), 1, Some(32631), &[], &[]);
    synthetic::<u64>(&p("u64.tif"), 1, Some(32631), &[], &[]);
    synthetic::<i64>(&p("i64.tif"), 1, Some(32631), &[], &[]);
    for (name, enc) in [
        ("i8", SampleEncoding::I8),
        ("u32", SampleEncoding::U32),
        ("i32", SampleEncoding::I32),
        ("f64", SampleEncoding::F64),
        ("u64", SampleEncoding::U64),
        ("i64", SampleEncoding::I64),
    ] {
        ok(&[
            "convert",
            &s(&format!("{name}.tif")),
            &s(&format!("{name}.rumi")),
            "--time",
            "2000-01-01",
            "-q",
            "--tile",
            "16",
        ]);
        let r = Reader::open(fs::File::open(p(&format!("{name}.rumi"))).unwrap(), Limits::default()).unwrap();
        assert_eq!(r.layout().encoding, enc, "{name}");
        assert_same_pixels(&p(&format!("{name}.rumi")), &p(&format!("{name}.tif")));
    }
    let r = Reader::open(fs::File::open(p("i8.rumi")).unwrap(), Limits::default()).unwrap();
    assert_eq!(r.georef().unwrap(), Georef::Undefined { raster_type: RasterType::Area });

    // Complex float: CFloat32 -> complex64 (written through a VRT of two real bands is not
    // possible, so use GDAL's own C API for a tiny complex GeoTIFF).
    write_cfloat32(&p("c64.tif"));
    ok(&["convert", &s("c64.tif"), &s("c64.rumi"), "--time", "2000-01-01", "-q"]);
    let r = Reader::open(fs::File::open(p("c64.rumi")).unwrap(), Limits::default()).unwrap();
    assert_eq!(r.layout().encoding, SampleEncoding::C64);
    let want: Vec<u8> =
        (0..6 * 5).flat_map(|i| [(i as f32).to_le_bytes(), (-(i as f32) / 2.0).to_le_bytes()].concat()).collect();
    assert_eq!(rumi_step(&r, 0), want);

    // A compound CRS (through a VRT) is refused with the reason.
    let vrt = format!(
        r#"<VRTDataset rasterXSize="37" rasterYSize="23"><SRS>EPSG:32631+5773</SRS><GeoTransform>0, 1, 0, 0, 0, -1</GeoTransform>
        <VRTRasterBand dataType="UInt32" band="1"><SimpleSource><SourceFilename relativeToVRT="0">{}</SourceFilename>
        <SourceBand>1</SourceBand></SimpleSource></VRTRasterBand></VRTDataset>"#,
        s("u32.tif")
    );
    fs::write(p("compound.vrt"), vrt).unwrap();
    let err = fails(&["convert", &s("compound.vrt"), &s("x.rumi"), "--time", "2000-01-01"]);
    assert!(err.contains("is a compound CRS"), "{err}");

    // Duplicate band descriptions are made unique by appending " (band N)".
    let ds = Dataset::open_ex(
        p("i32.tif"),
        gdal::DatasetOptions { open_flags: gdal::GdalOpenFlags::GDAL_OF_UPDATE, ..Default::default() },
    )
    .unwrap();
    for (b, d) in [(1, "VV"), (2, "VV"), (3, "")] {
        ds.rasterband(b).unwrap().set_description(d).unwrap();
    }
    drop(ds);
    let o = rumi(&["convert", &s("i32.tif"), &s("dup.rumi"), "--time", "2000-01-01"]);
    assert!(o.status.success(), "{}", text(&o.stderr));
    assert!(text(&o.stderr).contains("not unique"), "{}", text(&o.stderr));
    let v: serde_json::Value = serde_json::from_str(&ok(&["info", &s("dup.rumi"), "--json"])).unwrap();
    assert_eq!(v["band_texts"], serde_json::json!(["VV (band 0)", "VV (band 1)", "band 2"]));
    let err = fails(&[
        "convert",
        &s("i32.tif"),
        &s("dup.rumi"),
        "--time",
        "2000-01-01",
        "--band-text",
        "a",
        "--band-text",
        "b",
        "--band-text",
        "a",
    ]);
    assert!(err.contains("bands 0 and 2 have the same text \"a\""), "{err}");
}

fn assert_same_pixels(out: &Path, src: &Path) {
    let r = Reader::open(fs::File::open(out).unwrap(), Limits::default()).unwrap();
    let ds = Dataset::open(src).unwrap();
    let want: Vec<u8> = (1..=ds.raster_count()).flat_map(|b| gdal_band_bytes(&ds, b)).collect();
    assert!(rumi_step(&r, 0) == want, "{} differs from {}", out.display(), src.display());
}

fn write_cfloat32(path: &Path) {
    use std::ffi::CString;
    let name = CString::new("GTiff").unwrap();
    let file = CString::new(path.display().to_string()).unwrap();
    let data: Vec<f32> = (0..6 * 5).flat_map(|i| [i as f32, -(i as f32) / 2.0]).collect();
    // SAFETY: plain GDAL C calls on handles checked for null; the buffer holds 6 x 5 CFloat32.
    unsafe {
        let drv = gdal_sys::GDALGetDriverByName(name.as_ptr());
        assert!(!drv.is_null());
        let ds = gdal_sys::GDALCreate(
            drv,
            file.as_ptr(),
            6,
            5,
            1,
            gdal_sys::GDALDataType::GDT_CFloat32,
            std::ptr::null_mut(),
        );
        assert!(!ds.is_null());
        let band = gdal_sys::GDALGetRasterBand(ds, 1);
        let err = gdal_sys::GDALRasterIO(
            band,
            gdal_sys::GDALRWFlag::GF_Write,
            0,
            0,
            6,
            5,
            data.as_ptr() as *mut _,
            6,
            5,
            gdal_sys::GDALDataType::GDT_CFloat32,
            0,
            0,
        );
        assert_eq!(err, gdal_sys::CPLErr::CE_None);
        gdal_sys::GDALClose(ds);
    }
}

#[test]
fn header_validate_info_and_corruption() {
    let dir = tempdir();
    let p = |n: &str| dir.path().join(n);
    let s = |n: &str| p(n).display().to_string();
    synthetic::<u16>(&p("src.tif"), 3, Some(32633), &[], &[]);
    ok(&["convert", &s("src.tif"), &s("a.rumi"), "--interval", "2020-01-01/2021-01-01", "--tile", "16", "-q"]);

    // header: default path, -o, identical to the sidecar convert wrote.
    let sidecar = fs::read(p("a.rumi.header")).unwrap();
    fs::remove_file(p("a.rumi.header")).unwrap();
    ok(&["header", &s("a.rumi")]);
    assert_eq!(fs::read(p("a.rumi.header")).unwrap(), sidecar);
    ok(&["header", &s("a.rumi"), "-o", &s("b.header")]);
    assert_eq!(fs::read(p("b.header")).unwrap(), sidecar);

    // validate: one line, exit 0.
    let out = ok(&["validate", &s("a.rumi")]);
    assert_eq!(out.lines().count(), 1, "{out}");
    assert!(out.contains("compliant") && out.contains("T=1 B=3 Y=23 X=37 uint16"), "{out}");
    assert!(ok(&["validate", &s("a.rumi"), "--header", &s("b.header")]).contains("header blob matches"));

    // info: text and JSON.
    let t = ok(&["info", &s("a.rumi")]);
    for n in [
        "T=1 B=3 Y=23 X=37",
        "uint16",
        "16 x 16",
        "1: b h w",
        "EPSG:32633 (projected)",
        "2020-01-01 / 2021-01-01",
        "ratio",
    ] {
        assert!(t.contains(n), "{n:?} not in {t}");
    }
    let v: serde_json::Value = serde_json::from_str(&ok(&["info", &s("a.rumi"), "--json"])).unwrap();
    assert_eq!(v["shape"], serde_json::json!({"T": 1, "B": 3, "Y": 23, "X": 37}));
    assert_eq!(v["encoding"]["name"], "uint16");
    assert_eq!(v["tile"], serde_json::json!({"width": 16, "length": 16, "across": 3, "down": 2}));
    assert_eq!(v["frame_unit"]["value"], 1);
    assert_eq!(v["frames"], 6);
    assert_eq!(v["base_frame_offset"], 292 + 160 + 6 * 8 + 6 * 4);
    assert_eq!(v["georef"]["geotransform"], serde_json::json!([1000.0, 2.0, 0.0, 5000.0, 0.0, -2.0]));
    assert_eq!(v["time"]["kind"], "interval");
    assert_eq!(v["time"]["steps"][0], serde_json::json!({"start": "2020-01-01", "end": "2021-01-01"}));
    assert_eq!(v["decoded_bytes"], 3 * 23 * 37 * 2);
    assert!(v["compressed_bytes"].as_u64().unwrap() > 0 && v["ratio"].as_f64().unwrap() > 0.0);
    let stateless: serde_json::Value =
        serde_json::from_str(&ok(&["info", &s("a.rumi"), "--json", "--header", &s("b.header")])).unwrap();
    assert_eq!(stateless["shape"], v["shape"]);
    assert_eq!(stateless["band_texts"], v["band_texts"]);

    // Corruptions: a frame byte, a truncated file, a blob of another file.
    let good = fs::read(p("a.rumi")).unwrap();
    let base = v["base_frame_offset"].as_u64().unwrap() as usize;
    let mut bad = good.clone();
    for b in &mut bad[base + 4..base + 40] {
        *b ^= 0x5a;
    }
    fs::write(p("frame.rumi"), &bad).unwrap();
    let err = fails(&["validate", &s("frame.rumi")]);
    assert!(err.contains("not rumi 0.1.0 compliant") && err.contains("frame 0"), "{err}");
    fs::write(p("short.rumi"), &good[..good.len() - 3]).unwrap();
    fails(&["validate", &s("short.rumi")]);
    fails(&["info", &s("short.rumi")]);
    let err = fails(&["header", &s("short.rumi")]);
    assert!(err.contains("not a valid rumi file"), "{err}");
    assert!(!p("short.rumi.header").exists());
    let mut magic = good.clone();
    magic[0] = b'X';
    fs::write(p("magic.rumi"), &magic).unwrap();
    assert!(fails(&["validate", &s("magic.rumi")]).contains("magic"));
    ok(&["convert", &s("src.tif"), &s("c.rumi"), "--time", "2020-01-01", "--tile", "32", "-q"]);
    let err = fails(&["validate", &s("a.rumi"), "--header", &s("c.rumi.header")]);
    assert!(err.contains("header blob"), "{err}");
    fails(&["validate", &s("missing.rumi")]);

    // Usage errors exit with 2.
    assert_eq!(rumi(&["convert"]).status.code(), Some(2));
    assert_eq!(rumi(&["convert", "a", "b", "--graph", "best", "--level", "3"]).status.code(), Some(2));
    assert_eq!(rumi(&["stack", "a", "b"]).status.code(), Some(2));
    assert_eq!(rumi(&["convert", "a", "b", "--tile", "0"]).status.code(), Some(2));
}

#[test]
fn failed_conversions_are_atomic() {
    let dir = tempdir();
    let p = |n: &str| dir.path().join(n);
    let s = |n: &str| p(n).display().to_string();
    synthetic::<u8>(&p("src.tif"), 1, Some(32631), &[], &[]);
    // A VRT whose second source is missing opens fine but fails while tile rows are read,
    // after the temporary output exists.
    let vrt = format!(
        r#"<VRTDataset rasterXSize="37" rasterYSize="600">
        <VRTRasterBand dataType="Byte" band="1">
          <SimpleSource><SourceFilename relativeToVRT="0">{}</SourceFilename><SourceBand>1</SourceBand>
            <SrcRect xOff="0" yOff="0" xSize="37" ySize="23"/><DstRect xOff="0" yOff="0" xSize="37" ySize="23"/></SimpleSource>
          <SimpleSource><SourceFilename relativeToVRT="1">does-not-exist.tif</SourceFilename><SourceBand>1</SourceBand>
            <SrcRect xOff="0" yOff="0" xSize="37" ySize="23"/><DstRect xOff="0" yOff="500" xSize="37" ySize="23"/></SimpleSource>
        </VRTRasterBand></VRTDataset>"#,
        s("src.tif")
    );
    fs::write(p("broken.vrt"), vrt).unwrap();
    let before = entries(dir.path());
    let err = fails(&["convert", &s("broken.vrt"), &s("out.rumi"), "--time", "2020-01-01", "--tile", "64"]);
    assert!(err.contains("does-not-exist.tif"), "{err}");
    assert_eq!(entries(dir.path()), before, "a failed conversion left files behind");

    // An existing output survives a failed conversion untouched, and its sidecar too.
    ok(&["convert", &s("src.tif"), &s("out.rumi"), "--time", "2020-01-01", "-q"]);
    let (file, blob) = (fs::read(p("out.rumi")).unwrap(), fs::read(p("out.rumi.header")).unwrap());
    fails(&["convert", &s("broken.vrt"), &s("out.rumi"), "--time", "2020-01-01"]);
    assert_eq!(fs::read(p("out.rumi")).unwrap(), file);
    assert_eq!(fs::read(p("out.rumi.header")).unwrap(), blob);
    // --no-header removes a sidecar that would describe the previous file.
    ok(&["convert", &s("src.tif"), &s("out.rumi"), "--time", "2020-01-02", "--no-header", "-q"]);
    assert!(!p("out.rumi.header").exists());
    // An output folder that does not exist is a clear error.
    let err = fails(&["convert", &s("src.tif"), &s("nowhere/out.rumi"), "--time", "2020-01-01"]);
    assert!(err.contains("cannot create a temporary file beside"), "{err}");
}

/// Outputs get the mode `File::create` gives (not the 0600 of the temporary file they are
/// written to), and a replaced output keeps its mode.
#[test]
fn outputs_get_the_mode_a_plain_create_gives() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempdir();
    let p = |n: &str| dir.path().join(n);
    let s = |n: &str| p(n).display().to_string();
    let mode = |n: &str| fs::metadata(p(n)).unwrap().permissions().mode() & 0o7777;
    fs::File::create(p("reference")).unwrap();
    synthetic::<u16>(&p("src.tif"), 1, Some(32633), &[], &[]);
    ok(&["convert", &s("src.tif"), &s("a.rumi"), "--time", "2020-01-01", "-q"]);
    assert_eq!(mode("a.rumi"), mode("reference"));
    assert_eq!(mode("a.rumi.header"), mode("reference"));
    ok(&["header", &s("a.rumi"), "-o", &s("b.header")]);
    assert_eq!(mode("b.header"), mode("reference"));
    fs::set_permissions(p("a.rumi"), fs::Permissions::from_mode(0o640)).unwrap();
    ok(&["convert", &s("src.tif"), &s("a.rumi"), "--time", "2020-01-02", "-q"]);
    assert_eq!(mode("a.rumi"), 0o640, "a replaced output keeps its mode");
}
