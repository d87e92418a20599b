//! `rumi._rumi`: the native half of the Python package. Everything that touches bytes lives
//! here (opening, reading into the caller's buffer with the GIL released, writing, DLPack
//! capsules); argument handling, numpy dtypes, xarray and pickling live in `python/rumi/`.
//!
//! Fork safety: nothing here keeps process-wide state that a forked child inherits broken.
//! The core's object-storage clients are kept per process id (`rumi::store`), and the Python
//! `Dataset` rebuilds its native reader when `os.getpid()` changes; writer and decoder thread
//! pools are looked up per process id (see [`pool`]).

use std::sync::OnceLock;

use pyo3::buffer::PyUntypedBuffer;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use rumi::format::{GeoTransform, Georef, ModelType, NumpyType, RasterType, SampleEncoding, TimeKind, TimeStep};
use rumi::open::{BlobCheck, HeaderBlob, OpenOptions, StaleSidecar};
use rumi::store::Source;
use rumi::RangeRead;
use rumi::Reader;
use rumi::Request;
use rumi::{Category, Error, LimitKind, Limits};

mod dlpack;
mod reject;
mod spare;
mod store;
mod tiles;
mod write;

/// Maps a core error to the Python exception of its category (classes defined in
/// `rumi/_errors.py`), with the core's message text.
fn py_err(e: Error) -> PyErr {
    let class = match e.category() {
        Category::Format => "FormatError",
        Category::Limit => "LimitError",
        Category::Unsupported => "UnsupportedError",
        Category::Usage => "RequestError",
        Category::Io => "RumiIOError",
    };
    raise(class, e.to_string())
}

fn raise(class: &str, msg: String) -> PyErr {
    Python::attach(|py| {
        let cls = py.import("rumi._errors").and_then(|m| m.getattr(class));
        match cls {
            Ok(cls) => match cls.call1((msg.clone(),)) {
                Ok(inst) => PyErr::from_value(inst),
                Err(e) => e,
            },
            Err(e) => e,
        }
    })
}

fn limits_from(d: Option<&Bound<'_, PyDict>>) -> PyResult<Limits> {
    let mut l = Limits::default();
    if let Some(d) = d {
        for (k, v) in d.iter() {
            let key: String = k.extract()?;
            let v: u64 = v.extract().map_err(|_| PyTypeError::new_err(format!("limit {key} must be an integer")))?;
            // the keys are the core's limit names (rumi::LimitKind)
            let Some(kind) = LimitKind::from_name(&key) else {
                let known: Vec<&str> = LimitKind::ALL.iter().map(|k| k.name()).collect();
                return Err(PyValueError::new_err(format!("unknown limit {key:?} (known: {})", known.join(", "))));
            };
            l.set(kind, v);
        }
    }
    Ok(l)
}

/// Shape and storage facts of an open file (`NativeReader.info()`).
#[pyclass(module = "rumi._rumi", frozen, get_all)]
struct Info {
    /// X
    width: u32,
    /// Y
    length: u32,
    /// T
    times: u32,
    /// B
    bands: u16,
    tile_width: u16,
    tile_length: u16,
    /// the sample encoding's name (`uint16`, `bfloat16`, ...)
    encoding: String,
    /// bytes of one decoded sample
    sample_bytes: usize,
    frame_unit: u8,
    /// True when each frame holds one tile of one (band, time) plane (units 0 and 9), False
    /// when it holds every band and time step of its tile
    frame_is_one_plane: bool,
    frame_count: u64,
    trailer_offset: u64,
}

/// Defined georeferencing (`NativeReader.georef()`).
#[pyclass(module = "rumi._rumi", frozen, get_all)]
struct GeoInfo {
    epsg: u16,
    /// "projected" or "geographic", as recorded
    crs_type: String,
    /// "area" or "point"
    raster_type: String,
    /// (a, b, c, d, e, f): x = a*col + b*row + c, y = d*col + e*row + f, at the recorded
    /// raster type's reference (pixel corner for area, centre for point)
    affine: (f64, f64, f64, f64, f64, f64),
    /// GDAL's geotransform (x0, xres, row_rot, y0, col_rot, yres) of pixel corners (the core's
    /// GeoTransform: PixelIsPoint shifted by half a pixel)
    geotransform: (f64, f64, f64, f64, f64, f64),
}

