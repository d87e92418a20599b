"""Where a partitioned catalogue lies: pyarrow's filesystem for a local folder; for an s3://
or http(s):// prefix a small pyarrow FileSystemHandler over rumi's object store (rumi.Location:
the core's credentials from the AWS_* variables or the options' `env`, its retries, its errors,
its one text for a server without Range support). An s3:// folder is listed; a web server
cannot list, so the folder's `_parts.json` names its parts."""

from __future__ import annotations

import io
import os
import threading
from typing import Any

from .._errors import RequestError, RumiIOError
from .._internal import renew_after_fork
from .._location import Location
from .columns import deps

#: the listing an http(s) reader uses (written by rumi.catalog.write_listing)
LISTING = "_parts.json"


def store(url: str, options: dict[str, Any] | None = None) -> tuple[Any, str]:
    """(pyarrow filesystem, the folder's path in it) for a local folder or an s3/http(s) prefix
    (there, paths are whole URLs)."""
    import pyarrow.fs as pafs

    loc = Location.parse(url)
    if loc.scheme == "file":
        return pafs.LocalFileSystem(), os.path.abspath(loc.text)
    return pafs.PyFileSystem(ObjectHandler(options)), loc.text.rstrip("/")


class ObjectFile(io.RawIOBase):
    """A read-only file over ranged GETs (one per read; pyarrow coalesces the Parquet reads it
    needs into few)."""

    def __init__(self, url: str, size: int, options: dict[str, Any] | None) -> None:
        super().__init__()
        self.loc, self._size, self._pos, self._options = Location.parse(url), size, 0, options

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def seek(self, pos: int, whence: int = 0) -> int:
        self._pos = pos if whence == 0 else self._pos + pos if whence == 1 else self._size + pos
        return self._pos

    def tell(self) -> int:
        return self._pos

    def size(self) -> int:
        return self._size

    def readinto(self, b: Any) -> int:
        n = min(len(b), self._size - self._pos)
        if n <= 0:
            return 0
        data = self.loc.read_ranges([(self._pos, n)], self._options)[0]
        b[: len(data)] = data
        self._pos += len(data)
        return len(data)


def _handler_base() -> Any:
    import pyarrow.fs as pafs

    return pafs.FileSystemHandler


class ObjectHandler(_handler_base()):  # type: ignore[misc]
    """pyarrow FileSystemHandler over s3:// and http(s):// URLs (paths are whole URLs) through
    rumi's object store: reading only (writes go through `put`)."""

    def __init__(self, options: dict[str, Any] | None = None) -> None:
        self.options = options
        self._sizes: dict[str, int] = {}
        self._lock = threading.Lock()
        renew_after_fork(self, "_lock")

    def get_type_name(self) -> str:
        return "rumi-object"

    def normalize_path(self, path: str) -> str:
        return path

    def equals(self, other: Any) -> bool:
        return isinstance(other, ObjectHandler) and other.options == self.options

    def get_file_info(self, paths: list[str]) -> list[Any]:
        import pyarrow.fs as pafs

        out = []
        for p in paths:
            size = self._size(p)
            out.append(pafs.FileInfo(p, pafs.FileType.NotFound if size is None else pafs.FileType.File, size=size))
        return out

    def _size(self, path: str) -> int | None:
        with self._lock:
            if path in self._sizes:
                return self._sizes[path]
        size = Location.parse(path).size(self.options)  # one HEAD
        if size is not None:
            with self._lock:
                self._sizes[path] = size
        return size

    def know_size(self, path: str, size: int) -> None:
        with self._lock:
            self._sizes[path] = size

    def get_file_info_selector(self, selector: Any) -> list[Any]:
        raise RequestError(f"{selector.base_dir}: a web server cannot list a folder; the catalogue's {LISTING} names its parts")

    def open_input_file(self, path: str) -> Any:
        import pyarrow as pa

        size = self._size(path)
        if size is None:
            raise FileNotFoundError(path)
        return pa.PythonFile(ObjectFile(path, size, self.options), mode="r")

    def open_input_stream(self, path: str) -> Any:
        return self.open_input_file(path)

    def _read_only(self, *_: Any) -> Any:
        raise RequestError("HTTP(S) servers are read-only here; write the catalogue to a folder or s3://")

    create_dir = delete_dir = delete_dir_contents = delete_root_dir_contents = delete_file = _read_only
    move = copy_file = open_output_stream = open_append_stream = _read_only


