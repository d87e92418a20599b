"""Open readers per process: a pool of rumi.Datasets opened from catalogue rows (their header
blobs: no request but the frames), the least recently used closed beyond a quarter of the
process's file-descriptor limit, each with a share of a decoded-frame budget; the thread pool
and per-host limits of concurrent reads. Shared by ChipDataset and rumi.torchgeo.

The budget: each reader gets an equal share (budget / min(open limit, files)) until the pool
learns which files a batch reads (`use`, called by ChipDataset for every batch). From then on,
the readers of the HOT_BATCHES latest batches share the whole budget between them; what they
cannot use (a reader holds at most its file's decoded frames) stays with the other readers, the
most recently used first, and the rest of them are emptied. A sampler that keeps a block of files
together (streams=) thus has its few files' frames cached whole. Under a full permutation, the
budget is spread over the batch's files, as before; a small collection that fits the budget
stays cached whole (emptying the files of older batches cost it 2.1x the frames decoded and 45 %
of its chips per CPU-second: issue 48).

A pool pickles as its settings: readers, threads and semaphores are per process (a forked
child, whose pid differs, opens its own)."""

from __future__ import annotations

import collections
import os
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Hashable
from urllib.parse import urlsplit

import torch

import rumi
from rumi import Location
from rumi._internal import Options, renew_after_fork
from rumi.catalog import open_row

#: the decoded-frame budget per process that ChipDataset's readers share by default (keep_cache)
DEFAULT_CACHE_BYTES = 512 << 20
#: the budget goes to the readers of this many latest batches (use): the one being read and those
#: read ahead of it (ChipDataset.loader reads 2 ahead) and behind it
HOT_BATCHES = 4


@dataclass(frozen=True)
class ReadOptions(Options):
    """How a ChipDataset reads its files, not which chips: its I/O settings as one frozen value
    (zarr-python's ArrayConfig is the model), given as `read_options=` or as the keywords of the
    same names (which then stay at their defaults); `ds.read_options` is what a dataset reads with.

    threads: decode threads per read. max_in_flight: concurrent reads per remote host (local
    files: at most one per CPU of the process's share). options: object-storage options (as
    rumi.open's). verify_size: check at open, in one stat or HEAD, that each file is the one
    catalogued (rumi.catalog.open_row; False: no request, the blob still checked by the first read).
    keep_cache: keep decoded frames between batches, within cache_bytes per process (None:
    DEFAULT_CACHE_BYTES, shared by the open readers); False: each batch starts empty.
    pin_memory: batch tensors in pinned memory (needs CUDA; pageable with a warning without)."""

    ARG: ClassVar[str] = "read_options"

    threads: int = 1
    max_in_flight: int = 16
    options: dict[str, Any] | None = None
    verify_size: bool = True
    keep_cache: bool = True
    cache_bytes: int | None = None
    pin_memory: bool = False

    def __post_init__(self) -> None:
        # the types ChipDataset has always kept them in (int(...) raises as it did)
        set_ = object.__setattr__
        set_(self, "threads", int(self.threads))
        set_(self, "max_in_flight", int(self.max_in_flight))
        set_(self, "keep_cache", bool(self.keep_cache))
        set_(self, "cache_bytes", DEFAULT_CACHE_BYTES if self.cache_bytes is None else int(self.cache_bytes))
        set_(self, "pin_memory", bool(self.pin_memory))


def decoded_bytes(r: rumi.Dataset) -> int:
    """Bytes of every decoded frame of r (its frames cover its samples once, edge tiles cut):
    the most its decoded-frame cache can hold."""
    t, b, y, x = r.shape
    return t * b * y * x * r.sample_bytes


def host(href: str) -> str:
    """The host of a remote location ("" for a local file): reads are limited per host."""
    loc = Location.parse(href)
    return urlsplit(loc.text).netloc if loc.is_remote else ""


