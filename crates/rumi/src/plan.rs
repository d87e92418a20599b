//! The read planner (spec: "Selective read model"): the one path by which every host reads
//! pixels — the GDAL driver's block reads, its `IRasterIO` and multidimensional `IRead`, the
//! Python package — whatever the layout of the host's buffer.
//!
//! A [`Request`] names output planes (a band at a time step, each at its own byte offset) and
//! two spatial axes with start, count, step (negative too) and byte spacing (negative too).
//! [`Reader::read`] turns it into a frame list (each frame once), serves frames already in the
//! reader's decoded-frame cache ([`FrameCache`]), fetches the others with one merged
//! `read_ranges` call per [`BATCH_BYTES`], decodes them on a pool of the requested size and
//! copies each frame's samples straight into the caller's buffer (scatter), converting them
//! only when the request asks for [`Output::Float32`] (the exact promotion of `promote.rs`).

use std::collections::{HashMap, VecDeque};
use std::ops::Range;
use std::sync::{Arc, Mutex, OnceLock};

use rayon::prelude::*;

use crate::codec::AlignedBuf;
use crate::error::{Error, Limits, Result};
use crate::format::{Layout, SampleEncoding};
use crate::io::RangeRead;
use crate::promote;
use crate::reader::Reader;

/// Compressed bytes fetched per batch: bounds the memory of one request (decoded frames live
/// only while they are copied out, one per worker thread, plus the cache's budget).
pub const BATCH_BYTES: u64 = 64 << 20;

/// Largest thread count honoured (a host asking for more gets this many).
pub const MAX_THREADS: usize = 256;

/// Default byte budget of a reader's decoded-frame cache.
pub const DEFAULT_CACHE_BYTES: u64 = 32 << 20;

/// Bytes of decoded-frame buffers kept for reuse after the cache that held them is dropped
/// or emptied (see [`spare`]).
pub const SPARE_BYTES: usize = 8 << 20;

/// One spatial axis of a request: output position `i` (`0..count`) reads source index
/// `start + i * step`, and lands `spacing` bytes after position `i - 1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Axis {
    /// source index of output position 0
    pub start: u32,
    /// number of output positions
    pub count: u32,
    /// source step between output positions (negative reads backwards; 0 repeats `start`)
    pub step: i64,
    /// bytes between adjacent output positions (may be negative)
    pub spacing: isize,
}

impl Axis {
    /// Source indices `range`, in order, `spacing` bytes apart.
    pub fn range(range: Range<u32>, spacing: isize) -> Axis {
        Axis { start: range.start, count: range.end.saturating_sub(range.start), step: 1, spacing }
    }

    /// Source index of output position `i`.
    fn source(&self, i: u32) -> i64 {
        i64::from(self.start) + i64::from(i) * self.step
    }

    /// Fails unless every source index lies in `0..len`.
    fn check(&self, len: u32, what: &'static str) -> Result<()> {
        if self.count == 0 {
            return Ok(());
        }
        let last = i64::from(self.start).checked_add(i64::from(self.count - 1).saturating_mul(self.step));
        match last {
            Some(last) if u64::from(self.start) < u64::from(len) && (0..i64::from(len)).contains(&last) => Ok(()),
            _ => Err(Error::Usage(format!(
                "{what}: start {} + {} steps of {} leaves 0..{len}",
                self.start,
                self.count.saturating_sub(1),
                self.step
            ))),
        }
    }

    /// The output positions whose source index lies in `lo..hi` (contiguous: sources are
    /// monotonic in the position).
    fn positions_in(&self, lo: u32, hi: u32) -> Range<u32> {
        let (start, n, lo, hi) = (i64::from(self.start), i64::from(self.count), i64::from(lo), i64::from(hi));
        let (a, b) = match self.step {
            0 if (lo..hi).contains(&start) => (0, n),
            0 => (0, 0),
            s if s > 0 => {
                let up = |v: i64| (v.max(0) as u64).div_ceil(s as u64) as i64;
                (up(lo - start), up(hi - start))
            }
            s => {
                let s = -s;
                // start - i*s in [lo, hi)  <=>  (start - hi) / s < i <= (start - lo) / s
                let first = if start >= hi { (start - hi).div_euclid(s) + 1 } else { 0 };
                let last = if start >= lo { (start - lo).div_euclid(s) + 1 } else { 0 };
                (first, last)
            }
        };
        let (a, b) = (a.clamp(0, n), b.clamp(0, n));
        if a < b {
            a as u32..b as u32
        } else {
            0..0
        }
    }

    /// The tiles of size `tile` this axis touches.
    fn tiles(&self, tile: u32, len: u32) -> Vec<u32> {
        (0..len.div_ceil(tile))
            .filter(|&k| !self.positions_in(k * tile, (k * tile).saturating_add(tile).min(len)).is_empty())
            .collect()
    }

    /// (lowest, highest) byte offset of the positions relative to position 0's.
    fn span(&self) -> Result<(isize, isize)> {
        if self.count <= 1 {
            return Ok((0, 0));
        }
        let last = (self.count as isize - 1).checked_mul(self.spacing).ok_or(Error::Overflow("request extent"))?;
        Ok((last.min(0), last.max(0)))
    }
}

/// One output plane: band `band` at time step `time`, its first sample `offset` bytes from
/// the request's origin.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Plane {
    /// band index
    pub band: u32,
    /// time index
    pub time: u32,
    /// byte offset of the plane's sample (row position 0, column position 0)
    pub offset: isize,
}

