//! Layer 2: OpenZL frame encode/decode. The only module that calls `openzl-sys`.
//!
//! Samples are compressed as one numeric OpenZL input whose element width is the sample's
//! component width (complex samples are two components). Decoding checks the decoded size and
//! element width against what the header implies (OpenZL does not record signedness).
//!
//! Image graphs ([`Graph::Predict`], [`Graph::Coded`], [`Graph::Image`]) add 2-D prediction built
//! only from OpenZL's standard codecs, so any OpenZL decoder reads the frames: the "up" predictor
//! is a column-major view of the frame (`split_by_struct` into one stream per column, `concat`)
//! followed by `delta_int`; the gradient predictor (`x - a - b + c`) puts a `delta_int` along
//! rows in front of it. The residuals are zigzagged, split into byte planes (`transpose_split`)
//! and coded as a [`Coding`] says (the candidates: the low plane with PivCo Huffman, the higher
//! planes with `sparse_num`). On pixel-interleaved 8- and 16-bit frames, [`Predictor::Bands`] subtracts
//! each pixel's previous band first (`delta_int` along the interleaved samples, a split
//! into band planes, `delta_int` along each). The graph is an encoder-side function graph: the
//! frame records only the standard transforms it ran.

use std::cell::RefCell;
use std::ffi::CStr;

use openzl_sys as zl;

use crate::error::{Error, Result};

/// OpenZL wire-format version written into every frame (mandatory when compressing).
pub const FORMAT_VERSION: i32 = zl::ZL_MAX_FORMAT_VERSION as i32;

/// How frames are compressed; the reader needs none of this (frames are self-describing).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Graph {
    /// OpenZL's numeric graph at the given compression level.
    Numeric(i32),
    /// OpenZL's generic graph (zstd-like backend) at the given level, for comparison.
    Generic(i32),
    /// Try numeric at levels 6 and 7 and keep the smaller frame.
    BestOf,
    /// 2-D prediction (rows of the frame's `row` elements), then entropy coding of the residuals
    /// (byte planes, each to OpenZL's `entropy` graph: [`Coding::PLANES`]).
    Predict(Predictor),
    /// 2-D prediction, the residuals coded as [`Coding`] says.
    Coded(Predictor, Coding),
    /// Per frame, the smallest of the image candidates ([`Graph::image_candidates`]).
    Image(i32),
    /// The image candidates on every fourth tile row (from the first); on the rows between, the
    /// writer tries the candidates that made at least a tenth of the frames of the last such
    /// row. A frame keeps the candidate that [`choose`]
    /// picks with [`SLOWER_COSTS`] (nearly as small and faster to decode beats smallest).
    Auto(i32),
}

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
}

/// A 2-D predictor made of standard OpenZL codecs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Predictor {
    /// `x - b` (the sample above): column-major view, then delta.
    Up,
    /// `x - a - b + c`: the up predictor, then delta along rows.
    Gradient,
    /// `x - a` (the sample to the left, or the last of the row above), entropy coded.
    Left,
    /// `x - a`, then OpenZL's field LZ (repeats, e.g. nodata areas).
    LeftLz,
    /// For pixel-interleaved frames of this many bands (frame unit 2) of 8- or 16-bit samples: each
    /// sample less the previous one (the pixel's previous band; its first band less the last
    /// band of the pixel before), the bands split apart (bytes: `transpose_split`; 16-bit:
    /// `split_by_struct`), then `x - a` per
    /// band: the spatial residual less the previous band's, which natural colour and
    /// near-infrared bands share (NAIP: order-0 bound 1.64 against 1.36 for a left delta per
    /// band). Other frames are coded as [`Predictor::Left`].
    Bands(u8),
    /// [`Predictor::Bands`], each band's residuals then to OpenZL's field LZ (repeats, e.g. a
    /// nodata collar); other frames as [`Predictor::LeftLz`].
    BandsLz(u8),
}

/// How a predictor's residuals are entropy coded (all after zigzag): optionally dispatched by
/// class first, then split into byte planes (`transpose_split`), the low plane and the higher
/// planes each to a [`Stage`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Coding {
    /// The low byte plane (1-byte samples: the residuals).
    pub low: Stage,
    /// The higher byte planes.
    pub high: Stage,
    /// Forward-adaptive classes: 0 or 1 for none; K (2..=16) tags every `segment` samples with
    /// one of K classes by the mean residual (`dispatchN_byTag`), each class coded on its own.
    pub classes: u8,
    /// Samples per tagged segment (a multiple of 16, at most 4080).
    pub segment: u16,
}

