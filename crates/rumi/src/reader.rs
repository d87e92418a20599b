//! Layer 3: the reader. Opens statelessly from a header blob (no IFD byte is read) or by
//! parsing and validating the file; locates, fetches and decodes frames. Pixels are read
//! through [`crate::read`] (`Reader::read`, defined there), which depends on this module,
//! not the reverse: the reader only holds the read path's frame cache.

use std::io;
use std::ops::Range;
use std::sync::OnceLock;

use crate::aligned::AlignedBuf;
use crate::cache::FrameCache;
use crate::codec;
use crate::error::{Error, Limits, Measure, Result};
use crate::format::georef::GEOREF_BYTES;
use crate::format::ifd::FIXED_PREFIX_BYTES;
use crate::format::{Blob, Georef, IfdHead, Layout, SampleEncoding, Trailer};
use crate::io::RangeRead;

/// A selection of the raster: time steps, bands (any order, repeats allowed), rows, columns.
/// Samples land in the output as `[t][b][y][x]`, C order ([`Reader::read_window`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Window {
    /// time steps
    pub times: Range<u32>,
    /// band indices, in output order
    pub bands: Vec<u32>,
    /// rows
    pub rows: Range<u32>,
    /// columns
    pub cols: Range<u32>,
}

/// An open rumi file.
pub struct Reader<R: RangeRead> {
    src: R,
    blob: Blob,
    /// N+1 boundaries; `offsets[N]` is the trailer offset.
    offsets: Vec<u64>,
    limits: Limits,
    georef: OnceLock<Georef>,
    trailer: OnceLock<Trailer>,
    cache: FrameCache,
}

fn fetch<R: RangeRead>(src: &R, what: &'static str, offset: u64, len: u64) -> Result<Vec<u8>> {
    let n = usize::try_from(len).map_err(|_| Error::Overflow(what))?;
    src.read_at(offset, n).map_err(|e| io_error(e, what, offset, len, src))
}

fn io_error<R: RangeRead>(e: io::Error, what: &'static str, offset: u64, need: u64, src: &R) -> Error {
    if e.kind() == io::ErrorKind::UnexpectedEof {
        let have = src.size().map(|s| s.saturating_sub(offset)).unwrap_or(0);
        Error::Truncated { what, offset, need, have }
    } else {
        Error::Io(e)
    }
}

impl<R: RangeRead> Reader<R> {
    /// Opens statelessly: the blob locates every frame; no IFD byte is read. The georeferencing
    /// block and the trailer are read only when asked for.
    ///
    /// The source's size, when known without a request ([`RangeRead::known_size`]), is compared
    /// with the smallest file the blob's fixed header describes (`base_frame_offset` + N *
    /// `count_min`) before the N counts are unpacked: a 32-byte blob claiming millions of frames
    /// for a short file allocates nothing.
    pub fn open_with_blob(src: R, blob: &[u8], limits: Limits) -> Result<Self> {
        let need = Blob::parse_header(blob, &limits)?.min_frames_end()?;
        // a remote source may not know its size yet (no request here): a short file is then
        // found by the first read past its end
        if let Some(size) = src.known_size()? {
            if size < need {
                return Err(Error::FileSize {
                    what: "a file with the header blob's frames",
                    found: size,
                    expected: need,
                });
            }
        }
        Self::located(src, Blob::parse(blob, &limits)?, limits)
    }

    /// A reader whose frames `blob` locates (offsets reconstructed), nothing else read yet.
    fn located(src: R, blob: Blob, limits: Limits) -> Result<Self> {
        let offsets = blob.offsets()?;
        Ok(Reader {
            src,
            blob,
            offsets,
            limits,
            georef: OnceLock::new(),
            trailer: OnceLock::new(),
            cache: FrameCache::default(),
        })
    }

