"""Where a partitioned catalogue lies: a pyarrow filesystem for a local folder, an s3:// prefix
(pyarrow's S3FileSystem, configured from the same options and AWS_* variables rumi's object
store reads) or an http(s):// prefix (range requests through a small pyarrow FileSystemHandler:
a web server cannot list, so the folder's `_parts.json` names its parts)."""

from __future__ import annotations

import io
import os
import threading
import urllib.error
import urllib.request
from typing import Any

from .._errors import RequestError, RumiIOError
from .._location import Location
from .columns import deps

#: the listing an http(s) reader uses (written by rumi.catalog.write_listing)
LISTING = "_parts.json"


def store(url: str, options: dict[str, Any] | None = None) -> tuple[Any, str]:
    """(pyarrow filesystem, the folder's path in it) for a local folder or an s3/http(s) prefix."""
    import pyarrow.fs as pafs

    loc = Location.parse(url)
    if loc.scheme == "file":
        return pafs.LocalFileSystem(), os.path.abspath(loc.text)
    if loc.scheme == "s3":
        return s3_filesystem(options), loc.text.split("://", 1)[1].rstrip("/")
    return pafs.PyFileSystem(HttpHandler()), loc.text.rstrip("/")


def _opt(options: dict[str, Any] | None, keys: tuple[str, ...], env: tuple[str, ...]) -> str | None:
    for k in keys:
        if options and options.get(k) is not None:
            return str(options[k])
    for e in env:
        if os.environ.get(e):
            return os.environ[e]
    return None


def s3_filesystem(options: dict[str, Any] | None = None) -> Any:
    """pyarrow's S3FileSystem from object_store-style options (aws_endpoint, aws_access_key_id,
    aws_secret_access_key, aws_session_token, aws_region, aws_allow_http) or the AWS_* variables."""
    import pyarrow.fs as pafs

    kw: dict[str, Any] = {}
    endpoint = _opt(options, ("aws_endpoint", "aws_endpoint_url", "endpoint", "endpoint_url"), ("AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL", "AWS_ENDPOINT"))
    if endpoint:
        scheme, _, host = endpoint.partition("://") if "://" in endpoint else ("https", "", endpoint)
        kw["endpoint_override"] = host.rstrip("/")
        kw["scheme"] = scheme
    key = _opt(options, ("aws_access_key_id", "access_key_id"), ("AWS_ACCESS_KEY_ID",))
    secret = _opt(options, ("aws_secret_access_key", "secret_access_key"), ("AWS_SECRET_ACCESS_KEY",))
    if key and secret:
        kw["access_key"], kw["secret_key"] = key, secret
        token = _opt(options, ("aws_session_token", "session_token"), ("AWS_SESSION_TOKEN",))
        if token:
            kw["session_token"] = token
    elif _opt(options, ("aws_skip_signature", "skip_signature"), ("AWS_SKIP_SIGNATURE",)) in ("true", "1", "True"):
        kw["anonymous"] = True
    kw["region"] = _opt(options, ("aws_region", "region"), ("AWS_REGION", "AWS_DEFAULT_REGION")) or "us-east-1"
    return pafs.S3FileSystem(**kw)


class HttpFile(io.RawIOBase):
    """A read-only file over HTTP range requests (one GET per read; pyarrow coalesces the
    Parquet reads it needs into few)."""

    def __init__(self, url: str, size: int) -> None:
        super().__init__()
        self.url, self._size, self._pos = url, size, 0

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
        data = http_range(self.url, self._pos, n)
        b[: len(data)] = data
        self._pos += len(data)
        return len(data)


def http_range(url: str, offset: int, length: int) -> bytes:
    """Bytes [offset, offset + length) of url (one range request)."""
    req = urllib.request.Request(url, headers={"Range": f"bytes={offset}-{offset + length - 1}"})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            if r.status == 200:  # the whole object: never downloaded to keep a slice of it
                raise RumiIOError(
                    f"{url}: the server does not support HTTP Range requests (it answered a ranged GET with the "
                    "whole object, status 200, not 206): serve the catalogue from a server that does (nginx, S3)"
                )
            data: bytes = r.read()
            return data
    except urllib.error.HTTPError as e:
        raise RumiIOError(f"{url}: HTTP {e.code}") from None
    except urllib.error.URLError as e:
        raise RumiIOError(f"{url}: {e.reason}") from None


def http_size(url: str) -> int | None:
    """The size of url, None when it does not exist (one HEAD, through rumi's object store:
    rumi.Location.size)."""
    return Location.parse(url).size()


def _handler_base() -> Any:
    import pyarrow.fs as pafs

    return pafs.FileSystemHandler


class HttpHandler(_handler_base()):  # type: ignore[misc]
    """pyarrow FileSystemHandler over http(s) URLs (paths are whole URLs): reading only."""

    def __init__(self) -> None:
        self._sizes: dict[str, int] = {}
        self._lock = threading.Lock()

    def get_type_name(self) -> str:
        return "rumi-http"

    def normalize_path(self, path: str) -> str:
        return path

    def equals(self, other: Any) -> bool:
        return isinstance(other, HttpHandler)

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
        size = http_size(path)
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
        return pa.PythonFile(HttpFile(path, size), mode="r")

    def open_input_stream(self, path: str) -> Any:
        return self.open_input_file(path)

    def _read_only(self, *_: Any) -> Any:
        raise RequestError("HTTP(S) servers are read-only here; write the catalogue to a folder or s3://")

    create_dir = delete_dir = delete_dir_contents = delete_root_dir_contents = delete_file = _read_only
    move = copy_file = open_output_stream = open_append_stream = _read_only


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
    if isinstance(fs, pafs.S3FileSystem):  # rumi's own object store: one PUT
        Location.parse("s3://" + path).put(bytes(memoryview(data)), options)
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

    if isinstance(fs, pafs.PyFileSystem) and isinstance(fs.handler, HttpHandler):
        url = root + "/" + LISTING
        size = http_size(url)
        if size is None:
            raise RumiIOError(f"{url}: no such object (a catalogue read over http(s) needs its listing: rumi.catalog.write_listing)")
        names = json.loads(http_range(url, 0, size) if size else b"[]")
        out = []
        for e in names:
            p = root + "/" + e["name"]
            fs.handler.know_size(p, int(e["size"]))
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
