//! Layer 4: the narrow C ABI over [`crate::reader::Reader`] that the GDAL driver (and any C or
//! C++ host) calls. `include/rumi.h` is generated from this file by cbindgen
//! (`RUMI_BLESS=1 cargo test --test header_fresh` rewrites it; the test fails when it is stale).
//!
//! Conventions:
//! - Functions return `RUMI_OK` (0) or an error code; the message of the last failure on the
//!   calling thread is `rumi_last_error()`.
//! - No Rust panic crosses the boundary: every export runs under `catch_unwind` and turns a
//!   panic into `RUMI_ERR_INTERNAL`.
//! - Byte access goes through caller-supplied callbacks ([`rumi_io`]), so the host decides how
//!   files are read (GDAL passes its VSI layer).
#![allow(non_camel_case_types)]

use std::cell::RefCell;
use std::collections::HashMap;
use std::ffi::{c_char, c_int, c_void, CString};
use std::io;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr;
use std::sync::{Mutex, OnceLock};

use rumi::batch::{self, StridedWindow};
use rumi::codec::AlignedBuf;
use rumi::error::{Error, Limits};
use rumi::format::{Georef, ModelType, RasterType, SampleEncoding, TimeKind, TimeStep};
use rumi::io::RangeRead;
use rumi::promote;
use rumi::reader::Reader;

/// Success.
pub const RUMI_OK: c_int = 0;
/// A null pointer, an index out of range or another invalid argument.
pub const RUMI_ERR_ARGUMENT: c_int = 1;
/// The file or the header blob breaks the rumi specification.
pub const RUMI_ERR_FORMAT: c_int = 2;
/// An I/O callback failed.
pub const RUMI_ERR_IO: c_int = 3;
/// A resource limit (see `rumi_limits`) would be exceeded, or memory within the limits could
/// not be allocated.
pub const RUMI_ERR_LIMIT: c_int = 4;
/// The request is valid but not supported (e.g. a conversion the encoding has no use for).
pub const RUMI_ERR_UNSUPPORTED: c_int = 5;
/// A bug: a panic was caught at the boundary. The message says where.
pub const RUMI_ERR_INTERNAL: c_int = 6;

/// `rumi_io.read` / `read_multi` result: every byte was read.
pub const RUMI_IO_OK: c_int = 0;
/// `rumi_io.read` / `read_multi` result: the range ends past the end of the source.
pub const RUMI_IO_EOF: c_int = 1;
/// `rumi_io.read` / `read_multi` result: any other failure.
pub const RUMI_IO_ERROR: c_int = -1;

/// Sample encodings (`rumi_info.encoding`), in the order of the spec's table.
pub const RUMI_ENCODING_BOOL: u32 = 0;
/// unsigned 8-bit integer
pub const RUMI_ENCODING_UINT8: u32 = 1;
/// unsigned 16-bit integer
pub const RUMI_ENCODING_UINT16: u32 = 2;
/// unsigned 32-bit integer
pub const RUMI_ENCODING_UINT32: u32 = 3;
/// unsigned 64-bit integer
pub const RUMI_ENCODING_UINT64: u32 = 4;
/// signed 8-bit integer
pub const RUMI_ENCODING_INT8: u32 = 5;
/// signed 16-bit integer
pub const RUMI_ENCODING_INT16: u32 = 6;
/// signed 32-bit integer
pub const RUMI_ENCODING_INT32: u32 = 7;
/// signed 64-bit integer
pub const RUMI_ENCODING_INT64: u32 = 8;
/// IEEE binary16
pub const RUMI_ENCODING_FLOAT16: u32 = 9;
/// IEEE binary32
pub const RUMI_ENCODING_FLOAT32: u32 = 10;
/// IEEE binary64
pub const RUMI_ENCODING_FLOAT64: u32 = 11;
/// complex, binary16 components
pub const RUMI_ENCODING_COMPLEX32: u32 = 12;
/// complex, binary32 components
pub const RUMI_ENCODING_COMPLEX64: u32 = 13;
/// complex, binary64 components
pub const RUMI_ENCODING_COMPLEX128: u32 = 14;
/// float8 E4M3FN
pub const RUMI_ENCODING_FLOAT8_E4M3FN: u32 = 15;
/// float8 E5M2
pub const RUMI_ENCODING_FLOAT8_E5M2: u32 = 16;
/// bfloat16
pub const RUMI_ENCODING_BFLOAT16: u32 = 17;
/// float8 E8M0FNU
pub const RUMI_ENCODING_FLOAT8_E8M0FNU: u32 = 18;
/// float8 E4M3FNUZ
pub const RUMI_ENCODING_FLOAT8_E4M3FNUZ: u32 = 19;
/// float8 E5M2FNUZ
pub const RUMI_ENCODING_FLOAT8_E5M2FNUZ: u32 = 20;

/// `rumi_frame_extract` output: the decoded samples, in host byte order.
pub const RUMI_OUTPUT_NATIVE: u32 = 0;
/// `rumi_frame_extract` output: binary32 (two per complex sample), exact, for the encodings
/// GDAL has no type for: float16, bfloat16, complex32 and the float8 formats.
pub const RUMI_OUTPUT_FLOAT32: u32 = 1;

/// `rumi_time_text` part: the step as text (an instant, or `start/end` for an interval).
pub const RUMI_TIME_STEP: u32 = 0;
/// `rumi_time_text` part: the instant, or the start of an interval.
pub const RUMI_TIME_START: u32 = 1;
/// `rumi_time_text` part: the end of an interval (NULL for instants).
pub const RUMI_TIME_END: u32 = 2;

/// Byte access supplied by the host. The callbacks may be called from any thread that uses
/// the dataset, concurrently when the host uses one dataset from several threads, so they must
/// be thread-safe (GDAL's driver serialises them with a mutex around its VSI handle). `ctx`
/// must stay valid until `rumi_free` returns.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct rumi_io {
    /// Passed unchanged to every callback.
    pub ctx: *mut c_void,
    /// Reads exactly `len` bytes at `offset` into `buf`. Returns `RUMI_IO_OK`, `RUMI_IO_EOF`
    /// when the range ends past the end of the source, or `RUMI_IO_ERROR`. Required.
    pub read: Option<unsafe extern "C" fn(ctx: *mut c_void, offset: u64, len: usize, buf: *mut u8) -> c_int>,
    /// Stores the size of the source in bytes in `*size`. Returns `RUMI_IO_OK` or
    /// `RUMI_IO_ERROR`. Required.
    pub size: Option<unsafe extern "C" fn(ctx: *mut c_void, size: *mut u64) -> c_int>,
    /// Optional: reads `count` ranges (`offsets[i]`, `lens[i]`) into `bufs[i]` in one request,
    /// with the same results as `read`. NULL means ranges are read one by one with `read`.
    pub read_multi: Option<
        unsafe extern "C" fn(
            ctx: *mut c_void,
            count: usize,
            offsets: *const u64,
            lens: *const usize,
            bufs: *const *mut u8,
        ) -> c_int,
    >,
}

/// Resource limits checked before any allocation or decode (spec: "Resource limits").
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct rumi_limits {
    /// Largest decoded frame in bytes (also caps a compressed frame's size).
    pub max_frame_bytes: u64,
    /// Largest number of frames N.
    pub max_frames: u64,
    /// Largest trailer in bytes.
    pub max_trailer_bytes: u64,
    /// Largest number of time coordinates C.
    pub max_time_coords: u64,
    /// Largest number of bands B.
    pub max_bands: u64,
    /// Largest window one read may decode into memory, in bytes.
    pub max_read_bytes: u64,
}

impl From<Limits> for rumi_limits {
    fn from(l: Limits) -> Self {
        rumi_limits {
            max_frame_bytes: l.max_frame_bytes,
            max_frames: l.max_frames,
            max_trailer_bytes: l.max_trailer_bytes,
            max_time_coords: l.max_time_coords,
            max_bands: l.max_bands,
            max_read_bytes: l.max_read_bytes,
        }
    }
}

