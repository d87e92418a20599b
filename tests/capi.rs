//! The C ABI (src/capi/, include/rumi.h) driven from Rust the way a C host drives it, and the
//! GDAL adapter's private protocol (src/driver/protocol/, called through the crate's Rust
//! API): callbacks over an in-memory file, stateless and validating opens, frame extraction
//! against the reader, conversions, and errors reported through codes and `rumi_last_error`.

#[path = "../crates/rumi/tests/common/mod.rs"]
mod common;

use std::ffi::{c_int, c_void, CStr};
use std::ptr;
use std::sync::atomic::{AtomicUsize, Ordering};

use common::*;
use gdal_rumi::capi::*;
use gdal_rumi::driver::protocol::*;
use rumi::format::{FrameUnit, SampleEncoding, TimeAxis, TimeKind};
use rumi::Limits;
use rumi::{Reader, Window};

/// The host side: a byte buffer, and counters of the callback calls.
struct Host {
    bytes: Vec<u8>,
    reads: AtomicUsize,
    fail_reads: bool,
}

unsafe extern "C" fn read_cb(ctx: *mut c_void, offset: u64, len: usize, buf: *mut u8) -> c_int {
    // SAFETY: ctx is the &Host passed in `io`, alive for the whole test.
    let host = unsafe { &*(ctx as *const Host) };
    host.reads.fetch_add(1, Ordering::Relaxed);
    if host.fail_reads {
        return RUMI_IO_ERROR;
    }
    let Some(end) = (offset as usize).checked_add(len).filter(|&e| e <= host.bytes.len()) else {
        return RUMI_IO_EOF;
    };
    // SAFETY: the ABI promises `len` writable bytes at `buf`.
    unsafe { ptr::copy_nonoverlapping(host.bytes[offset as usize..end].as_ptr(), buf, len) };
    RUMI_IO_OK
}

unsafe extern "C" fn size_cb(ctx: *mut c_void, size: *mut u64) -> c_int {
    // SAFETY: as above; `size` is writable per the ABI.
    unsafe {
        let host = &*(ctx as *const Host);
        *size = host.bytes.len() as u64;
    }
    RUMI_IO_OK
}

fn io(host: &Host) -> rumi_io {
    rumi_io {
        ctx: host as *const Host as *mut c_void,
        read: Some(read_cb),
        size: Some(size_cb),
        read_multi: None,
        prefix: ptr::null(),
        prefix_len: 0,
    }
}

fn host(bytes: Vec<u8>) -> Host {
    Host { bytes, reads: AtomicUsize::new(0), fail_reads: false }
}

fn last_error() -> String {
    // SAFETY: rumi_last_error returns a valid C string.
    unsafe { CStr::from_ptr(rumi_last_error()) }.to_string_lossy().into_owned()
}

fn open(host: &Host, blob: Option<&[u8]>) -> Result<*mut rumi_dataset, (c_int, String)> {
    let io = io(host);
    let mut ds = ptr::null_mut();
    let (p, n) = blob.map_or((ptr::null(), 0), |b| (b.as_ptr(), b.len()));
    // SAFETY: valid io, blob and out pointers.
    let code = unsafe { rumi_open(&io, p, n, ptr::null(), &mut ds) };
    if code == RUMI_OK {
        Ok(ds)
    } else {
        assert!(ds.is_null());
        Err((code, last_error()))
    }
}

fn text(p: *const std::ffi::c_char) -> Option<String> {
    // SAFETY: non-null results of the ABI are valid C strings.
    (!p.is_null()).then(|| unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned())
}

/// The `rumi_gdal_metadata` list `kind` of (`band`, `time`) as strings; None when the call fails.
fn md(ds: *const rumi_dataset, kind: u32, band: u32, time: i64) -> Option<Vec<String>> {
    // SAFETY: `ds` is live (the tests' contract); the list is read before the next call.
    let mut p = unsafe { rumi_gdal_metadata(ds, kind, band, time, ptr::null()) };
    if p.is_null() {
        return None;
    }
    let mut items = Vec::new();
    loop {
        // SAFETY: a list of NUL-terminated strings ending with an empty one.
        let item = unsafe { CStr::from_ptr(p) };
        if item.is_empty() {
            return Some(items);
        }
        items.push(item.to_string_lossy().into_owned());
        // SAFETY: the next string starts after this one's NUL, inside the list.
        p = unsafe { p.add(item.to_bytes().len() + 1) };
    }
}

/// `rumi_time_values` of steps `first..first + count` (`bounds` 1: start and end) into a
/// buffer of `len` values: the values, or the error code and message.
fn time_values(
    ds: *const rumi_dataset,
    first: u32,
    count: u32,
    bounds: u32,
    len: usize,
) -> Result<Vec<i64>, (c_int, String)> {
    let mut out = vec![0i64; len];
    // SAFETY: `ds` is live; `out` holds `len` writable values.
    let code = unsafe { rumi_time_values(ds, first, count, bounds, out.as_mut_ptr(), len) };
    if code == RUMI_OK {
        Ok(out)
    } else {
        Err((code, last_error()))
    }
}