/// A stage a stream of residual bytes goes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Stage {
    /// OpenZL's `entropy` graph: Huffman, FSE or stored, whichever it estimates smallest.
    Entropy,
    /// PivCo Huffman (`ZL_GRAPH_HUFFMAN_PIVCO`).
    Pivco,
    /// `sparse_num` (runs of zeros and the values between them, both to OpenZL's generic graph)
    /// when at least three quarters of the bytes are zeros, else `entropy`.
    Sparse,
    /// zstd.
    Zstd,
    /// OpenZL's field LZ.
    FieldLz,
    /// For 16-bit residuals as `low` (no byte planes): `partition` into buckets (one per value
    /// below 240, then power-of-two buckets) and raw extra bits; buckets to PivCo.
    Partition,
}

impl Stage {
    fn id(self) -> i32 {
        match self {
            Stage::Entropy => 0,
            Stage::Pivco => 1,
            Stage::Sparse => 2,
            Stage::Zstd => 3,
            Stage::FieldLz => 4,
            Stage::Partition => 5,
        }
    }
    fn from_id(id: i32) -> Stage {
        match id {
            1 => Stage::Pivco,
            2 => Stage::Sparse,
            3 => Stage::Zstd,
            4 => Stage::FieldLz,
            5 => Stage::Partition,
            _ => Stage::Entropy,
        }
    }
}

impl Coding {
    /// Byte planes, each to `entropy` (what [`Graph::Predict`] writes).
    pub const PLANES: Coding = Coding { low: Stage::Entropy, high: Stage::Entropy, classes: 0, segment: 0 };
    /// Byte planes, each to PivCo.
    pub const PLANES_PIVCO: Coding = Coding { low: Stage::Pivco, high: Stage::Pivco, classes: 0, segment: 0 };
    /// Byte planes: the low one to PivCo, the others to `entropy`.
    pub const LOW_PIVCO: Coding = Coding { low: Stage::Pivco, high: Stage::Entropy, classes: 0, segment: 0 };
    /// Partition of 16-bit residuals, buckets to PivCo.
    pub const PARTITION: Coding = Coding { low: Stage::Partition, high: Stage::Entropy, classes: 0, segment: 0 };
    /// The image candidates' coding: the low byte plane to PivCo Huffman (an 8-bit Huffman
    /// decoder several times faster than FSE), the higher planes, mostly zeros, to `sparse_num`
    /// (runs of zeros and the values between them) instead of FSE; dense higher planes (floats)
    /// still to `entropy` (docs/performance.md, issue 23).
    pub const FAST: Coding = Coding { low: Stage::Pivco, high: Stage::Sparse, classes: 0, segment: 0 };

    fn id(self) -> i32 {
        self.low.id()
            | self.high.id() << 3
            | i32::from(self.classes.min(31)) << 6
            | i32::from((self.segment / 16).min(255)) << 11
    }
    pub(crate) fn from_id(id: i32) -> Coding {
        Coding {
            low: Stage::from_id(id & 7),
            high: Stage::from_id(id >> 3 & 7),
            classes: (id >> 6 & 31) as u8,
            segment: (id >> 11 & 255) as u16 * 16,
        }
    }
}

/// [`Predictor::Bands`] of `n` bands has the id `BANDS_ID + n`.
const BANDS_ID: i32 = 16;
/// [`Predictor::BandsLz`] of `n` bands has the id `BANDS_LZ_ID + n`.
const BANDS_LZ_ID: i32 = 512;

impl Predictor {
    fn id(self) -> i32 {
        match self {
            Predictor::Up => 1,
            Predictor::Gradient => 2,
            Predictor::Left => 3,
            Predictor::LeftLz => 4,
            Predictor::Bands(n) => BANDS_ID + i32::from(n),
            Predictor::BandsLz(n) => BANDS_LZ_ID + i32::from(n),
        }
    }
}

impl Default for Graph {
    /// What `rumi convert` and `rumi.write` write without options (chosen by measurement, see
    /// README "Compression").
    fn default() -> Self {
        Graph::Auto(7)
    }
}

