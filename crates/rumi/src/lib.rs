//! rumi: reference implementation of the rumi 0.1.0 stateless raster format, with no GDAL,
//! C++ or CLI dependency.
//!
//! Layers (see ARCHITECTURE.md): [`format`] (pure parsing), [`codec`] (OpenZL),
//! [`io`] / [`reader`] / [`read`] (the one read path) / [`pool`] / [`writer`] / [`validate`]. The GDAL plugin (the workspace's
//! root package), the `rumi` CLI and the Python package are hosts built on this crate.
#![forbid(unsafe_op_in_unsafe_fn)]

pub mod codec;
#[cfg(unix)]
pub mod commit;
pub mod error;
pub mod format;
pub mod io;
pub mod limits;
pub mod name;
pub mod open;
pub mod pool;
pub mod promote;
pub mod read;
pub mod reader;
#[cfg(feature = "object-store")]
pub mod store;
pub mod validate;
pub mod writer;

pub use error::{Category, Error, Result};
pub use limits::{LimitKind, Limits};

/// Deprecated: the read planner moved to [`read`] (and the thread pools to [`pool`]); these
/// names stay until every host has switched.
#[doc(hidden)]
pub mod plan {
    pub use crate::pool::{for_threads as pool, parse_threads, MAX_THREADS};
    pub use crate::read::{
        decode_each, frames, Axis, FrameCache, Output, Plane, ReadStats, Request, BATCH_BYTES, DEFAULT_CACHE_BYTES,
    };
}

pub use read::{Axis, Output, Plane, ReadStats, Request};
pub use reader::Window;
