//! Errors of every layer, and the resource limits a reader enforces (spec: "Resource limits").

use std::io;

/// Result alias used throughout the crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Every way reading, validating or writing a rumi file can fail.
///
/// Each MUST / MUST NOT of the specification has its own variant; the message names the rule,
/// what was expected and what was found.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    // ---- input shorter than a structure -------------------------------------------------
    /// A structure needs more bytes than the input holds.
    #[error("truncated {what}: need {need} bytes at offset {offset}, only {have} available")]
    Truncated { what: &'static str, offset: u64, need: u64, have: u64 },

    // ---- file header ------------------------------------------------------------------------
    /// File header magic is not `RUMI`.
    #[error("file header: magic is {found:02X?}, expected \"RUMI\" (52 55 4D 49)")]
    FileMagic { found: [u8; 4] },
    /// File header version is not 1.
    #[error("file header: version is {0}, expected 1")]
    FileVersion(u16),
    /// File header reserved field is not 0.
    #[error("file header: reserved field is {0}, expected 0")]
    FileReserved(u16),
    /// File header ifd_offset is not 16.
    #[error("file header: ifd_offset is {0}, expected 16")]
    IfdOffset(u64),

    // ---- IFD ----------------------------------------------------------------------------------
    /// The IFD entry count is not 13.
    #[error("IFD: entry count is {0}, expected 13")]
    IfdEntryCount(u64),
    /// The next-IFD offset is not zero.
    #[error("IFD: next-IFD offset is {0}, expected 0 (exactly one IFD)")]
    NextIfd(u64),
    /// An entry holds a tag other than the one required at its position.
    #[error("IFD entry {index}: tag is {found}, expected {expected} ({name}); tags must be exactly the 13 rumi tags in rising order")]
    IfdTag { index: usize, found: u16, expected: u16, name: &'static str },
    /// An entry has the wrong field type.
    #[error("IFD tag {tag} ({name}): type is {found}, expected {expected}")]
    IfdType { tag: u16, name: &'static str, found: u16, expected: u16 },
    /// An entry has the wrong value count.
    #[error("IFD tag {tag} ({name}): count is {found}, expected {expected}")]
    IfdCount { tag: u16, name: &'static str, found: u64, expected: u64 },
    /// Unused bytes of an inline value are not zero.
    #[error("IFD tag {tag} ({name}): unused bytes of the inline value are not zero")]
    InlinePadding { tag: u16, name: &'static str },
    /// An external value is not where the gap-free placement puts it.
    #[error("IFD tag {tag} ({name}): external value at offset {found}, expected {expected} (values must follow the IFD in tag order without gaps)")]
    ExternalOffset { tag: u16, name: &'static str, found: u64, expected: u64 },
    /// A dimension that must be positive is zero.
    #[error("{0} is 0, must be greater than zero")]
    ZeroDimension(&'static str),
    /// BitsPerSample or SampleFormat values differ between bands.
    #[error("{name}[{index}] is {found}, but {name}[0] is {first}: all bands must use the same sample pair")]
    MixedSamples { name: &'static str, index: usize, found: u16, first: u16 },
    /// The (sample_format, bits_per_sample) pair is not listed in the spec.
    #[error(
        "sample pair (sample_format {sample_format}, bits_per_sample {bits_per_sample}) is not a valid rumi encoding"
    )]
    SamplePair { sample_format: u16, bits_per_sample: u16 },
    /// frame_unit is not registered.
    #[error("frame_unit {0} is not registered (valid: 0..=9)")]
    FrameUnitUnknown(u16),
    /// frame_unit is not valid for the band and time counts.
    #[error("frame_unit {unit} is not valid for B={bands}, T={times} ({rule})")]
    FrameUnitShape { unit: u16, bands: u32, times: u32, rule: &'static str },
    /// The first TileOffsets entry does not equal base_frame_offset.
    #[error("TileOffsets[0] is {found} but base_frame_offset is {expected}")]
    BaseFrameOffset { found: u64, expected: u64 },
    /// A TileOffsets entry does not equal the prefix sum of the byte counts.
    #[error("TileOffsets[{index}] is {found} but the prefix sum gives {expected}")]
    TileOffset { index: usize, found: u64, expected: u64 },
    /// A frame byte count is zero.
    #[error("{what}[{index}] is 0: every frame must be present with a byte count greater than zero")]
    ZeroByteCount { what: &'static str, index: usize },

    // ---- georeferencing ---------------------------------------------------------------------
    /// GeoKeyDirectory header is not (1, 1, 0, 3).
    #[error("GeoKeyDirectoryTag: header is {0:?}, expected [1, 1, 0, 3]")]
    GeoKeyHeader([u16; 4]),
    /// A GeoKey entry is not in the required form.
    #[error("GeoKeyDirectoryTag key {index}: found {found:?}, expected {expected}")]
    GeoKey { index: usize, found: [u16; 4], expected: &'static str },
    /// GTModelTypeGeoKey value not allowed.
    #[error("GTModelTypeGeoKey is {0}, expected 0 (undefined), 1 (projected) or 2 (geographic)")]
    ModelType(u16),
    /// GTRasterTypeGeoKey value not allowed.
    #[error("GTRasterTypeGeoKey is {0}, expected 1 (PixelIsArea) or 2 (PixelIsPoint)")]
    RasterType(u16),
    /// CRS key id does not agree with the model type.
    #[error("GeoKey id {key} does not agree with GTModelTypeGeoKey {model} (projected uses 3072, geographic 2048)")]
    CrsKeyMismatch { key: u16, model: u16 },
    /// EPSG code outside 1024..=32766.
    #[error("EPSG code {0} is outside 1024..=32766")]
    EpsgRange(u16),
    /// Undefined georeferencing must use EPSG value 0.
    #[error("undefined georeferencing (GTModelTypeGeoKey 0) must use GeographicTypeGeoKey 0, found {0}")]
    UndefinedCrsCode(u16),
    /// ModelTransformation third row not zero, or fourth row not (0,0,0,1), or undefined matrix wrong.
    #[error("ModelTransformationTag: {0}")]
    Matrix(&'static str),
    /// A transform coefficient is not finite.
    #[error("ModelTransformationTag: coefficient {index} is {value}, not a finite number")]
    MatrixNotFinite { index: usize, value: f64 },

    // ---- trailer ------------------------------------------------------------------------------
    /// Trailer magic is not `TAIL`.
    #[error("trailer: magic is {found:02X?}, expected \"TAIL\" (54 41 49 4C)")]
    TrailerMagic { found: [u8; 4] },
    /// Trailer version is not 1.
    #[error("trailer: version is {0}, expected 1")]
    TrailerVersion(u16),
    /// Band text is empty.
    #[error("trailer: band text {0} is empty; texts must be at least one byte")]
    BandTextEmpty(usize),
    /// Band text is not UTF-8.
    #[error("trailer: band text {0} is not valid UTF-8")]
    BandTextUtf8(usize),
    /// Band text contains NUL.
    #[error("trailer: band text {0} contains the byte 0x00")]
    BandTextNul(usize),
    /// Band text is longer than 65535 bytes (writer side).
    #[error("band text {index} is {len} bytes, the maximum is 65535")]
    BandTextTooLong { index: usize, len: usize },
    /// Two band texts are equal.
    #[error("trailer: band texts {first} and {second} are equal ({text:?}); texts must be unique")]
    BandTextDuplicate { first: usize, second: usize, text: String },
    /// Number of band texts differs from B (writer side).
    #[error("{found} band texts given for {expected} bands")]
    BandTextCount { found: usize, expected: usize },
    /// time_type not 1 or 2.
    #[error("trailer: time_type is {0}, expected 1 (interval) or 2 (instant)")]
    TimeType(u8),
    /// time_bits over 64.
    #[error("trailer: time_bits is {0}, must be between 0 and 64")]
    TimeBits(u8),
    /// time_scale not 1 or 86400.
    #[error("trailer: time_scale is {0}, expected 1 or 86400")]
    TimeScale(u32),
    /// time_scale 1 used although every coordinate is a whole day.
    #[error("trailer: time_scale is 1 but every coordinate is a whole-day offset; it must be 86400")]
    TimeScaleNotMinimal,
    /// time_epoch differs from time(0).
    #[error("trailer: time_epoch is {found} but time(0) decodes to {expected}")]
    TimeEpoch { found: i64, expected: i64 },
    /// time_step differs from the value the coordinates give.
    #[error("trailer: time_step is {found} but the coordinates give {expected}")]
    TimeStep { found: i64, expected: i64 },
    /// time_bits is not the minimum width.
    #[error("trailer: time_bits is {found} but the minimum width of the residuals is {expected}")]
    TimeBitsNotMinimal { found: u8, expected: u8 },
    /// A time coordinate or residual does not fit in int64.
    #[error("time coordinate {index}: {what} does not fit in int64")]
    TimeOverflow { index: usize, what: &'static str },
    /// Instants decrease.
    #[error("time: instant {index} ({value}) is before instant {} ({previous}); instants must be non-decreasing", index - 1)]
    InstantOrder { index: usize, value: i64, previous: i64 },
    /// Interval start is not before its end.
    #[error("time: interval {index} starts at {start} and ends at {end}; start must be before end")]
    IntervalEmpty { index: usize, start: i64, end: i64 },
    /// Intervals overlap.
    #[error("time: interval {index} starts at {start}, before interval {} ends at {previous_end}; intervals must not overlap", index - 1)]
    IntervalOverlap { index: usize, start: i64, previous_end: i64 },
    /// Wrong number of time coordinates (writer side).
    #[error("{found} time coordinates given, expected {expected}")]
    TimeCount { found: usize, expected: usize },
    /// Unused bits of a bit-packed region are not zero.
    #[error("{0}: unused bits in the final byte of the packed region are not zero")]
    PackingPadding(&'static str),
    /// Trailer size does not match its contents.
    #[error("trailer: size is {found} bytes, expected exactly {expected}")]
    TrailerSize { found: u64, expected: u64 },

    // ---- header blob --------------------------------------------------------------------------
    /// Blob magic wrong.
    #[error("header blob: magic is {found:02X?}, expected \"LOVE\" (4C 4F 56 45)")]
    BlobMagic { found: [u8; 4] },
    /// Blob version not 1.
    #[error("header blob: version is {0}, expected 1")]
    BlobVersion(u16),
    /// Blob count_bits over 32.
    #[error("header blob: count_bits is {0}, must be between 0 and 32")]
    CountBits(u8),
    /// Blob size differs.
    #[error("header blob: size is {found} bytes, expected exactly {expected}")]
    BlobSize { found: u64, expected: u64 },
    /// count_min is not the minimum count.
    #[error("header blob: count_min is {found} but the smallest decoded count is {expected}")]
    CountMin { found: u32, expected: u64 },
    /// count_bits not minimal.
    #[error("header blob: count_bits is {found} but the minimum width is {expected}")]
    CountBitsNotMinimal { found: u8, expected: u8 },
    /// A reconstructed count exceeds uint32.
    #[error("header blob: frame_byte_counts[{0}] does not fit in uint32")]
    CountOverflow(usize),
    /// Blob field disagrees with the file (header builder / validate --header).
    #[error("header blob {field} is {blob} but the file says {file}")]
    BlobMismatch { field: &'static str, blob: u64, file: u64 },
    /// A frame byte count of the blob disagrees with the file's TileByteCounts (validate --header).
    #[error("header blob frame_byte_counts[{index}] is {blob} but the file's TileByteCounts[{index}] is {file}")]
    BlobCountMismatch { index: usize, blob: u32, file: u32 },

    // ---- frames ---------------------------------------------------------------------------
    /// An offset or size computation overflowed.
    #[error("{0} cannot be represented (arithmetic overflow)")]
    Overflow(&'static str),
    /// The trailer magic is not where a header blob's frames end.
    #[error("no trailer where the frames end: {found:02X?} at offset {offset}, expected \"TAIL\" (54 41 49 4C)")]
    TrailerNotAtFramesEnd { offset: u64, found: [u8; 4] },
    /// A header blob cannot be used with its file (the cause is `source`'s rule).
    #[error("header blob {blob} does not describe {file}: {source}")]
    HeaderBlob { blob: String, file: String, source: Box<Error> },
    /// File ends before or after where the structure says.
    #[error("file size is {found} bytes but {what} requires {expected}")]
    FileSize { what: &'static str, found: u64, expected: u64 },
    /// OpenZL failed to decode a frame.
    #[error("frame {index}: OpenZL decode failed: {message}")]
    Decode { index: u64, message: String },
    /// OpenZL failed to encode a frame.
    #[error("OpenZL encode failed: {0}")]
    Encode(String),
    /// Decoded frame has a different size than the header implies.
    #[error("frame {index}: decoded {found} bytes, expected {expected} (the header blob may not belong to this file)")]
    DecodedSize { index: u64, found: u64, expected: u64 },
    /// Boolean byte other than 0 or 1.
    #[error("frame {index}: boolean sample byte {offset} is {value}, must be 0 or 1")]
    BooleanValue { index: u64, offset: u64, value: u8 },

    // ---- API use --------------------------------------------------------------------------
    /// The caller asked for something the API does not allow (outside the raster, a buffer too
    /// small, arguments that do not fit together).
    #[error("invalid request: {0}")]
    Usage(String),
    /// The request is valid, but this build or host cannot carry it out.
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// The decoding threads could not be started.
    #[error("cannot start {threads} decoding threads: {message}")]
    Threads { threads: usize, message: String },
    /// Limits exceeded before allocation.
    #[error("resource limit exceeded: {what} is {value}, the limit is {limit} (limit {})", what.kind().name())]
    Limit { what: Measure, value: u64, limit: u64 },
    /// Memory for a buffer within the limits could not be allocated.
    #[error("cannot allocate {bytes} bytes for {what}: out of memory")]
    Alloc { what: &'static str, bytes: u64 },
    /// I/O failure.
    #[error("I/O error: {0}")]
    Io(#[from] io::Error),
}

/// The kinds of failure, which hosts map to their own error codes and exception classes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Category {
    /// the input breaks a rule of the specification (each rule its own [`Error`] variant)
    Format,
    /// a resource limit or the memory or threads available would be exceeded
    Limit,
    /// valid, but not supported by this build, host or conversion
    Unsupported,
    /// the caller's request or arguments are invalid
    Usage,
    /// reading or writing the bytes failed
    Io,
}

impl Error {
    /// The category of this error (every variant named: a new one must be placed).
    pub fn category(&self) -> Category {
        use Error::*;
        match self {
            Truncated { .. }
            | FileMagic { .. }
            | FileVersion(_)
            | FileReserved(_)
            | IfdOffset(_)
            | IfdEntryCount(_)
            | NextIfd(_)
            | IfdTag { .. }
            | IfdType { .. }
            | IfdCount { .. }
            | InlinePadding { .. }
            | ExternalOffset { .. }
            | ZeroDimension(_)
            | MixedSamples { .. }
            | SamplePair { .. }
            | FrameUnitUnknown(_)
            | FrameUnitShape { .. }
            | BaseFrameOffset { .. }
            | TileOffset { .. }
            | ZeroByteCount { .. }
            | GeoKeyHeader(_)
            | GeoKey { .. }
            | ModelType(_)
            | RasterType(_)
            | CrsKeyMismatch { .. }
            | EpsgRange(_)
            | UndefinedCrsCode(_)
            | Matrix(_)
            | MatrixNotFinite { .. }
            | TrailerMagic { .. }
            | TrailerVersion(_)
            | BandTextEmpty(_)
            | BandTextUtf8(_)
            | BandTextNul(_)
            | BandTextDuplicate { .. }
            | TimeType(_)
            | TimeBits(_)
            | TimeScale(_)
            | TimeScaleNotMinimal
            | TimeEpoch { .. }
            | TimeStep { .. }
            | TimeBitsNotMinimal { .. }
            | TimeOverflow { .. }
            | InstantOrder { .. }
            | IntervalEmpty { .. }
            | IntervalOverlap { .. }
            | PackingPadding(_)
            | TrailerSize { .. }
            | BlobMagic { .. }
            | BlobVersion(_)
            | CountBits(_)
            | BlobSize { .. }
            | CountMin { .. }
            | CountBitsNotMinimal { .. }
            | CountOverflow(_)
            | BlobMismatch { .. }
            | BlobCountMismatch { .. }
            | Overflow(_)
            | FileSize { .. }
            | TrailerNotAtFramesEnd { .. }
            | Decode { .. }
            | DecodedSize { .. }
            | BooleanValue { .. } => Category::Format,
            Limit { .. } | Alloc { .. } | Threads { .. } => Category::Limit,
            Unsupported(_) | Encode(_) => Category::Unsupported,
            Usage(_) | BandTextTooLong { .. } | BandTextCount { .. } | TimeCount { .. } => Category::Usage,
            Io(_) => Category::Io,
            HeaderBlob { source, .. } => source.category(),
        }
    }
}

pub use crate::limits::{Limits, Measure};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn categories() {
        assert_eq!(Error::FileMagic { found: *b"TIFF" }.category(), Category::Format);
        assert_eq!(Error::DecodedSize { index: 0, found: 1, expected: 2 }.category(), Category::Format);
        assert_eq!(Error::Limit { what: Measure::FrameCount, value: 2, limit: 1 }.category(), Category::Limit);
        assert_eq!(Error::Threads { threads: 4, message: "no".into() }.category(), Category::Limit);
        assert_eq!(Error::Unsupported("big-endian".into()).category(), Category::Unsupported);
        assert_eq!(Error::Usage("rows".into()).category(), Category::Usage);
        assert_eq!(Error::TimeCount { found: 1, expected: 2 }.category(), Category::Usage);
        assert_eq!(Error::Io(io::Error::other("x")).category(), Category::Io);
        assert_eq!(
            Error::Limit { what: Measure::FrameCount, value: 2, limit: 1 }.to_string(),
            "resource limit exceeded: frame count N is 2, the limit is 1 (limit max_frames)"
        );
    }
}
