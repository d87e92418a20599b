//! The pure encoding step: samples of consecutive tile rows -> their frames and byte counts.
//! It needs nothing but the spec, so it runs anywhere (another thread, process or machine);
//! the [`Writer`](super::Writer) or whoever assembles the file places the frames.

use rayon::prelude::*;

use crate::codec::{self, Graph};
use crate::error::{Error, Result};
use crate::format::{Layout, SampleEncoding};

/// The frames of tile rows `first_row .. first_row + rows`, in frame-index order (each tile
/// row's frames are consecutive in every frame unit), and their byte counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncodedRows {
    /// first tile row
    pub first_row: u32,
    /// number of tile rows
    pub rows: u32,
    /// the frames, back to back
    pub frames: Vec<u8>,
    /// one byte count per frame
    pub counts: Vec<u32>,
}

/// The frames of tile columns `first_col .. first_col + cols` of tile row `row`, in frame-index
/// order (a run of tile locations of one row is a run of frames in every frame unit), and their
/// byte counts: a block narrower than a tile row ([`Encoder::encode_tiles`]), so that a block's
/// memory need not grow with the raster's width.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EncodedTiles {
    /// tile row
    pub row: u32,
    /// first tile column
    pub first_col: u32,
    /// number of tile columns
    pub cols: u32,
    /// the frames, back to back
    pub frames: Vec<u8>,
    /// one byte count per frame
    pub counts: Vec<u32>,
}

/// With [`Graph::Auto`], every this many tile rows (from row 0) try every candidate; the rows
/// between try the candidates that made at least a tenth of the frames of the last such row.
const AUTO_EVERY: u32 = 4;

/// With [`Graph::Auto`], the candidates are compared on every this many chunks of rows of a
/// frame, and only the chosen one encodes it whole ([`codec::encode_screened`]; measured on
/// `../shared/data` and a 6-date Landsat cube: the same sizes within 0.1 %, 2-3x the encode
/// speed; docs/performance.md, "Screening the candidates").
const SCREEN_EVERY: usize = 4;

/// Encodes tile rows with one graph. With [`Graph::Auto`] it keeps the candidates that won
/// lately between calls: rows written in order by one encoder try every candidate only every
/// [`AUTO_EVERY`] rows; a fresh encoder tries them all on its first row.
pub struct Encoder {
    layout: Layout,
    graph: Graph,
    kept: Option<Vec<Graph>>,
}

impl Encoder {
    /// An encoder for `layout` (validated by the caller) and `graph`.
    pub fn new(layout: Layout, graph: Graph) -> Self {
        Encoder { layout, graph, kept: None }
    }

    /// Tile rows in a block of pixel rows starting at tile row `first_row`: `(rows, pixel
    /// rows)`, or an error naming what does not fit.
    pub fn block_rows(&self, first_row: u32, data_len: usize) -> Result<(u32, u32)> {
        let l = &self.layout;
        let down = l.tiles_down();
        if first_row >= down {
            return Err(Error::Usage(format!("tile row {first_row} is past the last tile row ({})", down - 1)));
        }
        let line = l.times as usize * usize::from(l.bands) * l.width as usize * l.encoding.decoded_bytes();
        if line == 0 || data_len % line != 0 {
            return Err(Error::Usage(format!(
                "{data_len} bytes are not whole pixel rows of T*B*X samples ({line} bytes each)"
            )));
        }
        let pixel_rows = u32::try_from(data_len / line).map_err(|_| Error::Overflow("block rows"))?;
        let y0 = first_row * u32::from(l.tile_length);
        let left = l.length - y0;
        let th = u32::from(l.tile_length);
        if pixel_rows == 0 || pixel_rows > left || (pixel_rows % th != 0 && pixel_rows != left) {
            return Err(Error::Usage(format!(
                "a block at tile row {first_row} (pixel row {y0}) must hold whole tile rows of {th} pixel rows \
                 (the last may end at the raster's {} rows): {pixel_rows} pixel rows given",
                l.length
            )));
        }
        Ok((pixel_rows.div_ceil(th), pixel_rows))
    }

    /// Encodes the block `data` (`[t][b][y][x]` samples of pixel rows starting at tile row
    /// `first_row`'s first row; whole tile rows, the last may be the raster's partial one).
    pub fn encode(&mut self, first_row: u32, data: &[u8]) -> Result<EncodedRows> {
        let (rows, block_h) = self.block_rows(first_row, data.len())?;
        let l = self.layout;
        check_bool(l, data, first_row)?;
        let mut out = EncodedRows { first_row, rows, frames: Vec::new(), counts: Vec::new() };
        for row in first_row..first_row + rows {
            let y_off = (row - first_row) * u32::from(l.tile_length);
            let block = Block { data, h: block_h, y_off, x0: 0, xw: l.width };
            for f in self.encode_row(row, 0, l.tiles_across(), &block)? {
                out.counts.push(u32::try_from(f.len()).map_err(|_| Error::Overflow("frame byte count"))?);
                out.frames.extend_from_slice(&f);
            }
        }
        Ok(out)
    }

