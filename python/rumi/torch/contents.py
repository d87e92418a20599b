"""What a chip holds, bounded from the catalogue's class counts (rumi:classes, rumi.catalog.classes)
without reading a pixel: the samplers' class and cloud constraints (`min_class=`, `max_class=`,
`cloud=`) and the class-balanced weighting (`balance=`).

A constraint names a band and classes of it. The band is one of the image files' bands (read or
not: an SCL band of the files constrains chips of their other bands), or one of the label files'
bands (labels= on the image's pixel grid: the counts of the label file that covers the chip); a
name that both have is an error: "images:NAME" or "labels:NAME" says which. Its counts per time
step and tile (the catalogue's bounds lo_C <= n_C <= hi_C: exact counts, or quantised ones,
rumi.catalog.classes.ClassCounts) bound, for a chip at (r0, c0) and each step it reads, the
samples of classes C it holds: at least sum over its tiles of max(0, lo_C - (tile samples - chip
samples in the tile)), at most sum of min(chip samples in the tile, hi_C). Both are exact for a
chip of whole tiles whose counts are exact (the quantised ones: a class absent from a tile, or
filling it), and never on the wrong side of the truth for others.

- min_class={band: {class: fraction}}: the chip's samples (all its steps, its h x w pixels) of
  the class are at least that fraction (lower bound >= fraction). A key may be a tuple of
  classes (their union).
- max_class={band: {class: fraction}}: at most that fraction (upper bound <= fraction).
- cloud=Cloud(band, max=0.1, classes=None, min_clear_steps=None): a step is clear when its cloud
  fraction (the classes given; None: every class but 0, a cloud mask's) is at most max by the
  upper bound; every step the chip reads must be clear, or at least min_clear_steps of them.
- balance=ClassBalance(band, target=None): RandomChipSampler draws chips so that each class's
  share of the drawn pixels approaches target (a dict class -> share; None: equal shares of the
  classes the selection has), weighting the lattice chips by the class shares their tiles'
  counts give (not bounds: estimates, the counts spread evenly over each tile).

Fractions count nodata samples as no class (rumi:classes does not count them). Time steps: the
steps the chip reads (max_steps with time_steps="newest" included); time_steps="random" draws
them per chip and is refused with a class constraint."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator, Mapping, NamedTuple, Sequence

import numpy as np

from rumi import RequestError
from rumi.catalog import columns as C
from rumi.catalog.decode import Rows
from rumi.catalog.scan import tile_areas

from .dtypes import Array
from .index import ChipIndex
from .tiling import tile_overlap_ranges, tile_overlaps, tile_sum_ranges, tile_sums

#: decoded class counts kept per process (files)
COUNTS_CACHE = 4096
#: values (tile steps x chips x time steps) _tile_sums takes at once
TILE_SUMS_AT_ONCE = 1 << 21
#: the bytes of ok_many's class sums kept per sampler (FlatBank: 1 KB a file of 8 x 8 tiles);
#: past them every file's are decoded again when next needed
FLAT_BYTES = 256 << 20
#: the files flat_many decodes at once (their decoded counts bounded)
FLAT_FILES_AT_ONCE = 4096
#: the bytes of decoded counts flat_many keeps for the other limits of a band (decoded once for them all)
DECODED_KEPT = 64 << 20


@dataclass(frozen=True)
class Cloud:
    """A cloud limit for samplers (cloud=): band (a mask band, or a scene classification band
    such as Sentinel-2's SCL), max (the largest cloud fraction of a clear step, by the
    catalogue's bound), classes (the cloud classes, e.g. (8, 9, 10) of SCL; None: every class
    but 0), min_clear_steps (None: every step the chip reads is clear; k: at least k are)."""

    band: str
    max: float = 0.0
    classes: tuple[int, ...] | None = None
    min_clear_steps: int | None = None

    def __post_init__(self) -> None:
        if not 0.0 <= float(self.max) <= 1.0:
            raise ValueError(f"Cloud(max=) must be in [0, 1], not {self.max!r}")
        if self.min_clear_steps is not None and (isinstance(self.min_clear_steps, bool) or int(self.min_clear_steps) < 1):
            raise ValueError(f"Cloud(min_clear_steps=) must be None or >= 1, not {self.min_clear_steps!r}")
        if self.classes is not None:
            object.__setattr__(self, "classes", _classes(self.classes, "Cloud(classes=)"))


@dataclass(frozen=True)
class ClassBalance:
    """Class-balanced drawing (RandomChipSampler(balance=)): band, and target shares per class
    (a dict class -> share, normalised; None: equal shares of the classes the selection has);
    the shares are those of the target's classes among themselves (other classes are
    background). spread: the least effective number of chips the weights keep (1 / sum of the
    squared probabilities): a target the chips cannot meet is approached only as far as keeps
    that many in play, rather than drawing the same few chips."""

    band: str
    target: Mapping[int, float] | None = field(default=None)
    spread: int = 64

    def __post_init__(self) -> None:
        if isinstance(self.spread, bool) or int(self.spread) < 1:
            raise ValueError(f"ClassBalance(spread=) must be >= 1, not {self.spread!r}")
        if self.target is not None:
            t = {int(k): float(v) for k, v in dict(self.target).items()}
            if not t or any(v < 0 or not math.isfinite(v) for v in t.values()) or sum(t.values()) <= 0:
                raise ValueError(f"ClassBalance(target=) needs shares >= 0 with a positive sum, not {self.target!r}")
            object.__setattr__(self, "target", t)


def _classes(key: Any, what: str) -> tuple[int, ...]:
    vals = list(key) if isinstance(key, (tuple, list, set, frozenset)) else [key]
    try:
        out = tuple(sorted({int(v) for v in vals}))
    except (TypeError, ValueError):
        raise TypeError(f"{what}: classes are integers (or a tuple of them), not {key!r}") from None
    if not out or any(int(v) != v for v in vals):
        raise TypeError(f"{what}: classes are integers (or a tuple of them), not {key!r}")
    return out


@dataclass(frozen=True)
class Limit:
    """One constraint on the samples of classes `classes` of band `band`: kind "min" / "max"
    (fraction of the chip's samples), or "cloud" (per step; min_steps clear steps, None: all)."""

    band: str
    classes: tuple[int, ...] | None  # None: every class but 0
    kind: str
    value: float
    min_steps: int | None = None

    @property
    def text(self) -> str:
        cl = "every class but 0" if self.classes is None else (
            f"class {self.classes[0]}" if len(self.classes) == 1 else f"classes {list(self.classes)}")
        if self.kind == "min":
            return f"min_class: {self.band} {cl} >= {self.value:g}"
        if self.kind == "max":
            return f"max_class: {self.band} {cl} <= {self.value:g}"
        steps = "every step" if self.min_steps is None else f"at least {self.min_steps} steps"
        return f"cloud: {self.band} {cl} <= {self.value:g} in {steps}"


def limits_of(min_class: Any, max_class: Any, cloud: Any) -> list[Limit]:
    """The samplers' min_class= / max_class= / cloud= as Limits (ValueError / TypeError naming
    what is wrong)."""
    out: list[Limit] = []
    for kind, arg in (("min", min_class), ("max", max_class)):
        if arg is None:
            continue
        if not isinstance(arg, Mapping):
            raise TypeError(f"{kind}_class must be a dict {{band: {{class: fraction}}}}, not {arg!r}")
        for band, per in arg.items():
            if not isinstance(band, str) or not isinstance(per, Mapping) or not per:
                raise TypeError(f"{kind}_class must be a dict {{band: {{class: fraction}}}}, not {arg!r}")
            for key, frac in per.items():
                f = float(frac)
                if not 0.0 <= f <= 1.0:
                    raise ValueError(f"{kind}_class: the fraction of {band} {key!r} must be in [0, 1], not {frac!r}")
                out.append(Limit(band, _classes(key, f"{kind}_class[{band!r}]"), kind, f))
    if cloud is not None:
        if not isinstance(cloud, Cloud):
            raise TypeError(f"cloud must be a rumi.torch.Cloud(band, max=..., classes=..., min_clear_steps=...), "
                            f"not {cloud!r}")
        out.append(Limit(cloud.band, cloud.classes, "cloud", float(cloud.max),
                         None if cloud.min_clear_steps is None else int(cloud.min_clear_steps)))
    return out


@dataclass(frozen=True)
class Source:
    """Where a band's counts for image file j lie: the counted file's values and the lower and
    upper bounds of its counts (lo, hi: (T, ny, nx, K), rumi.catalog.classes.ClassCounts), its
    tiles and (Y, X), the shift of its pixel grid from the image's (label pixel = image pixel +
    shift), the image chips it covers (a LabelMatch, or None: the image file itself), and the
    label steps of image steps (None: the image's own steps)."""

    values: Array
    lo: Array
    hi: Array
    tiles: tuple[int, int]
    shape: tuple[int, int]
    shift: tuple[int, int]
    match: Any
    static: bool


class Contents:
    """The class constraints of a sampler on a chip index: bounds per chip from the class
    counts of the catalogue (image files) and of the label catalogue."""

    def __init__(self, index: ChipIndex, limits: Sequence[Limit], balance: ClassBalance | None = None) -> None:
        self.index = index
        self.limits = list(limits)
        self.balance = balance
        self.bands = list(dict.fromkeys([lim.band for lim in self.limits] + ([balance.band] if balance else [])))
        if not self.bands:
            return
        if index.spec.max_steps is not None and index.spec.time_steps == "random":
            raise RequestError("class and cloud constraints need each file's time steps: time_steps='random' draws them "
                               "per chip (use time_steps='newest', or no max_steps)")
        self._rows = _image_rows(index)
        self._label_rows = _label_rows(index) if index.label is not None else None
        self._ltiles: list[tuple[int, int]] = [] if index.labels is None else [
            (int(a), int(b)) for a, b in index.labels.table.column(C.TILE_SHAPE).to_pylist()]
        self._cache: dict[tuple[int, str], list[Source]] = {}
        self._sums: dict[Any, Any] = {}  # bounds_range's class sums of a source's steps
        self._banks: dict[Any, FlatBank] = {}  # ok_many's class sums per (band, classes), many files at once
        self._places: dict[str, Any] = {}  # flat_specs' rows of the files, found once
        self._decoded: dict[int, tuple[Rows, Array, list[Any], int]] = {}  # _flat_add's last counts of a Rows, kept for
        # the band's other limits: (rows, the rows decoded, their batches, the limits still to use them)
        self._where: dict[str, tuple[str, str]] = {}
        for band in self.bands:  # a band must be somewhere: the images' or the labels', not both
            kind, _, name = band.partition(":") if band.startswith(("images:", "labels:")) else ("", "", band)
            in_images = kind != "labels" and any(name in bs for bs, _ in self._rows)
            in_labels = kind != "images" and self._label_rows is not None and any(name in bs for bs, _ in self._label_rows)
            if not in_images and not in_labels:
                raise RequestError(f"no {kind[:-1] if kind else 'image'}{' or label' if not kind and index.label is not None else ''} "
                                   f"file has a band {name!r} (class constraints name a band of the images, or of labels=)")
            if in_images and in_labels:
                raise RequestError(f"{name!r} is a band of the images and of the labels: say which, 'labels:{name}' or "
                                   f"'images:{name}'")
            self._where[band] = ("images" if in_images else "labels", name)

    def __bool__(self) -> bool:
        return bool(self.limits)

    # -- the counts ----------------------------------------------------------------------------
    def sources(self, j: int, band: str) -> list[Source]:
        """The counts of band for image file j (its own, or the label files on its grid)."""
        key = (j, band)
        got = self._cache.get(key)
        if got is not None:
            return got
        index = self.index
        where, band = self._where[band]
        bands, value = self._rows[j]
        out: list[Source] = []
        if where == "images" and band in bands:
            b = bands.index(band)
            T, B, Y, X = (int(v) for v in index.shapes[j])
            th, tw = (int(v) for v in index.tiles[j])
            out.append(self._source(value, b, (T, B, Y, X), (th, tw), (0, 0), None, False, index.ids[j], band))
        elif where == "labels" and self._label_rows is not None and index.label is not None:
            lab = index.label
            for m in lab.matches[j]:
                lbands, lvalue = self._label_rows[m.label]
                if band not in lbands:
                    continue
                if not m.same_grid:
                    raise RequestError(
                        f"a class constraint on the label band {band!r} needs label files on the image's pixel grid: "
                        f"label {lab.ids[m.label]} is on another grid than image {index.ids[j]} (resampled when read; "
                        "its counts cannot bound a chip)")
                Tl, Bl, Yl, Xl = (int(v) for v in lab.shapes[m.label])
                lt = self._ltiles[m.label]
                assert m.off is not None  # a window match (same_grid)
                out.append(self._source(lvalue, lbands.index(band), (Tl, Bl, Yl, Xl), lt, tuple(m.off), m,
                                        m.tsteps is None, lab.ids[m.label], band))
        if len(self._cache) >= COUNTS_CACHE:
            self._cache = {}
        self._cache[key] = out
        return out

    def _source(self, row: tuple[Rows, int], b: int, shape: tuple[int, int, int, int], tiles: tuple[int, int],
                shift: Any, match: Any, static: bool, fid: str, band: str) -> Source:
        got = row[0].classes(row[1])  # the catalogue's one decoder
        if got is None:
            raise RequestError(
                f"a class constraint on band {band!r} needs the catalogue's class counts (rumi:classes), which the "
                f"catalogue of {fid} did not record (built before them): build it again (rumi.Catalog.build: "
                "integer bands with few values are counted, or classes=[...] names them)")
        if b not in got:
            raise RequestError(
                f"band {band!r} of {fid} has no class counts in the catalogue (not categorical by the detection rule: "
                f"an integer band with at most 32 values): build the catalogue with classes=[{band!r}]")
        cc = got[b]
        area = tile_areas(tiles, (shape[2], shape[3]), cc.lo.shape[1:3])
        if (cc.lo.sum(-1, dtype=np.int64) > area).any() or (cc.hi > area[..., None]).any():  # the bounds rely on it
            raise RequestError(f"rumi:classes of {fid} counts more samples in a tile than it has: build the catalogue again")
        return Source(cc.values, cc.lo, cc.hi, tiles, shape[2:], (int(shift[0]), int(shift[1])), match, static)

    # -- bounds --------------------------------------------------------------------------------
    def steps(self, j: int, src: Source) -> list[int]:
        """The source's steps that image file j's chips read."""
        if src.match is None:
            return self.index.steps_of(j, 0, 0)
        if src.static:
            return [0]
        st = self.index.step_times[j]
        return [src.match.tsteps[int(st[t])] for t in self.index.steps_of(j, 0, 0)]

    def bounds(self, j: int, band: str, classes: tuple[int, ...] | None, r0: Any, c0: Any) -> tuple[Array, Array]:
        """(lower, upper) bounds of the samples of the classes per chip and step: two (n, S)
        float arrays for the chips at (r0, c0) of file j (S: the steps the chips read; a
        static label: 1). Chips no source covers: 0 and every sample."""
        r0 = np.atleast_1d(np.asarray(r0, np.int64))
        c0 = np.atleast_1d(np.asarray(c0, np.int64))
        h, w = self.index.size
        srcs = self.sources(j, band)
        S = max((len(self.steps(j, s)) for s in srcs), default=1)
        lo = np.zeros((len(r0), S))
        hi = np.full((len(r0), S), float(h * w))
        for s, cov in _first_covering(srcs, r0, c0, h, w):
            st = self.steps(j, s)
            sel_lo, sel_hi = (v[st] for v in _class_sum(s, classes))  # (S', ny, nx)
            l, u = tile_bounds(sel_lo, sel_hi, s.tiles, s.shape, r0[cov] + s.shift[0], c0[cov] + s.shift[1], h, w)
            if l.shape[1] != S:  # a static label beside several steps: the same in each
                l, u = np.repeat(l, S, 1), np.repeat(u, S, 1)
            lo[cov], hi[cov] = l, u
        return lo, hi

    def ok(self, j: int, r0: Any, c0: Any) -> Array:
        """bool array: the chips at (r0, c0) of file j meet every limit."""
        r0 = np.atleast_1d(np.asarray(r0, np.int64))
        ok: Array = np.ones(r0.shape, bool)
        for lim in self.limits:
            ok &= self.score(lim, j, r0, c0) >= 0
        return ok

    def ok_many(self, files: Array, inv: Array, r0: Array, c0: Array) -> Array:
        """ok of chips of several files at once (chip i of file files[inv[i]]): the files whose counts for
        a limit are one source of one step with a rectangle (flat_counts) in one native walk over
        the tiles per tile grid (tiling.tile_sums), their class sums side by side in the limit's
        FlatBank (decoded and summed for many files at once when first needed: flat_many); the
        others file by file (ok). The same sums as bounds' (of integers: exact in any order), so
        the same decisions, in a few calls for all the files rather than many per file."""
        h, w = self.index.size
        ok: Array = np.ones(len(inv), bool)
        present = np.bincount(inv, minlength=len(files)) > 0
        for lim in self.limits:
            bank = self.flat_many(files[present], lim)
            gid = bank.gid[files]
            score = np.empty(len(inv))
            for i in np.flatnonzero(present & (gid < 0)).tolist():  # file by file
                sel = inv == i
                score[sel] = self.score(lim, int(files[i]), r0[sel], c0[sel])
            chip_gid = gid[inv]
            pos = bank.pos[files]
            for u in np.unique(gid[present & (gid >= 0)]).tolist():
                grp = bank.groups[u]
                of_u = chip_gid == u
                at: Any = slice(None) if of_u.all() else np.flatnonzero(of_u)  # one tile grid: no copies
                g = pos[inv[at]]
                shift, rect = np.take(grp.shift, g, 0), np.take(grp.rect, g, 0)
                a0, b0 = r0[at], c0[at]
                lower = lim.kind == "min"  # the one bound the limit is decided on (_score)
                sums = tile_sums(grp.tiles, grp.shape, grp.grid, (grp.lo if lower else grp.hi)[:grp.n], grp.area, g,
                                 a0 + shift[:, 0], b0 + shift[:, 1], h, w, lower)
                lo, hi = (sums, np.zeros(len(g))) if lower else (np.zeros(len(g)), sums)
                cov = (a0 >= rect[:, 0]) & (a0 + h <= rect[:, 1]) & (b0 >= rect[:, 2]) & (b0 + w <= rect[:, 3])
                lo[~cov], hi[~cov] = 0.0, float(h * w)  # chips no source covers: 0 and every sample (bounds)
                score[at] = _score(lim, lo[:, None], hi[:, None], self.index.size)
            ok &= score >= 0
        return ok

    def ok_range_many(self, js: Array, r1: Array, r2: Array, c1: Array, c2: Array) -> tuple[Array, Array]:
        """ok_range over blocks of chips of several files at once (block i of file js[i]): (every
        chip of the block meets every limit, some chip may), from the limits' FlatBanks in one
        native walk per tile grid (tiling.tile_sum_ranges); a block of a file decided file by file
        (not in a bank) is undecided (False, True), as is one partly inside its source's
        rectangle."""
        h, w = self.index.size
        js, r1, r2, c1, c2 = (np.asarray(v, np.int64) for v in (js, r1, r2, c1, c2))
        sure, maybe = np.zeros(len(js), bool), np.ones(len(js), bool)
        if not self.limits:
            return ~sure, maybe
        sure[:] = True
        files = group(js, self.index.num_files)[0]
        decided = np.ones(len(js), bool)
        size = self.index.size
        for lim in self.limits:
            bank = self.flat_many(files, lim)
            gid = bank.gid[js]
            decided &= gid >= 0
            lower = lim.kind == "min"
            uncovered = _score(lim, np.zeros((1, 1)), np.full((1, 1), float(h * w)), size)[0] >= 0
            for u in group(gid[gid >= 0], len(bank.groups))[0].tolist():
                grp = bank.groups[u]
                of_u = gid == u
                sel: Any = slice(None) if of_u.all() else np.flatnonzero(of_u)  # one tile grid: no copies
                g = bank.pos[js[sel]]
                shift, rect = np.take(grp.shift, g, 0), np.take(grp.rect, g, 0)  # (np.take: 10x fancy indexing's speed)
                a1, a2, b1, b2 = r1[sel], r2[sel], c1[sel], c2[sel]
                dr, dc = shift[:, 0], shift[:, 1]
                least, most = tile_sum_ranges(grp.tiles, grp.shape, grp.grid, (grp.lo if lower else grp.hi)[:grp.n],
                                              grp.area, g, a1 + dr, a2 + dr, b1 + dc, b2 + dc, h, w, lower)
                # the lower bound at the least and the most samples in each tile; an upper bound: the most are the worst
                worst, best = (least, most) if lower else (most, least)
                every = (a1 >= rect[:, 0]) & (a2 + h <= rect[:, 1]) & (b1 >= rect[:, 2]) & (b2 + w <= rect[:, 3])
                some = (np.maximum(a1, rect[:, 0]) <= np.minimum(a2, rect[:, 1] - h)) \
                    & (np.maximum(b1, rect[:, 2]) <= np.minimum(b2, rect[:, 3] - w))
                s_worst = _score(lim, worst[:, None], worst[:, None], size) >= 0
                s_best = _score(lim, best[:, None], best[:, None], size) >= 0
                mixed = some & ~every
                sure[sel] &= np.where(some, ~mixed & s_worst, uncovered)
                maybe[sel] &= np.where(some, mixed | s_best, uncovered)
        sure &= decided  # a block some limit leaves to the file-by-file path: undecided
        return sure, maybe

    def flat_many(self, files: Array, lim: Limit) -> FlatBank:
        """The limit's FlatBank with files' terms in it: those not there yet found (flat_specs),
        their rows' class counts decoded at once per catalogue part (Rows.classes_many), the
        limit's classes summed at the step their chips read, in one numpy pass per layout. A
        file whose counts are not one source of one step with a rectangle, or whose row holds
        none for the band (unrecorded: its error is bounds'), is marked file by file."""
        key = (lim.band, lim.classes)
        bank = self._banks.get(key)
        if bank is None or bank.bytes > FLAT_BYTES:
            bank = self._banks[key] = FlatBank(self.index.num_files)
        todo = files[bank.gid[files] == -2]
        for at in range(0, len(todo), FLAT_FILES_AT_ONCE):
            self._flat_add(bank, todo[at:at + FLAT_FILES_AT_ONCE], lim)
        return bank

    def _flat_add(self, bank: FlatBank, new: Array, lim: Limit) -> None:
        """flat_many for files not in the bank yet."""
        bank.gid[new] = -1
        sp = self.flat_specs(new, lim.band)
        us, first = np.unique(sp.src, return_index=True)
        for u in us[np.argsort(first)].tolist():  # each Rows in the order of its first file
            if u < 0:
                continue
            ks = np.flatnonzero(sp.src == u)  # its files' places in new
            rows = sp.rows[u]
            want, at = np.unique(sp.row[ks], return_inverse=True)
            rk = at.ravel() * (1 << 20) + sp.band[ks]  # each file's (row, band)
            batches = self._counts_of(rows, want, lim)
            for bt in batches:
                ek = bt.row * (1 << 20) + bt.band  # the entries' (row, band)
                order = np.argsort(ek, kind="stable")
                p = np.minimum(np.searchsorted(ek[order], rk), len(ek) - 1)
                reqs = np.flatnonzero(ek[order][p] == rk)
                T, ny, nx, K = bt.lo.shape[1:]
                step = sp.step[ks[reqs]]
                inside = (step >= 0) & (step < T)  # others file by file (bounds names them)
                reqs, step = reqs[inside], step[inside]
                if not len(reqs):
                    continue
                g = order[p[reqs]]
                kk = ks[reqs]
                fs = new[kk]
                tiles = (int(sp.tiles[kk[0], 0]), int(sp.tiles[kk[0], 1]))
                shape = (int(sp.shape[kk[0], 0]), int(sp.shape[kk[0], 1]))
                area = tile_areas(tiles, shape, (ny, nx))
                n, m, each = len(g), ny * nx, np.arange(len(g))
                vals = np.take(bt.values, g, 0)
                sel = (vals != 0 if lim.classes is None else (vals[..., None] == list(lim.classes)).any(-1)).astype(np.float64)
                # each tile's counts of every class and of the limit's in one product (sums of integers
                # below 2**53: exact as floats), every step's for the check, the one step's kept
                low = np.take(bt.lo, g, 0).reshape(n, T * m, K).astype(np.float64) \
                    @ np.stack([np.ones_like(sel), sel], -1)
                bad = (low[..., 0].reshape(n, T, ny, nx) > area).reshape(n, -1).any(1)
                lo = low[..., 1].reshape(n, T, m)[each, step]
                if bt.hi is not bt.lo:  # (exact counts: each at most their sum, the area)
                    up = np.take(bt.hi, g, 0)
                    bad |= (up > area[..., None]).reshape(n, -1).any(1)
                    hi = (up[each, step].reshape(n, m, K).astype(np.float64) @ sel[..., None])[..., 0]
                else:
                    hi = lo
                if bad.any():  # the bounds rely on it
                    fid = self.index.ids[int(fs[int(np.argmax(bad))])]
                    raise RequestError(f"rumi:classes of {fid} counts more samples in a tile than it has: build the "
                                       "catalogue again")
                hi = np.minimum(hi, area.ravel())
                bank.add(fs, tiles, shape, (ny, nx), sp.shift[kk], sp.rect[kk], lo, hi)

    def _counts_of(self, rows: Rows, want: Array, lim: Limit) -> list[Any]:
        """rows.classes_many(want)'s batches, decoded once for the limits of one band: the band's
        other limits (other classes: other banks) ask for the same rows next (ok_many and
        ok_range_many fill every limit's bank with the same files), which take them kept (up to
        DECODED_KEPT bytes) until each has."""
        got = self._decoded.pop(id(rows), None)
        if got is not None and got[0] is rows and np.array_equal(got[1], want):
            batches, left = got[2], got[3] - 1
        else:
            batches = rows.classes_many(want)[1]
            left = len({v.classes for v in self.limits if v.band == lim.band}) - 1
        size = sum(b.lo.nbytes + (0 if b.hi is b.lo else b.hi.nbytes) for b in batches)
        kept = sum(sum(b.lo.nbytes + (0 if b.hi is b.lo else b.hi.nbytes) for b in v[2]) for v in self._decoded.values())
        if left > 0 and kept + size <= DECODED_KEPT:
            self._decoded[id(rows)] = (rows, want, batches, left)
        return batches

    def flat_specs(self, files: Array, band: str) -> FlatSpecs:
        """Where the counts of band of files lie when they are one source of one step with a
        rectangle (flat_counts' files), found without decoding them, as columns over the files
        (FlatSpecs; src -1: file by file): the files' step counts, rows and bands at once, a
        label file's match (a Python object per image file) looked at once per file."""
        index = self.index
        where, name = self._where[band]
        files = np.asarray(files, np.int64)
        n = len(files)
        off, steps = index.cols["steps.off"], index.cols["steps"]
        first = off[files]
        have = off[files + 1] - first
        count = have if index.spec.max_steps is None else np.minimum(have, index.spec.max_steps)
        step = np.full(n, -1, np.int64)
        step[have == 1] = steps[first[have == 1]]
        for k in np.flatnonzero((count == 1) & (have != 1)).tolist():  # max_steps=1 of several: the index's rule
            step[k] = index.steps_of(int(files[k]), 0, 0)[0]
        src = np.where(count == 1, 0, -1)
        if where == "images":
            objs, of_file, row_of, band_of = self._image_places(name)
            bi = band_of[files]
            src = np.where((src >= 0) & (bi >= 0), of_file[files], -1)
            big = 1 << 62
            return FlatSpecs(objs, src, row_of[files], bi, index.tiles[files], index.shapes[files][:, 2:], step,
                             np.zeros((n, 2), np.int64), np.tile(np.array([-big, big, -big, big], np.int64), (n, 1)))
        lab = index.label
        assert lab is not None  # a band of the labels (__init__)
        lrows, lband = self._label_places(name)
        has = (lband >= 0).tolist()
        matches, step_s = lab.matches, index.cols["step_s"]
        got: list[tuple[int, int, int]] = []
        offs, rects = [], []
        for k, j in zip(np.flatnonzero(src >= 0).tolist(), files[src >= 0].tolist()):
            ms = matches[j]
            if len(ms) != 1 or not has[ms[0].label]:  # (most files: one label file, which has the band)
                ms = [m for m in ms if has[m.label]]
                if len(ms) != 1:
                    continue
            m = ms[0]
            if m.rect is None or m.off is None or not m.same_grid:
                continue  # file by file (sources names a label on another grid)
            t = 0
            if m.tsteps is not None:  # the label's step at the time of the image's
                t = m.tsteps.get(int(step_s[first[k]]) if have[k] == 1 else int(index.step_times[j][int(step[k])]), -1)
            got.append((k, m.label, t))
            offs.append(m.off)
            rects.append(m.rect)
        ks, label, t_of = np.array(got, np.int64).reshape(-1, 3).T
        src = np.full(n, -1, np.int64)
        src[ks] = 0
        row, lstep = np.zeros(n, np.int64), np.zeros(n, np.int64)
        row[ks], lstep[ks] = label, t_of
        shift, rect = np.zeros((n, 2), np.int64), np.zeros((n, 4), np.int64)
        shift[ks] = np.array(offs, np.int64).reshape(-1, 2)
        rect[ks] = np.array(rects, np.int64).reshape(-1, 4)
        shapes = np.asarray(lrows.shapes)
        return FlatSpecs([lrows], src, row, lband[row], lrows.tiles[row], shapes[row, 2:], lstep, shift, rect)

    def _image_places(self, name: str) -> tuple[list[Rows], Array, Array, Array]:
        """Per image file, its row and band name's index there (-1: none) as columns: (the
        shards' Rows, each file's index in them, its row there, the band's index), found once
        per band."""
        got = self._places.get("images:" + name)
        if got is None:
            objs: dict[int, int] = {}
            rows: list[Rows] = []
            places = []
            for bands, (r, i) in self._rows:
                u = objs.get(id(r))
                if u is None:
                    u = objs[id(r)] = len(rows)
                    rows.append(r)
                places.append((u, i, bands.index(name) if name in bands else -1))
            of_file, row_of, band_of = np.array(places, np.int64).reshape(-1, 3).T
            got = self._places["images:" + name] = (rows, of_file, row_of, band_of)
        return got

    def _label_places(self, name: str) -> tuple[Rows, Array]:
        """The label files' Rows (one for them all) and, per label file, the index of band name
        in its bands (-1: none), found once per band."""
        got = self._places.get("labels:" + name)
        if got is None:
            assert self._label_rows is not None
            lband = np.array([b.index(name) if name in b else -1 for b, _ in self._label_rows], np.int64)
            got = self._places["labels:" + name] = (self._label_rows[0][1][0], lband)
        return got

    def flat_counts(self, j: int, lim: Limit) -> tuple[Any, ...] | None:
        """ok_many's terms of file j for a limit: (tiles, shape, tile grid, shift, the rectangle of
        image offsets the source covers, the flat lower and upper counts of the limit's classes),
        or None where bounds sums otherwise (several sources or steps, a label without a
        rectangle: file by file)."""
        key = ("flat", j, lim.band, lim.classes)
        got: Any = self._sums.get(key)
        if got is None:
            srcs = self.sources(j, lim.band)
            got = False
            if len(srcs) == 1 and len(self.steps(j, srcs[0])) == 1:
                s = srcs[0]
                big = 1 << 62
                rect = (-big, big, -big, big) if s.match is None else s.match.rect
                if rect is not None:
                    lo, hi = self._class_steps(j, lim.band, 0, s, lim.classes)
                    got = (s.tiles, s.shape, tuple(int(v) for v in lo.shape[1:]), s.shift, tuple(rect),
                           np.asarray(lo, np.float64).ravel(), np.asarray(hi, np.float64).ravel())
            if len(self._sums) >= COUNTS_CACHE:
                self._sums.clear()
            self._sums[key] = got
        out: tuple[Any, ...] | None = got or None
        return out

    def score(self, lim: Limit, j: int, r0: Any, c0: Any) -> Array:
        """Per chip, how far its bound is inside the limit (>= 0: met): min: lower fraction -
        value; max: value - upper fraction; cloud: clear steps - steps needed."""
        lo, hi = self.bounds(j, lim.band, lim.classes, r0, c0)
        return _score(lim, lo, hi, self.index.size)

    def bounds_range(self, j: int, band: str, sets: Sequence[tuple[tuple[int, ...] | None, bool]], r1: Array, r2: Array,
                     c1: Array, c2: Array) -> tuple[list[tuple[Array, Array]], Array]:
        """bounds over blocks of chips of file j (every (r0, c0) with r1 <= r0 <= r2, c1 <= c0 <=
        c2, per block), for each (classes, lower) of sets: the lower bound (lower=True) or the
        upper bound of the samples of the classes at the least and at the most samples any chip
        of the block has in each tile, (n, S) each: the least and the most bound of any chip of
        the block (each tile's term is nondecreasing in the chip's samples in the tile:
        tiling.tile_overlap_ranges); and where the chips of a block may take their counts from
        different sources (mixed: those do not hold there). A block of one chip gives bounds'.
        One walk and one sum over the tiles for every set and both ends."""
        h, w = self.index.size
        n = len(r1)
        srcs = self.sources(j, band)
        S = max((len(self.steps(j, s)) for s in srcs), default=1)
        low = [i for i, (_, lower) in enumerate(sets) if lower]
        up = [i for i, (_, lower) in enumerate(sets) if not lower]
        lo = np.zeros((2 * n, len(low) * S))  # rows: the least, then the most samples; columns: set by set, S steps each
        hi = np.full((2 * n, len(up) * S), float(h * w))
        done, mixed = np.zeros(n, bool), np.zeros(n, bool)
        one = bool((r1 == r2).all() and (c1 == c2).all())  # single chips: the least is the most
        for k, s in enumerate(srcs):  # a block's first source: the one that covers every chip of it (as _first_covering per chip)
            every, some = (np.ones(n, bool), np.ones(n, bool)) if s.match is None else s.match.covers_block(r1, r2, c1, c2, h, w)
            mixed |= ~done & some & ~every
            cov = ~done & every
            done |= some
            if not cov.any():
                continue
            key = ("stacked", j, band, k, tuple(sets))
            got = self._sums.get(key)
            if got is None:  # the sets' sums stacked (lower-bound sets, upper-bound sets) and the tiles' samples
                if len(self._sums) >= COUNTS_CACHE:
                    self._sums.clear()
                sums = [self._class_steps(j, band, k, s, cl) for cl, _ in sets]
                rest = (0,) + sums[0][0].shape[1:]
                got = (np.concatenate([sums[i][0] for i in low]) if low else np.zeros(rest),
                       np.concatenate([sums[i][1] for i in up]) if up else np.zeros(rest),
                       tile_areas(s.tiles, s.shape, rest[1:]).astype(np.float64).ravel(), sums[0][0].shape[0])
                self._sums[key] = got
            n_lo, n_hi, area, S1 = got
            dr, dc = s.shift
            every_chip = bool(cov.all())
            b1, b2, b3, b4 = ((v if every_chip else v[cov]) for v in (r1 + dr, r2 + dr, c1 + dc, c2 + dc))
            tri, tci, least, most = tile_overlap_ranges(s.tiles, s.shape, n_lo.shape[1:], b1, b2, b3, b4, h, w)
            idx = tri * n_lo.shape[2] + tci
            if one:
                l, u = _tile_sums_at(n_lo, n_hi, area, idx, least)
                l, u = np.concatenate([l, l]), np.concatenate([u, u])
            else:
                l, u = _tile_sums_at(n_lo, n_hi, area, np.concatenate([idx, idx], 1), np.concatenate([least, most], 1))
            if S1 != S:  # a static label beside several steps: the same in each
                l, u = np.repeat(l, S, 1), np.repeat(u, S, 1)
            if every_chip:
                lo, hi = l, u
            else:
                both = np.concatenate([cov, cov])
                lo[both], hi[both] = l, u
        out: list[tuple[Array, Array]] = []
        for i in range(len(sets)):
            v, at = (lo, low.index(i)) if i in low else (hi, up.index(i))
            out.append((v[:n, at * S:(at + 1) * S], v[n:, at * S:(at + 1) * S]))
        return out, mixed

    def _class_steps(self, j: int, band: str, k: int, s: Source, classes: tuple[int, ...] | None) -> tuple[Array, Array]:
        """_class_sum of source k of band for file j at the steps its chips read (kept)."""
        key = (j, band, k, classes)
        got = self._sums.get(key)
        if got is None:
            if len(self._sums) >= COUNTS_CACHE:
                self._sums.clear()
            st = self.steps(j, s)
            lo, hi = _class_sum(s, classes)
            got = self._sums[key] = (lo[st], hi[st])
        return got

    def ok_range(self, j: int, r1: Array, r2: Array, c1: Array, c2: Array) -> tuple[Array, Array]:
        """Over blocks of chips of file j (see bounds_range): (every chip of the block meets
        every limit, some chip may): the scores are nondecreasing in the lower bounds and
        nonincreasing in the upper ones, so the block's worst chip scores at least the least
        lower and the most upper bound's score, its best at most the other way round. A file
        whose every limit's counts lie in its FlatBank: ok_range_many (the same terms, in one
        native walk; a function of the file alone, as which way it takes)."""
        n = len(r1)
        one = np.array([j], np.int64)
        if self.limits and all(self.flat_many(one, lim).gid[j] >= 0 for lim in self.limits):
            return self.ok_range_many(np.full(n, j, np.int64), r1, r2, c1, c2)
        sure, maybe = np.ones(n, bool), np.ones(n, bool)
        for band in dict.fromkeys(lim.band for lim in self.limits):
            lims = [lim for lim in self.limits if lim.band == band]
            got, mixed = self.bounds_range(j, band, [(lim.classes, lim.kind == "min") for lim in lims], r1, r2, c1, c2)
            for lim, (least, most) in zip(lims, got):
                worst, best = (least, most) if lim.kind == "min" else (most, least)  # an upper bound: the most is the worst
                sure &= ~mixed & (_score(lim, worst, worst, self.index.size) >= 0)
                maybe &= mixed | (_score(lim, best, best, self.index.size) >= 0)
        return sure, maybe

    def value_of(self, lim: Limit, j: int, r0: Any, c0: Any) -> Array:
        """Per chip, the bound a limit is decided on: the lower fraction (min), the upper
        fraction (max), the number of clear steps (cloud)."""
        h, w = self.index.size
        lo, hi = self.bounds(j, lim.band, lim.classes, r0, c0)
        if lim.kind == "min":
            out: Array = lo.sum(1) / (h * w * lo.shape[1])
        elif lim.kind == "max":
            out = hi.sum(1) / (h * w * hi.shape[1])
        else:
            out = (hi / (h * w) <= lim.value + 1e-12).sum(1).astype(np.float64)
        return out

    def breaks(self, j: int) -> tuple[set[int], set[int]]:
        """Chip offsets where the bounds change slope: chip edges on the sources' tile edges."""
        h, w = self.index.size
        rs: set[int] = set()
        cs: set[int] = set()
        for band in self.bands:
            for s in self.sources(j, band):
                th, tw = s.tiles
                dr, dc = s.shift
                Yl, Xl = s.shape
                rs |= {v - dr for v in range(0, Yl + th, th)} | {v - dr - h for v in range(0, Yl + th, th)}
                cs |= {v - dc for v in range(0, Xl + tw, tw)} | {v - dc - w for v in range(0, Xl + tw, tw)}
        return rs, cs

    def best_text(self, lattice: Any) -> str:
        """For each limit alone, the best bound of any lattice chip and where (for errors)."""
        out = []
        for lim in self.limits:
            best, where = None, ("", 0, 0)
            quantised = False
            for j in range(self.index.num_files):
                if not self.sources(j, lim.band):
                    continue
                quantised = quantised or any(not np.array_equal(s.lo, s.hi) for s in self.sources(j, lim.band))
                rs, cs = lattice(j)
                R, C = (v.ravel() for v in np.meshgrid(rs, cs, indexing="ij"))
                if not len(R):
                    continue
                v = self.value_of(lim, j, R, C)
                k = int(np.argmin(v)) if lim.kind == "max" else int(np.argmax(v))
                better = best is None or (v[k] < best if lim.kind == "max" else v[k] > best)
                if better:
                    best, where = float(v[k]), (self.index.ids[j], int(R[k]), int(C[k]))
            if best is None:
                out.append(f"{lim.text}: no file has that band")
            else:
                what = "clear steps" if lim.kind == "cloud" else ("lower bound" if lim.kind == "min" else "upper bound")
                shown = f"{int(best)}" if lim.kind == "cloud" else f"{best:.4f}"
                out.append(f"{lim.text}: the best {what} {shown} (file {where[0]} at row {where[1]}, col {where[2]})"
                           + (f" from quantised counts of {lim.band!r} (a catalogue built with exact_classes=True "
                              "bounds chips closer)" if quantised else ""))
        return "; ".join(out)

    # -- balance -------------------------------------------------------------------------------
    def estimate(self, j: int, band: str, r0: Any, c0: Any,
                 classes: Sequence[int] | None = None) -> tuple[Array, Array]:
        """(values, shares): each class's expected share of the chips' samples (n, K) from the
        counts spread evenly over each tile (an estimate, not a bound: the middle of each count's
        bounds, ClassCounts.estimate). classes: only these (those the band has), not every one."""
        r0 = np.atleast_1d(np.asarray(r0, np.int64))
        c0 = np.atleast_1d(np.asarray(c0, np.int64))
        h, w = self.index.size
        srcs = self.sources(j, band)
        vals = np.unique(np.concatenate([s.values for s in srcs])) if srcs else np.zeros(0, np.int64)
        if classes is not None:
            vals = vals[np.isin(vals, np.asarray(list(classes)))]
        out = np.zeros((len(r0), len(vals)))
        for s, cov in _first_covering(srcs, r0, c0, h, w):
            steps = self.steps(j, s)
            sel = np.flatnonzero(np.isin(s.values, vals))
            cnt = (s.lo[steps][..., sel].astype(np.float64) + s.hi[steps][..., sel]) / 2  # (S, ny, nx, K): ClassCounts.estimate
            area = tile_areas(s.tiles, s.shape, cnt.shape[1:3])
            dens = cnt.sum(0) / (len(steps) * area[:, :, None])  # (ny, nx, K): share of each tile's samples
            e = _overlap_sum(dens, s.tiles, s.shape, r0[cov] + s.shift[0], c0[cov] + s.shift[1], h, w) / (h * w)
            out[np.ix_(np.flatnonzero(cov), np.searchsorted(vals, s.values[sel]))] = e
        return vals, out


class FlatSpecs(NamedTuple):
    """Where files' counts of a band lie (Contents.flat_specs), a row per file: src, the index
    of the Rows of its row in rows (-1: file by file), the row, the band's index there, the
    counted file's tiles (n, 2) and (Y, X) (n, 2), the step its chips read, the shift of its
    pixel grid from the image's (n, 2) and the rectangle of image offsets it covers (n, 4)."""

    rows: list[Rows]
    src: Array
    row: Array
    band: Array
    tiles: Array
    shape: Array
    step: Array
    shift: Array
    rect: Array


class FlatBank:
    """A limit's class sums (ok_many's terms) of many files: per file, gid (-2: not looked at
    yet, -1: file by file, else its group) and pos (its row in the group); a group per tile
    grid (tiles, (Y, X), (ny, nx)) holds each file's shift, rectangle and flat lower and upper
    sums (rows of ny x nx), grown by doubling."""

    def __init__(self, n_files: int) -> None:
        self.gid = np.full(n_files, -2, np.int64)
        self.pos = np.zeros(n_files, np.int64)
        self.groups: list[FlatGroup] = []
        self._of: dict[Any, int] = {}
        self.bytes = 0

    def add(self, files: Array, tiles: tuple[int, int], shape: tuple[int, int], grid: tuple[int, int], shift: Array,
            rect: Array, lo: Array, hi: Array) -> None:
        key = (tiles, shape, grid)
        u = self._of.get(key)
        if u is None:
            u = self._of[key] = len(self.groups)
            self.groups.append(FlatGroup(tiles, shape, grid))
        grp = self.groups[u]
        self.gid[files] = u
        self.pos[files] = grp.add(shift, rect, lo.reshape(len(files), -1), hi.reshape(len(files), -1))
        self.bytes += 2 * lo.size * 8


class FlatGroup:
    """A FlatBank's files of one tile grid: n files' shift (n, 2), rect (n, 4), lower and upper
    class sums lo, hi (n, ny x nx) float64 (the arrays' first n rows)."""

    def __init__(self, tiles: tuple[int, int], shape: tuple[int, int], grid: tuple[int, int]) -> None:
        self.tiles, self.shape, self.grid = tiles, shape, grid
        self.area = tile_areas(tiles, shape, grid).astype(np.float64).ravel()
        m = grid[0] * grid[1]
        self.n = 0
        self.shift, self.rect = np.zeros((0, 2), np.int64), np.zeros((0, 4), np.int64)
        self.lo, self.hi = np.zeros((0, m)), np.zeros((0, m))

    def add(self, shift: Array, rect: Array, lo: Array, hi: Array) -> Array:
        """Appends files' terms: their rows."""
        k = len(lo)
        if self.n + k > len(self.lo):
            cap = max(2 * len(self.lo), self.n + k, 16)
            for name in ("shift", "rect", "lo", "hi"):
                old = getattr(self, name)
                grown = np.zeros((cap,) + old.shape[1:], old.dtype)
                grown[:self.n] = old[:self.n]
                setattr(self, name, grown)
        at = np.arange(self.n, self.n + k)
        self.shift[at], self.rect[at], self.lo[at], self.hi[at] = shift, rect, lo, hi
        self.n += k
        return at


def group(v: Array, n: int) -> tuple[Array, Array, Array]:
    """np.unique(v, return_inverse=True, return_counts=True) of integers in [0, n) (file indices, group
    ids): by counting where v is not much shorter than n (no sort), else np.unique's sort."""
    if n > 16 * len(v) + 4096:
        vals, inv, cnt = np.unique(v, return_inverse=True, return_counts=True)
        return vals, inv.ravel(), cnt
    count = np.bincount(v, minlength=n)
    vals = np.flatnonzero(count)
    rank = np.zeros(n, np.int64)
    rank[vals] = np.arange(len(vals))
    return vals, rank[v], count[vals]


def _first_covering(srcs: Sequence[Source], r0: Array, c0: Array, h: int, w: int) -> Iterator[tuple[Source, Array]]:
    """Each source with the chips (a bool mask over r0, c0) it is the first to cover (a source
    without a label match covers every chip); sources that cover no chip left first are skipped."""
    done = np.zeros(len(r0), bool)
    for s in srcs:
        cov = np.ones(len(r0), bool) if s.match is None else np.asarray(s.match.covers(r0, c0, h, w), bool)
        cov &= ~done
        if cov.any():
            yield s, cov
            done |= cov


#: the dual regularisations balance_weights tries, in turn (0: the target exactly, when it can be met)
BALANCE_MU = (0.0, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1.0)


def balance_weights(M: Array, target: Array, spread: int) -> tuple[Array, Array]:
    """Probabilities p over the candidate chips (rows of M: each chip's expected samples of
    the target's classes, as shares of the chip) and the expected shares they give (p @ M,
    normalised). p is the maximum-entropy distribution (the most even) whose expected shares
    equal the target: p_i ~ exp(lambda . f_i) with f_i = M_i - target x sum(M_i), lambda found
    by Newton's method on the convex dual. When no distribution meets the target (a class that
    only occurs beside others) the dual is regularised (mu |lambda|^2 / 2, the constraints
    relaxed), mu the smallest of BALANCE_MU whose p keeps an effective number of chips of at
    least min(spread, chips / 4)."""
    n, K = M.shape
    f = M - np.outer(M.sum(1), target)
    need = min(float(spread), n / 4.0)
    p = np.full(n, 1.0 / n)
    lam = np.zeros(K)
    for mu in BALANCE_MU:  # each mu's Newton steps start from the previous mu's lambda (fewer steps)

        def dual(v: Array) -> float:
            z = f @ v
            top = float(z.max())
            return float(np.log(np.exp(z - top).sum()) + top + 0.5 * mu * v @ v)

        for _ in range(100):
            z = f @ lam
            top = float(z.max())
            w = np.exp(z - top)
            total = float(w.sum())
            p = w / total
            mean = p @ f
            g = mean + mu * lam
            if np.abs(g).max() < 1e-9:
                break
            cov = (f * p[:, None]).T @ f - np.outer(mean, mean) + (mu + 1e-12) * np.eye(K)
            step = np.linalg.solve(cov, g)
            a, o = 1.0, float(np.log(total) + top + 0.5 * mu * lam @ lam)  # dual(lam), from z
            while dual(lam - a * step) > o - 1e-4 * a * float(g @ step) and a > 1e-8:
                a /= 2
            lam = lam - a * step
        if 1.0 / float(np.sum(p * p)) >= need:
            break
    got = p @ M
    return p, got / max(float(got.sum()), 1e-300)


def _score(lim: Limit, lo: Array, hi: Array, size: tuple[int, int]) -> Array:
    """Contents.score from the chips' bounds (lo, hi: (n, S)); nondecreasing in lo, nonincreasing
    in hi."""
    h, w = size
    n = h * w * lo.shape[1]
    if lim.kind == "min":
        out: Array = lo.sum(1) / n - lim.value + 1e-12
    elif lim.kind == "max":
        out = lim.value - hi.sum(1) / n + 1e-12
    else:
        clear = (hi / (h * w) <= lim.value + 1e-12).sum(1)
        need = lo.shape[1] if lim.min_steps is None else lim.min_steps
        out = (clear - need).astype(np.float64)
    return out


def _class_sum(s: Source, classes: tuple[int, ...] | None) -> tuple[Array, Array]:
    """(T, ny, nx) float: lower and upper bounds of the source's samples of the classes (None:
    every class but 0), the upper no more than the tile's samples."""
    sel = s.values != 0 if classes is None else np.isin(s.values, classes)
    area = tile_areas(s.tiles, s.shape, s.hi.shape[1:3])
    lo: Array = s.lo[..., sel].sum(-1, dtype=np.float64)
    hi: Array = np.minimum(s.hi[..., sel].sum(-1, dtype=np.float64), area)
    return lo, hi


def tile_bounds(n_lo: Array, n_hi: Array, tiles: tuple[int, int], shape: tuple[int, int], r0: Array, c0: Array,
                h: int, w: int) -> tuple[Array, Array]:
    """Lower and upper bounds (len(r0), S) of the samples of a tile's count n (S, ny, nx: per
    step and tile; n_lo <= n <= n_hi, the catalogue's bounds) inside the h x w chips at (r0, c0)
    of a raster of shape (Y, X) with these tiles: sum over the tiles of max(0, n_lo - (tile
    samples - chip samples in it)) and of min(chip samples in it, n_hi)."""
    return _tile_sums(n_lo, n_hi, tiles, shape, tile_overlaps(tiles, shape, n_lo.shape[1:], r0, c0, h, w), len(r0))


def _tile_sums(n_lo: Array, n_hi: Array, tiles: tuple[int, int], shape: tuple[int, int],
               walk: Iterable[tuple[Array, Array, Array]], count: int) -> tuple[Array, Array]:
    """tile_bounds' sums over a walk of (tile row, tile col, the chip's samples in the tile):
    _tile_sums_at over TILE_SUMS_AT_ONCE values of the walk's steps at a time."""
    A, ny, nx = n_lo.shape
    area = tile_areas(tiles, shape, (ny, nx)).astype(np.float64).ravel()
    lo = np.zeros((count, A))
    hi = np.zeros((count, n_hi.shape[0]))
    steps = list(walk)
    per = max(1, TILE_SUMS_AT_ONCE // max(1, count * max(A, n_hi.shape[0])))
    for k in range(0, len(steps), per):
        part = steps[k:k + per]
        l, u = _tile_sums_at(n_lo, n_hi, area, np.stack([tri * nx + tci for tri, tci, _ in part]),
                             np.stack([o for _, _, o in part]))
        lo += l
        hi += u
    return lo, hi


def _tile_sums_at(n_lo: Array, n_hi: Array, area: Array, idx: Array, ov: Array) -> tuple[Array, Array]:
    """(chips, A) lower bounds from n_lo (A, ny, nx) and (chips, B) upper bounds from n_hi (B,
    ny, nx; A or B possibly 0) summed over the steps of a walk: idx (steps, chips) the flat
    tile index (row x nx + col), ov the chip's samples in the tile, area the tiles' samples
    (flat). The sums are of integers: exact in any order."""
    A, ny, nx = n_lo.shape
    B = n_hi.shape[0]
    count = idx.shape[1]
    lo, hi = np.zeros((count, A)), np.zeros((count, B))
    if A == 1:
        lo[:, 0] = np.maximum(0.0, np.asarray(n_lo, np.float64).reshape(ny * nx)[idx] - (area[idx] - ov)).sum(0)
    elif A:  # a tile outside the chip (ov 0) adds nothing below: count <= its area
        flat = np.asarray(n_lo, np.float64).reshape(A, ny * nx)
        lo = np.maximum(0.0, flat[:, idx] - (area[idx] - ov)).sum(1).T  # (A, steps, chips) -> (chips, A)
    if B == 1:
        hi[:, 0] = np.minimum(ov, np.asarray(n_hi, np.float64).reshape(ny * nx)[idx]).sum(0)
    elif B:
        hi = np.minimum(ov, np.asarray(n_hi, np.float64).reshape(B, ny * nx)[:, idx]).sum(1).T
    return lo, hi


def _overlap_sum(dens: Array, tiles: tuple[int, int], shape: tuple[int, int], r0: Array, c0: Array, h: int,
                 w: int) -> Array:
    """sum over the chips' tiles of dens (ny, nx, K) x samples of the chip in the tile: (n, K)."""
    ny, nx, K = dens.shape
    out = np.zeros((len(r0), K))
    for tri, tci, ov in tile_overlaps(tiles, shape, (ny, nx), r0, c0, h, w):
        out += ov[:, None] * dens[tri, tci]
    return out


#: the catalogue columns the class counts are decoded from
COLUMNS = [C.BANDS, C.SHAPE, C.TILE_SHAPE, C.CLASSES]


def _image_rows(index: ChipIndex) -> list[tuple[list[str], tuple[Rows, int]]]:
    """Per image file j: its bands and its row (the decoder of its shard's columns, its
    position there), read from the shards the index holds (a few columns; read_shard reads
    rumi:classes, which a search's rows leave unread)."""
    cat = index.catalog
    shards = cat.shards()
    shard_of = np.asarray(index.shard)
    pos_of = np.asarray(index.fid, np.int64) & 0xFFFFFFFF
    got: dict[int, tuple[list[str], tuple[Rows, int]]] = {}
    for s in np.unique(shard_of).tolist():
        try:
            sr = cat.read_shard(shards[s], COLUMNS)
        except (KeyError, ValueError):  # part files written before the column: null there (Rows)
            sr = cat.read_shard(shards[s], COLUMNS[:-1])
        rows = Rows(sr.table)
        bands = sr.table.column(C.BANDS).to_pylist()
        at = {int(p): i for i, p in enumerate(np.asarray(sr.pos).tolist())}
        for j in np.flatnonzero(shard_of == s).tolist():
            i = at[int(pos_of[j])]
            got[j] = (list(bands[i]), (rows, i))
    return [got[j] for j in range(index.num_files)]


def _label_rows(index: ChipIndex) -> list[tuple[list[str], tuple[Rows, int]]]:
    """Per label file l: its bands and its row (rumi:classes read for a search's rows, which
    leave it unread: Catalog.table_with)."""
    assert index.labels is not None
    table = index.labels.table_with([C.CLASSES])
    rows = Rows(table)
    bands = table.column(C.BANDS).to_pylist()
    return [(list(b), (rows, i)) for i, b in enumerate(bands)]
