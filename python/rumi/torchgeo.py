"""TorchGeo datasets over rumi catalogues (TorchGeo >= 0.10, `pip install 'rumi[torchgeo]'`).

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

from affine import Affine

import rumi
from rumi import Grid, RequestError, Window
from rumi._internal import Scaling, apply_scaling, covering, exact_epsg, transformer, valid_mask
from rumi.catalog import columns as K
from rumi.catalog.decode import Rows, one_sample_type, overlap
from rumi.catalog.stats import Stats
from rumi.torch.index import as_catalog
from rumi.torch.labels import file_grid
from rumi.torch.readers import ReaderPool
from rumi.torch.scaling import ScaleChecks
from rumi.torch.scaling import per_file as scale_per_file

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
    change (a land-cover map written with the date it was made). apply_scale: samples are the
    values raw * scale + offset of each file (the catalogue's rumi:scales / rumi:offsets), nodata
    and pixels no file has NaN; without it raw samples, and files that give a band two scales
    are refused (rumi.torch's checks, as ChipDataset's). transforms: applied to each sample."""

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
        apply_scale: bool = False,
        transforms: Any = None,
        options: dict[str, Any] | None = None,
        verify_size: bool = True,
    ) -> None:
        import shapely

        cat = as_catalog(catalog, "catalog")
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
        r = Rows(t)  # the catalogue's columns, decoded (rumi.catalog.decode)
        self.paths = t.column(K.LOCATION).to_pylist()
        ids = [r.id(i) for i in range(r.n)]
        code_names, which = r.grid_codes
        codes = [code_names[k] if k >= 0 else None for k in which.tolist()]
        trs = r.transforms
        shapes = r.shapes.tolist()
        names = list(bands) if bands is not None else r.first_bands()
        look = r.bands_of(names)
        self.bands = names
        self._grids: list[Grid] = []
        for i in range(t.num_rows):
            grid = file_grid(codes[i], None if np.isnan(trs[i, 0]) else trs[i].tolist(), shapes[i][2:])
            if grid is None:
                raise RequestError(f"{ids[i]} has no CRS: a GeoDataset needs georeferenced files")
            self._grids.append(grid)
            look.require(np.array([i]), lambda k: f"row {k} ({ids[k]})")
        self.band_idx = look.idx.tolist()
        self.encoding = one_sample_type({e: ids[i] for e, i in r.first_of_types(np.arange(r.n)).items()})
        self._shapes = shapes
        nd_val, nd_has, nd_known = r.band_nodata(np.arange(r.n), look.idx)
        self._nodata = [None if not k else [float(v) if h else None for v, h in zip(vs, hs)]
                        for vs, hs, k in zip(nd_val.tolist(), nd_has.tolist(), nd_known.tolist())]
        # scale and offset (rumi.torch.scaling): the selection's checks, then per file the bands' own
        self.apply_scale = bool(apply_scale)
        if self.apply_scale and not self.dtype.is_floating_point:
            raise ValueError(f"apply_scale=True gives values raw * scale + offset: dtype {self.dtype} is not a floating "
                             "type (masks default to torch.long; pass dtype=torch.float32)")
        rows, bi_all, shp = np.arange(t.num_rows), np.array(self.band_idx, np.int64), np.array(shapes, np.int64)
        checks = ScaleChecks(names, self.apply_scale)
        checks.add(r, rows, bi_all, shp, lambda i: str(ids[i]))
        self.units = checks.finish()
        sc, of, _, _ = scale_per_file(r, rows, bi_all, shp)
        self._scaling = [Scaling(tuple(map(float, a)), tuple(map(float, b)), self.units) for a, b in zip(sc, of)]
        target = CRS.from_user_input(crs if crs is not None else codes[0])
        target_text = _crs_text(target)
        geographic = bool(target.is_geographic)
        if res is None:
            res = self._grids[0].res
            if self._grids[0].crs != target_text:  # the first file's pixel size, in the target CRS
                x0, y0, x1, y1 = _outline(self._grids[0], target_text, geographic, lifted=True).bounds
                res = ((x1 - x0) / shapes[0][3], (y1 - y0) / shapes[0][2])
        self._res = (float(res[0]), float(res[1])) if isinstance(res, (tuple, list)) else (float(res), float(res))
        tm = self._tm = r.times  # each step spans [start, stop): an instant its second (Times.stop)
        self._stop = tm.stop
        self._times = tm.lists()
        self._all_times = set()  # rows valid at all times: every step is read, whatever the query's time
        spans = []
        geoms = []
        off = tm.off.tolist()
        for i in range(t.num_rows):
            a, b = off[i], off[i + 1]
            span = None if self.static or a == b else _span(int(tm.start[a:b].min()), int(self._stop[a:b].max()))
            if span is None or span == (pd.Timestamp.min, pd.Timestamp.max):
                self._all_times.add(i)
                span = (pd.Timestamp.min, pd.Timestamp.max)
            spans.append(span)
            geoms.append(_outline(self._grids[i], target_text, geographic))
        index = pd.IntervalIndex.from_tuples(spans, closed="both", name="datetime")
        self.index = GeoDataFrame({"row": list(range(t.num_rows)), "filepath": self.paths}, index=index,
                                  geometry=geoms, crs=target)
        self._readers = ReaderPool(files=t.num_rows, options=options, verify_size=verify_size, threads=1)
        del shapely

    @property
    def dtype(self) -> torch.dtype:
        if self._dtype is not None:
            return self._dtype
        return torch.float32 if self.is_image else torch.long

    def stats(self, *, exact: bool = True) -> Stats:
        """The statistics of the bands over the dataset's files (rumi.catalog.stats: the
        catalogue selection's box and time window) in the samples' units (apply_scale as given):
        .mean / .std per band, .normalize() a Normalize transform of them."""
        return self.catalog.stats(self.bands, apply_scale=self.apply_scale, exact=exact, options=self.options)

    def _reader(self, i: int) -> rumi.Dataset:
        return self._readers.reader(i, lambda: self.catalog.row(i))

    def _crs_of_queries(self) -> str:
        """The text of the dataset's CRS (which IntersectionDataset may change) for rumi.Grid."""
        crs = self.crs
        memo = self.__dict__.get("_crs_memo")
        if memo is None or memo[0] is not crs:
            memo = self.__dict__["_crs_memo"] = (crs, _crs_text(crs))
        return str(memo[1])

    def _steps(self, i: int, t0: pd.Timestamp, t1: pd.Timestamp) -> list[int]:
        if i in self._all_times:
            return list(range(self._shapes[i][0]))
        a, b = int(self._tm.off[i]), int(self._tm.off[i + 1])
        hit = overlap(self._tm.start[a:b], self._stop[a:b], (t0.timestamp(), t1.timestamp()), end_open=True)
        return [int(k) for k in np.flatnonzero(hit)]

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
        query = Grid(self._crs_of_queries(), Affine(x.step, 0.0, x.start, 0.0, -y.step, y.stop), (H, W))  # north up, as TorchGeo's
        layers = []  # (time, array (C, H, W), covered (H, W))
        for i in df["row"]:
            steps = self._steps(int(i), t.start, t.stop)
            if not steps:
                continue
            arr, cov = self._read(int(i), steps, query)
            for k, s in enumerate(steps):
                times = self._times[int(i)]
                layers.append((times[s] if times else 0, arr[k], cov))
        if not layers:
            raise IndexError(f"index: {index} has no time step in the dataset")
        # outside every file: the first file's nodata (per band, else 0), as rasterio.merge fills
        nd = self._nodata[int(df["row"].iloc[0])] or [None] * len(self.bands)
        fill = np.array([0 if v is None else v for v in nd]).astype(layers[0][1].dtype)[:, None, None]
        if self.apply_scale:  # values: a pixel no file has is NaN
            fill = np.full(fill.shape, np.nan)
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

    def _read(self, i: int, steps: list[int], query: Grid) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        """File i's samples on the query grid: (steps, C, H, W) and where the file has valid
        pixels (inside it and, with nodata, not nodata in every band)."""
        r = self._reader(i)
        grid = self._grids[i]
        Y, X = grid.shape
        H, W = query.shape
        bs = self.band_idx[i]
        out = np.zeros((len(steps), len(bs), H, W), dtype=r.dtype)
        cov = np.zeros((H, W), bool)
        al = query.aligned(grid)
        if al is not None and al.k == (1, 1):  # the file's own grid: one window read
            orr, oc = al.off
            r0, r1 = max(0, orr), min(Y, orr + H)
            c0, c1 = max(0, oc), min(X, oc + W)
            if r0 < r1 and c0 < c1:
                out[:, :, r0 - orr:r1 - orr, c0 - oc:c1 - oc] = r.read(t=steps, b=bs, window=Window(c0, r0, c1 - c0, r1 - r0))
                cov[r0 - orr:r1 - orr, c0 - oc:c1 - oc] = True
        else:  # nearest neighbour: each query pixel centre through pyproj to the file's pixel
            rows, cols = np.meshgrid(np.arange(H), np.arange(W), indexing="ij")
            R, C, outside = query.nearest(grid, rows, cols)
            ok = ~outside
            if ok.any():
                R, C = R[ok], C[ok]
                win = covering(R, C)
                a = r.read(t=steps, b=bs, window=win)
                out[:, :, ok] = np.asarray(a)[:, :, R - win.row_off, C - win.col_off]
                cov = ok
        for k, v in enumerate(self._nodata[i] or ()):
            if v is not None:  # a pixel with nodata in every step of a band is not the file's
                cov = cov & valid_mask(out[:, k], v).any(axis=0)
        if self.apply_scale:  # the values, in float64: nodata NaN
            raw, out = out, apply_scaling(out, self._scaling[i], 1, np.float64)
            for k, v in enumerate(self._nodata[i] or ()):
                if v is not None:
                    out[:, k][~valid_mask(raw[:, k], v)] = np.nan
        return out, cov


