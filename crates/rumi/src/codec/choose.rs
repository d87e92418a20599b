//! The per-frame choice among candidate graphs: what [`Graph::Image`] and [`Graph::Auto`] try
//! ([`Graph::image_candidates`]), the decode-speed classes ([`Graph::decode_class`]) the choice
//! weighs bytes by ([`choose`]), and the encoders that pick: every candidate on the whole frame
//! ([`encode_best`]), or on a sample of its rows with a probe before the slow ones
//! ([`encode_screened`], what the writer runs).

use super::encode::{check_width, encode_src};
use super::ffi::compress_with;
use super::graph::{Coding, Graph, Predictor, Stage};
use super::residual::standard_graph;
use crate::aligned::AlignedBuf;
use crate::error::{Error, Result};

/// With [`Graph::Auto`], each [`Graph::decode_class`] step slower must save this fraction of the
/// frame's bytes to be kept (see [`choose`]): measured on `../shared/data` with
/// `bench/graph_probe.rs` (docs/performance.md, issue 23: 4 % instead of 2 % made Sentinel-2 and
/// RGB decode 12-20 % faster for 0.8-1 % of size, the other rasters unchanged).
pub const SLOWER_COSTS: f64 = 0.04;

impl Graph {
    /// What [`Graph::Image`] and [`Graph::Auto`] at `level` try on every frame: the gradient and
    /// left predictors with the fast residual coding ([`Coding::FAST`]: low byte plane to PivCo
    /// Huffman, higher planes to `sparse_num`), left+LZ and OpenZL's numeric graph at `level`
    /// (level 0: without it), in this order.
    pub fn image_candidates(level: i32) -> Vec<Graph> {
        let mut v = vec![
            Graph::Coded(Predictor::Gradient, Coding::FAST),
            Graph::Coded(Predictor::Left, Coding::FAST),
            Graph::Predict(Predictor::LeftLz),
        ];
        if level > 0 {
            v.push(Graph::Numeric(level));
        }
        v
    }

    /// [`Graph::image_candidates`] for frames of `width`-byte elements holding `per_pixel`
    /// samples of each pixel side by side (pixel-interleaved frame units): 8- and 16-bit frames
    /// of 2 to 255 samples per pixel also try [`Predictor::Bands`] (after the left predictor) and
    /// [`Predictor::BandsLz`] (after left+LZ).
    pub fn image_candidates_for(level: i32, width: usize, per_pixel: usize) -> Vec<Graph> {
        let mut v = Graph::image_candidates(level);
        if width <= 2 {
            if let Ok(n @ 2..=255) = u8::try_from(per_pixel) {
                v.insert(2, Graph::Coded(Predictor::Bands(n), Coding::FAST));
                v.insert(4, Graph::Predict(Predictor::BandsLz(n)));
            }
        }
        v
    }

    /// How fast frames of this graph decode, 0 the fastest: the order measured with
    /// `bench/graph_probe.rs` (instruction counts and wall clock) on the real rasters of
    /// `../shared/data` (figures in docs/performance.md, "Issue 23").
    pub fn decode_class(self) -> u8 {
        match self {
            Graph::Predict(Predictor::LeftLz) => 1,
            Graph::Numeric(_)
            | Graph::Generic(_)
            | Graph::BestOf
            | Graph::Image(_)
            | Graph::Auto(_)
            | Graph::AutoWeighted(..) => 2,
            Graph::Fast => Graph::Coded(Predictor::Left, Coding::PLANES_PIVCO).decode_class(),
            Graph::Predict(p) => Graph::Coded(p, Coding::PLANES).decode_class(),
            Graph::Coded(Predictor::LeftLz, _) => 1,
            Graph::Coded(p, c) => {
                // the column view of up and gradient costs two classes, FSE (entropy) one per
                // plane group, partition's decoder two, classes one
                let stage = |s: Stage| match s {
                    Stage::Entropy => 1,
                    Stage::Partition => 2,
                    _ => 0,
                };
                // the band split and the second delta of `Bands` one class
                let column = match p {
                    Predictor::Left => 0,
                    Predictor::Bands(_) => 1,
                    _ => 2,
                };
                column + stage(c.low) + stage(c.high) + u8::from(c.classes >= 2)
            }
        }
    }

