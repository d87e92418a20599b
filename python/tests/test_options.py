"""Options as values (issue 49 item 2): rumi.WriteOptions given as write_options= writes the
files its keywords write, byte for byte, through rumi.write, rumi.Writer and rumi.to_rumi; a bad
option is refused with the keyword's text whichever way it is given, before anything is
written; an option given twice (a keyword and the value) is refused by name."""

from __future__ import annotations

import dataclasses
import os

import numpy as np
import pytest

import rumi

GT = (500000.0, 10.0, 0.0, 5100000.0, 0.0, -10.0)
TIMES = ["2020-05-18", "2020-06-18"]


def cube(shape=(2, 3, 150, 130), dtype="uint16", seed=3):
    rng = np.random.default_rng(seed)
    base = rng.integers(0, 3000, size=shape[-2:], dtype=np.int64)
    return (base + rng.integers(0, 40, size=shape)).astype(dtype)


def files_of(folder):
    """{name: bytes} of every file in folder (the rumi file and its sidecars)."""
    return {n: (folder / n).read_bytes() for n in sorted(os.listdir(folder))}


#: options that change the bytes written (tile, frame unit, level, graph, nodata -> .aux.xml),
#: and the default
CASES = [
    {},
    {"tile": 64, "nodata": 0, "level": 1},
    {"tile": (32, 96), "frame_unit": 0, "graph": "fast", "nodata": [0, 7, None], "threads": 2},
    {"graph": "auto:25", "frame_unit": 3, "force": True},
]


@pytest.mark.parametrize("kw", CASES, ids=lambda kw: ",".join(kw) or "defaults")
def test_write_options_write_the_files_their_keywords_write(tmp_path, kw):
    a = cube()
    desc = dict(bands=["red", "green", "nir"], times=TIMES, crs="EPSG:32633", geotransform=GT,
                scales=[0.5, 1, 2], offsets=[1, 0, 0])
    opts = rumi.WriteOptions(**kw)
    assert opts.kwargs() == {**rumi.WriteOptions().kwargs(), **kw}
    ways = {
        "write_kw": lambda p: rumi.write(p, a, **desc, **kw),
        "write_opts": lambda p: rumi.write(p, a, **desc, write_options=opts),
    }

    def writer(p, **more):
        # a frame unit of its own (rumi.write samples one when it is None; the Writer does not)
        with rumi.Writer(p, shape=a.shape, dtype=a.dtype, **desc, **more) as w:
            th = w.spec.tile[0]
            for row in reversed(range(0, a.shape[2], th)):  # blocks of one tile row, last first
                w.write(a[:, :, row:row + th], row=row)
        return w

    ways["writer_kw"] = lambda p: writer(p, **kw)
    ways["writer_opts"] = lambda p: writer(p, write_options=opts)
    out = {}
    for name, fn in ways.items():
        d = tmp_path / name
        d.mkdir()
        fn(d / "x.rumi")
        with rumi.open(d / "x.rumi") as ds:
            np.testing.assert_array_equal(ds.read(), a)
            if "nodata" in kw:
                want = kw["nodata"] if isinstance(kw["nodata"], list) else [kw["nodata"]] * 3
                assert ds.nodatavals == tuple(None if v is None else float(v) for v in want)
        out[name] = files_of(d)
    assert out["write_kw"] == out["write_opts"]
    assert out["writer_kw"] == out["writer_opts"]
    assert set(out["write_kw"]) == {"x.rumi", "x.rumi.header", "x.rumi.aux.xml"}
    w = rumi.Writer(tmp_path / "y.rumi", shape=a.shape, dtype=a.dtype, **desc, write_options=opts)
    assert w.write_options == opts and w.spec.graph == opts.graph and w.spec.tile == opts.tile_hw
    w.abort()


@pytest.mark.parametrize("kw", CASES[:3], ids=lambda kw: ",".join(kw) or "defaults")
def test_to_rumi_with_write_options_writes_the_keywords_file(tmp_path, kw):
    xr = pytest.importorskip("xarray")
    a = cube()
    y = GT[3] + GT[5] * (np.arange(a.shape[2]) + 0.5)
    x = GT[0] + GT[1] * (np.arange(a.shape[3]) + 0.5)
    da = xr.DataArray(a, dims=("time", "band", "y", "x"),
                      coords={"time": np.array(TIMES, dtype="datetime64[ns]"), "band": ["red", "green", "nir"],
                              "y": y, "x": x})
    opts = rumi.WriteOptions(**kw)
    out = {}
    for name, call in {
        "kw": lambda p: rumi.to_rumi(da, p, crs="EPSG:32633", **kw),
        "opts": lambda p: rumi.to_rumi(da, p, crs="EPSG:32633", write_options=opts),
        "accessor": lambda p: da.rumi.to_rumi(p, crs="EPSG:32633", write_options=opts),
        "dask": lambda p: rumi.to_rumi(da.chunk({"y": 64}), p, crs="EPSG:32633", block_bytes=1, write_options=opts),
        "dask_kw": lambda p: rumi.to_rumi(da.chunk({"y": 64}), p, crs="EPSG:32633", block_bytes=1, **kw),
    }.items():
        if name.startswith("dask"):
            pytest.importorskip("dask")
        d = tmp_path / name
        d.mkdir()
        call(d / "x.rumi")
        with rumi.open(d / "x.rumi") as ds:
            np.testing.assert_array_equal(ds.read(), a)
        out[name] = files_of(d)
    assert out["kw"] == out["opts"] == out["accessor"]
    assert out["dask"] == out["dask_kw"]


