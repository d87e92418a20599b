"""Labels beside image chips: where a label file lies on an image file's pixel grid
(`LabelMatch`, planned once per image and label file by `plan_labels`), and the label samples of a
chip on the chip's pixel grid (`read_label`): a window read when the grids align (`Grid.aligned`:
the image's grid, or an integer multiple of its resolution, each label pixel repeated), nearest
neighbour otherwise (`Grid.nearest`: pixel centres through pyproj, as GDAL's warper does)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

import numpy as np

from rumi import FormatError, Grid, RequestError, Window
from rumi._internal import TORCH_TYPES, covering
from rumi.catalog import Catalog
from rumi.catalog import columns as K
from rumi.catalog.decode import Rows, one_sample_type

from .dtypes import Array



def dates(secs: Sequence[int]) -> list[str]:
    """ISO texts of times in seconds (for messages)."""
    return [str(np.datetime64(int(s), "s")) for s in secs]


def grid_text(grid: Grid | None, shape: Sequence[int]) -> str:
    """A file's grid as a message shows it."""
    if grid is None or grid.crs is None:
        return f"{shape[0]}x{shape[1]} pixels without georeferencing"
    return f"{grid.crs}, {shape[0]}x{shape[1]} pixels, transform {tuple(round(v, 6) for v in tuple(grid.transform)[:6])}"


def file_grid(code: str | None, transform: Sequence[float] | None, shape: Sequence[int]) -> Grid | None:
    """The Grid of a catalogue row (proj:code, proj:transform, rumi:shape); None without georeferencing."""
    if code is None or transform is None:
        return None
    return Grid.from_affine(code, transform, shape)


@dataclass(frozen=True, eq=False)
class LabelMatch:
    """Where label file `label` lies on an image file's pixel grid.

    kind "window": the label grid is the image's, or aligned with an integer multiple k = (kr,
    kc) of its resolution; image pixel (r, c) is label pixel ((r + off[0]) // kr, (c + off[1]) //
    kc), and the rectangle rect = (r_lo, r_hi, c_lo, c_hi) of image pixels has labels.
    kind "warp": any other grid; image pixel centres go through pyproj to the label CRS and the
    label pixel holding each (nearest neighbour); poly is the label raster's outline in image
    pixel coordinates (x = column, y = row). tsteps: image time (s) -> label step, for labels
    with several steps (None: a static label)."""

    label: int
    kind: str
    k: tuple[int, int] | None = None
    off: tuple[int, int] | None = None
    rect: tuple[int, int, int, int] | None = None
    poly: Any = None
    tsteps: dict[int, int] | None = None

    @property
    def same_grid(self) -> bool:
        """The label grid is the image's, shifted by whole pixels: one window read per chip."""
        return self.kind == "window" and self.k == (1, 1)

    def covers(self, r0: Any, c0: Any, h: int, w: int) -> Any:
        """bool array: the chips at (r0, c0) lie wholly inside this label file (kind "window":
        also plain numbers, giving a bool)."""
        if self.rect is not None:
            r_lo, r_hi, c_lo, c_hi = self.rect
            return (r0 >= r_lo) & (r0 + h <= r_hi) & (c0 >= c_lo) & (c0 + w <= c_hi)
        import shapely

        boxes = shapely.box(c0, r0, c0 + w, r0 + h)
        return np.asarray(shapely.contains(self.poly, boxes), dtype=bool)

    def covers_block(self, r1: Any, r2: Any, c1: Any, c2: Any, h: int, w: int) -> tuple[Any, Any]:
        """Over blocks of chips (every (r0, c0) with r1 <= r0 <= r2, c1 <= c0 <= c2): (every chip
        of the block lies inside this label file, some may). The chips inside a rectangle are a
        box of offsets; an outline's are not known per block (every block: maybe)."""
        r1, r2, c1, c2 = (np.asarray(v) for v in (r1, r2, c1, c2))
        if self.rect is None:
            return np.zeros(r1.shape, bool), np.ones(r1.shape, bool)
        r_lo, r_hi, c_lo, c_hi = self.rect
        every = (r1 >= r_lo) & (r2 + h <= r_hi) & (c1 >= c_lo) & (c2 + w <= c_hi)
        some = (r2 >= r_lo) & (r1 + h <= r_hi) & (c2 >= c_lo) & (c1 + w <= c_hi)
        return every, some

    def covers_chip(self, r0: int, c0: int, h: int, w: int) -> bool:
        """The one chip at (r0, c0) lies wholly inside this label file."""
        if self.rect is not None:  # plain numbers: no arrays to build per chip
            return bool(self.covers(r0, c0, h, w))
        return bool(self.covers(np.array([r0]), np.array([c0]), h, w)[0])


