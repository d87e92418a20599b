"""The plan of a build, decided from the items and the destination's manifest without loading a
pixel: the files (a cell of the tiling and a range of time each), the items and time steps of
each, their fingerprints, and which are built and which are up to date.

    from rumi._build import plan_build, run_plan

    plan = plan_build(items, "out/", bands=["red", "nir"], crs="EPSG:32633", resolution=10,
                      tiles=GridSpec("EPSG:32633", (2048, 2048), 10), time="P1M")
    print(plan)             # files, to build, to skip, estimated raw bytes
    cat = run_plan(plan)    # the loads and writes (rumi.build: both)
"""

from __future__ import annotations

import dataclasses
import time as _time
import types
import warnings
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from .._internal import WriteOptions, _rumi, caller_level, fits, rounded_micros
from . import cells as _cells
from . import index as _index
from . import items as _items
from .destination import Destination, fingerprint_texts

#: files listed one by one in BuildPlan.describe()
SHOWN = 20


@dataclass(frozen=True)
class LoadOptions:
    """How odc.stac.load reads a file's items: its arguments besides items, bands and the grid
    (see rumi.build)."""

    groupby: Any = "solar_day"
    chunks: Mapping[str, int] | None = None
    nodata: float | None = None
    dtype: Any = None
    resampling: str | Mapping[str, str] | None = None
    stac_cfg: Any = None
    patch_url: Callable[[str], str] | None = None


@dataclass(frozen=True, eq=False)
class PlannedFile:
    """One file of a build: a cell of the tiling and a range of time, built from some items."""

    name: str  #: the file's name in the destination: "{cell}.rumi" or "{cell}_{range}.rumi"
    cell: str  #: the cell's name
    geobox: Any  #: its grid (an odc-geo GeoBox)
    time_range: str  #: the range's spec: "" (one range), a period ("P1M") or "start/end"
    items: np.ndarray[Any, Any]  #: indices into BuildPlan.items (int64, increasing): the items whose footprints overlap the cell, in its time steps
    steps: int  #: its time steps (odc.stac.load's groups with an item overlapping the cell)
    fingerprint: str  #: SHA-256 of what it is built from (the manifest's)
    up_to_date: bool  #: the manifest records this fingerprint and the file matches it: skipped
    times: np.ndarray[Any, Any] | None = None  #: datetime64[s]: each time step's time as stored (its group's earliest item, odc-stac's)
    scaling: tuple[_items.Scaling, ...] | None = None  #: per band (scale, offset, unit) of its items' raster bands (None: none gives any)


