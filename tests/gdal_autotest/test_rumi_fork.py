"""fork() with a dataset open in the parent (Python's multiprocessing with the "fork" start
method, a DataLoader's workers): the children and the parent read the same dataset at the same
time and each gets its own pixels. The parent's VSI handle (a local file's descriptor) shares its
file offset with the children, so the driver reopens the file in a process forked after the
open; reads through the shared handle once interleaved their seeks and failed with a decode
error that blamed the header blob (or, worse, could return other bytes)."""

import os

import numpy as np
import pytest
from osgeo import gdal

from rumi_util import config_option, make_rumi, sample_array

CHILDREN = 4
ROUNDS = 40  # whole-raster reads per process: every frame fetched and decoded each time


@pytest.mark.parametrize("sidecar", [True, False], ids=["stateless", "validated"])
def test_forked_children_read_the_parents_dataset(tmp_path, sidecar):
    data = sample_array("uint16", 1, 3, 256, 320, seed=5)
    path = tmp_path / "f.rumi"
    make_rumi(path, data, "uint16", tile=(32, 32), frame_unit=0, header=f"{path}.header" if sidecar else None)
    # no decoded-frame cache: every read goes to the file
    with config_option("RUMI_CACHE_MB", "0"):
        ds = gdal.Open(str(path))
    assert ds.GetMetadataItem("OPEN_MODE", "RUMI") == ("STATELESS" if sidecar else "VALIDATED")
    want = data[0]
    np.testing.assert_array_equal(ds.ReadAsArray(), want)
    children = []
    for k in range(CHILDREN):
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: read, report on the pipe, and leave without pytest's teardown
            status = b"ok"
            try:
                os.close(r)
                for i in range(ROUNDS):
                    # windows of every size, and the whole raster
                    x = (37 * (i + k)) % 200
                    got = ds.ReadAsArray(x, 0, 320 - x, 256) if i % 2 else ds.ReadAsArray()
                    if not np.array_equal(got, want[:, :, x:] if i % 2 else want):
                        status = f"child {k}: round {i}: other pixels".encode()
                        break
            except BaseException as e:  # noqa: BLE001 - reported to the parent
                status = f"child {k}: {e}".encode()
            finally:
                os.write(w, status)
                os._exit(0)
        os.close(w)
        children.append((pid, r))
    errors = []
    try:
        for i in range(ROUNDS):
            if not np.array_equal(ds.ReadAsArray(), want):
                errors.append(f"parent: round {i}: other pixels")
    except RuntimeError as e:
        errors.append(f"parent: {e}")
    for pid, r in children:
        with os.fdopen(r, "rb") as f:
            status = f.read().decode()
        os.waitpid(pid, 0)
        if status != "ok":
            errors.append(status)
    assert not errors, errors
    ds = None


FORKS = 24


def test_a_child_forked_while_a_parent_thread_reads_does_not_hang(tmp_path):
    """fork() while another thread of the parent is inside a read: the child's copy of the
    handle's lock is held by a thread the child does not have. The child decides on the process
    id before taking any lock and reads through a handle of its own; it waited for that lock
    forever before. Each child reads the whole raster once; one still running after 60 s is
    killed and named."""
    import signal
    import threading
    import time

    data = sample_array("uint16", 1, 3, 256, 320, seed=6)
    path = tmp_path / "f.rumi"
    make_rumi(path, data, "uint16", tile=(32, 32), frame_unit=0)
    with config_option("RUMI_CACHE_MB", "0"):
        ds = gdal.Open(str(path))
    # ReadRaster, not ReadAsArray: that imports osgeo.gdal_array at each call, and a child
    # forked while the thread held that module's import lock would wait on Python's lock
    whole, corner = data[0].tobytes(), np.ascontiguousarray(data[0][:, :64, :64]).tobytes()
    stop = threading.Event()
    errors = []

    def reader():  # the parent's other thread: always in a read (GDAL releases the GIL)
        try:
            while not stop.is_set():
                if ds.ReadRaster(0, 0, 64, 64) != corner:
                    errors.append("parent thread: other pixels")
        except RuntimeError as e:
            errors.append(f"parent thread: {e}")

    t = threading.Thread(target=reader)
    t.start()
    children = []
    try:
        for k in range(FORKS):
            time.sleep(0.002 * (k % 5))
            pid = os.fork()
            if pid == 0:  # read once; the exit status says whether the pixels were right
                ok = False
                try:
                    ok = ds.ReadRaster() == whole
                finally:
                    os._exit(0 if ok else 1)
            children.append(pid)
    finally:
        stop.set()
        t.join()
    deadline = time.monotonic() + 60
    for pid in children:
        while True:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                if os.waitstatus_to_exitcode(status) != 0:
                    errors.append(f"child {pid}: other pixels or an error")
                break
            if time.monotonic() > deadline:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                errors.append(f"child {pid}: still reading after 60 s (waiting on a lock copied held by fork)")
                break
            time.sleep(0.05)
    assert not errors, errors
    ds = None
