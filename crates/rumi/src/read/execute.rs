//! Running a plan: frames already in the reader's cache are copied out at once; the others are
//! fetched with one merged `read_ranges` call per [`BATCH_BYTES`], decoded on a pool of the
//! requested size into per-thread scratch buffers, copied out (scatter) and offered to the cache;
//! a frame that lands whole and contiguously in the caller's buffer and is not kept by the
//! cache is decoded straight into the buffer instead.

use std::ops::Range;

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};

use crate::aligned::AlignedBuf;
use crate::cache::spare;
use crate::error::{Error, Result};
use crate::io::RangeRead;
use crate::pool;
use crate::read::plan::{Job, Plan};
use crate::read::request::Request;
use crate::read::scatter::{scatter, Dst};
use crate::reader::Reader;

/// Compressed bytes fetched per batch: bounds the memory of one request (decoded frames live
/// only while they are copied out, one per worker thread, plus the cache's budget).
pub const BATCH_BYTES: u64 = 64 << 20;

/// The first batch of a request decoded on a pool: decoding starts once it is fetched.
pub const FIRST_BATCH_BYTES: u64 = 1 << 20;

/// What one [`Reader::read`] did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReadStats {
    /// frames the request needed
    pub frames: u64,
    /// frames served from the decoded-frame cache
    pub cache_hits: u64,
    /// frames fetched and decoded
    pub decoded: u64,
    /// of those, frames decoded straight into the caller's buffer (no scratch buffer, no copy)
    pub direct: u64,
    /// `read_ranges` calls made
    pub batches: u64,
    /// compressed bytes fetched
    pub bytes_fetched: u64,
}

thread_local! {
    /// Each decoding thread's frame buffer, reused while frames keep their size.
    static SCRATCH: std::cell::RefCell<AlignedBuf> = std::cell::RefCell::new(AlignedBuf::default());
}

impl<R: RangeRead> Reader<R> {
    /// Reads `req` into `dst`, sample (plane offset 0, row position 0, column position 0) at
    /// `dst[origin]`: the request is checked once ([`Request::check`]), then each needed frame
    /// is taken from the cache or fetched (one merged `read_ranges` per batch) and decoded
    /// once, on `threads` threads, and copied straight into `dst` (or decoded there, when its
    /// bytes are a run of `dst` and the cache will not keep it). Every pixel read of every
    /// host comes through here. After an error the bytes of `dst` the request addresses are
    /// unspecified (frames before the failing one written, the failing one's place possibly
    /// holding part of it): use the buffer only after a success.
    pub fn read(&self, req: &Request, dst: &mut [u8], origin: usize, threads: usize) -> Result<ReadStats> {
        let plan = Plan::new(self.layout(), self.limits(), req, dst.len(), origin)?;
        execute(self, &plan, dst, threads)
    }
}

/// Runs `plan` into `dst` (the buffer it was checked against).
pub(crate) fn execute<R: RangeRead>(
    reader: &Reader<R>,
    plan: &Plan,
    dst: &mut [u8],
    threads: usize,
) -> Result<ReadStats> {
    let mut stats = ReadStats { frames: plan.jobs.len() as u64, ..ReadStats::default() };
    if plan.jobs.is_empty() {
        return Ok(stats);
    }
    let l = *reader.layout();
    let out = Dst::new(dst);
    let copy =
        |job: &Job, frame: &[u8]| scatter(l.encoding, &job.geom, &job.planes, frame, plan.req, &out, plan.origin);
    let mut misses: Vec<&Job> = Vec::with_capacity(plan.jobs.len());
    for job in &plan.jobs {
        match reader.cache().get(job.geom.index) {
            Some(frame) => {
                stats.cache_hits += 1;
                copy(job, frame.as_bytes())?;
            }
            None => misses.push(job),
        }
    }
    let indices: Vec<u64> = misses.iter().map(|j| j.geom.index).collect();
    // A request whose frames fit in a quarter of the budget keeps them all, so that reading it
    // again (a redraw, the next epoch over a small file) decodes nothing; a larger one keeps
    // only the frames it reads in part: caching the others would only evict frames (and
    // allocate a buffer per frame) without a hit when the request comes again.
    let total: u64 = plan.jobs.iter().map(|j| l.decoded_frame_bytes(j.geom.index)).sum();
    let keep_all = total <= reader.cache().budget() / 4;
    // a frame the cache will not keep and whose decoded bytes are, as they are, a run of the
    // buffer (Plan::contiguous) is decoded straight into it: no scratch buffer, no copy
    let direct: Vec<Option<usize>> =
        misses.iter().map(|&j| if keep_all { None } else { plan.contiguous(&l, j) }).collect();
    let into = |k: usize| {
        let len = usize::try_from(l.decoded_frame_bytes(misses[k].geom.index)).ok()?;
        // SAFETY: the region is exactly frame k's own samples (Plan::contiguous); frames decode
        // concurrently only when no two samples of the request share a byte (Plan::threads),
        // and one at a time otherwise, so nothing else touches it while the frame decodes.
        direct[k].and_then(|at| unsafe { out.region(at, len) })
    };
    let fetched = decode_each_into(reader, &indices, plan.threads(threads), into, |k, frame| {
        copy(misses[k], frame.as_bytes())?;
        Ok(keep_all || !plan.consumes(&l, misses[k]))
    })?;
    stats.decoded = fetched.decoded;
    stats.direct = fetched.direct;
    stats.batches = fetched.batches;
    stats.bytes_fetched = fetched.bytes_fetched;
    Ok(stats)
}

