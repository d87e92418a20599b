"""PyTorch chips from a rumi catalogue (issue 16).

    cat = rumi.Catalog.open("catalog.parquet").search(time=("2020-01-01", "2020-12-31"))
    ds = rumi.torch.ChipDataset(cat, size=256, bands=["red", "green", "blue"])
    loader = ds.loader(RandomChipSampler(ds, length=10_000, seed=0), batch_size=16)  # 2 batches read ahead
    for batch in loader:
        batch["image"]   # (N, T, B, 256, 256) tensor of the files' exact sample type
        batch["bounds"]  # N x (left, bottom, right, top) in each file's CRS; batch["crs"]: N x "EPSG:n"
        batch["time"]    # N x datetime64[s] arrays of the chip's time steps
        batch["stats"]   # requests, frames, bytes_fetched, bytes_needed, decode_s, wait_s

A sample's key is (row, row_off, col_off): row of the catalogue, pixel offset of the chip. A
batch is read by `__getitems__` (DataLoader's batched fetch): the chips are grouped by file,
each file's chips read one after another through one reader (its decoded-frame cache serves
the frames chips share: each frame is fetched and decoded once per batch), files in parallel on
a thread pool with at most `max_in_flight` reads per host, every chip decoded straight into its
slot of the batch tensor. Files are opened from the catalogued header blob: nothing but frames
is requested, and a file whose size changed since cataloguing raises FormatError.

`ds.loader(sampler, batch_size, num_workers=0)` reads `read_ahead` batches ahead on threads
(the reads release the GIL), so round trips overlap decoding without worker processes.

Pickling (DataLoader workers under spawn/forkserver) carries the catalogue's path and search,
not its rows; readers are opened per process (a forked child reopens its own).
"""

from __future__ import annotations

import collections
import math
import os
import threading
import time as _time
import warnings
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

from typing import Any, Iterable, Iterator, Sequence

import numpy as np

try:
    import torch
except ImportError as e:  # the first thing a new user types must say what to do
    raise ImportError(f"rumi.torch needs PyTorch ({e}): pip install torch (or pip install 'rumi[torch]')") from e

import rumi
from rumi import RequestError, Window
from rumi._dtypes import TORCH_TYPES as _TORCH_OK
from rumi.catalog import Catalog, norm_time, open_row, time_indices, time_seconds

__all__ = ["ChipDataset", "RandomChipSampler", "GridChipSampler", "TileChipSampler", "collate"]


def _host(href: str) -> str:
    if href.startswith(("http://", "https://", "s3://")):
        return urlsplit(href).netloc
    return ""