@dataclass(frozen=True, repr=False)
class BuildPlan:
    """What a build does, decided without loading a pixel (plan_build); run_plan does it. `print(plan)` (describe()) says it in a few lines."""

    dest: Destination
    items: _index.ItemSource  #: the STAC items by index (pystac Items, read when asked for)
    index: _index.ItemIndex  #: what planning read of each item (ids, times, footprints, records)
    bands: tuple[str, ...]
    epsg: int  #: the output CRS
    files: tuple[PlannedFile, ...]  #: every file of the build, in build order
    empty: tuple[str, ...]  #: cells that no item overlaps (no file)
    load: LoadOptions
    write: WriteOptions  #: its nodata is filled in per file from the load
    manifest: Mapping[str, Any]  #: the destination's manifest, less the entries of the files to build
    source_nodata: Mapping[tuple[int, str], tuple[float, str]]  #: the files' own nodata (items.source_nodata)
    rounded: Mapping[str, str]  #: item times with a fraction of a second -> as stored, in files to build
    itemsize: int  #: bytes per output sample, as the items' metadata says (an estimate)
    seconds: float  #: how long planning took
    classes: Any = None  #: the catalogue's classes= (rumi.catalog.classes.ClassSpec): the bands rumi:classes counts

    @property
    def to_build(self) -> tuple[PlannedFile, ...]:
        """The files to build (new, changed, or not as the manifest records them)."""
        return tuple(f for f in self.files if not f.up_to_date)

    @property
    def to_skip(self) -> tuple[PlannedFile, ...]:
        """The files that are up to date."""
        return tuple(f for f in self.files if f.up_to_date)

    def shape(self, f: PlannedFile) -> tuple[int, int, int, int]:
        """(T, B, Y, X) of a file, T its time steps."""
        y, x = (int(v) for v in f.geobox.shape)
        return (f.steps, len(self.bands), y, x)

    def raw_bytes(self, f: PlannedFile | None = None) -> int:
        """Uncompressed bytes of a file, or of all the files to build (an estimate: the sample
        type is the items' metadata's)."""
        todo = self.to_build if f is None else (f,)
        return sum(int(np.prod(self.shape(g))) * self.itemsize for g in todo)

    def describe(self, limit: int = SHOWN) -> str:
        """A few lines: the destination, the counts, the estimated raw bytes, then the files (at
        most limit of them)."""
        todo, skip = len(self.to_build), len(self.to_skip)
        head = [
            f"rumi.build plan -> {self.dest.root} ({len(self.items)} items, bands {', '.join(self.bands)}, EPSG:{self.epsg})",
            f"  {len(self.files)} files: {todo} to build, {skip} up to date"
            + (f"; {len(self.empty)} cells with no item" if self.empty else ""),
            f"  to build: {self.raw_bytes() / 1e6:.1f} MB raw (about {self.itemsize} bytes a sample)",
        ]
        rows = []
        for f in self.files[:limit]:
            ids = ", ".join(self.index.ids[i] for i in f.items[:4]) + (", ..." if len(f.items) > 4 else "")
            shape = "x".join(str(v) for v in self.shape(f))
            rows.append(f"  {'skip ' if f.up_to_date else 'build'} {f.name}  {shape}  {f.fingerprint[:12]}  {ids}")
        if len(self.files) > limit:
            rows.append(f"  ... and {len(self.files) - limit} more")
        return "\n".join(head + rows)

    def __str__(self) -> str:
        return self.describe()

    def __repr__(self) -> str:
        return (f"<BuildPlan {self.dest.root}: {len(self.files)} files, {len(self.to_build)} to build, "
                f"{len(self.to_skip)} up to date>")


def plan_build(
    items: Any,
    dest: Any,
    *,
    bands: str | Sequence[str],
    crs: Any = None,
    resolution: Any = None,
    tiles: Any = None,
    time: Any = None,
    groupby: Any = "solar_day",
    chunks: Mapping[str, int] | None = None,
    nodata: float | None = None,
    dtype: Any = None,
    resampling: str | Mapping[str, str] | None = None,
    anchor: Any = None,
    tile: int | tuple[int, int] = 256,
    level: int | None = None,
    frame_unit: int | None = None,
    threads: int | None = None,
    stac_cfg: Any = None,
    graph: str = "auto",
    patch_url: Callable[[str], str] | None = None,
    storage_options: dict[str, Any] | None = None,
    write_options: WriteOptions | None = None,
    classes: Any = None,
    exact_classes: bool = False,
) -> BuildPlan:
    """The plan of rumi.build with these arguments (see there): reads the items, the source
    files' headers where the items give no nodata, and the destination's manifest, sizes and
    header sidecars; loads no pixel and writes nothing. Raises ValueError on bad input.

    Memory and time grow with the items and the files, not with their product: a stac-geoparquet
    table is read by record batches into one compact row per item (index.py), items are grouped
    into time steps once (per solar-day offset), and each cell takes the items whose footprints
    overlap it (a footprint per distinct grid)."""
    write = WriteOptions.gather(write_options, "rumi.plan_build", {"options": "storage_options"}, tile=tile, level=level,
                                frame_unit=frame_unit, threads=threads, options=storage_options, graph=graph)
    load = LoadOptions(groupby, chunks, nodata, dtype, resampling, stac_cfg, patch_url)
    return plan_files(items, dest, bands=bands, crs=crs, resolution=resolution, tiles=tiles, time=time, anchor=anchor,
                      load=load, write=write, classes=classes, exact_classes=exact_classes)