/// The sample type written into the caller's buffer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Output {
    /// the decoded samples, unchanged (little-endian = host order on supported hosts)
    #[default]
    Native,
    /// binary32 components: the exact promotion of float16, bfloat16, complex-half and float8
    Float32,
}

/// What to read and where each sample goes: sample (plane `p`, row position `i`, column
/// position `j`) lands at byte `origin + planes[p].offset + i * rows.spacing + j * cols.spacing`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// output planes, in any order (repeats allowed)
    pub planes: Vec<Plane>,
    /// rows
    pub rows: Axis,
    /// columns
    pub cols: Axis,
    /// sample type of the output
    pub output: Output,
}

impl Request {
    /// A C-contiguous `[t][b][y][x]` output of `times` x `bands` (either list in any order) over
    /// the window `rows` x `cols`, `sample_bytes` per sample.
    pub fn dense(times: &[u32], bands: &[u32], rows: Range<u32>, cols: Range<u32>, sample_bytes: usize) -> Request {
        let (ny, nx) = (rows.len(), cols.len());
        let plane = ny * nx * sample_bytes;
        let planes = times
            .iter()
            .flat_map(|&t| bands.iter().map(move |&b| (b, t)))
            .enumerate()
            .map(|(p, (band, time))| Plane { band, time, offset: (p * plane) as isize })
            .collect();
        Request {
            planes,
            rows: Axis::range(rows, (nx * sample_bytes) as isize),
            cols: Axis::range(cols, sample_bytes as isize),
            output: Output::Native,
        }
    }

    /// Bytes of one output sample for `encoding`.
    pub fn sample_bytes(&self, encoding: SampleEncoding) -> usize {
        match self.output {
            Output::Native => encoding.decoded_bytes(),
            Output::Float32 => 4 * (encoding.decoded_bytes() / encoding.element_width()),
        }
    }

    /// Number of samples the request writes.
    pub fn samples(&self) -> u64 {
        self.planes.len() as u64 * u64::from(self.rows.count) * u64::from(self.cols.count)
    }

    /// `(lowest byte offset, bytes spanned)` of everything the request writes, relative to the
    /// origin; `(0, 0)` for an empty request.
    pub fn extent(&self, sample_bytes: usize) -> Result<(isize, usize)> {
        if self.samples() == 0 {
            return Ok((0, 0));
        }
        let (rlo, rhi) = self.rows.span()?;
        let (clo, chi) = self.cols.span()?;
        let plo = self.planes.iter().map(|p| p.offset).min().unwrap_or(0);
        let phi = self.planes.iter().map(|p| p.offset).max().unwrap_or(0);
        let add = |a: isize, b: isize| a.checked_add(b).ok_or(Error::Overflow("request extent"));
        let lo = add(add(plo, rlo)?, clo)?;
        let hi = add(add(add(phi, rhi)?, chi)?, sample_bytes as isize)?;
        Ok((lo, (hi - lo) as usize))
    }

    /// True when no two samples share a byte of the buffer, so frames may be copied out
    /// concurrently: each axis steps over the whole extent of the axes below it, and planes
    /// do not overlap.
    fn disjoint(&self, sample_bytes: usize) -> bool {
        let mut offsets: Vec<isize> = self.planes.iter().map(|p| p.offset).collect();
        offsets.sort_unstable();
        let steps: Vec<isize> = offsets.windows(2).map(|w| w[1] - w[0]).collect();
        let mut axes: Vec<(usize, usize)> = vec![
            (self.cols.spacing.unsigned_abs(), self.cols.count as usize),
            (self.rows.spacing.unsigned_abs(), self.rows.count as usize),
        ];
        let uniform = steps.windows(2).all(|w| w[0] == w[1]);
        if uniform {
            // planes evenly spaced (any host's band spacing): a third axis
            axes.push((steps.first().copied().unwrap_or(0).unsigned_abs(), offsets.len()));
        }
        axes.retain(|&(_, n)| n > 1);
        axes.sort_unstable();
        let mut covered = sample_bytes;
        for (stride, n) in axes {
            if stride < covered {
                return false;
            }
            match stride.checked_mul(n) {
                Some(c) => covered = c,
                None => return false,
            }
        }
        // uneven plane offsets: each plane must lie wholly past the previous one
        uniform || steps.iter().all(|&d| d.unsigned_abs() >= covered)
    }
}

/// What one [`Reader::read`] did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReadStats {
    /// frames the request needed
    pub frames: u64,
    /// frames served from the decoded-frame cache
    pub cache_hits: u64,
    /// frames fetched and decoded
    pub decoded: u64,
    /// `read_ranges` calls made
    pub batches: u64,
    /// compressed bytes fetched
    pub bytes_fetched: u64,
}

/// A reader's decoded frames, most recently used last, within a byte budget. Buffers evicted
/// while nobody else holds them go back to the decoding thread for reuse (no allocation or
/// page faults per frame in long reads).
#[derive(Debug)]
pub struct FrameCache {
    inner: Mutex<CacheInner>,
}

#[derive(Debug, Default)]
struct CacheInner {
    budget: u64,
    bytes: u64,
    frames: VecDeque<(u64, Arc<AlignedBuf>)>,
}