/// Band texts and time coordinates (`NativeReader.trailer()`).
#[pyclass(module = "rumi._rumi", frozen, get_all)]
struct TrailerInfo {
    band_texts: Vec<String>,
    /// "instant" or "interval"
    time_kind: String,
    /// seconds since 1970: one per instant, two (start, end) per interval
    seconds: Vec<i64>,
    /// True when the file records time in days
    whole_days: bool,
}

/// An open rumi file (the native half of `rumi.Dataset`).
#[pyclass(module = "rumi._rumi", frozen)]
struct NativeReader {
    inner: Reader<Source>,
    /// the header blob the open used (None: the file was parsed)
    #[pyo3(get)]
    blob_name: Option<String>,
    /// why a sidecar was ignored, when it was
    #[pyo3(get)]
    warning: Option<String>,
}

#[pymethods]
impl NativeReader {
    /// `NativeReader(location, header=None, header_name=None, limits=None, options=None,
    /// sidecar=False, trusted=False)`: `location` is a local path or an http(s):// / s3:// URL.
    /// The open policy is the core's (`rumi::open`): `header` the bytes of a blob the caller
    /// named `header_name` (an error when it does not describe the file); else with `sidecar`
    /// a local `<location>.header` is used when it matches (a stale one is ignored: `warning`);
    /// else the file is parsed. A local file's blob is checked against its size and trailer
    /// magic; a remote one (or a `trusted` blob, e.g. from a forked parent) only against the
    /// size already known, so that the open sends no request (`check_blob` after the first read).
    #[new]
    #[pyo3(signature = (location, header=None, header_name=None, limits=None, options=None, sidecar=false, trusted=false))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        location: String,
        header: Option<Vec<u8>>,
        header_name: Option<String>,
        limits: Option<&Bound<'_, PyDict>>,
        options: Option<&Bound<'_, PyDict>>,
        sidecar: bool,
        trusted: bool,
    ) -> PyResult<Self> {
        let limits = limits_from(limits)?;
        let opts = store::options_from(options)?;
        let local = !rumi::store::is_url(&location);
        py.detach(move || {
            let blob = match header {
                Some(bytes) => HeaderBlob::Explicit { name: header_name.unwrap_or_else(|| "(bytes)".into()), bytes },
                // a sidecar there but unreadable (a dangling link, a folder) is warned about
                None if sidecar && local => rumi::open::local_sidecar(&location),
                None => HeaderBlob::None,
            };
            let src = Source::open(&location, &opts).map_err(|e| raise("RumiIOError", e.to_string()))?;
            let check = if local && !trusted { BlobCheck::SizeAndTrailer } else { BlobCheck::Size };
            let policy = OpenOptions { limits, stale_sidecar: StaleSidecar::Warn, check };
            let o = rumi::open::open(src, &location, blob, &policy).map_err(py_err)?;
            Ok(NativeReader { inner: o.reader, blob_name: o.blob, warning: o.warning })
        })
    }

    /// True when the blob can be checked against the file without a request (local files,
    /// or remote objects whose size a range response already gave).
    fn can_check_blob(&self) -> bool {
        self.inner.source().known_size().is_ok_and(|s| s.is_some())
    }

    /// The check of a stateless open deferred until the size is known: the file must hold the
    /// frames the blob locates and a trailer. Returns None when it does, else the reason.
    fn check_blob(&self, py: Python<'_>) -> Option<String> {
        py.detach(|| rumi::check_blob_prefix(&self.inner, &[]).err().map(|e| e.to_string()))
    }

    /// Shape and storage facts.
    fn info(&self) -> Info {
        let l = self.inner.layout();
        Info {
            width: l.width,
            length: l.length,
            times: l.times,
            bands: l.bands,
            tile_width: l.tile_width,
            tile_length: l.tile_length,
            encoding: l.encoding.name().to_owned(),
            sample_bytes: l.encoding.decoded_bytes(),
            frame_unit: l.frame_unit.value(),
            frame_is_one_plane: l.frame_unit.is_tile(),
            frame_count: self.inner.frame_count(),
            trailer_offset: self.inner.trailer_offset(),
        }
    }

    /// The header blob's bytes.
    fn header<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let b = self.inner.blob().to_bytes().map_err(py_err)?;
        Ok(PyBytes::new(py, &b))
    }

    /// `(offset, length)` of frame `index`.
    fn frame_range(&self, index: u64) -> PyResult<(u64, u64)> {
        self.inner.frame_range(index).map_err(py_err)
    }

    /// Frame indices a window needs (`times` a range, `bands` a list), increasing.
    fn frames_for(&self, times: (u32, u32), bands: Vec<u32>, rows: (u32, u32), cols: (u32, u32)) -> PyResult<Vec<u64>> {
        let win = rumi::Window { times: times.0..times.1, bands, rows: rows.0..rows.1, cols: cols.0..cols.1 };
        self.inner.frames_for(&win).map_err(py_err)
    }

    /// `None` (undefined georeferencing) or the EPSG code, model, raster type and affine.
    fn georef(&self, py: Python<'_>) -> PyResult<Option<GeoInfo>> {
        let g = py.detach(|| self.inner.georef()).map_err(py_err)?;
        Ok(match g {
            Georef::Undefined { .. } => None,
            Georef::Epsg { model, raster_type, epsg, affine } => Some(GeoInfo {
                epsg,
                crs_type: if model == ModelType::Projected { "projected" } else { "geographic" }.to_owned(),
                raster_type: if raster_type == RasterType::Point { "point" } else { "area" }.to_owned(),
                affine: (affine[0], affine[1], affine[2], affine[3], affine[4], affine[5]),
                geotransform: {
                    let g = GeoTransform::from_affine(affine, raster_type, true).0;
                    (g[0], g[1], g[2], g[3], g[4], g[5])
                },
            }),
        })
    }

    /// Band texts and time coordinates (seconds since 1970, one per instant or two, start and
    /// end, per interval).
    fn trailer(&self, py: Python<'_>) -> PyResult<TrailerInfo> {
        let t = py.detach(|| self.inner.trailer().cloned()).map_err(py_err)?;
        let mut secs = Vec::with_capacity(t.time.coords.len());
        for i in 0..t.time.steps() {
            let conv = |v: i128| i64::try_from(v).map_err(|_| PyValueError::new_err("time coordinate out of range"));
            match t.time.step(i) {
                TimeStep::Instant(s) => secs.push(conv(s)?),
                TimeStep::Interval(a, b) => {
                    secs.push(conv(a)?);
                    secs.push(conv(b)?);
                }
            }
        }
        let kind = if t.time.kind == TimeKind::Instant { "instant" } else { "interval" };
        Ok(TrailerInfo {
            band_texts: t.band_texts,
            time_kind: kind.to_owned(),
            seconds: secs,
            whole_days: t.time.scale == 86400,
        })
    }

    /// Decodes the window `rows x cols` of `times` x `bands` (t-major, C order) into `out`, a
    /// writable C-contiguous buffer of exactly `times * bands * rows * cols * sample_bytes`
    /// bytes, on `threads` threads with the GIL released, through the core read planner: each
    /// needed frame is fetched once (one merged `read_ranges` per batch) and decoded once.
    /// Returns the planner's statistics.
    #[allow(clippy::too_many_arguments)]
    fn read_into<'py>(
        &self,
        py: Python<'py>,
        out: &Bound<'py, PyAny>,
        times: Vec<u32>,
        bands: Vec<u32>,
        rows: (u32, u32),
        cols: (u32, u32),
        threads: usize,
    ) -> PyResult<Bound<'py, PyDict>> {
        let buf = PyUntypedBuffer::get(out)?;
        if buf.readonly() {
            return Err(PyValueError::new_err("out is read-only"));
        }
        if !buf.is_c_contiguous() {
            return Err(PyValueError::new_err("out must be C-contiguous"));
        }
        let l = self.inner.layout();
        let bps = l.encoding.decoded_bytes();
        if rows.0 > rows.1 || cols.0 > cols.1 {
            return Err(raise("RequestError", format!("empty or reversed window rows {rows:?} cols {cols:?}")));
        }
        let req = Request::dense(&times, &bands, rows.0..rows.1, cols.0..cols.1, bps);
        let (_, need) = req.extent(bps).map_err(py_err)?;
        Limits::check(rumi::limits::Measure::WindowSize, need as u64, self.inner.limits().max_read_bytes)
            .map_err(py_err)?;
        if buf.len_bytes() != need {
            return Err(PyValueError::new_err(format!("out has {} bytes, the read needs {need}", buf.len_bytes())));
        }
        let ptr = buf.buf_ptr() as usize;
        let len = buf.len_bytes();
        let stats = py
            .detach(move || {
                // SAFETY: `buf` (a PyBuffer view held until this function returns) keeps the
                // writable, C-contiguous memory of `len` bytes at `ptr` alive and exported; the
                // planner writes only inside it (extent checked against `len`).
                let dst = unsafe { std::slice::from_raw_parts_mut(ptr as *mut u8, len) };
                self.inner.read(&req, dst, 0, threads.max(1))
            })
            .map_err(py_err)?;
        drop(buf);
        stats_dict(py, &stats)
    }

    /// Sets the decoded-frame cache budget in bytes (0 disables it).
    fn set_cache_bytes(&self, bytes: u64) {
        self.inner.set_cache_bytes(bytes);
    }
}