def plan_files(
    items: Any, dest: Any, *, bands: str | Sequence[str], crs: Any, resolution: Any, tiles: Any, time: Any, anchor: Any,
    load: LoadOptions, write: WriteOptions, classes: Any = None, exact_classes: bool = False,
) -> BuildPlan:
    """plan_build's work, its options as values: how the items are loaded (load) and the files
    written (write, checked when made; its nodata is each file's load's, so one given is refused),
    and the catalogue's classes= and exact_classes= (checked against the bands)."""
    if write.nodata is not None:
        raise ValueError(
            f"rumi.build: write_options.nodata={write.nodata!r}: each file's nodata is its load's (odc.stac.load's "
            "nodata=, raster:bands, else the source files' own): give nodata= instead"
        )
    groupby, chunks, nodata, dtype = load.groupby, load.chunks, load.nodata, load.dtype
    resampling, stac_cfg, patch_url = load.resampling, load.stac_cfg, load.patch_url
    _items.deps()
    t0 = _time.perf_counter()
    out_dest = Destination.parse(dest, write.options)
    band_list = [bands] if isinstance(bands, str) else list(bands)
    if not band_list or not all(isinstance(b, str) and b for b in band_list):
        raise ValueError(f"bands must be one or more band names, got {bands!r}")
    if len(set(band_list)) != len(band_list):
        raise ValueError(f"bands repeat a name: {band_list}")
    from ..catalog.classes import class_spec

    spec = class_spec(classes, exact_classes)
    missing = spec.missing_in([band_list])
    if missing:
        raise ValueError(f"rumi.build: classes= declares the bands {missing} categorical, the files' bands are {band_list}")
    out_crs = _cells.output_crs(tiles, crs, resolution)
    in_range = _cells.time_ranges(time)

    source = _index.source_of(items)
    index = _index.index_items(source, band_list, out_crs, dtype=dtype, groupby=groupby, stac_cfg=stac_cfg,
                               nodata_given=nodata is not None, patch_url=patch_url)
    _items.check_bands(list(index.first.values()), band_list)
    if dtype is None and stac_cfg is None and index.untyped:
        first = next(iter(index.first.values()))
        have = _items.file_dtype(first, index.untyped[0], patch_url)
        hint = f" (the first item's {index.untyped[0]} is {have})" if have else ""
        warnings.warn(
            f"rumi.build: the items give no sample type for bands {', '.join(index.untyped)} (no raster:bands "
            f"data_type), so odc-stac loads them as float32 with NaN for nodata{hint}: pass dtype= "
            f"(rumi-build --dtype) to keep the files' type, e.g. dtype={have or 'uint16'!r}",
            UserWarning, stacklevel=caller_level(),
        )
    # the files' own nodata where the items give none: read before anything is written, so that
    # a value the output type cannot hold is refused here, by name
    src_nodata = _items.probe_nodata(index.nodata_todo) if nodata is None else {}
    if dtype is not None and np.dtype(dtype).kind in "iu":
        for (_, b), (v, href) in src_nodata.items():
            if not fits(v, dtype):
                raise _items.unholdable(b, v, href, dtype)
    if index.no_footprint is not None:
        raise ValueError(f"item {index.no_footprint!r} has no footprint (no geometry and no projection extension)")
    union = None
    if tiles is None or not _cells.grid_given(tiles):
        union = _cells.union_geobox(index.footprints, out_crs, resolution, anchor)
    cell_list = _cells.cells(tiles, union, out_crs, resolution, anchor, index.footprints)
    names = [_cells.safe_name(n) for n, _ in cell_list]
    if len(set(names)) != len(names):
        raise ValueError(f"tiles: cell names repeat ({sorted({n for n in names if names.count(n) > 1})[:5]})")

    # what changes a file's pixels (with its grid and range): its fingerprint's parameters
    params = {
        "bands": band_list, "crs": out_crs.epsg,
        "groupby": groupby if isinstance(groupby, str) else getattr(groupby, "__qualname__", repr(groupby)),
        "nodata": nodata, "dtype": None if dtype is None else str(dtype), "resampling": resampling,
        "tile": write.tile, "level": write.level, "frame_unit": write.frame_unit, "stac_cfg": stac_cfg,
        "chunks": None if chunks is None else dict(chunks), "rumi": _rumi.CORE_VERSION,
        # the default graph is left out: the files built before graph= keep their fingerprints
        **({} if write.graph == "auto" else {"graph": write.graph}),
    }
    manifest = out_dest.read_manifest()
    files: list[PlannedFile] = []
    empty: list[str] = []
    fractions: dict[str, np.ndarray[Any, Any]] = {}  # file -> its time steps' given times with a fraction of a second
    steps = _Steps(index, groupby, in_range)
    cover = _Cover(index.footprints, index.fp)
    for (_, gbox), fname in zip(cell_list, names):
        ext = gbox.extent.to_crs(out_crs) if gbox.crs != out_crs else gbox.extent
        touching = cover.items(ext.geom)
        if touching.size == 0:
            empty.append(fname)
            continue
        ((lon, _),) = gbox.extent.centroid.to_crs("epsg:4326").points
        grid = [[float(v) for v in list(gbox.affine)[:6]], [int(v) for v in gbox.shape]]
        for out, rspec, ii, times, outside, given in steps.files(fname, touching, lon, in_range is None):
            extra: dict[str, Any] = {"times": [str(t) for t in times]} if outside else {}
            scaling = file_scaling(index, ii, band_list, out)
            if scaling is not None:  # (a file without keeps the fingerprint it had before scales were kept)
                extra["scaling"] = [list(v) for v in scaling]
            fp = fingerprint_texts([index.records[i] for i in ii[np.argsort(index.rank[ii], kind="stable")]],
                                   dict(params, geobox=grid, range=rspec, **extra))
            files.append(PlannedFile(out, fname, gbox, rspec, ii, len(times), fp, False, times, scaling))
            if given.size:
                fractions[out] = given
    done = _up_to_date(out_dest, manifest, files)
    files = [dataclasses.replace(f, up_to_date=True) if f.name in done else f for f in files]
    for f in files:
        if not f.up_to_date:
            manifest.pop(f.name, None)

    changed: dict[str, str] = {}
    fracs = [fractions[f.name] for f in files if not f.up_to_date and f.name in fractions]
    if fracs:
        us = np.unique(np.concatenate(fracs))
        stored = rounded_micros(us).astype("datetime64[s]")
        changed = dict(zip(map(str, us.astype("datetime64[us]")), map(str, stored)))
    if changed:
        shown = ", ".join(f"{k} -> {v}" for k, v in sorted(changed.items())[:5])
        more = f" and {len(changed) - 5} more" if len(changed) > 5 else ""
        warnings.warn(
            f"rumi.build: {len(changed)} time step(s) have a fraction of a second; rumi files store whole seconds, "
            f"so they are stored rounded to the nearest second: {shown}{more}",
            UserWarning, stacklevel=caller_level(),
        )
    return BuildPlan(
        dest=out_dest, items=source, index=index, bands=tuple(band_list), epsg=int(out_crs.epsg),
        files=tuple(files), empty=tuple(empty),
        load=load, write=write,
        manifest=types.MappingProxyType(manifest), source_nodata=types.MappingProxyType(src_nodata),
        rounded=types.MappingProxyType(dict(sorted(changed.items()))),
        itemsize=index.itemsize, seconds=_time.perf_counter() - t0, classes=spec,
    )


