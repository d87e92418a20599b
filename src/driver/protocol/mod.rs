//! The GDAL adapter's private protocol: what the C++ (`rumidataset.cpp`, `rumimultidim.cpp`)
//! asks Rust for instead of computing it, so that the adapter holds no format arithmetic. Not
//! part of the public C ABI (`include/rumi.h`, [`crate::capi`]): its header is
//! `src/driver/protocol/rumi_gdal.h`, generated from this module by cbindgen
//! (`src/driver/protocol/cbindgen.toml`; the test `header_fresh` fails when it is stale), and its
//! functions are not exported from the plugin: the header declares them with hidden
//! visibility, which the linker applies to the definitions (the most constraining visibility
//! of a symbol wins), so the C++ calls them inside the `.so` and `nm -D` lists only
//! `GDALRegister_RUMI` and the public `rumi_*`. Every function is `rumi_gdal_*`.
//!
//! - here: the open with the driver's header-blob policy over a VSI handle
//!   (`rumi_gdal_open`), the GDAL data type of an encoding (`rumi_gdal_data_type`), encoding
//!   names and output sample sizes, and the text of the last read's statistics;
//! - [`options`]: the `RUMI:` dataset names and the open and configuration options;
//! - [`metadata`]: the metadata lists the driver sets as they are, which parts of the file a
//!   metadata query needs, and the driver's own items (capabilities, option lists as XML).
//!
//! Like the public ABI, every function runs under `catch_unwind` and reports its errors
//! through `rumi_last_error`.
#![allow(non_camel_case_types)]

use std::cell::RefCell;
use std::collections::HashMap;
use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::panic::catch_unwind;
use std::ptr;
use std::sync::Mutex;

use rumi::per_process::PerProcess;
use rumi::Limits;

use rumi::open::{max_blob_bytes, BlobCheck, HeaderBlob, OpenOptions, StaleSidecar};
use rumi::Error;

use crate::capi::{
    bad_argument, code_of, encoding_of, error_text, guard, guard_ptr, rumi_dataset, rumi_io, set_error, CallbackSource,
    RUMI_ERR_IO, RUMI_OK, RUMI_OUTPUT_FLOAT32, RUMI_OUTPUT_NATIVE,
};
use crate::driver::vsi::{self, VsiFile};

pub mod metadata;
pub mod options;

pub use metadata::*;
pub use options::*;

// ---- the open ----------------------------------------------------------------------------------

/// `text` in the calling thread's warning slot, valid until the next warning on the thread.
pub(crate) fn thread_warning(text: String) -> *const c_char {
    thread_local! {
        static WARNING: RefCell<CString> = RefCell::new(CString::default());
    }
    let text = CString::new(text.replace('\0', "")).unwrap_or_default();
    WARNING.with(|w| {
        *w.borrow_mut() = text;
        w.borrow().as_ptr()
    })
}

/// What [`open_by_policy`] opened: the dataset and the header blob file it used (None when the
/// file was parsed and validated).
type Opened = (rumi_dataset, Option<CString>);