/// One `rumi_read` of plane (`band`, `time`), rows `rows.0..rows.0 + rows.1` and columns
/// `cols.0..cols.0 + cols.1`, into `dst` with rows `stride` bytes apart.
#[allow(clippy::too_many_arguments)]
fn read_plane(
    ds: *const rumi_dataset,
    band: u32,
    time: u32,
    rows: (u32, u32),
    cols: (u32, u32),
    sample: usize,
    output: u32,
    dst: &mut [u8],
    stride: usize,
) -> c_int {
    let plane = rumi_plane { band, time, offset: 0 };
    let req = rumi_request {
        planes: &plane,
        plane_count: 1,
        rows: rumi_axis { start: rows.0, count: rows.1, step: 1, spacing: stride as i64 },
        cols: rumi_axis { start: cols.0, count: cols.1, step: 1, spacing: sample as i64 },
        origin: dst.as_mut_ptr().cast(),
        output,
    };
    assert!(rows.1 == 0 || (rows.1 as usize - 1) * stride + cols.1 as usize * sample <= dst.len());
    // SAFETY: live dataset; the request addresses only bytes of `dst` (asserted above).
    unsafe { rumi_read(ds, &req, 1) }
}

#[test]
fn planes_match_the_reader_for_every_frame_unit() {
    let enc = SampleEncoding::U16;
    for (b, t) in [(1u16, 1u32), (3, 1), (1, 3), (2, 3)] {
        for unit in FrameUnit::valid_for(u32::from(b), t) {
            let (x, y) = (37u32, 29u32);
            let data = samples(enc, (x * y) as usize * usize::from(b) * t as usize, 7);
            let (file, blob) = write(spec(enc, x, y, b, t, (16, 8), unit.value().into(), utm()), &data);
            let reader = Reader::open(file.as_slice(), Limits::default()).unwrap();
            let h = host(file.clone());
            for stateless in [false, true] {
                let ds = open(&h, stateless.then_some(blob.as_slice())).unwrap();
                let mut info = rumi_info::default();
                // SAFETY: live dataset, writable out.
                assert_eq!(unsafe { rumi_get_info(ds, &mut info) }, RUMI_OK);
                assert_eq!((info.width, info.length, info.bands, info.times), (x, y, u32::from(b), t));
                assert_eq!(info.frame_unit, u32::from(unit.value()));
                assert_eq!(info.cell_frames, u32::from(!unit.is_tile()));
                assert_eq!(info.stateless, u32::from(stateless));
                assert_eq!(info.encoding, RUMI_ENCODING_UINT16);
                for row in 0..info.tiles_down {
                    for col in 0..info.tiles_across {
                        let (th, tw) = ((y - row * 8).min(8), (x - col * 16).min(16));
                        for tt in 0..t {
                            for bb in 0..u32::from(b) {
                                // A block buffer wider than the tile: stride 20 samples.
                                let stride = 20 * 2;
                                let mut block = vec![0xAAu8; stride * 8];
                                let code = read_plane(
                                    ds,
                                    bb,
                                    tt,
                                    (row * 8, th),
                                    (col * 16, tw),
                                    2,
                                    RUMI_OUTPUT_NATIVE,
                                    &mut block,
                                    stride,
                                );
                                assert_eq!(code, RUMI_OK, "{}", last_error());
                                let win = Window {
                                    times: tt..tt + 1,
                                    bands: vec![bb],
                                    rows: row * 8..row * 8 + th,
                                    cols: col * 16..col * 16 + tw,
                                };
                                let mut want = vec![0u8; reader.window_bytes(&win).unwrap() as usize];
                                reader.read_window(&win, &mut want).unwrap();
                                for r in 0..th as usize {
                                    let got = &block[r * stride..r * stride + tw as usize * 2];
                                    assert_eq!(got, &want[r * tw as usize * 2..(r + 1) * tw as usize * 2]);
                                    // bytes past the plane are untouched
                                    assert!(block[r * stride + tw as usize * 2..(r + 1) * stride]
                                        .iter()
                                        .all(|&v| v == 0xAA));
                                }
                            }
                        }
                    }
                }
                // SAFETY: freed once, no other use.
                unsafe { rumi_free(ds) };
            }
        }
    }
}