fn report_error(r: zl::ZL_Report) -> Option<String> {
    // SAFETY: ZL_isError / ZL_errorCode / ZL_ErrorCode_toString only read the report by value
    // and return a pointer to a static string.
    unsafe {
        if zl::ZL_isError(r) == 0 {
            return None;
        }
        let code = zl::ZL_errorCode(r);
        let s = zl::ZL_ErrorCode_toString(code);
        Some(if s.is_null() { format!("error code {code}") } else { CStr::from_ptr(s).to_string_lossy().into_owned() })
    }
}

fn report_value(r: zl::ZL_Report) -> usize {
    // SAFETY: only called after report_error returned None, so the report holds a value.
    unsafe { zl::ZL_validResult(r) }
}

/// A compression context and the compressor (graph registry) it references.
/// The third field holds the compressors of the predictor graphs by (predictor, element width,
/// row elements, rows); they drop after the context that may reference them.
struct Cctx(*mut zl::ZL_CCtx, *mut zl::ZL_Compressor, Vec<(PredictKey, PredictCompressor)>);
/// A predictor compressor's key: (predictor, coding, element width, row elements, rows).
type PredictKey = (Predictor, Coding, usize, usize, usize);
struct Dctx(*mut zl::ZL_DCtx);

impl Drop for Cctx {
    fn drop(&mut self) {
        // SAFETY: both pointers came from their create functions and are freed once, here,
        // the context first since it references the compressor.
        unsafe {
            zl::ZL_CCtx_free(self.0);
            zl::ZL_Compressor_free(self.1);
        }
    }
}
impl Drop for Dctx {
    fn drop(&mut self) {
        // SAFETY: the pointer came from ZL_DCtx_create and is freed once, here.
        unsafe { zl::ZL_DCtx_free(self.0) }
    }
}

/// At most this many predictor compressors per thread (each frame shape and graph is one).
const MAX_PREDICT_COMPRESSORS: usize = 32;

thread_local! {
    static CCTX: RefCell<Option<Cctx>> = const { RefCell::new(None) };
    static DCTX: RefCell<Option<Dctx>> = const { RefCell::new(None) };
}

mod decode;
mod predict;

pub use decode::decode_into;
pub use predict::MAX_PREDICT_ROW;
use predict::{predict_compressor, PredictCompressor};

/// A buffer of 8-byte aligned storage, as OpenZL's numeric API requires.
#[derive(Debug, Default, Clone)]
pub struct AlignedBuf {
    words: Vec<u64>,
    len: usize,
}

impl AlignedBuf {
    /// A zeroed buffer of `len` bytes.
    pub fn zeroed(len: usize) -> Self {
        AlignedBuf { words: vec![0u64; len.div_ceil(8)], len }
    }
    /// A zeroed buffer of `len` bytes, or [`Error::Alloc`] when the memory cannot be had
    /// (a host process must not be aborted by a frame that is within the limits but too large
    /// for the memory left).
    pub fn try_zeroed(len: usize, what: &'static str) -> Result<Self> {
        let words = len.div_ceil(8);
        if words == 0 {
            return Ok(AlignedBuf { words: Vec::new(), len });
        }
        // calloc: memory fresh from the kernel is not zeroed a second time (a decoded frame's
        // buffer is written whole by OpenZL right after)
        let layout = std::alloc::Layout::array::<u64>(words).map_err(|_| Error::Alloc { what, bytes: len as u64 })?;
        // SAFETY: the layout's size is non-zero (words > 0).
        let ptr = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<u64>();
        if ptr.is_null() {
            return Err(Error::Alloc { what, bytes: len as u64 });
        }
        // SAFETY: `ptr` was allocated by the global allocator with the layout of `words` u64s,
        // every one of them zero, i.e. initialised; the Vec takes ownership of it.
        let v = unsafe { Vec::from_raw_parts(ptr, words, words) };
        Ok(AlignedBuf { words: v, len })
    }
    /// Makes the buffer `len` bytes long without allocating when its storage holds that many
    /// (the bytes are whatever it held: for a decoder that writes every byte or fails); false
    /// when it is too small.
    pub fn fit(&mut self, len: usize) -> bool {
        if len > 8 * self.words.len() {
            return false;
        }
        self.len = len;
        true
    }
    /// Bytes of storage held (at least `as_bytes().len()`).
    pub fn held_bytes(&self) -> usize {
        8 * self.words.len()
    }
    /// The bytes.
    pub fn as_bytes(&self) -> &[u8] {
        // SAFETY: u64 storage viewed as bytes; len <= 8 * words.len().
        unsafe { std::slice::from_raw_parts(self.words.as_ptr().cast::<u8>(), self.len) }
    }
    /// The bytes, mutably.
    pub fn as_bytes_mut(&mut self) -> &mut [u8] {
        // SAFETY: as above, unique borrow of the storage.
        unsafe { std::slice::from_raw_parts_mut(self.words.as_mut_ptr().cast::<u8>(), self.len) }
    }
}