/// The driver's header-blob open policy, all of it (one function, so that the core's open
/// policy can replace it): the blob is `header` (the HEADER open option; empty or "NONE":
/// none), else the sidecar `<path>.header` when GDAL's sibling list `siblings` (NULL: a
/// stat) has it. With a blob the open is stateless and the blob checked against `prefix` and
/// the file's size; a HEADER blob that cannot be read, is invalid or does not match is an
/// error naming it, such a sidecar is ignored with the warning returned (also when the open
/// that follows fails), and the file is parsed. Errors are set (`rumi_last_error`) and their
/// code returned.
///
/// # Safety
/// `io` must honour the `rumi_io` contract; `siblings` must be NULL or a NULL-terminated list
/// of NUL-terminated strings.
unsafe fn open_by_policy(
    io: rumi_io,
    path: &CStr,
    prefix: &[u8],
    header: Option<&CStr>,
    siblings: *mut *mut c_char,
    limits: Limits,
    lazy: bool,
) -> (Result<Opened, c_int>, Option<String>) {
    let explicit = header.is_some();
    let file = path.to_string_lossy();
    // a local path GDAL probed with a stat (no sibling list), which follows links: a dangling
    // link as the sidecar is still a sidecar the open warns about (rumi::open)
    let probed = siblings.is_null() && !file.starts_with("/vsi") && vsi::is_local(path);
    let header = match header {
        Some(h) if h.is_empty() || h.to_bytes().eq_ignore_ascii_case(b"NONE") => None,
        Some(h) => Some(h.to_owned()),
        // SAFETY: the caller guarantees `siblings` is NULL or a valid list.
        None => unsafe { vsi::sidecar(path, siblings) },
    };
    // the blob's bytes, read through VSI; the policy itself is the core's (rumi::open)
    let blob = match &header {
        None if !explicit && probed => {
            let name = rumi::open::sidecar_name(&file);
            match rumi::open::unreadable_sidecar(&name, None) {
                Some(why) => HeaderBlob::Unreadable { name, why },
                None => HeaderBlob::None,
            }
        }
        None => HeaderBlob::None,
        Some(h) => {
            let name = h.to_string_lossy().into_owned();
            let max = max_blob_bytes(&limits);
            match vsi::ingest(h, max) {
                Some(bytes) if explicit => HeaderBlob::Explicit { name, bytes },
                Some(bytes) => HeaderBlob::Sidecar { name, bytes },
                None => {
                    let why = format!(
                        "cannot read the header blob '{name}' (missing, unreadable, or larger than the {max} bytes \
                         RUMI_MAX_FRAMES allows)"
                    );
                    if explicit {
                        set_error(&why);
                        return (Err(RUMI_ERR_IO), None);
                    }
                    HeaderBlob::Unreadable { name, why }
                }
            }
        }
    };
    // said also when the open that follows fails
    let unreadable = match &blob {
        HeaderBlob::Unreadable { name, why } => Some(rumi::open::unreadable_warning(&file, name, why)),
        _ => None,
    };
    let opts = OpenOptions { limits, stale_sidecar: StaleSidecar::Warn, check: BlobCheck::Prefix(prefix) };
    // /vsicurl/, /vsis3/...: each request a round trip (the read path then makes fewer of them)
    let remote = !vsi::is_local(path);
    // SAFETY: the caller guarantees the `rumi_io` contract.
    let opened = unsafe { CallbackSource::new(io) }
        .and_then(|src| rumi::open::open(src.remote(remote), &file, blob, &opts))
        .and_then(|o| {
            // a stateless open over the network whose first bytes GDAL did not read (RUMI:"...")
            // has sent no ranged request yet: the georeferencing block, which every GDAL tool
            // asks for next, is read now (cached by the reader), so that a server without Range
            // support fails the open (io::range_unsupported) rather than each lazy query after it
            if remote && prefix.is_empty() && o.blob.is_some() && !lazy {
                o.reader.georef()?;
            }
            Ok(o)
        });
    match opened {
        Ok(o) => {
            let stateless = o.blob.is_some();
            let ds = rumi_dataset::new(o.reader, stateless);
            (Ok((ds, header.filter(|_| stateless))), o.warning)
        }
        Err(e) => {
            let code = code_of(&e);
            match &e {
                Error::HeaderBlob { .. } => set_error(&error_text(&e)),
                _ => set_error(&format!("{file}: {}", error_text(&e))),
            }
            (Err(code), unreadable)
        }
    }
}

/// The resources a dataset of `rumi_gdal_open` reads through, kept (and the handle closed)
/// until `rumi_free` drops the dataset.
struct GdalSource {
    /// The header blob file the open used (`*header_used` points into it).
    _header: Option<CString>,
    /// GDAL's handle, which the dataset's `rumi_io` callbacks read; closed on drop.
    _vsi: Box<VsiFile>,
}

