//! Layer 2: OpenZL frame encode/decode. The only module that calls `openzl-sys`.
//!
//! Samples are compressed as one numeric OpenZL input whose element width is the sample's
//! component width (complex samples are two components). Decoding checks the decoded size and
//! element width against what the header implies (OpenZL does not record signedness).

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
}

impl Default for Graph {
    fn default() -> Self {
        Graph::Numeric(7)
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
struct Cctx(*mut zl::ZL_CCtx, *mut zl::ZL_Compressor);
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
    compress_typed(src, Some(width), graph, level)
}

/// Compresses `src` as numeric elements of `width` bytes, or as serial bytes (`None`).
fn compress_typed(src: &AlignedBuf, width: Option<usize>, graph: zl::ZL_GraphID, level: i32) -> Result<Vec<u8>> {
    CCTX.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.is_none() {
            // SAFETY: plain constructors; nulls are checked below and freed by Cctx's Drop.
            let ctx = unsafe { Cctx(zl::ZL_CCtx_create(), zl::ZL_Compressor_create()) };
            if ctx.0.is_null() || ctx.1.is_null() {
                return Err(Error::Encode("cannot create an OpenZL compression context".into()));
            }
            *slot = Some(ctx);
        }
        let (cctx, compressor) =
            slot.as_ref().map(|c| (c.0, c.1)).unwrap_or((std::ptr::null_mut(), std::ptr::null_mut()));
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
/// self-contained OpenZL frame.
pub fn encode(samples: &[u8], width: usize, graph: Graph) -> Result<Vec<u8>> {
    if ![1, 2, 4, 8].contains(&width) || samples.len() % width != 0 {
        return Err(Error::Encode(format!("{} bytes are not a whole number of {width}-byte elements", samples.len())));
    }
    let mut src = AlignedBuf::zeroed(samples.len());
    src.as_bytes_mut().copy_from_slice(samples);
    let numeric = zl::ZL_GraphID { gid: zl::ZL_StandardGraphID_select_numeric };
    let generic = zl::ZL_GraphID { gid: zl::ZL_StandardGraphID_compress_generic };
    match graph {
        Graph::Numeric(level) => compress_once(&src, width, numeric, level),
        Graph::Generic(level) => compress_once(&src, width, generic, level),
        Graph::BestOf => {
            let a = compress_once(&src, width, numeric, 6)?;
            let b = compress_once(&src, width, numeric, 7)?;
            Ok(if b.len() < a.len() { b } else { a })
        }
    }
}

/// Decodes one frame into `out`, which must be exactly the decoded size the header implies.
/// A frame is defined by its decoded bytes (spec: "Frames"): whatever OpenZL output type it
/// uses (serial bytes, numeric elements of any width, fixed-size structs), it is accepted when
/// it decodes to exactly `out.len()` bytes, and fails naming both counts otherwise. `index`
/// names the frame in errors.
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
            *slot = Some(Dctx(p));
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
    compress_typed(&src, None, zl::ZL_GraphID { gid: zl::ZL_StandardGraphID_compress_generic }, level)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_whatever_the_output_type() {
        let data: Vec<u8> = (0..4096u32).flat_map(|i| ((i * 7 % 1000) as u16).to_le_bytes()).collect();
        let mut frames = Vec::new();
        for g in [Graph::Numeric(6), Graph::Numeric(7), Graph::Generic(6), Graph::BestOf] {
            for width in [1, 2, 4, 8] {
                frames.push(encode(&data, width, g).unwrap());
            }
        }
        frames.push(encode_serial(&data, 6).unwrap());
        for f in frames {
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
