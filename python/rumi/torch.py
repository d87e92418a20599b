"""PyTorch chips from a rumi catalogue (issues 16, 24).

    cat = rumi.Catalog.open("catalog.parquet").search(time=("2020-01-01", "2020-12-31"))
    ds = rumi.torch.ChipDataset(cat, size=256, bands=["red", "green", "blue"], labels="labels.parquet")
    sampler = rumi.torch.RandomChipSampler(ds, length=10_000, seed=0, min_valid=0.9)
    loader = ds.loader(sampler, batch_size=16)  # 2 batches read ahead; state_dict() to resume
    # or torch's own: DataLoader(ds, batch_size=16, sampler=sampler) (its default collate_fn)
    for batch in loader:
        batch["image"]      # (N, T, B, 256, 256) tensor of the files' sample type (or dtype=)
        batch["mask"]       # (N, Tl, Bl, 256, 256) labels on the image chips' pixel grid (labels=)
        batch["valid"]      # (N, T, B, 256, 256) bool: samples that are not nodata (return_valid=True)
        batch["time_mask"]  # (N, T) bool: real time steps (False: padding)
        batch["time"]       # N datetime64[s] arrays: each chip's own time steps
        batch["bounds"]     # N x (left, bottom, right, top) in each file's CRS; batch["crs"]: N x "EPSG:n"
        batch["key"]        # N x (file, row_off, col_off)
        batch["stats"]      # requests, frames, bytes_fetched, bytes_needed, decode_s, wait_s

A sample's key is (file, row_off, col_off): file j of the dataset, pixel offset of the chip;
the dataset has no len() (a chip sampler decides how many chips an epoch has: len(sampler);
`num_files` counts the files). A batch is read by `__getitems__` (DataLoader's batched fetch,
then its collate_fn: torch's default_collate and rumi.torch.collate both give the batch dict
above, without copying the tensors; see collate). The chips are grouped by file,
each file's chips read one after another through one reader (its decoded-frame cache serves
the frames chips share), files in parallel on a thread pool with at most `max_in_flight` reads
per host, every chip decoded straight into its slot of the batch tensor. Files are opened from
the catalogued header blob: nothing but frames is requested, and a file whose size changed since
cataloguing raises FormatError.

Labels (`labels=`: a catalogue, a catalogue path, a rumi file or Dataset) are placed on each
image chip's pixel grid: a label file in the same CRS whose grid is the image's or an aligned
grid of an integer multiple of its resolution is windowed directly (each label pixel repeated);
any other grid is resampled with nearest neighbour (pixel centres through pyproj, as GDAL's
warper does). Samplers skip chips that no single label file covers (`on_missing="skip"`) or the
read raises (`on_missing="raise"`).

Nodata: the catalogue's per-band nodata and per-tile valid fractions (rumi.catalog) let samplers
draw only chips whose valid fraction is at least `min_valid` without reading a pixel: a chip's
bound is 1 - sum over its bands and tiles of min(samples of the tile in the chip, the tile's
invalid samples) / samples of the chip (exact for tile-aligned chips, never an overstatement).
A file whose nodata is not known (no rumi:nodata, no `nodata=`) is an error for min_valid and
return_valid, never "every sample valid".

Time: `time=` takes an instant or (start, end), both ends included; a date covers its whole
day (and a year-month its month), as STAC searches read them (pystac-client, odc-stac):
time="2023-05-11" is every step of that day, time=("2020-01-01", "2020-12-31") all of 2020.
Files may have different numbers of steps in `time=`; `max_steps=k` keeps the newest (or k
random, seeded per chip) steps; batches are padded to the longest with `time_mask`.

Resuming: samplers and `ds.loader(...)` have `state_dict()` / `load_state_dict()`; a sampler's
global sequence depends only on its seed and epoch, and rank r of w takes keys r, r + w, ...
(so 1, 2 and 4 ranks see the same sequence, split differently).

Pickling (DataLoader workers under spawn/forkserver) carries the catalogue's path and search,
not its rows; readers are opened per process (a forked child reopens its own).
"""

from __future__ import annotations

import collections
import collections.abc
import math
import os
import threading
import time as _time
import warnings
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

from typing import Any, Iterable, Iterator, Sequence

import numpy as np

try:
    import torch
except ImportError as e:  # the first thing a new user types must say what to do
    raise ImportError(f"rumi.torch needs PyTorch ({e}): pip install torch (or pip install 'rumi[torch]')") from e

import rumi
from rumi import RequestError, Window, _rumi
from rumi._dataset import read_batch as _read_batch
from rumi._dtypes import TORCH_TYPES as _TORCH_OK
from rumi.catalog import Catalog, describe, nodata_bound, norm_time, open_row, time_indices, time_seconds, unpack_valid

__all__ = ["ChipDataset", "RandomChipSampler", "GridChipSampler", "TileChipSampler", "collate"]

#: the decoded-frame budget per process that ChipDataset's readers share by default (keep_cache)
DEFAULT_CACHE_BYTES = 512 << 20


#: what to type instead of DataLoader(ds) / DataLoader(ds, shuffle=True) (both run as written)
_USE_A_SAMPLER = (
    "Pass a chip sampler: DataLoader(ds, batch_size=16, sampler=rumi.torch.RandomChipSampler(ds, length=10_000)) "
    "(or GridChipSampler, TileChipSampler; without shuffle=; torch's default collate_fn gives the batch dict), or use "
    "ds.loader(rumi.torch.RandomChipSampler(ds, length=10_000), batch_size=16) (batches read ahead on threads)")


def _host(href: str) -> str:
    if href.startswith(("http://", "https://", "s3://")):
        return urlsplit(href).netloc
    return ""


def _as_catalog(src: Any, what: str) -> Catalog:
    """A Catalog from a Catalog, a catalogue path (.parquet), a rumi file path/URL or a rumi.Dataset."""
    if isinstance(src, Catalog):
        return src
    if isinstance(src, rumi.Dataset):
        src = src.path
    if isinstance(src, (str, os.PathLike)):
        s = os.fspath(src)
        if s.endswith((".parquet", ".geoparquet")):
            return Catalog.open(s)
        pa = __import__("pyarrow")
        from rumi.catalog import schema

        return Catalog(pa.Table.from_pylist([describe(s)], schema=schema()))
    raise TypeError(f"{what} must be a rumi.Catalog, a catalogue path, a rumi file or a rumi.Dataset, not {type(src).__name__}")


def _grid_text(code: Any, tr: Any, shape: Any) -> str:
    if code is None or tr is None:
        return f"{shape[0]}x{shape[1]} pixels without georeferencing"
    return f"{code}, {shape[0]}x{shape[1]} pixels, transform {tuple(round(v, 6) for v in tr)}"


def _torch_dtype(enc: str) -> Any:
    if enc in ("uint16", "uint32", "uint64") and not hasattr(torch, enc):  # pragma: no cover
        raise RequestError(f"this torch has no {enc}")
    return getattr(torch, enc) if enc != "bool" else torch.bool


def _nodata_values(nodata: Any, names: Sequence[str]) -> list[float | None] | None:
    """ChipDataset's nodata= as one float (or None) per band of names; None when not given."""
    if nodata is None:
        return None
    num = (int, float, np.integer, np.floating)
    if isinstance(nodata, num) and not isinstance(nodata, (bool, np.bool_)):
        return [float(nodata)] * len(names)
    try:
        vals = list(nodata)
    except TypeError:
        raise TypeError(f"nodata must be a number or one per band {list(names)}, not {nodata!r}") from None
    if len(vals) != len(names):
        raise ValueError(f"nodata gives {len(vals)} values for the {len(names)} bands {list(names)}")
    for v in vals:
        if v is not None and (isinstance(v, (bool, np.bool_)) or not isinstance(v, num)):
            raise ValueError(f"nodata values must be numbers or None, got {v!r}")
    return [None if v is None else float(v) for v in vals]


def _never_sample(v: float, enc: str) -> bool:
    """True when no sample of encoding enc can equal nodata v (NaN or a fraction for integers,
    or a value outside their range): every sample of that band is valid."""
    dt = _torch_dtype(enc)
    if dt.is_floating_point or dt.is_complex:
        return False
    if math.isnan(v) or v != int(v):
        return True
    lo, hi = (0, 1) if dt == torch.bool else (torch.iinfo(dt).min, torch.iinfo(dt).max)
    return not lo <= v <= hi


def _as_torch_dtype(v: Any, what: str) -> Any:
    if v is None or isinstance(v, torch.dtype):
        return v
    if isinstance(v, str) and isinstance(getattr(torch, v.removeprefix("torch."), None), torch.dtype):
        return getattr(torch, v.removeprefix("torch."))
    raise TypeError(f"{what} must be a torch.dtype (e.g. torch.float32) or its name, not {v!r}")


def _cast_check(enc: str, dst: Any, what: str) -> Any:
    """dst when the files' samples (encoding enc) convert to it without wraparound or
    truncation, None when no conversion is needed; else ValueError."""
    if dst is None:
        return None
    src = _torch_dtype(enc)
    if dst == src:
        return None
    if dst.is_complex or src.is_complex:
        if dst.is_complex and src.is_complex and dst.itemsize >= src.itemsize:
            return dst
        raise ValueError(f"{what}={dst}: {enc} samples do not convert to it")
    if dst.is_floating_point:
        return dst  # rounding to the nearest float, as any float cast
    if src.is_floating_point:
        raise ValueError(f"{what}={dst}: converting {enc} samples to an integer type would truncate them; use a "
                         "floating dtype (torch.float32)")
    if dst == torch.bool:
        raise ValueError(f"{what}={dst}: {enc} samples do not fit in bool")
    lo, hi = (0, 1) if src == torch.bool else (torch.iinfo(src).min, torch.iinfo(src).max)
    info = torch.iinfo(dst)
    if lo < info.min or hi > info.max:
        raise ValueError(f"{what}={dst} cannot hold every {enc} value ({lo}..{hi}; it holds {info.min}..{info.max}): "
                         "values would wrap around; use a wider integer type (torch.int32, torch.int64) or torch.float32")
    return dst


