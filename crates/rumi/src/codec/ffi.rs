//! The OpenZL layer: reports, the per-thread compression and decompression contexts (and the
//! predictor compressors a compression context references), and [`compress_with`], the one
//! place a frame is compressed.

use std::cell::RefCell;
use std::ffi::CStr;

use openzl_sys as zl;

use super::graph::{Coding, Predictor};
use super::predict::predict_compressor;
use crate::aligned::AlignedBuf;
use crate::error::{Error, Result};

/// OpenZL wire-format version written into every frame (mandatory when compressing).
pub const FORMAT_VERSION: i32 = zl::ZL_MAX_FORMAT_VERSION as i32;

extern "C" {
    /// OpenZL's split-by-struct node with the given field sizes (defined in libopenzl, used by
    /// its public `ZL_Compressor_registerSplitByStructGraph`; the transform is a standard one,
    /// `ZL_StandardTransformID_splitByStruct`, which every decoder knows).
    pub(super) fn ZL_createNode_splitByStruct(
        c: *mut zl::ZL_Compressor,
        sizes: *const usize,
        n: usize,
    ) -> zl::ZL_NodeID;
}

/// The error a report holds, as text; `None` when it holds a value.
pub(super) fn report_error(r: zl::ZL_Report) -> Option<String> {
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

/// The value a report holds; only after [`report_error`] returned `None` for it.
pub(super) fn report_value(r: zl::ZL_Report) -> usize {
    // SAFETY: only called after report_error returned None, so the report holds a value.
    unsafe { zl::ZL_validResult(r) }
}

/// A compression context and the compressor (graph registry) it references.
/// The third field holds the compressors of the predictor graphs by (predictor, element width,
/// row elements, rows); they drop after the context that may reference them.
struct Cctx(*mut zl::ZL_CCtx, *mut zl::ZL_Compressor, Vec<(PredictKey, PredictCompressor)>);
/// A predictor compressor's key: (predictor, coding, element width, row elements, rows).
pub(super) type PredictKey = (Predictor, Coding, usize, usize, usize);
/// A decompression context.
pub(super) struct Dctx(pub(super) *mut zl::ZL_DCtx);

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

impl PredictCompressor {
    /// The compressor, which the caller now frees.
    pub(super) fn into_raw(self) -> *mut zl::ZL_Compressor {
        let p = self.0;
        std::mem::forget(self);
        p
    }
}

/// At most this many predictor compressors per thread (each frame shape and graph is one).
pub(super) const MAX_PREDICT_COMPRESSORS: usize = 32;

thread_local! {
    static CCTX: RefCell<Option<Cctx>> = const { RefCell::new(None) };
    /// The thread's decompression context ([`super::decode_into`]).
    pub(super) static DCTX: RefCell<Option<Dctx>> = const { RefCell::new(None) };
}

/// Compresses `src` as numeric elements of `width` bytes (serial bytes for `None`), with the
/// standard `graph` or the predictor compressor `custom`.
pub(super) fn compress_with(
    src: &AlignedBuf,
    width: Option<usize>,
    custom: Option<PredictKey>,
    graph: zl::ZL_GraphID,
    level: i32,
) -> Result<Vec<u8>> {
    super::cpu_supported()?;
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
        let len = src.as_bytes().len();
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
            let bound = zl::ZL_compressBound(len);
            let mut dst = vec![0u8; bound];
            let tref = match width {
                Some(w) => zl::ZL_TypedRef_createNumeric(src.as_bytes().as_ptr().cast(), w, len / w),
                None => zl::ZL_TypedRef_createSerial(src.as_bytes().as_ptr().cast(), len),
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
