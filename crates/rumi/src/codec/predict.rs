//! The predictor graphs: one function per [`Predictor`], each made only of OpenZL's standard
//! codecs (see the codec module), run inside OpenZL's function graph `rumi.predict` whose
//! registration ([`predict_compressor`]) carries the predictor, the coding and the frame's shape
//! as local parameters. The residuals go to [`residual::code`].

use openzl_sys as zl;

use super::edge::{graph_id, node, Edge, Refused, Run, Step};
use super::ffi::{PredictCompressor, ZL_createNode_splitByStruct};
use super::graph::{Coding, Predictor};
use super::residual;
use crate::error::{Error, Result};

const PREDICTOR_PARAM: i32 = 7301;
const ROW_PARAM: i32 = 7302;
const ROWS_PARAM: i32 = 7303;
const CODING_PARAM: i32 = 7304;
/// `ZL_CONVERT_SERIAL_TO_STRUCT_SIZE_PID` (codecs/zl_conversion.h, not in the bindings).
const STRUCT_SIZE_PID: i32 = 1;
/// At most this many columns get the column-major view (one OpenZL stream per column).
pub const MAX_PREDICT_ROW: usize = 4096;

/// What a predictor graph's run reads back from its registration.
struct Frame {
    /// Elements per row (the band predictors: samples per pixel).
    row: usize,
    /// Rows.
    rows: usize,
    /// How the residuals are coded.
    coding: Coding,
    /// The `split_by_struct` node cutting a row into its columns (a pixel into its bands).
    split_cols: zl::ZL_NodeID,
    /// Where side streams go (a concatenation's sizes, pixel 0's other bands): OpenZL's
    /// generic graph.
    side: zl::ZL_GraphID,
}

/// `delta_int` along a numeric edge.
fn delta<'g>(run: &Run<'g>, e: Edge<'g>) -> Step<Edge<'g>> {
    run.run1(e, node(zl::ZL_StandardNodeID_delta_int))
}

/// OpenZL's field LZ, where the LZ predictors send their residuals.
fn field_lz<'g>(run: &Run<'g>, e: Edge<'g>) -> Step {
    run.send(e, graph_id(zl::ZL_StandardGraphID_field_lz))
}

/// The column-major view of a numeric edge: one stream per column (`split_by_struct`),
/// concatenated (the sizes to the side graph).
fn columns<'g>(run: &Run<'g>, f: &Frame, e: Edge<'g>) -> Step<Edge<'g>> {
    let e = run.run1(e, node(zl::ZL_StandardNodeID_convert_num_to_serial_le))?;
    let columns = run.run(&[e], f.split_cols)?;
    let out = run.run(&columns, node(zl::ZL_StandardNodeID_concat_struct))?;
    if out.len() != 2 {
        return Err(Refused);
    }
    run.send(out[0], f.side)?;
    run.run1(out[1], node(zl::ZL_StandardNodeID_convert_struct_to_num_le))
}

/// [`Predictor::Up`]: `x - b`, a delta along the column-major view.
fn up<'g>(run: &Run<'g>, f: &Frame, input: Edge<'g>) -> Step {
    let e = columns(run, f, input)?;
    residual::code(run, delta(run, e)?, f.coding)
}

/// [`Predictor::Gradient`]: `x - a - b + c`, a delta along rows, then one along columns. OpenZL's
/// delta keeps the first value in its header, so its output is row 0 less its first sample, then
/// rows 1.. whole (each starting with the step from the end of the row above); those rows,
/// column-major, get the vertical delta.
fn gradient<'g>(run: &Run<'g>, f: &Frame, input: Edge<'g>) -> Step {
    let d = delta(run, input)?;
    let parts = run.split(d, &[f.row - 1, (f.rows - 1) * f.row])?;
    let v = columns(run, f, parts[1])?;
    let v = delta(run, v)?;
    let out = run.run(&[parts[0], v], node(zl::ZL_StandardNodeID_concat_num))?;
    if out.len() != 2 {
        return Err(Refused);
    }
    run.send(out[0], f.side)?;
    residual::code(run, out[1], f.coding)
}