    /// Opens by parsing and validating the file itself (header, IFD, external values, offsets,
    /// georeferencing, trailer and file size), building the blob in memory.
    pub fn open(src: R, limits: Limits) -> Result<Self> {
        let fixed = fetch(&src, "file header and IFD", 0, FIXED_PREFIX_BYTES)?;
        let head = IfdHead::parse(&fixed, &limits)?;
        // Check the claimed sizes against the real file before reading ~12*N bytes of values.
        let (size, need) = (src.size()?, head.min_file_size()?);
        if size < need {
            return Err(Error::FileSize { what: "the IFD (frames, values and trailer)", found: size, expected: need });
        }
        let ext = fetch(&src, "IFD external values", FIXED_PREFIX_BYTES, head.external_len())?;
        let ifd = head.finish(&ext, &limits)?;
        let reader = Self::located(src, Blob { layout: ifd.layout, counts: ifd.byte_counts }, limits)?;
        let _ = reader.georef.set(ifd.georef);
        reader.trailer()?;
        Ok(reader)
    }

    /// Shape, tiling, encoding and frame unit.
    pub fn layout(&self) -> &Layout {
        &self.blob.layout
    }

    /// The sample encoding.
    pub fn encoding(&self) -> SampleEncoding {
        self.blob.layout.encoding
    }

    /// The limits this reader enforces.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The header blob (parsed); `blob().to_bytes()` serialises it.
    pub fn blob(&self) -> &Blob {
        &self.blob
    }

    /// The decoded-frame cache the read path consults ([`crate::read`]).
    pub fn cache(&self) -> &FrameCache {
        &self.cache
    }

    /// Sets the byte budget of the decoded-frame cache (0 disables it; default
    /// [`crate::read::DEFAULT_CACHE_BYTES`]).
    pub fn set_cache_bytes(&self, bytes: u64) {
        self.cache.set_budget(bytes);
    }

    /// The underlying source.
    pub fn source(&self) -> &R {
        &self.src
    }

    /// Number of frames N.
    pub fn frame_count(&self) -> u64 {
        self.blob.counts.len() as u64
    }

    /// Byte range `(offset, length)` of frame `index`.
    pub fn frame_range(&self, index: u64) -> Result<(u64, u64)> {
        let i = usize::try_from(index).ok().filter(|&i| i < self.blob.counts.len());
        let i =
            i.ok_or_else(|| Error::Usage(format!("frame {index} does not exist (N = {})", self.blob.counts.len())))?;
        Ok((self.offsets[i], u64::from(self.blob.counts[i])))
    }

    /// Offset of the trailer (just past the last frame).
    pub fn trailer_offset(&self) -> u64 {
        self.offsets[self.offsets.len() - 1]
    }

    /// Total compressed frame bytes.
    pub fn compressed_bytes(&self) -> u64 {
        self.trailer_offset() - self.offsets[0]
    }

    /// The georeferencing (read on first use: 160 bytes before the first frame).
    pub fn georef(&self) -> Result<Georef> {
        if let Some(g) = self.georef.get() {
            return Ok(*g);
        }
        let off = self.offsets[0] - GEOREF_BYTES as u64;
        let bytes = fetch(&self.src, "georeferencing block", off, GEOREF_BYTES as u64)?;
        let g = Georef::parse(&bytes, off)?;
        Ok(*self.georef.get_or_init(|| g))
    }

    /// Band texts and time coordinates (read on first use, from the trailer offset to the end).
    pub fn trailer(&self) -> Result<&Trailer> {
        if let Some(t) = self.trailer.get() {
            return Ok(t);
        }
        let start = self.trailer_offset();
        let size = self.src.size()?;
        if size < start {
            return Err(Error::FileSize { what: "the frames located by the header", found: size, expected: start });
        }
        let len = size - start;
        Limits::check(Measure::TrailerSize, len, self.limits.max_trailer_bytes)?;
        let bytes = fetch(&self.src, "trailer", start, len)?;
        let l = &self.blob.layout;
        let t = Trailer::parse(&bytes, l.bands, l.times, start, &self.limits)?;
        Ok(self.trailer.get_or_init(|| t))
    }

    /// Reads the compressed bytes of frame `index`.
    pub fn read_frame_bytes(&self, index: u64) -> Result<Vec<u8>> {
        let (off, len) = self.frame_range(index)?;
        self.check_compressed(index, len)?;
        fetch(&self.src, "frame", off, len)
    }

