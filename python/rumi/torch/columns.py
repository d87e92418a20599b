"""The chip index's columns: numpy arrays, one value (or row) per dataset file, and ragged
columns as offsets plus values. They are held in memory, or in a folder of raw array files that
every process maps (numpy.memmap): the pages are shared through the page cache and read only when
touched.

`Builder` collects the columns a batch of catalogue rows at a time. Past SPILL_BYTES it writes
them to a folder, so planning a million files never holds them all in memory. `save` writes
columns held in memory to a folder (once: what a ChipIndex pickles as), `load` maps a folder. The
views give a column's per-file values the shape the index's users read: `Ragged` (a list of
arrays), `Strings`, `PerFile` (any per-file function)."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import uuid
import weakref
from typing import Any, Callable, Iterator

import numpy as np

from .dtypes import Array

#: columns held in memory while planning; past this they go to a folder (RUMI_INDEX_DIR or the temp folder)
SPILL_BYTES = 64 << 20
MANIFEST = "columns.json"


def index_dir() -> str:
    """A new folder for an index's columns: under $RUMI_INDEX_DIR, else the system's temp folder."""
    return tempfile.mkdtemp(prefix="rumi-index-", dir=os.environ.get("RUMI_INDEX_DIR") or None)


def _remove(path: str, pid: int) -> None:
    if os.getpid() == pid:  # the process that wrote it; a forked child leaves it to its parent
        shutil.rmtree(path, ignore_errors=True)


class Folder:
    """A folder of columns that this process wrote: removed when the last index using it is
    collected, or at exit, by the process that wrote it."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.token = uuid.uuid4().hex
        self._final = weakref.finalize(self, _remove, path, os.getpid())


class Builder:
    """Columns appended a batch of files at a time: fixed columns (a value or a row per file)
    and ragged ones (`add_ragged`: lengths and values), spilled to a folder past SPILL_BYTES."""

    def __init__(self, spill_bytes: int | None = None) -> None:
        self.chunks: dict[str, list[Array]] = {}
        self.lengths: dict[str, list[Array]] = {}
        self.meta: dict[str, tuple[str, tuple[int, ...]]] = {}  # dtype, row shape
        self.rows: dict[str, int] = {}
        self.nbytes = 0
        self.spill_bytes = SPILL_BYTES if spill_bytes is None else spill_bytes
        self.folder: Folder | None = None
        self._files: dict[str, Any] = {}

    def add(self, name: str, values: Array) -> None:
        """Appends a fixed column's values (first axis: files or ragged values)."""
        values = np.ascontiguousarray(values)
        dt, row = self.meta.setdefault(name, (values.dtype.str, tuple(values.shape[1:])))
        if values.dtype.str != dt or tuple(values.shape[1:]) != row:
            values = np.ascontiguousarray(values.astype(dt).reshape((-1,) + row))
        self.rows[name] = self.rows.get(name, 0) + len(values)
        if self.folder is not None:
            self._file(name).write(values.tobytes())
            return
        self.chunks.setdefault(name, []).append(values)
        self.nbytes += values.nbytes
        if self.nbytes > self.spill_bytes:
            self._spill()

    def add_ragged(self, name: str, lengths: Array, values: Array) -> None:
        """Appends a ragged column: each file's number of values, and the values end to end."""
        self.lengths.setdefault(name, []).append(np.asarray(lengths, np.int64))
        self.add(name, values)

    def _file(self, name: str) -> Any:
        f = self._files.get(name)
        if f is None:
            assert self.folder is not None
            f = self._files[name] = open(os.path.join(self.folder.path, name + ".bin"), "ab")
        return f

    def _spill(self) -> None:
        self.folder = Folder(index_dir())
        for name, chunks in self.chunks.items():
            f = self._file(name)
            for c in chunks:
                f.write(c.tobytes())
        self.chunks = {}
        self.nbytes = 0

    def finish(self) -> tuple[dict[str, Array], Folder | None]:
        """The columns (mapped from the folder when the builder spilled), ragged ones with their
        offsets as `<name>.off`."""
        offs = {}
        for name, ls in self.lengths.items():
            off = np.zeros(sum(len(x) for x in ls) + 1, np.int64)
            if len(off) > 1:
                np.cumsum(np.concatenate(ls), out=off[1:])
            offs[name + ".off"] = off
        if self.folder is None:
            cols = {n: (np.concatenate(c) if len(c) > 1 else c[0]) for n, c in self.chunks.items()}
            for name, (dt, row) in self.meta.items():
                cols.setdefault(name, np.zeros((0,) + row, dt))
            cols.update(offs)
            return cols, None
        for f in self._files.values():
            f.close()
        self._files = {}
        folder = self.folder
        for name, off in offs.items():
            _write(folder.path, name, off)
        manifest = {name: [dt, [self.rows.get(name, 0), *row]] for name, (dt, row) in self.meta.items()}
        manifest.update({name: [off.dtype.str, list(off.shape)] for name, off in offs.items()})
        _write_manifest(folder, manifest)
        return load(folder.path, folder.token), folder


