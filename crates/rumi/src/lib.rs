//! rumi: reference implementation of the rumi 0.1.0 stateless raster format, with no GDAL,
//! C++ or CLI dependency.
//!
//! The API hosts use is re-exported here; see ARCHITECTURE.md for the modules behind it.
//!
//! - the data model of the specification: [`format`] (pure parsing and serialising);
//! - opening: [`open()`](open::open) with the open policy ([`open`]: explicit blob, sidecar,
//!   none), [`Reader`] over any [`RangeRead`] source, [`name`] for `RUMI:` dataset names;
//! - reading: [`Reader::read`] with a [`Request`] (the one read path, [`read`]), on the
//!   process's thread pools ([`pool`]);
//! - writing: [`Writer`] / [`write_array`] with an [`ImageSpec`] and a codec [`Graph`];
//!   outputs committed atomically with their sidecars ([`commit`]);
//! - checking: [`validate()`], [`build_header`], [`check_blob_prefix`];
//! - limits: [`Limits`], [`LimitKind`]; errors: [`Error`], [`Category`];
//! - object storage (feature `object-store`): [`store`].
#![forbid(unsafe_op_in_unsafe_fn)]

mod aligned;
mod cache;
pub mod codec;
#[cfg(unix)]
pub mod commit;
mod error;
pub mod format;
mod io;
pub mod limits;
pub mod name;
pub mod open;
pub mod pam;
pub mod per_process;
pub mod pool;
mod promote;
pub mod read;
mod reader;
#[cfg(feature = "object-store")]
pub mod store;
mod validate;
mod writer;

pub use aligned::AlignedBuf;
pub use cache::spare;
pub use codec::{Graph, Predictor};
pub use error::{Category, Error, Result};
pub use format::{
    Blob, FrameUnit, GeoTransform, Georef, Layout, ModelType, RasterType, SampleEncoding, TimeAxis, TimeKind, TimeStep,
    Trailer,
};
pub use io::{range_unsupported, RangeRead};
pub use limits::{LimitKind, Limits, Measure};
pub use promote::promotable;
pub use read::{Axis, Output, Plane, ReadStats, Request};
pub use reader::{Reader, Window};
pub use validate::{build_header, check_blob_prefix, validate, Report};
pub use writer::{
    assemble, encode_tile_rows, encode_tiles, frame_unit_from_image, frame_unit_from_sample, write_array, EncodedRows,
    EncodedTiles, Encoder, ImageSpec, Writer, PIXEL_INTERLEAVED_GAIN,
};
