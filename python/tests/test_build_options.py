"""rumi.build and plan_build with write_options= (issue 49 item 2): one rumi.WriteOptions instead
of tile, level, frame_unit, threads, graph and storage_options plans the same files (the same
fingerprints) and builds the same bytes as those keywords; a bad option is refused with the
writers' text before anything is read or written."""

from __future__ import annotations

import os

import numpy as np
import pytest

import rumi

# the build tests' fixtures and items (skips as they do without odc-stac)
from test_build import SYNTHETIC, _refuse_loads, _synthetic_plan, si, stac  # noqa: F401

pytestmark = pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")

KW = dict(tile=128, level=1, frame_unit=0, graph="auto:25", threads=2)


def test_plan_with_write_options_is_the_keywords_plan(tmp_path, monkeypatch):
    _refuse_loads(monkeypatch)
    out = tmp_path / "plan"
    items = si.synthetic_items(SYNTHETIC)
    by_kw = _synthetic_plan(out, items, **KW)
    by_value = _synthetic_plan(out, si.synthetic_items(SYNTHETIC), write_options=rumi.WriteOptions(**KW))
    assert by_value.write == by_kw.write == rumi.WriteOptions(**KW)
    assert [(f.name, f.fingerprint) for f in by_value.files] == [(f.name, f.fingerprint) for f in by_kw.files]
    default = _synthetic_plan(out, si.synthetic_items(SYNTHETIC))
    assert not {f.fingerprint for f in default.files} & {f.fingerprint for f in by_kw.files}
    assert [f.fingerprint for f in _synthetic_plan(out, items, write_options=rumi.WriteOptions()).files] == [
        f.fingerprint for f in default.files]
    # given twice: refused by the keyword's name (storage_options is the value's options)
    with pytest.raises(TypeError, match=r"rumi\.plan_build: level=, storage_options= given beside write_options="):
        _synthetic_plan(out, items, level=3, storage_options={"timeout": 5}, write_options=rumi.WriteOptions())
    # each file's nodata is its load's: a nodata in the value is refused, not ignored
    with pytest.raises(ValueError, match=r"write_options\.nodata=0: each file's nodata is its load's"):
        _synthetic_plan(out, items, write_options=rumi.WriteOptions(nodata=0))
    # a bad option: the writers' text, before any item is read
    with pytest.raises(ValueError, match=r"tile must be an int or \(height, width\) in 1\.\.65535, got \(0, 0\)"):
        _synthetic_plan(out, items, tile=0)
    with pytest.raises(ValueError, match=r"level=3 cannot be combined with graph='fast'"):
        rumi.build(items, out, bands=["red"], crs="EPSG:32633", resolution=10, graph="fast", level=3)
    assert not out.exists()


def test_build_with_write_options_writes_the_keywords_files(stac, tmp_path):
    items = stac["s1"]
    kw = dict(bands="vv", crs="EPSG:32631", resolution=20)
    a = rumi.build(items, tmp_path / "kw", **kw, **KW)
    b = rumi.build(items, tmp_path / "opts", **kw, write_options=rumi.WriteOptions(**KW))
    assert a.column("id") == b.column("id") == ["all"]
    names = sorted(n for n in os.listdir(tmp_path / "kw") if n.startswith("all.rumi"))
    assert names == ["all.rumi", "all.rumi.aux.xml", "all.rumi.header"]
    assert sorted(n for n in os.listdir(tmp_path / "opts") if n.startswith("all.rumi")) == names
    for n in names + ["rumi-build.json"]:
        assert (tmp_path / "kw" / n).read_bytes() == (tmp_path / "opts" / n).read_bytes(), n
    with rumi.open(tmp_path / "opts" / "all.rumi") as ds, rumi.open(tmp_path / "kw" / "all.rumi") as ref:
        assert ds.tile_shape == (128, 128) and ds.frame_unit == 0
        np.testing.assert_array_equal(ds.read(), ref.read())
    # the same options again, given either way: up to date
    assert rumi.build(items, tmp_path / "opts", **kw, **KW).report.skipped == ["all.rumi"]
    assert rumi.build(items, tmp_path / "kw", **kw, write_options=rumi.WriteOptions(**KW)).report.skipped == ["all.rumi"]


def test_the_training_preset_is_fast_frames_of_128_tiles(stac, tmp_path):
    """WriteOptions.training() / rumi-build --for-training: graph="fast", tiles of 128 (the layout
    docs/compression.md measured for chips), as values and as the console script's flag, whose
    --tile/--graph still win; the pixels are the default build's."""
    import json

    import pystac

    from rumi._build.cli import main

    assert rumi.WriteOptions.training() == rumi.WriteOptions(graph="fast", tile=128)
    assert rumi.WriteOptions.training(threads=2, tile=64) == rumi.WriteOptions(graph="fast", tile=64, threads=2)
    with pytest.raises(ValueError, match=r"level=3 cannot be combined with graph='fast'"):
        rumi.WriteOptions.training(level=3)
    items = stac["s1"]
    kw = dict(bands="vv", crs="EPSG:32631", resolution=20)
    rumi.build(items, tmp_path / "kw", **kw, graph="fast", tile=128)
    rumi.build(items, tmp_path / "preset", **kw, write_options=rumi.WriteOptions.training())
    coll = tmp_path / "items.json"
    coll.write_text(json.dumps(pystac.ItemCollection(items).to_dict()))
    args = [str(coll), "--bands", "vv", "--crs", "EPSG:32631", "--resolution", "20", "-q"]
    assert main([*args[:1], str(tmp_path / "cli"), *args[1:], "--for-training"]) == 0
    assert main([*args[:1], str(tmp_path / "cli64"), *args[1:], "--for-training", "--tile", "64"]) == 0
    assert main([*args[:1], str(tmp_path / "plain"), *args[1:]]) == 0
    for d in ("preset", "cli"):
        for n in ("all.rumi", "all.rumi.header"):
            assert (tmp_path / d / n).read_bytes() == (tmp_path / "kw" / n).read_bytes(), (d, n)
    with rumi.open(tmp_path / "plain" / "all.rumi") as ref, rumi.open(tmp_path / "cli" / "all.rumi") as ds, \
            rumi.open(tmp_path / "cli64" / "all.rumi") as d64:
        assert (ref.tile_shape, ds.tile_shape, d64.tile_shape) == ((256, 256), (128, 128), (64, 64))
        np.testing.assert_array_equal(ds.read(), ref.read())
        np.testing.assert_array_equal(d64.read(), ref.read())
    assert (tmp_path / "cli" / "all.rumi").read_bytes() != (tmp_path / "plain" / "all.rumi").read_bytes()
