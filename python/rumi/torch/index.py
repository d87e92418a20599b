"""The chip index: what a ChipDataset reads, planned once from its catalogue (and labels),
frozen, and the one thing samplers and the dataset share (as TorchGeo's datasets and samplers
share only the dataset's index).

One entry per file the chips come from (dataset file j: catalogue row rows[j]): its id,
location, shape (T, B, Y, X), tile shape, Grid, the band and time step indices read, those
steps' times, nodata of the bands read and the catalogue's valid summary; the label files and
where each lies on each image file (labels.LabelIndex). An index pickles as its recipe (the
catalogues, whose pickles carry their path and search, and the IndexSpec) and is planned again
where it is unpickled: a DataLoader worker under spawn gets a few hundred bytes, not the rows."""

from __future__ import annotations

import functools

import os
import warnings
from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

import rumi
from rumi import Grid, RequestError
from rumi._dtypes import TORCH_TYPES
from rumi._nodata import Nodata, normalize
from rumi.catalog import Catalog, describe, norm_time, schema, time_indices, time_seconds, unpack_valid

from .dtypes import Array
from .labels import LabelIndex, dates, file_grid, plan_labels


def as_catalog(src: Any, what: str) -> Catalog:
    """A Catalog from a Catalog, a catalogue path (.parquet), a partitioned catalogue's folder (a
    local folder, or a path / URL ending with "/"), a rumi file path/URL or a rumi.Dataset."""
    if isinstance(src, Catalog):
        return src
    if isinstance(src, rumi.Dataset):
        src = src.path
    if isinstance(src, (str, os.PathLike)):
        s = os.fspath(src)
        if s.endswith((".parquet", ".geoparquet", "/")) or os.path.isdir(s):
            return Catalog.open(s)
        import pyarrow as pa

        return Catalog(pa.Table.from_pylist([describe(s)], schema=schema()))
    raise TypeError(f"{what} must be a rumi.Catalog, a catalogue path, a rumi file or a rumi.Dataset, not {type(src).__name__}")


def nodata_override(nodata: Any, names: Sequence[str]) -> Nodata | None:
    """ChipDataset's nodata= as one float (or None) per band of names; None when not given
    (given as None for every band: no band has nodata, whatever the catalogue says)."""
    if nodata is None:
        return None
    if not isinstance(nodata, (str, bytes)) and hasattr(nodata, "__len__") and len(nodata) != len(names):
        raise ValueError(f"nodata gives {len(nodata)} values for the {len(names)} bands {list(names)}")
    vals = normalize(nodata, len(names), f"ChipDataset(nodata=) for the bands {list(names)}")
    return vals if vals is not None else [None] * len(names)


@dataclass(frozen=True)
class IndexSpec:
    """What ChipDataset's arguments ask of the plan (see ChipDataset)."""

    size: tuple[int, int]
    bands: tuple[str, ...] | None = None
    time: Any = None
    max_steps: int | None = None
    time_steps: str = "newest"
    align_time: bool = False
    seed: int = 0
    nodata: Any = None
    label_bands: tuple[str, ...] | None = None
    on_missing: str = "skip"


