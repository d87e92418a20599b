"""Batches: what ChipDataset.__getitems__ returns (`Samples`, one `Sample` view per chip of one
batch read), `collate` (which gives that batch back without a copy, and is registered with
torch's default_collate), and `ReadAheadLoader`, the DataLoader of ChipDataset.loader (batches
read ahead on threads at 0 workers; state_dict / load_state_dict to resume an epoch)."""

from __future__ import annotations

import collections
import collections.abc
import os
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Callable, Iterable, Iterator, Protocol, cast

import torch

from . import shared
from .samplers import ChipSampler


class Batched(Protocol):
    """A dataset that reads a batch of keys at once (ChipDataset.__getitems__)."""

    def __getitems__(self, keys: list[Any]) -> Any: ...


class Samples(list):  # type: ignore[type-arg]
    """What ChipDataset.__getitems__ returns: one Sample per chip (torch's batched fetch expects
    a list of samples), cut from one batch read into whole tensors; b["image"] etc. read that
    batch's fields."""

    def __init__(self, fields: dict[str, Any], n: int, segments: list[shared.Segment] | None = None) -> None:
        # the samples hold the fields, not this list: no reference cycle, so a batch let go
        # frees its tensors at once (its memory serves the next batch, rumi.spare)
        super().__init__(Sample(fields, i) for i in range(n))
        self.fields = fields
        self.segments = segments or []  # the fields' pooled shared memory (in a DataLoader worker)

    def __getitem__(self, k: Any) -> Any:
        if isinstance(k, str):
            return self.fields[k]
        return super().__getitem__(k)

    def keys(self) -> Any:
        return self.fields.keys()


class Sample(collections.abc.MutableMapping):  # type: ignore[type-arg]
    """Chip i of a batch: its fields are views of the batch's tensors (and its entries of the
    batch's lists; "stats" is the batch's), taken when asked for. Setting or deleting a field
    gives the sample a dict of its own, and collating stacks it like any other sample."""

    __slots__ = ("_batch", "_i", "_own")

    def __init__(self, fields: dict[str, Any] | None, i: int) -> None:
        self._batch, self._i = fields, i
        self._own: dict[str, Any] | None = None

    def _field(self, k: str, v: Any) -> Any:
        return v if k == "stats" else v[self._i]

    def __getitem__(self, k: str) -> Any:
        if self._own is not None:
            return self._own[k]
        assert self._batch is not None
        return self._field(k, self._batch[k])

    def _detach(self) -> dict[str, Any]:
        if self._own is None:
            assert self._batch is not None
            self._own = {k: self._field(k, v) for k, v in self._batch.items()}
            self._batch = None
        return self._own

    def __setitem__(self, k: str, v: Any) -> None:
        self._detach()[k] = v

    def __delitem__(self, k: str) -> None:
        del self._detach()[k]

    def __iter__(self) -> Iterator[str]:
        return iter(self._own if self._own is not None else self._batch or {})

    def __len__(self) -> int:
        return len(self._own if self._own is not None else self._batch or {})

    def __repr__(self) -> str:
        return f"<rumi.torch sample {self['key']} {', '.join(self)}>"

    def batch_of(self, i: int) -> dict[str, Any] | None:
        """The batch fields this sample is chip i of, untouched (None otherwise)."""
        return self._batch if self._i == i else None


def collate(batch: Any) -> Any:
    """collate_fn for ChipDataset, also what torch's default_collate does with its samples.

    The samples of one __getitems__ call, whole and in order (what DataLoader hands its
    collate_fn with a batch_size and a sampler), give back the batch dict they were cut from:
    the tensors decoded into, no copy. Any other list of samples (from ds[key], a subset, or
    changed) is stacked: tensors with torch.stack, other fields as lists, "stats" dropped.
    ds.loader() uses it; DataLoader(ds, batch_size=16, sampler=...) works the same with its
    default collate_fn, since rumi.torch registers collate for its samples in torch's
    default_collate_fn_map (pass collate_fn=rumi.torch.collate where another collate_fn is the
    default, e.g. a wrapper's)."""
    if isinstance(batch, (list, tuple)) and batch and isinstance(batch[0], collections.abc.Mapping):
        src = batch[0].batch_of(0) if isinstance(batch[0], Sample) else None
        if (src is not None and len(batch) == len(src["key"])
                and all(isinstance(s, Sample) and s.batch_of(i) is src for i, s in enumerate(batch))):
            # in a DataLoader worker, tensors in pooled shared memory go as rumi.torch.shared.Lent:
            # plain tensors again in the main process, whose release lets the worker reuse them
            return shared.lend(batch.segments, src) if isinstance(batch, Samples) else dict(src)
        out = {}
        for k in batch[0]:
            if k == "stats":
                continue
            v = [b[k] for b in batch]
            out[k] = torch.stack(v) if isinstance(v[0], torch.Tensor) else v
        return out
    return torch.utils.data.default_collate(batch)


def _collate_samples(batch: Any, *, collate_fn_map: Any = None) -> Any:
    return collate(batch)


try:  # torch's documented way to extend default_collate: its map of element types
    from torch.utils.data._utils.collate import default_collate_fn_map

    default_collate_fn_map[Sample] = _collate_samples
except ImportError:  # pragma: no cover - torch < 1.13 (the extra needs >= 2.2)
    pass


