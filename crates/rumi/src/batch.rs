//! Batched multi-frame reads for hosts that bring their own buffer layout (the GDAL driver's
//! `IRasterIO`): the frames a request needs are fetched with ONE batched range read
//! ([`Reader::fetch_frames`]), decoded on `threads` threads (one OpenZL context per thread,
//! see `codec.rs`) and copied straight into the caller's buffer with its pixel, line and band
//! spacing ([`read_strided`]) or handed back decoded ([`decode_frames`]).
//!
//! Threads: `threads <= 1` decodes on the calling thread only (the default of the driver,
//! which follows `GDAL_NUM_THREADS`); more threads use a rayon pool of exactly that size,
//! created once per size and kept for the life of the process.

use std::cell::RefCell;
use std::ops::Range;

use rayon::prelude::*;

use crate::codec::AlignedBuf;
use crate::error::{Error, Result};
use crate::format::Layout;
use crate::io::RangeRead;
use crate::reader::Reader;

thread_local! {
    /// Each decoding thread's frame buffer, reused while frames keep their size (no allocation
    /// or zeroing per frame); at most one decoded frame per thread stays allocated.
    static SCRATCH: RefCell<AlignedBuf> = RefCell::new(AlignedBuf::default());
}

pub use crate::plan::{pool, BATCH_BYTES, MAX_THREADS};

/// A window of the raster and where each of its samples goes in the caller's buffer: sample
/// `(p, y, x)` of output plane `p` lands at byte
/// `p * band_space + (y - rows.start) * line_space + (x - cols.start) * pixel_space`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StridedWindow {
    /// columns
    pub cols: Range<u32>,
    /// rows
    pub rows: Range<u32>,
    /// `(band, time)` of each output plane, in output order (repeats allowed)
    pub planes: Vec<(u32, u32)>,
    /// bytes between horizontally adjacent samples
    pub pixel_space: usize,
    /// bytes between vertically adjacent samples
    pub line_space: usize,
    /// bytes between output planes
    pub band_space: usize,
}

impl StridedWindow {
    /// Bytes of the caller's buffer the window touches: one past the last sample written.
    pub fn extent(&self, sample_bytes: usize) -> Result<usize> {
        if self.rows.is_empty() || self.cols.is_empty() || self.planes.is_empty() {
            return Ok(0);
        }
        let last = |n: usize, s: usize| (n - 1).checked_mul(s);
        [
            last(self.cols.len(), self.pixel_space),
            last(self.rows.len(), self.line_space),
            last(self.planes.len(), self.band_space),
            Some(sample_bytes),
        ]
        .iter()
        .try_fold(0usize, |acc, v| v.and_then(|v| acc.checked_add(v)))
        .ok_or(Error::Overflow("window extent"))
    }

    /// True when no two samples of the window share a byte of the buffer, so frames may be
    /// copied out concurrently: sorted by spacing, each axis must step over the whole extent
    /// of the axes below it.
    pub fn disjoint(&self, sample_bytes: usize) -> bool {
        let mut axes: Vec<(usize, usize)> = [
            (self.pixel_space, self.cols.len()),
            (self.line_space, self.rows.len()),
            (self.band_space, self.planes.len()),
        ]
        .into_iter()
        .filter(|&(_, n)| n > 1)
        .collect();
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
        true
    }
}

/// Splits `frames` (in increasing index order) into batches of at most [`BATCH_BYTES`]
/// compressed bytes (a larger single frame is a batch of its own).
fn batches<R: RangeRead>(reader: &Reader<R>, frames: &[u64]) -> Result<Vec<Range<usize>>> {
    let mut out = Vec::new();
    let (mut start, mut acc) = (0usize, 0u64);
    for (i, &f) in frames.iter().enumerate() {
        let (_, n) = reader.frame_range(f)?;
        if i > start && acc + n > BATCH_BYTES {
            out.push(start..i);
            start = i;
            acc = 0;
        }
        acc += n;
    }
    if start < frames.len() {
        out.push(start..frames.len());
    }
    Ok(out)
}