/// The x86-64 features OpenZL is compiled for: `.cargo/config.toml` builds it for x86-64-v2
/// (`-march=x86-64-v2`: its SSSE3 delta, LZ and entropy kernels; the scalar 8-bit delta was 44 %
/// of an RGB decode, docs/performance.md). Every encode and decode checks them before any
/// OpenZL code runs, so that a CPU without them (older than about 2009) gets this error, not
/// an illegal instruction in the host process.
const CPU_FEATURES: [&str; 5] = ["ssse3", "sse4.1", "sse4.2", "popcnt", "cmpxchg16b"];

/// `Err(Unsupported)` naming what this CPU lacks of [`CPU_FEATURES`] (nothing to check on other
/// architectures); the detection is cached by the standard library.
pub fn cpu_supported() -> Result<()> {
    #[cfg(target_arch = "x86_64")]
    {
        let has = |f: &str| match f {
            "ssse3" => std::arch::is_x86_feature_detected!("ssse3"),
            "sse4.1" => std::arch::is_x86_feature_detected!("sse4.1"),
            "sse4.2" => std::arch::is_x86_feature_detected!("sse4.2"),
            "popcnt" => std::arch::is_x86_feature_detected!("popcnt"),
            _ => std::arch::is_x86_feature_detected!("cmpxchg16b"),
        };
        if let Some(message) = missing_cpu_features(has) {
            return Err(Error::Unsupported(message));
        }
    }
    Ok(())
}

/// The error text for the [`CPU_FEATURES`] that `has` denies, if any.
pub(crate) fn missing_cpu_features(has: impl Fn(&str) -> bool) -> Option<String> {
    let missing: Vec<&str> = CPU_FEATURES.into_iter().filter(|f| !has(f)).collect();
    (!missing.is_empty()).then(|| {
        format!(
            "this CPU lacks {} (x86-64-v2), which this build of rumi's OpenZL codec uses; rebuild \
             rumi with the environment variable CFLAGS_x86_64_unknown_linux_gnu set to an empty \
             string (slower decoding, any x86-64 CPU)",
            missing.join(", ")
        )
    })
}

fn compress_once(src: &AlignedBuf, width: usize, graph: zl::ZL_GraphID, level: i32) -> Result<Vec<u8>> {
    compress_with(src, Some(width), None, graph, level)
}

/// Compresses with the predictor graph `p` (rows of `row` elements); falls back to the numeric
/// graph when the frame is not at least two whole rows or the rows are too long.
fn compress_predict(
    src: &AlignedBuf,
    width: usize,
    row: usize,
    p: Predictor,
    c: Coding,
    level: i32,
) -> Result<Vec<u8>> {
    let count = src.len / width;
    // the band predictors' compressor splits a pixel's samples apart: its "row" is the pixel
    let row = match p {
        Predictor::Bands(n) | Predictor::BandsLz(n) if count % usize::from(n) == 0 => usize::from(n),
        _ => row,
    };
    if !(2..=MAX_PREDICT_ROW).contains(&row) || count % row != 0 || count / row < 2 {
        return compress_once(src, width, zl::ZL_GraphID { gid: zl::ZL_StandardGraphID_select_numeric }, level);
    }
    compress_with(src, Some(width), Some((p, c, width, row, count / row)), zl::ZL_GraphID { gid: 0 }, level)
}

