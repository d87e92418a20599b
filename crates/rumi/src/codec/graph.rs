//! The graph vocabulary: how a frame is compressed ([`Graph`]), the 2-D predictors
//! ([`Predictor`]) and the coding of their residuals ([`Coding`], [`Stage`]), with the integer
//! ids the predictor graph's parameters carry them as (`id` / `from_id`). The reader needs none
//! of it: frames are self-describing.

/// How frames are compressed; the reader needs none of this (frames are self-describing).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Graph {
    /// OpenZL's numeric graph at the given compression level.
    Numeric(i32),
    /// OpenZL's generic graph (zstd-like backend) at the given level, for comparison.
    Generic(i32),
    /// Try numeric at levels 6 and 7 and keep the smaller frame.
    BestOf,
    /// 2-D prediction (rows of the frame's `row` elements), then entropy coding of the residuals
    /// (byte planes, each to OpenZL's `entropy` graph: [`Coding::PLANES`]).
    Predict(Predictor),
    /// 2-D prediction, the residuals coded as [`Coding`] says.
    Coded(Predictor, Coding),
    /// Per frame, the smallest of the image candidates ([`Graph::image_candidates`]).
    Image(i32),
    /// The image candidates on every fourth tile row (from the first); on the rows between, the
    /// writer tries the candidates that made at least a tenth of the frames of the last such
    /// row. A frame keeps the candidate that [`choose`](super::choose)
    /// picks with [`SLOWER_COSTS`](super::SLOWER_COSTS) (nearly as small and faster to decode
    /// beats smallest).
    Auto(i32),
    /// [`Graph::Auto`] at the given level with its own weight per decode class: a graph one
    /// [`decode_class`](Graph::decode_class) slower must save this many percent of the frame to
    /// be kept (`auto:<percent>`, 0..=100; [`Graph::Auto`] is `auto:4`, 0 keeps the smallest of
    /// the candidates tried). The knob between [`Graph::Image`] and [`Graph::Fast`].
    AutoWeighted(i32, u8),
    /// The decode-speed end: every frame with the left predictor and every byte plane of its
    /// residuals to PivCo Huffman ([`Coding::PLANES_PIVCO`]), OpenZL 0.3's fastest standard
    /// decoders (docs/compression.md, "fast"): 1.5-2.6x the default's decode speed for 2-13 %
    /// more bytes.
    Fast,
}

/// The names [`Graph::named`] accepts, as errors and help texts list them.
pub const GRAPH_NAMES: &str = "auto (the default), auto:<percent> (0..=100 per decode class; auto is auto:4), \
                               fast, image (the smallest), numeric, generic, best";

impl Graph {
    /// The graph a user names (`rumi convert --graph`, Python's `graph=`), with OpenZL level
    /// `level` for the graphs that have one (auto's and image's numeric candidate; 0 leaves it
    /// out): `auto`, `auto:<percent>` ([`Graph::AutoWeighted`]; `auto:4` is `auto`), `fast`,
    /// `image`, `numeric`, `generic`, `best` (numeric at levels 6 and 7; no level). An error
    /// names the accepted values ([`GRAPH_NAMES`]).
    pub fn named(name: &str, level: i32) -> Result<Graph, String> {
        let bad = || format!("graph {name:?} is not one of: {GRAPH_NAMES}");
        Ok(match name {
            "auto" => Graph::Auto(level),
            "fast" => Graph::Fast,
            "image" => Graph::Image(level),
            "numeric" => Graph::Numeric(level),
            "generic" => Graph::Generic(level),
            "best" => Graph::BestOf,
            _ => {
                let percent = name.strip_prefix("auto:").ok_or_else(bad)?;
                let digits = !percent.is_empty() && percent.bytes().all(|b| b.is_ascii_digit());
                match percent.parse::<u8>() {
                    Ok(4) if digits => Graph::Auto(level),
                    Ok(p @ 0..=100) if digits => Graph::AutoWeighted(level, p),
                    _ => return Err(format!("{}: {percent:?} is not a whole percent 0..=100", bad())),
                }
            }
        })
    }

    /// True for the graphs that pick among candidates per frame by the auto rule
    /// ([`Graph::Auto`], [`Graph::AutoWeighted`]): the writer's recent-winner rows and the frame
    /// unit sampled from the data apply to them.
    pub fn is_auto(self) -> bool {
        matches!(self, Graph::Auto(_) | Graph::AutoWeighted(..))
    }
}