class _LabelMatch:
    """Where a label file lies on an image file's pixel grid.

    kind "window": the label grid is the image's, or aligned with an integer multiple (kr, kc)
    of its resolution; image pixel (r, c) is label pixel ((r + off_r) // kr, (c + off_c) // kc),
    and the rectangle rect = (r_lo, r_hi, c_lo, c_hi) of image pixels has labels.
    kind "warp": any other grid; image pixel centres go through pyproj to the label CRS and the
    label pixel holding each (nearest neighbour); poly is the label raster's outline in image
    pixel coordinates (x = column, y = row)."""

    __slots__ = ("l", "kind", "k", "off", "rect", "poly", "tsteps")

    def __init__(self, l, kind, k=None, off=None, rect=None, poly=None):
        self.l, self.kind, self.k, self.off, self.rect, self.poly = l, kind, k, off, rect, poly
        self.tsteps = None  # image time (s) -> label step, for labels with several steps

    def covers(self, r0, c0, h, w):
        """bool array: the chips at (r0, c0) lie wholly inside this label file (kind "window":
        also plain numbers, giving a bool)."""
        if self.kind == "window":
            r_lo, r_hi, c_lo, c_hi = self.rect
            return (r0 >= r_lo) & (r0 + h <= r_hi) & (c0 >= c_lo) & (c0 + w <= c_hi)
        import shapely

        boxes = shapely.box(c0, r0, c0 + w, r0 + h)
        return np.asarray(shapely.contains(self.poly, boxes), dtype=bool)


def _integer(v, tol):
    r = round(v)
    return int(r) if abs(v - r) <= tol else None


def _match(ti, shape_i, code_i, tl, shape_l, code_l, l):
    """The _LabelMatch of label file l (transform tl, shape (Yl, Xl)) on image grid ti, or None
    when they do not overlap."""
    Y, X = shape_i
    Yl, Xl = shape_l
    if code_i == code_l and ti[1] == ti[3] == tl[1] == tl[3] == 0:
        kc, kr = tl[0] / ti[0], tl[4] / ti[4]
        kci, kri = _integer(kc, 1e-9 * abs(kc)), _integer(kr, 1e-9 * abs(kr))
        oc, orr = _integer((ti[2] - tl[2]) / ti[0], 1e-6), _integer((ti[5] - tl[5]) / ti[4], 1e-6)
        if kci and kri and kci > 0 and kri > 0 and oc is not None and orr is not None:
            rect = (max(0, -orr), min(Y, Yl * kri - orr), max(0, -oc), min(X, Xl * kci - oc))
            if rect[0] >= rect[1] or rect[2] >= rect[3]:
                return None
            return _LabelMatch(l, "window", (kri, kci), (orr, oc), rect)
    # another CRS or grid: the label raster's outline on the image grid (through pyproj)
    import shapely

    n = 64
    s = np.linspace(0.0, 1.0, n + 1)
    px = np.concatenate([s * Xl, np.full(n + 1, Xl), (1 - s) * Xl, np.zeros(n + 1)])
    py = np.concatenate([np.zeros(n + 1), s * Yl, np.full(n + 1, Yl), (1 - s) * Yl])
    x, y = _affine(tl, px, py)
    if code_i != code_l:
        x, y = _transformer(code_l, code_i).transform(x, y)
    if not (np.all(np.isfinite(x)) and np.all(np.isfinite(y))):
        return None
    c, r = _affine(_inverse(ti), np.asarray(x), np.asarray(y))
    poly = shapely.Polygon(np.stack([c, r], 1))
    if not poly.is_valid:
        poly = shapely.make_valid(poly)
    if not poly.intersects(shapely.box(0, 0, X, Y)):
        return None
    shapely.prepare(poly)
    return _LabelMatch(l, "warp", poly=poly)


def _affine(t, cols, rows):
    """x, y of pixel coordinates (cols, rows) through a STAC proj:transform (a, b, c, d, e, f)."""
    a, b, c, d, e, f = t[:6]
    return a * cols + b * rows + c, d * cols + e * rows + f


def _inverse(t):
    """The STAC proj:transform of the inverse mapping (x, y -> col, row)."""
    a, b, c, d, e, f = t[:6]
    det = a * e - b * d
    if det == 0:
        raise RequestError(f"the grid transform {tuple(t[:6])} is degenerate")
    ia, ib, id_, ie = e / det, -b / det, -d / det, a / det
    return (ia, ib, -(ia * c + ib * f), id_, ie, -(id_ * c + ie * f))


_TRANSFORMERS: dict[tuple[str, str], Any] = {}


def _transformer(src: str, dst: str) -> Any:
    t = _TRANSFORMERS.get((src, dst))
    if t is None:
        import pyproj

        t = _TRANSFORMERS[(src, dst)] = pyproj.Transformer.from_crs(src, dst, always_xy=True)
    return t


