//! Writing: `NativeWriter` (blocks of tile rows in any order -> a local file or an `s3://`
//! object, with its `.header` and nodata `.aux.xml` sidecars, complete or not at all),
//! `encode_rows` (the pure, distributable encoding step) and the PAM nodata text. The streaming,
//! the spool and the assembly are the core's ([`rumi::Writer`]); this file maps arguments.

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use pyo3::buffer::PyUntypedBuffer;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use rumi::codec::Graph;
use rumi::commit::{commit_pair, with_suffix, Staged};
use rumi::format::{GeoTransform, Georef, ModelType, RasterType, TimeAxis, TimeKind, Trailer};
use rumi::open::HEADER_SUFFIX;
use rumi::pam::{self, BandPam, Nodata, Pam, AUX_SUFFIX};
use rumi::{EncodedRows, EncodedTiles, Error, ImageSpec, Writer};

use crate::{encoding_from, py_err, raise, store};

/// The spec tuple of `rumi.WriteSpec.native()`: `((T, B, Y, X), encoding, band_texts,
/// time_kind, seconds, georef, (tile_h, tile_w), frame_unit)`; georef `None` or
/// `(epsg, "projected"|"geographic", "area"|"point", gdal_geotransform)`.
pub type SpecTuple = (
    (u32, u16, u32, u32),
    String,
    Vec<String>,
    String,
    Vec<i64>,
    Option<(u16, String, String, [f64; 6])>,
    (u16, u16),
    Option<u16>,
);

/// The core spec of a spec tuple (checked again by the core when a writer or encoder is made).
pub fn spec_from(t: SpecTuple) -> PyResult<ImageSpec> {
    let ((times, bands, length, width), encoding, band_texts, time_kind, seconds, georef, tile, frame_unit) = t;
    let encoding = encoding_from(&encoding)?;
    let kind = match time_kind.as_str() {
        "instant" => TimeKind::Instant,
        "interval" => TimeKind::Interval,
        k => return Err(PyValueError::new_err(format!("time kind {k:?} is not instant or interval"))),
    };
    let georef = match georef {
        None => Georef::Undefined { raster_type: RasterType::Area },
        Some((epsg, model, raster, geotransform)) => {
            let raster_type = match raster.as_str() {
                "area" => RasterType::Area,
                "point" => RasterType::Point,
                r => return Err(PyValueError::new_err(format!("raster type {r:?} is not area or point"))),
            };
            Georef::Epsg {
                model: match model.as_str() {
                    "projected" => ModelType::Projected,
                    "geographic" => ModelType::Geographic,
                    m => return Err(PyValueError::new_err(format!("CRS type {m:?} is not projected or geographic"))),
                },
                raster_type,
                epsg,
                // the caller's GDAL geotransform of pixel corners, recorded as the core's one
                // conversion gives it (PixelIsPoint: pixel centres)
                affine: GeoTransform(geotransform)
                    .to_affine(raster_type)
                    .map_err(|e| PyValueError::new_err(format!("transform: {e}")))?,
            }
        }
    };
    let time = TimeAxis::from_seconds(kind, seconds, times).map_err(py_err)?;
    Ok(ImageSpec {
        width,
        length,
        times,
        bands,
        encoding,
        tile_width: tile.1,
        tile_length: tile.0,
        frame_unit: frame_unit.unwrap_or_else(|| ImageSpec::default_frame_unit(bands, times)),
        georef,
        trailer: Trailer { band_texts, time },
    })
}

/// The bytes of a C-contiguous buffer, for use with the GIL released.
struct Bytes {
    _buf: PyUntypedBuffer,
    ptr: usize,
    len: usize,
}

impl Bytes {
    fn of(data: &Bound<'_, PyAny>) -> PyResult<Self> {
        let buf = PyUntypedBuffer::get(data)?;
        if !buf.is_c_contiguous() {
            return Err(PyValueError::new_err("data must be C-contiguous"));
        }
        let (ptr, len) = (buf.buf_ptr() as usize, buf.len_bytes());
        Ok(Bytes { _buf: buf, ptr, len })
    }

