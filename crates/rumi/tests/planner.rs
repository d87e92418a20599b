//! The read path (`read/`) against a naive reference: decode every frame of a file
//! written by our writer into a full `[t][b][y][x]` array with the layout's own arithmetic,
//! then check every sample a random request writes (start/count/step per axis, negative steps
//! and spacings, arbitrary plane lists), that the bytes it does not address are untouched,
//! that each needed frame is fetched and decoded once, in one merged batch, and that a repeat
//! is served from the decoded-frame cache (except frames the request read whole).

mod common;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use common::*;
use proptest::prelude::*;
use rumi::format::{FrameUnit, SampleEncoding};
use rumi::read::frames;
use rumi::RangeRead;
use rumi::Reader;
use rumi::{Axis, Limits, Output, Plane, Request};

/// A source counting `read_ranges` calls and ranges.
struct Counting {
    bytes: Vec<u8>,
    calls: AtomicU64,
    ranges: AtomicU64,
    /// stands for a source whose requests are round trips (HTTP, object storage)
    remote: bool,
}

impl Counting {
    fn new(bytes: Vec<u8>) -> Self {
        Counting { bytes, calls: AtomicU64::new(0), ranges: AtomicU64::new(0), remote: false }
    }
}

impl RangeRead for Counting {
    fn read_at(&self, offset: u64, len: usize) -> std::io::Result<Vec<u8>> {
        self.bytes.read_at(offset, len)
    }
    fn read_ranges(&self, ranges: &[(u64, usize)]) -> std::io::Result<Vec<Vec<u8>>> {
        self.calls.fetch_add(1, Ordering::Relaxed);
        self.ranges.fetch_add(ranges.len() as u64, Ordering::Relaxed);
        ranges.iter().map(|&(o, l)| self.bytes.read_at(o, l)).collect()
    }
    fn size(&self) -> std::io::Result<u64> {
        Ok(self.bytes.len() as u64)
    }
    fn latency_bound(&self) -> bool {
        self.remote
    }
}

/// Every sample of the file as `[t][b][y][x]`, decoded frame by frame with the layout's own
/// frame positions and strides.
fn reference<R: RangeRead>(r: &Reader<R>) -> Vec<u8> {
    let l = *r.layout();
    let bps = l.encoding.decoded_bytes();
    let (nb, nt) = (u32::from(l.bands), l.times);
    let mut full = vec![0u8; nt as usize * nb as usize * l.length as usize * l.width as usize * bps];
    for f in 0..r.frame_count() {
        let frame = decoded_frame(r, f).unwrap();
        let (row, col, fb, ft) = l.frame_position(f);
        let (h, w) = l.tile_dims(row, col);
        let s = l.frame_strides(h, w);
        let pairs: Vec<(u32, u32)> = if l.frame_unit.is_tile() {
            vec![(fb, ft)]
        } else {
            (0..nt).flat_map(|t| (0..nb).map(move |b| (b, t))).collect()
        };
        for (b, t) in pairs {
            for y in 0..h {
                for x in 0..w {
                    let si = (b as usize * s.b + t as usize * s.t + y as usize * s.y + x as usize * s.x) * bps;
                    let (gy, gx) = (row * u32::from(l.tile_length) + y, col * u32::from(l.tile_width) + x);
                    let di = (((t * nb + b) as usize * l.length as usize + gy as usize) * l.width as usize
                        + gx as usize)
                        * bps;
                    full[di..di + bps].copy_from_slice(&frame.as_bytes()[si..si + bps]);
                }
            }
        }
    }
    full
}

/// A random axis over `0..len`: start, count >= 1, step in -3..=3 (0 only for one position).
fn axis(len: u32) -> impl Strategy<Value = (u32, u32, i64)> {
    (0..len, -3i64..=3, 1u32..40).prop_map(move |(start, step, want)| {
        let step = if step == 0 && want > 1 { 1 } else { step };
        // the largest count that stays inside 0..len
        let room = match step {
            0 => 1,
            s if s > 0 => (len - 1 - start) / s as u32 + 1,
            s => start / (-s) as u32 + 1,
        };
        (start, want.min(room), step)
    })
}

#[derive(Debug, Clone)]
struct Case {
    width: u32,
    length: u32,
    bands: u16,
    times: u32,
    tile: (u16, u16),
    unit: u16,
    encoding: SampleEncoding,
    rows: (u32, u32, i64),
    cols: (u32, u32, i64),
    planes: Vec<(u32, u32)>,
    /// output axis order (0 = planes, 1 = rows, 2 = cols), innermost last
    order: [usize; 3],
    /// which of planes / rows / cols run backwards in the buffer
    flip: [bool; 3],
    gap: usize,
    threads: usize,
}

