//! The read: `rumi_read` of any planes, steps and spacings into a host buffer through the
//! core's read planner, and the budget of the dataset's decoded-frame cache.

use std::cell::RefCell;
use std::ffi::{c_int, c_void};

use rumi::Error;

use super::dataset::{dataset, rumi_dataset};
use super::{bad_argument, fail, guard, RUMI_OK, RUMI_OUTPUT_FLOAT32, RUMI_OUTPUT_NATIVE};

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

fn axis_of(a: &rumi_axis) -> Result<rumi::Axis, Error> {
    let spacing = isize::try_from(a.spacing).map_err(|_| Error::Overflow("axis spacing"))?;
    Ok(rumi::Axis { start: a.start, count: a.count, step: a.step, spacing })
}

/// The planner request of `*r`, with its planes copied out of host memory.
///
/// # Safety
/// `r.planes` must point to `r.plane_count` values when `plane_count > 0`.
unsafe fn request_of(r: &rumi_request) -> Result<rumi::Request, Error> {
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
            Ok(rumi::Plane { band: p.band, time: p.time, offset })
        })
        .collect::<Result<_, Error>>()?;
    let output = match r.output {
        RUMI_OUTPUT_NATIVE => rumi::Output::Native,
        RUMI_OUTPUT_FLOAT32 => rumi::Output::Float32,
        o => {
            return Err(Error::Usage(format!("rumi_read: output {o} is not RUMI_OUTPUT_NATIVE or RUMI_OUTPUT_FLOAT32")))
        }
    };
    Ok(rumi::Request { planes, rows: axis_of(&r.rows)?, cols: axis_of(&r.cols)?, output })
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

thread_local! {
    /// What the last successful `rumi_read` on the thread did, and on how many threads.
    static LAST_STATS: RefCell<(rumi::ReadStats, u32)> = RefCell::new(Default::default());
}

fn record_stats(s: &rumi::ReadStats, threads: u32) {
    LAST_STATS.with(|c| *c.borrow_mut() = (*s, threads.max(1)));
}

/// What the last successful `rumi_read` on the calling thread did (all zero before the
/// first), and on how many threads.
pub(crate) fn last_read_stats() -> (rumi::ReadStats, u32) {
    LAST_STATS.with(|c| *c.borrow())
}
