"""rumi: read and write rumi stateless rasters without GDAL.

    ds = rumi.open("scene.rumi")                 # or http(s)://..., s3://bucket/key
    ds.shape, ds.dtype, ds.bands, ds.times, ds.crs, ds.transform
    a = ds.read(t=0, b=[2, 1, 0], window=(0, 0, 256, 256))   # (T, B, h, w), exact sample type
    torch.from_dlpack(a)                         # no copy

    rumi.write("out.rumi", array, bands=["red"], times=["2020-05-18"], crs="EPSG:32633",
               transform=(x0, 10.0, 0.0, y0, 0.0, -10.0))
"""

from __future__ import annotations

import datetime as _dt
import math
import os
import threading
import warnings

import numpy as np

from . import _rumi
from ._errors import FormatError, LimitError, RequestError, RumiError, RumiIOError, UnsupportedError

__all__ = [
    "open",
    "write",
    "Dataset",
    "Array",
    "Tensor",
    "RumiError",
    "FormatError",
    "LimitError",
    "UnsupportedError",
    "RumiIOError",
    "RequestError",
    "CRS_TYPES",
    "crs_type",
]

try:  # bfloat16 / float8 as numpy dtypes
    import ml_dtypes as _ml
except ImportError:  # pragma: no cover - exercised by a test that hides the module
    _ml = None

_NUMPY_TYPES = {
    "bool": "bool",
    "uint8": "uint8",
    "uint16": "uint16",
    "uint32": "uint32",
    "uint64": "uint64",
    "int8": "int8",
    "int16": "int16",
    "int32": "int32",
    "int64": "int64",
    "float16": "float16",
    "float32": "float32",
    "float64": "float64",
    "complex64": "complex64",
    "complex128": "complex128",
}
_ML_TYPES = ("bfloat16", "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e8m0fnu")


def _ml_module():
    return _ml


_DTYPES = {}  # encoding -> numpy dtype, for the types numpy always has (read() asks on every call)


def numpy_dtype(encoding: str) -> np.dtype:
    """The numpy dtype of a rumi sample encoding; UnsupportedError when numpy has none here."""
    dt = _DTYPES.get(encoding)
    if dt is not None:
        return dt
    if encoding in _NUMPY_TYPES:
        dt = _DTYPES[encoding] = np.dtype(_NUMPY_TYPES[encoding])
        return dt
    if encoding in _ML_TYPES:
        ml = _ml_module()
        if ml is None or not hasattr(ml, encoding):
            raise UnsupportedError(
                f"{encoding} samples need the ml_dtypes package to become a numpy array "
                "(pip install ml_dtypes); without it, read them with Dataset.read_tensor() and DLPack"
            )
        return np.dtype(getattr(ml, encoding))
    if encoding == "complex32":
        raise UnsupportedError(
            "complex32 (complex with float16 parts) has no numpy dtype; read it with Dataset.read_tensor() and DLPack"
        )
    raise UnsupportedError(f"unknown sample encoding {encoding!r}")


def encoding_of(dtype) -> str:
    """The rumi encoding name of a numpy dtype (TypeError when rumi cannot store it)."""
    dt = np.dtype(dtype)
    if dt.byteorder == ">" or (dt.byteorder == "=" and not np.little_endian):
        raise TypeError(f"dtype {dt} is big-endian; rumi stores little-endian samples (use .astype('<...'))")
    for enc, name in _NUMPY_TYPES.items():
        if dt == np.dtype(name):
            return enc
    ml = _ml_module()
    if ml is not None:
        for enc in _ML_TYPES:
            if hasattr(ml, enc) and dt == np.dtype(getattr(ml, enc)):
                return enc
    raise TypeError(f"rumi has no sample encoding for numpy dtype {dt}")


# ---------------------------------------------------------------------------------------------
# DLPack


def _dlpack(buffer, shape, encoding, max_version):
    versioned = max_version is not None and tuple(max_version)[0] >= 1
    return _rumi.dlpack_capsule(buffer, [int(s) for s in shape], encoding, versioned)


