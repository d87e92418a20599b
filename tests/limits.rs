//! Absurd headers are refused before any allocation: a header claiming about four billion
//! pixels in one frame fails on the frame-size limit in every open path (validated, stateless,
//! C ABI), while the largest allocation made stays under 1 MiB (a counting allocator, as in
//! tests/validation.rs). Memory that cannot be had fails cleanly instead of aborting.

#[path = "../crates/rumi/tests/common/mod.rs"]
mod common;

use common::*;
#[path = "support/vec_io.rs"]
mod vec_io;
use gdal_rumi::capi::*;
use rumi::format::SampleEncoding;
use rumi::limits::Measure;
use rumi::validate;
use rumi::Reader;
use rumi::{Error, Limits};
use vec_io::vec_io;

#[path = "../crates/rumi/tests/common/alloc.rs"]
mod alloc;
use alloc::largest_allocation;

/// A valid uint16 Cube (B = 3, T = 2, frame_unit 0) and its blob, both patched to claim
/// `width x length` pixels in `tile x tile` tiles (the blob keeps N = 72 packed counts).
fn claiming(width: u32, length: u32, tile: u16) -> (Vec<u8>, Vec<u8>) {
    let n = 37 * 29 * 3 * 2;
    let (mut f, mut b) =
        write(spec(SampleEncoding::U16, 37, 29, 3, 2, (16, 8), 0, utm()), &samples(SampleEncoding::U16, n, 7));
    let value = |i: usize| 24 + 20 * i + 12;
    f[value(0)..value(0) + 4].copy_from_slice(&width.to_le_bytes());
    f[value(1)..value(1) + 4].copy_from_slice(&length.to_le_bytes());
    f[value(4)..value(4) + 2].copy_from_slice(&tile.to_le_bytes());
    f[value(5)..value(5) + 2].copy_from_slice(&tile.to_le_bytes());
    b[6..10].copy_from_slice(&width.to_le_bytes());
    b[10..14].copy_from_slice(&length.to_le_bytes());
    b[18..20].copy_from_slice(&tile.to_le_bytes());
    b[20..22].copy_from_slice(&tile.to_le_bytes());
    (f, b)
}

const FOUR_GIGAPIXEL_FRAME: u64 = 65535 * 65535 * 2;

#[test]
fn four_gigapixel_frame_is_refused_without_allocating_in_rust() {
    let (f, b) = claiming(65535, 65535, 65535);
    let expected = |e: &Error| matches!(e, Error::Limit { what: Measure::DecodedFrameSize, value, .. } if *value == FOUR_GIGAPIXEL_FRAME);
    let (r, largest) = largest_allocation(|| validate(f.as_slice(), None, Limits::default()).map(|_| ()));
    assert!(r.as_ref().is_err_and(expected), "{r:?}");
    assert!(largest < 1 << 20, "validate: largest allocation {largest} bytes");
    let (r, largest) = largest_allocation(|| Reader::open(f.as_slice(), Limits::default()).map(|_| ()));
    assert!(r.as_ref().is_err_and(expected), "{r:?}");
    assert!(largest < 1 << 20, "open: largest allocation {largest} bytes");
    let (r, largest) = largest_allocation(|| Reader::open_with_blob(f.as_slice(), &b, Limits::default()).map(|_| ()));
    assert!(r.as_ref().is_err_and(expected), "{r:?}");
    assert!(largest < 1 << 20, "open_with_blob: largest allocation {largest} bytes");
}

#[test]
fn four_gigapixel_frame_is_refused_without_allocating_through_the_c_abi() {
    let (f, b) = claiming(65535, 65535, 65535);
    let io = vec_io(&f);
    for blob in [None, Some(&b)] {
        let mut ds: *mut rumi_dataset = std::ptr::null_mut();
        let (bp, bl) = blob.map_or((std::ptr::null(), 0), |b| (b.as_ptr(), b.len()));
        // SAFETY: valid io and blob, NULL limits (the defaults), writable out.
        let (code, largest) = largest_allocation(|| unsafe { rumi_open(&io, bp, bl, std::ptr::null(), &mut ds) });
        assert_eq!(code, RUMI_ERR_LIMIT);
        assert!(ds.is_null());
        assert!(largest < 1 << 20, "rumi_open: largest allocation {largest} bytes");
        // SAFETY: rumi_last_error returns a valid C string.
        let msg = unsafe { std::ffi::CStr::from_ptr(rumi_last_error()) }.to_string_lossy().into_owned();
        assert!(msg.contains(&format!("decoded frame size is {FOUR_GIGAPIXEL_FRAME}")), "{msg}");
        assert!(msg.contains("RUMI_MAX_FRAME_BYTES"), "{msg}");
    }
}