#[test]
fn metadata_queries() {
    let (file, blob) =
        write(spec(SampleEncoding::U8, 5, 4, 2, 3, (4, 4), 4, utm()), &samples(SampleEncoding::U8, 120, 1));
    let h = host(file);
    let ds = open(&h, Some(&blob)).unwrap();
    // SAFETY: live dataset throughout; outputs are valid.
    unsafe {
        assert_eq!(text(rumi_band_text(ds, 1)).as_deref(), Some("band 1"));
        assert!(rumi_band_text(ds, 2).is_null());
        assert!(last_error().contains("band 2 does not exist"), "{}", last_error());
        // the time step texts GDAL shows: an instant axis has a TIME per step and no end
        assert_eq!(md(ds, RUMI_MD_DATASET, 0, 0).unwrap(), ["TIME=2020-09-13T12:26:40Z"]);
        assert_eq!(md(ds, RUMI_MD_DATASET, 0, 2).unwrap(), ["TIME=2020-09-23T12:26:54Z"]);
        assert_eq!(
            md(ds, RUMI_MD_DATASET, 0, -1).unwrap(),
            ["TIME_COUNT=3", "TIMES=2020-09-13T12:26:40Z,2020-09-18T12:26:47Z,2020-09-23T12:26:54Z"]
        );
        assert_eq!(
            md(ds, RUMI_MD_BAND, 1, 2).unwrap(),
            ["BAND_TEXT=band 1", "TIME_INDEX=2", "TIME=2020-09-23T12:26:54Z"]
        );
        assert!(md(ds, RUMI_MD_DATASET, 0, 3).is_none());
        assert!(last_error().contains("time step 3 does not exist (T = 3)"), "{}", last_error());
        assert!(md(ptr::null(), RUMI_MD_DATASET, 0, 0).is_none());
        // the time axis: kind, scale and the raw coordinates (T of them for instants)
        assert_eq!(md(ds, RUMI_MD_TIME_AXIS, 0, -1).unwrap(), ["TIME_TYPE=INSTANT", "TIME_SCALE=1"]);
        assert_eq!(time_values(ds, 0, 3, 0, 3), Ok(vec![1_600_000_000, 1_600_432_007, 1_600_864_014]));
        assert_eq!(time_values(ds, 1, 1, 0, 1), Ok(vec![1_600_432_007]));
        let (code, msg) = time_values(ds, 0, 3, 1, 6).unwrap_err();
        assert_eq!((code, msg.as_str()), (RUMI_ERR_ARGUMENT, "the time axis holds instants: steps have no bounds"));
        let (code, msg) = time_values(ds, 2, 2, 0, 2).unwrap_err();
        assert_eq!((code, msg.as_str()), (RUMI_ERR_ARGUMENT, "time steps 2+2 do not exist (T = 3)"));
        let (code, msg) = time_values(ds, 0, 3, 0, 2).unwrap_err();
        assert_eq!((code, msg.as_str()), (RUMI_ERR_ARGUMENT, "rumi_time_values: 3 values for a buffer of 2"));
        assert_eq!(rumi_time_values(ds, 0, 3, 0, ptr::null_mut(), 3), RUMI_ERR_ARGUMENT);
        assert_eq!(rumi_time_values(ptr::null(), 0, 1, 0, [0i64].as_mut_ptr(), 1), RUMI_ERR_ARGUMENT);
        let mut g = rumi_georef::default();
        assert_eq!(rumi_get_georef(ds, &mut g), RUMI_OK);
        assert_eq!((g.model, g.raster_type, g.epsg), (1, 1, 32631));
        assert_eq!(g.affine, [20.0, 0.0, 500000.0, 0.0, -20.0, 4_000_000.0]);
        rumi_free(ds);
        assert_eq!(text(rumi_gdal_encoding_name(RUMI_ENCODING_FLOAT8_E4M3FN)).as_deref(), Some("float8_e4m3fn"));
        assert!(rumi_gdal_encoding_name(99).is_null());
        assert_eq!(text(rumi_version()).as_deref(), Some(env!("CARGO_PKG_VERSION")));
        assert_eq!(rumi_gdal_output_sample_bytes(RUMI_ENCODING_COMPLEX32, RUMI_OUTPUT_FLOAT32), 8);
        assert_eq!(rumi_gdal_output_sample_bytes(RUMI_ENCODING_UINT16, RUMI_OUTPUT_FLOAT32), 0);
        assert_eq!(rumi_gdal_output_sample_bytes(RUMI_ENCODING_UINT16, RUMI_OUTPUT_NATIVE), 2);
    }
}

/// An interval axis in days: each step has a start and an (exclusive) end, as texts (dates)
/// and as raw coordinates (2T of them).
#[test]
fn interval_time_steps() {
    let days = |d: i64| d * 86_400;
    let axis = TimeAxis::from_seconds(TimeKind::Interval, vec![days(18262), days(18263), days(18263), days(18265)], 2)
        .unwrap();
    let mut s = spec(SampleEncoding::U8, 5, 4, 1, 2, (4, 4), 0, utm());
    s.trailer.time = axis;
    let (file, blob) = write(s, &samples(SampleEncoding::U8, 40, 1));
    let h = host(file);
    let ds = open(&h, Some(&blob)).unwrap();
    assert_eq!(md(ds, RUMI_MD_DATASET, 0, 0).unwrap(), ["TIME_START=2020-01-01", "TIME_END=2020-01-02"]);
    assert_eq!(md(ds, RUMI_MD_DATASET, 0, 1).unwrap(), ["TIME_START=2020-01-02", "TIME_END=2020-01-04"]);
    assert_eq!(
        md(ds, RUMI_MD_DATASET, 0, -1).unwrap(),
        ["TIME_COUNT=2", "TIMES=2020-01-01/2020-01-02,2020-01-02/2020-01-04"]
    );
    assert_eq!(md(ds, RUMI_MD_DESCRIPTION, 0, 1).unwrap(), ["band 0 @ 2020-01-02/2020-01-04"]);
    assert_eq!(md(ds, RUMI_MD_TIME_AXIS, 0, -1).unwrap(), ["TIME_TYPE=INTERVAL", "TIME_SCALE=86400"]);
    assert!(md(ds, RUMI_MD_DATASET, 0, 2).is_none());
    assert!(last_error().contains("time step 2 does not exist (T = 2)"), "{}", last_error());
    assert_eq!(time_values(ds, 0, 2, 0, 2), Ok(vec![18262, 18263]), "the starts");
    assert_eq!(time_values(ds, 0, 2, 1, 4), Ok(vec![18262, 18263, 18263, 18265]), "starts and ends");
    assert_eq!(time_values(ds, 1, 1, 1, 2), Ok(vec![18263, 18265]));
    let (code, msg) = time_values(ds, 0, 2, 1, 2).unwrap_err();
    assert_eq!((code, msg.as_str()), (RUMI_ERR_ARGUMENT, "rumi_time_values: 4 values for a buffer of 2"));
    // SAFETY: freed once, no other use.
    unsafe { rumi_free(ds) };
}

