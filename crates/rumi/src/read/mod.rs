//! The read path (spec: "Selective read model"): the one way every host reads pixels — the
//! GDAL driver's block reads, its `IRasterIO` and multidimensional `IRead`, the Python package,
//! the CLI — whatever the layout of the host's buffer.
//!
//! - [`request`](Request): a [`Request`] names output planes (a band at a time step, each at
//!   its own byte offset) and two spatial [`Axis`]es with start, count, step (negative too) and
//!   byte spacing (negative too); [`Request::check`] validates it once against the raster and
//!   the buffer.
//! - `plan`: the checked request and its frame list (each frame once, increasing index, with
//!   its [`FrameGeometry`](crate::format::layout::FrameGeometry) and output planes).
//! - `execute`: [`Reader::read`] serves frames already in the reader's decoded-frame cache
//!   ([`FrameCache`]), fetches the others with one merged `read_ranges` call per
//!   [`BATCH_BYTES`], decodes them on a pool of the requested size ([`crate::pool`]) and
//!   copies each frame's samples straight into the caller's buffer; [`decode_each`] is that
//!   fetch-and-decode pipeline on its own (the validator decodes every frame with it).
//! - `scatter`: the copy kernels, converting only when the request asks for
//!   [`Output::Float32`] (the exact promotion of `promote.rs`).
//! - `batch`: [`read_batch`], many requests on many readers into several buffers in one call
//!   (a training batch's chips): each reader's reads in order on one thread, readers side by side.
//! - `cache`: the per-reader LRU of decoded frames and the process's spare frame buffers.
//!
//! [`Reader::read_window`] (a C-contiguous `[t][b][y][x]` [`Window`]) and
//! [`Reader::frames_for`] are thin callers of the same request and plan.

mod batch;
mod execute;
mod plan;
mod request;
mod scatter;

pub use crate::cache::{FrameCache, DEFAULT_CACHE_BYTES};
pub use batch::{read_batch, BatchRead};
pub use execute::{decode_each, ReadStats, BATCH_BYTES, FIRST_BATCH_BYTES};
pub use plan::frames;
pub use request::{Axis, Output, Plane, Request};

use crate::error::{Error, Result};
use crate::io::RangeRead;
use crate::reader::{Reader, Window};

impl<R: RangeRead> Reader<R> {
    /// Frames needed for `win`, in increasing index order (each once), as the read path lists them.
    pub fn frames_for(&self, win: &Window) -> Result<Vec<u64>> {
        Ok(frames(self.layout(), &self.window_request(win)?))
    }

    /// Reads `win` into `out` (`[t][b][y][x]`, exactly `window_bytes(win)` bytes) through
    /// [`Reader::read`] on the calling thread.
    pub fn read_window(&self, win: &Window, out: &mut [u8]) -> Result<()> {
        let req = self.window_request(win)?;
        let need = self.window_bytes(win)?;
        if out.len() as u64 != need {
            return Err(Error::Usage(format!("output buffer is {} bytes, the window needs {need}", out.len())));
        }
        self.read(&req, out, 0, 1).map(|_| ())
    }

    /// Bytes `read_window` writes for `win`.
    pub fn window_bytes(&self, win: &Window) -> Result<u64> {
        [win.times.len() as u64, win.bands.len() as u64, win.rows.len() as u64, win.cols.len() as u64]
            .iter()
            .try_fold(self.encoding().decoded_bytes() as u64, |a, &v| a.checked_mul(v))
            .ok_or(Error::Overflow("window size"))
    }

    /// The request that writes `win` as `[t][b][y][x]`, C order; refuses ranges that run
    /// backwards or past the raster (what a [`Request`] cannot say: an empty range is still
    /// a place).
    fn window_request(&self, win: &Window) -> Result<Request> {
        let l = self.layout();
        let bad = |m: String| Err(Error::Usage(m));
        if win.rows.start > win.rows.end || win.rows.end > l.length {
            return bad(format!("rows {:?} outside 0..{}", win.rows, l.length));
        }
        if win.cols.start > win.cols.end || win.cols.end > l.width {
            return bad(format!("columns {:?} outside 0..{}", win.cols, l.width));
        }
        if win.times.start > win.times.end || win.times.end > l.times {
            return bad(format!("time steps {:?} outside 0..{}", win.times, l.times));
        }
        if let Some(b) = win.bands.iter().find(|&&b| b >= u32::from(l.bands)) {
            return bad(format!("band {b} outside 0..{}", l.bands));
        }
        let times: Vec<u32> = win.times.clone().collect();
        Ok(Request::dense(&times, &win.bands, win.rows.clone(), win.cols.clone(), self.encoding().decoded_bytes()))
    }
}
