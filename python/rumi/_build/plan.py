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

import time as _time
import types
import warnings
from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from .. import _rumi
from .._times import caller_level
from .._write import WriteOptions
from . import cells as _cells
from . import items as _items
from .destination import Destination, fingerprint

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


@dataclass(frozen=True)
class PlannedFile:
    """One file of a build: a cell of the tiling and a range of time, built from some items."""

    name: str  #: the file's name in the destination: "{cell}.rumi" or "{cell}_{range}.rumi"
    cell: str  #: the cell's name
    geobox: Any  #: its grid (an odc-geo GeoBox)
    time_range: str  #: the range's spec: "" (one range), a period ("P1M") or "start/end"
    items: tuple[int, ...]  #: indices into BuildPlan.items, increasing
    steps: int  #: its time steps (odc.stac.load's groups of its items)
    fingerprint: str  #: SHA-256 of what it is built from (the manifest's)
    up_to_date: bool  #: the manifest records this fingerprint and the file matches it: skipped


@dataclass(frozen=True, repr=False)
class BuildPlan:
    """What a build does, decided without loading a pixel (plan_build); run_plan does it. `print(plan)` (describe()) says it in a few lines."""

    dest: Destination
    items: tuple[Any, ...]  #: the pystac Items
    parsed: tuple[Any, ...]  #: odc-stac's ParsedItems of them
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
            ids = ", ".join(str(self.items[i].id) for i in f.items[:4]) + (", ..." if len(f.items) > 4 else "")
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
    patch_url: Callable[[str], str] | None = None,
    storage_options: dict[str, Any] | None = None,
) -> BuildPlan:
    """The plan of rumi.build with these arguments (see there): reads the items, the source
    files' headers where the items give no nodata, and the destination's manifest, sizes and
    header sidecars; loads no pixel and writes nothing. Raises ValueError on bad input."""
    odc_stac, _, _ = _items.deps()
    t0 = _time.perf_counter()
    out_dest = Destination.parse(dest, storage_options)
    band_list = [bands] if isinstance(bands, str) else list(bands)
    if not band_list or not all(isinstance(b, str) and b for b in band_list):
        raise ValueError(f"bands must be one or more band names, got {bands!r}")
    if len(set(band_list)) != len(band_list):
        raise ValueError(f"bands repeat a name: {band_list}")
    out_crs = _cells.output_crs(tiles, crs, resolution)
    in_range = _cells.time_ranges(time)

    item_list = _items.load_items(items)
    try:
        parsed = list(odc_stac.parse_items(item_list, cfg=stac_cfg))
    except Exception as e:
        raise ValueError(f"odc-stac cannot read the items: {e}") from None
    _items.check_bands(parsed, band_list)
    if dtype is None and stac_cfg is None and (untyped := _items.untyped_bands(item_list, parsed, band_list)):
        have = _items.file_dtype(parsed[0], untyped[0], patch_url)
        hint = f" (the first item's {untyped[0]} is {have})" if have else ""
        warnings.warn(
            f"rumi.build: the items give no sample type for bands {', '.join(untyped)} (no raster:bands "
            f"data_type), so odc-stac loads them as float32 with NaN for nodata{hint}: pass dtype= "
            f"(rumi-build --dtype) to keep the files' type, e.g. dtype={have or 'uint16'!r}",
            UserWarning, stacklevel=caller_level(),
        )
    # the files' own nodata where the items give none: read before anything is written, so that
    # a value the output type cannot hold is refused here, by name
    src_nodata = _items.source_nodata(parsed, band_list, dtype, patch_url) if nodata is None else {}
    if dtype is not None and np.dtype(dtype).kind in "iu":
        for (_, b), (v, href) in src_nodata.items():
            if not _items.holds(dtype, v):
                raise _items.unholdable(b, v, href, dtype)
    geoms = []
    for it, p in zip(item_list, parsed):
        g = p.safe_geometry(out_crs)
        if g is None or g.is_empty:
            raise ValueError(f"item {it.id!r} has no footprint (no geometry and no projection extension)")
        geoms.append(g)
    union = None
    if tiles is None or not _cells.grid_given(tiles):
        union = _cells.union_geobox(odc_stac, parsed, band_list, out_crs, resolution, anchor)
    cell_list = _cells.cells(tiles, union, out_crs, resolution, anchor, geoms)
    names = [_cells.safe_name(n) for n, _ in cell_list]
    if len(set(names)) != len(names):
        raise ValueError(f"tiles: cell names repeat ({sorted({n for n in names if names.count(n) > 1})[:5]})")

    # what changes a file's pixels (with its grid and range): its fingerprint's parameters
    params = {
        "bands": band_list, "crs": out_crs.epsg,
        "groupby": groupby if isinstance(groupby, str) else getattr(groupby, "__qualname__", repr(groupby)),
        "nodata": nodata, "dtype": None if dtype is None else str(dtype), "resampling": resampling,
        "tile": tile, "level": level, "frame_unit": frame_unit, "stac_cfg": stac_cfg,
        "chunks": None if chunks is None else dict(chunks), "rumi": _rumi.CORE_VERSION,
    }
    manifest = out_dest.read_manifest()
    files: list[PlannedFile] = []
    empty: list[str] = []
    rounded: dict[str, dict[str, str]] = {}  # file -> {time as the items give it: as stored}
    import shapely

    tree = shapely.STRtree([g.geom for g in geoms])  # the footprints in the cells' CRS
    for (_, gbox), fname in zip(cell_list, names):
        ext = gbox.extent.to_crs(out_crs) if gbox.crs != out_crs else gbox.extent
        near = tree.query(ext.geom, predicate="intersects")
        touching = {int(i) for i in near if shapely.intersection(geoms[int(i)].geom, ext.geom).area > 0}
        if not touching:
            empty.append(fname)
            continue
        jobs = _cell_files(fname, gbox, touching, item_list, parsed, groupby, in_range, rounded)
        grid = [[float(v) for v in list(gbox.affine)[:6]], [int(v) for v in gbox.shape]]
        for out, (rspec, ii, steps) in jobs.items():
            records = [_items.item_record(item_list[i], band_list, parsed[i]) for i in ii]
            fp = fingerprint(records, dict(params, geobox=grid, range=rspec))
            done = out in manifest and out_dest.up_to_date(out, manifest[out], fp)
            if not done:
                manifest.pop(out, None)
            files.append(PlannedFile(out, fname, gbox, rspec, tuple(sorted(ii)), steps, fp, done))

    changed = {k: v for f in files if not f.up_to_date for k, v in rounded.get(f.name, {}).items()}
    if changed:
        shown = ", ".join(f"{k} -> {v}" for k, v in sorted(changed.items())[:5])
        more = f" and {len(changed) - 5} more" if len(changed) > 5 else ""
        warnings.warn(
            f"rumi.build: {len(changed)} time step(s) have a fraction of a second; rumi files store whole seconds, "
            f"so they are stored rounded to the nearest second: {shown}{more}",
            UserWarning, stacklevel=caller_level(),
        )
    return BuildPlan(
        dest=out_dest, items=tuple(item_list), parsed=tuple(parsed), bands=tuple(band_list), epsg=int(out_crs.epsg),
        files=tuple(files), empty=tuple(empty),
        load=LoadOptions(groupby, chunks, nodata, dtype, resampling, stac_cfg, patch_url),
        write=WriteOptions(tile=tile, frame_unit=frame_unit, level=level, threads=threads, options=storage_options),
        manifest=types.MappingProxyType(manifest), source_nodata=types.MappingProxyType(src_nodata),
        rounded=types.MappingProxyType(dict(sorted(changed.items()))),
        itemsize=_items.output_itemsize(parsed, band_list, dtype), seconds=_time.perf_counter() - t0,
    )


