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
//!
//! The modules, by job:
//! - `graph`: the vocabulary ([`Graph`], [`Predictor`], [`Coding`], [`Stage`]) and their ids;
//! - `encode` / `decode`: one frame with one graph ([`encode_rows`]) / any frame ([`decode_into`]);
//! - `choose`: the candidates of [`Graph::Image`] and [`Graph::Auto`], their decode classes and
//!   the per-frame choice ([`choose`], [`encode_best`], [`encode_screened`]);
//! - `predict`: the predictor graphs, one function per [`Predictor`]; `residual`: the coding of
//!   their residuals; `edge`: safe handles on the function graph's run they are written with;
//! - `ffi`: reports, the per-thread OpenZL contexts and the one compression call;
//! - `cpu`: the CPU check every encode and decode makes first ([`cpu_supported`]).

mod choose;
mod cpu;
mod decode;
mod edge;
mod encode;
mod ffi;
mod graph;
mod predict;
mod residual;

pub use choose::{
    choose, encode_best, encode_fast_weighted, encode_screened, fast_ns_per_byte, FAST_BYTES_PER_NS, FAST_STAGES,
    SLOWER_COSTS,
};
pub use cpu::cpu_supported;
pub use decode::decode_into;
pub(crate) use decode::{decode_to, decode_uninit};
pub use encode::{encode, encode_entropy, encode_rows, encode_serial, Entropy};
pub use ffi::FORMAT_VERSION;
pub use graph::{Coding, Graph, Predictor, Stage, GRAPH_NAMES};
pub use predict::MAX_PREDICT_ROW;

/// Frames are held in 8-byte aligned buffers (the crate's [`AlignedBuf`](crate::AlignedBuf)),
/// re-exported here where hosts have always found it.
pub use crate::aligned::AlignedBuf;

#[cfg(test)]
mod tests;
