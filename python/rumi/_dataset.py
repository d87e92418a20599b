"""rumi.open and rumi.Dataset: an open file, its metadata and its reads."""

from __future__ import annotations

import io
import math
import os
import threading
import warnings
from typing import TYPE_CHECKING, Any, Sequence, Union, cast

import numpy as np

from . import _rumi
from ._crs import check_registered
from ._dtypes import Array, Tensor, numpy_dtype
from ._fork import renew_after_fork
from ._errors import FormatError, LimitError, RequestError, RumiError, RumiIOError
from ._grid import BoundingBox, Grid
from ._location import Location
from ._scale import Scaling
from ._window import Window, WindowLike, as_window, from_bounds, within

if TYPE_CHECKING:
    from affine import Affine

#: an axis selection of Dataset.read: an int, a slice, a list of ints (any order, repeats) or None (all)
Selection = Union[int, slice, Sequence[int], "np.ndarray[Any, Any]", None]
#: a band selection: a Selection of indices, or band texts (one, or a list)
BandSelection = Union[Selection, str, Sequence[str]]
PathLike = Union[str, "os.PathLike[str]"]


def _select(sel: Selection, n: int, axis: str) -> list[int]:
    """An int, slice, list/array of ints or None -> list of indices in 0..n."""
    if isinstance(sel, str):
        raise TypeError(f"{axis}={sel!r}: a name where an index is expected")
    if type(sel) is list and all(type(v) is int and 0 <= v < n for v in sel):
        return sel  # the common case of loaders: already valid indices
    if sel is None:
        return list(range(n))
    if isinstance(sel, slice):
        return list(range(n))[sel]
    if isinstance(sel, (int, np.integer)) and not isinstance(sel, (bool, np.bool_)):
        i = int(sel)
        if not -n <= i < n:
            raise RequestError(f"{axis}={i} is outside 0..{n - 1}")
        return [i % n]
    try:
        items = list(sel)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"{axis} must be an int, a slice or a list of ints, not {type(sel).__name__}") from None
    out = []
    for v in items:
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
            raise TypeError(f"{axis} list items must be ints, got {v!r}")
        v = int(v)
        if not -n <= v < n:
            raise RequestError(f"{axis} index {v} is outside 0..{n - 1}")
        out.append(v % n)
    return out


def default_threads() -> int:
    """Decoding threads per read by default: the CPU count, at most 16."""
    return max(1, min(os.cpu_count() or 1, 16))


_INHERITED: list[_rumi.NativeReader] = []  # native readers inherited through fork(): kept, never closed, in the child