impl Default for Graph {
    /// What `rumi convert` and `rumi.write` write without options (chosen by measurement, see
    /// README "Compression").
    fn default() -> Self {
        Graph::Auto(7)
    }
}

/// A 2-D predictor made of standard OpenZL codecs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Predictor {
    /// `x - b` (the sample above): column-major view, then delta.
    Up,
    /// `x - a - b + c`: the up predictor, then delta along rows.
    Gradient,
    /// `x - a` (the sample to the left, or the last of the row above), entropy coded.
    Left,
    /// `x - a`, then OpenZL's field LZ (repeats, e.g. nodata areas).
    LeftLz,
    /// For pixel-interleaved frames of this many bands (frame unit 2) of 8- or 16-bit samples: each
    /// sample less the previous one (the pixel's previous band; its first band less the last
    /// band of the pixel before), the bands split apart (bytes: `transpose_split`; 16-bit:
    /// `split_by_struct`), then `x - a` per
    /// band: the spatial residual less the previous band's, which natural colour and
    /// near-infrared bands share (NAIP: order-0 bound 1.64 against 1.36 for a left delta per
    /// band). Other frames are coded as [`Predictor::Left`].
    Bands(u8),
    /// [`Predictor::Bands`], each band's residuals then to OpenZL's field LZ (repeats, e.g. a
    /// nodata collar); other frames as [`Predictor::LeftLz`].
    BandsLz(u8),
}

/// [`Predictor::Bands`] of `n` bands has the id `BANDS_ID + n`.
const BANDS_ID: i32 = 16;
/// [`Predictor::BandsLz`] of `n` bands has the id `BANDS_LZ_ID + n`.
const BANDS_LZ_ID: i32 = 512;

impl Predictor {
    /// The predictor's id in the predictor graph's parameters.
    pub(super) fn id(self) -> i32 {
        match self {
            Predictor::Up => 1,
            Predictor::Gradient => 2,
            Predictor::Left => 3,
            Predictor::LeftLz => 4,
            Predictor::Bands(n) => BANDS_ID + i32::from(n),
            Predictor::BandsLz(n) => BANDS_LZ_ID + i32::from(n),
        }
    }
    /// The predictor of an [`id`](Predictor::id); `None` for an id no predictor has.
    pub(super) fn from_id(id: i32) -> Option<Predictor> {
        match id {
            1 => Some(Predictor::Up),
            2 => Some(Predictor::Gradient),
            3 => Some(Predictor::Left),
            4 => Some(Predictor::LeftLz),
            _ => {
                let band = |base: i32| u8::try_from(id - base).ok();
                band(BANDS_ID).map(Predictor::Bands).or_else(|| band(BANDS_LZ_ID).map(Predictor::BandsLz))
            }
        }
    }
}

/// How a predictor's residuals are entropy coded (all after zigzag): optionally dispatched by
/// class first, then split into byte planes (`transpose_split`), the low plane and the higher
/// planes each to a [`Stage`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Coding {
    /// The low byte plane (1-byte samples: the residuals).
    pub low: Stage,
    /// The higher byte planes.
    pub high: Stage,
    /// Forward-adaptive classes: 0 or 1 for none; K (2..=16) tags every `segment` samples with
    /// one of K classes by the mean residual (`dispatchN_byTag`), each class coded on its own.
    pub classes: u8,
    /// Samples per tagged segment (a multiple of 16, at most 4080).
    pub segment: u16,
}

impl Coding {
    /// Byte planes, each to `entropy` (what [`Graph::Predict`] writes).
    pub const PLANES: Coding = Coding { low: Stage::Entropy, high: Stage::Entropy, classes: 0, segment: 0 };
    /// Byte planes, each to PivCo.
    pub const PLANES_PIVCO: Coding = Coding { low: Stage::Pivco, high: Stage::Pivco, classes: 0, segment: 0 };
    /// Byte planes: the low one to PivCo, the others to `entropy`.
    pub const LOW_PIVCO: Coding = Coding { low: Stage::Pivco, high: Stage::Entropy, classes: 0, segment: 0 };
    /// Partition of 16-bit residuals, buckets to PivCo.
    pub const PARTITION: Coding = Coding { low: Stage::Partition, high: Stage::Entropy, classes: 0, segment: 0 };
    /// The image candidates' coding: the low byte plane to PivCo Huffman (an 8-bit Huffman
    /// decoder several times faster than FSE), the higher planes, mostly zeros, to `sparse_num`
    /// (runs of zeros and the values between them) instead of FSE; dense higher planes (floats)
    /// still to `entropy` (docs/performance.md, issue 23).
    pub const FAST: Coding = Coding { low: Stage::Pivco, high: Stage::Sparse, classes: 0, segment: 0 };