def match(image: Grid, label: Grid, l: int) -> LabelMatch | None:
    """The LabelMatch of label file l on the image grid, or None when they do not overlap."""
    Y, X = image.shape
    al = image.aligned(label)
    if al is not None:
        (kr, kc), (orr, oc) = al
        Yl, Xl = label.shape
        rect = (max(0, -orr), min(Y, Yl * kr - orr), max(0, -oc), min(X, Xl * kc - oc))
        if rect[0] >= rect[1] or rect[2] >= rect[3]:
            return None
        return LabelMatch(l, "window", al.k, al.off, rect)
    # another CRS or grid: the label raster's outline on the image grid (through pyproj)
    import shapely

    try:
        ring = label.outline(image.crs, densify=64)
    except FormatError:  # outside the image CRS's domain
        return None
    c, r = image.colrow(ring[:, 0], ring[:, 1])
    poly = shapely.Polygon(np.stack([c, r], 1))
    if not poly.is_valid:
        poly = shapely.make_valid(poly)
    if not poly.intersects(shapely.box(0, 0, X, Y)):
        return None
    shapely.prepare(poly)
    return LabelMatch(l, "warp", poly=poly)


@dataclass(frozen=True, eq=False)
class LabelIndex:
    """The label files of a chip index: per label file its id, location, shape (T, B, Y, X),
    grid, band indices and times (s); and the matches of each image file."""

    encoding: str
    Tl: int
    Bl: int
    band_names: list[str]
    ids: list[str]
    hrefs: list[str]
    shapes: list[list[int]]
    grids: list[Grid]
    band_idx: list[list[int]]
    times: list[list[int] | None]
    matches: list[list[LabelMatch]]

    def steps(self, m: LabelMatch, step_times: dict[int, int], ts: Sequence[int]) -> list[int]:
        """Label steps for image steps ts: [0] for a static label file, else the label step at
        each image step's time (step_times: image step -> seconds; checked when planned)."""
        if m.tsteps is None:
            return [0]
        return [m.tsteps[int(step_times[t])] for t in ts]

    def repeat_static(self, m: LabelMatch, ts: Sequence[int], dst: Array) -> None:
        """A static label beside a time series: its one step repeated over the chip's image
        steps ts (dst: the chip's uint8 view of the mask, Tl steps)."""
        if m.tsteps is None and len(ts) > 1 and self.Tl > 1:
            v = dst.reshape(self.Tl, -1)
            v[1:len(ts)] = v[0]