@dataclass(frozen=True, eq=False)
class ChipIndex:
    """The planned chip index (see the module's notes). Columns are lists indexed by dataset file j."""

    catalog: Catalog
    labels: Catalog | None
    spec: IndexSpec
    encoding: str
    T: int
    band_names: list[str]
    rows: list[int]
    ids: list[str]
    hrefs: list[str]
    shapes: list[list[int]]
    tiles: list[tuple[int, int]]
    transforms: list[list[float] | None]
    codes: list[str | None]
    grids: list[Grid | None]
    band_idx: list[list[int]]
    time_idx: list[list[int]]
    file_times: list[Array]
    step_times: list[dict[int, int]]
    nodata: list[Nodata | None]
    valid_q: list[Array | None]
    summary_of: list[Nodata | None]
    label: LabelIndex | None

    @staticmethod
    def plan(catalog: Catalog, labels: Catalog | None, spec: IndexSpec) -> ChipIndex:
        """The index of the files of `catalog` that hold a chip of spec.size and a time step in
        spec.time, and of the label files `labels` (RequestError when none does)."""
        return _plan(catalog, labels, spec)

    def __reduce__(self) -> tuple[Any, ...]:
        return (ChipIndex.plan, (self.catalog, self.labels, self.spec))

    @property
    def num_files(self) -> int:
        return len(self.rows)

    @property
    def size(self) -> tuple[int, int]:
        return self.spec.size

    @property
    def B(self) -> int:
        return len(self.band_names)

    @property
    def times(self) -> list[Array]:
        """Per file, its selected times as datetime64[s]."""
        return [ft.astype("datetime64[s]") for ft in self.file_times]

    def steps_of(self, j: int, r0: int, c0: int) -> list[int]:
        """The file's time step indices chip (j, r0, c0) reads (max_steps, time_steps)."""
        steps = self.time_idx[j]
        k = self.spec.max_steps
        if k is None or len(steps) <= k:
            return steps
        if self.spec.time_steps == "newest":
            order = np.argsort(self.file_times[j], kind="stable")[-k:]
        else:
            rng = np.random.default_rng([self.spec.seed, j, r0, c0])
            order = rng.choice(len(steps), size=k, replace=False)
        ft = self.file_times[j]
        return [steps[p] for p in sorted(order, key=lambda p: (ft[p], p))]

    def steps_count(self, j: int) -> int:
        """The number of time steps each chip of file j reads."""
        n = len(self.time_idx[j])
        return n if self.spec.max_steps is None else min(n, self.spec.max_steps)

    def times_of(self, j: int, steps: Sequence[int]) -> Array:
        """datetime64[s] times of file j's steps."""
        t_of = self.step_times[j]
        return np.array([t_of[t] for t in steps], dtype="int64").astype("datetime64[s]")

    @functools.cached_property
    def affines(self) -> list[tuple[float, float, float, float, float, float] | None]:
        """Per file, its grid's transform as 6 floats (None: no georeferencing)."""
        out: list[tuple[float, float, float, float, float, float] | None] = []
        for g in self.grids:
            t = None if g is None else g.transform
            out.append(None if t is None else (float(t.a), float(t.b), float(t.c), float(t.d), float(t.e), float(t.f)))
        return out

    def bounds(self, j: int, r0: int, c0: int) -> tuple[float, float, float, float]:
        """(left, bottom, right, top) of the chip at (r0, c0) of file j, in its CRS: the float
        operations of Grid.window_bounds (the window's transform, then its corners), without
        its objects (a batch asks for every chip's)."""
        t = self.affines[j]
        if t is None:
            raise RequestError(f"file {self.ids[j]} has no georeferencing: its chips have no bounds")
        h, w = self.spec.size
        sa, sb, sc, sd, se, sf = t
        # transform @ translation(c0, r0), as affine composes them
        a, b, c = sa * 1.0 + sb * 0.0, sa * 0.0 + sb * 1.0, sa * c0 + sb * r0 + sc
        d, e, f = sd * 1.0 + se * 0.0, sd * 0.0 + se * 1.0, sd * c0 + se * r0 + sf
        corners = ((0.0, 0.0), (float(w), 0.0), (0.0, float(h)), (float(w), float(h)))
        xs = [vx * a + vy * b + c for vx, vy in corners]
        ys = [vx * d + vy * e + f for vx, vy in corners]
        return (min(xs), min(ys), max(xs), max(ys))

    def nodata_unknown(self, what: str, fix: str) -> RequestError | None:
        """The error of `what` (which needs nodata) when some file's nodata is not known, or None."""
        unknown = [j for j, nd in enumerate(self.nodata) if nd is None]
        if not unknown:
            return None
        return RequestError(
            f"{what} needs the nodata of the bands read, and none is known for {self.files_text(unknown)}: the "
            f"catalogue has no rumi:nodata for {self.band_names} there (the files had no .aux.xml sidecar with a "
            f"NoDataValue when it was built). {fix}")

    def files_text(self, js: Sequence[int]) -> str:
        """"n of the N files (a, b, c ...)" for messages."""
        shown = ", ".join(self.ids[j] for j in js[:3]) + (" ..." if len(js) > 3 else "")
        return f"{len(js)} of the {len(self.rows)} files ({shown})"


