//! One test per validation rule, one module per section of the specification: start from a valid file written by our writer, break exactly one
//! rule (by patching bytes, or by hand-building a trailer or blob), and assert the specific error.

#[path = "../common/mod.rs"]
mod common;

use common::*;
use rumi::format::ifd::TAGS;
use rumi::format::{Blob, Georef, Layout, RasterType, SampleEncoding};
use rumi::limits::Measure;
use rumi::Reader;
use rumi::{build_header, validate};
use rumi::{Error, Limits};

// ---- allocation tracking: proves that limits fail before allocating ------------------------------

#[path = "../common/alloc.rs"]
mod alloc;
use alloc::largest_allocation;

// ---- fixtures and byte patching ---------------------------------------------------------------

macro_rules! assert_err {
    ($result:expr, $pattern:pat $(if $guard:expr)?) => {{
        match $result {
            Err(e) => assert!(matches!(e, $pattern $(if $guard)?), "unexpected error: {e:?}\n  ({e})"),
            Ok(_) => panic!("expected an error matching {}", stringify!($pattern)),
        }
    }};
}

/// A Cube: uint16, 37 x 29, B = 3, T = 2, tiles 16 x 8, frame_unit 0, N = 72, projected CRS.
/// BitsPerSample/SampleFormat inline (B <= 4); TileOffsets/TileByteCounts external (N >= 3).
pub(crate) fn cube() -> (Vec<u8>, Vec<u8>) {
    fixture(SampleEncoding::U16, 37, 29, 3, 2, (16, 8), 0, utm())
}

#[allow(clippy::too_many_arguments)]
pub(crate) fn fixture(
    enc: SampleEncoding,
    x: u32,
    y: u32,
    b: u16,
    t: u32,
    tile: (u16, u16),
    unit: u16,
    georef: Georef,
) -> (Vec<u8>, Vec<u8>) {
    let n = (x * y) as usize * usize::from(b) * t as usize;
    write(spec(enc, x, y, b, t, tile, unit, georef), &samples(enc, n, 7))
}

/// An Image with one frame: uint8, 10 x 6, one tile, B = 1, T = 1 (every IFD value inline
/// except the georeferencing).
pub(crate) fn single() -> Vec<u8> {
    fixture(SampleEncoding::U8, 10, 6, 1, 1, (16, 16), 0, utm()).0
}

pub(crate) fn check(file: &[u8]) -> rumi::Result<rumi::Report> {
    validate(file, None, Limits::default())
}

/// File offset of IFD entry `i`.
pub(crate) fn entry(i: usize) -> usize {
    24 + 20 * i
}
/// File offset of the value field of IFD entry `i`.
pub(crate) fn value(i: usize) -> usize {
    entry(i) + 12
}
pub(crate) fn get_u64(f: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(f[at..at + 8].try_into().unwrap())
}
pub(crate) fn put_u16(f: &mut [u8], at: usize, v: u16) {
    f[at..at + 2].copy_from_slice(&v.to_le_bytes());
}
pub(crate) fn put_u32(f: &mut [u8], at: usize, v: u32) {
    f[at..at + 4].copy_from_slice(&v.to_le_bytes());
}
pub(crate) fn put_u64(f: &mut [u8], at: usize, v: u64) {
    f[at..at + 8].copy_from_slice(&v.to_le_bytes());
}
pub(crate) fn put_f64(f: &mut [u8], at: usize, v: f64) {
    f[at..at + 8].copy_from_slice(&v.to_le_bytes());
}
/// Offset of the external value of entry `i`.
pub(crate) fn external(f: &[u8], i: usize) -> usize {
    get_u64(f, value(i)) as usize
}
/// `base_frame_offset`, i.e. `TileOffsets[0]`, for a file with N >= 2.
pub(crate) fn base(f: &[u8]) -> usize {
    get_u64(f, external(f, 6)) as usize
}
/// Start of the 160-byte georeferencing block.
pub(crate) fn georef_at(f: &[u8]) -> usize {
    external(f, 9)
}
/// Offset of GeoKeyDirectoryTag short `k` (0..16).
pub(crate) fn geokey(f: &[u8], k: usize) -> usize {
    external(f, 10) + 2 * k
}
pub(crate) fn trailer_offset(f: &[u8]) -> usize {
    Reader::open(f, Limits::default()).unwrap().trailer_offset() as usize
}
/// Sets every SHORT of entry `i` (inline, B <= 4 values) to `v`.
pub(crate) fn put_shorts_inline(f: &mut [u8], i: usize, count: usize, v: u16) {
    for k in 0..count {
        put_u16(f, value(i) + 2 * k, v);
    }
}

// ---- trailer bytes built by hand ---------------------------------------------------------------

/// Packs values LSB-first at `bits` bits each (an independent implementation of the spec's
/// bit packing, so the tests do not only check the crate against itself).
pub(crate) fn pack_bits(values: &[u64], bits: u32) -> Vec<u8> {
    let mut out = vec![0u8; (values.len() * bits as usize).div_ceil(8)];
    for (i, &v) in values.iter().enumerate() {
        for j in 0..bits as usize {
            if (v >> j) & 1 == 1 {
                let p = i * bits as usize + j;
                out[p / 8] |= 1 << (p % 8);
            }
        }
    }
    out
}

