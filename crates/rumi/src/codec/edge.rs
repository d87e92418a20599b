//! Safe handles on one run of a function graph: OpenZL calls the predictor graph with a graph
//! and its input edges, live for that call; [`Run`] and [`Edge`] carry that call's lifetime, so
//! that the predictor graphs (`predict.rs`, `residual.rs`) are safe code and every OpenZL call
//! on the run is one small unsafe block here. OpenZL itself refuses (with an error, which these
//! return as [`Refused`]) a node id that does not exist or an edge already consumed.

use std::marker::PhantomData;

use openzl_sys as zl;

use super::ffi::report_error;

/// OpenZL refused a step of the graph run (the run then fails with OpenZL's generic error).
#[derive(Debug)]
pub(super) struct Refused;

/// What a step of a graph run gives: its value, or [`Refused`].
pub(super) type Step<T = ()> = std::result::Result<T, Refused>;

/// One run of a function graph: the graph OpenZL called it with, live for `'g` (the call).
pub(super) struct Run<'g> {
    graph: *mut zl::ZL_Graph,
    call: PhantomData<&'g mut zl::ZL_Graph>,
}

/// An edge (a stream) of the run `'g`: one of its inputs or of the outputs of a node it ran.
#[derive(Clone, Copy)]
#[repr(transparent)]
pub(super) struct Edge<'g>(*mut zl::ZL_Edge, PhantomData<&'g zl::ZL_Edge>);

impl<'g> Run<'g> {
    /// The run of `graph` and its input edges.
    ///
    /// # Safety
    /// `graph` and the `n` edges at `inputs` are what OpenZL passed to a function graph, and
    /// `'g` ends with that call.
    pub(super) unsafe fn new(
        graph: *mut zl::ZL_Graph,
        inputs: *mut *mut zl::ZL_Edge,
        n: usize,
    ) -> Step<(Run<'g>, Vec<Edge<'g>>)> {
        if graph.is_null() || inputs.is_null() {
            return Err(Refused);
        }
        // SAFETY: per the function contract, `inputs` points to `n` live edges.
        let inputs = unsafe { std::slice::from_raw_parts(inputs, n) };
        Ok((Run { graph, call: PhantomData }, inputs.iter().map(|&e| Edge(e, PhantomData)).collect()))
    }

    /// The one custom node and the one custom graph registered with the function graph.
    pub(super) fn custom(&self) -> Step<(zl::ZL_NodeID, zl::ZL_GraphID)> {
        // SAFETY: the graph is live for 'g; both lists belong to its compressor, which outlives the run.
        let (nodes, graphs) =
            unsafe { (zl::ZL_Graph_getCustomNodes(self.graph), zl::ZL_Graph_getCustomGraphs(self.graph)) };
        if nodes.nbNodeIDs != 1 || graphs.nbGraphIDs != 1 || nodes.nodeids.is_null() || graphs.graphids.is_null() {
            return Err(Refused);
        }
        // SAFETY: each list holds exactly one id (checked above).
        Ok(unsafe { (*nodes.nodeids, *graphs.graphids) })
    }

    /// The function graph's local integer parameter `id` (0 when it has none).
    pub(super) fn int_param(&self, id: i32) -> i32 {
        // SAFETY: the graph is live for 'g; the parameter is returned by value.
        unsafe { zl::ZL_Graph_getLocalIntParam(self.graph, id) }.paramValue
    }

    /// OpenZL's `transpose_split` node for structs of `width` bytes.
    pub(super) fn transpose_split(&self, width: usize) -> zl::ZL_NodeID {
        // SAFETY: the graph is live for 'g; the node id is returned by value.
        unsafe { zl::ZL_Graph_getTransposeSplitNode(self.graph, width) }
    }

