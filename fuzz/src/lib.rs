//! The fuzz harness: one function per fuzz target, each feeding arbitrary bytes to one layer of
//! rumi under tight [`Limits`]. Any panic (or a caught panic reported as `RUMI_ERR_INTERNAL`
//! by the C ABI), abort, hang or sanitizer report is a bug. The functions also check a few
//! oracles: what parses must serialise back to the same bytes, and what `validate` accepts
//! must open, read and produce a header blob.
//!
//! Shared by the fuzz targets (`fuzz/fuzz_targets/*.rs`) and by `tests/fuzz_regressions.rs`,
//! which replays every kept crashing input through [`run`] under `cargo test`.

use std::ffi::{c_int, c_void, CStr};
use std::ptr;

use gdal_rumi::capi::*;
use gdal_rumi::driver::protocol::*;
use rumi::format::ifd::{serialise_prefix, FIXED_PREFIX_BYTES};
use rumi::format::{Blob, IfdHead, Trailer};
use rumi::read::{decode_each, Request};
use rumi::Limits;
use rumi::RangeRead;
use rumi::{build_header, validate};
use rumi::{Reader, Window};

mod gdal;
pub use gdal::{gdal, gdal_opens};

/// The fuzz targets, by name (the names of `fuzz/fuzz_targets/*.rs` and of the regression
/// folders' files).
pub const TARGETS: [&str; 7] = ["ifd", "trailer", "blob", "read_file", "read_blob", "capi", "gdal"];

/// Tight limits: big enough for every seed, small enough that no input can make one run
/// allocate or decode more than a few MiB.
pub fn limits() -> Limits {
    Limits {
        max_frame_bytes: 256 << 10,
        max_frames: 1024,
        max_trailer_bytes: 64 << 10,
        max_time_coords: 4096,
        max_bands: 64,
        max_read_bytes: 4 << 20,
    }
}

/// Runs target `name` on `data`; false for an unknown name.
pub fn run(name: &str, data: &[u8]) -> bool {
    match name {
        "ifd" => ifd(data),
        "trailer" => trailer(data),
        "blob" => blob(data),
        "read_file" => read_file(data),
        "read_blob" => read_blob(data),
        "capi" => capi(data),
        "gdal" => gdal(data),
        _ => return false,
    }
    true
}

/// `IfdHead::parse` on the first 292 bytes, then `finish` on the rest; a parsed prefix must
/// serialise back to the same bytes.
pub fn ifd(data: &[u8]) {
    let l = limits();
    let head_len = (FIXED_PREFIX_BYTES as usize).min(data.len());
    let Ok(head) = IfdHead::parse(&data[..head_len], &l) else { return };
    let _ = head.min_file_size();
    let rest = &data[head_len..];
    let Ok(ifd) = head.finish(rest, &l) else { return };
    assert_eq!(ifd.offsets.len(), ifd.byte_counts.len());
    assert_eq!(ifd.base_frame_offset, head.base_frame_offset);
    let prefix = serialise_prefix(&ifd.layout, &ifd.byte_counts, &ifd.georef).expect("a parsed IFD serialises");
    assert_eq!(prefix.len() as u64, ifd.base_frame_offset);
    // Parsing the serialised prefix gives the same values. (Not always the same bytes: a
    // matrix zero stored as -0.0 is zero, and is written back as +0.0.)
    let again = IfdHead::parse(&prefix, &l).and_then(|h| h.finish(&prefix[FIXED_PREFIX_BYTES as usize..], &l));
    let again = again.expect("a serialised IFD parses");
    assert_eq!(again.layout, ifd.layout);
    assert_eq!(again.byte_counts, ifd.byte_counts);
    assert_eq!(again.offsets, ifd.offsets);
    assert_eq!(again.georef, ifd.georef);
}