fn cases() -> impl Strategy<Value = Case> {
    let shape = (
        1u32..90,
        1u32..90,
        1u16..4,
        1u32..4,
        8u16..40,
        8u16..40,
        prop::sample::select(vec![0usize, 1, 2, 6, 10, 11, 17]),
    );
    (shape, any::<prop::sample::Index>()).prop_flat_map(|((width, length, bands, times, tw, tl, e), unit)| {
        let units = FrameUnit::valid_for(u32::from(bands), times);
        let unit = units[unit.index(units.len())].value().into();
        let encoding = SampleEncoding::ALL[e];
        (
            axis(length),
            axis(width),
            prop::collection::vec((0..u32::from(bands), 0..times), 1..6),
            prop::sample::select(vec![[0, 1, 2], [1, 2, 0], [1, 0, 2], [2, 1, 0]]),
            any::<[bool; 3]>(),
            0usize..2,
            prop::sample::select(vec![1usize, 2]),
        )
            .prop_map(move |(rows, cols, planes, order, flip, gap, threads)| Case {
                width,
                length,
                bands,
                times,
                tile: (tw, tl),
                unit,
                encoding,
                rows,
                cols,
                planes,
                order,
                flip,
                gap,
                threads,
            })
    })
}

/// The request for `case` and the buffer size and origin it needs: dense strides in the
/// case's axis order (with `gap` unused samples after each innermost run), flipped axes
/// running backwards from the far end.
fn request(case: &Case, bps: usize) -> (Request, usize, usize) {
    let counts = [case.planes.len(), case.rows.1 as usize, case.cols.1 as usize];
    let mut stride = [0usize; 3];
    let mut acc = bps;
    for (k, &a) in case.order.iter().rev().enumerate() {
        stride[a] = acc;
        acc *= counts[a];
        if k == 0 {
            acc += case.gap * bps;
        }
    }
    let total = acc * if case.gap > 0 { 2 } else { 1 };
    let mut origin = 0usize;
    let mut signed = [0isize; 3];
    for a in 0..3 {
        signed[a] = stride[a] as isize;
        if case.flip[a] {
            origin += (counts[a] - 1) * stride[a];
            signed[a] = -signed[a];
        }
    }
    let planes = case
        .planes
        .iter()
        .enumerate()
        .map(|(p, &(band, time))| Plane { band, time, offset: p as isize * signed[0] })
        .collect();
    let ax = |(start, count, step): (u32, u32, i64), spacing| Axis { start, count, step, spacing };
    let req =
        Request { planes, rows: ax(case.rows, signed[1]), cols: ax(case.cols, signed[2]), output: Output::Native };
    (req, total.max(origin + bps), origin)
}

