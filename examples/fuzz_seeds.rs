//! Writes the seed corpora of the fuzz targets (`fuzz/`) from small valid files made by our
//! writer: one file per sample encoding and one per frame unit, plus interval and undefined
//! georeferencing variants. Seeds are generated, never committed (`scripts/fuzz.sh` runs this).
//!
//! ```text
//! fuzz_seeds OUT_DIR        # writes OUT_DIR/<target>/<name> for every fuzz target
//! ```
//!
//! Input formats, as the targets read them:
//! - `ifd`: a whole file (the target parses the first 292 bytes, then the external values).
//! - `trailer`: `B` (u16 LE), `T` (u32 LE), then the trailer bytes.
//! - `blob`: a header blob.
//! - `read_file`: a whole file.
//! - `capi`, `gdal`: a mode byte (bit 0: with a blob, then split as for `read_blob`), then the
//!   file; `gdal` reads more bits of it (fuzz/src/gdal.rs).
//! - `read_blob`: the blob length (u16 LE), the blob, then the file.

use std::io::Cursor;
use std::path::Path;
use std::process::ExitCode;

use rumi::codec::Graph;
use rumi::format::{FrameUnit, Georef, ModelType, RasterType, SampleEncoding, TimeAxis, TimeKind, Trailer};
use rumi::Limits;
use rumi::Reader;
use rumi::{write_array, ImageSpec};

/// Deterministic samples valid for `enc` (0/1 for booleans): a ramp with a little noise.
fn samples(enc: SampleEncoding, n: usize) -> Vec<u8> {
    let bps = enc.decoded_bytes();
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let mut out = Vec::with_capacity(n * bps);
    for i in 0..n {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        if enc == SampleEncoding::Bool {
            out.push((x & 1) as u8);
        } else {
            let v = (i as u64 / 2).wrapping_add(x >> 61);
            out.extend((0..bps).map(|k| (v >> (8 * (k % 8))) as u8));
        }
    }
    out
}

struct Case {
    name: String,
    enc: SampleEncoding,
    shape: (u32, u32, u16, u32),
    tile: (u16, u16),
    unit: u16,
    interval: bool,
    georef: Georef,
}

fn file(case: &Case) -> Result<(Vec<u8>, Vec<u8>), String> {
    let (x, y, b, t) = case.shape;
    let seconds: Vec<i64> = if case.interval {
        (0..i64::from(t)).flat_map(|i| [i * 86400 * 16, i * 86400 * 16 + 86400]).collect()
    } else {
        (0..i64::from(t)).map(|i| 1_600_000_000 + i * 432_007).collect()
    };
    let kind = if case.interval { TimeKind::Interval } else { TimeKind::Instant };
    let time = TimeAxis::from_seconds(kind, seconds, t).map_err(|e| e.to_string())?;
    let spec = ImageSpec {
        width: x,
        length: y,
        times: t,
        bands: b,
        encoding: case.enc,
        tile_width: case.tile.0,
        tile_length: case.tile.1,
        frame_unit: case.unit,
        georef: case.georef,
        trailer: Trailer { band_texts: (0..b).map(|i| format!("B{i}")).collect(), time },
    };
    let n = x as usize * y as usize * usize::from(b) * t as usize;
    let (cur, blob) = write_array(Cursor::new(Vec::new()), spec, Graph::Numeric(6), &samples(case.enc, n))
        .map_err(|e| format!("{}: {e}", case.name))?;
    Ok((cur.into_inner(), blob.to_bytes().map_err(|e| e.to_string())?))
}