/// Fetches and decodes the frames `indices` (increasing order, each once) and hands each
/// decoded frame to `each(k, frame)` (`k` its position in `indices`) on the thread that
/// decoded it. A frame is offered to the reader's cache when `each` returns true (otherwise
/// its buffer stays the thread's scratch, reused without allocation by the next frame). The
/// first failing frame in index order is reported.
///
/// On one thread: one merged `read_ranges` call per [`BATCH_BYTES`], each batch decoded before
/// the next is fetched. On a pool: the calling thread fetches (a source such as GDAL's VSI
/// layer keeps its settings per thread, so every read stays on the caller) while the pool
/// decodes what came before, one job per frame (a slow frame never holds a share of the
/// others back); the batches grow from [`FIRST_BATCH_BYTES`] (decoding starts after the first
/// megabyte, not after the whole request; [`BATCH_BYTES`] from the start on a source whose
/// requests cost a round trip, [`RangeRead::latency_bound`]) to [`BATCH_BYTES`], and at most
/// [`BATCH_BYTES`] of fetched, undecoded bytes are held.
pub fn decode_each<R, F>(reader: &Reader<R>, indices: &[u64], threads: usize, each: F) -> Result<ReadStats>
where
    R: RangeRead,
    F: Fn(usize, &AlignedBuf) -> Result<bool> + Send + Sync,
{
    decode_each_into(reader, indices, threads, |_| None, each)
}