def trim() -> None:
    """Gives the C heap's free pages back to the system (glibc's malloc_trim): a plan's
    temporary arrays leave the heap fragmented (measured at a million files: 80 MB of RSS)."""
    import ctypes
    import sys

    if sys.platform.startswith("linux"):
        try:
            ctypes.CDLL("libc.so.6").malloc_trim(0)
        except (OSError, AttributeError):  # pragma: no cover - not glibc
            pass


def _write(path: str, name: str, a: Array) -> None:
    with open(os.path.join(path, name + ".bin"), "wb") as f:
        f.write(np.ascontiguousarray(a).tobytes())


def _write_manifest(folder: Folder, columns: dict[str, Any]) -> None:
    tmp = os.path.join(folder.path, MANIFEST + ".tmp")
    with open(tmp, "w") as f:
        json.dump({"token": folder.token, "columns": columns}, f)
    os.replace(tmp, os.path.join(folder.path, MANIFEST))


def save(cols: dict[str, Array]) -> Folder:
    """Writes columns held in memory to a new folder (see load)."""
    folder = Folder(index_dir())
    for name, a in cols.items():
        _write(folder.path, name, a)
    _write_manifest(folder, {name: [a.dtype.str, list(a.shape)] for name, a in cols.items()})
    return folder


def load(path: str, token: str) -> dict[str, Array]:
    """The columns of a folder, mapped read-only (FileNotFoundError when it is gone, ValueError
    when it holds another index's columns)."""
    with open(os.path.join(path, MANIFEST)) as f:
        m = json.load(f)
    if m.get("token") != token:
        raise ValueError(f"{path} holds another index's columns")
    out: dict[str, Array] = {}
    for name, (dt, shape) in m["columns"].items():
        if 0 in shape:
            out[name] = np.zeros(tuple(shape), dt)
        else:
            out[name] = np.memmap(os.path.join(path, name + ".bin"), dtype=dt, mode="r", shape=tuple(shape))
    return out


# -- views ------------------------------------------------------------------------------------
class View:
    """A per-file column as a read-only sequence (len, [j], iteration; == compares as a list)."""

    def __len__(self) -> int:  # pragma: no cover - abstract
        raise NotImplementedError

    def __getitem__(self, j: Any) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def __iter__(self) -> Iterator[Any]:
        for j in range(len(self)):
            yield self[j]

    def __eq__(self, other: object) -> bool:
        try:
            return bool(list(self) == list(other))  # type: ignore[call-overload]
        except TypeError:
            return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        n = len(self)
        head = ", ".join(repr(self[j]) for j in range(min(n, 3)))
        return f"[{head}{', ...' if n > 3 else ''}] ({n} files)"

    def _j(self, j: Any) -> int:
        n = len(self)
        k = int(j)
        if not -n <= k < n:
            raise IndexError(f"file {k} of {n}")
        return k % n


class Ragged(View):
    """Per file, its slice of values (offsets off: file j's are values[off[j]:off[j + 1]]),
    through conv (default: the array itself)."""

    def __init__(self, off: Array, values: Array, conv: Callable[[Array], Any] | None = None) -> None:
        self.off, self.values, self.conv = off, values, conv

    def __len__(self) -> int:
        return len(self.off) - 1

    def __getitem__(self, j: Any) -> Any:
        j = self._j(j)
        v = self.values[self.off[j]:self.off[j + 1]]
        return v if self.conv is None else self.conv(v)


class Strings(Ragged):
    """Per file, a text (UTF-8 bytes end to end)."""

    def __init__(self, off: Array, values: Array) -> None:
        super().__init__(off, values, lambda v: bytes(v).decode())


class PerFile(View):
    """Per file, fn(j)."""

    def __init__(self, n: int, fn: Callable[[int], Any]) -> None:
        self.n, self.fn = n, fn

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, j: Any) -> Any:
        return self.fn(self._j(j))


def ragged_of(lengths: Array, values: Array) -> tuple[Array, Array]:
    """(offsets, values) of a ragged column given its lengths."""
    off = np.zeros(len(lengths) + 1, np.int64)
    np.cumsum(lengths, out=off[1:])
    return off, values


def take_ragged(off: Array, values: Array, rows: Array) -> tuple[Array, Array]:
    """(lengths, values) of the rows `rows` of a ragged column (offsets off)."""
    rows = np.asarray(rows, np.int64)
    starts, ends = off[rows], off[rows + 1]
    lengths = (ends - starts).astype(np.int64)
    total = int(lengths.sum())
    if total == 0:
        return lengths, values[:0]
    # each taken value's position: its row's start + its rank within the row
    first = np.zeros(len(rows), np.int64)
    np.cumsum(lengths[:-1], out=first[1:])
    idx = np.repeat(starts - first, lengths) + np.arange(total, dtype=np.int64)
    return lengths, values[idx]