/// The planner's statistics as the dict `read_into` and `read_batch` return.
fn stats_dict<'py>(py: Python<'py>, stats: &rumi::ReadStats) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("frames", stats.frames)?;
    d.set_item("cache_hits", stats.cache_hits)?;
    d.set_item("decoded", stats.decoded)?;
    d.set_item("batches", stats.batches)?;
    d.set_item("bytes_fetched", stats.bytes_fetched)?;
    Ok(d)
}

/// One read of `read_batch`: `(reader, out, times, bands, (row0, row1), (col0, col1), origin)`.
type BatchJob = (Py<NativeReader>, usize, Vec<u32>, Vec<u32>, (u32, u32), (u32, u32), usize);

/// `parse_time(text) -> (seconds, rounded, span)`: an ISO 8601 date or date-time (no zone: UTC)
/// as whole seconds since 1970, by the core's one parser of time texts (the CLI's too); `rounded`
/// when a fraction of a second was rounded away; `span` the seconds the text covers (a date its
/// day, `YYYY-MM` its month, `HH:MM` its minute). ValueError naming the text otherwise.
#[pyfunction]
fn parse_time(text: &str) -> PyResult<(i64, bool, i64)> {
    rumi::format::time_text::parse_instant(text)
        .map(|i| (i.seconds, i.rounded, i.span))
        .map_err(pyo3::exceptions::PyValueError::new_err)
}

