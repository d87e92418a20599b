"""Adversarial tests of RandomChipSampler's rejection (issue 50): the keys of files an epoch draws
few of (<= samplers.REJECT_KEYS) are drawn uniformly over equal cells of offsets decided for all
files at once (rumi.torch.cells: Cells.decide / draw), a candidate in a sure cell taken unchecked, a cell at
a file's edge reaching past its offsets (such a draw rejected), a file without a cell known to have
no chip. Every key must meet the constraints (brute force: constraints.chip_ok over every offset
on the step, and the pixels written), a file's keys must be uniform among its offsets that meet
them (exact sets and chi-square over many epochs, the valid offsets in the files' last rows and
columns, a file with one valid offset), files drawn by area among those with a chip, and an
epoch's keys a function of the seed, the epoch (and stream) and the constraints. Each test was
checked to fail with the sampler broken by a monkeypatch (see the module's report in git log)."""

from __future__ import annotations

import pathlib
import tempfile
import warnings

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("pyarrow")
pytest.importorskip("pyproj")
pytest.importorskip("shapely")

import rumi  # noqa: E402
from rumi import RequestError  # noqa: E402
import rumi.torch as rt  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from rumi.torch import cells, constraints, samplers  # noqa: E402
from rumi.torch.contents import Contents, group, limits_of  # noqa: E402

CRS = "EPSG:32633"


def _gt(i, r=0, c=0):
    """The geotransform of file i (files 2 km apart: none overlaps another, 10 m pixels), shifted by r rows and c
    columns."""
    return (500000.0 + i * 2000 + c * 10.0, 10.0, 0.0, 5100000.0 - r * 10.0, 0.0, -10.0)


def _write(path, a, tile, i, r=0, c=0, band="c", nodata=None):
    """a (T, 1, Y, X) uint8 as file i's grid (shifted by r, c pixels); its path."""
    times = [f"2020-01-{k + 1:02d}" for k in range(a.shape[0])]
    kw = {} if nodata is None else {"nodata": nodata}
    rumi.write(path, a, bands=[band], times=times, tile=tile, crs=CRS, geotransform=_gt(i, r, c), **kw)
    return str(path)


def _blobs(rng, shape, K, cell=6):
    """A class map of blobs of `cell` pixels (classes 0 .. K-1), shape (T, 1, Y, X), uint8."""
    T, _, Y, X = shape
    coarse = rng.integers(0, K, (T, 1, Y // cell + 1, X // cell + 1)).astype(np.uint8)
    return np.repeat(np.repeat(coarse, cell, 2), cell, 3)[:, :, :Y, :X].copy()


def _offsets(index, j, step):
    """Every offset of file j on the step (rows, cols)."""
    _, _, Y, X = (int(v) for v in index.shapes[j])
    h, w = index.size
    R, C = np.meshgrid(np.arange(0, Y - h + 1, step[0]), np.arange(0, X - w + 1, step[1]), indexing="ij")
    return R.ravel(), C.ravel()


def _valid(s, j):
    """Brute force: the offsets of file j a sampler s may draw (on its align step, chip_ok; none there: the
    file's lattice offsets that meet the constraints, the pools' last resort), as a set of (row, col)."""
    R, C = _offsets(s.index, j, s.steps(j))
    ok = constraints.chip_ok(s.index, j, R, C, s.min_valid, s.contents) if s.constrained else np.ones(len(R), bool)
    out = set(zip(R[ok].tolist(), C[ok].tolist()))
    if not out and s.constrained:
        F = constraints.feasible(s.index, j, s.min_valid, s.contents)
        out = set(map(tuple, F.tolist()))
    return out


def _epochs(s, epochs):
    out = []
    for e in epochs:
        s.set_epoch(e)
        out.append(list(s))
    return out


def _chi2_ok(counts):
    """A loose chi-square bound of equal counts (the mean within dof + 6 sd)."""
    counts = np.asarray(counts, float)
    e = counts.sum() / len(counts)
    chi2, dof = float(((counts - e) ** 2 / e).sum()), len(counts) - 1
    return chi2 < dof + 6 * (2 * max(dof, 1)) ** 0.5, (chi2, dof)


# --- 1. brute force: random files, limits, labels, min_valid, align --------------------------------------------


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), tile=st.sampled_from([4, 5, 8, 16]), size=st.integers(3, 24),
       labels=st.sampled_from([0, 1, 2]), on_labels=st.booleans(), align=st.sampled_from([False, False, True, 2, 3]),
       kind=st.sampled_from(["min", "max", "both", "two", "cloud", "none"]), mv=st.sampled_from([None, None, 0.5, 0.9]))