def _check_dlpack_args(stream, dl_device, copy):
    if stream is not None and stream != -1:
        raise BufferError("rumi arrays live in CPU memory: stream must be None")
    if dl_device is not None and tuple(dl_device)[0] != 1:
        raise BufferError("rumi arrays live in CPU memory (kDLCPU)")
    if copy is True:
        raise BufferError("rumi exports without copying (copy=True is not supported)")


class Array(np.ndarray):
    """A numpy array of decoded samples whose __dlpack__ uses the rumi spec's DLPack types
    (bool, bfloat16 and every float8 included), without a copy."""

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        _check_dlpack_args(stream, dl_device, copy)
        if not self.flags.c_contiguous:
            raise BufferError("DLPack export of rumi arrays needs a C-contiguous array (use np.ascontiguousarray)")
        enc = encoding_of(self.dtype)
        return _dlpack(self.view(np.ndarray).reshape(-1).view(np.uint8), self.shape, enc, max_version)

    def __dlpack_device__(self):
        return (1, 0)


class Tensor:
    """Decoded samples in rumi's own memory for encodings numpy may lack (bfloat16/float8
    without ml_dtypes, complex32): `shape`, `encoding`, DLPack export, `numpy()`."""

    def __init__(self, storage: np.ndarray, shape, encoding: str):
        self._storage = storage
        self.shape = tuple(shape)
        self.encoding = encoding

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        _check_dlpack_args(stream, dl_device, copy)
        return _dlpack(self._storage, self.shape, self.encoding, max_version)

    def __dlpack_device__(self):
        return (1, 0)

    def numpy(self) -> Array:
        return self._storage.view(numpy_dtype(self.encoding)).reshape(self.shape).view(Array)

    def __repr__(self):
        return f"rumi.Tensor(shape={self.shape}, encoding={self.encoding})"


# ---------------------------------------------------------------------------------------------
# Reading


def _is_url(s: str) -> bool:
    return s.startswith(("http://", "https://", "s3://"))


def _select(sel, n, axis):
    """An int, slice, list/array of ints or None -> list of indices in 0..n."""
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
        items = list(sel)
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


def _default_threads():
    return max(1, min(os.cpu_count() or 1, 16))