/// `parse_interval(text) -> ((start, rounded), (end, rounded))`: an interval `START/END` of two
/// `parse_time` texts, END after START, by the core's parser (the CLI's `--intervals` too).
#[pyfunction]
fn parse_interval(text: &str) -> PyResult<((i64, bool), (i64, bool))> {
    rumi::format::time_text::parse_interval(text)
        .map(|(a, b)| ((a.seconds, a.rounded), (b.seconds, b.rounded)))
        .map_err(pyo3::exceptions::PyValueError::new_err)
}

/// `tile_counts((height, width), (tile_height, tile_width)) -> (down, across)`: the tile rows and
/// columns of a raster, by the core's one division (`Layout::tiles_along`). ValueError for a zero
/// tile side.
#[pyfunction]
fn tile_counts(shape: (u32, u32), tile: (u16, u16)) -> PyResult<(u32, u32)> {
    if tile.0 == 0 || tile.1 == 0 {
        return Err(PyValueError::new_err(format!("the tile shape {tile:?} has a zero side")));
    }
    Ok((rumi::Layout::tiles_along(shape.0, tile.0), rumi::Layout::tiles_along(shape.1, tile.1)))
}

/// `read_batch(outs, jobs, threads)`: many windows of many open files in one call, the GIL
/// released once (the core's `read_batch`: each file's reads in order, the files side by side
/// on `threads` threads). `outs` are writable C-contiguous buffers; each job writes its window
/// (t-major, C order, as `read_into`) at byte `origin` of `outs[out]`. Places must not overlap.
/// Returns the summed planner statistics.
#[pyfunction]
fn read_batch<'py>(
    py: Python<'py>,
    outs: Vec<Bound<'py, PyAny>>,
    jobs: Vec<BatchJob>,
    threads: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let mut views = Vec::with_capacity(outs.len());
    for (k, o) in outs.iter().enumerate() {
        let buf = PyUntypedBuffer::get(o)?;
        if buf.readonly() || !buf.is_c_contiguous() {
            return Err(PyValueError::new_err(format!("outs[{k}] must be a writable C-contiguous buffer")));
        }
        views.push(buf);
    }
    let mut reads = Vec::with_capacity(jobs.len());
    for (reader, out, times, bands, rows, cols, origin) in &jobs {
        if rows.0 > rows.1 || cols.0 > cols.1 {
            return Err(raise("RequestError", format!("empty or reversed window rows {rows:?} cols {cols:?}")));
        }
        let r = reader.get();
        let bps = r.inner.layout().encoding.decoded_bytes();
        reads.push(rumi::read::BatchRead {
            reader: &r.inner,
            req: Request::dense(times, bands, rows.0..rows.1, cols.0..cols.1, bps),
            out: *out,
            origin: *origin,
        });
    }
    let places: Vec<(usize, usize)> = views.iter().map(|v| (v.buf_ptr() as usize, v.len_bytes())).collect();
    let stats = py
        .detach(move || {
            // SAFETY: each (ptr, len) is the writable, C-contiguous memory of a PyBuffer view in
            // `views`, held until this function returns; the core writes only inside it.
            let mut dsts: Vec<&mut [u8]> =
                places.iter().map(|&(p, n)| unsafe { std::slice::from_raw_parts_mut(p as *mut u8, n) }).collect();
            rumi::read::read_batch(&reads, &mut dsts, threads.max(1))
        })
        .map_err(py_err)?;
    drop(views);
    stats_dict(py, &stats)
}

