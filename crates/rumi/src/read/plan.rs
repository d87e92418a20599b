//! From a request to the frames it needs (spec: "Selective read model"): the tiles each axis
//! touches times the planes, each frame once, in increasing index order, each with the output
//! planes it fills.

use crate::error::{Limits, Result};
use crate::format::layout::FrameGeometry;
use crate::format::Layout;
use crate::read::request::{Axis, Output, Request};

/// One frame of a request: where it lies and the output planes (indices into
/// `Request::planes`) it fills.
pub(crate) struct Job {
    pub geom: FrameGeometry,
    pub planes: Vec<usize>,
}

/// A request checked once against a raster and a buffer, with its frame list: what the
/// executor runs.
pub(crate) struct Plan<'q> {
    pub req: &'q Request,
    /// bytes of one output sample
    pub sample_bytes: usize,
    /// byte of the buffer that receives sample (0, 0, 0)
    pub origin: isize,
    /// the frames, each once, in increasing index order
    pub jobs: Vec<Job>,
}

impl<'q> Plan<'q> {
    /// Checks `req` ([`Request::check`]) and lists its frames.
    pub fn new(l: &Layout, limits: &Limits, req: &'q Request, dst_len: usize, origin: usize) -> Result<Self> {
        let sample_bytes = req.check(l, limits, dst_len, origin)?;
        let jobs = if req.samples() == 0 { Vec::new() } else { jobs(l, req) };
        Ok(Plan { req, sample_bytes, origin: origin as isize, jobs })
    }

    /// Threads that may copy frames out at once: `threads` when no two samples share a byte of
    /// the buffer, else 1.
    pub fn threads(&self, threads: usize) -> usize {
        if self.req.disjoint(self.sample_bytes) {
            threads
        } else {
            1
        }
    }

    /// True when the request reads every sample of frame `job` (its whole tile, step 1 or -1
    /// on both axes, every band and time step the frame holds): nothing of it is left for a
    /// later read, so in a request too large to be kept whole it is not worth a place in the
    /// cache.
    pub fn consumes(&self, l: &Layout, job: &Job) -> bool {
        let (req, g) = (self.req, &job.geom);
        let whole =
            |a: &Axis, lo: u32, n: u32| (n == 1 || a.step.abs() == 1) && a.positions_in(lo, lo + n).len() == n as usize;
        if !whole(&req.rows, g.y0, g.h) || !whole(&req.cols, g.x0, g.w) {
            return false;
        }
        if g.tile.is_some() {
            return true;
        }
        let mut pairs: Vec<(u32, u32)> = req.planes.iter().map(|p| (p.band, p.time)).collect();
        pairs.sort_unstable();
        pairs.dedup();
        pairs.len() as u64 == u64::from(l.bands) * u64::from(l.times)
    }

    /// The byte of the buffer from which frame `job`'s decoded bytes, as they are, are exactly
    /// the samples the request puts there: the request reads every sample of the frame once
    /// (its whole tile, steps 1, each (band, time) pair it holds in one plane), unconverted, at
    /// the frame's own spacings, the planes as far apart as in the frame (a GDAL block, an
    /// aligned chip, a window of one tile column). Such a frame can be decoded straight into the
    /// buffer instead of into a scratch buffer and copied.
    pub fn contiguous(&self, l: &Layout, job: &Job) -> Option<usize> {
        let (req, g) = (self.req, &job.geom);
        if req.output != Output::Native {
            return None;
        }
        let bps = self.sample_bytes;
        // the byte offset of the frame's first row (column) on this axis, when it reads all
        // `n` of them at the frame's `stride`
        let axis = |a: &Axis, lo: u32, n: u32, stride: usize| -> Option<isize> {
            let pos = a.positions_in(lo, lo + n);
            let whole = pos.len() == n as usize && (n == 1 || (a.step == 1 && a.spacing == (stride * bps) as isize));
            whole.then(|| pos.start as isize * a.spacing)
        };
        let y = axis(&req.rows, g.y0, g.h, g.strides.y)?;
        let x = axis(&req.cols, g.x0, g.w, g.strides.x)?;
        let held = if g.tile.is_some() { 1 } else { usize::from(l.bands) * l.times as usize };
        if job.planes.len() != held {
            return None;
        }
        let mut at: Option<isize> = None;
        let mut pairs = Vec::with_capacity(held);
        for &p in &job.planes {
            let plane = req.planes[p];
            let start = self.origin + plane.offset + y + x - (g.plane(plane.band, plane.time) * bps) as isize;
            if *at.get_or_insert(start) != start {
                return None;
            }
            pairs.push((plane.band, plane.time));
        }
        pairs.sort_unstable();
        pairs.dedup();
        (pairs.len() == held).then_some(())?;
        usize::try_from(at?).ok()
    }
}

/// Indices of every frame `req` needs, each once, in increasing order (`req` inside the
/// raster: see [`Request::check`]).
pub fn frames(l: &Layout, req: &Request) -> Vec<u64> {
    jobs(l, req).into_iter().map(|j| j.geom.index).collect()
}

/// Every frame `req` needs, each once, in increasing index order.
fn jobs(l: &Layout, req: &Request) -> Vec<Job> {
    if req.planes.is_empty() {
        return Vec::new();
    }
    let rows = req.rows.tiles(u32::from(l.tile_length), l.length);
    let cols = req.cols.tiles(u32::from(l.tile_width), l.width);
    let mut jobs: Vec<Job> = Vec::new();
    for &row in &rows {
        for &col in &cols {
            if l.frame_unit.is_tile() {
                let start = jobs.len();
                for (p, plane) in req.planes.iter().enumerate() {
                    let geom = l.frame_at(row, col, plane.band, plane.time);
                    match jobs[start..].iter_mut().find(|j| j.geom.index == geom.index) {
                        Some(j) => j.planes.push(p),
                        None => jobs.push(Job { geom, planes: vec![p] }),
                    }
                }
            } else {
                let planes = (0..req.planes.len()).collect();
                jobs.push(Job { geom: l.frame_at(row, col, 0, 0), planes });
            }
        }
    }
    jobs.sort_by_key(|j| j.geom.index);
    jobs
}
