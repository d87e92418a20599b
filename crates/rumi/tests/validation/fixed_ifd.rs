//! Spec "Fixed IFD, Placement, Deriving base_frame_offset, Sample encodings, frame_unit": one test per rule.

use super::*;

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