/// [`Predictor::Left`]: `x - a`, a delta along the samples.
fn left<'g>(run: &Run<'g>, f: &Frame, input: Edge<'g>) -> Step {
    residual::code(run, delta(run, input)?, f.coding)
}

/// [`Predictor::LeftLz`]: `x - a`, then field LZ.
fn left_lz<'g>(run: &Run<'g>, input: Edge<'g>) -> Step {
    field_lz(run, delta(run, input)?)
}

/// [`Predictor::Bands`]: each band plane ([`band_planes`]) with a delta along it, coded.
fn bands<'g>(run: &Run<'g>, f: &Frame, input: Edge<'g>) -> Step {
    for plane in band_planes(run, f, input)? {
        residual::code(run, delta(run, plane)?, f.coding)?;
    }
    Ok(())
}

/// [`Predictor::BandsLz`]: each band plane ([`band_planes`]) with a delta along it, to field LZ.
fn bands_lz<'g>(run: &Run<'g>, f: &Frame, input: Edge<'g>) -> Step {
    for plane in band_planes(run, f, input)? {
        field_lz(run, delta(run, plane)?)?;
    }
    Ok(())
}

/// The band predictors' planes of pixel-interleaved samples (`f.row` bands): band differences
/// along the interleaved samples (OpenZL's delta keeps the first in its header: the rest of
/// pixel 0 goes to the side graph, so that the planes start at pixel 1's first band), then one
/// plane per band. A frame that is not whole pixels of at least two bands, two pixels or more,
/// is its own one plane (the band predictors then code it as the left ones).
fn band_planes<'g>(run: &Run<'g>, f: &Frame, input: Edge<'g>) -> Step<Vec<Edge<'g>>> {
    let (count, width, bands) = (input.count(), input.width(), f.row);
    if bands < 2 || count % bands != 0 || count < 2 * bands {
        return Ok(vec![input]);
    }
    let d = delta(run, input)?;
    let parts = run.split(d, &[bands - 1, count - bands])?;
    run.send(parts[0], f.side)?;
    let d = run.run1(parts[1], node(zl::ZL_StandardNodeID_convert_num_to_serial_le))?;
    let (planes, to_num) = if width == 1 {
        // bytes: a transposition of pixel-sized structs (its decoder is 2-3x faster than
        // split_by_struct's join of one-byte fields)
        let size = [zl::ZL_IntParam { paramId: STRUCT_SIZE_PID, paramValue: bands as i32 }];
        let d = run.run1_with_ints(d, node(zl::ZL_StandardNodeID_convert_serial_to_struct), &size)?;
        (run.run(&[d], run.transpose_split(bands))?, zl::ZL_StandardNodeID_convert_serial_to_num8)
    } else {
        (run.run(&[d], f.split_cols)?, zl::ZL_StandardNodeID_convert_struct_to_num_le)
    };
    planes.into_iter().map(|p| run.run1(p, node(to_num))).collect()
}

/// The function graph `rumi.predict`: reads its registration's parameters and runs the
/// predictor's graph on the one input.
///
/// # Safety
/// Called by OpenZL with a live graph and `n` live input edges, for the duration of the call.
unsafe fn predict_graph_body(graph: *mut zl::ZL_Graph, inputs: *mut *mut zl::ZL_Edge, n: usize) -> Step {
    if n != 1 {
        return Err(Refused);
    }
    // SAFETY: the graph and its `n` inputs are live for this call (the function contract).
    let (run, inputs) = unsafe { Run::new(graph, inputs, n) }?;
    let (split_cols, side) = run.custom()?;
    let f = Frame {
        row: run.int_param(ROW_PARAM) as usize,
        rows: run.int_param(ROWS_PARAM) as usize,
        coding: Coding::from_id(run.int_param(CODING_PARAM)),
        split_cols,
        side,
    };
    let input = inputs[0];
    match Predictor::from_id(run.int_param(PREDICTOR_PARAM)).ok_or(Refused)? {
        Predictor::Up => up(&run, &f, input),
        Predictor::Gradient => gradient(&run, &f, input),
        Predictor::Left => left(&run, &f, input),
        Predictor::LeftLz => left_lz(&run, input),
        Predictor::Bands(_) => bands(&run, &f, input),
        Predictor::BandsLz(_) => bands_lz(&run, &f, input),
    }
}