class Dataset:
    """An open rumi file (see rumi.open). Thread-safe, fork-safe and picklable (path + blob).
    A context manager: `with rumi.open(path) as ds:` closes it at the end (reads after close()
    raise RequestError; the metadata already read stays available)."""

    def __init__(
        self,
        src: PathLike,
        header: bytes | bytearray | memoryview | PathLike | None = None,
        *,
        limits: dict[str, int] | None = None,
        options: dict[str, Any] | None = None,
        threads: int | None = None,
        _trusted_blob: bytes | None = None,
    ) -> None:
        self._src: str = os.fspath(src)
        self._limits = dict(limits) if limits else None
        self._options = dict(options) if options else None
        self.threads: int = int(threads) if threads is not None else default_threads()
        if self.threads < 1:
            raise ValueError("threads must be >= 1")
        self._lock = threading.Lock()
        renew_after_fork(self, "_lock")
        self._georef: _rumi.GeoInfo | None = None
        self._trailer: _rumi.TrailerInfo | None = None
        self._fetched = False
        self._cache_bytes: int | None = None
        self._unchecked_blob: str | None = None
        #: the core planner's statistics of the latest read (frames, cache_hits, decoded,
        #: batches, bytes_fetched); informational (shared by threads reading concurrently)
        self.last_stats: dict[str, int] | None = None
        try:
            native = (
                self._open_native(_trusted_blob, "(the pickled blob)", trusted=True)
                if _trusted_blob is not None
                else self._open(header)
            )
        except RumiError as e:
            raise _naming(e, self._src) from None
        self._native: _rumi.NativeReader | None = native
        self._pid = os.getpid()
        self._nodata: tuple[float | None, ...] | None = None
        self._scaling: Scaling | None = None
        self._info: _rumi.Info = native.info()
        i = self._info
        self._shape = (i.times, i.bands, i.length, i.width)

    # -- opening --------------------------------------------------------------------------
    def _open_native(
        self, blob: bytes | None, name: str | None = None, *, sidecar: bool = False, trusted: bool = False
    ) -> _rumi.NativeReader:
        return _rumi.NativeReader(
            self._src,
            None if blob is None else bytes(blob),
            name,
            self._limits,
            self._options,
            sidecar=sidecar,
            trusted=trusted,
        )

    def _open(self, header: bytes | bytearray | memoryview | PathLike | None) -> _rumi.NativeReader:
        # the policy (explicit blob, <file>.header sidecar, stale sidecar) is the core's
        # (rumi::open); here only the blob's bytes are fetched
        if header is None:
            native = self._open_native(None, sidecar=True)
            if native.warning:
                warnings.warn(f"rumi: {native.warning}", RuntimeWarning, stacklevel=4)
            return native
        if isinstance(header, (bytes, bytearray, memoryview)):
            blob, name = bytes(header), "(bytes given as header=)"
        else:
            name = os.fspath(header)
            try:
                blob = Location.parse(name).read(self._options) or b""
            except RumiIOError as e:
                raise RumiIOError(f"header blob: {e}") from None
        native = self._open_native(blob, name)
        if not native.can_check_blob():  # remote: checked after the first read (no HEAD)
            self._unchecked_blob = name
        return native

    @property
    def native(self) -> _rumi.NativeReader:
        """The native reader of this process (rebuilt from the blob in a forked child)."""
        native = self._native
        if native is None:
            raise RequestError(f"rumi.Dataset({self._src!r}) is closed")
        if os.getpid() != self._pid:
            with self._lock:
                native = self._native
                if native is None:
                    raise RequestError(f"rumi.Dataset({self._src!r}) is closed")
                if os.getpid() != self._pid:
                    old = native
                    native = self._native = self._open_native(old.header(), trusted=True)
                    if self._cache_bytes is not None:
                        native.set_cache_bytes(self._cache_bytes)
                    self._pid = os.getpid()
                    _INHERITED.append(old)  # never dropped in the child (shared sockets/fds)
        return native

    # -- closing --------------------------------------------------------------------------
    def close(self) -> None:
        """Releases the native reader (its file or connection and decoded-frame cache). Reads
        after close raise RequestError; closing twice is a no-op."""
        with self._lock:
            self._native = None

    @property
    def closed(self) -> bool:
        return self._native is None

    def __enter__(self) -> Dataset:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- pickling: path + blob, never the data ----------------------------------------------
    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return (_reopen, (self._src, bytes(self.header), self._limits, self._options, self.threads))

    # -- metadata ---------------------------------------------------------------------------
    @property
    def path(self) -> str:
        """The path or URL the dataset was opened from."""
        return self._src

    @property
    def shape(self) -> tuple[int, int, int, int]:
        """(T, B, Y, X)"""
        return self._shape

    @property
    def width(self) -> int:
        return self._info.width

    @property
    def height(self) -> int:
        return self._info.length

    @property
    def encoding(self) -> str:
        """The sample encoding's name (uint16, bfloat16, ...)."""
        return self._info.encoding

    @property
    def sample_bytes(self) -> int:
        """Bytes of one decoded sample."""
        return self._info.sample_bytes

    @property
    def dtype(self) -> np.dtype[Any]:
        """numpy dtype of the samples (bfloat16/float8 via ml_dtypes)."""
        return numpy_dtype(self._info.encoding)

    @property
    def tile_shape(self) -> tuple[int, int]:
        """(tile_length, tile_width)"""
        return (self._info.tile_length, self._info.tile_width)

    @property
    def frame_unit(self) -> int:
        return self._info.frame_unit

    @property
    def frame_count(self) -> int:
        return self._info.frame_count

    @property
    def frame_holds_all_planes(self) -> bool:
        """True when each frame holds every band and time step of its tile, False when it holds
        one tile of one (band, time) plane (frame units 0 and 9; the core's FrameUnit says which)."""
        return not self._info.frame_is_one_plane

    @property
    def header(self) -> bytes:
        """The header blob's bytes."""
        return self.native.header()

    def set_cache_bytes(self, nbytes: int) -> None:
        """Budget of the decoded-frame cache (LRU) that serves repeated frames; 0 disables it."""
        self._cache_bytes = int(nbytes)
        self.native.set_cache_bytes(int(nbytes))

    def frame_range(self, index: int) -> tuple[int, int]:
        """(offset, length) of frame `index` in the file."""
        return self.native.frame_range(index)

    def frames_for(self, t: Selection = None, b: Selection = None, window: WindowLike | None = None) -> list[int]:
        """Indices of the frames a read of t, b and window needs, increasing."""
        ts, bs, win = self._plan(t, b, window)
        rows, cols = (win.row_off, win.row_off + win.height), (win.col_off, win.col_off + win.width)
        out: set[int] = set()
        for ti in sorted(set(ts)):
            out.update(self.native.frames_for((ti, ti + 1), sorted(set(bs)), rows, cols))
        return sorted(out)

    def _tr(self) -> _rumi.TrailerInfo:
        if self._trailer is None:
            self._trailer = self.native.trailer()
        return self._trailer

    def _geo(self) -> _rumi.GeoInfo | None:
        if not self._fetched:
            g = self.native.georef()
            if g is not None:
                check_registered(g.epsg)
            self._georef = g
            self._fetched = True
        return self._georef

    @property
    def bands(self) -> list[str]:
        """Band texts."""
        return list(self._tr().band_texts)

    @property
    def time_kind(self) -> str:
        """'instant' or 'interval'."""
        return self._tr().time_kind

    @property
    def times(self) -> np.ndarray[Any, np.dtype[np.datetime64]]:
        """datetime64[s] instants (T,), or (T, 2) start/end pairs for intervals."""
        tr = self._tr()
        a = np.array(tr.seconds, dtype="int64").astype("datetime64[s]")
        return a.reshape(-1, 2) if tr.time_kind == "interval" else a

    @property
    def epsg(self) -> int | None:
        """The EPSG code, or None (undefined georeferencing)."""
        g = self._geo()
        return None if g is None else g.epsg

    @property
    def crs(self) -> str | None:
        """'EPSG:n' or None. When pyproj is installed the code is checked against PROJ's EPSG
        database on first use (FormatError naming it when unknown)."""
        g = self._geo()
        return None if g is None else f"EPSG:{g.epsg}"

    @property
    def crs_type(self) -> str | None:
        """'projected', 'geographic' or None, as recorded in the file."""
        g = self._geo()
        return None if g is None else g.crs_type

    @property
    def pixel_is_point(self) -> bool:
        g = self._geo()
        return g is not None and g.raster_type == "point"

    @property
    def geotransform(self) -> tuple[float, float, float, float, float, float] | None:
        """GDAL-order geotransform (x0, xres, row_rot, y0, col_rot, yres) of pixel corners, or None
        (PixelIsPoint files are shifted by half a pixel, as GDAL reports them)."""
        g = self._geo()
        return None if g is None else g.geotransform

    @property
    def transform(self) -> Affine | None:
        """The affine.Affine of pixel corners (as rasterio's `transform`), or None; PixelIsPoint
        files are shifted by half a pixel, as GDAL and rasterio report them. `geotransform`
        gives the GDAL 6-tuple."""
        gt = self.geotransform
        if gt is None:
            return None
        from affine import Affine

        return Affine.from_gdal(*gt)

    # -- rasterio's names -----------------------------------------------------------------
    @property
    def nodatavals(self) -> tuple[float | None, ...]:
        """Per band, its nodata value (a float) or None, as rasterio's `nodatavals`: from the PAM
        sidecar `<path>.aux.xml` (local, or the object beside a URL) that every rumi writer given
        nodata writes (the format has no nodata field). Read once, on first use."""
        if self._nodata is None:
            from ._nodata import pam_nodata

            vals = pam_nodata(self._src, self.shape[1], options=self._options)
            self._nodata = tuple(vals) if vals is not None else (None,) * self.shape[1]
        return self._nodata

    @property
    def nodata(self) -> float | None:
        """The first band's nodata value, or None (rasterio's `nodata`); `nodatavals` has every band's."""
        return self.nodatavals[0] if self.nodatavals else None

    @property
    def scaling(self) -> Scaling:
        """Per band scale, offset and unit (rumi._scale.Scaling: rasterio's defaults 1.0, 0.0, None
        where none is recorded), from the PAM sidecar `<path>.aux.xml` that every rumi writer
        given them writes (the format has no such field: samples are stored raw; a value is
        `raw * scale + offset` in `unit`). Read once, on first use."""
        if self._scaling is None:
            from ._scale import read

            self._scaling = read(self._src, self.shape[1], options=self._options) or Scaling.none(self.shape[1])
        return self._scaling

    @property
    def scales(self) -> tuple[float, ...]:
        """Per band, its scale (1.0: none), as rasterio's `scales`: a value is `raw * scale + offset`."""
        return self.scaling.scales

    @property
    def offsets(self) -> tuple[float, ...]:
        """Per band, its offset (0.0: none), as rasterio's `offsets`."""
        return self.scaling.offsets

    @property
    def units(self) -> tuple[str | None, ...]:
        """Per band, the unit of its values (None: none), as rasterio's `units`."""
        return self.scaling.units

    @property
    def count(self) -> int:
        """Number of bands (B), as rasterio's `count`; a Cube's time steps are `shape[0]`."""
        return self.shape[1]

    @property
    def dtypes(self) -> tuple[str, ...]:
        """The sample type's name per band, as rasterio's `dtypes`."""
        return (str(self.dtype),) * self.shape[1]

    @property
    def indexes(self) -> tuple[int, ...]:
        """rasterio's 1-based band numbers (1..count); rumi itself numbers bands from 0."""
        return tuple(range(1, self.shape[1] + 1))

    @property
    def grid(self) -> Grid:
        """The pixel grid (rumi.Grid: CRS, transform of pixel corners, (height, width));
        RequestError for undefined georeferencing."""
        return self._grid("grid")

    def _grid(self, what: str) -> Grid:
        gt = self.geotransform
        if gt is None:
            raise RequestError(f"{self._src} has undefined georeferencing: no {what}")
        return Grid.from_gdal(self.crs, gt, (self.height, self.width))

    @property
    def res(self) -> tuple[float, float]:
        """(x, y) size of a pixel in CRS units, positive, as rasterio's `res`."""
        return self._grid("resolution").res

    @property
    def bounds(self) -> BoundingBox:
        """BoundingBox(left, bottom, right, top) of the pixel corners in CRS units, as rasterio's
        (to the last bit; a south-up grid's bottom is above its top, as there)."""
        return self._grid("bounds").rasterio_bounds

    def index(self, x: Any, y: Any, op: Any = math.floor) -> tuple[Any, Any]:
        """(row, col) of the pixel holding the point (x, y) in CRS units (arrays work too), as
        rasterio's `index`; `op` rounds the fractional pixel position (default math.floor)."""
        cols, rows = self._grid("pixel index").colrow(x, y)
        if np.ndim(rows) == 0:
            return int(op(float(rows))), int(op(float(cols)))
        f = np.vectorize(lambda v: int(op(v)), otypes=[np.int64])
        return f(rows), f(cols)

    def xy(self, row: Any, col: Any, offset: str = "center") -> tuple[Any, Any]:
        """(x, y) in CRS units of a pixel's centre (offset="center") or corner ("ul", "ur",
        "ll", "lr"), as rasterio's `xy`; arrays work too."""
        shifts = {"center": (0.5, 0.5), "ul": (0.0, 0.0), "ur": (1.0, 0.0), "ll": (0.0, 1.0), "lr": (1.0, 1.0)}
        if offset not in shifts:
            raise ValueError(f"offset must be one of {sorted(shifts)}, not {offset!r}")
        dc, dr = shifts[offset]
        xs, ys = self._grid("coordinates").xy(np.asarray(col, dtype="float64") + dc, np.asarray(row, dtype="float64") + dr)
        if np.ndim(xs) == 0:
            return float(xs), float(ys)
        return xs, ys

    @property
    def name(self) -> str:
        """The path or URL (rasterio's `name`)."""
        return self._src

    @property
    def descriptions(self) -> tuple[str, ...]:
        """The band texts (rasterio's `descriptions`)."""
        return tuple(self.bands)

    def window(self, left: float, bottom: float, right: float, top: float) -> Window:
        """The rumi.Window of pixels covering the bounds (CRS units), as rasterio's `window`
        (rounded outwards to whole pixels; it may reach outside the raster)."""
        return from_bounds(left, bottom, right, top, self._grid("window").transform)

    def window_transform(self, window: WindowLike) -> Affine:
        """The affine.Affine of a window's pixel corners (rasterio's `window_transform`)."""
        return self._grid("window transform").window_transform(as_window(window))

    @property
    def profile(self) -> dict[str, Any]:
        """rasterio's `profile` keys for this file (driver "RUMI", the GDAL driver's name; crs
        as "EPSG:n"; blockxsize/blockysize the tile; count the bands of one time step)."""
        tl, tw = self.tile_shape
        return {
            "driver": "RUMI",
            "dtype": str(self.dtype),
            "nodata": self.nodata,
            "width": self.width,
            "height": self.height,
            "count": self.count,
            "crs": self.crs,
            "transform": self.transform,
            "blockxsize": tw,
            "blockysize": tl,
            "tiled": True,
        }

    @property
    def meta(self) -> dict[str, Any]:
        """rasterio's `meta`: driver, dtype, nodata, width, height, count, crs, transform."""
        p = self.profile
        return {k: p[k] for k in ("driver", "dtype", "nodata", "width", "height", "count", "crs", "transform")}

    def __repr__(self) -> str:
        state = ", closed" if self._native is None else ""
        return f"rumi.Dataset({self._src!r}, shape={self.shape}, encoding={self.encoding}{state})"

    # -- reading ----------------------------------------------------------------------------
    def _plan(
        self, t: Selection, b: BandSelection, window: WindowLike | None
    ) -> tuple[list[int], list[int], Window]:
        T, B, Y, X = self.shape
        ts, bs = _select(t, T, "t"), _select(self._band_indices(b), B, "b")
        return ts, bs, within(window, Y, X)

    def _band_indices(self, b: BandSelection) -> Selection:
        """Band texts (one, or a list) -> their 0-based indices; anything else unchanged."""
        if isinstance(b, str):
            names: list[str] = [b]
        elif isinstance(b, (list, tuple)) and b and all(isinstance(v, str) for v in b):
            names = list(b)
        else:
            return cast(Selection, b)
        bands = self.bands
        out = []
        for name in names:
            if name not in bands:
                raise RequestError(f"b={name!r}: no band has that text; the bands are {bands}")
            out.append(bands.index(name))
        return out[0] if isinstance(b, str) else out

    def _read_into(self, target: Any, ts: list[int], bs: list[int], win: Window, threads: int | None) -> dict[str, int]:
        native = self.native
        r0, c0, h, w = win.row_off, win.col_off, win.height, win.width
        if not ts or not bs or h == 0 or w == 0:
            return {"frames": 0, "cache_hits": 0, "decoded": 0, "batches": 0, "bytes_fetched": 0}
        stats = native.read_into(target, ts, bs, (r0, r0 + h), (c0, c0 + w), int(threads or self.threads))
        self._after_read(stats)
        return stats

    def _after_read(self, stats: dict[str, int]) -> None:
        """Keeps a read's statistics; after the first read that fetched the file's size, checks
        a header blob whose check was deferred at open (no request to learn the size then)."""
        self.last_stats = stats
        name = self._unchecked_blob
        if name is not None and self.native.can_check_blob():
            self._unchecked_blob = None
            reason = self.native.check_blob()
            if reason:
                raise FormatError(f"header blob {name} does not describe {self._src}: {reason}")

    def read(
        self,
        *args: Any,
        t: Selection = None,
        b: BandSelection = None,
        window: WindowLike | None = None,
        out: Any = None,
        threads: int | None = None,
        boundless: bool = False,
        fill_value: Any = None,
        masked: bool = False,
        **kwargs: Any,
    ) -> Any:
        """Samples of time steps t, bands b (0-based indices, or band texts: b="red",
        b=["nir", "red"]) and window (a rumi.Window(col_off, row_off, width, height), a rasterio
        Window, or a tuple (row_off, col_off, height, width)) as a (T, B, h, w) array of the exact
        sample type. out: a writable C-contiguous buffer (numpy array of the same dtype, or any
        buffer-protocol object of the right size) to decode into; it is returned.
        boundless=True (rasterio's): the window may reach outside the raster; samples outside
        are fill_value (default: the band's nodata, else 0). masked=True (rasterio's): a
        numpy masked array whose mask is True where a sample is its band's nodata (nothing is
        masked in a band without nodata).

        Arguments are keywords: rasterio's positional read(1) means band 1 (1-based), which
        rumi spells read(b=0)."""
        if args:
            shown = ", ".join(repr(a) for a in args)
            raise TypeError(
                f"Dataset.read({shown}): rumi's read takes keywords, read(t=..., b=..., window=...), with "
                "time steps and bands numbered from 0 (or bands by text, b='red'); rasterio's read(1) "
                "(band 1) is read(b=0), read([3, 2, 1]) is read(b=[2, 1, 0])"
            )
        if kwargs:
            k = next(iter(kwargs))
            hint = {
                "indexes": "bands are b= (0-based, or band texts)",
                "out_shape": "rumi reads at full resolution; resample after reading",
                "out_dtype": "rumi never casts; use .astype() on the result",
            }.get(k, "see help(rumi.Dataset.read)")
            raise TypeError(f"Dataset.read got an unexpected keyword argument {k!r}: {hint}")
        if masked:
            if out is not None:
                raise ValueError("masked=True returns a new masked array: it does not take out=")
            a = self.read(t=t, b=b, window=window, threads=threads, boundless=boundless, fill_value=fill_value)
            return self._masked(a, b, boundless, window)
        if boundless:
            return self._read_boundless(t, b, window, out, threads, fill_value)
        if fill_value is not None:
            raise ValueError("fill_value is used only with boundless=True")
        ts, bs, win = self._plan(t, b, window)
        if out is None:
            arr = np.empty((len(ts), len(bs), win.height, win.width), dtype=self.dtype)
            self._read_into(arr.reshape(-1).view(np.uint8), ts, bs, win, threads)
            return arr.view(Array)
        self._read_out(out, ts, bs, win, threads)
        return out

    def _masked(self, a: Any, b: BandSelection, boundless: bool, window: WindowLike | None) -> Any:
        """rasterio's masked read: the mask is True where a sample is its band's nodata and, in a
        boundless read, wherever the window lies beyond the raster (whatever fill_value)."""
        from ._nodata import masked

        T, B, Y, X = self.shape
        bs = _select(self._band_indices(b), B, "b")
        outside = None
        if boundless:
            win = as_window(window) if window is not None else Window(0, 0, X, Y)
            rows = np.arange(win.row_off, win.row_off + win.height)
            cols = np.arange(win.col_off, win.col_off + win.width)
            outside = ((rows < 0) | (rows >= Y))[:, None] | ((cols < 0) | (cols >= X))[None, :]
        return masked(np.asarray(a), [self.nodatavals[bi] for bi in bs], 1, outside)

    def _read_boundless(
        self, t: Selection, b: Any, window: WindowLike | None, out: Any, threads: int | None, fill_value: Any
    ) -> Any:
        T, B, Y, X = self.shape
        ts, bs = _select(t, T, "t"), _select(self._band_indices(b), B, "b")
        win = as_window(window)
        arr = np.empty((len(ts), len(bs), win.height, win.width), dtype=self.dtype)
        for i, bi in enumerate(bs):
            fill = fill_value if fill_value is not None else self.nodatavals[bi]
            arr[:, i] = 0 if fill is None else fill
        inner = win.crop(Y, X)
        if inner.height and inner.width:
            part = np.empty((len(ts), len(bs), inner.height, inner.width), dtype=self.dtype)
            self._read_into(part.reshape(-1).view(np.uint8), ts, bs, inner, threads)
            r, c = inner.row_off - win.row_off, inner.col_off - win.col_off
            arr[:, :, r:r + inner.height, c:c + inner.width] = part
        if out is None:
            return arr.view(Array)
        dst = out if isinstance(out, np.ndarray) else np.frombuffer(memoryview(out), dtype=self.dtype)
        if dst.dtype != self.dtype or dst.size != arr.size:
            raise ValueError(f"out must hold {arr.size} samples of {self.dtype}")
        dst.reshape(-1)[:] = arr.reshape(-1)
        return out

    def read_into(
        self,
        out: Any,
        t: Selection = None,
        b: Selection = None,
        window: WindowLike | None = None,
        *,
        threads: int | None = None,
    ) -> dict[str, int]:
        """Like read(out=out), returning this read's planner statistics (frames, cache_hits,
        decoded, batches, bytes_fetched): safe when threads share the dataset, unlike last_stats.
        `out` may be any writable C-contiguous buffer of the read's byte size (e.g. a memoryview
        of a torch tensor's memory)."""
        ts, bs, win = self._plan(t, b, window)
        return self._read_out(out, ts, bs, win, threads)

    def _read_out(self, out: Any, ts: list[int], bs: list[int], win: Window, threads: int | None) -> dict[str, int]:
        shape = (len(ts), len(bs), win.height, win.width)
        nbytes = math.prod(shape) * self._info.sample_bytes
        if isinstance(out, np.ndarray):
            if out.dtype != self.dtype:
                raise TypeError(f"out has dtype {out.dtype}, the samples are {self.dtype} (rumi never casts)")
            if out.shape != shape and out.size != math.prod(shape):
                raise ValueError(f"out has shape {out.shape}, the read gives {shape}")
            if not out.flags.c_contiguous or not out.flags.writeable:
                raise ValueError("out must be a writable C-contiguous array")
            return self._read_into(out.reshape(-1).view(np.uint8), ts, bs, win, threads)
        mv = memoryview(out)
        if mv.readonly or not mv.c_contiguous:
            raise ValueError("out must be a writable C-contiguous buffer")
        if mv.nbytes != nbytes:
            raise ValueError(f"out has {mv.nbytes} bytes, the read needs {nbytes}")
        return self._read_into(mv.cast("B") if mv.ndim else mv, ts, bs, win, threads)

    def read_tensor(
        self, t: Selection = None, b: Selection = None, window: WindowLike | None = None, *, threads: int | None = None
    ) -> Tensor:
        """Like read, into rumi-owned memory exported by DLPack (works for every encoding,
        bfloat16/float8 without ml_dtypes and complex32 included)."""
        ts, bs, win = self._plan(t, b, window)
        shape = (len(ts), len(bs), win.height, win.width)
        storage = np.empty(math.prod(shape) * self._info.sample_bytes, dtype=np.uint8)
        self._read_into(storage, ts, bs, win, threads)
        return Tensor(storage, shape, self.encoding)

    def __getitem__(self, key: Any) -> Any:
        if not isinstance(key, tuple):
            key = (key,)
        if len(key) > 4:
            raise IndexError(f"a rumi Dataset has 4 axes (t, b, y, x), got {len(key)} indices")
        key = key + (slice(None),) * (4 - len(key))
        T, B, Y, X = self.shape
        squeeze = []
        spatial = []
        for ax, (k, n) in enumerate(zip(key[2:], (Y, X)), start=2):
            if isinstance(k, (int, np.integer)):
                i = int(k)
                if not -n <= i < n:
                    raise IndexError(f"index {i} is outside axis {ax} of size {n}")
                spatial.append((i % n, 1))
                squeeze.append(ax)
            elif isinstance(k, slice):
                start, stop, step = k.indices(n)
                if step != 1:
                    raise IndexError("y and x slices must have step 1")
                spatial.append((start, max(0, stop - start)))
            else:
                raise IndexError("y and x take an int or a slice")
        for ax, (k, n) in enumerate(zip(key[:2], (T, B))):
            if isinstance(k, (int, np.integer)):
                if not -n <= int(k) < n:  # IndexError: what iteration and numpy's sequence protocol expect
                    raise IndexError(f"index {int(k)} is outside axis {ax} ({'time' if ax == 0 else 'band'}) of size {n}")
                squeeze.append(ax)
        (r0, h), (c0, w) = spatial
        a = self.read(t=key[0], b=key[1], window=Window(c0, r0, w, h))
        return a.reshape([s for i, s in enumerate(a.shape) if i not in squeeze]) if squeeze else a

    def __len__(self) -> int:
        """The number of time steps (the first axis of `ds[...]` and of np.asarray(ds))."""
        return self.shape[0]

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray[Any, Any]:
        """np.asarray(ds): every sample, (T, B, Y, X)."""
        a = np.asarray(self.read())
        return a if dtype is None else a.astype(dtype, copy=False)