class Dataset:
    """An open rumi file (see rumi.open). Thread-safe, fork-safe and picklable (path + blob)."""

    def __init__(self, src, header=None, *, limits=None, options=None, threads=None, _trusted_blob=None):
        self._src = os.fspath(src) if not isinstance(src, str) else src
        self._limits = dict(limits) if limits else None
        self._options = dict(options) if options else None
        self.threads = int(threads) if threads is not None else _default_threads()
        if self.threads < 1:
            raise ValueError("threads must be >= 1")
        self._lock = threading.Lock()
        self._georef = self._trailer = None
        self._fetched = False
        #: the core planner's statistics of the latest read (frames, cache_hits, decoded,
        #: batches, bytes_fetched); informational (shared by threads reading concurrently)
        self.last_stats = None
        if _trusted_blob is not None:
            self._native = self._open_native(_trusted_blob)
        else:
            self._native = self._open(header)
        self._pid = os.getpid()
        self._layout = self._native.layout()

    # -- opening --------------------------------------------------------------------------
    def _open_native(self, blob):
        return _rumi.NativeReader(self._src, None if blob is None else bytes(blob), self._limits, self._options)

    def _open(self, header):
        local = not _is_url(self._src)
        if header is not None:
            if isinstance(header, (bytes, bytearray, memoryview)):
                blob, name = bytes(header), "header= (bytes)"
            else:
                hp = os.fspath(header)
                name = f"header {hp}"
                try:
                    blob = _fetch(hp, self._options)
                except OSError as e:
                    if isinstance(e, RumiError):
                        raise
                    raise RumiIOError(f"{name}: {e}") from None
            try:
                native = self._open_native(blob)
            except (FormatError, LimitError) as e:
                raise type(e)(f"{name} does not describe {self._src}: {e}") from None
            if native.can_check_blob():
                reason = native.check_blob()
                if reason:
                    raise FormatError(f"{name} does not describe {self._src}: {reason}")
            else:  # remote: checked after the first read (its response gives the size), no HEAD
                self._unchecked_blob = name
            return native
        sidecar = self._src + ".header"
        if local and os.path.isfile(sidecar):
            try:
                with builtins_open(sidecar, "rb") as f:
                    blob = f.read()
                native = self._open_native(blob)
                reason = native.check_blob()
            except (FormatError, LimitError, OSError) as e:
                if isinstance(e, RumiIOError) and not os.path.exists(self._src):
                    raise
                reason = str(e)
            if not reason:
                return native
            warnings.warn(
                f"rumi: ignoring the header sidecar {sidecar} ({reason}); parsing {self._src} instead",
                RuntimeWarning,
                stacklevel=4,
            )
        return self._open_native(None)

    @property
    def native(self):
        """The native reader of this process (rebuilt from the blob in a forked child)."""
        if os.getpid() != self._pid:
            with self._lock:
                if os.getpid() != self._pid:
                    old = self._native
                    self._native = self._open_native(old.header())
                    if getattr(self, "_cache_bytes", None) is not None:
                        self._native.set_cache_bytes(self._cache_bytes)
                    self._pid = os.getpid()
                    _INHERITED.append(old)  # never dropped in the child (shared sockets/fds)
        return self._native

    # -- pickling: path + blob, never the data ----------------------------------------------
    def __reduce__(self):
        return (_reopen, (self._src, bytes(self.header), self._limits, self._options, self.threads))

    def __getstate__(self):  # pragma: no cover - __reduce__ is used
        raise TypeError("rumi.Dataset pickles through __reduce__")

    # -- metadata ---------------------------------------------------------------------------
    @property
    def shape(self):
        """(T, B, Y, X)"""
        l = self._layout
        return (l["times"], l["bands"], l["length"], l["width"])

    @property
    def encoding(self) -> str:
        return self._layout["encoding"]

    @property
    def dtype(self) -> np.dtype:
        """numpy dtype of the samples (bfloat16/float8 via ml_dtypes)."""
        return numpy_dtype(self.encoding)

    @property
    def tile_shape(self):
        return (self._layout["tile_length"], self._layout["tile_width"])

    @property
    def frame_unit(self) -> int:
        return self._layout["frame_unit"]

    @property
    def frame_count(self) -> int:
        return self._layout["frame_count"]

    @property
    def frame_holds_all_planes(self) -> bool:
        """True when each frame holds every band and time step of its tile (frame_unit != 0)."""
        return self._layout["frame_unit"] != 0

    @property
    def header(self) -> bytes:
        """The header blob's bytes."""
        return self.native.header()

    def set_cache_bytes(self, nbytes: int):
        """Budget of the decoded-frame cache (LRU) that serves repeated frames; 0 disables it."""
        self._cache_bytes = int(nbytes)
        self.native.set_cache_bytes(int(nbytes))

    def frame_range(self, index):
        return self.native.frame_range(index)

    def _tr(self):
        if self._trailer is None:
            self._trailer = self.native.trailer()
        return self._trailer

    def _geo(self):
        if not self._fetched:
            self._georef = self.native.georef()
            self._fetched = True
        return self._georef

    @property
    def bands(self):
        """Band texts."""
        return list(self._tr()[0])

    @property
    def time_kind(self) -> str:
        return self._tr()[1]

    @property
    def times(self) -> np.ndarray:
        """datetime64[s] instants (T,), or (T, 2) start/end pairs for intervals."""
        _, kind, secs, _ = self._tr()
        a = np.array(secs, dtype="int64").astype("datetime64[s]")
        return a.reshape(-1, 2) if kind == "interval" else a

    @property
    def crs(self):
        """'EPSG:n' or None."""
        g = self._geo()
        return None if g is None else f"EPSG:{g[0]}"

    @property
    def crs_type(self):
        """'projected', 'geographic' or None, as recorded in the file."""
        g = self._geo()
        return None if g is None else g[1]

    @property
    def pixel_is_point(self) -> bool:
        g = self._geo()
        return g is not None and g[2] == "point"

    @property
    def transform(self):
        """GDAL-order geotransform (x0, xres, row_rot, y0, col_rot, yres) of pixel corners, or None
        (PixelIsPoint files are shifted by half a pixel, as GDAL reports them)."""
        g = self._geo()
        if g is None:
            return None
        a, b, c, d, e, f = g[3]
        gt = [c, a, b, f, d, e]
        if g[2] == "point":
            gt[0] -= 0.5 * a + 0.5 * b
            gt[3] -= 0.5 * d + 0.5 * e
        return tuple(gt)

    def __repr__(self):
        return f"rumi.Dataset({self._src!r}, shape={self.shape}, encoding={self.encoding})"

    # -- reading ----------------------------------------------------------------------------
    def _plan(self, t, b, window):
        T, B, Y, X = self.shape
        ts, bs = _select(t, T, "t"), _select(b, B, "b")
        if window is None:
            r0, c0, h, w = 0, 0, Y, X
        else:
            try:
                r0, c0, h, w = (int(v) for v in window)
            except (TypeError, ValueError):
                raise TypeError("window must be (row_off, col_off, height, width)") from None
            if min(r0, c0, h, w) < 0 or r0 + h > Y or c0 + w > X:
                raise RequestError(f"window {tuple(window)} (row_off, col_off, height, width) is outside the {Y}x{X} raster")
        return ts, bs, r0, c0, h, w

    def _read_into(self, target, ts, bs, r0, c0, h, w, threads):
        if not ts or not bs or h == 0 or w == 0:
            return
        self.last_stats = self.native.read_into(target, ts, bs, (r0, r0 + h), (c0, c0 + w),
                                                int(threads or self.threads))
        name = self.__dict__.get("_unchecked_blob")
        if name is not None and self.native.can_check_blob():
            del self.__dict__["_unchecked_blob"]
            reason = self.native.check_blob()
            if reason:
                raise FormatError(f"{name} does not describe {self._src}: {reason}")

    def read(self, t=None, b=None, window=None, out=None, *, threads=None):
        """Samples of time steps t, bands b and window (row_off, col_off, height, width) as a
        (T, B, h, w) array of the exact sample type. out: a writable C-contiguous buffer (numpy
        array of the same dtype, or any buffer-protocol object of the right size) to decode into."""
        ts, bs, r0, c0, h, w = self._plan(t, b, window)
        shape = (len(ts), len(bs), h, w)
        bps = self._layout["sample_bytes"]
        nbytes = math.prod(shape) * bps
        if out is None:
            arr = np.empty(shape, dtype=self.dtype)
            self._read_into(arr.reshape(-1).view(np.uint8), ts, bs, r0, c0, h, w, threads)
            return arr.view(Array)
        if isinstance(out, np.ndarray):
            if out.dtype != self.dtype:
                raise TypeError(f"out has dtype {out.dtype}, the samples are {self.dtype} (rumi never casts)")
            if out.shape != shape and out.size != math.prod(shape):
                raise ValueError(f"out has shape {out.shape}, the read gives {shape}")
            if not out.flags.c_contiguous or not out.flags.writeable:
                raise ValueError("out must be a writable C-contiguous array")
            self._read_into(out.reshape(-1).view(np.uint8), ts, bs, r0, c0, h, w, threads)
            return out
        mv = memoryview(out)
        if mv.readonly or not mv.c_contiguous:
            raise ValueError("out must be a writable C-contiguous buffer")
        if mv.nbytes != nbytes:
            raise ValueError(f"out has {mv.nbytes} bytes, the read needs {nbytes}")
        self._read_into(mv.cast("B") if mv.ndim else mv, ts, bs, r0, c0, h, w, threads)
        return out

    def read_tensor(self, t=None, b=None, window=None, *, threads=None) -> Tensor:
        """Like read, into rumi-owned memory exported by DLPack (works for every encoding,
        bfloat16/float8 without ml_dtypes and complex32 included)."""
        ts, bs, r0, c0, h, w = self._plan(t, b, window)
        shape = (len(ts), len(bs), h, w)
        storage = np.empty(math.prod(shape) * self._layout["sample_bytes"], dtype=np.uint8)
        self._read_into(storage, ts, bs, r0, c0, h, w, threads)
        return Tensor(storage, shape, self.encoding)

    def __getitem__(self, key):
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
        for ax, k in enumerate(key[:2]):
            if isinstance(k, (int, np.integer)):
                squeeze.append(ax)
        (r0, h), (c0, w) = spatial
        a = self.read(key[0], key[1], (r0, c0, h, w))
        return a.reshape([s for i, s in enumerate(a.shape) if i not in squeeze]) if squeeze else a

    def __len__(self):
        return self.shape[0]


