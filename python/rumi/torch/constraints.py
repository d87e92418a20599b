"""Sampler constraints, decided from the chip index alone (no pixel is read): a chip's valid
fraction bound from the catalogue's per-tile summary (`valid_bound`), label coverage
(`covered`), both together (`chip_ok`), and the lattice of offsets where their optimum lies
(`lattice`, `feasible`). The errors say why no chip can meet them."""

from __future__ import annotations

import functools
import math
import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from rumi import RequestError
from rumi.catalog import nodata_bound
from rumi.catalog.scan import tile_areas

from .dtypes import Array, never_sample
from .index import ChipIndex
from .tiling import tile_overlap_ranges, tile_overlaps

if TYPE_CHECKING:
    from .contents import Contents


def skips_unlabelled(index: ChipIndex) -> bool:
    """Samplers draw only chips that one label file covers (labels with on_missing="skip")."""
    return index.label is not None and index.spec.on_missing == "skip"


def summary_covers(index: ChipIndex, j: int) -> bool:
    """The catalogue's valid summary of file j was recorded for the nodata in use of every
    band that has one (a band whose nodata its samples cannot take needs none)."""
    nd = index.nodata[j]
    had = index.summary_of[j]
    for k, v in enumerate(nd or ()):
        if v is None or never_sample(v, index.encoding):
            continue
        hk = None if had is None else had[k]
        if hk is None or not (hk == v or (math.isnan(hk) and math.isnan(v))):
            return False
    return True


def summaries_cover(index: ChipIndex) -> Array:
    """summary_covers of every file at once (bool array; vectorised over the index's columns)."""
    nd_val, nd_has = np.asarray(index.cols["nd_val"]), np.asarray(index.cols["nd_has"])
    sm_val, sm_has = np.asarray(index.cols["sm_val"]), np.asarray(index.cols["sm_has"])
    sm_known = np.asarray(index.cols["sm_known"])
    vals = np.unique(nd_val[nd_has])
    never = {float(v) for v in vals if never_sample(float(v), index.encoding)}
    need = nd_has & ~np.isin(nd_val, list(never)) if never else nd_has.copy()
    if any(math.isnan(v) for v in never):
        need &= ~np.isnan(nd_val)
    same = sm_known[:, None] & sm_has & ((sm_val == nd_val) | (np.isnan(sm_val) & np.isnan(nd_val)))
    out: Array = ~(need & ~same).any(axis=1)
    return out


def min_valid_error(index: ChipIndex, min_valid: float | None) -> RequestError | None:
    """The RequestError that min_valid meets on this index (nodata unknown, or no valid
    summary recorded for the nodata in use), or None."""
    mv = "min_valid" if min_valid is None else f"min_valid={min_valid}"
    err = index.nodata_unknown(
        mv, "Rebuild the catalogue with rumi.Catalog.build(..., nodata=V) (a number for every band, or one per band; "
        "rumi-catalog build --nodata V): it records the nodata and the per-tile valid summary that min_valid reads. "
        "Without nodata every chip would pass as valid")
    if err is not None:
        return err
    # the whole selection's files (the index's checks), not this rank's alone
    count, total, first = index.meta["summary_stale"]
    if count:
        fid, had, nodata = first
        return RequestError(
            f"{mv} bounds a chip's valid fraction from the catalogue's per-tile summary "
            f"(rumi:valid), but for {count} of the {total} files ({fid}{' ...' if count > 1 else ''}) it was "
            + (f"recorded for nodata {had}, not {nodata} (ChipDataset's nodata=)" if had is not None
               else f"not recorded (the catalogue has no nodata for it; nodata {nodata} comes from "
                    "ChipDataset's nodata=)")
            + f": rebuild the catalogue with rumi.Catalog.build(..., nodata={nodata}) to record it "
            "(each file's pixels are read once), or leave min_valid out (return_valid=True marks the nodata "
            "samples of the chips read)")
    return None


