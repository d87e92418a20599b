//! Spec "Header blob, Creating the header blob, Offset reconstruction": one test per rule.

use super::*;

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
