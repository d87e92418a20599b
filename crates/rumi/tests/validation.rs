//! One test per validation rule: start from a valid file written by our writer, break exactly one
//! rule (by patching bytes, or by hand-building a trailer or blob), and assert the specific error.

mod common;

use common::*;
use rumi::format::ifd::TAGS;
use rumi::format::{Blob, Georef, Layout, RasterType, SampleEncoding};
use rumi::reader::Reader;
use rumi::validate::{build_header, validate};
use rumi::{Error, Limits};

// ---- allocation tracking: proves that limits fail before allocating ------------------------------

#[path = "common/alloc.rs"]
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
fn cube() -> (Vec<u8>, Vec<u8>) {
    fixture(SampleEncoding::U16, 37, 29, 3, 2, (16, 8), 0, utm())
}

#[allow(clippy::too_many_arguments)]
fn fixture(
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
fn single() -> Vec<u8> {
    fixture(SampleEncoding::U8, 10, 6, 1, 1, (16, 16), 0, utm()).0
}

fn check(file: &[u8]) -> rumi::Result<rumi::validate::Report> {
    validate(file, None, Limits::default())
}

/// File offset of IFD entry `i`.
fn entry(i: usize) -> usize {
    24 + 20 * i
}
/// File offset of the value field of IFD entry `i`.
fn value(i: usize) -> usize {
    entry(i) + 12
}
fn get_u64(f: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(f[at..at + 8].try_into().unwrap())
}
fn put_u16(f: &mut [u8], at: usize, v: u16) {
    f[at..at + 2].copy_from_slice(&v.to_le_bytes());
}
fn put_u32(f: &mut [u8], at: usize, v: u32) {
    f[at..at + 4].copy_from_slice(&v.to_le_bytes());
}
fn put_u64(f: &mut [u8], at: usize, v: u64) {
    f[at..at + 8].copy_from_slice(&v.to_le_bytes());
}
fn put_f64(f: &mut [u8], at: usize, v: f64) {
    f[at..at + 8].copy_from_slice(&v.to_le_bytes());
}
/// Offset of the external value of entry `i`.
fn external(f: &[u8], i: usize) -> usize {
    get_u64(f, value(i)) as usize
}
/// `base_frame_offset`, i.e. `TileOffsets[0]`, for a file with N >= 2.
fn base(f: &[u8]) -> usize {
    get_u64(f, external(f, 6)) as usize
}
/// Start of the 160-byte georeferencing block.
fn georef_at(f: &[u8]) -> usize {
    external(f, 9)
}
/// Offset of GeoKeyDirectoryTag short `k` (0..16).
fn geokey(f: &[u8], k: usize) -> usize {
    external(f, 10) + 2 * k
}
fn trailer_offset(f: &[u8]) -> usize {
    Reader::open(f, Limits::default()).unwrap().trailer_offset() as usize
}
/// Sets every SHORT of entry `i` (inline, B <= 4 values) to `v`.
fn put_shorts_inline(f: &mut [u8], i: usize, count: usize, v: u16) {
    for k in 0..count {
        put_u16(f, value(i) + 2 * k, v);
    }
}

// ---- trailer bytes built by hand ---------------------------------------------------------------

/// Packs values LSB-first at `bits` bits each (an independent implementation of the spec's
/// bit packing, so the tests do not only check the crate against itself).
fn pack_bits(values: &[u64], bits: u32) -> Vec<u8> {
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
fn raw_time(time_type: u8, bits: u8, epoch: i64, step: i64, scale: u32, region: &[u8]) -> Vec<u8> {
    let mut out = vec![time_type, bits];
    out.extend_from_slice(&epoch.to_le_bytes());
    out.extend_from_slice(&step.to_le_bytes());
    out.extend_from_slice(&scale.to_le_bytes());
    out.extend_from_slice(region);
    out
}

/// The time fields encoded as the spec says (epoch, rounded step, minimal bits).
fn encode_time(time_type: u8, coords: &[i64], scale: u32) -> Vec<u8> {
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

fn trailer(texts: &[&[u8]], time: &[u8]) -> Vec<u8> {
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
fn with_trailer(new: &[u8]) -> Vec<u8> {
    let (f, _) = cube();
    let mut out = f[..trailer_offset(&f)].to_vec();
    out.extend_from_slice(new);
    out
}

/// The cube with the trailer built from `TEXTS` and time fields `time`.
fn with_time(time: &[u8]) -> Vec<u8> {
    with_trailer(&trailer(&TEXTS, time))
}

// ---- header blob bytes built by hand -----------------------------------------------------------

/// A blob for a uint8 Image 2 x 1 with tiles 1 x 1 (N = 2), with the given count fields.
fn tiny_blob(count_min: u32, count_bits: u8, region: &[u8]) -> Vec<u8> {
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

fn parse_blob(b: &[u8]) -> rumi::Result<Blob> {
    Blob::parse(b, &Limits::default())
}

// ==== the fixtures are valid ====================================================================

#[test]
fn fixtures_validate_and_build_the_writers_blob() {
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

// ==== file header ===============================================================================

#[test]
fn header_magic() {
    let (mut f, _) = cube();
    f[3] = b'X';
    assert_err!(check(&f), Error::FileMagic { found } if &found == b"RUMX");
    assert_eq!(
        check(&f).unwrap_err().to_string(),
        "file header: magic is [52, 55, 4D, 58], expected \"RUMI\" (52 55 4D 49)"
    );
}

#[test]
fn header_version() {
    let (mut f, _) = cube();
    put_u16(&mut f, 4, 2);
    assert_err!(check(&f), Error::FileVersion(2));
}

#[test]
fn header_reserved() {
    let (mut f, _) = cube();
    put_u16(&mut f, 6, 1);
    assert_err!(check(&f), Error::FileReserved(1));
}

#[test]
fn header_ifd_offset() {
    let (mut f, _) = cube();
    put_u64(&mut f, 8, 24);
    assert_err!(check(&f), Error::IfdOffset(24));
}

// ==== IFD =======================================================================================

#[test]
fn ifd_entry_count() {
    let (mut f, _) = cube();
    put_u64(&mut f, 16, 14);
    assert_err!(check(&f), Error::IfdEntryCount(14));
}

#[test]
fn ifd_next_offset_must_be_zero() {
    let (mut f, _) = cube();
    put_u64(&mut f, 24 + 20 * 13, 300);
    assert_err!(check(&f), Error::NextIfd(300));
}

#[test]
fn ifd_tags_in_rising_order() {
    let (mut f, _) = cube();
    let (a, b) = (f[entry(1)..entry(2)].to_vec(), f[entry(2)..entry(3)].to_vec());
    f[entry(1)..entry(2)].copy_from_slice(&b);
    f[entry(2)..entry(3)].copy_from_slice(&a);
    assert_err!(check(&f), Error::IfdTag { index: 1, found: 258, expected: 257, .. });
    assert_eq!(
        check(&f).unwrap_err().to_string(),
        "IFD entry 1: tag is 258, expected 257 (ImageLength); tags must be exactly the 13 rumi tags in rising order"
    );
}

#[test]
fn ifd_other_tags_rejected() {
    // the GeoTIFF tags rumi forbids, and a private tag, in place of a rumi tag
    for tag in [33550u16, 33922, 34736, 34737, 65002] {
        let (mut f, _) = cube();
        put_u16(&mut f, entry(10), tag);
        assert_err!(check(&f), Error::IfdTag { index: 10, found, expected: 34735, .. } if found == tag);
    }
}

#[test]
fn ifd_entry_types() {
    for (i, &(tag, _, typ)) in TAGS.iter().enumerate() {
        let (mut f, _) = cube();
        let wrong = if typ == 3 { 4 } else { 3 };
        put_u16(&mut f, entry(i) + 2, wrong);
        assert_err!(check(&f), Error::IfdType { tag: t, found, expected, .. } if t == tag && found == wrong && expected == typ);
    }
}

#[test]
fn ifd_entry_counts() {
    for (i, &(tag, _, _)) in TAGS.iter().enumerate() {
        let (mut f, _) = cube();
        let count = get_u64(&f, entry(i) + 4);
        put_u64(&mut f, entry(i) + 4, count + 1);
        assert_err!(check(&f), Error::IfdCount { tag: t, found, expected, .. } if t == tag && found == count + 1 && expected == count);
    }
}

#[test]
fn ifd_tile_counts_must_match_frame_unit() {
    // the cube has N = g * B * T = 72 frames of one tile; a count of g = 12 is a cell count
    for i in [6usize, 7] {
        let (mut f, _) = cube();
        put_u64(&mut f, entry(i) + 4, 12);
        assert_err!(check(&f), Error::IfdCount { found: 12, expected: 72, tag, .. } if tag == TAGS[i].0);
    }
}

#[test]
fn ifd_inline_padding_zero() {
    // cube: single values, BitsPerSample and SampleFormat (3 shorts) are inline
    for i in [0usize, 1, 2, 3, 4, 5, 8, 11, 12] {
        let (mut f, _) = cube();
        f[value(i) + 7] = 1;
        assert_err!(check(&f), Error::InlinePadding { tag, .. } if tag == TAGS[i].0);
    }
    // one frame: TileByteCounts (4 bytes) is inline too
    let mut f = single();
    f[value(7) + 7] = 1;
    assert_err!(check(&f), Error::InlinePadding { tag: 325, .. });
}

#[test]
fn ifd_external_values_without_gaps() {
    let (f, _) = cube();
    for i in [6usize, 7, 9, 10] {
        let mut g = f.clone();
        let at = external(&g, i) as u64;
        put_u64(&mut g, value(i), at + 8);
        assert_err!(check(&g), Error::ExternalOffset { tag, found, expected, .. } if tag == TAGS[i].0 && found == at + 8 && expected == at);
    }
    // B = 5: BitsPerSample and SampleFormat are external as well
    let (f5, _) = fixture(SampleEncoding::U8, 9, 7, 5, 1, (8, 8), 0, utm());
    assert_eq!(external(&f5, 2), 292);
    for i in [2usize, 8] {
        let mut g = f5.clone();
        let at = external(&g, i) as u64;
        put_u64(&mut g, value(i), at - 2);
        assert_err!(check(&g), Error::ExternalOffset { tag, .. } if tag == TAGS[i].0);
    }
}

#[test]
fn ifd_base_frame_offset() {
    let (mut f, _) = cube();
    let b = base(&f) as u64;
    let at = external(&f, 6);
    put_u64(&mut f, at, b + 4);
    assert_err!(check(&f), Error::BaseFrameOffset { found, expected } if found == b + 4 && expected == b);
}

#[test]
fn ifd_tile_offsets_are_prefix_sums() {
    let (mut f, _) = cube();
    let at = external(&f, 6) + 8 * 5;
    let v = get_u64(&f, at);
    put_u64(&mut f, at, v + 1);
    assert_err!(check(&f), Error::TileOffset { index: 5, found, expected } if found == v + 1 && expected == v);
}

#[test]
fn ifd_byte_count_zero() {
    let (mut f, _) = cube();
    let at = external(&f, 7) + 4 * 3;
    put_u32(&mut f, at, 0);
    assert_err!(check(&f), Error::ZeroByteCount { what: "TileByteCounts", index: 3 });
}

#[test]
fn ifd_mixed_sample_pairs() {
    let (mut f, _) = cube();
    put_u16(&mut f, value(2) + 2, 8);
    assert_err!(check(&f), Error::MixedSamples { name: "BitsPerSample", index: 1, found: 8, first: 16 });
    let (mut f, _) = cube();
    put_u16(&mut f, value(8) + 4, 2);
    assert_err!(check(&f), Error::MixedSamples { name: "SampleFormat", index: 2, found: 2, first: 1 });
    // external values (B = 5)
    let (mut f5, _) = fixture(SampleEncoding::U8, 9, 7, 5, 1, (8, 8), 0, utm());
    let at = external(&f5, 2) + 2 * 4;
    put_u16(&mut f5, at, 16);
    assert_err!(check(&f5), Error::MixedSamples { name: "BitsPerSample", index: 4, found: 16, first: 8 });
}

#[test]
fn ifd_sample_pair_not_listed() {
    let reserved = [(1u16, 2u16), (1, 4), (2, 2), (2, 4), (5, 32), (5, 64), (104, 6), (105, 6), (106, 4)];
    let unlisted = [(3u16, 8u16), (2, 1), (6, 16), (4, 8), (0, 8), (1, 0)];
    for (sf, bps) in reserved.into_iter().chain(unlisted) {
        let (mut f, _) = cube();
        put_shorts_inline(&mut f, 2, 3, bps);
        put_shorts_inline(&mut f, 8, 3, sf);
        assert_err!(check(&f), Error::SamplePair { sample_format, bits_per_sample } if sample_format == sf && bits_per_sample == bps);
    }
}

#[test]
fn ifd_frame_unit_unknown() {
    for unit in [10u16, 255, 65535] {
        let (mut f, _) = cube();
        put_u16(&mut f, value(11), unit);
        assert_err!(check(&f), Error::FrameUnitUnknown(u) if u == unit);
    }
}

#[test]
fn ifd_frame_unit_invalid_for_bands_and_times() {
    // cube (B = 3, T = 2): units 1 and 2 need exactly one of B, T above 1
    for unit in [1u16, 2] {
        let (mut f, _) = cube();
        put_u16(&mut f, value(11), unit);
        assert_err!(check(&f), Error::FrameUnitShape { unit: u, bands: 3, times: 2, .. } if u == unit);
    }
    // Image with B = 3: units 3..=9 need B > 1 and T > 1
    let (f, _) = fixture(SampleEncoding::U8, 9, 7, 3, 1, (8, 8), 1, utm());
    for unit in 3u16..=9 {
        let mut g = f.clone();
        put_u16(&mut g, value(11), unit);
        assert_err!(check(&g), Error::FrameUnitShape { unit: u, bands: 3, times: 1, .. } if u == unit);
    }
    // B = 1, T = 1: only 0
    let mut s = single();
    put_u16(&mut s, value(11), 1);
    assert_err!(check(&s), Error::FrameUnitShape { unit: 1, bands: 1, times: 1, .. });
}

#[test]
fn ifd_dimensions_positive() {
    for (i, name) in [
        (0usize, "ImageWidth"),
        (1, "ImageLength"),
        (3, "SamplesPerPixel"),
        (4, "TileWidth"),
        (5, "TileLength"),
        (12, "TimeCount"),
    ] {
        let (mut f, _) = cube();
        f[value(i)..value(i) + 8].fill(0);
        assert_err!(check(&f), Error::ZeroDimension(n) if n == name);
    }
}

// ==== georeferencing ============================================================================

#[test]
fn georef_key_directory_header() {
    let (mut f, _) = cube();
    let at = geokey(&f, 3);
    put_u16(&mut f, at, 4);
    assert_err!(check(&f), Error::GeoKeyHeader([1, 1, 0, 4]));
}

#[test]
fn georef_key_shape_and_order() {
    // (key_id, 0, 1, value) in the order 1024, 1025, 2048/3072
    for (k, field, v) in [(0usize, 0usize, 1025u16), (0, 1, 1), (1, 2, 2), (2, 0, 2049), (2, 1, 34736)] {
        let (mut f, _) = cube();
        let at = geokey(&f, 4 + 4 * k + field);
        put_u16(&mut f, at, v);
        assert_err!(check(&f), Error::GeoKey { index, .. } if index == k);
    }
}

#[test]
fn georef_model_type() {
    let (mut f, _) = cube();
    let at = geokey(&f, 7);
    put_u16(&mut f, at, 3);
    assert_err!(check(&f), Error::ModelType(3));
}

#[test]
fn georef_raster_type() {
    for v in [0u16, 3] {
        let (mut f, _) = cube();
        let at = geokey(&f, 11);
        put_u16(&mut f, at, v);
        assert_err!(check(&f), Error::RasterType(r) if r == v);
    }
}

#[test]
fn georef_crs_key_agrees_with_model_type() {
    // projected (1) with the geographic key 2048
    let (mut f, _) = cube();
    let at = geokey(&f, 12);
    put_u16(&mut f, at, 2048);
    assert_err!(check(&f), Error::CrsKeyMismatch { key: 2048, model: 1 });
    // geographic (2) with the projected key 3072
    let (mut f, _) = cube();
    let at = geokey(&f, 7);
    put_u16(&mut f, at, 2);
    assert_err!(check(&f), Error::CrsKeyMismatch { key: 3072, model: 2 });
}

#[test]
fn georef_epsg_range() {
    for code in [0u16, 1023, 32767, 65535] {
        let (mut f, _) = cube();
        let at = geokey(&f, 15);
        put_u16(&mut f, at, code);
        assert_err!(check(&f), Error::EpsgRange(c) if c == code);
    }
    // the bounds themselves are accepted (registration is not checked by the format layer)
    for code in [1024u16, 32766] {
        let (mut f, _) = cube();
        let at = geokey(&f, 15);
        put_u16(&mut f, at, code);
        check(&f).unwrap();
    }
}

#[test]
fn georef_matrix_third_row_zero() {
    for k in 8..12 {
        let (mut f, _) = cube();
        let at = georef_at(&f) + 8 * k;
        put_f64(&mut f, at, 1.0);
        assert_err!(check(&f), Error::Matrix("the third row must be zero"));
    }
    let (mut f, _) = cube();
    let at = georef_at(&f) + 8 * 10;
    put_f64(&mut f, at, 0.5);
    assert_eq!(check(&f).unwrap_err().to_string(), "ModelTransformationTag: the third row must be zero");
}

#[test]
fn georef_matrix_form() {
    // column 3 of the first two rows and the last row are fixed by the affine form
    for (k, v) in [(2usize, 1.0), (6, 1.0), (12, 1.0), (13, 1.0), (14, 1.0), (15, 2.0)] {
        let (mut f, _) = cube();
        let at = georef_at(&f) + 8 * k;
        put_f64(&mut f, at, v);
        assert_err!(check(&f), Error::Matrix(_));
    }
}

#[test]
fn georef_matrix_finite() {
    for (k, index) in [(0usize, 0usize), (3, 2), (7, 5)] {
        for v in [f64::NAN, f64::INFINITY] {
            let (mut f, _) = cube();
            let at = georef_at(&f) + 8 * k;
            put_f64(&mut f, at, v);
            assert_err!(check(&f), Error::MatrixNotFinite { index: i, .. } if i == index);
        }
    }
}

#[test]
fn georef_undefined_rules() {
    let undefined = Georef::Undefined { raster_type: RasterType::Point };
    let (f, _) = fixture(SampleEncoding::U8, 9, 7, 1, 1, (8, 8), 0, undefined);
    assert_eq!(Reader::open(f.as_slice(), Limits::default()).unwrap().georef().unwrap(), undefined);
    // GeographicTypeGeoKey must be 0
    let mut g = f.clone();
    let at = geokey(&g, 15);
    put_u16(&mut g, at, 4326);
    assert_err!(check(&g), Error::UndefinedCrsCode(4326));
    // ... and it must be key 2048
    let mut g = f.clone();
    let at = geokey(&g, 12);
    put_u16(&mut g, at, 3072);
    assert_err!(check(&g), Error::CrsKeyMismatch { key: 3072, model: 0 });
    // the matrix is the fixed identity-like one
    for (k, v) in [(0usize, 2.0), (3, 100.0), (10, 1.0), (15, 0.0)] {
        let mut g = f.clone();
        let at = georef_at(&g) + 8 * k;
        put_f64(&mut g, at, v);
        assert_err!(check(&g), Error::Matrix(_));
    }
}

// ==== trailer ===================================================================================

#[test]
fn trailer_magic() {
    let (mut f, _) = cube();
    let t = trailer_offset(&f);
    f[t..t + 4].copy_from_slice(b"TALE");
    assert_err!(check(&f), Error::TrailerMagic { found } if &found == b"TALE");
}

#[test]
fn trailer_version() {
    let (mut f, _) = cube();
    let t = trailer_offset(&f);
    put_u16(&mut f, t + 4, 2);
    assert_err!(check(&f), Error::TrailerVersion(2));
}

fn good_time() -> Vec<u8> {
    encode_time(2, &instants(2).coords, 1)
}

#[test]
fn trailer_band_text_empty() {
    let f = with_trailer(&trailer(&[b"a", b"", b"c"], &good_time()));
    assert_err!(check(&f), Error::BandTextEmpty(1));
}

#[test]
fn trailer_band_text_utf8() {
    let f = with_trailer(&trailer(&[b"\xff\xfe", b"b", b"c"], &good_time()));
    assert_err!(check(&f), Error::BandTextUtf8(0));
    let f = with_trailer(&trailer(&[b"a", b"b", b"caf\xc3"], &good_time()));
    assert_err!(check(&f), Error::BandTextUtf8(2));
}

#[test]
fn trailer_band_text_nul() {
    let f = with_trailer(&trailer(&[b"a", b"b", b"c\0"], &good_time()));
    assert_err!(check(&f), Error::BandTextNul(2));
}

#[test]
fn trailer_band_texts_unique() {
    let f = with_trailer(&trailer(&[b"red", b"nir", b"red"], &good_time()));
    assert_err!(check(&f), Error::BandTextDuplicate { first: 0, second: 2, ref text } if text == "red");
}

#[test]
fn trailer_time_type() {
    for tt in [0u8, 3, 255] {
        let mut time = good_time();
        time[0] = tt;
        assert_err!(check(&with_time(&time)), Error::TimeType(t) if t == tt);
    }
}

#[test]
fn trailer_time_bits_at_most_64() {
    let time = raw_time(2, 65, 0, 0, 1, &[0u8; 17]);
    assert_err!(check(&with_time(&time)), Error::TimeBits(65));
}

#[test]
fn trailer_time_scale_one_or_86400() {
    for scale in [0u32, 60, 3600, 86401] {
        let mut time = good_time();
        time[18..22].copy_from_slice(&scale.to_le_bytes());
        assert_err!(check(&with_time(&time)), Error::TimeScale(s) if s == scale);
    }
}

#[test]
fn trailer_time_scale_86400_for_whole_days() {
    // whole days (one of them before 1970) stored with scale 1
    let time = encode_time(2, &[-86400 * 3, 86400 * 20], 1);
    assert_err!(check(&with_time(&time)), Error::TimeScaleNotMinimal);
    // the same instants in days are valid
    check(&with_time(&encode_time(2, &[-3, 20], 86400))).unwrap();
}

#[test]
fn trailer_time_epoch_is_time0() {
    // residual(0) = 5: time(0) = 5 but time_epoch = 0
    let time = raw_time(2, 4, 0, 10, 1, &pack_bits(&[10, 0], 4));
    assert_err!(check(&with_time(&time)), Error::TimeEpoch { found: 0, expected: 5 });
}

#[test]
fn trailer_time_step() {
    // coordinates 100, 200 recorded with step 90 and residual 10
    let time = raw_time(2, 5, 100, 90, 1, &pack_bits(&[0, 20], 5));
    assert_err!(check(&with_time(&time)), Error::TimeStep { found: 90, expected: 100 });
}

#[test]
fn trailer_time_step_rounds_to_nearest() {
    // intervals [1, 2), [4, 6): step = round((6 - 1) / 3) = 2, residuals 0 -1 -1 -1
    let time = encode_time(1, &[1, 2, 4, 6], 1);
    assert_eq!(i64::from_le_bytes(time[10..18].try_into().unwrap()), 2);
    check(&with_time(&time)).unwrap();
    // the same coordinates recorded with the truncated step 1 (residuals 0 0 1 2)
    let time = raw_time(1, 3, 1, 1, 1, &pack_bits(&[0, 0, 2, 4], 3));
    assert_err!(check(&with_time(&time)), Error::TimeStep { found: 1, expected: 2 });
}

#[test]
fn trailer_time_bits_minimal() {
    let time = raw_time(2, 3, 100, 100, 1, &[0]);
    assert_err!(check(&with_time(&time)), Error::TimeBitsNotMinimal { found: 3, expected: 0 });
    let time = raw_time(1, 4, 0, 10, 1, &pack_bits(&[0, 0, 4, 0], 4));
    assert_err!(check(&with_time(&time)), Error::TimeBitsNotMinimal { found: 4, expected: 3 });
}

#[test]
fn trailer_instants_non_decreasing() {
    let f = with_time(&encode_time(2, &[200, 100], 1));
    assert_err!(check(&f), Error::InstantOrder { index: 1, value: 100, previous: 200 });
    // equal instants are allowed
    check(&with_time(&encode_time(2, &[200, 200], 1))).unwrap();
}

#[test]
fn trailer_interval_not_empty() {
    let f = with_time(&encode_time(1, &[100, 100, 200, 300], 1));
    assert_err!(check(&f), Error::IntervalEmpty { index: 0, start: 100, end: 100 });
    let f = with_time(&encode_time(1, &[100, 200, 300, 250], 1));
    assert_err!(check(&f), Error::IntervalEmpty { index: 1, start: 300, end: 250 });
}

#[test]
fn trailer_intervals_do_not_overlap() {
    let f = with_time(&encode_time(1, &[100, 250, 200, 300], 1));
    assert_err!(check(&f), Error::IntervalOverlap { index: 1, start: 200, previous_end: 250 });
    // meeting and gaps are allowed
    check(&with_time(&encode_time(1, &[100, 200, 200, 300], 1))).unwrap();
    check(&with_time(&encode_time(1, &[100, 150, 200, 300], 1))).unwrap();
}

#[test]
fn trailer_packing_padding_zero() {
    // intervals 0, 10, 22, 30: step 10, residuals 0 0 2 0 -> packed 0 0 4 0 at 3 bits: 12 bits
    let mut time = encode_time(1, &[0, 10, 22, 30], 1);
    assert_eq!(time[1], 3);
    check(&with_time(&time)).unwrap();
    *time.last_mut().unwrap() |= 0x80;
    assert_err!(check(&with_time(&time)), Error::PackingPadding("time residuals"));
}

#[test]
fn trailer_size_exact() {
    let mut t = trailer(&TEXTS, &good_time());
    let n = t.len() as u64;
    t.push(0);
    assert_err!(check(&with_trailer(&t)), Error::TrailerSize { found, expected } if found == n + 1 && expected == n);
    // a residual region shorter than ceil(C * time_bits / 8)
    let mut time = encode_time(1, &[0, 10, 22, 30], 1);
    time.pop();
    let t = trailer(&TEXTS, &time);
    let n = t.len() as u64;
    assert_err!(check(&with_trailer(&t)), Error::TrailerSize { found, expected } if found == n && expected == n + 1);
}

#[test]
fn trailer_coordinates_fit_int64() {
    let time = raw_time(2, 0, i64::MAX - 5, 10, 1, &[]);
    assert_err!(check(&with_time(&time)), Error::TimeOverflow { index: 1, what: "coordinate" });
}

#[test]
fn trailer_trailing_garbage() {
    let (mut f, _) = cube();
    let n = (f.len() - trailer_offset(&f)) as u64;
    f.extend_from_slice(b"garbage");
    assert_err!(check(&f), Error::TrailerSize { found, expected } if found == n + 7 && expected == n);
    assert_err!(build_header(f.as_slice(), Limits::default()), Error::TrailerSize { .. });
    assert_eq!(check(&f).unwrap_err().to_string(), format!("trailer: size is {} bytes, expected exactly {n}", n + 7));
}

// ==== header blob ===============================================================================

#[test]
fn blob_tiny_fixture_is_valid() {
    let b = parse_blob(&tiny_blob(10, 2, &pack_bits(&[0, 3], 2))).unwrap();
    assert_eq!(b.counts, vec![10, 13]);
}

#[test]
fn blob_magic() {
    let (_, mut b) = cube();
    b[0..4].copy_from_slice(b"LOVF");
    assert_err!(parse_blob(&b), Error::BlobMagic { found } if &found == b"LOVF");
    let (f, _) = cube();
    assert_err!(Reader::open_with_blob(f.as_slice(), &b, Limits::default()), Error::BlobMagic { .. });
}

#[test]
fn blob_version() {
    let (_, mut b) = cube();
    put_u16(&mut b, 4, 2);
    assert_err!(parse_blob(&b), Error::BlobVersion(2));
}

#[test]
fn blob_count_bits_at_most_32() {
    let b = tiny_blob(10, 33, &[0u8; 9]);
    assert_err!(parse_blob(&b), Error::CountBits(33));
}

#[test]
fn blob_size_exact() {
    let (_, mut b) = cube();
    let n = b.len() as u64;
    b.push(0);
    assert_err!(parse_blob(&b), Error::BlobSize { found, expected } if found == n + 1 && expected == n);
    b.truncate(b.len() - 2);
    assert_err!(parse_blob(&b), Error::BlobSize { found, expected } if found == n - 1 && expected == n);
    // shorter than the 32-byte header
    assert_err!(parse_blob(&b[..31]), Error::Truncated { what: "header blob", .. });
}

#[test]
fn blob_count_min_is_minimum() {
    // residuals 1 and 3: the smallest count is 11, not 10
    let b = tiny_blob(10, 2, &pack_bits(&[1, 3], 2));
    assert_err!(parse_blob(&b), Error::CountMin { found: 10, expected: 11 });
}

#[test]
fn blob_count_bits_minimal() {
    let b = tiny_blob(10, 3, &pack_bits(&[0, 1], 3));
    assert_err!(parse_blob(&b), Error::CountBitsNotMinimal { found: 3, expected: 1 });
    // one frame: count_bits is always 0
    let mut one = tiny_blob(10, 1, &[0]);
    put_u32(&mut one, 6, 1); // image_width 1 -> N = 1
    assert_err!(parse_blob(&one), Error::CountBitsNotMinimal { found: 1, expected: 0 });
}

#[test]
fn blob_counts_positive() {
    let b = tiny_blob(0, 1, &pack_bits(&[0, 1], 1));
    assert_err!(parse_blob(&b), Error::ZeroByteCount { what: "frame_byte_counts", index: 0 });
}

#[test]
fn blob_counts_fit_uint32() {
    let b = tiny_blob(u32::MAX, 1, &pack_bits(&[0, 1], 1));
    assert_err!(parse_blob(&b), Error::CountOverflow(1));
}

#[test]
fn blob_packing_padding_zero() {
    let b = tiny_blob(10, 3, &[0b1000_0011]);
    assert_err!(parse_blob(&b), Error::PackingPadding("frame byte counts"));
}

#[test]
fn blob_raster_fields() {
    let (_, b) = cube();
    // zero dimensions (offset, size)
    for (at, name) in [(6usize, "image_width"), (10, "image_length"), (14, "time_count")] {
        let mut g = b.clone();
        put_u32(&mut g, at, 0);
        assert_err!(parse_blob(&g), Error::ZeroDimension(n) if n == format!("header blob {name}"));
    }
    for (at, name) in [(18usize, "tile_width"), (20, "tile_length"), (22, "samples_per_pixel")] {
        let mut g = b.clone();
        put_u16(&mut g, at, 0);
        assert_err!(parse_blob(&g), Error::ZeroDimension(n) if n == format!("header blob {name}"));
    }
    let mut g = b.clone();
    put_u32(&mut g, 6, 0);
    assert_eq!(parse_blob(&g).unwrap_err().to_string(), "header blob image_width is 0, must be greater than zero");
    let mut g = b.clone();
    g[24] = 4; // bits_per_sample (1, 4) is reserved
    assert_err!(parse_blob(&g), Error::SamplePair { sample_format: 1, bits_per_sample: 4 });
    let mut g = b.clone();
    g[25] = 5; // sample_format 5 is reserved
    assert_err!(parse_blob(&g), Error::SamplePair { sample_format: 5, bits_per_sample: 16 });
    let mut g = b.clone();
    g[26] = 10;
    assert_err!(parse_blob(&g), Error::FrameUnitUnknown(10));
    let mut g = b.clone();
    g[26] = 2;
    assert_err!(parse_blob(&g), Error::FrameUnitShape { unit: 2, .. });
}

/// The cube's blob rebuilt with one field changed (counts resized to the new N).
fn changed_blob(change: impl Fn(&mut Layout)) -> Vec<u8> {
    let (f, _) = cube();
    let file = Reader::open(f.as_slice(), Limits::default()).unwrap().blob().clone();
    let mut layout = file.layout;
    change(&mut layout);
    let layout = Layout::new(
        layout.width,
        layout.length,
        layout.times,
        layout.bands,
        layout.tile_width,
        layout.tile_length,
        layout.encoding,
        layout.frame_unit.value().into(),
        &Limits::default(),
    )
    .unwrap();
    let n = layout.frame_count().unwrap() as usize;
    let counts = (0..n).map(|i| file.counts[i % file.counts.len()]).collect();
    Blob { layout, counts }.to_bytes().unwrap()
}

#[test]
fn blob_mismatch_with_file() {
    let (f, _) = cube();
    let cases: Vec<(&str, u64, u64, Vec<u8>)> = vec![
        ("image_width", 38, 37, changed_blob(|l| l.width = 38)),
        ("image_length", 30, 29, changed_blob(|l| l.length = 30)),
        ("time_count", 3, 2, changed_blob(|l| l.times = 3)),
        ("tile_width", 32, 16, changed_blob(|l| l.tile_width = 32)),
        ("tile_length", 4, 8, changed_blob(|l| l.tile_length = 4)),
        ("samples_per_pixel", 2, 3, changed_blob(|l| l.bands = 2)),
        ("bits_per_sample", 8, 16, changed_blob(|l| l.encoding = SampleEncoding::U8)),
        ("sample_format", 3, 1, changed_blob(|l| l.encoding = SampleEncoding::F16)),
        ("frame_unit", 9, 0, changed_blob(|l| l.frame_unit = rumi::format::FrameUnit::new(9, 3, 2).unwrap())),
    ];
    for (name, b, v, blob) in cases {
        assert_err!(
            validate(f.as_slice(), Some(&blob), Limits::default()),
            Error::BlobMismatch { field, blob, file } if field == name && blob == b && file == v
        );
    }
    let blob = changed_blob(|l| l.width = 38);
    assert_eq!(
        validate(f.as_slice(), Some(&blob), Limits::default()).unwrap_err().to_string(),
        "header blob image_width is 38 but the file says 37"
    );
}

#[test]
fn blob_frame_byte_counts_mismatch_with_file() {
    let (f, b) = cube();
    let mut blob = parse_blob(&b).unwrap();
    let c = blob.counts[17];
    blob.counts[17] += 1;
    let bytes = blob.to_bytes().unwrap();
    assert_err!(
        validate(f.as_slice(), Some(&bytes), Limits::default()),
        Error::BlobCountMismatch { index: 17, blob, file } if blob == c + 1 && file == c
    );
}

// ==== frames ====================================================================================

#[test]
fn frame_decoded_size_blob_of_another_file() {
    // a uint8 file of the same shape whose frames happen to have the cube's byte counts: the
    // stateless reader trusts its blob, locates the right bytes, and the decoded size exposes it
    let (f, b) = cube();
    let mut other = parse_blob(&b).unwrap();
    other.layout.encoding = SampleEncoding::U8;
    let other = other.to_bytes().unwrap();
    let r = Reader::open_with_blob(f.as_slice(), &other, Limits::default()).unwrap();
    assert_err!(decoded_frame(&r, 0), Error::DecodedSize { index: 0, found: 256, expected: 128 });
    // the last frame is the 5 x 5 corner tile
    let last = r.frame_count() - 1;
    assert_err!(decoded_frame(&r, last), Error::DecodedSize { index: 71, found: 50, expected: 25 });
}

/// Rebuilds `file` with every frame re-encoded by `encode` (same decoded bytes, another OpenZL
/// output type): header, IFD and offsets follow the new byte counts, the trailer is kept.
fn reencoded(file: &[u8], encode: impl Fn(&[u8]) -> Vec<u8>) -> (Vec<u8>, Vec<u8>) {
    let r = Reader::open(file, Limits::default()).unwrap();
    let frames: Vec<Vec<u8>> = (0..r.frame_count()).map(|i| encode(decoded_frame(&r, i).unwrap().as_bytes())).collect();
    let counts: Vec<u32> = frames.iter().map(|f| f.len() as u32).collect();
    let mut out = rumi::format::ifd::serialise_prefix(r.layout(), &counts, &r.georef().unwrap()).unwrap();
    frames.iter().for_each(|f| out.extend_from_slice(f));
    out.extend_from_slice(&file[r.trailer_offset() as usize..]);
    let blob = Blob { layout: *r.layout(), counts }.to_bytes().unwrap();
    (out, blob)
}

#[test]
fn frame_is_defined_by_its_decoded_bytes() {
    // float32 and complex64 frames stored as serial bytes or as numeric elements of another
    // width validate and read back the same samples, statelessly and validated
    for (enc, unit) in [(SampleEncoding::F32, 1u16), (SampleEncoding::C64, 0), (SampleEncoding::U16, 4)] {
        let (t, b) = if unit == 4 { (2, 2) } else { (1, 3) };
        let (f, _) = fixture(enc, 21, 13, b, t, (8, 8), unit, utm());
        let want = Reader::open(f.as_slice(), Limits::default()).unwrap();
        let win = rumi::reader::Window { times: 0..t, bands: (0..u32::from(b)).collect(), rows: 0..13, cols: 0..21 };
        let mut expected = vec![0u8; want.window_bytes(&win).unwrap() as usize];
        want.read_window(&win, &mut expected).unwrap();
        for (name, encode) in [
            ("serial", Box::new(|d: &[u8]| rumi::codec::encode_serial(d, 6).unwrap()) as Box<dyn Fn(&[u8]) -> Vec<u8>>),
            ("1-byte numeric", Box::new(|d: &[u8]| rumi::codec::encode(d, 1, rumi::codec::Graph::Numeric(6)).unwrap())),
            (
                "the widest numeric elements dividing the frame",
                Box::new(|d: &[u8]| {
                    let w = [8, 4, 2, 1].into_iter().find(|w| d.len() % w == 0).unwrap_or(1);
                    rumi::codec::encode(d, w, rumi::codec::Graph::Numeric(6)).unwrap()
                }),
            ),
        ] {
            let (g, blob) = reencoded(&f, encode);
            check(&g).unwrap_or_else(|e| panic!("{enc:?} as {name}: {e}"));
            for r in [
                Reader::open(g.as_slice(), Limits::default()).unwrap(),
                Reader::open_with_blob(g.as_slice(), &blob, Limits::default()).unwrap(),
            ] {
                let mut got = vec![0u8; expected.len()];
                r.read_window(&win, &mut got).unwrap();
                assert!(got == expected, "{enc:?} as {name}: samples differ");
            }
        }
    }
    // a frame whose decoded byte count is not the one the header implies is refused, naming both
    let (f, _) = fixture(SampleEncoding::U32, 20, 10, 1, 1, (8, 8), 0, utm());
    let (g, _) = reencoded(&f, |d| rumi::codec::encode_serial(&d[..d.len() - 4], 6).unwrap());
    assert_err!(check(&g), Error::DecodedSize { index: 0, found: 252, expected: 256 });
}

#[test]
fn frame_boolean_bytes() {
    // uint8 samples 0/1 with a single 2 at (y 1, x 3), declared boolean (1, 1)
    let (x, y) = (20u32, 10u32);
    let mut data = samples(SampleEncoding::Bool, (x * y) as usize, 3);
    data[(x + 3) as usize] = 2;
    let (mut f, _) = write(spec(SampleEncoding::U8, x, y, 1, 1, (16, 8), 0, utm()), &data);
    check(&f).unwrap();
    put_u16(&mut f, value(2), 1);
    assert_err!(check(&f), Error::BooleanValue { index: 0, offset: 19, value: 2 });
}

#[test]
fn frame_not_openzl() {
    let (mut f, _) = cube();
    let r = Reader::open(f.clone(), Limits::default()).unwrap();
    let (off, len) = r.frame_range(5).unwrap();
    f[off as usize..(off + len) as usize].fill(0xA5);
    assert_err!(check(&f), Error::Decode { index: 5, .. });
}

#[test]
fn frame_errors_reported_in_index_order() {
    let (mut f, _) = cube();
    let r = Reader::open(f.clone(), Limits::default()).unwrap();
    for i in [60u64, 9, 40] {
        let (off, len) = r.frame_range(i).unwrap();
        f[off as usize..(off + len) as usize].fill(0);
    }
    assert_err!(check(&f), Error::Decode { index: 9, .. });
}

// ==== truncation, file size, limits =============================================================

#[test]
fn truncation_at_every_structure_boundary() {
    let (f, _) = cube();
    let (b, t, len) = (base(&f), trailer_offset(&f), f.len());
    let min = b + 72 + 28 + 9;
    let cases: Vec<(usize, &str)> = vec![
        (0, "file header@0"),
        (3, "file header@0"),
        (8, "file header@8"),
        (15, "file header@8"),
        (16, "IFD@16"),
        (23, "IFD@16"),
        (24, "IFD@24"),
        (entry(6) + 10, "IFD@148"),
        (24 + 20 * 13, "IFD@284"),
        (291, "IFD@284"),
        (292, "size"),
        (external(&f, 7), "size"),
        (b - 160, "size"),
        (b, "size"),
        (min - 1, "size"),
        (min, "frames"),
        (b + 200, "frames"),
        (t - 1, "frames"),
        (t, "trailer"),
        (t + 5, "trailer"),
        (t + 6 + 2 + 3, "trailer"),
        (len - 22, "trailer"),
        (len - 1, "trailer"),
    ];
    for (cut, expect) in cases {
        let g = &f[..cut];
        let err = check(g).unwrap_err();
        let ok = match (expect, &err) {
            ("size", Error::FileSize { found, expected, .. }) => *found == cut as u64 && *expected == min as u64,
            ("frames", Error::FileSize { found, expected, .. }) => *found == cut as u64 && *expected == t as u64,
            ("trailer", Error::Truncated { what: "trailer", offset, .. }) => *offset >= t as u64,
            (loc, Error::Truncated { what, offset, .. }) => loc == format!("{what}@{offset}"),
            _ => false,
        };
        assert!(ok, "cut at {cut}: expected {expect}, got {err:?}");
        assert!(build_header(g, Limits::default()).is_err(), "a blob was built from a file cut at {cut}");
    }
    assert_eq!(
        check(&f[..t + 5]).unwrap_err().to_string(),
        format!("truncated trailer: need 2 bytes at offset {}, only 1 available", t + 4)
    );
}

#[test]
fn file_size_checked_before_reading_external_values() {
    // a 1 KB file whose IFD claims N = 6 * 1024 * 2730 frames (just under the frame limit): the
    // external values alone would be 200 MB; the file size is compared with the smallest file
    // the IFD allows first
    let (mut f, _) = cube();
    let n: u64 = 6 * 1024 * 2730;
    put_u32(&mut f, value(0), 16 * 1024);
    put_u32(&mut f, value(1), 8 * 2730);
    put_u64(&mut f, entry(6) + 4, n);
    put_u64(&mut f, entry(7) + 4, n);
    put_u64(&mut f, value(7), 292 + 8 * n);
    put_u64(&mut f, value(9), 292 + 12 * n);
    put_u64(&mut f, value(10), 292 + 12 * n + 128);
    f.truncate(1024);
    let (result, largest) = largest_allocation(|| check(&f));
    assert_err!(result, Error::FileSize { found: 1024, expected, .. } if expected == 292 + 12 * n + 160 + n + 37);
    assert!(largest < 1 << 20, "largest allocation {largest} bytes");
    let (result, largest) = largest_allocation(|| build_header(f.as_slice(), Limits::default()));
    assert_err!(result, Error::FileSize { .. });
    assert!(largest < 1 << 20, "largest allocation {largest} bytes");
}

#[test]
fn absurd_dimensions_hit_limits_without_allocating() {
    let (mut f, _) = cube();
    put_u32(&mut f, value(0), u32::MAX);
    put_u32(&mut f, value(1), u32::MAX);
    let (result, largest) = largest_allocation(|| check(&f));
    assert_err!(result, Error::Limit { what: "frame count N", .. });
    assert!(largest < 1 << 20, "largest allocation {largest} bytes");
    // huge tiles: one frame of 65535 x 65535 x 2 bytes exceeds max_frame_bytes
    let (mut f, _) = cube();
    put_u32(&mut f, value(0), 65535);
    put_u32(&mut f, value(1), 65535);
    put_u16(&mut f, value(4), 65535);
    put_u16(&mut f, value(5), 65535);
    let (result, largest) = largest_allocation(|| check(&f));
    assert_err!(result, Error::Limit { what: "decoded frame size", .. });
    assert!(largest < 1 << 20, "largest allocation {largest} bytes");
}

#[test]
fn unrepresentable_results_are_rejected() {
    // without limits, N = g * B * T = (2^32 - 1)^2 * 3 * 2 does not fit in 64 bits
    let (mut f, _) = cube();
    put_u32(&mut f, value(0), u32::MAX);
    put_u32(&mut f, value(1), u32::MAX);
    put_u16(&mut f, value(4), 1);
    put_u16(&mut f, value(5), 1);
    let open = Limits {
        max_frame_bytes: u64::MAX,
        max_frames: u64::MAX,
        max_trailer_bytes: u64::MAX,
        max_time_coords: u64::MAX,
        max_bands: u64::MAX,
        max_read_bytes: u64::MAX,
    };
    assert_err!(validate(f.as_slice(), None, open), Error::Overflow("frame count N"));
}

#[test]
fn limits_fail_before_work() {
    let (f, b) = cube();
    let limits = |change: fn(&mut Limits)| {
        let mut l = Limits::default();
        change(&mut l);
        l
    };
    let cases: [(Limits, &str); 5] = [
        (limits(|l| l.max_frames = 71), "frame count N"),
        (limits(|l| l.max_bands = 2), "band count B"),
        (limits(|l| l.max_frame_bytes = 255), "decoded frame size"),
        (limits(|l| l.max_trailer_bytes = 20), "trailer size"),
        (limits(|l| l.max_time_coords = 1), "time coordinate count C"),
    ];
    for (l, name) in cases {
        assert_err!(validate(f.as_slice(), None, l), Error::Limit { what, .. } if what == name);
    }
    // the stateless reader applies them to the blob too
    assert_err!(
        Reader::open_with_blob(f.as_slice(), &b, limits(|l| l.max_frames = 10)),
        Error::Limit { what: "frame count N", .. }
    );
    // ... including the size of its largest decoded frame
    let small = Reader::open_with_blob(f.as_slice(), &b, limits(|l| l.max_frame_bytes = 80));
    assert_err!(small, Error::Limit { what: "decoded frame size", value: 256, limit: 80 });
}

#[test]
fn build_header_refuses_invalid_files() {
    let (mut f, _) = cube();
    let at = geokey(&f, 15);
    put_u16(&mut f, at, 99);
    assert_err!(build_header(f.as_slice(), Limits::default()), Error::EpsgRange(99));
    let f = with_time(&encode_time(2, &[200, 100], 1));
    assert_err!(build_header(f.as_slice(), Limits::default()), Error::InstantOrder { .. });
}

/// The cube rebuilt with every frame's bytes passed through `change` (counts follow).
fn with_frames(change: impl Fn(&[u8]) -> Vec<u8>) -> Vec<u8> {
    use rumi::format::ifd::serialise_prefix;
    let (f, _) = cube();
    let r = Reader::open(f.clone(), Limits::default()).unwrap();
    let frames: Vec<Vec<u8>> = (0..r.frame_count()).map(|i| change(&r.read_frame_bytes(i).unwrap())).collect();
    let counts: Vec<u32> = frames.iter().map(|c| c.len() as u32).collect();
    let mut out = serialise_prefix(r.layout(), &counts, &r.georef().unwrap()).unwrap();
    out.extend(frames.concat());
    out.extend_from_slice(&f[r.trailer_offset() as usize..]);
    out
}

#[test]
fn frame_is_exactly_one_openzl_frame() {
    // rebuilding with unchanged frames gives the writer's file
    assert_eq!(with_frames(<[u8]>::to_vec), cube().0);
    // one byte after each frame, or one byte missing: the byte counts stay consistent with the
    // IFD, but a frame is no longer exactly one self-contained OpenZL frame
    let f = with_frames(|c| [c, &[0]].concat());
    assert_err!(check(&f), Error::Decode { index: 0, .. });
    let f = with_frames(|c| c[..c.len() - 1].to_vec());
    assert_err!(check(&f), Error::Decode { index: 0, .. });
}
