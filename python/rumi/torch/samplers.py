"""Chip samplers: (file, row_off, col_off) keys of a ChipDataset, drawn from its chip index
alone (`dataset.index`; the constraints of rumi.torch.constraints, no pixel read).

An epoch is a global sequence of keys that depends only on the index, the seed and the epoch.
Rank r of w takes its positions r, r + w, ... so 1, 2 and 4 ranks see the same sequence, split
differently. state_dict() / load_state_dict() resume an epoch at another world size too (the
keys taken are a prefix of the sequence: rumi.torch.streams.positions).

The order is a full permutation of the epoch's keys (the default), or, with `streams=C` (or a
dataset planned with streams=), C streams interleaved. Each stream is its shards' files a block
of `block` files at a time, in a shuffled order, with the keys of a block shuffled among
themselves. This keeps each rank's reads within its own shards and the chips that share frames
together in time (rumi.torch.streams), so an epoch fetches each byte about once across the
cluster."""

from __future__ import annotations

import math
from typing import Any, Iterable, Iterator, Protocol

import numpy as np
import torch

from rumi import RequestError

from . import cells, constraints
from .contents import ClassBalance, Contents, balance_weights, group, limits_of
from .dtypes import Array
from .index import ChipIndex
from .streams import Streams, place, positions

#: a sample: dataset file j, pixel row and column offset of the chip
Key = tuple[int, int, int]
#: files per shuffle block of a stream (see the module's notes)
DEFAULT_BLOCK = 4
#: keys converted to Python at once while iterating
CHUNK = 4096
#: blocks of offsets a RandomChipSampler keeps in its files' pools (constraints.Offsets: 33 bytes a block)
POOL_BLOCKS = 1 << 20
#: times an offset drawn in a block a pool left undecided is drawn again when it fails
UNDECIDED_ROUNDS = 64
#: the draws of a key with an undecided one decided at once (_uniform)
UNDECIDED_AHEAD = 4
#: the files a draw gives at most this many keys draw them by rejection first (_rejected: uniform offsets on the step,
#: those of every such file checked at once), a file's offset map (pool) made only for the keys none met: many small
#: files drawn few keys each then cost a few numpy calls in all, not a map (a few ms) each
REJECT_KEYS = 256
#: the candidates per key of _rejected's rounds, in turn
REJECT_ROUNDS = (1, 2, 4, 8, 16, 32, 64, 128)
#: _rejected leaves a file's keys to its pool once they would need more candidates than this (estimated from the
#: acceptance of its candidates so far; about the cost of a small file's offset map)
REJECT_GIVE_UP = 2000
#: the native draw (files whose class limits' counts lie in their banks, any number of keys): a key's candidates at
#: most, the candidates of a file tried before its acceptance may give its keys up, and the candidates its keys left
#: may need at most (at its acceptance so far) before they are left to its pool (a candidate ~50 ns: ~2.5 ms, about a
#: pool's cost)
REJECT_TRIES = 255
REJECT_MIN_TRIES = 64
REJECT_GIVE_UP_NATIVE = 50_000
#: a file drawn more than REJECT_KEYS keys draws them natively where at least this share of its cells is sure (the
#: 4096^2 class map's 0.44-0.53; LANDFIRE's fuel classes, sparse, none: its pool draws them)
NATIVE_SURE_SHARE = 0.25
#: construction shows that some file has a chip by a sure cell or SOME_CHIP_TRIES offsets drawn in each of the first
#: SOME_CHIP_FILES files (_some_chip; their cells are the first epoch's: decided at once), before it makes a file's
#: pool
SOME_CHIP_FILES = 1024
SOME_CHIP_TRIES = 32
#: balance=: the random offsets near a drawn lattice chip tried per round for the keys not met yet (15 in all)
NEAR_ROUNDS = (1, 3, 11)


class Indexed(Protocol):
    """What a sampler reads of its dataset (a ChipDataset): the chip index alone, so that the
    samplers sit below the dataset in the module graph."""

    @property
    def index(self) -> ChipIndex: ...


def _dist(rank: int | None, world: int | None) -> tuple[int, int]:
    return place(rank, world)