#: what the first bytes of a file that is not rumi say it is
_OTHER_FORMATS = ((b"II*\x00", "a TIFF (GeoTIFF, COG)"), (b"MM\x00*", "a TIFF (GeoTIFF, COG)"),
                  (b"II+\x00", "a BigTIFF"), (b"MM\x00+", "a BigTIFF"), (b"\x89HDF", "an HDF5 / netCDF-4 file"),
                  (b"CDF", "a netCDF file"), (b"PAR1", "a Parquet file"), (b"\x89PNG", "a PNG image"))


def _naming(e: RumiError, src: str) -> RumiError:
    """An error of opening `src` that names it: the path first when the core's message does
    not; a folder, an empty file or another format said in words."""
    msg = str(e)
    if Location.parse(src).scheme == "file":
        what = None
        if os.path.isdir(src):
            what = "is a folder, not a rumi file"
        elif os.path.isfile(src) and os.path.getsize(src) == 0:
            what = "is empty (0 bytes), not a rumi file"
        elif os.path.isfile(src):
            with io.open(src, "rb") as f:
                head = f.read(8)
            kind = next((k for magic, k in _OTHER_FORMATS if head.startswith(magic)), None)
            if kind is not None:
                what = (f"is {kind}, not a rumi file: read it with rasterio, or convert it with "
                        "`rumi convert SRC OUT.rumi`")
        if what is not None:
            return type(e)(f"{src} {what} ({msg})")
    return e if src in msg else type(e)(f"{src}: {msg}")