impl Default for FrameCache {
    fn default() -> Self {
        FrameCache::new(DEFAULT_CACHE_BYTES)
    }
}

impl FrameCache {
    /// An empty cache holding at most `budget` bytes of decoded frames (0 disables it).
    pub fn new(budget: u64) -> Self {
        FrameCache { inner: Mutex::new(CacheInner { budget, ..CacheInner::default() }) }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, CacheInner> {
        // a panic while holding the lock cannot leave the queue inconsistent: recover it
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Changes the budget, evicting what no longer fits.
    pub fn set_budget(&self, budget: u64) {
        let mut c = self.lock();
        c.budget = budget;
        if let Some(buf) = c.shrink(budget) {
            spare::put(buf);
        }
    }

    /// Drops every cached frame (their buffers go to the process's spares).
    pub fn clear(&self) {
        let mut c = self.lock();
        if let Some(buf) = c.shrink(0) {
            spare::put(buf);
        }
    }

    /// Bytes of decoded frames held.
    pub fn bytes(&self) -> u64 {
        self.lock().bytes
    }

    /// The byte budget.
    pub fn budget(&self) -> u64 {
        self.lock().budget
    }

    /// The decoded frame `index`, if cached (it becomes the most recently used).
    pub fn get(&self, index: u64) -> Option<Arc<AlignedBuf>> {
        let mut c = self.lock();
        let pos = c.frames.iter().rposition(|(i, _)| *i == index)?;
        let entry = c.frames.remove(pos)?;
        let buf = Arc::clone(&entry.1);
        c.frames.push_back(entry);
        Some(buf)
    }

    /// Keeps `buf` as frame `index`; returns a buffer the caller may reuse (`buf` itself when
    /// it does not fit, or an evicted one nobody else holds).
    fn insert(&self, index: u64, buf: AlignedBuf) -> Option<AlignedBuf> {
        let size = buf.as_bytes().len() as u64;
        let mut c = self.lock();
        if size > c.budget || c.frames.iter().any(|(i, _)| *i == index) {
            return Some(buf);
        }
        let budget = c.budget - size;
        let recycled = c.shrink(budget);
        c.frames.push_back((index, Arc::new(buf)));
        c.bytes += size;
        recycled
    }
}

impl Drop for FrameCache {
    fn drop(&mut self) {
        if let Some(buf) = self.lock().shrink(0) {
            spare::put(buf);
        }
    }
}

impl CacheInner {
    /// Evicts the least recently used frames until at most `budget` bytes are held; returns
    /// the last evicted buffer nobody else holds (the others go to the process's spares).
    fn shrink(&mut self, budget: u64) -> Option<AlignedBuf> {
        let mut recycled: Option<AlignedBuf> = None;
        while self.bytes > budget {
            let Some((_, buf)) = self.frames.pop_front() else { break };
            self.bytes -= buf.as_bytes().len() as u64;
            if let Ok(buf) = Arc::try_unwrap(buf) {
                if let Some(old) = recycled.replace(buf) {
                    spare::put(old);
                }
            }
        }
        recycled
    }
}

/// Decoded-frame buffers no cache holds any more, kept (up to [`SPARE_BYTES`]) for the next
/// frames of their size. A short read (open, one window, close: a data loader's pattern)
/// caches every frame it decodes and frees them all when the dataset closes; without the
/// spares each such read allocates its frames afresh and the C allocator hands the memory back
/// to the kernel between reads, so that every frame is page-faulted in again (landsat8 cells:
/// 1,090 page faults per 256 x 256 window, 0.77x the windows/s of the pre-planner driver).
/// The lock is only ever tried: a child of `fork()` whose parent held it skips the spares.
pub mod spare {
    use std::sync::{Mutex, OnceLock};

    use super::SPARE_BYTES;
    use crate::codec::AlignedBuf;

    fn spares() -> &'static Mutex<(usize, Vec<AlignedBuf>)> {
        static SPARES: OnceLock<Mutex<(usize, Vec<AlignedBuf>)>> = OnceLock::new();
        SPARES.get_or_init(|| Mutex::new((0, Vec::new())))
    }

    /// Keeps `buf` for reuse when there is room (otherwise frees it).
    pub fn put(buf: AlignedBuf) {
        let n = buf.as_bytes().len();
        if n == 0 || n > SPARE_BYTES {
            return;
        }
        if let Ok(mut s) = spares().try_lock() {
            if s.0 + n <= SPARE_BYTES {
                s.0 += n;
                s.1.push(buf);
            }
        }
    }

    /// A spare buffer of exactly `len` bytes (its contents are a previous frame's), if any.
    pub fn take(len: usize) -> Option<AlignedBuf> {
        let mut s = spares().try_lock().ok()?;
        let pos = s.1.iter().rposition(|b| b.as_bytes().len() == len)?;
        let buf = s.1.swap_remove(pos);
        s.0 -= len;
        Some(buf)
    }

    /// Bytes of spare buffers held.
    pub fn bytes() -> usize {
        spares().lock().map(|s| s.0).unwrap_or(0)
    }
}

thread_local! {
    /// Each decoding thread's frame buffer, reused while frames keep their size.
    static SCRATCH: std::cell::RefCell<AlignedBuf> = std::cell::RefCell::new(AlignedBuf::default());
}

/// The rayon pool of `threads` threads (`None` for one thread: decode on the caller's thread).
/// Pools are made once per size and process: a child of `fork()` (whose pool threads do not
/// exist) gets new ones.
pub fn pool(threads: usize) -> Result<Option<Arc<rayon::ThreadPool>>> {
    type Pools = HashMap<(u32, usize), Arc<rayon::ThreadPool>>;
    let threads = threads.min(MAX_THREADS);
    if threads <= 1 {
        return Ok(None);
    }
    static POOLS: OnceLock<Mutex<Pools>> = OnceLock::new();
    let key = (std::process::id(), threads);
    let mut map = POOLS.get_or_init(|| Mutex::new(HashMap::new())).lock().unwrap_or_else(|p| p.into_inner());
    if let Some(p) = map.get(&key) {
        return Ok(Some(Arc::clone(p)));
    }
    // Pools of a parent process have no threads here: forget them without running their Drop.
    let stale: Vec<_> = map.keys().filter(|k| k.0 != key.0).copied().collect();
    for k in stale {
        if let Some(p) = map.remove(&k) {
            std::mem::forget(p);
        }
    }
    let p = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("rumi-decode-{i}"))
        .build()
        .map_err(|e| Error::Threads { threads, message: e.to_string() })?;
    let p = Arc::new(p);
    map.insert(key, Arc::clone(&p));
    Ok(Some(p))
}

