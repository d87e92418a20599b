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
//! - The ABI is what the GDAL adapter (`src/driver/`) calls, and no more. Two entry points
//!   are kept for other hosts: `rumi_open` (the generic open, with host I/O callbacks, an
//!   optional header blob and explicit limits, for C hosts and the tests; GDAL opens with
//!   `rumi_gdal_open`) and `rumi_version`.
#![allow(non_camel_case_types)]

use std::cell::RefCell;
use std::ffi::{c_char, c_int, c_void, CString};
use std::io;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr;
use std::sync::OnceLock;

use rumi::error::{Category, Error, Limits};
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

/// `rumi_request.output`: the decoded samples, in host byte order.
pub const RUMI_OUTPUT_NATIVE: u32 = 0;
/// `rumi_request.output`: binary32 (two per complex sample), exact, for the encodings
/// GDAL has no type for: float16, bfloat16, complex32 and the float8 formats.
pub const RUMI_OUTPUT_FLOAT32: u32 = 1;

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
    /// Optional (NULL, 0: none): the first `prefix_len` bytes of the source, which the host
    /// already has (GDAL: the bytes it read to identify the file), copied by `rumi_open`.
    /// Reads inside them are served from memory, so that a stateless open reads the
    /// georeferencing block (and a validating open the IFD) of a small file at no request.
    pub prefix: *const u8,
    /// number of bytes at `prefix`
    pub prefix_len: usize,
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
///   filled once (trailer, georeferencing, band texts). The `rumi_io` callbacks are then called
///   concurrently, so they must be thread-safe.
/// - Datasets share nothing: several datasets of the same file, each used by its own thread,
///   need no locking at all (this is what GDAL does with one dataset per thread).
/// - `rumi_free` must not race with any other use of the same dataset.
/// - Pointers returned by `rumi_band_text` stay valid, on every thread, until `rumi_free`.
/// - Errors are per thread: `rumi_last_error` is the last failure of the calling thread.
/// - Decoding uses one OpenZL context per thread, created on a thread's first decode and freed
///   when that thread exits; no global state is shared. The functions that take no dataset
///   (`rumi_version`, `rumi_encoding_name`, `rumi_output_sample_bytes` and the `rumi_gdal_*`
///   option and name parsers) may be called from any thread at any time.
pub struct rumi_dataset {
    reader: Reader<CallbackSource>,
    stateless: bool,
    /// Band texts as C strings, made on first request (from the trailer, read then).
    band_texts: OnceLock<Vec<CString>>,
    /// The VSI handle `reader` reads through (`rumi_gdal_open`); dropped after it.
    _vsi: Option<Box<crate::driver::vsi::VsiFile>>,
    /// The header blob file `rumi_gdal_open` opened with.
    header: Option<CString>,
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
    match e.category() {
        Category::Format => RUMI_ERR_FORMAT,
        Category::Limit => RUMI_ERR_LIMIT,
        Category::Unsupported => RUMI_ERR_UNSUPPORTED,
        Category::Usage => RUMI_ERR_ARGUMENT,
        Category::Io => RUMI_ERR_IO,
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
    /// `rumi_io.prefix`, copied at open.
    prefix: Vec<u8>,
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

/// Ranges per `rumi_io.read_multi` call: HTTP servers cap the ranges of one request (and
/// GDAL's /vsicurl/ fails a request with hundreds of them).
const MULTI_BATCH: usize = 64;

/// Reads shorter than this (and of at least 2 bytes) are made as a `read_multi` of two
/// adjacent halves when the host has one: GDAL's /vsicurl/ widens a small single read to a
/// whole 16 KiB chunk (which would fetch the IFD when a stateless open reads the
/// georeferencing block) but fetches the ranges of a multi-range read exactly. On local files
/// this is two plain reads.
const SMALL_READ: usize = 16384;

type MultiFn = unsafe extern "C" fn(*mut c_void, usize, *const u64, *const usize, *const *mut u8) -> c_int;

impl CallbackSource {
    /// One `rumi_io.read` of `buf.len()` bytes at `offset`.
    fn read_exact(&self, offset: u64, buf: &mut [u8]) -> io::Result<()> {
        let read = self.io.read.ok_or_else(|| io::Error::other("rumi_io.read is NULL"))?;
        if buf.is_empty() {
            return Ok(());
        }
        let len = buf.len();
        // SAFETY: `buf` has `len` writable bytes; the callback contract says it writes at most
        // `len` bytes there and `ctx` is valid while the dataset lives.
        let code = unsafe { read(self.io.ctx, offset, len, buf.as_mut_ptr()) };
        io_result(code, &format!("reading {len} bytes at offset {offset}"))
    }

    /// Reads `ranges` into `bufs` (one buffer of the range's length each) with `read_multi`
    /// calls of at most [`MULTI_BATCH`] ranges; the ranges of a call that fails are read one
    /// by one with `read` (which reports a range past the end of the source).
    fn read_batched(&self, multi: MultiFn, ranges: &[(u64, usize)], bufs: &mut [Vec<u8>]) -> io::Result<()> {
        for (ranges, bufs) in ranges.chunks(MULTI_BATCH).zip(bufs.chunks_mut(MULTI_BATCH)) {
            let offsets: Vec<u64> = ranges.iter().map(|r| r.0).collect();
            let lens: Vec<usize> = ranges.iter().map(|r| r.1).collect();
            let ptrs: Vec<*mut u8> = bufs.iter_mut().map(|b| b.as_mut_ptr()).collect();
            // SAFETY: the three arrays have `ranges.len()` entries; `ptrs[i]` points at
            // `lens[i]` writable bytes owned by `bufs`, which outlives the call.
            let code = unsafe { multi(self.io.ctx, ranges.len(), offsets.as_ptr(), lens.as_ptr(), ptrs.as_ptr()) };
            if code != RUMI_IO_OK {
                for (&(offset, _), buf) in ranges.iter().zip(bufs.iter_mut()) {
                    self.read_exact(offset, buf)?;
                }
            }
        }
        Ok(())
    }
}

impl RangeRead for CallbackSource {
    fn read_at(&self, offset: u64, len: usize) -> io::Result<Vec<u8>> {
        let start = usize::try_from(offset).unwrap_or(usize::MAX);
        if let Some(bytes) = start.checked_add(len).and_then(|end| self.prefix.get(start..end)) {
            return Ok(bytes.to_vec());
        }
        match self.io.read_multi {
            Some(multi) if (2..SMALL_READ).contains(&len) => {
                let half = len / 2;
                let mut bufs = vec![vec![0u8; half], vec![0u8; len - half]];
                self.read_batched(
                    multi,
                    &[(offset, half), (offset.saturating_add(half as u64), len - half)],
                    &mut bufs,
                )?;
                Ok(bufs.concat())
            }
            _ => {
                let mut buf = vec![0u8; len];
                self.read_exact(offset, &mut buf)?;
                Ok(buf)
            }
        }
    }

    fn read_ranges(&self, ranges: &[(u64, usize)]) -> io::Result<Vec<Vec<u8>>> {
        let Some(multi) = self.io.read_multi else {
            return ranges.iter().map(|&(o, l)| self.read_at(o, l)).collect();
        };
        let mut bufs: Vec<Vec<u8>> = ranges.iter().map(|&(_, l)| vec![0u8; l]).collect();
        self.read_batched(multi, ranges, &mut bufs)?;
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

/// Bytes per sample that `rumi_read` writes for `encoding` and `output` (a
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

fn cstrings<I: IntoIterator<Item = String>>(items: I) -> Result<Vec<CString>, Error> {
    items.into_iter().map(|s| CString::new(s).map_err(|_| Error::Usage("text contains a NUL byte".into()))).collect()
}

fn open_inner(io: rumi_io, blob: Option<&[u8]>, limits: Limits) -> Result<rumi_dataset, Error> {
    if io.read.is_none() || io.size.is_none() {
        return Err(Error::Usage("rumi_io.read and rumi_io.size are required".into()));
    }
    let prefix = if io.prefix.is_null() || io.prefix_len == 0 {
        Vec::new()
    } else {
        // SAFETY: the `rumi_io` contract: `prefix_len` readable bytes at `prefix`.
        unsafe { std::slice::from_raw_parts(io.prefix, io.prefix_len) }.to_vec()
    };
    let src = CallbackSource { io, prefix };
    let reader = match blob {
        Some(b) => Reader::open_with_blob(src, b, limits)?,
        None => Reader::open(src, limits)?,
    };
    Ok(rumi_dataset { reader, stateless: blob.is_some(), band_texts: OnceLock::new(), _vsi: None, header: None })
}

impl rumi_dataset {
    /// Reports a failed frame read. A frame that does not decode in a stateless open most
    /// often means a header blob of another file (nothing else was checked against the file):
    /// the message says so.
    fn fail_frames(&self, e: Error) -> c_int {
        let blob_hint = self.stateless && matches!(e, Error::Decode { .. });
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
/// `rumi_get_geotransform`, `rumi_band_text`, `rumi_metadata` and `rumi_time_values`, which
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

// ---- facts the GDAL adapter asks for instead of computing them ---------------------------------

/// The largest header blob the limits allow, in bytes: the 32-byte fixed part and a 32-bit
/// count for each of `max_frames` frames (at most 2^40), so that `RUMI_MAX_FRAMES` also bounds
/// what reading a blob may allocate.
fn blob_max_bytes(limits: &Limits) -> u64 {
    rumi::format::blob::BLOB_HEADER_BYTES as u64 + 4 * limits.max_frames.min(1 << 40)
}

/// `text` in the calling thread's warning slot, valid until the next warning on the thread.
fn thread_warning(text: String) -> *const c_char {
    thread_local! {
        static WARNING: RefCell<CString> = RefCell::new(CString::default());
    }
    let text = CString::new(text.replace('\0', "")).unwrap_or_default();
    WARNING.with(|w| {
        *w.borrow_mut() = text;
        w.borrow().as_ptr()
    })
}

/// A stateless open of `io` with the header blob file `header` (read through VSI), checked
/// against `prefix`; else the error code and why.
fn open_with_blob(
    io: rumi_io,
    header: &std::ffi::CStr,
    prefix: &[u8],
    limits: Limits,
) -> Result<rumi_dataset, (c_int, String)> {
    let max = blob_max_bytes(&limits);
    let Some(blob) = crate::driver::vsi::ingest(header, max) else {
        let name = header.to_string_lossy();
        return Err((
            RUMI_ERR_IO,
            format!(
                "cannot read the header blob '{name}' (missing, unreadable, or larger than the {max} bytes \
                 RUMI_MAX_FRAMES allows)"
            ),
        ));
    };
    open_inner(io, Some(&blob), limits)
        .and_then(|ds| rumi::validate::check_blob_prefix(&ds.reader, prefix).map(|()| ds))
        .map_err(|e| (RUMI_ERR_FORMAT, e.to_string()))
}

/// Opens the file at `path` that GDAL's VSI handle `fp` (a `VSILFILE *`) reads, with the
/// driver's header-blob policy, and stores the dataset in `*out`. `fp` is taken over: closed
/// by `rumi_free`, or before returning on failure. Reads go through GDAL's VSI functions,
/// one call at a time per handle, with `prefix` (`prefix_len` bytes: the file's first bytes,
/// as `rumi_io.prefix`). The header blob: `header` (the HEADER open option; "NONE": none),
/// else the sidecar `<path>.header` when `CPLCheckForFile` finds it in `siblings` (GDAL's
/// sibling list; NULL: probe the file). Without a blob the file is parsed and validated;
/// with one the open is stateless, the blob checked against the prefix (with at least the
/// 292-byte file header and IFD, the shape they state must be the blob's, and when the IFD's
/// external values are inside it too, every frame byte count) and the file's size (it must
/// hold the frames the blob locates and a trailer), at no request. A HEADER blob that cannot be read (`RUMI_ERR_IO`), is invalid or
/// does not match is an error naming it; such a sidecar is ignored: `*warning` (else NULL;
/// valid until the next call of this or `rumi_gdal_open_options` on the thread) names it, and
/// the file is parsed. `*header_used`:
/// the blob's path when the open used one, else NULL (valid until `rumi_free`).
///
/// # Safety
/// `fp` must be a live VSI handle nobody else uses; `path` NUL-terminated; `header` NULL or
/// NUL-terminated; `siblings` NULL or a NULL-terminated list of NUL-terminated strings;
/// `prefix` NULL or `prefix_len` readable bytes; `limits` NULL or valid; `out`, `warning` and
/// `header_used` writable.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn rumi_gdal_open(
    fp: *mut c_void,
    path: *const c_char,
    prefix: *const u8,
    prefix_len: usize,
    header: *const c_char,
    siblings: *mut *mut c_char,
    limits: *const rumi_limits,
    out: *mut *mut rumi_dataset,
    warning: *mut *const c_char,
    header_used: *mut *const c_char,
) -> c_int {
    guard("rumi_gdal_open", || {
        if fp.is_null() || path.is_null() || out.is_null() || warning.is_null() || header_used.is_null() {
            return bad_argument("rumi_gdal_open: fp, path, out, warning and header_used must not be NULL");
        }
        let vsi = crate::driver::vsi::VsiFile::new(fp);
        // SAFETY: checked non-null; the caller guarantees both are writable.
        unsafe { (out.write(ptr::null_mut()), warning.write(ptr::null()), header_used.write(ptr::null())) };
        let prefix: &[u8] = if prefix.is_null() {
            &[]
        } else {
            // SAFETY: the caller guarantees `prefix_len` readable bytes at `prefix`.
            unsafe { std::slice::from_raw_parts(prefix, prefix_len) }
        };
        // SAFETY: the caller guarantees NUL-terminated strings (or NULL for `header`).
        let (path, header) =
            unsafe { (std::ffi::CStr::from_ptr(path), header.as_ref().map(|h| std::ffi::CStr::from_ptr(h))) };
        let sidecar = header.is_none();
        let header = match header {
            Some(h) if h.is_empty() || h.to_bytes().eq_ignore_ascii_case(b"NONE") => None,
            Some(h) => Some(h.to_owned()),
            // SAFETY: the caller guarantees `siblings` is NULL or a valid list.
            None => unsafe { crate::driver::vsi::sidecar(path, siblings) },
        };
        let path = path.to_string_lossy();
        // SAFETY: the caller guarantees `limits` is NULL or valid.
        let limits = unsafe { limits.as_ref() }.map_or_else(Limits::default, |l| (*l).into());
        let io = vsi.io(prefix);
        let mut opened = None;
        if let Some(header) = &header {
            let name = header.to_string_lossy();
            match open_with_blob(io, header, prefix, limits) {
                Ok(ds) => opened = Some(ds),
                Err((code, why)) if !sidecar => {
                    set_error(&if code == RUMI_ERR_IO { why } else { format!("{path} (header blob {name}): {why}") });
                    return code;
                }
                Err((_, why)) => {
                    let text = format!(
                        "{path}: ignoring the sidecar header blob {name}, which does not match the file ({why}); \
                         opening the file by parsing it"
                    );
                    // SAFETY: checked non-null above.
                    unsafe { warning.write(thread_warning(text)) };
                }
            }
        }
        let ds = match opened.map_or_else(|| open_inner(io, None, limits), Ok) {
            Ok(ds) => ds,
            Err(e) => {
                let code = code_of(&e);
                set_error(&format!("{path}: {e}"));
                return code;
            }
        };
        let header = header.filter(|_| ds.stateless);
        let ds = rumi_dataset { _vsi: Some(vsi), header, ..ds };
        // SAFETY: checked non-null above; the path lives in the dataset.
        unsafe { header_used.write(ds.header.as_ref().map_or(ptr::null(), |h| h.as_ptr())) };
        // SAFETY: `out` checked non-null above.
        unsafe { out.write(Box::into_raw(Box::new(ds))) };
        RUMI_OK
    })
}

/// Stores the georeferencing as a GDAL geotransform in `out[0..6]`: (x_origin, x_res,
/// row_rot, y_origin, col_rot, y_res), `X = out[0] + col * out[1] + row * out[2]`,
/// `Y = out[3] + col * out[4] + row * out[5]`. GDAL's geotransform maps pixel corners: with
/// `pixel_corners` 1 a PixelIsPoint affine (which maps pixel centres) is shifted by half a
/// pixel, as GDAL's GTiff driver does; with 0 the affine is only reordered. Meaningless (the
/// identity) when `rumi_georef.model` is 0.
///
/// # Safety
/// `ds` must be a live dataset and `out` point to 6 writable doubles.
#[no_mangle]
pub unsafe extern "C" fn rumi_get_geotransform(ds: *const rumi_dataset, pixel_corners: u32, out: *mut f64) -> c_int {
    // SAFETY: the caller's guarantees are `query`'s (`out` as one [f64; 6]).
    unsafe {
        query("rumi_get_geotransform", ds, out.cast::<[f64; 6]>(), |ds| {
            let (a, point) = match ds.reader.georef()? {
                Georef::Undefined { .. } => return Ok([0.0, 1.0, 0.0, 0.0, 0.0, 1.0]),
                Georef::Epsg { raster_type, affine, .. } => (affine, raster_type == RasterType::Point),
            };
            let mut gt = [a[2], a[0], a[1], a[5], a[3], a[4]];
            if point && pixel_corners != 0 {
                gt[0] -= (gt[1] + gt[2]) * 0.5;
                gt[3] -= (gt[4] + gt[5]) * 0.5;
            }
            Ok(gt)
        })
    }
}

thread_local! {
    /// What the last successful `rumi_read` on the thread did, and on how many threads.
    static LAST_STATS: RefCell<(rumi::plan::ReadStats, u32)> = RefCell::new(Default::default());
}

fn record_stats(s: &rumi::plan::ReadStats, threads: u32) {
    LAST_STATS.with(|c| *c.borrow_mut() = (*s, threads.max(1)));
}

/// What the last successful `rumi_read` on the calling thread did (all zero before the
/// first), as the text of the driver's CPL_DEBUG line: "<frames> frame(s) needed, <decoded> read from the file, <hits>
/// from the cache (<batches> range read(s), <bytes> bytes, <threads> thread(s))". Valid until
/// the next `rumi_last_read_text` call on the thread.
#[no_mangle]
pub extern "C" fn rumi_last_read_text() -> *const c_char {
    thread_local! {
        static TEXT: RefCell<CString> = RefCell::new(CString::default());
    }
    let r = catch_unwind(|| {
        let (s, threads) = LAST_STATS.with(|c| *c.borrow());
        let text = format!(
            "{} frame(s) needed, {} read from the file, {} from the cache ({} range read(s), {} bytes, {threads} \
             thread(s))",
            s.frames, s.decoded, s.cache_hits, s.batches, s.bytes_fetched
        );
        TEXT.with(|t| {
            *t.borrow_mut() = CString::new(text).unwrap_or_default();
            t.borrow().as_ptr()
        })
    });
    r.unwrap_or(c"".as_ptr())
}

/// Sets the byte budget of the dataset's decoded-frame cache, which serves frames that reads
/// ask for again (the other bands of a cell frame, overlapping windows); 0 disables it.
///
/// # Safety
/// `ds` must be a live dataset.
#[no_mangle]
pub unsafe extern "C" fn rumi_set_cache_bytes(ds: *const rumi_dataset, bytes: u64) -> c_int {
    guard("rumi_set_cache_bytes", || {
        // SAFETY: the caller guarantees `ds` is NULL or live.
        match unsafe { dataset(ds, "rumi_set_cache_bytes") } {
            Ok(d) => {
                d.reader.set_cache_bytes(bytes);
                RUMI_OK
            }
            Err(c) => c,
        }
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
        return Err(Error::Usage("rumi_read: planes is NULL".into()));
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
            return Err(Error::Usage(format!("rumi_read: output {o} is not RUMI_OUTPUT_NATIVE or RUMI_OUTPUT_FLOAT32")))
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
            Ok(stats) => {
                record_stats(&stats, threads);
                RUMI_OK
            }
            Err(e) => ds.fail_frames(e),
        }
    })
}

// ---- texts the GDAL adapter sets as metadata ---------------------------------------------------

/// `rumi_metadata` list: the RUMI-domain items known at open (COMPRESSION .. OPEN_MODE).
pub const RUMI_MD_FILE: u32 = 0;
/// `rumi_metadata` list: the RUMI-domain items of the time axis (TIME_TYPE, TIME_SCALE).
pub const RUMI_MD_TIME_AXIS: u32 = 1;
/// `rumi_metadata` list: the dataset's default-domain time items: TIME, or TIME_START and
/// TIME_END, of step `time`; TIME_COUNT and TIMES (every step) when `time` is negative.
pub const RUMI_MD_DATASET: u32 = 2;
/// `rumi_metadata` list: SUBDATASET_<n>_NAME / _DESC of each time step of the file `path`.
pub const RUMI_MD_SUBDATASETS: u32 = 3;
/// `rumi_metadata` list: band `band`'s BAND_TEXT and, when `time` is not negative (a band of
/// a Cube), TIME_INDEX and TIME or TIME_START and TIME_END of step `time`.
pub const RUMI_MD_BAND: u32 = 4;
/// `rumi_metadata` list: one string (not KEY=VALUE), band `band`'s description: its text, and
/// " @ <time step>" when `time` is not negative.
pub const RUMI_MD_DESCRIPTION: u32 = 5;
/// `rumi_metadata` list: the CF attributes of the multidimensional `time` array.
pub const RUMI_MD_CF_TIME: u32 = 6;
/// `rumi_metadata` list: the CF attributes of the `time_bounds` array; empty for instants.
pub const RUMI_MD_CF_TIME_BOUNDS: u32 = 7;
/// `rumi_metadata` list: the CF attributes (standard_name, units) of the multidimensional `y`
/// array: latitude for a geographic CRS, else the projection coordinate in the CRS's linear
/// unit, whose name (as OGR spells it) is `path`; empty without a CRS.
pub const RUMI_MD_CF_Y: u32 = 8;
/// `rumi_metadata` list: as `RUMI_MD_CF_Y`, of the `x` array (longitude).
pub const RUMI_MD_CF_X: u32 = 9;

thread_local! {
    static LIST: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Stores `items` NUL-separated, ending with an empty string, in the thread's list buffer.
fn hand_out(items: Vec<Vec<u8>>) -> *const c_char {
    LIST.with(|l| {
        let mut l = l.borrow_mut();
        l.clear();
        for item in items {
            l.extend(item.into_iter().filter(|&c| c != 0));
            l.push(0);
        }
        l.push(0);
        l.as_ptr().cast()
    })
}

fn item(key: &str, value: impl std::fmt::Display) -> Vec<u8> {
    format!("{key}={value}").into_bytes()
}

fn time_items(axis: &rumi::format::TimeAxis, t: usize, out: &mut Vec<Vec<u8>>) {
    match axis.step(t) {
        TimeStep::Interval(s, e) => {
            out.push(item("TIME_START", axis.iso(s)));
            out.push(item("TIME_END", axis.iso(e)));
        }
        TimeStep::Instant(s) => out.push(item("TIME", axis.iso(s))),
    }
}

fn metadata_items(ds: &rumi_dataset, kind: u32, band: u32, time: i64, path: &[u8]) -> Result<Vec<Vec<u8>>, Error> {
    let mut out = Vec::new();
    if kind == RUMI_MD_FILE {
        let l = ds.reader.layout();
        let unit = l.frame_unit.value();
        out.push(item("COMPRESSION", "OPENZL"));
        out.push(item("FRAME_UNIT", unit));
        out.push(item("FRAME_LAYOUT", l.frame_unit.describe(u32::from(l.bands))));
        out.push(item("TILE_WIDTH", l.tile_width));
        out.push(item("TILE_LENGTH", l.tile_length));
        out.push(item("FRAME_COUNT", ds.reader.frame_count()));
        out.push(item("BAND_COUNT", l.bands));
        out.push(item("TIME_COUNT", l.times));
        out.push(item("SAMPLE_ENCODING", l.encoding.name()));
        out.push(item("OPEN_MODE", if ds.stateless { "STATELESS" } else { "VALIDATED" }));
        return Ok(out);
    }
    if kind == RUMI_MD_CF_Y || kind == RUMI_MD_CF_X {
        return cf_xy_items(ds, kind == RUMI_MD_CF_Y, path);
    }
    let trailer = ds.reader.trailer()?;
    let axis = &trailer.time;
    let steps = axis.steps();
    let step = usize::try_from(time).ok();
    if step.is_some_and(|t| t >= steps) {
        return Err(Error::Usage(format!("time step {time} does not exist (T = {steps})")));
    }
    let text = || -> Result<Vec<u8>, Error> {
        let texts = ds.band_texts()?;
        let t = texts.get(band as usize);
        t.map(|t| t.to_bytes().to_vec())
            .ok_or_else(|| Error::Usage(format!("band {band} does not exist (B = {})", texts.len())))
    };
    let interval = matches!(axis.kind, TimeKind::Interval);
    let units = if axis.scale == 86400 { "days since 1970-01-01" } else { "seconds since 1970-01-01T00:00:00Z" };
    match (kind, step) {
        (RUMI_MD_CF_TIME, _) => {
            out.push(item("standard_name", "time"));
            out.push(item("long_name", if interval { "start of the time step" } else { "time" }));
            out.push(item("units", units));
            out.push(item("calendar", "proleptic_gregorian"));
            out.push(item("axis", "T"));
            if interval {
                out.push(item("bounds", "time_bounds"));
            }
        }
        (RUMI_MD_CF_TIME_BOUNDS, _) if interval => {
            out.push(item("long_name", "start and end (exclusive) of the time step"));
            out.push(item("units", units));
            out.push(item("calendar", "proleptic_gregorian"));
        }
        (RUMI_MD_CF_TIME_BOUNDS, _) => {}
        (RUMI_MD_TIME_AXIS, _) => {
            out.push(item("TIME_TYPE", if interval { "INTERVAL" } else { "INSTANT" }));
            out.push(item("TIME_SCALE", axis.scale));
        }
        (RUMI_MD_DATASET, Some(t)) => time_items(axis, t, &mut out),
        (RUMI_MD_DATASET, None) => {
            out.push(item("TIME_COUNT", steps));
            out.push(item("TIMES", (0..steps).map(|t| axis.step_iso(t)).collect::<Vec<_>>().join(",")));
        }
        (RUMI_MD_SUBDATASETS, _) => {
            let bands = ds.reader.layout().bands;
            for t in 0..steps {
                out.push(
                    [format!("SUBDATASET_{}_NAME=RUMI:\"", t + 1).as_bytes(), path, format!("\":{t}").as_bytes()]
                        .concat(),
                );
                let desc = format!("SUBDATASET_{}_DESC=Time step {t} ({}) of ", t + 1, axis.step_iso(t));
                out.push([desc.as_bytes(), path, format!(": {bands} band(s)").as_bytes()].concat());
            }
        }
        (RUMI_MD_BAND, _) => {
            out.push([b"BAND_TEXT=".as_slice(), &text()?].concat());
            if let Some(t) = step {
                out.push(item("TIME_INDEX", t));
                time_items(axis, t, &mut out);
            }
        }
        (RUMI_MD_DESCRIPTION, None) => out.push(text()?),
        (RUMI_MD_DESCRIPTION, Some(t)) => out.push([text()?, format!(" @ {}", axis.step_iso(t)).into_bytes()].concat()),
        _ => return Err(Error::Usage(format!("rumi_metadata: unknown list {kind}"))),
    }
    Ok(out)
}

/// The CF attributes of the y (`is_y`) or x coordinate array; `unit`: the CRS's linear unit
/// as OGR names it (CF spells metre "m", foot "ft", US survey foot "US_survey_foot").
fn cf_xy_items(ds: &rumi_dataset, is_y: bool, unit: &[u8]) -> Result<Vec<Vec<u8>>, Error> {
    let (axis, geographic, degrees) =
        if is_y { ("y", "latitude", "degrees_north") } else { ("x", "longitude", "degrees_east") };
    let unit = String::from_utf8_lossy(unit);
    let cf_unit = match unit.to_ascii_lowercase().as_str() {
        "" | "metre" | "meter" => "m",
        "foot" => "ft",
        "us survey foot" => "US_survey_foot",
        _ => &unit,
    };
    Ok(match ds.reader.georef()? {
        Georef::Undefined { .. } => Vec::new(),
        Georef::Epsg { model: ModelType::Geographic, .. } => {
            vec![item("standard_name", geographic), item("units", degrees)]
        }
        Georef::Epsg { .. } => {
            vec![item("standard_name", format!("projection_{axis}_coordinate")), item("units", cf_unit)]
        }
    })
}

/// A list of metadata texts the GDAL adapter sets as they are, `kind` a `RUMI_MD_*` value:
/// NUL-terminated `KEY=VALUE` strings one after another, ending with an empty string. `band`
/// and `time` select a band and a time step (`time` negative: none), `path` (NULL: "") is the
/// file's name in the subdataset texts (the CRS's linear unit in the x and y lists). The list stays valid until the next `rumi_metadata`
/// call on the same thread. All lists but `RUMI_MD_FILE` read the trailer on first use. NULL,
/// with `rumi_last_error`, on failure.
///
/// # Safety
/// `ds` must be a live dataset; `path` NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn rumi_metadata(
    ds: *const rumi_dataset,
    kind: u32,
    band: u32,
    time: i64,
    path: *const c_char,
) -> *const c_char {
    guard_ptr("rumi_metadata", || {
        // SAFETY: the caller guarantees `ds` is NULL or live.
        let Ok(ds) = (unsafe { dataset(ds, "rumi_metadata") }) else { return ptr::null() };
        // SAFETY: NULL or NUL-terminated per the contract.
        let path = if path.is_null() { &[][..] } else { unsafe { std::ffi::CStr::from_ptr(path) }.to_bytes() };
        match metadata_items(ds, kind, band, time, path) {
            Ok(items) => hand_out(items),
            Err(e) => {
                fail(e);
                ptr::null()
            }
        }
    })
}

// ---- names, options and types the GDAL adapter parses through the C ABI ------------------------

const NAME_SYNTAX: &str = "expected RUMI:<path> or RUMI:\"<path>\":<time index>";

fn time_index(digits: &[u8]) -> Option<i32> {
    let ok = !digits.is_empty() && digits.len() <= 9 && digits.iter().all(u8::is_ascii_digit);
    ok.then(|| digits.iter().fold(0i32, |n, d| n * 10 + i32::from(d - b'0')))
}

/// (path, time step or -1, the unquoted `<head>:<digits>` reading) of a RUMI: name.
type ParsedName<'a> = (&'a [u8], i32, Option<(&'a [u8], i32)>);

fn parse_name(name: &[u8]) -> Result<ParsedName<'_>, String> {
    let shown = String::from_utf8_lossy(name);
    let rest = name.get(5..).unwrap_or_default();
    if let Some(quoted) = rest.strip_prefix(b"\"") {
        let end = quoted.iter().rposition(|&c| c == b'"').filter(|&e| e > 0);
        let Some(end) = end else {
            return Err(format!("invalid dataset name '{shown}': unterminated or empty quoted path; {NAME_SYNTAX}"));
        };
        let tail = &quoted[end + 1..];
        if tail.is_empty() {
            return Ok((&quoted[..end], -1, None));
        }
        return match (tail[0], time_index(&tail[1..])) {
            (b':', Some(t)) => Ok((&quoted[..end], t, None)),
            _ => Err(format!(
                "invalid dataset name '{shown}': '{}' after the quoted path is not ':' followed by a time index \
                 (a non-negative integer); {NAME_SYNTAX}",
                String::from_utf8_lossy(tail)
            )),
        };
    }
    if rest.is_empty() {
        return Err(format!("invalid dataset name '{shown}': no path; {NAME_SYNTAX}"));
    }
    let alt = rest.iter().rposition(|&c| c == b':').filter(|&c| c > 0);
    let alt = alt.and_then(|c| time_index(&rest[c + 1..]).map(|t| (&rest[..c], t)));
    Ok((rest, -1, alt))
}

/// Parses a dataset name `RUMI:<path>` or `RUMI:"<path>":<t>` (the first 5 bytes are the
/// prefix). With `alternative` 0: the path, and in `*time` the time step (-1 for none). With 1:
/// the unquoted reading `RUMI:<head>:<t>` (how rasterio lists subdatasets), NULL when the name
/// has none; the host takes it when `<path>` is not a file but `<head>` is. The path stays
/// valid until the next `rumi_parse_name` call on the thread. NULL, with `rumi_last_error`, on
/// bad syntax.
///
/// # Safety
/// `name` must be a NUL-terminated string and `time` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn rumi_parse_name(name: *const c_char, alternative: u32, time: *mut c_int) -> *const c_char {
    thread_local! {
        static PATH: RefCell<CString> = RefCell::new(CString::default());
    }
    guard_ptr("rumi_parse_name", || {
        if name.is_null() {
            set_error("rumi_parse_name: name is NULL");
            return ptr::null();
        }
        // SAFETY: non-null and NUL-terminated per the contract.
        let name = unsafe { std::ffi::CStr::from_ptr(name) }.to_bytes();
        let (path, t) = match (parse_name(name), alternative) {
            (Err(e), _) => {
                set_error(&e);
                return ptr::null();
            }
            (Ok((path, t, _)), 0) => (path, t),
            (Ok((_, _, Some((head, t)))), _) => (head, t),
            (Ok((_, _, None)), _) => return ptr::null(),
        };
        if !time.is_null() {
            // SAFETY: checked non-null; the caller guarantees it is writable.
            unsafe { time.write(t) };
        }
        let path = CString::new(path).unwrap_or_default();
        PATH.with(|p| {
            *p.borrow_mut() = path;
            p.borrow().as_ptr()
        })
    })
}

/// Looks up an option's value for `rumi_gdal_open_options`: NULL when unset.
pub type rumi_option_fn = Option<unsafe extern "C" fn(ctx: *mut c_void, name: *const c_char) -> *const c_char>;

/// A configuration option that sets a resource limit, and its field.
type LimitOption = (&'static std::ffi::CStr, fn(&mut rumi_limits) -> &mut u64);

/// The configuration options that set the resource limits.
const LIMIT_OPTIONS: [LimitOption; 6] = [
    (c"RUMI_MAX_FRAME_BYTES", |l| &mut l.max_frame_bytes),
    (c"RUMI_MAX_FRAMES", |l| &mut l.max_frames),
    (c"RUMI_MAX_TRAILER_BYTES", |l| &mut l.max_trailer_bytes),
    (c"RUMI_MAX_TIME_COORDS", |l| &mut l.max_time_coords),
    (c"RUMI_MAX_BANDS", |l| &mut l.max_bands),
    (c"RUMI_MAX_READ_BYTES", |l| &mut l.max_read_bytes),
];

/// MAX_FRAME_MB as GDAL's CPLAtoGIntBig reads it (leading blanks, a sign, the digits that follow).
fn atoll(text: &str) -> i64 {
    let t = text.trim_start();
    let (neg, t) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let n = t
        .bytes()
        .take_while(u8::is_ascii_digit)
        .fold(0i64, |n, d| n.saturating_mul(10).saturating_add(i64::from(d - b'0')));
    if neg {
        -n
    } else {
        n
    }
}

fn limits_from(get: &impl Fn(&std::ffi::CStr) -> Option<String>) -> Result<rumi_limits, String> {
    let mut limits: rumi_limits = Limits::default().into();
    for (name, field) in LIMIT_OPTIONS {
        let Some(value) = get(name).filter(|v| !v.is_empty()) else { continue };
        let parsed = value.parse::<u64>().ok().filter(|&n| n > 0 && value.as_bytes()[0].is_ascii_digit());
        let slot = field(&mut limits);
        let Some(n) = parsed else {
            return Err(format!(
                "configuration option {}={value} is not a positive integer (default {})",
                name.to_string_lossy(),
                *slot
            ));
        };
        *slot = n;
    }
    if let Some(value) = get(c"MAX_FRAME_MB") {
        let mb = atoll(&value);
        if mb <= 0 || mb > 1 << 40 {
            return Err(format!("MAX_FRAME_MB={value} is not a positive number of MiB"));
        }
        limits.max_frame_bytes = (mb as u64) << 20;
    }
    Ok(limits)
}

/// What the GDAL driver's open and configuration options ask for (`rumi_gdal_open_options`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct rumi_gdal_options {
    /// the resource limits: the `RUMI_MAX_*` configuration options, then `MAX_FRAME_MB`
    pub limits: rumi_limits,
    /// `PROMOTE`: `RUMI_OUTPUT_NATIVE` for NONE (the default), `RUMI_OUTPUT_FLOAT32` for FLOAT32
    pub output: u32,
    /// threads decoding the frames of one read: `NUM_THREADS`, else `GDAL_NUM_THREADS`, else 1
    pub threads: u32,
    /// the decoded-frame cache budget: `RUMI_CACHE_MB` MiB, else a quarter of GDAL's block
    /// cache, at least 32 MiB
    pub cache_bytes: u64,
    /// NULL, or a warning the driver shows (a thread count that is not one, read as 1); valid
    /// until the next `rumi_gdal_open_options` or `rumi_gdal_open` call on the thread
    pub warning: *const c_char,
}

/// The threads `NUM_THREADS`, else `GDAL_NUM_THREADS` ask for, and a warning when the value
/// is not a thread count (1 is used then).
fn threads_from(get: &impl Fn(&std::ffi::CStr) -> Option<String>) -> (u32, Option<String>) {
    let named = [c"NUM_THREADS", c"GDAL_NUM_THREADS"].into_iter().find_map(|n| get(n).map(|v| (n, v)));
    let Some((name, value)) = named.filter(|(_, v)| !v.is_empty()) else { return (1, None) };
    match rumi::plan::parse_threads(&value) {
        Ok(n) => (u32::try_from(n).unwrap_or(1), None),
        Err(e) => (1, Some(format!("{}={value}: {e}; reading on 1 thread", name.to_string_lossy()))),
    }
}

fn gdal_options_from(
    get: impl Fn(&std::ffi::CStr) -> Option<String>,
    gdal_cache_max: u64,
) -> Result<(rumi_gdal_options, Option<String>), String> {
    let promote = get(c"PROMOTE").unwrap_or_else(|| "NONE".into());
    let output = match promote.to_ascii_uppercase().as_str() {
        "NONE" => RUMI_OUTPUT_NATIVE,
        "FLOAT32" => RUMI_OUTPUT_FLOAT32,
        _ => return Err(format!("PROMOTE={promote} is not supported: use NONE or FLOAT32")),
    };
    let limits = limits_from(&get)?;
    let (threads, warning) = threads_from(&get);
    let cache_bytes = match get(c"RUMI_CACHE_MB").filter(|v| !v.is_empty()) {
        Some(mb) => (atoll(&mb).max(0) as u64).saturating_mul(1 << 20),
        None => (gdal_cache_max / 4).max(32 << 20),
    };
    Ok((rumi_gdal_options { limits, output, threads, cache_bytes, warning: ptr::null() }, warning))
}

/// Stores in `*out` what the options `get` finds ask for (called with `ctx` and each name:
/// the open options `PROMOTE`, `MAX_FRAME_MB` and `NUM_THREADS`, the configuration options
/// `RUMI_MAX_FRAME_BYTES`, `RUMI_MAX_FRAMES`, `RUMI_MAX_TRAILER_BYTES`, `RUMI_MAX_TIME_COORDS`,
/// `RUMI_MAX_BANDS`, `RUMI_MAX_READ_BYTES` (each a positive integer), `GDAL_NUM_THREADS` and
/// `RUMI_CACHE_MB`), the defaults for those unset or empty; `gdal_cache_max` is GDAL's block
/// cache size in bytes. `RUMI_ERR_ARGUMENT`, with `rumi_last_error` naming the option, for a
/// bad value (a bad thread count is a warning instead).
///
/// # Safety
/// `out` must be writable; `get` must return NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn rumi_gdal_open_options(
    get: rumi_option_fn,
    ctx: *mut c_void,
    gdal_cache_max: u64,
    out: *mut rumi_gdal_options,
) -> c_int {
    guard("rumi_gdal_open_options", || {
        let Some(get) = get.filter(|_| !out.is_null()) else {
            return bad_argument("rumi_gdal_open_options: out or get is NULL");
        };
        let lookup = |name: &std::ffi::CStr| {
            // SAFETY: the callback's contract: NULL or a NUL-terminated string.
            let value = unsafe { get(ctx, name.as_ptr()) };
            // SAFETY: checked non-null; NUL-terminated per the contract.
            (!value.is_null()).then(|| unsafe { std::ffi::CStr::from_ptr(value) }.to_string_lossy().into_owned())
        };
        match gdal_options_from(lookup, gdal_cache_max) {
            Ok((mut options, warning)) => {
                if let Some(w) = warning {
                    options.warning = thread_warning(w);
                }
                // SAFETY: checked non-null; the caller guarantees it is writable.
                unsafe { out.write(options) };
                RUMI_OK
            }
            Err(message) => bad_argument(&message),
        }
    })
}

/// The name of the GDAL data type (for GDALGetDataTypeByName) the driver shows samples of
/// `encoding` as, a static string, and in `*out_output` the `RUMI_OUTPUT_*` value to read them
/// with: "Byte" for bool and uint8, "Int8" for int8 when `has_int8` (GDAL 3.7 and later; else
/// "Byte", with PIXELTYPE=SIGNEDBYTE), "CFloat32" for complex64. The encodings GDAL has no type
/// for (float16, bfloat16, complex32, the float8 formats) are "Float32" ("CFloat32" for
/// complex32) read with `RUMI_OUTPUT_FLOAT32` when `output` (the PROMOTE open option) is
/// `RUMI_OUTPUT_FLOAT32`; otherwise NULL, with `rumi_last_error` naming the open option.
///
/// # Safety
/// `out_output` must be writable.
#[no_mangle]
pub unsafe extern "C" fn rumi_gdal_data_type(
    encoding: u32,
    output: u32,
    has_int8: u32,
    out_output: *mut u32,
) -> *const c_char {
    use SampleEncoding::*;
    guard_ptr("rumi_gdal_data_type", || {
        let Some(e) = encoding_of(encoding).filter(|_| !out_output.is_null()) else {
            set_error(&format!("rumi_gdal_data_type: unknown encoding code {encoding} or out_output NULL"));
            return ptr::null();
        };
        let native = match e {
            Bool | U8 => Some(c"Byte"),
            I8 if has_int8 == 0 => Some(c"Byte"),
            I8 => Some(c"Int8"),
            U16 => Some(c"UInt16"),
            U32 => Some(c"UInt32"),
            U64 => Some(c"UInt64"),
            I16 => Some(c"Int16"),
            I32 => Some(c"Int32"),
            I64 => Some(c"Int64"),
            F32 => Some(c"Float32"),
            F64 => Some(c"Float64"),
            C64 => Some(c"CFloat32"),
            C128 => Some(c"CFloat64"),
            _ => None,
        };
        let promoted = if e == C32 { c"CFloat32" } else { c"Float32" };
        let (name, out) = match native {
            Some(name) => (name, RUMI_OUTPUT_NATIVE),
            None if output == RUMI_OUTPUT_FLOAT32 && promote::promotable(e) => (promoted, RUMI_OUTPUT_FLOAT32),
            None => {
                set_error(&format!(
                    "{} samples have no GDAL data type. Open with the open option PROMOTE=FLOAT32 (e.g. gdalinfo -oo \
                     PROMOTE=FLOAT32) to read them converted exactly to {}",
                    e.name(),
                    promoted.to_string_lossy()
                ));
                return ptr::null();
            }
        };
        // SAFETY: checked non-null; the caller guarantees it is writable.
        unsafe { out_output.write(out) };
        name.as_ptr()
    })
}

/// `rumi_gdal_parts` bit: the query needs the georeferencing block.
pub const RUMI_PART_GEOREF: u32 = 1;
/// `rumi_gdal_parts` bit: the query needs the trailer (band texts, time coordinates).
pub const RUMI_PART_TRAILER: u32 = 2;

fn is_default_domain(domain: &str) -> bool {
    domain.is_empty()
}

/// Whether metadata item `name` of `domain` is one the trailer sets.
fn is_trailer_item(name: Option<&str>, domain: &str) -> bool {
    let name = name.map(str::to_ascii_uppercase);
    match domain.to_ascii_uppercase().as_str() {
        "" => name.is_some_and(|n| n.starts_with("TIME") || n == "BAND_TEXT"),
        "RUMI" => name.is_some_and(|n| n == "TIME_TYPE" || n == "TIME_SCALE"),
        "SUBDATASETS" => true,
        _ => false,
    }
}

/// Which parts of the file (`RUMI_PART_*` bits) the driver reads, on first use, before it
/// answers a metadata query: of the dataset (`band` 0) or of a band (1), for the whole domain
/// `domain` (NULL: the default domain) when `name` is NULL, else for item `name`. The
/// georeferencing block sets AREA_OR_POINT (default domain of the dataset); the trailer the
/// time items (TIME*, BAND_TEXT; TIME_TYPE and TIME_SCALE in the RUMI domain) and the
/// subdatasets. So a query of what the open already knows (OPEN_MODE in the RUMI domain,
/// after a pixel read) costs no request.
///
/// # Safety
/// `name` and `domain` must be NULL or NUL-terminated strings.
#[no_mangle]
pub unsafe extern "C" fn rumi_gdal_parts(band: u32, name: *const c_char, domain: *const c_char) -> u32 {
    let r = catch_unwind(|| {
        // SAFETY: NULL or NUL-terminated per the contract.
        let text = |p: *const c_char| (!p.is_null()).then(|| unsafe { std::ffi::CStr::from_ptr(p) }.to_string_lossy());
        let (name, domain) = (text(name), text(domain).unwrap_or_default());
        let (name, default) = (name.as_deref(), is_default_domain(&domain));
        let trailer_domain = default || ["SUBDATASETS", "RUMI"].iter().any(|d| domain.eq_ignore_ascii_case(d));
        let trailer = match (band, name) {
            (0, None) => trailer_domain,
            (0, Some(_)) => is_trailer_item(name, &domain),
            (_, None) => default,
            (_, Some(_)) => default && is_trailer_item(name, &domain),
        };
        let georef = band == 0 && default && name.is_none_or(|n| n.eq_ignore_ascii_case("AREA_OR_POINT"));
        (u32::from(georef) * RUMI_PART_GEOREF) | (u32::from(trailer) * RUMI_PART_TRAILER)
    });
    r.unwrap_or(RUMI_PART_GEOREF | RUMI_PART_TRAILER)
}

static CONFIG_OPTIONS: &std::ffi::CStr = c"<ConfigOptionList>  <Option name='RUMI_MAX_FRAME_BYTES' type='int' default='268435456' description='Largest decoded frame, in bytes (also bounds a compressed frame)'/>  <Option name='RUMI_MAX_FRAMES' type='int' default='16777216' description='Largest frame count N'/>  <Option name='RUMI_MAX_TRAILER_BYTES' type='int' default='67108864' description='Largest trailer (band texts and time coordinates), in bytes'/>  <Option name='RUMI_MAX_TIME_COORDS' type='int' default='4194304' description='Largest number of time coordinates C'/>  <Option name='RUMI_MAX_BANDS' type='int' default='65535' description='Largest band count B'/>  <Option name='RUMI_MAX_READ_BYTES' type='int' default='4294967296' description='Largest window one read may decode into memory, in bytes'/></ConfigOptionList>";

static OPEN_OPTIONS: &std::ffi::CStr = c"<OpenOptionList>  <Option name='HEADER' type='string' description='External header blob for a stateless open (any GDAL path, e.g. /vsis3/...), or NONE to parse and validate the file itself. Default: the sidecar file.rumi.header when it exists, else NONE'/>  <Option name='PROMOTE' type='string-select' default='NONE' description='Encodings GDAL has no data type for (float16, bfloat16, complex32, float8) are refused unless FLOAT32: then their values are converted exactly to Float32 (CFloat32 for complex32)'>    <Value>NONE</Value>    <Value>FLOAT32</Value>  </Option>  <Option name='MAX_FRAME_MB' type='int' default='256' description='Largest decoded frame to accept, in MiB (overrides the RUMI_MAX_FRAME_BYTES configuration option)'/>  <Option name='NUM_THREADS' type='string' description='Threads decoding the frames of a multi-block read: a number or ALL_CPUS. Default: the GDAL_NUM_THREADS configuration option, else 1'/></OpenOptionList>";

/// The GDAL driver's metadata items (`KEY=VALUE`, NUL-separated, ending with an empty
/// string, as `rumi_metadata`), a static list: its capabilities, names, version, and option
/// lists as GDAL's XML (DMD_RUMI_CONFIG_OPTIONS: the resource limits of docs/reliability.md,
/// read at every open, MAX_FRAME_MB overriding the first; DMD_OPENOPTIONLIST).
#[no_mangle]
pub extern "C" fn rumi_gdal_driver_items() -> *const c_char {
    static ITEMS: OnceLock<Vec<u8>> = OnceLock::new();
    let r = catch_unwind(|| {
        ITEMS
            .get_or_init(|| {
                let version = concat!("DMD_PLUGIN_VERSION=", env!("CARGO_PKG_VERSION"));
                let items = [
                    "DCAP_RASTER=YES",
                    "DCAP_MULTIDIM_RASTER=YES",
                    "DCAP_OPEN=YES",
                    "DMD_LONGNAME=rumi stateless raster storage",
                    "DMD_EXTENSION=rumi",
                    "DMD_EXTENSIONS=rumi",
                    "DCAP_VIRTUALIO=YES",
                    "DMD_SUBDATASETS=YES",
                    "DMD_CONNECTION_PREFIX=RUMI:",
                    version,
                ];
                let xml = [("DMD_RUMI_CONFIG_OPTIONS=", CONFIG_OPTIONS), ("DMD_OPENOPTIONLIST=", OPEN_OPTIONS)];
                let mut list: Vec<u8> = items.iter().flat_map(|i| i.bytes().chain([0])).collect();
                list.extend(xml.iter().flat_map(|(k, v)| k.bytes().chain(v.to_bytes().iter().copied()).chain([0])));
                list.push(0);
                list
            })
            .as_ptr()
            .cast()
    });
    r.unwrap_or(ptr::null())
}

/// Stores in `out` (`len` values) the Int64 time coordinates, in `time_scale` units, of the
/// `count` steps from `first`: with `bounds` 0 the instant or the start of each step (`count`
/// values); with 1 the start and the (exclusive) end of each interval step (`2 * count`
/// values; `RUMI_ERR_ARGUMENT` on an instant axis). Reads the trailer on first use.
///
/// # Safety
/// `ds` must be a live dataset and `out` point to `len` writable values.
#[no_mangle]
pub unsafe extern "C" fn rumi_time_values(
    ds: *const rumi_dataset,
    first: u32,
    count: u32,
    bounds: u32,
    out: *mut i64,
    len: usize,
) -> c_int {
    guard("rumi_time_values", || {
        // SAFETY: the caller guarantees `ds` is NULL or live.
        let ds = match unsafe { dataset(ds, "rumi_time_values") } {
            Ok(d) => d,
            Err(c) => return c,
        };
        let axis = match ds.reader.trailer() {
            Ok(t) => &t.time,
            Err(e) => return fail(e),
        };
        let steps = (first as usize)..(first as usize).saturating_add(count as usize);
        if steps.end > axis.steps() {
            return bad_argument(&format!("time steps {first}+{count} do not exist (T = {})", axis.steps()));
        }
        let c = &axis.coords;
        let values: Option<Vec<i64>> = match (axis.kind, bounds) {
            (TimeKind::Instant, 0) => c.get(steps).map(<[i64]>::to_vec),
            (TimeKind::Interval, 0) => steps.map(|t| c.get(2 * t).copied()).collect(),
            (TimeKind::Interval, _) => c.get(2 * steps.start..2 * steps.end).map(<[i64]>::to_vec),
            (TimeKind::Instant, _) => return bad_argument("the time axis holds instants: steps have no bounds"),
        };
        let Some(values) = values else { return bad_argument("rumi_time_values: the time axis is short") };
        if out.is_null() || len != values.len() {
            return bad_argument(&format!("rumi_time_values: {} values for a buffer of {len}", values.len()));
        }
        // SAFETY: `out` holds `len` writable values per the contract.
        let out = unsafe { std::slice::from_raw_parts_mut(out, len) };
        out.copy_from_slice(&values);
        RUMI_OK
    })
}