    /// True for the graphs that encode at a fifth of the predictors' speed or less (OpenZL's
    /// numeric and generic graphs, field LZ: 23-45 MB/s against 108-158 on one thread,
    /// `bench/graph_probe.rs`): [`encode_screened`] probes them before trying them.
    pub fn slow_encoder(self) -> bool {
        matches!(
            self,
            Graph::Numeric(_)
                | Graph::Generic(_)
                | Graph::BestOf
                | Graph::Predict(Predictor::LeftLz | Predictor::BandsLz(_))
                | Graph::Coded(Predictor::LeftLz | Predictor::BandsLz(_), _)
        )
    }

    /// [`Graph::decode_class`] for frames of `width`-byte elements: OpenZL's own graphs decode
    /// 8-bit data far slower than the predictors do (numeric 7: RGB 43.5 instructions per
    /// sample against left+LZ's 16.1, NAIP 25.0 against 14.9), one more class there.
    pub fn decode_class_for(self, width: usize) -> u8 {
        let c = self.decode_class();
        match self {
            Graph::Numeric(_) | Graph::Generic(_) | Graph::BestOf if width == 1 => c + 1,
            _ => c,
        }
    }

    /// The `slower_costs` of [`choose`] for this graph's candidates: [`SLOWER_COSTS`] for
    /// [`Graph::Auto`], its percent / 100 for [`Graph::AutoWeighted`], 0 (the smallest frame)
    /// for [`Graph::Image`] and single graphs.
    pub fn slower_costs(self) -> f64 {
        match self {
            Graph::Auto(_) => SLOWER_COSTS,
            Graph::AutoWeighted(_, percent) => f64::from(percent) / 100.0,
            _ => 0.0,
        }
    }
}

/// With [`Graph::Fast`], what one nanosecond of modelled decode time is worth in bytes: each
/// stream of a frame (the low byte plane; the higher planes together) keeps the [`FAST_STAGES`]
/// stage of least `bytes + FAST_BYTES_PER_NS * decode ns`, the ns modelled as the stream's
/// length times the stage's [`fast_ns_per_byte`]. Measured with `bench/graph_probe.rs --fast`
/// on the 48-date Cube's and Landsat 8's frames (docs/performance.md, "A decode-speed
/// setting"): 0 keeps the smallest stage, larger weights the faster ones.
pub const FAST_BYTES_PER_NS: f64 = 0.4;

/// The stages [`Graph::Fast`] picks among for each stream, the fastest to decode first (ties
/// keep the first): stored (a copy: noisy low planes, on which a Huffman code saves a few
/// percent), LZ4 (runs and repeats: a cloud's or a margin's planes), PivCo Huffman, zstd.
pub const FAST_STAGES: [Stage; 4] = [Stage::Store, Stage::Lz4, Stage::Pivco, Stage::Zstd];

/// The decode ns per byte of a stream [`Graph::Fast`] models for each of [`FAST_STAGES`]: one
/// thread of the measurement machine, the frame's fixed costs left out (`bench/graph_probe.rs`
/// on the Cube's 128 x 128 frames: stored ~0, LZ4 0.16-0.40, PivCo 0.32-0.37, zstd 0.65).
pub fn fast_ns_per_byte(stage: Stage) -> f64 {
    match stage {
        Stage::Store => 0.0,
        Stage::Lz4 => 0.3,
        Stage::Pivco => 0.35,
        Stage::Zstd => 0.65,
        _ => 1.0,
    }
}

/// The frame [`Graph::Fast`] writes: the left predictor, the low byte plane and the higher
/// planes each to the stage [`FAST_BYTES_PER_NS`] picks.
pub(super) fn encode_fast(src: &AlignedBuf, width: usize, row: usize) -> Result<Vec<u8>> {
    encode_fast_src(src, width, row, FAST_BYTES_PER_NS)
}

