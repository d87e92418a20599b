//! rumi: reference implementation of the rumi 0.1.0 stateless raster format, with no GDAL,
//! C++ or CLI dependency.
//!
//! Layers (see ARCHITECTURE.md): [`format`] (pure parsing), [`codec`] (OpenZL),
//! [`io`] / [`reader`] / [`plan`] (the one read planner) / [`writer`] / [`validate`]. The GDAL plugin (the workspace's
//! root package), the `rumi` CLI and the Python package are hosts built on this crate.
#![forbid(unsafe_op_in_unsafe_fn)]

pub mod codec;
pub mod error;
pub mod format;
pub mod io;
pub mod plan;
pub mod promote;
pub mod reader;
#[cfg(feature = "object-store")]
pub mod store;
pub mod validate;
pub mod writer;

pub use error::{Category, Error, Limits, Result};
