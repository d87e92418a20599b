"""TorchGeo datasets over rumi catalogues (issue 24; TorchGeo >= 0.10, `pip install 'rumi[torchgeo]'`).

    from torch.utils.data import DataLoader
    from torchgeo.datasets import stack_samples
    from torchgeo.samplers import RandomPatchSampler
    images = rumi.torchgeo.RumiRasterDataset("images.parquet", bands=["red", "green", "blue"])
    labels = rumi.torchgeo.RumiRasterDataset("labels.parquet", is_image=False)
    ds = images & labels                      # TorchGeo's IntersectionDataset
    loader = DataLoader(ds, sampler=RandomPatchSampler(ds, size=256, length=1000), batch_size=16,
                        collate_fn=stack_samples)

`RumiRasterDataset` is a TorchGeo `GeoDataset` whose index holds one row per catalogue row
(footprint in the dataset's CRS, the file's time span), so TorchGeo's samplers, intersection and
union datasets, transforms and trainers take rumi collections. A query (x, y and t slices in the
dataset's CRS) reads each overlapping file straight from its catalogued header blob: when the
query's grid is the file's (same CRS and resolution, aligned: what TorchGeo's samplers give for
a single-CRS collection) one window read; otherwise nearest neighbour (pixel centres through
pyproj, rumi.torch's resampling). Files are merged in index order, the first file's valid
pixels winning (the catalogue's nodata marks the others; pixels no file has take the first
file's nodata, else 0, as rasterio.merge fills them), or stacked (time_series=True: one
layer per time step of each file, in time order, as RasterDataset's [T, C, H, W]).
Time: each file spans its steps' times (an instant its second, an interval [start, end)). A
file valid at all times (a land-cover map beside dated images) is what TorchGeo's RasterDataset
makes of a file without a date, (pd.Timestamp.min, pd.Timestamp.max): `static=True` gives every
file of the dataset that span and reads its steps whatever a query's time; so does a file whose
times reach beyond pandas' range (an interval ("0001-01-01", "9999-12-31")) or a catalogue row
without times. Such labels intersect dated images (`images & labels`, and
`IntersectionDataset(..., spatial_only=True)` queried by TorchGeo's GeoSamplers, which pass the
images' times) as TorchGeo's own datasets do.
Differences from TorchGeo's RasterDataset: only nearest-neighbour resampling (a float image on
another grid is not interpolated bilinearly); `dtype` defaults as TorchGeo's (float32 images,
int64 masks).
"""

from __future__ import annotations

import os
import threading
from typing import Any, Sequence

import numpy as np

try:
    import pandas as pd
    import torch
    from geopandas import GeoDataFrame
    from pyproj import CRS
    from torchgeo.datasets import GeoDataset
except ImportError as e:  # pragma: no cover - depends on the environment
    import sys as _sys

    if _sys.version_info < (3, 12):
        raise ImportError(
            f"rumi.torchgeo needs TorchGeo >= 0.10, which needs Python >= 3.12 (this is "
            f"{_sys.version_info.major}.{_sys.version_info.minor}): make a Python 3.12 venv and "
            "pip install 'rumi[torchgeo]' there; rumi.torch works on this Python"
        ) from e
    raise ImportError(f"rumi.torchgeo needs TorchGeo >= 0.10 ({e}): pip install 'rumi[torchgeo]'") from e

import rumi
from rumi import RequestError, Window
from rumi.catalog import Catalog, open_row, time_seconds
from rumi.torch import _affine, _as_catalog, _inverse

__all__ = ["RumiRasterDataset"]