/// The pid of the process that loaded the module (a forked child sees its parent's).
fn parent_pid() -> u32 {
    static PID: OnceLock<u32> = OnceLock::new();
    *PID.get_or_init(std::process::id)
}

fn encoding_from(name: &str) -> PyResult<SampleEncoding> {
    SampleEncoding::from_name(name).ok_or_else(|| PyTypeError::new_err(format!("no rumi sample encoding {name:?}")))
}

/// `encodings() -> [(name, numpy_source, numpy_name, sample_bytes, (dlpack_code, bits))]`: the
/// core's table of the 21 sample encodings (spec "Sample encodings", "DLPack representation");
/// `numpy_source` is "numpy", "ml_dtypes" or None (no numpy dtype).
#[pyfunction]
#[allow(clippy::type_complexity)]
fn encodings() -> Vec<(&'static str, Option<&'static str>, Option<&'static str>, usize, (u8, u8))> {
    SampleEncoding::ALL
        .iter()
        .map(|e| {
            let (source, name) = match e.numpy() {
                NumpyType::Numpy(n) => (Some("numpy"), Some(n)),
                NumpyType::MlDtypes(n) => (Some("ml_dtypes"), Some(n)),
                NumpyType::None => (None, None),
            };
            (e.name(), source, name, e.decoded_bytes(), e.dlpack())
        })
        .collect()
}