/// Parses a thread count as GDAL spells it (`NUM_THREADS`, `GDAL_NUM_THREADS`): `ALL_CPUS`
/// (any case) or a positive integer, capped at [`MAX_THREADS`].
pub fn parse_threads(value: &str) -> Result<usize> {
    let v = value.trim();
    if v.eq_ignore_ascii_case("ALL_CPUS") {
        return Ok(std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1).min(MAX_THREADS));
    }
    match v.parse::<u64>() {
        Ok(n) if n >= 1 => Ok((n as usize).min(MAX_THREADS)),
        _ => Err(Error::Usage(format!("thread count {value:?} is not ALL_CPUS or a positive integer"))),
    }
}

/// The caller's buffer as shared raw memory. Writes are bounds-checked; when frames are
/// copied out concurrently no two write the same byte ([`Request::disjoint`]).
struct Dst {
    ptr: *mut u8,
    len: usize,
}

// SAFETY: `Dst` is shared between threads only when the request's samples are pairwise
// disjoint in the buffer, so no two threads write the same byte; every write is bounds-checked.
unsafe impl Send for Dst {}
// SAFETY: as above.
unsafe impl Sync for Dst {}

impl Dst {
    /// Copies `src` to byte `at` of the buffer.
    fn put(&self, at: isize, src: &[u8]) -> Result<()> {
        let at = usize::try_from(at).ok().filter(|&a| a.checked_add(src.len()).is_some_and(|e| e <= self.len));
        let Some(at) = at else {
            return Err(Error::Usage(format!(
                "a write of {} bytes falls outside the {}-byte buffer",
                src.len(),
                self.len
            )));
        };
        // SAFETY: `at..at + src.len()` lies inside the caller's buffer (checked); `src` is a
        // decoded frame, a separate allocation; see the Send/Sync note for exclusivity.
        unsafe { std::ptr::copy_nonoverlapping(src.as_ptr(), self.ptr.add(at), src.len()) };
        Ok(())
    }

    /// Copies the samples of grid `g` from `frame` into the buffer. Every offset is affine in
    /// (row, sample), so when the four corner samples lie inside both buffers every sample
    /// does: those four are checked, the others copied without a check each.
    fn put_grid(&self, frame: &[u8], g: Grid) -> Result<()> {
        if g.rows == 0 || g.n == 0 || g.bps == 0 {
            return Ok(());
        }
        let (last_row, last) = ((g.rows - 1) as isize, (g.n - 1) as isize);
        let at = |o: (isize, isize, isize), k: isize, e: isize| {
            o.0.checked_add(k.checked_mul(o.1)?)?.checked_add(e.checked_mul(o.2)?)
        };
        let inside = |v: Option<isize>, len: usize| {
            v.is_some_and(|v| v >= 0 && (v as usize).checked_add(g.bps).is_some_and(|e| e <= len))
        };
        let corners = [(0, 0), (0, last), (last_row, 0), (last_row, last)];
        if !corners.iter().all(|&(k, e)| inside(at(g.src, k, e), frame.len()) && inside(at(g.dst, k, e), self.len)) {
            return Err(Error::Usage(format!(
                "{} rows of {} samples of {} bytes fall outside the {}-byte frame or the {}-byte buffer",
                g.rows,
                g.n,
                g.bps,
                frame.len(),
                self.len
            )));
        }
        let contiguous = g.src.2 == g.bps as isize && g.dst.2 == g.bps as isize;
        for k in 0..g.rows as isize {
            // SAFETY: offsets are affine in (row, sample) and the corners are checked, so every sample of row k is inside both buffers (see the Send/Sync note for exclusivity).
            let (src, dst) =
                unsafe { (frame.as_ptr().offset(g.src.0 + k * g.src.1), self.ptr.offset(g.dst.0 + k * g.dst.1)) };
            if contiguous {
                // SAFETY: as above; the run is `n` adjacent samples on both sides.
                unsafe { std::ptr::copy_nonoverlapping(src, dst, g.n * g.bps) };
                continue;
            }
            // SAFETY: as above, for every sample of the row.
            unsafe {
                match g.bps {
                    1 => strided::<u8>(src, dst, g.n, g.src.2, g.dst.2),
                    2 => strided::<u16>(src, dst, g.n, g.src.2, g.dst.2),
                    4 => strided::<u32>(src, dst, g.n, g.src.2, g.dst.2),
                    8 => strided::<u64>(src, dst, g.n, g.src.2, g.dst.2),
                    _ => (0..g.n as isize).for_each(|e| {
                        std::ptr::copy_nonoverlapping(src.offset(e * g.src.2), dst.offset(e * g.dst.2), g.bps)
                    }),
                }
            }
        }
        Ok(())
    }
}