impl From<rumi_limits> for Limits {
    fn from(l: rumi_limits) -> Self {
        Limits {
            max_frame_bytes: l.max_frame_bytes,
            max_frames: l.max_frames,
            max_trailer_bytes: l.max_trailer_bytes,
            max_time_coords: l.max_time_coords,
            max_bands: l.max_bands,
            max_read_bytes: l.max_read_bytes,
        }
    }
}

/// Shape, tiling, encoding and frame unit of an open dataset.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct rumi_info {
    /// X, image width in pixels
    pub width: u32,
    /// Y, image length in pixels
    pub length: u32,
    /// T, number of time steps (1 for an Image)
    pub times: u32,
    /// B, number of bands
    pub bands: u32,
    /// nominal tile width
    pub tile_width: u32,
    /// nominal tile length
    pub tile_length: u32,
    /// `ceil(width / tile_width)`
    pub tiles_across: u32,
    /// `ceil(length / tile_length)`
    pub tiles_down: u32,
    /// frame_unit, 0..=9
    pub frame_unit: u32,
    /// 1 when each frame holds a whole cell (every band and time step of a tile location),
    /// 0 when it holds one tile of one (band, time) pair (frame units 0 and 9)
    pub cell_frames: u32,
    /// one of the `RUMI_ENCODING_*` values
    pub encoding: u32,
    /// spec `sample_format`
    pub sample_format: u32,
    /// spec `bits_per_sample`
    pub bits_per_sample: u32,
    /// decoded bytes per sample
    pub sample_bytes: u32,
    /// number of frames N
    pub frame_count: u64,
    /// 1 when opened statelessly from a header blob, 0 when the file was parsed and validated
    pub stateless: u32,
}

/// The time axis of an open dataset (from the trailer).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct rumi_time_axis {
    /// spec `time_type`: 1 interval (each step has a start and an end), 2 instant
    pub kind: u32,
    /// seconds per time coordinate unit: 1 or 86400
    pub scale: u32,
    /// number of coordinates C: T for instants, 2T for intervals
    pub coords: u64,
}

/// Georeferencing of an open dataset.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct rumi_georef {
    /// 0: no CRS (the transform is meaningless); 1: projected EPSG CRS; 2: geographic EPSG CRS
    pub model: u32,
    /// 1: PixelIsArea, 2: PixelIsPoint
    pub raster_type: u32,
    /// EPSG code (0 when `model` is 0)
    pub epsg: u32,
    /// `(x_res, row_rot, x_origin, col_rot, y_res, y_origin)`:
    /// `X = x_origin + col * x_res + row * row_rot`, `Y = y_origin + col * col_rot + row * y_res`
    pub affine: [f64; 6],
}

/// An open rumi file.
///
/// Thread safety:
/// - Every function taking a `const rumi_dataset *` may be called from several threads at once
///   on the same dataset: the dataset is immutable after `rumi_open` except for caches that are
///   filled once (trailer, georeferencing) or locked (time texts). The `rumi_io` callbacks are
///   then called concurrently, so they must be thread-safe.
/// - Datasets share nothing: several datasets of the same file, each used by its own thread,
///   need no locking at all (this is what GDAL does with one dataset per thread).
/// - `rumi_free` must not race with any other use of the same dataset. Frames read from it
///   own their samples and may be freed after it, but are extracted from only while it lives.
/// - Pointers returned by `rumi_band_text` and `rumi_time_text` stay valid, on every thread,
///   until `rumi_free`.
/// - Errors are per thread: `rumi_last_error` is the last failure of the calling thread.
/// - Decoding uses one OpenZL context per thread, created on a thread's first decode and freed
///   when that thread exits; no global state is shared. The functions that take no dataset
///   (`rumi_version`, `rumi_encoding_name`, `rumi_limits_default`, `rumi_output_sample_bytes`)
///   may be called from any thread at any time.
pub struct rumi_dataset {
    reader: Reader<CallbackSource>,
    stateless: bool,
    /// Band texts as C strings, made on first request (from the trailer, read then).
    band_texts: OnceLock<Vec<CString>>,
    /// Time texts handed out so far, by (step, part): formatted on first request (a trailer
    /// may hold millions of steps), kept so that the pointers live as long as the dataset.
    time_texts: Mutex<HashMap<(u32, u32), CString>>,
}

/// One decoded frame. Immutable once read: it may be extracted from by several threads at
/// once. Free it with `rumi_frame_free`.
pub struct rumi_frame {
    index: u64,
    row: u32,
    col: u32,
    band: u32,
    time: u32,
    height: u32,
    width: u32,
    data: AlignedBuf,
}

// ---- errors ------------------------------------------------------------------------------------

thread_local! {
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

fn set_error(message: &str) {
    let text = CString::new(message.replace('\0', "\\0")).unwrap_or_default();
    LAST_ERROR.with(|e| *e.borrow_mut() = text);
}

fn code_of(e: &Error) -> c_int {
    match e {
        Error::Io(_) => RUMI_ERR_IO,
        Error::Limit { .. } | Error::Alloc { .. } => RUMI_ERR_LIMIT,
        Error::Request(_) => RUMI_ERR_ARGUMENT,
        _ => RUMI_ERR_FORMAT,
    }
}

fn fail(e: Error) -> c_int {
    set_error(&e.to_string());
    code_of(&e)
}

fn bad_argument(message: &str) -> c_int {
    set_error(message);
    RUMI_ERR_ARGUMENT
}

fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_owned())
}

/// Runs `f` so that no panic escapes: a panic becomes `RUMI_ERR_INTERNAL` with its message.
fn guard(what: &str, f: impl FnOnce() -> c_int) -> c_int {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(code) => code,
        Err(p) => {
            set_error(&format!("internal error in {what}: {}", panic_message(p.as_ref())));
            RUMI_ERR_INTERNAL
        }
    }
}

/// Like `guard`, for functions returning a pointer (NULL on failure or panic).
fn guard_ptr<T>(what: &str, f: impl FnOnce() -> *const T) -> *const T {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(p) => p,
        Err(p) => {
            set_error(&format!("internal error in {what}: {}", panic_message(p.as_ref())));
            ptr::null()
        }
    }
}

/// The message of the last failure on the calling thread ("" when there was none). The
/// pointer stays valid until the next `rumi_*` call on the same thread.
#[no_mangle]
pub extern "C" fn rumi_last_error() -> *const c_char {
    match catch_unwind(|| LAST_ERROR.with(|e| e.borrow().as_ptr())) {
        Ok(p) => p,
        Err(_) => c"internal error while reading the last error".as_ptr(),
    }
}

/// The library version ("0.1.0"), a static string.
#[no_mangle]
pub extern "C" fn rumi_version() -> *const c_char {
    static VERSION: &std::ffi::CStr =
        match std::ffi::CStr::from_bytes_with_nul(concat!(env!("CARGO_PKG_VERSION"), "\0").as_bytes()) {
            Ok(v) => v,
            Err(_) => c"unknown",
        };
    VERSION.as_ptr()
}

// ---- the byte source ---------------------------------------------------------------------------

/// `RangeRead` over host callbacks.
struct CallbackSource {
    io: rumi_io,
}

// SAFETY: the `rumi_io` contract requires the callbacks to be thread-safe and `ctx` to outlive
// the dataset; the struct holds nothing else.
unsafe impl Send for CallbackSource {}
// SAFETY: as above: shared use only calls the thread-safe callbacks.
unsafe impl Sync for CallbackSource {}

fn io_result(code: c_int, what: &str) -> io::Result<()> {
    match code {
        RUMI_IO_OK => Ok(()),
        RUMI_IO_EOF => {
            Err(io::Error::new(io::ErrorKind::UnexpectedEof, format!("{what} is past the end of the source")))
        }
        other => Err(io::Error::other(format!("{what} failed (read callback returned {other})"))),
    }
}

