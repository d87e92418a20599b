//! The rumi GDAL driver plugin (`gdal_RUMI.so`): the public C ABI over the core crate [`rumi`]
//! ([`capi`], `include/rumi.h`, for any C host) and the GDAL driver ([`driver`]: the thin C++
//! adapter, its private protocol with Rust and the plugin's entry point). The only crate of
//! the workspace that compiles C++ or links libgdal.
#![forbid(unsafe_op_in_unsafe_fn)]

pub mod capi;
pub mod driver;