/// Copies `n` samples of `size_of::<T>()` bytes from `src` to `dst`, `from` and `to` bytes apart.
///
/// # Safety
/// Every sample `src + e * from` and `dst + e * to` (`e < n`) lies inside its allocation, and
/// the two allocations do not overlap.
unsafe fn strided<T: Copy>(src: *const u8, dst: *mut u8, n: usize, from: isize, to: isize) {
    for e in 0..n as isize {
        // SAFETY: in bounds by the function's contract; unaligned because samples need not be aligned.
        unsafe {
            std::ptr::write_unaligned(
                dst.offset(e * to).cast::<T>(),
                std::ptr::read_unaligned(src.offset(e * from).cast::<T>()),
            )
        };
    }
}

/// `rows` rows of `n` samples of `bps` bytes: sample `e` of row `k` is copied from byte
/// `src.0 + k * src.1 + e * src.2` of a frame to byte `dst.0 + k * dst.1 + e * dst.2` of the
/// caller's buffer.
#[derive(Debug, Clone, Copy)]
struct Grid {
    rows: usize,
    n: usize,
    bps: usize,
    src: (isize, isize, isize),
    dst: (isize, isize, isize),
}

/// One frame of a request: its index, tile location and the output planes it fills.
struct Job {
    index: u64,
    row: u32,
    col: u32,
    planes: Vec<usize>,
}

/// Indices of every frame `req` needs, each once, in increasing order.
pub fn frames(l: &Layout, req: &Request) -> Vec<u64> {
    plan(l, req).into_iter().map(|j| j.index).collect()
}

/// Every frame `req` needs, each once, in increasing index order.
fn plan(l: &Layout, req: &Request) -> Vec<Job> {
    if req.planes.is_empty() {
        return Vec::new();
    }
    let rows = req.rows.tiles(u32::from(l.tile_length), l.length);
    let cols = req.cols.tiles(u32::from(l.tile_width), l.width);
    let mut jobs = Vec::new();
    for &row in &rows {
        for &col in &cols {
            if l.frame_unit.is_tile() {
                let mut by_frame: Vec<(u64, Vec<usize>)> = Vec::new();
                for (p, plane) in req.planes.iter().enumerate() {
                    let index = l.frame_index(row, col, plane.band, plane.time);
                    match by_frame.iter_mut().find(|f| f.0 == index) {
                        Some(f) => f.1.push(p),
                        None => by_frame.push((index, vec![p])),
                    }
                }
                jobs.extend(by_frame.into_iter().map(|(index, planes)| Job { index, row, col, planes }));
            } else {
                let planes = (0..req.planes.len()).collect();
                jobs.push(Job { index: l.frame_index(row, col, 0, 0), row, col, planes });
            }
        }
    }
    jobs.sort_by_key(|j| j.index);
    jobs
}

/// True when `req` reads every sample of frame `job` (its whole tile, step 1 or -1 on both
/// axes, every band and time step the frame holds): nothing of it is left for a later read, so
/// in a request too large to be kept whole it is not worth a place in the cache.
fn consumes(l: &Layout, job: &Job, req: &Request) -> bool {
    let (h, w) = l.tile_dims(job.row, job.col);
    let (y0, x0) = (job.row * u32::from(l.tile_length), job.col * u32::from(l.tile_width));
    let whole =
        |a: &Axis, lo: u32, n: u32| (n == 1 || a.step.abs() == 1) && a.positions_in(lo, lo + n).len() == n as usize;
    if !whole(&req.rows, y0, h) || !whole(&req.cols, x0, w) {
        return false;
    }
    if l.frame_unit.is_tile() {
        return true;
    }
    let mut pairs: Vec<(u32, u32)> = req.planes.iter().map(|p| (p.band, p.time)).collect();
    pairs.sort_unstable();
    pairs.dedup();
    pairs.len() as u64 == u64::from(l.bands) * u64::from(l.times)
}