fn check(case: &Case) -> Result<(), TestCaseError> {
    let spec = spec(case.encoding, case.width, case.length, case.bands, case.times, case.tile, case.unit, utm());
    let l = spec.layout().unwrap();
    let bps = l.encoding.decoded_bytes();
    let n = case.times as usize * usize::from(case.bands) * case.length as usize * case.width as usize;
    let (file, _) = write(spec, &samples(case.encoding, n, 7));
    let src = Arc::new(Counting::new(file));
    let r = Reader::open(Arc::clone(&src), Limits::default()).unwrap();
    let full = reference(&r);
    let (req, size, origin) = request(case, bps);
    let mut dst = vec![0xA5u8; size];
    let (calls0, ranges0) = (src.calls.load(Ordering::Relaxed), src.ranges.load(Ordering::Relaxed));
    r.set_cache_bytes(0);
    let stats = r.read(&req, &mut dst, origin, case.threads).unwrap();
    let mut written = vec![false; size];
    for (p, plane) in req.planes.iter().enumerate() {
        for i in 0..req.rows.count {
            for j in 0..req.cols.count {
                let y = (i64::from(req.rows.start) + i64::from(i) * req.rows.step) as usize;
                let x = (i64::from(req.cols.start) + i64::from(j) * req.cols.step) as usize;
                let si = (((plane.time * u32::from(l.bands) + plane.band) as usize * l.length as usize + y)
                    * l.width as usize
                    + x)
                    * bps;
                let at =
                    (origin as isize + plane.offset + i as isize * req.rows.spacing + j as isize * req.cols.spacing)
                        as usize;
                prop_assert_eq!(&dst[at..at + bps], &full[si..si + bps], "plane {} row pos {} col pos {}", p, i, j);
                written[at..at + bps].iter_mut().for_each(|w| *w = true);
            }
        }
    }
    for (k, w) in written.iter().enumerate() {
        prop_assert!(*w || dst[k] == 0xA5, "byte {} not addressed by the request was overwritten", k);
    }
    // each distinct frame once, fetched in one read_ranges call (the files are far below BATCH_BYTES)
    let want = frames(&l, &req);
    let mut distinct = want.clone();
    distinct.dedup();
    prop_assert_eq!(&want, &distinct);
    prop_assert_eq!(stats.frames, want.len() as u64);
    prop_assert_eq!(stats.decoded, want.len() as u64);
    prop_assert_eq!(src.calls.load(Ordering::Relaxed) - calls0, u64::from(!want.is_empty()));
    prop_assert_eq!(src.ranges.load(Ordering::Relaxed) - ranges0, want.len() as u64);
    // with a cache, a repeat of a request larger than a quarter of the budget decodes only the
    // frames whose every sample it read (those are not kept: nothing of them is left for a
    // later read); one within a quarter is kept whole and decodes nothing the second time
    let mut wanted = std::collections::HashSet::new();
    for plane in &req.planes {
        for i in 0..req.rows.count {
            for j in 0..req.cols.count {
                let y = (i64::from(req.rows.start) + i64::from(i) * req.rows.step) as u32;
                let x = (i64::from(req.cols.start) + i64::from(j) * req.cols.step) as u32;
                wanted.insert((plane.band, plane.time, y, x));
            }
        }
    }
    let consumed = want
        .iter()
        .filter(|&&f| {
            let (row, col, fb, ft) = l.frame_position(f);
            let (h, w) = l.tile_dims(row, col);
            let pairs: Vec<(u32, u32)> = if l.frame_unit.is_tile() {
                vec![(fb, ft)]
            } else {
                (0..l.times).flat_map(|t| (0..u32::from(l.bands)).map(move |b| (b, t))).collect()
            };
            let (y0, x0) = (row * u32::from(l.tile_length), col * u32::from(l.tile_width));
            pairs.iter().all(|&(b, t)| (y0..y0 + h).all(|y| (x0..x0 + w).all(|x| wanted.contains(&(b, t, y, x)))))
        })
        .count() as u64;
    let total: u64 = want.iter().map(|&f| l.decoded_frame_bytes(f)).sum();
    r.set_cache_bytes((4 * total).saturating_sub(1));
    r.read(&req, &mut dst, origin, case.threads).unwrap();
    let mut again = vec![0xA5u8; size];
    let stats = r.read(&req, &mut again, origin, case.threads).unwrap();
    prop_assert_eq!(stats.cache_hits, want.len() as u64 - consumed);
    prop_assert_eq!(stats.decoded, consumed);
    prop_assert!(again == dst, "cached read differs from the decoded read");
    r.set_cache_bytes(4 * total);
    r.read(&req, &mut again, origin, case.threads).unwrap();
    let mut third = vec![0xA5u8; size];
    let stats = r.read(&req, &mut third, origin, case.threads).unwrap();
    prop_assert_eq!((stats.cache_hits, stats.decoded), (want.len() as u64, 0));
    prop_assert!(third == dst, "cached read differs from the decoded read");
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]
    #[test]
    fn planner_matches_the_naive_reference(case in cases()) {
        check(&case)?;
    }
}

/// The spec's selective-read example: T=3, B=4, 1024x1024, 256x256 tiles, frame_unit 0; t=2,
/// bands 1 and 3, y 512..768, x 256..512 needs frames 113 and 119 only.
#[test]
fn spec_example_reads_two_frames() {
    let spec = spec(SampleEncoding::U8, 1024, 1024, 4, 3, (256, 256), 0, utm());
    let (file, _) = write(spec, &samples(SampleEncoding::U8, 3 * 4 * 1024 * 1024, 3));
    let r = Reader::open(file, Limits::default()).unwrap();
    let req = Request::dense(&[2], &[1, 3], 512..768, 256..512, 1);
    assert_eq!(frames(r.layout(), &req), vec![113, 119]);
    let mut out = vec![0u8; 2 * 256 * 256];
    let stats = r.read(&req, &mut out, 0, 1).unwrap();
    assert_eq!((stats.frames, stats.decoded, stats.batches), (2, 2, 1));
}

/// Requests the buffer cannot hold, or outside the raster, fail with the reason and write nothing.
#[test]
fn bad_requests_are_refused() {
    let spec = spec(SampleEncoding::U16, 40, 30, 2, 1, (16, 16), 1, utm());
    let (file, _) = write(spec, &samples(SampleEncoding::U16, 2 * 40 * 30, 1));
    let r = Reader::open(file, Limits::default()).unwrap();
    let mut out = vec![0u8; 2 * 30 * 40 * 2];
    let req = Request::dense(&[0], &[0, 1], 0..30, 0..40, 2);
    assert!(r.read(&req, &mut out, 0, 1).is_ok());
    let err = |req: &Request, origin: usize, out: &mut Vec<u8>| r.read(req, out, origin, 1).unwrap_err().to_string();
    assert!(err(&req, 1, &mut out).contains("spans bytes 0..4800 around byte 1 of a 4800-byte buffer"));
    let mut short = vec![0u8; 100];
    assert!(err(&req, 0, &mut short).contains("of a 100-byte buffer"));
    let outside = Request::dense(&[0], &[2], 0..30, 0..40, 2);
    assert!(err(&outside, 0, &mut out).contains("band 2 at time 0 is outside B = 2, T = 1"));
    let mut backwards = req.clone();
    backwards.rows = Axis { start: 5, count: 7, step: -1, spacing: 80 };
    assert!(err(&backwards, 0, &mut out).contains("rows: start 5 + 6 steps of -1 leaves 0..30"));
    let mut promote = req.clone();
    promote.output = Output::Float32;
    assert!(err(&promote, 0, &mut out).contains("uint16 samples cannot be promoted to float32"));
    let mut tight = req;
    tight.cols.spacing = 1;
    assert!(err(&tight, 0, &mut out).contains("at least the sample size (2 bytes)"));
}

