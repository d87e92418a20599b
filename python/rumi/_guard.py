"""`python -m rumi._guard`: aborts a multipart upload unless told it is finished.

Reads one JSON line {"url", "id", "options"} from stdin, then waits for stdin to end. A "done"
line first means the upload was completed or aborted by its owner: nothing to do. Anything else
(the owner died: its end of the pipe closed, SIGKILL included) aborts the upload, so that no
pending upload and no uploaded part outlives a failed build."""

from __future__ import annotations

import json
import sys


def main() -> int:
    first = sys.stdin.readline()
    if not first.strip():
        return 0
    job = json.loads(first)
    if sys.stdin.read().strip() == "done":
        return 0
    from . import _rumi

    try:
        _rumi.parts_abort(job["url"], job["id"], job.get("options"))
    except Exception as e:  # noqa: BLE001 (reported, nothing else can be done)
        print(f"rumi: the multipart upload {job['id']} of {job['url']} could not be aborted: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