/// `Trailer::parse` of a file with B (u16 LE) bands and T (u32 LE) time steps, from the first
/// six bytes; a parsed trailer must serialise back to the same bytes.
pub fn trailer(data: &[u8]) {
    if data.len() < 6 {
        return;
    }
    let bands = u16::from_le_bytes([data[0], data[1]]);
    let times = u32::from_le_bytes([data[2], data[3], data[4], data[5]]);
    let bytes = &data[6..];
    let Ok(t) = Trailer::parse(bytes, bands, times, 1000, &limits()) else { return };
    assert_eq!(t.band_texts.len(), usize::from(bands));
    assert_eq!(t.time.steps(), times as usize);
    for i in 0..t.time.steps() {
        let _ = t.time.step_iso(i);
    }
    assert_eq!(t.to_bytes().expect("a parsed trailer serialises"), bytes, "a parsed trailer serialises to other bytes");
}

/// `Blob::parse`, offset reconstruction, and the round trip to bytes.
pub fn blob(data: &[u8]) {
    let Ok(b) = Blob::parse(data, &limits()) else { return };
    if let Ok(offsets) = b.offsets() {
        assert_eq!(offsets.len(), b.counts.len() + 1);
    }
    assert_eq!(b.to_bytes().expect("a parsed blob serialises"), data, "a parsed blob serialises to other bytes");
}

/// Reads everything an open reader offers: georeferencing, trailer, every frame (decoded on
/// its own, then its planes through the read path), and the whole raster as one window when
/// it is small.
fn read_everything<R: RangeRead>(r: &Reader<R>) {
    let _ = r.georef();
    let _ = r.trailer();
    let l = *r.layout();
    let bps = l.encoding.decoded_bytes();
    for index in 0..r.frame_count() {
        let _ = r.frame_range(index);
        let decoded = decode_each(r, &[index], 1, |_, frame| {
            assert_eq!(frame.as_bytes().len() as u64, l.decoded_frame_bytes(index));
            Ok(false)
        });
        if decoded.is_err() {
            continue;
        }
        // the frame's planes (a tile frame holds one, a cell every (band, time) pair: the
        // first 4 x 4 here): one frame each, decoded again, copied out
        let g = l.frame_geometry(index);
        let (bands, times): (Vec<u32>, Vec<u32>) = match g.tile {
            Some((b, t)) => (vec![b], vec![t]),
            None => ((0..u32::from(l.bands).min(4)).collect(), (0..l.times.min(4)).collect()),
        };
        let req = Request::dense(&times, &bands, g.y0..g.y0 + g.h, g.x0..g.x0 + g.w, bps);
        let mut planes = vec![0u8; req.samples() as usize * bps];
        let stats = r.read(&req, &mut planes, 0, 1).expect("a decodable frame's planes read");
        assert_eq!((stats.frames, stats.decoded), (1, 1));
    }
    let win =
        Window { times: 0..l.times, bands: (0..u32::from(l.bands)).collect(), rows: 0..l.length, cols: 0..l.width };
    if let Ok(n) = r.window_bytes(&win) {
        if n <= 1 << 20 {
            let mut out = vec![0u8; n as usize];
            let _ = r.read_window(&win, &mut out);
        }
    }
    // a small window in the middle, and a window outside the raster (an error, not a panic)
    let mid = Window { times: 0..1, bands: vec![0], rows: l.length / 2..l.length, cols: l.width / 2..l.width };
    if let Ok(n) = r.window_bytes(&mid) {
        if n <= 1 << 20 {
            let mut out = vec![0u8; n as usize];
            let _ = r.read_window(&mid, &mut out);
        }
    }
    let outside = Window { times: 0..1, bands: vec![u32::from(l.bands)], rows: 0..1, cols: 0..1 };
    assert!(r.read_window(&outside, &mut [0u8; 64]).is_err());
}

/// The whole input as a file: validated open, every read, full validation and the header
/// builder; what validates must also open, and its blob must open the file statelessly.
pub fn read_file(data: &[u8]) {
    let l = limits();
    if let Ok(r) = Reader::open(data, l) {
        read_everything(&r);
    }
    let valid = validate(data, None, l);
    let header = build_header(data, l);
    if valid.is_ok() {
        let header = header.expect("a valid file has a header blob");
        let r = Reader::open_with_blob(data, &header, l).expect("a valid file opens with its own blob");
        read_everything(&r);
        validate(data, Some(&header), l).expect("a valid file validates with its own blob");
    }
}

