//! Layer 3: whole-file validation and the header builder (spec: "File profile", "Creating the
//! header blob").
//!
//! [`validate`] checks every rule a file can break: the structure ([`Reader::open`]: file header,
//! IFD, external values, offsets, georeferencing, trailer, exact file size), then every frame
//! (each decodes as OpenZL to the size, element width and boolean values the IFD implies), and,
//! when a header blob is given, every value the blob duplicates. [`build_header`] derives the
//! blob from a finished file and refuses to emit one when any check fails.
//!
//! The spec also requires the EPSG code to be defined by the EPSG registry. This crate carries
//! no copy of the registry (and must not depend on PROJ/GDAL), so it checks only the range;
//! [`Report::georef`] hands the code to the caller for the registry half (the `rumi` CLI asks
//! PROJ through GDAL's OSR).

use std::io;

use crate::error::{Error, Limits, Result};
use crate::format::ifd::FIXED_PREFIX_BYTES;
use crate::format::{Blob, Georef, IfdHead, Layout, Trailer};
use crate::io::RangeRead;
use crate::read::decode_each;
use crate::reader::Reader;

/// What [`validate`] checked, for reporting.
#[derive(Debug, Clone)]
pub struct Report {
    /// Shape, tiling, encoding and frame unit.
    pub layout: Layout,
    /// Frames read and decoded (N).
    pub frames: u64,
    /// Size of the file in bytes.
    pub file_bytes: u64,
    /// Offset of the first frame: file header, IFD and external values come before it.
    pub base_frame_offset: u64,
    /// Sum of the frame byte counts.
    pub compressed_bytes: u64,
    /// Sum of the decoded frame sizes.
    pub decoded_bytes: u64,
    /// Offset of the trailer (just past the last frame).
    pub trailer_offset: u64,
    /// Size of the trailer in bytes.
    pub trailer_bytes: u64,
    /// The georeferencing block.
    pub georef: Georef,
    /// Band texts and time coordinates.
    pub trailer: Trailer,
    /// True when a header blob was given and every duplicated value matched the file.
    pub blob_checked: bool,
}

/// Validates a whole file: its structure, every frame, and (when `blob` is given) the header
/// blob against the file.
///
/// The first broken rule is returned: structural errors first, then the blob's fixed header
/// (its own rules, then its agreement with the file, [`Error::BlobMismatch`], before any count
/// is unpacked), then the blob's counts (their rules, then [`Error::BlobCountMismatch`]), then
/// frames in frame-index order.
pub fn validate<R: RangeRead>(src: R, blob: Option<&[u8]>, limits: Limits) -> Result<Report> {
    let file_bytes = src.size()?;
    let reader = open_validated(src, limits)?;
    let file = reader.blob();
    if let Some(bytes) = blob {
        compare_layouts(&Blob::parse_header(bytes, &limits)?.layout, &file.layout)?;
        let given = Blob::parse(bytes, &limits)?;
        compare(&given, file)?;
    }
    let decoded_bytes = decode_every_frame(&reader)?;
    let trailer_offset = reader.trailer_offset();
    Ok(Report {
        layout: *reader.layout(),
        frames: reader.frame_count(),
        file_bytes,
        base_frame_offset: file.layout.base_frame_offset()?,
        compressed_bytes: reader.compressed_bytes(),
        decoded_bytes,
        trailer_offset,
        trailer_bytes: file_bytes - trailer_offset,
        georef: reader.georef()?,
        trailer: reader.trailer()?.clone(),
        blob_checked: blob.is_some(),
    })
}

/// Builds the header blob of a finished file (spec: "Creating the header blob").
///
/// The file is validated structurally first (header, IFD, external values, offsets,
/// georeferencing, trailer and exact file size, so a truncated or extended file yields no blob).
/// The serialised blob is then parsed back and every duplicated value is compared with the IFD;
/// nothing is returned if any comparison fails. Frames are not decoded: use [`validate`] for
/// that.
pub fn build_header<R: RangeRead>(src: R, limits: Limits) -> Result<Vec<u8>> {
    let reader = open_validated(src, limits)?;
    let file = reader.blob();
    let bytes = file.to_bytes()?;
    let parsed = Blob::parse(&bytes, &limits)?;
    compare(&parsed, file)?;
    Ok(bytes)
}

