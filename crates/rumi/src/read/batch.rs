//! Many reads at once: requests on any number of readers, each into its own place of one of
//! several buffers (a training batch's image and mask chips). The reads of one reader run in
//! order on one thread (so the frames two of them share are decoded once, then served by that
//! reader's cache), the readers side by side on a pool: one call, one hand-off to the pool,
//! whatever the number of chips.

use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::io::RangeRead;
use crate::pool;
use crate::read::execute::{execute, ReadStats};
use crate::read::plan::Plan;
use crate::read::request::Request;
use crate::reader::Reader;

/// One read of a batch: `req` on `reader`, its sample (plane 0, row 0, column 0) at byte
/// `origin` of buffer `out`.
pub struct BatchRead<'a, R: RangeRead> {
    /// the file
    pub reader: &'a Reader<R>,
    /// what to read and where each sample goes (relative to `origin`)
    pub req: Request,
    /// index of the buffer
    pub out: usize,
    /// byte of that buffer receiving sample (0, 0, 0)
    pub origin: usize,
}

/// Runs `reads` into `outs` on `threads` threads ([`Reader::read`] each, one thread per
/// reader at a time). Every read is checked first (its request against its raster and buffer),
/// and no two reads may write the same byte; then nothing is written unless all are valid. The
/// error of the first failing read (in `reads` order) is reported; the statistics are summed.
pub fn read_batch<R: RangeRead>(
    reads: &[BatchRead<'_, R>],
    outs: &mut [&mut [u8]],
    threads: usize,
) -> Result<ReadStats> {
    // each request checked once against its raster and buffer; where each read writes: [lo, hi)
    // of its buffer; the plans then count from the start of those bytes
    let mut spans = Vec::with_capacity(reads.len());
    let mut plans = Vec::with_capacity(reads.len());
    for (i, r) in reads.iter().enumerate() {
        let Some(buf) = outs.get(r.out) else {
            return Err(Error::Usage(format!("read {i} of the batch names buffer {} of {}", r.out, outs.len())));
        };
        let mut plan = Plan::new(r.reader.layout(), r.reader.limits(), &r.req, buf.len(), r.origin)?;
        let (lo, span) = r.req.extent(plan.sample_bytes)?;
        let lo = (plan.origin + lo) as usize; // inside the buffer: checked above
        plan.origin -= lo as isize;
        spans.push((r.out, lo, lo + span, i));
        plans.push(plan);
    }
    spans.sort_unstable();
    for w in spans.windows(2) {
        if w[0].0 == w[1].0 && w[1].1 < w[0].2 {
            let (a, b) = (w[0].3.min(w[1].3), w[0].3.max(w[1].3));
            return Err(Error::Usage(format!(
                "reads {a} and {b} of the batch write the same bytes of buffer {}",
                w[0].0
            )));
        }
    }
    // carve each read's bytes out of its buffer (disjoint: checked above)
    let mut places: Vec<Option<&mut [u8]>> = (0..reads.len()).map(|_| None).collect();
    let mut rest: Vec<Option<(&mut [u8], usize)>> = outs.iter_mut().map(|b| Some((&mut **b, 0))).collect();
    for &(out, lo, hi, i) in &spans {
        let (buf, at) = rest[out].take().unwrap_or_default();
        let (_, tail) = buf.split_at_mut(lo - at);
        let (mine, tail) = tail.split_at_mut(hi - lo);
        places[i] = Some(mine);
        rest[out] = Some((tail, hi));
    }
    // the reads of each reader, in batch order
    let mut groups: Vec<Vec<(usize, &mut [u8])>> = Vec::new();
    let mut owner: Vec<(&Reader<R>, usize)> = Vec::new();
    for (i, place) in places.into_iter().enumerate() {
        let key = reads[i].reader;
        let g = match owner.iter().find(|o| std::ptr::eq(o.0, key)) {
            Some(o) => o.1,
            None => {
                owner.push((key, groups.len()));
                groups.push(Vec::new());
                groups.len() - 1
            }
        };
        groups[g].push((i, place.unwrap_or_default()));
    }
    let run = |group: &mut Vec<(usize, &mut [u8])>| -> Vec<(usize, Result<ReadStats>)> {
        group.iter_mut().map(|(i, dst)| (*i, execute(reads[*i].reader, &plans[*i], dst, 1))).collect()
    };
    let pool = pool::for_threads(threads.min(groups.len()))?;
    let results: Vec<(usize, Result<ReadStats>)> = match pool {
        // one reader per job: a reader with many chips never holds a share of the others back
        Some(p) => p.install(|| groups.par_iter_mut().with_max_len(1).flat_map_iter(run).collect()),
        None => groups.iter_mut().flat_map(run).collect(),
    };
    let mut sum = ReadStats::default();
    let mut first: Option<(usize, Error)> = None;
    for (i, r) in results {
        match r {
            Ok(s) => {
                sum.frames += s.frames;
                sum.cache_hits += s.cache_hits;
                sum.decoded += s.decoded;
                sum.direct += s.direct;
                sum.batches += s.batches;
                sum.bytes_fetched += s.bytes_fetched;
            }
            Err(e) if first.as_ref().is_none_or(|f| i < f.0) => first = Some((i, e)),
            Err(_) => {}
        }
    }
    match first {
        Some((_, e)) => Err(e),
        None => Ok(sum),
    }
}
