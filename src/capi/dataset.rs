//! Open datasets: `rumi_open` / `rumi_free`, and the queries of shape, georeferencing, band
//! texts and time coordinates.

use std::ffi::{c_int, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr;
use std::sync::OnceLock;

use rumi::Reader;
use rumi::{Error, Limits};

use super::io::{rumi_io, CallbackSource};
use super::{bad_argument, code_of, fail, guard, set_error, RUMI_OK};

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
///   when that thread exits; no global state is shared. `rumi_version` and `rumi_last_error`
///   may be called from any thread at any time.
pub struct rumi_dataset {
    pub(crate) reader: Reader<CallbackSource>,
    pub(crate) stateless: bool,
    /// Band texts as C strings, made on first request (from the trailer, read then).
    band_texts: OnceLock<Vec<CString>>,
    /// What the opener attached for the dataset's life (the GDAL protocol: the VSI handle the
    /// `rumi_io` callbacks read through, and the header blob's path); dropped after `reader`.
    pub(crate) host: Option<Box<dyn std::any::Any + Send + Sync>>,
}

// ---- open / free -------------------------------------------------------------------------------

fn cstrings<I: IntoIterator<Item = String>>(items: I) -> Result<Vec<CString>, Error> {
    items.into_iter().map(|s| CString::new(s).map_err(|_| Error::Usage("text contains a NUL byte".into()))).collect()
}

/// A dataset over `io`: stateless with `blob`, else parsed and validated.
///
/// # Safety
/// `io` must honour the `rumi_io` contract (its prefix is copied here; its `ctx` must outlive
/// the dataset).
pub(crate) unsafe fn open_inner(io: rumi_io, blob: Option<&[u8]>, limits: Limits) -> Result<rumi_dataset, Error> {
    // SAFETY: the caller guarantees the `rumi_io` contract.
    let src = unsafe { CallbackSource::new(io) }?;
    let reader = match blob {
        Some(b) => Reader::open_with_blob(src, b, limits)?,
        None => Reader::open(src, limits)?,
    };
    Ok(rumi_dataset::new(reader, blob.is_some()))
}

impl rumi_dataset {
    /// A dataset over `reader`, opened statelessly (with a header blob) or not.
    pub(crate) fn new(reader: Reader<CallbackSource>, stateless: bool) -> rumi_dataset {
        rumi_dataset { reader, stateless, band_texts: OnceLock::new(), host: None }
    }

    /// Reports a failed frame read. A frame that does not decode in a stateless open most
    /// often means a header blob of another file (nothing else was checked against the file):
    /// the message says so.
    pub(crate) fn fail_frames(&self, e: Error) -> c_int {
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
    pub(crate) fn band_texts(&self) -> Result<&[CString], Error> {
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
/// `rumi_get_geotransform`, `rumi_band_text` and `rumi_time_values`, which
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
        // SAFETY: the caller guarantees the `rumi_io` contract.
        match unsafe { open_inner(io, blob, limits) } {
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
pub(crate) unsafe fn dataset<'a>(ds: *const rumi_dataset, what: &str) -> Result<&'a rumi_dataset, c_int> {
    // SAFETY: the caller guarantees `ds` is NULL or live.
    unsafe { ds.as_ref() }.ok_or_else(|| bad_argument(&format!("{what}: dataset is NULL")))
}
