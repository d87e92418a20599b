"""ChipDataset: chips of a catalogue's files read a batch at a time (see rumi.torch).

A batch's chips are grouped by file, each file's chips read one after another through one
reader (its decoded-frame cache serves the frames chips share), files in parallel on a thread
pool with at most `max_in_flight` reads per host (local files: one native read_batch call),
every chip decoded straight into its slot of the batch tensor; labels beside them on each
chip's pixel grid (rumi.torch.labels)."""

from __future__ import annotations

import collections.abc
import dataclasses
import math
import os
import threading
import time as _time
import warnings
from typing import Any, Callable, Iterable, Sequence

import numpy as np
import torch

from rumi import RequestError, Window
from rumi._internal import _rumi, apply_scaling, read_batch, valid_mask
from rumi.catalog import Catalog

from . import constraints, shared
from .dtypes import Array, as_torch_dtype, cast_check, torch_dtype
from .index import ChipIndex, IndexSpec, Sharding, as_catalog
from .labels import LabelIndex, LabelMatch, read_label
from .loader import ReadAheadLoader, Samples, collate, gpu_defaults
from .readers import ReaderPool, ReadOptions, host
from .samplers import Key
from .streams import place

#: what to type instead of DataLoader(ds) / DataLoader(ds, shuffle=True) (both run as written)
USE_A_SAMPLER = (
    "Pass a chip sampler: DataLoader(ds, batch_size=16, sampler=rumi.torch.RandomChipSampler(ds, length=10_000)) "
    "(or GridChipSampler, TileChipSampler; without shuffle=; torch's default collate_fn gives the batch dict), or use "
    "ds.loader(rumi.torch.RandomChipSampler(ds, length=10_000), batch_size=16) (batches read ahead on threads)")

#: one chip of a batch to read: (position in the batch, row_off, col_off)
ImageItem = tuple[int, int, int]
#: one label chip: (position in the batch, row_off, col_off, the label file's match)
LabelItem = tuple[int, int, int, LabelMatch]


class ReadStats:
    """A batch's "stats", summed over its reads (from several threads)."""

    def __init__(self, chips: int, needed: int) -> None:
        self.fields: dict[str, Any] = {
            "chips": chips, "files": 0, "requests": 0, "frames": 0, "decoded": 0, "cache_hits": 0,
            "bytes_fetched": 0, "bytes_needed": needed, "decode_s": 0.0, "wait_s": 0.0}
        self._lock = threading.Lock()

    def add(self, st: dict[str, int], t0: float, t1: float, waited_from: float) -> None:
        """A read's planner statistics; it ran from t0 to t1 after waiting since waited_from."""
        f = self.fields
        with self._lock:
            f["requests"] += int(st["batches"])
            f["frames"] += int(st["frames"])
            f["decoded"] += int(st["decoded"])
            f["cache_hits"] += int(st["cache_hits"])
            f["bytes_fetched"] += int(st["bytes_fetched"])
            f["decode_s"] += t1 - t0
            f["wait_s"] += t0 - waited_from


def _pair(size: int | Sequence[int]) -> tuple[int, int]:
    """(h, w) of an int or a pair."""
    if np.ndim(size) == 0:
        return (int(size), int(size))  # type: ignore[arg-type]
    h, w = size  # type: ignore[misc]
    return (int(h), int(w))


def _column(name: str, doc: str) -> Any:
    return property(lambda self: getattr(self.index, name), doc=doc)


def _read_option(name: str) -> Any:
    """The dataset's attribute `name`: its read_options' field (set: a new read_options)."""

    def set_(self: ChipDataset, value: Any) -> None:
        self.read_options = dataclasses.replace(self.read_options, **{name: value})

    return property(lambda self: getattr(self.read_options, name), set_, doc=f"read_options.{name} (rumi.torch.ReadOptions)")


def _label_column(name: str, doc: str) -> Any:
    def get(self: ChipDataset) -> Any:
        if self.index.label is None:
            raise AttributeError(f"{name}: the dataset has no labels")
        return getattr(self.index.label, name)

    return property(get, doc=doc)


