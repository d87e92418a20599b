//! The copy kernels: a decoded frame's samples straight into the caller's buffer at the
//! request's spacings (one bounds check of the four corners per plane and frame, then memcpy
//! runs or typed strided loops; pixel-interleaved frames with vector shuffles: the four bands of
//! 4-sample pixels together, one band of 2-4 sample pixels with its stride as a constant),
//! converted per sample only for [`Output::Float32`].

use std::marker::PhantomData;

use crate::error::{Error, Result};
use crate::format::layout::FrameGeometry;
use crate::format::SampleEncoding;
use crate::promote;
use crate::read::request::{Output, Request};

/// Copies the samples of decoded frame `g` that fall in `req` (its output planes `planes`)
/// into `dst`, sample (0, 0, 0) at byte `origin`, converting them for [`Output::Float32`].
pub(crate) fn scatter(
    enc: SampleEncoding,
    g: &FrameGeometry,
    planes: &[usize],
    frame: &[u8],
    req: &Request,
    dst: &Dst,
    origin: isize,
) -> Result<()> {
    let bps = enc.decoded_bytes();
    let (y0, x0) = (g.y0, g.x0);
    let (iy, ix) = (req.rows.positions_in(y0, y0 + g.h), req.cols.positions_in(x0, x0 + g.w));
    if iy.is_empty() || ix.is_empty() {
        return Ok(());
    }
    let s = g.strides;
    if req.output == Output::Native {
        // source and destination offsets are affine in the row and column positions, so
        // `put_grid` checks the corners once and copies every sample unchecked
        let (y, x) = (req.rows.source(iy.start) - i64::from(y0), req.cols.source(ix.start) - i64::from(x0));
        let (sy, sx) = ((s.y * bps) as isize, (s.x * bps) as isize);
        let grids: Vec<Grid> = planes
            .iter()
            .map(|&p| {
                let plane = req.planes[p];
                let base = g.plane(plane.band, plane.time);
                Grid {
                    rows: iy.len(),
                    n: ix.len(),
                    bps,
                    src: (
                        (base * bps) as isize + y as isize * sy + x as isize * sx,
                        req.rows.step as isize * sy,
                        req.cols.step as isize * sx,
                    ),
                    dst: (
                        origin
                            + plane.offset
                            + iy.start as isize * req.rows.spacing
                            + ix.start as isize * req.cols.spacing,
                        req.rows.spacing,
                        req.cols.spacing,
                    ),
                }
            })
            .collect();
        if !dst.put_pixels(frame, &grids)? {
            for grid in grids {
                dst.put_grid(frame, grid)?;
            }
        }
        return Ok(());
    }
    let mut converted = [0u8; 8];
    for &p in planes {
        let plane = req.planes[p];
        let base = g.plane(plane.band, plane.time);
        for i in iy.clone() {
            let y = (req.rows.source(i) - i64::from(y0)) as usize;
            let src_row = base + y * s.y;
            let dst_row = origin + plane.offset + i as isize * req.rows.spacing;
            for j in ix.clone() {
                let x = (req.cols.source(j) - i64::from(x0)) as usize;
                let from = (src_row + x * s.x) * bps;
                let sample = &frame[from..from + bps];
                let n = promote_sample(enc, sample, &mut converted);
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

/// The caller's buffer as shared raw memory. Writes are bounds-checked; when frames are
/// copied out concurrently no two write the same byte ([`Request::disjoint`]).
pub(crate) struct Dst<'a> {
    ptr: *mut u8,
    len: usize,
    _buf: PhantomData<&'a mut [u8]>,
}

// SAFETY: `Dst` is shared between threads only when the request's samples are pairwise
// disjoint in the buffer, so no two threads write the same byte; every write is bounds-checked.
unsafe impl Send for Dst<'_> {}
// SAFETY: as above.
unsafe impl Sync for Dst<'_> {}

impl<'a> Dst<'a> {
    /// The caller's buffer, borrowed for as long as the copies last.
    pub(crate) fn new(buf: &'a mut [u8]) -> Self {
        Dst { ptr: buf.as_mut_ptr(), len: buf.len(), _buf: PhantomData }
    }

    /// Bytes `at..at + len` of the buffer, when they lie inside it and `at` is 8-byte aligned
    /// (as OpenZL's numeric outputs require), for a frame to be decoded straight into.
    ///
    /// # Safety
    /// While the slice lives nothing else reads or writes those bytes (a frame's own samples:
    /// see the Send/Sync note).
    pub(crate) unsafe fn region(&self, at: usize, len: usize) -> Option<&'a mut [u8]> {
        let inside = at.checked_add(len).is_some_and(|e| e <= self.len);
        // SAFETY: `at` is inside the buffer (checked) and the pointer is only inspected.
        let aligned = inside && unsafe { self.ptr.add(at) } as usize % 8 == 0;
        // SAFETY: inside the caller's buffer (checked); exclusive by the contract.
        aligned.then(|| unsafe { std::slice::from_raw_parts_mut(self.ptr.add(at), len) })
    }

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
        self.check(frame, &g)?;
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
                    1 => gather::<u8>(src, dst, g.n, g.src.2, g.dst.2),
                    2 => gather::<u16>(src, dst, g.n, g.src.2, g.dst.2),
                    4 => gather::<u32>(src, dst, g.n, g.src.2, g.dst.2),
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

/// [`strided`], with the common de-interleaving copies (one band of a pixel-interleaved frame of
/// 2 to 4 samples per pixel into adjacent samples) compiled for their constant stride and, on
/// x86-64, for SSSE3/SSE4.1 (x86-64-v2, which OpenZL's kernels already require): the compiler
/// turns them into vector shuffles, 1.5-4x faster than the loop with the stride as a variable.
///
/// # Safety
/// As [`strided`].
unsafe fn gather<T: Copy>(src: *const u8, dst: *mut u8, n: usize, from: isize, to: isize) {
    let size = std::mem::size_of::<T>() as isize;
    let every = if to == size && from % size == 0 { from / size } else { 0 };
    // SAFETY: the same samples as `strided` copies, so in bounds by the contract.
    unsafe {
        match every {
            2 => every_kth::<T, 2>(src, dst, n),
            3 => every_kth::<T, 3>(src, dst, n),
            4 => every_kth::<T, 4>(src, dst, n),
            _ => strided::<T>(src, dst, n, from, to),
        }
    }
}

/// Copies every `K`-th sample of `T` from `src` (the first, then `K` samples on) to `n`
/// adjacent samples at `dst`, with the vector instructions the CPU has.
///
/// # Safety
/// `src` holds `(n - 1) * K + 1` samples, `dst` `n`, and they do not overlap.
unsafe fn every_kth<T: Copy, const K: usize>(src: *const u8, dst: *mut u8, n: usize) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("ssse3") && std::arch::is_x86_feature_detected!("sse4.1") {
        // SAFETY: the CPU has the features the function is compiled for; bounds by the contract.
        return unsafe { every_kth_v2::<T, K>(src, dst, n) };
    }
    // SAFETY: the caller's contract.
    unsafe { every_kth_plain::<T, K>(src, dst, n) }
}

/// [`every_kth`] compiled for SSSE3 and SSE4.1; bytes (8-bit samples) go 16 at a time through
/// byte shuffles ([`every_kth_bytes`]: 2.2-3.5x the compiler's loop, which inserts them one by
/// one; wider samples gain nothing from it).
///
/// # Safety
/// As [`every_kth`], on a CPU with SSSE3 and SSE4.1.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "ssse3,sse4.1")]
unsafe fn every_kth_v2<T: Copy, const K: usize>(src: *const u8, dst: *mut u8, n: usize) {
    // SAFETY: the caller's contract.
    unsafe {
        if std::mem::size_of::<T>() == 1 {
            every_kth_bytes::<K>(src, dst, n)
        } else {
            every_kth_plain::<T, K>(src, dst, n)
        }
    }
}

/// For output byte `o` of a 16-byte block, its byte in source block `j` (the block's `16 * K`
/// source bytes in `K` loads of 16), or 0x80 (`pshufb` writes zero) when it is in another load.
#[cfg(target_arch = "x86_64")]
const fn byte_masks<const K: usize>() -> [[u8; 16]; K] {
    let mut m = [[0x80u8; 16]; K];
    let mut o = 0;
    while o < 16 {
        m[o * K / 16][o] = (o * K % 16) as u8;
        o += 1;
    }
    m
}

/// [`every_kth`] of bytes: each 16 output bytes are `K` unaligned 16-byte loads of the source,
/// shuffled (`pshufb`) and or-ed; the loads stay within the `(n - 1) * K + 1` source bytes the
/// contract grants, the last bytes are copied one by one.
///
/// # Safety
/// As [`every_kth`], on a CPU with SSSE3 and SSE4.1.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "ssse3,sse4.1")]
unsafe fn every_kth_bytes<const K: usize>(src: *const u8, dst: *mut u8, n: usize) {
    use std::arch::x86_64::{_mm_loadu_si128, _mm_or_si128, _mm_setzero_si128, _mm_shuffle_epi8, _mm_storeu_si128};
    let masks = const { byte_masks::<K>() };
    let granted = if n == 0 { 0 } else { (n - 1) * K + 1 };
    let mut e = 0;
    // SAFETY: block e reads source bytes e * K .. (e + 16) * K, all below `granted`, and writes
    // output bytes e .. e + 16 < n; the masks are 16-byte arrays; the rest as `every_kth_plain`.
    unsafe {
        while (e + 16) * K <= granted {
            let mut acc = _mm_setzero_si128();
            for (j, m) in masks.iter().enumerate() {
                let v = _mm_loadu_si128(src.add(e * K + 16 * j).cast());
                acc = _mm_or_si128(acc, _mm_shuffle_epi8(v, _mm_loadu_si128(m.as_ptr().cast())));
            }
            _mm_storeu_si128(dst.add(e).cast(), acc);
            e += 16;
        }
        every_kth_plain::<u8, K>(src.add(e * K), dst.add(e), n - e);
    }
}

/// [`every_kth`] for the baseline instruction set (inlined into [`every_kth_v2`] for its features).
///
/// # Safety
/// As [`every_kth`].
#[inline(always)]
unsafe fn every_kth_plain<T: Copy, const K: usize>(src: *const u8, dst: *mut u8, n: usize) {
    let (src, dst) = (src.cast::<T>(), dst.cast::<T>());
    for e in 0..n {
        // SAFETY: sample e * K of the source and e of the destination are in bounds by the
        // contract; unaligned because samples need not be aligned.
        unsafe { dst.add(e).write_unaligned(src.add(e * K).read_unaligned()) };
    }
}

impl Dst<'_> {
    /// Checks that the four corner samples of grid `g` (not empty) lie inside `frame` and the
    /// buffer: every sample does then, the offsets being affine in (row, sample).
    fn check(&self, frame: &[u8], g: &Grid) -> Result<()> {
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
        Ok(())
    }

    /// Copies the four grids of one pixel-interleaved frame's four bands at once when they are
    /// its consecutive samples (a frame of 4 samples per pixel: NAIP's and Sentinel-2's units
    /// 2), 8- or 16-bit, each into adjacent output samples of its own, non-overlapping stretch of
    /// the buffer; false (nothing copied) otherwise, or without SSSE3/SSE4.1. Each pixel is read
    /// once instead of once per band ([`pixels4`]).
    fn put_pixels(&self, frame: &[u8], grids: &[Grid]) -> Result<bool> {
        #[cfg(target_arch = "x86_64")]
        {
            let [g0, ..] = grids else { return Ok(false) };
            let w = g0.bps as isize;
            let fits = grids.len() == 4
                && matches!(g0.bps, 1 | 2)
                && g0.rows > 0
                && g0.n > 0
                && grids.iter().enumerate().all(|(b, g)| {
                    (g.rows, g.n, g.bps, g.src.1, g.src.2, g.dst.2) == (g0.rows, g0.n, g0.bps, g0.src.1, 4 * w, w)
                        && g.src.0 == g0.src.0 + b as isize * w
                });
            let simd = std::arch::is_x86_feature_detected!("ssse3") && std::arch::is_x86_feature_detected!("sse4.1");
            if !(fits && simd) {
                return Ok(false);
            }
            for g in grids {
                self.check(frame, g)?;
            }
            // the four destinations' byte spans (first to last sample) must not overlap, so that
            // writing them together leaves what writing them one after another would
            let span = |g: &Grid| {
                let ends = [g.dst.0, g.dst.0 + (g.rows as isize - 1) * g.dst.1];
                (ends[0].min(ends[1]), ends[0].max(ends[1]) + g.n as isize * w)
            };
            let spans: Vec<(isize, isize)> = grids.iter().map(span).collect();
            if spans.iter().enumerate().any(|(i, a)| spans[i + 1..].iter().any(|b| a.0 < b.1 && b.0 < a.1)) {
                return Ok(false);
            }
            for k in 0..g0.rows as isize {
                // SAFETY: the corners of the four grids are checked, so each row's n pixels of 4
                // samples (band 0's first sample to band 3's last) lie in the frame and each
                // band's n samples in the buffer; the destinations do not overlap (see the
                // Send/Sync note for other threads); the CPU has SSSE3 and SSE4.1 (checked).
                unsafe {
                    let src = frame.as_ptr().offset(g0.src.0 + k * g0.src.1);
                    let to = [0, 1, 2, 3].map(|b| self.ptr.offset(grids[b].dst.0 + k * grids[b].dst.1));
                    if w == 1 {
                        pixels4::<1>(src, to, g0.n);
                    } else {
                        pixels4::<2>(src, to, g0.n);
                    }
                }
            }
            Ok(true)
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (frame, grids);
            Ok(false)
        }
    }
}

/// Splits `n` pixels of 4 samples of `W` bytes (1 or 2) at `src` into 4 runs of `n` samples at
/// `dst`: 64 source bytes at a time, each 16-byte load shuffled so that each band's samples form
/// one 32-bit lane (`pshufb`), the four loads' lanes then transposed (`unpack`); the last pixels
/// one by one.
///
/// # Safety
/// `src` holds `4 * n * W` bytes, each `dst[b]` `n * W`; none of them overlap; the CPU has
/// SSSE3 and SSE4.1.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "ssse3,sse4.1")]
unsafe fn pixels4<const W: usize>(src: *const u8, dst: [*mut u8; 4], n: usize) {
    use std::arch::x86_64::{
        _mm_loadu_si128, _mm_shuffle_epi8, _mm_storeu_si128, _mm_unpackhi_epi32, _mm_unpackhi_epi64,
        _mm_unpacklo_epi32, _mm_unpacklo_epi64,
    };
    const BYTES: [u8; 16] = [0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15];
    const WORDS: [u8; 16] = [0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15];
    let per = 16 / W;
    let mut e = 0;
    // SAFETY: block e reads source bytes 4 * W * e .. 4 * W * (e + per) and writes bytes
    // W * e .. W * (e + per) of each destination, all inside by the contract (e + per <= n).
    unsafe {
        let m = _mm_loadu_si128(if W == 1 { BYTES.as_ptr() } else { WORDS.as_ptr() }.cast());
        while e + per <= n {
            let s = src.add(4 * W * e);
            let a = [0, 16, 32, 48].map(|o| _mm_shuffle_epi8(_mm_loadu_si128(s.add(o).cast()), m));
            let (t0, t1) = (_mm_unpacklo_epi32(a[0], a[1]), _mm_unpackhi_epi32(a[0], a[1]));
            let (t2, t3) = (_mm_unpacklo_epi32(a[2], a[3]), _mm_unpackhi_epi32(a[2], a[3]));
            _mm_storeu_si128(dst[0].add(W * e).cast(), _mm_unpacklo_epi64(t0, t2));
            _mm_storeu_si128(dst[1].add(W * e).cast(), _mm_unpackhi_epi64(t0, t2));
            _mm_storeu_si128(dst[2].add(W * e).cast(), _mm_unpacklo_epi64(t1, t3));
            _mm_storeu_si128(dst[3].add(W * e).cast(), _mm_unpackhi_epi64(t1, t3));
            e += per;
        }
        for e in e..n {
            for (b, d) in dst.iter().enumerate() {
                std::ptr::copy_nonoverlapping(src.add(W * (4 * e + b)), d.add(W * e), W);
            }
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The de-interleaving kernels (constant strides 2-4, vector instructions) copy exactly what
    /// the plain strided loop copies, for every sample width and row length, and write nothing
    /// past the row.
    #[test]
    fn every_kth_copies_what_the_strided_loop_copies() {
        fn check<T: Copy>(k: usize) {
            let size = std::mem::size_of::<T>();
            for n in [0usize, 1, 2, 15, 16, 17, 33, 255, 256, 300] {
                let len = (n.max(1) - 1) * k + 1;
                let src: Vec<u8> = (0..(len + 3) * size).map(|i| (i * 31 + 7) as u8).collect();
                let (mut a, mut b) = (vec![0xAAu8; (n + 2) * size], vec![0xAAu8; (n + 2) * size]);
                let (from, to) = ((k * size) as isize, size as isize);
                // SAFETY: `src` holds (n - 1) * k + 1 samples of T from its start, `a` and `b` n + 2
                unsafe {
                    gather::<T>(src.as_ptr(), a.as_mut_ptr(), n, from, to);
                    strided::<T>(src.as_ptr(), b.as_mut_ptr(), n, from, to);
                }
                assert_eq!(a, b, "{size}-byte samples, every {k}th, {n} of them");
                assert!(a[n * size..].iter().all(|&v| v == 0xAA));
            }
        }
        for k in 1..=5 {
            check::<u8>(k);
            check::<u16>(k);
            check::<u32>(k);
        }
    }

    /// The four bands of a pixel-interleaved frame copied together give what four grid copies
    /// give, for 8- and 16-bit samples, rows of 1-40 pixels (the vector blocks and the tail),
    /// rows read backwards; bands out of order, or destinations that overlap, are left to the
    /// grid copies.
    #[test]
    fn four_bands_at_once_copy_what_four_grids_copy() {
        for w in [1usize, 2] {
            for n in [1usize, 7, 8, 15, 16, 17, 33, 40] {
                for rows in [1usize, 3] {
                    let row_bytes = (n + 3) * 4 * w;
                    let frame: Vec<u8> = (0..rows * row_bytes + 64).map(|i| (i * 37 + 11) as u8).collect();
                    let plane = (rows * n * w) as isize;
                    let grid = |b: usize, backwards: bool| Grid {
                        rows,
                        n,
                        bps: w,
                        src: (((3 * 4 + b) * w) as isize, row_bytes as isize, (4 * w) as isize),
                        dst: if backwards {
                            (
                                b as isize * plane + (rows as isize - 1) * (n * w) as isize,
                                -((n * w) as isize),
                                w as isize,
                            )
                        } else {
                            (b as isize * plane, (n * w) as isize, w as isize)
                        },
                    };
                    for backwards in [false, true] {
                        let grids: Vec<Grid> = (0..4).map(|b| grid(b, backwards)).collect();
                        let (mut a, mut b) = (vec![0u8; 4 * plane as usize], vec![0u8; 4 * plane as usize]);
                        let together = Dst::new(&mut a).put_pixels(&frame, &grids).unwrap();
                        #[cfg(target_arch = "x86_64")]
                        assert_eq!(together, std::is_x86_feature_detected!("ssse3"));
                        if !together {
                            continue;
                        }
                        for g in &grids {
                            Dst::new(&mut b).put_grid(&frame, *g).unwrap();
                        }
                        assert_eq!(a, b, "{w}-byte samples, {n} pixels, {rows} rows, backwards {backwards}");
                    }
                    let swapped: Vec<Grid> = [1, 0, 2, 3].iter().map(|&b| grid(b, false)).collect();
                    let mut a = vec![0u8; 4 * plane as usize];
                    assert!(!Dst::new(&mut a).put_pixels(&frame, &swapped).unwrap());
                    let mut overlapping: Vec<Grid> = (0..4).map(|b| grid(b, false)).collect();
                    overlapping[3].dst.0 = overlapping[2].dst.0;
                    assert!(!Dst::new(&mut a).put_pixels(&frame, &overlapping).unwrap());
                    let mut outside: Vec<Grid> = (0..4).map(|b| grid(b, false)).collect();
                    outside[3].dst.0 = 4 * plane;
                    let before = a.clone();
                    assert!(Dst::new(&mut a).put_pixels(&frame, &outside).is_err() || !cfg!(target_arch = "x86_64"));
                    assert_eq!(a, before, "nothing is written when a grid falls outside");
                }
            }
        }
    }

    /// A grid copy gathers strided samples (here band 1 of a 2x3 pixel-interleaved frame of
    /// u16, written backwards) and refuses, writing nothing, a grid whose far corner is outside.
    #[test]
    fn grid_copies_strided_samples_and_checks_corners() {
        let frame: Vec<u8> = (0u16..12).flat_map(|v| (v * 257).to_le_bytes()).collect();
        let mut out = vec![0u8; 12];
        let g = Grid { rows: 2, n: 3, bps: 2, src: (2, 12, 4), dst: (10, -6, -2) };
        Dst::new(&mut out).put_grid(&frame, g).unwrap();
        let got: Vec<u16> = out.chunks(2).map(|c| u16::from_le_bytes([c[0], c[1]])).collect();
        assert_eq!(got, [11 * 257, 9 * 257, 7 * 257, 5 * 257, 3 * 257, 257]);
        let mut out = vec![0u8; 12];
        let g = Grid { rows: 2, n: 3, bps: 2, src: (2, 12, 4), dst: (0, 6, 3) };
        let err = Dst::new(&mut out).put_grid(&frame, g).unwrap_err();
        assert_eq!(
            err.to_string(),
            "invalid request: 2 rows of 3 samples of 2 bytes fall outside the 24-byte frame or the 12-byte buffer"
        );
        assert!(out.iter().all(|&b| b == 0));
    }
}
