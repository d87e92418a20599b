//! Encoding a frame with one [`Graph`]: the checks on the samples, the standard graphs, and the
//! fall back from a predictor graph to the numeric graph on frames it cannot take.

use openzl_sys as zl;

use super::choose::{best, encode_fast};
use super::ffi::compress_with;
use super::graph::{Coding, Graph, Predictor};
use super::predict::MAX_PREDICT_ROW;
use crate::aligned::AlignedBuf;
use crate::error::{Error, Result};

/// Compresses `samples` (little-endian elements of `width` bytes: 1, 2, 4 or 8) into one
/// self-contained OpenZL frame (no row structure: prediction graphs compress as numeric).
pub fn encode(samples: &[u8], width: usize, graph: Graph) -> Result<Vec<u8>> {
    encode_rows(samples, width, 0, graph)
}

/// As [`encode`], for a frame made of rows of `row` elements (the prediction graphs use them).
pub fn encode_rows(samples: &[u8], width: usize, row: usize, graph: Graph) -> Result<Vec<u8>> {
    check_width(samples, width)?;
    encode_src(&AlignedBuf::copy_of(samples), width, row, graph)
}

/// [`encode_rows`] of samples already checked and aligned.
pub(super) fn encode_src(src: &AlignedBuf, width: usize, row: usize, graph: Graph) -> Result<Vec<u8>> {
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
        Graph::Image(level) | Graph::Auto(level) | Graph::AutoWeighted(level, _) => {
            Ok(best(src, width, row, &Graph::image_candidates(level), graph.slower_costs())?.0)
        }
        Graph::Fast => encode_fast(src, width, row),
    }
}

/// Fails unless `samples` are whole elements of 1, 2, 4 or 8 bytes.
pub(super) fn check_width(samples: &[u8], width: usize) -> Result<()> {
    if ![1, 2, 4, 8].contains(&width) || samples.len() % width != 0 {
        return Err(Error::Encode(format!("{} bytes are not a whole number of {width}-byte elements", samples.len())));
    }
    Ok(())
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
    let count = src.as_bytes().len() / width;
    // the band predictors' compressor splits a pixel's samples apart: its "row" is the pixel
    let row = match p {
        // n == 0 is no band count: the numeric graph below takes the frame (never a division by 0)
        Predictor::Bands(n) | Predictor::BandsLz(n) if n > 0 && count % usize::from(n) == 0 => usize::from(n),
        _ => row,
    };
    if !(2..=MAX_PREDICT_ROW).contains(&row) || count % row != 0 || count / row < 2 {
        return compress_once(src, width, zl::ZL_GraphID { gid: zl::ZL_StandardGraphID_select_numeric }, level);
    }
    compress_with(src, Some(width), Some((p, c, width, row, count / row)), zl::ZL_GraphID { gid: 0 }, level)
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
    compress_with(&AlignedBuf::copy_of(bytes), None, None, zl::ZL_GraphID { gid }, 6)
}

/// Compresses `bytes` as one OpenZL frame of serial (untyped) data with the generic graph:
/// a standard frame any OpenZL decoder reads (used to check that readers accept frames by
/// their decoded bytes, whatever their output type).
pub fn encode_serial(bytes: &[u8], level: i32) -> Result<Vec<u8>> {
    let generic = zl::ZL_GraphID { gid: zl::ZL_StandardGraphID_compress_generic };
    compress_with(&AlignedBuf::copy_of(bytes), None, None, generic, level)
}