/// Copies the samples of decoded frame `job` that fall in `req` into `dst`, converting them
/// for [`Output::Float32`].
fn scatter(l: &Layout, job: &Job, frame: &[u8], req: &Request, dst: &Dst, origin: isize) -> Result<()> {
    let bps = l.encoding.decoded_bytes();
    let (h, w) = l.tile_dims(job.row, job.col);
    let (y0, x0) = (job.row * u32::from(l.tile_length), job.col * u32::from(l.tile_width));
    let (iy, ix) = (req.rows.positions_in(y0, y0 + h), req.cols.positions_in(x0, x0 + w));
    if iy.is_empty() || ix.is_empty() {
        return Ok(());
    }
    let s = l.frame_strides(h, w);
    let mut converted = [0u8; 8];
    for &p in &job.planes {
        let plane = req.planes[p];
        let base = plane.band as usize * s.b + plane.time as usize * s.t;
        if req.output == Output::Native {
            // source and destination offsets are affine in the row and column positions, so
            // `put_grid` checks the corners once and copies every sample unchecked
            let (y, x) = (req.rows.source(iy.start) - i64::from(y0), req.cols.source(ix.start) - i64::from(x0));
            let (sy, sx) = ((s.y * bps) as isize, (s.x * bps) as isize);
            let grid = Grid {
                rows: iy.len(),
                n: ix.len(),
                bps,
                src: (
                    (base * bps) as isize + y as isize * sy + x as isize * sx,
                    req.rows.step as isize * sy,
                    req.cols.step as isize * sx,
                ),
                dst: (
                    origin + plane.offset + iy.start as isize * req.rows.spacing + ix.start as isize * req.cols.spacing,
                    req.rows.spacing,
                    req.cols.spacing,
                ),
            };
            dst.put_grid(frame, grid)?;
            continue;
        }
        for i in iy.clone() {
            let y = (req.rows.source(i) - i64::from(y0)) as usize;
            let src_row = base + y * s.y;
            let dst_row = origin + plane.offset + i as isize * req.rows.spacing;
            for j in ix.clone() {
                let x = (req.cols.source(j) - i64::from(x0)) as usize;
                let from = (src_row + x * s.x) * bps;
                let sample = &frame[from..from + bps];
                let n = promote_sample(l.encoding, sample, &mut converted);
                dst.put(dst_row + j as isize * req.cols.spacing, &converted[..n])?;
            }
        }
    }
    Ok(())
}

/// Converts one promotable sample to binary32 components in `out`; returns their byte count.
fn promote_sample(enc: SampleEncoding, sample: &[u8], out: &mut [u8; 8]) -> usize {
    let width = enc.element_width();
    let mut n = 0;
    for c in sample.chunks_exact(width) {
        let bits = if width == 2 { u16::from_le_bytes([c[0], c[1]]) } else { u16::from(c[0]) };
        out[n..n + 4].copy_from_slice(&promote::component_to_f32(enc, bits).to_ne_bytes());
        n += 4;
    }
    n
}

/// Runs `f(i)` for every `i` in `0..n`, on the pool when there is one; the error of the
/// smallest failing `i` wins, so that reports do not depend on thread timing.
fn run<F>(pool: Option<&rayon::ThreadPool>, n: usize, f: F) -> Result<()>
where
    F: Fn(usize) -> Result<()> + Send + Sync,
{
    let results: Vec<Result<()>> = match pool {
        Some(p) if n > 1 => p.install(|| (0..n).into_par_iter().map(&f).collect()),
        _ => return (0..n).try_for_each(f),
    };
    results.into_iter().collect()
}

/// Fetches and decodes the frames `indices` (increasing order, each once) and hands each
/// decoded frame to `each(k, frame)` (`k` its position in `indices`) on the thread that
/// decoded it: one merged `read_ranges` call per [`BATCH_BYTES`], decoding on `threads`
/// threads. A frame is offered to the reader's cache when `each` returns true (otherwise its
/// buffer stays the thread's scratch, reused without allocation by the next frame). The
/// first failing frame in index order is reported.
pub fn decode_each<R, F>(reader: &Reader<R>, indices: &[u64], threads: usize, each: F) -> Result<ReadStats>
where
    R: RangeRead,
    F: Fn(usize, &AlignedBuf) -> Result<bool> + Send + Sync,
{
    let mut stats = ReadStats { frames: indices.len() as u64, ..ReadStats::default() };
    let pool = pool(threads)?;
    for batch in batches(reader, indices)? {
        let bytes = reader.fetch_frames(&indices[batch.clone()])?;
        stats.batches += 1;
        stats.decoded += bytes.len() as u64;
        stats.bytes_fetched += bytes.iter().map(|b| b.len() as u64).sum::<u64>();
        run(pool.as_deref(), bytes.len(), |k| {
            let index = indices[batch.start + k];
            SCRATCH.with(|cell| {
                let mut scratch = cell.borrow_mut();
                let want = reader.layout().decoded_frame_bytes(index);
                if scratch.as_bytes().len() as u64 != want {
                    if let Some(buf) = usize::try_from(want).ok().and_then(spare::take) {
                        spare::put(std::mem::replace(&mut *scratch, buf));
                    }
                }
                reader.decode_frame_into(index, &bytes[k], &mut scratch)?;
                if each(batch.start + k, &scratch)? {
                    let frame = std::mem::take(&mut *scratch);
                    *scratch = reader.cache().insert(index, frame).unwrap_or_default();
                }
                Ok(())
            })
        })?;
    }
    Ok(stats)
}

/// Splits `indices` into runs of at most [`BATCH_BYTES`] compressed bytes (a larger single
/// frame is a batch of its own).
fn batches<R: RangeRead>(reader: &Reader<R>, indices: &[u64]) -> Result<Vec<Range<usize>>> {
    let mut out = Vec::new();
    let (mut start, mut acc) = (0usize, 0u64);
    for (i, &index) in indices.iter().enumerate() {
        let (_, n) = reader.frame_range(index)?;
        if i > start && acc + n > BATCH_BYTES {
            out.push(start..i);
            start = i;
            acc = 0;
        }
        acc += n;
    }
    if start < indices.len() {
        out.push(start..indices.len());
    }
    Ok(out)
}

