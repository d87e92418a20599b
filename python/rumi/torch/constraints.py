"""Sampler constraints, decided from the chip index alone (no pixel is read): a chip's valid
fraction bound from the catalogue's per-tile summary (`valid_bound`), label coverage
(`covered`), both together (`chip_ok`), and the lattice of offsets where their optimum lies
(`lattice`, `feasible`). The errors say why no chip can meet them."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from rumi import RequestError
from rumi.catalog import nodata_bound

from .dtypes import Array, never_sample
from .index import ChipIndex
from .tiling import tile_areas, tile_overlaps

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
    nd = index.nodata[j]
    if nd is None or not summary_covers(index, j):
        err = min_valid_error(index, None)
        assert err is not None
        raise err
    q = index.valid_q[j]
    if q is None:  # every band with nodata is one its samples cannot take
        return np.ones(r0.shape)
    Tf, _, Y, X = index.shapes[j]
    th, tw = index.tiles[j]
    ny, nx = q.shape[1:]
    h, w = index.size
    tsel = index.steps_count(j)
    caps = [nodata_bound(q[b]) * Tf * tile_areas((th, tw), (Y, X), (ny, nx)) * (1 + 1e-9)
            for k, b in enumerate(index.band_idx[j]) if (v := nd[k]) is not None and not never_sample(v, index.encoding)]
    invalid = np.zeros(r0.shape)
    for tri, tci, ov in tile_overlaps((th, tw), (Y, X), (ny, nx), r0, c0, h, w):
        for cap in caps:
            invalid += np.minimum(ov * tsel, cap[tri, tci])
    out: Array = 1.0 - invalid / (tsel * len(nd) * h * w)
    return out


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
