//! Spec "Resource limits; truncated files and file sizes": one test per rule.

use super::*;

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
    assert_err!(result, Error::Limit { what: Measure::FrameCount, .. });
    assert!(largest < 1 << 20, "largest allocation {largest} bytes");
    // huge tiles: one frame of 65535 x 65535 x 2 bytes exceeds max_frame_bytes
    let (mut f, _) = cube();
    put_u32(&mut f, value(0), 65535);
    put_u32(&mut f, value(1), 65535);
    put_u16(&mut f, value(4), 65535);
    put_u16(&mut f, value(5), 65535);
    let (result, largest) = largest_allocation(|| check(&f));
    assert_err!(result, Error::Limit { what: Measure::DecodedFrameSize, .. });
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
    let cases: [(Limits, Measure, &str); 5] = [
        (limits(|l| l.max_frames = 71), Measure::FrameCount, "frame count N"),
        (limits(|l| l.max_bands = 2), Measure::BandCount, "band count B"),
        (limits(|l| l.max_frame_bytes = 255), Measure::DecodedFrameSize, "decoded frame size"),
        (limits(|l| l.max_trailer_bytes = 20), Measure::TrailerSize, "trailer size"),
        (limits(|l| l.max_time_coords = 1), Measure::TimeCoordCount, "time coordinate count C"),
    ];
    for (l, measure, words) in cases {
        assert_err!(validate(f.as_slice(), None, l), Error::Limit { what, .. } if what == measure);
        assert_eq!(measure.to_string(), words);
        let e = validate(f.as_slice(), None, l).err().unwrap().to_string();
        assert!(e.ends_with(&format!("(limit {})", measure.kind().name())), "{e}");
    }
    // the stateless reader applies them to the blob too
    assert_err!(
        Reader::open_with_blob(f.as_slice(), &b, limits(|l| l.max_frames = 10)),
        Error::Limit { what: Measure::FrameCount, .. }
    );
    // ... including the size of its largest decoded frame
    let small = Reader::open_with_blob(f.as_slice(), &b, limits(|l| l.max_frame_bytes = 80));
    assert_err!(small, Error::Limit { what: Measure::DecodedFrameSize, value: 256, limit: 80 });
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
