//! rumi: reference implementation of the rumi 0.1.0 stateless raster format.
//!
//! Layers (see ARCHITECTURE.md): [`format`] (pure parsing), [`codec`] (OpenZL),
//! [`io`] / [`reader`] / [`writer`] / [`validate`], then the C ABI and GDAL driver.
#![forbid(unsafe_op_in_unsafe_fn)]

pub mod batch;
pub mod capi;
pub mod codec;
pub mod driver;
pub mod error;
pub mod format;
pub mod io;
pub mod reader;
pub mod validate;
pub mod writer;

pub use error::{Error, Limits, Result};