def _plan(catalog: Catalog, labels: Catalog | None, spec: IndexSpec) -> ChipIndex:
    t = catalog.table
    n = t.num_rows
    if n == 0:
        raise RequestError("the catalogue selection is empty: no chips")
    shapes = t.column("rumi:shape").to_pylist()
    bands = t.column("rumi:bands").to_pylist()
    times = time_seconds(t)
    ends = time_seconds(t, "rumi:time_ends")
    dtypes = t.column("rumi:dtype").to_pylist()
    ids = t.column("id").to_pylist()
    h, w = spec.size
    keep: list[int] = []
    small = 0
    names = list(spec.bands) if spec.bands is not None else bands[0]
    window = norm_time(spec.time)
    band_idx: list[list[int]] = []
    time_idx: list[list[int]] = []
    for i in range(n):
        T, B, Y, X = shapes[i]
        if Y < h or X < w:
            small += 1
            continue
        try:
            bi = [bands[i].index(b) for b in names]
        except ValueError:
            raise RequestError(f"row {i} ({ids[i]}) lacks some of the bands {names}") from None
        steps = list(range(T)) if window is None else time_indices(times[i] or [], ends[i], window)
        if not steps:
            continue  # no time step in the window: not part of this dataset
        keep.append(i)
        band_idx.append(bi)
        time_idx.append(steps)
    if small:
        warnings.warn(f"rumi.torch: {small} files smaller than {h}x{w} pixels are left out", RuntimeWarning, stacklevel=4)
    if not keep and small:
        raise RequestError(f"no file of the selection holds a {h}x{w} chip")
    if not keep:
        raise RequestError(f"no file of the selection has a time step in {spec.time}")
    file_times = [np.array([(times[i] or [])[k] for k in steps], dtype="int64") for i, steps in zip(keep, time_idx)]
    if spec.align_time:
        ref = list(file_times[0])
        for i, ft in zip(keep, file_times):
            if list(ft) != ref:
                raise RequestError(
                    f"align_time: the files' time axes differ in the time selection: {ids[keep[0]]} has "
                    f"{dates(ref)}, {ids[i]} has {dates(list(ft))}")
    kd = {dtypes[i] for i in keep}
    if len(kd) != 1:
        raise RequestError(f"the files have different sample types {sorted(kd)}: one ChipDataset per type")
    encoding = kd.pop()
    if encoding not in TORCH_TYPES:
        raise RequestError(f"{encoding} samples have no torch dtype")
    tiles = t.column("rumi:tile_shape").to_pylist()
    trs = t.column("proj:transform").to_pylist()
    codes = t.column("proj:code").to_pylist()
    hrefs = t.column("location").to_pylist()
    counts = [len(s) for s in time_idx]
    T = max(counts) if spec.max_steps is None else min(max(counts), spec.max_steps)
    # nodata of the selected bands (nodata= or the catalogue's) and each file's valid summary
    # (rumi.catalog), with the nodata that summary was recorded for
    nds = t.column("rumi:nodata").to_pylist() if "rumi:nodata" in t.column_names else [None] * n
    vals = t.column("rumi:valid").to_pylist() if "rumi:valid" in t.column_names else [None] * n
    over = nodata_override(spec.nodata, names)
    nodata: list[Nodata | None] = []
    valid_q: list[Array | None] = []
    summary_of: list[Nodata | None] = []
    for j, i in enumerate(keep):
        row_nd = nds[i]
        cat_nd = None if row_nd is None else [row_nd[b] for b in band_idx[j]]
        nd = over if over is not None else cat_nd
        nodata.append(None if nd is None or all(v is None for v in nd) else nd)
        valid_q.append(unpack_valid(vals[i], shapes[i], tiles[i]) if vals[i] is not None else None)
        summary_of.append(cat_nd if vals[i] is not None else None)
    kshapes = [shapes[i] for i in keep]
    grids = [file_grid(codes[i], trs[i], shapes[i][2:]) for i in keep]
    kids = [ids[i] for i in keep]
    label = None
    if labels is not None:
        label = plan_labels(labels, spec.label_bands, catalog, keep, kids, kshapes, grids, file_times, T)
    return ChipIndex(
        catalog=catalog, labels=labels, spec=spec, encoding=encoding, T=T, band_names=list(names), rows=keep,
        ids=kids, hrefs=[hrefs[i] for i in keep], shapes=kshapes, tiles=[(int(tiles[i][0]), int(tiles[i][1])) for i in keep],
        transforms=[trs[i] for i in keep], codes=[codes[i] for i in keep], grids=grids, band_idx=band_idx,
        time_idx=time_idx, file_times=file_times,
        step_times=[dict(zip(steps, (int(x) for x in ft))) for steps, ft in zip(time_idx, file_times)],
        nodata=nodata, valid_q=valid_q, summary_of=summary_of, label=label)
