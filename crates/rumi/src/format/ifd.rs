//! The 16-byte file header and the fixed 13-tag IFD with its external values
//! (spec: "File header", "Fixed IFD", "Placement", "Deriving base_frame_offset", "Frame order").

use crate::error::{Error, Limits, Result};
use crate::format::bytes::Cursor;
use crate::format::georef::{Georef, GEOREF_BYTES};
use crate::format::layout::{base_frame_offset, Layout};
use crate::format::sample::SampleEncoding;

/// `RUMI`
pub const FILE_MAGIC: [u8; 4] = *b"RUMI";
/// Size of the file header.
pub const FILE_HEADER_BYTES: u64 = 16;
/// Size of the IFD: entry count, 13 entries, next-IFD offset.
pub const IFD_BYTES: u64 = 8 + 20 * 13 + 8;
/// File header + IFD: the bytes before the external values.
pub const FIXED_PREFIX_BYTES: u64 = FILE_HEADER_BYTES + IFD_BYTES;

const SHORT: u16 = 3;
const LONG: u16 = 4;
const DOUBLE: u16 = 12;
const LONG8: u16 = 16;

/// The 13 tags in the order they must appear, with their type.
pub const TAGS: [(u16, &str, u16); 13] = [
    (256, "ImageWidth", LONG),
    (257, "ImageLength", LONG),
    (258, "BitsPerSample", SHORT),
    (277, "SamplesPerPixel", SHORT),
    (322, "TileWidth", SHORT),
    (323, "TileLength", SHORT),
    (324, "TileOffsets", LONG8),
    (325, "TileByteCounts", LONG),
    (339, "SampleFormat", SHORT),
    (34264, "ModelTransformationTag", DOUBLE),
    (34735, "GeoKeyDirectoryTag", SHORT),
    (65000, "FrameUnit", SHORT),
    (65001, "TimeCount", LONG),
];

fn type_size(t: u16) -> u64 {
    match t {
        SHORT => 2,
        LONG => 4,
        _ => 8,
    }
}

#[derive(Debug, Clone, Copy)]
struct Entry {
    count: u64,
    value: [u8; 8],
}

impl Entry {
    fn inline_u64(&self, t: u16) -> u64 {
        match t {
            SHORT => u64::from(u16::from_le_bytes([self.value[0], self.value[1]])),
            LONG => u64::from(u32::from_le_bytes([self.value[0], self.value[1], self.value[2], self.value[3]])),
            _ => u64::from_le_bytes(self.value),
        }
    }
}

/// The file header and IFD entries, parsed and checked; the external values are still to read.
#[derive(Debug, Clone)]
pub struct IfdHead {
    entries: [Entry; 13],
    width: u32,
    length: u32,
    bands: u16,
    tile_width: u16,
    tile_length: u16,
    frame_unit: u16,
    times: u32,
    frames: u64,
    /// Offset of the first frame, derived from B and N.
    pub base_frame_offset: u64,
}

/// A fully parsed and validated prefix (header + IFD + external values).
#[derive(Debug, Clone)]
pub struct Ifd {
    /// Shape, tiling, encoding, frame unit.
    pub layout: Layout,
    /// TileByteCounts, N entries, all > 0.
    pub byte_counts: Vec<u32>,
    /// TileOffsets, N entries, equal to the prefix sums.
    pub offsets: Vec<u64>,
    /// The georeferencing block.
    pub georef: Georef,
    /// Offset of the first frame.
    pub base_frame_offset: u64,
}

/// Parses the 16-byte file header (spec: "File header").
pub fn parse_file_header(bytes: &[u8]) -> Result<()> {
    let mut c = Cursor::new(bytes, 0, "file header");
    let magic: [u8; 4] = c.array()?;
    if magic != FILE_MAGIC {
        return Err(Error::FileMagic { found: magic });
    }
    let version = c.u16()?;
    if version != 1 {
        return Err(Error::FileVersion(version));
    }
    let reserved = c.u16()?;
    if reserved != 0 {
        return Err(Error::FileReserved(reserved));
    }
    let ifd_offset = c.u64()?;
    if ifd_offset != 16 {
        return Err(Error::IfdOffset(ifd_offset));
    }
    Ok(())
}