    /// A frame never needs much more than its decoded size (OpenZL stores incompressible data
    /// nearly raw): a larger byte count in a blob is refused before anything is allocated.
    fn check_compressed(&self, index: u64, len: u64) -> Result<()> {
        let decoded = self.blob.layout.decoded_frame_bytes(index);
        let bound = decoded.saturating_add(decoded / 2).saturating_add(64 << 10);
        Limits::check(
            Measure::CompressedFrameSize,
            len,
            bound.min(self.limits.max_frame_bytes.saturating_add(64 << 10)),
        )
    }

    /// Decodes compressed frame `index` into `out` and checks its decoded size and boolean
    /// bytes. The storage of `out` is reused when it holds the frame's decoded size (a decoding
    /// thread's scratch buffer, whatever the size of the frame before: no allocation, no
    /// zeroing; OpenZL writes every byte or the call fails); otherwise `out` becomes a new
    /// buffer, not zeroed first for the same reason (and left as it was when the frame fails).
    pub fn decode_frame_into(&self, index: u64, compressed: &[u8], out: &mut AlignedBuf) -> Result<()> {
        let expected = self.blob.layout.decoded_frame_bytes(index);
        Limits::check(Measure::DecodedFrameSize, expected, self.limits.max_frame_bytes)?;
        if out.fit(expected as usize) {
            return self.decode_frame_to(index, compressed, out.as_bytes_mut());
        }
        let fresh = AlignedBuf::try_filled(expected as usize, "a decoded frame", |b| {
            codec::decode_uninit(compressed, b, index)
        })?;
        self.check_booleans(index, fresh.as_bytes())?;
        *out = fresh;
        Ok(())
    }

    /// [`Reader::decode_frame_into`] a slice of exactly the frame's decoded size, 8-byte
    /// aligned (the read path's part of the caller's buffer where the frame lands whole). On
    /// failure `out` may hold part of the frame.
    pub(crate) fn decode_frame_to(&self, index: u64, compressed: &[u8], out: &mut [u8]) -> Result<()> {
        let l = &self.blob.layout;
        let expected = l.decoded_frame_bytes(index);
        Limits::check(Measure::DecodedFrameSize, expected, self.limits.max_frame_bytes)?;
        if out.len() as u64 != expected {
            return Err(Error::DecodedSize { index, found: out.len() as u64, expected });
        }
        codec::decode_to(compressed, out, index)?;
        self.check_booleans(index, out)
    }

    /// Fails when decoded frame `index` of a boolean raster holds a byte other than 0 or 1.
    fn check_booleans(&self, index: u64, frame: &[u8]) -> Result<()> {
        if self.blob.layout.encoding == SampleEncoding::Bool {
            if let Some(offset) = frame.iter().position(|&v| v > 1) {
                return Err(Error::BooleanValue { index, offset: offset as u64, value: frame[offset] });
            }
        }
        Ok(())
    }

    /// Reads the compressed bytes of several frames with ONE `read_ranges` call (a source that
    /// batches requests, e.g. GDAL's `VSIFReadMultiRangeL` over HTTP, merges adjacent ranges).
    /// Every frame's byte count is checked against its decoded size before anything is read.
    pub fn fetch_frames(&self, frames: &[u64]) -> Result<Vec<Vec<u8>>> {
        if frames.is_empty() {
            return Ok(Vec::new());
        }
        let mut ranges = Vec::with_capacity(frames.len());
        for &f in frames {
            let (o, n) = self.frame_range(f)?;
            self.check_compressed(f, n)?;
            ranges.push((o, usize::try_from(n).map_err(|_| Error::Overflow("frame size"))?));
        }
        let bytes = self
            .src
            .read_ranges(&ranges)
            .map_err(|e| io_error(e, "frame", ranges[0].0, ranges[0].1 as u64, &self.src))?;
        if bytes.len() != frames.len() || bytes.iter().zip(&ranges).any(|(b, r)| b.len() != r.1) {
            return Err(Error::Io(io::Error::other("range source returned the wrong number of bytes")));
        }
        Ok(bytes)
    }
}
