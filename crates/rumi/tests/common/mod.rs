//! Fixtures built with our own writer.
#![allow(dead_code)]

use std::io::Cursor;

use rumi::codec::{AlignedBuf, Graph};
use rumi::format::{Georef, ModelType, RasterType, SampleEncoding, TimeAxis, TimeKind, Trailer};
use rumi::RangeRead;
use rumi::Reader;
use rumi::{write_array, ImageSpec};

/// Deterministic pseudo-random samples valid for `enc` (0/1 for booleans).
pub fn samples(enc: SampleEncoding, n: usize, seed: u64) -> Vec<u8> {
    let bps = enc.decoded_bytes();
    let mut x = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    let mut out = Vec::with_capacity(n * bps);
    for i in 0..n {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        if enc == SampleEncoding::Bool {
            out.push(((x >> 33) & 1) as u8);
        } else {
            // smooth-ish ramp plus noise so compressors have something to do
            let v = (i as u64 / 3).wrapping_add(x >> 58);
            for k in 0..bps {
                out.push((v >> (8 * (k % 8))) as u8 ^ if k >= 8 { 0x5a } else { 0 });
            }
        }
    }
    out
}

pub fn texts(b: u16) -> Vec<String> {
    (0..b).map(|i| format!("band {i}")).collect()
}

pub fn instants(t: u32) -> TimeAxis {
    TimeAxis::from_seconds(
        TimeKind::Instant,
        (0..t as i64).map(|i| 1_600_000_000 + i * 86_400 * 5 + (i % 3) * 7).collect(),
        t,
    )
    .unwrap()
}

pub fn utm() -> Georef {
    Georef::Epsg {
        model: ModelType::Projected,
        raster_type: RasterType::Area,
        epsg: 32631,
        affine: [20.0, 0.0, 500000.0, 0.0, -20.0, 4_000_000.0],
    }
}

#[allow(clippy::too_many_arguments)]
pub fn spec(
    enc: SampleEncoding,
    width: u32,
    length: u32,
    bands: u16,
    times: u32,
    tile: (u16, u16),
    unit: u16,
    georef: Georef,
) -> ImageSpec {
    ImageSpec {
        width,
        length,
        times,
        bands,
        encoding: enc,
        tile_width: tile.0,
        tile_length: tile.1,
        frame_unit: unit,
        georef,
        trailer: Trailer { band_texts: texts(bands), time: instants(times) },
    }
}

/// Writes `data` with `spec`; returns the file bytes and the blob bytes.
pub fn write(spec: ImageSpec, data: &[u8]) -> (Vec<u8>, Vec<u8>) {
    let (cur, blob) = write_array(Cursor::new(Vec::new()), spec, Graph::Numeric(6), data).unwrap();
    (cur.into_inner(), blob.to_bytes().unwrap())
}

/// Frame `index` of `r`, fetched and decoded on its own (size and boolean checks included).
pub fn decoded_frame<R: RangeRead>(r: &Reader<R>, index: u64) -> rumi::Result<AlignedBuf> {
    let mut out = AlignedBuf::default();
    r.decode_frame_into(index, &r.read_frame_bytes(index)?, &mut out)?;
    Ok(out)
}
