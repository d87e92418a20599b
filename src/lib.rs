//! The rumi GDAL driver plugin (`gdal_RUMI.so`): the C ABI over the core crate [`rumi`] and the
//! thin C++ adapter (`src/driver/`) that translates GDAL calls into it. The only crate of the
//! workspace that compiles C++ or links libgdal.
#![forbid(unsafe_op_in_unsafe_fn)]

pub mod capi;
pub mod driver;