def test_every_key_meets_the_constraints_brute_force(tmp_path, seed, tile, size, labels, on_labels, align, kind, mv):
    """Random small files (shapes from the chip's size to 48, tiles 4-16: chips larger and smaller than the
    tiles), one of them without the class at all, limits on the images' band or on labels, or none (the labels'
    coverage and min_valid alone); labels none, one label file over a part of each image, or one image with two
    label files, one image without; min_valid with nodata; align False / True / an integer: every key of three
    epochs is one of its file's offsets that chip_ok admits (brute force over every offset on the step), meets
    the limits on the pixels written (one label file or none), and a file without such an offset is never
    drawn."""
    rng = np.random.default_rng(seed)
    d = pathlib.Path(tempfile.mkdtemp(dir=tmp_path))
    n = int(rng.integers(2, 6))
    imgs, labs, px, lpx = [], [], {}, {}
    for i in range(n):
        Y, X = int(rng.integers(size, 49)), int(rng.integers(size, 49))
        a = _blobs(rng, (1, 1, Y, X), 3, cell=int(rng.integers(2, 9)))
        if i == n - 1:
            a[a == 1] = 0  # no class 1 (min_class: no chip)
        a[(rng.random(a.shape) < 0.3) & (a == 2)] = 255  # nodata in some blobs
        imgs.append(_write(d / f"i{i}.rumi", a, tile, i, nodata=255))
        px[i] = a[0, 0]
        nl = 0 if not labels or i == 0 else (2 if labels == 2 and i == 1 else 1)
        for k in range(nl):
            lr, lc = int(rng.integers(0, Y - size + 1)), int(rng.integers(0, X - size + 1))
            Yl, Xl = int(rng.integers(size, Y - lr + 1)), int(rng.integers(size, X - lc + 1))
            lab = _blobs(rng, (1, 1, Yl, Xl), 3, cell=5)
            labs.append(_write(d / f"l{i}_{k}.rumi", lab, int(rng.choice([4, 8])), i, lr, lc, band="lab"))
            if nl == 1:
                lpx[i] = (lab[0, 0], lr, lc)
    cat = rumi.Catalog.build(imgs, d / "i.parquet")
    if labels:
        ds = rt.ChipDataset(cat, size=size, labels=rumi.Catalog.build(labs, d / "l.parquet"))
    else:
        ds = rt.ChipDataset(cat, size=size)
    band = "lab" if labels and on_labels else "c"
    lim = {"min": dict(min_class={band: {1: 0.3}}), "max": dict(max_class={band: {0: 0.5}}),
           "both": dict(min_class={band: {1: 0.2}}, max_class={band: {0: 0.6}}),
           "two": dict(min_class={band: {(0, 1): 0.7, 1: 0.1}}),
           "cloud": dict(cloud=rt.Cloud(band, max=0.3, classes=(0,))), "none": {}}[kind]
    try:
        s = rt.RandomChipSampler(ds, length=int(rng.integers(20, 200)), seed=seed % 997, align=align, min_valid=mv,
                                 **lim)
    except rumi.RequestError as e:  # no chip at all: the brute force agrees
        assert "meets" in str(e) or "valid fraction" in str(e) or "inside a label file" in str(e), str(e)
        probe = rt.RandomChipSampler(ds, length=1, seed=0, align=align)  # (no constraints: steps only)
        probe.min_valid, probe.contents = mv, Contents(ds.index, limits_of(lim.get("min_class"), lim.get("max_class"),
                                                                            lim.get("cloud")))
        probe.constrained = True
        assert not any(_valid(probe, j) for j in range(ds.index.num_files))
        return
    ids = list(ds.index.ids)
    want = {j: _valid(s, j) for j in range(ds.index.num_files)}
    assert any(want.values())
    for keys in _epochs(s, range(3)):
        assert len(keys) == s.length
        for j, r, c in keys:
            assert (r, c) in want[j], (j, r, c, len(want[j]))
            i = int(ids[j][1:])
            v = px[i][r:r + size, c:c + size]
            if mv is not None:
                assert (v != 255).mean() >= mv
            if band == "c" or i in lpx:
                if band == "c":
                    p = v
                else:
                    lab, lr, lc = lpx[i]
                    assert lr <= r and lc <= c and r + size <= lr + lab.shape[0] and c + size <= lc + lab.shape[1]
                    p = lab[r - lr:r - lr + size, c - lc:c - lc + size]
                if kind == "min":
                    assert (p == 1).mean() >= 0.3
                elif kind == "max":
                    assert (p == 0).mean() <= 0.5
                elif kind == "both":
                    assert (p == 1).mean() >= 0.2 and (p == 0).mean() <= 0.6
                elif kind == "two":
                    assert np.isin(p, (0, 1)).mean() >= 0.7 and (p == 1).mean() >= 0.1
                elif kind == "cloud":
                    assert (p == 0).mean() <= 0.3


# --- 2. uniform over the valid offsets, those in the files' edge cells, one valid offset ------------------------