/// [`Graph::Fast`]'s frame with another weight than [`FAST_BYTES_PER_NS`] (what
/// `bench/graph_probe.rs --fast` compares).
pub fn encode_fast_weighted(samples: &[u8], width: usize, row: usize, bytes_per_ns: f64) -> Result<Vec<u8>> {
    check_width(samples, width)?;
    encode_fast_src(&AlignedBuf::copy_of(samples), width, row, bytes_per_ns)
}

fn encode_fast_src(src: &AlignedBuf, width: usize, row: usize, bytes_per_ns: f64) -> Result<Vec<u8>> {
    let planes = left_planes(src.as_bytes(), width);
    let low = fast_stage(&planes[..1], bytes_per_ns)?;
    let high = if planes.len() > 1 { fast_stage(&planes[1..], bytes_per_ns)? } else { Stage::Pivco };
    encode_src(src, width, row, Graph::Coded(Predictor::Left, Coding { low, high, classes: 0, segment: 0 }))
}

/// The compression level of [`Graph::Fast`]'s trial of LZ4 on a stream (the frame itself is
/// written at level 6, LZ4 HC 6): with HC 2 `fast` encodes the Cube's frames in 2/3 of the CPU
/// time of trying HC 6 (about 58 against 38 MB per CPU-second), for 0.1 % more bytes
/// (`bench/graph_probe.rs`; the trial's LZ4 is a little larger than the frame's, so it picks
/// LZ4 a little less often).
const FAST_LZ4_TRIAL_LEVEL: i32 = 2;

/// Of [`FAST_STAGES`], the one of least `bytes + bytes_per_ns * modelled ns` over `planes`
/// (each compressed alone as a one-stream frame).
fn fast_stage(planes: &[AlignedBuf], bytes_per_ns: f64) -> Result<Stage> {
    let mut best = (f64::MAX, Stage::Pivco);
    for st in FAST_STAGES {
        let Some(graph) = standard_graph(st) else { continue };
        let mut cost = 0.0;
        for p in planes {
            let level = if st == Stage::Lz4 { FAST_LZ4_TRIAL_LEVEL } else { 6 };
            let n = compress_with(p, None, None, graph, level)?.len();
            cost += n as f64 + bytes_per_ns * fast_ns_per_byte(st) * p.as_bytes().len() as f64;
        }
        if cost < best.0 {
            best = (cost, st);
        }
    }
    Ok(best.1)
}

/// The byte planes of the left predictor's zigzagged residuals of `samples` (little-endian
/// elements of `width` bytes, each less the one before, the first less 0, wrapping), as the
/// [`Predictor::Left`] graph codes them: plane `k` holds byte `k` of every residual.
fn left_planes(samples: &[u8], width: usize) -> Vec<AlignedBuf> {
    let n = samples.len() / width;
    let mut planes: Vec<AlignedBuf> = (0..width).map(|_| AlignedBuf::zeroed(n)).collect();
    let bits = 8 * width as u32;
    let mask = if width == 8 { u64::MAX } else { (1u64 << bits) - 1 };
    let mut prev = 0u64;
    for (i, x) in samples.chunks_exact(width).enumerate() {
        let mut b = [0u8; 8];
        b[..width].copy_from_slice(x);
        let v = u64::from_le_bytes(b);
        let d = v.wrapping_sub(prev) & mask;
        prev = v;
        // zigzag in `bits`: the sign to the low bit
        let z = ((d << 1) & mask) ^ if (d >> (bits - 1)) & 1 == 1 { mask } else { 0 };
        for (k, p) in planes.iter_mut().enumerate() {
            p.as_bytes_mut()[i] = (z >> (8 * k)) as u8;
        }
    }
    planes
}