/// `read_batch`: chips of two files (three bands, and one band of another sample type) into
/// two buffers, on one and two threads, equal the same windows read one by one; chips sharing a
/// frame decode it once (the reader's cache serves the second); overlapping places and an
/// invalid request are errors before anything is written.
#[test]
fn read_batch_equals_the_reads_one_by_one() {
    use rumi::read::{read_batch, BatchRead};
    use rumi::Window;
    let (w, h) = (300u32, 260u32);
    let a_spec = spec(SampleEncoding::U16, w, h, 3, 1, (128, 128), 1, utm());
    let b_spec = spec(SampleEncoding::U8, w, h, 1, 1, (128, 128), 0, utm());
    let (a_bytes, _) = write(a_spec, &samples(SampleEncoding::U16, 3 * (w * h) as usize, 1));
    let (b_bytes, _) = write(b_spec, &samples(SampleEncoding::U8, (w * h) as usize, 2));
    // chips of 64 x 64 at (row, col); the first two share frame (0, 0)
    let chips = [(3u32, 5u32), (40, 50), (130, 200), (196, 236), (100, 100)];
    let (cw, ch) = (64u32, 64u32);
    for threads in [1usize, 2] {
        let a = Reader::open(a_bytes.clone(), Limits::default()).unwrap();
        let b = Reader::open(b_bytes.clone(), Limits::default()).unwrap();
        let (ia, ib) = ((3 * cw * ch * 2) as usize, (cw * ch) as usize);
        let mut img = vec![0u8; chips.len() * ia];
        let mut mask = vec![0u8; chips.len() * ib];
        let mut reads = Vec::new();
        for (k, &(r0, c0)) in chips.iter().enumerate() {
            reads.push(BatchRead {
                reader: &a,
                req: Request::dense(&[0], &[0, 1, 2], r0..r0 + ch, c0..c0 + cw, 2),
                out: 0,
                origin: k * ia,
            });
            reads.push(BatchRead {
                reader: &b,
                req: Request::dense(&[0], &[0], r0..r0 + ch, c0..c0 + cw, 1),
                out: 1,
                origin: k * ib,
            });
        }
        let stats = read_batch(&reads, &mut [&mut img[..], &mut mask[..]], threads).unwrap();
        let (fa, fb) = (
            Reader::open(a_bytes.clone(), Limits::default()).unwrap(),
            Reader::open(b_bytes.clone(), Limits::default()).unwrap(),
        );
        let mut needed = std::collections::BTreeSet::new();
        for (k, &(r0, c0)) in chips.iter().enumerate() {
            let win = |bands: Vec<u32>| Window { times: 0..1, bands, rows: r0..r0 + ch, cols: c0..c0 + cw };
            let mut want = vec![0u8; ia];
            fa.read_window(&win(vec![0, 1, 2]), &mut want).unwrap();
            assert_eq!(&img[k * ia..(k + 1) * ia], &want[..], "image chip {k}, {threads} thread(s)");
            let mut want = vec![0u8; ib];
            fb.read_window(&win(vec![0]), &mut want).unwrap();
            assert_eq!(&mask[k * ib..(k + 1) * ib], &want[..], "mask chip {k}, {threads} thread(s)");
            for f in fa.frames_for(&win(vec![0, 1, 2])).unwrap() {
                needed.insert((0, f));
            }
            for f in fb.frames_for(&win(vec![0])).unwrap() {
                needed.insert((1, f));
            }
        }
        assert_eq!(stats.decoded, needed.len() as u64, "each frame decoded once ({threads} thread(s))");
        assert_eq!(stats.decoded + stats.cache_hits, stats.frames);
        // two chips onto the same bytes; a window past the raster: errors, nothing written
        let mut buf = vec![7u8; 2 * ib];
        let overlap = [
            BatchRead { reader: &b, req: Request::dense(&[0], &[0], 0..ch, 0..cw, 1), out: 0, origin: 0 },
            BatchRead { reader: &b, req: Request::dense(&[0], &[0], 0..ch, 0..cw, 1), out: 0, origin: ib / 2 },
        ];
        let e = read_batch(&overlap, &mut [&mut buf[..]], threads).unwrap_err().to_string();
        assert!(e.contains("reads 0 and 1 of the batch write the same bytes of buffer 0"), "{e}");
        let outside = [
            BatchRead { reader: &b, req: Request::dense(&[0], &[0], 0..ch, 0..cw, 1), out: 0, origin: 0 },
            BatchRead {
                reader: &b,
                req: Request::dense(&[0], &[0], h - 10..h - 10 + ch, 0..cw, 1),
                out: 0,
                origin: ib,
            },
        ];
        let e = read_batch(&outside, &mut [&mut buf[..]], threads).unwrap_err().to_string();
        assert!(e.contains("rows"), "{e}");
        assert!(buf.iter().all(|&v| v == 7), "nothing written");
    }
}

