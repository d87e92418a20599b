//! Round trips around the layout thresholds (inline vs external IFD values), time axes and
//! georeferencing; deterministic output; the spec's worked example; and proof that a stateless
//! read touches only the frames it needs.

mod common;

use std::sync::Mutex;

use common::*;
use rumi::format::{Georef, ModelType, RasterType, SampleEncoding, TimeAxis, TimeKind, TimeStep, Trailer};
use rumi::ImageSpec;
use rumi::Limits;
use rumi::RangeRead;
use rumi::{build_header, validate};
use rumi::{Reader, Window};

/// A range source that records every range read (`size()` calls are counted separately).
struct Recording<R> {
    inner: R,
    ranges: Mutex<Vec<(u64, usize)>>,
}

impl<R: RangeRead> Recording<R> {
    fn new(inner: R) -> Self {
        Recording { inner, ranges: Mutex::new(Vec::new()) }
    }
    fn take(&self) -> Vec<(u64, usize)> {
        std::mem::take(&mut *self.ranges.lock().unwrap())
    }
}

impl<R: RangeRead> RangeRead for Recording<R> {
    fn read_at(&self, offset: u64, len: usize) -> std::io::Result<Vec<u8>> {
        self.ranges.lock().unwrap().push((offset, len));
        self.inner.read_at(offset, len)
    }
    fn size(&self) -> std::io::Result<u64> {
        self.inner.size()
    }
}

fn full(b: u16, t: u32, y: u32, x: u32) -> Window {
    Window { times: 0..t, bands: (0..u32::from(b)).collect(), rows: 0..y, cols: 0..x }
}

fn u64_at(f: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(f[at..at + 8].try_into().unwrap())
}

/// Value field of IFD entry `i`.
fn value(i: usize) -> usize {
    24 + 20 * i + 12
}

/// Writes `data`, validates the file (with the writer's blob), checks the header builder gives
/// the writer's blob, reads everything back both ways and returns the file and blob.
fn round_trip(spec: ImageSpec, data: &[u8]) -> (Vec<u8>, Vec<u8>) {
    let (b, t, y, x) = (spec.bands, spec.times, spec.length, spec.width);
    let trailer = spec.trailer.clone();
    let georef = spec.georef;
    let (file, blob) = write(spec, data);
    let report = validate(file.as_slice(), Some(&blob), Limits::default()).unwrap();
    assert_eq!(report.compressed_bytes + report.base_frame_offset + report.trailer_bytes, file.len() as u64);
    assert_eq!(build_header(file.as_slice(), Limits::default()).unwrap(), blob);
    for stateless in [false, true] {
        let r = if stateless {
            Reader::open_with_blob(file.as_slice(), &blob, Limits::default()).unwrap()
        } else {
            Reader::open(file.as_slice(), Limits::default()).unwrap()
        };
        let win = full(b, t, y, x);
        let mut out = vec![0u8; r.window_bytes(&win).unwrap() as usize];
        r.read_window(&win, &mut out).unwrap();
        assert!(out == data, "samples differ (stateless: {stateless})");
        assert_eq!(r.trailer().unwrap(), &trailer);
        assert_eq!(r.georef().unwrap(), georef);
    }
    (file, blob)
}

fn u8_image(x: u32, y: u32, b: u16, tile: u16) -> (Vec<u8>, Vec<u8>) {
    let data = samples(SampleEncoding::U8, (x * y) as usize * usize::from(b), 11);
    round_trip(spec(SampleEncoding::U8, x, y, b, 1, (tile, tile), 0, utm()), &data)
}