/// `gdal_types() -> [(encoding, GDAL data type)]`: the type the GDAL driver gives each sample
/// encoding's bands (GDAL >= 3.7's Int8; float16, bfloat16 and float8 promoted to Float32,
/// complex32 to CFloat32), for hosts that describe rumi files to GDAL (VRTs).
#[pyfunction]
fn gdal_types() -> Vec<(&'static str, &'static str)> {
    SampleEncoding::ALL.iter().map(|e| (e.name(), e.gdal_type(true).unwrap_or_else(|| e.gdal_promoted()))).collect()
}

/// `fetch_object(url, options=None, missing_ok=False) -> bytes | None`: a whole (small) object,
/// e.g. a header blob or a manifest; `None` for a missing object when `missing_ok`.
#[pyfunction]
#[pyo3(signature = (url, options=None, missing_ok=false))]
fn fetch_object<'py>(
    py: Python<'py>,
    url: String,
    options: Option<&Bound<'py, PyDict>>,
    missing_ok: bool,
) -> PyResult<Option<Bound<'py, PyBytes>>> {
    let opts = store::options_from(options)?;
    match py.detach(move || rumi::store::fetch(&url, &opts, 1 << 30)) {
        Ok(bytes) => Ok(Some(PyBytes::new(py, &bytes))),
        Err(e) if missing_ok && e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(raise("RumiIOError", e.to_string())),
    }
}

/// `read_object_ranges(url, ranges, options=None) -> list[bytes]`: byte ranges `(offset, length)`
/// of an object, through the core's store (`StoreSource::read_ranges`: its credentials, retries
/// and errors, a server without Range support named by `rumi::range_unsupported`).
#[pyfunction]
#[pyo3(signature = (url, ranges, options=None))]
fn read_object_ranges<'py>(
    py: Python<'py>,
    url: String,
    ranges: Vec<(u64, usize)>,
    options: Option<&Bound<'py, PyDict>>,
) -> PyResult<Vec<Bound<'py, PyBytes>>> {
    use rumi::RangeRead;
    let opts = store::options_from(options)?;
    let got = py.detach(move || rumi::store::StoreSource::open(&url, &opts)?.read_ranges(&ranges));
    Ok(got.map_err(|e| raise("RumiIOError", e.to_string()))?.iter().map(|b| PyBytes::new(py, b)).collect())
}

/// `list_objects(url, options=None) -> list[(str, int)]`: `(url, size)` of the objects directly
/// inside an `s3://` folder (the core's `store::list`).
#[pyfunction]
#[pyo3(signature = (url, options=None))]
fn list_objects(py: Python<'_>, url: String, options: Option<&Bound<'_, PyDict>>) -> PyResult<Vec<(String, u64)>> {
    let opts = store::options_from(options)?;
    py.detach(move || rumi::store::list(&url, &opts)).map_err(|e| raise("RumiIOError", e.to_string()))
}

/// `object_size(url, options=None) -> int | None`: the size of an object, None when missing.
#[pyfunction]
#[pyo3(signature = (url, options=None))]
fn object_size(py: Python<'_>, url: String, options: Option<&Bound<'_, PyDict>>) -> PyResult<Option<u64>> {
    let opts = store::options_from(options)?;
    py.detach(move || rumi::store::head(&url, &opts)).map_err(|e| raise("RumiIOError", e.to_string()))
}