/// A read on a pool: the calling thread fetches while the pool decodes, in batches growing from
/// `FIRST_BATCH_BYTES` (so that decoding starts after the first megabyte); the pixels equal the
/// one-thread read, each frame is decoded once, one `read_ranges` call per batch, and of two
/// corrupt frames in different batches the first in index order is the one reported.
#[test]
fn a_pooled_read_decodes_while_it_fetches() {
    use rumi::read::FIRST_BATCH_BYTES;
    let (w, h) = (2048u32, 2048u32);
    let spec = spec(SampleEncoding::U16, w, h, 1, 1, (128, 128), 0, utm());
    let (bytes, _) = write(spec, &samples(SampleEncoding::U16, (w * h) as usize, 5));
    let req = Request::dense(&[0], &[0], 0..h, 0..w, 2);
    let read = |bytes: &[u8], threads: usize| {
        let src = Counting::new(bytes.to_vec());
        let r = Reader::open(src, Limits::default()).unwrap();
        let mut out = vec![0u8; (w * h * 2) as usize];
        let res = r.read(&req, &mut out, 0, threads);
        (res, out, r.source().calls.load(Ordering::Relaxed), r)
    };
    let (one, want, calls1, r) = read(&bytes, 1);
    let one = one.unwrap();
    assert_eq!((one.decoded, one.batches, calls1), (256, 1, 1));
    let (first, last) = (r.frame_range(0).unwrap(), r.frame_range(255).unwrap());
    assert!(last.0 + last.1 - first.0 > 3 * FIRST_BATCH_BYTES, "the frames span more than three first batches");
    let (two, got, calls2, _) = read(&bytes, 2);
    let two = two.unwrap();
    assert!(got == want, "2 threads read the same pixels");
    assert_eq!(two.decoded, 256, "each frame decoded once");
    assert!(two.batches >= 3 && two.batches == calls2, "{two:?}, {calls2} read_ranges calls");
    // corrupt frame 200 (a later batch), then frame 100 (the second batch)
    let mut bad = bytes.clone();
    for f in [200u64, 100] {
        let (offset, len) = r.frame_range(f).unwrap();
        let mid = (offset + len / 2) as usize;
        for b in &mut bad[mid..mid + 16] {
            *b ^= 0xa5;
        }
    }
    for threads in [1, 2] {
        let e = read(&bad, threads).0.unwrap_err().to_string();
        assert!(e.starts_with("frame 100:"), "{threads} thread(s): {e}");
    }
    // corrupt neighbours decoded side by side: a later frame failing first must not stop an
    // earlier one's job (CI once reported frame 1 of a file whose frames 0 and 1 were corrupt)
    for f in 101u64..140 {
        let (offset, len) = r.frame_range(f).unwrap();
        let mid = (offset + len / 2) as usize;
        for b in &mut bad[mid..mid + 16] {
            *b ^= 0xa5;
        }
    }
    for round in 0..40 {
        let e = read(&bad, 2).0.unwrap_err().to_string();
        assert!(e.starts_with("frame 100:"), "round {round}: {e}");
    }
    // a source whose requests are round trips (HTTP, object storage) gets one request
    let src = Counting { remote: true, ..Counting::new(bytes.clone()) };
    let r = Reader::open(src, Limits::default()).unwrap();
    let mut out = vec![0u8; (w * h * 2) as usize];
    let stats = r.read(&req, &mut out, 0, 2).unwrap();
    assert!(out == want, "the remote source's pixels");
    assert_eq!((stats.decoded, stats.batches, r.source().calls.load(Ordering::Relaxed)), (256, 1, 1));
}

