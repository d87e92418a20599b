"""The cells of offsets from which RandomChipSampler's rejection (rumi.torch.samplers) draws the
candidate offsets of the files an epoch draws few keys from: per file, equal cells of offsets on
its align step (about a quarter tile a side) where some chip may meet the class limits (and, with
labels that skip the unlabelled chips, inside its one label rectangle), each sure or not (every
chip of a sure cell meets them: a candidate drawn there is taken unchecked). Decided for many
files at once from the limits' FlatBanks (Contents.ok_range_many), in blocks of a tile halved
where undecided, and kept across epochs; a function of the file, the constraints and the step, so
that the keys drawn from them depend on nothing else. `draw`: a cell, then an offset in it."""

from __future__ import annotations

import numpy as np

from . import constraints, tiling
from .contents import Contents
from .dtypes import Array
from .index import ChipIndex

#: the most blocks of offsets a file's keys are drawn from by rejection (Cells.decide: about a
#: tile a side, coarser past it)
MAYBE_BLOCKS = 1024
#: times Cells.decide halves the blocks it leaves undecided
MAYBE_LEVELS = 2
#: the cells kept across epochs (5 bytes each); past them they are made again as files are drawn
MAYBE_KEPT = 1 << 24


class Cells:
    """The cells of the files of an index looked at so far, for the class limits of `contents`
    (rumi.torch.contents; none: one cell a file) and the index's labels: file j's are rows
    start[j] to start[j] + count[j] (start -1: not yet), each cell[j] offsets a side (rows,
    columns, in steps; those at or past end[j] are not the file's) on a grid from lo[j], ncx[j]
    cells a row: a cell is its number there (idx, row-major: 4 bytes) and sure (each of its chips
    meets the class limits); grown by doubling."""

    def __init__(self, index: ChipIndex, contents: Contents) -> None:
        self.index, self.contents = index, contents
        self._empty()

    def _empty(self) -> None:
        n_files = self.index.num_files
        # per file (int32: 40 bytes a file of the index)
        self.start = np.full(n_files, -1, np.int32)
        self.count = np.zeros(n_files, np.int32)
        self.cell = np.ones((n_files, 2), np.int32)
        self.end = np.zeros((n_files, 2), np.int32)
        self.lo = np.zeros((n_files, 2), np.int32)
        self.ncx = np.ones(n_files, np.int32)
        self.n = 0
        self.idx = np.zeros(0, np.int32)
        self.sure = np.zeros(0, bool)

    def _add(self, files: Array, count: Array, cell: Array, end: Array, lo: Array, ncx: Array, idx: Array,
             sure: Array) -> None:
        k = len(idx)
        if self.n + k > len(self.idx):
            cap = max(2 * len(self.idx), self.n + k, 64)
            for name in ("idx", "sure"):
                old = getattr(self, name)
                grown = np.zeros(cap, old.dtype)
                grown[:self.n] = old[:self.n]
                setattr(self, name, grown)
        self.idx[self.n:self.n + k], self.sure[self.n:self.n + k] = idx, sure
        self.start[files] = self.n + np.cumsum(count) - count
        self.count[files], self.cell[files], self.end[files], self.lo[files], self.ncx[files] = count, cell, end, lo, ncx
        self.n += k

    def of(self, files: Array, P: Array, step: Array) -> tuple[Array, ...]:
        """The offsets the rejection draws the keys of files from (P: each file's offsets per axis on
        its align step, step): uniform over the cells of offsets (decide: about a quarter
        of a tile a side) where some chip may meet the class limits, which hold every offset that
        does (the others are never drawn: the acceptance rises, the keys stay uniform among the
        offsets that meet them), each cell sure or not (each of its chips meets the limits: a
        candidate there needs no check of them). (per file its cells, where they start, the cells'
        rows and columns, the end of its offsets, its grid's first offset and cells a row; then
        every cell's number on its file's grid and sure), in offsets of the step: `draw`'s cells;
        without class limits one cell a file."""
        if self.n > MAYBE_KEPT:  # bounded memory (and int32 places): the cells of the files drawn next are made again
            self._empty()
        new = np.flatnonzero(self.start[files] < 0)
        if len(new):  # a function of the file and the constraints: kept across epochs
            self._add(files[new], *self.decide(files[new], P[new], step[new]))
        return (self.count[files], self.start[files], self.cell[files, 0], self.cell[files, 1], self.end[files, 0],
                self.end[files, 1], self.lo[files, 0], self.lo[files, 1], self.ncx[files], self.idx[:self.n],
                self.sure[:self.n])

    def decide(self, files: Array, P: Array, step: Array) -> tuple[Array, ...]:
        """`of`'s cells of files: (their number per file, per file the cells' size, the end of its
        offsets, its grid's first offset and cells a row, then per cell its number on that grid and
        whether it is sure), those no chip of which meets the limits left out. Blocks of about a tile (coarser where a file would
        have more than MAYBE_BLOCKS; 2**MAYBE_LEVELS cells a side) decided for every file at once
        (natively, tiling.decide_cells, for the files whose limits' counts lie in their banks, a call per
        tile grid (combos); Contents.ok_range_many level by level for the others: _levels), the undecided
        ones halved in each direction and decided again,
        MAYBE_LEVELS times (a candidate drawn in a sure cell is not checked, and fewer are drawn in
        vain). With labels that skip the unlabelled chips, a file of one label rectangle has the
        offsets inside it alone (sure where the class limits are); a file of several, its every
        offset (never sure: checked)."""
        F = len(files)
        P = np.maximum(P, 0)
        lo = np.zeros((F, 2), np.int64)  # the first offset (in steps) of the range the cells cover, and its offsets
        labelled = np.ones(F, bool)  # each chip of the range has labels (or needs none)
        if constraints.skips_unlabelled(self.index):  # a file with one label rectangle: the offsets inside it
            rect, each = constraints.label_rects(self.index, files)
            h, w = self.index.size
            lo = np.minimum(np.maximum(-(-rect[:, [0, 2]] // step), 0), P)  # (within the offsets: no overflow below)
            hi = np.maximum(np.minimum((rect[:, [1, 3]] - (h, w)) // step, P - 1), -1)
            P = np.where(each[:, None], P, np.maximum(hi - lo + 1, 0))
            lo[each] = 0
            labelled = ~each
        end = lo + P
        if not self.contents.limits:  # one cell of every offset
            one = (P > 0).all(1)
            counts: Array = np.asarray(one, np.int64)
            return counts, np.maximum(P, 1), end, lo, np.ones(F, np.int64), np.zeros(int(one.sum()), np.int32), labelled[one]
        n = 1 << MAYBE_LEVELS  # cells a side of a first block
        B = np.maximum(np.asarray(self.index.tiles, np.int64)[files].reshape(-1, 2) // step, 1)
        while True:  # coarser where a file would have more than MAYBE_BLOCKS
            big = (-(-P // B)).prod(1) > MAYBE_BLOCKS
            if not big.any():
                break
            B[big] *= 2
        cell = -(-B // n)
        cells = -(-P // cell)  # per axis
        # the files whose every limit's counts lie in its bank: natively per tile grid of each limit (a file's way
        # depends on the file alone, so its cells do not depend on the files decided beside it); the others in numpy
        combo = combos(self.contents, files)
        parts: list[tuple[Array, Array, Array]] = []  # (each cell's file, its number, sure)
        for u in np.unique(combo[combo >= 0]).tolist():
            sel = np.flatnonzero(combo == u)
            terms = bank_terms(self.contents, files[sel])
            assert terms is not None  # (one group per limit: combo's)
            geo = np.ascontiguousarray(np.concatenate([lo[sel], end[sel], cell[sel], cells[sel], step[sel]], 1), np.int64)
            count, idx, sure = tiling.decide_cells(geo, labelled[sel], n, terms, self.index.size)
            parts.append((np.repeat(sel, count), idx, sure))
        rest = np.flatnonzero(combo < 0)
        if len(rest):
            parts.append(self._levels(files, rest, n, cell, cells, lo, end, step, labelled))
        fc, idx, sure = (np.concatenate([p[k] for p in parts]) if parts else np.zeros(0, (np.int64, np.int32, bool)[k])
                         for k in range(3))
        order = np.argsort(fc, kind="stable")  # each file's cells together, in the order its way made them
        return (np.bincount(fc, minlength=F), cell, end, lo, np.maximum(cells[:, 1], 1),  # (a file of none: 1)
                idx[order].astype(np.int32), sure[order])

    def _levels(self, files: Array, rest: Array, n: int, cell: Array, cells: Array, lo: Array, end: Array,
                step: Array, labelled: Array) -> tuple[Array, Array, Array]:
        """decide's blocks of the files at positions rest decided in numpy (Contents.ok_range_many), level by level:
        (each cell's file position, its number on the file's grid, sure), the cells of a file together."""
        cells_r = cells[rest]
        nby, nbx = -(-cells_r[:, 0] // n), -(-cells_r[:, 1] // n)
        nb = nby * nbx
        f = np.repeat(rest, nb)
        local = np.arange(int(nb.sum())) - np.repeat(np.cumsum(nb) - nb, nb)
        nbx_f = np.repeat(nbx, nb)
        i0, k0 = local // nbx_f * n, local % nbx_f * n  # blocks in cells: first cell, cells a side
        ni, nk = np.minimum(n, cells[f, 0] - i0), np.minimum(n, cells[f, 1] - k0)
        out: list[tuple[Array, ...]] = []
        per_file = [np.ascontiguousarray(a[:, k]) for a in (cell, lo, end, step) for k in (0, 1)]
        for level in range(MAYBE_LEVELS + 1):
            ch, cw, ly, lx, ey, ex, sy, sx = (np.take(a, f) for a in per_file)  # (np.take: no 2-d fancy indexing)
            r1, c1 = ly + i0 * ch, lx + k0 * cw
            r2, c2 = np.minimum(r1 + ni * ch, ey) - 1, np.minimum(c1 + nk * cw, ex) - 1
            s_b, m_b = self.contents.ok_range_many(np.take(files, f), r1 * sy, r2 * sy, c1 * sx, c2 * sx)
            split = m_b & ~s_b & ((ni > 1) | (nk > 1))
            done = m_b & ~split
            out.append((f[done], i0[done], k0[done], ni[done], nk[done], s_b[done] & labelled[f[done]]))
            if not split.any():
                break
            f, i0, k0, ni, nk = f[split], i0[split], k0[split], ni[split], nk[split]
            # each block in (up to) four: the first half of its cells a side, then the rest
            hi_, hk = -(-ni // 2), -(-nk // 2)
            f, i0, k0 = np.tile(f, 4), np.concatenate([i0, i0, i0 + hi_, i0 + hi_]), \
                np.concatenate([k0, k0 + hk, k0, k0 + hk])
            ni, nk = np.concatenate([hi_, hi_, ni - hi_, ni - hi_]), np.concatenate([hk, nk - hk, hk, nk - hk])
            keep = (ni > 0) & (nk > 0)
            f, i0, k0, ni, nk = f[keep], i0[keep], k0[keep], ni[keep], nk[keep]
        f, i0, k0, ni, nk, sure = (np.concatenate([o[k] for o in out]) for k in range(6))
        # the blocks as cells, each file's together (Cells' rows)
        m = ni * nk
        fc = np.repeat(f, m)
        local = np.arange(int(m.sum())) - np.repeat(np.cumsum(m) - m, m)
        ci, ck = np.repeat(i0, m) + local // np.repeat(nk, m), np.repeat(k0, m) + local % np.repeat(nk, m)
        order = np.argsort(fc, kind="stable")
        fc, ci, ck, sc = fc[order], ci[order], ck[order], np.repeat(sure, m)[order]
        return fc, ci * cells[fc, 1] + ck, sc


def sure_share(cells: tuple[Array, ...]) -> Array:
    """Per file of Cells.of's cells, the share of its cells that are sure (0 for a file of none)."""
    count, start, sure = cells[0].astype(np.int64), cells[1].astype(np.int64), cells[10]
    at = np.repeat(start - np.cumsum(count) + count, count) + np.arange(int(count.sum()))
    hits = np.bincount(np.repeat(np.arange(len(count)), count), sure[at], minlength=len(count))
    out: Array = hits / np.maximum(count, 1)
    return out


def draw(cells: tuple[Array, ...], f: Array, u: Array) -> tuple[Array, Array, Array, Array]:
    """Offsets (rows, columns, in steps) of files f (indices into the files Cells.of was given), one per
    value of u (uniform in [0, 1), (len(f), k)): uniform over the offsets of the file's cells
    (a cell drawn, then an offset in it: equal cells, no search), whether each lies in a sure
    cell (its chip meets the class limits) and whether it is one of the file's (a cell at its
    edge may reach past them: such a draw meets nothing, the others stay uniform)."""
    count, start, cell_r, cell_c, end_r, end_c, lo_r, lo_c, ncx, idx, sure = cells
    if not len(idx):  # no file has an offset: nothing to draw (its keys are left unmet)
        z = np.zeros(u.shape, np.int64)
        return z, z, z.astype(bool), z.astype(bool)
    K, ch, cw, nx = (np.take(v, f).astype(np.int64)[:, None] for v in (count, cell_r, cell_c, ncx))
    per = ch * cw
    x = np.minimum((u * (K * per)).astype(np.int64), np.maximum(K * per - 1, 0))
    k = x // per
    at = x - k * per
    b = np.minimum(np.maximum(np.take(start, f).astype(np.int64)[:, None] + k, 0), len(idx) - 1)
    q = np.take(idx, b).astype(np.int64)
    r = np.take(lo_r, f)[:, None] + q // nx * ch + at // cw
    c = np.take(lo_c, f)[:, None] + q % nx * cw + at % cw
    inside = (r < np.take(end_r, f)[:, None]) & (c < np.take(end_c, f)[:, None]) & (K > 0)
    return r, c, np.take(sure, b) & inside, inside


def combos(contents: Contents, files: Array) -> Array:
    """Per file, a number of the tile grids its limits' counts lie on in their FlatBanks (files of one number:
    bank_terms' files), or -1 where some limit's counts are not in its bank (decided file by file)."""
    out = np.zeros(len(files), np.int64)
    for lim in contents.limits:
        bank = contents.flat_many(files, lim)
        gid = bank.gid[files]
        out = np.where((out < 0) | (gid < 0), -1, out * (len(bank.groups) + 1) + gid)
    return out


def bank_terms(contents: Contents, files: Array) -> list[tuple[object, ...]] | None:
    """Each class limit's terms for files in the native rejection draw (tiling.reject_draw): its
    kind, value, steps needed and its FlatBank group's (tiles, shape, grid, table of the bound it
    is decided on, area, each file's row, the rows' shifts and rectangles); None where a file's
    counts of some limit are not in its bank (decided file by file) or the files lie on several
    tile grids: the numpy draw."""
    out: list[tuple[object, ...]] = []
    for lim in contents.limits:
        bank = contents.flat_many(files, lim)
        gid = bank.gid[files]
        if not len(gid) or int(gid.min()) < 0 or int(gid.max()) != int(gid.min()):
            return None
        grp = bank.groups[int(gid[0])]
        table = (grp.lo if lim.kind == "min" else grp.hi)[:grp.n]  # the one bound the limit is decided on (_score)
        need = 1.0 if lim.min_steps is None else float(lim.min_steps)  # a cloud limit's steps of one step
        out.append((lim.kind, float(lim.value), need, grp.tiles, grp.shape, grp.grid, table, grp.area,
                    np.ascontiguousarray(bank.pos[files], np.int64), grp.shift[:grp.n], grp.rect[:grp.n]))
    return out


def reject(cells: tuple[Array, ...], terms: list[tuple[object, ...]], inv: Array, step: Array, empty: Array,
           size: tuple[int, int], rng: np.random.Generator, tries: int, min_tries: int,
           give_up: int) -> tuple[Array, Array, Array]:
    """tiling.reject_draw over Cells.of's cells of files with their bank_terms (step, empty: per
    file; inv: each key's file), its seed drawn from rng: (rows, columns, met)."""
    return tiling.reject_draw(cells, inv, step, empty, terms, size, int(rng.integers(0, 1 << 63)), tries, min_tries,
                              give_up)