/// Splits `data` into a header blob (length in the first two bytes, LE) and a file.
pub fn split(data: &[u8]) -> Option<(&[u8], &[u8])> {
    let n = usize::from(u16::from_le_bytes([*data.first()?, *data.get(1)?]));
    let rest = &data[2..];
    (n <= rest.len()).then(|| rest.split_at(n))
}

/// The input as a header blob and a file: stateless open and every read, then validation of
/// the file against the blob.
pub fn read_blob(data: &[u8]) {
    let Some((blob, file)) = split(data) else { return };
    let l = limits();
    if let Ok(r) = Reader::open_with_blob(file, blob, l) {
        read_everything(&r);
    }
    let _ = validate(file, Some(blob), l);
}

// ---- the C ABI ------------------------------------------------------------------------------

unsafe extern "C" fn cb_read(ctx: *mut c_void, offset: u64, len: usize, buf: *mut u8) -> c_int {
    // SAFETY: ctx is the `&[u8]` that `capi` passes and keeps alive while the dataset lives.
    let src: &[u8] = unsafe { *(ctx as *const &[u8]) };
    match src.read_at(offset, len) {
        Ok(bytes) => {
            // SAFETY: the C ABI passes `len` writable bytes at `buf`.
            unsafe { ptr::copy_nonoverlapping(bytes.as_ptr(), buf, len) };
            RUMI_IO_OK
        }
        Err(_) => RUMI_IO_EOF,
    }
}

unsafe extern "C" fn cb_size(ctx: *mut c_void, size: *mut u64) -> c_int {
    // SAFETY: as in cb_read.
    let src: &[u8] = unsafe { *(ctx as *const &[u8]) };
    // SAFETY: `size` is writable per the C ABI.
    unsafe { *size = src.len() as u64 };
    RUMI_IO_OK
}

unsafe extern "C" fn cb_read_multi(
    ctx: *mut c_void,
    count: usize,
    offsets: *const u64,
    lens: *const usize,
    bufs: *const *mut u8,
) -> c_int {
    for i in 0..count {
        // SAFETY: the three arrays have `count` entries per the C ABI.
        let code = unsafe { cb_read(ctx, *offsets.add(i), *lens.add(i), *bufs.add(i)) };
        if code != RUMI_IO_OK {
            return code;
        }
    }
    RUMI_IO_OK
}

/// Fails the run when a call reports a caught panic.
/// The first string of a C ABI text or `rumi_gdal_metadata` list; None for NULL.
fn text(p: *const std::ffi::c_char) -> Option<String> {
    // SAFETY: non-null results of the ABI are NUL-terminated strings.
    (!p.is_null()).then(|| unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned())
}

fn no_panic(code: c_int, what: &str) -> c_int {
    if code == RUMI_ERR_INTERNAL {
        // SAFETY: rumi_last_error returns a NUL-terminated string valid until the next call.
        let msg = unsafe { CStr::from_ptr(rumi_last_error()) };
        panic!("{what} caught a panic: {}", msg.to_string_lossy());
    }
    code
}

/// The C ABI over an in-memory source: `rumi_open` (first byte even: the input's rest is the
/// file, validated; odd: the rest is split into blob and file as in [`split`]), then every
/// query, every frame, and every plane extracted both natively and as float32.
pub fn capi(data: &[u8]) {
    let Some((&mode, rest)) = data.split_first() else { return };
    let (blob, file) = if mode % 2 == 1 {
        match split(rest) {
            Some((b, f)) => (Some(b), f),
            None => return,
        }
    } else {
        (None, rest)
    };
    let mut src: &[u8] = file;
    let io = rumi_io {
        ctx: (&mut src as *mut &[u8]).cast(),
        read: Some(cb_read),
        size: Some(cb_size),
        read_multi: if mode & 2 == 0 { Some(cb_read_multi) } else { None },
        prefix: ptr::null(),
        prefix_len: 0,
    };
    let limits = rumi_limits::from(limits());
    let mut ds: *mut rumi_dataset = ptr::null_mut();
    let (bp, bl) = blob.map_or((ptr::null(), 0), |b| (b.as_ptr(), b.len()));
    // SAFETY: `io` reads `src`, which outlives the dataset; blob and limits are valid.
    let code = unsafe { rumi_open(&io, bp, bl, &limits, &mut ds) };
    if no_panic(code, "rumi_open") != RUMI_OK {
        assert!(ds.is_null());
        return;
    }
    // SAFETY: `ds` is live until rumi_free below; every output pointer is a local.
    unsafe { query_everything(ds) };
    // SAFETY: as above.
    unsafe { batch_reads(ds, mode) };
    // SAFETY: `ds` came from rumi_open and is freed once.
    unsafe { rumi_free(ds) };
}