def valid_bound(index: ChipIndex, j: int, r0: Any, c0: Any) -> Array:
    """Lower bound of the valid fraction of the chips at (r0, c0) of file j (arrays), from
    the catalogue's per-tile summary alone: 1 - sum over the chip's bands and tiles of
    min(samples of the tile in the chip, the tile's invalid samples) / samples of the chip."""
    r0 = np.atleast_1d(np.asarray(r0, np.int64))
    c0 = np.atleast_1d(np.asarray(c0, np.int64))
    caps = _valid_caps(index, j)
    if caps is None:  # every band with nodata is one its samples cannot take
        return np.ones(r0.shape)
    h, w = index.size
    walk = list(tile_overlaps(*caps[1:], r0, c0, h, w))
    return _valid_sum(index, j, caps, *(np.stack([v[k] for v in walk]) for k in range(3)))


def _valid_caps(index: ChipIndex, j: int) -> tuple[list[Array], tuple[int, int], tuple[int, int], tuple[int, int]] | None:
    """valid_bound's invalid samples per tile and band of file j (all its steps), its tiles,
    shape and tile grid (None: no band with nodata its samples can take)."""
    nd = index.nodata[j]
    if nd is None or not summary_covers(index, j):
        err = min_valid_error(index, None)
        assert err is not None
        raise err
    q = index.valid_q[j]
    if q is None:
        return None
    Tf, _, Y, X = (int(v) for v in index.shapes[j])
    th, tw = (int(v) for v in index.tiles[j])
    ny, nx = q.shape[1:]
    caps = [nodata_bound(q[b]) * Tf * tile_areas((th, tw), (Y, X), (ny, nx)) * (1 + 1e-9)
            for k, b in enumerate(index.band_idx[j]) if (v := nd[k]) is not None and not never_sample(v, index.encoding)]
    return caps, (th, tw), (Y, X), (int(ny), int(nx))


def _valid_sum(index: ChipIndex, j: int, caps: Any, tri: Array, tci: Array, ov: Array) -> Array:
    """valid_bound over a walk of (steps, chips) arrays: tile row, tile col, the chip's samples
    in the tile (the same order of the sums for chip_ok and for blocks of one chip)."""
    nd = index.nodata[j]
    assert nd is not None
    h, w = index.size
    tsel = index.steps_count(j)
    invalid = np.zeros(ov.shape[1:])
    for cap in caps[0]:
        invalid += np.minimum(ov * tsel, cap[tri, tci]).sum(0)
    out: Array = 1.0 - invalid / (tsel * len(nd) * h * w)
    return out


def ok_range(index: ChipIndex, j: int, r1: Array, r2: Array, c1: Array, c2: Array, min_valid: float | None = None,
             contents: Contents | None = None, caps: Any = None) -> tuple[Array, Array]:
    """chip_ok over blocks of chips of file j (every (r0, c0) with r1 <= r0 <= r2, c1 <= c0 <=
    c2, per block): (every chip of the block meets the constraints, some chip may). Each
    bound's terms are monotone in a chip's samples per tile, whose least and most over a block
    tiling.tile_overlap_ranges gives: a block of one chip is decided as chip_ok decides it.
    caps: _valid_caps(index, j) when already at hand."""
    n = len(r1)
    h, w = index.size
    sure, maybe = np.ones(n, bool), np.ones(n, bool)
    if skips_unlabelled(index):
        assert index.label is not None
        every, some = np.zeros(n, bool), np.zeros(n, bool)
        for m in index.label.matches[j]:
            e, s = m.covers_block(r1, r2, c1, c2, h, w)
            every |= e  # inside one label file (inside their union without one: decided chip by chip)
            some |= s
        sure &= every
        maybe &= some
    if contents and maybe.any():  # each constraint on the blocks the ones before leave possible
        at: Any = slice(None) if maybe.all() else np.flatnonzero(maybe)
        s_c, m_c = contents.ok_range(j, r1[at], r2[at], c1[at], c2[at])
        sure[at] &= s_c
        maybe[at] &= m_c
    if min_valid is not None and min_valid > 0 and maybe.any():
        caps = _valid_caps(index, j) if caps is None else caps
        if caps is not None:
            at = slice(None) if maybe.all() else np.flatnonzero(maybe)
            tri, tci, least, most = tile_overlap_ranges(caps[1], caps[2], caps[3], r1[at], r2[at], c1[at], c2[at], h, w)
            m = tri.shape[1]
            v = _valid_sum(index, j, caps, np.concatenate([tri, tri], 1), np.concatenate([tci, tci], 1),
                           np.concatenate([most, least], 1))
            sure[at] &= v[:m] >= min_valid
            maybe[at] &= v[m:] >= min_valid
    return sure, maybe