_INHERITED = []  # native readers inherited through fork(): kept, never closed, in the child
builtins_open = open


def _reopen(src, blob, limits, options, threads):
    return Dataset(src, limits=limits, options=options, threads=threads, _trusted_blob=blob)


def _fetch(location, options=None) -> bytes:
    if _is_url(location):
        return _rumi.fetch_object(location, options)
    with builtins_open(location, "rb") as f:
        return f.read()


def open(src, header=None, *, limits=None, options=None, threads=None) -> Dataset:  # noqa: A001
    """Opens a rumi file: a path, an http(s):// URL or s3://bucket/key (credentials and endpoint
    from the AWS_* environment variables, AWS_ENDPOINT_URL included).

    header: the header blob as bytes, or a path/URL of it. Without it a local <src>.header
    sidecar is used when present (a stale one is ignored with a warning), otherwise the file is
    parsed and validated. With a blob, nothing but frames is read until metadata is asked for.
    limits: resource limits (max_frame_bytes, max_frames, max_trailer_bytes, max_time_coords,
    max_bands, max_read_bytes). options: object storage client: timeout, connect_timeout,
    retry_timeout, backoff (seconds), max_retries, coalesce (bytes: ranges closer than this
    are fetched as one request; default 0, one request per run of adjacent frames).
    threads: decoding threads per read (default: the CPU count, at most 16)."""
    return Dataset(src, header, limits=limits, options=options, threads=threads)