impl RangeRead for CallbackSource {
    fn read_at(&self, offset: u64, len: usize) -> io::Result<Vec<u8>> {
        let read = self.io.read.ok_or_else(|| io::Error::other("rumi_io.read is NULL"))?;
        let mut buf = vec![0u8; len];
        if len == 0 {
            return Ok(buf);
        }
        // SAFETY: `buf` has `len` writable bytes; the callback contract says it writes at most
        // `len` bytes there and `ctx` is valid while the dataset lives.
        let code = unsafe { read(self.io.ctx, offset, len, buf.as_mut_ptr()) };
        io_result(code, &format!("reading {len} bytes at offset {offset}"))?;
        Ok(buf)
    }

    fn read_ranges(&self, ranges: &[(u64, usize)]) -> io::Result<Vec<Vec<u8>>> {
        let Some(multi) = self.io.read_multi else {
            return ranges.iter().map(|&(o, l)| self.read_at(o, l)).collect();
        };
        let mut bufs: Vec<Vec<u8>> = ranges.iter().map(|&(_, l)| vec![0u8; l]).collect();
        if ranges.is_empty() {
            return Ok(bufs);
        }
        let offsets: Vec<u64> = ranges.iter().map(|r| r.0).collect();
        let lens: Vec<usize> = ranges.iter().map(|r| r.1).collect();
        let ptrs: Vec<*mut u8> = bufs.iter_mut().map(|b| b.as_mut_ptr()).collect();
        // SAFETY: the three arrays have `ranges.len()` entries; `ptrs[i]` points at `lens[i]`
        // writable bytes owned by `bufs`, which outlives the call.
        let code = unsafe { multi(self.io.ctx, ranges.len(), offsets.as_ptr(), lens.as_ptr(), ptrs.as_ptr()) };
        io_result(code, &format!("reading {} ranges", ranges.len()))?;
        Ok(bufs)
    }

    fn size(&self) -> io::Result<u64> {
        let size = self.io.size.ok_or_else(|| io::Error::other("rumi_io.size is NULL"))?;
        let mut out = 0u64;
        // SAFETY: `out` is a valid u64 to write; `ctx` is valid while the dataset lives.
        let code = unsafe { size(self.io.ctx, &mut out) };
        io_result(code, "querying the source size")?;
        Ok(out)
    }
}

// ---- encodings ---------------------------------------------------------------------------------

fn encoding_code(e: SampleEncoding) -> u32 {
    use SampleEncoding::*;
    match e {
        Bool => RUMI_ENCODING_BOOL,
        U8 => RUMI_ENCODING_UINT8,
        U16 => RUMI_ENCODING_UINT16,
        U32 => RUMI_ENCODING_UINT32,
        U64 => RUMI_ENCODING_UINT64,
        I8 => RUMI_ENCODING_INT8,
        I16 => RUMI_ENCODING_INT16,
        I32 => RUMI_ENCODING_INT32,
        I64 => RUMI_ENCODING_INT64,
        F16 => RUMI_ENCODING_FLOAT16,
        F32 => RUMI_ENCODING_FLOAT32,
        F64 => RUMI_ENCODING_FLOAT64,
        C32 => RUMI_ENCODING_COMPLEX32,
        C64 => RUMI_ENCODING_COMPLEX64,
        C128 => RUMI_ENCODING_COMPLEX128,
        F8E4M3FN => RUMI_ENCODING_FLOAT8_E4M3FN,
        F8E5M2 => RUMI_ENCODING_FLOAT8_E5M2,
        BF16 => RUMI_ENCODING_BFLOAT16,
        F8E8M0FNU => RUMI_ENCODING_FLOAT8_E8M0FNU,
        F8E4M3FNUZ => RUMI_ENCODING_FLOAT8_E4M3FNUZ,
        F8E5M2FNUZ => RUMI_ENCODING_FLOAT8_E5M2FNUZ,
    }
}

fn encoding_of(code: u32) -> Option<SampleEncoding> {
    SampleEncoding::ALL.iter().copied().find(|&e| encoding_code(e) == code)
}

/// The short name of encoding `encoding` (e.g. "uint16", "float8_e4m3fn"), a static string;
/// NULL for an unknown code.
#[no_mangle]
pub extern "C" fn rumi_encoding_name(encoding: u32) -> *const c_char {
    guard_ptr("rumi_encoding_name", || {
        let name = encoding_of(encoding).map(|e| e.name());
        match name {
            Some(n) => NAMES.iter().find(|c| c.to_bytes() == n.as_bytes()).map_or(ptr::null(), |c| c.as_ptr()),
            None => {
                set_error(&format!("unknown encoding code {encoding}"));
                ptr::null()
            }
        }
    })
}

static NAMES: [&std::ffi::CStr; 21] = [
    c"bool",
    c"uint8",
    c"uint16",
    c"uint32",
    c"uint64",
    c"int8",
    c"int16",
    c"int32",
    c"int64",
    c"float16",
    c"float32",
    c"float64",
    c"complex32",
    c"complex64",
    c"complex128",
    c"float8_e4m3fn",
    c"float8_e5m2",
    c"bfloat16",
    c"float8_e8m0fnu",
    c"float8_e4m3fnuz",
    c"float8_e5m2fnuz",
];

/// Bytes per sample that `rumi_frame_extract` writes for `encoding` and `output` (a
/// `RUMI_OUTPUT_*` value); 0 when the combination is not supported.
#[no_mangle]
pub extern "C" fn rumi_output_sample_bytes(encoding: u32, output: u32) -> usize {
    let r = catch_unwind(|| match (encoding_of(encoding), output) {
        (Some(e), RUMI_OUTPUT_NATIVE) => e.decoded_bytes(),
        (Some(e), RUMI_OUTPUT_FLOAT32) if promote::promotable(e) => 4 * (e.decoded_bytes() / e.element_width()),
        _ => 0,
    });
    r.unwrap_or(0)
}

// ---- open / free -------------------------------------------------------------------------------

/// Stores the default limits in `*out`.
///
/// # Safety
/// `out` must be NULL or point to a writable `rumi_limits`.
#[no_mangle]
pub unsafe extern "C" fn rumi_limits_default(out: *mut rumi_limits) -> c_int {
    guard("rumi_limits_default", || {
        if out.is_null() {
            return bad_argument("rumi_limits_default: out is NULL");
        }
        // SAFETY: checked non-null; the caller guarantees it is writable.
        unsafe { out.write(Limits::default().into()) };
        RUMI_OK
    })
}

fn cstrings<I: IntoIterator<Item = String>>(items: I) -> Result<Vec<CString>, Error> {
    items.into_iter().map(|s| CString::new(s).map_err(|_| Error::Request("text contains a NUL byte".into()))).collect()
}

fn open_inner(io: rumi_io, blob: Option<&[u8]>, limits: Limits) -> Result<rumi_dataset, Error> {
    if io.read.is_none() || io.size.is_none() {
        return Err(Error::Request("rumi_io.read and rumi_io.size are required".into()));
    }
    let src = CallbackSource { io };
    let reader = match blob {
        Some(b) => Reader::open_with_blob(src, b, limits)?,
        None => Reader::open(src, limits)?,
    };
    Ok(rumi_dataset {
        reader,
        stateless: blob.is_some(),
        band_texts: OnceLock::new(),
        time_texts: Mutex::new(HashMap::new()),
    })
}

impl rumi_dataset {
    /// Reports a failed frame read. A frame that does not decode in a stateless open most
    /// often means a header blob of another file (nothing else was checked against the file):
    /// the message says so.
    fn fail_frames(&self, e: Error) -> c_int {
        let blob_hint = self.stateless
            && matches!(e, Error::Decode { .. } | Error::DecodedWidth { .. } | Error::DecodedType { .. });
        if blob_hint {
            let code = code_of(&e);
            set_error(&format!(
                "{e} (opened statelessly: the header blob may not belong to this file; an open without it validates the file)"
            ));
            return code;
        }
        fail(e)
    }

