//! Layer 3: the writer. Produces a compliant, deterministic file from samples and metadata:
//! frames are compressed tile row by tile row (in parallel, written in frame-index order) at
//! `base_frame_offset`, then the trailer, then the prefix whose TileOffsets/TileByteCounts
//! are now known.

use std::io::{Seek, SeekFrom, Write};

use rayon::prelude::*;

use crate::codec::{self, Graph};
use crate::error::{Error, Limits, Result};
use crate::format::ifd::serialise_prefix;
use crate::format::{Blob, Georef, Layout, SampleEncoding, Trailer};

/// Everything a file records besides its samples.
#[derive(Debug, Clone)]
pub struct ImageSpec {
    /// X
    pub width: u32,
    /// Y
    pub length: u32,
    /// T
    pub times: u32,
    /// B
    pub bands: u16,
    /// sample encoding
    pub encoding: SampleEncoding,
    /// nominal tile width
    pub tile_width: u16,
    /// nominal tile length
    pub tile_length: u16,
    /// frame unit (must be valid for B and T)
    pub frame_unit: u16,
    /// georeferencing
    pub georef: Georef,
    /// band texts and time axis
    pub trailer: Trailer,
}

impl ImageSpec {
    /// The layout this spec describes (validated; writer limits are the defaults).
    pub fn layout(&self) -> Result<Layout> {
        Layout::new(
            self.width,
            self.length,
            self.times,
            self.bands,
            self.tile_width,
            self.tile_length,
            self.encoding,
            self.frame_unit,
            &Limits::default(),
        )
    }

    /// The frame unit a writer picks when the caller has no preference: cells of all bands
    /// (`b h w`, unit 1) when exactly one of B, T exceeds 1 (measured to compress best), cells
    /// `t b h w` (unit 4) for cubes with several bands, tiles (0) for one band and one time.
    pub fn default_frame_unit(bands: u16, times: u32) -> u16 {
        match (bands > 1, times > 1) {
            (false, false) => 0,
            (true, true) => 4,
            _ => 1,
        }
    }

    /// As [`ImageSpec::default_frame_unit`], knowing the sample encoding, for the smallest files
    /// (`--graph image`): multi-band Images of one-byte samples get pixel-interleaved cells
    /// (`h w b`, unit 2), where the image graphs' delta along a row is a delta between bands
    /// (measured: NAIP 1.453 against 1.369 with unit 1, but decoding at a third of unit 1's
    /// speed; wider samples compress better planar: Landsat 8 2.188 against 2.246).
    pub fn default_frame_unit_for(bands: u16, times: u32, encoding: SampleEncoding) -> u16 {
        if bands > 1 && times == 1 && encoding.decoded_bytes() == 1 {
            return 2;
        }
        Self::default_frame_unit(bands, times)
    }
}

/// Streams frames into `out` tile row by tile row.
pub struct Writer<W: Write + Seek> {
    out: W,
    spec: ImageSpec,
    layout: Layout,
    trailer_bytes: Vec<u8>,
    graph: Graph,
    /// With [`Graph::Auto`], the candidates kept from the last tile row that tried them all.
    kept: Option<Vec<Graph>>,
    next_row: u32,
    counts: Vec<u32>,
}

impl<W: Write + Seek> Writer<W> {
    /// Validates the spec (layout, texts, times, georeferencing) before writing anything.
    pub fn new(mut out: W, spec: ImageSpec, graph: Graph) -> Result<Self> {
        let layout = spec.layout()?;
        if spec.trailer.band_texts.len() != usize::from(spec.bands) {
            return Err(Error::BandTextCount {
                found: spec.trailer.band_texts.len(),
                expected: usize::from(spec.bands),
            });
        }
        if spec.trailer.time.steps() != spec.times as usize {
            let per = if spec.trailer.time.kind == crate::format::TimeKind::Interval { 2 } else { 1 };
            return Err(Error::TimeCount {
                found: spec.trailer.time.coords.len(),
                expected: spec.times as usize * per,
            });
        }
        let trailer_bytes = spec.trailer.to_bytes()?;
        spec.georef.to_bytes()?;
        let n = layout.frame_count()?;
        out.seek(SeekFrom::Start(layout.base_frame_offset()?))?;
        Ok(Writer {
            out,
            spec,
            layout,
            trailer_bytes,
            graph,
            kept: None,
            next_row: 0,
            counts: Vec::with_capacity(n as usize),
        })
    }