#[test]
fn frame_count_1_2_3_inline_and_external_tile_values() {
    // N = 1: TileOffsets (8 bytes) and TileByteCounts (4 bytes) are inline
    let (f, blob) = u8_image(10, 6, 1, 16);
    let r = Reader::open_with_blob(f.as_slice(), &blob, Limits::default()).unwrap();
    assert_eq!(r.frame_count(), 1);
    let (base, count) = r.frame_range(0).unwrap();
    assert_eq!(base, 292 + 160);
    assert_eq!(u64_at(&f, value(6)), base);
    assert_eq!(f[value(7)..value(7) + 8], [&(count as u32).to_le_bytes()[..], &[0; 4]].concat());
    assert_eq!(u64_at(&f, value(9)), 292, "the georeferencing follows the IFD directly");
    // N = 2: TileOffsets external (16 bytes at 292), TileByteCounts inline (two counts)
    let (f, blob) = u8_image(20, 6, 1, 16);
    let r = Reader::open_with_blob(f.as_slice(), &blob, Limits::default()).unwrap();
    assert_eq!(r.frame_count(), 2);
    let ((o0, c0), (o1, c1)) = (r.frame_range(0).unwrap(), r.frame_range(1).unwrap());
    assert_eq!(o0, 292 + 16 + 160);
    assert_eq!(u64_at(&f, value(6)), 292);
    assert_eq!((u64_at(&f, 292), u64_at(&f, 300)), (o0, o1));
    assert_eq!(f[value(7)..value(7) + 8], [(c0 as u32).to_le_bytes(), (c1 as u32).to_le_bytes()].concat());
    assert_eq!(u64_at(&f, value(9)), 292 + 16);
    // N = 3: both external, TileByteCounts right after TileOffsets
    let (f, blob) = u8_image(40, 6, 1, 16);
    let r = Reader::open_with_blob(f.as_slice(), &blob, Limits::default()).unwrap();
    assert_eq!(r.frame_count(), 3);
    assert_eq!(r.frame_range(0).unwrap().0, 292 + 24 + 12 + 160);
    assert_eq!((u64_at(&f, value(6)), u64_at(&f, value(7))), (292, 292 + 24));
    for i in 0..3u64 {
        let (_, c) = r.frame_range(i).unwrap();
        let at = 292 + 24 + 4 * i as usize;
        assert_eq!(u32::from_le_bytes(f[at..at + 4].try_into().unwrap()), c as u32);
    }
    assert_eq!(u64_at(&f, value(9)), 292 + 36);
}

#[test]
fn same_bands_and_frames_start_at_the_same_byte() {
    let (a, ba) = u8_image(16, 48, 2, 8); // 2 across x 6 down x 2 bands = 24 frames
    let (b, bb) = u8_image(48, 16, 2, 8); // 6 across x 2 down x 2 bands = 24 frames
    let (c, bc) = u8_image(40, 6, 2, 16); // 3 across x 1 down x 2 bands = 6 frames
    let open = |f: &[u8], blob: &[u8]| {
        let r = Reader::open_with_blob(f.to_vec(), blob, Limits::default()).unwrap();
        (r.frame_count(), r.frame_range(0).unwrap().0)
    };
    let ((na, oa), (nb, ob), (nc, oc)) = (open(&a, &ba), open(&b, &bb), open(&c, &bc));
    assert_eq!((na, nb, nc), (24, 24, 6));
    assert_eq!(oa, ob);
    assert_eq!(oa, 292 + 12 * 24 + 160);
    assert_eq!(oc, 292 + 12 * 6 + 160);
}

#[test]
fn bands_4_inline_and_5_external_sample_values() {
    // B = 4: four shorts fill the 8-byte value field
    let (f, _) = u8_image(9, 7, 4, 8);
    assert_eq!(f[value(2)..value(2) + 8], [8, 0, 8, 0, 8, 0, 8, 0]);
    assert_eq!(f[value(8)..value(8) + 8], [1, 0, 1, 0, 1, 0, 1, 0]);
    // B = 5: BitsPerSample first in the external area, SampleFormat after TileByteCounts
    let (f, blob) = u8_image(9, 7, 5, 8); // N = 2 * 1 * 5 = 10
    let r = Reader::open_with_blob(f.as_slice(), &blob, Limits::default()).unwrap();
    let n = r.frame_count() as usize;
    assert_eq!(n, 10);
    assert_eq!(u64_at(&f, value(2)), 292);
    assert_eq!(f[292..302], [8, 0, 8, 0, 8, 0, 8, 0, 8, 0]);
    assert_eq!(u64_at(&f, value(6)), 302);
    assert_eq!(u64_at(&f, value(7)), 302 + 8 * n as u64);
    let sf = 302 + 12 * n;
    assert_eq!(u64_at(&f, value(8)), sf as u64);
    assert_eq!(f[sf..sf + 10], [1, 0, 1, 0, 1, 0, 1, 0, 1, 0]);
    assert_eq!(r.frame_range(0).unwrap().0, 292 + 10 + 12 * n as u64 + 10 + 160);
}

