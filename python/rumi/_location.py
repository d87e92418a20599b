"""Locations: a local path or an object URL, parsed once (as object_store's `parse_url`), with
the few things the package does with one: read a small whole file or object, its size, an
atomic durable put (the core's commit for files, one PUT for objects), byte ranges, a folder's
listing, a sibling or a child.

    loc = Location.parse("s3://bucket/cubes/x.rumi")
    loc.scheme, loc.is_remote, loc.sidecar(".header"), loc.size(), loc.read(missing_ok=True)
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Sequence, Union

from . import _rumi
from ._errors import RequestError, RumiIOError

#: URL schemes the core's object store reads (s3: also writes)
SCHEMES = ("s3", "http", "https")
LocationLike = Union[str, "os.PathLike[str]", "Location"]


@dataclass(frozen=True)
class Location:
    """A local path (scheme "file") or an s3:// / http(s):// URL."""

    text: str
    scheme: str

    @staticmethod
    def parse(loc: LocationLike) -> Location:
        if isinstance(loc, Location):
            return loc
        text = os.fspath(loc)
        if not isinstance(text, str):
            raise TypeError(f"a location is a path or URL string, not {type(loc).__name__}")
        if "://" in text:
            scheme = text.split("://", 1)[0].lower()
            if scheme not in SCHEMES:
                raise RequestError(f"{text}: unsupported URL scheme {scheme!r} (rumi reads s3://, http:// and https://)")
            return Location(text, scheme)
        return Location(text, "file")

    def __str__(self) -> str:
        return self.text

    def __fspath__(self) -> str:
        return self.text

    @property
    def is_remote(self) -> bool:
        return self.scheme != "file"

    @property
    def writable(self) -> bool:
        """Local files and s3:// objects are written; http(s) servers are read-only here."""
        return self.scheme in ("file", "s3")

    @property
    def name(self) -> str:
        """The last part of the path or key."""
        return self.text.rstrip("/").rsplit("/", 1)[-1]

    def sidecar(self, suffix: str) -> Location:
        """The file or object beside this one named with `suffix` appended (.header, .aux.xml)."""
        return Location(self.text + suffix, self.scheme)

    def child(self, name: str) -> Location:
        """`name` inside this folder or prefix."""
        if self.is_remote:
            return Location(self.text.rstrip("/") + "/" + name, self.scheme)
        return Location(os.path.join(self.text, name), "file")

    def size(self, options: dict[str, Any] | None = None) -> int | None:
        """The size in bytes, None when the file or object does not exist (one HEAD for objects)."""
        st = self.stat(options)
        return None if st is None else st[0]

    def stat(self, options: dict[str, Any] | None = None) -> tuple[int, str | None] | None:
        """(size in bytes, the store's identity of the content) in one stat or HEAD, None when
        the file or object does not exist. The identity changes when the content is rewritten:
        "file:<inode>:<mtime ns>:<ctime ns>" for a file (rumi's writers replace a file by a
        rename: a new inode), "etag:<ETag>" (else "modified:<Last-Modified>") for an object;
        None where the store gives none."""
        if self.is_remote:
            return _rumi.object_stat(self.text, options)
        try:
            st = os.stat(self.text)
        except FileNotFoundError:
            return None
        except OSError as e:
            raise RumiIOError(f"{self.text}: {e.strerror}") from None
        return st.st_size, f"file:{st.st_ino}:{st.st_mtime_ns}:{st.st_ctime_ns}"

    def read(self, options: dict[str, Any] | None = None, *, missing_ok: bool = False) -> bytes | None:
        """The whole (small) file or object; None when missing and `missing_ok`, else RumiIOError."""
        if self.is_remote:
            return _rumi.fetch_object(self.text, options, missing_ok=missing_ok)
        try:
            with open(self.text, "rb") as f:
                return f.read()
        except FileNotFoundError:
            if missing_ok:
                return None
            raise RumiIOError(f"{self.text}: no such file") from None
        except OSError as e:
            raise RumiIOError(f"{self.text}: {e.strerror}") from None

    def read_ranges(self, ranges: Sequence[tuple[int, int]], options: dict[str, Any] | None = None) -> list[bytes]:
        """The byte ranges (offset, length) of the file or object; an object's in ranged GETs
        through the core's store (its credentials, retries and errors: a server that ignores
        Range requests is named as such, rumi::range_unsupported)."""
        if self.is_remote:
            return _rumi.read_object_ranges(self.text, [(int(o), int(n)) for o, n in ranges], options)
        try:
            fd = os.open(self.text, os.O_RDONLY)
        except OSError as e:
            raise RumiIOError(f"{self.text}: {e.strerror}") from None
        try:
            out = [os.pread(fd, n, o) for o, n in ranges]
        finally:
            os.close(fd)
        for (o, n), b in zip(ranges, out):
            if len(b) != n:
                raise RumiIOError(f"{self.text}: range {o}+{n} is past the end of the file")
        return out

    def children(self, options: dict[str, Any] | None = None) -> list[tuple[Location, int]]:
        """(location, size) of the files or objects directly inside this folder or s3:// prefix
        (one listing through the core's store); a web server cannot list: RequestError."""
        if self.scheme in ("http", "https"):
            raise RequestError(f"{self.text}: a web server cannot list a folder")
        if self.is_remote:
            return [(Location(u, self.scheme), n) for u, n in _rumi.list_objects(self.text, options)]
        try:
            with os.scandir(self.text) as it:
                return [(Location(e.path, "file"), e.stat().st_size) for e in it if e.is_file()]
        except OSError as e:
            raise RumiIOError(f"{self.text}: {e.strerror}") from None

    def put(self, data: bytes, options: dict[str, Any] | None = None) -> None:
        """Writes the whole file or object atomically and durably: the old one or the new one is
        there after a crash, never a part (a file through the core's commit: an anonymous
        temporary file, fsynced, renamed into place, the folder fsynced; an object in one PUT)."""
        if not self.writable:
            raise RequestError(f"{self.text}: cannot write there: HTTP(S) servers are read-only; write to s3:// or a path")
        _rumi.put_object(self.text, bytes(data), options)
