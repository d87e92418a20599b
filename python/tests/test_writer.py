"""rumi.Writer (blocks in any order), rumi.encode_rows in other processes, rumi.write on top of
them, and the errors of blocks that do not fit: pixels, sidecars and what is left on disk."""

import multiprocessing
import os
import pickle
import subprocess

import numpy as np
import pytest

import rumi
from conftest import CLI

TIMES = ["2020-01-01", "2020-02-01", "2020-03-01"]
GT = (500000.0, 10.0, 0.0, 4000000.0, 0.0, -10.0)


def cube(seed=0, shape=(3, 2, 100, 90), dtype="uint16"):
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[: shape[2], : shape[3]]
    smooth = (y * 7 + x * 3) % 1000
    return (smooth + rng.integers(0, 20, size=shape)).astype(dtype)


def writer(path, a, **kw):
    opts = dict(shape=a.shape, dtype=a.dtype, bands=["red", "nir"], times=TIMES, crs="EPSG:32633", geotransform=GT, tile=32)
    opts.update(kw)
    return rumi.Writer(path, **opts)


def validate(path):
    if CLI.exists():
        r = subprocess.run([str(CLI), "validate", str(path)], capture_output=True, text=True)
        assert r.returncode == 0, r.stdout + r.stderr


@pytest.mark.parametrize("order", [[0, 32, 64, 96], [96, 32, 0, 64], [64, 96, 0, 32]])
def test_blocks_in_any_order(tmp_path, order):
    a = cube()
    p = tmp_path / "c.rumi"
    with writer(p, a, nodata=[0, 65535]) as w:
        for y0 in order:
            w.write(a[:, :, y0 : y0 + 32], row=y0)
        assert w.missing_rows == []
    assert sorted(os.listdir(tmp_path)) == ["c.rumi", "c.rumi.aux.xml", "c.rumi.header"]
    with rumi.open(p) as ds:
        assert np.array_equal(ds.read(), a)
        assert ds.bands == ["red", "nir"] and list(ds.times.astype(str)) == [t + "T00:00:00" for t in TIMES]
        assert ds.geotransform == GT and ds.crs == "EPSG:32633"
    assert open(str(p) + ".header", "rb").read() == w.blob
    # nodata for GDAL readers: one entry per GDAL band (t * B + b + 1)
    assert rumi._rumi.pam_nodata(open(str(p) + ".aux.xml").read()) == [
        (i + 1, v) for i, v in enumerate(["0", "65535"] * 3)
    ]
    validate(p)


def test_write_is_one_block_and_in_order_blocks_give_the_same_bytes(tmp_path):
    a = cube(1)
    one = tmp_path / "one.rumi"
    rumi.write(one, a, bands=["red", "nir"], times=TIMES, crs="EPSG:32633", geotransform=GT, tile=32)
    rows = tmp_path / "rows.rumi"
    with writer(rows, a) as w:
        for y0 in range(0, 100, 32):
            w.write(a[:, :, y0 : y0 + 32], row=y0)
    assert one.read_bytes() == rows.read_bytes()


def _encode(args):
    spec, block, row = args
    return row, rumi.encode_rows(block, spec, row), os.getpid()


def test_encode_rows_in_other_processes(tmp_path):
    a = cube(2)
    p = tmp_path / "d.rumi"
    w = writer(p, a)
    spec = pickle.loads(pickle.dumps(w.spec))
    assert spec == w.spec
    jobs = [(spec, a[:, :, y0 : y0 + 64], y0) for y0 in (64, 0)]
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        results = pool.map(_encode, jobs)
    assert {pid for _, _, pid in results} != {os.getpid()}
    for row, enc, _ in results:
        w.write_encoded(row, enc)
    w.close()
    with rumi.open(p) as ds:
        assert np.array_equal(ds.read(), a)
    validate(p)


def test_failed_writes_leave_the_old_pair(tmp_path):
    a = cube(3)
    # an old pair stays untouched when a new write fails
    p = tmp_path / "keep.rumi"
    rumi.write(p, a, bands=["red", "nir"], times=TIMES, crs="EPSG:32633", geotransform=GT, tile=32)
    before = (p.read_bytes(), (tmp_path / "keep.rumi.header").read_bytes())
    with pytest.raises(rumi.RequestError, match=r"2 of 4 tile rows never written \(blocks at rows 64, 96\); nothing was written"):
        with writer(p, a[:, :, :, :50]) as w:
            w.write(a[:, :, 0:64, :50], row=0)
    with pytest.raises(ZeroDivisionError):
        with writer(p, a) as w:
            w.write(a[:, :, 0:32], row=0)
            1 / 0
    assert (p.read_bytes(), (tmp_path / "keep.rumi.header").read_bytes()) == before
    assert sorted(os.listdir(tmp_path)) == ["keep.rumi", "keep.rumi.header"]


def test_blocks_that_do_not_fit(tmp_path):
    a = cube(4)
    w = writer(tmp_path / "e.rumi", a)
    with pytest.raises(ValueError, match=r"row=16: blocks start at a tile row, a multiple of 32 below 100"):
        w.write(a[:, :, 16:48], row=16)
    with pytest.raises(ValueError, match=r"whole tile rows of 32 rows \(the last may end at row 100\): 20 rows given"):
        w.write(a[:, :, 0:20], row=0)
    with pytest.raises(ValueError, match=r"\(T, B, rows, X\) = \(3, 2, rows, 90\)"):
        w.write(a[:, :1, 0:32], row=0)
    with pytest.raises(TypeError, match="block dtype int16 is not the file's uint16"):
        w.write(a[:, :, 0:32].astype("int16"), row=0)
    w.write(a[:, :, 0:64], row=0)
    with pytest.raises(rumi.RequestError, match=r"e.rumi: tile row 1 \(pixel row 32\) written twice"):
        w.write(a[:, :, 32:64], row=32)
    # a failed block aborts the file: nothing is written, later calls say so
    with pytest.raises(rumi.RequestError, match="is aborted"):
        w.write(a[:, :, 64:96], row=64)
    assert os.listdir(tmp_path) == []