/// The function OpenZL calls for `rumi.predict`: [`predict_graph_body`], its failure (or a
/// panic, which must not unwind into C) OpenZL's generic error.
unsafe extern "C" fn predict_graph(graph: *mut zl::ZL_Graph, inputs: *mut *mut zl::ZL_Edge, n: usize) -> zl::ZL_Report {
    // SAFETY: forwarded from OpenZL's call; no panic crosses back into C.
    let ok = std::panic::catch_unwind(|| unsafe { predict_graph_body(graph, inputs, n) }).unwrap_or(Err(Refused));
    match ok {
        // SAFETY: a plain report constructor.
        Ok(()) => unsafe { zl::ZL_returnSuccess() },
        // SAFETY: a plain report constructor.
        Err(Refused) => unsafe { zl::ZL_returnError(zl::ZL_ErrorCode_GENERIC) },
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
    // SAFETY: a plain constructor; null is checked next, and `pc` frees it from then on.
    let c = unsafe { zl::ZL_Compressor_create() };
    if c.is_null() {
        return Err(Error::Encode("cannot create an OpenZL compressor".into()));
    }
    let pc = PredictCompressor(c, zl::ZL_GraphID { gid: 0 });
    let cols = vec![width; row];
    // SAFETY: `c` is a live compressor; the field sizes live through the call (OpenZL copies them).
    let split = [unsafe { ZL_createNode_splitByStruct(c, cols.as_ptr(), cols.len()) }];
    let graphs = [graph_id(zl::ZL_StandardGraphID_compress_generic)];
    let types = [zl::ZL_Type_numeric];
    let int = |v: usize| i32::try_from(v).map_err(|_| Error::Encode(format!("{v} rows or columns")));
    let params = [
        zl::ZL_IntParam { paramId: PREDICTOR_PARAM, paramValue: p.id() },
        zl::ZL_IntParam { paramId: CODING_PARAM, paramValue: coding.id() },
        zl::ZL_IntParam { paramId: ROW_PARAM, paramValue: int(row)? },
        zl::ZL_IntParam { paramId: ROWS_PARAM, paramValue: int(rows)? },
    ];
    // SAFETY: the descriptor is pointers, counts and an optional function: all zeros is "none".
    let mut desc: zl::ZL_FunctionGraphDesc = unsafe { std::mem::zeroed() };
    desc.name = c"rumi.predict".as_ptr();
    desc.graph_f = Some(predict_graph);
    desc.inputTypeMasks = types.as_ptr();
    desc.nbInputs = 1;
    desc.customGraphs = graphs.as_ptr();
    desc.nbCustomGraphs = graphs.len();
    desc.customNodes = split.as_ptr();
    desc.nbCustomNodes = split.len();
    desc.localParams.intParams = zl::ZL_LocalIntParams { intParams: params.as_ptr(), nbIntParams: params.len() };
    // SAFETY: `c` is live; the descriptor and the arrays it points to live through the call (OpenZL copies them).
    let gid = unsafe { zl::ZL_Compressor_registerFunctionGraph(c, &desc) };
    if gid.gid == zl::ZL_StandardGraphID_illegal {
        return Err(Error::Encode("cannot register the prediction graph".into()));
    }
    Ok(PredictCompressor(pc.into_raw(), gid))
}