def covered(index: ChipIndex, j: int, r0: Any, c0: Any) -> Array:
    """bool array: the chips at (r0, c0) of file j lie wholly inside one label file (True
    for every chip without labels)."""
    r0 = np.atleast_1d(np.asarray(r0, np.int64))
    c0 = np.atleast_1d(np.asarray(c0, np.int64))
    if index.label is None:
        return np.ones(r0.shape, bool)
    h, w = index.size
    out = np.zeros(r0.shape, bool)
    for m in index.label.matches[j]:
        out |= m.covers(r0, c0, h, w)
    return out


def chip_ok(index: ChipIndex, j: int, r0: Any, c0: Any, min_valid: float | None = None,
            contents: Contents | None = None) -> Array:
    """bool array: the chips at (r0, c0) of file j meet min_valid (valid_bound), the class and
    cloud limits (contents: rumi.torch.contents) and, with labels and on_missing="skip", have
    labels (covered)."""
    ok: Array = np.ones(np.atleast_1d(np.asarray(r0)).shape, bool)
    if skips_unlabelled(index):
        ok &= covered(index, j, r0, c0)
    if min_valid is not None and min_valid > 0:
        ok &= valid_bound(index, j, r0, c0) >= min_valid
    if contents and ok.any():
        r0, c0 = np.atleast_1d(np.asarray(r0, np.int64)), np.atleast_1d(np.asarray(c0, np.int64))
        ok[ok] = contents.ok(j, r0[ok], c0[ok])
    return ok


def chips_ok(index: ChipIndex, js: Array, r0: Array, c0: Array, min_valid: float | None = None,
             contents: Contents | None = None, files: Array | None = None, inv: Array | None = None) -> Array:
    """chip_ok of chips of several files at once (chip i of file js[i]): the label coverage of files
    with one label rectangle and the class limits (Contents.ok_many) in a few numpy calls for
    all the files; min_valid, and the coverage of files with other labels, file by file.
    files, inv: np.unique(js, return_inverse=True) when at hand (js[i] == files[inv[i]])."""
    js, r0, c0 = (np.asarray(v, np.int64) for v in (js, r0, c0))
    if files is None or inv is None:
        files, inv = np.unique(js, return_inverse=True)
    if min_valid is not None and min_valid > 0:
        out: Array = np.zeros(len(js), bool)
        for i, j in enumerate(files.tolist()):
            sel = inv == i
            if sel.any():
                out[sel] = chip_ok(index, j, r0[sel], c0[sel], min_valid, contents)
        return out
    ok: Array = np.ones(len(js), bool)
    if skips_unlabelled(index):
        assert index.label is not None
        h, w = index.size
        rect, each = label_rects(index, files)
        for i in np.flatnonzero(each).tolist():  # file by file
            sel = inv == i
            ok[sel] = covered(index, int(files[i]), r0[sel], c0[sel])
        g = rect[inv]
        ok &= (r0 >= g[:, 0]) & (r0 + h <= g[:, 1]) & (c0 >= g[:, 2]) & (c0 + w <= g[:, 3])
    if contents and ok.any():
        ok[ok] = contents.ok_many(files, inv[ok], r0[ok], c0[ok])
    return ok