def _span(lo: int, hi: int) -> tuple[pd.Timestamp, pd.Timestamp]:
    """The index interval of seconds [lo, hi): an instant spans its second and an interval up to
    its end's previous microsecond, as TorchGeo's timestamps parsed from file names do; a bound
    beyond pandas' range is pd.Timestamp.min / .max (TorchGeo's bounds of a file without a
    date)."""
    a = pd.Timestamp.min if lo * 10**9 <= pd.Timestamp.min.value else pd.Timestamp(lo, unit="s")
    b = pd.Timestamp.max if hi * 10**9 > pd.Timestamp.max.value else pd.Timestamp(hi, unit="s") - pd.Timedelta(1, "us")
    return a, b


def _crs_text(crs: CRS) -> str:
    """"EPSG:n" of a CRS that is EPSG code n exactly (rumi's one rule, exact_epsg; the files' CRS
    text: rumi.Grid compares them), else its WKT."""
    code = exact_epsg(crs)
    return f"EPSG:{code}" if code is not None else str(crs.to_wkt())


def _outline(grid: Grid, crs: str, geographic: bool, lifted: bool = False) -> Any:
    """The polygon of a file's grid outline (edges densified) in the dataset's CRS (_crs_text).
    In a geographic CRS, as the catalogue's footprints (rumi.catalog.geometry): cut at 180
    degrees into a MultiPolygon, closed through a pole it holds (not a band around the globe);
    lifted=True: the lift itself, longitudes running on past 180 (its bounds are the file's
    extent)."""
    import shapely

    if geographic:
        from rumi.catalog import geometry

        g = geometry.grid_lift(grid, 32)
        if crs != "EPSG:4326":  # another datum's longitudes and latitudes, before the cut at 180
            tr = transformer("EPSG:4326", crs)
            g = shapely.transform(g, lambda c: np.stack(tr.transform(c[:, 0], c[:, 1]), 1))
        return g if lifted else geometry.split(g)
    if crs.startswith("EPSG:"):
        ring = grid.outline(crs, densify=32)
    else:  # a CRS without an EPSG code: projected here (Grid.outline takes EPSG codes)
        assert grid.crs is not None
        ring = grid.outline(densify=32)
        ring = np.stack(transformer(grid.crs, crs).transform(ring[:, 0], ring[:, 1]), 1)
    poly = shapely.Polygon(ring)
    return poly if poly.is_valid else shapely.make_valid(poly)