class ChipSampler(torch.utils.data.Sampler[Key]):
    """Keys of one epoch: a global sequence that depends only on the dataset, seed and epoch;
    rank r of w takes keys r, r + w, r + 2w, ... of its first len // w * w. min_valid: only
    chips whose valid fraction the catalogue's summary guarantees (no pixel read); with labels
    and on_missing="skip", only chips with labels. Either that no chip can meet is an error
    here, at construction. streams / block: the order (see the module's notes; a dataset
    planned with streams= sets them, and its rank and world size)."""

    def __init__(self, dataset: Indexed, rank: int | None = None, world_size: int | None = None,
                 min_valid: float | None = None, seed: int = 0, streams: int | None = None,
                 block: int | None = None, *, min_class: Any = None, max_class: Any = None, cloud: Any = None,
                 balance: ClassBalance | None = None) -> None:
        self.ds = dataset
        self.index: ChipIndex = dataset.index
        sh = self.index.sharding
        if sh is not None:
            if (rank is not None and rank != sh.rank) or (world_size is not None and world_size != sh.world):
                raise ValueError(f"the dataset was planned for rank {sh.rank} of {sh.world} (its streams' files only): "
                                 f"a sampler of it cannot be rank {rank} of {world_size}")
            if streams is not None and int(streams) != sh.streams:
                raise ValueError(f"the dataset was planned with streams={sh.streams}, not {streams}")
            self.rank, self.world = sh.rank, sh.world
            self.streams: Streams | None = self.index.streams
        else:
            self.rank, self.world = _dist(rank, world_size)
            self.streams = None if streams is None else Streams.of(streams, self.index.num_shards)
        if block is not None and (isinstance(block, bool) or int(block) < 1):
            raise ValueError(f"block must be a number of files >= 1, not {block!r}")
        self.block = DEFAULT_BLOCK if block is None else int(block)
        self.epoch = 0
        self.seed = int(seed)
        if min_valid is not None and not 0.0 <= float(min_valid) <= 1.0:
            raise ValueError(f"min_valid must be in [0, 1], not {min_valid!r}")
        self.min_valid = None if min_valid is None else float(min_valid)
        self._resume = 0  # the global position the next iteration starts at (load_state_dict)
        self._base = 0  # the global position the current iteration started at
        self._yielded = 0
        self._cache: dict[Any, Any] = {}
        self._feasible: dict[int, Array] = {}
        self._files: dict[int, Array] = {}
        self._pools: dict[int, constraints.Offsets] = {}
        self._first: dict[int, constraints.Offsets] = {}  # the pools as first made (for no keys): kept across epochs
        self._drawn: dict[int, int] = {}  # the keys drawn from each pool
        self._refined: dict[int, float] = {}  # and those it was last decided for
        self._cells: cells.Cells | None = None  # RandomChipSampler's: _cells_of
        if self.min_valid:
            err = constraints.min_valid_error(self.index, self.min_valid)
            if err is not None:
                raise err
        if balance is not None and not isinstance(balance, ClassBalance):
            raise TypeError(f"balance must be a rumi.torch.ClassBalance(band, target=...), not {balance!r}")
        # min_class / max_class / cloud / balance: from the catalogue's class counts (rumi.torch.contents)
        self.contents = Contents(self.index, limits_of(min_class, max_class, cloud), balance)
        self.constrained = bool(self.min_valid) or constraints.skips_unlabelled(self.index) or bool(self.contents)
        if self.constrained:
            groups = [self.files_of(int(c)) for c in self.my_streams()] if self.streams is not None else \
                [np.arange(self.index.num_files)]
            without = [k for k, files in enumerate(groups) if not self._some_chip(files)]
            if len(without) == len(groups):
                raise constraints.no_chip_error(self.index, self.min_valid, self.contents)
            if without:  # some streams have chips, these none
                assert self.streams is not None
                names = ", ".join(str(int(self.my_streams()[k])) for k in without)
                raise RequestError(
                    f"stream{'s' if len(without) > 1 else ''} {names} of {self.streams.count} (this rank's) "
                    f"{'have' if len(without) > 1 else 'has'} no file with a chip that meets the constraints, while "
                    "other streams have some: use fewer streams (each stream draws its keys from its own files)")

    # -- the index's files ------------------------------------------------------------------
    def feasible(self, j: int) -> Array:
        """(n, 2) lattice offsets of file j whose chips meet the constraints (computed when first
        asked for: a million files are not all visited)."""
        f = self._feasible.get(j)
        if f is None:
            f = self._feasible[j] = constraints.feasible(self.index, j, self.min_valid, self.contents)
        return f

    def has_chip(self, j: int) -> bool:
        """Whether file j has a chip that meets the constraints (here: a lattice offset, feasible)."""
        return bool(len(self.feasible(j)))

    def _some_chip(self, files: Array) -> bool:
        """Whether one of files has a chip that meets the constraints (has_chip, file by file until one has)."""
        return any(self.has_chip(int(j)) for j in files)

    def my_streams(self) -> Array:
        """The streams this rank reads (streams order only)."""
        assert self.streams is not None
        return self.streams.read_by(self.rank, self.world)

    def files_of(self, c: int) -> Array:
        """The dataset files of stream c, in catalogue order."""
        f = self._files.get(c)
        if f is None:
            assert self.streams is not None
            f = self._files[c] = np.flatnonzero(self.streams.stream_of(np.asarray(self.index.shard)) == c)
        return f

    # -- the epoch ---------------------------------------------------------------------------
    def set_epoch(self, epoch: int) -> None:
        self.epoch = int(epoch)

    def epoch_keys(self) -> Array:  # pragma: no cover - abstract
        """(n, 3) int64: every key of the epoch, all ranks together (full-permutation order)."""
        raise NotImplementedError

    def stream_length(self) -> int:  # pragma: no cover - abstract
        """Keys per stream and epoch (streams order)."""
        raise NotImplementedError

    def stream_keys(self, c: int) -> Array:  # pragma: no cover - abstract
        """(stream_length(), 3) int64: stream c's keys of the epoch (streams order)."""
        raise NotImplementedError

    def _cached(self, key: Any, make: Any) -> Any:
        k = (self.seed, self.epoch, key)
        if k not in self._cache:
            if len(self._cache) > 64:
                self._cache.clear()
            self._cache[k] = make()
        return self._cache[k]

    def epoch_length(self) -> int:
        """Keys in the epoch, all ranks together."""
        if self.streams is None:
            return len(self._cached("all", self.epoch_keys))
        return self.stream_length() * self.streams.count

    def keys_at(self, pos: Array) -> Array:
        """(len(pos), 3) int64: the keys at global positions pos of the epoch."""
        pos = np.asarray(pos, np.int64)
        if self.streams is None:
            out: Array = self._cached("all", self.epoch_keys)[pos]
            return out
        C = self.streams.count
        out = np.empty((len(pos), 3), np.int64)
        cs, ks = pos % C, pos // C
        for c in np.unique(cs):
            m = cs == c
            out[m] = self._cached(("stream", int(c)), lambda: self.stream_keys(int(c)))[ks[m]]
        return out

    def all_keys(self) -> list[Key]:
        """Every key of the epoch, all ranks together, in order."""
        return [(int(j), int(r), int(c)) for j, r, c in self.keys_at(np.arange(self.epoch_length()))]

    def _global(self) -> list[Key]:
        return self.all_keys()

    def my_positions(self, start: int) -> Any:
        """The global positions this rank takes from `start` on (rumi.torch.streams.positions:
        every rank the same number, the last (n - start) mod w keys left out)."""
        return positions(self.epoch_length(), start, self.rank, self.world)

    def __iter__(self) -> Iterator[Key]:
        start, self._resume = self._resume, 0
        self._base, self._yielded = start, 0
        pos = self.my_positions(start)
        for k in range(0, len(pos), CHUNK):
            for j, r, c in self.keys_at(np.asarray(pos[k:k + CHUNK])).tolist():
                self._yielded += 1
                yield (j, r, c)

    def __len__(self) -> int:
        return self.epoch_length() // self.world

    @property
    def start(self) -> int:
        """The global position the next (or current) iteration starts at."""
        return self._resume or self._base

    def state_dict(self, yielded: int | None = None) -> dict[str, Any]:
        """seed, epoch, rank, world_size and the keys this rank's iterator gave in the epoch
        (`yielded`; the loader's state_dict passes the delivered ones instead). After a resume at
        a global position that is not a multiple of the world size, `offset` holds that position
        and `yielded` counts from it."""
        y = self._yielded if yielded is None else int(yielded)
        st: dict[str, Any] = {"seed": self.seed, "epoch": self.epoch, "rank": self.rank, "world_size": self.world}
        base = self._resume or self._base
        if base % self.world == 0:
            st["yielded"] = base // self.world + y
        else:
            st["yielded"], st["offset"] = y, base
        return st

    def load_state_dict(self, state: dict[str, Any]) -> None:
        """Resume: the next iteration starts after the keys the saved state's ranks took, which
        are the first offset + yielded x world_size of the epoch's sequence, at this sampler's
        world size (rumi.torch.streams.positions)."""
        self.seed = int(state.get("seed", self.seed))
        self.epoch = int(state.get("epoch", self.epoch))
        y = int(state.get("yielded", 0))
        w = int(state.get("world_size", self.world))
        self._resume = self._base = int(state.get("offset", 0)) + y * w
        self._yielded = 0

    # -- keys of files ---------------------------------------------------------------------
    def _grid_keys(self, j: int, ys: Iterable[int], xs: Iterable[int]) -> Array:
        """(n, 3) keys of file j at rows ys x columns xs that meet the constraints."""
        rows, cols = (v.ravel() for v in np.meshgrid(np.asarray(list(ys), np.int64), np.asarray(list(xs), np.int64),
                                                     indexing="ij"))
        if self.constrained:
            ok = constraints.chip_ok(self.index, j, rows, cols, self.min_valid, self.contents)
            rows, cols = rows[ok], cols[ok]
        return np.stack([np.full(len(rows), j, np.int64), rows, cols], 1)

    def _shuffled(self, out: Array, shuffle: bool) -> Array:
        if shuffle:
            rng = np.random.default_rng([self.seed, self.epoch])
            out = out[rng.permutation(len(out))]
        return out

    def _blocks_of(self, files: Array) -> Array:
        """Each of a stream's files' block number."""
        return np.arange(len(files)) // self.block