/// Runs `f(i)` for every `i` in `0..n`, on the pool when there is one; stops at the first error.
fn run<F>(pool: Option<&rayon::ThreadPool>, n: usize, f: F) -> Result<()>
where
    F: Fn(usize) -> Result<()> + Send + Sync,
{
    match pool {
        Some(p) if n > 1 => p.install(|| (0..n).into_par_iter().try_for_each(&f)),
        _ => (0..n).try_for_each(f),
    }
}

/// Reads and decodes `frames` (frame indices, any order): their byte ranges are fetched with
/// one batched read per [`BATCH_BYTES`] and decoded on `threads` threads. The decoded frames
/// come back in the order of `frames`.
pub fn decode_frames<R: RangeRead>(reader: &Reader<R>, frames: &[u64], threads: usize) -> Result<Vec<AlignedBuf>> {
    let mut order: Vec<usize> = (0..frames.len()).collect();
    order.sort_by_key(|&i| frames[i]);
    let sorted: Vec<u64> = order.iter().map(|&i| frames[i]).collect();
    let pool = pool(threads)?;
    let mut out: Vec<AlignedBuf> = vec![AlignedBuf::default(); frames.len()];
    for batch in batches(reader, &sorted)? {
        let bytes = reader.fetch_frames(&sorted[batch.clone()])?;
        let decode = |k: usize| reader.decode_frame(sorted[batch.start + k], &bytes[k]);
        let decoded: Vec<AlignedBuf> = match pool.as_deref() {
            Some(p) if bytes.len() > 1 => {
                p.install(|| (0..bytes.len()).into_par_iter().map(decode).collect::<Result<_>>())?
            }
            _ => (0..bytes.len()).map(decode).collect::<Result<_>>()?,
        };
        for (k, d) in decoded.into_iter().enumerate() {
            out[order[batch.start + k]] = d;
        }
    }
    Ok(out)
}

/// The caller's buffer as shared raw memory. Writes are bounds-checked; frames write disjoint
/// samples (checked by [`StridedWindow::disjoint`] before any concurrent use).
struct Dst {
    ptr: *mut u8,
    len: usize,
}

// SAFETY: `Dst` is only shared between threads when the window's samples are pairwise
// disjoint in the buffer and each sample is written by exactly one frame, so no two threads
// write the same byte; every write is bounds-checked against `len`.
unsafe impl Send for Dst {}
// SAFETY: as above.
unsafe impl Sync for Dst {}

impl Dst {
    /// Copies `src` to byte `at` of the buffer.
    fn put(&self, at: usize, src: &[u8]) -> Result<()> {
        match at.checked_add(src.len()) {
            Some(end) if end <= self.len => {
                // SAFETY: `at..end` lies inside the caller's buffer (checked); `src` is a
                // separate allocation (a decoded frame); see the Send/Sync note for exclusivity.
                unsafe { std::ptr::copy_nonoverlapping(src.as_ptr(), self.ptr.add(at), src.len()) };
                Ok(())
            }
            _ => Err(Error::Request(format!(
                "write of {} bytes at {at} outside the {}-byte buffer",
                src.len(),
                self.len
            ))),
        }
    }
}

/// Which frames a window needs: `(frame index, output planes it fills)`, in index order.
fn plan(layout: &Layout, win: &StridedWindow, tiles: &[(u32, u32)]) -> Vec<(u64, Vec<usize>)> {
    let mut frames: Vec<(u64, Vec<usize>)> = Vec::new();
    for &(row, col) in tiles {
        if layout.frame_unit.is_tile() {
            let mut seen: Vec<(u32, u32)> = Vec::new();
            for &(b, t) in &win.planes {
                if !seen.contains(&(b, t)) {
                    seen.push((b, t));
                    let planes: Vec<usize> =
                        win.planes.iter().enumerate().filter(|(_, &bt)| bt == (b, t)).map(|(p, _)| p).collect();
                    frames.push((layout.frame_index(row, col, b, t), planes));
                }
            }
        } else {
            frames.push((layout.frame_index(row, col, 0, 0), (0..win.planes.len()).collect()));
        }
    }
    frames.sort_by_key(|f| f.0);
    frames.dedup_by_key(|f| f.0);
    frames
}