    /// The validated layout.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// Bytes `write_tile_row(row, ..)` expects: `T * B * h * X` samples, `[t][b][y][x]`, where
    /// `h` is the height of tile row `row`.
    pub fn tile_row_bytes(&self, row: u32) -> usize {
        let (h, _) = self.layout.tile_dims(row, 0);
        let l = &self.layout;
        l.times as usize * usize::from(l.bands) * h as usize * l.width as usize * l.encoding.decoded_bytes()
    }

    /// Compresses and writes every frame of tile row `row` (rows must come in order 0, 1, ...).
    pub fn write_tile_row(&mut self, row: u32, data: &[u8]) -> Result<()> {
        if row != self.next_row || row >= self.layout.tiles_down() {
            return Err(Error::Usage(format!("tile row {row} written out of order (expected {})", self.next_row)));
        }
        if data.len() != self.tile_row_bytes(row) {
            return Err(Error::Usage(format!(
                "tile row {row}: {} bytes given, {} expected",
                data.len(),
                self.tile_row_bytes(row)
            )));
        }
        let l = self.layout;
        let first = l.frame_index(row, 0, 0, 0);
        let count = u64::from(l.tiles_across()) * l.frames_per_location();
        if l.encoding == SampleEncoding::Bool {
            if let Some(p) = data.iter().position(|&v| v > 1) {
                return Err(Error::Usage(format!(
                    "boolean sample byte {p} of tile row {row} is {}, must be 0 or 1",
                    data[p]
                )));
            }
        }
        let evaluate = row % AUTO_EVERY == 0;
        let candidates = match (self.graph, &self.kept) {
            // the rows between try only the candidates that won lately (docs/performance.md,
            // "Writer: recent winners")
            (Graph::Auto(_), Some(kept)) if !evaluate => kept.clone(),
            (Graph::Auto(level), _) => Graph::image_candidates(level),
            (g, _) => vec![g],
        };
        let frames: Vec<(Vec<u8>, usize)> = (first..first + count)
            .into_par_iter()
            .map(|index| {
                let (r, c, _, _) = l.frame_position(index);
                let (h, w) = l.tile_dims(r, c);
                // elements per row of the frame (the prediction graphs look one row up)
                let row = l.frame_strides(h, w).y * l.encoding.decoded_bytes() / l.encoding.element_width();
                let samples = gather(&l, index, data);
                match candidates[..] {
                    [g] => Ok((codec::encode_rows(&samples, l.encoding.element_width(), row, g)?, 0)),
                    _ => codec::encode_best(
                        &samples,
                        l.encoding.element_width(),
                        row,
                        &candidates,
                        self.graph.slower_costs(),
                    ),
                }
            })
            .collect::<Result<_>>()?;
        if matches!(self.graph, Graph::Auto(_)) && evaluate {
            self.kept = Some(keep_candidates(&candidates, frames.iter().map(|f| f.1)));
        }
        for (f, _) in frames {
            let len = u32::try_from(f.len()).map_err(|_| Error::Overflow("frame byte count"))?;
            self.out.write_all(&f)?;
            self.counts.push(len);
        }
        self.next_row += 1;
        Ok(())
    }

    /// Writes the trailer and the prefix; returns the output and the header blob.
    pub fn finish(mut self) -> Result<(W, Blob)> {
        if self.next_row != self.layout.tiles_down() {
            return Err(Error::Usage(format!(
                "only {} of {} tile rows written",
                self.next_row,
                self.layout.tiles_down()
            )));
        }
        self.out.write_all(&self.trailer_bytes)?;
        let prefix = serialise_prefix(&self.layout, &self.counts, &self.spec.georef)?;
        self.out.seek(SeekFrom::Start(0))?;
        self.out.write_all(&prefix)?;
        self.out.flush()?;
        Ok((self.out, Blob { layout: self.layout, counts: self.counts }))
    }
}

