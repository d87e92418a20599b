//! Writes a rumi file (and optionally its header blob) from a JSON description and raw samples:
//! the fixture builder of the GDAL autotest suite (tests/gdal_autotest/conftest.py).
//!
//! ```text
//! make_fixture SPEC.json SAMPLES.raw OUT.rumi [OUT.header]
//! ```
//!
//! `SAMPLES.raw` holds every sample as `[t][b][y][x]`, little-endian (`decoded_bytes` each).
//! `SPEC.json`:
//! ```json
//! {"width": 37, "length": 29, "bands": 2, "times": 3, "encoding": "uint16",
//!  "tile": [16, 8], "frame_unit": 4,
//!  "georef": {"epsg": 32631, "model": "projected", "raster_type": "area",
//!             "affine": [20, 0, 500000, 0, -20, 4000000]},
//!  "band_texts": ["B4, Red", "B8, NIR"],
//!  "time": {"kind": "instant", "seconds": [1600000000, 1600432000, 1600864000]}}
//! ```
//! `georef` may be `{"raster_type": "area"}` (or `"point"`) for undefined georeferencing;
//! `time.kind` is `instant` (T seconds) or `interval` (2T seconds, start and end of each step).

use std::process::ExitCode;

use rumi::codec::Graph;
use rumi::format::{Georef, ModelType, RasterType, SampleEncoding, TimeAxis, TimeKind, Trailer};
use rumi::{write_array, ImageSpec};

#[derive(serde::Deserialize)]
struct GeorefSpec {
    epsg: Option<u16>,
    model: Option<String>,
    raster_type: Option<String>,
    affine: Option<[f64; 6]>,
}

#[derive(serde::Deserialize)]
struct TimeSpec {
    kind: String,
    seconds: Vec<i64>,
}

#[derive(serde::Deserialize)]
struct Spec {
    width: u32,
    length: u32,
    bands: u16,
    times: u32,
    encoding: String,
    tile: [u16; 2],
    frame_unit: u16,
    georef: GeorefSpec,
    band_texts: Vec<String>,
    time: TimeSpec,
}

fn georef(g: &GeorefSpec) -> Result<Georef, String> {
    let raster_type = match g.raster_type.as_deref().unwrap_or("area") {
        "area" => RasterType::Area,
        "point" => RasterType::Point,
        other => return Err(format!("raster_type {other:?}: expected area or point")),
    };
    let Some(epsg) = g.epsg else { return Ok(Georef::Undefined { raster_type }) };
    let model = match g.model.as_deref().unwrap_or("projected") {
        "projected" => ModelType::Projected,
        "geographic" => ModelType::Geographic,
        other => return Err(format!("model {other:?}: expected projected or geographic")),
    };
    let affine = g.affine.ok_or("georef with an epsg code needs affine")?;
    Ok(Georef::Epsg { model, raster_type, epsg, affine })
}

fn run(args: &[String]) -> Result<(), String> {
    let [spec_path, data_path, out_path, rest @ ..] = args else {
        return Err("usage: make_fixture SPEC.json SAMPLES.raw OUT.rumi [OUT.header]".into());
    };
    let text = std::fs::read_to_string(spec_path).map_err(|e| format!("{spec_path}: {e}"))?;
    let spec: Spec = serde_json::from_str(&text).map_err(|e| format!("{spec_path}: {e}"))?;
    let encoding =
        SampleEncoding::from_name(&spec.encoding).ok_or_else(|| format!("unknown encoding {:?}", spec.encoding))?;
    let kind = match spec.time.kind.as_str() {
        "instant" => TimeKind::Instant,
        "interval" => TimeKind::Interval,
        other => return Err(format!("time kind {other:?}: expected instant or interval")),
    };
    let time = TimeAxis::from_seconds(kind, spec.time.seconds, spec.times).map_err(|e| e.to_string())?;
    let image = ImageSpec {
        width: spec.width,
        length: spec.length,
        times: spec.times,
        bands: spec.bands,
        encoding,
        tile_width: spec.tile[0],
        tile_length: spec.tile[1],
        frame_unit: spec.frame_unit,
        georef: georef(&spec.georef)?,
        trailer: Trailer { band_texts: spec.band_texts, time },
    };
    let data = std::fs::read(data_path).map_err(|e| format!("{data_path}: {e}"))?;
    let file = std::fs::File::create(out_path).map_err(|e| format!("{out_path}: {e}"))?;
    let (_, blob) = write_array(file, image, Graph::default(), &data).map_err(|e| e.to_string())?;
    if let Some(header_path) = rest.first() {
        let bytes = blob.to_bytes().map_err(|e| e.to_string())?;
        std::fs::write(header_path, bytes).map_err(|e| format!("{header_path}: {e}"))?;
    }
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("make_fixture: {e}");
            ExitCode::FAILURE
        }
    }
}