impl IfdHead {
    /// Parses the first 292 bytes of a file: the file header and the IFD entries.
    pub fn parse(bytes: &[u8], limits: &Limits) -> Result<Self> {
        parse_file_header(bytes)?;
        let mut c = Cursor::new(bytes, 0, "IFD");
        c.take(16)?;
        let n = c.u64()?;
        if n != 13 {
            return Err(Error::IfdEntryCount(n));
        }
        let mut entries = [Entry { count: 0, value: [0; 8] }; 13];
        for (index, &(tag, name, typ)) in TAGS.iter().enumerate() {
            let found = c.u16()?;
            if found != tag {
                return Err(Error::IfdTag { index, found, expected: tag, name });
            }
            let t = c.u16()?;
            if t != typ {
                return Err(Error::IfdType { tag, name, found: t, expected: typ });
            }
            let count = c.u64()?;
            let value = c.array::<8>()?;
            entries[index] = Entry { count, value };
        }
        let next = c.u64()?;
        if next != 0 {
            return Err(Error::NextIfd(next));
        }
        // Single-valued entries first: they size everything else.
        for i in [0usize, 1, 3, 4, 5, 11, 12] {
            check_count(i, entries[i].count, 1)?;
            check_inline_padding(i, &entries[i])?;
        }
        let v = |i: usize| entries[i].inline_u64(TAGS[i].2);
        let (width, length, bands) = (v(0) as u32, v(1) as u32, v(3) as u16);
        let (tile_width, tile_length, frame_unit, times) = (v(4) as u16, v(5) as u16, v(11) as u16, v(12) as u32);
        // Sizes via a provisional layout (encoding checked once the values are read). With B <= 4
        // the first sample pair is inline: use it, so that a frame-size limit names the real size.
        let first = |i: usize| u16::from_le_bytes([entries[i].value[0], entries[i].value[1]]);
        let encoding = if bands <= 4 { SampleEncoding::from_pair(first(8), first(2)).ok() } else { None };
        let encoding = encoding.unwrap_or(SampleEncoding::U8);
        let probe = Layout::new(width, length, times, bands, tile_width, tile_length, encoding, frame_unit, limits)?;
        let frames = probe.frame_count()?;
        check_count(2, entries[2].count, u64::from(bands))?;
        check_count(8, entries[8].count, u64::from(bands))?;
        check_count(6, entries[6].count, frames)?;
        check_count(7, entries[7].count, frames)?;
        check_count(9, entries[9].count, 16)?;
        check_count(10, entries[10].count, 16)?;
        let base = base_frame_offset(u64::from(bands), frames)?;
        // Placement: inline values padded with zeros, external values gap-free in tag order.
        let mut next_offset = FIXED_PREFIX_BYTES;
        for (i, e) in entries.iter().enumerate() {
            let size = e.count * type_size(TAGS[i].2);
            if size <= 8 {
                check_inline_padding(i, e)?;
            } else {
                let found = u64::from_le_bytes(e.value);
                if found != next_offset {
                    return Err(Error::ExternalOffset {
                        tag: TAGS[i].0,
                        name: TAGS[i].1,
                        found,
                        expected: next_offset,
                    });
                }
                next_offset += size;
            }
        }
        debug_assert_eq!(next_offset, base);
        Ok(IfdHead {
            entries,
            width,
            length,
            bands,
            tile_width,
            tile_length,
            frame_unit,
            times,
            frames,
            base_frame_offset: base,
        })
    }

    /// Bytes of external values that follow the IFD (`base_frame_offset - 292`).
    pub fn external_len(&self) -> u64 {
        self.base_frame_offset - FIXED_PREFIX_BYTES
    }

    /// N
    pub fn frame_count(&self) -> u64 {
        self.frames
    }

    /// The smallest file this IFD can belong to: the prefix, N frames of at least one byte each
    /// and a trailer of at least `28 + 3 * B` bytes (each band text is a 2-byte length and at
    /// least one byte). Comparing it with the file size before reading the external values keeps
    /// a short file that claims a huge N from causing a large read or allocation.
    pub fn min_file_size(&self) -> Result<u64> {
        let trailer = 28 + 3 * u64::from(self.bands);
        self.base_frame_offset
            .checked_add(self.frames)
            .and_then(|v| v.checked_add(trailer))
            .ok_or(Error::Overflow("minimum file size"))
    }

    /// Parses the external values (`bytes` starts at file offset 292) and checks offsets.
    pub fn finish(&self, bytes: &[u8], limits: &Limits) -> Result<Ifd> {
        if (bytes.len() as u64) < self.external_len() {
            return Err(Error::Truncated {
                what: "IFD external values",
                offset: FIXED_PREFIX_BYTES,
                need: self.external_len(),
                have: bytes.len() as u64,
            });
        }
        let value_bytes = |i: usize| -> &[u8] {
            let e = &self.entries[i];
            let size = (e.count * type_size(TAGS[i].2)) as usize;
            if size <= 8 {
                &e.value[..size]
            } else {
                let start = (u64::from_le_bytes(e.value) - FIXED_PREFIX_BYTES) as usize;
                &bytes[start..start + size]
            }
        };
        let shorts = |i: usize| -> Vec<u16> {
            value_bytes(i).chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]])).collect()
        };
        let bps = shorts(2);
        let sf = shorts(8);
        for (name, values) in [("BitsPerSample", &bps), ("SampleFormat", &sf)] {
            if let Some((index, &found)) = values.iter().enumerate().find(|(_, &v)| v != values[0]) {
                return Err(Error::MixedSamples { name, index, found, first: values[0] });
            }
        }
        let encoding = SampleEncoding::from_pair(sf[0], bps[0])?;
        let layout = Layout::new(
            self.width,
            self.length,
            self.times,
            self.bands,
            self.tile_width,
            self.tile_length,
            encoding,
            self.frame_unit,
            limits,
        )?;
        let offsets: Vec<u64> =
            value_bytes(6).chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().unwrap_or([0; 8]))).collect();
        let byte_counts: Vec<u32> =
            value_bytes(7).chunks_exact(4).map(|c| u32::from_le_bytes(c.try_into().unwrap_or([0; 4]))).collect();
        if let Some(index) = byte_counts.iter().position(|&c| c == 0) {
            return Err(Error::ZeroByteCount { what: "TileByteCounts", index });
        }
        if offsets[0] != self.base_frame_offset {
            return Err(Error::BaseFrameOffset { found: offsets[0], expected: self.base_frame_offset });
        }
        let mut expected = self.base_frame_offset;
        for (index, (&found, &count)) in offsets.iter().zip(byte_counts.iter()).enumerate() {
            if found != expected {
                return Err(Error::TileOffset { index, found, expected });
            }
            expected = expected.checked_add(u64::from(count)).ok_or(Error::Overflow("frame offset"))?;
        }
        let geo_start = (self.external_len() as usize) - GEOREF_BYTES;
        let georef =
            Georef::parse(&bytes[geo_start..geo_start + GEOREF_BYTES], self.base_frame_offset - GEOREF_BYTES as u64)?;
        Ok(Ifd { layout, byte_counts, offsets, georef, base_frame_offset: self.base_frame_offset })
    }
}