class ChipDataset(torch.utils.data.Dataset):
    """Square chips of `size` pixels from the files of a catalogue.

    bands: band texts (default: every band of the first file; every file must hold them).
    time: an instant or (start, end): the time steps read (every file must have the same count).
    crs: keep only the files in this CRS. Files smaller than size are left out (warned).
    threads: decode threads per read; max_in_flight: concurrent reads per remote host (default
    16, a batch's worth: a batch of chips from different remote files costs one round trip);
    local files are read at most one per CPU of the process's share (DataLoader workers split
    the CPUs), and never more than max_in_flight.
    pin_memory: allocate batch tensors in pinned memory (needs CUDA; ignored with a warning).
    keep_cache: keep decoded frames between batches (default: each batch starts with an empty
    cache, so frames are deduplicated inside a batch and nothing is served by an earlier one)."""

    def __init__(
        self,
        catalog: Catalog | str | os.PathLike[str],
        size: int | tuple[int, int] = 256,
        bands: Sequence[str] | None = None,
        time: Any = None,
        crs: str | int | None = None,
        *,
        threads: int = 1,
        max_in_flight: int = 16,
        pin_memory: bool = False,
        options: dict[str, Any] | None = None,
        verify_size: bool = True,
        keep_cache: bool = False,
    ) -> None:
        if isinstance(catalog, (str, os.PathLike)):
            catalog = Catalog.open(catalog)
        if crs is not None:
            code = crs if isinstance(crs, str) else f"EPSG:{int(crs)}"
            catalog = catalog.filter_crs(code)
        self.catalog = catalog
        self.size = (int(size), int(size)) if np.isscalar(size) else tuple(int(v) for v in size)
        self.bands = list(bands) if bands is not None else None
        self.time = time
        self.crs = crs
        self.threads = int(threads)
        self.max_in_flight = int(max_in_flight)
        self.pin_memory = bool(pin_memory)
        self.options = options
        self.verify_size = verify_size
        self.keep_cache = bool(keep_cache)
        self._plan()
        self._readers = {}
        self._pid = None
        self._lock = threading.Lock()

    # -- layout of the rows -------------------------------------------------------------------
    def _plan(self):
        t = self.catalog.table
        n = t.num_rows
        if n == 0:
            raise RequestError("the catalogue selection is empty: no chips")
        shapes = t.column("rumi:shape").to_pylist()
        bands = t.column("rumi:bands").to_pylist()
        times = time_seconds(t)
        ends = time_seconds(t, "rumi:time_ends")
        dtypes = t.column("rumi:dtype").to_pylist()
        h, w = self.size
        keep, small = [], 0
        names = self.bands if self.bands is not None else bands[0]
        window = norm_time(self.time)
        self.band_idx, self.time_idx = [], []
        for i in range(n):
            T, B, Y, X = shapes[i]
            if Y < h or X < w:
                small += 1
                continue
            try:
                bi = [bands[i].index(b) for b in names]
            except ValueError:
                raise RequestError(f"row {i} ({t.column('id')[i]}) lacks some of the bands {names}") from None
            ti = list(range(T)) if window is None else time_indices(times[i], ends[i], window)
            if not ti:
                continue  # no time step in the window: not part of this dataset
            keep.append(i)
            self.band_idx.append(bi)
            self.time_idx.append(ti)
        if small:
            warnings.warn(f"rumi.torch: {small} files smaller than {h}x{w} pixels are left out", RuntimeWarning, stacklevel=3)
        if not keep and small:
            raise RequestError(f"no file of the selection holds a {h}x{w} chip")
        tcounts = {len(x) for x in self.time_idx}
        if not keep:
            raise RequestError(f"no file of the selection has a time step in {self.time}")
        if len(tcounts) != 1:
            raise RequestError(f"the files have different numbers of time steps in the time selection ({sorted(tcounts)}); narrow time=")
        kd = {dtypes[i] for i in keep}
        if len(kd) != 1:
            raise RequestError(f"the files have different sample types {sorted(kd)}: one ChipDataset per type")
        self.encoding = kd.pop()
        if self.encoding not in _TORCH_OK:
            raise RequestError(f"{self.encoding} samples have no torch dtype")
        self.rows = keep  # dataset row j -> catalogue row
        self.shapes = [shapes[i] for i in keep]
        tiles, trs = t.column("rumi:tile_shape").to_pylist(), t.column("proj:transform").to_pylist()
        codes, hrefs = t.column("proj:code").to_pylist(), t.column("location").to_pylist()
        self.tiles = [tuple(tiles[i]) for i in keep]
        self.transforms = [trs[i] for i in keep]
        self.codes = [codes[i] for i in keep]
        self.hrefs = [hrefs[i] for i in keep]
        self.times = [
            np.array([times[i][k] for k in ti], dtype="int64").astype("datetime64[s]")
            for i, ti in zip(keep, self.time_idx)
        ]
        self.T, self.B = len(self.time_idx[0]), len(names)

    def __len__(self) -> int:
        """Number of files (samplers choose the chips)."""
        return len(self.rows)

    # -- pickling: catalogue path + query, no rows or readers ------------------------------
    def __getstate__(self):
        d = dict(self.__dict__)
        for k in ("_readers", "_lock", "_pid", "_pool", "_sems", "band_idx", "time_idx", "rows", "shapes", "tiles", "transforms",
                  "codes", "hrefs", "times", "encoding", "T", "B"):
            d.pop(k, None)
        return d

    def __setstate__(self, d):
        self.__dict__.update(d)
        self._plan()
        self._readers = {}
        self._pid = None
        self._lock = threading.Lock()

    # -- readers ------------------------------------------------------------------------
    def _reader(self, j):
        pid = os.getpid()
        with self._lock:
            if self._pid != pid:
                self._readers = {}  # a forked child: open its own (Dataset keeps inherited ones)
                self._pool = None
                self._sems = {}
                self._pid = pid
            r = self._readers.get(j)
            if r is not None:
                return r
            row = self.catalog.row(self.rows[j])
        # opened outside the lock: files of a batch open (and size-check) concurrently
        r = open_row(row, options=self.options, verify_size=self.verify_size, threads=self.threads)
        r.set_cache_bytes(self._cache_budget(r))
        with self._lock:
            return self._readers.setdefault(j, r)

    def _cache_budget(self, r: rumi.Dataset) -> int:
        """Room for the frames of a batch's chips: chips that share frames decode them once."""
        h, w = self.size
        return max(64 << 20, 2 * r.sample_bytes * self.T * self.B * (h + 512) * (w + 512))

    def _executor(self):
        with self._lock:
            if getattr(self, "_pool", None) is None or self._pid != os.getpid():
                self._pool = ThreadPoolExecutor(max_workers=max(1, self.max_in_flight))
                self._sems = {}
            return self._pool

    def _sem(self, host):
        with self._lock:
            s = self._sems.get(host)
            if s is None:
                s = self._sems[host] = threading.Semaphore(self._in_flight(host))
            return s

    def _in_flight(self, host):
        """Concurrent reads for `host`: `max_in_flight` for remote hosts (the reads wait on the
        network); for local files, which only decode, at most this process's share of the CPUs
        (DataLoader workers split them), since more threads than cores only add switching
        (measured: 2 workers x 16 reads on 2 cores ran at 0.75x of 2 x 1)."""
        n = max(1, self.max_in_flight)
        if host:
            return n
        try:
            cpus = len(os.sched_getaffinity(0))
        except (AttributeError, OSError):
            cpus = os.cpu_count() or 1
        info = torch.utils.data.get_worker_info()
        return max(1, min(n, cpus // (info.num_workers if info is not None else 1)))

    # -- samples ------------------------------------------------------------------------
    def bounds(self, j: int, r0: int, c0: int) -> tuple[float, float, float, float]:
        """(left, bottom, right, top) of the chip at (r0, c0) of file j, in its CRS."""
        x0, xres, rrot, y0, crot, yres = (self.transforms[j][k] for k in (2, 0, 1, 5, 3, 4))
        h, w = self.size
        xs = [x0 + c * xres + r * rrot for r, c in ((r0, c0), (r0 + h, c0 + w))]
        ys = [y0 + c * crot + r * yres for r, c in ((r0, c0), (r0 + h, c0 + w))]
        return (min(xs), min(ys), max(xs), max(ys))

    def _check(self, key):
        try:
            j, r0, c0 = (int(v) for v in key)
        except TypeError:
            raise TypeError(
                f"a ChipDataset sample is a (file, row_off, col_off) key, not {key!r}: DataLoader's own samplers "
                "(shuffle=True, or none) give int indices. Pass a chip sampler, "
                "DataLoader(ds, batch_size=16, sampler=rumi.torch.RandomChipSampler(ds, length=10_000)) "
                "(or GridChipSampler, TileChipSampler; without shuffle=), or use "
                "ds.loader(rumi.torch.RandomChipSampler(ds, length=10_000), batch_size=16)"
            ) from None
        except ValueError:
            raise ValueError(f"a ChipDataset sample is a (file, row_off, col_off) key, not {key!r}") from None
        if not 0 <= j < len(self.rows):
            raise IndexError(f"file {j} is outside 0..{len(self.rows) - 1}")
        _, _, Y, X = self.shapes[j]
        h, w = self.size
        if not (0 <= r0 <= Y - h and 0 <= c0 <= X - w):
            raise IndexError(f"chip at ({r0}, {c0}) of {h}x{w} is outside file {j} ({Y}x{X})")
        return j, r0, c0

    def __getitem__(self, key: tuple[int, int, int]) -> dict[str, Any]:
        b = self.__getitems__([key])
        return {"image": b["image"][0], "bounds": b["bounds"][0], "crs": b["crs"][0], "time": b["time"][0],
                "stats": b["stats"]}

    def _alloc(self, n):
        h, w = self.size
        shape = (n, self.T, self.B, h, w)
        pin = self.pin_memory
        if pin and not torch.cuda.is_available():
            warnings.warn("rumi.torch: pin_memory needs CUDA; allocating pageable memory", RuntimeWarning, stacklevel=3)
            self.pin_memory = pin = False
        if self.encoding in ("uint16", "uint32", "uint64") and not hasattr(torch, self.encoding):  # pragma: no cover
            raise RequestError(f"this torch has no {self.encoding}")
        tdt = getattr(torch, self.encoding) if self.encoding != "bool" else torch.bool
        if torch.utils.data.get_worker_info() is not None and not pin:
            # in a DataLoader worker the batch goes to the main process through shared memory:
            # decode straight into a shared tensor (as default_collate does), not into one
            # that the worker's queue then copies there
            n = math.prod(shape) * torch.empty(0, dtype=tdt).element_size()
            return torch.empty(0, dtype=tdt).set_(torch.UntypedStorage._new_shared(n), 0, shape)
        return torch.empty(shape, dtype=tdt, pin_memory=pin)

    def __getitems__(self, keys: Sequence[tuple[int, int, int]]) -> dict[str, Any]:
        t_start = _time.perf_counter()
        keys = [self._check(k) for k in keys]
        out = self._alloc(len(keys))
        # a uint8 view of the tensor's memory (no copy) that numpy/the reader write into
        flat = out.view(torch.uint8).numpy() if out.dtype != torch.bool else out.view(torch.uint8).numpy()
        per = flat.reshape(len(keys), -1)
        groups = {}
        for i, (j, r0, c0) in enumerate(keys):
            groups.setdefault(j, []).append((i, r0, c0))
        h, w = self.size
        stats = {"chips": len(keys), "files": len(groups), "requests": 0, "frames": 0, "decoded": 0, "cache_hits": 0,
                 "bytes_fetched": 0, "bytes_needed": int(flat.nbytes), "decode_s": 0.0, "wait_s": 0.0}
        slock = threading.Lock()

        def run(j, items):
            r = self._reader(j)
            sem = self._sem(_host(self.hrefs[j]))
            ts, bs = self.time_idx[j], self.band_idx[j]
            if not self.keep_cache:  # frames shared inside this batch only: no batch is served by an earlier one
                r.set_cache_bytes(0)
                r.set_cache_bytes(self._cache_budget(r))
            for i, r0, c0 in sorted(items, key=lambda x: (x[1], x[2])):
                tw = _time.perf_counter()
                with sem:
                    t0 = _time.perf_counter()
                    st = r.read_into(memoryview(per[i]), ts, bs, Window(c0, r0, w, h), threads=self.threads)
                    t1 = _time.perf_counter()
                with slock:
                    stats["requests"] += int(st["batches"])
                    stats["frames"] += int(st["frames"])
                    stats["decoded"] += int(st["decoded"])
                    stats["cache_hits"] += int(st["cache_hits"])
                    stats["bytes_fetched"] += int(st["bytes_fetched"])
                    stats["decode_s"] += t1 - t0
                    stats["wait_s"] += t0 - tw

        if len(groups) == 1 or max(self._in_flight(h) for h in {_host(self.hrefs[j]) for j in groups}) <= 1:
            for j, items in groups.items():
                run(j, items)
        else:
            pool = self._executor()
            futs = [pool.submit(run, j, items) for j, items in groups.items()]
            for f in futs:
                f.result()
        stats["batch_s"] = _time.perf_counter() - t_start
        return _Batch(
            image=out,
            bounds=[self.bounds(j, r0, c0) for j, r0, c0 in keys],
            crs=[self.codes[j] for j, _, _ in keys],
            time=[self.times[j] for j, _, _ in keys],
            key=keys,
            stats=stats,
        )

    def loader(
        self, sampler: Iterable[tuple[int, int, int]], batch_size: int = 16, *, read_ahead: int = 2, **kw: Any
    ) -> torch.utils.data.DataLoader[Any]:
        """A DataLoader of batches of sampler's chips (collate_fn=rumi.torch.collate).

        With num_workers=0 (DataLoader's default) the batches are read `read_ahead` batches
        ahead of the one being used, on background threads (the reads release the GIL): one
        batch's wait on the network overlaps the others' decoding, as DataLoader workers'
        prefetching would, without worker processes. The batches come in the sampler's order,
        and a read's error is raised when its batch is reached. read_ahead=0: read each batch
        when it is asked for. DataLoader workers (num_workers > 0) prefetch as DataLoader does."""
        return _ReadAheadLoader(self, batch_size=batch_size, sampler=sampler, collate_fn=collate,
                                read_ahead=read_ahead, **kw)


class _ReadAheadLoader(torch.utils.data.DataLoader):
    """DataLoader whose in-process iteration (num_workers=0) reads batches ahead on threads
    (ChipDataset.loader)."""

    def __init__(self, dataset, *, read_ahead=2, **kw):
        if isinstance(read_ahead, bool) or not isinstance(read_ahead, int) or read_ahead < 0:
            raise ValueError(f"read_ahead must be an integer >= 0 (batches), not {read_ahead!r}")
        super().__init__(dataset, **kw)
        self.read_ahead = read_ahead

    def __iter__(self):
        if self.num_workers > 0 or self.read_ahead == 0 or self.batch_sampler is None or self.pin_memory:
            return super().__iter__()
        return self._read_ahead()

    def _read_ahead(self):
        ds, collate_fn = self.dataset, self.collate_fn
        pending = collections.deque()
        ex = ThreadPoolExecutor(max_workers=self.read_ahead + 1, thread_name_prefix="rumi-read-ahead")
        ahead = 0  # the first batch is read alone: it comes as soon as without read-ahead
        try:
            for keys in self.batch_sampler:
                pending.append(ex.submit(ds.__getitems__, list(keys)))
                if len(pending) > ahead:
                    yield collate_fn(pending.popleft().result())
                    ahead = self.read_ahead
            while pending:
                yield collate_fn(pending.popleft().result())
        finally:
            # the consumer stopped early or a read failed: drop what has not started
            ex.shutdown(wait=False, cancel_futures=True)


class _Batch(dict):
    """A batch already collated by ChipDataset.__getitems__."""


def collate(batch: Any) -> Any:
    """collate_fn for ChipDataset: the batch __getitems__ built; per-sample dicts (from
    __getitem__ without __getitems__) are stacked."""
    if isinstance(batch, _Batch):
        return dict(batch)
    if isinstance(batch, list) and batch and isinstance(batch[0], dict):
        return {
            "image": torch.stack([b["image"] for b in batch]),
            "bounds": [b["bounds"] for b in batch],
            "crs": [b["crs"] for b in batch],
            "time": [b["time"] for b in batch],
        }
    return torch.utils.data.default_collate(batch)


# --- samplers ---------------------------------------------------------------------------------


def _dist(rank, world):
    if rank is None or world is None:
        d = torch.distributed
        if d.is_available() and d.is_initialized():
            rank = d.get_rank() if rank is None else rank
            world = d.get_world_size() if world is None else world
        else:
            rank, world = rank or 0, world or 1
    if not 0 <= rank < world:
        raise ValueError(f"rank {rank} is outside 0..{world - 1}")
    return rank, world


class _Sampler(torch.utils.data.Sampler):
    def __init__(self, dataset: ChipDataset, rank: int | None = None, world_size: int | None = None) -> None:
        self.ds = dataset
        self.rank, self.world = _dist(rank, world_size)
        self.epoch = 0

    def set_epoch(self, epoch: int) -> None:
        self.epoch = int(epoch)

    def _all(self):  # pragma: no cover - abstract
        raise NotImplementedError

    def _keys(self):
        keys = self._all()
        # equal share per rank (the tail that does not divide is dropped), no key on two ranks
        n = len(keys) // self.world * self.world
        return keys[self.rank:n:self.world]

    def __iter__(self) -> Iterator[tuple[int, int, int]]:
        return iter(self._keys())

    def __len__(self) -> int:
        return len(self._all()) // self.world


class RandomChipSampler(_Sampler):
    """length chips at random positions: a file drawn with probability proportional to its
    area, then a uniform offset. Deterministic for a seed (and epoch, see set_epoch)."""

    def __init__(
        self, dataset: ChipDataset, length: int, seed: int = 0, rank: int | None = None, world_size: int | None = None
    ) -> None:
        super().__init__(dataset, rank, world_size)
        self.length = int(length)
        self.seed = int(seed)

    def _all(self):
        rng = np.random.default_rng([self.seed, self.epoch])
        h, w = self.ds.size
        area = np.array([(s[2] - h + 1) * (s[3] - w + 1) for s in self.ds.shapes], dtype=float)
        js = rng.choice(len(area), size=self.length, p=area / area.sum())
        ys = rng.random(self.length)
        xs = rng.random(self.length)
        out = []
        for j, fy, fx in zip(js, ys, xs):
            Y, X = self.ds.shapes[j][2], self.ds.shapes[j][3]
            out.append((int(j), int(fy * (Y - h + 1)), int(fx * (X - w + 1))))
        return out


class GridChipSampler(_Sampler):
    """Every chip of a grid of stride pixels (default: the chip size) over each file, the last
    row and column moved in to end at the file's edge."""

    def __init__(
        self,
        dataset: ChipDataset,
        stride: int | tuple[int, int] | None = None,
        rank: int | None = None,
        world_size: int | None = None,
    ) -> None:
        super().__init__(dataset, rank, world_size)
        h, w = dataset.size
        self.stride = (h, w) if stride is None else ((int(stride),) * 2 if np.isscalar(stride) else tuple(stride))

    def _all(self):
        h, w = self.ds.size
        sy, sx = self.stride
        out = []
        for j, (_, _, Y, X) in enumerate(self.ds.shapes):
            ys = sorted(set(list(range(0, Y - h + 1, sy)) + [Y - h]))
            xs = sorted(set(list(range(0, X - w + 1, sx)) + [X - w]))
            out += [(j, y, x) for y in ys for x in xs]
        return out


class TileChipSampler(_Sampler):
    """Chips aligned with the files' tiles: every position on the tile grid where a chip fits
    whole (a chip of the tile size then reads exactly one frame: one request). shuffle with a
    seed for a random order."""

    def __init__(
        self, dataset: ChipDataset, shuffle: bool = False, seed: int = 0, rank: int | None = None,
        world_size: int | None = None,
    ) -> None:
        super().__init__(dataset, rank, world_size)
        self.shuffle = shuffle
        self.seed = int(seed)

    def _all(self):
        h, w = self.ds.size
        out = []
        for j, (_, _, Y, X) in enumerate(self.ds.shapes):
            th, tw = self.ds.tiles[j]
            sy = th * max(1, math.ceil(h / th))
            sx = tw * max(1, math.ceil(w / tw))
            out += [(j, y, x) for y in range(0, Y - h + 1, min(sy, th) if h <= th else sy)
                    for x in range(0, X - w + 1, min(sx, tw) if w <= tw else sx)]
        if self.shuffle:
            rng = np.random.default_rng([self.seed, self.epoch])
            out = [out[i] for i in rng.permutation(len(out))]
        return out
