"""Chip samplers: (file, row_off, col_off) keys of a ChipDataset, drawn from its chip index
alone (`dataset.index`; the constraints of rumi.torch.constraints, no pixel read). A sampler's
global sequence depends only on the index, its seed and epoch; rank r of w takes keys r, r + w,
... (so 1, 2 and 4 ranks see the same sequence, split differently); state_dict() /
load_state_dict() resume an epoch."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Iterable, Iterator

import numpy as np
import torch

from . import constraints
from .dtypes import Array
from .index import ChipIndex

if TYPE_CHECKING:
    from .dataset import ChipDataset

#: a sample: dataset file j, pixel row and column offset of the chip
Key = tuple[int, int, int]


def _dist(rank: int | None, world: int | None) -> tuple[int, int]:
    if rank is None or world is None:
        d = torch.distributed
        if d.is_available() and d.is_initialized():
            rank = d.get_rank() if rank is None else rank
            world = d.get_world_size() if world is None else world
        else:
            rank, world = rank or 0, world or 1
    assert rank is not None and world is not None
    if not 0 <= rank < world:
        raise ValueError(f"rank {rank} is outside 0..{world - 1}")
    return rank, world


class ChipSampler(torch.utils.data.Sampler):
    """Keys of one epoch: a global sequence that depends only on the dataset, seed and epoch;
    rank r of w takes keys r, r + w, r + 2w, ... of its first len // w * w. min_valid: only
    chips whose valid fraction the catalogue's summary guarantees (no pixel read); with labels
    and on_missing="skip", only chips with labels. Either that no chip can meet is an error
    here, at construction."""

    def __init__(self, dataset: ChipDataset, rank: int | None = None, world_size: int | None = None,
                 min_valid: float | None = None, seed: int = 0) -> None:
        self.ds = dataset
        self.index: ChipIndex = dataset.index
        self.rank, self.world = _dist(rank, world_size)
        self.epoch = 0
        self.seed = int(seed)
        if min_valid is not None and not 0.0 <= float(min_valid) <= 1.0:
            raise ValueError(f"min_valid must be in [0, 1], not {min_valid!r}")
        self.min_valid = None if min_valid is None else float(min_valid)
        self.start = 0  # where the next iteration starts in this rank's share (load_state_dict)
        self._yielded = 0
        self._cache: tuple[tuple[int, int], list[Key]] | None = None
        if self.min_valid:
            err = constraints.min_valid_error(self.index, self.min_valid)
            if err is not None:
                raise err
        self.constrained = bool(self.min_valid) or constraints.skips_unlabelled(self.index)
        self.feasible: list[Array] = []
        if self.constrained:
            self.feasible = [constraints.feasible(self.index, j, self.min_valid) for j in range(self.index.num_files)]
            if not any(len(f) for f in self.feasible):
                raise constraints.no_chip_error(self.index, self.min_valid)

    def set_epoch(self, epoch: int) -> None:
        self.epoch = int(epoch)

    def all_keys(self) -> list[Key]:  # pragma: no cover - abstract
        """Every key of the epoch, all ranks together."""
        raise NotImplementedError

    def _global(self) -> list[Key]:
        if self._cache is None or self._cache[0] != (self.seed, self.epoch):
            self._cache = ((self.seed, self.epoch), self.all_keys())
        return self._cache[1]

    def _keys(self) -> list[Key]:
        keys = self._global()
        # equal share per rank (the tail that does not divide is dropped), no key on two ranks
        n = len(keys) // self.world * self.world
        return keys[self.rank:n:self.world]

    def __iter__(self) -> Iterator[Key]:
        keys = self._keys()
        start, self.start = self.start, 0
        self._yielded = start
        for k in keys[start:]:
            self._yielded += 1
            yield k

    def __len__(self) -> int:
        return len(self._global()) // self.world

    def state_dict(self) -> dict[str, Any]:
        """seed, epoch, rank, world_size and the keys this rank's iterator gave in the epoch
        (the loader's state_dict counts the delivered ones instead)."""
        return {"seed": self.seed, "epoch": self.epoch, "rank": self.rank, "world_size": self.world,
                "yielded": self._yielded}

    def load_state_dict(self, state: dict[str, Any]) -> None:
        """Resume: the next iteration starts at key `yielded` of this rank's share of `epoch`.
        A state saved with another world size resumes at the same place of the global sequence."""
        self.seed = int(state.get("seed", self.seed))
        self.epoch = int(state.get("epoch", self.epoch))
        y = int(state.get("yielded", 0))
        w = int(state.get("world_size", self.world))
        if w != self.world:  # global position of the saved rank's next key, in this world's shares
            y = -(-(y * w) // self.world)
        self.start = y
        self._yielded = y

    def _grid_keys(self, j: int, ys: Iterable[int], xs: Iterable[int]) -> list[Key]:
        """The chips of file j at rows ys x columns xs that meet the constraints."""
        rows, cols = (v.ravel() for v in np.meshgrid(np.asarray(list(ys), np.int64), np.asarray(list(xs), np.int64),
                                                     indexing="ij"))
        if self.constrained:
            ok = constraints.chip_ok(self.index, j, rows, cols, self.min_valid)
            rows, cols = rows[ok], cols[ok]
        return [(j, int(r), int(c)) for r, c in zip(rows, cols)]

    def _shuffled(self, out: list[Key], shuffle: bool) -> list[Key]:
        if shuffle:
            rng = np.random.default_rng([self.seed, self.epoch])
            out = [out[i] for i in rng.permutation(len(out))]
        return out


def _check_length(length: Any) -> int:
    if isinstance(length, bool) or int(length) < 0:
        raise ValueError(f"length must be an integer >= 0, not {length!r}")
    return int(length)


class RandomChipSampler(ChipSampler):
    """length chips at random positions: a file drawn with probability proportional to its
    area, then a uniform offset. Deterministic for a seed (and epoch, see set_epoch). With
    min_valid (or labels), files without a chip that meets it are left out, and an offset that
    fails is redrawn (up to 63 times, then one of the file's lattice offsets that meet it, see
    rumi.torch.constraints.lattice): every key meets the constraints, decided without reading
    pixels.

    align: where the offsets may fall. False (default): any pixel. True: the files' tile grid,
    so that a chip whose size is a multiple of the tile size decodes only its own tiles (a
    random 256 x 256 chip of 128 x 128 tiles decodes 4 frames instead of 9, of 256 x 256 tiles
    1 instead of 4: decoded bytes = the chip's bytes). An integer k: multiples of k pixels.
    Aligned chips are fewer distinct crops ((Y - h) // step + 1 offsets per axis), the price of
    the decode they save; where the augmentation needs every offset, leave it False."""

    def __init__(
        self, dataset: ChipDataset, length: int, seed: int = 0, rank: int | None = None, world_size: int | None = None,
        min_valid: float | None = None, align: bool | int = False,
    ) -> None:
        super().__init__(dataset, rank, world_size, min_valid, seed)
        self.length = _check_length(length)
        if not isinstance(align, (bool, int, np.integer)) or (not isinstance(align, bool) and int(align) < 1):
            raise ValueError(f"align must be True, False or a step in pixels >= 1, not {align!r}")
        self.align = align if isinstance(align, bool) else int(align)

    def steps(self, j: int) -> tuple[int, int]:
        """(row, column) step of file j's offsets (1: any pixel; see align)."""
        if self.align is False:
            return (1, 1)
        if self.align is True:
            th, tw = self.index.tiles[j]
            return (int(th), int(tw))
        return (int(self.align), int(self.align))

    def all_keys(self) -> list[Key]:
        index = self.index
        rng = np.random.default_rng([self.seed, self.epoch])
        h, w = index.size
        area = np.array([(s[2] - h + 1) * (s[3] - w + 1) for s in index.shapes], dtype=float)
        if self.constrained:
            area = area * np.array([len(f) > 0 for f in self.feasible])
        js = rng.choice(len(area), size=self.length, p=area / area.sum())
        ys = rng.random(self.length)
        xs = rng.random(self.length)
        Ys = np.array([index.shapes[j][2] for j in js], np.int64)
        Xs = np.array([index.shapes[j][3] for j in js], np.int64)
        step = np.array([self.steps(int(j)) for j in js], np.int64).reshape(-1, 2)
        Sy, Sx = step[:, 0], step[:, 1]
        Py, Px = (Ys - h) // Sy + 1, (Xs - w) // Sx + 1  # offsets per axis (Ys - h + 1 when not aligned)
        r0 = (ys * Py).astype(np.int64) * Sy
        c0 = (xs * Px).astype(np.int64) * Sx
        if self.constrained and self.length:
            extra = 63
            ey = (rng.random((self.length, extra)) * Py[:, None]).astype(np.int64) * Sy[:, None]
            ex = (rng.random((self.length, extra)) * Px[:, None]).astype(np.int64) * Sx[:, None]
            fb = rng.random(self.length)
            for j in np.unique(js):
                sel = np.flatnonzero(js == j)
                cand_r = np.concatenate([r0[sel, None], ey[sel]], 1)
                cand_c = np.concatenate([c0[sel, None], ex[sel]], 1)
                ok = constraints.chip_ok(index, int(j), cand_r.ravel(), cand_c.ravel(), self.min_valid).reshape(cand_r.shape)
                first = np.argmax(ok, axis=1)
                has = ok[np.arange(len(sel)), first]
                r0[sel] = np.where(has, cand_r[np.arange(len(sel)), first], 0)
                c0[sel] = np.where(has, cand_c[np.arange(len(sel)), first], 0)
                miss = sel[~has]
                if len(miss):
                    F = self.feasible[int(j)]
                    sy, sx = self.steps(int(j))
                    on = (F[:, 0] % sy == 0) & (F[:, 1] % sx == 0)
                    F = F[on] if on.any() else F  # aligned lattice offsets where some meet the constraints
                    pick = (fb[miss] * len(F)).astype(np.int64)
                    r0[miss], c0[miss] = F[pick, 0], F[pick, 1]
        return [(int(j), int(r), int(c)) for j, r, c in zip(js, r0, c0)]


class GridChipSampler(ChipSampler):
    """Every chip of a grid of stride pixels (default: the chip size) over each file, the last
    row and column moved in to end at the file's edge (with min_valid or labels: those that meet
    them). shuffle with a seed for a random order."""

    def __init__(
        self,
        dataset: ChipDataset,
        stride: int | tuple[int, int] | None = None,
        rank: int | None = None,
        world_size: int | None = None,
        min_valid: float | None = None,
        shuffle: bool = False,
        seed: int = 0,
    ) -> None:
        h, w = dataset.index.size
        sy, sx = (h, w) if stride is None else ((int(stride),) * 2 if np.isscalar(stride) else tuple(stride))  # type: ignore[arg-type]
        self.stride = (int(sy), int(sx))
        self.shuffle = bool(shuffle)
        super().__init__(dataset, rank, world_size, min_valid, seed)
        if self.constrained and not self._global():
            raise constraints.no_chip_error(self.index, self.min_valid)

    def all_keys(self) -> list[Key]:
        h, w = self.index.size
        sy, sx = self.stride
        out: list[Key] = []
        for j, (_, _, Y, X) in enumerate(self.index.shapes):
            ys = sorted(set(list(range(0, Y - h + 1, sy)) + [Y - h]))
            xs = sorted(set(list(range(0, X - w + 1, sx)) + [X - w]))
            out += self._grid_keys(j, ys, xs)
        return self._shuffled(out, self.shuffle)


class TileChipSampler(ChipSampler):
    """Chips aligned with the files' tiles: every position on the tile grid where a chip fits
    whole (a chip of the tile size then reads exactly one frame: one request). shuffle with a
    seed for a random order."""

    def __init__(
        self, dataset: ChipDataset, shuffle: bool = False, seed: int = 0, rank: int | None = None,
        world_size: int | None = None, min_valid: float | None = None,
    ) -> None:
        self.shuffle = shuffle
        super().__init__(dataset, rank, world_size, min_valid, seed)
        if self.constrained and not self._global():
            raise constraints.no_chip_error(self.index, self.min_valid)

    def all_keys(self) -> list[Key]:
        h, w = self.index.size
        out: list[Key] = []
        for j, (_, _, Y, X) in enumerate(self.index.shapes):
            th, tw = self.index.tiles[j]
            sy = th * max(1, math.ceil(h / th))
            sx = tw * max(1, math.ceil(w / tw))
            out += self._grid_keys(j, range(0, Y - h + 1, min(sy, th) if h <= th else sy),
                                   range(0, X - w + 1, min(sx, tw) if w <= tw else sx))
        return self._shuffled(out, self.shuffle)