fn with_time(mut s: ImageSpec, time: TimeAxis) -> ImageSpec {
    s.trailer = Trailer { band_texts: s.trailer.band_texts, time };
    s
}

fn cube_spec(t: u32) -> (ImageSpec, Vec<u8>) {
    let (x, y, b) = (13u32, 11u32, 2u16);
    let data = samples(SampleEncoding::I16, (x * y) as usize * usize::from(b) * t as usize, 5);
    (spec(SampleEncoding::I16, x, y, b, t, (8, 8), 4, utm()), data)
}

#[test]
fn instants_with_residuals_and_negative_times() {
    // irregular instants, some before 1970, second resolution
    let secs = vec![-1_000_000_007, -86_400, -1, 0, 59, 1_700_000_000];
    let axis = TimeAxis::from_seconds(TimeKind::Instant, secs.clone(), 6).unwrap();
    assert_eq!(axis.scale, 1);
    let (s, data) = cube_spec(6);
    let (f, _) = round_trip(with_time(s, axis), &data);
    let r = Reader::open(f.as_slice(), Limits::default()).unwrap();
    let time = &r.trailer().unwrap().time;
    for (i, &v) in secs.iter().enumerate() {
        assert_eq!(time.step(i), TimeStep::Instant(i128::from(v)));
    }
    assert_eq!(time.step_iso(1), "1969-12-31T00:00:00Z");
    assert_eq!(time.step_iso(2), "1969-12-31T23:59:59Z");
    // the residuals are really stored: time_bits > 0
    let t = r.trailer_offset() as usize + 6 + 2 * (2 + "band 0".len());
    assert!(f[t + 1] > 0, "time_bits is {}", f[t + 1]);
}

#[test]
fn whole_day_instants_before_1970_use_day_scale() {
    let secs: Vec<i64> = [-400, -3, 0, 2, 31].iter().map(|d| d * 86_400).collect();
    let axis = TimeAxis::from_seconds(TimeKind::Instant, secs.clone(), 5).unwrap();
    assert_eq!(axis.scale, 86_400);
    assert_eq!(axis.coords, vec![-400, -3, 0, 2, 31]);
    let (s, data) = cube_spec(5);
    let (f, _) = round_trip(with_time(s, axis), &data);
    let r = Reader::open(f.as_slice(), Limits::default()).unwrap();
    assert_eq!(r.trailer().unwrap().time.step_iso(0), "1968-11-27");
    assert_eq!(r.trailer().unwrap().time.step(4), TimeStep::Instant(31 * 86_400));
}

#[test]
fn intervals_with_gaps_and_residuals() {
    // [start, end) pairs: meeting, gaps, uneven lengths, one before 1970
    let secs = vec![-3_600, 0, 0, 1_800, 7_200, 7_201, 100_000, 200_003];
    let axis = TimeAxis::from_seconds(TimeKind::Interval, secs.clone(), 4).unwrap();
    assert_eq!(axis.scale, 1);
    let (s, data) = cube_spec(4);
    let (f, _) = round_trip(with_time(s, axis), &data);
    let r = Reader::open(f.as_slice(), Limits::default()).unwrap();
    let time = &r.trailer().unwrap().time;
    assert_eq!(time.kind, TimeKind::Interval);
    assert_eq!(time.step(2), TimeStep::Interval(7_200, 7_201));
    assert_eq!(time.step_iso(0), "1969-12-31T23:00:00Z/1970-01-01T00:00:00Z");
}

#[test]
fn image_with_one_interval() {
    // an annual composite: an Image (T = 1) labelled with one interval in days
    let axis = TimeAxis::from_seconds(TimeKind::Interval, vec![18_262 * 86_400, 18_628 * 86_400], 1).unwrap();
    let data = samples(SampleEncoding::F32, 30 * 20 * 3, 1);
    let s = with_time(spec(SampleEncoding::F32, 30, 20, 3, 1, (16, 16), 1, utm()), axis);
    let (f, _) = round_trip(s, &data);
    let r = Reader::open(f.as_slice(), Limits::default()).unwrap();
    assert_eq!(r.trailer().unwrap().time.step_iso(0), "2020-01-01/2021-01-01");
}