/// Opens the file at `path` that GDAL's VSI handle `fp` (a `VSILFILE *`) reads, with the
/// driver's header-blob policy, and stores the dataset in `*out`.
///
/// Ownership of `fp`: the C++ opens it (or takes GDALOpenInfo's) and hands it over here; from
/// then on the Rust side of the protocol owns it (`src/driver/vsi.rs`): the dataset keeps it
/// and `rumi_free` closes it (`VSIFCloseL`), or this function closes it before returning on
/// failure. The C++ never closes it.
///
/// Reads go through GDAL's VSI functions, one call at a time per handle, with `prefix`
/// (`prefix_len` bytes: the file's first bytes, as `rumi_io.prefix`). The header blob:
/// `header` (the HEADER open option; "NONE": none), else the sidecar `<path>.header` when
/// `CPLCheckForFile` finds it in `siblings` (GDAL's sibling list; NULL: probe the file).
/// Without a blob the file is parsed and validated; with one the open is stateless, the blob
/// checked against the prefix (with at least the 292-byte file header and IFD, the shape they
/// state must be the blob's, and when the IFD's external values are inside it too, every frame
/// byte count) and the file's size (it must hold the frames the blob locates and a trailer), at
/// no request. A HEADER blob that cannot be read (`RUMI_ERR_IO`), is invalid or does not match
/// is an error naming it; such a sidecar is ignored: `*warning` (else NULL; valid until the
/// next call of this or `rumi_gdal_open_options` on the thread) names it, and the file is
/// parsed. `*header_used`: the blob's path when the open used one, else NULL (valid until
/// `rumi_free`).
///
/// # Safety
/// `fp` must be a live VSI handle nobody else uses; `path` NUL-terminated; `header` NULL or
/// NUL-terminated; `siblings` NULL or a NULL-terminated list of NUL-terminated strings;
/// `prefix` NULL or `prefix_len` readable bytes; `options` NULL or valid; `out`, `warning` and
/// `header_used` writable.
///
/// `options` (NULL: the defaults) gives the limits and `lazy`: without it, a stateless open
/// over a network file system that GDAL identified without reading the file (no `prefix`: a
/// `RUMI:"..."` name) reads the georeferencing block at once, one ranged request, so that a
/// server without HTTP Range support fails the open with the error naming it.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn rumi_gdal_open(
    fp: *mut c_void,
    path: *const c_char,
    prefix: *const u8,
    prefix_len: usize,
    header: *const c_char,
    siblings: *mut *mut c_char,
    options: *const rumi_gdal_options,
    out: *mut *mut rumi_dataset,
    warning: *mut *const c_char,
    header_used: *mut *const c_char,
) -> c_int {
    guard("rumi_gdal_open", || {
        if fp.is_null() || path.is_null() || out.is_null() || warning.is_null() || header_used.is_null() {
            return bad_argument("rumi_gdal_open: fp, path, out, warning and header_used must not be NULL");
        }
        let mut vsi = VsiFile::new(fp);
        // SAFETY: checked non-null; the caller guarantees both are writable.
        unsafe { (out.write(ptr::null_mut()), warning.write(ptr::null()), header_used.write(ptr::null())) };
        let prefix: &[u8] = if prefix.is_null() {
            &[]
        } else {
            // SAFETY: the caller guarantees `prefix_len` readable bytes at `prefix`.
            unsafe { std::slice::from_raw_parts(prefix, prefix_len) }
        };
        // SAFETY: the caller guarantees NUL-terminated strings (or NULL for `header`).
        let (path, header) = unsafe { (CStr::from_ptr(path), header.as_ref().map(|h| CStr::from_ptr(h))) };
        vsi.set_path(path);
        // SAFETY: the caller guarantees `options` is NULL or valid.
        let options = unsafe { options.as_ref() };
        let limits = options.map_or_else(Limits::default, |o| o.limits.into());
        let lazy = options.is_some_and(|o| o.lazy != 0);
        // SAFETY: the callbacks over `vsi`, which the dataset keeps; `prefix` outlives the open;
        // the caller guarantees `siblings`.
        let (opened, warned) = unsafe { open_by_policy(vsi.io(prefix), path, prefix, header, siblings, limits, lazy) };
        if let Some(text) = warned {
            // SAFETY: checked non-null above.
            unsafe { warning.write(thread_warning(text)) };
        }
        let (mut ds, header) = match opened {
            Ok(o) => o,
            Err(code) => return code,
        };
        let used = header.as_ref().map_or(ptr::null(), |h| h.as_ptr());
        ds.host = Some(Box::new(GdalSource { _header: header, _vsi: vsi }));
        // SAFETY: checked non-null above; the path lives in the dataset (a CString's bytes do
        // not move with it).
        unsafe { header_used.write(used) };
        // SAFETY: `out` checked non-null above.
        unsafe { out.write(Box::into_raw(Box::new(ds))) };
        RUMI_OK
    })
}