#: a bad option -> its error (type, the text every writer gave before options were values)
BAD = [
    ({"tile": 0}, ValueError, "tile must be an int or (height, width) in 1..65535, got (0, 0)"),
    ({"tile": (64, 70000)}, ValueError, "tile must be an int or (height, width) in 1..65535, got (64, 70000)"),
    ({"level": 23}, ValueError, "level=23: an OpenZL level 1..22, or 0 for no numeric candidate (default 7)"),
    ({"level": True}, ValueError, "level=True: an OpenZL level 1..22, or 0 for no numeric candidate (default 7)"),
    ({"frame_unit": 10}, ValueError, "frame_unit must be an int 0..9, got 10"),
    ({"frame_unit": 1.5}, ValueError, "frame_unit must be an int 0..9, got 1.5"),
    ({"graph": None}, TypeError, "graph must be a str (as rumi convert --graph), not NoneType"),
    ({"graph": "fast", "level": 3}, ValueError, "level=3 cannot be combined with graph='fast' (it has no numeric candidate)"),
    ({"graph": "Fast"}, ValueError, 'graph "Fast" is not one of: auto (the default), auto:<percent>'),
]


@pytest.mark.parametrize("kw,exc,text", BAD, ids=[",".join(f"{k}={v}" for k, v in b[0].items()) for b in BAD])
def test_a_bad_option_is_the_keywords_error_whichever_way_it_is_given(tmp_path, kw, exc, text):
    a = cube(shape=(1, 2, 40, 30))
    desc = dict(bands=["red", "nir"], times=TIMES[:1], crs="EPSG:32633", geotransform=GT)
    calls = [
        lambda: rumi.write(tmp_path / "x.rumi", a, **desc, **kw),
        lambda: rumi.Writer(tmp_path / "x.rumi", shape=a.shape, dtype=a.dtype, **desc, **kw),
        lambda: rumi.WriteSpec.make(a.shape, a.dtype, **desc, **kw),
        lambda: rumi.WriteOptions(**kw),
    ]
    try:
        import xarray as xr

        da = xr.DataArray(a[0], dims=("band", "y", "x"), coords={"band": ["red", "nir"]})
        calls.append(lambda: rumi.to_rumi(da, tmp_path / "x.rumi", times=TIMES[:1], crs="EPSG:32633",
                                          geotransform=GT, **kw))
    except ImportError:
        pass
    for call in calls:
        with pytest.raises(exc) as ei:
            call()
        assert str(ei.value).startswith(text), (call, str(ei.value))
    assert os.listdir(tmp_path) == []


def test_an_option_given_twice_is_refused_by_name(tmp_path):
    a = cube(shape=(1, 2, 40, 30))
    desc = dict(bands=["red", "nir"], times=TIMES[:1], crs="EPSG:32633", geotransform=GT)
    opts = rumi.WriteOptions(tile=16)
    with pytest.raises(TypeError, match=r"rumi\.write .*x\.rumi: tile=, graph= given beside write_options="):
        rumi.write(tmp_path / "x.rumi", a, **desc, tile=32, graph="fast", write_options=opts)
    with pytest.raises(TypeError, match=r"rumi\.Writer .*: nodata= given beside write_options="):
        rumi.Writer(tmp_path / "x.rumi", shape=a.shape, dtype=a.dtype, **desc, nodata=0, write_options=opts)
    with pytest.raises(TypeError, match=r"write_options= takes a WriteOptions, not dict"):
        rumi.write(tmp_path / "x.rumi", a, **desc, write_options={"tile": 16})
    for call in (lambda: rumi.write(tmp_path / "x.rumi", a, **desc, tiles=16),
                 lambda: rumi.Writer(tmp_path / "x.rumi", shape=a.shape, dtype=a.dtype, **desc, tiles=16)):
        with pytest.raises(TypeError, match="got an unexpected keyword argument 'tiles'"):
            call()
    with pytest.raises(TypeError, match="unexpected keyword argument 'tiles'"):
        rumi.WriteOptions(tiles=16)
    assert os.listdir(tmp_path) == []
    # the keywords at their defaults beside the value are not "given"
    rumi.write(tmp_path / "x.rumi", a, **desc, tile=256, graph="auto", write_options=opts)
    with rumi.open(tmp_path / "x.rumi") as ds:
        assert ds.tile_shape == (16, 16)
    # a value is frozen: one file's change is a new value, checked again
    with pytest.raises(dataclasses.FrozenInstanceError):
        opts.tile = 32  # type: ignore[misc]
    with pytest.raises(ValueError, match="frame_unit must be an int 0..9, got 11"):
        dataclasses.replace(opts, frame_unit=11)