class ChipDataset(torch.utils.data.Dataset):
    """Square chips of `size` pixels from the files of a catalogue.

    bands: band texts (default: every band of the first file; every file must hold them).
    time: an instant or (start, end), ends included, a date covering its whole day (as STAC
    searches): the time steps read; files may have different numbers of them (batches are
    padded, `time_mask`). max_steps: at most k steps per chip, the newest
    (time_steps="newest") or k random ones, seeded per chip and `seed` (time_steps="random").
    align_time: every file must have the same time coordinates in `time` (an error otherwise).
    crs: keep only the files in this CRS. Files smaller than size are left out (warned).
    labels: label rasters (a catalogue, its path, a rumi file or Dataset) of any sample type,
    read beside each chip as "mask" on the chip's pixel grid; label_bands: their band texts
    (default: every band of the first label file); on_missing: "skip" (samplers draw only chips
    that one label file covers) or "raise" (a chip without labels is an error when read).
    Labels with one time step are static (Tl = 1); labels with several are matched to each
    chip's image time steps by time coordinate (a missing step is an error at construction).
    return_valid: add "valid", True where a sample is not its band's nodata.
    nodata: a number for every band, or one per band of `bands` (None: that band has none); it
    replaces the catalogue's rumi:nodata for every file (return_valid tests the samples against
    it; min_valid needs the catalogue's valid summary recorded for the same values, see
    Catalog.build(nodata=)). Without it, a file with no rumi:nodata is an error for
    return_valid and min_valid (nothing says which samples are nodata).
    dtype: the torch dtype of "image" (default: the files' own, e.g. torch.uint16, which has few
    torch kernels); the chips are decoded in the files' type, then converted once per batch.
    Integer dtypes must hold every value of the files' type (no wraparound) and floating files
    take only floating dtypes (no truncation); a floating dtype rounds as any float cast does.
    label_dtype: the same for "mask" (e.g. torch.int64 for CrossEntropyLoss).
    threads: decode threads per read; max_in_flight: concurrent reads per remote host (default
    16); local files are read at most one per CPU of the process's share.
    pin_memory: allocate batch tensors in pinned memory (needs CUDA; ignored with a warning).
    keep_cache: keep decoded frames between batches (default), within cache_bytes per process
    (default DEFAULT_CACHE_BYTES, shared by the open readers); False: each batch starts empty."""

    def __init__(
        self,
        catalog: Catalog | str | os.PathLike[str],
        size: int | tuple[int, int] = 256,
        bands: Sequence[str] | None = None,
        time: Any = None,
        crs: str | int | None = None,
        *,
        labels: Any = None,
        label_bands: Sequence[str] | None = None,
        on_missing: str = "skip",
        max_steps: int | None = None,
        time_steps: str = "newest",
        align_time: bool = False,
        seed: int = 0,
        return_valid: bool = False,
        nodata: Any = None,
        dtype: torch.dtype | str | None = None,
        label_dtype: torch.dtype | str | None = None,
        threads: int = 1,
        max_in_flight: int = 16,
        pin_memory: bool = False,
        options: dict[str, Any] | None = None,
        verify_size: bool = True,
        keep_cache: bool = True,
        cache_bytes: int | None = None,
    ) -> None:
        if isinstance(catalog, (str, os.PathLike)):
            catalog = Catalog.open(catalog)
        if crs is not None:
            code = crs if isinstance(crs, str) else f"EPSG:{int(crs)}"
            catalog = catalog.filter_crs(code)
        if on_missing not in ("skip", "raise"):
            raise ValueError(f"on_missing must be 'skip' or 'raise', not {on_missing!r}")
        if time_steps not in ("newest", "random"):
            raise ValueError(f"time_steps must be 'newest' or 'random', not {time_steps!r}")
        if max_steps is not None and (isinstance(max_steps, bool) or int(max_steps) < 1):
            raise ValueError(f"max_steps must be an integer >= 1, not {max_steps!r}")
        self.catalog = catalog
        self.labels = _as_catalog(labels, "labels") if labels is not None else None
        self.label_bands = list(label_bands) if label_bands is not None else None
        self.on_missing = on_missing
        self.size = (int(size), int(size)) if np.isscalar(size) else tuple(int(v) for v in size)
        self.bands = list(bands) if bands is not None else None
        self.time = time
        self.crs = crs
        self.max_steps = None if max_steps is None else int(max_steps)
        self.time_steps = time_steps
        self.align_time = bool(align_time)
        self.seed = int(seed)
        self.return_valid = bool(return_valid)
        self.nodata_override = nodata
        self.dtype = _as_torch_dtype(dtype, "dtype")
        self.label_dtype = _as_torch_dtype(label_dtype, "label_dtype")
        self.threads = int(threads)
        self.max_in_flight = int(max_in_flight)
        self.pin_memory = bool(pin_memory)
        self.options = options
        self.verify_size = verify_size
        self.keep_cache = bool(keep_cache)
        self.cache_bytes = DEFAULT_CACHE_BYTES if cache_bytes is None else int(cache_bytes)
        self._plan()
        self._init_process_state()

    def _init_process_state(self):
        self._readers = collections.OrderedDict()
        self._pid = None
        self._lock = threading.Lock()

    # -- layout of the rows -------------------------------------------------------------------
    def _plan(self):
        t = self.catalog.table
        n = t.num_rows
        if n == 0:
            raise RequestError("the catalogue selection is empty: no chips")
        shapes = t.column("rumi:shape").to_pylist()
        bands = t.column("rumi:bands").to_pylist()
        times = time_seconds(t)
        ends = time_seconds(t, "rumi:time_ends")
        dtypes = t.column("rumi:dtype").to_pylist()
        ids = t.column("id").to_pylist()
        h, w = self.size
        keep, small = [], 0
        names = self.bands if self.bands is not None else bands[0]
        window = norm_time(self.time)
        self.band_idx, self.time_idx = [], []
        for i in range(n):
            T, B, Y, X = shapes[i]
            if Y < h or X < w:
                small += 1
                continue
            try:
                bi = [bands[i].index(b) for b in names]
            except ValueError:
                raise RequestError(f"row {i} ({ids[i]}) lacks some of the bands {names}") from None
            ti = list(range(T)) if window is None else time_indices(times[i], ends[i], window)
            if not ti:
                continue  # no time step in the window: not part of this dataset
            keep.append(i)
            self.band_idx.append(bi)
            self.time_idx.append(ti)
        if small:
            warnings.warn(f"rumi.torch: {small} files smaller than {h}x{w} pixels are left out", RuntimeWarning, stacklevel=3)
        if not keep and small:
            raise RequestError(f"no file of the selection holds a {h}x{w} chip")
        if not keep:
            raise RequestError(f"no file of the selection has a time step in {self.time}")
        if self.align_time:
            ref = [times[keep[0]][k] for k in self.time_idx[0]]
            for i, ti in zip(keep, self.time_idx):
                got = [times[i][k] for k in ti]
                if got != ref:
                    raise RequestError(
                        f"align_time: the files' time axes differ in the time selection: {ids[keep[0]]} has "
                        f"{_dates(ref)}, {ids[i]} has {_dates(got)}")
        kd = {dtypes[i] for i in keep}
        if len(kd) != 1:
            raise RequestError(f"the files have different sample types {sorted(kd)}: one ChipDataset per type")
        self.encoding = kd.pop()
        if self.encoding not in _TORCH_OK:
            raise RequestError(f"{self.encoding} samples have no torch dtype")
        self._image_cast = _cast_check(self.encoding, self.dtype, "dtype")
        self.rows = keep  # dataset row j -> catalogue row
        self.ids = [ids[i] for i in keep]
        self.shapes = [shapes[i] for i in keep]
        tiles, trs = t.column("rumi:tile_shape").to_pylist(), t.column("proj:transform").to_pylist()
        codes, hrefs = t.column("proj:code").to_pylist(), t.column("location").to_pylist()
        self.tiles = [tuple(tiles[i]) for i in keep]
        self.transforms = [trs[i] for i in keep]
        self.codes = [codes[i] for i in keep]
        self.hrefs = [hrefs[i] for i in keep]
        self.file_times = [np.array([times[i][k] for k in ti], dtype="int64") for i, ti in zip(keep, self.time_idx)]
        self.times = [ft.astype("datetime64[s]") for ft in self.file_times]
        counts = [len(ti) for ti in self.time_idx]
        self.T = max(counts) if self.max_steps is None else min(max(counts), self.max_steps)
        self.B = len(names)
        self.band_names = list(names)
        # nodata of the selected bands (nodata= or the catalogue's) and each file's valid summary
        # (rumi.catalog), with the bands whose summary was recorded for that nodata
        nds = t.column("rumi:nodata").to_pylist() if "rumi:nodata" in t.column_names else [None] * n
        vals = t.column("rumi:valid").to_pylist() if "rumi:valid" in t.column_names else [None] * n
        over = _nodata_values(self.nodata_override, names)
        self.nodata = []
        self._valid_q = []
        self._summary_of = []
        for j, i in enumerate(keep):
            cat_nd = None if nds[i] is None else [nds[i][b] for b in self.band_idx[j]]
            nd = over if over is not None else cat_nd
            self.nodata.append(None if nd is None or all(v is None for v in nd) else nd)
            self._valid_q.append(unpack_valid(vals[i], shapes[i], tiles[i]) if vals[i] is not None else None)
            self._summary_of.append(cat_nd if vals[i] is not None else None)
        if self.return_valid:
            unknown = [j for j, nd in enumerate(self.nodata) if nd is None]
            if unknown:
                raise RequestError(
                    f"return_valid=True needs the nodata of the bands read, and none is known for "
                    f"{self._files_text(unknown)}: the catalogue has no rumi:nodata for {names} there (the files had "
                    "no .aux.xml sidecar with a NoDataValue when it was built). Give it: ChipDataset(..., nodata=V) (a "
                    "number for every band, or one per band), or rebuild the catalogue with "
                    "rumi.Catalog.build(..., nodata=V) (rumi-catalog build --nodata V). Without nodata no sample "
                    "can be told invalid")
        self._plan_labels()

    def _files_text(self, js):
        shown = ", ".join(self.ids[j] for j in js[:3]) + (" ..." if len(js) > 3 else "")
        return f"{len(js)} of the {len(self.rows)} files ({shown})"

    def _min_valid_error(self, min_valid):
        """The RequestError that min_valid meets on this dataset (nodata unknown, or no valid
        summary recorded for the nodata in use), or None."""
        mv = "min_valid" if min_valid is None else f"min_valid={min_valid}"
        unknown = [j for j, nd in enumerate(self.nodata) if nd is None]
        if unknown:
            return RequestError(
                f"{mv} needs the nodata of the bands read, and none is known for "
                f"{self._files_text(unknown)}: the catalogue has no rumi:nodata for {self.band_names} there (the "
                "files had no .aux.xml sidecar with a NoDataValue when it was built). Rebuild the catalogue with "
                "rumi.Catalog.build(..., nodata=V) (a number for every band, or one per band; rumi-catalog build "
                "--nodata V): it records the nodata and the per-tile valid summary that min_valid reads. Without "
                "nodata every chip would pass as valid")
        stale = [j for j in range(len(self.rows)) if not self._summary_covers(j)]
        if stale:
            j = stale[0]
            had = self._summary_of[j]
            return RequestError(
                f"{mv} bounds a chip's valid fraction from the catalogue's per-tile summary "
                f"(rumi:valid), but for {self._files_text(stale)} it was "
                + (f"recorded for nodata {had}, not {self.nodata[j]} (ChipDataset's nodata=)" if had is not None
                   else f"not recorded (the catalogue has no nodata for it; nodata {self.nodata[j]} comes from "
                        "ChipDataset's nodata=)")
                + f": rebuild the catalogue with rumi.Catalog.build(..., nodata={self.nodata[j]}) to record it "
                "(each file's pixels are read once), or leave min_valid out (return_valid=True marks the nodata "
                "samples of the chips read)")
        return None

    def _summary_covers(self, j):
        """The catalogue's valid summary of file j was recorded for the nodata in use of every
        band that has one (a band whose nodata its samples cannot take needs none)."""
        nd = self.nodata[j]
        had = self._summary_of[j]
        for k, v in enumerate(nd or ()):
            if v is None or _never_sample(v, self.encoding):
                continue
            if had is None or had[k] is None or not (had[k] == v or (math.isnan(had[k]) and math.isnan(v))):
                return False
        return True

    def _plan_labels(self):
        self.matches = [[] for _ in self.rows]
        if self.labels is None:
            if self.label_dtype is not None:
                raise ValueError("label_dtype is the dtype of the labels' \"mask\": it needs labels=")
            self.Tl = self.Bl = 0
            self._label_cast = None
            return
        lt = self.labels.table
        if lt.num_rows == 0:
            raise RequestError("the label catalogue is empty")
        lshapes = lt.column("rumi:shape").to_pylist()
        lbands = lt.column("rumi:bands").to_pylist()
        ltimes = time_seconds(lt)
        ltrs = lt.column("proj:transform").to_pylist()
        lcodes = lt.column("proj:code").to_pylist()
        lids = lt.column("id").to_pylist()
        ldt = set(lt.column("rumi:dtype").to_pylist())
        if len(ldt) != 1:
            raise RequestError(f"the label files have different sample types {sorted(ldt)}")
        self.label_encoding = ldt.pop()
        if self.label_encoding not in _TORCH_OK:
            raise RequestError(f"{self.label_encoding} labels have no torch dtype")
        self._label_cast = _cast_check(self.label_encoding, self.label_dtype, "label_dtype")
        names = self.label_bands if self.label_bands is not None else lbands[0]
        self.label_band_idx = []
        for l in range(lt.num_rows):
            try:
                self.label_band_idx.append([lbands[l].index(b) for b in names])
            except ValueError:
                raise RequestError(f"label file {lids[l]} lacks some of the label bands {names}") from None
            if lcodes[l] is None or ltrs[l] is None:
                raise RequestError(
                    f"label file {lids[l]} has no CRS ({_grid_text(lcodes[l], ltrs[l], lshapes[l][2:])}): it cannot be "
                    f"placed on the image grid ({_grid_text(self.codes[0], self.transforms[0], self.shapes[0][2:])})")
        self.label_ids = lids
        self.label_shapes = lshapes
        self.label_hrefs = lt.column("location").to_pylist()
        self.label_times = ltimes
        self.Bl = len(names)
        static = all(s[0] == 1 for s in lshapes)
        self.Tl = 1 if static else self.T
        import shapely

        lgeom = [shapely.from_wkb(g) if g is not None else None for g in lt.column("geometry").to_pylist()]
        igeom = [shapely.from_wkb(g) if g is not None else None for g in self.catalog.table.column("geometry").to_pylist()]
        any_match = False
        for j in range(len(self.rows)):
            gi = igeom[self.rows[j]]
            if self.codes[j] is None or self.transforms[j] is None:
                raise RequestError(
                    f"image file {self.ids[j]} has no CRS ({_grid_text(None, None, self.shapes[j][2:])}): labels cannot be "
                    "placed on it")
            for l in range(lt.num_rows):
                if gi is not None and lgeom[l] is not None and not gi.intersects(lgeom[l]):
                    continue
                m = _match(self.transforms[j], self.shapes[j][2:], self.codes[j], ltrs[l], lshapes[l][2:], lcodes[l], l)
                if m is None:
                    continue
                if lshapes[l][0] > 1:
                    have = {int(v): k for k, v in enumerate(ltimes[l])}
                    miss = [int(v) for v in self.file_times[j] if int(v) not in have]
                    if miss:
                        raise RequestError(
                            f"the time axes of image {self.ids[j]} and labels {lids[l]} differ: the labels have no step at "
                            f"{_dates(miss[:3])}{' ...' if len(miss) > 3 else ''} (labels with several time steps must "
                            "have every image step of the time selection)")
                    m.tsteps = have
                self.matches[j].append(m)
                any_match = True
        if not any_match:
            raise RequestError(
                f"the labels do not overlap the images: no label file ({', '.join(lids[:3])}{' ...' if len(lids) > 3 else ''}; "
                f"{_grid_text(lcodes[0], ltrs[0], lshapes[0][2:])}) intersects an image file ({', '.join(self.ids[:3])}; "
                f"{_grid_text(self.codes[0], self.transforms[0], self.shapes[0][2:])})")

    @property
    def num_files(self) -> int:
        """The number of files the chips come from (dataset files 0..num_files - 1 of the keys)."""
        return len(self.rows)

    def __len__(self) -> int:
        """No length: the samples are the (file, row_off, col_off) keys a chip sampler draws, as
        many as it is asked for (len(sampler)); a count of files would mislead every
        range(len(ds)) and steps-per-epoch computation."""
        raise TypeError(
            "a ChipDataset has no len(): its samples are (file, row_off, col_off) keys that a chip sampler draws, "
            "as many as asked (len(sampler) chips per epoch; ds.num_files files). " + _USE_A_SAMPLER)

    def __bool__(self) -> bool:
        return True

    # -- pickling: catalogue path + query, no rows or readers ------------------------------
    _PLANNED = ("_readers", "_lock", "_pid", "_pool", "_sems", "band_idx", "time_idx", "rows", "ids", "shapes", "tiles",
                "transforms", "codes", "hrefs", "times", "file_times", "encoding", "T", "B", "nodata", "_valid_q", "matches",
                "band_names", "_summary_of", "_image_cast", "_label_cast",
                "Tl", "Bl", "label_encoding", "label_band_idx", "label_ids", "label_shapes", "label_hrefs", "label_times",
                "_max_open_n")

    def __getstate__(self):
        d = dict(self.__dict__)
        for k in self._PLANNED:
            d.pop(k, None)
        return d

    def __setstate__(self, d):
        self.__dict__.update(d)
        self._plan()
        self._init_process_state()

    # -- readers ------------------------------------------------------------------------
    def _reader(self, key):
        """The open reader of ("img", j) or ("lbl", l), per process; at most _max_open() kept
        (least recently used closed), each with an equal share of cache_bytes."""
        pid = os.getpid()
        with self._lock:
            if self._pid != pid:
                self._readers = collections.OrderedDict()  # a forked child opens its own
                self._pool = None
                self._sems = {}
                self._pid = pid
            r = self._readers.get(key)
            if r is not None:
                self._readers.move_to_end(key)
                return r
            cat, i = (self.catalog, self.rows[key[1]]) if key[0] == "img" else (self.labels, key[1])
            row = cat.row(i)
        # opened outside the lock: files of a batch open (and size-check) concurrently
        r = open_row(row, options=self.options, verify_size=self.verify_size, threads=self.threads)
        r.set_cache_bytes(self._cache_share())
        with self._lock:
            r = self._readers.setdefault(key, r)
            while len(self._readers) > self._max_open():
                self._readers.popitem(last=False)  # the least recently used reader and its cache
            return r

    def _max_open(self):
        """Readers kept open per process: a quarter of its file-descriptor limit (the rest for
        DataLoader's pipes, GDAL and the user's own files), 64 to 4096 (256 under Linux's usual
        1024). Reopening a file costs a catalogue row and an open (measured on 600 files: +13 %
        samples per CPU-second with all kept open)."""
        n = self.__dict__.get("_max_open_n")
        if n is None:
            try:
                import resource

                soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
                soft = 1 << 16 if soft == resource.RLIM_INFINITY else soft
            except (ImportError, OSError, ValueError):
                soft = 1024
            n = self.__dict__["_max_open_n"] = max(64, min(4096, soft // 4))
        return n

    def _cache_share(self):
        """Each open reader's share of the process's decoded-frame budget cache_bytes (at most
        _max_open() readers are open, so the process never holds more than cache_bytes)."""
        files = len(self.rows) + (len(self.label_ids) if self.labels is not None else 0)
        return self.cache_bytes // max(1, min(self._max_open(), files))

    def _executor(self):
        with self._lock:
            if getattr(self, "_pool", None) is None or self._pid != os.getpid():
                self._pool = ThreadPoolExecutor(max_workers=max(1, self.max_in_flight))
                self._sems = {}
            return self._pool

    def _sem(self, host):
        with self._lock:
            s = self._sems.get(host)
            if s is None:
                s = self._sems[host] = threading.Semaphore(self._in_flight(host))
            return s

    def _in_flight(self, host):
        """Concurrent reads for `host`: `max_in_flight` for remote hosts (the reads wait on the
        network); for local files, which only decode, at most this process's share of the CPUs
        (DataLoader workers split them), since more threads than cores only add switching
        (measured: 2 workers x 16 reads on 2 cores ran at 0.75x of 2 x 1)."""
        n = max(1, self.max_in_flight)
        if host:
            return n
        try:
            cpus = len(os.sched_getaffinity(0))
        except (AttributeError, OSError):
            cpus = os.cpu_count() or 1
        info = torch.utils.data.get_worker_info()
        return max(1, min(n, cpus // (info.num_workers if info is not None else 1)))

    # -- chip constraints (samplers) --------------------------------------------------------
    def steps_of(self, j: int, r0: int, c0: int) -> list[int]:
        """The file's time step indices chip (j, r0, c0) reads (max_steps, time_steps)."""
        ti = self.time_idx[j]
        k = self.max_steps
        if k is None or len(ti) <= k:
            return ti
        if self.time_steps == "newest":
            order = np.argsort(self.file_times[j], kind="stable")[-k:]
        else:
            rng = np.random.default_rng([self.seed, j, r0, c0])
            order = rng.choice(len(ti), size=k, replace=False)
        order = sorted(order, key=lambda p: (self.file_times[j][p], p))
        return [ti[p] for p in order]

    def _steps_count(self, j):
        n = len(self.time_idx[j])
        return n if self.max_steps is None else min(n, self.max_steps)

    def valid_bound(self, j: int, r0: Any, c0: Any) -> np.ndarray:
        """Lower bound of the valid fraction of the chips at (r0, c0) of file j (arrays), from
        the catalogue's per-tile summary alone (no pixel is read)."""
        r0 = np.atleast_1d(np.asarray(r0, np.int64))
        c0 = np.atleast_1d(np.asarray(c0, np.int64))
        nd = self.nodata[j]
        if nd is None or not self._summary_covers(j):
            raise self._min_valid_error(None)
        q = self._valid_q[j]
        if q is None:  # every band with nodata is one its samples cannot take
            return np.ones(r0.shape)
        Tf, _, Y, X = self.shapes[j]
        th, tw = self.tiles[j]
        ny, nx = q.shape[1:]
        h, w = self.size
        tsel = self._steps_count(j)
        ah = np.minimum(th, Y - np.arange(ny) * th)
        aw = np.minimum(tw, X - np.arange(nx) * tw)
        caps = [nodata_bound(q[b]) * Tf * np.outer(ah, aw) * (1 + 1e-9)
                for k, b in enumerate(self.band_idx[j]) if nd[k] is not None and not _never_sample(nd[k], self.encoding)]
        invalid = np.zeros(r0.shape)
        for di in range(-(-h // th) + 1):
            i = r0 // th + di
            ovr = np.clip(np.minimum(np.minimum(r0 + h, (i + 1) * th), Y) - np.maximum(r0, i * th), 0, None)
            ok_i = i < ny
            ii = np.minimum(i, ny - 1)
            for dj in range(-(-w // tw) + 1):
                jj_ = c0 // tw + dj
                ovc = np.clip(np.minimum(np.minimum(c0 + w, (jj_ + 1) * tw), X) - np.maximum(c0, jj_ * tw), 0, None)
                ok = ok_i & (jj_ < nx)
                jc = np.minimum(jj_, nx - 1)
                ov = (ovr * ovc * tsel).astype(np.float64)
                for cap in caps:
                    invalid += np.where(ok, np.minimum(ov, cap[ii, jc]), 0.0)
        return 1.0 - invalid / (tsel * len(nd) * h * w)

    def covered(self, j: int, r0: Any, c0: Any) -> np.ndarray:
        """bool array: the chips at (r0, c0) of file j lie wholly inside one label file (True
        for every chip without labels)."""
        r0 = np.atleast_1d(np.asarray(r0, np.int64))
        c0 = np.atleast_1d(np.asarray(c0, np.int64))
        if self.labels is None:
            return np.ones(r0.shape, bool)
        h, w = self.size
        out = np.zeros(r0.shape, bool)
        for m in self.matches[j]:
            out |= m.covers(r0, c0, h, w)
        return out

    def chip_ok(self, j: int, r0: Any, c0: Any, min_valid: float | None = None) -> np.ndarray:
        """bool array: the chips at (r0, c0) of file j meet min_valid (valid_bound) and, with
        labels and on_missing="skip", have labels (covered)."""
        ok = np.ones(np.atleast_1d(np.asarray(r0)).shape, bool)
        if self.labels is not None and self.on_missing == "skip":
            ok &= self.covered(j, r0, c0)
        if min_valid is not None and min_valid > 0:
            ok &= self.valid_bound(j, r0, c0) >= min_valid
        return ok

    def _lattice(self, j):
        """Chip offsets (rows, cols) where every constraint's optimum lies: the breakpoints of
        valid_bound (chip edges on tile edges) and of the label rectangles, plus a grid of a
        quarter chip (valid_bound is concave in each offset between breakpoints, so its maximum
        over a file is at one of these rows and columns)."""
        _, _, Y, X = self.shapes[j]
        h, w = self.size
        th, tw = self.tiles[j]
        rs = {0, Y - h} | set(range(0, Y, th)) | {v - h for v in range(th, Y + th, th)} | set(range(0, Y - h + 1, max(1, h // 4)))
        cs = {0, X - w} | set(range(0, X, tw)) | {v - w for v in range(tw, X + tw, tw)} | set(range(0, X - w + 1, max(1, w // 4)))
        for m in self.matches[j]:
            if m.kind == "window":
                r_lo, r_hi, c_lo, c_hi = m.rect
                rs |= {r_lo, r_hi - h}
                cs |= {c_lo, c_hi - w}
        rs = np.array(sorted(v for v in rs if 0 <= v <= Y - h), np.int64)
        cs = np.array(sorted(v for v in cs if 0 <= v <= X - w), np.int64)
        return rs, cs

    def feasible(self, j: int, min_valid: float | None = None) -> np.ndarray:
        """(n, 2) array of lattice offsets (row, col) of file j whose chips meet the constraints."""
        rs, cs = self._lattice(j)
        R, C = np.meshgrid(rs, cs, indexing="ij")
        R, C = R.ravel(), C.ravel()
        ok = self.chip_ok(j, R, C, min_valid)
        return np.stack([R[ok], C[ok]], 1)

    def _no_chip_error(self, min_valid):
        h, w = self.size
        parts = []
        if self.labels is not None and self.on_missing == "skip":
            if not any(len(self.feasible(j)) for j in range(len(self.rows))):
                return RequestError(f"no {h}x{w} chip of the {len(self.rows)} image files lies wholly inside a label file")
            parts.append("inside a label file")
        best, where = -1.0, None
        for j in range(len(self.rows)):
            rs, cs = self._lattice(j)
            R, C = np.meshgrid(rs, cs, indexing="ij")
            b = self.valid_bound(j, R.ravel(), C.ravel())
            if self.labels is not None and self.on_missing == "skip":
                b = np.where(self.covered(j, R.ravel(), C.ravel()), b, -1.0)
            k = int(np.argmax(b))
            if b[k] > best:
                best, where = float(b[k]), (self.ids[j], int(R.ravel()[k]), int(C.ravel()[k]))
        return RequestError(
            f"min_valid={min_valid}: no {h}x{w} chip {'and '.join(parts)}can have that valid fraction according to the "
            f"catalogue's per-tile summary (the best: {best:.4f}, file {where[0]} at row {where[1]}, col {where[2]}); "
            "lower min_valid or use smaller chips")

    # -- samples ------------------------------------------------------------------------
    def bounds(self, j: int, r0: int, c0: int) -> tuple[float, float, float, float]:
        """(left, bottom, right, top) of the chip at (r0, c0) of file j, in its CRS."""
        x0, xres, rrot, y0, crot, yres = (self.transforms[j][k] for k in (2, 0, 1, 5, 3, 4))
        h, w = self.size
        xs = [x0 + c * xres + r * rrot for r, c in ((r0, c0), (r0 + h, c0 + w))]
        ys = [y0 + c * crot + r * yres for r, c in ((r0, c0), (r0 + h, c0 + w))]
        return (min(xs), min(ys), max(xs), max(ys))

    def _check(self, key):
        try:
            j, r0, c0 = (int(v) for v in key)
        except TypeError:
            raise TypeError(
                f"a ChipDataset sample is a (file, row_off, col_off) key, not {key!r}: DataLoader's own samplers "
                "(shuffle=True, or none) give int indices. " + _USE_A_SAMPLER) from None
        except ValueError:
            raise ValueError(f"a ChipDataset sample is a (file, row_off, col_off) key, not {key!r}") from None
        if not 0 <= j < len(self.rows):
            raise IndexError(f"file {j} is outside 0..{len(self.rows) - 1} (ds.num_files = {len(self.rows)})")
        _, _, Y, X = self.shapes[j]
        h, w = self.size
        if not (0 <= r0 <= Y - h and 0 <= c0 <= X - w):
            raise IndexError(f"chip at ({r0}, {c0}) of {h}x{w} is outside file {j} ({Y}x{X})")
        return j, r0, c0

    def __getitem__(self, key: tuple[int, int, int]) -> collections.abc.MutableMapping[str, Any]:
        """One chip: a dict-like sample ("image" (T, B, h, w), ... as a batch's, and the read's
        "stats")."""
        return self.__getitems__([key])[0]

    def _alloc(self, shape, enc, scratch=False):
        """A tensor of shape for samples of enc (an encoding or a torch dtype): shared memory in
        a DataLoader worker, pinned with pin_memory, else released memory of earlier batches.
        scratch: memory only this call uses (decoded samples that are converted to dtype=)."""
        pin = self.pin_memory and not scratch
        if pin and not torch.cuda.is_available():
            warnings.warn("rumi.torch: pin_memory needs CUDA; allocating pageable memory", RuntimeWarning, stacklevel=3)
            self.pin_memory = pin = False
        tdt = enc if isinstance(enc, torch.dtype) else _torch_dtype(enc)
        n = math.prod(shape) * tdt.itemsize
        if torch.utils.data.get_worker_info() is not None and not pin and not scratch:
            # in a DataLoader worker the batch goes to the main process through shared memory:
            # decode straight into a shared tensor (as default_collate does), not into one
            # that the worker's queue then copies there
            return torch.empty(0, dtype=tdt).set_(torch.UntypedStorage._new_shared(n), 0, shape)
        if pin or n == 0:
            return torch.empty(shape, dtype=tdt, pin_memory=pin)
        # memory of earlier batches the caller has let go (rumi.spare): fresh memory for
        # every batch is page-faulted in anew, 10 % of the loader's CPU on small chips
        return torch.frombuffer(_rumi.spare_buffer(n), dtype=torch.uint8).view(tdt).view(shape)

    def __getitems__(self, keys: Sequence[tuple[int, int, int]]) -> list[collections.abc.MutableMapping[str, Any]]:
        """The chips of keys, read as one batch: a list of per-chip samples (what torch's batched
        fetch expects), which torch's default_collate and rumi.torch.collate turn back into the
        batch dict without copying; b["image"] etc. also give the batch's fields directly."""
        t_start = _time.perf_counter()
        keys = [self._check(k) for k in keys]
        n = len(keys)
        h, w = self.size
        steps = [self.steps_of(j, r0, c0) for j, r0, c0 in keys]
        out = self._alloc((n, self.T, self.B, h, w), self.encoding, scratch=self._image_cast is not None)
        per = out.view(torch.uint8).numpy().reshape(n, -1)
        tmask = torch.zeros((n, self.T), dtype=torch.bool)
        for i, ts in enumerate(steps):
            tmask[i, :len(ts)] = True
            if len(ts) < self.T:
                per[i, per.shape[1] * len(ts) // self.T:] = 0  # padding
        stats = {"chips": n, "files": 0, "requests": 0, "frames": 0, "decoded": 0, "cache_hits": 0,
                 "bytes_fetched": 0, "bytes_needed": int(per.nbytes), "decode_s": 0.0, "wait_s": 0.0}
        slock = threading.Lock()

        def account(st, t0, t1, tw):
            with slock:
                stats["requests"] += int(st["batches"])
                stats["frames"] += int(st["frames"])
                stats["decoded"] += int(st["decoded"])
                stats["cache_hits"] += int(st["cache_hits"])
                stats["bytes_fetched"] += int(st["bytes_fetched"])
                stats["decode_s"] += t1 - t0
                stats["wait_s"] += t0 - tw

        def read_images(j, items):
            r = self._reader(("img", j))
            sem = self._sem(_host(self.hrefs[j]))
            bs = self.band_idx[j]
            if not self.keep_cache:  # frames shared inside this batch only: no batch is served by an earlier one
                r.set_cache_bytes(0)
                r.set_cache_bytes(self._cache_share())
            for i, r0, c0 in sorted(items, key=lambda x: (x[1], x[2])):
                ts = steps[i]
                nb = per.shape[1] * len(ts) // self.T
                tw = _time.perf_counter()
                with sem:
                    t0 = _time.perf_counter()
                    st = r.read_into(memoryview(per[i, :nb]), ts, bs, Window(c0, r0, w, h), threads=self.threads)
                    t1 = _time.perf_counter()
                account(st, t0, t1, tw)

        groups = {}
        for i, (j, r0, c0) in enumerate(keys):
            groups.setdefault(("img", j), []).append((i, r0, c0))
        mask = None
        if self.labels is not None:
            mask = self._alloc((n, self.Tl, self.Bl, h, w), self.label_encoding, scratch=self._label_cast is not None)
            mper = mask.view(torch.uint8).numpy().reshape(n, -1)
            mper[:] = 0
            for i, (j, r0, c0) in enumerate(keys):
                m = self._label_for(j, r0, c0)
                groups.setdefault(("lbl", m.l), []).append((i, r0, c0, m))
            stats["bytes_needed"] += int(mper.nbytes)
        stats["files"] = len(groups)

        def read_labels(l, items):
            r = self._reader(("lbl", l))
            sem = self._sem(_host(self.label_hrefs[l]))
            if not self.keep_cache:
                r.set_cache_bytes(0)
                r.set_cache_bytes(self._cache_share())
            for i, r0, c0, m in sorted(items, key=lambda x: (x[1], x[2])):
                tw = _time.perf_counter()
                with sem:
                    t0 = _time.perf_counter()
                    st = self._read_label(r, m, keys[i][0], r0, c0, steps[i], mper[i], mask.dtype)
                    t1 = _time.perf_counter()
                account(st, t0, t1, tw)

        def run(key, items):
            (read_images if key[0] == "img" else read_labels)(key[1], items)

        hosts = {_host(self.hrefs[k[1]] if k[0] == "img" else self.label_hrefs[k[1]]) for k in groups}
        if not any(hosts):  # local files only decode: the whole batch in one native call
            self._read_local(keys, steps, groups, per, None if mask is None else mper, mask, account)
        elif len(groups) == 1 or max(self._in_flight(x) for x in hosts) <= 1:
            for key, items in groups.items():
                run(key, items)
        else:
            pool = self._executor()
            futs = [pool.submit(run, key, items) for key, items in groups.items()]
            for f in futs:
                f.result()
        valid = self._valid(out, keys, steps) if self.return_valid else None  # on the files' own samples
        if self._image_cast is not None:
            out = self._convert(out, self._image_cast)
        if mask is not None and self._label_cast is not None:
            mask = self._convert(mask, self._label_cast)
        stats["batch_s"] = _time.perf_counter() - t_start
        batch = dict(image=out, time_mask=tmask)
        if mask is not None:
            batch["mask"] = mask
        if valid is not None:
            batch["valid"] = valid
        batch.update(
            bounds=[self.bounds(j, r0, c0) for j, r0, c0 in keys],
            crs=[self.codes[j] for j, _, _ in keys],
            time=[np.asarray(_times_of(self, j, steps[i])) for i, (j, _, _) in enumerate(keys)],
            key=keys,
            stats=stats,
        )
        return _Samples(batch, n)

    def _convert(self, src, dtype):
        """src's samples as dtype, in a batch tensor of its own (shared in a worker); torch's
        copy (as fast as numpy's cast for uint16 to float32 or int32: 2-3 ms per 6.3 M samples
        on one core of this machine)."""
        dst = self._alloc(tuple(src.shape), dtype)
        dst.copy_(src)
        return dst

    def _read_local(self, keys, steps, groups, per, mper, mask, account):
        """Reads a batch of local files with one rumi read_batch call (each file's chips in
        order, the files side by side on this process's share of the CPUs); labels that need
        resampling are read after it, one by one."""
        h, w = self.size
        jobs, later, copies = [], [], []
        readers = {}
        for key, items in groups.items():
            r = readers[key] = self._reader(key)
            if key[0] == "img":
                bs = self.band_idx[key[1]]
                for i, r0, c0 in items:
                    if steps[i]:
                        jobs.append((r, 0, steps[i], bs, r0, c0, h, w, i * per.shape[1]))
                continue
            bs = self.label_band_idx[key[1]]
            for i, r0, c0, m in items:
                if m.kind != "window" or m.k != (1, 1):
                    later.append((r, i, r0, c0, m))
                    continue
                lts = self._label_steps(m, keys[i][0], steps[i])
                orr, oc = m.off
                jobs.append((r, 1, lts, bs, r0 + orr, c0 + oc, h, w, i * mper.shape[1]))
                copies.append((i, m))
        if not self.keep_cache:
            for r in readers.values():
                r.set_cache_bytes(0)
                r.set_cache_bytes(self._cache_share())
        t0 = _time.perf_counter()
        st = _read_batch([per] if mper is None else [per, mper], jobs, self._in_flight(""))
        account(st, t0, _time.perf_counter(), t0)
        for i, m in copies:
            self._repeat_static(m, steps[i], mper[i])
        for r, i, r0, c0, m in later:
            t0 = _time.perf_counter()
            st = self._read_label(r, m, keys[i][0], r0, c0, steps[i], mper[i], mask.dtype)
            account(st, t0, _time.perf_counter(), t0)

    def _valid(self, out, keys, steps):
        valid = torch.zeros(out.shape, dtype=torch.bool)
        for i, (j, _, _) in enumerate(keys):
            nt = len(steps[i])
            nd = self.nodata[j]
            if nd is None:
                valid[i, :nt] = True
                continue
            for k, v in enumerate(nd):
                if v is None:
                    valid[i, :nt, k] = True
                    continue
                x = out[i, :nt, k]
                if x.dtype in (torch.float16, torch.bfloat16):
                    x = x.float()
                elif x.dtype in (getattr(torch, "uint16", None), getattr(torch, "uint32", None), getattr(torch, "uint64", None)):
                    x = x.to(torch.int64)
                if math.isnan(v):
                    valid[i, :nt, k] = ~torch.isnan(x) if x.is_floating_point() else True
                elif not x.is_floating_point() and v != int(v):
                    valid[i, :nt, k] = True
                else:
                    valid[i, :nt, k] = x != (v if x.is_floating_point() else int(v))
        return valid

    # -- labels ---------------------------------------------------------------------------------
    def _label_for(self, j, r0, c0):
        h, w = self.size
        for m in self.matches[j]:
            # a window's test takes plain numbers (no arrays to build per chip)
            if m.covers(r0, c0, h, w) if m.kind == "window" else m.covers(np.array([r0]), np.array([c0]), h, w)[0]:
                return m
        raise RequestError(
            f"chip ({j}, {r0}, {c0}) of {self.ids[j]} has no label file covering it "
            f"({len(self.matches[j])} label files overlap that image; on_missing='skip' lets samplers leave such chips out)")

    def _label_steps(self, m, j, ts):
        """Label steps for image steps ts: [0] for a static label file, else the label step at
        each image step's time (checked at construction)."""
        if m.tsteps is None:
            return [0]
        t_of = self._all_times(j)
        return [m.tsteps[int(t_of[t])] for t in ts]

    def _all_times(self, j):
        cache = self.__dict__.setdefault("_times_all", {})
        v = cache.get(j)
        if v is None:
            v = cache[j] = dict(zip(self.time_idx[j], (int(x) for x in self.file_times[j])))
        return v

    def _read_label(self, r, m, j, r0, c0, ts, dst, tdtype):
        """Reads label match m for chip (j, r0, c0) into dst, the chip's uint8 view of the mask
        (Tl, Bl, h, w): the steps of the chip's image steps ts (a static label: its one step,
        repeated over the chip's steps when Tl > 1); padding steps stay zero."""
        h, w = self.size
        lts = self._label_steps(m, j, ts)
        bs = self.label_band_idx[m.l]
        step_bytes = dst.size // self.Tl
        nb = step_bytes * len(lts)
        if m.kind == "window" and m.k == (1, 1):
            orr, oc = m.off
            st = r.read_into(memoryview(dst[:nb]), lts, bs, Window(c0 + oc, r0 + orr, w, h), threads=self.threads)
        else:
            Yl, Xl = self.label_shapes[m.l][2:]
            bad = None
            if m.kind == "window":
                (kr, kc), (orr, oc) = m.k, m.off
                rows = (r0 + np.arange(h) + orr) // kr
                cols = (c0 + np.arange(w) + oc) // kc
                R, C = np.broadcast_to(rows[:, None], (h, w)), np.broadcast_to(cols[None, :], (h, w))
            else:
                ti = self.transforms[j]
                cc, rr = np.meshgrid(c0 + np.arange(w) + 0.5, r0 + np.arange(h) + 0.5)
                x, y = _affine(ti, cc, rr)
                lcode = self._label_code(m.l)
                if self.codes[j] != lcode:
                    x, y = _transformer(self.codes[j], lcode).transform(x, y)
                lc, lr = _affine(_inverse(self._label_transform(m.l)), np.asarray(x), np.asarray(y))
                with np.errstate(invalid="ignore"):
                    C, R = np.floor(lc + 1e-10), np.floor(lr + 1e-10)  # the pixel holding the centre (GDAL's nearest)
                bad = ~(np.isfinite(C) & np.isfinite(R) & (C >= 0) & (C < Xl) & (R >= 0) & (R < Yl))
                C = np.where(bad, 0, C).astype(np.int64)
                R = np.where(bad, 0, R).astype(np.int64)
            rlo, rhi, clo, chi = int(R.min()), int(R.max()) + 1, int(C.min()), int(C.max()) + 1
            sb = step_bytes // (self.Bl * h * w)
            vt = np.dtype({1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}.get(sb, f"V{sb}"))
            src = np.empty((len(lts), len(bs), rhi - rlo, chi - clo), vt)
            st = r.read_into(memoryview(src.reshape(-1).view(np.uint8)), lts, bs, Window(clo, rlo, chi - clo, rhi - rlo),
                             threads=self.threads)
            g = src[:, :, R - rlo, C - clo]  # (steps, Bl, h, w)
            if bad is not None and bad.any():
                g[:, :, bad] = np.zeros((), vt)
            dst[:nb] = np.ascontiguousarray(g).reshape(-1).view(np.uint8)
        self._repeat_static(m, ts, dst)
        return st

    def _repeat_static(self, m, ts, dst):
        """A static label beside a time series: its one step repeated over the chip's image
        steps ts (dst: the chip's uint8 view of the mask, Tl steps)."""
        if m.tsteps is None and len(ts) > 1 and self.Tl > 1:
            v = dst.reshape(self.Tl, -1)
            v[1:len(ts)] = v[0]

    def _label_transform(self, l):
        cache = self.__dict__.setdefault("_ltr", {})
        if l not in cache:
            cache[l] = self.labels.table.column("proj:transform")[l].as_py()
        return cache[l]

    def _label_code(self, l):
        cache = self.__dict__.setdefault("_lcode", {})
        if l not in cache:
            cache[l] = self.labels.table.column("proj:code")[l].as_py()
        return cache[l]

    def loader(
        self, sampler: Iterable[tuple[int, int, int]], batch_size: int = 16, *, read_ahead: int = 2, **kw: Any
    ) -> torch.utils.data.DataLoader[Any]:
        """A DataLoader of batches of sampler's chips (collate_fn=rumi.torch.collate).

        With num_workers=0 (DataLoader's default) the batches are read `read_ahead` batches
        ahead of the one being used, on background threads (the reads release the GIL): one
        batch's wait on the network overlaps the others' decoding, as DataLoader workers'
        prefetching would, without worker processes. The batches come in the sampler's order,
        and a read's error is raised when its batch is reached. read_ahead=0: read each batch
        when it is asked for. DataLoader workers (num_workers > 0) prefetch as DataLoader does.

        state_dict() / load_state_dict(): the sampler's state and the batches delivered in the
        current epoch; after load_state_dict the next iteration resumes at the next batch (the
        keys before it are skipped, not read)."""
        return _ReadAheadLoader(self, batch_size=batch_size, sampler=sampler, collate_fn=collate,
                                read_ahead=read_ahead, **kw)


def _times_of(ds: ChipDataset, j: int, ts: Sequence[int]) -> np.ndarray:
    """datetime64[s] times of file j's steps ts."""
    t_of = ds._all_times(j)
    return np.array([t_of[t] for t in ts], dtype="int64").astype("datetime64[s]")


def _dates(secs):
    return [str(np.datetime64(int(s), "s")) for s in secs]


class _ReadAheadLoader(torch.utils.data.DataLoader):
    """DataLoader whose in-process iteration (num_workers=0) reads batches ahead on threads
    (ChipDataset.loader), with state_dict/load_state_dict to resume an epoch."""

    def __init__(self, dataset, *, read_ahead=2, **kw):
        if isinstance(read_ahead, bool) or not isinstance(read_ahead, int) or read_ahead < 0:
            raise ValueError(f"read_ahead must be an integer >= 0 (batches), not {read_ahead!r}")
        super().__init__(dataset, **kw)
        self.read_ahead = read_ahead
        self._delivered = 0
        self._resume = 0

    def state_dict(self) -> dict[str, Any]:
        """The sampler's state (seed, epoch, ...) and the samples delivered in this epoch."""
        s = self.sampler
        sd = dict(s.state_dict()) if hasattr(s, "state_dict") else {}
        sd["samples_delivered"] = self._delivered
        return sd

    def load_state_dict(self, state: dict[str, Any]) -> None:
        state = dict(state)
        n = int(state.pop("samples_delivered", 0))
        if hasattr(self.sampler, "load_state_dict"):
            state["yielded"] = n
            self.sampler.load_state_dict(state)
            self._resume = 0
        else:  # a plain list of keys: skip what was delivered
            self._resume = n
        self._delivered = n

    def _count(self, it):
        for b in it:
            self._delivered += len(b["key"]) if isinstance(b, dict) and "key" in b else self.batch_size or 1
            yield b

    def __iter__(self):
        if not hasattr(self.sampler, "load_state_dict"):
            skip = self._resume
            self._resume = 0
            if skip:
                self._delivered = skip
                return self._count(self._plain_skip(skip))
        else:
            self._delivered = getattr(self.sampler, "_start", 0)
        if self.num_workers > 0 or self.read_ahead == 0 or self.batch_sampler is None or self.pin_memory:
            return self._count(super().__iter__())
        return self._count(self._read_ahead(self.batch_sampler))

    def _plain_skip(self, skip):
        keys = list(self.sampler)[skip:]
        bs = torch.utils.data.BatchSampler(keys, self.batch_size, self.drop_last)
        return self._read_ahead(bs) if self.read_ahead else (collate(self.dataset.__getitems__(k)) for k in bs)

    def _read_ahead(self, batch_sampler):
        ds, collate_fn = self.dataset, self.collate_fn
        pending = collections.deque()
        ex = ThreadPoolExecutor(max_workers=max(1, self.read_ahead) + 1, thread_name_prefix="rumi-read-ahead")
        ahead = 0  # the first batch is read alone: it comes as soon as without read-ahead
        try:
            for keys in batch_sampler:
                pending.append(ex.submit(ds.__getitems__, list(keys)))
                if len(pending) > ahead:
                    yield collate_fn(pending.popleft().result())
                    ahead = self.read_ahead
            while pending:
                yield collate_fn(pending.popleft().result())
        finally:
            # the consumer stopped early or a read failed: drop what has not started
            ex.shutdown(wait=False, cancel_futures=True)


class _Samples(list):
    """What ChipDataset.__getitems__ returns: one _Sample per chip (torch's batched fetch expects
    a list of samples), cut from one batch read into whole tensors; b["image"] etc. read that
    batch's fields."""

    def __init__(self, fields: dict[str, Any], n: int) -> None:
        # the samples hold the fields, not this list: no reference cycle, so a batch let go
        # frees its tensors at once (its memory serves the next batch, rumi.spare)
        super().__init__(_Sample(fields, i) for i in range(n))
        self.fields = fields

    def __getitem__(self, k: Any) -> Any:
        if isinstance(k, str):
            return self.fields[k]
        return super().__getitem__(k)

    def keys(self) -> Any:
        return self.fields.keys()


class _Sample(collections.abc.MutableMapping):
    """Chip i of a batch: its fields are views of the batch's tensors (and its entries of the
    batch's lists; "stats" is the batch's), taken when asked for. Setting or deleting a field
    gives the sample a dict of its own, and collating stacks it like any other sample."""

    __slots__ = ("_batch", "_i", "_own")

    def __init__(self, fields: dict[str, Any] | None, i: int) -> None:
        self._batch, self._i, self._own = fields, i, None

    def _field(self, k: str, v: Any) -> Any:
        return v if k == "stats" else v[self._i]

    def __getitem__(self, k: str) -> Any:
        if self._own is not None:
            return self._own[k]
        return self._field(k, self._batch[k])

    def _detach(self) -> dict[str, Any]:
        if self._own is None:
            self._own = {k: self._field(k, v) for k, v in self._batch.items()}
            self._batch = None
        return self._own

    def __setitem__(self, k: str, v: Any) -> None:
        self._detach()[k] = v

    def __delitem__(self, k: str) -> None:
        del self._detach()[k]

    def __iter__(self) -> Iterator[str]:
        return iter(self._own if self._own is not None else self._batch)

    def __len__(self) -> int:
        return len(self._own if self._own is not None else self._batch)

    def __repr__(self) -> str:
        return f"<rumi.torch sample {self['key']} {', '.join(self)}>"


def collate(batch: Any) -> Any:
    """collate_fn for ChipDataset, also what torch's default_collate does with its samples.

    The samples of one __getitems__ call, whole and in order (what DataLoader hands its
    collate_fn with a batch_size and a sampler), give back the batch dict they were cut from:
    the tensors decoded into, no copy. Any other list of samples (from ds[key], a subset, or
    changed) is stacked: tensors with torch.stack, other fields as lists, "stats" dropped.
    ds.loader() uses it; DataLoader(ds, batch_size=16, sampler=...) works the same with its
    default collate_fn, since rumi.torch registers collate for its samples in torch's
    default_collate_fn_map (pass collate_fn=rumi.torch.collate where another collate_fn is the
    default, e.g. a wrapper's)."""
    if isinstance(batch, (list, tuple)) and batch and isinstance(batch[0], collections.abc.Mapping):
        src = getattr(batch[0], "_batch", None)
        if (src is not None and len(batch) == len(src["key"])
                and all(isinstance(s, _Sample) and s._batch is src and s._i == i for i, s in enumerate(batch))):
            return dict(src)
        out = {}
        for k in batch[0]:
            if k == "stats":
                continue
            v = [b[k] for b in batch]
            out[k] = torch.stack(v) if isinstance(v[0], torch.Tensor) else v
        return out
    return torch.utils.data.default_collate(batch)


def _collate_samples(batch: Any, *, collate_fn_map: Any = None) -> Any:
    return collate(batch)


try:  # torch's documented way to extend default_collate: its map of element types
    from torch.utils.data._utils.collate import default_collate_fn_map as _map

    _map[_Sample] = _collate_samples
except ImportError:  # pragma: no cover - torch < 1.13 (the extra needs >= 2.2)
    pass


# --- samplers ---------------------------------------------------------------------------------


def _dist(rank, world):
    if rank is None or world is None:
        d = torch.distributed
        if d.is_available() and d.is_initialized():
            rank = d.get_rank() if rank is None else rank
            world = d.get_world_size() if world is None else world
        else:
            rank, world = rank or 0, world or 1
    if not 0 <= rank < world:
        raise ValueError(f"rank {rank} is outside 0..{world - 1}")
    return rank, world


class _Sampler(torch.utils.data.Sampler):
    """Keys of one epoch: a global sequence that depends only on the dataset, seed and epoch;
    rank r of w takes keys r, r + w, r + 2w, ... of its first len // w * w. min_valid: only
    chips whose valid fraction the catalogue's summary guarantees (no pixel read); with labels
    and on_missing="skip", only chips with labels. Either that no chip can meet is an error
    here, at construction."""

    def __init__(self, dataset: ChipDataset, rank: int | None = None, world_size: int | None = None,
                 min_valid: float | None = None, seed: int = 0) -> None:
        self.ds = dataset
        self.rank, self.world = _dist(rank, world_size)
        self.epoch = 0
        self.seed = int(seed)
        if min_valid is not None and not 0.0 <= float(min_valid) <= 1.0:
            raise ValueError(f"min_valid must be in [0, 1], not {min_valid!r}")
        self.min_valid = None if min_valid is None else float(min_valid)
        self._start = 0
        self._yielded = 0
        self._cache = None
        if self.min_valid:
            err = dataset._min_valid_error(self.min_valid)
            if err is not None:
                raise err
        self._constrained = bool(self.min_valid) or (dataset.labels is not None and dataset.on_missing == "skip")
        if self._constrained:
            self._feasible = [dataset.feasible(j, self.min_valid) for j in range(dataset.num_files)]
            if not any(len(f) for f in self._feasible):
                raise dataset._no_chip_error(self.min_valid)

    def set_epoch(self, epoch: int) -> None:
        self.epoch = int(epoch)

    def _all(self):  # pragma: no cover - abstract
        raise NotImplementedError

    def _global(self):
        if self._cache is None or self._cache[0] != (self.seed, self.epoch):
            self._cache = ((self.seed, self.epoch), self._all())
        return self._cache[1]

    def _keys(self):
        keys = self._global()
        # equal share per rank (the tail that does not divide is dropped), no key on two ranks
        n = len(keys) // self.world * self.world
        return keys[self.rank:n:self.world]

    def __iter__(self) -> Iterator[tuple[int, int, int]]:
        keys = self._keys()
        start, self._start = self._start, 0
        self._yielded = start
        for k in keys[start:]:
            self._yielded += 1
            yield k

    def __len__(self) -> int:
        return len(self._global()) // self.world

    def state_dict(self) -> dict[str, Any]:
        """seed, epoch, rank, world_size and the keys this rank's iterator gave in the epoch
        (the loader's state_dict counts the delivered ones instead)."""
        return {"seed": self.seed, "epoch": self.epoch, "rank": self.rank, "world_size": self.world,
                "yielded": self._yielded}

    def load_state_dict(self, state: dict[str, Any]) -> None:
        """Resume: the next iteration starts at key `yielded` of this rank's share of `epoch`.
        A state saved with another world size resumes at the same place of the global sequence."""
        self.seed = int(state.get("seed", self.seed))
        self.epoch = int(state.get("epoch", self.epoch))
        y = int(state.get("yielded", 0))
        w = int(state.get("world_size", self.world))
        if w != self.world:  # global position of the saved rank's next key, in this world's shares
            y = -(-(y * w) // self.world)
        self._start = y
        self._yielded = y


def _check_length(length):
    if isinstance(length, bool) or int(length) < 0:
        raise ValueError(f"length must be an integer >= 0, not {length!r}")
    return int(length)


class RandomChipSampler(_Sampler):
    """length chips at random positions: a file drawn with probability proportional to its
    area, then a uniform offset. Deterministic for a seed (and epoch, see set_epoch). With
    min_valid (or labels), files without a chip that meets it are left out, and an offset that
    fails is redrawn (up to 63 times, then one of the file's lattice offsets that meet it, see
    ChipDataset._lattice): every key meets the constraints, decided without reading pixels."""

    def __init__(
        self, dataset: ChipDataset, length: int, seed: int = 0, rank: int | None = None, world_size: int | None = None,
        min_valid: float | None = None,
    ) -> None:
        super().__init__(dataset, rank, world_size, min_valid, seed)
        self.length = _check_length(length)

    def _all(self):
        rng = np.random.default_rng([self.seed, self.epoch])
        h, w = self.ds.size
        area = np.array([(s[2] - h + 1) * (s[3] - w + 1) for s in self.ds.shapes], dtype=float)
        if self._constrained:
            area = area * np.array([len(f) > 0 for f in self._feasible])
        js = rng.choice(len(area), size=self.length, p=area / area.sum())
        ys = rng.random(self.length)
        xs = rng.random(self.length)
        Ys = np.array([self.ds.shapes[j][2] for j in js], np.int64)
        Xs = np.array([self.ds.shapes[j][3] for j in js], np.int64)
        r0 = (ys * (Ys - h + 1)).astype(np.int64)
        c0 = (xs * (Xs - w + 1)).astype(np.int64)
        if self._constrained and self.length:
            extra = 63
            ey = (rng.random((self.length, extra)) * (Ys - h + 1)[:, None]).astype(np.int64)
            ex = (rng.random((self.length, extra)) * (Xs - w + 1)[:, None]).astype(np.int64)
            fb = rng.random(self.length)
            for j in np.unique(js):
                sel = np.flatnonzero(js == j)
                cand_r = np.concatenate([r0[sel, None], ey[sel]], 1)
                cand_c = np.concatenate([c0[sel, None], ex[sel]], 1)
                ok = self.ds.chip_ok(int(j), cand_r.ravel(), cand_c.ravel(), self.min_valid).reshape(cand_r.shape)
                first = np.argmax(ok, axis=1)
                has = ok[np.arange(len(sel)), first]
                r0[sel] = np.where(has, cand_r[np.arange(len(sel)), first], 0)
                c0[sel] = np.where(has, cand_c[np.arange(len(sel)), first], 0)
                miss = sel[~has]
                if len(miss):
                    F = self._feasible[int(j)]
                    pick = (fb[miss] * len(F)).astype(np.int64)
                    r0[miss], c0[miss] = F[pick, 0], F[pick, 1]
        return [(int(j), int(r), int(c)) for j, r, c in zip(js, r0, c0)]


class GridChipSampler(_Sampler):
    """Every chip of a grid of stride pixels (default: the chip size) over each file, the last
    row and column moved in to end at the file's edge (with min_valid or labels: those that meet
    them). shuffle with a seed for a random order."""

    def __init__(
        self,
        dataset: ChipDataset,
        stride: int | tuple[int, int] | None = None,
        rank: int | None = None,
        world_size: int | None = None,
        min_valid: float | None = None,
        shuffle: bool = False,
        seed: int = 0,
    ) -> None:
        h, w = dataset.size
        self.stride = (h, w) if stride is None else ((int(stride),) * 2 if np.isscalar(stride) else tuple(stride))
        self.shuffle = bool(shuffle)
        super().__init__(dataset, rank, world_size, min_valid, seed)
        if self._constrained and not self._global():
            raise self.ds._no_chip_error(self.min_valid)

    def _all(self):
        h, w = self.ds.size
        sy, sx = self.stride
        out = []
        for j, (_, _, Y, X) in enumerate(self.ds.shapes):
            ys = sorted(set(list(range(0, Y - h + 1, sy)) + [Y - h]))
            xs = sorted(set(list(range(0, X - w + 1, sx)) + [X - w]))
            out += _filtered(self, j, ys, xs)
        return _shuffled(self, out)


def _filtered(s, j, ys, xs):
    R, C = np.meshgrid(np.asarray(ys, np.int64), np.asarray(xs, np.int64), indexing="ij")
    R, C = R.ravel(), C.ravel()
    if s._constrained:
        ok = s.ds.chip_ok(j, R, C, s.min_valid)
        R, C = R[ok], C[ok]
    return [(j, int(r), int(c)) for r, c in zip(R, C)]


def _shuffled(s, out):
    if s.shuffle:
        rng = np.random.default_rng([s.seed, s.epoch])
        out = [out[i] for i in rng.permutation(len(out))]
    return out


class TileChipSampler(_Sampler):
    """Chips aligned with the files' tiles: every position on the tile grid where a chip fits
    whole (a chip of the tile size then reads exactly one frame: one request). shuffle with a
    seed for a random order."""

    def __init__(
        self, dataset: ChipDataset, shuffle: bool = False, seed: int = 0, rank: int | None = None,
        world_size: int | None = None, min_valid: float | None = None,
    ) -> None:
        self.shuffle = shuffle
        super().__init__(dataset, rank, world_size, min_valid, seed)
        if self._constrained and not self._global():
            raise self.ds._no_chip_error(self.min_valid)

    def _all(self):
        h, w = self.ds.size
        out = []
        for j, (_, _, Y, X) in enumerate(self.ds.shapes):
            th, tw = self.ds.tiles[j]
            sy = th * max(1, math.ceil(h / th))
            sx = tw * max(1, math.ceil(w / tw))
            out += _filtered(self, j, range(0, Y - h + 1, min(sy, th) if h <= th else sy),
                             range(0, X - w + 1, min(sx, tw) if w <= tw else sx))
        return _shuffled(self, out)