class RumiRasterDataset(GeoDataset):
    """A TorchGeo GeoDataset of the files of a rumi catalogue (or its path, a rumi file).

    bands: band texts (default: the first file's; every file must hold them). crs: the
    dataset's CRS (default: the first file's), res: its resolution in CRS units (default: the
    first file's). is_image: samples carry "image" (C, H, W), else "mask" (H, W for one band).
    dtype: the samples' torch dtype (default float32 for images, int64 for masks).
    time_series: stack every time step of every overlapping file ([T, C, H, W]) instead of
    merging them into one mosaic. static: the files are valid at all times (TorchGeo's span of a
    file without a date; a query reads every step, whatever its time), for labels that do not
    change (a land-cover map written with the date it was made). transforms: applied to each
    sample."""

    def __init__(
        self,
        catalog: Any,
        bands: Sequence[str] | None = None,
        crs: Any = None,
        res: float | tuple[float, float] | None = None,
        *,
        is_image: bool = True,
        dtype: torch.dtype | None = None,
        time_series: bool = False,
        static: bool = False,
        transforms: Any = None,
        options: dict[str, Any] | None = None,
        verify_size: bool = True,
    ) -> None:
        import shapely

        cat = _as_catalog(catalog, "catalog")
        t = cat.table
        if t.num_rows == 0:
            raise RequestError("the catalogue selection is empty")
        self.catalog = cat
        self.is_image = bool(is_image)
        self._dtype = dtype
        self.time_series = bool(time_series)
        self.static = bool(static)
        self.transforms = transforms
        self.options = options
        self.verify_size = verify_size
        self.paths = t.column("location").to_pylist()
        ids = t.column("id").to_pylist()
        codes = t.column("proj:code").to_pylist()
        trs = t.column("proj:transform").to_pylist()
        shapes = t.column("rumi:shape").to_pylist()
        allb = t.column("rumi:bands").to_pylist()
        names = list(bands) if bands is not None else allb[0]
        self.bands = names
        self.band_idx = []
        for i in range(t.num_rows):
            if codes[i] is None or trs[i] is None:
                raise RequestError(f"{ids[i]} has no CRS: a GeoDataset needs georeferenced files")
            try:
                self.band_idx.append([allb[i].index(b) for b in names])
            except ValueError:
                raise RequestError(f"{ids[i]} lacks some of the bands {names}") from None
        dts = set(t.column("rumi:dtype").to_pylist())
        if len(dts) != 1:
            raise RequestError(f"the files have different sample types {sorted(dts)}")
        self.encoding = dts.pop()
        self._codes, self._trs, self._shapes = codes, trs, shapes
        nds = t.column("rumi:nodata").to_pylist()
        self._nodata = [None if nd is None else [nd[b] for b in bi] for nd, bi in zip(nds, self.band_idx)]
        target = CRS.from_user_input(crs if crs is not None else codes[0])
        if res is None:
            a, b, _, d, e, _ = trs[0]
            res = (float(np.hypot(a, d)), float(np.hypot(b, e)))
            if CRS.from_user_input(codes[0]) != target:  # the first file's pixel size, in the target CRS
                x0, y0, x1, y1 = _outline(trs[0], shapes[0][2:], codes[0], target).bounds
                res = ((x1 - x0) / shapes[0][3], (y1 - y0) / shapes[0][2])
        self._res = (float(res), float(res)) if np.isscalar(res) else (float(res[0]), float(res[1]))
        times, ends = time_seconds(t), time_seconds(t, "rumi:time_ends")
        self._times = times
        self._ends = ends
        self._all_times = set()  # rows valid at all times: every step is read, whatever the query's time
        spans = []
        geoms = []
        for i in range(t.num_rows):
            span = None if self.static or not times[i] else _span(min(times[i]), max(ends[i]) if ends[i] else max(times[i]) + 1)
            if span is None or span == (pd.Timestamp.min, pd.Timestamp.max):
                self._all_times.add(i)
                span = (pd.Timestamp.min, pd.Timestamp.max)
            spans.append(span)
            geoms.append(_outline(trs[i], shapes[i][2:], codes[i], target))
        index = pd.IntervalIndex.from_tuples(spans, closed="both", name="datetime")
        self.index = GeoDataFrame({"row": list(range(t.num_rows)), "filepath": self.paths}, index=index,
                                  geometry=geoms, crs=target)
        self._local = threading.local()
        del shapely

    @property
    def dtype(self) -> torch.dtype:
        if self._dtype is not None:
            return self._dtype
        return torch.float32 if self.is_image else torch.long

    def __getstate__(self) -> dict[str, Any]:
        d = dict(self.__dict__)
        d.pop("_local", None)
        return d

    def __setstate__(self, d: dict[str, Any]) -> None:
        self.__dict__.update(d)
        self._local = threading.local()

    def _reader(self, i: int) -> rumi.Dataset:
        loc = self._local
        if getattr(loc, "pid", None) != os.getpid():
            loc.pid, loc.readers = os.getpid(), {}
        r = loc.readers.get(i)
        if r is None:
            r = loc.readers[i] = open_row(self.catalog.row(i), options=self.options, verify_size=self.verify_size, threads=1)
        return r

    def _steps(self, i: int, t0: pd.Timestamp, t1: pd.Timestamp) -> list[int]:
        if i in self._all_times:
            return list(range(self._shapes[i][0]))
        a, b = t0.timestamp(), t1.timestamp()
        ends = self._ends[i]
        return [k for k, s in enumerate(self._times[i]) if (ends[k] if ends else s + 1) > a and s <= b]

    def __getitem__(self, index: Any) -> dict[str, Any]:
        x, y, t = self._disambiguate_slice(index)
        interval = pd.Interval(t.start, t.stop)
        df = self.index.iloc[self.index.index.overlaps(interval)]
        df = df.iloc[:: t.step]
        df = df.cx[x.start:x.stop, y.start:y.stop]
        if df.empty:
            there = self.index.cx[x.start:x.stop, y.start:y.stop]
            hint = ""
            if not there.empty:  # the place has files, at other times
                hint = (f": the files there span {there.index.left.min()} to {there.index.right.max()}, not the query's "
                        f"{t.start} to {t.stop}; for data valid at all times (a land-cover map), "
                        "RumiRasterDataset(..., static=True) spans all times, as TorchGeo's RasterDataset does for a file "
                        "without a date")
            raise IndexError(f"index: {index} not found in dataset with bounds: {self.bounds}{hint}")
        W = int(round((x.stop - x.start) / x.step))
        H = int(round((y.stop - y.start) / y.step))
        dst = (x.step, 0.0, x.start, 0.0, -y.step, y.stop)  # north up, as TorchGeo's queries
        crs = self.crs
        layers = []  # (time, array (C, H, W), covered (H, W))
        for i in df["row"]:
            steps = self._steps(int(i), t.start, t.stop)
            if not steps:
                continue
            arr, cov = self._read(int(i), steps, dst, H, W, crs)
            for k, s in enumerate(steps):
                layers.append((self._times[int(i)][s] if self._times[int(i)] else 0, arr[k], cov))
        if not layers:
            raise IndexError(f"index: {index} has no time step in the dataset")
        # outside every file: the first file's nodata (per band, else 0), as rasterio.merge fills
        nd = self._nodata[int(df["row"].iloc[0])] or [None] * len(self.bands)
        fill = np.array([0 if v is None else v for v in nd]).astype(layers[0][1].dtype)[:, None, None]
        if self.time_series:
            layers.sort(key=lambda v: v[0])
            data = np.stack([np.where(cov, a, fill) for _, a, cov in layers])
        else:
            data = np.broadcast_to(fill, layers[0][1].shape).copy()
            filled = np.zeros(layers[0][2].shape, bool)
            for _, a, cov in layers:
                take = cov & ~filled
                data[:, take] = a[:, take]
                filled |= take
        tensor = torch.from_numpy(np.ascontiguousarray(data)) if data.dtype.kind in "biuf" and data.dtype.itemsize <= 8 \
            else torch.from_numpy(data.astype(np.float32))
        sample: dict[str, Any] = {
            "bounds": self._slice_to_tensor(index),
            "transform": torch.tensor([x.step, 0.0, x.start, 0.0, -y.step, y.stop, 0.0, 0.0, 1.0]),
        }
        tensor = tensor.to(self.dtype)
        if self.is_image:
            sample["image"] = tensor
        else:
            sample["mask"] = tensor.squeeze(-3)
        if self.transforms is not None:
            sample = self.transforms(sample)
        return sample

    def _read(self, i: int, steps: list[int], dst: tuple[float, ...], H: int, W: int, crs: CRS) -> tuple[np.ndarray, np.ndarray]:
        """File i's samples on the query grid dst (H x W): (steps, C, H, W) and where the file has
        valid pixels (inside it and, with nodata, not nodata in every band)."""
        r = self._reader(i)
        src = self._trs[i]
        Y, X = self._shapes[i][2:]
        bs = self.band_idx[i]
        same = CRS.from_user_input(self._codes[i]) == crs
        out = np.zeros((len(steps), len(bs), H, W), dtype=r.dtype)
        cov = np.zeros((H, W), bool)
        aligned = None
        if same and src[1] == src[3] == 0 and np.isclose(src[0], dst[0], rtol=1e-9) and np.isclose(src[4], dst[4], rtol=1e-9):
            oc, orr = (dst[2] - src[2]) / src[0], (dst[5] - src[5]) / src[4]
            if abs(oc - round(oc)) < 1e-6 and abs(orr - round(orr)) < 1e-6:
                aligned = (int(round(orr)), int(round(oc)))
        if aligned is not None:  # the file's own grid: one window read
            orr, oc = aligned
            r0, r1 = max(0, orr), min(Y, orr + H)
            c0, c1 = max(0, oc), min(X, oc + W)
            if r0 < r1 and c0 < c1:
                out[:, :, r0 - orr:r1 - orr, c0 - oc:c1 - oc] = r.read(t=steps, b=bs, window=Window(c0, r0, c1 - c0, r1 - r0))
                cov[r0 - orr:r1 - orr, c0 - oc:c1 - oc] = True
        else:  # nearest neighbour: each query pixel centre through pyproj to the file's pixel
            cc, rr = np.meshgrid(np.arange(W) + 0.5, np.arange(H) + 0.5)
            xs, ys = _affine(dst, cc, rr)
            if not same:
                from rumi.torch import _transformer

                xs, ys = _transformer(crs.to_wkt(), self._codes[i]).transform(xs, ys)
            fc, fr = _affine(_inverse(src), np.asarray(xs), np.asarray(ys))
            with np.errstate(invalid="ignore"):
                C, R = np.floor(fc + 1e-10), np.floor(fr + 1e-10)
            ok = np.isfinite(C) & np.isfinite(R) & (C >= 0) & (C < X) & (R >= 0) & (R < Y)
            if ok.any():
                C, R = C[ok].astype(np.int64), R[ok].astype(np.int64)
                rlo, rhi, clo, chi = int(R.min()), int(R.max()) + 1, int(C.min()), int(C.max()) + 1
                a = r.read(t=steps, b=bs, window=Window(clo, rlo, chi - clo, rhi - rlo))
                out[:, :, ok] = np.asarray(a)[:, :, R - rlo, C - clo]
                cov = ok
        nd = self._nodata[i]
        if nd is not None:
            for k, v in enumerate(nd):
                if v is None:
                    continue
                band = out[:, k]
                bad = np.isnan(band) if (isinstance(v, float) and np.isnan(v) and band.dtype.kind == "f") else band == v
                cov = cov & ~bad.all(axis=0)
        return out, cov