#[test]
fn georeferencing_variants() {
    let cases = [
        Georef::Undefined { raster_type: RasterType::Area },
        Georef::Undefined { raster_type: RasterType::Point },
        Georef::Epsg {
            model: ModelType::Geographic,
            raster_type: RasterType::Area,
            epsg: 4326,
            affine: [0.25, 0.0, -180.0, 0.0, -0.25, 90.0],
        },
        Georef::Epsg {
            model: ModelType::Projected,
            raster_type: RasterType::Point,
            epsg: 32631,
            affine: [10.0, 0.0, 600_000.0, 0.0, -10.0, 5_000_000.0],
        },
        // rotated: row and column rotation terms
        Georef::Epsg {
            model: ModelType::Projected,
            raster_type: RasterType::Area,
            epsg: 3035,
            affine: [8.66, 5.0, 4_321_000.0, 5.0, -8.66, 3_210_000.0],
        },
    ];
    for g in cases {
        let data = samples(SampleEncoding::U16, 21 * 9, 2);
        let (f, _) = round_trip(spec(SampleEncoding::U16, 21, 9, 1, 1, (8, 8), 0, g), &data);
        let geo = u64_at(&f, value(9)) as usize;
        let m: Vec<f64> =
            (0..16).map(|k| f64::from_le_bytes(f[geo + 8 * k..geo + 8 * k + 8].try_into().unwrap())).collect();
        let keys: Vec<u16> =
            (0..16).map(|k| u16::from_le_bytes([f[geo + 128 + 2 * k], f[geo + 129 + 2 * k]])).collect();
        assert_eq!(keys[..4], [1, 1, 0, 3]);
        assert_eq!(m[8..12], [0.0; 4], "third row");
        match g {
            Georef::Undefined { raster_type } => {
                let r = if raster_type == RasterType::Area { 1 } else { 2 };
                assert_eq!(keys[4..], [1024, 0, 1, 0, 1025, 0, 1, r, 2048, 0, 1, 0]);
                assert_eq!(m, [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0]);
            }
            Georef::Epsg { model, epsg, affine, .. } => {
                let (mt, key) = if model == ModelType::Projected { (1, 3072) } else { (2, 2048) };
                assert_eq!([keys[7], keys[12], keys[15]], [mt, key, epsg]);
                assert_eq!([m[0], m[1], m[3], m[4], m[5], m[7]], affine);
            }
        }
    }
}

#[test]
fn output_is_deterministic() {
    for (enc, b, t, unit) in [(SampleEncoding::U16, 3u16, 4u32, 7u16), (SampleEncoding::F64, 1, 1, 0)] {
        let data = samples(enc, 45 * 33 * usize::from(b) * t as usize, 9);
        let s = spec(enc, 45, 33, b, t, (16, 16), unit, utm());
        let (f1, b1) = write(s.clone(), &data);
        let (f2, b2) = write(s, &data);
        assert!(f1 == f2, "two writes of the same input differ");
        assert_eq!(b1, b2);
    }
}