fn check_count(i: usize, found: u64, expected: u64) -> Result<()> {
    if found != expected {
        return Err(Error::IfdCount { tag: TAGS[i].0, name: TAGS[i].1, found, expected });
    }
    Ok(())
}

fn check_inline_padding(i: usize, e: &Entry) -> Result<()> {
    let size = (e.count * type_size(TAGS[i].2)) as usize;
    if size <= 8 && e.value[size..].iter().any(|&b| b != 0) {
        return Err(Error::InlinePadding { tag: TAGS[i].0, name: TAGS[i].1 });
    }
    Ok(())
}

/// Serialises file header + IFD + external values for a layout whose frames have
/// `byte_counts` (N entries, in frame-index order). The result is `base_frame_offset` bytes.
pub fn serialise_prefix(layout: &Layout, byte_counts: &[u32], georef: &Georef) -> Result<Vec<u8>> {
    let n = layout.frame_count()?;
    if byte_counts.len() as u64 != n {
        return Err(Error::Usage(format!("{} byte counts given for {} frames", byte_counts.len(), n)));
    }
    if let Some(index) = byte_counts.iter().position(|&c| c == 0) {
        return Err(Error::ZeroByteCount { what: "TileByteCounts", index });
    }
    let base = layout.base_frame_offset()?;
    let b = usize::from(layout.bands);
    let (sf, bps) = layout.encoding.pair();
    let mut offsets = Vec::with_capacity(byte_counts.len());
    let mut off = base;
    for &c in byte_counts {
        offsets.push(off);
        off = off.checked_add(u64::from(c)).ok_or(Error::Overflow("frame offset"))?;
    }
    let values: [Vec<u8>; 13] = [
        layout.width.to_le_bytes().to_vec(),
        layout.length.to_le_bytes().to_vec(),
        std::iter::repeat_n(bps, b).flat_map(u16::to_le_bytes).collect(),
        layout.bands.to_le_bytes().to_vec(),
        layout.tile_width.to_le_bytes().to_vec(),
        layout.tile_length.to_le_bytes().to_vec(),
        offsets.iter().flat_map(|o| o.to_le_bytes()).collect(),
        byte_counts.iter().flat_map(|c| c.to_le_bytes()).collect(),
        std::iter::repeat_n(sf, b).flat_map(u16::to_le_bytes).collect(),
        georef.to_bytes()?[..128].to_vec(),
        georef.to_bytes()?[128..].to_vec(),
        u16::from(layout.frame_unit.value()).to_le_bytes().to_vec(),
        layout.times.to_le_bytes().to_vec(),
    ];
    let counts: [u64; 13] = [1, 1, b as u64, 1, 1, 1, n, n, b as u64, 16, 16, 1, 1];
    let mut out = Vec::with_capacity(base as usize);
    out.extend_from_slice(&FILE_MAGIC);
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    out.extend_from_slice(&16u64.to_le_bytes());
    out.extend_from_slice(&13u64.to_le_bytes());
    let mut external = Vec::new();
    for (i, &(tag, _, typ)) in TAGS.iter().enumerate() {
        out.extend_from_slice(&tag.to_le_bytes());
        out.extend_from_slice(&typ.to_le_bytes());
        out.extend_from_slice(&counts[i].to_le_bytes());
        let v = &values[i];
        if v.len() <= 8 {
            let mut inline = [0u8; 8];
            inline[..v.len()].copy_from_slice(v);
            out.extend_from_slice(&inline);
        } else {
            out.extend_from_slice(&(FIXED_PREFIX_BYTES + external.len() as u64).to_le_bytes());
            external.extend_from_slice(v);
        }
    }
    out.extend_from_slice(&0u64.to_le_bytes());
    out.extend_from_slice(&external);
    debug_assert_eq!(out.len() as u64, base);
    Ok(out)
}
