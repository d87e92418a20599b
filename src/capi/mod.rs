//! Layer 4: the general C ABI over [`rumi::Reader`], for any C or C++ host:
//! `include/rumi.h` is generated from this module (and `io.rs`, `dataset.rs`, `read.rs`) by
//! cbindgen (`RUMI_BLESS=1 cargo test --test header_fresh` rewrites it; the test fails when it
//! is stale). The GDAL adapter's private protocol (metadata lists, option parsing, type
//! mapping, the driver's XML, the header-blob open over VSI) is not part of it: it lives in
//! [`crate::driver::protocol`], behind the private header `src/driver/protocol/rumi_gdal.h`.
//!
//! The functions: `rumi_version`, `rumi_last_error`; `rumi_open` (host I/O callbacks, an
//! optional header blob, limits) and `rumi_free`; the queries `rumi_get_info`,
//! `rumi_get_georef`, `rumi_get_geotransform` (GDAL order, PixelIsPoint optionally shifted),
//! `rumi_band_text`, `rumi_time_values`; the read `rumi_read` and the cache budget
//! `rumi_set_cache_bytes`.
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
use std::ffi::{c_char, c_int, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr;

use rumi::format::SampleEncoding;
use rumi::{Category, Error};

mod dataset;
pub(crate) mod io;
mod query;
mod read;

pub use dataset::{rumi_dataset, rumi_free, rumi_georef, rumi_info, rumi_limits, rumi_open};
pub use io::rumi_io;
pub use query::{rumi_band_text, rumi_get_georef, rumi_get_geotransform, rumi_get_info, rumi_time_values};
pub use read::{rumi_axis, rumi_plane, rumi_read, rumi_request, rumi_set_cache_bytes};

pub(crate) use dataset::dataset;
pub(crate) use io::CallbackSource;
pub(crate) use read::last_read_stats;

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

// ---- errors ------------------------------------------------------------------------------------

thread_local! {
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

/// Makes `message` the calling thread's `rumi_last_error`.
pub(crate) fn set_error(message: &str) {
    let text = CString::new(message.replace('\0', "\\0")).unwrap_or_default();
    LAST_ERROR.with(|e| *e.borrow_mut() = text);
}

/// The `RUMI_ERR_*` code of an error's category.
pub(crate) fn code_of(e: &Error) -> c_int {
    match e.category() {
        Category::Format => RUMI_ERR_FORMAT,
        Category::Limit => RUMI_ERR_LIMIT,
        Category::Unsupported => RUMI_ERR_UNSUPPORTED,
        Category::Usage => RUMI_ERR_ARGUMENT,
        Category::Io => RUMI_ERR_IO,
    }
}

/// Reports `e` (`rumi_last_error`) and returns its code.
pub(crate) fn fail(e: Error) -> c_int {
    set_error(&error_text(&e));
    code_of(&e)
}

/// The message of `e` for C hosts: a resource limit names the `rumi_limits` field and the GDAL
/// configuration option that raise it (the core names only the limit).
pub(crate) fn error_text(e: &Error) -> String {
    match e {
        Error::Limit { what, value, limit } => {
            let name = what.kind().name();
            format!(
                "resource limit exceeded: {what} is {value}, the limit is {limit} (rumi_limits.{name}; GDAL: RUMI_{})",
                name.to_ascii_uppercase()
            )
        }
        Error::HeaderBlob { blob, file, source } => {
            format!("header blob {blob} does not describe {file}: {}", error_text(source))
        }
        e => e.to_string(),
    }
}

/// Reports `message` and returns `RUMI_ERR_ARGUMENT`.
pub(crate) fn bad_argument(message: &str) -> c_int {
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
pub(crate) fn guard(what: &str, f: impl FnOnce() -> c_int) -> c_int {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(code) => code,
        Err(p) => {
            set_error(&format!("internal error in {what}: {}", panic_message(p.as_ref())));
            RUMI_ERR_INTERNAL
        }
    }
}

/// Like `guard`, for functions returning a pointer (NULL on failure or panic).
pub(crate) fn guard_ptr<T>(what: &str, f: impl FnOnce() -> *const T) -> *const T {
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

// ---- encodings ---------------------------------------------------------------------------------

/// The `RUMI_ENCODING_*` code of an encoding.
pub(crate) fn encoding_code(e: SampleEncoding) -> u32 {
    // the codes are the core's (the position in the spec's table); `RUMI_ENCODING_*` spell them
    // for C, and tests/capi.rs checks that they agree
    e.code()
}

/// The encoding of a `RUMI_ENCODING_*` code.
pub(crate) fn encoding_of(code: u32) -> Option<SampleEncoding> {
    SampleEncoding::from_code(code)
}