/// Compresses `src` as numeric elements of `width` bytes (serial bytes for `None`), with the
/// standard `graph` or the predictor compressor `custom`.
fn compress_with(
    src: &AlignedBuf,
    width: Option<usize>,
    custom: Option<PredictKey>,
    graph: zl::ZL_GraphID,
    level: i32,
) -> Result<Vec<u8>> {
    cpu_supported()?;
    CCTX.with(|cell| {
        let mut slot = cell.borrow_mut();
        // A full cache of predictor compressors is dropped with its context (evicting one meant
        // re-pointing the context at the base compressor, which OpenZL refuses, "Graph
        // invalid", while no standard graph has been selected in it).
        if let (Some(ctx), Some(key)) = (slot.as_ref(), custom) {
            if ctx.2.len() >= MAX_PREDICT_COMPRESSORS && !ctx.2.iter().any(|(k, _)| *k == key) {
                *slot = None;
            }
        }
        if slot.is_none() {
            // SAFETY: plain constructors; nulls are checked below and freed by Cctx's Drop.
            let ctx = unsafe { Cctx(zl::ZL_CCtx_create(), zl::ZL_Compressor_create(), Vec::new()) };
            if ctx.0.is_null() || ctx.1.is_null() {
                return Err(Error::Encode("cannot create an OpenZL compression context".into()));
            }
            *slot = Some(ctx);
        }
        let Some(ctx) = slot.as_mut() else {
            return Err(Error::Encode("no OpenZL compression context".into()));
        };
        let (cctx, mut compressor, mut graph) = (ctx.0, ctx.1, graph);
        if let Some(key) = custom {
            let cache = &mut ctx.2;
            let i = match cache.iter().position(|(k, _)| *k == key) {
                Some(i) => i,
                None => {
                    cache.push((key, predict_compressor(key.0, key.1, key.2, key.3, key.4)?));
                    cache.len() - 1
                }
            };
            (compressor, graph) = (cache[i].1 .0, cache[i].1 .1);
        }
        // SAFETY: cctx is a live context owned by this thread; parameters are plain ints; the
        // typed ref borrows `src`, which outlives the call, and is freed before returning.
        unsafe {
            if let Some(e) = report_error(zl::ZL_Compressor_selectStartingGraphID(compressor, graph)) {
                return Err(Error::Encode(e));
            }
            if let Some(e) = report_error(zl::ZL_CCtx_refCompressor(cctx, compressor)) {
                return Err(Error::Encode(e));
            }
            for (p, v) in [(zl::ZL_CParam_formatVersion, FORMAT_VERSION), (zl::ZL_CParam_compressionLevel, level)] {
                if let Some(e) = report_error(zl::ZL_CCtx_setParameter(cctx, p, v)) {
                    return Err(Error::Encode(e));
                }
            }
            let bound = zl::ZL_compressBound(src.len);
            let mut dst = vec![0u8; bound];
            let tref = match width {
                Some(w) => zl::ZL_TypedRef_createNumeric(src.as_bytes().as_ptr().cast(), w, src.len / w),
                None => zl::ZL_TypedRef_createSerial(src.as_bytes().as_ptr().cast(), src.len),
            };
            if tref.is_null() {
                return Err(Error::Encode("cannot create an OpenZL input".into()));
            }
            let r = zl::ZL_CCtx_compressTypedRef(cctx, dst.as_mut_ptr().cast(), dst.len(), tref);
            zl::ZL_TypedRef_free(tref);
            if let Some(e) = report_error(r) {
                // OpenZL's context string says which codec refused and why
                let ctx = zl::ZL_CCtx_getErrorContextString(cctx, r);
                let why =
                    if ctx.is_null() { String::new() } else { CStr::from_ptr(ctx).to_string_lossy().into_owned() };
                let why = why.lines().next().unwrap_or_default().trim().to_string();
                return Err(Error::Encode(if why.is_empty() { e } else { format!("{e}: {why}") }));
            }
            dst.truncate(report_value(r));
            Ok(dst)
        }
    })
}

/// Compresses `samples` (little-endian elements of `width` bytes: 1, 2, 4 or 8) into one
/// self-contained OpenZL frame (no row structure: prediction graphs compress as numeric).
pub fn encode(samples: &[u8], width: usize, graph: Graph) -> Result<Vec<u8>> {
    encode_rows(samples, width, 0, graph)
}

/// As [`encode`], for a frame made of rows of `row` elements (the prediction graphs use them).
pub fn encode_rows(samples: &[u8], width: usize, row: usize, graph: Graph) -> Result<Vec<u8>> {
    check_width(samples, width)?;
    let mut src = AlignedBuf::zeroed(samples.len());
    src.as_bytes_mut().copy_from_slice(samples);
    encode_src(&src, width, row, graph)
}