# ---------------------------------------------------------------------------------------------
# Writing

#: EPSG code -> "projected" | "geographic" for codes outside the built-in rules of crs_type().
#: rumi has no EPSG registry (no GDAL/PROJ): add entries here, or pass crs=("EPSG:n", "projected").
CRS_TYPES: dict[int, str] = {
    4326: "geographic",
    4258: "geographic",
    4269: "geographic",
    4267: "geographic",
    4283: "geographic",
    4674: "geographic",
    4612: "geographic",
    4167: "geographic",
    4490: "geographic",
    4019: "geographic",
    3857: "projected",
    3035: "projected",
    3031: "projected",
    3413: "projected",
    2154: "projected",
    27700: "projected",
    5070: "projected",
    6933: "projected",
}


def crs_type(epsg: int):
    """'projected'/'geographic' for a documented set of EPSG codes: CRS_TYPES, then the UTM
    zone families (WGS 84 326xx/327xx, NAD83 269xx, NAD27 267xx, ETRS89 258xx, SIRGAS 2000
    319xx, GDA94 283xx); None when unknown."""
    if epsg in CRS_TYPES:
        return CRS_TYPES[epsg]
    utm = (
        (32601, 32660),
        (32701, 32760),
        (26901, 26923),
        (26701, 26722),
        (25828, 25838),
        (31965, 31985),
        (28348, 28358),
    )
    if any(lo <= epsg <= hi for lo, hi in utm):
        return "projected"
    return None