#[test]
fn float32_output_converts_half_floats_exactly() {
    let enc = SampleEncoding::F16;
    let values: Vec<f32> = (0..20).map(|i| i as f32 * 0.5 - 3.0).collect();
    let data: Vec<u8> = values.iter().flat_map(|v| half::f16::from_f32(*v).to_le_bytes()).collect();
    let (file, _) = write(spec(enc, 5, 4, 1, 1, (8, 8), 0, utm()), &data);
    let h = host(file);
    let ds = open(&h, None).unwrap();
    let mut out = vec![0f32; 20];
    // SAFETY: `out` is 80 writable bytes, viewed as bytes.
    let bytes = unsafe { std::slice::from_raw_parts_mut(out.as_mut_ptr().cast::<u8>(), 80) };
    let code = read_plane(ds, 0, 0, (0, 4), (0, 5), 4, RUMI_OUTPUT_FLOAT32, bytes, 20);
    assert_eq!(code, RUMI_OK, "{}", last_error());
    assert_eq!(out, values);
    // float32 output of samples that need no conversion is refused
    let (file, _) =
        write(spec(SampleEncoding::U16, 5, 4, 1, 1, (8, 8), 0, utm()), &samples(SampleEncoding::U16, 20, 1));
    let h16 = host(file);
    let ds16 = open(&h16, None).unwrap();
    let code = read_plane(ds16, 0, 0, (0, 4), (0, 5), 4, RUMI_OUTPUT_FLOAT32, bytes, 20);
    assert_ne!(code, RUMI_OK);
    // SAFETY: freed once.
    unsafe {
        rumi_free(ds);
        rumi_free(ds16);
    }
}

/// A stateless open reads nothing but the file's size; the georeferencing block and the
/// trailer are read once, when first asked for, and a broken trailer fails those queries
/// (with the rule named) without preventing pixel reads.
#[test]
fn stateless_open_reads_georef_and_trailer_on_first_use() {
    let (file, blob) =
        write(spec(SampleEncoding::U8, 5, 4, 2, 3, (4, 4), 4, utm()), &samples(SampleEncoding::U8, 120, 1));
    let h = host(file.clone());
    let ds = open(&h, Some(&blob)).unwrap();
    let reads = || h.reads.load(Ordering::Relaxed);
    assert_eq!(reads(), 0, "a stateless open reads no byte of the file");
    // SAFETY: live dataset throughout; outputs are valid.
    unsafe {
        let mut info = rumi_info::default();
        assert_eq!(rumi_get_info(ds, &mut info), RUMI_OK);
        let mut px = [0u8; 16];
        assert_eq!(
            read_plane(ds, 1, 2, (0, 4), (0, 4), 1, RUMI_OUTPUT_NATIVE, &mut px, 4),
            RUMI_OK,
            "{}",
            last_error()
        );
        assert_eq!(reads(), 1, "one frame: one read");
        let mut g = rumi_georef::default();
        assert_eq!(rumi_get_georef(ds, &mut g), RUMI_OK);
        assert_eq!(rumi_get_georef(ds, &mut g), RUMI_OK);
        assert_eq!(reads(), 2, "the georeferencing block: one read, kept");
        assert_eq!(text(rumi_band_text(ds, 0)).as_deref(), Some("band 0"));
        assert_eq!(md(ds, RUMI_MD_TIME_AXIS, 0, -1).unwrap(), ["TIME_TYPE=INSTANT", "TIME_SCALE=1"]);
        assert!(md(ds, RUMI_MD_DATASET, 0, 2).is_some());
        assert_eq!(time_values(ds, 0, 3, 0, 3).map(|v| v.len()), Ok(3));
        assert_eq!(reads(), 3, "the trailer: one read, kept");
        rumi_free(ds);
    }
    // A broken trailer magic: the stateless open and pixel reads work, the trailer queries fail.
    let reader = Reader::open(file.as_slice(), Limits::default()).unwrap();
    let mut bad = file.clone();
    let t = reader.trailer_offset() as usize;
    bad[t] = b'X';
    let h = host(bad.clone());
    let ds = open(&h, Some(&blob)).unwrap();
    // SAFETY: live dataset throughout; outputs are valid.
    unsafe {
        let mut px = [0u8; 16];
        assert_eq!(
            read_plane(ds, 0, 0, (0, 4), (0, 4), 1, RUMI_OUTPUT_NATIVE, &mut px, 4),
            RUMI_OK,
            "{}",
            last_error()
        );
        assert!(rumi_band_text(ds, 0).is_null());
        assert!(last_error().contains("trailer: magic"), "{}", last_error());
        assert!(md(ds, RUMI_MD_TIME_AXIS, 0, -1).is_none());
        assert!(last_error().contains("trailer: magic"), "{}", last_error());
        assert!(md(ds, RUMI_MD_DATASET, 0, 0).is_none());
        let (code, msg) = time_values(ds, 0, 1, 0, 1).unwrap_err();
        assert_eq!(code, RUMI_ERR_FORMAT);
        assert!(msg.contains("trailer: magic"), "{msg}");
        // what needs no trailer still works: the file-level list and the georeferencing
        assert!(md(ds, RUMI_MD_FILE, 0, -1).unwrap().contains(&"OPEN_MODE=STATELESS".to_string()));
        rumi_free(ds);
    }
    // Validated opens still refuse it.
    let (code, msg) = open(&host(bad), None).unwrap_err();
    assert_eq!(code, RUMI_ERR_FORMAT);
    assert!(msg.contains("trailer: magic"), "{msg}");
}