    /// The band texts, from the trailer (read on first use).
    fn band_texts(&self) -> Result<&[CString], Error> {
        if let Some(t) = self.band_texts.get() {
            return Ok(t);
        }
        let texts = cstrings(self.reader.trailer()?.band_texts.iter().cloned())?;
        Ok(self.band_texts.get_or_init(|| texts))
    }
}

/// Opens a rumi file read through `io` and stores the new dataset in `*out`.
///
/// With a header blob (`blob`/`blob_len`, copied; `blob` may be freed after the call) the open
/// is stateless: the blob locates every frame, no IFD byte is read, and the only request made
/// is the file's size. The georeferencing block (160 bytes before the first frame) and the
/// trailer (band texts, time coordinates) are then read on first use, by `rumi_get_georef`,
/// `rumi_get_time_axis`, `rumi_band_text`, `rumi_time_text` and `rumi_time_coords`, which
/// report their errors (a broken trailer does not prevent reading pixels: the spec forbids
/// using it to locate or decode frames). With `blob` NULL the file's header, IFD, offsets,
/// georeferencing and trailer are parsed and validated at open. `limits` may be NULL for the
/// defaults.
///
/// # Safety
/// `io` must point to a valid `rumi_io` whose callbacks honour its contract; `blob` must be
/// NULL or point to `blob_len` readable bytes; `limits` NULL or valid; `out` writable.
#[no_mangle]
pub unsafe extern "C" fn rumi_open(
    io: *const rumi_io,
    blob: *const u8,
    blob_len: usize,
    limits: *const rumi_limits,
    out: *mut *mut rumi_dataset,
) -> c_int {
    guard("rumi_open", || {
        if io.is_null() || out.is_null() {
            return bad_argument("rumi_open: io and out must not be NULL");
        }
        // SAFETY: checked non-null; the caller guarantees validity.
        unsafe { out.write(ptr::null_mut()) };
        // SAFETY: checked non-null; copied by value.
        let io = unsafe { *io };
        // SAFETY: the caller guarantees `limits` is NULL or valid.
        let limits = unsafe { limits.as_ref() }.map_or_else(Limits::default, |l| (*l).into());
        let blob = if blob.is_null() {
            None
        } else {
            // SAFETY: the caller guarantees `blob_len` readable bytes at `blob`.
            Some(unsafe { std::slice::from_raw_parts(blob, blob_len) })
        };
        match open_inner(io, blob, limits) {
            Ok(ds) => {
                // SAFETY: `out` checked non-null above.
                unsafe { out.write(Box::into_raw(Box::new(ds))) };
                RUMI_OK
            }
            Err(e) => fail(e),
        }
    })
}

/// Frees a dataset (NULL is ignored). No callback is called after it returns.
///
/// # Safety
/// `ds` must be NULL or a pointer returned by `rumi_open` and not yet freed, with no other
/// call using it concurrently.
#[no_mangle]
pub unsafe extern "C" fn rumi_free(ds: *mut rumi_dataset) {
    let _ = catch_unwind(AssertUnwindSafe(|| {
        if !ds.is_null() {
            // SAFETY: per the contract, `ds` came from Box::into_raw in rumi_open.
            drop(unsafe { Box::from_raw(ds) });
        }
    }));
}

/// Resolves a dataset pointer or reports a NULL one.
///
/// # Safety
/// `ds` must be NULL or a live dataset.
unsafe fn dataset<'a>(ds: *const rumi_dataset, what: &str) -> Result<&'a rumi_dataset, c_int> {
    // SAFETY: the caller guarantees `ds` is NULL or live.
    unsafe { ds.as_ref() }.ok_or_else(|| bad_argument(&format!("{what}: dataset is NULL")))
}

// ---- queries -----------------------------------------------------------------------------------

/// The shared body of the `rumi_get_*` queries: checks `ds` and `out`, runs `f` (no panic
/// escapes) and writes its value to `*out`, or reports its error.
///
/// # Safety
/// `ds` must be NULL or a live dataset, `out` NULL or writable.
unsafe fn query<T>(
    what: &str,
    ds: *const rumi_dataset,
    out: *mut T,
    f: impl FnOnce(&rumi_dataset) -> Result<T, Error>,
) -> c_int {
    guard(what, || {
        // SAFETY: the caller guarantees `ds` is NULL or live.
        let ds = match unsafe { dataset(ds, what) } {
            Ok(d) => d,
            Err(c) => return c,
        };
        if out.is_null() {
            return bad_argument(&format!("{what}: out is NULL"));
        }
        match f(ds) {
            Ok(value) => {
                // SAFETY: checked non-null; the caller guarantees it is writable.
                unsafe { out.write(value) };
                RUMI_OK
            }
            Err(e) => fail(e),
        }
    })
}

/// Stores the dataset's shape, tiling, encoding and frame unit in `*out`.
///
/// # Safety
/// `ds` must be a live dataset and `out` writable.
#[no_mangle]
pub unsafe extern "C" fn rumi_get_info(ds: *const rumi_dataset, out: *mut rumi_info) -> c_int {
    // SAFETY: the caller's guarantees are `query`'s.
    unsafe {
        query("rumi_get_info", ds, out, |ds| {
            let l = ds.reader.layout();
            let (sf, bps) = l.encoding.pair();
            Ok(rumi_info {
                width: l.width,
                length: l.length,
                times: l.times,
                bands: u32::from(l.bands),
                tile_width: u32::from(l.tile_width),
                tile_length: u32::from(l.tile_length),
                tiles_across: l.tiles_across(),
                tiles_down: l.tiles_down(),
                frame_unit: u32::from(l.frame_unit.value()),
                cell_frames: u32::from(!l.frame_unit.is_tile()),
                encoding: encoding_code(l.encoding),
                sample_format: u32::from(sf),
                bits_per_sample: u32::from(bps),
                sample_bytes: l.encoding.decoded_bytes() as u32,
                frame_count: ds.reader.frame_count(),
                stateless: u32::from(ds.stateless),
            })
        })
    }
}

/// Stores the time axis (kind, scale, number of coordinates) in `*out`. Reads the trailer on
/// first use when the dataset was opened from a header blob.
///
/// # Safety
/// `ds` must be a live dataset and `out` writable.
#[no_mangle]
pub unsafe extern "C" fn rumi_get_time_axis(ds: *const rumi_dataset, out: *mut rumi_time_axis) -> c_int {
    // SAFETY: the caller's guarantees are `query`'s.
    unsafe {
        query("rumi_get_time_axis", ds, out, |ds| {
            let axis = &ds.reader.trailer()?.time;
            let kind = match axis.kind {
                TimeKind::Interval => 1,
                TimeKind::Instant => 2,
            };
            Ok(rumi_time_axis { kind, scale: axis.scale, coords: axis.coords.len() as u64 })
        })
    }
}

/// Stores the georeferencing in `*out`. Reads the georeferencing block on first use when the
/// dataset was opened from a header blob.
///
/// # Safety
/// `ds` must be a live dataset and `out` writable.
#[no_mangle]
pub unsafe extern "C" fn rumi_get_georef(ds: *const rumi_dataset, out: *mut rumi_georef) -> c_int {
    // SAFETY: the caller's guarantees are `query`'s.
    unsafe {
        query("rumi_get_georef", ds, out, |ds| {
            let raster = |r: RasterType| if r == RasterType::Point { 2 } else { 1 };
            Ok(match ds.reader.georef()? {
                Georef::Undefined { raster_type } => rumi_georef {
                    model: 0,
                    raster_type: raster(raster_type),
                    epsg: 0,
                    affine: [1.0, 0.0, 0.0, 0.0, 1.0, 0.0],
                },
                Georef::Epsg { model, raster_type, epsg, affine } => rumi_georef {
                    model: if model == ModelType::Projected { 1 } else { 2 },
                    raster_type: raster(raster_type),
                    epsg: u32::from(epsg),
                    affine,
                },
            })
        })
    }
}