def file_scaling(index: _index.ItemIndex, ii: np.ndarray[Any, Any], bands: Sequence[str], name: str) -> tuple[_items.Scaling, ...] | None:
    """Per band, the (scale, offset, unit) of the items ii of a file (None when none gives one);
    ValueError naming the band and two items when they differ (one file has one scale, offset
    and unit per band: its pixels mix the items' raw samples, which odc-stac loads unscaled)."""
    ks = np.unique(index.scaling[ii]) if len(index.scaling) else np.zeros(0, np.int64)
    if len(ks) > 1:
        a, b = (index.scalings[int(k)] for k in ks[:2])
        band = next(k for k in range(len(bands)) if a[k] != b[k])
        ia = int(ii[np.flatnonzero(index.scaling[ii] == ks[0])[0]])
        ib = int(ii[np.flatnonzero(index.scaling[ii] == ks[1])[0]])
        fmt = "scale {:g}, offset {:g}, unit {!r}".format
        raise ValueError(
            f"{name}: band {bands[band]} has {fmt(*a[band])} in item {index.ids[ia]!r} and {fmt(*b[band])} in item "
            f"{index.ids[ib]!r} (their raster:bands): one file records one scale, offset and unit per band, and odc-stac "
            "loads raw samples, so items that disagree cannot share a file: split them by time= (a range each) or build "
            "them separately")
    if not len(ks):
        return None
    sc = index.scalings[int(ks[0])]
    return None if all(v == _items.NO_SCALING for v in sc) else sc


