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
pub(super) fn predict_compressor(p: Predictor, width: usize, row: usize, rows: usize) -> Result<PredictCompressor> {
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