/// The frame unit from a sample: bands that share their texture (here the same noise, each
/// band with its own offset and a little noise of its own: only the band difference predicts it) get pixel-interleaved cells;
/// independent bands keep the band-planar unit; cubes, one band and 32-bit samples are not
/// sampled.
#[test]
fn frame_unit_from_a_sampled_tile_row() {
    let (w, h, b) = (256usize, 128usize, 3usize);
    let noise = samples(SampleEncoding::U8, w * h, 9);
    let own = samples(SampleEncoding::U8, b * w * h, 5);
    let shared: Vec<u8> =
        (0..b * w * h).map(|i| noise[i % (w * h)].wrapping_add(40 * (i / (w * h)) as u8 + own[i] % 3)).collect();
    let independent = samples(SampleEncoding::U8, b * w * h, 3);
    let s = spec(SampleEncoding::U8, w as u32, h as u32, b as u16, 1, (128, 128), 1, utm());
    let g = rumi::Graph::Auto(6);
    assert_eq!(rumi::frame_unit_from_sample(&s, g, 0, &shared).unwrap(), 2);
    assert_eq!(rumi::frame_unit_from_sample(&s, g, 0, &independent).unwrap(), 1);
    // not sampled: a cube, one band, 32-bit samples (the spec's unit comes back, no data read)
    let cube = spec(SampleEncoding::U8, w as u32, h as u32, b as u16, 2, (128, 128), 4, utm());
    assert_eq!(rumi::frame_unit_from_sample(&cube, g, 0, &[]).unwrap(), 4);
    let one = spec(SampleEncoding::U8, w as u32, h as u32, 1, 1, (128, 128), 0, utm());
    assert_eq!(rumi::frame_unit_from_sample(&one, g, 0, &[]).unwrap(), 0);
    let wide = spec(SampleEncoding::F32, w as u32, h as u32, b as u16, 1, (128, 128), 1, utm());
    assert_eq!(rumi::frame_unit_from_sample(&wide, g, 0, &[]).unwrap(), 1);
    // a sample that is not whole tile rows is an error naming it
    let e = rumi::frame_unit_from_sample(&s, g, 0, &shared[..10]).unwrap_err().to_string();
    assert!(e.contains("not whole pixel rows"), "{e}");
    // a whole image: its middle tile row is the sample (rows 0 and 2 independent, row 1 shared)
    let tall = spec(SampleEncoding::U8, w as u32, 3 * h as u32, b as u16, 1, (128, 128), 1, utm());
    let mut image = Vec::with_capacity(3 * b * w * h);
    for band in 0..b {
        for part in [&independent, &shared, &independent] {
            image.extend_from_slice(&part[band * w * h..(band + 1) * w * h]);
        }
    }
    assert_eq!(rumi::frame_unit_from_image(&tall, g, &image).unwrap(), 2);
    let mut flipped = Vec::with_capacity(3 * b * w * h);
    for band in 0..b {
        for part in [&shared, &independent, &shared] {
            flipped.extend_from_slice(&part[band * w * h..(band + 1) * w * h]);
        }
    }
    assert_eq!(rumi::frame_unit_from_image(&tall, g, &flipped).unwrap(), 1);
    let e = rumi::frame_unit_from_image(&tall, g, &image[1..]).unwrap_err().to_string();
    assert!(e.contains("the image has 294911 bytes; 294912 expected"), "{e}");
}

#[derive(Debug, Clone)]
struct WholeCase {
    width: u32,
    length: u32,
    bands: u16,
    times: u32,
    tile: (u16, u16),
    unit: u16,
    encoding: SampleEncoding,
    /// the tile location read, as fractions of the grid
    at: (prop::sample::Index, prop::sample::Index),
    /// the order the planes are listed in the request (their places stay the frame's)
    shuffle: u64,
    threads: usize,
}

fn whole_cases() -> impl Strategy<Value = WholeCase> {
    let shape =
        (1u32..70, 1u32..70, 1u16..4, 1u32..4, 8u16..40, 8u16..40, prop::sample::select(vec![0usize, 1, 2, 6, 10]));
    (shape, any::<prop::sample::Index>(), any::<(prop::sample::Index, prop::sample::Index)>(), any::<u64>(), 1usize..3)
        .prop_map(|((width, length, bands, times, tw, tl, e), unit, at, shuffle, threads)| {
            let units = FrameUnit::valid_for(u32::from(bands), times);
            WholeCase {
                width,
                length,
                bands,
                times,
                tile: (tw, tl),
                unit: units[unit.index(units.len())].value().into(),
                encoding: SampleEncoding::ALL[e],
                at,
                shuffle,
                threads,
            }
        })
}