    fn slice(&self) -> &[u8] {
        // SAFETY: `_buf` keeps the exported, C-contiguous `len` bytes at `ptr` alive as long as
        // `self`; the writer only reads them.
        unsafe { std::slice::from_raw_parts(self.ptr as *const u8, self.len) }
    }
}

/// `encode_rows(spec, graph, first_row, data, threads) -> (rows, frames, counts)`: the frames of
/// the block of tile rows starting at `first_row`, with the GIL released. Needs nothing but the
/// spec: run it in any process, then give the result to `NativeWriter.write_encoded`.
/// `clean_stale(path) -> [str]`: removes the named temporary files that interrupted runs left in
/// the folder of `path` (those no live process holds locked), as `rumi convert` does at start;
/// returns their paths.
#[pyfunction]
pub fn clean_stale(path: PathBuf) -> Vec<String> {
    rumi::commit::clean_stale(&path).into_iter().map(|p| p.display().to_string()).collect()
}

/// The compression of a file as Python gives it: `(graph name, OpenZL level)` (`WriteSpec.graph`,
/// `WriteSpec.level`).
type GraphTuple = (String, i32);

/// The graph `(name, level)` names ([`Graph::named`]: `rumi convert --graph`'s names); a name it
/// does not know is a ValueError listing the accepted ones.
fn graph_of((name, level): &GraphTuple) -> PyResult<Graph> {
    Graph::named(name, *level).map_err(PyValueError::new_err)
}

/// `graph_check(name, level)`: raises the ValueError [`graph_of`] raises for a graph name it does
/// not know (`WriteSpec.make` checks before anything is written).
#[pyfunction]
pub fn graph_check(name: String, level: i32) -> PyResult<()> {
    graph_of(&(name, level)).map(|_| ())
}

#[pyfunction]
pub fn encode_rows<'py>(
    py: Python<'py>,
    spec: SpecTuple,
    graph: GraphTuple,
    first_row: u32,
    data: &Bound<'py, PyAny>,
    threads: usize,
) -> PyResult<(u32, Bound<'py, PyBytes>, Vec<u32>)> {
    let graph = graph_of(&graph)?;
    let e = encode_detached(py, spec, data, threads, |spec, d| rumi::encode_tile_rows(spec, graph, first_row, d))?;
    Ok((e.rows, PyBytes::new(py, &e.frames), e.counts))
}

/// Runs `encode(spec, data)` on the pool of `threads` with the GIL released.
fn encode_detached<T: Send>(
    py: Python<'_>,
    spec: SpecTuple,
    data: &Bound<'_, PyAny>,
    threads: usize,
    encode: impl FnOnce(&ImageSpec, &[u8]) -> rumi::Result<T> + Send,
) -> PyResult<T> {
    let spec = spec_from(spec)?;
    let bytes = Bytes::of(data)?;
    let pool = rumi::pool::get(threads).map_err(py_err)?;
    py.detach(|| pool.install(|| encode(&spec, bytes.slice()))).map_err(py_err)
}

/// `encode_tiles(spec, graph, row, first_col, data, threads) -> (cols, frames, counts)`: the
/// frames of the tiles of tile row `row` from tile column `first_col` (`data`: their `[t][b][y][x]`
/// samples, whole tile columns), with the GIL released: a block narrower than a tile row, for
/// `NativeWriter.write_encoded_tiles` (the frames `encode_rows` makes for those tiles).
#[pyfunction]
pub fn encode_tiles<'py>(
    py: Python<'py>,
    spec: SpecTuple,
    graph: GraphTuple,
    row: u32,
    first_col: u32,
    data: &Bound<'py, PyAny>,
    threads: usize,
) -> PyResult<(u32, Bound<'py, PyBytes>, Vec<u32>)> {
    let graph = graph_of(&graph)?;
    let e = encode_detached(py, spec, data, threads, |spec, d| rumi::encode_tiles(spec, graph, row, first_col, d))?;
    Ok((e.cols, PyBytes::new(py, &e.frames), e.counts))
}

