//! The data model, `frame_unit` and the frame index (spec: "Data model", "Frames",
//! "frame_unit", "Frame index", "Validating frame_unit", "Deriving base_frame_offset").

use crate::error::{Error, Limits, Measure, Result};
use crate::format::sample::SampleEncoding;

/// A registered `frame_unit` value (0..=9), already checked against B and T.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FrameUnit(u8);

/// An axis of a decoded frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Axis {
    /// band
    B,
    /// time
    T,
    /// tile rows
    H,
    /// tile columns
    W,
}

impl FrameUnit {
    /// Validates `value` for `bands` (B) and `times` (T) (spec: "Validating frame_unit").
    pub fn new(value: u16, bands: u32, times: u32) -> Result<Self> {
        let shape_err = |rule| Error::FrameUnitShape { unit: value, bands, times, rule };
        match value {
            0 => {}
            1 | 2 => {
                if (bands > 1) == (times > 1) {
                    return Err(shape_err("units 1 and 2 need exactly one of B, T above 1"));
                }
            }
            3..=9 => {
                if bands <= 1 || times <= 1 {
                    return Err(shape_err("units 3 to 9 need B > 1 and T > 1"));
                }
            }
            _ => return Err(Error::FrameUnitUnknown(value)),
        }
        Ok(FrameUnit(value as u8))
    }

    /// The numeric value.
    pub fn value(self) -> u8 {
        self.0
    }

    /// True for units 0 and 9, whose frames hold one tile of one (b, t) pair.
    pub fn is_tile(self) -> bool {
        self.0 == 0 || self.0 == 9
    }

    /// Axis order of the decoded frame, slowest first. Axes of length 1 may appear; they do not
    /// change the layout. For units 1 and 2 both B and T are listed: one of them is 1.
    pub fn axes(self) -> &'static [Axis] {
        use Axis::*;
        match self.0 {
            0 | 9 => &[H, W],
            1 => &[B, T, H, W],
            2 => &[H, W, B, T],
            3 => &[B, T, H, W],
            4 => &[T, B, H, W],
            5 => &[B, H, W, T],
            6 => &[T, H, W, B],
            7 => &[H, W, B, T],
            8 => &[H, W, T, B],
            _ => unreachable!("FrameUnit holds only registered values"),
        }
    }

    /// Every frame unit valid for B and T.
    pub fn valid_for(bands: u32, times: u32) -> Vec<FrameUnit> {
        (0..=9).filter_map(|v| FrameUnit::new(v, bands, times).ok()).collect()
    }

    /// The `INTERLEAVE`-style description of the decoded frame (e.g. `b h w`).
    pub fn describe(self, bands: u32) -> &'static str {
        match self.0 {
            0 | 9 => "h w",
            1 => {
                if bands > 1 {
                    "b h w"
                } else {
                    "t h w"
                }
            }
            2 => {
                if bands > 1 {
                    "h w b"
                } else {
                    "h w t"
                }
            }
            3 => "b t h w",
            4 => "t b h w",
            5 => "b h w t",
            6 => "t h w b",
            7 => "h w b t",
            _ => "h w t b",
        }
    }
}

/// The raster shape, tiling, encoding and frame unit: everything needed to locate and size
/// frames. Mirrors the fields of the header blob.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    /// X
    pub width: u32,
    /// Y
    pub length: u32,
    /// T
    pub times: u32,
    /// B
    pub bands: u16,
    /// nominal tile width
    pub tile_width: u16,
    /// nominal tile length
    pub tile_length: u16,
    /// sample encoding
    pub encoding: SampleEncoding,
    /// frame unit
    pub frame_unit: FrameUnit,
}

/// Strides (in samples) of the four logical axes inside one decoded frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FrameStrides {
    /// band stride (0 when the frame holds one band)
    pub b: usize,
    /// time stride (0 when the frame holds one time step)
    pub t: usize,
    /// row stride
    pub y: usize,
    /// column stride
    pub x: usize,
}

/// One frame's place in the raster and the order of its decoded samples (see
/// [`Layout::frame_geometry`]): sample (b, t, y, x) of the tile, `y` and `x` counted from the
/// tile's first row and column, is sample [`FrameGeometry::sample`] of the decoded frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FrameGeometry {
    /// frame index
    pub index: u64,
    /// first raster row of the tile
    pub y0: u32,
    /// first raster column of the tile
    pub x0: u32,
    /// rows of the tile (edge tiles are clipped)
    pub h: u32,
    /// columns of the tile
    pub w: u32,
    /// strides in samples of b, t, y, x
    pub strides: FrameStrides,
    /// the one (band, time) pair of a tile frame (units 0 and 9); `None` for a cell, which
    /// holds every pair
    pub tile: Option<(u32, u32)>,
}