def _span(lo: int, hi: int) -> tuple[pd.Timestamp, pd.Timestamp]:
    """The index interval of seconds [lo, hi): an instant spans its second and an interval up to
    its end's previous microsecond, as TorchGeo's timestamps parsed from file names do; a bound
    beyond pandas' range is pd.Timestamp.min / .max (TorchGeo's bounds of a file without a
    date)."""
    a = pd.Timestamp.min if lo * 10**9 <= pd.Timestamp.min.value else pd.Timestamp(lo, unit="s")
    b = pd.Timestamp.max if hi * 10**9 > pd.Timestamp.max.value else pd.Timestamp(hi, unit="s") - pd.Timedelta(1, "us")
    return a, b


def _outline(tr: Sequence[float], shape: Sequence[int], code: str, target: CRS) -> Any:
    """The polygon of a file's grid outline (edges densified) in the target CRS."""
    import shapely

    Y, X = shape
    n = 32
    s = np.linspace(0.0, 1.0, n + 1)
    px = np.concatenate([s * X, np.full(n + 1, X), (1 - s) * X, np.zeros(n + 1)])
    py = np.concatenate([np.zeros(n + 1), s * Y, np.full(n + 1, Y), (1 - s) * Y])
    x, y = _affine(tr, px, py)
    if CRS.from_user_input(code) != target:
        from rumi.torch import _transformer

        x, y = _transformer(code, target.to_wkt()).transform(x, y)
    poly = shapely.Polygon(np.stack([x, y], 1))
    return poly if poly.is_valid else shapely.make_valid(poly)
