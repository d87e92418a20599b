//! The image graphs' 2-D prediction, built only from OpenZL's standard codecs (see the
//! module above).

use super::*;

/// A compressor with one registered predictor graph.
pub(super) struct PredictCompressor(pub(super) *mut zl::ZL_Compressor, pub(super) zl::ZL_GraphID);

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
const CODING_PARAM: i32 = 7304;
/// `ZL_CONVERT_SERIAL_TO_STRUCT_SIZE_PID` (codecs/zl_conversion.h, not in the bindings).
const STRUCT_SIZE_PID: i32 = 1;
/// `ZL_PARTITION_CUSTOM_PID` (codecs/zl_partition.h, not in the generated bindings).
const PARTITION_CUSTOM_PID: i32 = 121;
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
        edges_of(r)
    }
}

/// The edges a node run returned, copied out, or `Err` when OpenZL refused.
///
/// # Safety
/// `r` must be the result of a node run of the graph being run (its edge list lives as long as
/// that run).
unsafe fn edges_of(r: zl::ZL_Result_ZL_EdgeList) -> std::result::Result<Vec<*mut zl::ZL_Edge>, ()> {
    // SAFETY: `_code` is the result's tag, always set; a successful result holds the edge list,
    // which is copied out at once.
    unsafe {
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

/// Runs a node with local parameters on one edge; the outputs, or `Err` when OpenZL refused.
///
/// # Safety
/// `e` must be a live edge of the graph being run; `params` lives through the call.
unsafe fn run_with(
    e: *mut zl::ZL_Edge,
    nid: zl::ZL_NodeID,
    params: &zl::ZL_LocalParams,
) -> std::result::Result<Vec<*mut zl::ZL_Edge>, ()> {
    // SAFETY: per the function contract; the edge list is copied out at once.
    unsafe {
        let r = zl::ZL_Edge_runNode_withParams(e, nid, params);
        edges_of(r)
    }
}

/// The buckets of [`Coding::Partition`] for zigzagged 16-bit residuals: 0..PARTITION_SINGLES
/// one value each, then power-of-two buckets (16, 32, ... 32768 values) whose offsets are
/// stored as raw extra bits: `[first value, bucket sizes...]`, OpenZL's custom partition list.
const PARTITION_SINGLES: u64 = 240;
static PARTITION_16: [u64; 1 + PARTITION_SINGLES as usize + 12] = {
    let mut t = [1u64; 1 + PARTITION_SINGLES as usize + 12];
    t[0] = 0;
    let mut k = 0;
    while k < 12 {
        t[1 + PARTITION_SINGLES as usize + k] = 16 << k;
        k += 1;
    }
    t
};

/// The node that views serial bytes as little-endian numbers of `w` bytes.
fn num_from_serial(w: usize) -> zl::ZL_NodeID {
    node(if w == 1 {
        zl::ZL_StandardNodeID_convert_serial_to_num8
    } else {
        zl::ZL_StandardNodeID_convert_serial_to_num_le16
    })
}

/// Forward-adaptive classes of zigzagged residuals (`bytes`: little-endian numbers of `w`
/// bytes): segments of `segment` samples (the last one shorter), each tagged with one of at most
/// `k` classes by its mean, the class bounds being the quantiles of the segment means; the
/// tags renumbered 0.. over the classes used. Returns segment sizes in bytes, tags, classes.
fn class_tags(bytes: &[u8], w: usize, segment: usize, k: usize) -> (Vec<usize>, Vec<u32>, usize) {
    let seg_bytes = segment * w;
    let means: Vec<u64> = bytes
        .chunks(seg_bytes)
        .map(|c| {
            let sum: u64 = if w == 1 {
                c.iter().map(|&b| u64::from(b)).sum()
            } else {
                c.chunks_exact(2).map(|p| u64::from(u16::from_le_bytes([p[0], p[1]]))).sum()
            };
            sum * 16 / (c.len() / w).max(1) as u64
        })
        .collect();
    let mut sorted = means.clone();
    sorted.sort_unstable();
    let mut bounds: Vec<u64> = (1..k).map(|i| sorted[i * sorted.len() / k]).collect();
    bounds.dedup();
    let raw: Vec<u32> = means.iter().map(|m| bounds.iter().filter(|&&b| *m >= b).count() as u32).collect();
    let mut used = [false; 32];
    for &t in &raw {
        used[t as usize] = true;
    }
    let mut map = [0u32; 32];
    let mut next = 0u32;
    for (t, u) in used.iter().enumerate() {
        if *u {
            map[t] = next;
            next += 1;
        }
    }
    let tags = raw.iter().map(|&t| map[t as usize]).collect();
    let sizes = bytes.chunks(seg_bytes).map(<[u8]>::len).collect();
    (sizes, tags, next as usize)
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
        let coding = zl::ZL_Graph_getLocalIntParam(graph, CODING_PARAM).paramValue;
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
        let entropy = zl::ZL_GraphID { gid: zl::ZL_StandardGraphID_entropy };
        let pivco = zl::ZL_GraphID { gid: zl::ZL_StandardGraphID_huffman_pivco };
        let store = zl::ZL_GraphID { gid: zl::ZL_StandardGraphID_store };
        let coding = Coding::from_id(coding);
        // a serial stream of residual bytes to its stage
        let stage = |e: *mut zl::ZL_Edge, st: Stage| -> std::result::Result<(), ()> {
            match st {
                Stage::Entropy => sized(e, entropy),
                Stage::Pivco | Stage::Partition => sized(e, pivco),
                Stage::Zstd => sized(e, zl::ZL_GraphID { gid: zl::ZL_StandardGraphID_zstd }),
                Stage::FieldLz => {
                    let n = run(&[e], node(zl::ZL_StandardNodeID_convert_serial_to_num8))?[0];
                    sized(n, zl::ZL_GraphID { gid: zl::ZL_StandardGraphID_field_lz })
                }
                Stage::Sparse => {
                    // sparse_num pays on planes that are mostly zeros (the high planes of
                    // integer residuals); a dense plane (a float's mantissa) goes to `entropy`
                    let data = zl::ZL_Edge_getData(e);
                    let bytes =
                        std::slice::from_raw_parts(zl::ZL_Input_ptr(data).cast::<u8>(), zl::ZL_Input_contentSize(data));
                    if bytes.iter().filter(|&&b| b == 0).count() * 4 < bytes.len() * 3 {
                        return sized(e, entropy);
                    }
                    let n = run(&[e], node(zl::ZL_StandardNodeID_convert_serial_to_num8))?[0];
                    for o in run(&[n], node(zl::ZL_StandardNodeID_sparse_num))? {
                        sized(o, zl::ZL_GraphID { gid: zl::ZL_StandardGraphID_compress_generic })?;
                    }
                    Ok(())
                }
            }
        };
        // zigzagged residuals (numeric, `w` bytes) to their streams
        let code = |z: *mut zl::ZL_Edge, w: usize| -> std::result::Result<(), ()> {
            if w == 1 {
                return stage(run(&[z], node(zl::ZL_StandardNodeID_convert_num_to_serial_le))?[0], coding.low);
            }
            if coding.low == Stage::Partition && w == 2 {
                let custom = zl::ZL_CopyParam {
                    paramId: PARTITION_CUSTOM_PID,
                    paramPtr: PARTITION_16.as_ptr().cast(),
                    paramSize: std::mem::size_of_val(&PARTITION_16),
                };
                let mut lp: zl::ZL_LocalParams = std::mem::zeroed();
                lp.copyParams = zl::ZL_LocalCopyParams { copyParams: &custom, nbCopyParams: 1 };
                let out = run_with(z, node(zl::ZL_StandardNodeID_partition), &lp)?;
                if out.len() != 2 {
                    return Err(());
                }
                sized(out[0], pivco)?;
                return sized(out[1], store);
            }
            let s = run(&[z], node(zl::ZL_StandardNodeID_convert_num_to_struct_le))?[0];
            for (i, p) in run(&[s], zl::ZL_Graph_getTransposeSplitNode(graph, w))?.into_iter().enumerate() {
                stage(p, if i == 0 { coding.low } else { coding.high })?;
            }
            Ok(())
        };
        let finish = |e: *mut zl::ZL_Edge| -> std::result::Result<(), ()> {
            let w = zl::ZL_Input_eltWidth(zl::ZL_Edge_getData(e));
            let z = run(&[e], node(zl::ZL_StandardNodeID_zigzag))?[0];
            if coding.classes < 2 || coding.segment == 0 || w > 2 {
                return code(z, w);
            }
            // forward-adaptive classes: segments of `segment` samples tagged by mean residual
            let serial = run(&[z], node(zl::ZL_StandardNodeID_convert_num_to_serial_le))?[0];
            let data = zl::ZL_Edge_getData(serial);
            let bytes = std::slice::from_raw_parts(zl::ZL_Input_ptr(data).cast::<u8>(), zl::ZL_Input_contentSize(data));
            let (sizes, tags, k) = class_tags(bytes, w, usize::from(coding.segment), usize::from(coding.classes));
            if k < 2 {
                return code(run(&[serial], num_from_serial(w))?[0], w);
            }
            let instr = zl::ZL_DispatchInstructions {
                segmentSizes: sizes.as_ptr(),
                tags: tags.as_ptr(),
                nbSegments: sizes.len(),
                nbTags: k as u32,
            };
            let r = zl::ZL_Edge_runDispatchNode(serial, &instr);
            if r._code != zl::ZL_ErrorCode_no_error {
                return Err(());
            }
            let list = r._value._value;
            let (p, n) = (list.field_1.edges, list.field_2.nbEdges);
            if p.is_null() || n != 2 + k {
                return Err(());
            }
            let out = std::slice::from_raw_parts(p, n).to_vec();
            sized(out[0], entropy)?;
            sized(out[1], entropy)?;
            for &c in &out[2..] {
                code(run(&[c], num_from_serial(w))?[0], w)?;
            }
            Ok(())
        };
        if predictor > BANDS_ID {
            let lz = predictor > BANDS_LZ_ID;
            let field_lz = zl::ZL_GraphID { gid: zl::ZL_StandardGraphID_field_lz };
            let count = zl::ZL_Input_numElts(zl::ZL_Edge_getData(*inputs));
            // the compressor's split node cuts a pixel (`row` samples) into its bands
            let bands = row;
            if bands < 2 || count % bands != 0 || count < 2 * bands {
                let d = run(&[*inputs], node(zl::ZL_StandardNodeID_delta_int))?[0];
                return if lz { sized(d, field_lz) } else { finish(d) };
            }
            // band differences along the interleaved samples (OpenZL's delta keeps the first in
            // its header: the rest of pixel 0 is set apart, so that the planes start at pixel 1's
            // first band), then one plane per band (split_by_struct), each with a delta along it
            let d = run(&[*inputs], node(zl::ZL_StandardNodeID_delta_int))?[0];
            let parts = run_split(d, &[bands - 1, count - bands])?;
            sized(parts[0], sizes)?;
            let d = run(&[parts[1]], node(zl::ZL_StandardNodeID_convert_num_to_serial_le))?[0];
            let planes = if zl::ZL_Input_eltWidth(zl::ZL_Edge_getData(*inputs)) == 1 {
                // bytes: a transposition of pixel-sized structs (its decoder is 2-3x faster than
                // split_by_struct's join of one-byte fields)
                let size = [zl::ZL_IntParam { paramId: STRUCT_SIZE_PID, paramValue: bands as i32 }];
                let mut lp: zl::ZL_LocalParams = std::mem::zeroed();
                lp.intParams = zl::ZL_LocalIntParams { intParams: size.as_ptr(), nbIntParams: 1 };
                let d = run_with(d, node(zl::ZL_StandardNodeID_convert_serial_to_struct), &lp)?[0];
                run(&[d], zl::ZL_Graph_getTransposeSplitNode(graph, bands))?
                    .into_iter()
                    .map(|p| run(&[p], node(zl::ZL_StandardNodeID_convert_serial_to_num8)).map(|v| v[0]))
                    .collect::<std::result::Result<Vec<_>, ()>>()?
            } else {
                run(&[d], split_cols)?
                    .into_iter()
                    .map(|p| run(&[p], node(zl::ZL_StandardNodeID_convert_struct_to_num_le)).map(|v| v[0]))
                    .collect::<std::result::Result<Vec<_>, ()>>()?
            };
            for n in planes {
                let d = run(&[n], node(zl::ZL_StandardNodeID_delta_int))?[0];
                if lz {
                    sized(d, field_lz)?;
                } else {
                    finish(d)?;
                }
            }
            return Ok(());
        }
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
pub(super) fn predict_compressor(
    p: Predictor,
    coding: Coding,
    width: usize,
    row: usize,
    rows: usize,
) -> Result<PredictCompressor> {
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
            zl::ZL_IntParam { paramId: CODING_PARAM, paramValue: coding.id() },
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