impl FrameGeometry {
    /// True when the frame holds band `b` at time `t` (the caller checks `b < B`, `t < T`).
    pub fn holds(&self, b: u32, t: u32) -> bool {
        self.tile.is_none_or(|p| p == (b, t))
    }

    /// Sample offset of plane (b, t) (row 0, column 0 of the tile) in the decoded frame.
    pub fn plane(&self, b: u32, t: u32) -> usize {
        b as usize * self.strides.b + t as usize * self.strides.t
    }

    /// Sample offset of (b, t, y, x) in the decoded frame (`y`, `x` relative to the tile).
    pub fn sample(&self, b: u32, t: u32, y: u32, x: u32) -> usize {
        self.plane(b, t) + y as usize * self.strides.y + x as usize * self.strides.x
    }
}

impl Layout {
    /// Builds a layout, checking positivity, frame unit validity and the frame-count limits.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        width: u32,
        length: u32,
        times: u32,
        bands: u16,
        tile_width: u16,
        tile_length: u16,
        encoding: SampleEncoding,
        frame_unit: u16,
        limits: &Limits,
    ) -> Result<Self> {
        for (v, name) in [
            (u64::from(width), "ImageWidth"),
            (u64::from(length), "ImageLength"),
            (u64::from(times), "TimeCount"),
            (u64::from(bands), "SamplesPerPixel"),
            (u64::from(tile_width), "TileWidth"),
            (u64::from(tile_length), "TileLength"),
        ] {
            if v == 0 {
                return Err(Error::ZeroDimension(name));
            }
        }
        Limits::check(Measure::BandCount, u64::from(bands), limits.max_bands)?;
        let frame_unit = FrameUnit::new(frame_unit, u32::from(bands), times)?;
        let layout = Layout { width, length, times, bands, tile_width, tile_length, encoding, frame_unit };
        Limits::check(Measure::FrameCount, layout.frame_count()?, limits.max_frames)?;
        Limits::check(Measure::DecodedFrameSize, layout.max_decoded_frame_bytes()?, limits.max_frame_bytes)?;
        Ok(layout)
    }

    /// `ceil(extent / tile)`: the tiles along one axis of `extent` pixels (the one home of the
    /// division: `tiles_across`, `tiles_down`, and hosts that count tiles without a `Layout`,
    /// such as Python's `_rumi.tile_counts`). `tile` must not be 0 (`Layout::new` refuses it).
    pub fn tiles_along(extent: u32, tile: u16) -> u32 {
        extent.div_ceil(u32::from(tile))
    }

    /// `ceil(image_width / tile_width)`
    pub fn tiles_across(&self) -> u32 {
        Self::tiles_along(self.width, self.tile_width)
    }

    /// `ceil(image_length / tile_length)`
    pub fn tiles_down(&self) -> u32 {
        Self::tiles_along(self.length, self.tile_length)
    }

    /// g, the number of tile locations.
    pub fn grid_size(&self) -> u64 {
        u64::from(self.tiles_across()) * u64::from(self.tiles_down())
    }

    /// N, the number of frames (checked arithmetic).
    pub fn frame_count(&self) -> Result<u64> {
        let g = self.grid_size();
        if self.frame_unit.is_tile() {
            g.checked_mul(u64::from(self.bands))
                .and_then(|v| v.checked_mul(u64::from(self.times)))
                .ok_or(Error::Overflow("frame count N"))
        } else {
            Ok(g)
        }
    }

    /// Frames per tile location.
    pub fn frames_per_location(&self) -> u64 {
        if self.frame_unit.is_tile() {
            u64::from(self.bands) * u64::from(self.times)
        } else {
            1
        }
    }

    /// Frame index of the frame holding `(row, col, b, t)` (spec: "Frame index").
    pub fn frame_index(&self, row: u32, col: u32, b: u32, t: u32) -> u64 {
        let spatial = u64::from(row) * u64::from(self.tiles_across()) + u64::from(col);
        let (bb, tt) = (u64::from(self.bands), u64::from(self.times));
        match self.frame_unit.value() {
            0 => (spatial * bb + u64::from(b)) * tt + u64::from(t),
            9 => (spatial * tt + u64::from(t)) * bb + u64::from(b),
            _ => spatial,
        }
    }

    /// Inverse of [`Layout::frame_index`]: `(row, col, b, t)`; `b`/`t` are 0 for cell frames.
    pub fn frame_position(&self, index: u64) -> (u32, u32, u32, u32) {
        let (bb, tt) = (u64::from(self.bands), u64::from(self.times));
        let (spatial, b, t) = match self.frame_unit.value() {
            0 => (index / (bb * tt), (index / tt) % bb, index % tt),
            9 => (index / (bb * tt), index % bb, (index / bb) % tt),
            _ => (index, 0, 0),
        };
        let across = u64::from(self.tiles_across());
        ((spatial / across) as u32, (spatial % across) as u32, b as u32, t as u32)
    }

    /// Actual `(h, w)` of the tile at `(row, col)`: edge tiles are clipped, not padded.
    pub fn tile_dims(&self, row: u32, col: u32) -> (u32, u32) {
        let (tl, tw) = (u32::from(self.tile_length), u32::from(self.tile_width));
        let h = (self.length - row * tl).min(tl);
        let w = (self.width - col * tw).min(tw);
        (h, w)
    }

    /// Decoded samples of a frame whose tile is `h x w`.
    pub fn frame_samples(&self, h: u32, w: u32) -> u64 {
        let hw = u64::from(h) * u64::from(w);
        if self.frame_unit.is_tile() {
            hw
        } else {
            hw * u64::from(self.bands) * u64::from(self.times)
        }
    }

    /// Decoded bytes of frame `index` (spec: `decoded_frame_bytes`).
    pub fn decoded_frame_bytes(&self, index: u64) -> u64 {
        let (row, col, _, _) = self.frame_position(index);
        let (h, w) = self.tile_dims(row, col);
        self.frame_samples(h, w) * self.encoding.decoded_bytes() as u64
    }

    /// Largest decoded frame (a full nominal tile), checked.
    pub fn max_decoded_frame_bytes(&self) -> Result<u64> {
        let h = u32::from(self.tile_length).min(self.length);
        let w = u32::from(self.tile_width).min(self.width);
        u64::from(h)
            .checked_mul(u64::from(w))
            .and_then(|v| v.checked_mul(if self.frame_unit.is_tile() { 1 } else { u64::from(self.bands) }))
            .and_then(|v| v.checked_mul(if self.frame_unit.is_tile() { 1 } else { u64::from(self.times) }))
            .and_then(|v| v.checked_mul(self.encoding.decoded_bytes() as u64))
            .ok_or(Error::Overflow("decoded frame size"))
    }

    /// Strides in samples of b, t, y, x inside a decoded frame whose tile is `h x w`.
    pub fn frame_strides(&self, h: u32, w: u32) -> FrameStrides {
        let mut s = FrameStrides { b: 0, t: 0, y: 0, x: 0 };
        let mut stride = 1usize;
        for axis in self.frame_unit.axes().iter().rev() {
            let len = match axis {
                Axis::B => usize::from(self.bands),
                Axis::T => self.times as usize,
                Axis::H => h as usize,
                Axis::W => w as usize,
            };
            match axis {
                Axis::B => s.b = stride,
                Axis::T => s.t = stride,
                Axis::H => s.y = stride,
                Axis::W => s.x = stride,
            }
            stride *= len;
        }
        if self.frame_unit.is_tile() {
            s.b = 0;
            s.t = 0;
        }
        s
    }

    /// Where the samples of frame `index` come from and sit: its tile and the strides of its
    /// decoded order. The one mapping between raster coordinates and frame bytes, used by the
    /// writer (gathering a frame) and the read path (scattering one).
    pub fn frame_geometry(&self, index: u64) -> FrameGeometry {
        let (row, col, band, time) = self.frame_position(index);
        self.frame_at(row, col, band, time)
    }

    /// The geometry of the frame holding `(row, col, b, t)` (tile row and column inside the
    /// grid; `b`, `t` matter for tile frames only).
    pub fn frame_at(&self, row: u32, col: u32, band: u32, time: u32) -> FrameGeometry {
        let (h, w) = self.tile_dims(row, col);
        FrameGeometry {
            index: self.frame_index(row, col, band, time),
            y0: row * u32::from(self.tile_length),
            x0: col * u32::from(self.tile_width),
            h,
            w,
            strides: self.frame_strides(h, w),
            tile: self.frame_unit.is_tile().then_some((band, time)),
        }
    }

    /// `base_frame_offset = 292 + external` (spec: "Deriving base_frame_offset").
    pub fn base_frame_offset(&self) -> Result<u64> {
        base_frame_offset(u64::from(self.bands), self.frame_count()?)
    }
}

/// `base_frame_offset` for B bands and N frames, checked.
pub fn base_frame_offset(bands: u64, frames: u64) -> Result<u64> {
    let ov = || Error::Overflow("base_frame_offset");
    let bps = if bands >= 5 { bands.checked_mul(2).ok_or_else(ov)? } else { 0 };
    let offs = if frames >= 2 { frames.checked_mul(8).ok_or_else(ov)? } else { 0 };
    let counts = if frames >= 3 { frames.checked_mul(4).ok_or_else(ov)? } else { 0 };
    [bps, offs, counts, bps, 128, 32].iter().try_fold(292u64, |acc, v| acc.checked_add(*v)).ok_or_else(ov)
}

#[cfg(test)]
#[path = "layout_tests.rs"]
mod tests;