/// The text of band `band` (0-based), UTF-8. The pointer lives as long as the dataset.
/// NULL when `band` is out of range or the trailer cannot be read (see `rumi_last_error`).
///
/// # Safety
/// `ds` must be a live dataset.
#[no_mangle]
pub unsafe extern "C" fn rumi_band_text(ds: *const rumi_dataset, band: u32) -> *const c_char {
    guard_ptr("rumi_band_text", || {
        // SAFETY: the caller guarantees `ds` is NULL or live.
        let Ok(ds) = (unsafe { dataset(ds, "rumi_band_text") }) else { return ptr::null() };
        let texts = match ds.band_texts() {
            Ok(t) => t,
            Err(e) => {
                fail(e);
                return ptr::null();
            }
        };
        match texts.get(band as usize) {
            Some(t) => t.as_ptr(),
            None => {
                set_error(&format!("band {band} does not exist (B = {})", texts.len()));
                ptr::null()
            }
        }
    })
}

/// Time step `time` (0-based) as ISO 8601 UTC text; `part` is a `RUMI_TIME_*` value. Dates
/// (`YYYY-MM-DD`) when `time_scale` is 86400, else date-times (`YYYY-MM-DDTHH:MM:SSZ`). The
/// pointer lives as long as the dataset. NULL when `time` is out of range, for
/// `RUMI_TIME_END` on an instant axis, and when the trailer cannot be read.
///
/// # Safety
/// `ds` must be a live dataset.
#[no_mangle]
pub unsafe extern "C" fn rumi_time_text(ds: *const rumi_dataset, time: u32, part: u32) -> *const c_char {
    guard_ptr("rumi_time_text", || {
        // SAFETY: the caller guarantees `ds` is NULL or live.
        let Ok(ds) = (unsafe { dataset(ds, "rumi_time_text") }) else { return ptr::null() };
        let trailer = match ds.reader.trailer() {
            Ok(t) => t,
            Err(e) => {
                fail(e);
                return ptr::null();
            }
        };
        let axis = &trailer.time;
        if time as usize >= axis.steps() {
            set_error(&format!("time step {time} does not exist (T = {})", axis.steps()));
            return ptr::null();
        }
        let text = match (part, axis.step(time as usize)) {
            (RUMI_TIME_STEP, _) => axis.step_iso(time as usize),
            (RUMI_TIME_START, TimeStep::Instant(s) | TimeStep::Interval(s, _)) => axis.iso(s),
            (RUMI_TIME_END, TimeStep::Interval(_, e)) => axis.iso(e),
            (RUMI_TIME_END, TimeStep::Instant(_)) => {
                set_error("the time axis holds instants: steps have no end");
                return ptr::null();
            }
            (other, _) => {
                set_error(&format!("rumi_time_text: unknown part {other}"));
                return ptr::null();
            }
        };
        let Ok(mut texts) = ds.time_texts.lock() else {
            set_error("rumi_time_text: the text cache is poisoned by an earlier panic");
            return ptr::null();
        };
        // The CString's heap buffer does not move when the map grows, so the pointer stays valid.
        texts.entry((time, part)).or_insert_with(|| CString::new(text).unwrap_or_default()).as_ptr()
    })
}

/// Stores the actual size of the tile at (`row`, `col`) in `*height` and `*width` (edge tiles
/// are clipped to the image).
///
/// # Safety
/// `ds` must be a live dataset; `height` and `width` writable.
#[no_mangle]
pub unsafe extern "C" fn rumi_tile_dims(
    ds: *const rumi_dataset,
    row: u32,
    col: u32,
    height: *mut u32,
    width: *mut u32,
) -> c_int {
    guard("rumi_tile_dims", || {
        // SAFETY: the caller guarantees `ds` is NULL or live.
        let ds = match unsafe { dataset(ds, "rumi_tile_dims") } {
            Ok(d) => d,
            Err(c) => return c,
        };
        let l = ds.reader.layout();
        if row >= l.tiles_down() || col >= l.tiles_across() || height.is_null() || width.is_null() {
            return bad_argument(&format!(
                "rumi_tile_dims: tile ({row}, {col}) outside the {}x{} grid or NULL output",
                l.tiles_down(),
                l.tiles_across()
            ));
        }
        let (h, w) = l.tile_dims(row, col);
        // SAFETY: both checked non-null; the caller guarantees they are writable.
        unsafe {
            height.write(h);
            width.write(w);
        }
        RUMI_OK
    })
}

// ---- frames ------------------------------------------------------------------------------------

fn read_frame_inner(ds: &rumi_dataset, row: u32, col: u32, band: u32, time: u32) -> Result<rumi_frame, Error> {
    let l = ds.reader.layout();
    if row >= l.tiles_down() || col >= l.tiles_across() || band >= u32::from(l.bands) || time >= l.times {
        return Err(Error::Request(format!(
            "tile ({row}, {col}) band {band} time {time} is outside the raster ({}x{} tiles, B = {}, T = {})",
            l.tiles_down(),
            l.tiles_across(),
            l.bands,
            l.times
        )));
    }
    let index = l.frame_index(row, col, band, time);
    let (_, len) = ds.reader.frame_range(index)?;
    // A compressed frame larger than twice the decoded-size limit cannot be valid: refuse it
    // before allocating (a blob of another file may announce any 32-bit size).
    let cap = ds.reader.limits().max_frame_bytes.saturating_mul(2);
    Limits::check("compressed frame size", len, cap)?;
    let data = ds.reader.read_frame(index)?;
    let (h, w) = l.tile_dims(row, col);
    let (band, time) = if l.frame_unit.is_tile() { (band, time) } else { (0, 0) };
    Ok(rumi_frame { index, row, col, band, time, height: h, width: w, data })
}

/// Reads and decodes the frame that holds band `band` at time `time` of the tile at (`row`,
/// `col`), and stores it in `*out`. For frame units 0 and 9 that frame holds only this
/// (band, time) pair; for the others it holds the whole cell, every band and time step.
///
/// # Safety
/// `ds` must be a live dataset and `out` writable.
#[no_mangle]
pub unsafe extern "C" fn rumi_frame_read(
    ds: *const rumi_dataset,
    row: u32,
    col: u32,
    band: u32,
    time: u32,
    out: *mut *mut rumi_frame,
) -> c_int {
    guard("rumi_frame_read", || {
        // SAFETY: the caller guarantees `ds` is NULL or live.
        let ds = match unsafe { dataset(ds, "rumi_frame_read") } {
            Ok(d) => d,
            Err(c) => return c,
        };
        if out.is_null() {
            return bad_argument("rumi_frame_read: out is NULL");
        }
        // SAFETY: checked non-null; the caller guarantees it is writable.
        unsafe { out.write(ptr::null_mut()) };
        match read_frame_inner(ds, row, col, band, time) {
            Ok(f) => {
                // SAFETY: checked non-null above.
                unsafe { out.write(Box::into_raw(Box::new(f))) };
                RUMI_OK
            }
            Err(e) => ds.fail_frames(e),
        }
    })
}

/// Returns 1 when `frame` holds band `band` at time `time`, else 0.
///
/// # Safety
/// `ds` and `frame` must be live, `frame` read from `ds`.
#[no_mangle]
pub unsafe extern "C" fn rumi_frame_holds(
    ds: *const rumi_dataset,
    frame: *const rumi_frame,
    band: u32,
    time: u32,
) -> c_int {
    let holds = catch_unwind(|| {
        // SAFETY: the caller guarantees both are NULL or live.
        let (Ok(ds), Some(f)) = (unsafe { dataset(ds, "rumi_frame_holds") }, unsafe { frame.as_ref() }) else {
            return false;
        };
        let l = ds.reader.layout();
        let inside = band < u32::from(l.bands) && time < l.times;
        inside && (!l.frame_unit.is_tile() || (f.band == band && f.time == time))
    });
    c_int::from(holds.unwrap_or(false))
}

