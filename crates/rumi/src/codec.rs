//! Layer 2: OpenZL frame encode/decode. The only module that calls `openzl-sys`.
//!
//! Samples are compressed as one numeric OpenZL input whose element width is the sample's
//! component width (complex samples are two components). Decoding checks the decoded size and
//! element width against what the header implies (OpenZL does not record signedness).
//!
//! Image graphs ([`Graph::Predict`], [`Graph::Image`]) add 2-D prediction built only from
//! OpenZL's standard codecs, so any OpenZL decoder reads the frames: the "up" predictor is a
//! column-major view of the frame (`split_by_struct` into one stream per column, `concat`)
//! followed by `delta_int`; the gradient predictor (`x - a - b + c`) puts a `delta_int` along
//! rows in front of it. The residuals are zigzagged, split into byte planes (`transpose_split`)
//! and entropy coded (`entropy`: Huffman or FSE). The graph is an encoder-side function graph:
//! the frame records only the standard transforms it ran.

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
    /// 2-D prediction (rows of the frame's `row` elements), then entropy coding of the residuals.
    Predict(Predictor),
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
    /// left predictors (fast, entropy coded), left+LZ and OpenZL's numeric graph at `level`
    /// (level 0: without it), in this order.
    pub fn image_candidates(level: i32) -> Vec<Graph> {
        let mut v = vec![
            Graph::Predict(Predictor::Gradient),
            Graph::Predict(Predictor::Left),
            Graph::Predict(Predictor::LeftLz),
        ];
        if level > 0 {
            v.push(Graph::Numeric(level));
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
}

impl Predictor {
    fn id(self) -> i32 {
        match self {
            Predictor::Up => 1,
            Predictor::Gradient => 2,
            Predictor::Left => 3,
            Predictor::LeftLz => 4,
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
struct Cctx(*mut zl::ZL_CCtx, *mut zl::ZL_Compressor, Vec<((Predictor, usize, usize, usize), PredictCompressor)>);
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

thread_local! {
    static CCTX: RefCell<Option<Cctx>> = const { RefCell::new(None) };
    static DCTX: RefCell<Option<Dctx>> = const { RefCell::new(None) };
}

/// A compressor with one registered predictor graph.
struct PredictCompressor(*mut zl::ZL_Compressor, zl::ZL_GraphID);

impl Drop for PredictCompressor {
    fn drop(&mut self) {
        // SAFETY: the pointer came from ZL_Compressor_create and is freed once, here; no
        // context references it any more (evicted: the context was re-pointed first; at thread
        // exit: Cctx frees its context before its fields drop).
        unsafe { zl::ZL_Compressor_free(self.0) }
    }
}

extern "C" {
    /// OpenZL's split-by-struct node with the given field sizes (defined in libopenzl, used by
    /// its public `ZL_Compressor_registerSplitByStructGraph`; the transform is a standard one,
    /// `ZL_StandardTransformID_splitByStruct`, which every decoder knows).
    fn ZL_createNode_splitByStruct(c: *mut zl::ZL_Compressor, sizes: *const usize, n: usize) -> zl::ZL_NodeID;
}

const PREDICTOR_PARAM: i32 = 7301;
const ROW_PARAM: i32 = 7302;
const ROWS_PARAM: i32 = 7303;
/// At most this many columns get the column-major view (one OpenZL stream per column).
pub const MAX_PREDICT_ROW: usize = 4096;

fn node(id: u32) -> zl::ZL_NodeID {
    zl::ZL_NodeID { nid: id as _ }
}

/// Runs a node on edges; the outputs, or `Err` when OpenZL refused.
///
/// # Safety
/// `edges` must be live edges of the graph being run.
unsafe fn run(edges: &[*mut zl::ZL_Edge], nid: zl::ZL_NodeID) -> std::result::Result<Vec<*mut zl::ZL_Edge>, ()> {
    // SAFETY: per the function contract; the edge list OpenZL returns lives as long as the graph
    // run and is copied out at once.
    unsafe {
        let r = if edges.len() == 1 {
            zl::ZL_Edge_runNode(edges[0], nid)
        } else {
            zl::ZL_Edge_runMultiInputNode(edges.as_ptr().cast_mut(), edges.len(), nid)
        };
        if r._code != zl::ZL_ErrorCode_no_error {
            return Err(());
        }
        let list = r._value._value;
        let (p, n) = (list.field_1.edges, list.field_2.nbEdges);
        if p.is_null() {
            return Err(());
        }
        Ok(std::slice::from_raw_parts(p, n).to_vec())
    }
}

/// # Safety
/// Called by OpenZL with a live graph and `n` live input edges.
unsafe fn predict_graph_body(
    graph: *mut zl::ZL_Graph,
    inputs: *mut *mut zl::ZL_Edge,
    n: usize,
) -> std::result::Result<(), ()> {
    // SAFETY: graph and inputs are live for this call (OpenZL's function-graph contract); the
    // node and graph lists belong to the compressor and outlive the call.
    unsafe {
        if n != 1 || inputs.is_null() {
            return Err(());
        }
        let nodes = zl::ZL_Graph_getCustomNodes(graph);
        let graphs = zl::ZL_Graph_getCustomGraphs(graph);
        if nodes.nbNodeIDs != 1 || graphs.nbGraphIDs != 1 {
            return Err(());
        }
        let split_cols = *nodes.nodeids;
        let sizes = *graphs.graphids;
        let predictor = zl::ZL_Graph_getLocalIntParam(graph, PREDICTOR_PARAM).paramValue;
        let row = zl::ZL_Graph_getLocalIntParam(graph, ROW_PARAM).paramValue as usize;
        let rows = zl::ZL_Graph_getLocalIntParam(graph, ROWS_PARAM).paramValue as usize;
        let sized = |e: *mut zl::ZL_Edge, g| {
            if report_error(zl::ZL_Edge_setDestination(e, g)).is_some() {
                return Err(());
            }
            Ok(())
        };
        // column-major view: one stream per column (split_by_struct), concatenated
        let transpose = |e: *mut zl::ZL_Edge| -> std::result::Result<*mut zl::ZL_Edge, ()> {
            let e = run(&[e], node(zl::ZL_StandardNodeID_convert_num_to_serial_le))?[0];
            let columns = run(&[e], split_cols)?;
            let out = run(&columns, node(zl::ZL_StandardNodeID_concat_struct))?;
            if out.len() != 2 {
                return Err(());
            }
            sized(out[0], sizes)?;
            Ok(run(&[out[1]], node(zl::ZL_StandardNodeID_convert_struct_to_num_le))?[0])
        };
        // residuals: zigzag, one byte plane per byte of the element (transpose_split), each
        // plane to OpenZL's entropy graph (Huffman or FSE, or stored, whichever is smallest)
        let finish = |e: *mut zl::ZL_Edge| -> std::result::Result<(), ()> {
            let entropy = zl::ZL_GraphID { gid: zl::ZL_StandardGraphID_entropy };
            let w = zl::ZL_Input_eltWidth(zl::ZL_Edge_getData(e));
            let z = run(&[e], node(zl::ZL_StandardNodeID_zigzag))?[0];
            if w == 1 {
                return sized(run(&[z], node(zl::ZL_StandardNodeID_convert_num_to_serial_le))?[0], entropy);
            }
            let s = run(&[z], node(zl::ZL_StandardNodeID_convert_num_to_struct_le))?[0];
            for p in run(&[s], zl::ZL_Graph_getTransposeSplitNode(graph, w))? {
                sized(p, entropy)?;
            }
            Ok(())
        };
        if predictor == Predictor::Left.id() || predictor == Predictor::LeftLz.id() {
            let e = run(&[*inputs], node(zl::ZL_StandardNodeID_delta_int))?[0];
            if predictor == Predictor::Left.id() {
                return finish(e);
            }
            return sized(e, zl::ZL_GraphID { gid: zl::ZL_StandardGraphID_field_lz });
        }
        if predictor == Predictor::Up.id() {
            let e = transpose(*inputs)?;
            return finish(run(&[e], node(zl::ZL_StandardNodeID_delta_int))?[0]);
        }
        // gradient: delta along rows; OpenZL's delta keeps the first value in its header, so its
        // output is row 0 less its first sample, then rows 1.. whole (each starting with the
        // step from the end of the row above); those rows, column-major, get a vertical delta
        let d = run(&[*inputs], node(zl::ZL_StandardNodeID_delta_int))?[0];
        let parts = run_split(d, &[row - 1, (rows - 1) * row])?;
        let v = transpose(parts[1])?;
        let v = run(&[v], node(zl::ZL_StandardNodeID_delta_int))?[0];
        let out = run(&[parts[0], v], node(zl::ZL_StandardNodeID_concat_num))?;
        if out.len() != 2 {
            return Err(());
        }
        sized(out[0], sizes)?;
        finish(out[1])
    }
}

/// # Safety
/// `e` must be a live numeric edge of the graph being run.
unsafe fn run_split(e: *mut zl::ZL_Edge, sizes: &[usize]) -> std::result::Result<Vec<*mut zl::ZL_Edge>, ()> {
    // SAFETY: per the function contract; the size array outlives the call.
    unsafe {
        let r = zl::ZL_Edge_runSplitNode(e, sizes.as_ptr(), sizes.len());
        if r._code != zl::ZL_ErrorCode_no_error {
            return Err(());
        }
        let list = r._value._value;
        let (p, n) = (list.field_1.edges, list.field_2.nbEdges);
        if p.is_null() || n != sizes.len() {
            return Err(());
        }
        Ok(std::slice::from_raw_parts(p, n).to_vec())
    }
}

unsafe extern "C" fn predict_graph(graph: *mut zl::ZL_Graph, inputs: *mut *mut zl::ZL_Edge, n: usize) -> zl::ZL_Report {
    // SAFETY: forwarded from OpenZL's call; no panic crosses back into C.
    let ok = std::panic::catch_unwind(|| unsafe { predict_graph_body(graph, inputs, n) }).unwrap_or(Err(()));
    // SAFETY: plain report constructors.
    unsafe {
        match ok {
            Ok(()) => zl::ZL_returnSuccess(),
            Err(()) => zl::ZL_returnError(zl::ZL_ErrorCode_GENERIC),
        }
    }
}

/// Builds a compressor whose starting graph is the predictor graph for `width`-byte elements in
/// rows of `row` elements.
fn predict_compressor(p: Predictor, width: usize, row: usize, rows: usize) -> Result<PredictCompressor> {
    // SAFETY: plain constructor; null checked; the descriptor and the arrays it points to live
    // through the registration call (OpenZL copies them).
    unsafe {
        let c = zl::ZL_Compressor_create();
        if c.is_null() {
            return Err(Error::Encode("cannot create an OpenZL compressor".into()));
        }
        let pc = PredictCompressor(c, zl::ZL_GraphID { gid: 0 });
        let cols = vec![width; row];
        let split = [ZL_createNode_splitByStruct(c, cols.as_ptr(), cols.len())];
        let graphs = [zl::ZL_GraphID { gid: zl::ZL_StandardGraphID_compress_generic }];
        let types = [zl::ZL_Type_numeric];
        let int = |v: usize| i32::try_from(v).map_err(|_| Error::Encode(format!("{v} rows or columns")));
        let params = [
            zl::ZL_IntParam { paramId: PREDICTOR_PARAM, paramValue: p.id() },
            zl::ZL_IntParam { paramId: ROW_PARAM, paramValue: int(row)? },
            zl::ZL_IntParam { paramId: ROWS_PARAM, paramValue: int(rows)? },
        ];
        let mut desc: zl::ZL_FunctionGraphDesc = std::mem::zeroed();
        desc.name = c"rumi.predict".as_ptr();
        desc.graph_f = Some(predict_graph);
        desc.inputTypeMasks = types.as_ptr();
        desc.nbInputs = 1;
        desc.customGraphs = graphs.as_ptr();
        desc.nbCustomGraphs = graphs.len();
        desc.customNodes = split.as_ptr();
        desc.nbCustomNodes = split.len();
        desc.localParams.intParams = zl::ZL_LocalIntParams { intParams: params.as_ptr(), nbIntParams: params.len() };
        let gid = zl::ZL_Compressor_registerFunctionGraph(c, &desc);
        if gid.gid == zl::ZL_StandardGraphID_illegal {
            return Err(Error::Encode("cannot register the prediction graph".into()));
        }
        Ok(PredictCompressor(pc.into_raw(), gid))
    }
}

impl PredictCompressor {
    fn into_raw(self) -> *mut zl::ZL_Compressor {
        let p = self.0;
        std::mem::forget(self);
        p
    }
}

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
        let mut v: Vec<u64> = Vec::new();
        v.try_reserve_exact(words).map_err(|_| Error::Alloc { what, bytes: len as u64 })?;
        v.resize(words, 0);
        Ok(AlignedBuf { words: v, len })
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

fn compress_once(src: &AlignedBuf, width: usize, graph: zl::ZL_GraphID, level: i32) -> Result<Vec<u8>> {
    compress_with(src, Some(width), None, graph, level)
}

/// Compresses with the predictor graph `p` (rows of `row` elements); falls back to the numeric
/// graph when the frame is not at least two whole rows or the rows are too long.
fn compress_predict(src: &AlignedBuf, width: usize, row: usize, p: Predictor, level: i32) -> Result<Vec<u8>> {
    let count = src.len / width;
    if !(2..=MAX_PREDICT_ROW).contains(&row) || count % row != 0 || count / row < 2 {
        return compress_once(src, width, zl::ZL_GraphID { gid: zl::ZL_StandardGraphID_select_numeric }, level);
    }
    compress_with(src, Some(width), Some((p, width, row, count / row)), zl::ZL_GraphID { gid: 0 }, level)
}

/// Compresses `src` as numeric elements of `width` bytes (serial bytes for `None`), with the
/// standard `graph` or the predictor compressor `custom`.
fn compress_with(
    src: &AlignedBuf,
    width: Option<usize>,
    custom: Option<(Predictor, usize, usize, usize)>,
    graph: zl::ZL_GraphID,
    level: i32,
) -> Result<Vec<u8>> {
    CCTX.with(|cell| {
        let mut slot = cell.borrow_mut();
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
                    if cache.len() >= 16 {
                        // SAFETY: the context stops referencing the compressor about to be freed.
                        if let Some(e) = report_error(unsafe { zl::ZL_CCtx_refCompressor(cctx, ctx.1) }) {
                            return Err(Error::Encode(e));
                        }
                        cache.remove(0);
                    }
                    cache.push((key, predict_compressor(key.0, key.1, key.2, key.3)?));
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
                return Err(Error::Encode(e));
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
        Graph::Predict(p) => compress_predict(src, width, row, p, 6),
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

/// With [`Graph::Auto`], each [`Graph::decode_class`] step slower must save this fraction of the
/// frame's bytes to be kept (see [`choose`]): measured on `../shared/data` with
/// `bench/graph_probe.rs` (see README "Compression").
pub const SLOWER_COSTS: f64 = 0.02;

impl Graph {
    /// How fast frames of this graph decode, 0 the fastest: the order measured with
    /// `bench/graph_probe.rs` on the real rasters of `../shared/data` (figures in
    /// docs/performance.md, "Decode classes").
    pub fn decode_class(self) -> u8 {
        match self {
            Graph::Predict(Predictor::LeftLz) => 0,
            Graph::Numeric(_) | Graph::Generic(_) | Graph::BestOf | Graph::Image(_) | Graph::Auto(_) => 1,
            Graph::Predict(Predictor::Left) => 2,
            Graph::Predict(Predictor::Gradient | Predictor::Up) => 3,
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

/// Of candidate frames `(graph, bytes)`, the index of the one to keep: the least
/// `bytes * (1 + slower_costs * decode class)`, then the first (`slower_costs` 0: the smallest).
pub fn choose(frames: &[(Graph, usize)], slower_costs: f64) -> Option<usize> {
    let cost = |f: &(Graph, usize)| f.1 as f64 * (1.0 + slower_costs * f64::from(f.0.decode_class()));
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
    let i = choose(&sizes, slower_costs).ok_or_else(|| Error::Encode("no compression candidates".into()))?;
    Ok((made.swap_remove(i), i))
}

fn check_width(samples: &[u8], width: usize) -> Result<()> {
    if ![1, 2, 4, 8].contains(&width) || samples.len() % width != 0 {
        return Err(Error::Encode(format!("{} bytes are not a whole number of {width}-byte elements", samples.len())));
    }
    Ok(())
}

/// Decodes one frame into `out`, which must be exactly the decoded size the header implies.
/// A frame is defined by its decoded bytes (spec: "Frames"): whatever OpenZL output type it
/// uses (serial bytes, numeric elements of any width, fixed-size structs), it is accepted when
/// it decodes to exactly `out.len()` bytes, and fails naming both counts otherwise. `index`
/// names the frame in errors.
/// Decoded frames larger than this do not leave their OpenZL working memory in the decoding
/// thread's context (see [`decode_into`]).
const STACK_ARENA_FRAME_BYTES: usize = 16 << 20;

pub fn decode_into(frame: &[u8], out: &mut AlignedBuf, index: u64) -> Result<()> {
    let expected = out.len as u64;
    // SAFETY: the size query only reads `frame` within its length.
    let r = unsafe { zl::ZL_getDecompressedSize(frame.as_ptr().cast(), frame.len()) };
    if let Some(message) = report_error(r) {
        return Err(Error::Decode { index, message });
    }
    let announced = report_value(r) as u64;
    if announced != expected {
        return Err(Error::DecodedSize { index, found: announced, expected });
    }
    DCTX.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.is_none() {
            // SAFETY: plain constructor; null is checked below.
            let p = unsafe { zl::ZL_DCtx_create() };
            if p.is_null() {
                return Err(Error::Decode { index, message: "cannot create an OpenZL decompression context".into() });
            }
            let dctx = Dctx(p);
            // The stack arena keeps one working buffer per context, reused by every frame the
            // thread decodes: with the default heap arena each frame's streams are malloc'ed
            // and freed, and glibc hands the top of its heap back to the kernel after nearly
            // every frame, so that short reads page-fault OpenZL's working memory in afresh
            // each time. An error here only means the default arena stays.
            // SAFETY: `p` is a live context owned by this thread.
            let _ = unsafe { zl::ZL_DCtx_setStreamArena(p, zl::ZL_DataArenaType_stack) };
            *slot = Some(dctx);
        }
        let dctx = slot.as_ref().map(|c| c.0).unwrap_or(std::ptr::null_mut());
        let mut info = zl::ZL_OutputInfo { type_: 0, fixedWidth: 0, decompressedByteSize: 0, numElts: 0 };
        let cap = out.len;
        // SAFETY: dctx is live and owned by this thread; `out` is 8-byte aligned with `cap`
        // writable bytes; `frame` is read within its length.
        let r = unsafe {
            zl::ZL_DCtx_decompressTyped(
                dctx,
                &mut info,
                out.as_bytes_mut().as_mut_ptr().cast(),
                cap,
                frame.as_ptr().cast(),
                frame.len(),
            )
        };
        if cap > STACK_ARENA_FRAME_BYTES {
            // a large frame leaves a working buffer of its size in the arena: a new arena frees
            // it rather than keeping it for the life of the thread
            // SAFETY: `dctx` is live and owned by this thread; no decompression is running.
            let _ = unsafe { zl::ZL_DCtx_setStreamArena(dctx, zl::ZL_DataArenaType_stack) };
        }
        if let Some(message) = report_error(r) {
            return Err(Error::Decode { index, message });
        }
        if info.decompressedByteSize != expected {
            return Err(Error::DecodedSize { index, found: info.decompressedByteSize, expected });
        }
        Ok(())
    })
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
mod tests {
    use super::*;

    /// The kept frame (auto): the smallest unless a faster graph's is within SLOWER_COSTS per
    /// decode class step; the first on ties. Image: the smallest.
    #[test]
    fn choose_trades_two_percent_per_speed_class() {
        let (grad, left, lz, num) = (
            Graph::Predict(Predictor::Gradient),
            Graph::Predict(Predictor::Left),
            Graph::Predict(Predictor::LeftLz),
            Graph::Numeric(7),
        );
        assert_eq!(choose(&[], SLOWER_COSTS), None);
        assert_eq!(choose(&[(lz, 1000), (grad, 990)], 0.0), Some(1));
        assert_eq!(Graph::Image(7).slower_costs(), 0.0);
        assert_eq!(Graph::Auto(7).slower_costs(), SLOWER_COSTS);
        // gradient 3 classes slower than left+LZ: kept only when more than 6 % smaller
        assert_eq!(choose(&[(grad, 950), (lz, 1000)], SLOWER_COSTS), Some(1));
        assert_eq!(choose(&[(grad, 930), (lz, 1000)], SLOWER_COSTS), Some(0));
        // numeric vs left (one class): left must be more than 2 % smaller
        assert_eq!(choose(&[(left, 985), (num, 1000)], SLOWER_COSTS), Some(1));
        assert_eq!(choose(&[(left, 970), (num, 1000)], SLOWER_COSTS), Some(0));
        assert_eq!(choose(&[(num, 1000), (Graph::Numeric(3), 1000)], SLOWER_COSTS), Some(0));
        // the writer's candidates on a noisy surface: encode_best keeps what `choose` picks
        // from the candidates' own frame sizes, and that frame decodes to the samples
        let mut seed = 1u32;
        let surface: Vec<u8> = (0..64u32 * 64)
            .flat_map(|i| {
                seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                let (y, x) = (i / 64, i % 64);
                ((x * x + 3 * y * y + x * y) as u16 / 4 + (seed >> 28) as u16).to_le_bytes()
            })
            .collect();
        let cands = Graph::image_candidates(7);
        let sizes: Vec<(Graph, usize)> =
            cands.iter().map(|&g| (g, encode_rows(&surface, 2, 64, g).unwrap().len())).collect();
        let (frame, i) = encode_best(&surface, 2, 64, &cands, SLOWER_COSTS).unwrap();
        assert_eq!((Some(i), frame.len()), (choose(&sizes, SLOWER_COSTS), sizes[i].1), "{sizes:?}");
        let mut out = AlignedBuf::zeroed(surface.len());
        decode_into(&frame, &mut out, 0).unwrap();
        assert_eq!(out.as_bytes(), &surface[..]);
    }

    #[test]
    /// One thread's context (its stack arena reused frame after frame, and renewed after a frame
    /// larger than STACK_ARENA_FRAME_BYTES) decodes frames of alternating sizes exactly.
    fn arena_reuse_across_frame_sizes() {
        let small: Vec<u8> = (0..65536u32).flat_map(|i| ((i * 13 % 4000) as u16).to_le_bytes()).collect();
        let large: Vec<u8> =
            (0..(STACK_ARENA_FRAME_BYTES as u32 / 2 + 4096)).flat_map(|i| ((i % 65521) as u16).to_le_bytes()).collect();
        let (fs, fl) = (encode(&small, 2, Graph::Numeric(3)).unwrap(), encode(&large, 2, Graph::Numeric(3)).unwrap());
        for (f, want) in [(&fs, &small), (&fl, &large), (&fs, &small), (&fs, &small), (&fl, &large), (&fs, &small)] {
            let mut out = AlignedBuf::zeroed(want.len());
            decode_into(f, &mut out, 0).unwrap();
            assert!(out.as_bytes() == &want[..], "{} bytes decoded wrong", want.len());
        }
        // a corrupt frame after them fails cleanly, and the context still decodes afterwards
        let mut bad = fs.clone();
        let mid = bad.len() / 2;
        bad[mid] ^= 0xff;
        let mut out = AlignedBuf::zeroed(small.len());
        assert!(decode_into(&bad, &mut out, 0).is_err());
        decode_into(&fs, &mut out, 0).unwrap();
        assert!(out.as_bytes() == &small[..]);
    }

    #[test]
    fn round_trip_whatever_the_output_type() {
        let data: Vec<u8> = (0..4096u32).flat_map(|i| ((i * 7 % 1000) as u16).to_le_bytes()).collect();
        for f in [
            Graph::Numeric(6),
            Graph::Numeric(7),
            Graph::Generic(6),
            Graph::BestOf,
            Graph::Predict(Predictor::Gradient),
            Graph::Predict(Predictor::Up),
            Graph::Image(7),
        ]
        .into_iter()
        .map(|g| encode_rows(&data, 2, 64, g).unwrap())
        .chain([1, 4, 8].map(|w| encode(&data, w, Graph::Numeric(6)).unwrap()))
        .chain([encode_serial(&data, 6).unwrap()])
        {
            let mut out = AlignedBuf::zeroed(data.len());
            decode_into(&f, &mut out, 0).unwrap();
            assert_eq!(out.as_bytes(), &data[..]);
            let mut short = AlignedBuf::zeroed(data.len() - 2);
            let e = decode_into(&f, &mut short, 1).unwrap_err();
            assert_eq!(
                e.to_string(),
                "frame 1: decoded 8192 bytes, expected 8190 (the header blob may not belong to this file)"
            );
        }
    }

    #[test]
    fn memory_that_cannot_be_had_is_an_error() {
        let e = AlignedBuf::try_zeroed(usize::MAX / 2, "a decoded frame").unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("cannot allocate {} bytes for a decoded frame: out of memory", usize::MAX / 2)
        );
        assert_eq!(AlignedBuf::try_zeroed(12, "x").unwrap().as_bytes(), &[0u8; 12]);
    }

    #[test]
    fn garbage_is_an_error() {
        let mut out = AlignedBuf::zeroed(64);
        assert!(decode_into(&[0x28, 0xb5, 1, 2, 3, 4, 5, 6, 7], &mut out, 9).is_err());
        assert!(decode_into(&[], &mut out, 9).is_err());
    }
}