/// Checks the header blob of a stateless `reader` against what a host already has of the file,
/// without a request: the first bytes of the file (`prefix`, e.g. what GDAL read to identify
/// it) and the file's size. With the fixed 292-byte file header and IFD in `prefix`, the shape
/// they state must be the blob's; with the IFD's external values in it too (small files),
/// every frame byte count must be. The file must hold the frames the blob locates and a
/// trailer. A stale sidecar (the file was rewritten) fails one of these checks in most cases;
/// one that passes them can still be wrong (frames then fail to decode, naming the blob).
pub fn check_blob_prefix<R: RangeRead>(reader: &Reader<R>, prefix: &[u8]) -> Result<()> {
    let blob = reader.blob();
    let fixed = FIXED_PREFIX_BYTES as usize;
    if prefix.len() >= fixed {
        let head = IfdHead::parse(&prefix[..fixed], reader.limits())?;
        match usize::try_from(head.base_frame_offset) {
            Ok(base) if base <= prefix.len() => {
                let ifd = head.finish(&prefix[fixed..base], reader.limits())?;
                compare(blob, &Blob { layout: ifd.layout, counts: ifd.byte_counts })?;
            }
            _ => {
                let b = &blob.layout;
                let ours = [
                    b.width.into(),
                    b.length.into(),
                    b.times.into(),
                    b.tile_width.into(),
                    b.tile_length.into(),
                    b.bands.into(),
                    b.frame_unit.value().into(),
                ];
                for ((field, file), blob) in head.shape().into_iter().zip(ours) {
                    if blob != file {
                        return Err(Error::BlobMismatch { field, blob, file });
                    }
                }
            }
        }
    }
    let min_trailer = 28 + 3 * u64::from(blob.layout.bands);
    let need = reader.trailer_offset().checked_add(min_trailer).ok_or(Error::Overflow("file size"))?;
    let size = reader.source().size()?;
    if size < need {
        return Err(Error::FileSize {
            what: "the frames the header blob locates and a trailer",
            found: size,
            expected: need,
        });
    }
    Ok(())
}

/// Compares every value the blob duplicates with the file's, in the order of the spec's table.
/// `file` is the blob-shaped view of the IFD that [`Reader::open`] built.
fn compare(blob: &Blob, file: &Blob) -> Result<()> {
    compare_layouts(&blob.layout, &file.layout)?;
    // Equal fields give equal N; checked anyway since the comparison below zips the two.
    if blob.counts.len() != file.counts.len() {
        return Err(Error::BlobMismatch {
            field: "frame_byte_counts entries",
            blob: blob.counts.len() as u64,
            file: file.counts.len() as u64,
        });
    }
    if let Some((index, (&blob, &file))) = blob.counts.iter().zip(&file.counts).enumerate().find(|(_, (a, b))| a != b) {
        return Err(Error::BlobCountMismatch { index, blob, file });
    }
    Ok(())
}

/// Compares the fields of the blob's fixed header with the file's (the first nine rows of the
/// spec's table). Done before the blob's counts are unpacked, so that a blob claiming another
/// shape costs no allocation.
fn compare_layouts(b: &Layout, f: &Layout) -> Result<()> {
    let ((b_sf, b_bps), (f_sf, f_bps)) = (b.encoding.pair(), f.encoding.pair());
    let fields: [(&'static str, u64, u64); 9] = [
        ("image_width", b.width.into(), f.width.into()),
        ("image_length", b.length.into(), f.length.into()),
        ("time_count", b.times.into(), f.times.into()),
        ("tile_width", b.tile_width.into(), f.tile_width.into()),
        ("tile_length", b.tile_length.into(), f.tile_length.into()),
        ("samples_per_pixel", b.bands.into(), f.bands.into()),
        ("bits_per_sample", b_bps.into(), f_bps.into()),
        ("sample_format", b_sf.into(), f_sf.into()),
        ("frame_unit", b.frame_unit.value().into(), f.frame_unit.value().into()),
    ];
    for (field, blob, file) in fields {
        if blob != file {
            return Err(Error::BlobMismatch { field, blob, file });
        }
    }
    Ok(())
}

/// Parses the file header and IFD entries and compares the file size with the smallest file
/// they allow before [`Reader::open`] reads anything sized by N; then opens the file, which
/// validates the external values, the offsets, the georeferencing and the trailer.
fn open_validated<R: RangeRead>(src: R, limits: Limits) -> Result<Reader<R>> {
    let size = src.size()?;
    // A short file still gets its header checked first, then a precise truncation error.
    let fixed_len = size.min(FIXED_PREFIX_BYTES) as usize;
    let fixed = src.read_at(0, fixed_len).map_err(|e| io_error(e, "file header and IFD", 0, fixed_len as u64, size))?;
    let head = IfdHead::parse(&fixed, &limits)?;
    let min = head.min_file_size()?;
    if size < min {
        return Err(Error::FileSize {
            what: "the IFD (its external values, N frames of at least one byte and a trailer)",
            found: size,
            expected: min,
        });
    }
    Reader::open(src, limits)
}

/// Reads and decodes every frame through the read path's pipeline ([`decode_each`]: batches of
/// about [`crate::read::BATCH_BYTES`] compressed bytes in one range read each, decoded on a pool
/// of one thread per core, size and boolean checks); returns the total decoded size. The error
/// of the lowest failing frame index is returned.
fn decode_every_frame<R: RangeRead>(reader: &Reader<R>) -> Result<u64> {
    reader.set_cache_bytes(0);
    let indices: Vec<u64> = (0..reader.frame_count()).collect();
    let threads = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    decode_each(reader, &indices, threads, |_, _| Ok(false))?;
    Ok((0..reader.frame_count()).map(|i| reader.layout().decoded_frame_bytes(i)).sum())
}

fn io_error(e: io::Error, what: &'static str, offset: u64, need: u64, size: u64) -> Error {
    if e.kind() == io::ErrorKind::UnexpectedEof {
        Error::Truncated { what, offset, need, have: size.saturating_sub(offset) }
    } else {
        Error::Io(e)
    }
}