def _parse_crs(crs):
    if crs is None:
        return None
    kind = None
    if isinstance(crs, tuple):
        if len(crs) != 2:
            raise ValueError("crs as a tuple must be (code, 'projected'|'geographic')")
        crs, kind = crs
    if isinstance(crs, (int, np.integer)):
        code = int(crs)
    elif isinstance(crs, str) and crs.upper().startswith("EPSG:") and crs[5:].isdigit():
        code = int(crs[5:])
    else:
        raise ValueError(f"crs must be 'EPSG:<code>', an int or (code, type); got {crs!r} (rumi stores EPSG CRSs only)")
    if not 1024 <= code <= 32766:
        raise ValueError(f"EPSG code {code} is outside 1024..32766")
    kind = kind or crs_type(code)
    if kind not in ("projected", "geographic"):
        raise ValueError(
            f"the CRS type of EPSG:{code} is not known to rumi (no EPSG registry without GDAL): "
            f"pass crs=('EPSG:{code}', 'projected') or ('EPSG:{code}', 'geographic'), "
            f"or add it to rumi.CRS_TYPES"
        )
    return code, kind


def _seconds(v, what):
    if isinstance(v, str):
        s = v.strip()
        if s.endswith("Z"):
            s = s[:-1]
        try:
            d = np.datetime64(s, "s")
        except ValueError:
            raise ValueError(f"{what}: {v!r} is not an ISO 8601 UTC time") from None
    elif isinstance(v, np.datetime64):
        if np.isnat(v):
            raise ValueError(f"{what} is NaT")
        d = v.astype("datetime64[s]")
        if d.astype("datetime64[ns]") != v.astype("datetime64[ns]") and v.dtype.str[-2] not in "DWMYhms":
            raise ValueError(f"{what}: {v} has sub-second precision; rumi stores whole seconds")
    elif isinstance(v, _dt.datetime):
        if v.tzinfo is not None:
            v = v.astimezone(_dt.timezone.utc).replace(tzinfo=None)
        d = np.datetime64(v, "s")
    elif isinstance(v, _dt.date):
        d = np.datetime64(v, "s")
    else:
        raise TypeError(f"{what}: {v!r} is not a time (ISO string, datetime64, datetime or (start, end))")
    return int(d.astype("int64"))


def _parse_times(times, T):
    if times is None:
        raise ValueError("times is required: one instant or (start, end) interval per time step")
    if isinstance(times, (str, np.datetime64, _dt.date)) or (isinstance(times, tuple) and T == 1 and len(times) == 2 and not isinstance(times[0], (tuple, list))):
        times = [times]
    if isinstance(times, np.ndarray):
        times = list(times) if times.ndim == 1 else [tuple(r) for r in times]
    times = list(times)
    if len(times) != T:
        raise ValueError(f"{len(times)} times given for {T} time steps")
    kinds, secs = set(), []
    for i, v in enumerate(times):
        if isinstance(v, str) and "/" in v:
            v = tuple(v.split("/", 1))
        if isinstance(v, (tuple, list, np.ndarray)):
            if len(v) != 2:
                raise ValueError(f"times[{i}] must be an instant or a (start, end) pair")
            kinds.add("interval")
            secs += [_seconds(v[0], f"times[{i}] start"), _seconds(v[1], f"times[{i}] end")]
        else:
            kinds.add("instant")
            secs.append(_seconds(v, f"times[{i}]"))
    if len(kinds) > 1:
        raise ValueError("times mixes instants and intervals")
    return kinds.pop(), secs