    /// Tile columns in a block of tile row `row` starting at tile column `first_col`: `(cols,
    /// pixel columns)`, or an error naming what does not fit.
    pub fn block_cols(&self, row: u32, first_col: u32, data_len: usize) -> Result<(u32, u32)> {
        let l = &self.layout;
        let (down, across) = (l.tiles_down(), l.tiles_across());
        if row >= down || first_col >= across {
            return Err(Error::Usage(format!(
                "tile (row {row}, column {first_col}) is outside the raster's {down} x {across} tiles"
            )));
        }
        let (h, _) = l.tile_dims(row, 0);
        let column = l.times as usize * usize::from(l.bands) * h as usize * l.encoding.decoded_bytes();
        if column == 0 || data_len % column != 0 {
            return Err(Error::Usage(format!(
                "{data_len} bytes are not whole pixel columns of T*B*{h} samples ({column} bytes each)"
            )));
        }
        let w = u32::try_from(data_len / column).map_err(|_| Error::Overflow("block columns"))?;
        let tw = u32::from(l.tile_width);
        let x0 = first_col * tw;
        let left = l.width - x0;
        if w == 0 || w > left || (w % tw != 0 && w != left) {
            return Err(Error::Usage(format!(
                "a block at tile column {first_col} (pixel column {x0}) must hold whole tile columns of {tw} pixel \
                 columns (the last may end at the raster's {} columns): {w} pixel columns given",
                l.width
            )));
        }
        Ok((w.div_ceil(tw), w))
    }

    /// Encodes the block `data`: `[t][b][y][x]` samples of tile row `row` (all its pixel rows),
    /// pixel columns from tile column `first_col`'s first one, whole tile columns (the last may
    /// be the raster's partial one). A fresh encoder makes the frames a fresh encoder's
    /// [`Encoder::encode`] of the whole tile row makes for those tiles: each frame's candidates
    /// are compared on that frame alone.
    pub fn encode_tiles(&mut self, row: u32, first_col: u32, data: &[u8]) -> Result<EncodedTiles> {
        let (cols, w) = self.block_cols(row, first_col, data.len())?;
        let l = self.layout;
        check_bool(l, data, row)?;
        let (h, _) = l.tile_dims(row, 0);
        let block = Block { data, h, y_off: 0, x0: first_col * u32::from(l.tile_width), xw: w };
        let mut out = EncodedTiles { row, first_col, cols, frames: Vec::new(), counts: Vec::new() };
        for f in self.encode_row(row, first_col, cols, &block)? {
            out.counts.push(u32::try_from(f.len()).map_err(|_| Error::Overflow("frame byte count"))?);
            out.frames.extend_from_slice(&f);
        }
        Ok(out)
    }

    /// The frames of tile columns `first_col .. first_col + cols` of tile row `row`.
    fn encode_row(&mut self, row: u32, first_col: u32, cols: u32, block: &Block<'_>) -> Result<Vec<Vec<u8>>> {
        let l = self.layout;
        let first = l.frame_index(row, first_col, 0, 0);
        let count = u64::from(cols) * l.frames_per_location();
        let evaluate = row % AUTO_EVERY == 0 || self.kept.is_none();
        let candidates = match (self.graph, &self.kept) {
            // the rows between try only the candidates that won lately (docs/performance.md,
            // "Writer: recent winners")
            (g, Some(kept)) if g.is_auto() && !evaluate => kept.clone(),
            (Graph::Auto(level) | Graph::AutoWeighted(level, _) | Graph::Image(level), _) => {
                Graph::image_candidates_for(level, l.encoding.element_width(), l.frame_strides(1, 1).x)
            }
            (g, _) => vec![g],
        };
        let graph = self.graph;
        let frames: Vec<(Vec<u8>, usize)> = (first..first + count)
            .into_par_iter()
            .map(|index| {
                let (r, c, _, _) = l.frame_position(index);
                let (h, w) = l.tile_dims(r, c);
                // elements per row of the frame (the prediction graphs look one row up)
                let row = l.frame_strides(h, w).y * l.encoding.decoded_bytes() / l.encoding.element_width();
                let samples = gather(&l, index, block);
                match candidates[..] {
                    [g] => Ok((codec::encode_rows(&samples, l.encoding.element_width(), row, g)?, 0)),
                    // the smallest frame, every candidate compressing it whole
                    _ if matches!(graph, Graph::Image(_)) => {
                        codec::encode_best(&samples, l.encoding.element_width(), row, &candidates, 0.0)
                    }
                    _ => codec::encode_screened(
                        &samples,
                        l.encoding.element_width(),
                        row,
                        &candidates,
                        graph.slower_costs(),
                        SCREEN_EVERY,
                        true,
                    ),
                }
            })
            .collect::<Result<_>>()?;
        if self.graph.is_auto() && evaluate {
            self.kept = Some(keep_candidates(&candidates, frames.iter().map(|f| f.1)));
        }
        Ok(frames.into_iter().map(|f| f.0).collect())
    }
}