def test_bad_arguments(tmp_path):
    a = cube(5)
    with pytest.raises(TypeError, match="rumi has no sample encoding for numpy dtype object"):
        writer(tmp_path / "f.rumi", a, dtype=object)
    with pytest.raises(TypeError, match="big-endian"):
        writer(tmp_path / "f.rumi", a, dtype=">u2")
    with pytest.raises(ValueError, match="nodata must be one value or 2"):
        writer(tmp_path / "f.rumi", a, nodata=[1, 2, 3])
    with pytest.raises(ValueError, match=r"nodata\[0\] = -1 is not a uint16 value"):
        writer(tmp_path / "f.rumi", a, nodata=-1)
    with pytest.raises(ValueError, match="is a folder"):
        writer(tmp_path, a)
    with pytest.raises(rumi.RumiIOError, match="cannot create a temporary file beside"):
        writer(tmp_path / "no" / "such" / "f.rumi", a)
    assert os.listdir(tmp_path) == []


def test_levels(tmp_path):
    # level 0: the image predictors alone (no OpenZL numeric graph): the same pixels; levels
    # outside 0..22 are refused before anything is written
    a = cube(3, shape=(1, 2, 300, 260))
    sizes = {}
    for level in (0, 1, 7):
        p = tmp_path / f"l{level}.rumi"
        with writer(p, a, times=TIMES[:1], level=level) as w:
            w.write(a, row=0)
        with rumi.open(p) as ds:
            assert np.array_equal(ds.read(), a)
        sizes[level] = os.path.getsize(p)
    assert sizes[7] <= sizes[0] * 1.02, sizes  # the numeric candidate is kept only where it pays (on a sample)
    for bad in (-1, 23, 2.5, True):
        with pytest.raises(ValueError, match="level"):
            writer(tmp_path / "bad.rumi", a, times=TIMES[:1], level=bad)
    assert sorted(os.listdir(tmp_path)) == sorted(f"l{v}.rumi{s}" for v in (0, 1, 7) for s in ("", ".header"))


def test_graphs(tmp_path):
    # graph= as rumi convert --graph: "fast", the auto weights ("auto:4" is "auto", byte for
    # byte) and "image" write the same pixels, through rumi.write, rumi.Writer, encode_rows and
    # WriteOptions alike; a name it does not know, or a level with fast, is a ValueError naming
    # the accepted values, before anything is written
    a = cube(5, shape=(1, 2, 300, 260))
    t = TIMES[:1]
    kw = dict(bands=["red", "nir"], times=t, crs="EPSG:32633", geotransform=GT, tile=64)
    files = {}
    for graph in ("auto", "auto:4", "auto:0", "auto:25", "fast", "image"):
        p = tmp_path / f"{graph.replace(':', '_')}.rumi"
        rumi.write(p, a, graph=graph, **kw)
        with rumi.open(p) as ds:
            assert np.array_equal(ds.read(), a), graph
        validate(p)
        files[graph] = p.read_bytes()
    assert files["auto:4"] == files["auto"]
    assert files["fast"] != files["auto"]
    # the streaming writer, the pure encoding step and WriteOptions give the same file
    with writer(tmp_path / "w.rumi", a, times=t, tile=64, graph="fast") as w:
        w.write(a, row=0)
    assert (tmp_path / "w.rumi").read_bytes() == files["fast"]
    spec = rumi.WriteSpec.make(a.shape, a.dtype, graph="fast", **kw)
    assert pickle.loads(pickle.dumps(spec)).graph == "fast"
    with writer(tmp_path / "e.rumi", a, times=t, tile=64, graph="fast") as w:
        w.write_encoded(0, rumi.encode_rows(a, spec, 0))
    assert (tmp_path / "e.rumi").read_bytes() == files["fast"]
    from rumi._write import WriteOptions

    opts = WriteOptions(tile=64, graph="fast")
    rumi.write(tmp_path / "o.rumi", a, bands=["red", "nir"], times=t, crs="EPSG:32633", geotransform=GT,
               **{k: v for k, v in opts.kwargs().items() if k != "tile"}, tile=opts.tile)
    assert (tmp_path / "o.rumi").read_bytes() == files["fast"]
    before = sorted(os.listdir(tmp_path))
    for bad in ("x", "Fast", "auto:101", "auto:2.5", ""):
        with pytest.raises(ValueError, match=r"is not one of: auto \(the default\), auto:<percent>.*fast, image"):
            rumi.write(tmp_path / "bad.rumi", a, graph=bad, **kw)
        with pytest.raises(ValueError, match="is not one of"):
            writer(tmp_path / "bad.rumi", a, times=t, graph=bad)
    with pytest.raises(TypeError, match="graph must be a str"):
        rumi.write(tmp_path / "bad.rumi", a, graph=None, **kw)
    with pytest.raises(ValueError, match="level=3 cannot be combined with graph='fast'"):
        rumi.write(tmp_path / "bad.rumi", a, graph="fast", level=3, **kw)
    assert sorted(os.listdir(tmp_path)) == before
