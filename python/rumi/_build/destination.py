"""Where a build goes: the destination folder or s3:// prefix (a rumi Location), its manifest
(rumi-build.json: per file, the fingerprint of what it was built from, its size and the SHA-256
of its header blob), whether a file is up to date, and the catalogue of the files."""

from __future__ import annotations

import hashlib
import json
import os
import warnings
import sys
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from .._errors import RequestError
from .._location import Location

BUILD_FORMAT = 2  # bump when the same inputs would give different files
MANIFEST = "rumi-build.json"
CATALOG = "catalog.parquet"


@dataclass(frozen=True)
class Destination:
    """A build's destination: a local folder or an s3:// prefix, and the object-storage options
    its reads and writes use."""

    root: Location
    options: dict[str, Any] | None = None

    @staticmethod
    def parse(dest: str | os.PathLike[str], options: dict[str, Any] | None = None) -> Destination:
        """The destination of dest=, refused by name unless a local folder (or a path to one) or
        an s3:// prefix with a bucket."""
        text = os.fspath(dest)
        try:
            loc = Location.parse(text)
        except RequestError:
            loc = None
        if loc is None or loc.scheme not in ("file", "s3"):
            raise ValueError(f"dest {text}: rumi.build writes to a local folder or an s3:// prefix")
        if loc.is_remote:
            bucket, _, prefix = text[len("s3://"):].partition("/")
            if not bucket:
                raise ValueError(f"dest {text}: no bucket")
            prefix = prefix.strip("/")
            loc = Location(f"s3://{bucket}" + (f"/{prefix}" if prefix else ""), loc.scheme)
        elif os.path.exists(text) and not os.path.isdir(text):
            raise ValueError(f"dest {text} exists and is not a folder")
        return Destination(loc, options)

    def url(self, name: str) -> str:
        """The path or URL of the file name in the destination."""
        return str(self.root.child(name))

    def read(self, name: str) -> bytes | None:
        """The whole (small) file name, None when it is missing."""
        return self.root.child(name).read(self.options, missing_ok=True)

    def size(self, name: str) -> int | None:
        """The size of the file name, None when it is missing."""
        return self.root.child(name).size(self.options)

    def put(self, name: str, data: bytes) -> None:
        """Writes the file name atomically and durably (rumi.Location.put)."""
        self.root.child(name).put(data, self.options)

    def prepare(self) -> bool:
        """Makes a local folder that does not exist yet; True when it made one. In an existing
        one, removes the temporary files a killed run left (rumi._rumi.clean_stale, as `rumi
        convert` does at start)."""
        if self.root.is_remote:
            return False
        if os.path.isdir(self.root.text):
            from .._internal import _rumi

            for p in _rumi.clean_stale(os.path.join(self.root.text, "x")):
                warnings.warn(f"rumi.build: removed {p}, left by an interrupted run", RuntimeWarning, stacklevel=2)
            return False
        os.makedirs(self.root.text, exist_ok=True)
        return True

    def unprepare(self) -> None:
        """Removes the local folder prepare made, when it is still empty."""
        try:
            os.rmdir(self.root.text)
        except OSError:
            pass

    # --- the manifest ---------------------------------------------------------------------

    def read_manifest(self) -> dict[str, Any]:
        """file name -> its manifest entry; {} without a manifest of this BUILD_FORMAT (an
        unreadable one is said on stderr: every cell is rebuilt)."""
        try:
            data = self.read(MANIFEST)
            doc = None if data is None else json.loads(data)
        except (OSError, ValueError) as e:
            print(f"rumi.build: ignoring unreadable manifest {self.url(MANIFEST)} ({e}); every cell is rebuilt", file=sys.stderr)
            return {}
        if not isinstance(doc, dict) or doc.get("format") != BUILD_FORMAT or not isinstance(doc.get("files"), dict):
            return {}
        return dict(doc["files"])

    def write_manifest(self, files: Mapping[str, Any]) -> None:
        """Puts the manifest of files (name -> entry)."""
        self.put(MANIFEST, json.dumps({"format": BUILD_FORMAT, "files": dict(files)}, indent=1, sort_keys=True).encode())

    def up_to_date(self, name: str, entry: Any, fingerprint: str) -> bool:
        """Whether the manifest entry of file name records this fingerprint and the file, its
        header sidecar (by SHA-256) and its nodata sidecar are as the entry says."""
        if not isinstance(entry, dict) or entry.get("fingerprint") != fingerprint:
            return False
        try:
            if self.size(name) != entry.get("size"):
                return False
            blob = self.read(name + ".header")
            if blob is None or (entry.get("aux") and self.size(name + ".aux.xml") is None):
                return False  # no sidecar, or the nodata sidecar is gone
        except OSError:
            return False
        return hashlib.sha256(blob).hexdigest() == entry.get("header_sha256")

    # --- the catalogue --------------------------------------------------------------------

    def catalogue(self, names: Sequence[str], sizes: Mapping[str, int], classes: Any = None) -> Any:
        """The rumi.Catalog of the files names (their sizes as written: no HEAD per object),
        put as dest/catalog.parquet; classes: the bands rumi:classes counts (Catalog.build's)."""
        import pyarrow as pa

        from ..catalog import Catalog, describe, schema, write_table
        from ..catalog.columns import FILE_SIZE

        rows = []
        for n in names:
            row = describe(self.url(n), options=self.options, classes=classes)
            row[FILE_SIZE] = sizes.get(n, row[FILE_SIZE])
            rows.append(row)
        write_table(pa.Table.from_pylist(rows, schema=schema()), self.url(CATALOG), options=self.options)
        return Catalog.open(self.url(CATALOG))


def fingerprint(records: list[Any], params: Mapping[str, Any]) -> str:
    """The SHA-256 of what a file is built from: its items' records and the parameters that
    change its pixels (and BUILD_FORMAT)."""
    doc = json.dumps({"format": BUILD_FORMAT, "params": dict(params), "items": sorted(records, key=repr)}, sort_keys=True, default=repr)
    return hashlib.sha256(doc.encode()).hexdigest()


def fingerprint_texts(records: Sequence[str], params: Mapping[str, Any]) -> str:
    """fingerprint() of records given as their JSON texts (json.dumps(record, sort_keys=True,
    default=repr)), already in the order of their records' repr: the same digest, without
    serialising a record again for each file it is in."""
    h = hashlib.sha256()
    h.update(b'{"format": ' + json.dumps(BUILD_FORMAT).encode() + b', "items": [')
    h.update(", ".join(records).encode())
    h.update(b'], "params": ' + json.dumps(dict(params), sort_keys=True, default=repr).encode() + b"}")
    return h.hexdigest()