/// `object_stat(url, options=None) -> (int, str | None) | None`: an object's size and the
/// store's identity of its content (ETag, else Last-Modified), None when missing (one HEAD).
#[pyfunction]
#[pyo3(signature = (url, options=None))]
fn object_stat(
    py: Python<'_>,
    url: String,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Option<(u64, Option<String>)>> {
    let opts = store::options_from(options)?;
    py.detach(move || rumi::store::stat(&url, &opts))
        .map(|s| s.map(|s| (s.size, s.identity)))
        .map_err(|e| raise("RumiIOError", e.to_string()))
}

/// `put_object(location, data, options=None)`: writes a (small) file or object whole or not at
/// all: an object in one PUT (S3 and S3-compatible endpoints), a local file through the core's
/// commit (an anonymous temporary file beside it, fsynced, renamed into place, the folder
/// fsynced).
#[pyfunction]
#[pyo3(signature = (url, data, options=None))]
fn put_object(py: Python<'_>, url: String, data: Vec<u8>, options: Option<&Bound<'_, PyDict>>) -> PyResult<()> {
    if !rumi::store::is_url(&url) {
        let path = std::path::PathBuf::from(&url);
        return py
            .detach(move || rumi::commit::Staged::with_bytes(&path, &data).and_then(|s| s.commit()))
            .map_err(|e| raise("RumiIOError", format!("{url}: {e}")));
    }
    let opts = store::options_from(options)?;
    py.detach(move || rumi::store::put(&url, &data, &opts)).map_err(|e| raise("RumiIOError", e.to_string()))
}

/// The process id the module was loaded in (tests of fork handling).
#[pyfunction]
fn _load_pid() -> u32 {
    parent_pid()
}

#[pymodule]
fn _rumi(m: &Bound<'_, PyModule>) -> PyResult<()> {
    parent_pid();
    m.add_class::<NativeReader>()?;
    m.add_class::<Info>()?;
    m.add_class::<GeoInfo>()?;
    m.add_class::<TrailerInfo>()?;
    m.add_class::<write::NativeWriter>()?;
    m.add_function(wrap_pyfunction!(write::encode_rows, m)?)?;
    m.add_function(wrap_pyfunction!(write::clean_stale, m)?)?;
    m.add_function(wrap_pyfunction!(parse_time, m)?)?;
    m.add_function(wrap_pyfunction!(parse_interval, m)?)?;
    m.add_function(wrap_pyfunction!(tile_counts, m)?)?;
    m.add_function(wrap_pyfunction!(tiles::tile_sums, m)?)?;
    m.add_function(wrap_pyfunction!(reject::reject_draw, m)?)?;
    m.add_function(wrap_pyfunction!(reject::decide_cells, m)?)?;
    m.add_function(wrap_pyfunction!(write::encode_tiles, m)?)?;
    m.add_function(wrap_pyfunction!(write::frame_unit_from_image, m)?)?;
    m.add_function(wrap_pyfunction!(write::graph_check, m)?)?;
    m.add_function(wrap_pyfunction!(write::pam_render, m)?)?;
    m.add_function(wrap_pyfunction!(write::pam_nodata, m)?)?;
    m.add_function(wrap_pyfunction!(write::pam_parse, m)?)?;
    m.add_function(wrap_pyfunction!(write::assemble, m)?)?;
    m.add_function(wrap_pyfunction!(write::base_frame_offset, m)?)?;
    m.add_function(wrap_pyfunction!(write::parts_start, m)?)?;
    m.add_function(wrap_pyfunction!(write::parts_put, m)?)?;
    m.add_function(wrap_pyfunction!(write::parts_finish, m)?)?;
    m.add_function(wrap_pyfunction!(write::parts_abort, m)?)?;
    m.add_function(wrap_pyfunction!(_load_pid, m)?)?;
    m.add_function(wrap_pyfunction!(read_batch, m)?)?;
    m.add_class::<spare::SpareBuffer>()?;
    m.add_function(wrap_pyfunction!(spare::spare_buffer, m)?)?;
    m.add_function(wrap_pyfunction!(fetch_object, m)?)?;
    m.add_function(wrap_pyfunction!(read_object_ranges, m)?)?;
    m.add_function(wrap_pyfunction!(list_objects, m)?)?;
    m.add_function(wrap_pyfunction!(object_size, m)?)?;
    m.add_function(wrap_pyfunction!(object_stat, m)?)?;
    m.add_function(wrap_pyfunction!(put_object, m)?)?;
    m.add_function(wrap_pyfunction!(encodings, m)?)?;
    m.add_function(wrap_pyfunction!(gdal_types, m)?)?;
    m.add_function(wrap_pyfunction!(dlpack::dlpack_capsule, m)?)?;
    m.add("CORE_VERSION", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