/// `frame_unit_from_image(spec, graph, data, threads) -> unit`: the frame unit `rumi.write`
/// gives an Image when none is asked for ([`rumi::frame_unit_from_image`]: with an auto graph,
/// its middle tile row encoded both ways when the shape is sampled; the spec's default
/// otherwise, as `rumi convert`), the GIL released.
#[pyfunction]
pub fn frame_unit_from_image(
    py: Python<'_>,
    spec: SpecTuple,
    graph: GraphTuple,
    data: &Bound<'_, PyAny>,
    threads: usize,
) -> PyResult<u16> {
    let spec = spec_from(spec)?;
    let graph = graph_of(&graph)?;
    if !spec.samples_frame_unit() || !graph.is_auto() {
        return Ok(spec.frame_unit);
    }
    let bytes = Bytes::of(data)?;
    let pool = rumi::pool::get(threads).map_err(py_err)?;
    py.detach(|| pool.install(|| rumi::frame_unit_from_image(&spec, graph, bytes.slice()))).map_err(py_err)
}

/// `assemble(spec, counts) -> (prefix, trailer, blob)`: what a file of frames with these byte
/// counts (frame-index order) holds besides them, and its header blob.
#[pyfunction]
pub fn assemble<'py>(
    py: Python<'py>,
    spec: SpecTuple,
    counts: Vec<u32>,
) -> PyResult<(Bound<'py, PyBytes>, Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
    let spec = spec_from(spec)?;
    let (prefix, trailer) = rumi::assemble(&spec, &counts).map_err(py_err)?;
    let blob = rumi::format::Blob { layout: spec.layout().map_err(py_err)?, counts }.to_bytes().map_err(py_err)?;
    Ok((PyBytes::new(py, &prefix), PyBytes::new(py, &trailer), PyBytes::new(py, &blob)))
}

/// `base_frame_offset(spec) -> int`: the prefix's length (it depends only on B and N).
#[pyfunction]
pub fn base_frame_offset(spec: SpecTuple) -> PyResult<u64> {
    spec_from(spec)?.layout().and_then(|l| l.base_frame_offset()).map_err(py_err)
}

/// `parts_start(url, options=None) -> id`: starts a multipart upload whose parts anyone may
/// upload (`parts_put`); nothing is visible before `parts_finish`.
#[pyfunction]
#[pyo3(signature = (url, options=None))]
pub fn parts_start(py: Python<'_>, url: String, options: Option<&Bound<'_, PyDict>>) -> PyResult<String> {
    let opts = store::options_from(options)?;
    py.detach(move || rumi::store::Parts::start(&url, &opts)).map(|p| p.id).map_err(io)
}

/// `parts_put(url, id, index, pieces, options=None) -> etag`: uploads the concatenated `pieces`
/// (bytes-like) as part `index` (from 0), GIL released.
#[pyfunction]
#[pyo3(signature = (url, id, index, pieces, options=None))]
pub fn parts_put(
    py: Python<'_>,
    url: String,
    id: String,
    index: usize,
    pieces: Vec<Bound<'_, PyAny>>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<String> {
    let opts = store::options_from(options)?;
    let pieces = pieces.iter().map(Bytes::of).collect::<PyResult<Vec<_>>>()?;
    py.detach(move || {
        let mut data = Vec::with_capacity(pieces.iter().map(|b| b.slice().len()).sum());
        for b in &pieces {
            data.extend_from_slice(b.slice());
        }
        rumi::store::Parts { url, id }.put(index, data, &opts)
    })
    .map_err(io)
}