/// The spec's "Selective read model" example: Cube (T=3, B=4, 1024 x 1024), tiles 256 x 256,
/// frame_unit 0; t = 2, bands 1 and 3, y 512..768, x 256..512 needs frames 113 and 119 only.
#[test]
fn spec_worked_example_reads_frames_113_and_119() {
    let (t, b, y, x) = (3u32, 4u16, 1024u32, 1024u32);
    let data = samples(SampleEncoding::U8, (t * u32::from(b) * y * x) as usize, 4);
    let (file, blob) = write(spec(SampleEncoding::U8, x, y, b, t, (256, 256), 0, utm()), &data);
    let r = Reader::open_with_blob(Recording::new(file.as_slice()), &blob, Limits::default()).unwrap();
    assert_eq!(r.layout().grid_size(), 16);
    assert_eq!(r.frame_count(), 192);
    let win = Window { times: 2..3, bands: vec![1, 3], rows: 512..768, cols: 256..512 };
    assert_eq!(r.frames_for(&win).unwrap(), vec![113, 119]);
    assert!(r.source().take().is_empty(), "opening with a blob reads nothing");
    let mut out = vec![0u8; r.window_bytes(&win).unwrap() as usize];
    r.read_window(&win, &mut out).unwrap();
    let mut ranges = r.source().take();
    ranges.sort_unstable();
    let expect: Vec<(u64, usize)> =
        [113u64, 119].iter().map(|&i| r.frame_range(i).map(|(o, n)| (o, n as usize)).unwrap()).collect();
    assert_eq!(ranges, expect, "exactly the two frames are fetched");
    // the samples are the right ones
    for (k, &band) in [1usize, 3].iter().enumerate() {
        for yy in 512..768usize {
            let src = ((2 * 4 + band) * 1024 + yy) * 1024 + 256;
            let dst = (k * 256 + (yy - 512)) * 256;
            assert_eq!(out[dst..dst + 256], data[src..src + 256]);
        }
    }
    // offset[k] = base_frame_offset + k * count_min + sum(residual[0:k])
    let counts = &r.blob().counts;
    let min = u64::from(*counts.iter().min().unwrap());
    let base = r.layout().base_frame_offset().unwrap();
    assert_eq!(base, 292 + 8 * 192 + 4 * 192 + 160);
    for k in [0usize, 113, 119, 191] {
        let residuals: u64 = counts[..k].iter().map(|&c| u64::from(c) - min).sum();
        assert_eq!(r.frame_range(k as u64).unwrap().0, base + k as u64 * min + residuals);
    }
}

#[test]
fn stateless_read_touches_no_ifd_byte() {
    let (t, b, y, x) = (2u32, 3u16, 70u32, 50u32);
    for unit in [0u16, 4, 9] {
        let data = samples(SampleEncoding::U16, (t * u32::from(b) * y * x) as usize, 6);
        let (file, blob) = write(spec(SampleEncoding::U16, x, y, b, t, (16, 16), unit, utm()), &data);
        let r = Reader::open_with_blob(Recording::new(file.as_slice()), &blob, Limits::default()).unwrap();
        r.set_cache_bytes(0); // every window fetches its frames (no decoded-frame cache)
        let base = r.layout().base_frame_offset().unwrap();
        let ifd = 16..base - 160;
        assert!(r.source().take().is_empty());
        let windows = [
            full(b, t, y, x),
            Window { times: 1..2, bands: vec![2, 0], rows: 3..40, cols: 17..50 },
            Window { times: 0..1, bands: vec![1], rows: 69..70, cols: 0..1 },
        ];
        for win in &windows {
            let mut out = vec![0u8; r.window_bytes(win).unwrap() as usize];
            r.read_window(win, &mut out).unwrap();
            let ranges = r.source().take();
            assert!(!ranges.is_empty());
            for &(o, n) in &ranges {
                assert!(o >= base && o + n as u64 <= r.trailer_offset(), "range {o}+{n} outside the frames");
                assert!(o + n as u64 <= ifd.start || o >= ifd.end, "range {o}+{n} touches the IFD");
            }
            // every range is one whole frame
            let frames = r.frames_for(win).unwrap();
            let mut expect: Vec<(u64, usize)> =
                frames.iter().map(|&i| r.frame_range(i).map(|(o, n)| (o, n as usize)).unwrap()).collect();
            let mut got = ranges.clone();
            expect.sort_unstable();
            got.sort_unstable();
            assert_eq!(got, expect);
        }
        // the georeferencing is exactly the 160 bytes before the first frame, read once
        assert_eq!(r.georef().unwrap(), utm());
        assert_eq!(r.georef().unwrap(), utm());
        assert_eq!(r.source().take(), vec![(base - 160, 160)]);
        // the trailer is everything after the last frame
        assert_eq!(r.trailer().unwrap().band_texts, texts(b));
        assert_eq!(r.source().take(), vec![(r.trailer_offset(), file.len() - r.trailer_offset() as usize)]);
    }
}
