//! The request model: what to read ([`Plane`]s and two [`Axis`]es) and where each sample goes,
//! and its one validation against a raster and a buffer ([`Request::check`]).

use std::ops::Range;

use crate::error::{Error, Limits, Measure, Result};
use crate::format::{Layout, SampleEncoding};
use crate::promote;

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
    pub(crate) fn source(&self, i: u32) -> i64 {
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
    pub(crate) fn positions_in(&self, lo: u32, hi: u32) -> Range<u32> {
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
    pub(crate) fn tiles(&self, tile: u32, len: u32) -> Vec<u32> {
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

    /// Checks the request against a raster of layout `l` under `limits` and a buffer of
    /// `dst_len` bytes whose byte `origin` receives sample (0, 0, 0): every source index inside
    /// the raster, the output type possible, the size within the limits, every sample inside
    /// the buffer, spacings no smaller than a sample. Returns the output sample size. The read
    /// path checks a request here once, then copies without a bounds check per sample.
    pub fn check(&self, l: &Layout, limits: &Limits, dst_len: usize, origin: usize) -> Result<usize> {
        if cfg!(target_endian = "big") {
            return Err(Error::Unsupported("reads copy little-endian samples: not on big-endian hosts".into()));
        }
        if self.output == Output::Float32 && !promote::promotable(l.encoding) {
            return Err(Error::Unsupported(format!("{} samples cannot be promoted to float32", l.encoding.name())));
        }
        self.rows.check(l.length, "rows")?;
        self.cols.check(l.width, "columns")?;
        if let Some(p) = self.planes.iter().find(|p| p.band >= u32::from(l.bands) || p.time >= l.times) {
            return Err(Error::Usage(format!(
                "band {} at time {} is outside B = {}, T = {}",
                p.band, p.time, l.bands, l.times
            )));
        }
        let sb = self.sample_bytes(l.encoding);
        let bytes = self.samples().checked_mul(sb as u64).ok_or(Error::Overflow("window size"))?;
        Limits::check(Measure::WindowSize, bytes, limits.max_read_bytes)?;
        let (lo, span) = self.extent(sb)?;
        let first = (origin as isize).checked_add(lo);
        if span > 0 && !first.is_some_and(|f| f >= 0 && (f as usize).checked_add(span).is_some_and(|e| e <= dst_len)) {
            return Err(Error::Usage(format!(
                "the request spans bytes {lo}..{} around byte {origin} of a {dst_len}-byte buffer",
                lo + span as isize
            )));
        }
        if sb > 1 && [self.cols, self.rows].iter().any(|a| a.count > 1 && a.spacing.unsigned_abs() < sb) {
            return Err(Error::Usage(format!("sample spacings must be at least the sample size ({sb} bytes)")));
        }
        Ok(sb)
    }

    /// True when no two samples share a byte of the buffer, so frames may be copied out
    /// concurrently: each axis steps over the whole extent of the axes below it, and planes
    /// do not overlap.
    pub(crate) fn disjoint(&self, sample_bytes: usize) -> bool {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn axis(start: u32, count: u32, step: i64) -> Axis {
        Axis { start, count, step, spacing: 1 }
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
}