/// Of candidate frames `(graph, bytes)` of `width`-byte elements, the index of the one to keep:
/// the least `bytes * (1 + slower_costs * decode class)` ([`Graph::decode_class_for`]), then the
/// first (`slower_costs` 0: the smallest).
pub fn choose(frames: &[(Graph, usize)], slower_costs: f64, width: usize) -> Option<usize> {
    let cost = |f: &(Graph, usize)| f.1 as f64 * (1.0 + slower_costs * f64::from(f.0.decode_class_for(width)));
    (0..frames.len()).min_by(|&i, &j| cost(&frames[i]).total_cmp(&cost(&frames[j])).then(i.cmp(&j)))
}

/// Compresses with each of `candidates` (single graphs, not [`Graph::Image`]/[`Graph::Auto`])
/// and keeps one frame (see [`choose`], with `slower_costs`); returns it and the index of the
/// candidate that made it.
pub fn encode_best(
    samples: &[u8],
    width: usize,
    row: usize,
    candidates: &[Graph],
    slower_costs: f64,
) -> Result<(Vec<u8>, usize)> {
    check_width(samples, width)?;
    best(&AlignedBuf::copy_of(samples), width, row, candidates, slower_costs)
}

/// [`encode_best`] of samples already checked and aligned.
pub(super) fn best(
    src: &AlignedBuf,
    width: usize,
    row: usize,
    candidates: &[Graph],
    slower_costs: f64,
) -> Result<(Vec<u8>, usize)> {
    let mut made = Vec::with_capacity(candidates.len());
    for &g in candidates {
        if matches!(g, Graph::Image(_) | Graph::Auto(_) | Graph::AutoWeighted(..)) {
            return Err(Error::Encode(format!("{g:?} is not a single graph")));
        }
        made.push(encode_src(src, width, row, g)?);
    }
    let sizes: Vec<(Graph, usize)> = candidates.iter().zip(&made).map(|(&g, f)| (g, f.len())).collect();
    let i = choose(&sizes, slower_costs, width).ok_or_else(|| Error::Encode("no compression candidates".into()))?;
    Ok((made.swap_remove(i), i))
}

/// Rows of a screening sample's chunks ([`encode_screened`]).
const SCREEN_CHUNK_ROWS: usize = 8;

/// The fewest chunks a screening sample holds ([`encode_screened`]): with 256-row tiles of one
/// plane, every fourth chunk (measured on `../shared/data`: the same sizes as comparing whole
/// frames; every eighth chunk, 4 chunks of the DEM's frames, picked worse graphs: +18 %).
const SCREEN_MIN_CHUNKS: usize = 8;

/// The slow encoders' probe in [`encode_screened`]: every this many chunks of the sample.
const PROBE_EVERY: usize = 4;

/// The fewest chunks a probe holds: OpenZL's slow graphs cost nearly as much on 2 chunks as on
/// 8 (measured on the LANDFIRE DEM's 256-row frames: probing them there was slower than not).
const PROBE_MIN_CHUNKS: usize = 4;

/// How far above the leading fast encoder's cost a slow encoder's probe estimate may lie and
/// still be tried on the whole sample ([`encode_screened`]).
const PROBE_SLACK: f64 = 0.05;

