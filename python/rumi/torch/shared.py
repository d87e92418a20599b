"""Batch tensors a DataLoader worker sends to the main process, in shared memory it reuses.

torch sends a worker's batch through shared memory: a fresh segment per tensor and batch,
allocated, zeroed and page-faulted in by the worker, mapped again by the main process, then
truncated and unmapped (measured: 10 ms of CPU per 6.3 MB batch against 1.2 ms for process
memory, on this project's 2-core machines; more than the decode of the batch's chips where they
share tiles). A worker here keeps the segments of its batches and writes a later batch into one
the main process has let go:

  - `take(shape, dtype)` (in the worker, ChipDataset._alloc): a tensor in a free segment of this
    process's pool, or in a new one; each segment has a HEADER of bytes before the samples, whose
    first byte says whether the main process still holds it (LENT), the worker is filling it
    (TAKEN) or neither (FREE);
  - `lend(samples, fields)` (in the worker, rumi.torch.collate): the batch's tensors of pooled
    segments marked LENT, kept in the pool, and sent as `Lent` carriers;
  - `Lent` unpickles in the main process (`_rebuild`) as a plain tensor over the received
    segment, through a numpy array whose base holds it: when the last view of that tensor is
    freed (wherever it went: the user's loop, the pin-memory thread's copy), a finalizer writes
    FREE into the header, and the worker may write its next batch there.

A segment is reused only after the main process has dropped every view of it (the finalizer
runs when the storage is freed, not when the batch dict is), so a batch the user keeps is never
overwritten. A batch whose tensors are not sent by rumi.torch.collate (another collate_fn)
leaves the pool: torch sends it as usual and it is freed as usual. A pool holds at most
POOL_SIZE segments per process; past that, batches get fresh segments (torch's own behaviour)."""

from __future__ import annotations

import os
import weakref
from typing import Any, Callable

import numpy as np
import torch

#: bytes before a segment's samples: byte 0 is its state (a multiple of every sample size)
HEADER = 64
FREE, LENT, TAKEN = 0, 1, 2
#: segments kept per process (batches in flight per worker: DataLoader's prefetch_factor, the
#: one the main process holds, the pin-memory thread's)
POOL_SIZE = 8

# (pid, [(storage, header)]): the pool of this process (a forked child starts its own)
_pool: tuple[int, list[tuple[Any, Any]]] = (0, [])


def _this_pool() -> list[tuple[Any, Any]]:
    global _pool
    pid = os.getpid()
    if _pool[0] != pid:
        _pool = (pid, [])
    return _pool[1]


#: torch's allocation of a storage in shared memory (torch leaves it unannotated)
_new_shared: Callable[[int], Any] = torch.UntypedStorage._new_shared


def _strides(shape: tuple[int, ...]) -> tuple[int, ...]:
    """The strides of a C-contiguous tensor of `shape`, as torch gives them (a 0 side counts as 1)."""
    out, k = [], 1
    for n in reversed(shape):
        out.append(k)
        k *= max(n, 1)
    return tuple(reversed(out))


def _header(storage: Any) -> Any:
    return torch.empty(0, dtype=torch.uint8).set_(storage, 0, (HEADER,), (1,)).numpy()


class Segment:
    """A pooled shared segment of a batch tensor (what lend() needs to send it as Lent)."""

    __slots__ = ("storage", "header")

    def __init__(self, storage: Any, header: Any) -> None:
        self.storage, self.header = storage, header


def take(shape: tuple[int, ...], dtype: torch.dtype) -> tuple[Any, Segment]:
    """A tensor of shape and dtype in shared memory (a free segment of the pool, else a new
    one), and its segment."""
    n = int(np.prod(shape)) * dtype.itemsize
    pool = _this_pool()
    for k, (s, hdr) in enumerate(pool):
        if hdr[0] == FREE and s.nbytes() == HEADER + n:
            del pool[k]
            break
    else:
        s = _new_shared(HEADER + n)
        hdr = _header(s)
    hdr[0] = TAKEN  # the worker's own until lend() (or never: then it is not pooled again)
    t = torch.empty(0, dtype=dtype).set_(s, HEADER // dtype.itemsize, shape, _strides(shape))
    return t, Segment(s, hdr)


def lend(segments: list[Segment], fields: dict[str, Any]) -> dict[str, Any]:
    """fields with the tensors of `segments` as Lent carriers, those segments marked LENT and
    kept in this process's pool (up to POOL_SIZE)."""
    out = dict(fields)
    if not segments:
        return out
    by_ptr = {seg.storage.data_ptr(): seg for seg in segments}
    pool = _this_pool()
    pooled = {s.data_ptr() for s, _ in pool}
    for k, v in fields.items():
        if not isinstance(v, torch.Tensor):
            continue
        seg = by_ptr.get(v.untyped_storage().data_ptr())
        if seg is None or v.storage_offset() * v.element_size() != HEADER:
            continue
        seg.header[0] = LENT
        if len(pool) < POOL_SIZE and seg.storage.data_ptr() not in pooled:
            pool.append((seg.storage, seg.header))
            pooled.add(seg.storage.data_ptr())
        out[k] = Lent(v)
    return out


class Lent:
    """A worker's batch tensor in a pooled segment, as sent: it unpickles as a plain tensor
    whose release frees the segment for the worker's next batch."""

    __slots__ = ("tensor",)

    def __init__(self, tensor: Any) -> None:
        self.tensor = tensor

    def __reduce__(self) -> tuple[Any, tuple[Any]]:
        return (_rebuild, (self.tensor,))


class _Holder:
    """The received tensor, exposed to numpy by its address: the base of the array the user's
    tensor is made from, so that it lives exactly as long as the user's tensor's storage."""

    __slots__ = ("tensor", "__array_interface__", "__weakref__")

    def __init__(self, t: Any) -> None:
        self.tensor = t
        self.__array_interface__ = {"shape": (t.numel() * t.element_size(),), "typestr": "|u1",
                                    "data": (t.data_ptr(), False), "version": 3}


def _free(header: Any) -> None:
    header[0] = FREE


def _rebuild(t: Any) -> Any:
    """In the receiving process: t's samples as a tensor whose storage, once freed, marks t's
    segment FREE."""
    holder = _Holder(t)
    out = torch.from_numpy(np.asarray(holder)).view(t.dtype).view(t.shape)
    weakref.finalize(holder, _free, _header(t.untyped_storage()))
    return out