impl<R: RangeRead> Reader<R> {
    /// Checks `req` against the raster and `dst`: every source index inside it, the output
    /// type possible, every sample inside `dst` (sample (0, 0, 0) at `dst[origin]`).
    fn check_request(&self, req: &Request, dst_len: usize, origin: usize) -> Result<usize> {
        let l = self.layout();
        if cfg!(target_endian = "big") {
            return Err(Error::Unsupported("reads copy little-endian samples: not on big-endian hosts".into()));
        }
        if req.output == Output::Float32 && !promote::promotable(l.encoding) {
            return Err(Error::Unsupported(format!("{} samples cannot be promoted to float32", l.encoding.name())));
        }
        req.rows.check(l.length, "rows")?;
        req.cols.check(l.width, "columns")?;
        if let Some(p) = req.planes.iter().find(|p| p.band >= u32::from(l.bands) || p.time >= l.times) {
            return Err(Error::Usage(format!(
                "band {} at time {} is outside B = {}, T = {}",
                p.band, p.time, l.bands, l.times
            )));
        }
        let sb = req.sample_bytes(l.encoding);
        let bytes = req.samples().checked_mul(sb as u64).ok_or(Error::Overflow("window size"))?;
        Limits::check("window size", bytes, self.limits().max_read_bytes)?;
        let (lo, span) = req.extent(sb)?;
        let first = (origin as isize).checked_add(lo);
        if span > 0 && !first.is_some_and(|f| f >= 0 && (f as usize).checked_add(span).is_some_and(|e| e <= dst_len)) {
            return Err(Error::Usage(format!(
                "the request spans bytes {lo}..{} around byte {origin} of a {dst_len}-byte buffer",
                lo + span as isize
            )));
        }
        if sb > 1 && [req.cols, req.rows].iter().any(|a| a.count > 1 && a.spacing.unsigned_abs() < sb) {
            return Err(Error::Usage(format!("sample spacings must be at least the sample size ({sb} bytes)")));
        }
        Ok(sb)
    }

    /// Reads `req` into `dst`, sample (plane offset 0, row position 0, column position 0) at
    /// `dst[origin]`: each needed frame is taken from the cache or fetched (one merged
    /// `read_ranges` per batch) and decoded once, on `threads` threads, and copied straight
    /// into `dst`.
    pub fn read(&self, req: &Request, dst: &mut [u8], origin: usize, threads: usize) -> Result<ReadStats> {
        let sb = self.check_request(req, dst.len(), origin)?;
        let mut stats = ReadStats::default();
        if req.samples() == 0 {
            return Ok(stats);
        }
        let l = *self.layout();
        let jobs = plan(&l, req);
        stats.frames = jobs.len() as u64;
        let out = Dst { ptr: dst.as_mut_ptr(), len: dst.len() };
        let origin = origin as isize;
        let mut misses: Vec<&Job> = Vec::with_capacity(jobs.len());
        for job in &jobs {
            match self.cache().get(job.index) {
                Some(frame) => {
                    stats.cache_hits += 1;
                    scatter(&l, job, frame.as_bytes(), req, &out, origin)?;
                }
                None => misses.push(job),
            }
        }
        let threads = if req.disjoint(sb) { threads } else { 1 };
        let indices: Vec<u64> = misses.iter().map(|j| j.index).collect();
        // A request whose frames fit in a quarter of the budget keeps them all, so that reading
        // it again (a redraw, the next epoch over a small file) decodes nothing; a larger one
        // keeps only the frames it reads in part: caching the others would only evict frames
        // (and allocate a buffer per frame) without a hit when the request comes again.
        let keep_all = jobs.iter().map(|j| l.decoded_frame_bytes(j.index)).sum::<u64>() <= self.cache().budget() / 4;
        let fetched = decode_each(self, &indices, threads, |k, frame| {
            scatter(&l, misses[k], frame.as_bytes(), req, &out, origin)?;
            Ok(keep_all || !consumes(&l, misses[k], req))
        })?;
        stats.decoded = fetched.decoded;
        stats.batches = fetched.batches;
        stats.bytes_fetched = fetched.bytes_fetched;
        Ok(stats)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn axis(start: u32, count: u32, step: i64) -> Axis {
        Axis { start, count, step, spacing: 1 }
    }

    /// A grid copy gathers strided samples (here band 1 of a 2x3 pixel-interleaved frame of
    /// u16, written backwards) and refuses, writing nothing, a grid whose far corner is outside.
    #[test]
    fn grid_copies_strided_samples_and_checks_corners() {
        let frame: Vec<u8> = (0u16..12).flat_map(|v| (v * 257).to_le_bytes()).collect();
        let mut out = vec![0u8; 12];
        let dst = Dst { ptr: out.as_mut_ptr(), len: out.len() };
        let g = Grid { rows: 2, n: 3, bps: 2, src: (2, 12, 4), dst: (10, -6, -2) };
        dst.put_grid(&frame, g).unwrap();
        let got: Vec<u16> = out.chunks(2).map(|c| u16::from_le_bytes([c[0], c[1]])).collect();
        assert_eq!(got, [11 * 257, 9 * 257, 7 * 257, 5 * 257, 3 * 257, 257]);
        let mut out = vec![0u8; 12];
        let dst = Dst { ptr: out.as_mut_ptr(), len: out.len() };
        let err = dst.put_grid(&frame, Grid { rows: 2, n: 3, bps: 2, src: (2, 12, 4), dst: (0, 6, 3) }).unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid request: 2 rows of 3 samples of 2 bytes fall outside the 24-byte frame or the 12-byte buffer"
        );
        assert!(out.iter().all(|&b| b == 0));
    }