/// With [`Graph::Auto`], every this many tile rows (from row 0) try every candidate; the rows
/// between try the candidates that made at least a tenth of the frames of the last such row.
const AUTO_EVERY: u32 = 4;

/// The candidates that made at least a tenth of the frames (`wins` = index of each frame's
/// winner), or the most frequent one when none did.
fn keep_candidates(candidates: &[Graph], wins: impl Iterator<Item = usize>) -> Vec<Graph> {
    let mut n = vec![0usize; candidates.len()];
    for w in wins {
        n[w] += 1;
    }
    let total: usize = n.iter().sum();
    let kept: Vec<Graph> =
        candidates.iter().zip(&n).filter(|(_, &k)| k > 0 && k * 10 >= total).map(|(g, _)| *g).collect();
    if !kept.is_empty() {
        return kept;
    }
    let top = n.iter().enumerate().max_by_key(|(i, &k)| (k, std::cmp::Reverse(*i))).map(|(i, _)| i).unwrap_or(0);
    vec![candidates[top]]
}

/// Builds the decoded sample order of frame `index` from a tile row given as `[t][b][y][x]`
/// (the frame's place and sample order: [`Layout::frame_geometry`]).
fn gather(l: &Layout, index: u64, data: &[u8]) -> Vec<u8> {
    let bps = l.encoding.decoded_bytes();
    let g = l.frame_geometry(index);
    let (h, w, sx) = (g.h as usize, g.w as usize, g.strides.x);
    let pairs: Vec<(u32, u32)> = match g.tile {
        Some(pair) => vec![pair],
        None => (0..l.times).flat_map(|t| (0..u32::from(l.bands)).map(move |b| (b, t))).collect(),
    };
    let mut out = vec![0u8; l.frame_samples(g.h, g.w) as usize * bps];
    let (nb, xw) = (usize::from(l.bands), l.width as usize);
    for (b, t) in pairs {
        for y in 0..h {
            let src_row = ((t as usize * nb + b as usize) * h + y) * xw + g.x0 as usize;
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

/// Writes a whole array (`[t][b][y][x]`, little-endian samples) to `out`; returns the blob.
pub fn write_array<W: Write + Seek>(out: W, spec: ImageSpec, graph: Graph, data: &[u8]) -> Result<(W, Blob)> {
    let mut w = Writer::new(out, spec, graph)?;
    let l = *w.layout();
    let bps = l.encoding.decoded_bytes();
    let plane = l.length as usize * l.width as usize * bps;
    let expected = plane * usize::from(l.bands) * l.times as usize;
    if data.len() != expected {
        return Err(Error::Usage(format!("array is {} bytes, the shape needs {expected}", data.len())));
    }
    let row_bytes = l.width as usize * bps;
    for row in 0..l.tiles_down() {
        let (h, _) = l.tile_dims(row, 0);
        let y0 = (row * u32::from(l.tile_length)) as usize;
        let mut buf = Vec::with_capacity(w.tile_row_bytes(row));
        for p in 0..usize::from(l.bands) * l.times as usize {
            let start = p * plane + y0 * row_bytes;
            buf.extend_from_slice(&data[start..start + h as usize * row_bytes]);
        }
        w.write_tile_row(row, &buf)?;
    }
    w.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::Predictor;

    #[test]
    fn auto_keeps_the_candidates_that_won_a_tenth_of_the_first_row() {
        let c = Graph::image_candidates(7);
        // 20 frames: 15 gradient, 3 numeric, 2 left: left made a tenth, left+LZ none
        let wins = [0usize; 15].into_iter().chain([3; 3]).chain([1; 2]);
        assert_eq!(keep_candidates(&c, wins), vec![c[0], c[1], c[3]]);
        // 25 frames spread so that none reaches a tenth cannot happen with 4 candidates, but a
        // row with no frames keeps the first candidate
        assert_eq!(keep_candidates(&c, std::iter::empty()), vec![c[0]]);
        assert_eq!(keep_candidates(&c, [2usize].into_iter()), vec![Graph::Predict(Predictor::LeftLz)]);
    }
}