def loader_workers() -> int:
    """DataLoader workers of ChipDataset.loader where CUDA is available: half of this process's
    CPUs (the other half for the training loop, the pin-memory thread and CUDA's own threads),
    at most 8, divided by the local ranks that share the machine (torchrun's LOCAL_WORLD_SIZE).
    On one H200 with 16 cores, 8 to 14 workers fed the same share of the step ceiling."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    try:
        ranks = max(1, int(os.environ.get("LOCAL_WORLD_SIZE", "1")))
    except ValueError:
        ranks = 1
    return max(1, min(8, cpus // 2 // ranks))


def gpu_defaults(num_workers: int | None = None, pin_memory: bool | None = None, prefetch_factor: int | None = None,
                 persistent_workers: bool | None = None) -> dict[str, Any]:
    """DataLoader settings of ChipDataset.loader: those given, the rest as a tuned GPU pipeline
    has them (see ChipDataset.loader): workers and pinned memory where CUDA is available,
    prefetch_factor 4 and persistent workers with workers."""
    cuda = torch.cuda.is_available()
    if num_workers is None:
        num_workers = loader_workers() if cuda else 0
    out: dict[str, Any] = {"num_workers": num_workers, "pin_memory": cuda if pin_memory is None else pin_memory}
    if num_workers > 0:
        out["prefetch_factor"] = 4 if prefetch_factor is None else prefetch_factor
        out["persistent_workers"] = True if persistent_workers is None else persistent_workers
    else:
        if prefetch_factor is not None:
            out["prefetch_factor"] = prefetch_factor  # DataLoader's own error: it needs workers
        if persistent_workers:
            out["persistent_workers"] = persistent_workers
    return out


class ReadAheadLoader(torch.utils.data.DataLoader[Any]):
    """DataLoader whose in-process iteration (num_workers=0) reads batches ahead on threads
    (ChipDataset.loader), with state_dict/load_state_dict to resume an epoch."""

    def __init__(self, dataset: Any, *, read_ahead: int = 2, **kw: Any) -> None:
        if isinstance(read_ahead, bool) or not isinstance(read_ahead, int) or read_ahead < 0:
            raise ValueError(f"read_ahead must be an integer >= 0 (batches), not {read_ahead!r}")
        super().__init__(dataset, **kw)
        self.read_ahead = read_ahead
        self._delivered = 0
        self._resume = 0

    def state_dict(self) -> dict[str, Any]:
        """The sampler's state (seed, epoch, ...) and the samples delivered in this epoch."""
        s = self.sampler
        if isinstance(s, ChipSampler):  # its state at the delivered keys (not the ones read ahead)
            sd = s.state_dict(yielded=self._delivered)
            sd["samples_delivered"] = sd["yielded"]
            return sd
        sd = dict(s.state_dict()) if hasattr(s, "state_dict") else {}
        sd["samples_delivered"] = self._delivered
        return sd

    def load_state_dict(self, state: dict[str, Any]) -> None:
        state = dict(state)
        n = int(state.pop("samples_delivered", 0))
        if hasattr(self.sampler, "load_state_dict"):
            state["yielded"] = n
            self.sampler.load_state_dict(state)
            self._resume = 0
        else:  # a plain list of keys: skip what was delivered
            self._resume = n
        self._delivered = n

    def _count(self, it: Iterable[Any]) -> Iterator[Any]:
        for b in it:
            self._delivered += len(b["key"]) if isinstance(b, dict) and "key" in b else self.batch_size or 1
            yield b

    # DataLoader.__iter__ gives its own iterator class; this one a generator over it (or the
    # read-ahead), which that stub cannot express
    def __iter__(self) -> Iterator[Any]:  # type: ignore[override, unused-ignore]
        if not hasattr(self.sampler, "load_state_dict"):
            skip = self._resume
            self._resume = 0
            if skip:
                self._delivered = skip
                return self._count(self._plain_skip(skip))
        elif isinstance(self.sampler, ChipSampler):
            self._delivered = 0  # counted from where the sampler starts (its state_dict adds that)
        else:
            self._delivered = getattr(self.sampler, "start", 0)
        if self.num_workers > 0 or self.read_ahead == 0 or self.batch_sampler is None:
            return self._count(super().__iter__())
        return self._count(self._read_ahead(self.batch_sampler))

    def _plain_skip(self, skip: int) -> Iterator[Any]:
        keys = list(self.sampler)[skip:]
        # (batch_size None: BatchSampler refuses it, as before)
        bs = torch.utils.data.BatchSampler(keys, cast(int, self.batch_size), self.drop_last)
        return self._read_ahead(bs) if self.read_ahead else (self._fetch(list(k)) for k in bs)

    def _fetch(self, keys: list[Any]) -> Any:
        """One batch read ahead, collated (and pinned with pin_memory), on a read-ahead thread."""
        b = self.collate_fn(cast(Batched, self.dataset).__getitems__(keys))
        if self.pin_memory:
            from torch.utils.data._utils.pin_memory import pin_memory

            pin: Callable[[Any, str | None], Any] = pin_memory  # (torch leaves it unannotated)
            b = pin(b, self.pin_memory_device or None)
        return b

    def _read_ahead(self, batch_sampler: Iterable[Any]) -> Iterator[Any]:
        pending: collections.deque[Future[Any]] = collections.deque()
        ex = ThreadPoolExecutor(max_workers=max(1, self.read_ahead) + 1, thread_name_prefix="rumi-read-ahead")
        ahead = 0  # the first batch is read alone: it comes as soon as without read-ahead
        try:
            for keys in batch_sampler:
                pending.append(ex.submit(self._fetch, list(keys)))
                if len(pending) > ahead:
                    yield pending.popleft().result()
                    ahead = self.read_ahead
            while pending:
                yield pending.popleft().result()
        finally:
            # the consumer stopped early or a read failed: drop what has not started
            ex.shutdown(wait=False, cancel_futures=True)