def max_open() -> int:
    """Readers kept open per process: a quarter of its file-descriptor limit (the rest for
    DataLoader's pipes, GDAL and the user's own files), 64 to 4096 (256 under Linux's usual
    1024). Reopening a file costs a catalogue row and an open (measured on 600 files: +13 %
    samples per CPU-second with all kept open)."""
    try:
        import resource

        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        soft = 1 << 16 if soft == resource.RLIM_INFINITY else soft
    except (ImportError, OSError, ValueError):
        soft = 1024
    return max(64, min(4096, soft // 4))


def local_share(n: int) -> int:
    """At most n, and at most this process's share of the CPUs (DataLoader workers split
    them): concurrent reads of local files, which only decode."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    info = torch.utils.data.get_worker_info()
    return max(1, min(n, cpus // (info.num_workers if info is not None else 1)))


class ReaderPool:
    """Open readers by key, per process. files: how many files the keys can name (with
    cache_bytes, each reader's cache share); cache_bytes None leaves each reader its own
    default cache. max_in_flight: concurrent reads per remote host."""

    def __init__(self, *, files: int, options: dict[str, Any] | None = None, verify_size: bool = True, threads: int = 1,
                 cache_bytes: int | None = None, max_in_flight: int = 16) -> None:
        self.files = files
        self.options = options
        self.verify_size = verify_size
        self.threads = threads
        self.cache_bytes = cache_bytes
        self.max_in_flight = max_in_flight
        self._reset()

    def _reset(self) -> None:
        self._lock = threading.Lock()
        renew_after_fork(self, "_lock")
        self._readers: collections.OrderedDict[Hashable, rumi.Dataset] = collections.OrderedDict()
        self._pid: int | None = None
        self._pool: ThreadPoolExecutor | None = None
        self._sems: dict[str, threading.Semaphore] = {}
        self._max_open: int | None = None
        self._hot: dict[Hashable, None] = {}  # the readers of the latest batches (use)
        self._recent: collections.deque[list[Hashable]] = collections.deque(maxlen=HOT_BATCHES - 1)
        self._share: int | None = None
        self._gave: dict[int, int] = {}  # id of an open reader -> the cache bytes it was given
        self._need: dict[Hashable, int] = {}  # key of an open reader -> its file's decoded bytes (all frames)
        self._opening: dict[Hashable, Future[rumi.Dataset]] = {}  # keys being opened by a thread

    def __getstate__(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in ("files", "options", "verify_size", "threads", "cache_bytes", "max_in_flight")}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._reset()

    def _this_process(self) -> None:
        """Called under the lock: a forked child drops its parent's readers and threads."""
        pid = os.getpid()
        if self._pid != pid:
            self._readers = collections.OrderedDict()
            self._pool = None
            self._sems = {}
            self._hot, self._share, self._gave, self._need = {}, None, {}, {}
            self._opening = {}
            self._recent = collections.deque(maxlen=HOT_BATCHES - 1)
            self._pid = pid

    def reader(self, key: Hashable, row: Callable[[], dict[str, Any]]) -> rumi.Dataset:
        """The open reader of key, opened from the catalogue row row() when it is not open (once
        per process: a thread that asks while another opens it waits for that open, so a file is
        stat'ed once, not once per read-ahead batch that needs it)."""
        with self._lock:
            self._this_process()
            r = self._readers.get(key)
            if r is not None:
                self._readers.move_to_end(key)
                return r
            opening = self._opening.get(key)
            if opening is None:
                entry = row()  # (an error here leaves nothing behind)
                opening = self._opening[key] = Future()
            else:
                entry = None
        if entry is None:  # another thread opens it: its reader (or its error)
            got: rumi.Dataset = opening.result()
            return got
        # opened outside the lock: files of a batch open (and size-check) concurrently
        try:
            r = open_row(entry, options=self.options, verify_size=self.verify_size, threads=self.threads)
            if self.cache_bytes is not None:
                self._give(r, self._share if self._share is not None and key in self._hot else self.cache_share())
        except BaseException as e:
            with self._lock:
                self._opening.pop(key, None)
            opening.set_exception(e)
            raise
        with self._lock:
            self._readers[key] = r
            self._need[key] = decoded_bytes(r)
            self._opening.pop(key, None)
            opening.set_result(r)
            while len(self._readers) > self.max_open():
                k, old = self._readers.popitem(last=False)  # the least recently used reader and its cache
                self._gave.pop(id(old), None)
                self._need.pop(k, None)
            return r

    def max_open(self) -> int:
        """Readers kept open in this process (see the module function max_open)."""
        if self._max_open is None:
            self._max_open = max_open()
        return self._max_open

    def cache_share(self) -> int:
        """Each open reader's share of the process's decoded-frame budget cache_bytes (at most
        max_open() readers are open, so the process never holds more than cache_bytes)."""
        return (self.cache_bytes or 0) // max(1, min(self.max_open(), self.files))

    def use(self, keys: Any) -> None:
        """The readers (keys) a batch reads: they and those of the HOT_BATCHES - 1 batches before
        share the decoded-frame budget equally; the other open readers, most recently used first,
        keep their frames in what the budget has left beyond the hot readers' files, and the rest
        are emptied (see the module's notes)."""
        if self.cache_bytes is None:
            return
        keys = list(dict.fromkeys(keys))
        with self._lock:
            self._this_process()
            hot = dict.fromkeys(keys + [k for b in reversed(self._recent) for k in b])
            self._recent.append(keys)
            share = self.cache_bytes // max(1, len(hot))
            first = self._share is None
            # bytes the hot readers can hold: their share, or their whole file's frames when less
            left = self.cache_bytes - sum(min(share, self._need.get(k, share)) for k in hot)
            for k, r in reversed(self._readers.items()):  # the most recently used first
                if k in hot:
                    mine = min(share, self._need[k])  # (a steady value: no call per batch)
                    if first or mine != self._gave.get(id(r)):
                        self._give(r, mine)
                    continue
                keep = min(self._gave.get(id(r), 0), self._need[k])  # at most what it can hold
                if keep <= left:  # its frames stay while the budget has room for them
                    left -= keep
                    if keep != self._gave.get(id(r)):
                        self._give(r, keep)
                elif self._gave.get(id(r)) != 0:
                    self._give(r, 0)
            self._hot, self._share = hot, share

    def drop_caches(self, readers: Any) -> None:
        """Empties the decoded-frame caches of readers (a batch served by no earlier one)."""
        for r in readers:
            r.set_cache_bytes(0)
            r.set_cache_bytes(self._gave.get(id(r), self.cache_share()))

    def _give(self, r: rumi.Dataset, n: int) -> None:
        r.set_cache_bytes(n)
        self._gave[id(r)] = n

    def executor(self) -> ThreadPoolExecutor:
        """This process's thread pool for reads of several files at once."""
        with self._lock:
            self._this_process()
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max_workers=max(1, self.max_in_flight))
            return self._pool

    def semaphore(self, host: str) -> threading.Semaphore:
        """The limit of concurrent reads from host in this process."""
        with self._lock:
            self._this_process()
            s = self._sems.get(host)
            if s is None:
                s = self._sems[host] = threading.Semaphore(self.in_flight(host))
            return s

    def in_flight(self, host: str) -> int:
        """Concurrent reads for `host`: `max_in_flight` for remote hosts (the reads wait on the
        network); for local files, which only decode, at most this process's share of the CPUs,
        since more threads than cores only add switching (measured: 2 workers x 16 reads on 2
        cores ran at 0.75x of 2 x 1)."""
        n = max(1, self.max_in_flight)
        return n if host else local_share(n)