    /// Runs the node `nid` on `edges` (one, or several for a multi-input node); its outputs.
    pub(super) fn run(&self, edges: &[Edge<'g>], nid: zl::ZL_NodeID) -> Step<Vec<Edge<'g>>> {
        let r = if edges.len() == 1 {
            // SAFETY: the edge belongs to this run, live for 'g.
            unsafe { zl::ZL_Edge_runNode(edges[0].0, nid) }
        } else {
            // SAFETY: the edges belong to this run; `Edge` is a transparent edge pointer.
            unsafe {
                zl::ZL_Edge_runMultiInputNode(edges.as_ptr().cast::<*mut zl::ZL_Edge>().cast_mut(), edges.len(), nid)
            }
        };
        self.outputs(r, None)
    }

    /// Runs the node `nid` on one edge; its first output.
    pub(super) fn run1(&self, e: Edge<'g>, nid: zl::ZL_NodeID) -> Step<Edge<'g>> {
        self.run(&[e], nid)?.first().copied().ok_or(Refused)
    }

    /// Runs the node `nid` on one edge with integer parameters `ints`; its first output.
    pub(super) fn run1_with_ints(&self, e: Edge<'g>, nid: zl::ZL_NodeID, ints: &[zl::ZL_IntParam]) -> Step<Edge<'g>> {
        let mut params = no_params();
        params.intParams = zl::ZL_LocalIntParams { intParams: ints.as_ptr(), nbIntParams: ints.len() };
        self.run_with(e, nid, &params)?.first().copied().ok_or(Refused)
    }

    /// Runs the node `nid` on one edge with the copied parameter `copy`; its outputs.
    pub(super) fn run_with_copy(
        &self,
        e: Edge<'g>,
        nid: zl::ZL_NodeID,
        copy: &zl::ZL_CopyParam,
    ) -> Step<Vec<Edge<'g>>> {
        let mut params = no_params();
        params.copyParams = zl::ZL_LocalCopyParams { copyParams: copy, nbCopyParams: 1 };
        self.run_with(e, nid, &params)
    }

    fn run_with(&self, e: Edge<'g>, nid: zl::ZL_NodeID, params: &zl::ZL_LocalParams) -> Step<Vec<Edge<'g>>> {
        // SAFETY: the edge belongs to this run; `params` and what it points to live through the call.
        let r = unsafe { zl::ZL_Edge_runNode_withParams(e.0, nid, params) };
        self.outputs(r, None)
    }

    /// Splits a numeric edge into segments of `sizes` elements; one edge per segment.
    pub(super) fn split(&self, e: Edge<'g>, sizes: &[usize]) -> Step<Vec<Edge<'g>>> {
        // SAFETY: the edge belongs to this run; the size array lives through the call.
        let r = unsafe { zl::ZL_Edge_runSplitNode(e.0, sizes.as_ptr(), sizes.len()) };
        self.outputs(r, Some(sizes.len()))
    }

    /// Dispatches a serial edge's segments of `sizes` bytes by `tags` (`0..classes`): the sizes
    /// and tags edges, then one edge per class.
    pub(super) fn dispatch(&self, e: Edge<'g>, sizes: &[usize], tags: &[u32], classes: usize) -> Step<Vec<Edge<'g>>> {
        if sizes.len() != tags.len() {
            return Err(Refused);
        }
        let nb_tags = u32::try_from(classes).map_err(|_| Refused)?;
        let instr = zl::ZL_DispatchInstructions {
            segmentSizes: sizes.as_ptr(),
            tags: tags.as_ptr(),
            nbSegments: sizes.len(),
            nbTags: nb_tags,
        };
        // SAFETY: the edge belongs to this run; the instructions' arrays live through the call.
        let r = unsafe { zl::ZL_Edge_runDispatchNode(e.0, &instr) };
        self.outputs(r, Some(2 + classes))
    }

    /// Sends an edge to the graph `gid` (it leaves the function graph there).
    pub(super) fn send(&self, e: Edge<'g>, gid: zl::ZL_GraphID) -> Step {
        // SAFETY: the edge belongs to this run; the graph id is passed by value.
        let r = unsafe { zl::ZL_Edge_setDestination(e.0, gid) };
        report_error(r).map_or(Ok(()), |_| Err(Refused))
    }

    /// The edges a node run returned (`n` of them, when given), copied out.
    fn outputs(&self, r: zl::ZL_Result_ZL_EdgeList, n: Option<usize>) -> Step<Vec<Edge<'g>>> {
        // SAFETY: `_code` is the result's tag, always set.
        if unsafe { r._code } != zl::ZL_ErrorCode_no_error {
            return Err(Refused);
        }
        // SAFETY: a successful result holds the edge list.
        let (p, len) = unsafe { (r._value._value.field_1.edges, r._value._value.field_2.nbEdges) };
        if p.is_null() || n.is_some_and(|n| n != len) {
            return Err(Refused);
        }
        // SAFETY: the list holds `len` edges of this run and lives as long as the run.
        let edges = unsafe { std::slice::from_raw_parts(p, len) };
        Ok(edges.iter().map(|&e| Edge(e, PhantomData)).collect())
    }
}

/// A standard node by id.
pub(super) fn node(id: u32) -> zl::ZL_NodeID {
    zl::ZL_NodeID { nid: id as _ }
}

/// A standard graph by id.
pub(super) fn graph_id(id: u32) -> zl::ZL_GraphID {
    zl::ZL_GraphID { gid: id as _ }
}

/// Local parameters with none set.
fn no_params() -> zl::ZL_LocalParams {
    // SAFETY: ZL_LocalParams is pointers and counts, for which all zeros means "none".
    unsafe { std::mem::zeroed() }
}

impl<'g> Edge<'g> {
    /// The width in bytes of the edge's elements.
    pub(super) fn width(self) -> usize {
        // SAFETY: the edge and its stream are live for 'g.
        unsafe { zl::ZL_Input_eltWidth(zl::ZL_Edge_getData(self.0)) }
    }

    /// The number of elements on the edge.
    pub(super) fn count(self) -> usize {
        // SAFETY: the edge and its stream are live for 'g.
        unsafe { zl::ZL_Input_numElts(zl::ZL_Edge_getData(self.0)) }
    }

    /// The bytes of the edge's stream.
    pub(super) fn bytes(self) -> &'g [u8] {
        // SAFETY: the edge and its stream are live for 'g.
        let (p, n) = unsafe {
            let data = zl::ZL_Edge_getData(self.0);
            (zl::ZL_Input_ptr(data).cast::<u8>(), zl::ZL_Input_contentSize(data))
        };
        if p.is_null() || n == 0 {
            return &[];
        }
        // SAFETY: the stream's `n` content bytes at `p` live, unchanged, as long as the run.
        unsafe { std::slice::from_raw_parts(p, n) }
    }
}
