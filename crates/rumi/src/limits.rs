//! The resource limits a reader enforces (spec "Resource limits"): one table of kinds, each
//! with its name, description and default. Hosts map their own option names onto the kinds
//! (GDAL's `RUMI_MAX_*` configuration options, Python's `limits={...}` keys); the core names
//! no host's option.

use crate::error::{Error, Result};

/// A resource limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum LimitKind {
    /// Largest decoded frame, in bytes.
    FrameBytes,
    /// Largest number of frames N.
    Frames,
    /// Largest trailer (band texts + times), in bytes.
    TrailerBytes,
    /// Largest number of time coordinates C.
    TimeCoords,
    /// Largest number of bands B.
    Bands,
    /// Largest window a single read may decode into memory, in bytes.
    ReadBytes,
}

impl LimitKind {
    /// Every limit, in the order of [`Limits`]' fields.
    pub const ALL: [LimitKind; 6] = [
        LimitKind::FrameBytes,
        LimitKind::Frames,
        LimitKind::TrailerBytes,
        LimitKind::TimeCoords,
        LimitKind::Bands,
        LimitKind::ReadBytes,
    ];

    /// The field of [`Limits`] (and the key hosts without option names of their own use):
    /// `max_frame_bytes`, `max_frames`, ...
    pub fn name(self) -> &'static str {
        match self {
            LimitKind::FrameBytes => "max_frame_bytes",
            LimitKind::Frames => "max_frames",
            LimitKind::TrailerBytes => "max_trailer_bytes",
            LimitKind::TimeCoords => "max_time_coords",
            LimitKind::Bands => "max_bands",
            LimitKind::ReadBytes => "max_read_bytes",
        }
    }

    /// Inverse of [`LimitKind::name`].
    pub fn from_name(name: &str) -> Option<LimitKind> {
        LimitKind::ALL.into_iter().find(|k| k.name() == name)
    }

    /// What the limit bounds, in words.
    pub fn description(self) -> &'static str {
        match self {
            LimitKind::FrameBytes => "largest decoded frame in bytes",
            LimitKind::Frames => "largest number of frames N",
            LimitKind::TrailerBytes => "largest trailer (band texts and times) in bytes",
            LimitKind::TimeCoords => "largest number of time coordinates C",
            LimitKind::Bands => "largest number of bands B",
            LimitKind::ReadBytes => "largest window one read may decode into memory, in bytes",
        }
    }
}

/// What a limit check measured: its words in messages, and the limit that bounds it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Measure {
    /// the number of frames N
    FrameCount,
    /// the number of bands B
    BandCount,
    /// the decoded size of a frame
    DecodedFrameSize,
    /// the compressed size of a frame
    CompressedFrameSize,
    /// the trailer's size
    TrailerSize,
    /// the number of time coordinates C
    TimeCoordCount,
    /// the bytes one read decodes into memory
    WindowSize,
}

impl Measure {
    /// The limit that bounds this measure.
    pub fn kind(self) -> LimitKind {
        match self {
            Measure::FrameCount => LimitKind::Frames,
            Measure::BandCount => LimitKind::Bands,
            Measure::DecodedFrameSize | Measure::CompressedFrameSize => LimitKind::FrameBytes,
            Measure::TrailerSize => LimitKind::TrailerBytes,
            Measure::TimeCoordCount => LimitKind::TimeCoords,
            Measure::WindowSize => LimitKind::ReadBytes,
        }
    }
}

impl std::fmt::Display for Measure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Measure::FrameCount => "frame count N",
            Measure::BandCount => "band count B",
            Measure::DecodedFrameSize => "decoded frame size",
            Measure::CompressedFrameSize => "compressed frame size",
            Measure::TrailerSize => "trailer size",
            Measure::TimeCoordCount => "time coordinate count C",
            Measure::WindowSize => "window size",
        })
    }
}

/// Resource limits checked before any allocation or decode (spec: "Resource limits").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest decoded frame in bytes.
    pub max_frame_bytes: u64,
    /// Largest number of frames N.
    pub max_frames: u64,
    /// Largest trailer (band texts + times) in bytes.
    pub max_trailer_bytes: u64,
    /// Largest number of time coordinates C.
    pub max_time_coords: u64,
    /// Largest number of bands B.
    pub max_bands: u64,
    /// Largest window a single read may decode into memory, in bytes.
    pub max_read_bytes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_frame_bytes: 256 << 20,
            max_frames: 1 << 24,
            max_trailer_bytes: 64 << 20,
            max_time_coords: 1 << 22,
            max_bands: 65535,
            max_read_bytes: 4 << 30,
        }
    }
}

impl Limits {
    /// Fails with [`Error::Limit`] when `value > limit`.
    pub fn check(what: Measure, value: u64, limit: u64) -> Result<()> {
        if value > limit {
            Err(Error::Limit { what, value, limit })
        } else {
            Ok(())
        }
    }

    fn field(&mut self, kind: LimitKind) -> &mut u64 {
        match kind {
            LimitKind::FrameBytes => &mut self.max_frame_bytes,
            LimitKind::Frames => &mut self.max_frames,
            LimitKind::TrailerBytes => &mut self.max_trailer_bytes,
            LimitKind::TimeCoords => &mut self.max_time_coords,
            LimitKind::Bands => &mut self.max_bands,
            LimitKind::ReadBytes => &mut self.max_read_bytes,
        }
    }

    /// The limit of `kind`.
    pub fn get(&self, kind: LimitKind) -> u64 {
        let mut copy = *self;
        *copy.field(kind)
    }

    /// Sets the limit of `kind`.
    pub fn set(&mut self, kind: LimitKind, value: u64) {
        *self.field(kind) = value;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_name_their_fields() {
        let mut l = Limits::default();
        for (i, k) in LimitKind::ALL.into_iter().enumerate() {
            assert_eq!(LimitKind::from_name(k.name()), Some(k));
            l.set(k, i as u64 + 1);
            assert_eq!(l.get(k), i as u64 + 1);
        }
        assert_eq!(l.max_frames, 2);
        assert_eq!(l.max_read_bytes, 6);
        assert_eq!(LimitKind::from_name("max_pixels"), None);
    }
}