#[test]
fn errors_are_codes_and_messages() {
    let (file, blob) =
        write(spec(SampleEncoding::U8, 5, 4, 1, 1, (4, 4), 0, utm()), &samples(SampleEncoding::U8, 20, 1));
    // wrong magic
    let mut bad = file.clone();
    bad[0] = b'X';
    let (code, msg) = open(&host(bad), None).unwrap_err();
    assert_eq!(code, RUMI_ERR_FORMAT);
    assert!(msg.contains("magic"), "{msg}");
    // truncated: the trailer is gone
    let (code, msg) = open(&host(file[..file.len() - 10].to_vec()), None).unwrap_err();
    assert!(code == RUMI_ERR_IO || code == RUMI_ERR_FORMAT, "{code} {msg}");
    // a blob of another file
    let (_, other_blob) =
        write(spec(SampleEncoding::U16, 9, 9, 2, 1, (4, 4), 1, utm()), &samples(SampleEncoding::U16, 162, 2));
    assert!(open(&host(file.clone()), Some(&other_blob)).is_err());
    // garbage blob
    let (code, msg) = open(&host(file.clone()), Some(&blob[..10])).unwrap_err();
    assert_eq!(code, RUMI_ERR_FORMAT, "{msg}");
    assert!(msg.contains("header blob"), "{msg}");
    // failing I/O
    let mut failing = host(file.clone());
    failing.fail_reads = true;
    let (code, msg) = open(&failing, None).unwrap_err();
    assert_eq!(code, RUMI_ERR_IO, "{msg}");
    assert!(failing.reads.load(Ordering::Relaxed) > 0);
    // NULL arguments
    let mut ds = ptr::null_mut();
    // SAFETY: exercising the NULL checks.
    unsafe {
        assert_eq!(rumi_open(ptr::null(), ptr::null(), 0, ptr::null(), &mut ds), RUMI_ERR_ARGUMENT);
        assert_eq!(rumi_get_info(ptr::null(), ptr::null_mut()), RUMI_ERR_ARGUMENT);
        assert!(rumi_band_text(ptr::null(), 0).is_null());
        rumi_free(ptr::null_mut());
    }
    let no_read = rumi_io {
        ctx: ptr::null_mut(),
        read: None,
        size: Some(size_cb),
        read_multi: None,
        prefix: ptr::null(),
        prefix_len: 0,
    };
    // SAFETY: valid pointers; the missing callback is the error under test.
    assert_eq!(unsafe { rumi_open(&no_read, ptr::null(), 0, ptr::null(), &mut ds) }, RUMI_ERR_ARGUMENT);
    // out-of-range requests
    let h = host(file);
    let ds = open(&h, None).unwrap();
    let mut px = [0u8; 64];
    assert_eq!(read_plane(ds, 0, 0, (3, 2), (0, 4), 1, RUMI_OUTPUT_NATIVE, &mut px, 4), RUMI_ERR_ARGUMENT);
    assert_eq!(read_plane(ds, 1, 0, (0, 1), (0, 4), 1, RUMI_OUTPUT_NATIVE, &mut px, 4), RUMI_ERR_ARGUMENT);
    assert_eq!(read_plane(ds, 0, 1, (0, 1), (0, 4), 1, RUMI_OUTPUT_NATIVE, &mut px, 4), RUMI_ERR_ARGUMENT);
    // SAFETY: freed once.
    unsafe { rumi_free(ds) };
}

#[test]
fn limits_refuse_large_frames_before_decoding() {
    let (file, _) =
        write(spec(SampleEncoding::U16, 64, 64, 1, 1, (64, 64), 0, utm()), &samples(SampleEncoding::U16, 4096, 3));
    let h = host(file);
    // the defaults a C host gets (NULL limits; GDAL's are `rumi_gdal_open_options` with no
    // option set, tests/capi_texts.rs) open the file; a lower frame limit refuses it
    let mut limits = rumi_limits::from(Limits::default());
    assert_eq!(rumi::Limits::from(limits), Limits::default());
    let mut ds = ptr::null_mut();
    let io = io(&h);
    // SAFETY: valid pointers throughout.
    unsafe {
        let code = rumi_open(&io, ptr::null(), 0, ptr::null(), &mut ds);
        assert_eq!(code, RUMI_OK, "{}", last_error());
        rumi_free(ds);
        limits.max_frame_bytes = 1024;
        let code = rumi_open(&io, ptr::null(), 0, &limits, &mut ds);
        assert_eq!(code, RUMI_ERR_LIMIT, "{}", last_error());
    }
}