// ---- types, encodings, statistics --------------------------------------------------------------

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
    guard_ptr("rumi_gdal_data_type", || {
        let Some(e) = encoding_of(encoding).filter(|_| !out_output.is_null()) else {
            set_error(&format!("rumi_gdal_data_type: unknown encoding code {encoding} or out_output NULL"));
            return ptr::null();
        };
        // the names are the core's (SampleEncoding::gdal_type / gdal_promoted), as C strings
        let native = e.gdal_type(has_int8 != 0).map(static_cstr);
        let promoted = static_cstr(e.gdal_promoted());
        let (name, out) = match native {
            Some(name) => (name, RUMI_OUTPUT_NATIVE),
            None if output == RUMI_OUTPUT_FLOAT32 && rumi::promotable(e) => (promoted, RUMI_OUTPUT_FLOAT32),
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

/// The short name of encoding `encoding` (e.g. "uint16", "float8_e4m3fn"), a static string;
/// NULL for an unknown code.
#[no_mangle]
pub extern "C" fn rumi_gdal_encoding_name(encoding: u32) -> *const c_char {
    guard_ptr("rumi_gdal_encoding_name", || {
        let name = encoding_of(encoding).map(|e| e.name());
        match name {
            Some(n) => static_cstr(n).as_ptr(),
            None => {
                set_error(&format!("unknown encoding code {encoding}"));
                ptr::null()
            }
        }
    })
}

/// `text` as a C string that lives as long as the process: the core's static names (encodings,
/// GDAL data types), each made once.
fn static_cstr(text: &'static str) -> &'static CStr {
    // the process's own (a forked child never takes a lock a parent's thread held at the fork)
    static NAMES: PerProcess<Mutex<HashMap<&'static str, &'static CStr>>> = PerProcess::empty();
    let mut names = NAMES.get_or_init(|_| Mutex::default()).lock().unwrap_or_else(|p| p.into_inner());
    names.entry(text).or_insert_with(|| Box::leak(CString::new(text).unwrap_or_default().into_boxed_c_str()))
}

/// Bytes per sample that `rumi_read` writes for `encoding` and `output` (a
/// `RUMI_OUTPUT_*` value); 0 when the combination is not supported.
#[no_mangle]
pub extern "C" fn rumi_gdal_output_sample_bytes(encoding: u32, output: u32) -> usize {
    let r = catch_unwind(|| match (encoding_of(encoding), output) {
        (Some(e), RUMI_OUTPUT_NATIVE) => e.decoded_bytes(),
        (Some(e), RUMI_OUTPUT_FLOAT32) if rumi::promotable(e) => 4 * (e.decoded_bytes() / e.element_width()),
        _ => 0,
    });
    r.unwrap_or(0)
}

/// What the last successful `rumi_read` on the calling thread did (all zero before the
/// first), as the text of the driver's CPL_DEBUG line: "<frames> frame(s) needed, <decoded> read from the file, <hits>
/// from the cache (<batches> range read(s), <bytes> bytes, <threads> thread(s))". Valid until
/// the next `rumi_gdal_last_read_text` call on the thread.
#[no_mangle]
pub extern "C" fn rumi_gdal_last_read_text() -> *const c_char {
    thread_local! {
        static TEXT: RefCell<CString> = RefCell::new(CString::default());
    }
    let r = catch_unwind(|| {
        let (s, threads) = crate::capi::last_read_stats();
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
