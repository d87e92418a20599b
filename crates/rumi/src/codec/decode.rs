//! Decoding a frame: any OpenZL output type, the decoded byte count checked.

use openzl_sys as zl;

use super::cpu_supported;
use super::ffi::{report_error, report_value, Dctx, DCTX};
use crate::aligned::AlignedBuf;
use crate::error::{Error, Result};

/// Decoded frames larger than this do not leave their OpenZL working memory in the decoding
/// thread's context (see [`decode_into`]).
pub(super) const STACK_ARENA_FRAME_BYTES: usize = 16 << 20;

/// Decodes one frame into `out`, which must be exactly the decoded size the header implies.
/// A frame is defined by its decoded bytes (spec: "Frames"): whatever OpenZL output type it
/// uses (serial bytes, numeric elements of any width, fixed-size structs), it is accepted when
/// it decodes to exactly `out.len()` bytes, and fails naming both counts otherwise. `index`
/// names the frame in errors.
pub fn decode_into(frame: &[u8], out: &mut AlignedBuf, index: u64) -> Result<()> {
    decode_to(frame, out.as_bytes_mut(), index)
}

/// [`decode_into`] any buffer of exactly the decoded size whose start is 8-byte aligned, as
/// OpenZL's numeric outputs require of it (a misaligned one fails with OpenZL's error: nothing
/// is written): the read path's way of decoding a frame straight into the caller's buffer. On
/// failure `out` may hold part of the frame's bytes.
pub(crate) fn decode_to(frame: &[u8], out: &mut [u8], index: u64) -> Result<()> {
    // SAFETY: initialised bytes viewed as possibly uninitialised ones; only bytes are written
    // through the view (OpenZL's output).
    decode_uninit(frame, unsafe { &mut *(out as *mut [u8] as *mut [std::mem::MaybeUninit<u8>]) }, index)
}

/// [`decode_to`] memory not yet initialised (a new frame buffer that is not zeroed first):
/// on success every byte of `out` is written (OpenZL wrote exactly `out.len()` decoded bytes:
/// checked).
pub(crate) fn decode_uninit(frame: &[u8], out: &mut [std::mem::MaybeUninit<u8>], index: u64) -> Result<()> {
    cpu_supported()?;
    let cap = out.len();
    let expected = cap as u64;
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
        // SAFETY: dctx is live and owned by this thread; `out` has `cap` writable bytes (OpenZL
        // checks its alignment itself); `frame` is read within its length.
        let r = unsafe {
            zl::ZL_DCtx_decompressTyped(
                dctx,
                &mut info,
                out.as_mut_ptr().cast(),
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