/// The boolean samples of a block are 0 or 1.
fn check_bool(l: Layout, data: &[u8], row: u32) -> Result<()> {
    if l.encoding == SampleEncoding::Bool {
        if let Some(p) = data.iter().position(|&v| v > 1) {
            return Err(Error::Usage(format!(
                "boolean sample byte {p} of the block at tile row {row} is {}, must be 0 or 1",
                data[p]
            )));
        }
    }
    Ok(())
}

/// A block of pixel rows `[t][b][y][x]`, `h` rows high and `xw` columns wide from raster column
/// `x0`; the tile row being encoded starts at its row `y_off`.
struct Block<'a> {
    data: &'a [u8],
    h: u32,
    y_off: u32,
    x0: u32,
    xw: u32,
}

/// The candidates the rows between full evaluations try: every fast encoder (the predictors'
/// graphs, cheap to try on a sample) and the slow encoders ([`Graph::slow_encoder`]) that made at
/// least a tenth of the frames (`wins` = index of each frame's winner), in candidate order. Only
/// slow encoders are ever dropped: a row whose frames all went to a slow graph (Landsat 8's
/// first tile row, its flat margin of zeros: OpenZL's numeric graph) used to keep that graph
/// alone, and the next three rows were written with it without a comparison (half of the
/// scene's frames; they decode 1.5x slower than the left predictor's, for 0.3 % of size).
fn keep_candidates(candidates: &[Graph], wins: impl Iterator<Item = usize>) -> Vec<Graph> {
    let mut n = vec![0usize; candidates.len()];
    for w in wins {
        n[w] += 1;
    }
    let total: usize = n.iter().sum();
    let kept: Vec<Graph> = candidates
        .iter()
        .zip(&n)
        .filter(|(g, &k)| !g.slow_encoder() || (k > 0 && k * 10 >= total))
        .map(|(g, _)| *g)
        .collect();
    if !kept.is_empty() {
        return kept;
    }
    let top = n.iter().enumerate().max_by_key(|(i, &k)| (k, std::cmp::Reverse(*i))).map(|(i, _)| i).unwrap_or(0);
    vec![candidates[top]]
}

/// Builds the decoded sample order of frame `index` from its tile row inside `block` (the
/// frame's place and sample order: [`Layout::frame_geometry`]).
fn gather(l: &Layout, index: u64, block: &Block<'_>) -> Vec<u8> {
    let bps = l.encoding.decoded_bytes();
    let g = l.frame_geometry(index);
    let (h, w, sx) = (g.h as usize, g.w as usize, g.strides.x);
    let pairs: Vec<(u32, u32)> = match g.tile {
        Some(pair) => vec![pair],
        None => (0..l.times).flat_map(|t| (0..u32::from(l.bands)).map(move |b| (b, t))).collect(),
    };
    let mut out = vec![0u8; l.frame_samples(g.h, g.w) as usize * bps];
    let (nb, xw, bh, y_off) = (usize::from(l.bands), block.xw as usize, block.h as usize, block.y_off as usize);
    let (data, x0) = (block.data, (g.x0 - block.x0) as usize);
    for (b, t) in pairs {
        for y in 0..h {
            let src_row = ((t as usize * nb + b as usize) * bh + y_off + y) * xw + x0;
            let dst_row = g.sample(b, t, y as u32, 0);
            if sx == 1 {
                out[dst_row * bps..(dst_row + w) * bps].copy_from_slice(&data[src_row * bps..(src_row + w) * bps]);
            } else {
                for x in 0..w {
                    let (si, di) = ((src_row + x) * bps, (dst_row + x * sx) * bps);
                    out[di..di + bps].copy_from_slice(&data[si..si + bps]);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::Predictor;

    #[test]
    fn auto_keeps_the_fast_encoders_and_the_slow_ones_that_won_a_tenth_of_the_first_row() {
        let c = Graph::image_candidates(7);
        assert!(!c[0].slow_encoder() && !c[1].slow_encoder() && c[2].slow_encoder() && c[3].slow_encoder());
        // 20 frames: 15 gradient, 3 numeric, 1 left, 1 left+LZ: numeric made a tenth, left+LZ
        // did not; left, a fast encoder, is kept with no win
        let wins = [0usize; 15].into_iter().chain([3; 3]).chain([1, 2]);
        assert_eq!(keep_candidates(&c, wins), vec![c[0], c[1], c[3]]);
        // a row whose frames all went to a slow graph (Landsat 8's margin of zeros) keeps the
        // fast encoders too: the next rows still compare them
        assert_eq!(keep_candidates(&c, [3usize; 8].into_iter()), vec![c[0], c[1], c[3]]);
        assert_eq!(keep_candidates(&c, [2usize].into_iter()), vec![c[0], c[1], Graph::Predict(Predictor::LeftLz)]);
        // a row with no frames keeps the fast encoders
        assert_eq!(keep_candidates(&c, std::iter::empty()), vec![c[0], c[1]]);
        // only slow candidates: the most frequent winner, as before
        let slow = [Graph::Predict(Predictor::LeftLz), Graph::Numeric(7)];
        assert_eq!(keep_candidates(&slow, [1usize; 19].into_iter().chain([0])), vec![slow[1]]);
        assert_eq!(keep_candidates(&slow, std::iter::empty()), vec![slow[0]]);
    }
}
