//! Layer 1: pure parsing and serialising of every rumi structure. Bytes in, typed values or a
//! precise error out; no I/O, no unsafe.

pub mod bitpack;
pub mod blob;
pub(crate) mod bytes;
pub mod georef;
pub mod ifd;
pub mod layout;
pub mod sample;
pub mod time_text;
pub mod trailer;

pub use blob::{Blob, BlobHeader};
pub use georef::{Affine, GeoTransform, Georef, ModelType, RasterType};
pub use ifd::{Ifd, IfdHead};
pub use layout::{FrameUnit, Layout};
pub use sample::{NumpyType, SampleEncoding};
pub use trailer::{TimeAxis, TimeKind, TimeStep, Trailer};