fn encode_src(src: &AlignedBuf, width: usize, row: usize, graph: Graph) -> Result<Vec<u8>> {
    let numeric = zl::ZL_GraphID { gid: zl::ZL_StandardGraphID_select_numeric };
    let generic = zl::ZL_GraphID { gid: zl::ZL_StandardGraphID_compress_generic };
    match graph {
        Graph::Numeric(level) => compress_once(src, width, numeric, level),
        Graph::Generic(level) => compress_once(src, width, generic, level),
        Graph::BestOf => {
            let a = compress_once(src, width, numeric, 6)?;
            let b = compress_once(src, width, numeric, 7)?;
            Ok(if b.len() < a.len() { b } else { a })
        }
        Graph::Predict(p) => compress_predict(src, width, row, p, Coding::PLANES, 6),
        Graph::Coded(p, c) => compress_predict(src, width, row, p, c, 6),
        Graph::Image(level) | Graph::Auto(level) => {
            Ok(best(src, width, row, &Graph::image_candidates(level), graph.slower_costs())?.0)
        }
    }
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
    let mut src = AlignedBuf::zeroed(samples.len());
    src.as_bytes_mut().copy_from_slice(samples);
    best(&src, width, row, candidates, slower_costs)
}

/// Rows of a screening sample's chunks ([`encode_screened`]).
const SCREEN_CHUNK_ROWS: usize = 8;