def plan_labels(labels: Catalog, label_bands: Sequence[str] | None, image_geoms: Sequence[bytes | None],
                ids: Sequence[str], shapes: Sequence[Sequence[int]], grids: Sequence[Grid | None],
                file_times: Sequence[Array], T: int) -> LabelIndex:
    """The label files of `labels` and where each lies on the image files (their footprints'
    WKB, ids, shapes, grids and selected times)."""
    lt = labels.table
    if lt.num_rows == 0:
        raise RequestError("the label catalogue is empty")
    lr = Rows(lt)  # the label catalogue's columns, decoded (rumi.catalog.decode)
    lshapes = lr.shapes.tolist()
    ltimes = lr.times.lists()
    code_names, which = lr.grid_codes
    lcodes = [code_names[k] if k >= 0 else None for k in which.tolist()]
    ltrs = [None if np.isnan(t[0]) else t for t in lr.transforms.tolist()]
    lids = [lr.id(l) for l in range(lr.n)]
    encoding = one_sample_type({e: lids[i] for e, i in lr.first_of_types(np.arange(lr.n)).items()}, files="label files")
    if encoding not in TORCH_TYPES:
        raise RequestError(f"{encoding} labels have no torch dtype")
    names = list(label_bands) if label_bands is not None else lr.first_bands()
    look = lr.bands_of(names)
    band_idx: list[list[int]] = look.idx.tolist()
    lgrids: list[Grid] = []
    for l in range(lt.num_rows):
        look.require(np.array([l]), lambda k: f"label file {lids[k]}", "label bands")
        g = file_grid(lcodes[l], ltrs[l], lshapes[l][2:])
        if g is None:
            raise RequestError(
                f"label file {lids[l]} has no CRS ({grid_text(None, lshapes[l][2:])}): it cannot be "
                f"placed on the image grid ({grid_text(grids[0], shapes[0][2:])})")
        lgrids.append(g)
    static = all(s[0] == 1 for s in lshapes)
    import shapely

    lgeom = [shapely.from_wkb(g) if g is not None else None for g in lt.column(K.GEOMETRY).to_pylist()]
    igeom = [shapely.from_wkb(g) if g is not None else None for g in image_geoms]
    matches: list[list[LabelMatch]] = [[] for _ in ids]
    for j in range(len(ids)):
        gi, grid = igeom[j], grids[j]
        if grid is None:
            raise RequestError(
                f"image file {ids[j]} has no CRS ({grid_text(None, shapes[j][2:])}): labels cannot be placed on it")
        for l in range(lt.num_rows):
            if gi is not None and lgeom[l] is not None and not gi.intersects(lgeom[l]):
                continue
            m = match(grid, lgrids[l], l)
            if m is None:
                continue
            if lshapes[l][0] > 1:
                have = {int(v): k for k, v in enumerate(ltimes[l] or ())}
                miss = [int(v) for v in file_times[j] if int(v) not in have]
                if miss:
                    raise RequestError(
                        f"the time axes of image {ids[j]} and labels {lids[l]} differ: the labels have no step at "
                        f"{dates(miss[:3])}{' ...' if len(miss) > 3 else ''} (labels with several time steps must "
                        "have every image step of the time selection)")
                m = LabelMatch(m.label, m.kind, m.k, m.off, m.rect, m.poly, have)
            matches[j].append(m)
    if not any(matches):
        raise RequestError(
            f"the labels do not overlap the images: no label file ({', '.join(lids[:3])}{' ...' if len(lids) > 3 else ''}; "
            f"{grid_text(lgrids[0], lshapes[0][2:])}) intersects an image file ({', '.join(ids[:3])}; "
            f"{grid_text(grids[0], shapes[0][2:])})")
    return LabelIndex(encoding, 1 if static else T, len(names), list(names), lids, lt.column(K.LOCATION).to_pylist(),
                      lshapes, lgrids, band_idx, ltimes, matches)


def read_label(reader: Any, index: LabelIndex, m: LabelMatch, image: Grid, r0: int, c0: int, h: int, w: int,
               lts: list[int], dst: Array, threads: int) -> dict[str, int]:
    """Reads label match m for the h x w chip at (r0, c0) of the image grid into dst, the chip's
    uint8 view of the mask (Tl, Bl, h, w): label steps lts; the rest stays as it is (zero).
    Returns the read's statistics."""
    bs = index.band_idx[m.label]
    step_bytes = dst.size // index.Tl
    nb = step_bytes * len(lts)
    if m.same_grid:
        assert m.off is not None
        orr, oc = m.off
        st: dict[str, int] = reader.read_into(dst[:nb].data, lts, bs, Window(c0 + oc, r0 + orr, w, h), threads=threads)
        return st
    outside = None
    if m.kind == "window":
        assert m.k is not None and m.off is not None
        (kr, kc), (orr, oc) = m.k, m.off
        rows = (r0 + np.arange(h) + orr) // kr
        cols = (c0 + np.arange(w) + oc) // kc
        R, C = np.broadcast_to(rows[:, None], (h, w)), np.broadcast_to(cols[None, :], (h, w))
    else:
        rr, cc = np.meshgrid(r0 + np.arange(h), c0 + np.arange(w), indexing="ij")
        R, C, outside = image.nearest(index.grids[m.label], rr, cc)
    win = covering(R, C)
    sb = step_bytes // (index.Bl * h * w)
    vt = np.dtype({1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}.get(sb, f"V{sb}"))
    src = np.empty((len(lts), len(bs), win.height, win.width), vt)
    st = reader.read_into(src.reshape(-1).view(np.uint8).data, lts, bs, win, threads=threads)
    g = src[:, :, R - win.row_off, C - win.col_off]  # (steps, Bl, h, w)
    if outside is not None and outside.any():
        g[:, :, outside] = np.zeros((), vt)
    dst[:nb] = np.ascontiguousarray(g).reshape(-1).view(np.uint8)
    return st