def _reopen(
    src: str, blob: bytes, limits: dict[str, int] | None, options: dict[str, Any] | None, threads: int
) -> Dataset:
    return Dataset(src, limits=limits, options=options, threads=threads, _trusted_blob=blob)


def open(  # noqa: A001
    src: PathLike,
    header: bytes | bytearray | memoryview | PathLike | None = None,
    *,
    limits: dict[str, int] | None = None,
    options: dict[str, Any] | None = None,
    threads: int | None = None,
) -> Dataset:
    """Opens a rumi file: a path, an http(s):// URL or s3://bucket/key (credentials and endpoint
    from the AWS_* environment variables, AWS_ENDPOINT_URL included).

    header: the header blob as bytes, or a path/URL of it. Without it a local <src>.header
    sidecar is used when present (a stale one is ignored with a warning), otherwise the file is
    parsed and validated. With a blob, nothing but frames is read until metadata is asked for
    (a blob that does not match the file is a FormatError: at open for local files, after the
    first read for remote ones).
    limits: resource limits (max_frame_bytes, max_frames, max_trailer_bytes, max_time_coords,
    max_bands, max_read_bytes). options: object storage client: timeout, connect_timeout,
    retry_timeout, backoff (seconds), max_retries, coalesce (bytes: ranges closer than this
    are fetched as one request; default 0, one request per run of adjacent frames).
    threads: decoding threads per read (default: the CPU count, at most 16)."""
    return Dataset(src, header, limits=limits, options=options, threads=threads)


def read_batch(outs: Sequence[Any], jobs: Sequence[tuple[Dataset, int, list[int], list[int], Window, int]],
               threads: int) -> dict[str, int]:
    """Many windows of many open datasets in one native call (the GIL released once; each
    dataset's reads in order, the datasets side by side on `threads` threads): each job
    (dataset, out, times, bands, window, origin) writes its window (t-major, C order, as
    read_into; a Window inside the file, unchecked here: the core checks every request) at byte
    `origin` of the writable C-contiguous buffer outs[out]. Places must not overlap. Returns the
    summed planner statistics."""
    native = [(ds.native, o, ts, bs, (w.row_off, w.row_off + w.height), (w.col_off, w.col_off + w.width), org)
              for ds, o, ts, bs, w, org in jobs]
    stats = _rumi.read_batch(list(outs), native, int(threads))
    for ds in {id(j[0]): j[0] for j in jobs}.values():
        ds._after_read(stats)
    return stats