fn cases() -> Vec<Case> {
    let utm = Georef::Epsg {
        model: ModelType::Projected,
        raster_type: RasterType::Area,
        epsg: 32631,
        affine: [20.0, 0.0, 500000.0, 0.0, -20.0, 4_000_000.0],
    };
    let mut out = Vec::new();
    // every encoding: a 2-band Image of 2x2 tiles (one edge tile column and row)
    for enc in SampleEncoding::ALL {
        out.push(Case {
            name: format!("enc_{}", enc.name()),
            enc,
            shape: (11, 7, 2, 1),
            tile: (8, 4),
            unit: 0,
            interval: false,
            georef: utm,
        });
    }
    // every frame unit valid for B = 1 / T = 3, B = 3 / T = 1 and B = 2 / T = 3
    for (b, t) in [(1u16, 3u32), (3, 1), (2, 3)] {
        for unit in FrameUnit::valid_for(u32::from(b), t) {
            out.push(Case {
                name: format!("unit{}_b{b}_t{t}", unit.value()),
                enc: SampleEncoding::U16,
                shape: (9, 6, b, t),
                tile: (4, 4),
                unit: u16::from(unit.value()),
                interval: t == 3 && b == 2,
                georef: Georef::Undefined { raster_type: RasterType::Point },
            });
        }
    }
    // one frame (every IFD value inline but the georeferencing), five bands (external sample tags)
    out.push(Case {
        name: "single_frame".into(),
        enc: SampleEncoding::U8,
        shape: (5, 3, 1, 1),
        tile: (16, 16),
        unit: 0,
        interval: true,
        georef: utm,
    });
    out.push(Case {
        name: "five_bands".into(),
        enc: SampleEncoding::I32,
        shape: (6, 5, 5, 1),
        tile: (4, 4),
        unit: 1,
        interval: false,
        georef: Georef::Epsg {
            model: ModelType::Geographic,
            raster_type: RasterType::Area,
            epsg: 4326,
            affine: [0.1, 0.0, -10.0, 0.0, -0.1, 50.0],
        },
    });
    out
}

fn write(dir: &Path, target: &str, name: &str, bytes: &[u8]) -> Result<(), String> {
    let d = dir.join(target);
    std::fs::create_dir_all(&d).map_err(|e| format!("{}: {e}", d.display()))?;
    std::fs::write(d.join(name), bytes).map_err(|e| format!("{}: {e}", d.display()))
}

fn run(dir: &Path) -> Result<usize, String> {
    let cases = cases();
    for case in &cases {
        let (f, blob) = file(case)?;
        let reader = Reader::open(f.as_slice(), Limits::default()).map_err(|e| format!("{}: {e}", case.name))?;
        let l = reader.layout();
        let t_off = reader.trailer_offset() as usize;
        let mut trailer = l.bands.to_le_bytes().to_vec();
        trailer.extend_from_slice(&l.times.to_le_bytes());
        trailer.extend_from_slice(&f[t_off..]);
        let blob_len = u16::try_from(blob.len()).map_err(|_| format!("{}: blob too large", case.name))?;
        let split = [&blob_len.to_le_bytes()[..], &blob, &f].concat();
        write(dir, "ifd", &case.name, &f)?;
        write(dir, "trailer", &case.name, &trailer)?;
        write(dir, "blob", &case.name, &blob)?;
        write(dir, "read_file", &case.name, &f)?;
        write(dir, "read_blob", &case.name, &split)?;
        // capi: first byte selects the mode (even: validated open, odd: stateless)
        write(dir, "capi", &format!("{}_file", case.name), &[&[0u8][..], &f].concat())?;
        write(dir, "capi", &format!("{}_blob", case.name), &[&[1u8][..], &split].concat())?;
        // gdal: the same two forms, plus the multidimensional API and the forced read paths
        write(dir, "gdal", &format!("{}_file", case.name), &[&[0u8][..], &f].concat())?;
        write(dir, "gdal", &format!("{}_blob_md", case.name), &[&[0b0000_0111u8][..], &split].concat())?;
        write(dir, "gdal", &format!("{}_blob_direct", case.name), &[&[0b0010_1001u8][..], &split].concat())?;
        write(dir, "gdal", &format!("{}_blob_cache", case.name), &[&[0b0001_0001u8][..], &split].concat())?;
    }
    Ok(cases.len())
}

fn main() -> ExitCode {
    let Some(dir) = std::env::args().nth(1) else {
        eprintln!("usage: fuzz_seeds OUT_DIR");
        return ExitCode::FAILURE;
    };
    match run(Path::new(&dir)) {
        Ok(n) => {
            println!("fuzz_seeds: {n} valid files written as seeds of the 7 fuzz targets under {dir}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("fuzz_seeds: {e}");
            ExitCode::FAILURE
        }
    }
}