/// The request that reads tile location (row, col) whole, every (band, time) pair, each sample
/// at its place in the decoded frame (the frame's own strides): the frames of that location
/// land in the buffer as they decode. Returns the request and the buffer size.
fn frame_order_request(l: &rumi::format::Layout, row: u32, col: u32, shuffle: u64) -> (Request, usize) {
    let bps = l.encoding.decoded_bytes();
    let (h, w) = l.tile_dims(row, col);
    let s = l.frame_strides(h, w);
    let plane = h as usize * w as usize;
    let mut pairs: Vec<(u32, u32)> = (0..l.times).flat_map(|t| (0..u32::from(l.bands)).map(move |b| (b, t))).collect();
    pairs.sort_by_key(|&(b, t)| (u64::from(b) * 7 + u64::from(t) * 13) ^ shuffle);
    let planes = pairs
        .iter()
        .map(|&(b, t)| {
            // tile frames: one plane each, laid out one after the other as [t][b]; a cell's
            // planes where the cell holds them
            let at = if l.frame_unit.is_tile() {
                (t as usize * usize::from(l.bands) + b as usize) * plane
            } else {
                b as usize * s.b + t as usize * s.t
            };
            Plane { band: b, time: t, offset: (at * bps) as isize }
        })
        .collect();
    let (y0, x0) = (row * u32::from(l.tile_length), col * u32::from(l.tile_width));
    let (sy, sx) = if l.frame_unit.is_tile() { (w as usize, 1) } else { (s.y, s.x) };
    let req = Request {
        planes,
        rows: Axis { start: y0, count: h, step: 1, spacing: (sy * bps) as isize },
        cols: Axis { start: x0, count: w, step: 1, spacing: (sx * bps) as isize },
        output: Output::Native,
    };
    (req, pairs.len() * plane * bps)
}