/// The 22 time fields followed by the packed residuals, exactly as given.
pub(crate) fn raw_time(time_type: u8, bits: u8, epoch: i64, step: i64, scale: u32, region: &[u8]) -> Vec<u8> {
    let mut out = vec![time_type, bits];
    out.extend_from_slice(&epoch.to_le_bytes());
    out.extend_from_slice(&step.to_le_bytes());
    out.extend_from_slice(&scale.to_le_bytes());
    out.extend_from_slice(region);
    out
}

/// The time fields encoded as the spec says (epoch, rounded step, minimal bits).
pub(crate) fn encode_time(time_type: u8, coords: &[i64], scale: u32) -> Vec<u8> {
    let c = coords.len();
    let epoch = coords[0];
    let step = if c < 2 {
        0
    } else {
        let (d, n) = (i128::from(coords[c - 1]) - i128::from(epoch), (c - 1) as i128);
        let (q, r) = (d.div_euclid(n), d.rem_euclid(n));
        (if 2 * r >= n { q + 1 } else { q }) as i64
    };
    let packed: Vec<u64> = coords
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            let r = (i128::from(v) - i128::from(epoch) - i as i128 * i128::from(step)) as i64;
            ((r << 1) ^ (r >> 63)) as u64
        })
        .collect();
    let bits = 64 - packed.iter().max().unwrap().leading_zeros();
    raw_time(time_type, bits as u8, epoch, step, scale, &pack_bits(&packed, bits))
}

pub(crate) fn trailer(texts: &[&[u8]], time: &[u8]) -> Vec<u8> {
    let mut out = b"TAIL".to_vec();
    out.extend_from_slice(&1u16.to_le_bytes());
    for t in texts {
        out.extend_from_slice(&(t.len() as u16).to_le_bytes());
        out.extend_from_slice(t);
    }
    out.extend_from_slice(time);
    out
}

const TEXTS: [&[u8]; 3] = [b"band 0", b"band 1", b"band 2"];

/// The cube with its trailer replaced by `new`.
pub(crate) fn with_trailer(new: &[u8]) -> Vec<u8> {
    let (f, _) = cube();
    let mut out = f[..trailer_offset(&f)].to_vec();
    out.extend_from_slice(new);
    out
}

/// The cube with the trailer built from `TEXTS` and time fields `time`.
pub(crate) fn with_time(time: &[u8]) -> Vec<u8> {
    with_trailer(&trailer(&TEXTS, time))
}

// ---- header blob bytes built by hand -----------------------------------------------------------

/// A blob for a uint8 Image 2 x 1 with tiles 1 x 1 (N = 2), with the given count fields.
pub(crate) fn tiny_blob(count_min: u32, count_bits: u8, region: &[u8]) -> Vec<u8> {
    let mut b = b"LOVE".to_vec();
    b.extend_from_slice(&1u16.to_le_bytes());
    b.extend_from_slice(&2u32.to_le_bytes()); // image_width
    b.extend_from_slice(&1u32.to_le_bytes()); // image_length
    b.extend_from_slice(&1u32.to_le_bytes()); // time_count
    b.extend_from_slice(&1u16.to_le_bytes()); // tile_width
    b.extend_from_slice(&1u16.to_le_bytes()); // tile_length
    b.extend_from_slice(&1u16.to_le_bytes()); // samples_per_pixel
    b.extend_from_slice(&[8, 1, 0]); // bits_per_sample, sample_format, frame_unit
    b.extend_from_slice(&count_min.to_le_bytes());
    b.push(count_bits);
    b.extend_from_slice(region);
    b
}

pub(crate) fn parse_blob(b: &[u8]) -> rumi::Result<Blob> {
    Blob::parse(b, &Limits::default())
}

// ==== the fixtures are valid ====================================================================

#[test]
pub(crate) fn fixtures_validate_and_build_the_writers_blob() {
    let (f, blob) = cube();
    let r = validate(f.as_slice(), Some(&blob), Limits::default()).unwrap();
    assert_eq!(r.frames, 72);
    assert_eq!(r.decoded_bytes, 37 * 29 * 3 * 2 * 2);
    assert_eq!(r.file_bytes, f.len() as u64);
    assert_eq!(r.base_frame_offset, 292 + 8 * 72 + 4 * 72 + 160);
    assert_eq!(r.base_frame_offset + r.compressed_bytes + r.trailer_bytes, r.file_bytes);
    assert_eq!(r.trailer_offset as usize, trailer_offset(&f));
    assert_eq!(r.trailer.band_texts, texts(3));
    assert!(r.blob_checked);
    assert_eq!(build_header(f.as_slice(), Limits::default()).unwrap(), blob);
    let s = single();
    check(&s).unwrap();
    // the hand-built trailer helpers reproduce the writer's trailer byte for byte
    let coords: Vec<i64> = instants(2).coords;
    assert_eq!(with_time(&encode_time(2, &coords, 1)), f);
}

mod file_header;
mod fixed_ifd;
mod frames;
mod georeferencing;
mod header_blob;
mod resource_limits;
mod trailer;