#[cfg(target_endian = "big")]
fn to_host_order(bytes: &mut [u8], width: usize) {
    if width > 1 {
        for c in bytes.chunks_exact_mut(width) {
            c.reverse();
        }
    }
}

#[cfg(target_endian = "little")]
fn to_host_order(_bytes: &mut [u8], _width: usize) {}

fn extract_inner(
    ds: &rumi_dataset,
    f: &rumi_frame,
    band: u32,
    time: u32,
    output: u32,
    dst: &mut [u8],
    line_stride: usize,
) -> Result<(), c_int> {
    let l = ds.reader.layout();
    let enc = l.encoding;
    let out_bytes = match (output, promote::promotable(enc)) {
        (RUMI_OUTPUT_NATIVE, _) => enc.decoded_bytes(),
        (RUMI_OUTPUT_FLOAT32, true) => 4 * (enc.decoded_bytes() / enc.element_width()),
        (RUMI_OUTPUT_FLOAT32, false) => {
            set_error(&format!(
                "{} samples need no conversion to float32 (it applies to float16, bfloat16, complex32 and float8)",
                enc.name()
            ));
            return Err(RUMI_ERR_UNSUPPORTED);
        }
        (other, _) => return Err(bad_argument(&format!("rumi_frame_extract: unknown output {other}"))),
    };
    let (h, w) = (f.height as usize, f.width as usize);
    let row_bytes = w * out_bytes;
    // checked: a huge caller-supplied stride must be an argument error, not a wrapped size
    let need = if h == 0 { Some(0) } else { (h - 1).checked_mul(line_stride).and_then(|v| v.checked_add(row_bytes)) };
    if line_stride < row_bytes || need.is_none_or(|n| dst.len() < n) {
        let need = need.map_or_else(|| "more than addressable".to_owned(), |n| n.to_string());
        return Err(bad_argument(&format!(
            "rumi_frame_extract: a {h}x{w} plane of {out_bytes}-byte samples needs a line stride of at least {row_bytes} \
             and {need} bytes; got stride {line_stride} and {} bytes",
            dst.len()
        )));
    }
    if output == RUMI_OUTPUT_NATIVE && cfg!(target_endian = "little") {
        // Straight from the decoded frame into the caller's rows: no intermediate plane.
        let l = ds.reader.layout();
        if l.frame_unit.is_tile() && (f.band != band || f.time != time) || band >= u32::from(l.bands) || time >= l.times
        {
            return Err(fail(Error::Request(format!("frame {} does not hold band {band} at time {time}", f.index))));
        }
        return batch::copy_plane(l, f.index, &f.data, (band, time), dst, line_stride).map_err(fail);
    }
    let mut plane = vec![0u8; h * w * enc.decoded_bytes()];
    ds.reader.extract_plane(f.index, &f.data, band, time, &mut plane).map_err(fail)?;
    let src_row = w * enc.decoded_bytes();
    for y in 0..h {
        let src = &plane[y * src_row..(y + 1) * src_row];
        let out = &mut dst[y * line_stride..y * line_stride + row_bytes];
        if output == RUMI_OUTPUT_NATIVE {
            out.copy_from_slice(src);
            to_host_order(out, enc.element_width());
        } else {
            let mut values = vec![0f32; row_bytes / 4];
            promote::to_f32(enc, src, &mut values);
            for (o, v) in out.chunks_exact_mut(4).zip(values) {
                o.copy_from_slice(&v.to_ne_bytes());
            }
        }
    }
    Ok(())
}

/// Copies the plane of band `band` at time `time` out of `frame` into `dst`: `height` rows
/// (see `rumi_tile_dims`) of `width` samples, row `y` starting at `dst + y * line_stride`,
/// converted as `output` (a `RUMI_OUTPUT_*` value) says. Bytes between rows and after the
/// plane are left untouched. `dst_len` is the size of `dst` in bytes.
///
/// # Safety
/// `ds` and `frame` must be live, `frame` read from `ds`; `dst` must point to `dst_len`
/// writable bytes.
#[no_mangle]
pub unsafe extern "C" fn rumi_frame_extract(
    ds: *const rumi_dataset,
    frame: *const rumi_frame,
    band: u32,
    time: u32,
    output: u32,
    dst: *mut c_void,
    dst_len: usize,
    line_stride: usize,
) -> c_int {
    guard("rumi_frame_extract", || {
        // SAFETY: the caller guarantees `ds` is NULL or live.
        let ds = match unsafe { dataset(ds, "rumi_frame_extract") } {
            Ok(d) => d,
            Err(c) => return c,
        };
        // SAFETY: the caller guarantees `frame` is NULL or live.
        let Some(f) = (unsafe { frame.as_ref() }) else { return bad_argument("rumi_frame_extract: frame is NULL") };
        if dst.is_null() {
            return bad_argument("rumi_frame_extract: dst is NULL");
        }
        // SAFETY: the caller guarantees `dst_len` writable bytes at `dst`.
        let dst = unsafe { std::slice::from_raw_parts_mut(dst.cast::<u8>(), dst_len) };
        match extract_inner(ds, f, band, time, output, dst, line_stride) {
            Ok(()) => RUMI_OK,
            Err(c) => c,
        }
    })
}

/// Stores the frame's tile position and size: `row`, `col`, `height`, `width` (any may be
/// NULL).
///
/// # Safety
/// `frame` must be live; non-NULL outputs writable.
#[no_mangle]
pub unsafe extern "C" fn rumi_frame_dims(
    frame: *const rumi_frame,
    row: *mut u32,
    col: *mut u32,
    height: *mut u32,
    width: *mut u32,
) -> c_int {
    guard("rumi_frame_dims", || {
        // SAFETY: the caller guarantees `frame` is NULL or live.
        let Some(f) = (unsafe { frame.as_ref() }) else { return bad_argument("rumi_frame_dims: frame is NULL") };
        for (p, v) in [(row, f.row), (col, f.col), (height, f.height), (width, f.width)] {
            if !p.is_null() {
                // SAFETY: non-null outputs are writable per the contract.
                unsafe { p.write(v) };
            }
        }
        RUMI_OK
    })
}

/// Frees a frame (NULL is ignored).
///
/// # Safety
/// `frame` must be NULL or returned by `rumi_frame_read` and not yet freed.
#[no_mangle]
pub unsafe extern "C" fn rumi_frame_free(frame: *mut rumi_frame) {
    let _ = catch_unwind(AssertUnwindSafe(|| {
        if !frame.is_null() {
            // SAFETY: per the contract, `frame` came from Box::into_raw in rumi_frame_read.
            drop(unsafe { Box::from_raw(frame) });
        }
    }));
}

// ---- time coordinates (the driver's multidimensional API) --------------------------------------

/// The raw time coordinates: stores their number C (T for instants, 2T for intervals: start
/// and end of each step) in `*count` and, when `out` is not NULL and `len >= C`, copies them
/// to `out`. Coordinate `i` is `out[i] * time_scale` seconds since 1970-01-01T00:00:00Z
/// (`rumi_time_axis.scale`: 1 or 86400). Call with `out` NULL to learn C.
///
/// # Safety
/// `ds` must be a live dataset; `out` NULL or pointing to `len` writable values; `count`
/// writable.
#[no_mangle]
pub unsafe extern "C" fn rumi_time_coords(
    ds: *const rumi_dataset,
    out: *mut i64,
    len: usize,
    count: *mut usize,
) -> c_int {
    guard("rumi_time_coords", || {
        // SAFETY: the caller guarantees `ds` is NULL or live.
        let ds = match unsafe { dataset(ds, "rumi_time_coords") } {
            Ok(d) => d,
            Err(c) => return c,
        };
        if count.is_null() {
            return bad_argument("rumi_time_coords: count is NULL");
        }
        let coords = match ds.reader.trailer() {
            Ok(t) => &t.time.coords,
            Err(e) => return fail(e),
        };
        // SAFETY: checked non-null; the caller guarantees it is writable.
        unsafe { count.write(coords.len()) };
        if !out.is_null() {
            if len < coords.len() {
                return bad_argument(&format!(
                    "rumi_time_coords: {len} values do not hold {} coordinates",
                    coords.len()
                ));
            }
            // SAFETY: `out` has at least `coords.len()` writable values (checked above).
            unsafe { ptr::copy_nonoverlapping(coords.as_ptr(), out, coords.len()) };
        }
        RUMI_OK
    })
}