/// Checks every sample `req` wrote at `origin` of `dst` against the reference `full`.
fn same_as_reference(l: &rumi::format::Layout, req: &Request, dst: &[u8], origin: usize, full: &[u8]) -> bool {
    let bps = l.encoding.decoded_bytes();
    req.planes.iter().all(|plane| {
        (0..req.rows.count).all(|i| {
            (0..req.cols.count).all(|j| {
                let (y, x) = ((req.rows.start + i) as usize, (req.cols.start + j) as usize);
                let si = (((plane.time * u32::from(l.bands) + plane.band) as usize * l.length as usize + y)
                    * l.width as usize
                    + x)
                    * bps;
                let at =
                    (origin as isize + plane.offset + i as isize * req.rows.spacing + j as isize * req.cols.spacing)
                        as usize;
                dst[at..at + bps] == full[si..si + bps]
            })
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
    /// A request that reads frames whole in their own decoded order (a GDAL block, an aligned
    /// chip; every frame unit, with the request laid out as the frame) decodes them straight
    /// into the caller's buffer when the cache does not keep them (`stats.direct`), with the
    /// reference's samples; the same request into a place that is not 8-byte aligned (OpenZL's
    /// numeric outputs need it), or with a cache that keeps the frames, takes the scratch
    /// buffer and gives the same samples.
    #[test]
    fn whole_frames_decode_straight_into_the_buffer(case in whole_cases()) {
        let spec = spec(case.encoding, case.width, case.length, case.bands, case.times, case.tile, case.unit, utm());
        let l = spec.layout().unwrap();
        let n = case.times as usize * usize::from(case.bands) * case.length as usize * case.width as usize;
        let (file, _) = write(spec, &samples(case.encoding, n, 11));
        let r = Reader::open(file, Limits::default()).unwrap();
        let full = reference(&r);
        let (row, col) = (case.at.0.index(l.tiles_down() as usize) as u32, case.at.1.index(l.tiles_across() as usize) as u32);
        let (req, size) = frame_order_request(&l, row, col, case.shuffle);
        let want = frames(&l, &req).len() as u64;
        // u64 storage: byte 0 is 8-byte aligned, byte 1 is not
        let mut words = vec![0u64; size.div_ceil(8) + 1];
        // SAFETY: the u64 storage viewed as its bytes, for as long as `words` lives.
        let dst = unsafe { std::slice::from_raw_parts_mut(words.as_mut_ptr().cast::<u8>(), words.len() * 8) };
        // the frames whose place starts 8-byte aligned at `origin` (a tile frame's place is its
        // plane, a cell's the request's origin)
        let aligned = |origin: isize| -> u64 {
            if l.frame_unit.is_tile() {
                req.planes.iter().filter(|p| (origin + p.offset) % 8 == 0).count() as u64
            } else {
                u64::from(origin % 8 == 0)
            }
        };
        r.set_cache_bytes(0);
        let stats = r.read(&req, dst, 0, case.threads).unwrap();
        prop_assert_eq!((stats.decoded, stats.direct), (want, aligned(0)));
        prop_assert!(same_as_reference(&l, &req, dst, 0, &full));
        dst.fill(0);
        let stats = r.read(&req, dst, 1, case.threads).unwrap();
        prop_assert_eq!((stats.decoded, stats.direct), (want, aligned(1)));
        prop_assert!(same_as_reference(&l, &req, dst, 1, &full));
        r.set_cache_bytes(u64::MAX);
        dst.fill(0);
        let stats = r.read(&req, dst, 0, case.threads).unwrap();
        prop_assert_eq!((stats.decoded, stats.direct), (want, 0));
        prop_assert!(same_as_reference(&l, &req, dst, 0, &full));
        // a request missing one plane of a cell, or reading a tile frame at another spacing,
        // copies: the frame's bytes are not a run of the buffer
        let mut part = req.clone();
        if req.rows.count * req.cols.count == 1 && (l.frame_unit.is_tile() || req.planes.len() == 1) {
            return Ok(()); // one sample a frame: at any spacing its bytes are a run
        }
        if l.frame_unit.is_tile() || req.planes.len() == 1 {
            part.cols.spacing *= 2;
            part.rows.spacing *= 2;
            part.planes.iter_mut().for_each(|p| p.offset *= 2);
        } else {
            part.planes.pop();
        }
        r.set_cache_bytes(0);
        let mut big = vec![0u64; 2 * words.len()];
        // SAFETY: as above.
        let dst = unsafe { std::slice::from_raw_parts_mut(big.as_mut_ptr().cast::<u8>(), big.len() * 8) };
        let stats = r.read(&part, dst, 0, case.threads).unwrap();
        prop_assert_eq!(stats.direct, 0);
        prop_assert!(same_as_reference(&l, &part, dst, 0, &full));
    }
}

/// A frame that fails while it decodes straight into the caller's buffer fails the read naming
/// it, as it does through the scratch buffer, for every corrupted byte of it that changes its
/// samples. What the buffer then holds: the frames decoded before it are written (index order,
/// one thread); the failed frame's place may hold part of its bytes (OpenZL checks the content
/// checksum after writing them), so after an error a caller must not use the buffer.
#[test]
fn a_frame_failing_in_the_callers_buffer_fails_the_read() {
    // frame unit 0: one frame per band at each tile location; location (0, 0) read whole in
    // [b][y][x] order: its three frames land in the buffer as they decode
    let spec = spec(SampleEncoding::U16, 32, 32, 3, 1, (32, 32), 0, utm());
    let (file, _) = write(spec, &samples(SampleEncoding::U16, 3 * 32 * 32, 5));
    let clean = Reader::open(file.clone(), Limits::default()).unwrap();
    let full = reference(&clean);
    let l = *clean.layout();
    let (req, size) = frame_order_request(&l, 0, 0, 0);
    let want = frames(&l, &req);
    assert_eq!(want.len(), 3);
    let mut words = vec![0u64; size / 8];
    // SAFETY: the u64 storage viewed as its bytes, for as long as `words` lives.
    let dst = unsafe { std::slice::from_raw_parts_mut(words.as_mut_ptr().cast::<u8>(), size) };
    clean.set_cache_bytes(0);
    assert_eq!(clean.read(&req, dst, 0, 1).unwrap().direct, 3);
    // the samples of band `b` in the buffer against the reference
    let band = |dst: &[u8], b: u32| {
        let mut one = req.clone();
        one.planes.retain(|p| p.band == b);
        same_as_reference(&l, &one, dst, 0, &full)
    };
    let (o, n) = clean.frame_range(want[1]).unwrap();
    let mut failed = 0;
    for k in 0..n {
        let mut bad = file.clone();
        bad[(o + k) as usize] ^= 0x5A;
        let r = Reader::open(bad, Limits::default()).unwrap();
        r.set_cache_bytes(0);
        dst.fill(0);
        let direct = r.read(&req, dst, 0, 1);
        // the same frame through the scratch buffer (a cache that keeps it)
        r.set_cache_bytes(u64::MAX);
        let mut other = vec![0u8; size + 1];
        let scratch = r.read(&req, &mut other, 1, 1);
        match (direct, scratch) {
            (Ok(s), Ok(_)) => {
                // a byte the decoder does not depend on: the samples are right
                assert_eq!(s.direct, 3);
                assert!(same_as_reference(&l, &req, dst, 0, &full), "byte {k}: a read without an error differs");
            }
            (Err(e), Err(e2)) => {
                failed += 1;
                // decoded on its own into a new buffer: the same error, and the buffer left empty
                let mut fresh = rumi::codec::AlignedBuf::default();
                let e3 = r.decode_frame_into(want[1], &r.read_frame_bytes(want[1]).unwrap(), &mut fresh).unwrap_err();
                assert_eq!((e3.to_string(), fresh.held_bytes()), (e.to_string(), 0), "byte {k}");
                assert_eq!(e.to_string(), e2.to_string(), "byte {k}");
                assert!(e.to_string().starts_with(&format!("frame {}: ", want[1])), "byte {k}: {e}");
                assert!(band(dst, 0), "byte {k}: the frame before the failed one is written");
                assert!(dst[2 * size / 3..].iter().all(|&v| v == 0), "byte {k}: the frame after it is not decoded");
            }
            (d, s) => panic!("byte {k}: straight into the buffer {d:?}, through the scratch buffer {s:?}"),
        }
    }
    assert!(failed > 0);
}