/// Copies the samples of decoded frame `index` that fall in `win` (output planes `planes`)
/// into `dst`.
fn scatter(
    layout: &Layout,
    index: u64,
    decoded: &AlignedBuf,
    win: &StridedWindow,
    planes: &[usize],
    dst: &Dst,
) -> Result<()> {
    let bps = layout.encoding.decoded_bytes();
    let (row, col, _, _) = layout.frame_position(index);
    let (h, w) = layout.tile_dims(row, col);
    let (y0, x0) = (row * u32::from(layout.tile_length), col * u32::from(layout.tile_width));
    let ys = win.rows.start.max(y0)..win.rows.end.min(y0 + h);
    let xs = win.cols.start.max(x0)..win.cols.end.min(x0 + w);
    if ys.is_empty() || xs.is_empty() {
        return Ok(());
    }
    let s = layout.frame_strides(h, w);
    let src = decoded.as_bytes();
    let run = xs.len();
    let contiguous = s.x == 1 && win.pixel_space == bps;
    for &p in planes {
        let (b, t) = win.planes[p];
        let base = b as usize * s.b + t as usize * s.t;
        for y in ys.clone() {
            let src0 = base + (y - y0) as usize * s.y + (xs.start - x0) as usize * s.x;
            let dst0 = p * win.band_space
                + (y - win.rows.start) as usize * win.line_space
                + (xs.start - win.cols.start) as usize * win.pixel_space;
            if contiguous {
                dst.put(dst0, &src[src0 * bps..(src0 + run) * bps])?;
            } else {
                for k in 0..run {
                    let si = (src0 + k * s.x) * bps;
                    dst.put(dst0 + k * win.pixel_space, &src[si..si + bps])?;
                }
            }
        }
    }
    Ok(())
}

/// Reads `win` into `dst` (samples in the file's byte order, which is little-endian): fetches
/// the needed frames' byte ranges in one batched read (per [`BATCH_BYTES`]), decodes them on
/// `threads` threads and copies each frame's part of the window straight into `dst`.
///
/// `tiles` restricts the read to these tile locations `(row, col)` (the others' samples are
/// left untouched, e.g. because the host copies them from its own cache); `None` reads every
/// tile the window touches.
pub fn read_strided<R: RangeRead>(
    reader: &Reader<R>,
    win: &StridedWindow,
    tiles: Option<&[(u32, u32)]>,
    dst: &mut [u8],
    threads: usize,
) -> Result<()> {
    if cfg!(target_endian = "big") {
        return Err(Error::Request("strided reads copy little-endian samples: not on big-endian hosts".into()));
    }
    let l = *reader.layout();
    let bps = l.encoding.decoded_bytes();
    if win.rows.start > win.rows.end
        || win.rows.end > l.length
        || win.cols.start > win.cols.end
        || win.cols.end > l.width
    {
        return Err(Error::Request(format!(
            "window rows {:?} x columns {:?} outside the {}x{} raster",
            win.rows, win.cols, l.length, l.width
        )));
    }
    if let Some(&(b, t)) = win.planes.iter().find(|&&(b, t)| b >= u32::from(l.bands) || t >= l.times) {
        return Err(Error::Request(format!("band {b} at time {t} outside B = {}, T = {}", l.bands, l.times)));
    }
    let extent = win.extent(bps)?;
    if extent == 0 {
        return Ok(());
    }
    if extent > dst.len() || (win.cols.len() > 1 && win.pixel_space < bps) {
        return Err(Error::Request(format!(
            "the window needs {extent} bytes with pixel spacing >= {bps}; the buffer has {} (pixel spacing {})",
            dst.len(),
            win.pixel_space
        )));
    }
    let (tl, tw) = (u32::from(l.tile_length), u32::from(l.tile_width));
    let all: Vec<(u32, u32)>;
    let tiles = match tiles {
        Some(t) => {
            if let Some(&(r, c)) = t.iter().find(|&&(r, c)| r >= l.tiles_down() || c >= l.tiles_across()) {
                return Err(Error::Request(format!(
                    "tile ({r}, {c}) outside the {}x{} grid",
                    l.tiles_down(),
                    l.tiles_across()
                )));
            }
            t
        }
        None => {
            all = (win.rows.start / tl..=(win.rows.end - 1) / tl)
                .flat_map(|r| (win.cols.start / tw..=(win.cols.end - 1) / tw).map(move |c| (r, c)))
                .collect();
            &all
        }
    };
    let frames = plan(&l, win, tiles);
    let indices: Vec<u64> = frames.iter().map(|f| f.0).collect();
    let pool = if win.disjoint(bps) { pool(threads)? } else { None };
    let out = Dst { ptr: dst.as_mut_ptr(), len: dst.len() };
    for batch in batches(reader, &indices)? {
        let bytes = reader.fetch_frames(&indices[batch.clone()])?;
        run(pool.as_deref(), bytes.len(), |k| {
            let (index, planes) = &frames[batch.start + k];
            SCRATCH.with(|cell| {
                let mut decoded = cell.borrow_mut();
                reader.decode_frame_into(*index, &bytes[k], &mut decoded)?;
                scatter(&l, *index, &decoded, win, planes, &out)
            })
        })?;
    }
    Ok(())
}