def _edge_files(d):
    """Twelve 1-step files of class 1 (min_class 1.0: the chip all of it) in patches of whole 5-pixel tiles whose
    chips (10 pixels) lie in the files' last rows and columns (edge cells that reach past the file's offsets):
    one with a single valid offset in its corner, one with one in its middle, one with none, shapes not
    multiples of the cells. (paths, the pixels of each.)"""
    paths, px = [], []
    for i in range(12):
        Y, X = 37 + 3 * i, 41 + 2 * (i % 5)
        if i == 0:
            Y, X = 40, 45
        a = np.zeros((1, 1, Y, X), np.uint8)
        if i == 0:  # one valid offset: the last row and column
            a[0, 0, Y - 10:, X - 10:] = 1
        elif i == 1:  # one in the middle
            a[0, 0, 15:25, 20:30] = 1
        elif i == 2:  # none
            pass
        elif i % 2:  # the last rows (a strip along the bottom edge)
            a[0, 0, (Y - 10 - (i % 3)) // 5 * 5:, :] = 1
        else:  # the last few rows and columns
            a[0, 0, (Y - 12) // 5 * 5:, (X - 13) // 5 * 5:] = 1
        paths.append(_write(d / f"e{i:02d}.rumi", a, 5, i))
        px.append(a[0, 0])
    return paths, px


def _counts_over_epochs(s, epochs):
    n = {}
    for keys in _epochs(s, range(epochs)):
        for k in keys:
            n[k] = n.get(k, 0) + 1
    return n


def _check_uniform(s, n, px, size=10):
    """Each file's keys of the counts n are exactly its valid offsets (brute force), each meets the limit on its
    pixels, and those of a file with several are drawn about as often. The keys per file."""
    per_file = np.zeros(s.index.num_files)
    ids = list(s.index.ids)
    for j in range(s.index.num_files):
        want = _valid(s, j)
        got = {(r, c): v for (jj, r, c), v in n.items() if jj == j}
        assert set(got) == want, (ids[j], sorted(set(got) ^ want)[:5], len(want))
        a = px[int(ids[j][1:])]
        assert all((a[r:r + size, c:c + size] == 1).all() for r, c in got)
        per_file[j] = sum(got.values())
        if len(got) > 1:
            ok, stat = _chi2_ok(list(got.values()))
            assert ok, (ids[j], stat, sorted(got.values()))
    return per_file


def test_edge_cells_and_single_offsets_are_drawn_uniformly(tmp_path):
    """Valid offsets in the files' last rows and columns (the edge cells reach past the offsets: their draws
    there rejected, not moved in), a file with a single valid offset at its corner, one in its middle, one file
    with none beside them (never drawn): over 60 epochs of 600 keys (rejection: about 55 keys a file an epoch)
    each file's keys are exactly its valid offsets, each drawn about as often (chi-square), and the files are
    drawn by area among those with a chip."""
    paths, px = _edge_files(tmp_path)
    ds = rt.ChipDataset(rumi.Catalog.build(paths, tmp_path / "e.parquet"), size=10)
    s = rt.RandomChipSampler(ds, length=600, seed=2, min_class={"c": {1: 1.0}})
    assert 600 / 11 < samplers.REJECT_KEYS / 2
    wants = [_valid(s, j) for j in range(12)]
    ids = list(ds.index.ids)
    assert [len(wants[ids.index(f"e{i:02d}")]) for i in range(3)] == [1, 1, 0]
    assert all(len(w) > 1 for w in wants if len(w) > 1)
    per_file = _check_uniform(s, _counts_over_epochs(s, 60), px)
    shapes = np.asarray(ds.index.shapes, np.int64)
    area = ((shapes[:, 2] - 9) * (shapes[:, 3] - 9)).astype(float)
    area[[len(w) == 0 for w in wants]] = 0
    e = per_file.sum() * area / area.sum()
    keep = area > 0
    chi2 = float(((per_file[keep] - e[keep]) ** 2 / e[keep]).sum())
    assert chi2 < 10 + 6 * 20 ** 0.5, (chi2, per_file, e)



@pytest.mark.parametrize("give_up", [0, 3, 40])
def test_keys_left_to_the_pools_stay_uniform(tmp_path, monkeypatch, give_up):
    """A file's keys that rejection gives up on (REJECT_GIVE_UP and its native one small: most or some keys left
    unmet) are drawn from its pool: the keys of a file, from both, are still exactly its valid offsets, each about
    as often, and a
    fresh sampler at epoch 5 gives the keys of one that drew the epochs before."""
    monkeypatch.setattr(samplers, "REJECT_GIVE_UP", give_up)
    monkeypatch.setattr(samplers, "REJECT_GIVE_UP_NATIVE", give_up)
    paths, px = _edge_files(tmp_path)
    ds = rt.ChipDataset(rumi.Catalog.build(paths, tmp_path / "e.parquet"), size=10)
    s = rt.RandomChipSampler(ds, length=600, seed=9, min_class={"c": {1: 1.0}})
    n = {}
    eps = _epochs(s, range(40))
    for keys in eps:
        for k in keys:
            n[k] = n.get(k, 0) + 1
    _check_uniform(s, n, px)
    assert len(s._first) >= (9 if give_up == 0 else 1)  # the files' maps made: their keys drawn from them
    fresh = rt.RandomChipSampler(ds, length=600, seed=9, min_class={"c": {1: 1.0}})
    fresh.set_epoch(5)
    assert list(fresh) == eps[5]

@pytest.mark.parametrize("align", [True, 3])
def test_edge_cells_on_an_align_step(tmp_path, align):
    """The same files on an align step (the tiles, 5, or 3 pixels): every key is a valid offset on the step
    (a file without one there: its lattice's valid offsets, the pools' last resort), and those of a file with
    several are drawn about as often."""
    paths, px = _edge_files(tmp_path)
    ds = rt.ChipDataset(rumi.Catalog.build(paths, tmp_path / "e.parquet"), size=10)
    s = rt.RandomChipSampler(ds, length=600, seed=5, align=align, min_class={"c": {1: 1.0}})
    _check_uniform(s, _counts_over_epochs(s, 30), px)


# --- 3. files without a valid offset, files smaller than the chip, the constructor's proof --------------------


def _strip_files(d, n, with_class, tile=8, Y=40, X=44):
    """n files (Y x X, tile), class 1 in a bottom strip of 16 rows (two tiles) only in files `with_class`."""
    paths, px = [], []
    for i in range(n):
        a = np.zeros((1, 1, Y, X), np.uint8)
        if i in with_class:
            a[0, 0, Y - 16:, :] = 1
        paths.append(_write(d / f"s{i:02d}.rumi", a, tile, i))
        px.append(a[0, 0])
    return paths, px


def test_files_without_a_chip_are_never_drawn_and_make_no_map(tmp_path, monkeypatch):
    """Beside files with chips, files with none (no cell: known from the catalogue alone, on a step of 1 pixel)
    are never drawn, their keys redrawn among the others (the epoch keeps its length), no offset map made; the
    same dataset where no file has one is the constructor's error naming the limit."""
    paths, px = _strip_files(tmp_path, 10, with_class={1, 4, 7})
    ds = rt.ChipDataset(rumi.Catalog.build(paths, tmp_path / "s.parquet"), size=12)
    made = []
    real = constraints.offset_map
    monkeypatch.setattr(constraints, "offset_map", lambda *a, **k: made.append(a[1]) or real(*a, **k))
    s = rt.RandomChipSampler(ds, length=300, seed=1, min_class={"c": {1: 0.9}})
    ids = list(ds.index.ids)
    good = {ids.index(f"s{i:02d}") for i in (1, 4, 7)}
    for keys in _epochs(s, range(4)):
        assert len(keys) == 300
        assert {j for j, _, _ in keys} == good
        for j, r, c in keys:
            assert (px[int(ids[j][1:])][r:r + 12, c:c + 12] == 1).mean() >= 0.9
    assert made == []
    none = rt.ChipDataset(rumi.Catalog.build(paths[:1] + paths[2:4], tmp_path / "n.parquet"), size=12)
    with pytest.raises(rumi.RequestError, match=r"min_class: c class 1 >= 0.9: the best lower bound"):
        rt.RandomChipSampler(none, length=300, seed=1, min_class={"c": {1: 0.9}})


def test_the_only_chip_past_the_first_files(tmp_path):
    """Construction proves a chip exists from candidates of the first 16 files, then file by file: 20 files of
    which only the last has chips, and only one offset of them (a single valid offset in the last file's corner),
    is a sampler whose every key is that offset; with align=True too (on the tile grid)."""
    paths = []
    for i in range(20):
        a = np.zeros((1, 1, 30, 30), np.uint8)
        if i == 19:
            a[0, 0, 20:, 20:] = 1
        paths.append(_write(tmp_path / f"o{i:02d}.rumi", a, 5, i))
    ds = rt.ChipDataset(rumi.Catalog.build(paths, tmp_path / "o.parquet"), size=10)
    ids = list(ds.index.ids)
    for align in (False, True, 10):
        s = rt.RandomChipSampler(ds, length=50, seed=3, align=align, min_class={"c": {1: 1.0}})
        for keys in _epochs(s, range(2)):
            assert set(keys) == {(ids.index("o19"), 20, 20)}, align


def test_files_smaller_than_the_chip_are_left_out(tmp_path):
    """Files smaller than the chip in one or both directions (one holding the class) beside files with chips:
    left out of the index (a warning), never a key; every file smaller: no chip."""
    paths = []
    for i, (Y, X) in enumerate([(8, 40), (40, 9), (7, 7), (40, 40), (36, 44)]):
        a = np.ones((1, 1, Y, X), np.uint8)
        paths.append(_write(tmp_path / f"m{i}.rumi", a, 4, i))
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        ds = rt.ChipDataset(rumi.Catalog.build(paths, tmp_path / "m.parquet"), size=10)
    assert any("3 files smaller than 10x10" in str(x.message) for x in w)
    assert sorted(ds.index.ids) == ["m3", "m4"]
    s = rt.RandomChipSampler(ds, length=200, seed=0, min_class={"c": {1: 1.0}})
    shapes = {ds.index.ids[j]: ds.index.shapes[j] for j in range(2)}
    for j, r, c in list(s):
        _, _, Y, X = shapes[ds.index.ids[j]]
        assert 0 <= r <= Y - 10 and 0 <= c <= X - 10
    with pytest.warns(RuntimeWarning), pytest.raises(Exception):
        rt.ChipDataset(rumi.Catalog.build(paths[:3], tmp_path / "s.parquet"), size=10)



def test_lengths_0_1_2_and_streams_of_one_file_with_chips(tmp_path):
    """Epochs of 0, 1 and 2 keys draw valid keys (of the three files with chips); streams=3 over a catalogue of 6
    shards, each stream one file with chips: lengths 3 and 6."""
    paths, px = _strip_files(tmp_path, 6, with_class={0, 2, 4})
    cat = rumi.Catalog.build(paths, tmp_path / "s.parquet")
    rumi.catalog.write_parts(cat.table, str(tmp_path / "parts") + "/", rows_per_group=1)
    ds = rt.ChipDataset(rumi.Catalog.open(str(tmp_path / "parts") + "/"), size=12)
    lim = {"min_class": {"c": {1: 0.9}}}
    ids = list(ds.index.ids)
    for L, streams in ((0, None), (1, None), (2, None), (3, 3), (6, 3)):
        s = rt.RandomChipSampler(ds, length=L, seed=0, streams=streams, **lim)
        keys = list(s)
        assert len(keys) == L
        for j, r, c in keys:
            assert ids[j] in ("s00", "s02", "s04") and (px[int(ids[j][1:])][r:r + 12, c:c + 12] == 1).mean() >= 0.9


def test_a_stream_without_a_chip_is_an_error_naming_the_stream(tmp_path):
    """streams=2 where every chip lies in one stream's files (files 0 and 2 of 6, a shard each): the constructor's
    error must name the other stream, the one without a chip (use fewer streams), not say that no chip meets the
    limits while naming one that does (before)."""
    paths, _ = _strip_files(tmp_path, 6, with_class={0, 2})
    cat = rumi.Catalog.build(paths, tmp_path / "s.parquet")
    rumi.catalog.write_parts(cat.table, str(tmp_path / "parts") + "/", rows_per_group=1)
    ds = rt.ChipDataset(rumi.Catalog.open(str(tmp_path / "parts") + "/"), size=12)
    ids, shard = list(ds.index.ids), np.asarray(ds.index.shard)
    with_chips = {int(shard[ids.index(f"s{i:02d}")]) % 2 for i in (0, 2)}  # shard s is in stream s mod 2
    assert len(with_chips) == 1  # (the parts' order puts both in one stream)
    without = 1 - with_chips.pop()
    with pytest.raises(RequestError, match=rf"^stream {without} of 2 .* use fewer streams"):
        rt.RandomChipSampler(ds, length=12, seed=0, streams=2, min_class={"c": {1: 0.9}})

# --- 4. the mixed regime: large files (their maps) and many small ones (rejection); determinism ----------------


@pytest.fixture(scope="module")
def mixed(tmp_path_factory):
    """Three large files (160 x 160: about 500 keys each of an epoch of 2000: their offset maps), the third
    without class 1, and 32 small ones (40 x 40: about 15 keys each: rejection), two of them without class 1;
    labels on the images' grid over each file but one (whole or a part); a catalogue of 7 shards."""
    d = tmp_path_factory.mktemp("mixed")
    rng = np.random.default_rng(17)
    imgs, labs, px = [], [], {}
    for i in range(35):
        Y = X = 160 if i < 3 else 40
        a = _blobs(rng, (1, 1, Y, X), 3, cell=int(rng.integers(4, 12)))
        if i in (2, 5, 20):
            a[a == 1] = 0
        imgs.append(_write(d / f"x{i:02d}.rumi", a, 16 if i < 3 else 8, i))
        px[f"x{i:02d}"] = a[0, 0]
        if i != 9:
            lr, lc = (0, 0) if i % 3 else (int(rng.integers(0, 8)), int(rng.integers(0, 8)))
            lab = (a[:, :, lr:, lc:] == 1).astype(np.uint8)
            labs.append(_write(d / f"y{i:02d}.rumi", lab, 8, i, lr, lc, band="lab"))
    cat = rumi.Catalog.build(imgs, d / "x.parquet")
    rumi.catalog.write_parts(cat.table, str(d / "parts") + "/", rows_per_group=5)  # 7 shards (streams)
    return rumi.Catalog.open(str(d / "parts") + "/"), rumi.Catalog.build(labs, d / "y.parquet"), px


LIMITS = [{"min_class": {"c": {1: 0.3}}, "max_class": {"c": {2: 0.4}}},
          {"min_class": {"lab": {1: 0.3}}},
          {"min_class": {"c": {1: 0.25}}, "align": 4},
          {"min_class": {"c": {1: 0.25}}, "align": True}]  # (steps of 16 and 8: the files' tiles)


@pytest.mark.parametrize("lim", range(len(LIMITS)))
def test_mixed_regime_keys_meet_the_limits_and_files_by_area(mixed, lim):
    """Large files drawn hundreds of keys (their maps) and small ones a few (rejection) in one epoch, with files
    without a chip among both: every key meets the limits on its pixels and chip_ok, no file without a chip is
    drawn, and over 12 epochs the files' key counts follow their areas among the files with chips."""
    cat, lcat, px = mixed
    lim = dict(LIMITS[lim])
    ds = rt.ChipDataset(cat, size=16, labels=lcat) if "lab" in str(lim) else rt.ChipDataset(cat, size=16)
    s = rt.RandomChipSampler(ds, length=2000, seed=4, **lim)
    ids = list(ds.index.ids)
    n = np.zeros(len(ids))
    for keys in _epochs(s, range(12)):
        k = np.array(keys)
        n += np.bincount(k[:, 0], minlength=len(ids))
        for j in np.unique(k[:, 0]).tolist():
            m = k[:, 0] == j
            assert constraints.chip_ok(ds.index, j, k[m, 1], k[m, 2], None, s.contents).all()
            a = px[ids[j]]
            for _, r, c in k[m][:40]:
                p = a[r:r + 16, c:c + 16]
                assert (p == 1).mean() >= 0.25 and ("max_class" not in lim or (p == 2).mean() <= 0.4)
    has = np.array([bool(_valid(s, j)) for j in range(len(ids))])
    bad = [ids.index(f"x{i:02d}") for i in (2, 5, 20)] + ([ids.index("x09")] if "lab" in str(lim) else [])
    assert not has[bad].any() and n[bad].sum() == 0
    assert has.sum() >= 30
    shapes = np.asarray(ds.index.shapes, np.int64)
    area = ((shapes[:, 2] - 15) * (shapes[:, 3] - 15)).astype(float) * has
    e = n.sum() * area / area.sum()
    chi2 = float(((n[has] - e[has]) ** 2 / e[has]).sum())
    dof = int(has.sum()) - 1
    assert chi2 < dof + 6 * (2 * dof) ** 0.5, (chi2, dof)
    big = [ids.index(f"x{i:02d}") for i in (0, 1)]
    small = [j for j in range(len(ids)) if int(ids[j][1:]) >= 3]
    assert (n[big] > 12 * samplers.REJECT_KEYS).all() and (n[small] < 12 * 40).all()


@pytest.mark.parametrize("lim", range(len(LIMITS)))
def test_mixed_regime_keys_are_a_function_of_seed_and_epoch(mixed, lim):
    """In the mixed regime: a fresh sampler at epoch 3 gives the keys of one that drew epochs 0-2 first; ranks
    of 2 and 4 split the same global sequence; streams=2 and 3 the same (fresh against continuing, over ranks);
    a state saved mid-epoch at one world size resumes the rest at another."""
    cat, lcat, _ = mixed
    lim = dict(LIMITS[lim])
    ds = rt.ChipDataset(cat, size=16, labels=lcat) if "lab" in str(lim) else rt.ChipDataset(cat, size=16)
    L = 2000
    for streams in (None, 2, 3):
        kw = dict(length=L, seed=8, streams=streams, **lim)
        s = rt.RandomChipSampler(ds, **kw)
        ep = _epochs(s, range(4))
        assert ep[3] != ep[2] and len(ep[3]) == L // (streams or 1) * (streams or 1)
        if streams:
            assert s.streams.count == streams
        fresh = rt.RandomChipSampler(ds, **kw)
        fresh.set_epoch(3)
        assert list(fresh) == ep[3], streams
        for w in (2, 4):
            parts = []
            for r in range(w):
                p = rt.RandomChipSampler(ds, rank=r, world_size=w, **kw)
                p.set_epoch(3)
                parts.append(list(p))
            n = len(parts[0])
            assert [parts[i % w][i // w] for i in range(n * w)] == ep[3][:n * w], (streams, w)
    # resume mid-epoch: 2 ranks took 300 keys each of epoch 1, the rest taken by 1 rank, then by 4
    whole = _epochs(rt.RandomChipSampler(ds, length=L, seed=8, **lim), [1])[0]
    s = rt.RandomChipSampler(ds, length=L, seed=8, rank=1, world_size=2, **lim)
    s.set_epoch(1)
    it = iter(s)
    for _ in range(300):
        next(it)
    state = s.state_dict()
    one = rt.RandomChipSampler(ds, length=L, seed=8, **lim)
    one.load_state_dict(state)
    assert list(one) == whole[600:]
    parts = []
    for r in range(4):
        p = rt.RandomChipSampler(ds, length=L, seed=8, rank=r, world_size=4, **lim)
        p.load_state_dict(state)
        parts.append(list(p))
    assert [parts[i % 4][i // 4] for i in range(len(parts[0]) * 4)] == whole[600:600 + len(parts[0]) * 4]


@pytest.mark.parametrize("budget", [200, 450, 600, 1 << 20])
def test_keys_do_not_depend_on_the_kept_maps_budget(tmp_path, monkeypatch, budget):
    """Large files' maps left undecided in places (refined as keys are drawn) and more than half the area without
    a chip (their keys redrawn: a file's map visited twice in an epoch): with the maps kept within small budgets
    (POOL_BLOCKS: maps dropped and made again mid-epoch), a fresh sampler at epoch 2 still gives the keys of one
    that drew epochs 0 and 1 first, and they meet the limit on their pixels."""
    rng = np.random.default_rng(3)
    paths, px = [], {}
    for i in range(8):
        a = _blobs(rng, (1, 1, 120, 120), 3, cell=int(rng.integers(12, 30)))
        if i >= 4:
            a[a == 1] = 0
        paths.append(_write(tmp_path / f"p{i}.rumi", a, 16, i))
        px[f"p{i}"] = a[0, 0]
    ds = rt.ChipDataset(rumi.Catalog.build(paths, tmp_path / "p.parquet"), size=24)
    monkeypatch.setattr(constraints, "MAP_CHECK_CALL", 0)  # (maps left undecided, as a large file's are)
    monkeypatch.setattr(samplers, "POOL_BLOCKS", budget)
    lim = {"min_class": {"c": {1: 0.45}}}
    s = rt.RandomChipSampler(ds, length=3200, seed=2, **lim)
    assert sum(s.pool(j).total > s.pool(j).certain for j in range(8)) >= 2
    ep = _epochs(s, range(3))
    fresh = rt.RandomChipSampler(ds, length=3200, seed=2, **lim)
    fresh.set_epoch(2)
    assert list(fresh) == ep[2]
    ids = list(ds.index.ids)
    for j, r, c in ep[2]:
        assert (px[ids[j]][r:r + 24, c:c + 24] == 1).mean() >= 0.45


# --- 5. cubes with a cloud limit beside single-step files -------------------------------------------------------


@pytest.mark.parametrize("min_clear", [None, 2])
def test_cubes_with_a_cloud_limit_beside_single_step_files(tmp_path, min_clear):
    """Cubes of 3 steps with a cloud mask (blobs of cloud per step) and single-step files in one dataset, drawn
    about 100 keys each an epoch (rejection) with a cloud limit (every step clear, or 2 of them) and a class
    limit: every key is one chip_ok admits (brute force), its pixels meet the cloud limit on the steps read, and
    over 30 epochs each file's keys are uniform among those offsets (chi-square, the offsets never drawn
    counted)."""
    rng = np.random.default_rng(7 if min_clear else 8)
    paths, px = [], {}
    size = 16
    for i in range(10):
        T = 3 if i % 2 else 1
        a = _blobs(rng, (T, 1, 36, 40), 4, cell=int(rng.integers(4, 10)))  # 1: cloud
        paths.append(_write(tmp_path / f"q{i}.rumi", a, 4, i, band="m"))
        px[f"q{i}"] = a[:, 0]
    ds = rt.ChipDataset(rumi.Catalog.build(paths, tmp_path / "q.parquet"), size=size)
    cloud = rt.Cloud("m", max=0.25, classes=(1,), min_clear_steps=min_clear)
    s = rt.RandomChipSampler(ds, length=1000, seed=1, cloud=cloud, max_class={"m": {1: 0.5}})
    ids = list(ds.index.ids)
    assert {int(ds.index.shapes[j][0]) for j in range(10)} == {1, 3}
    n = _counts_over_epochs(s, 30)
    drawn = 0
    for j in range(10):
        want = _valid(s, j)
        got = {(r, c): v for (jj, r, c), v in n.items() if jj == j}
        assert set(got) <= want, (ids[j], sorted(set(got) - want)[:5])
        a = px[ids[j]]
        for r, c in got:
            cl = (a[:, r:r + size, c:c + size] == 1).reshape(len(a), -1).mean(1)
            clear = int((cl <= 0.25).sum())
            assert clear >= (len(a) if min_clear is None else min(min_clear, len(a))), (ids[j], r, c, cl)
        drawn += bool(got) * len(a)
        if want and sum(got.values()) / len(want) >= 5:
            ok, stat = _chi2_ok([got.get(k, 0) for k in want])
            assert ok, (ids[j], stat)
    assert drawn >= 10  # cubes among them


# --- 6. no numpy warning reaches the user ---------------------------------------------------------------------


def test_a_file_without_labels_draws_without_numpy_warnings(tmp_path):
    """Labels that skip the unlabelled chips, one file without a label file (no cell: its cells a row 0) beside
    files with labels, a class limit: the rejection's draws raise no numpy warning (np.errstate(all="raise") of
    a user's debugging session must not turn them into errors; a warning each epoch in users' logs)."""
    rng = np.random.default_rng(1)
    imgs, labs = [], []
    for i in range(3):
        a = _blobs(rng, (1, 1, 40, 40), 3)
        imgs.append(_write(tmp_path / f"w{i}.rumi", a, 8, i))
        if i:
            labs.append(_write(tmp_path / f"v{i}.rumi", (a == 1).astype(np.uint8), 8, i, band="lab"))
    ds = rt.ChipDataset(rumi.Catalog.build(imgs, tmp_path / "w.parquet"), size=12,
                        labels=rumi.Catalog.build(labs, tmp_path / "v.parquet"))
    with warnings.catch_warnings(), np.errstate(all="raise"):
        warnings.simplefilter("error")
        s = rt.RandomChipSampler(ds, length=100, seed=0, min_class={"lab": {1: 0.3}})
        keys = list(s)
    assert len(keys) == 100 and list(ds.index.ids).index("w0") not in {j for j, _, _ in keys}


def test_a_label_file_off_the_pixel_grid_is_checked_chip_by_chip(tmp_path):
    """One label file a file but off the images' pixel grid (20 m pixels shifted by a fraction of a pixel: no
    label rectangle, its cells over every offset, never sure), labels over part of each image, a limit on the
    images' band: every key is an offset chip_ok admits (the chip covered by the label file), none taken unchecked
    outside the labels, and a file's keys are uniform among them."""
    rng = np.random.default_rng(0)
    imgs, labs, px = [], [], {}
    for i in range(4):
        a = _blobs(rng, (1, 1, 40, 40), 3)
        imgs.append(_write(tmp_path / f"i{i}.rumi", a, 8, i))
        px[f"i{i}"] = a[0, 0]
        lab = _blobs(rng, (1, 1, 12, 14), 3, cell=3)
        x0, _, _, y0, _, _ = _gt(i)
        rumi.write(tmp_path / f"l{i}.rumi", lab, bands=["lab"], times=["2020-01-01"], tile=8, crs=CRS,
                   geotransform=(x0 + 35, 20.0, 0.0, y0 - 45, 0.0, -20.0))
        labs.append(str(tmp_path / f"l{i}.rumi"))
    ds = rt.ChipDataset(rumi.Catalog.build(imgs, tmp_path / "i.parquet"), size=12,
                        labels=rumi.Catalog.build(labs, tmp_path / "l.parquet"))
    assert constraints.label_rects(ds.index, np.arange(4))[1].all()
    for lim in ({"min_class": {"c": {1: 0.3}}}, {}):
        s = rt.RandomChipSampler(ds, length=200, seed=0, **lim)
        n = _counts_over_epochs(s, 40)
        ids = list(ds.index.ids)
        for j in range(4):
            want = _valid(s, j)
            R, C = _offsets(ds.index, j, (1, 1))
            assert 0 < len(want) < 0.8 * len(R)  # the labels cover a part
            got = {(r, c): v for (jj, r, c), v in n.items() if jj == j}
            assert set(got) <= want, (j, sorted(set(got) - want)[:5])
            assert all((px[ids[j]][r:r + 12, c:c + 12] == 1).mean() >= 0.3 for r, c in got) or not lim
            if sum(got.values()) / len(want) >= 5:
                ok, stat = _chi2_ok([got.get(k, 0) for k in want])
                assert ok, (j, stat)


@pytest.mark.parametrize("levels,labels", [(0, 0), (2, 0), (2, 1), (1, 2)])
def test_keys_are_uniform_over_sure_and_checked_cells(tmp_path, monkeypatch, levels, labels):
    """Files whose cells are partly sure (taken unchecked) and partly checked (any number of halvings:
    MAYBE_LEVELS), with labels over a part of each file (one rectangle: the cells inside it) or two label files a
    file (never sure): over 50 epochs each file's keys are its valid offsets (brute force), each drawn about as
    often (chi-square), whichever kind of cell holds it."""
    monkeypatch.setattr(cells, "MAYBE_LEVELS", levels)
    rng = np.random.default_rng(40 + levels + labels)
    imgs, labs = [], []
    for i in range(8):
        Y, X = 30 + i, 34 - i
        a = _blobs(rng, (1, 1, Y, X), 3, cell=7)
        imgs.append(_write(tmp_path / f"u{i}.rumi", a, 8, i))
        for k in range(labels):
            lr, lc = (k * 9, 2) if labels == 2 else (3, 1)
            labs.append(_write(tmp_path / f"v{i}_{k}.rumi", a[:, :, lr:Y - 1, lc:], 4, i, lr, lc, band="lab"))
    cat = rumi.Catalog.build(imgs, tmp_path / "u.parquet")
    ds = rt.ChipDataset(cat, size=10, labels=rumi.Catalog.build(labs, tmp_path / "v.parquet")) if labels else \
        rt.ChipDataset(cat, size=10)
    band = "lab" if labels else "c"
    s = rt.RandomChipSampler(ds, length=400, seed=6, min_class={band: {1: 0.25}}, max_class={band: {2: 0.5}})
    n = _counts_over_epochs(s, 50)
    sure = s._cells_of().sure[:s._cells_of().n]
    assert not sure.all() and (not sure.any() if labels == 2 else sure.any() or levels < 2), (sure.sum(), len(sure))
    tested = 0
    for j in range(8):
        want = _valid(s, j)
        got = {(r, c): v for (jj, r, c), v in n.items() if jj == j}
        assert set(got) <= want
        if want and sum(got.values()) / len(want) >= 5:
            ok, stat = _chi2_ok([got.get(k, 0) for k in want])
            assert ok, (j, stat, len(want))
            tested += 1
    assert tested >= 5


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n_files=st.sampled_from([1, 7, 300, 5000, 10**6]), keys=st.integers(0, 3000))
def test_the_keys_files_grouped_by_counting_or_sorting_as_np_unique(seed, n_files, keys):
    """contents.group (the keys' files: counted when the files are few beside the keys, else np.unique's sort,
    the branch a rank of many files takes) gives np.unique's files, inverse and counts either way."""
    js = np.random.default_rng(seed).integers(0, n_files, keys)
    files, inv, cnt = group(js, n_files)
    want = np.unique(js, return_inverse=True, return_counts=True)
    assert np.array_equal(files, want[0]) and np.array_equal(inv, want[1].ravel()) and np.array_equal(cnt, want[2])
    assert np.array_equal(files[inv], js)