// ---- batched reads into host buffers (the GDAL driver's IRasterIO) -----------------------------

/// A window of the raster and the layout of the host buffer it is read into (GDAL's
/// `IRasterIO` spacings): output plane `p` holds band `bands[p]` at time `times[p]`; the
/// sample of plane `p`, row `y`, column `x` lands at byte
/// `p * band_space + (y - row_start) * line_space + (x - col_start) * pixel_space` of `dst`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct rumi_strided_window {
    /// first column
    pub col_start: u32,
    /// one past the last column
    pub col_end: u32,
    /// first row
    pub row_start: u32,
    /// one past the last row
    pub row_end: u32,
    /// number of output planes (entries at `bands` and `times`)
    pub plane_count: usize,
    /// band of each output plane
    pub bands: *const u32,
    /// time step of each output plane
    pub times: *const u32,
    /// the host buffer
    pub dst: *mut c_void,
    /// bytes at `dst`; every write is checked against it
    pub dst_len: usize,
    /// bytes between horizontally adjacent samples (at least the sample size)
    pub pixel_space: usize,
    /// bytes between vertically adjacent samples
    pub line_space: usize,
    /// bytes between output planes
    pub band_space: usize,
}

/// A tile location: tile row and column.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct rumi_tile {
    /// tile row
    pub row: u32,
    /// tile column
    pub col: u32,
}

/// Names a frame by what it holds: band `band` at time `time` of the tile at (`row`, `col`)
/// (band and time are ignored by frame units whose frames hold whole cells).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct rumi_frame_key {
    /// tile row
    pub row: u32,
    /// tile column
    pub col: u32,
    /// band
    pub band: u32,
    /// time step
    pub time: u32,
}

/// Reads the window `*win` straight into the host buffer `win->dst`, samples in their
/// decoded type and host byte order (no conversion: `RUMI_OUTPUT_NATIVE`). The byte ranges of
/// every frame the window needs are fetched with one `rumi_io.read_multi` call (per 64 MiB of
/// compressed bytes) and decoded on `threads` threads (0 or 1: the calling thread only; more:
/// a pool of that many threads, one OpenZL context each), each frame copying its part of the
/// window into `dst` as soon as it is decoded. Threads are used only when no two samples of
/// the window share a byte of `dst`.
///
/// `tiles`/`tile_count` restrict the read to these tile locations (samples of the other tiles
/// are not written, e.g. because the host already has them); `tiles` NULL reads every tile
/// the window touches. Returns `RUMI_ERR_UNSUPPORTED` on big-endian hosts.
///
/// # Safety
/// `ds` must be a live dataset; `win` valid, its `bands`/`times` pointing to `plane_count`
/// values and `dst` to `dst_len` writable bytes; `tiles` NULL or pointing to `tile_count`
/// values.
#[no_mangle]
pub unsafe extern "C" fn rumi_read_strided(
    ds: *const rumi_dataset,
    win: *const rumi_strided_window,
    tiles: *const rumi_tile,
    tile_count: usize,
    threads: u32,
) -> c_int {
    guard("rumi_read_strided", || {
        // SAFETY: the caller guarantees `ds` is NULL or live.
        let ds = match unsafe { dataset(ds, "rumi_read_strided") } {
            Ok(d) => d,
            Err(c) => return c,
        };
        // SAFETY: the caller guarantees `win` is NULL or valid.
        let Some(w) = (unsafe { win.as_ref() }) else { return bad_argument("rumi_read_strided: win is NULL") };
        if w.plane_count > 0 && (w.bands.is_null() || w.times.is_null()) || w.dst.is_null() && w.dst_len > 0 {
            return bad_argument("rumi_read_strided: bands, times or dst is NULL");
        }
        if cfg!(target_endian = "big") {
            set_error("rumi_read_strided: not available on big-endian hosts (use rumi_frame_extract)");
            return RUMI_ERR_UNSUPPORTED;
        }
        let planes: Vec<(u32, u32)> = if w.plane_count == 0 {
            Vec::new()
        } else {
            // SAFETY: both checked non-null; the caller guarantees `plane_count` values each.
            let (b, t) = unsafe {
                (std::slice::from_raw_parts(w.bands, w.plane_count), std::slice::from_raw_parts(w.times, w.plane_count))
            };
            b.iter().copied().zip(t.iter().copied()).collect()
        };
        let tiles: Option<Vec<(u32, u32)>> = if tiles.is_null() {
            None
        } else if tile_count == 0 {
            Some(Vec::new())
        } else {
            // SAFETY: checked non-null; the caller guarantees `tile_count` values.
            Some(unsafe { std::slice::from_raw_parts(tiles, tile_count) }.iter().map(|t| (t.row, t.col)).collect())
        };
        let window = StridedWindow {
            cols: w.col_start..w.col_end,
            rows: w.row_start..w.row_end,
            planes,
            pixel_space: w.pixel_space,
            line_space: w.line_space,
            band_space: w.band_space,
        };
        let dst: &mut [u8] = if w.dst_len == 0 {
            &mut []
        } else {
            // SAFETY: checked non-null; the caller guarantees `dst_len` writable bytes.
            unsafe { std::slice::from_raw_parts_mut(w.dst.cast::<u8>(), w.dst_len) }
        };
        match batch::read_strided(&ds.reader, &window, tiles.as_deref(), dst, threads as usize) {
            Ok(()) => RUMI_OK,
            Err(e) => ds.fail_frames(e),
        }
    })
}

/// Reads and decodes the `count` frames named by `keys` and stores them in `out[0..count]`
/// (free each with `rumi_frame_free`). Their byte ranges are fetched with one
/// `rumi_io.read_multi` call (per 64 MiB of compressed bytes) and decoded on `threads` threads
/// (0 or 1: the calling thread only). On failure every `out[i]` is NULL.
///
/// # Safety
/// `ds` must be a live dataset; `keys` must point to `count` values and `out` to `count`
/// writable pointers.
#[no_mangle]
pub unsafe extern "C" fn rumi_frames_read(
    ds: *const rumi_dataset,
    keys: *const rumi_frame_key,
    count: usize,
    threads: u32,
    out: *mut *mut rumi_frame,
) -> c_int {
    guard("rumi_frames_read", || {
        // SAFETY: the caller guarantees `ds` is NULL or live.
        let ds = match unsafe { dataset(ds, "rumi_frames_read") } {
            Ok(d) => d,
            Err(c) => return c,
        };
        if count == 0 {
            return RUMI_OK;
        }
        if keys.is_null() || out.is_null() {
            return bad_argument("rumi_frames_read: keys or out is NULL");
        }
        // SAFETY: checked non-null; the caller guarantees `count` writable pointers.
        let out = unsafe { std::slice::from_raw_parts_mut(out, count) };
        out.fill(ptr::null_mut());
        // SAFETY: checked non-null; the caller guarantees `count` readable keys.
        let keys = unsafe { std::slice::from_raw_parts(keys, count) };
        let l = *ds.reader.layout();
        let mut indices = Vec::with_capacity(count);
        for k in keys {
            if k.row >= l.tiles_down() || k.col >= l.tiles_across() || k.band >= u32::from(l.bands) || k.time >= l.times
            {
                return bad_argument(&format!(
                    "rumi_frames_read: tile ({}, {}) band {} time {} is outside the raster ({}x{} tiles, B = {}, T = {})",
                    k.row,
                    k.col,
                    k.band,
                    k.time,
                    l.tiles_down(),
                    l.tiles_across(),
                    l.bands,
                    l.times
                ));
            }
            indices.push(l.frame_index(k.row, k.col, k.band, k.time));
        }
        let decoded = match batch::decode_frames(&ds.reader, &indices, threads as usize) {
            Ok(d) => d,
            Err(e) => return ds.fail_frames(e),
        };
        for ((slot, k), (data, &index)) in out.iter_mut().zip(keys).zip(decoded.into_iter().zip(&indices)) {
            let (height, width) = l.tile_dims(k.row, k.col);
            let (band, time) = if l.frame_unit.is_tile() { (k.band, k.time) } else { (0, 0) };
            let f = rumi_frame { index, row: k.row, col: k.col, band, time, height, width, data };
            *slot = Box::into_raw(Box::new(f));
        }
        RUMI_OK
    })
}