#: per label index (its files' matches are fixed when it is made): chips_ok's rectangle of each image file
#: looked at so far and its kind (-1 not yet, 0 its one label rectangle, 1 file by file)
_RECTS: weakref.WeakKeyDictionary[Any, tuple[Array, Array]] = weakref.WeakKeyDictionary()


def label_rects(index: ChipIndex, files: Array) -> tuple[Array, Array]:
    """chips_ok's label rectangles of files (r_lo, r_hi, c_lo, c_hi of image rows and columns
    that one label file covers; none: an empty one) and whether each is decided file by file
    (several label files, or one without a rectangle: an everything-rectangle, `covered` per chip),
    looked up once per file and kept with the label index."""
    label = index.label
    assert label is not None
    kept = _RECTS.get(label)
    if kept is None or len(kept[1]) != index.num_files:
        kept = _RECTS[label] = (np.zeros((index.num_files, 4), np.int64), np.full(index.num_files, -1, np.int8))
    rect, kind = kept
    big = 1 << 62
    for j in files[kind[files] < 0].tolist():
        ms = label.matches[j]
        if not ms:
            rect[j], kind[j] = (big, -big, big, -big), 0  # no label: no chip covered
        elif len(ms) == 1 and ms[0].rect is not None:
            rect[j], kind[j] = ms[0].rect, 0
        else:
            rect[j], kind[j] = (-big, big, -big, big), 1
    return rect[files], kind[files] == 1