/// The fewest chunks a screening sample holds ([`encode_screened`]): with 256-row tiles of one
/// plane, every fourth chunk (measured on `../shared/data`: the same sizes as comparing whole
/// frames; every eighth chunk, 4 chunks of the DEM's frames, picked worse graphs: +18 %).
const SCREEN_MIN_CHUNKS: usize = 8;

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
    let whole = |samples: &[u8]| {
        let mut src = AlignedBuf::zeroed(samples.len());
        src.as_bytes_mut().copy_from_slice(samples);
        src
    };
    if candidates.len() == 1 {
        return Ok((encode_src(&whole(samples), width, row, candidates[0])?, 0));
    }
    let every = if line == 0 { 0 } else { every.min(samples.len() / chunk / SCREEN_MIN_CHUNKS) };
    if every < 2 {
        return best(&whole(samples), width, row, candidates, slower_costs);
    }
    let sample = pick(samples, chunk, every);
    for &g in candidates {
        if matches!(g, Graph::Image(_) | Graph::Auto(_)) {
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
    Ok((encode_src(&whole(samples), width, row, candidates[i])?, i))
}

/// The slow encoders' probe in [`encode_screened`]: every this many chunks of the sample.
const PROBE_EVERY: usize = 4;

/// The fewest chunks a probe holds: OpenZL's slow graphs cost nearly as much on 2 chunks as on
/// 8 (measured on the LANDFIRE DEM's 256-row frames: probing them there was slower than not).
const PROBE_MIN_CHUNKS: usize = 4;

/// How far above the leading fast encoder's cost a slow encoder's probe estimate may lie and
/// still be tried on the whole sample ([`encode_screened`]).
const PROBE_SLACK: f64 = 0.05;

/// Every `every`-th whole chunk of `chunk` bytes of `samples`, from the first, back to back.
fn pick(samples: &[u8], chunk: usize, every: usize) -> AlignedBuf {
    let picked: Vec<&[u8]> = samples.chunks(chunk).step_by(every).filter(|c| c.len() == chunk).collect();
    let mut out = AlignedBuf::zeroed(picked.len() * chunk);
    for (dst, src) in out.as_bytes_mut().chunks_mut(chunk).zip(&picked) {
        dst.copy_from_slice(src);
    }
    out
}

/// With [`Graph::Auto`], each [`Graph::decode_class`] step slower must save this fraction of the
/// frame's bytes to be kept (see [`choose`]): measured on `../shared/data` with
/// `bench/graph_probe.rs` (docs/performance.md, issue 23: 4 % instead of 2 % made Sentinel-2 and
/// RGB decode 12-20 % faster for 0.8-1 % of size, the other rasters unchanged).
pub const SLOWER_COSTS: f64 = 0.04;

impl Graph {
    /// How fast frames of this graph decode, 0 the fastest: the order measured with
    /// `bench/graph_probe.rs` (instruction counts and wall clock) on the real rasters of
    /// `../shared/data` (figures in docs/performance.md, "Issue 23").
    pub fn decode_class(self) -> u8 {
        match self {
            Graph::Predict(Predictor::LeftLz) => 1,
            Graph::Numeric(_) | Graph::Generic(_) | Graph::BestOf | Graph::Image(_) | Graph::Auto(_) => 2,
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
    /// [`Graph::Auto`], 0 (the smallest frame) for [`Graph::Image`] and single graphs.
    pub fn slower_costs(self) -> f64 {
        if matches!(self, Graph::Auto(_)) {
            SLOWER_COSTS
        } else {
            0.0
        }
    }
}

/// Of candidate frames `(graph, bytes)` of `width`-byte elements, the index of the one to keep:
/// the least `bytes * (1 + slower_costs * decode class)` ([`Graph::decode_class_for`]), then the
/// first (`slower_costs` 0: the smallest).
pub fn choose(frames: &[(Graph, usize)], slower_costs: f64, width: usize) -> Option<usize> {
    let cost = |f: &(Graph, usize)| f.1 as f64 * (1.0 + slower_costs * f64::from(f.0.decode_class_for(width)));
    (0..frames.len()).min_by(|&i, &j| cost(&frames[i]).total_cmp(&cost(&frames[j])).then(i.cmp(&j)))
}

fn best(
    src: &AlignedBuf,
    width: usize,
    row: usize,
    candidates: &[Graph],
    slower_costs: f64,
) -> Result<(Vec<u8>, usize)> {
    let mut made = Vec::with_capacity(candidates.len());
    for &g in candidates {
        if matches!(g, Graph::Image(_) | Graph::Auto(_)) {
            return Err(Error::Encode(format!("{g:?} is not a single graph")));
        }
        made.push(encode_src(src, width, row, g)?);
    }
    let sizes: Vec<(Graph, usize)> = candidates.iter().zip(&made).map(|(&g, f)| (g, f.len())).collect();
    let i = choose(&sizes, slower_costs, width).ok_or_else(|| Error::Encode("no compression candidates".into()))?;
    Ok((made.swap_remove(i), i))
}

fn check_width(samples: &[u8], width: usize) -> Result<()> {
    if ![1, 2, 4, 8].contains(&width) || samples.len() % width != 0 {
        return Err(Error::Encode(format!("{} bytes are not a whole number of {width}-byte elements", samples.len())));
    }
    Ok(())
}
/// One of OpenZL's standard entropy graphs, for [`encode_entropy`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entropy {
    /// `ZL_GRAPH_ENTROPY`: Huffman, FSE or stored, whichever OpenZL estimates smallest.
    Auto,
    /// `ZL_GRAPH_FSE`.
    Fse,
    /// `ZL_GRAPH_HUFFMAN` (huf0 in format 27).
    Huffman,
    /// `ZL_GRAPH_HUFFMAN_PIVCO`.
    Pivco,
    /// `ZL_GRAPH_STORE`.
    Store,
}

/// Compresses `bytes` (serial) as one OpenZL frame with a single entropy graph: the per-stream
/// measurements of `bench/stream_probe.rs` (what a stream costs and how fast it decodes alone).
pub fn encode_entropy(bytes: &[u8], e: Entropy) -> Result<Vec<u8>> {
    let gid = match e {
        Entropy::Auto => zl::ZL_StandardGraphID_entropy,
        Entropy::Fse => zl::ZL_StandardGraphID_fse,
        Entropy::Huffman => zl::ZL_StandardGraphID_huffman,
        Entropy::Pivco => zl::ZL_StandardGraphID_huffman_pivco,
        Entropy::Store => zl::ZL_StandardGraphID_store,
    };
    let mut src = AlignedBuf::zeroed(bytes.len());
    src.as_bytes_mut().copy_from_slice(bytes);
    compress_with(&src, None, None, zl::ZL_GraphID { gid }, 6)
}

/// Compresses `bytes` as one OpenZL frame of serial (untyped) data with the generic graph:
/// a standard frame any OpenZL decoder reads (used to check that readers accept frames by
/// their decoded bytes, whatever their output type).
pub fn encode_serial(bytes: &[u8], level: i32) -> Result<Vec<u8>> {
    let mut src = AlignedBuf::zeroed(bytes.len());
    src.as_bytes_mut().copy_from_slice(bytes);
    compress_with(&src, None, None, zl::ZL_GraphID { gid: zl::ZL_StandardGraphID_compress_generic }, level)
}

#[cfg(test)]
mod tests;