/// A dataset opened by `rumi_gdal_open`, its warning and the header blob it used.
type GdalOpened = (*mut rumi_dataset, Option<String>, Option<String>);

/// Opens `path` the way the GDAL adapter does: `rumi_gdal_open` over a VSI handle, with the
/// file's first `prefix` bytes (GDAL's header bytes) and the HEADER open option `header` (None:
/// unset, so the sidecar `<path>.header` is probed). The dataset (to free), the warning and the
/// header blob used; or the error code and message.
fn gdal_open(
    path: &std::path::Path,
    prefix: usize,
    header: Option<&str>,
    limits: Option<rumi_limits>,
) -> Result<GdalOpened, (c_int, String)> {
    let bytes = std::fs::read(path).unwrap();
    let prefix = &bytes[..prefix.min(bytes.len())];
    let cpath = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
    let header = header.map(|h| std::ffi::CString::new(h).unwrap());
    let options = limits.map(|limits| rumi_gdal_options {
        limits,
        output: RUMI_OUTPUT_NATIVE,
        threads: 1,
        cache_bytes: 0,
        warning: ptr::null(),
        lazy: 0,
    });
    // SAFETY: NUL-terminated strings; the handle is handed to rumi_gdal_open, which closes it.
    let fp = unsafe { gdal_sys::VSIFOpenL(cpath.as_ptr(), c"rb".as_ptr()) };
    assert!(!fp.is_null(), "VSIFOpenL {}", path.display());
    let (mut ds, mut warning, mut used) = (ptr::null_mut(), ptr::null(), ptr::null());
    // SAFETY: a live handle nobody else uses; the strings, prefix and limits outlive the call;
    // the outputs are writable.
    let code = unsafe {
        rumi_gdal_open(
            fp.cast(),
            cpath.as_ptr(),
            prefix.as_ptr(),
            prefix.len(),
            header.as_ref().map_or(ptr::null(), |h| h.as_ptr()),
            ptr::null_mut(),
            options.as_ref().map_or(ptr::null(), |o| o as *const rumi_gdal_options),
            &mut ds,
            &mut warning,
            &mut used,
        )
    };
    if code != RUMI_OK {
        return Err((code, last_error()));
    }
    Ok((ds, text(warning), text(used)))
}