/// `parts_finish(url, id, etags, header, aux=None, options=None)`: completes the upload (parts in
/// order), then writes the `.header` sidecar and the nodata `.aux.xml` (or removes a previous
/// one); an error before the completion aborts the upload.
#[pyfunction]
#[pyo3(signature = (url, id, etags, header, aux=None, options=None))]
pub fn parts_finish(
    py: Python<'_>,
    url: String,
    id: String,
    etags: Vec<String>,
    header: Vec<u8>,
    aux: Option<String>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<()> {
    let opts = store::options_from(options)?;
    py.detach(move || {
        let sidecars = [
            rumi::store::Sidecar { suffix: HEADER_SUFFIX, bytes: Some(&header) },
            rumi::store::Sidecar { suffix: AUX_SUFFIX, bytes: aux.as_ref().map(|a| a.as_bytes()) },
        ];
        rumi::store::Parts { url, id }.finish(etags, &sidecars, &opts)
    })
    .map_err(io)
}

/// `parts_abort(url, id, options=None)`: drops the upload and its parts.
#[pyfunction]
#[pyo3(signature = (url, id, options=None))]
pub fn parts_abort(py: Python<'_>, url: String, id: String, options: Option<&Bound<'_, PyDict>>) -> PyResult<()> {
    let opts = store::options_from(options)?;
    py.detach(move || rumi::store::Parts { url, id }.abort(&opts)).map_err(io)
}

/// `pam_render(bands, values, scales=None, offsets=None, units=None) -> str`: the `.aux.xml`
/// text giving GDAL band `i + 1` (of T*B) the nodata `values[i]` (text GDAL parses; None:
/// none), the scale `scales[i]`, offset `offsets[i]` and unit `units[i]` (None: none). A scale
/// or offset that is not finite is a ValueError naming its band.
#[pyfunction]
#[pyo3(signature = (bands, values, scales=None, offsets=None, units=None))]
pub fn pam_render(
    bands: usize,
    values: Vec<Option<String>>,
    scales: Option<Vec<Option<f64>>>,
    offsets: Option<Vec<Option<f64>>>,
    units: Option<Vec<Option<String>>>,
) -> PyResult<String> {
    let n = values.len();
    for (what, len) in [
        ("scales", scales.as_ref().map(Vec::len)),
        ("offsets", offsets.as_ref().map(Vec::len)),
        ("units", units.as_ref().map(Vec::len)),
    ] {
        if len.is_some_and(|l| l != n) {
            return Err(PyValueError::new_err(format!("pam_render: {what} has {len:?} entries, values {n}")));
        }
    }
    let at = |v: &Option<Vec<Option<f64>>>, i: usize| v.as_ref().and_then(|v| v[i]);
    let values = values
        .into_iter()
        .enumerate()
        .map(|(i, nodata)| BandPam {
            nodata,
            scale: at(&scales, i),
            offset: at(&offsets, i),
            unit: units.as_ref().and_then(|u| u[i].clone()),
            ..BandPam::default()
        })
        .collect();
    let pam = Pam { bands, values };
    pam.check().map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(pam.render())
}

/// `pam_nodata(text) -> [(gdal_band, value)] | None`: the nodata values of a `.aux.xml` that
/// rumi wrote (None when the text holds anything else: then it is the user's).
#[pyfunction]
pub fn pam_nodata(text: &str) -> Option<Vec<(u32, String)>> {
    pam::is_ours(text).then(|| pam::top_level_nodata(text))
}

/// One band of a PAM sidecar as `pam_parse` gives it: (GDAL band number from 1, nodata text,
/// scale, offset, unit), None where the sidecar records none.
type ParsedBand = (u32, Option<String>, Option<f64>, Option<f64>, Option<String>);

/// `pam_parse(data: bytes) -> [(gdal_band, nodata, scale, offset, unit)]`: what a PAM sidecar
/// (rumi's or one GDAL saved) records of the whole file's bands (`rumi::pam::parse`: the
/// `Subdataset` entries of a Cube's time steps are skipped). Not UTF-8, not XML, not a
/// `<PAMDataset>`, a scale or offset that is not a finite number, or one without the other:
/// ValueError naming the problem.
#[pyfunction]
pub fn pam_parse(data: &[u8]) -> PyResult<Vec<ParsedBand>> {
    let text = std::str::from_utf8(data)
        .map_err(|e| PyValueError::new_err(format!("not a GDAL PAM sidecar: not UTF-8 text ({e})")))?;
    let bands = pam::parse(text).map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(bands.into_iter().map(|(n, b)| (n, b.nodata, b.scale, b.offset, b.unit)).collect())
}

enum Target {
    /// an anonymous file beside the destination, linked into place at close
    Local(Staged),
    /// a local temporary file, uploaded at close
    Upload { url: String, file: File, options: rumi::store::Options },
}

struct Open {
    writer: Writer<BufWriter<File>>,
    target: Target,
    aux: Option<String>,
    pool: Arc<rayon::ThreadPool>,
    force: bool,
}

/// `NativeWriter(dest, spec, graph, threads, nodata=None, options=None, force=False, aux=None)`:
/// a rumi file being written block by block (see `rumi.Writer`); its `.aux.xml` is `aux` (what
/// `pam_render` gave) or else renders the `nodata` texts. Rewriting a local file follows the
/// core's `plan_rewrite` (as `rumi convert`): GDAL's derived sidecars of the old file
/// (overviews, statistics, masks) refuse the write, naming them, unless `force`.
#[pyclass(module = "rumi._rumi")]
pub struct NativeWriter {
    dest: String,
    state: Mutex<Option<Open>>,
}

fn io(e: std::io::Error) -> PyErr {
    raise("RumiIOError", e.to_string())
}

impl NativeWriter {
    fn with<T>(&self, py: Python<'_>, f: impl FnOnce(&mut Open) -> rumi::Result<T> + Send) -> PyResult<T>
    where
        T: Send,
    {
        let mut guard = self.state.lock().map_err(|_| PyRuntimeError::new_err("writer poisoned"))?;
        let Some(open) = guard.as_mut() else {
            return Err(raise("RequestError", format!("{}: the writer is closed", self.dest)));
        };
        let r = py.detach(|| f(open));
        if r.is_err() {
            // a failed block leaves the file unfinishable: drop everything now (nothing appears)
            *guard = None;
        }
        r.map_err(py_err)
    }
}

#[pymethods]
impl NativeWriter {
    #[new]
    #[pyo3(signature = (dest, spec, graph, threads, nodata=None, options=None, force=false, aux=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        dest: String,
        spec: SpecTuple,
        graph: GraphTuple,
        threads: usize,
        nodata: Option<Vec<Option<String>>>,
        options: Option<&Bound<'_, PyDict>>,
        force: bool,
        aux: Option<String>,
    ) -> PyResult<Self> {
        let spec = spec_from(spec)?;
        let graph = graph_of(&graph)?;
        let bands = usize::from(spec.bands);
        let aux =
            aux.or_else(|| nodata.map(|values| Nodata { bands, values }).filter(|n| !n.is_empty()).map(|n| n.render()));
        let pool = rumi::pool::get(threads).map_err(py_err)?;
        let (target, file, spool) = if rumi::store::is_url(&dest) {
            let options = store::options_from(options)?;
            let file = tempfile::tempfile().map_err(|e| {
                io(std::io::Error::new(e.kind(), format!("cannot create a local temporary file for {dest}: {e}")))
            })?;
            let out = file.try_clone().map_err(io)?;
            (Target::Upload { url: dest.clone(), file, options }, out, std::env::temp_dir())
        } else {
            let path = PathBuf::from(&dest);
            if path.is_dir() {
                return Err(PyValueError::new_err(format!("{dest} is a folder; give the output file name")));
            }
            // refused before anything is encoded: the same check runs again at close
            rumi::commit::plan_rewrite(&path, force, "force=True").map_err(|m| raise("RequestError", m))?;
            let mut staged = py.detach(|| Staged::create(&path)).map_err(py_err)?;
            let out = staged.file().try_clone().map_err(io)?;
            let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new(".")).to_path_buf();
            (Target::Local(staged), out, dir)
        };
        let writer =
            Writer::new(BufWriter::with_capacity(1 << 20, file), spec, graph).map_err(py_err)?.spool_dir(spool);
        Ok(NativeWriter { dest, state: Mutex::new(Some(Open { writer, target, aux, pool, force })) })
    }

    /// Encodes and places the block of tile rows starting at `first_row` (GIL released).
    fn write_rows(&self, py: Python<'_>, first_row: u32, data: &Bound<'_, PyAny>) -> PyResult<()> {
        let bytes = Bytes::of(data)?;
        self.with(py, |o| {
            let pool = Arc::clone(&o.pool);
            pool.install(|| o.writer.write_tile_rows(first_row, bytes.slice()))
        })
    }

    /// Places the frames `encode_rows` made for the tile rows `first_row .. first_row + rows`.
    fn write_encoded(
        &self,
        py: Python<'_>,
        first_row: u32,
        rows: u32,
        frames: Vec<u8>,
        counts: Vec<u32>,
    ) -> PyResult<()> {
        self.with(py, |o| o.writer.write_encoded(EncodedRows { first_row, rows, frames, counts }))
    }

    /// Places the frames `encode_tiles` made for tiles `first_col .. first_col + cols` of tile
    /// row `row`.
    fn write_encoded_tiles(
        &self,
        py: Python<'_>,
        row: u32,
        first_col: u32,
        cols: u32,
        frames: Vec<u8>,
        counts: Vec<u32>,
    ) -> PyResult<()> {
        self.with(py, |o| o.writer.write_encoded_tiles(EncodedTiles { row, first_col, cols, frames, counts }))
    }

    /// Tile rows not written yet.
    fn missing_rows(&self) -> PyResult<Vec<u32>> {
        let guard = self.state.lock().map_err(|_| PyRuntimeError::new_err("writer poisoned"))?;
        Ok(guard.as_ref().map(|o| o.writer.missing_rows()).unwrap_or_default())
    }

    /// True until `close` or `abort` (or a failed block).
    #[getter]
    fn is_open(&self) -> bool {
        self.state.lock().is_ok_and(|g| g.is_some())
    }

    /// Finishes the file and makes it appear with its sidecars (all or nothing); returns the
    /// header blob.
    fn close<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let open = {
            let mut guard = self.state.lock().map_err(|_| PyRuntimeError::new_err("writer poisoned"))?;
            guard.take()
        };
        let Some(Open { writer, target, aux, force, .. }) = open else {
            return Err(raise("RequestError", format!("{}: the writer is closed", self.dest)));
        };
        let dest = self.dest.clone();
        let blob = py
            .detach(move || -> rumi::Result<Vec<u8>> {
                let (out, blob) = writer.finish()?;
                drop(out.into_inner().map_err(|e| Error::Io(e.into_error()))?);
                let blob = blob.to_bytes()?;
                match target {
                    Target::Local(staged) => {
                        let path = PathBuf::from(&dest);
                        let mut sidecars = vec![Staged::with_bytes(&with_suffix(&path, HEADER_SUFFIX), &blob)?];
                        if let Some(text) = &aux {
                            sidecars.push(Staged::with_bytes(&with_suffix(&path, AUX_SUFFIX), text.as_bytes())?);
                        }
                        // the old header, rumi's own nodata sidecar and (forced) GDAL's derived
                        // sidecars go with the old file (a derived one that appeared since the
                        // writer opened refuses here, nothing written)
                        let (remove, _) =
                            rumi::commit::plan_rewrite(&path, force, "force=True").map_err(Error::Usage)?;
                        commit_pair(staged, sidecars, &remove)?;
                    }
                    Target::Upload { url, file, options } => {
                        let sidecars = [
                            rumi::store::Sidecar { suffix: HEADER_SUFFIX, bytes: Some(&blob) },
                            rumi::store::Sidecar { suffix: AUX_SUFFIX, bytes: aux.as_ref().map(|a| a.as_bytes()) },
                        ];
                        rumi::store::upload(&file, &url, &sidecars, &options, &|| false)?;
                    }
                }
                Ok(blob)
            })
            .map_err(py_err)?;
        Ok(PyBytes::new(py, &blob))
    }

    /// Drops the file being written: nothing appears (idempotent).
    fn abort(&self) {
        if let Ok(mut g) = self.state.lock() {
            g.take();
        }
    }
}
