//! Layer 4: the GDAL driver `RUMI`. The dataset, band and multidimensional classes are a thin
//! C++ adapter (`rumidataset.cpp`, `rumimultidim.cpp`, compiled into the cdylib by `build.rs`)
//! that translates GDAL calls into the public C ABI of [`crate::capi`] (`include/rumi.h`) and
//! the adapter's private protocol [`protocol`] (`rumi_gdal.h`: the open with the header-blob
//! policy over GDAL's VSI handle, [`vsi`], option and name parsing, GDAL data types, metadata
//! lists, the driver's XML); this module holds the plugin's entry point.
//!
//! GDAL loads `gdal_RUMI.so` (this crate's cdylib, renamed) from its plugin folder and calls
//! `GDALRegister_RUMI`. The symbol is defined here, in Rust, because a cdylib exports only
//! `#[no_mangle]` Rust items: C++ symbols linked into it stay hidden, and so do the protocol's
//! `rumi_gdal_*` functions, which `rumi_gdal.h` declares with hidden visibility. The plugin
//! exports `GDALRegister_RUMI` and the functions of `include/rumi.h`, nothing else
//! (`tests/exports.rs`).
//!
//! # What GDAL sees
//! - Names: a path (any `/vsi*/` path too), `RUMI:<path>`, or `RUMI:"<path>":<t>` for time step
//!   `t` of a file. Read-only: update access is refused.
//! - An Image (T = 1) has B bands described by the band texts. A Cube (T > 1) has T * B bands,
//!   time-major (GDAL band `t * B + b + 1`), described `<band text> @ <time>`, with metadata
//!   `BAND_TEXT`, `BAND_INDEX`, `TIME_INDEX` and `TIME` (or `TIME_START` / `TIME_END`), and one
//!   subdataset per time step (`RUMI:"<path>":<t>`, an Image of B bands).
//! - Times are ISO 8601 UTC, dates when `time_scale` is 86400: `TIME` (or `TIME_START`,
//!   `TIME_END`) on Images, `TIMES` (comma-separated) and `TIME_COUNT` on Cubes.
//! - An EPSG CRS becomes the SRS (traditional GIS axis order) and the affine the geotransform;
//!   PixelIsPoint sets `AREA_OR_POINT=Point` and shifts the geotransform by half a pixel, as the
//!   GTiff driver does; undefined georeferencing gives neither SRS nor geotransform.
//! - Types: bool is Byte with `NBITS=1`, int8 is Byte with `PIXELTYPE=SIGNEDBYTE` before GDAL
//!   3.7, complex64/complex128 are CFloat32/CFloat64. float16, bfloat16, complex32 and the
//!   float8 formats have no GDAL type: opening fails and names the open option
//!   `PROMOTE=FLOAT32`, which converts them exactly ([`promote`]).
//! - Reads: every read is one `rumi_read` ([`crate::capi`]) of the core's read planner, which
//!   lists the frames it needs once, serves those in the dataset's decoded-frame cache
//!   (`RUMI_CACHE_MB`; default a quarter of `GDAL_CACHEMAX`, at least 32) from memory, fetches
//!   the others with one batched range read (`VSIFReadMultiRangeL`: adjacent frames become one
//!   HTTP range), decodes each once on `NUM_THREADS` / `GDAL_NUM_THREADS` threads (default 1;
//!   one OpenZL context per thread) and copies the samples straight into GDAL's buffer. Blocks
//!   are tiles: a block read is one plane of one frame (with cell frame units the cache then
//!   serves the other bands' blocks of the tile). A `RasterIO` without resampling into a buffer
//!   of the bands' type (the `PROMOTE`d type too), of a dataset or a band, is one read with
//!   GDAL's spacings and band map; other requests take GDAL's way (blocks, overviews,
//!   resampling, conversion). A multidimensional `Read` is one read with GDAL's start, count,
//!   step and stride (negative steps and strides included; another buffer type goes through a
//!   native buffer and `GDALExtendedDataType::CopyValues`).
//! - Open options: `HEADER=<path>|NONE` (default: the sidecar `<path>.header` when present, for
//!   a stateless open; NONE parses and validates the file). A sidecar is checked against what
//!   the open already has (the file's first bytes and its size, in `rumi_gdal_open`): one that
//!   is stale, unreadable, empty or garbage is ignored with a warning naming it, and the file
//!   is parsed; an explicit `HEADER=` that does not match is an error naming it
//!   ([`protocol::rumi_gdal_open`]).
//!   `PROMOTE=NONE|FLOAT32`,
//!   `MAX_FRAME_MB`, `NUM_THREADS`. Domains: `IMAGE_STRUCTURE` (`INTERLEAVE`) and `RUMI`
//!   (`COMPRESSION=OPENZL`, `FRAME_UNIT`, `FRAME_LAYOUT`, `TILE_WIDTH`, `TILE_LENGTH`, `FRAME_COUNT`, `TIME_TYPE`,
//!   `TIME_SCALE`, `SAMPLE_ENCODING`, `OPEN_MODE`, `HEADER`, ...). External overviews (`.ovr`,
//!   built by gdaladdo) and PAM `.aux.xml` work as for other drivers.

pub mod protocol;
pub(crate) mod vsi;

extern "C" {
    /// GDAL's C API (`gdal.h`; the VSI functions are in `vsi.rs`): declared here rather
    /// than through gdal-sys, so that the plugin links exactly the libgdal `build.rs` names (a
    /// pip wheel's bundled library, `RUMI_GDAL_LIBRARY`), not whichever one gdal-sys finds.
    fn GDALGetDriverByName(name: *const std::ffi::c_char) -> *mut std::ffi::c_void;
    /// Registers the driver with GDAL's driver manager (C++, `rumidataset.cpp`); `noexcept`,
    /// it catches every C++ exception itself. Checks the GDAL version the plugin was built
    /// against and does nothing when a driver named `RUMI` is already registered.
    fn rumi_gdal_register_driver();
}

/// GDAL's plugin entry point. GDAL 3.6 calls it on every `GDALAllRegister()`, so it returns
/// at once when the driver is already registered.
#[no_mangle]
pub extern "C" fn GDALRegister_RUMI() {
    let _ = std::panic::catch_unwind(|| {
        // Referencing a GDAL symbol from Rust keeps libgdal in the cdylib's DT_NEEDED list
        // (with `-Wl,-z,defs` in build.rs), so hosts that load the plugin without having
        // linked libgdal themselves (Python's osgeo) resolve the C++ adapter's symbols.
        // SAFETY: a plain GDAL C API call with a NUL-terminated name.
        let existing = unsafe { GDALGetDriverByName(c"RUMI".as_ptr()) };
        if existing.is_null() {
            // SAFETY: a C++ function declared noexcept that takes no arguments.
            unsafe { rumi_gdal_register_driver() };
        }
    });
}
