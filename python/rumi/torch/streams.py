"""Streams: how the files of a dataset and the keys of its samplers are dealt to ranks, with the
same global order at any world size (MosaicML Streaming's canonical nodes and shuffle blocks,
for catalogue shards).

Shards are the pieces of a catalogue selection that a process reads alone (rumi.Catalog.shards:
a partitioned catalogue's row groups that may match its search, or runs of 4096 rows in memory),
numbered in catalogue order (Hilbert order within a year for a partitioned catalogue). With
`streams=C`, shard s belongs to stream s mod C (C is at most the number of shards). An epoch's
global sequence of keys interleaves the streams: position p is key p // C of stream p mod C.

Rank r of w takes the positions p = r (mod w). It therefore reads only the streams c = r (mod g),
g = gcd(w, C), and only their shards. When w divides C, each stream is read by exactly one rank,
and so is each byte of its files. The sequence does not depend on w: 1, 2 and 4 ranks see the
same keys in the same order, split differently.

Resuming: after every rank has taken y keys, the keys taken are the sequence's first y * w
(its prefix). Any world size w' resumes from that global position P: rank r' takes the positions
p >= P with p = r' (mod w') below P + (n - P) // w' * w'. Every remaining key is taken once, and
every rank gets the same number. As at an epoch's start, the last (n - P) mod w' keys are left out.

A stream's keys come a block of files at a time (samplers.py): the blocks in a shuffled order,
and the keys of a block shuffled among themselves (py1s-like). A rank reads C / w blocks at once,
and the chips that share a frame are read close together in time, so that frame is fetched once.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from .dtypes import Array


@dataclass(frozen=True)
class Streams:
    """C streams over S shards: shard s is in stream s mod C."""

    count: int
    shards: int

    @staticmethod
    def of(requested: Any, shards: int) -> Streams:
        """The streams of a selection of `shards` shards, asked for `requested` (at most one
        stream per shard)."""
        if isinstance(requested, bool) or not isinstance(requested, (int, np.integer)) or int(requested) < 1:
            raise ValueError(f"streams must be an integer >= 1, not {requested!r}")
        return Streams(max(1, min(int(requested), int(shards))), int(shards))

    def stream_of(self, shard: Any) -> Any:
        """The stream of shard numbers (array or int)."""
        return shard % self.count

    def modulus(self, world: int) -> int:
        """g = gcd(world, C): rank r reads the streams c = r (mod g)."""
        return math.gcd(int(world), self.count)

    def read_by(self, rank: int, world: int) -> Array:
        """The streams that rank `rank` of `world` reads."""
        g = self.modulus(world)
        return np.arange(rank % g, self.count, g)

    def shards_of(self, rank: int, world: int) -> Array:
        """The shards that rank `rank` of `world` reads (those of its streams)."""
        g = self.modulus(world)
        return np.arange(rank % g, self.shards, g)


def place(rank: int | None, world: int | None) -> tuple[int, int]:
    """(rank, world size): those given, else torch.distributed's when it is initialised, else (0, 1)."""
    if rank is None or world is None:
        import torch

        d = torch.distributed
        if d.is_available() and d.is_initialized():
            rank = d.get_rank() if rank is None else rank
            world = d.get_world_size() if world is None else world
        else:
            rank, world = rank or 0, world or 1
    assert rank is not None and world is not None
    if not 0 <= rank < world:
        raise ValueError(f"rank {rank} is outside 0..{world - 1}")
    return int(rank), int(world)


def positions(n: int, start: int, rank: int, world: int) -> range:
    """The positions of an epoch of n keys that rank `rank` of `world` takes from global position
    `start` on. These are p = rank (mod world) in [start, start + (n - start) // world * world),
    so every rank gets (n - start) // world of them."""
    start = max(0, min(int(start), n))
    end = start + (n - start) // world * world
    first = start + (rank - start) % world
    return range(first, end, world)
