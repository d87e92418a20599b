//! Layer 3: the writer. Produces a compliant, deterministic file from samples and metadata:
//! frames are compressed block by block of tile rows ([`Encoder`], a pure step that can run
//! anywhere), placed at `base_frame_offset` in frame-index order whatever order the blocks
//! come in (early blocks wait in a spool file, not in memory), then the trailer, then the
//! prefix whose TileOffsets/TileByteCounts are now known ([`assemble`]).

mod encode;

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::PathBuf;

use crate::codec::Graph;
use crate::error::{Error, Limits, Result};
use crate::format::ifd::serialise_prefix;
use crate::format::{Blob, Georef, Layout, SampleEncoding, Trailer};

pub use encode::{EncodedRows, EncodedTiles, Encoder};

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
    /// (`b h w`, unit 1) for multi-band Images (measured to compress best), tiles (0) for one
    /// band, whatever T (a frame a date: a date or a window of dates reads only its own frames,
    /// and a frame stays one tile however many dates there are, where cells of every date, unit
    /// 1, make one date of a 1,000-date float32 stack with 256 x 256 tiles decode 262 MB;
    /// measured against unit 1 in docs/compression.md), and for Cubes with several bands tiles walked time, then
    /// band (unit 9): a chip's dates at one tile location are one run of frames (one ranged
    /// request), a window of dates reads only its own frames, and a chip decodes only its
    /// tiles' planes. Measured on a Sentinel-2-like year (docs/performance.md, "Time series"):
    /// cells (units 3, 4) are no smaller (0.5-0.7 % larger) and decode at about half the speed
    /// on all-date chips, and a window of 12 dates decodes whole cells of every date.
    pub fn default_frame_unit(bands: u16, times: u32) -> u16 {
        match (bands > 1, times > 1) {
            (false, _) => 0,
            (true, true) => 9,
            (true, false) => 1,
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

    /// True when a writer with no frame unit asked for samples the data to choose one
    /// ([`frame_unit_from_sample`]): a multi-band Image (T = 1, 2..=255 bands) of 8- or 16-bit
    /// samples not already pixel-interleaved.
    pub fn samples_frame_unit(&self) -> bool {
        self.times == 1 && (2..=255).contains(&self.bands) && self.encoding.element_width() <= 2 && self.frame_unit != 2
    }

    /// The tile row whose frames [`frame_unit_from_sample`] compares (the middle one), when
    /// [`ImageSpec::samples_frame_unit`] and the layout is valid.
    pub fn sampled_row(&self) -> Option<u32> {
        let layout = self.layout().ok().filter(|_| self.samples_frame_unit())?;
        Some((layout.tiles_down() - 1) / 2)
    }
}

/// How much smaller (a fraction of the band-planar bytes) pixel-interleaved cells must make a
/// sampled tile row for [`frame_unit_from_sample`] to pick them: they decode at about half the
/// speed of band-planar frames (the band predictors' second delta and split), which a user who
/// reads each file many times pays on every read. Measured (docs/performance.md, "The frame
/// unit from a sample"): NAIP 20 % smaller, Sentinel-2 4.8 % (both still decode faster than the
/// fastest COG of similar size), RGB 1.9 % (it would not), Landsat 8 larger.
pub const PIXEL_INTERLEAVED_GAIN: f64 = 0.03;

/// The frame unit for a multi-band Image (T = 1) of 8- or 16-bit samples, chosen from its data:
/// tile row `row` (`data` as [`encode_tile_rows`] takes it) is encoded with `spec`'s frame unit
/// and with pixel-interleaved cells (unit 2, where the band predictors apply), and unit 2 is
/// returned when its frames are at least [`PIXEL_INTERLEAVED_GAIN`] smaller; `spec.frame_unit`
/// otherwise, and for every other shape (no sample is encoded).
pub fn frame_unit_from_sample(spec: &ImageSpec, graph: Graph, row: u32, data: &[u8]) -> Result<u16> {
    if !spec.samples_frame_unit() {
        return Ok(spec.frame_unit);
    }
    let planar: usize = encode_tile_rows(spec, graph, row, data)?.frames.len();
    let cells = ImageSpec { frame_unit: 2, ..spec.clone() };
    let interleaved: usize = encode_tile_rows(&cells, graph, row, data)?.frames.len();
    Ok(if (interleaved as f64) <= (planar as f64) * (1.0 - PIXEL_INTERLEAVED_GAIN) { 2 } else { spec.frame_unit })
}

/// [`frame_unit_from_sample`] of a whole Image (`image`: its `b y x` samples, as
/// [`encode_tile_rows`] takes them): the sample is its middle tile row
/// ([`ImageSpec::sampled_row`]). A spec whose layout is invalid comes back unchanged: the
/// writer it is given to reports it.
pub fn frame_unit_from_image(spec: &ImageSpec, graph: Graph, image: &[u8]) -> Result<u16> {
    let Some(row) = spec.sampled_row() else { return Ok(spec.frame_unit) };
    let layout = spec.layout()?;
    let sample = spec.encoding.decoded_bytes();
    let band = layout.length as usize * layout.width as usize * sample;
    let expected = band * usize::from(spec.bands);
    if image.len() != expected {
        return Err(Error::Usage(format!("the image has {} bytes; {expected} expected", image.len())));
    }
    let (first, rows) = (row as usize * usize::from(layout.tile_length), layout.tile_dims(row, 0).0 as usize);
    let line = layout.width as usize * sample;
    let data: Vec<u8> =
        image.chunks_exact(band).flat_map(|b| &b[first * line..(first + rows) * line]).copied().collect();
    frame_unit_from_sample(spec, graph, row, &data)
}

/// What a file holds besides its frames, once every frame's byte count is known: the prefix
/// (header, IFD, offsets and byte counts; `base_frame_offset` bytes, at offset 0) and the
/// trailer (right after the last frame). Whoever assembles a file from [`EncodedRows`] made
/// anywhere writes `prefix`, the frames in frame-index order, then `trailer`.
pub fn assemble(spec: &ImageSpec, counts: &[u32]) -> Result<(Vec<u8>, Vec<u8>)> {
    let layout = spec.layout()?;
    Ok((serialise_prefix(&layout, counts, &spec.georef)?, spec.trailer.to_bytes()?))
}

/// Checks the spec's texts and times against its shape; returns the layout.
fn check_spec(spec: &ImageSpec) -> Result<Layout> {
    let layout = spec.layout()?;
    if spec.trailer.band_texts.len() != usize::from(spec.bands) {
        return Err(Error::BandTextCount { found: spec.trailer.band_texts.len(), expected: usize::from(spec.bands) });
    }
    if spec.trailer.time.steps() != spec.times as usize {
        let per = if spec.trailer.time.kind == crate::format::TimeKind::Interval { 2 } else { 1 };
        return Err(Error::TimeCount { found: spec.trailer.time.coords.len(), expected: spec.times as usize * per });
    }
    spec.trailer.to_bytes()?;
    spec.georef.to_bytes()?;
    Ok(layout)
}

/// Encodes a block of whole tile rows starting at tile row `first_row` with a fresh
/// [`Encoder`] (`data`: `[t][b][y][x]` samples; see [`Encoder::encode`]). The pure step of a
/// distributed build: the result goes to [`Writer::write_encoded`] or to [`assemble`].
pub fn encode_tile_rows(spec: &ImageSpec, graph: Graph, first_row: u32, data: &[u8]) -> Result<EncodedRows> {
    Encoder::new(check_spec(spec)?, graph).encode(first_row, data)
}

/// Encodes a block of tile columns of one tile row with a fresh [`Encoder`] (`data`:
/// `[t][b][y][x]` samples of the tile row's pixel rows and of the pixel columns of tile columns
/// `first_col ..`; see [`Encoder::encode_tiles`]): the frames [`encode_tile_rows`] makes for
/// those tiles, from a block whose size does not grow with the raster's width. The result goes
/// to [`Writer::write_encoded_tiles`], or its frames and counts, in frame-index order, to
/// [`assemble`].
pub fn encode_tiles(spec: &ImageSpec, graph: Graph, row: u32, first_col: u32, data: &[u8]) -> Result<EncodedTiles> {
    Encoder::new(check_spec(spec)?, graph).encode_tiles(row, first_col, data)
}

/// Blocks that came before their turn, kept in an unnamed temporary file.
struct Spool {
    file: File,
    end: u64,
    /// first tile location -> (offset in the spool, byte length, tile locations, counts)
    waiting: BTreeMap<u64, (u64, u64, u64, Vec<u32>)>,
}

/// Streams frames into `out`: blocks of tile rows (or of tile columns of one tile row:
/// [`Writer::write_encoded_tiles`]) in any order, each tile exactly once. Memory holds one
/// block at a time; blocks ahead of the next tile location to place wait in a spool file (in
/// [`Writer::spool_dir`], the system's temporary folder by default).
pub struct Writer<W: Write + Seek> {
    out: W,
    spec: ImageSpec,
    layout: Layout,
    trailer_bytes: Vec<u8>,
    encoder: Encoder,
    /// the next tile location (row-major) to place in `out`
    next_loc: u64,
    /// tile locations received (placed or waiting)
    received: Vec<bool>,
    counts: Vec<u32>,
    spool: Option<Spool>,
    spool_dir: Option<PathBuf>,
}

impl<W: Write + Seek> Writer<W> {
    /// Validates the spec (layout, texts, times, georeferencing) before writing anything.
    pub fn new(mut out: W, spec: ImageSpec, graph: Graph) -> Result<Self> {
        let layout = check_spec(&spec)?;
        let trailer_bytes = spec.trailer.to_bytes()?;
        let n = layout.frame_count()?;
        out.seek(SeekFrom::Start(layout.base_frame_offset()?))?;
        Ok(Writer {
            out,
            spec,
            layout,
            trailer_bytes,
            encoder: Encoder::new(layout, graph),
            next_loc: 0,
            received: vec![false; layout.tiles_down() as usize * layout.tiles_across() as usize],
            counts: Vec::with_capacity(n as usize),
            spool: None,
            spool_dir: None,
        })
    }

    /// Where blocks that arrive before their turn wait (an unnamed file in that folder).
    pub fn spool_dir(mut self, dir: PathBuf) -> Self {
        self.spool_dir = Some(dir);
        self
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

    /// Compresses and places every frame of tile row `row`.
    pub fn write_tile_row(&mut self, row: u32, data: &[u8]) -> Result<()> {
        if row < self.layout.tiles_down() && data.len() != self.tile_row_bytes(row) {
            return Err(Error::Usage(format!(
                "tile row {row}: {} bytes given, {} expected",
                data.len(),
                self.tile_row_bytes(row)
            )));
        }
        self.write_tile_rows(row, data)
    }

    /// Compresses and places a block of whole tile rows starting at tile row `first_row`
    /// (`[t][b][y][x]` samples; the last block may end at the raster's partial tile row).
    pub fn write_tile_rows(&mut self, first_row: u32, data: &[u8]) -> Result<()> {
        let (rows, _) = self.encoder.block_rows(first_row, data.len())?;
        self.check_new(first_row, rows)?;
        let encoded = self.encoder.encode(first_row, data)?;
        self.write_encoded(encoded)
    }

    fn check_new(&self, first_row: u32, rows: u32) -> Result<()> {
        let down = self.layout.tiles_down();
        if first_row >= down || rows == 0 || rows > down - first_row {
            return Err(Error::Usage(format!(
                "tile rows {first_row}..{} are outside the raster's {down} tile rows",
                u64::from(first_row) + u64::from(rows)
            )));
        }
        let across = self.layout.tiles_across() as usize;
        if let Some(r) =
            (first_row..first_row + rows).find(|&r| self.received[r as usize * across..][..across].iter().any(|&v| v))
        {
            return Err(Error::Usage(format!(
                "tile row {r} (pixel row {}) written twice",
                r * u32::from(self.layout.tile_length)
            )));
        }
        Ok(())
    }

    fn check_new_tiles(&self, row: u32, first_col: u32, cols: u32) -> Result<()> {
        let (down, across) = (self.layout.tiles_down(), self.layout.tiles_across());
        if row >= down || first_col >= across || cols == 0 || cols > across - first_col {
            return Err(Error::Usage(format!(
                "tiles (row {row}, columns {first_col}..{}) are outside the raster's {down} x {across} tiles",
                u64::from(first_col) + u64::from(cols)
            )));
        }
        let at = row as usize * across as usize;
        if let Some(c) = (first_col..first_col + cols).find(|&c| self.received[at + c as usize]) {
            return Err(Error::Usage(format!(
                "tile (row {row}, column {c}; pixel row {}, column {}) written twice",
                row * u32::from(self.layout.tile_length),
                c * u32::from(self.layout.tile_width)
            )));
        }
        Ok(())
    }

    /// Places frames encoded elsewhere ([`encode_tile_rows`] with this writer's spec).
    pub fn write_encoded(&mut self, e: EncodedRows) -> Result<()> {
        self.check_new(e.first_row, e.rows)?;
        let per_row = u64::from(self.layout.tiles_across()) * self.layout.frames_per_location();
        check_counts(
            || format!("encoded tile rows {}..{}", e.first_row, e.first_row + e.rows),
            &e.counts,
            e.frames.len(),
            per_row * u64::from(e.rows),
        )?;
        let across = u64::from(self.layout.tiles_across());
        self.accept(u64::from(e.first_row) * across, u64::from(e.rows) * across, e.frames, e.counts)
    }

    /// Places the frames of tiles of one tile row encoded elsewhere ([`encode_tiles`] with this
    /// writer's spec): blocks narrower than a tile row, in any order, as blocks of tile rows.
    pub fn write_encoded_tiles(&mut self, e: EncodedTiles) -> Result<()> {
        self.check_new_tiles(e.row, e.first_col, e.cols)?;
        check_counts(
            || format!("encoded tiles (row {}, columns {}..{})", e.row, e.first_col, e.first_col + e.cols),
            &e.counts,
            e.frames.len(),
            self.layout.frames_per_location() * u64::from(e.cols),
        )?;
        let first = u64::from(e.row) * u64::from(self.layout.tiles_across()) + u64::from(e.first_col);
        self.accept(first, u64::from(e.cols), e.frames, e.counts)
    }

    /// Places (or spools) the checked frames of tile locations `first .. first + locs`.
    fn accept(&mut self, first: u64, locs: u64, frames: Vec<u8>, counts: Vec<u32>) -> Result<()> {
        for v in &mut self.received[first as usize..(first + locs) as usize] {
            *v = true;
        }
        if first == self.next_loc {
            self.place(&frames, locs, &counts)?;
            self.drain()
        } else {
            let spool = match &mut self.spool {
                Some(s) => s,
                None => {
                    let dir = self.spool_dir.clone().unwrap_or_else(std::env::temp_dir);
                    let file = tempfile::tempfile_in(&dir).map_err(|err| {
                        Error::Io(std::io::Error::new(
                            err.kind(),
                            format!("cannot create a spool file in {}: {err}", dir.display()),
                        ))
                    })?;
                    self.spool.insert(Spool { file, end: 0, waiting: BTreeMap::new() })
                }
            };
            spool.file.seek(SeekFrom::Start(spool.end))?;
            spool.file.write_all(&frames)?;
            spool.waiting.insert(first, (spool.end, frames.len() as u64, locs, counts));
            spool.end += frames.len() as u64;
            Ok(())
        }
    }

    fn place(&mut self, frames: &[u8], locs: u64, counts: &[u32]) -> Result<()> {
        self.out.write_all(frames)?;
        self.counts.extend_from_slice(counts);
        self.next_loc += locs;
        Ok(())
    }

    /// Moves the spooled blocks that are now next into `out`.
    fn drain(&mut self) -> Result<()> {
        let Some(spool) = &mut self.spool else { return Ok(()) };
        while let Some((off, len, locs, counts)) = spool.waiting.remove(&self.next_loc) {
            spool.file.seek(SeekFrom::Start(off))?;
            let mut buf = vec![0u8; (1 << 20).min(len as usize)];
            let mut left = len;
            while left > 0 {
                let n = buf.len().min(left as usize);
                spool.file.read_exact(&mut buf[..n])?;
                self.out.write_all(&buf[..n])?;
                left -= n as u64;
            }
            self.counts.extend_from_slice(&counts);
            self.next_loc += locs;
        }
        if spool.waiting.is_empty() {
            // nothing waits: start the spool over (its space is given back)
            spool.file.set_len(0)?;
            spool.end = 0;
        }
        Ok(())
    }

    /// Tile rows not written yet (wholly or in part).
    pub fn missing_rows(&self) -> Vec<u32> {
        let across = self.layout.tiles_across() as usize;
        (0..self.layout.tiles_down())
            .filter(|&r| !self.received[r as usize * across..][..across].iter().all(|&v| v))
            .collect()
    }

    /// Writes the trailer and the prefix; returns the output and the header blob.
    pub fn finish(mut self) -> Result<(W, Blob)> {
        let missing = self.missing_rows();
        if !missing.is_empty() {
            let th = u32::from(self.layout.tile_length);
            let shown: Vec<String> = missing.iter().take(8).map(|r| format!("{r} (pixel row {})", r * th)).collect();
            return Err(Error::Usage(format!(
                "{} of {} tile rows never written: {}{}",
                missing.len(),
                self.layout.tiles_down(),
                shown.join(", "),
                if missing.len() > 8 { ", ..." } else { "" }
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

/// Writes a whole array (`[t][b][y][x]`, little-endian samples) to `out`; returns the blob.
pub fn write_array<W: Write + Seek>(out: W, spec: ImageSpec, graph: Graph, data: &[u8]) -> Result<(W, Blob)> {
    let mut w = Writer::new(out, spec, graph)?;
    let l = *w.layout();
    let expected =
        l.length as usize * l.width as usize * l.encoding.decoded_bytes() * usize::from(l.bands) * l.times as usize;
    if data.len() != expected {
        return Err(Error::Usage(format!("array is {} bytes, the shape needs {expected}", data.len())));
    }
    w.write_tile_rows(0, data)?;
    w.finish()
}

/// Frames encoded elsewhere fit this file's layout: `expected` byte counts that sum to the
/// bytes of `frames`.
fn check_counts(what: impl FnOnce() -> String, counts: &[u32], frames: usize, expected: u64) -> Result<()> {
    let total: u64 = counts.iter().map(|&c| u64::from(c)).sum();
    if counts.len() as u64 == expected && total == frames as u64 {
        return Ok(());
    }
    Err(Error::Usage(format!(
        "{}: {} byte counts summing to {total} for {frames} bytes of frames (expected {expected} counts \
         summing to the frames' bytes): not made for this file's layout",
        what(),
        counts.len()
    )))
}
