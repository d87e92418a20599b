//! The queries of an open dataset: shape and encoding, georeferencing (also as GDAL's
//! geotransform), band texts and time coordinates.

use std::ffi::{c_char, c_int};
use std::ptr;

use rumi::format::{GeoTransform, Georef, ModelType, RasterType, TimeKind};
use rumi::Error;

use super::dataset::{dataset, rumi_dataset, rumi_georef, rumi_info};
use super::{bad_argument, encoding_code, fail, guard, guard_ptr, set_error, RUMI_OK};

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
            Ok(match ds.reader.georef()? {
                Georef::Undefined { .. } => GeoTransform::IDENTITY.0,
                Georef::Epsg { raster_type, affine, .. } => {
                    GeoTransform::from_affine(affine, raster_type, pixel_corners != 0).0
                }
            })
        })
    }
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