// ---- the read planner ------------------------------------------------------------------------

/// One output plane of a [`rumi_request`]: band `band` at time step `time`, whose sample
/// (row position 0, column position 0) lands `offset` bytes from the request's origin.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct rumi_plane {
    /// band index
    pub band: u32,
    /// time index
    pub time: u32,
    /// byte offset from `rumi_request.origin` (may be negative)
    pub offset: i64,
}

/// One spatial axis of a [`rumi_request`]: output position `i` (`0..count`) reads source row
/// or column `start + i * step` and lands `spacing` bytes after position `i - 1`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct rumi_axis {
    /// source index of output position 0
    pub start: u32,
    /// number of output positions
    pub count: u32,
    /// source step between positions (negative reads backwards; 0 repeats `start`)
    pub step: i64,
    /// bytes between adjacent output positions in the host buffer (may be negative)
    pub spacing: i64,
}

/// A read into a host buffer: sample (plane `p`, row position `i`, column position `j`) lands
/// at `origin + planes[p].offset + i * rows.spacing + j * cols.spacing`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct rumi_request {
    /// the output planes (`plane_count` of them)
    pub planes: *const rumi_plane,
    /// number of output planes
    pub plane_count: usize,
    /// rows
    pub rows: rumi_axis,
    /// columns
    pub cols: rumi_axis,
    /// where sample (plane offset 0, row position 0, column position 0) lands; the buffer
    /// must hold every sample the request addresses (negative offsets and spacings allowed)
    pub origin: *mut c_void,
    /// `RUMI_OUTPUT_NATIVE` or `RUMI_OUTPUT_FLOAT32`
    pub output: u32,
}

fn axis_of(a: &rumi_axis) -> Result<rumi::plan::Axis, Error> {
    let spacing = isize::try_from(a.spacing).map_err(|_| Error::Overflow("axis spacing"))?;
    Ok(rumi::plan::Axis { start: a.start, count: a.count, step: a.step, spacing })
}

/// The planner request of `*r`, with its planes copied out of host memory.
///
/// # Safety
/// `r.planes` must point to `r.plane_count` values when `plane_count > 0`.
unsafe fn request_of(r: &rumi_request) -> Result<rumi::plan::Request, Error> {
    let planes = if r.plane_count == 0 {
        &[][..]
    } else if r.planes.is_null() {
        return Err(Error::Request("rumi_read: planes is NULL".into()));
    } else {
        // SAFETY: non-null; the caller guarantees `plane_count` readable values.
        unsafe { std::slice::from_raw_parts(r.planes, r.plane_count) }
    };
    let planes = planes
        .iter()
        .map(|p| {
            let offset = isize::try_from(p.offset).map_err(|_| Error::Overflow("plane offset"))?;
            Ok(rumi::plan::Plane { band: p.band, time: p.time, offset })
        })
        .collect::<Result<_, Error>>()?;
    let output = match r.output {
        RUMI_OUTPUT_NATIVE => rumi::plan::Output::Native,
        RUMI_OUTPUT_FLOAT32 => rumi::plan::Output::Float32,
        o => {
            return Err(Error::Request(format!(
                "rumi_read: output {o} is not RUMI_OUTPUT_NATIVE or RUMI_OUTPUT_FLOAT32"
            )))
        }
    };
    Ok(rumi::plan::Request { planes, rows: axis_of(&r.rows)?, cols: axis_of(&r.cols)?, output })
}

/// Reads `*req` into the host buffer through the core's read planner: every frame the request
/// needs is listed once, served from the dataset's decoded-frame cache when it is there,
/// otherwise fetched (one `rumi_io.read_multi` call per 64 MiB of compressed bytes, adjacent
/// ranges merged by the host) and decoded once on `threads` threads (0 or 1: the calling
/// thread only), and its samples are copied straight to their places in the buffer. Threads
/// are used only when no two samples share a byte of the buffer.
///
/// # Safety
/// `ds` must be a live dataset and `req` valid; `req->planes` must point to `plane_count`
/// values; the buffer around `req->origin` must be writable at every byte the request
/// addresses (the host's own buffer layout, as GDAL guarantees for `IRasterIO`/`IRead`).
#[no_mangle]
pub unsafe extern "C" fn rumi_read(ds: *const rumi_dataset, req: *const rumi_request, threads: u32) -> c_int {
    guard("rumi_read", || {
        // SAFETY: the caller guarantees `ds` is NULL or live.
        let ds = match unsafe { dataset(ds, "rumi_read") } {
            Ok(d) => d,
            Err(c) => return c,
        };
        // SAFETY: the caller guarantees `req` is NULL or valid.
        let Some(r) = (unsafe { req.as_ref() }) else { return bad_argument("rumi_read: req is NULL") };
        // SAFETY: the caller guarantees `planes` holds `plane_count` values.
        let request = match unsafe { request_of(r) } {
            Ok(q) => q,
            Err(e) => return fail(e),
        };
        let sb = request.sample_bytes(ds.reader.encoding());
        let (lo, span) = match request.extent(sb) {
            Ok(x) => x,
            Err(e) => return fail(e),
        };
        if span == 0 {
            return RUMI_OK;
        }
        if r.origin.is_null() {
            return bad_argument("rumi_read: origin is NULL");
        }
        // Rebase the planes on the lowest byte addressed, which becomes byte 0 of the slice.
        let mut request = request;
        request.planes.iter_mut().for_each(|p| p.offset -= lo);
        // SAFETY: the caller guarantees every byte the request addresses is writable: exactly
        // `origin + lo .. origin + lo + span` (Request::extent).
        let dst = unsafe { std::slice::from_raw_parts_mut(r.origin.cast::<u8>().offset(lo), span) };
        match ds.reader.read(&request, dst, 0, threads as usize) {
            Ok(_) => RUMI_OK,
            Err(e) => ds.fail_frames(e),
        }
    })
}

/// Parses a thread count as GDAL spells it (`NUM_THREADS`, `GDAL_NUM_THREADS`): `ALL_CPUS`
/// or a positive integer (capped at 256). Returns the count, or -1 with `rumi_last_error` set.
///
/// # Safety
/// `value` must be NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn rumi_parse_threads(value: *const c_char) -> c_int {
    guard("rumi_parse_threads", || {
        if value.is_null() {
            set_error("rumi_parse_threads: value is NULL");
            return -1;
        }
        // SAFETY: non-null and NUL-terminated per the contract.
        let text = unsafe { std::ffi::CStr::from_ptr(value) }.to_string_lossy();
        match rumi::plan::parse_threads(&text) {
            Ok(n) => n as c_int,
            Err(e) => {
                fail(e);
                -1
            }
        }
    })
}