def _objects(fs: Any) -> ObjectHandler | None:
    """The handler of a filesystem over rumi's object store, None for any other."""
    import pyarrow.fs as pafs

    if isinstance(fs, pafs.PyFileSystem) and isinstance(fs.handler, ObjectHandler):
        return fs.handler
    return None


def put(fs: Any, path: str, data: Any, options: dict[str, Any] | None = None) -> None:
    """Writes a whole file atomically under a name no one else writes: a local file through a
    temporary name, fsynced and renamed (the folder fsynced); an object in one PUT (rumi's
    object store, with its options)."""
    import pyarrow.fs as pafs

    if isinstance(fs, pafs.LocalFileSystem):
        d = os.path.dirname(path)
        tmp = os.path.join(d, f".tmp-{os.getpid()}-{threading.get_ident()}-{os.path.basename(path)}")
        with open(tmp, "wb") as f:
            f.write(memoryview(data))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
        fd = os.open(d, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        return
    if _objects(fs) is not None and Location.parse(path).writable:  # rumi's own object store: one PUT
        Location.parse(path).put(bytes(memoryview(data)), options)
        return
    raise RequestError(f"{path}: cannot write there: HTTP(S) servers are read-only; write to s3:// or a path")


def mkdir(fs: Any, path: str) -> None:
    import pyarrow.fs as pafs

    if isinstance(fs, pafs.LocalFileSystem):
        os.makedirs(path, exist_ok=True)


def has_listing(fs: Any, root: str) -> bool:
    """True when the folder holds a listing for http(s) readers (rumi.catalog.write_listing)."""
    import pyarrow.fs as pafs

    return bool(fs.get_file_info(f"{root}/{LISTING}").type != pafs.FileType.NotFound)


def list_parts(fs: Any, root: str, suffix: str = ".parquet") -> list[tuple[str, int]]:
    """(path, size) of the part files in the folder, sorted by name; http(s): from its listing."""
    import json

    import pyarrow.fs as pafs

    handler = _objects(fs)
    if handler is not None and root.startswith("s3://"):
        listed = [(str(loc), n) for loc, n in Location.parse(root).children(handler.options)]
        if not listed:  # an s3:// "folder" is its objects: none, no folder (as pyarrow's S3 said)
            raise RumiIOError(f"{root}: no such folder (no objects under the prefix)")
        for p, n in listed:
            handler.know_size(p, n)
        return sorted((p, n) for p, n in listed if p.rsplit("/", 1)[-1].endswith(suffix) and p.rsplit("/", 1)[-1].startswith("part-"))
    if handler is not None:
        url = root + "/" + LISTING
        body = Location.parse(url).read(handler.options, missing_ok=True)
        if body is None:
            raise RumiIOError(f"{url}: no such object (a catalogue read over http(s) needs its listing: rumi.catalog.write_listing)")
        names = json.loads(body or b"[]")
        out = []
        for e in names:
            p = root + "/" + e["name"]
            handler.know_size(p, int(e["size"]))
            for suffix, n in (e.get("beside") or {}).items():  # the files beside the part (write_listing)
                handler.know_size(p[: -len(".parquet")] + suffix, int(n))
            out.append((p, int(e["size"])))
        return sorted(out)
    try:
        infos = fs.get_file_info(pafs.FileSelector(root, recursive=False, allow_not_found=False))
    except (FileNotFoundError, OSError) as e:
        raise RumiIOError(f"{root}: {e}") from None
    _ = deps()
    return sorted(
        (i.path, int(i.size)) for i in infos if i.type == pafs.FileType.File and i.base_name.endswith(suffix) and i.base_name.startswith("part-")
    )