/// # Safety
/// `ds` must be a live dataset.
unsafe fn query_everything(ds: *mut rumi_dataset) {
    let mut info = rumi_info::default();
    // SAFETY: per this function's contract.
    if no_panic(unsafe { rumi_get_info(ds, &mut info) }, "rumi_get_info") != RUMI_OK {
        return;
    }
    let mut geo = rumi_georef::default();
    // SAFETY: as above.
    no_panic(unsafe { rumi_get_georef(ds, &mut geo) }, "rumi_get_georef");
    // A stateless open reads the trailer on first use: when it is broken, every trailer query
    // fails alike; otherwise every band has a text.
    // SAFETY: as above.
    let trailer_ok = !unsafe { rumi_gdal_metadata(ds, RUMI_MD_TIME_AXIS, 0, -1, ptr::null()) }.is_null();
    if trailer_ok {
        // every step has a coordinate; the bounds exist exactly for an interval axis
        let t = info.times as usize;
        let mut coords = vec![0i64; 2 * t];
        // SAFETY: as above; `coords` holds 2T writable values.
        let starts = unsafe { rumi_time_values(ds, 0, info.times, 0, coords.as_mut_ptr(), t) };
        assert_eq!(no_panic(starts, "rumi_time_values"), RUMI_OK, "time coordinates of {t} steps");
        // SAFETY: as above.
        let bounds = unsafe { rumi_time_values(ds, 0, info.times, 1, coords.as_mut_ptr(), 2 * t) };
        // SAFETY: as above.
        let kind = text(unsafe { rumi_gdal_metadata(ds, RUMI_MD_TIME_AXIS, 0, -1, ptr::null()) });
        let interval = kind.as_deref().is_some_and(|k| k.starts_with("TIME_TYPE=INTERVAL"));
        assert_eq!(no_panic(bounds, "rumi_time_values") == RUMI_OK, interval, "bounds of a {kind:?} axis");
    }
    for b in 0..=info.bands {
        // SAFETY: as above.
        let text = unsafe { rumi_band_text(ds, b) };
        assert_eq!(text.is_null(), !trailer_ok || b == info.bands, "band text {b} of {}", info.bands);
    }
    // the metadata lists of the first steps, one past the last, and none: a step's list exists
    // exactly when the trailer does and the step is in range
    let steps = (0..i64::from(info.times.min(8))).chain([i64::from(info.times), -1]);
    for t in steps {
        for kind in RUMI_MD_FILE..=RUMI_MD_CF_X + 1 {
            // SAFETY: as above.
            let list = unsafe { rumi_gdal_metadata(ds, kind, 0, t, c"m".as_ptr()) };
            if kind == RUMI_MD_DATASET {
                let expected = trailer_ok && t < i64::from(info.times);
                assert_eq!(!list.is_null(), expected, "time step {t} of {}", info.times);
            }
        }
    }
    let native = rumi_gdal_output_sample_bytes(info.encoding, RUMI_OUTPUT_NATIVE);
    let promoted = rumi_gdal_output_sample_bytes(info.encoding, RUMI_OUTPUT_FLOAT32);
    assert_eq!(native, info.sample_bytes as usize);
    let (tw, tl) = (info.tile_width.min(info.width), info.tile_length.min(info.length));
    let mut frames = 0u32;
    for row in 0..info.tiles_down.min(16) {
        for col in 0..info.tiles_across.min(16) {
            let (h, w) = ((info.length - row * tl).min(tl), (info.width - col * tw).min(tw));
            for t in 0..info.times.min(4) {
                for b in 0..info.bands.min(4) {
                    if frames >= 64 {
                        return;
                    }
                    frames += 1;
                    for (output, bytes) in [(RUMI_OUTPUT_NATIVE, native), (RUMI_OUTPUT_FLOAT32, promoted)] {
                        // one block: a tile's plane into a buffer of the tile's width
                        let stride = tw as usize * bytes.max(1);
                        let mut dst = vec![0u8; tl as usize * stride];
                        let plane = rumi_plane { band: b, time: t, offset: 0 };
                        let req = rumi_request {
                            planes: &plane,
                            plane_count: 1,
                            rows: rumi_axis { start: row * tl, count: h, step: 1, spacing: stride as i64 },
                            cols: rumi_axis { start: col * tw, count: w, step: 1, spacing: bytes.max(1) as i64 },
                            origin: dst.as_mut_ptr().cast(),
                            output,
                        };
                        // SAFETY: the request addresses h rows of w samples inside `dst`.
                        no_panic(unsafe { rumi_read(ds, &req, 1) }, "rumi_read");
                    }
                }
            }
        }
    }
}

