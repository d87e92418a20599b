//! The names and options the GDAL adapter parses through the protocol: `RUMI:` dataset names
//! (`rumi_gdal_parse_name`) and the open and configuration options (`rumi_gdal_open_options`:
//! resource limits, PROMOTE, threads, the decoded-frame cache size).

use std::cell::RefCell;
use std::ffi::{c_char, c_int, c_void, CString};
use std::ptr;

use rumi::{LimitKind, Limits};

use super::thread_warning;
use crate::capi::{
    bad_argument, guard, guard_ptr, rumi_limits, set_error, RUMI_OK, RUMI_OUTPUT_FLOAT32, RUMI_OUTPUT_NATIVE,
};

// ---- names -------------------------------------------------------------------------------------

/// Parses a dataset name `RUMI:<path>` or `RUMI:"<path>":<t>` (the first 5 bytes are the
/// prefix). With `alternative` 0: the path, and in `*time` the time step (-1 for none). With 1:
/// the unquoted reading `RUMI:<head>:<t>` (how rasterio lists subdatasets), NULL when the name
/// has none; the host takes it when `<path>` is not a file but `<head>` is. The path stays
/// valid until the next `rumi_gdal_parse_name` call on the thread. NULL, with `rumi_last_error`, on
/// bad syntax.
///
/// # Safety
/// `name` must be a NUL-terminated string and `time` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn rumi_gdal_parse_name(
    name: *const c_char,
    alternative: u32,
    time: *mut c_int,
) -> *const c_char {
    thread_local! {
        static PATH: RefCell<CString> = RefCell::new(CString::default());
    }
    guard_ptr("rumi_gdal_parse_name", || {
        if name.is_null() {
            set_error("rumi_gdal_parse_name: name is NULL");
            return ptr::null();
        }
        // SAFETY: non-null and NUL-terminated per the contract.
        let name = unsafe { std::ffi::CStr::from_ptr(name) }.to_bytes();
        // the syntax is the core's (rumi::name), shared with the CLI; the adapter calls this
        // only for names that start with RUMI:
        let parsed = match rumi::name::parse(name) {
            Some(Ok(n)) => n,
            Some(Err(e)) => {
                set_error(&e);
                return ptr::null();
            }
            None => {
                set_error(&format!(
                    "invalid dataset name '{}': it does not start with RUMI:",
                    String::from_utf8_lossy(name)
                ));
                return ptr::null();
            }
        };
        let (path, t) = match (alternative, parsed.unquoted) {
            (0, _) => (parsed.path, parsed.time),
            (_, Some((head, t))) => (head, Some(t)),
            (_, None) => return ptr::null(),
        };
        if !time.is_null() {
            let t = t.map_or(-1, |t| c_int::try_from(t).unwrap_or(c_int::MAX));
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

// ---- options -----------------------------------------------------------------------------------

/// Looks up an option's value for `rumi_gdal_open_options`: NULL when unset.
pub type rumi_option_fn = Option<unsafe extern "C" fn(ctx: *mut c_void, name: *const c_char) -> *const c_char>;

/// The configuration option that sets the resource limit `kind` (`RUMI_MAX_FRAMES` for
/// `max_frames`; the C ABI's error texts name it too: `capi::error_text`).
pub fn limit_option(kind: LimitKind) -> CString {
    CString::new(format!("RUMI_{}", kind.name().to_ascii_uppercase())).unwrap_or_default()
}

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
    let mut limits = Limits::default();
    for kind in LimitKind::ALL {
        let name = limit_option(kind);
        let Some(value) = get(&name).filter(|v| !v.is_empty()) else { continue };
        let parsed = value.parse::<u64>().ok().filter(|&n| n > 0 && value.as_bytes()[0].is_ascii_digit());
        let Some(n) = parsed else {
            return Err(format!(
                "configuration option {}={value} is not a positive integer (default {})",
                name.to_string_lossy(),
                limits.get(kind)
            ));
        };
        limits.set(kind, n);
    }
    if let Some(value) = get(c"MAX_FRAME_MB") {
        let mb = atoll(&value);
        if mb <= 0 || mb > 1 << 40 {
            return Err(format!("MAX_FRAME_MB={value} is not a positive number of MiB"));
        }
        limits.max_frame_bytes = (mb as u64) << 20;
    }
    Ok(limits.into())
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
    /// `LAZY`: 1 when a stateless open over a network file system sends no request (the
    /// georeferencing block read on first use, so a server without HTTP Range support fails only
    /// then); 0 (the default) when it reads that block at open, so that such a server fails the
    /// open, as GDAL's own drivers do
    pub lazy: u32,
}

/// The threads `NUM_THREADS`, else `GDAL_NUM_THREADS` ask for, and a warning when the value
/// is not a thread count (1 is used then).
fn threads_from(get: &impl Fn(&std::ffi::CStr) -> Option<String>) -> (u32, Option<String>) {
    let named = [c"NUM_THREADS", c"GDAL_NUM_THREADS"].into_iter().find_map(|n| get(n).map(|v| (n, v)));
    let Some((name, value)) = named.filter(|(_, v)| !v.is_empty()) else { return (1, None) };
    match rumi::pool::parse_threads(&value) {
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
    let lazy = match get(c"LAZY").map(|v| v.to_ascii_uppercase()).as_deref() {
        None | Some("" | "NO" | "FALSE" | "OFF" | "0") => 0,
        Some("YES" | "TRUE" | "ON" | "1") => 1,
        Some(_) => return Err(format!("LAZY={} is not supported: use YES or NO", get(c"LAZY").unwrap_or_default())),
    };
    let cache_bytes = match get(c"RUMI_CACHE_MB").filter(|v| !v.is_empty()) {
        // a configuration option like the RUMI_MAX_* limits: a bad value is an error, not a default
        Some(mb) => match mb.trim().parse::<u64>().ok().and_then(|n| n.checked_mul(1 << 20)) {
            Some(bytes) if mb.trim().as_bytes()[0].is_ascii_digit() => bytes,
            _ => {
                return Err(format!(
                    "configuration option RUMI_CACHE_MB={mb} is not a number of MiB (a non-negative integer; 0: no \
                     decoded-frame cache; default a quarter of GDAL_CACHEMAX, at least 32)"
                ))
            }
        },
        None => (gdal_cache_max / 4).max(32 << 20),
    };
    Ok((rumi_gdal_options { limits, output, threads, cache_bytes, warning: ptr::null(), lazy }, warning))
}

/// Stores in `*out` what the options `get` finds ask for (called with `ctx` and each name:
/// the open options `PROMOTE`, `MAX_FRAME_MB`, `NUM_THREADS` and `LAZY`, the configuration options
/// `RUMI_MAX_FRAME_BYTES`, `RUMI_MAX_FRAMES`, `RUMI_MAX_TRAILER_BYTES`, `RUMI_MAX_TIME_COORDS`,
/// `RUMI_MAX_BANDS`, `RUMI_MAX_READ_BYTES` (each a positive integer), `GDAL_NUM_THREADS` and
/// `RUMI_CACHE_MB` (a non-negative integer)), the defaults for those unset or empty;
/// `gdal_cache_max` is GDAL's block cache size in bytes. `RUMI_ERR_ARGUMENT`, with
/// `rumi_last_error` naming the option, for a bad value (a bad thread count is a warning
/// instead, as GDAL's own drivers treat NUM_THREADS).
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