/// [`decode_each`], decoding frame `k` straight into `into(k)` when it gives a place (exactly
/// the frame's decoded size, 8-byte aligned), without calling `each` for it. A frame that fails
/// there leaves its place holding part of its bytes; the error is reported as in `decode_each`.
pub(crate) fn decode_each_into<'d, R, T, F>(
    reader: &Reader<R>,
    indices: &[u64],
    threads: usize,
    into: T,
    each: F,
) -> Result<ReadStats>
where
    R: RangeRead,
    T: Fn(usize) -> Option<&'d mut [u8]> + Send + Sync,
    F: Fn(usize, &AlignedBuf) -> Result<bool> + Send + Sync,
{
    let direct = AtomicU64::new(0);
    let decode = |k: usize, bytes: &[u8]| -> Result<()> {
        let index = indices[k];
        if let Some(out) = into(k) {
            reader.decode_frame_to(index, bytes, out)?;
            direct.fetch_add(1, Ordering::Relaxed);
            return Ok(());
        }
        SCRATCH.with(|cell| {
            let mut scratch = cell.borrow_mut();
            let want = reader.layout().decoded_frame_bytes(index);
            if (scratch.held_bytes() as u64) < want {
                if let Some(buf) = usize::try_from(want).ok().and_then(spare::take) {
                    spare::put(std::mem::replace(&mut *scratch, buf));
                }
            }
            reader.decode_frame_into(index, bytes, &mut scratch)?;
            if each(k, &scratch)? {
                let frame = std::mem::take(&mut *scratch);
                *scratch = reader.cache().insert(index, frame).unwrap_or_default();
            }
            Ok(())
        })
    };
    let mut stats = ReadStats { frames: indices.len() as u64, ..ReadStats::default() };
    let pool = match pool::for_threads(threads)? {
        // a read nested in a pool's job decodes on its own thread: a job waiting for the pool
        // it runs on could wait for ever
        Some(p) if indices.len() > 1 && rayon::current_thread_index().is_none() => p,
        _ => {
            for (batch, _) in batches(reader, indices, BATCH_BYTES)? {
                let bytes = reader.fetch_frames(&indices[batch.clone()])?;
                stats.add_batch(&bytes);
                for (k, b) in bytes.iter().enumerate() {
                    decode(batch.start + k, b)?;
                }
            }
            stats.direct = direct.into_inner();
            return Ok(stats);
        }
    };
    let first_error: Mutex<Option<(usize, Error)>> = Mutex::new(None);
    // the lowest failed position: frames after it are skipped, frames before it still decode,
    // so the error reported is the first in index order whatever order the jobs ran in
    let failed = AtomicUsize::new(usize::MAX);
    let fail = |k: usize, e: Error| {
        failed.fetch_min(k, Ordering::Relaxed);
        let mut f = first_error.lock().unwrap_or_else(|p| p.into_inner());
        if f.as_ref().is_none_or(|(at, _)| k < *at) {
            *f = Some((k, e));
        }
    };
    let pending = Pending::default();
    // a source paying a round trip per request gets the fewest requests (decoding then overlaps
    // only the fetches of requests over BATCH_BYTES)
    let first = if reader.source().latency_bound() { BATCH_BYTES } else { FIRST_BATCH_BYTES };
    match batches(reader, indices, first) {
        Err(e) => fail(0, e),
        Ok(runs) => pool.in_place_scope(|s| {
            for (batch, size) in runs {
                pending.wait_below(BATCH_BYTES.saturating_sub(size));
                if failed.load(Ordering::Relaxed) != usize::MAX {
                    break;
                }
                let bytes = match reader.fetch_frames(&indices[batch.clone()]) {
                    Ok(b) => Arc::new(b),
                    Err(e) => {
                        fail(batch.start, e);
                        break;
                    }
                };
                stats.add_batch(&bytes);
                for k in 0..bytes.len() {
                    let n = bytes[k].len() as u64;
                    pending.add(n);
                    let (bytes, pending, decode, fail, failed) =
                        (Arc::clone(&bytes), &pending, &decode, &fail, &failed);
                    let at = batch.start + k;
                    s.spawn(move |_| {
                        if at < failed.load(Ordering::Relaxed) {
                            if let Err(e) = decode(at, &bytes[k]) {
                                fail(at, e);
                            }
                        }
                        drop(bytes);
                        pending.done(n);
                    });
                }
            }
        }),
    }
    stats.direct = direct.into_inner();
    match first_error.into_inner().unwrap_or_else(|p| p.into_inner()) {
        Some((_, e)) => Err(e),
        None => Ok(stats),
    }
}

impl ReadStats {
    fn add_batch(&mut self, bytes: &[Vec<u8>]) {
        self.batches += 1;
        self.decoded += bytes.len() as u64;
        self.bytes_fetched += bytes.iter().map(|b| b.len() as u64).sum::<u64>();
    }
}

/// Compressed bytes fetched but not yet decoded, for the fetching thread to wait on.
#[derive(Default)]
struct Pending {
    bytes: Mutex<u64>,
    cv: Condvar,
}

impl Pending {
    fn lock(&self) -> std::sync::MutexGuard<'_, u64> {
        self.bytes.lock().unwrap_or_else(|p| p.into_inner())
    }
    fn add(&self, n: u64) {
        *self.lock() += n;
    }
    fn done(&self, n: u64) {
        *self.lock() -= n;
        self.cv.notify_all();
    }
    /// Waits until at most `limit` bytes are pending (or none).
    fn wait_below(&self, limit: u64) {
        let mut b = self.lock();
        while *b > limit && *b > 0 {
            b = self.cv.wait(b).unwrap_or_else(|p| p.into_inner());
        }
    }
}

/// Splits `indices` into runs of at most `first` compressed bytes, the limit doubling from one
/// run to the next up to [`BATCH_BYTES`] (a larger single frame is a run of its own), with
/// their compressed sizes.
fn batches<R: RangeRead>(reader: &Reader<R>, indices: &[u64], first: u64) -> Result<Vec<(Range<usize>, u64)>> {
    let mut out = Vec::new();
    let (mut start, mut acc, mut limit) = (0usize, 0u64, first.min(BATCH_BYTES));
    for (i, &index) in indices.iter().enumerate() {
        let (_, n) = reader.frame_range(index)?;
        if i > start && acc + n > limit {
            out.push((start..i, acc));
            start = i;
            acc = 0;
            limit = (limit * 2).min(BATCH_BYTES);
        }
        acc += n;
    }
    if start < indices.len() {
        out.push((start..indices.len(), acc));
    }
    Ok(out)
}