/// What the GDAL adapter asks for instead of computing it: the GDAL geotransform and the frame
/// layout text; and what its open (`rumi_gdal_open`) checks: a header blob against the file's
/// first bytes and size, and the blob's size against the largest the limits allow.
#[test]
fn adapter_queries() {
    use rumi::format::{Georef, ModelType, RasterType};
    let point = Georef::Epsg {
        model: ModelType::Projected,
        raster_type: RasterType::Point,
        epsg: 32631,
        affine: [20.0, 1.0, 500000.0, 2.0, -20.0, 4_000_000.0],
    };
    let data = samples(SampleEncoding::U8, 5 * 4 * 2 * 3, 1);
    let (file, blob) = write(spec(SampleEncoding::U8, 5, 4, 2, 3, (4, 4), 4, point), &data);
    let (other, other_blob) =
        write(spec(SampleEncoding::U8, 5, 4, 3, 3, (4, 4), 4, utm()), &samples(SampleEncoding::U8, 180, 2));
    // same shape, other frames: a blob of constant samples for the file of random ones
    let (_, flat_blob) = write(spec(SampleEncoding::U8, 5, 4, 2, 3, (4, 4), 4, point), &[0u8; 120]);
    let dir = tempfile::tempdir().unwrap();
    let put = |name: &str, bytes: &[u8]| {
        let p = dir.path().join(name);
        std::fs::write(&p, bytes).unwrap();
        p
    };
    let (a, b) = (put("a.rumi", &file), put("b.rumi", &other));
    let (blob_path, flat_path) = (put("a.blob", &blob), put("flat.blob", &flat_blob));
    let (blob_name, flat_name) = (blob_path.to_str().unwrap(), flat_path.to_str().unwrap());
    let (ds, warning, used) = gdal_open(&a, file.len(), Some(blob_name), None).unwrap();
    assert_eq!((warning, used.as_deref()), (None, Some(blob_name)));
    let mut gt = [0f64; 6];
    // SAFETY: live dataset; `gt` holds 6 doubles.
    unsafe {
        assert_eq!(rumi_get_geotransform(ds, 0, gt.as_mut_ptr()), RUMI_OK);
        assert_eq!(gt, [500000.0, 20.0, 1.0, 4_000_000.0, 2.0, -20.0]);
        assert_eq!(rumi_get_geotransform(ds, 1, gt.as_mut_ptr()), RUMI_OK);
        assert_eq!(gt, [500000.0 - 10.5, 20.0, 1.0, 4_000_000.0 + 9.0, 2.0, -20.0]);
    }
    let file_md = md(ds, RUMI_MD_FILE, 0, -1).unwrap();
    assert!(file_md.contains(&"FRAME_LAYOUT=t b h w".to_string()), "{file_md:?}");
    assert!(file_md.contains(&"OPEN_MODE=STATELESS".to_string()), "{file_md:?}");
    // SAFETY: freed once, no other use.
    unsafe { rumi_free(ds) };
    // the blob agrees with the first 300 bytes, and with none
    for prefix in [300, 0] {
        let (ds, _, used) = gdal_open(&a, prefix, Some(blob_name), None).unwrap();
        assert_eq!(used.as_deref(), Some(blob_name), "prefix {prefix}");
        // SAFETY: freed once.
        unsafe { rumi_free(ds) };
    }
    // the blob of a file of another shape
    let (code, msg) = gdal_open(&b, 300, Some(blob_name), None).unwrap_err();
    assert_eq!(code, RUMI_ERR_FORMAT);
    assert!(msg.contains("samples_per_pixel is 2 but the file says 3"), "{msg}");
    assert!(msg.contains(&format!("header blob {blob_name} does not describe ")), "{msg}");
    // same shape, other frames
    let (code, msg) = gdal_open(&a, file.len(), Some(flat_name), None).unwrap_err();
    assert_eq!(code, RUMI_ERR_FORMAT);
    assert!(msg.contains("frame_byte_counts[0]"), "{msg}");
    // such a sidecar is ignored with a warning naming it: the file is parsed and validated
    put("a.rumi.header", &flat_blob);
    let (ds, warning, used) = gdal_open(&a, file.len(), None, None).unwrap();
    let warning = warning.unwrap();
    assert!(
        warning.contains("ignoring the sidecar header blob") && warning.contains("frame_byte_counts[0]"),
        "{warning}"
    );
    assert_eq!(used, None);
    assert!(md(ds, RUMI_MD_FILE, 0, -1).unwrap().contains(&"OPEN_MODE=VALIDATED".to_string()));
    // SAFETY: freed once.
    unsafe { rumi_free(ds) };
    // HEADER=NONE: a validated open, no blob to check
    let (ds, warning, used) = gdal_open(&b, 300, Some("NONE"), None).unwrap();
    assert_eq!((warning, used), (None, None));
    // SAFETY: freed once.
    unsafe { rumi_free(ds) };
    // the largest blob RUMI_MAX_FRAMES allows: 32 bytes and 4 a frame; this blob holds more
    // than 32 + 4m bytes, at most 32 + 4(m + 1)
    let m = (blob.len() - 33) / 4;
    let mut limits = rumi_limits::from(Limits::default());
    limits.max_frames = m as u64;
    let (code, msg) = gdal_open(&a, 300, Some(blob_name), Some(limits)).unwrap_err();
    assert_eq!(code, RUMI_ERR_IO);
    let max = 32 + 4 * m;
    assert!(msg.contains(&format!("cannot read the header blob '{blob_name}' (missing, unreadable, or larger than the {max} bytes RUMI_MAX_FRAMES allows)")), "{msg}");
    limits.max_frames = m as u64 + 1;
    match gdal_open(&a, 300, Some(blob_name), Some(limits)) {
        // SAFETY: freed once.
        Ok((ds, _, _)) => unsafe { rumi_free(ds) },
        Err((_, msg)) => assert!(!msg.contains("cannot read the header blob"), "{} bytes fit: {msg}", blob.len()),
    }
    drop(other_blob);
}

/// A host with `read_multi`: it records the number of ranges of each call and fails them all
/// when `fail_multi` is set (as /vsicurl/ does when a server refuses a multi-range request).
struct MultiHost {
    bytes: Vec<u8>,
    reads: AtomicUsize,
    multi_calls: std::sync::Mutex<Vec<usize>>,
    fail_multi: bool,
}

unsafe extern "C" fn multi_read_cb(ctx: *mut c_void, offset: u64, len: usize, buf: *mut u8) -> c_int {
    // SAFETY: ctx is the &MultiHost passed in the io, alive for the whole test.
    let host = unsafe { &*(ctx as *const MultiHost) };
    host.reads.fetch_add(1, Ordering::Relaxed);
    let Some(src) = host.bytes.get(offset as usize..).and_then(|b| b.get(..len)) else { return RUMI_IO_EOF };
    // SAFETY: the ABI promises `len` writable bytes at `buf`.
    unsafe { ptr::copy_nonoverlapping(src.as_ptr(), buf, len) };
    RUMI_IO_OK
}

unsafe extern "C" fn multi_size_cb(ctx: *mut c_void, size: *mut u64) -> c_int {
    // SAFETY: as above; `size` is writable per the ABI.
    unsafe { *size = (*(ctx as *const MultiHost)).bytes.len() as u64 };
    RUMI_IO_OK
}

