"""s3:// from a dask.distributed cluster: the workers that encode the blocks upload them as the
numbered parts of one multipart upload, so the frames never travel through this process.

This process plans the parts: as the encoded sizes come in (in any order), consecutive blocks
are grouped in file order into parts of at least MIN_PART bytes (S3's rule for all but the
last part) and each group is uploaded by a worker task that holds (or fetches) its blocks.
Part 0 holds the prefix (header, IFD, offsets, byte counts: known once every size is) and is
uploaded last; the last part ends with the trailer. The upload is then completed and the
sidecars written (rumi.store's `Parts`). A retried task (a worker lost) uploads the same part
again, with the same bytes (encoding is deterministic). Any error aborts the upload; a guard
process (`python -m rumi._guard`) aborts it when this process dies without saying it is done,
SIGKILL included, so no pending upload and no orphaned part is left behind."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

from . import _rumi
from ._write import WriteSpec, encode_block

#: the smallest part S3 takes (but for the last one)
MIN_PART = 5 << 20
#: parts this process uploaded (tests: on a cluster, the workers do, never the client)
PUTS = 0


def _counts(enc: tuple[int, bytes, list[int]]) -> list[int]:
    return list(enc[2])


def _put(url: str, upload: str, index: int, head: bytes, tail: bytes, options: dict[str, Any],
         *encoded: tuple[int, bytes, list[int]]) -> str:
    global PUTS
    pieces = [head, *(e[1] for e in encoded), tail]
    etag = str(_rumi.parts_put(url, upload, index, [p for p in pieces if len(p)], options))
    PUTS += 1
    return etag


class Guard:
    """A process that aborts the upload unless told it is finished (this process's end closes
    its stdin: it then aborts, whatever killed us)."""

    def __init__(self, url: str, upload: str, options: dict[str, Any]) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "rumi._guard"], stdin=subprocess.PIPE, text=True,
            start_new_session=True,  # a Ctrl-C to our process group does not stop it first
        )
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps({"url": url, "id": upload, "options": options}) + "\n")
        self.proc.stdin.flush()

    def release(self, done: bool = True) -> None:
        """done: the upload is completed or aborted, the guard exits without touching it; else
        the guard aborts it (again) and this waits for it."""
        assert self.proc.stdin is not None
        try:
            if done:
                self.proc.stdin.write("done\n")
            self.proc.stdin.close()
        except BrokenPipeError:
            pass
        try:
            self.proc.wait(60)
        except subprocess.TimeoutExpired:
            pass  # an abort still retrying against a slow endpoint: it goes on by itself


def storage_options(options: dict[str, Any] | None) -> dict[str, Any]:
    """The options the workers need: ours, and this process's AWS_* settings (the workers may
    have been started before they were set, or elsewhere)."""
    out = dict(options or {})
    out.setdefault("env", {k: v for k, v in os.environ.items() if k.startswith("AWS_")})
    return out


def write(client: Any, spec: WriteSpec, dest: str, aux: str | None, options: dict[str, Any] | None,
          pieces: list[Any], places: list[tuple[int, int | None]]) -> bytes:
    """Encodes `pieces` (dask delayed blocks at `places`, in file order: (pixel row, None) for
    whole tile rows, (pixel row, pixel column) for tiles of one tile row) on the cluster and uploads them from the workers as the parts of `dest`; returns the header blob."""
    import dask
    from distributed import as_completed

    opts = storage_options(options)
    native = spec.native()
    n = len(pieces)
    upload = _rumi.parts_start(dest, opts)
    try:
        guard = Guard(dest, upload, opts)
    except BaseException:
        _rumi.parts_abort(dest, upload, opts)
        raise
    encoded: list[Any] = []
    uploads: dict[int, Any] = {}

    def put(part: int, lo: int, hi: int, head: bytes = b"", tail: bytes = b"") -> None:
        uploads[part] = client.submit(_put, dest, upload, part, head, tail, opts, *encoded[lo:hi], pure=False)
        if part:
            encoded[lo:hi] = [None] * (hi - lo)  # the upload task holds them now

    try:
        encode = dask.delayed(encode_block, pure=True)
        encoded = client.compute([encode(p, spec, *at) for p, at in zip(pieces, places)])
        sizing = [client.submit(_counts, f, pure=False) for f in encoded]
        where = {f.key: i for i, f in enumerate(sizing)}
        known: list[list[int] | None] = [None] * n
        # part 0 starts with the prefix, whose length depends only on B and N
        nxt, start, part, acc, first_end = 0, 0, 0, _rumi.base_frame_offset(native), n
        for f in as_completed(sizing):
            known[where[f.key]] = f.result()
            f.release()
            while nxt < n and (k := known[nxt]) is not None:
                acc, nxt = acc + sum(k), nxt + 1
                if acc >= MIN_PART and nxt < n:  # a part closes (never with the last block)
                    if part == 0:
                        first_end = nxt  # uploaded last, with the prefix
                    else:
                        put(part, start, nxt)
                    part, start, acc = part + 1, nxt, 0
        counts = [c for k in known if k is not None for c in k]
        prefix, trailer, blob = _rumi.assemble(native, counts)
        if part == 0:  # one part: prefix, every block, trailer
            put(0, 0, n, bytes(prefix), bytes(trailer))
        else:
            put(part, start, n, tail=bytes(trailer))
            put(0, 0, first_end, head=bytes(prefix))
        encoded = []
        etags = [str(uploads[i].result()) for i in range(len(uploads))]
        _rumi.parts_finish(dest, upload, etags, bytes(blob), aux, opts)
    except BaseException:
        aborted = False
        try:
            client.cancel([f for f in encoded if f is not None] + list(uploads.values()))
            _rumi.parts_abort(dest, upload, opts)
            aborted = True
        except Exception:  # noqa: BLE001 (the first error is the one to report; the guard retries)
            pass
        guard.release(done=aborted)
        raise
    guard.release()
    return bytes(blob)
