//! Running a plan: frames already in the reader's cache are copied out at once; the others are
//! fetched with one merged `read_ranges` call per [`BATCH_BYTES`], decoded on a pool of the
//! requested size into per-thread scratch buffers, copied out (scatter) and offered to the cache.

use std::ops::Range;

use rayon::prelude::*;

use crate::cache::spare;
use crate::codec::AlignedBuf;
use crate::error::Result;
use crate::io::RangeRead;
use crate::pool;
use crate::read::plan::{Job, Plan};
use crate::read::request::Request;
use crate::read::scatter::{scatter, Dst};
use crate::reader::Reader;

/// Compressed bytes fetched per batch: bounds the memory of one request (decoded frames live
/// only while they are copied out, one per worker thread, plus the cache's budget).
pub const BATCH_BYTES: u64 = 64 << 20;

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

thread_local! {
    /// Each decoding thread's frame buffer, reused while frames keep their size.
    static SCRATCH: std::cell::RefCell<AlignedBuf> = std::cell::RefCell::new(AlignedBuf::default());
}

impl<R: RangeRead> Reader<R> {
    /// Reads `req` into `dst`, sample (plane offset 0, row position 0, column position 0) at
    /// `dst[origin]`: the request is checked once ([`Request::check`]), then each needed frame
    /// is taken from the cache or fetched (one merged `read_ranges` per batch) and decoded
    /// once, on `threads` threads, and copied straight into `dst`. Every pixel read of every
    /// host comes through here.
    pub fn read(&self, req: &Request, dst: &mut [u8], origin: usize, threads: usize) -> Result<ReadStats> {
        let plan = Plan::new(self.layout(), self.limits(), req, dst.len(), origin)?;
        execute(self, &plan, dst, threads)
    }
}

/// Runs `plan` into `dst` (the buffer it was checked against).
fn execute<R: RangeRead>(reader: &Reader<R>, plan: &Plan, dst: &mut [u8], threads: usize) -> Result<ReadStats> {
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
    let fetched = decode_each(reader, &indices, plan.threads(threads), |k, frame| {
        copy(misses[k], frame.as_bytes())?;
        Ok(keep_all || !plan.consumes(&l, misses[k]))
    })?;
    stats.decoded = fetched.decoded;
    stats.batches = fetched.batches;
    stats.bytes_fetched = fetched.bytes_fetched;
    Ok(stats)
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
    let pool = pool::for_threads(threads)?;
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