    /// positions_in agrees with testing every position.
    #[test]
    fn positions_in_matches_brute_force() {
        for start in 0..12u32 {
            for count in 0..8u32 {
                for step in -4i64..=4 {
                    let a = axis(start, count, step);
                    for lo in 0..14u32 {
                        for hi in lo..15 {
                            let want: Vec<u32> =
                                (0..count).filter(|&i| (i64::from(lo)..i64::from(hi)).contains(&a.source(i))).collect();
                            let got: Vec<u32> = a.positions_in(lo, hi).collect();
                            assert_eq!(got, want, "start {start} count {count} step {step} in {lo}..{hi}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn axis_bounds() {
        assert!(axis(9, 10, -1).check(10, "rows").is_ok());
        assert!(axis(9, 11, -1).check(10, "rows").is_err());
        assert!(axis(0, 5, 2).check(9, "rows").is_ok());
        assert!(axis(0, 5, 2).check(8, "rows").is_err());
        assert!(axis(10, 1, 1).check(10, "rows").is_err());
        assert!(axis(3, 1000, 0).check(4, "rows").is_ok());
        assert!(axis(0, u32::MAX, i64::MAX).check(10, "rows").is_err());
    }

    #[test]
    fn disjoint_layouts() {
        let req = |ps: isize, ls: isize, bs: isize, x: u32, y: u32, p: usize| Request {
            planes: (0..p).map(|k| Plane { band: 0, time: 0, offset: k as isize * bs }).collect(),
            rows: Axis { start: 0, count: y, step: 1, spacing: ls },
            cols: Axis { start: 0, count: x, step: 1, spacing: ps },
            output: Output::Native,
        };
        // band sequential, band interleaved by pixel, by line, reversed rows
        assert!(req(2, 20, 200, 10, 10, 3).disjoint(2));
        assert!(req(6, 60, 2, 10, 10, 3).disjoint(2));
        assert!(req(2, 60, 20, 10, 10, 3).disjoint(2));
        assert!(req(2, -20, 200, 10, 10, 3).disjoint(2));
        // overlapping planes, pixels, lines
        assert!(!req(2, 20, 100, 10, 10, 3).disjoint(2));
        assert!(!req(1, 20, 200, 10, 10, 3).disjoint(2));
        assert!(!req(2, 10, 200, 10, 10, 3).disjoint(2));
        assert_eq!(req(2, 20, 200, 10, 10, 3).extent(2).unwrap(), (0, 2 * 9 + 20 * 9 + 200 * 2 + 2));
        assert_eq!(req(2, -20, 200, 10, 10, 3).extent(2).unwrap(), (-180, 2 * 9 + 20 * 9 + 200 * 2 + 2));
    }

    #[test]
    fn thread_counts() {
        assert_eq!(parse_threads("3").unwrap(), 3);
        assert_eq!(parse_threads(" 100000 ").unwrap(), MAX_THREADS);
        assert!(parse_threads("all_cpus").unwrap() >= 1);
        for bad in ["0", "-2", "abc", "", "1.5"] {
            let e = parse_threads(bad).unwrap_err().to_string();
            assert!(e.contains("is not ALL_CPUS or a positive integer"), "{bad}: {e}");
        }
    }

    #[test]
    fn dropped_caches_leave_spares_of_their_sizes() {
        // an odd size no other test uses, so that parallel tests do not take these buffers
        let size = 40_011;
        let c = FrameCache::new(1 << 20);
        assert!(c.insert(7, AlignedBuf::zeroed(size)).is_none());
        assert!(c.insert(8, AlignedBuf::zeroed(size)).is_none());
        let held = c.get(8).expect("cached");
        let before = spare::bytes();
        drop(c);
        // frame 7 became a spare; frame 8 is still held by `held` and is not
        assert!(spare::bytes() >= before + size);
        assert_eq!(spare::take(size).map(|b| b.as_bytes().len()), Some(size));
        assert!(spare::take(size).is_none());
        assert_eq!(held.as_bytes().len(), size);
        assert!(spare::take(size + 1).is_none());
    }

    #[test]
    fn cache_keeps_recent_frames_within_budget() {
        let c = FrameCache::new(100);
        assert!(c.insert(1, AlignedBuf::zeroed(40)).is_none());
        assert!(c.insert(2, AlignedBuf::zeroed(40)).is_none());
        assert!(c.get(1).is_some()); // 1 is now the most recent
        let back = c.insert(3, AlignedBuf::zeroed(40)).expect("frame 2 evicted and recycled");
        assert_eq!(back.as_bytes().len(), 40);
        assert!(c.get(2).is_none() && c.get(1).is_some() && c.get(3).is_some());
        assert_eq!(c.bytes(), 80);
        // too large for the budget: handed straight back
        assert_eq!(c.insert(4, AlignedBuf::zeroed(101)).map(|b| b.as_bytes().len()), Some(101));
        c.set_budget(0);
        assert_eq!(c.bytes(), 0);
    }
}