/// Copies the `h x w` plane of band `b`, time `t` of decoded frame `index` into `dst`, row `y`
/// at `dst[y * line_stride..]` (host byte order on little-endian hosts). `b`/`t` must belong
/// to the frame; `dst` must hold the plane.
pub fn copy_plane(
    layout: &Layout,
    index: u64,
    decoded: &AlignedBuf,
    (b, t): (u32, u32),
    dst: &mut [u8],
    line_stride: usize,
) -> Result<()> {
    let (row, col, _, _) = layout.frame_position(index);
    let (h, w) = layout.tile_dims(row, col);
    let (y0, x0) = (row * u32::from(layout.tile_length), col * u32::from(layout.tile_width));
    let bps = layout.encoding.decoded_bytes();
    let (b, t) = if layout.frame_unit.is_tile() { (0, 0) } else { (b, t) };
    let win = StridedWindow {
        cols: x0..x0 + w,
        rows: y0..y0 + h,
        planes: vec![(b, t)],
        pixel_space: bps,
        line_space: line_stride,
        band_space: 0,
    };
    let extent = win.extent(bps)?;
    if extent > dst.len() || line_stride < w as usize * bps {
        return Err(Error::Request(format!(
            "a {h}x{w} plane needs {extent} bytes and a line stride >= {}; got {} bytes, stride {line_stride}",
            w as usize * bps,
            dst.len()
        )));
    }
    scatter(layout, index, decoded, &win, &[0], &Dst { ptr: dst.as_mut_ptr(), len: dst.len() })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn win(ps: usize, ls: usize, bs: usize, x: u32, y: u32, p: usize) -> StridedWindow {
        StridedWindow {
            cols: 0..x,
            rows: 0..y,
            planes: vec![(0, 0); p],
            pixel_space: ps,
            line_space: ls,
            band_space: bs,
        }
    }

    #[test]
    fn disjoint_layouts() {
        // band sequential, band interleaved by pixel, by line
        assert!(win(2, 20, 200, 10, 10, 3).disjoint(2));
        assert!(win(6, 60, 2, 10, 10, 3).disjoint(2));
        assert!(win(2, 60, 20, 10, 10, 3).disjoint(2));
        // overlapping planes, pixels, lines
        assert!(!win(2, 20, 100, 10, 10, 3).disjoint(2));
        assert!(!win(1, 20, 200, 10, 10, 3).disjoint(2));
        assert!(!win(2, 10, 200, 10, 10, 3).disjoint(2));
        // a single column, row or plane does not constrain its spacing
        assert!(win(0, 2, 20, 1, 10, 2).disjoint(2));
        assert_eq!(win(2, 20, 200, 10, 10, 3).extent(2).unwrap(), 2 * 9 + 20 * 9 + 200 * 2 + 2);
    }
}