#[test]
fn a_plausible_four_gigapixel_header_fails_on_the_short_file_without_allocating_the_raster() {
    // 65536 x 65536 pixels in 256 x 256 tiles: N = 393216 frames is within the limits; a 32-byte
    // blob (every frame 100 bytes) describes it. The file is far shorter than the 39 MB of frames
    // the blob's header promises, which the stateless open sees before unpacking the N counts.
    let (f, b) = claiming(65536, 65536, 256);
    let mut blob = b[..32].to_vec();
    blob[27..31].copy_from_slice(&100u32.to_le_bytes());
    blob[31] = 0;
    let (r, largest) =
        largest_allocation(|| Reader::open_with_blob(f.as_slice(), &blob, Limits::default()).map(|_| ()));
    let expected = 292 + 12 * 393216 + 160 + 393216 * 100;
    assert!(matches!(r, Err(Error::FileSize { expected: e, .. }) if e == expected), "{r:?}");
    assert!(largest < 1 << 20, "largest allocation {largest} bytes");
    // the same blob over a file long enough: the counts and offsets are allocated (5 MB), never
    // the 8 GiB raster, and the reads fail at the first structure past the end of the file
    let long = [&f[..], &vec![0u8; expected as usize - f.len()]].concat();
    let (r, largest) = largest_allocation(|| {
        Reader::open_with_blob(long.as_slice(), &blob, Limits::default()).map(|r| r.trailer().map(|_| ()))
    });
    assert!(
        matches!(r, Ok(Err(Error::FileSize { .. } | Error::Truncated { .. } | Error::TrailerMagic { .. }))),
        "{r:?}"
    );
    assert!(largest < 8 << 20, "largest allocation {largest} bytes");
    let (r, largest) = largest_allocation(|| validate(f.as_slice(), None, Limits::default()).map(|_| ()));
    assert!(matches!(r, Err(Error::IfdCount { found: 72, expected: 393216, .. })), "{r:?}");
    assert!(largest < 1 << 20, "largest allocation {largest} bytes");
}

#[test]
fn a_32_byte_blob_claiming_the_most_frames_costs_no_allocation() {
    // N = 2^24 one-pixel tiles (the default frame limit), every frame one byte: unpacked, the
    // counts and offsets would take 200 MB. Against a short file (stateless open) and against a
    // file of another shape (validate --header), the blob's fixed header is enough to refuse it.
    let (f, b) = claiming(37, 29, 16);
    let mut blob = b[..32].to_vec();
    blob[6..10].copy_from_slice(&4096u32.to_le_bytes());
    blob[10..14].copy_from_slice(&4096u32.to_le_bytes());
    blob[14..18].copy_from_slice(&1u32.to_le_bytes());
    blob[18..20].copy_from_slice(&1u16.to_le_bytes());
    blob[20..22].copy_from_slice(&1u16.to_le_bytes());
    blob[22..24].copy_from_slice(&1u16.to_le_bytes());
    blob[27..31].copy_from_slice(&1u32.to_le_bytes());
    blob[31] = 0;
    let (r, largest) =
        largest_allocation(|| Reader::open_with_blob(f.as_slice(), &blob, Limits::default()).map(|_| ()));
    assert!(matches!(r, Err(Error::FileSize { .. })), "{r:?}");
    assert!(largest < 1 << 20, "open_with_blob: largest allocation {largest} bytes");
    let n = 37 * 29 * 3 * 2;
    let (f, _) = write(spec(SampleEncoding::U16, 37, 29, 3, 2, (16, 8), 0, utm()), &samples(SampleEncoding::U16, n, 7));
    let (r, largest) = largest_allocation(|| validate(f.as_slice(), Some(&blob), Limits::default()).map(|_| ()));
    assert!(matches!(r, Err(Error::BlobMismatch { field: "image_width", blob: 4096, file: 37 })), "{r:?}");
    assert!(largest < 1 << 20, "validate: largest allocation {largest} bytes");
}

#[test]
fn a_huge_spacing_is_an_error_not_a_wrapped_size() {
    // (count - 1) * spacing must not wrap around: the extent of the request is checked before
    // anything is written
    let n = 37 * 29 * 3 * 2;
    let (f, _) = write(spec(SampleEncoding::U16, 37, 29, 3, 2, (16, 8), 0, utm()), &samples(SampleEncoding::U16, n, 7));
    let io = vec_io(&f);
    let mut ds: *mut rumi_dataset = std::ptr::null_mut();
    // SAFETY: valid io, NULL blob and limits, writable out.
    assert_eq!(unsafe { rumi_open(&io, std::ptr::null(), 0, std::ptr::null(), &mut ds) }, RUMI_OK);
    let mut dst = vec![0u8; 4096];
    let plane = rumi_plane { band: 0, time: 0, offset: 0 };
    for spacing in [i64::MAX / 2, i64::MAX / 7 + 1, i64::MAX, i64::MIN] {
        let req = rumi_request {
            planes: &plane,
            plane_count: 1,
            rows: rumi_axis { start: 0, count: 8, step: 1, spacing },
            cols: rumi_axis { start: 0, count: 16, step: 1, spacing: 2 },
            origin: dst.as_mut_ptr().cast(),
            output: RUMI_OUTPUT_NATIVE,
        };
        // SAFETY: live dataset; the request is refused before any write (what is under test).
        let code = unsafe { rumi_read(ds, &req, 1) };
        assert!(code != RUMI_OK && code != RUMI_ERR_INTERNAL, "spacing {spacing}: {code}");
    }
    // SAFETY: came from rumi_open, freed once.
    unsafe { rumi_free(ds) };
}
