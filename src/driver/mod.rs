//! Layer 4: the GDAL driver `RUMI`. The dataset and band classes are a thin C++ adapter
//! (`rumidataset.cpp`, compiled into the cdylib by `build.rs`) over the C ABI in
//! [`crate::capi`]; this module holds the plugin's entry point and the conversions the adapter
//! asks Rust for.
//!
//! GDAL loads `gdal_RUMI.so` (this crate's cdylib, renamed) from its plugin folder and calls
//! `GDALRegister_RUMI`. The symbol is defined here, in Rust, because a cdylib exports only
//! `#[no_mangle]` Rust items: C++ symbols linked into it stay hidden.
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
//! - Blocks are tiles; a block read decodes one frame. With cell frame units the other bands'
//!   blocks of the tile are filled from the same decoded frame (as GTiff's
//!   `FillCacheForOtherBands`), and the last decoded cell is kept, so each frame is decoded once.
//! - Multi-block reads: a `RasterIO` request covering several blocks (no resampling, buffer of
//!   the band's type) fetches every frame it needs with one batched range read
//!   (`VSIFReadMultiRangeL`: adjacent frames become one HTTP range) and decodes them on
//!   `NUM_THREADS` / `GDAL_NUM_THREADS` threads (default 1; one OpenZL context per thread),
//!   straight into the request buffer (whole-raster reads and full-width swaths of every band the
//!   frames hold, and requests too large for the cache) or into the block cache (the others, so
//!   that later reads of the same area, and the other bands of a cell, come from memory). Blocks already
//!   cached are copied, not decoded again. `RUMI_MULTI_BLOCK_READ=AUTO|DIRECT|CACHE|NO` forces
//!   a path (for measurements). Single-block requests keep the block path.
//! - Open options: `HEADER=<path>|NONE` (default: the sidecar `<path>.header` when present, for
//!   a stateless open; NONE parses and validates the file), `PROMOTE=NONE|FLOAT32`,
//!   `MAX_FRAME_MB`, `NUM_THREADS`. Domains: `IMAGE_STRUCTURE` (`INTERLEAVE`) and `RUMI`
//!   (`COMPRESSION=OPENZL`, `FRAME_UNIT`, `FRAME_LAYOUT`, `TILE_WIDTH`, `TILE_LENGTH`, `FRAME_COUNT`, `TIME_TYPE`,
//!   `TIME_SCALE`, `SAMPLE_ENCODING`, `OPEN_MODE`, `HEADER`, ...). External overviews (`.ovr`,
//!   built by gdaladdo) and PAM `.aux.xml` work as for other drivers.

extern "C" {
    /// GDAL's C API (`gdal.h`), the only GDAL function the Rust side calls: declared here rather
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