def _up_to_date(dest: Destination, manifest: Mapping[str, Any], files: Sequence[PlannedFile]) -> set[str]:
    """The names of the files the manifest records with their fingerprint and that match it
    (Destination.up_to_date: a size and a header read each, 16 files at a time)."""
    todo = [f for f in files if f.name in manifest]
    if not todo:
        return set()

    def check(f: PlannedFile) -> bool:
        return dest.up_to_date(f.name, manifest[f.name], f.fingerprint)

    if len(todo) < 4:
        ok = [check(f) for f in todo]
    else:
        with ThreadPoolExecutor(16) as ex:
            ok = list(ex.map(check, todo))
    return {f.name for f, good in zip(todo, ok) if good}


class _Cover:
    """The items whose footprints overlap a cell with an area (a footprint per distinct grid:
    each is tested once per cell, then its items are taken together)."""

    def __init__(self, footprints: Sequence[Any], fp: np.ndarray[Any, Any]) -> None:
        import shapely

        self.shapely = shapely
        self.geoms = np.array([g.geom for g in footprints], dtype=object)
        self.tree = shapely.STRtree(self.geoms)
        self.order = np.argsort(fp, kind="stable")
        self.bounds = np.searchsorted(fp[self.order], np.arange(len(footprints) + 1))

    def items(self, cell: Any) -> np.ndarray[Any, Any]:
        near = self.tree.query(cell, predicate="intersects")
        if near.size == 0:
            return np.zeros(0, dtype=np.int64)
        near = near[self.shapely.area(self.shapely.intersection(self.geoms[near], cell)) > 0]
        if near.size == 0:
            return np.zeros(0, dtype=np.int64)
        parts = [self.order[self.bounds[k]:self.bounds[k + 1]] for k in near]
        return np.sort(np.concatenate(parts)).astype(np.int64)