class ChipDataset(torch.utils.data.Dataset[collections.abc.MutableMapping[str, Any]]):
    """Square chips of `size` pixels from the files of a catalogue.

    bands: band texts (default: every band of the first file; every file must hold them).
    time: an instant or (start, end), ends included, a date covering its whole day (as STAC
    searches): the time steps read; files may have different numbers of them (batches are
    padded, `time_mask`). max_steps: at most k steps per chip, the newest
    (time_steps="newest") or k random ones, seeded per chip and `seed` (time_steps="random").
    align_time: every file must have the same time coordinates in `time` (an error otherwise).
    crs: keep only the files in this CRS. Files smaller than size are left out (warned).
    labels: label rasters (a catalogue, its path, a rumi file or Dataset) of any sample type,
    read beside each chip as "mask" on the chip's pixel grid; label_bands: their band texts
    (default: every band of the first label file); on_missing: "skip" (samplers draw only chips
    that one label file covers) or "raise" (a chip without labels is an error when read).
    Labels with one time step are static (Tl = 1); labels with several are matched to each
    chip's image time steps by time coordinate (a missing step is an error at construction).
    return_valid: add "valid", True where a sample is not its band's nodata.
    nodata: a number for every band, or one per band of `bands` (None: that band has none); it
    replaces the catalogue's rumi:nodata for every file (return_valid tests the samples against
    it; min_valid needs the catalogue's valid summary recorded for the same values, see
    Catalog.build(nodata=)). Without it, a file with no rumi:nodata is an error for
    return_valid and min_valid (nothing says which samples are nodata).
    dtype: the torch dtype of "image" (default: the files' own, e.g. torch.uint16, which has few
    torch kernels); the chips are decoded in the files' type, then converted once per batch.
    Integer dtypes must hold every value of the files' type (no wraparound) and floating files
    take only floating dtypes (no truncation); a floating dtype rounds as any float cast does.
    label_dtype: the same for "mask" (e.g. torch.int64 for CrossEntropyLoss).
    apply_scale: False (default): "image" holds the files' raw samples, as stored. True: their
    values, raw * scale + offset per band and file (the catalogue's rumi:scales / rumi:offsets,
    from each file's .aux.xml sidecar), computed in float64 and given as `dtype` (a floating
    type; default torch.float32); a sample that is its band's nodata (nodata=, else the
    catalogue's) is NaN, as rioxarray's mask_and_scale gives it; padding steps stay zero.
    A selection whose files give one band different scales or offsets is refused without it
    (their raw samples mean different things), and so is one whose files give a band two units
    with it; one with a scale or offset other than 1 and 0 is read raw with a warning naming
    the bands. A catalogue that did not record scales (written before rumi:scales) is refused
    with apply_scale=True (rebuild it). `units`: the bands' unit ('' when none).
    threads: decode threads per read; max_in_flight: concurrent reads per remote host (default
    16); local files are read at most one per CPU of the process's share.
    pin_memory: allocate batch tensors in pinned memory (needs CUDA; ignored with a warning).
    keep_cache: keep decoded frames between batches (default), within cache_bytes per process
    (default DEFAULT_CACHE_BYTES, shared by the open readers); False: each batch starts empty.
    read_options: instead of threads, max_in_flight, pin_memory, options, verify_size,
    keep_cache and cache_bytes, those I/O settings as one rumi.torch.ReadOptions value
    (`ds.read_options`: what it reads with; the keywords are also its attributes).

    What was planned is `index` (rumi.torch.index.ChipIndex: the files, their grids, steps,
    nodata and labels), which samplers read; pickling carries the catalogue's path and search
    and the arguments, and the index is planned again where it is unpickled."""

    def __init__(
        self,
        catalog: Catalog | str | os.PathLike[str],
        size: int | tuple[int, int] = 256,
        bands: Sequence[str] | None = None,
        time: Any = None,
        crs: str | int | None = None,
        *,
        labels: Any = None,
        label_bands: Sequence[str] | None = None,
        on_missing: str = "skip",
        max_steps: int | None = None,
        time_steps: str = "newest",
        align_time: bool = False,
        seed: int = 0,
        return_valid: bool = False,
        nodata: Any = None,
        dtype: torch.dtype | str | None = None,
        label_dtype: torch.dtype | str | None = None,
        apply_scale: bool = False,
        threads: int = 1,
        max_in_flight: int = 16,
        pin_memory: bool = False,
        options: dict[str, Any] | None = None,
        verify_size: bool = True,
        keep_cache: bool = True,
        cache_bytes: int | None = None,
        streams: int | None = None,
        rank: int | None = None,
        world_size: int | None = None,
        read_options: ReadOptions | None = None,
    ) -> None:
        catalog = as_catalog(catalog, "catalog")
        if crs is not None:
            catalog = catalog.filter_crs(crs if isinstance(crs, str) else f"EPSG:{int(crs)}")
        if on_missing not in ("skip", "raise"):
            raise ValueError(f"on_missing must be 'skip' or 'raise', not {on_missing!r}")
        if time_steps not in ("newest", "random"):
            raise ValueError(f"time_steps must be 'newest' or 'random', not {time_steps!r}")
        if max_steps is not None and (isinstance(max_steps, bool) or int(max_steps) < 1):
            raise ValueError(f"max_steps must be an integer >= 1, not {max_steps!r}")
        self._catalog = catalog
        self.labels = as_catalog(labels, "labels") if labels is not None else None
        self.label_bands = list(label_bands) if label_bands is not None else None
        self.on_missing = on_missing
        self.size = _pair(size)
        self.bands = list(bands) if bands is not None else None
        self.time = time
        self.crs = crs
        self.max_steps = None if max_steps is None else int(max_steps)
        self.time_steps = time_steps
        self.align_time = bool(align_time)
        self.seed = int(seed)
        self.return_valid = bool(return_valid)
        self.nodata_override = nodata
        self.dtype = as_torch_dtype(dtype, "dtype")
        self.label_dtype = as_torch_dtype(label_dtype, "label_dtype")
        self.apply_scale = bool(apply_scale)
        if self.apply_scale and self.dtype is not None and not self.dtype.is_floating_point:
            raise ValueError(f"dtype={self.dtype}: apply_scale=True gives the values raw * scale + offset, which need a "
                             "floating dtype (torch.float32, torch.float64)")
        #: how it reads (rumi.torch.ReadOptions)
        self.read_options = ReadOptions.gather(
            read_options, "ChipDataset", threads=threads, max_in_flight=max_in_flight, pin_memory=pin_memory,
            options=options, verify_size=verify_size, keep_cache=keep_cache, cache_bytes=cache_bytes)
        spec = IndexSpec(size=self.size, bands=None if self.bands is None else tuple(self.bands), time=time,
                         max_steps=self.max_steps, time_steps=time_steps, align_time=self.align_time, seed=self.seed,
                         nodata=nodata, label_bands=None if self.label_bands is None else tuple(self.label_bands),
                         on_missing=on_missing, apply_scale=self.apply_scale)
        sharding = None
        if streams is not None:
            r, w = place(rank, world_size)
            sharding = Sharding(int(streams), r, w)
        elif rank is not None or world_size is not None:
            raise ValueError("rank and world_size place a sharded dataset (streams=C): without streams every rank "
                             "plans every file (give the samplers rank= and world_size=)")
        self.index: ChipIndex = ChipIndex.plan(catalog, self.labels, spec, sharding)
        index = self.index
        # apply_scale: the values are computed in float64 and given as dtype (_scaled), no cast
        self.image_cast = None if self.apply_scale else cast_check(index.encoding, self.dtype, "dtype")
        if self.apply_scale and torch_dtype(index.encoding).is_complex:
            raise ValueError(f"apply_scale=True: {index.encoding} samples are complex; their values are not raw * scale "
                             "+ offset in a real type")
        self.scale_dtype = (self.dtype or torch.float32) if self.apply_scale else None
        err = None if not self.return_valid else index.nodata_unknown(
            "return_valid=True", "Give it: ChipDataset(..., nodata=V) (a number for every band, or one per band), or "
            "rebuild the catalogue with rumi.Catalog.build(..., nodata=V) (rumi-catalog build --nodata V). Without "
            "nodata no sample can be told invalid")
        if err is not None:
            raise err
        if index.label is None and self.label_dtype is not None:
            raise ValueError("label_dtype is the dtype of the labels' \"mask\": it needs labels=")
        self.label_cast = None if index.label is None else cast_check(index.label.encoding, self.label_dtype, "label_dtype")
        files = index.num_files + (len(index.label.ids) if index.label is not None else 0)
        ro = self.read_options
        self.readers = ReaderPool(files=files, options=ro.options, verify_size=ro.verify_size, threads=ro.threads,
                                  cache_bytes=ro.cache_bytes, max_in_flight=ro.max_in_flight)

    @property
    def catalog(self) -> Catalog:
        """The catalogue (selection) the chips come from (in a DataLoader worker, unpickled when
        first asked for: the worker reads files through the index alone)."""
        c = self.__dict__.get("_catalog")
        return c if c is not None else self.index.catalog

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state.pop("_catalog", None)  # the index carries it, unpickled only when asked for
        return state

    @property
    def sharding(self) -> Sharding | None:
        """This rank's place in a sharded dataset (streams=), or None: every file planned."""
        return self.index.sharding

    # -- its read_options' fields, as before they were one value ----------------------------
    threads = _read_option("threads")
    max_in_flight = _read_option("max_in_flight")
    pin_memory = _read_option("pin_memory")
    options = _read_option("options")
    verify_size = _read_option("verify_size")
    keep_cache = _read_option("keep_cache")
    cache_bytes = _read_option("cache_bytes")

    # -- the index's columns, as before it had its own type ----------------------------------
    rows = _column("rows", "dataset file j -> catalogue row")
    fid = _column("fid", "dataset file j -> its id in the selection, the same in every process (shard << 32 | position)")
    ids = _column("ids", "the files' ids")
    hrefs = _column("hrefs", "the files' locations")
    shapes = _column("shapes", "the files' (T, B, Y, X)")
    tiles = _column("tiles", "the files' tile shapes")
    transforms = _column("transforms", "the files' proj:transform")
    codes = _column("codes", "the files' CRS (\"EPSG:n\")")
    band_idx = _column("band_idx", "per file, the indices of the bands read")
    time_idx = _column("time_idx", "per file, the indices of the time steps in `time`")
    file_times = _column("file_times", "per file, those steps' times in seconds")
    times = _column("times", "per file, those steps' times as datetime64[s]")
    encoding = _column("encoding", "the files' sample encoding")
    T = _column("T", "time steps of a batch (the longest selection, or max_steps)")
    B = _column("B", "bands read")
    band_names = _column("band_names", "the band texts read")
    nodata = _column("nodata", "per file, the nodata of the bands read (None: unknown)")
    scaling = _column("scaling", "per file, the scales, offsets and units of the bands read (rumi._scale.Scaling)")
    units = _column("units", "the bands' units ('' where none; with apply_scale the files agree)")
    label_encoding = _label_column("encoding", "the label files' sample encoding")
    label_band_idx = _label_column("band_idx", "per label file, the indices of the label bands read")
    label_ids = _label_column("ids", "the label files' ids")
    label_shapes = _label_column("shapes", "the label files' (T, B, Y, X)")
    label_hrefs = _label_column("hrefs", "the label files' locations")
    label_times = _label_column("times", "the label files' times in seconds")

    @property
    def matches(self) -> list[list[LabelMatch]]:
        """Per image file, where each overlapping label file lies on it (rumi.torch.labels.LabelMatch)."""
        label = self.index.label
        return label.matches if label is not None else [[] for _ in self.index.rows]

    @property
    def Tl(self) -> int:
        """Time steps of the labels' "mask" (1 for static labels, 0 without labels)."""
        return self.index.label.Tl if self.index.label is not None else 0

    @property
    def Bl(self) -> int:
        """Label bands read (0 without labels)."""
        return self.index.label.Bl if self.index.label is not None else 0

    @property
    def num_files(self) -> int:
        """The number of files the chips come from (dataset files 0..num_files - 1 of the keys)."""
        return self.index.num_files

    def __len__(self) -> int:
        """No length: the samples are the (file, row_off, col_off) keys a chip sampler draws, as
        many as it is asked for (len(sampler)); a count of files would mislead every
        range(len(ds)) and steps-per-epoch computation."""
        raise TypeError(
            "a ChipDataset has no len(): its samples are (file, row_off, col_off) keys that a chip sampler draws, "
            "as many as asked (len(sampler) chips per epoch; ds.num_files files). " + USE_A_SAMPLER)

    def __bool__(self) -> bool:
        return True

    # -- chip constraints (rumi.torch.constraints on the index) ----------------------------
    def steps_of(self, j: int, r0: int, c0: int) -> list[int]:
        """The file's time step indices chip (j, r0, c0) reads (max_steps, time_steps)."""
        return self.index.steps_of(j, r0, c0)

    def valid_bound(self, j: int, r0: Any, c0: Any) -> Array:
        """Lower bound of the valid fraction of the chips at (r0, c0) of file j (arrays), from
        the catalogue's per-tile summary alone (no pixel is read)."""
        return constraints.valid_bound(self.index, j, r0, c0)

    def covered(self, j: int, r0: Any, c0: Any) -> Array:
        """bool array: the chips at (r0, c0) of file j lie wholly inside one label file (True
        for every chip without labels)."""
        return constraints.covered(self.index, j, r0, c0)

    def chip_ok(self, j: int, r0: Any, c0: Any, min_valid: float | None = None) -> Array:
        """bool array: the chips at (r0, c0) of file j meet min_valid (valid_bound) and, with
        labels and on_missing="skip", have labels (covered)."""
        return constraints.chip_ok(self.index, j, r0, c0, min_valid)

    def feasible(self, j: int, min_valid: float | None = None) -> Array:
        """(n, 2) array of lattice offsets (row, col) of file j whose chips meet the constraints."""
        return constraints.feasible(self.index, j, min_valid)

    # -- samples ------------------------------------------------------------------------
    def bounds(self, j: int, r0: int, c0: int) -> tuple[float, float, float, float]:
        """(left, bottom, right, top) of the chip at (r0, c0) of file j, in its CRS."""
        return self.index.bounds(j, r0, c0)

    def _check(self, key: Any) -> Key:
        try:
            j, r0, c0 = (int(v) for v in key)
        except TypeError:
            raise TypeError(
                f"a ChipDataset sample is a (file, row_off, col_off) key, not {key!r}: DataLoader's own samplers "
                "(shuffle=True, or none) give int indices. " + USE_A_SAMPLER) from None
        except ValueError:
            raise ValueError(f"a ChipDataset sample is a (file, row_off, col_off) key, not {key!r}") from None
        n = self.index.num_files
        if not 0 <= j < n:
            raise IndexError(f"file {j} is outside 0..{n - 1} (ds.num_files = {n})")
        _, _, Y, X = self.index.info(j).shape
        h, w = self.size
        if not (0 <= r0 <= Y - h and 0 <= c0 <= X - w):
            raise IndexError(f"chip at ({r0}, {c0}) of {h}x{w} is outside file {j} ({Y}x{X})")
        return j, r0, c0

    def __getitem__(self, key: Key) -> collections.abc.MutableMapping[str, Any]:
        """One chip: a dict-like sample ("image" (T, B, h, w), ... as a batch's, and the read's
        "stats")."""
        return self.__getitems__([key])[0]

    def _alloc(self, shape: tuple[int, ...], enc: Any, scratch: bool = False,
               segments: list[shared.Segment] | None = None) -> Any:
        """A tensor of shape for samples of enc (an encoding or a torch dtype): shared memory in
        a DataLoader worker (a segment of rumi.torch.shared's pool, appended to segments),
        pinned with pin_memory, else released memory of earlier batches. scratch: memory only
        this call uses (decoded samples that are converted to dtype=)."""
        worker = torch.utils.data.get_worker_info() is not None
        # a worker never pins (CUDA in a forked child fails): DataLoader's pin_memory=True pins
        # its batches in the main process
        pin = self.pin_memory and not scratch and not worker
        if pin and not torch.cuda.is_available():
            warnings.warn("rumi.torch: pin_memory needs CUDA; allocating pageable memory", RuntimeWarning, stacklevel=4)
            self.pin_memory = pin = False
        tdt = enc if isinstance(enc, torch.dtype) else torch_dtype(enc)
        n = math.prod(shape) * tdt.itemsize
        if worker and not scratch:
            # in a DataLoader worker the batch goes to the main process through shared memory:
            # decode straight into a shared tensor (as default_collate does), not into one
            # that the worker's queue then copies there; a segment the main process has let
            # go, not a new one per batch (rumi.torch.shared: 10 ms of CPU per 6 MB saved)
            t, seg = shared.take(shape, tdt)
            if segments is not None:
                segments.append(seg)
            return t
        if pin or n == 0:
            return torch.empty(shape, dtype=tdt, pin_memory=pin)
        # memory of earlier batches the caller has let go (rumi.spare): fresh memory for
        # every batch is page-faulted in anew, 10 % of the loader's CPU on small chips
        return torch.frombuffer(_rumi.spare_buffer(n), dtype=torch.uint8).view(tdt).view(shape)

    def _reader(self, key: tuple[str, int]) -> Any:
        """The open reader of ("img", j) or ("lbl", l) in this process."""
        kind, k = key
        if kind == "img":
            return self.readers.reader(key, lambda: self.index.row(k))
        labels = self.labels
        assert labels is not None
        return self.readers.reader(key, lambda: labels.row(k))

    def _label_for(self, j: int, r0: int, c0: int) -> LabelMatch:
        """The first label file that covers chip (j, r0, c0); RequestError when none does."""
        h, w = self.size
        label = self.index.label
        assert label is not None
        for m in label.matches[j]:
            if m.covers_chip(r0, c0, h, w):
                return m
        raise RequestError(
            f"chip ({j}, {r0}, {c0}) of {self.index.ids[j]} has no label file covering it "
            f"({len(label.matches[j])} label files overlap that image; on_missing='skip' lets samplers leave such chips out)")

    def __getitems__(self, keys: Sequence[Key]) -> list[collections.abc.MutableMapping[str, Any]]:
        """The chips of keys, read as one batch: a list of per-chip samples (what torch's batched
        fetch expects), which torch's default_collate and rumi.torch.collate turn back into the
        batch dict without copying; b["image"] etc. also give the batch's fields directly."""
        t_start = _time.perf_counter()
        index = self.index
        keys = [self._check(k) for k in keys]
        n = len(keys)
        h, w = self.size
        steps = [index.steps_of(j, r0, c0) for j, r0, c0 in keys]
        segments: list[shared.Segment] = []  # this batch's pooled shared memory (in a worker)
        out = self._alloc((n, index.T, index.B, h, w), index.encoding,
                          scratch=self.image_cast is not None or self.apply_scale, segments=segments)
        per = out.view(torch.uint8).numpy().reshape(n, -1)
        tmask = torch.zeros((n, index.T), dtype=torch.bool)
        for i, ts in enumerate(steps):
            tmask[i, :len(ts)] = True
            if len(ts) < index.T:
                per[i, per.shape[1] * len(ts) // index.T:] = 0  # padding
        stats = ReadStats(n, int(per.nbytes))
        images: dict[int, list[ImageItem]] = {}
        for i, (j, r0, c0) in enumerate(keys):
            images.setdefault(j, []).append((i, r0, c0))
        labels: dict[int, list[LabelItem]] = {}
        mask = mper = None
        if index.label is not None:
            mask = self._alloc((n, index.label.Tl, index.label.Bl, h, w), index.label.encoding,
                               scratch=self.label_cast is not None, segments=segments)
            mper = mask.view(torch.uint8).numpy().reshape(n, -1)
            mper[:] = 0
            for i, (j, r0, c0) in enumerate(keys):
                m = self._label_for(j, r0, c0)
                labels.setdefault(m.label, []).append((i, r0, c0, m))
            stats.fields["bytes_needed"] += int(mper.nbytes)
        stats.fields["files"] = len(images) + len(labels)
        self.readers.use([("img", j) for j in images] + [("lbl", l) for l in labels])
        # one read per file: (method, its arguments)
        reads: list[tuple[Callable[..., None], tuple[Any, ...]]] = [
            (self._read_images, (j, items, steps, per, stats)) for j, items in images.items()]
        reads += [(self._read_labels, (l, items, keys, steps, mper, stats)) for l, items in labels.items()]
        hosts = {host(index.hrefs[j]) for j in images}
        if index.label is not None:
            hosts |= {host(index.label.hrefs[l]) for l in labels}
        if not any(hosts):  # local files only decode: the whole batch in one native call
            self._read_local(keys, steps, images, labels, per, mper, stats)
        elif len(reads) == 1 or max(self.readers.in_flight(x) for x in hosts) <= 1:
            for fn, args in reads:
                fn(*args)
        else:
            pool = self.readers.executor()
            for f in [pool.submit(fn, *args) for fn, args in reads]:
                f.result()
        valid = self._valid(out, keys, steps, segments) if self.return_valid else None  # on the files' own samples
        if self.apply_scale:
            out = self._scaled(out, keys, steps, segments)
        elif self.image_cast is not None:
            out = self._convert(out, self.image_cast, segments)
        if mask is not None and self.label_cast is not None:
            mask = self._convert(mask, self.label_cast, segments)
        stats.fields["batch_s"] = _time.perf_counter() - t_start
        batch: dict[str, Any] = dict(image=out, time_mask=tmask)
        if mask is not None:
            batch["mask"] = mask
        if valid is not None:
            batch["valid"] = valid
        batch.update(
            bounds=[index.bounds(j, r0, c0) for j, r0, c0 in keys],
            crs=[index.info(j).code for j, _, _ in keys],
            time=[index.times_of(j, steps[i]) for i, (j, _, _) in enumerate(keys)],
            key=keys,
            stats=stats.fields,
        )
        return Samples(batch, n, segments)

    def _fresh_cache(self, reader: Any) -> None:
        if not self.keep_cache:  # frames shared inside this batch only: no batch is served by an earlier one
            self.readers.drop_caches([reader])

    def _read_images(self, j: int, items: list[ImageItem], steps: list[list[int]], per: Array, stats: ReadStats) -> None:
        """File j's chips, in row order, into their rows of per (the batch's uint8 view)."""
        r = self._reader(("img", j))
        sem = self.readers.semaphore(host(self.index.hrefs[j]))
        bs = self.index.info(j).bands
        self._fresh_cache(r)
        h, w = self.size
        for i, r0, c0 in sorted(items, key=lambda x: (x[1], x[2])):
            ts = steps[i]
            nb = per.shape[1] * len(ts) // self.index.T
            waited_from = _time.perf_counter()
            with sem:
                t0 = _time.perf_counter()
                st = r.read_into(per[i, :nb].data, ts, bs, Window(c0, r0, w, h), threads=self.threads)
                t1 = _time.perf_counter()
            stats.add(st, t0, t1, waited_from)

    def _read_labels(self, l: int, items: list[LabelItem], keys: list[Key], steps: list[list[int]], mper: Array,
                     stats: ReadStats) -> None:
        """Label file l's chips into their rows of mper (the mask's uint8 view)."""
        label = self.index.label
        assert label is not None
        r = self._reader(("lbl", l))
        sem = self.readers.semaphore(host(label.hrefs[l]))
        self._fresh_cache(r)
        for i, r0, c0, m in sorted(items, key=lambda x: (x[1], x[2])):
            waited_from = _time.perf_counter()
            with sem:
                t0 = _time.perf_counter()
                st = self._read_label(r, label, m, keys[i][0], r0, c0, steps[i], mper[i])
                t1 = _time.perf_counter()
            stats.add(st, t0, t1, waited_from)

    def _read_label(self, r: Any, label: LabelIndex, m: LabelMatch, j: int, r0: int, c0: int, ts: list[int],
                    dst: Array) -> dict[str, int]:
        """Label match m of chip (j, r0, c0) into dst (the chip's uint8 view of the mask), a
        static label repeated over the chip's steps ts."""
        grid = self.index.grids[j]
        assert grid is not None
        h, w = self.size
        st = read_label(r, label, m, grid, r0, c0, h, w, label.steps(m, self.index.info(j).step_s, ts), dst, self.threads)
        label.repeat_static(m, ts, dst)
        return st

    def _convert(self, src: Any, dtype: Any, segments: list[shared.Segment]) -> Any:
        """src's samples as dtype, in a batch tensor of its own (shared in a worker); torch's
        copy (as fast as numpy's cast for uint16 to float32 or int32: 2-3 ms per 6.3 M samples
        on one core of this machine)."""
        dst = self._alloc(tuple(src.shape), dtype, segments=segments)
        dst.copy_(src)
        return dst

    def _read_local(self, keys: list[Key], steps: list[list[int]], images: dict[int, list[ImageItem]],
                    labels: dict[int, list[LabelItem]], per: Array, mper: Array | None, stats: ReadStats) -> None:
        """Reads a batch of local files with one rumi read_batch call (each file's chips in
        order, the files side by side on this process's share of the CPUs); labels that need
        resampling are read after it, one by one."""
        h, w = self.size
        index = self.index
        jobs: list[Any] = []
        later: list[tuple[Any, int, int, int, LabelMatch]] = []
        copies: list[tuple[int, LabelMatch]] = []
        readers = []
        for j, items in images.items():
            r = self._reader(("img", j))
            readers.append(r)
            bs = index.info(j).bands
            for i, r0, c0 in items:
                if steps[i]:
                    jobs.append((r, 0, steps[i], bs, Window(c0, r0, w, h), i * per.shape[1]))
        label = index.label
        for l, litems in labels.items():
            assert label is not None and mper is not None
            r = self._reader(("lbl", l))
            readers.append(r)
            bs = label.band_idx[l]
            for i, r0, c0, m in litems:
                if not m.same_grid:
                    later.append((r, i, r0, c0, m))
                    continue
                assert m.off is not None
                lts = label.steps(m, index.info(keys[i][0]).step_s, steps[i])  # (info: cached per file)
                orr, oc = m.off
                jobs.append((r, 1, lts, bs, Window(c0 + oc, r0 + orr, w, h), i * mper.shape[1]))
                copies.append((i, m))
        if not self.keep_cache:
            self.readers.drop_caches(readers)
        t0 = _time.perf_counter()
        st = read_batch([per] if mper is None else [per, mper], jobs, self.readers.in_flight(""))
        stats.add(st, t0, _time.perf_counter(), t0)
        for i, m in copies:
            assert label is not None and mper is not None
            label.repeat_static(m, steps[i], mper[i])
        for r, i, r0, c0, m in later:
            assert label is not None and mper is not None
            t0 = _time.perf_counter()
            st = self._read_label(r, label, m, keys[i][0], r0, c0, steps[i], mper[i])
            stats.add(st, t0, _time.perf_counter(), t0)

    def _scaled(self, raw: Any, keys: list[Key], steps: list[list[int]], segments: list[shared.Segment]) -> Any:
        """The values of raw's samples (apply_scale): raw * scale + offset per band of each chip's
        file, in float64 (rumi._scale.apply), nodata NaN, then rounded once to scale_dtype in a
        batch tensor of its own; padding steps zero. Through numpy where the dtype has a numpy
        type (torch's float64 -> float32 copy ran 400x slower than numpy's here)."""
        dst = self._alloc(tuple(raw.shape), self.scale_dtype, segments=segments)
        try:
            dn = dst.numpy()
        except TypeError:  # bfloat16: no numpy type
            dn = None
        index = self.index
        for i, (j, _, _) in enumerate(keys):
            nt = len(steps[i])
            if nt < index.T:
                if dn is not None:
                    dn[i, nt:] = 0
                else:
                    dst[i, nt:] = 0
            if not nt:
                continue
            x = raw[i, :nt]
            try:
                a = x.numpy()
            except TypeError:  # bfloat16, float8: no numpy type
                a = x.float().numpy()
            v = apply_scaling(a, index.scaling[j], 1, np.float64)
            for k, nd in enumerate(index.nodata[j] or ()):
                if nd is not None:
                    v[:, k][~valid_mask(a[:, k], nd)] = np.nan
            if dn is not None:
                np.copyto(dn[i, :nt], v, casting="same_kind")  # rounded to the nearest, as astype
            else:
                dst[i, :nt] = torch.from_numpy(v)
        return dst

    def _valid(self, out: Any, keys: list[Key], steps: list[list[int]], segments: list[shared.Segment]) -> Any:
        """bool tensor of out's shape: True where a sample is not its band's nodata (padding False)."""
        valid = self._alloc(tuple(out.shape), torch.bool, segments=segments)
        valid.zero_()
        for i, (j, _, _) in enumerate(keys):
            nt = len(steps[i])
            nd = self.index.nodata[j]
            for k, v in enumerate(nd or [None] * self.index.B):
                if v is None:
                    valid[i, :nt, k] = True
                    continue
                x = out[i, :nt, k]
                try:
                    a = x.numpy()
                except TypeError:  # bfloat16, float8: no numpy type
                    a = x.float().numpy()
                valid[i, :nt, k] = torch.from_numpy(valid_mask(a, v))
        return valid

    def loader(
        self, sampler: Iterable[Key], batch_size: int = 16, *, read_ahead: int = 2, num_workers: int | None = None,
        pin_memory: bool | None = None, prefetch_factor: int | None = None, persistent_workers: bool | None = None,
        **kw: Any,
    ) -> ReadAheadLoader:
        """A DataLoader of batches of sampler's chips (collate_fn=rumi.torch.collate), with the
        settings of a tuned GPU pipeline by default (rumi.torch.loader.gpu_defaults):

        - num_workers: where CUDA is available, worker processes decode, so that the decode
          does not share the training process's cores (loader_workers(): half this process's
          CPUs, at most 8, split between the local ranks of torchrun); without CUDA 0: the
          reads already use every core from threads (below), and processes only add copies;
        - pin_memory: True where CUDA is available (batches in page-locked memory: the copy
          to the GPU runs asynchronously, `.to(device, non_blocking=True)`);
        - prefetch_factor 4 and persistent_workers=True with workers (the workers and their
          decoded-frame caches outlive an epoch).
        Measured on one H200 with 16 cores (ResNet-50 bf16, batch 128, docs/training.md): 8-14
        workers with pinned memory and prefetch 4 fed 86-89 % of the step ceiling, 0 workers
        62-76 %. Any of them given explicitly is used as given.

        With num_workers=0 the batches are read `read_ahead` batches ahead of the one being
        used, on background threads (the reads release the GIL; pinned there too with
        pin_memory): one batch's wait on the network overlaps the others' decoding, as
        DataLoader workers' prefetching would, without worker processes. The batches come in
        the sampler's order, and a read's error is raised when its batch is reached.
        read_ahead=0: read each batch when it is asked for.

        state_dict() / load_state_dict(): the sampler's state and the batches delivered in the
        current epoch; after load_state_dict the next iteration resumes at the next batch (the
        keys before it are skipped, not read)."""
        kw.update(gpu_defaults(num_workers, pin_memory, prefetch_factor, persistent_workers))
        return ReadAheadLoader(self, batch_size=batch_size, sampler=sampler, collate_fn=collate,
                               read_ahead=read_ahead, **kw)
