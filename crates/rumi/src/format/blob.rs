//! The external header blob: 32-byte header + packed frame byte counts, and offset
//! reconstruction (spec: "Header blob", "Frame byte counts", "Offset reconstruction").

use crate::error::{Error, Limits, Result};
use crate::format::bitpack::{bit_length, pack, unpack};
use crate::format::bytes::{packed_len, Cursor};
use crate::format::layout::Layout;
use crate::format::sample::SampleEncoding;

/// Magic `0x45564F4C`, on the wire `4C 4F 56 45` ("LOVE").
pub const BLOB_MAGIC: [u8; 4] = *b"LOVE";
/// Size of the fixed blob header.
pub const BLOB_HEADER_BYTES: usize = 32;

/// A parsed header blob: the layout and every frame's byte count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Blob {
    /// Shape, tiling, encoding, frame unit.
    pub layout: Layout,
    /// N byte counts in frame-index order, each > 0.
    pub counts: Vec<u32>,
}

/// The fixed 32-byte part of a blob, checked: what a reader can know before unpacking counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlobHeader {
    /// Shape, tiling, encoding, frame unit (within the limits).
    pub layout: Layout,
    /// The smallest frame byte count.
    pub count_min: u32,
    /// Bits per packed count residual (0..=32).
    pub count_bits: u8,
}

impl BlobHeader {
    /// The smallest file the blob can describe: `base_frame_offset` and N frames of at least
    /// `count_min` bytes. A source shorter than this cannot be the blob's file, which a
    /// reader can tell before allocating the N counts.
    pub fn min_frames_end(&self) -> Result<u64> {
        let n = self.layout.frame_count()?;
        n.checked_mul(u64::from(self.count_min))
            .and_then(|v| v.checked_add(self.layout.base_frame_offset().ok()?))
            .ok_or(Error::Overflow("frame offset"))
    }
}

impl Blob {
    /// Parses and checks the fixed 32-byte header of a blob (the counts are not read).
    pub fn parse_header(bytes: &[u8], limits: &Limits) -> Result<BlobHeader> {
        let mut c = Cursor::new(bytes, 0, "header blob");
        let magic: [u8; 4] = c.array()?;
        if magic != BLOB_MAGIC {
            return Err(Error::BlobMagic { found: magic });
        }
        let version = c.u16()?;
        if version != 1 {
            return Err(Error::BlobVersion(version));
        }
        let width = c.u32()?;
        let length = c.u32()?;
        let times = c.u32()?;
        let tile_width = c.u16()?;
        let tile_length = c.u16()?;
        let bands = c.u16()?;
        let bps = c.u8()?;
        let sf = c.u8()?;
        let unit = c.u8()?;
        let count_min = c.u32()?;
        let count_bits = c.u8()?;
        if count_bits > 32 {
            return Err(Error::CountBits(count_bits));
        }
        let encoding = SampleEncoding::from_pair(u16::from(sf), u16::from(bps))?;
        let layout =
            Layout::new(width, length, times, bands, tile_width, tile_length, encoding, u16::from(unit), limits)
                .map_err(|e| match e {
                    // name the blob field, not the IFD tag the shared check names
                    Error::ZeroDimension(tag) => Error::ZeroDimension(blob_field(tag)),
                    other => other,
                })?;
        Ok(BlobHeader { layout, count_min, count_bits })
    }

    /// Parses and validates a blob (every MUST of "Header blob").
    pub fn parse(bytes: &[u8], limits: &Limits) -> Result<Self> {
        let BlobHeader { layout, count_min, count_bits } = Self::parse_header(bytes, limits)?;
        let n = layout.frame_count()?;
        let expected = packed_len(n, u32::from(count_bits))?
            .checked_add(BLOB_HEADER_BYTES as u64)
            .ok_or(Error::Overflow("blob size"))?;
        if bytes.len() as u64 != expected {
            return Err(Error::BlobSize { found: bytes.len() as u64, expected });
        }
        let residuals = unpack(&bytes[BLOB_HEADER_BYTES..], n as usize, u32::from(count_bits), "frame byte counts")?;
        let mut counts = Vec::with_capacity(n as usize);
        let mut min = u64::MAX;
        let mut max_res = 0u64;
        for (i, &r) in residuals.iter().enumerate() {
            let v = u64::from(count_min) + r;
            let v32 = u32::try_from(v).map_err(|_| Error::CountOverflow(i))?;
            if v32 == 0 {
                return Err(Error::ZeroByteCount { what: "frame_byte_counts", index: i });
            }
            min = min.min(v);
            max_res = max_res.max(r);
            counts.push(v32);
        }
        if min != u64::from(count_min) {
            return Err(Error::CountMin { found: count_min, expected: min });
        }
        let min_bits = bit_length(max_res) as u8;
        if min_bits != count_bits {
            return Err(Error::CountBitsNotMinimal { found: count_bits, expected: min_bits });
        }
        Ok(Blob { layout, counts })
    }