/// The batch entry points: raw time coordinates, and a whole small window read straight into a
/// strided buffer, forwards and backwards (on 1 or 2 threads, by `mode`).
///
/// # Safety
/// `ds` must be a live dataset.
unsafe fn batch_reads(ds: *mut rumi_dataset, mode: u8) {
    let mut info = rumi_info::default();
    // SAFETY: per this function's contract.
    if unsafe { rumi_get_info(ds, &mut info) } != RUMI_OK {
        return;
    }
    // the time coordinates of the last steps (as the multidimensional adapter reads them),
    // then of one step past them
    let first = info.times.saturating_sub(3);
    let count = info.times - first;
    let mut coords = vec![0i64; 2 * count as usize + 2];
    for bounds in [0, 1] {
        let len = count as usize * (1 + bounds as usize);
        // SAFETY: `coords` holds at least `len` writable values.
        no_panic(unsafe { rumi_time_values(ds, first, count, bounds, coords.as_mut_ptr(), len) }, "rumi_time_values");
        // SAFETY: as above.
        let code = unsafe { rumi_time_values(ds, first, count + 1, bounds, coords.as_mut_ptr(), len + 1) };
        assert_ne!(no_panic(code, "rumi_time_values"), RUMI_OK, "step {} of {}", first + count, info.times);
    }
    let threads = u32::from(mode & 4 != 0) + 1;
    // the whole raster (when small), every band of the first time steps, as pixel-interleaved
    // planes of a buffer with a gap after each row, read forwards and backwards
    let (w, h) = (info.width as usize, info.length as usize);
    let sample = info.sample_bytes as usize;
    let pairs: Vec<(u32, u32)> =
        (0..info.times.min(2)).flat_map(|t| (0..info.bands.min(3)).map(move |b| (b, t))).collect();
    let pixel = sample * pairs.len();
    let line = w * pixel + 3;
    let Some(len) = line.checked_mul(h.saturating_sub(1)).map(|n| n + w * pixel).filter(|&n| n <= 1 << 20 && n > 0)
    else {
        return;
    };
    let mut dst = vec![0u8; len];
    for reverse in [false, true] {
        let planes: Vec<rumi_plane> = pairs
            .iter()
            .enumerate()
            .map(|(i, &(band, time))| rumi_plane { band, time, offset: (i * sample) as i64 })
            .collect();
        let axis = |n: usize, spacing: usize| match reverse {
            false => rumi_axis { start: 0, count: n as u32, step: 1, spacing: spacing as i64 },
            true => rumi_axis { start: n as u32 - 1, count: n as u32, step: -1, spacing: spacing as i64 },
        };
        let req = rumi_request {
            planes: planes.as_ptr(),
            plane_count: planes.len(),
            rows: axis(h, line),
            cols: axis(w, pixel),
            origin: dst.as_mut_ptr().cast(),
            output: RUMI_OUTPUT_NATIVE,
        };
        // SAFETY: the request addresses bytes of `dst` only (its length is exactly the extent).
        no_panic(unsafe { rumi_read(ds, &req, threads) }, "rumi_read");
    }
}