def lattice(index: ChipIndex, j: int, contents: Contents | None = None) -> tuple[Array, Array]:
    """Chip offsets (rows, cols) where every constraint's optimum lies: the breakpoints of
    valid_bound (chip edges on tile edges) and of the label rectangles, plus a grid of a
    quarter chip (valid_bound is concave in each offset between breakpoints, so its maximum
    over a file is at one of these rows and columns; the class bounds' extremes lie on their
    sources' tile edges, contents.breaks)."""
    _, _, Y, X = index.shapes[j]
    h, w = index.size
    th, tw = index.tiles[j]
    rs = {0, Y - h} | set(range(0, Y, th)) | {v - h for v in range(th, Y + th, th)} | set(range(0, Y - h + 1, max(1, h // 4)))
    cs = {0, X - w} | set(range(0, X, tw)) | {v - w for v in range(tw, X + tw, tw)} | set(range(0, X - w + 1, max(1, w // 4)))
    for m in index.label.matches[j] if index.label is not None else ():
        if m.rect is not None:
            r_lo, r_hi, c_lo, c_hi = m.rect
            rs |= {r_lo, r_hi - h}
            cs |= {c_lo, c_hi - w}
    if contents:
        more_r, more_c = contents.breaks(j)
        rs |= more_r
        cs |= more_c
    return (np.array(sorted(v for v in rs if 0 <= v <= Y - h), np.int64),
            np.array(sorted(v for v in cs if 0 <= v <= X - w), np.int64))


def feasible(index: ChipIndex, j: int, min_valid: float | None = None, contents: Contents | None = None) -> Array:
    """(n, 2) array of lattice offsets (row, col) of file j whose chips meet the constraints."""
    rs, cs = lattice(index, j, contents)
    rows, cols = (v.ravel() for v in np.meshgrid(rs, cs, indexing="ij"))
    ok = chip_ok(index, j, rows, cols, min_valid, contents)
    return np.stack([rows[ok], cols[ok]], 1)


#: a file's offset map keeps at most this many undecided blocks (its memory: see Offsets)
MAP_BLOCKS = 1 << 16
#: pieces per direction an undecided block of offset_map is split into
MAP_SPLIT = 2
#: the values (blocks x tile steps x time steps x limits x 2) offset_map bounds at once (memory: 8 bytes each, a few
#: times), and the blocks (more at once: slower, their temporaries past the CPU's caches)
MAP_VALUES_AT_ONCE = 1 << 22
MAP_BLOCKS_AT_ONCE = 1536
#: offset_map(keys=): the cost of checking a drawn offset with chip_ok (RandomChipSampler, UNDECIDED_AHEAD draws a
#: key at once) against bounding a block, in a file's first epoch and the later ones that reuse its map
MAP_CHECK_COST = 2.0
#: and the fixed cost of a chip_ok call (an epoch's checks of a file), in blocks
MAP_CHECK_CALL = 1000


@dataclass(frozen=True)
class Offsets:
    """The chip offsets of a file that meet the constraints, as blocks on a step (sy, sx): block
    b holds the offsets (r[b] + sy i, c[b] + sx k) for i < nr[b], k < nc[b]; sure[b]: each of
    them meets the constraints; otherwise some may (the undecided blocks offset_map leaves when
    it reaches MAP_BLOCKS, or for a few keys: a drawn offset there is checked with chip_ok). At most about 5 x
    MAP_BLOCKS blocks of 33 bytes (11 MB); a few thousand in practice (the blocks follow the
    edges of the offsets that meet the constraints)."""

    r: Array
    c: Array
    nr: Array
    nc: Array
    sure: Array
    step: tuple[int, int]

    @property
    def sizes(self) -> Array:
        out: Array = self.nr * self.nc
        return out

    @functools.cached_property
    def _ends(self) -> Array:
        """The running sum of the blocks' sizes (block b's offsets end before _ends[b])."""
        out: Array = np.cumsum(self.sizes)
        return out

    @property
    def total(self) -> int:
        """Offsets in the blocks (those that meet the constraints, and the undecided ones)."""
        return int(self.sizes.sum())

    @property
    def certain(self) -> int:
        """Offsets that meet the constraints for certain (in the sure blocks)."""
        return int(self.sizes[self.sure].sum())

    def at(self, u: Array, certain: bool = False) -> tuple[Array, Array, Array]:
        """The offsets numbered u (0 <= u < total, or < certain with certain=True: the sure
        blocks' alone), block by block in order, each block's rows by columns: (rows, cols, sure)."""
        if certain:
            blocks = np.flatnonzero(self.sure)
            sizes = self.sizes[blocks]
            cum = np.cumsum(sizes)
            at = np.searchsorted(cum, u, side="right")
            b = blocks[at]
            q = u - (cum[at] - sizes[at])
        else:  # every block: their running sums kept (a sampler draws from them every epoch)
            b = np.searchsorted(self._ends, u, side="right")
            q = u - self._ends[b] + self.nr[b] * self.nc[b]
        sy, sx = self.step
        return self.r[b] + sy * (q // self.nc[b]), self.c[b] + sx * (q % self.nc[b]), self.sure[b]


def offset_map(index: ChipIndex, j: int, step: tuple[int, int], min_valid: float | None = None,
               contents: Contents | None = None, keys: float | None = None) -> Offsets:
    """Every offset of file j on the step (rows 0, sy, ... <= Y - h; columns likewise) whose
    chip meets the constraints (chip_ok), as blocks: blocks of about half a tile are decided at once
    by ok_range (every chip meets them: kept; none can: dropped), the others halved in each
    direction until decided, single offsets by chip_ok; past MAP_BLOCKS undecided blocks, the
    rest stay undecided (Offsets). The same offsets as chip_ok on each one, in a few vectorised
    steps per level of blocks rather than one bound per offset.

    keys: the keys the map is for (None: every offset decided). A level's undecided blocks are
    split further only while the next level's blocks (4 per block, each bounded at about the
    cost of a chip_ok of one offset) are fewer than the checks those keys would cost drawn in
    them (keys x their share of the map's offsets), once some offsets are certain; the others
    stay undecided, and an offset drawn in them is checked with chip_ok (RandomChipSampler;
    `refine` goes on when more keys are drawn). A large file's first keys then cost a level or
    two of blocks, not the map to single offsets along every edge."""
    _, _, Y, X = (int(v) for v in index.shapes[j])
    h, w = index.size
    sy, sx = step
    Py, Px = (Y - h) // sy + 1, (X - w) // sx + 1
    th, tw = (int(v) for v in index.tiles[j])
    by, bx = max(1, th // sy // 2), max(1, tw // sx // 2)  # blocks of half a tile: fewer levels
    while -(-Py // by) * -(-Px // bx) > MAP_BLOCKS:  # a huge file: larger first blocks (memory bounded)
        by, bx = 2 * by, 2 * bx
    I, K = (v.ravel() for v in np.meshgrid(np.arange(0, max(Py, 0), by), np.arange(0, max(Px, 0), bx), indexing="ij"))
    NI, NK = np.minimum(by, Py - I), np.minimum(bx, Px - K)
    return _decide(index, j, step, (I, K, NI, NK), [], min_valid, contents, keys, (by, bx))


def refine(m: Offsets, index: ChipIndex, j: int, min_valid: float | None = None, contents: Contents | None = None,
           keys: float | None = None) -> Offsets:
    """m (offset_map's, of file j with these constraints) with its undecided blocks split and
    decided further, as offset_map decides them for `keys` (None: to single offsets): the same
    offsets, fewer of them left to chip_ok."""
    und = ~m.sure
    if not und.any():
        return m
    sy, sx = m.step
    kept = [(m.r[m.sure] // sy, m.c[m.sure] // sx, m.nr[m.sure], m.nc[m.sure], np.ones(int(m.sure.sum()), bool))]
    I, NI, K, NK = _split(m.r[und] // sy, m.nr[und], m.c[und] // sx, m.nc[und], MAP_SPLIT)
    K, NK, I, NI = _split(K, NK, I, NI, MAP_SPLIT)
    by, bx = int(NI.max(initial=1)), int(NK.max(initial=1))
    return _decide(index, j, m.step, (I, K, NI, NK), kept, min_valid, contents, keys, (by, bx))


def _decide(index: ChipIndex, j: int, step: tuple[int, int], blocks: tuple[Array, Array, Array, Array],
            kept: list[tuple[Array, Array, Array, Array, Array]], min_valid: float | None, contents: Contents | None,
            keys: float | None, first: tuple[int, int]) -> Offsets:
    """offset_map's levels from blocks (I, K, NI, NK: first offset and offsets per axis, in steps;
    at most `first` offsets per axis), the blocks already decided in kept."""
    sy, sx = step
    h, w = index.size
    th, tw = (int(v) for v in index.tiles[j])
    by, bx = first
    I, K, NI, NK = blocks
    held = sum(len(k[0]) for k in kept)
    certain = sum(int((k[2] * k[3]).sum()) for k in kept)
    caps = _valid_caps(index, j) if min_valid is not None and min_valid > 0 else None
    # blocks decided at once: about MAP_VALUES_AT_ONCE (tile steps x time steps x limits x 2) values
    steps = (-(-(by * sy + h) // th) + 1) * (-(-(bx * sx + w) // tw) + 1)
    chunk = max(64, min(MAP_BLOCKS_AT_ONCE, MAP_VALUES_AT_ONCE // (2 * steps * index.steps_count(j) * max(1, len(contents.limits) if contents else 1))))
    while len(I):
        r1, c1 = I * sy, K * sx
        r2, c2 = (I + NI - 1) * sy, (K + NK - 1) * sx
        sure, maybe = np.zeros(len(I), bool), np.zeros(len(I), bool)
        part = -(-len(I) // -(-len(I) // chunk))  # equal parts of at most chunk blocks
        for a in range(0, len(I), part):
            b = slice(a, a + part)
            sure[b], maybe[b] = ok_range(index, j, r1[b], r2[b], c1[b], c2[b], min_valid, contents, caps)
        one = maybe & ~sure & (NI == 1) & (NK == 1)  # single offsets the blocks' bounds leave open: chip by chip
        if one.any():
            sure[one] = chip_ok(index, j, r1[one], c1[one], min_valid, contents)
        kept.append((I[sure], K[sure], NI[sure], NK[sure], np.ones(int(sure.sum()), bool)))
        held += int(sure.sum())
        certain += int((NI[sure] * NK[sure]).sum())
        open_ = maybe & ~sure & ~one
        I, K, NI, NK = I[open_], K[open_], NI[open_], NK[open_]
        if held + 4 * len(I) > 4 * MAP_BLOCKS:  # memory bounded: the rest stay undecided
            kept.append((I, K, NI, NK, np.zeros(len(I), bool)))
            break
        if keys is not None and certain and len(I):
            left = int((NI * NK).sum())
            if 4 * len(I) >= MAP_CHECK_COST * keys * left / (left + certain) + MAP_CHECK_CALL:  # cheaper to check them
                kept.append((I, K, NI, NK, np.zeros(len(I), bool)))
                break
        # split each block in each direction where it has more than one offset
        I, NI, K, NK = _split(I, NI, K, NK, MAP_SPLIT)
        K, NK, I, NI = _split(K, NK, I, NI, MAP_SPLIT)
    cat = [np.concatenate([k[f] for k in kept]) if kept else np.zeros(0, np.int64) for f in range(5)]
    return Offsets(cat[0] * sy, cat[1] * sx, cat[2], cat[3], cat[4].astype(bool), (sy, sx))


def _split(a: Array, na: Array, b: Array, nb: Array, parts: int) -> tuple[Array, Array, Array, Array]:
    """Blocks [a, a + na) x [b, b + nb) split along a into up to `parts` of about equal size (as
    many as they have offsets)."""
    size = -(-na // parts)  # ceil: the pieces' size, the last one the rest
    k = np.arange(parts)[:, None]
    start = k * size
    keep = start < na
    n = np.minimum(size, na - start)
    return ((a + start)[keep], n[keep], np.broadcast_to(b, keep.shape)[keep], np.broadcast_to(nb, keep.shape)[keep])


def no_chip_error(index: ChipIndex, min_valid: float | None, contents: Contents | None = None) -> RequestError:
    """Why no chip meets the constraints: no chip inside a label file, or the best valid
    fraction bound of any chip (and where), or each class limit's best bound."""
    h, w = index.size
    parts = []
    skip = skips_unlabelled(index)
    if contents:
        return RequestError(
            f"no {h}x{w} chip{' inside a label file' if skip else ''} meets "
            f"{'min_valid=' + str(min_valid) + ' and ' if min_valid else ''}the class limits according to the "
            f"catalogue's class counts (rumi:classes): {contents.best_text(lambda j: lattice(index, j, contents))}; "
            "loosen them, or use larger chips or files written with smaller tiles (the counts are per tile: a "
            "chip's bound counts only the tiles it covers whole as exact)")
    if skip:
        if not any(len(feasible(index, j)) for j in range(index.num_files)):
            return RequestError(f"no {h}x{w} chip of the {index.num_files} image files lies wholly inside a label file")
        parts.append("inside a label file")
    best, where = -1.0, ("", 0, 0)
    for j in range(index.num_files):
        rs, cs = lattice(index, j)
        R, C = np.meshgrid(rs, cs, indexing="ij")
        b = valid_bound(index, j, R.ravel(), C.ravel())
        if skip:
            b = np.where(covered(index, j, R.ravel(), C.ravel()), b, -1.0)
        k = int(np.argmax(b))
        if b[k] > best:
            best, where = float(b[k]), (index.ids[j], int(R.ravel()[k]), int(C.ravel()[k]))
    return RequestError(
        f"min_valid={min_valid}: no {h}x{w} chip {'and '.join(parts)}can have that valid fraction according to the "
        f"catalogue's per-tile summary (the best: {best:.4f}, file {where[0]} at row {where[1]}, col {where[2]}); "
        "lower min_valid, or use larger chips or files written with smaller tiles (the summary is per tile: a "
        "chip's bound counts only the tiles it covers whole, so larger chips and smaller tiles bound it tighter)")