class _Steps:
    """odc.stac.load's time steps (groups of items) for a load over a cell, and the files of a
    cell (a range of time each): the groups of all the items are formed once (per solar-day
    offset for "solar_day"), as odc-stac's _group_items forms them (sorted by group key, time,
    id; a run of one key a group); a cell's files hold its overlapping items, grouped, and each
    time step keeps its group's time (the group's first item's, which may lie outside the cell)."""

    def __init__(self, index: _index.ItemIndex, groupby: Any, in_range: _cells.RangeOf | None) -> None:
        self.index, self.groupby, self.in_range = index, groupby, in_range
        n = len(index)
        ids = np.array(index.ids, dtype=object)
        self.id_rank = np.empty(n, dtype=np.int64)
        self.id_rank[np.argsort(ids, kind="stable")] = np.arange(n)
        self.utc = index.utc.astype(np.int64)
        self.wall = index.wall.astype(np.int64)
        self.stored = rounded_micros(self.wall)  # whole seconds as every rumi writer rounds (rumi._times)
        self._groups: dict[Any, tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any]]] = {}
        self._range: dict[int, tuple[str, str] | None] = {}

    def groups(self, lon: float) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        """(group of each item, place of each item in the groups' order, first item of each
        group) for a load over a cell whose centre is at longitude lon."""
        g = self.groupby
        offset = int(lon / 15) * 3600 * 1_000_000 if g == "solar_day" else 0  # odc-stac's solar time
        key_of = offset if g == "solar_day" else None
        if key_of in self._groups:
            return self._groups[key_of]
        n = len(self.index)
        if g == "solar_day":
            key = (self.wall + offset) // 86_400_000_000
            order = np.lexsort((self.id_rank, self.utc, key))
            new = np.r_[True, key[order][1:] != key[order][:-1]] if n else np.zeros(0, bool)
        elif g == "time":
            order = np.lexsort((self.id_rank, self.utc))
            new = np.r_[True, self.utc[order][1:] != self.utc[order][:-1]] if n else np.zeros(0, bool)
        elif g in ("id", None):
            order = np.arange(n)
            new = np.ones(n, bool)
        else:
            keys = self.index.keys
            assert keys is not None
            order = np.array(sorted(range(n), key=lambda i: (keys[i], self.utc[i], self.id_rank[i])), dtype=np.int64)
            # a run of one key is a group: an item joins the group whose first item's key it equals
            new = np.zeros(n, bool)
            head = -1
            for k in range(n):
                if head < 0 or not keys[order[head]] == keys[order[k]]:
                    new[k], head = True, k
        gid_sorted = np.cumsum(new) - 1
        gid = np.empty(n, dtype=np.int64)
        gid[order] = gid_sorted
        pos = np.empty(n, dtype=np.int64)
        pos[order] = np.arange(n)
        first = order[np.flatnonzero(new)]
        self._groups[key_of] = (gid, pos, first)
        return gid, pos, first

    def range_of(self, stored: int) -> tuple[str, str] | None:
        r = self._range.get(stored, ())
        if r == ():
            r = self._range[stored] = ("", "") if self.in_range is None else self.in_range(np.datetime64(stored, "s"))
        return r  # type: ignore[return-value]

    def files(self, fname: str, touching: np.ndarray[Any, Any], lon: float, one_range: bool) -> list[
            tuple[str, str, np.ndarray[Any, Any], np.ndarray[Any, Any], bool, np.ndarray[Any, Any]]]:
        """The files of the cell fname whose overlapping items are touching: (file name, range
        spec, its items (increasing), its time steps' stored times (datetime64[s]), whether a
        step's time comes from an item outside the file, the given times with a fraction of a
        second (microseconds since 1970)), in the order of their first time step."""
        gid, pos, first = self.groups(lon)
        t = touching[np.argsort(pos[touching], kind="stable")]
        g = gid[t]
        ug, at, inv = np.unique(g, return_index=True, return_inverse=True)
        head = first[ug]  # each group's first item (odc-stac's time of the step)
        stored = self.stored[head]
        own = self.stored[t[at]]  # the time odc-stac gives the step from the file's items alone
        outs: dict[str, list[int]] = {}
        spec: dict[str, str] = {}
        for k, s in enumerate(stored.tolist()):
            rng = self.range_of(s)
            if rng is None:
                continue
            out = f"{fname}.rumi" if one_range else f"{fname}_{rng[0]}.rumi"
            outs.setdefault(out, []).append(k)
            spec.setdefault(out, rng[1])
        result = []
        for out, ks in outs.items():
            kk = np.array(ks, dtype=np.int64)
            mask = np.zeros(len(ug), bool)
            mask[kk] = True
            ii = np.sort(t[mask[inv.reshape(-1)]])
            given = self.wall[head[kk]]
            frac = given[given % 1_000_000 != 0]
            result.append((out, spec[out], ii, stored[kk].astype("datetime64[s]"), bool((stored[kk] != own[kk]).any()), frac))
        return result