    /// The coding's id in the predictor graph's parameters: the stages in bits 0-5, the classes
    /// in bits 6-10, the segment in sixteens in bits 11-18.
    pub(super) fn id(self) -> i32 {
        self.low.id()
            | self.high.id() << 3
            | i32::from(self.classes.min(31)) << 6
            | i32::from((self.segment / 16).min(255)) << 11
    }
    /// The coding of an [`id`](Coding::id).
    pub(super) fn from_id(id: i32) -> Coding {
        Coding {
            low: Stage::from_id(id & 7),
            high: Stage::from_id(id >> 3 & 7),
            classes: (id >> 6 & 31) as u8,
            segment: (id >> 11 & 255) as u16 * 16,
        }
    }
}

/// A stage a stream of residual bytes goes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Stage {
    /// OpenZL's `entropy` graph: Huffman, FSE or stored, whichever it estimates smallest.
    Entropy,
    /// PivCo Huffman (`ZL_GRAPH_HUFFMAN_PIVCO`).
    Pivco,
    /// `sparse_num` (runs of zeros and the values between them, both to OpenZL's generic graph)
    /// when at least three quarters of the bytes are zeros, else `entropy`.
    Sparse,
    /// zstd.
    Zstd,
    /// OpenZL's field LZ.
    FieldLz,
    /// For 16-bit residuals as `low` (no byte planes): `partition` into buckets (one per value
    /// below 240, then power-of-two buckets) and raw extra bits; buckets to PivCo.
    Partition,
    /// Stored as they are (`ZL_GRAPH_STORE`): decoding is a copy; for planes an entropy code
    /// saves little of (the low byte plane of noisy 16-bit residuals, [`Graph::Fast`]).
    Store,
    /// OpenZL's LZ4 (`ZL_GRAPH_LZ4`).
    Lz4,
}

impl Stage {
    fn id(self) -> i32 {
        match self {
            Stage::Entropy => 0,
            Stage::Pivco => 1,
            Stage::Sparse => 2,
            Stage::Zstd => 3,
            Stage::FieldLz => 4,
            Stage::Partition => 5,
            Stage::Store => 6,
            Stage::Lz4 => 7,
        }
    }
    fn from_id(id: i32) -> Stage {
        match id {
            1 => Stage::Pivco,
            2 => Stage::Sparse,
            3 => Stage::Zstd,
            4 => Stage::FieldLz,
            5 => Stage::Partition,
            6 => Stage::Store,
            7 => Stage::Lz4,
            _ => Stage::Entropy,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every predictor, coding and stage comes back from its id; ids no predictor has are none.
    #[test]
    fn ids_round_trip() {
        let mut predictors = vec![Predictor::Up, Predictor::Gradient, Predictor::Left, Predictor::LeftLz];
        for n in 0..=255 {
            predictors.extend([Predictor::Bands(n), Predictor::BandsLz(n)]);
        }
        for p in &predictors {
            assert_eq!(Predictor::from_id(p.id()), Some(*p));
        }
        for id in [-1, 0, 5, 15, 272, 511, 768] {
            assert_eq!(Predictor::from_id(id), None, "{id}");
        }
        let stages = [
            Stage::Entropy,
            Stage::Pivco,
            Stage::Sparse,
            Stage::Zstd,
            Stage::FieldLz,
            Stage::Partition,
            Stage::Store,
            Stage::Lz4,
        ];
        for low in stages {
            for high in stages {
                for (classes, segment) in [(0, 0), (4, 64), (16, 4080)] {
                    let c = Coding { low, high, classes, segment };
                    assert_eq!(Coding::from_id(c.id()), c);
                }
            }
        }
    }
}