/// Like [`encode_best`], but the candidates are compared on a sample of the frame (every
/// `every`-th chunk of [`SCREEN_CHUNK_ROWS`] rows of `row` elements, from the first) and only
/// the chosen one compresses the whole frame: the candidates' cost is paid on `1 / every` of the
/// samples. The sample keeps at least [`SCREEN_MIN_CHUNKS`] chunks (`every` is lowered for
/// small frames), so that a frame's fixed costs (headers, tables) do not decide; frames too small
/// for a sample of half their rows are compared whole (as `encode_best`). The slow encoders
/// ([`Graph::slow_encoder`]) compress the sample only when a probe says they may win: their
/// size on every [`PROBE_EVERY`]-th chunk of the sample, scaled by the leading fast candidate's
/// sample / probe sizes, within [`PROBE_SLACK`] of its cost (`probing` false: every candidate
/// compresses the sample, what `bench/graph_probe.rs --screen` compares with). Deterministic:
/// the same samples give the same frame.
pub fn encode_screened(
    samples: &[u8],
    width: usize,
    row: usize,
    candidates: &[Graph],
    slower_costs: f64,
    every: usize,
    probing: bool,
) -> Result<(Vec<u8>, usize)> {
    check_width(samples, width)?;
    let line = row * width;
    let chunk = SCREEN_CHUNK_ROWS * line;
    if candidates.len() == 1 {
        return Ok((encode_src(&AlignedBuf::copy_of(samples), width, row, candidates[0])?, 0));
    }
    let every = if line == 0 { 0 } else { every.min(samples.len() / chunk / SCREEN_MIN_CHUNKS) };
    if every < 2 {
        return best(&AlignedBuf::copy_of(samples), width, row, candidates, slower_costs);
    }
    let sample = pick(samples, chunk, every);
    for &g in candidates {
        if matches!(g, Graph::Image(_) | Graph::Auto(_) | Graph::AutoWeighted(..)) {
            return Err(Error::Encode(format!("{g:?} is not a single graph")));
        }
    }
    // the fast encoders first, on the sample
    let mut sizes: Vec<Option<usize>> = vec![None; candidates.len()];
    for (k, &g) in candidates.iter().enumerate() {
        if !(probing && g.slow_encoder()) {
            sizes[k] = Some(encode_src(&sample, width, row, g)?.len());
        }
    }
    let cost = |g: Graph, n: f64| n * (1.0 + slower_costs * f64::from(g.decode_class_for(width)));
    let lead = (0..candidates.len())
        .filter_map(|k| sizes[k].map(|n| (k, cost(candidates[k], n as f64))))
        .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
    // a slow encoder is tried on the whole sample only when its size on a probe (every
    // PROBE_EVERY-th chunk of the sample), scaled by the leader's sample / probe sizes, is
    // within PROBE_SLACK of the leader's cost
    let probe = (probing && sample.as_bytes().len() / chunk >= PROBE_EVERY * PROBE_MIN_CHUNKS)
        .then(|| pick(sample.as_bytes(), chunk, PROBE_EVERY));
    let lead_probe = match (lead, &probe) {
        (Some((k, _)), Some(p)) => Some(encode_src(p, width, row, candidates[k])?.len().max(1)),
        _ => None,
    };
    for (k, &g) in candidates.iter().enumerate() {
        if sizes[k].is_some() {
            continue;
        }
        if let (Some((l, lead_cost)), Some(p), Some(lp)) = (lead, &probe, lead_probe) {
            let guess = encode_src(p, width, row, g)?.len() as f64 * sizes[l].unwrap_or(0) as f64 / lp as f64;
            if cost(g, guess) > lead_cost * (1.0 + PROBE_SLACK) {
                continue;
            }
        }
        sizes[k] = Some(encode_src(&sample, width, row, g)?.len());
    }
    let tried: Vec<(usize, (Graph, usize))> =
        sizes.iter().enumerate().filter_map(|(k, n)| n.map(|n| (k, (candidates[k], n)))).collect();
    let frames: Vec<(Graph, usize)> = tried.iter().map(|t| t.1).collect();
    let i = choose(&frames, slower_costs, width).ok_or_else(|| Error::Encode("no compression candidates".into()))?;
    let i = tried[i].0;
    Ok((encode_src(&AlignedBuf::copy_of(samples), width, row, candidates[i])?, i))
}

/// Every `every`-th whole chunk of `chunk` bytes of `samples`, from the first, back to back.
fn pick(samples: &[u8], chunk: usize, every: usize) -> AlignedBuf {
    let picked: Vec<&[u8]> = samples.chunks(chunk).step_by(every).filter(|c| c.len() == chunk).collect();
    let mut out = AlignedBuf::zeroed(picked.len() * chunk);
    for (dst, src) in out.as_bytes_mut().chunks_mut(chunk).zip(&picked) {
        dst.copy_from_slice(src);
    }
    out
}