def _check_length(length: Any) -> int:
    if isinstance(length, bool) or int(length) < 0:
        raise ValueError(f"length must be an integer >= 0, not {length!r}")
    return int(length)


def _keys(js: Array, r0: Array, c0: Array) -> Array:
    return np.stack([np.asarray(js, np.int64), np.asarray(r0, np.int64), np.asarray(c0, np.int64)], 1).reshape(-1, 3)


class RandomChipSampler(ChipSampler):
    """length chips at random positions: a file drawn with probability proportional to its
    area, then a uniform offset. Deterministic for a seed (and epoch, see set_epoch). With
    min_valid, labels or class limits, files without a chip that meets them are never drawn (one
    drawn is drawn again), and the offset is uniform among the file's offsets that meet them
    (pool: rumi.torch.constraints.offset_map, decided once per file in blocks of offsets, not
    per key): every key meets the constraints, decided without reading pixels. The keys of files a
    draw gives at most REJECT_KEYS of them are drawn by rejection first, the candidates of all
    those files checked at once (_rejected), a file's pool made only for keys that would cost more.
    Where the class limits are the only constraint and a file's counts lie in the limits' banks,
    all its keys, however many, are drawn by rejection in one native call per tile grid
    (rumi.torch.cells.reject), its pool made only for keys that call gives up.

    align: where the offsets may fall. False (default): any pixel. True: the files' tile grid,
    so that a chip whose size is a multiple of the tile size decodes only its own tiles (a
    random 256 x 256 chip of 128 x 128 tiles decodes 4 frames instead of 9, of 256 x 256 tiles
    1 instead of 4: decoded bytes = the chip's bytes). An integer k: multiples of k pixels.
    Aligned chips are fewer distinct crops ((Y - h) // step + 1 offsets per axis), the price of
    the decode they save; where the augmentation needs every offset, leave it False.

    streams=C: each stream draws length // C chips from its own files (by area within them), a
    block of files at a time (see the module's notes); the epoch has length // C * C keys."""

    def __init__(
        self, dataset: Indexed, length: int, seed: int = 0, rank: int | None = None, world_size: int | None = None,
        min_valid: float | None = None, align: bool | int = False, streams: int | None = None, block: int | None = None,
        *, min_class: Any = None, max_class: Any = None, cloud: Any = None, balance: ClassBalance | None = None,
    ) -> None:
        if not isinstance(align, (bool, int, np.integer)) or (not isinstance(align, bool) and int(align) < 1):
            raise ValueError(f"align must be True, False or a step in pixels >= 1, not {align!r}")
        self.align = align if isinstance(align, bool) else int(align)
        self.length = _check_length(length)
        self._area: Array | None = None  # each file's offsets (_expected)
        self._area_sum = 1.0
        super().__init__(dataset, rank, world_size, min_valid, seed, streams, block, min_class=min_class,
                         max_class=max_class, cloud=cloud, balance=balance)
        if self.streams is not None and 0 < self.length < self.streams.count:
            raise ValueError(f"length {self.length} is less than one chip per stream ({self.streams.count} streams)")

    def steps(self, j: int) -> tuple[int, int]:
        """(row, column) step of file j's offsets (1: any pixel; see align)."""
        s = self._steps(np.array([j]))
        return (int(s[0, 0]), int(s[0, 1]))

    def _steps(self, js: Array) -> Array:
        """(len(js), 2) row and column steps of the files' offsets."""
        if self.align is False:
            return np.ones((len(js), 2), np.int64)
        if self.align is True:
            return np.asarray(self.index.tiles, np.int64)[js].reshape(-1, 2)
        return np.full((len(js), 2), int(self.align), np.int64)

    def balanced(self, files: Array) -> tuple[Array, Array, Array, Array, Array]:
        """The class-balanced drawing of files' chips (balance=): (candidate keys (n, 3), their
        probabilities, the classes, their target shares, the expected shares of the drawn
        pixels of the target's classes, among themselves). The candidates are each file's
        lattice chips that meet the constraints (rumi.torch.constraints.lattice; on the align
        step where some are); each one's class shares are estimated from its tiles' counts
        (rumi.torch.contents.Contents.estimate), and the weights are
        rumi.torch.contents.balance_weights': the most even weights whose expected shares of the
        target's classes (among themselves) meet the target, or come closest while keeping
        ClassBalance.spread chips in play."""
        key = ("balanced", tuple(np.asarray(files).tolist()))
        if key in self._cache:
            cached: tuple[Array, Array, Array, Array, Array] = self._cache[key]
            return cached
        bal = self.contents.balance
        assert bal is not None
        keys, ests = [], []
        for j in np.asarray(files).tolist():
            F = self.feasible(j) if self.constrained else np.stack(
                [v.ravel() for v in np.meshgrid(*constraints.lattice(self.index, j, self.contents), indexing="ij")], 1)
            sy, sx = self.steps(j)
            on = (F[:, 0] % sy == 0) & (F[:, 1] % sx == 0)
            F = F[on] if on.any() else F
            if not len(F):
                continue
            vals, e = self.contents.estimate(j, bal.band, F[:, 0], F[:, 1], None if bal.target is None else list(bal.target))
            keys.append(np.concatenate([np.full((len(F), 1), j, np.int64), F], 1))
            ests.append((vals, e))
        if not keys:
            raise ValueError(f"balance: no chip of these files has class counts for band {bal.band!r}")
        classes = np.unique(np.concatenate([v for v, _ in ests]))
        M = np.zeros((sum(len(k) for k in keys), len(classes)))
        at = 0
        for (vals, e), k in zip(ests, keys):
            M[at:at + len(k), np.searchsorted(classes, vals)] = e
            at += len(k)
        cands = np.concatenate(keys)
        present = M.sum(0) > 0
        if bal.target is None:
            target = np.where(present, 1.0, 0.0)
        else:
            target = np.array([bal.target.get(int(c), 0.0) for c in classes])
            if not (target[present] > 0).any():  # (the estimates are of the target's classes alone: every class here)
                have = np.unique(np.concatenate([v[e.sum(0) > 0] for v, e in (
                    self.contents.estimate(int(k[0, 0]), bal.band, k[:, 1], k[:, 2]) for k in keys)]))
                raise ValueError(f"balance: none of the target classes {sorted(bal.target)} occurs in band "
                                 f"{bal.band!r} of these files (it has {have.tolist()})")
        target = target / target.sum()
        on = target > 0  # the shares are those of the target's classes among themselves
        p, got = balance_weights(M[:, on], target[on], bal.spread)
        share = np.zeros(len(classes))
        share[on] = got
        out = (cands, p, classes, target, share)
        self._cache[key] = out
        return out

    @property
    def balance_shares(self) -> dict[int, tuple[float, float]]:
        """balance=: {class: (its target share, its expected share of the drawn pixels)}, the
        target's classes among themselves, over the files this sampler draws from."""
        if self.contents.balance is None:
            raise ValueError("balance_shares: this sampler was made without balance=")
        files = np.concatenate([self.files_of(int(c)) for c in self.my_streams()]) if self.streams is not None else \
            np.arange(self.index.num_files)
        _, _, classes, target, share = self.balanced(files)
        return {int(c): (round(float(t), 6), round(float(s), 6)) for c, t, s in zip(classes, target, share) if t > 0}

    def epoch_keys(self) -> Array:
        rng = np.random.default_rng([self.seed, self.epoch])
        self._fresh_pools()
        return self._draw(np.arange(self.index.num_files), self.length, rng)

    def _fresh_pools(self) -> None:
        """Forget the offset maps' refinements and draw counts before an epoch's (or a stream's)
        keys are drawn: a map's blocks, which index its draws, depend on the keys drawn from it so
        far, so keys drawn after other epochs would differ from a restarted run's (a resume at
        another world size). Each epoch decides its maps again from the same start: its keys are a
        function of the seed, the epoch (and stream) and the constraints. The maps as first made
        (for no keys: a function of the file and the constraints alone) are kept across epochs
        (_first, while they hold at most POOL_BLOCKS blocks): each epoch starts from them, not
        from a map made again."""
        self._pools = dict(self._first)
        self._drawn.clear()
        self._refined.clear()

    def stream_length(self) -> int:
        assert self.streams is not None
        return self.length // self.streams.count

    def stream_keys(self, c: int) -> Array:
        files = self.files_of(c)
        if not len(files):
            raise ValueError(f"stream {c} of {self.streams.count if self.streams else 0} has no file with a chip: use fewer "
                             "streams")
        L = self.stream_length()
        rng = np.random.default_rng([self.seed, self.epoch, c])
        self._fresh_pools()
        keys = self._draw(files, L, rng)
        # the stream's files a block at a time: blocks in a random order, their keys shuffled
        block = np.empty(self.index.num_files, np.int64)
        block[files] = self._blocks_of(files)
        nb = int(block[files].max()) + 1 if len(files) else 0
        rank_of = rng.permutation(nb)
        order = np.lexsort((rng.random(len(keys)), rank_of[block[keys[:, 0]]]))
        out: Array = keys[order]
        return out

    def _draw(self, files: Array, count: int, rng: np.random.Generator) -> Array:
        """count keys drawn from files (files by area, offsets uniform; the constraints met)."""
        index = self.index
        if count == 0:
            return np.zeros((0, 3), np.int64)
        if self.contents.balance is not None:
            cands, p = self.balanced(files)[:2]
            out: Array = cands[rng.choice(len(cands), size=count, p=p)]
            h, w = index.size
            for j in np.unique(out[:, 0]):  # offsets within a quarter chip of the lattice's: more distinct chips
                sel = np.flatnonzero(out[:, 0] == j)
                out[sel, 1], out[sel, 2] = self._near(int(j), out[sel, 1], out[sel, 2], rng, (max(1, h // 4), max(1, w // 4)))
            return out
        h, w = index.size
        shapes = np.asarray(index.shapes, np.int64)
        area = ((shapes[files, 2] - h + 1) * (shapes[files, 3] - w + 1)).astype(float)
        js = files[rng.choice(len(area), size=count, p=area / area.sum())]
        if self.constrained:  # uniform over each file's offsets that meet the constraints
            r0, c0 = np.zeros(count, np.int64), np.zeros(count, np.int64)
            todo = np.arange(count)
            while len(todo):
                # the keys of files drawn at most REJECT_KEYS of them (or drawn natively: _by_rejection): by rejection
                # first, every file at once
                fs, inv, cnt = group(js[todo], index.num_files)
                by_rejection = self._by_rejection(fs, cnt)[inv]
                few = todo[by_rejection]
                r0[few], c0[few], met, none = self._rejected(js[few], rng)
                left = np.sort(np.concatenate([todo[~by_rejection], few[~met & ~none]]))
                bad = np.unique(js[few[none]]).tolist()  # no offset of theirs meets the class limits: no pool made
                for j in np.unique(js[left]):
                    sel = left[js[left] == j]
                    got = self._uniform(int(j), len(sel), rng)
                    if got is None:  # no chip meets the constraints: its keys drawn again among the other files
                        bad.append(int(j))
                    else:
                        r0[sel], c0[sel] = got
                if not bad:
                    break
                area[np.isin(files, bad)] = 0.0
                if not area.sum():  # pragma: no cover - the constructor found a file with one
                    raise constraints.no_chip_error(index, self.min_valid, self.contents)
                todo = np.sort(np.concatenate([few[none], left[np.isin(js[left], bad)]]))
                js[todo] = files[rng.choice(len(area), size=len(todo), p=area / area.sum())]
            return _keys(js, r0, c0)
        ys = rng.random(count)
        xs = rng.random(count)
        Ys, Xs = shapes[js, 2], shapes[js, 3]
        step = self._steps(js)
        Sy, Sx = step[:, 0], step[:, 1]
        Py, Px = (Ys - h) // Sy + 1, (Xs - w) // Sx + 1  # offsets per axis (Ys - h + 1 when not aligned)
        r0 = (ys * Py).astype(np.int64) * Sy
        c0 = (xs * Px).astype(np.int64) * Sx
        return _keys(js, r0, c0)

    def _cells_of(self) -> cells.Cells:
        """The cells the rejection draws offsets from (rumi.torch.cells), of the files drawn from so far."""
        if self._cells is None:
            self._cells = cells.Cells(self.index, self.contents)
        return self._cells

    def _some_chip(self, files: Array) -> bool:
        """Whether one of files has a chip that meets the constraints: a sure cell of the first SOME_CHIP_FILES
        files (rumi.torch.cells: without min_valid), or one found among SOME_CHIP_TRIES offsets drawn in each of
        their cells (checked at once: constraints.chips_ok) shows it without a file's pool; else file by file
        (has_chip)."""
        head = np.asarray(files[:SOME_CHIP_FILES], np.int64)
        # a file an epoch draws more than REJECT_KEYS keys from draws them from its pool (has_chip makes it) unless
        # it may draw them natively (_by_rejection: its cells, decided here, decide that)
        head = head[np.array([self._expected(int(j)) <= REJECT_KEYS for j in head.tolist()], bool)
                    | (self._bank_combos(head) >= 0)]
        if self.contents.balance is None and len(head):
            P, step = self._offsets_of(head)
            live = (P >= 1).all(1)
            head, P, step = head[live], P[live], step[live]
            draw = self._cells_of().of(head, P, step)
            f = np.flatnonzero(draw[0] > 0)
            if len(f) and not self.min_valid and cells.sure_share(draw).any():  # a sure cell: its chips meet them
                return True
            if len(f):
                rows, cols, _, inside = cells.draw(draw, f, np.random.default_rng(0).random((len(f), SOME_CHIP_TRIES)))
                js = np.repeat(head[f], SOME_CHIP_TRIES)[inside.ravel()]
                if constraints.chips_ok(self.index, js, (rows * step[f, :1])[inside], (cols * step[f, 1:])[inside],
                                        self.min_valid, self.contents).any():
                    return True
        return super()._some_chip(files)

    def has_chip(self, j: int) -> bool:
        """Whether file j has a chip that meets the constraints: its pool has an offset (balance=:
        a lattice offset, its candidates)."""
        if self.contents.balance is not None:
            return super().has_chip(j)
        return self.pool(j).total > 0

    def _expected(self, j: int) -> float:
        """The keys an epoch draws from file j on average (length x its share of the offsets): what its pool is
        first decided for (a function of the sampler's settings, so the same in every epoch and process)."""
        if self._area is None:
            h, w = self.index.size
            shapes = np.asarray(self.index.shapes, np.int64)
            self._area = ((shapes[:, 2] - h + 1) * (shapes[:, 3] - w + 1)).clip(0).astype(float)
            self._area_sum = max(float(self._area.sum()), 1.0)
        return float(self.length * self._area[j] / self._area_sum)

    def pool(self, j: int) -> constraints.Offsets:
        """File j's offsets on its align step whose chips meet the constraints
        (rumi.torch.constraints.offset_map; made when first asked for, and kept while the pools
        kept hold at most POOL_BLOCKS blocks). A file with none on the step but some lattice
        offsets that meet them (constraints.feasible): those."""
        m = self._pools.get(j)
        keys = self._expected(j)
        if m is None:
            m = self._first.get(j)
            if m is None:
                # decided for the keys an epoch draws from it on average (_uniform refines it for more)
                m = constraints.offset_map(self.index, j, self.steps(j), self.min_valid, self.contents, keys=keys)
                if not m.total and len(F := self.feasible(j)):
                    one = np.ones(len(F), np.int64)
                    m = constraints.Offsets(F[:, 0].copy(), F[:, 1].copy(), one, one, np.ones(len(F), bool), (1, 1))
                if sum(len(v.r) for v in self._first.values()) + len(m.r) > POOL_BLOCKS:
                    self._first.clear()
                self._first[j] = m
            self._drawn[j], self._refined[j] = 0, keys
            if sum(len(v.r) for v in self._pools.values()) + len(m.r) > POOL_BLOCKS:
                self._pools.clear()
            self._pools[j] = m
        return m

    def _offsets_of(self, files: Array) -> tuple[Array, Array]:
        """(each file's offsets per axis on its align step (files, 2), the step (files, 2))."""
        h, w = self.index.size
        shapes = np.asarray(self.index.shapes, np.int64)[files].reshape(-1, 4)
        step = self._steps(files)
        return np.stack([(shapes[:, 2] - h) // step[:, 0] + 1, (shapes[:, 3] - w) // step[:, 1] + 1], 1), step

    def _by_rejection(self, files: Array, keys: Array) -> Array:
        """Per file (drawn keys[i] keys): whether rejection draws them: at most REJECT_KEYS of them, or any
        number where they are drawn natively (_bank_combos) from cells of which at least NATIVE_SURE_SHARE are sure
        (a file whose valid offsets are sparse keeps its pool, refined for its keys, which then draws each key for
        less than rejection's candidates): a function of the file, the constraints and its keys."""
        out: Array = keys <= REJECT_KEYS
        many = np.flatnonzero(~out)
        if len(many):
            many = many[self._bank_combos(files[many]) >= 0]
        if len(many):
            P, step = self._offsets_of(files[many])
            live = (P >= 1).all(1)
            many, P, step = many[live], P[live], step[live]
            out[many] = cells.sure_share(self._cells_of().of(files[many], P, step)) >= NATIVE_SURE_SHARE
        return out

    def _bank_combos(self, files: Array) -> Array:
        """Per file, its tile grids' number (rumi.torch.cells.combos) where its keys are drawn natively (the class
        limits the only constraint, every limit's counts in its bank, labels of one rectangle or none), else -1:
        a function of the file and the constraints alone."""
        if self.min_valid or not self.contents.limits or self.contents.balance is not None:
            return np.full(len(files), -1, np.int64)
        combo = cells.combos(self.contents, files)
        if constraints.skips_unlabelled(self.index):  # a file of several label files: each chip's labels checked
            combo[constraints.label_rects(self.index, files)[1]] = -1
        return combo

    def _rejected(self, js: Array, rng: np.random.Generator) -> tuple[Array, Array, Array, Array]:
        """An offset for each key of files js (key i: file js[i]) by rejection: REJECT_ROUNDS[k]
        offsets uniform on its file's align step in round k, every key's of a round checked in one
        constraints.chips_ok, the key taking the first that meets the constraints (uniform among
        those that do). (rows, cols, whether one was met, whether the file has none: no offset on
        a step of one pixel in a block where some chip may meet the class limits). A file's keys that would need more than
        REJECT_GIVE_UP candidates more (at its acceptance so far) are left unmet (to its pool). The keys of files
        whose class limits are the only constraint and whose counts lie in their banks (_bank_combos) are drawn
        in one native call per tile grid (rumi.torch.cells.reject; REJECT_GIVE_UP_NATIVE). The
        draws depend only on the keys, the rng and which offsets meet the constraints (not on the
        pools the sampler holds: a file whose pool has no offset is drawn for too, none met)."""
        n = len(js)
        r0, c0 = np.zeros(n, np.int64), np.zeros(n, np.int64)
        met = np.zeros(n, bool)
        files, inv, _ = group(js, self.index.num_files)
        P, step = self._offsets_of(files)  # per file
        draw = self._cells_of().of(files, P, step)
        # the blocks hold every offset on the step that may meet the class limits, and on a step of one pixel the
        # file's lattice too (its pool's last resort): none, no chip
        none = (draw[0] == 0) & (P >= 1).all(1) & (step == 1).all(1) \
            & (bool(self.contents.limits) or constraints.skips_unlabelled(self.index))
        empty_f = np.array([j in self._pools and not self._pools[j].total for j in files.tolist()], bool) \
            | (P < 1).any(1) | (draw[0] == 0)
        others = bool(self.min_valid)  # a sure block's chips meet every other constraint
        # a cell's chips have labels unless its file has several label files (its cells cover every offset)
        contents_only = not others and bool(self.contents) and not (
            constraints.skips_unlabelled(self.index) and constraints.label_rects(self.index, files)[1].any())
        combo = self._bank_combos(files)
        mine = np.zeros(len(files), bool)
        us, first = np.unique(combo, return_index=True)
        # the class limits alone, in banks: a native call a tile grid, in the order of their first files (not of the
        # groups' numbers, which depend on the files seen before: each call's seed is the rng's next draw)
        for u in us[np.argsort(first)].tolist():
            if u < 0:
                continue
            fsel = np.flatnonzero(combo == u)
            terms = cells.bank_terms(self.contents, files[fsel])
            assert terms is not None  # (one group per limit: combo's)
            mine[:] = False
            mine[fsel] = True
            ksel = np.flatnonzero(mine[inv])
            sub = tuple(np.ascontiguousarray(a[fsel]) for a in draw[:9]) + draw[9:]
            r0[ksel], c0[ksel], met[ksel] = cells.reject(
                sub, terms, np.cumsum(mine)[inv[ksel]] - 1, step[fsel],
                empty_f[fsel], self.index.size, rng, REJECT_TRIES, REJECT_MIN_TRIES, REJECT_GIVE_UP_NATIVE)
        empty = empty_f[inv]
        step = step[inv]
        todo = np.flatnonzero((combo < 0)[inv])  # the others' keys: numpy rounds
        tried, hits = np.zeros(len(files)), np.zeros(len(files))
        for k in REJECT_ROUNDS:
            if not len(todo):
                break
            cr, cc, cs, cin = cells.draw(draw, inv[todo], rng.random((len(todo), k)))
            t = todo[:, None]
            cr, cc = cr * step[t, 0], cc * step[t, 1]
            ok = cs & ~empty[t] if not others else np.zeros((len(todo), k), bool)  # in a sure cell: met
            check = cin & ~empty[t] & (others | ~cs)  # a file known to have none: no check
            if check.any():
                at = np.nonzero(check)
                sure = cs[at]
                res = np.ones(len(sure), bool)
                cj, ci, lr, lc = js[todo[at[0]]], inv[todo[at[0]]], cr[at], cc[at]
                if contents_only:  # in a cell of its file: labelled, the class limits alone to check
                    res = self.contents.ok_many(files, ci, lr, lc)
                for part, lims in ((~sure, self.contents), (sure, None)) if not contents_only else ():
                    if part.any():  # in a sure cell: the other constraints alone
                        res[part] = constraints.chips_ok(self.index, cj[part], lr[part], lc[part], self.min_valid, lims,
                                                         files, ci[part])
                ok[at] = res
            hit = ok.any(axis=1)
            first = np.flatnonzero(hit) * k + np.argmax(ok[hit], axis=1)  # each met key's first candidate met
            r0[todo[hit]], c0[todo[hit]] = np.take(cr, first), np.take(cc, first)
            met[todo[hit]] = True
            tried += np.bincount(inv[todo], minlength=len(files)) * k
            hits += np.bincount(inv[todo], ok.sum(1), minlength=len(files))
            todo = todo[~hit]
            # a file whose keys left would need more candidates than its map costs: its pool draws them
            need = np.bincount(inv[todo], minlength=len(files)) * (tried + 1) / (hits + 1)
            todo = todo[need[inv[todo]] <= REJECT_GIVE_UP]
        return r0, c0, met, none[inv]

    def _uniform(self, j: int, n: int, rng: np.random.Generator) -> tuple[Array, Array] | None:
        """n offsets of file j drawn uniformly among those on its align step whose chips meet the
        constraints (None: there is none), from its pool: an offset of a block the pool left
        undecided is checked (chip_ok) and drawn again when it fails, up to UNDECIDED_ROUNDS
        times, then one of the certain ones (or of the file's lattice offsets that meet them)."""
        m = self.pool(j)
        if not m.total:
            return None
        drawn = self._drawn[j] = self._drawn.get(j, 0) + n
        if m.total > m.certain and drawn >= 2 * self._refined.get(j, self._expected(j)):  # further as the keys double
            m = self._pools[j] = constraints.refine(m, self.index, j, self.min_valid, self.contents, drawn)
            self._refined[j] = drawn
            if sum(len(v.r) for v in self._pools.values()) > POOL_BLOCKS:
                self._pools = {j: m}
        r0, c0, sure = m.at(rng.integers(0, m.total, n))
        todo = np.flatnonzero(~sure)
        k = UNDECIDED_AHEAD
        for _ in range(0, UNDECIDED_ROUNDS, k):
            if not len(todo):
                break
            # each key's undecided draw and its next k - 1 draws, their undecided ones checked at once (one
            # chip_ok): the key takes the first that is certain or meets them (as drawing them one at a time)
            mr, mc, ms = m.at(rng.integers(0, m.total, len(todo) * (k - 1)))
            cr = np.concatenate([r0[todo, None], mr.reshape(-1, k - 1)], 1)
            cc = np.concatenate([c0[todo, None], mc.reshape(-1, k - 1)], 1)
            ok = np.concatenate([np.zeros((len(todo), 1), bool), ms.reshape(-1, k - 1)], 1)
            ok[~ok] = constraints.chip_ok(self.index, j, cr[~ok], cc[~ok], self.min_valid, self.contents)
            hit = ok.any(axis=1)
            first = np.argmax(ok[hit], axis=1)
            r0[todo[hit]], c0[todo[hit]] = cr[hit][np.arange(len(first)), first], cc[hit][np.arange(len(first)), first]
            todo = todo[~hit]
            r0[todo], c0[todo], sure = m.at(rng.integers(0, m.total, len(todo)))
            todo = todo[~sure]
        if len(todo):  # pragma: no cover - only past MAP_BLOCKS undecided blocks that rarely meet them
            if m.certain:
                r0[todo], c0[todo], _ = m.at(rng.integers(0, m.certain, len(todo)), certain=True)
            else:
                F = self.feasible(j)
                if not len(F):
                    raise constraints.no_chip_error(self.index, self.min_valid, self.contents)
                pick = rng.integers(0, len(F), len(todo))
                r0[todo], c0[todo] = F[pick, 0], F[pick, 1]
        return r0, c0

    def _near(self, j: int, r0: Array, c0: Array, rng: np.random.Generator,
              reach: tuple[int, int] | None = None) -> tuple[Array, Array]:
        """For each offset (r0, c0) that meets the constraints, the first of sum(NEAR_ROUNDS) random
        offsets within reach (default a tile) of it (on the align step) that meets them too, else
        itself. The candidates are drawn and decided in rounds (NEAR_ROUNDS) for the offsets none
        has met yet: without constraints one draw per offset (no check), with them most offsets
        are met in the first round (before: 15 drawn for each, decided in rounds)."""
        _, _, Y, X = (int(v) for v in self.index.shapes[j])
        h, w = self.index.size
        th, tw = reach if reach is not None else (int(v) for v in self.index.tiles[j])
        sy, sx = self.steps(j)
        r_out, c_out = r0.copy(), c0.copy()
        todo = np.arange(len(r0))
        for m in NEAR_ROUNDS:
            if not len(todo):
                break
            cand_r = np.clip(r0[todo, None] + (rng.integers(-th, th + 1, (len(todo), m)) // sy) * sy, 0, (Y - h) // sy * sy)
            cand_c = np.clip(c0[todo, None] + (rng.integers(-tw, tw + 1, (len(todo), m)) // sx) * sx, 0, (X - w) // sx * sx)
            if not self.constrained:  # every offset meets them: the first candidate
                r_out[todo], c_out[todo] = cand_r[:, 0], cand_c[:, 0]
                break
            ok = constraints.chip_ok(self.index, j, cand_r.ravel(), cand_c.ravel(), self.min_valid,
                                     self.contents).reshape(len(todo), m)
            hit = ok.any(axis=1)
            first = np.argmax(ok[hit], axis=1)
            r_out[todo[hit]] = cand_r[hit][np.arange(len(first)), first]
            c_out[todo[hit]] = cand_c[hit][np.arange(len(first)), first]
            todo = todo[~hit]
        return r_out, c_out


class _EveryChip(ChipSampler):
    """Samplers of every chip of a set of offsets per file (GridChipSampler, TileChipSampler).

    An epoch visits every chip exactly once, at any world size and stream count: rank r of w
    takes the positions p = r (mod w) of the epoch's sequence, none left out, so the ranks'
    lengths differ by at most one (without streams) or by the chips of the streams each reads
    (with streams, which keep a rank's reads within its own streams). Under
    DistributedDataParallel, where every rank must take the same number of steps, wrap the
    loop in torch.distributed.algorithms.Join, or give length=.

    With streams, position p is chip p // C of stream p mod C (its pass of the epoch: its
    blocks in a random order with shuffle, each block's keys shuffled), or nothing once that
    stream's chips are all taken: a stream with fewer chips ends earlier. Resuming from a saved
    state takes the keys the saved ranks had not taken, each once, at any world size (the state
    names each resume of the epoch: "taken").

    length=: instead an epoch of `length` // C keys per stream (streams) of its passes over its
    chips: a stream with fewer chips starts another pass, one with more goes on where it stopped
    in the next epoch (equal lengths per rank; chips repeat and wait across epochs)."""

    shuffle: bool = False
    length: int | None = None
    _taken: list[tuple[int, int]] = []  # the resumes of the current iteration's epoch (state_dict's "taken")
    _pending: list[tuple[int, int]] = []  # those of the next iteration (load_state_dict)

    def offsets(self, j: int) -> tuple[Any, Any]:  # pragma: no cover - abstract
        """The row and column offsets of file j's chips."""
        raise NotImplementedError

    @property
    def exact(self) -> bool:
        """Every chip once per epoch (no length=; see the class's notes)."""
        return self.length is None

    def epoch_keys(self) -> Array:
        out = [self._grid_keys(j, *self.offsets(j)) for j in range(self.index.num_files)]
        return self._shuffled(np.concatenate(out) if out else np.zeros((0, 3), np.int64), self.shuffle)

    def _stream_chips(self, c: int) -> tuple[Array, Array]:
        """(keys in file order, each key's block) of stream c (computed once)."""
        k = ("chips", c)
        if k not in self._cache:
            files = self.files_of(c)
            keys = [self._grid_keys(int(j), *self.offsets(int(j))) for j in files]
            blocks = [np.full(len(x), b, np.int64) for x, b in zip(keys, self._blocks_of(files))]
            self._cache[k] = (np.concatenate(keys) if keys else np.zeros((0, 3), np.int64),
                              np.concatenate(blocks) if blocks else np.zeros(0, np.int64))
        out: tuple[Array, Array] = self._cache[k]
        return out

    def stream_counts(self, every: bool = True) -> Array:
        """Chips per stream (streams order). every=False: only this rank's streams are counted
        (the others 0), which needs no other rank."""
        assert self.streams is not None
        C = self.streams.count
        key = ("counts", every)
        if key not in self._cache:
            counts = np.zeros(C, np.int64)
            # a sharded index holds only this rank's streams' files; otherwise every stream is counted here
            mine = self.my_streams() if self.index.sharding is not None or not every else np.arange(C)
            for c in mine:
                counts[c] = len(self._stream_chips(int(c))[0])
            if every and len(mine) < C:
                agreed = _max_over_ranks(counts, self.world)
                if agreed is None:
                    raise ValueError(
                        f"this rank reads {len(mine)} of the {C} streams and torch.distributed is not initialised: "
                        "give length= (the epoch's keys, all ranks together)")
                counts = agreed
            self._cache[key] = counts
        out: Array = self._cache[key]
        return out

    def stream_length(self) -> int:
        assert self.streams is not None
        C = self.streams.count
        if self.length is not None:
            return self.length // C
        return max(1, int(self.stream_counts().sum()) // C)

    def epoch_length(self) -> int:
        if self.streams is None or not self.exact:
            return super().epoch_length()
        return int(self.stream_counts().sum())

    def stream_keys(self, c: int) -> Array:
        keys, blocks = self._stream_chips(c)
        M = len(keys)
        if M == 0:
            raise ValueError(f"stream {c} has no chip (files {self.files_of(c)[:3].tolist()} ...): use fewer streams")
        if self.exact:
            return self._pass(c, self.epoch, keys, blocks)
        L = self.stream_length()
        a, b = self.epoch * L, (self.epoch + 1) * L
        out = [self._pass(c, q, keys, blocks)[max(a, q * M) - q * M:min(b, (q + 1) * M) - q * M]
               for q in range(a // M, (b - 1) // M + 1)]
        return np.concatenate(out)

    def _pass(self, c: int, q: int, keys: Array, blocks: Array) -> Array:
        """Pass q over stream c's chips: its blocks in a random order, the keys of each shuffled."""
        if not self.shuffle:
            return keys
        rng = np.random.default_rng([self.seed, c, q])
        rank_of = rng.permutation(int(blocks.max()) + 1)
        out: Array = keys[np.lexsort((rng.random(len(keys)), rank_of[blocks]))]
        return out

    # -- every chip once: positions, resume -------------------------------------------------
    def _occupied(self, counts: Array) -> Array:
        """bool per global position of the streams' sequence: a chip is there (p = k C + c with
        k < counts[c])."""
        assert self.streams is not None
        C = self.streams.count
        occ = np.zeros(int(counts.max(initial=0)) * C, bool)
        for c in range(C):
            occ[c:int(counts[c]) * C:C] = True
        return occ

    def my_positions(self, start: int) -> Any:
        if not self.exact:
            return super().my_positions(start)
        r, w = self.rank, self.world
        if self.streams is None:  # p = r (mod w) from start to the end: none left out
            n = self.epoch_length()
            start = max(0, min(int(start), n))
            return range(start + (r - start) % w, n, w)
        if not self._taken:
            occ = self._occupied(self.stream_counts(every=False))  # this rank's streams suffice
            taken = np.zeros(len(occ), bool)
        else:
            occ = self._occupied(self.stream_counts())
            taken = _taken_by(occ, self._taken)
        free = np.flatnonzero(occ & ~taken)
        return free[free % w == r]

    def __len__(self) -> int:
        """This rank's keys of a whole epoch (resumed or not, as for the other samplers)."""
        if not self.exact:
            return super().__len__()
        if self.streams is None:
            return len(range(self.rank, self.epoch_length(), self.world))
        occ = self._occupied(self.stream_counts(every=False))
        return int(occ[self.rank::self.world].sum())

    def has_chips(self) -> bool:
        """Whether the epoch has a chip (with streams: this rank's streams, which needs no other
        rank; the constructor checked that each has a file with one)."""
        if self.exact and self.streams is not None:
            return bool(self.stream_counts(every=False).sum())
        return bool(self.epoch_length())

    def all_keys(self) -> list[Key]:
        if not self.exact or self.streams is None:
            return super().all_keys()
        pos = np.flatnonzero(self._occupied(self.stream_counts()))
        return [(int(j), int(r), int(c)) for j, r, c in self.keys_at(pos)]

    def state_dict(self, yielded: int | None = None) -> dict[str, Any]:
        if not self.exact or self.streams is None:
            return super().state_dict(yielded)
        y = self._yielded if yielded is None else int(yielded)
        st: dict[str, Any] = {"seed": self.seed, "epoch": self.epoch, "rank": self.rank, "world_size": self.world,
                              "yielded": y}
        before = self._pending or self._taken  # loaded, not iterated yet: the loaded state's
        if before:
            st["taken"] = [list(t) for t in before]
        return st

    def load_state_dict(self, state: dict[str, Any]) -> None:
        if not self.exact or self.streams is None:
            return super().load_state_dict(state)
        if "offset" in state:
            raise ValueError("this state was saved by a sampler with length= (or without streams): load it into one "
                             "made the same way")
        self.seed = int(state.get("seed", self.seed))
        self.epoch = int(state.get("epoch", self.epoch))
        before = [(int(w), int(y)) for w, y in state.get("taken", [])]
        self._pending = before + [(int(state.get("world_size", self.world)), int(state.get("yielded", 0)))]
        self._resume = self._base = 0
        self._yielded = 0

    def __iter__(self) -> Iterator[Key]:
        # the keys the saved ranks took (load_state_dict) apply to the next iteration only
        self._taken, self._pending = self._pending, []
        yield from super().__iter__()


def _taken_by(occupied: Array, layers: list[tuple[int, int]]) -> Array:
    """The positions the saved ranks took: for each resume (world w, yielded y) in turn, rank
    r of w took its first y free occupied positions p = r (mod w)."""
    taken = np.zeros(len(occupied), bool)
    for w, y in layers:
        free = occupied & ~taken
        for r in range(w):
            got = np.flatnonzero(free[r::w])[:y]
            taken[r + w * got] = True
    return taken


def _max_over_ranks(counts: Array, world: int) -> Array | None:
    """counts, elementwise the largest over the ranks (None without an initialised process group
    of that world size)."""
    d = torch.distributed
    if not (d.is_available() and d.is_initialized()) or d.get_world_size() != world:
        return None
    t = torch.from_numpy(np.ascontiguousarray(counts, np.int64))
    d.all_reduce(t, op=d.ReduceOp.MAX)
    out: Array = t.numpy()
    return out


class GridChipSampler(_EveryChip):
    """Every chip of a grid of stride pixels (default: the chip size) over each file, the last
    row and column moved in to end at the file's edge (with min_valid or labels: those that meet
    them). shuffle with a seed for a random order. streams / block / length: see _EveryChip."""

    def __init__(
        self,
        dataset: Indexed,
        stride: int | tuple[int, int] | None = None,
        rank: int | None = None,
        world_size: int | None = None,
        min_valid: float | None = None,
        shuffle: bool = False,
        seed: int = 0,
        streams: int | None = None,
        block: int | None = None,
        length: int | None = None,
        *,
        min_class: Any = None,
        max_class: Any = None,
        cloud: Any = None,
    ) -> None:
        h, w = dataset.index.size
        sy, sx = (h, w) if stride is None else ((int(stride),) * 2 if np.isscalar(stride) else tuple(stride))  # type: ignore[arg-type]
        self.stride = (int(sy), int(sx))
        self.shuffle = bool(shuffle)
        self.length = None if length is None else _check_length(length)
        super().__init__(dataset, rank, world_size, min_valid, seed, streams, block, min_class=min_class,
                         max_class=max_class, cloud=cloud)
        if self.constrained and not self.has_chips():
            raise constraints.no_chip_error(self.index, self.min_valid, self.contents)

    def offsets(self, j: int) -> tuple[Any, Any]:
        h, w = self.index.size
        sy, sx = self.stride
        _, _, Y, X = (int(v) for v in self.index.shapes[j])
        return (sorted(set(list(range(0, Y - h + 1, sy)) + [Y - h])), sorted(set(list(range(0, X - w + 1, sx)) + [X - w])))


class TileChipSampler(_EveryChip):
    """Chips aligned with the files' tiles: every position on the tile grid where a chip fits
    whole (a chip of the tile size then reads exactly one frame: one request). shuffle with a
    seed for a random order. streams / block / length: see _EveryChip."""

    def __init__(
        self, dataset: Indexed, shuffle: bool = False, seed: int = 0, rank: int | None = None,
        world_size: int | None = None, min_valid: float | None = None, streams: int | None = None,
        block: int | None = None, length: int | None = None, *, min_class: Any = None, max_class: Any = None,
        cloud: Any = None,
    ) -> None:
        self.shuffle = shuffle
        self.length = None if length is None else _check_length(length)
        super().__init__(dataset, rank, world_size, min_valid, seed, streams, block, min_class=min_class,
                         max_class=max_class, cloud=cloud)
        if self.constrained and not self.has_chips():
            raise constraints.no_chip_error(self.index, self.min_valid, self.contents)

    def offsets(self, j: int) -> tuple[Any, Any]:
        h, w = self.index.size
        _, _, Y, X = (int(v) for v in self.index.shapes[j])
        th, tw = (int(v) for v in self.index.tiles[j])
        sy = th * max(1, math.ceil(h / th))
        sx = tw * max(1, math.ceil(w / tw))
        return (range(0, Y - h + 1, min(sy, th) if h <= th else sy), range(0, X - w + 1, min(sx, tw) if w <= tw else sx))