def _cell_files(
    fname: str, gbox: Any, touching: set[int], item_list: Sequence[Any], parsed: Sequence[Any], groupby: Any,
    in_range: _cells.RangeOf | None, rounded: dict[str, dict[str, str]],
) -> dict[str, tuple[str, list[int], int]]:
    """The files of one cell: file name -> (range spec, item indices, time steps), made of the
    whole groups (odc.stac.load's, for a load over this cell) with an item touching it, each in
    the range of its stored time; times with a fraction of a second noted in rounded."""
    ((lon, _),) = gbox.extent.centroid.to_crs("epsg:4326").points
    jobs: dict[str, tuple[str, list[int], int]] = {}
    for grp in _cells.groups(item_list, parsed, range(len(item_list)), groupby, lon):
        if not touching.intersection(grp):
            continue
        given = np.datetime64(parsed[grp[0]].nominal_datetime.replace(tzinfo=None), "us")
        t = _cells.whole_second(given)  # the time the file stores, so its range is the stored time's
        rng = ("", "") if in_range is None else in_range(t)
        if rng is None:
            continue
        out = f"{fname}.rumi" if in_range is None else f"{fname}_{rng[0]}.rumi"
        spec, ii, steps = jobs.get(out, (rng[1], [], 0))
        jobs[out] = (spec, ii + grp, steps + 1)
        if t != given:
            rounded.setdefault(out, {})[str(given)] = str(t)
    return jobs
