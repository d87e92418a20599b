"""DLPack export (spec type table, no copy), ml_dtypes absent, fork/spawn/forkserver workers."""

import ctypes
import multiprocessing as mp
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import rumi
from test_read_write import cube, write_cube


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32),
                ("ndim", ctypes.c_int32), ("dtype", DLDataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


class DLManagedTensorVersioned(ctypes.Structure):
    _fields_ = [("major", ctypes.c_uint32), ("minor", ctypes.c_uint32), ("manager_ctx", ctypes.c_void_p),
                ("deleter", ctypes.c_void_p), ("flags", ctypes.c_uint64), ("dl_tensor", DLTensor)]


def inspect_capsule(cap):
    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.restype, get.argtypes = ctypes.c_void_p, [ctypes.py_object, ctypes.c_char_p]
    p = get(cap, b"dltensor_versioned")
    t = DLManagedTensorVersioned.from_address(p)
    d = t.dl_tensor
    return (t.major, t.minor), (d.dtype.code, d.dtype.bits, d.dtype.lanes), [d.shape[i] for i in range(d.ndim)], d.data


SPEC_TABLE = {
    "bool": (6, 8), "uint8": (1, 8), "int16": (0, 16), "uint64": (1, 64), "float16": (2, 16), "float32": (2, 32),
    "complex64": (5, 64), "complex128": (5, 128), "bfloat16": (4, 16), "float8_e4m3fn": (10, 8),
    "float8_e4m3fnuz": (11, 8), "float8_e5m2": (12, 8), "float8_e5m2fnuz": (13, 8),
}


@pytest.mark.parametrize("name", sorted(SPEC_TABLE))
def test_dlpack_types_follow_the_spec_and_share_memory(tmp_path, name):
    if name in rumi._dtypes.ML_TYPES:
        ml = pytest.importorskip("ml_dtypes")
        a = cube(T=1, B=2, Y=20, X=24, dtype=np.float32).astype(getattr(ml, name))
    else:
        a = cube(T=1, B=2, Y=20, X=24, dtype=name)
    ds = rumi.open(write_cube(str(tmp_path / "d.rumi"), a))
    r = ds.read()
    version, dtype, shape, data = inspect_capsule(r.__dlpack__(max_version=(1, 1)))
    assert version == (1, 1)
    assert dtype == SPEC_TABLE[name] + (1,)
    assert shape == [1, 2, 20, 24]
    assert data == r.ctypes.data  # no copy
    assert r.__dlpack_device__() == (1, 0)
    t = ds.read_tensor()
    assert inspect_capsule(t.__dlpack__(max_version=(1, 0)))[1] == SPEC_TABLE[name] + (1,)
    if name not in rumi._dtypes.ML_TYPES:
        x = np.from_dlpack(r)
        assert x.dtype == a.dtype and np.shares_memory(x, r) and np.array_equal(x, a)


def test_without_ml_dtypes_numpy_reads_fail_clearly_and_dlpack_works(tmp_path):
    ml = pytest.importorskip("ml_dtypes")
    a = cube(T=1, B=1, Y=20, X=20, dtype=np.float32).astype(ml.bfloat16)
    p = write_cube(str(tmp_path / "bf.rumi"), a)
    code = textwrap.dedent(f"""
        import sys, ctypes
        sys.modules["ml_dtypes"] = None
        import rumi
        ds = rumi.open({p!r})
        try:
            ds.read()
        except rumi.UnsupportedError as e:
            assert "ml_dtypes" in str(e), e
            print("unsupported ok")
        t = ds.read_tensor()
        cap = t.__dlpack__(max_version=(1, 1))
        print("capsule", type(cap).__name__, t.shape, t.encoding)
    """)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "unsupported ok" in r.stdout and "capsule PyCapsule (1, 1, 20, 20) bfloat16" in r.stdout


def test_complex32_has_no_numpy_type_but_dlpack(tmp_path):
    ds = rumi.open(write_cube(str(tmp_path / "c.rumi"), cube(T=1, B=1, Y=8, X=8, dtype=np.int16)))
    with pytest.raises(rumi.UnsupportedError):
        rumi.numpy_dtype("complex32")
    assert ds.read_tensor().encoding == "int16"


# ---- fork safety: a Dataset opened in the parent, used in children ---------------------------

_SHARED = {}


def _child_read(args):
    win = args
    ds = _SHARED["ds"]
    return os.getpid(), ds.read(window=win).tobytes()


def _child_read_pickled(args):
    ds, win = args
    return os.getpid(), ds.read(window=win).tobytes()


@pytest.mark.parametrize("method", ["fork", "spawn", "forkserver"])
def test_workers_after_fork_spawn_forkserver(tmp_path, method):
    a = cube(T=2, B=3, Y=300, X=260, dtype=np.uint16)
    p = write_cube(str(tmp_path / "w.rumi"), a)
    ds = rumi.open(p, threads=2)
    # the parent reads first: its decode pools and reader state exist before the fork
    assert np.array_equal(ds.read(window=(0, 0, 100, 100)), a[:, :, :100, :100])
    wins = [(r, c, 64, 64) for r in (0, 100, 200) for c in (0, 90, 180)]
    ctx = mp.get_context(method)
    _SHARED["ds"] = ds  # inherited by fork children (they never opened it)
    with ctx.Pool(2) as pool:
        if method == "fork":
            job = pool.map_async(_child_read, wins, chunksize=1)
        else:
            job = pool.map_async(_child_read_pickled, [(ds, w) for w in wins], chunksize=1)
        # a worker that dies loses its task and Pool waits for it forever: fail instead (seen once
        # in a full run on a loaded 2-core machine, the spawn case)
        outs = job.get(timeout=300)
    assert all(pid != os.getpid() for pid, _ in outs)
    for (r, c, h, w), (_, raw) in zip(wins, outs):
        got = np.frombuffer(raw, np.uint16).reshape(2, 3, h, w)
        assert np.array_equal(got, a[:, :, r:r + h, c:c + w])
    # the parent still works after its children
    assert np.array_equal(ds.read(window=(5, 5, 50, 50)), a[:, :, 5:55, 5:55])


def test_raw_fork_child_rebuilds_its_reader(tmp_path):
    a = cube(T=1, B=2, Y=200, X=200, dtype=np.float32)
    ds = rumi.open(write_cube(str(tmp_path / "f.rumi"), a), threads=2)
    ds.read()
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # child: reads with 2 threads, writes the result, exits without cleanup
        try:
            ok = np.array_equal(ds.read(threads=2), a) and ds.native is not None
            os.write(w, b"ok" if ok else b"bad")
        finally:
            os._exit(0)
    os.close(w)
    _, status = os.waitpid(pid, 0)
    assert os.read(r, 10) == b"ok" and status == 0


def forked(fn, timeout=60):
    """fn() in a child of os.fork(): 0 when it returned True, 1 when not (or raised), "hung" when
    the child still ran after timeout seconds (then killed)."""
    import signal
    import time

    pid = os.fork()
    if pid == 0:
        ok = False
        try:
            ok = bool(fn())
        finally:
            os._exit(0 if ok else 1)
    deadline = time.monotonic() + timeout
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return "hung"
        time.sleep(0.02)


def holding(lock):
    """A thread of this process that holds lock until the returned function is called."""
    import threading

    held, release = threading.Event(), threading.Event()

    def hold():
        with lock:
            held.set()
            release.wait()

    t = threading.Thread(target=hold)
    t.start()
    held.wait()

    def done():
        release.set()
        t.join()

    return done


def test_a_child_forked_while_a_parent_thread_holds_the_datasets_lock_reads(tmp_path):
    """fork() copies a held threading.Lock held: the child's first read took the Dataset's lock
    (to reopen its reader) and waited forever."""
    a = cube(T=1, B=2, Y=100, X=120, dtype=np.uint16)
    ds = rumi.open(write_cube(str(tmp_path / "l.rumi"), a), threads=2)
    ds.read()
    done = holding(ds._lock)  # as a parent's thread inside Dataset.close holds it
    try:
        status = forked(lambda: np.array_equal(ds.read(), a))
    finally:
        done()
    assert status == 0
    assert np.array_equal(ds.read(), a)


def test_children_forked_while_a_parent_thread_reads_do_not_hang(tmp_path):
    """fork() while another thread of the parent is inside a read (its decoded-frame cache's
    lock, the decode pool's registry): each child reads on its own. Probabilistic: 24 forks at
    varied moments of the parent's reads (the hang reproduced within 40 such rounds before)."""
    import threading
    import time

    a = cube(T=1, B=3, Y=256, X=320, dtype=np.uint16)
    ds = rumi.open(write_cube(str(tmp_path / "r.rumi"), a), threads=2)
    stop, errors = threading.Event(), []

    def reader():
        while not stop.is_set():
            if not np.array_equal(ds.read(window=(0, 0, 64, 64)), a[:, :, :64, :64]):
                errors.append("parent thread: other pixels")

    t = threading.Thread(target=reader)
    t.start()
    try:
        for k in range(24):
            time.sleep(0.002 * (k % 5))
            status = forked(lambda: np.array_equal(ds.read(), a))
            if status != 0:
                errors.append(f"child {k}: {status}")
    finally:
        stop.set()
        t.join()
    assert not errors, errors