    /// Serialises with the minimal `count_min` / `count_bits` the spec requires.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        let l = &self.layout;
        let n = l.frame_count()?;
        if self.counts.len() as u64 != n {
            return Err(Error::BlobMismatch { field: "frame count", blob: self.counts.len() as u64, file: n });
        }
        if let Some(index) = self.counts.iter().position(|&c| c == 0) {
            return Err(Error::ZeroByteCount { what: "frame_byte_counts", index });
        }
        let min = self.counts.iter().copied().min().unwrap_or(0);
        let residuals: Vec<u64> = self.counts.iter().map(|&c| u64::from(c - min)).collect();
        let bits = bit_length(residuals.iter().copied().max().unwrap_or(0));
        let (sf, bps) = l.encoding.pair();
        let mut out = Vec::with_capacity(BLOB_HEADER_BYTES + residuals.len() * 4);
        out.extend_from_slice(&BLOB_MAGIC);
        out.extend_from_slice(&1u16.to_le_bytes());
        out.extend_from_slice(&l.width.to_le_bytes());
        out.extend_from_slice(&l.length.to_le_bytes());
        out.extend_from_slice(&l.times.to_le_bytes());
        out.extend_from_slice(&l.tile_width.to_le_bytes());
        out.extend_from_slice(&l.tile_length.to_le_bytes());
        out.extend_from_slice(&l.bands.to_le_bytes());
        out.push(bps as u8);
        out.push(sf as u8);
        out.push(l.frame_unit.value());
        out.extend_from_slice(&min.to_le_bytes());
        out.push(bits as u8);
        out.extend_from_slice(&pack(&residuals, bits));
        Ok(out)
    }

    /// Reconstructs the N+1 frame boundaries: `offsets[i]..offsets[i+1]` is frame i and
    /// `offsets[N]` is the trailer offset (spec: "Offset reconstruction").
    pub fn offsets(&self) -> Result<Vec<u64>> {
        let mut out = Vec::with_capacity(self.counts.len() + 1);
        let mut off = self.layout.base_frame_offset()?;
        out.push(off);
        for &c in &self.counts {
            off = off.checked_add(u64::from(c)).ok_or(Error::Overflow("frame offset"))?;
            out.push(off);
        }
        Ok(out)
    }
}

/// The blob field that duplicates IFD tag `tag`.
fn blob_field(tag: &'static str) -> &'static str {
    match tag {
        "ImageWidth" => "header blob image_width",
        "ImageLength" => "header blob image_length",
        "TimeCount" => "header blob time_count",
        "TileWidth" => "header blob tile_width",
        "TileLength" => "header blob tile_length",
        "SamplesPerPixel" => "header blob samples_per_pixel",
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout() -> Layout {
        Layout::new(1024, 1024, 3, 4, 256, 256, SampleEncoding::U16, 0, &Limits::default()).unwrap()
    }

    #[test]
    fn round_trip_and_offsets() {
        let counts: Vec<u32> = (0..192).map(|i| 1000 + (i * 37) % 500).collect();
        let blob = Blob { layout: layout(), counts: counts.clone() };
        let bytes = blob.to_bytes().unwrap();
        let parsed = Blob::parse(&bytes, &Limits::default()).unwrap();
        assert_eq!(parsed, blob);
        let offs = parsed.offsets().unwrap();
        let base = layout().base_frame_offset().unwrap();
        let k = 113usize;
        let sum: u64 = counts[..k].iter().map(|&c| u64::from(c)).sum();
        assert_eq!(offs[k], base + sum);
    }
}