unsafe extern "C" fn multi_cb(
    ctx: *mut c_void,
    count: usize,
    offsets: *const u64,
    lens: *const usize,
    bufs: *const *mut u8,
) -> c_int {
    // SAFETY: as above; the ABI promises `count` entries in each array.
    let host = unsafe { &*(ctx as *const MultiHost) };
    host.multi_calls.lock().unwrap().push(count);
    if host.fail_multi {
        return RUMI_IO_ERROR;
    }
    for i in 0..count {
        // SAFETY: entry i of each array exists; bufs[i] holds lens[i] writable bytes.
        let code = unsafe { multi_read_cb(ctx, *offsets.add(i), *lens.add(i), *bufs.add(i)) };
        if code != RUMI_IO_OK {
            return code;
        }
    }
    host.reads.fetch_sub(count, Ordering::Relaxed); // count plain reads only
    RUMI_IO_OK
}

/// The byte source behind the callbacks: reads inside `rumi_io.prefix` cost no callback, a
/// small read outside it is a `read_multi` of its two halves, frame ranges go to `read_multi`
/// in batches of at most 64, and a batch that fails is read range by range.
#[test]
fn byte_source_prefix_small_reads_and_batches() {
    // 90 tiles of one band: 90 frames, one range each
    let data = samples(SampleEncoding::U8, 40 * 36, 3);
    let (file, blob) = write(spec(SampleEncoding::U8, 40, 36, 1, 1, (4, 4), 0, utm()), &data);
    let run = |prefix: usize, fail_multi: bool| {
        let host = MultiHost {
            bytes: file.clone(),
            reads: AtomicUsize::new(0),
            multi_calls: std::sync::Mutex::new(Vec::new()),
            fail_multi,
        };
        let io = rumi_io {
            ctx: &host as *const MultiHost as *mut c_void,
            read: Some(multi_read_cb),
            size: Some(multi_size_cb),
            read_multi: Some(multi_cb),
            prefix: file.as_ptr(),
            prefix_len: prefix,
        };
        let mut ds = ptr::null_mut();
        let mut out = vec![0u8; 40 * 36];
        // SAFETY: valid io (the host outlives the dataset), blob and out pointers; the read
        // addresses only bytes of `out`.
        unsafe {
            assert_eq!(rumi_open(&io, blob.as_ptr(), blob.len(), ptr::null(), &mut ds), RUMI_OK, "{}", last_error());
            let mut g = rumi_georef::default();
            assert_eq!(rumi_get_georef(ds, &mut g), RUMI_OK, "{}", last_error());
            let georef_calls = host.multi_calls.lock().unwrap().clone();
            host.multi_calls.lock().unwrap().clear();
            assert_eq!(read_plane(ds, 0, 0, (0, 36), (0, 40), 1, RUMI_OUTPUT_NATIVE, &mut out, 40), RUMI_OK);
            rumi_free(ds);
            assert_eq!(out, data, "pixels");
            let calls = host.multi_calls.lock().unwrap().clone();
            (georef_calls, calls, host.reads.load(Ordering::Relaxed))
        }
    };
    let (georef, frames, reads) = run(file.len(), false);
    assert_eq!((georef, frames, reads), (vec![], vec![64, 26], 0), "georef from the prefix; 90 ranges in 2 calls");
    let (georef, _, reads) = run(0, false);
    assert_eq!((georef, reads), (vec![2], 0), "the 160-byte georeferencing block: two halves in one call");
    let (georef, frames, reads) = run(0, true);
    assert_eq!((georef, frames), (vec![2], vec![64, 26]));
    assert_eq!(reads, 2 + 90, "failed calls read range by range");
}

#[test]
fn encoding_constants_are_the_cores_codes() {
    use rumi::format::SampleEncoding::*;
    let pairs = [
        (RUMI_ENCODING_BOOL, Bool),
        (RUMI_ENCODING_UINT8, U8),
        (RUMI_ENCODING_UINT16, U16),
        (RUMI_ENCODING_UINT32, U32),
        (RUMI_ENCODING_UINT64, U64),
        (RUMI_ENCODING_INT8, I8),
        (RUMI_ENCODING_INT16, I16),
        (RUMI_ENCODING_INT32, I32),
        (RUMI_ENCODING_INT64, I64),
        (RUMI_ENCODING_FLOAT16, F16),
        (RUMI_ENCODING_FLOAT32, F32),
        (RUMI_ENCODING_FLOAT64, F64),
        (RUMI_ENCODING_COMPLEX32, C32),
        (RUMI_ENCODING_COMPLEX64, C64),
        (RUMI_ENCODING_COMPLEX128, C128),
        (RUMI_ENCODING_FLOAT8_E4M3FN, F8E4M3FN),
        (RUMI_ENCODING_FLOAT8_E5M2, F8E5M2),
        (RUMI_ENCODING_BFLOAT16, BF16),
        (RUMI_ENCODING_FLOAT8_E8M0FNU, F8E8M0FNU),
        (RUMI_ENCODING_FLOAT8_E4M3FNUZ, F8E4M3FNUZ),
        (RUMI_ENCODING_FLOAT8_E5M2FNUZ, F8E5M2FNUZ),
    ];
    assert_eq!(pairs.len(), rumi::format::SampleEncoding::ALL.len());
    for (code, e) in pairs {
        assert_eq!(code, e.code(), "{e:?}");
    }
}