def write(
    path,
    data,
    *,
    bands,
    times,
    crs=None,
    transform=None,
    tile=256,
    frame_unit=None,
    level=None,
    pixel_is_point=False,
    threads=None,
) -> bytes:
    """Writes data ((B, Y, X) or (T, B, Y, X) numpy array) to path and its <path>.header sidecar,
    atomically (nothing is left on disk on failure). Returns the header blob.

    bands: one text per band. times: one instant per step (ISO string, datetime64, datetime) or
    (start, end) interval (also 'start/end'). crs: 'EPSG:n', n, or (n, 'projected'|'geographic');
    the type of codes outside rumi.crs_type()'s documented set must be given. transform: GDAL
    6-tuple (x0, xres, row_rot, y0, col_rot, yres) of pixel corners (or an affine.Affine).
    tile: int or (height, width). frame_unit: 0..9 (default by shape).
    level: OpenZL compression level (default 7) of the numeric candidate of the default graph
    (auto: per frame, the image predictors or OpenZL's numeric graph, as `rumi convert`).
    pixel_is_point: record PixelIsPoint."""
    path = os.fspath(path)
    if not isinstance(data, np.ndarray):
        raise TypeError(f"data must be a numpy array, not {type(data).__name__}")
    if data.ndim == 3:
        data = data[np.newaxis]
    if data.ndim != 4:
        raise ValueError(f"data must be (B, Y, X) or (T, B, Y, X), got {data.ndim} dimensions")
    enc = encoding_of(data.dtype)
    T, B, Y, X = data.shape
    if min(data.shape) == 0:
        raise ValueError(f"data has an empty axis: shape {data.shape}")
    if isinstance(bands, str):
        bands = [bands]
    bands = list(bands)
    if len(bands) != B or not all(isinstance(s, str) and s for s in bands):
        raise ValueError(f"bands must be {B} non-empty strings (one per band), got {bands!r}")
    kind, secs = _parse_times(times, T)
    code = _parse_crs(crs)
    if (code is None) != (transform is None):
        raise ValueError("crs and transform go together: give both (georeferenced) or neither (undefined)")
    georef = None
    if code is not None:
        if hasattr(transform, "to_gdal"):
            transform = transform.to_gdal()
        try:
            x0, xres, rrot, y0, crot, yres = (float(v) for v in transform)
        except (TypeError, ValueError):
            raise ValueError("transform must be a GDAL 6-tuple (x0, xres, row_rot, y0, col_rot, yres)") from None
        if not all(np.isfinite([x0, xres, rrot, y0, crot, yres])):
            raise ValueError("transform coefficients must be finite")
        if pixel_is_point:
            x0 += 0.5 * xres + 0.5 * rrot
            y0 += 0.5 * crot + 0.5 * yres
        georef = (code[0], code[1], "point" if pixel_is_point else "area", [xres, rrot, x0, crot, yres, y0])
    if isinstance(tile, (int, np.integer)):
        tile = (int(tile), int(tile))
    tile = tuple(int(v) for v in tile)
    if len(tile) != 2 or not all(0 < v <= 65535 for v in tile):
        raise ValueError(f"tile must be an int or (height, width) in 1..65535, got {tile!r}")
    if frame_unit is not None and not (isinstance(frame_unit, (int, np.integer)) and 0 <= frame_unit <= 9):
        raise ValueError(f"frame_unit must be an int 0..9, got {frame_unit!r}")
    level = 7 if level is None else int(level)
    if data.dtype == np.bool_:
        pass
    buf = np.ascontiguousarray(data).reshape(-1).view(np.uint8)
    if os.path.isdir(path):
        raise ValueError(f"{path} is a directory")
    try:
        return _rumi.write(
            path, buf, (T, B, Y, X), enc, bands, kind, secs, georef, tile, frame_unit, level,
            int(threads or _default_threads()),
        )
    except FormatError as e:
        raise RequestError(f"rumi.write {path}: {e}") from None



# Catalogues and the PyTorch loader (issue 16); their heavy dependencies load lazily
from .catalog import Catalog  # noqa: E402

__all__.append("Catalog")
