"""The native rejection draw (rumi._rumi.reject_draw through rumi.torch.tiling.reject_draw, used by
RandomChipSampler._rejected when the class limits are the only constraint and every file's counts lie in one
tile grid's FlatBank): its decision on a candidate is Contents.ok_many's (the oracle: the numpy bounds, which
test_torch_classes checks against the pixels), a sure cell's candidate is taken unchecked, an edge cell's
offsets past the file are never taken, the draw is uniform over a file's cells and deterministic for a seed, and
every bad input is a ValueError naming it. The sampler-level properties (brute force, uniformity, determinism)
are test_torch_rejection.py's, which run through this path (and the numpy one beside min_valid)."""

from __future__ import annotations

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("pyarrow")
pytest.importorskip("pyproj")

import rumi  # noqa: E402
import rumi.torch as rt  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from rumi.torch import cells, samplers, tiling  # noqa: E402

from test_torch_rejection import _blobs, _write  # noqa: E402


def _one_offset_cells(r, c, sure=None):
    """Cells.of's tuple of len(r) files of one cell each: the single offset (r[i], c[i]) (steps of one)."""
    n = len(r)
    z, one = np.zeros(n, np.int32), np.ones(n, np.int32)
    r, c = np.asarray(r, np.int32), np.asarray(c, np.int32)
    s = np.zeros(n, bool) if sure is None else np.asarray(sure, bool)
    return (one, np.arange(n, dtype=np.int32), one, one, r + 1, c + 1, r, c, one, z, s)


MODES = ("images", "labels", "raise", "two")


def _dataset(tmp_path, seed, mode):
    """Three 40 x 44 image files (classes 0-2 in blobs, tiles of 8) and the band the limits name: "images": no
    labels, the images' band; "labels": label files over parts of them shifted off the image's origin, the
    labels' band (chips inside them); "raise": the same with on_missing="raise" (chips anywhere: the labels'
    rectangle cuts blocks); "two": labels over parts, two of them on the first image, the images' band."""
    rng = np.random.default_rng(seed)
    imgs, labs = [], []
    for i in range(3):
        imgs.append(_write(tmp_path / f"i{i}.rumi", _blobs(rng, (1, 1, 40, 44), 3, cell=int(rng.integers(2, 9))), 8, i,
                           nodata=255))
        for k in range(0 if mode == "images" else 2 if mode == "two" and i == 0 else 1):
            lr, lc = int(rng.integers(0, 10)) + 14 * k, int(rng.integers(0, 10))
            lab = _blobs(rng, (1, 1, 40 - lr - 14 * (mode == "two" and k == 0 and i == 0), 44 - lc), 3, cell=5)
            labs.append(_write(tmp_path / f"l{i}_{k}.rumi", lab, 4, i, lr, lc, band="lab"))
    cat = rumi.Catalog.build(imgs, tmp_path / "i.parquet")
    band = "lab" if mode in ("labels", "raise") else "c"
    if mode == "images":
        return rt.ChipDataset(cat, size=12), band
    return rt.ChipDataset(cat, size=12, labels=rumi.Catalog.build(labs, tmp_path / "l.parquet"),
                          on_missing="skip" if mode != "raise" else "raise"), band


LIMITS = {
    "min": lambda b: dict(min_class={b: {1: 0.3}}),
    "max": lambda b: dict(max_class={b: {0: 0.4}}),
    "both": lambda b: dict(min_class={b: {(1, 2): 0.5}}, max_class={b: {0: 0.3}}),
    "cloud": lambda b: dict(cloud=rt.Cloud(b, max=0.2, classes=(2,))),
}


@settings(max_examples=16, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31), mode=st.sampled_from(MODES), kind=st.sampled_from(sorted(LIMITS)))
def test_a_candidates_decision_is_ok_many(tmp_path_factory, seed, mode, kind):
    """Every offset of each file (and some past its edges and the labels' rectangle), as a cell of one offset
    drawn once: met exactly where Contents.ok_many admits it, for min / max / two limits / a cloud limit of one
    step, on the images' band or on label files shifted off the image's origin (their rectangle and shift)."""
    ds, band = _dataset(tmp_path_factory.mktemp("d"), seed, mode)
    try:
        s = rt.RandomChipSampler(ds, length=10, seed=0, **LIMITS[kind](band))
    except rumi.RequestError:  # no chip meets them (test_torch_rejection's brute force checks that error)
        return
    seen = 0
    for j in range(ds.index.num_files):
        R, C = np.meshgrid(np.arange(-2, 31), np.arange(-2, 35), indexing="ij")
        R, C = R.ravel(), C.ravel()
        files = np.full(len(R), j)
        terms = cells.bank_terms(s.contents, files)
        assert terms is not None
        r0, c0, met = tiling.reject_draw(_one_offset_cells(R, C), np.arange(len(R)), np.ones((len(R), 2), np.int64),
                                         np.zeros(len(R), bool), terms, ds.index.size, seed, 1, 10**9, 1)
        want = s.contents.ok_many(np.array([j]), np.zeros(len(R), np.int64), R, C)
        np.testing.assert_array_equal(met, want)
        assert (r0[met] == R[met]).all() and (c0[met] == C[met]).all() and not r0[~met].any()
        seen += int(want.sum())
    assert seen  # (some chip meets the limits: the comparison saw both outcomes)


def test_a_sure_cell_is_taken_unchecked_and_edges_are_never_taken(tmp_path):
    """A candidate in a sure cell is met whatever its counts say (the cells' promise: decided for every chip of
    the cell), and a cell reaching past its file's offsets (end) never gives an offset past them."""
    ds, _ = _dataset(tmp_path, 3, "images")
    s = rt.RandomChipSampler(ds, length=10, seed=0, min_class={"c": {1: 0.3}})
    R, C = np.meshgrid(np.arange(0, 29), np.arange(0, 33), indexing="ij")
    R, C = R.ravel(), C.ravel()
    files = np.zeros(len(R), np.int64)
    terms = cells.bank_terms(s.contents, files)
    ok = s.contents.ok_many(np.array([0]), np.zeros(len(R), np.int64), R, C)
    assert ok.any() and not ok.all()
    args = (np.arange(len(R)), np.ones((len(R), 2), np.int64), np.zeros(len(R), bool), terms, ds.index.size, 7, 1, 10**9,
            1)
    _, _, met = tiling.reject_draw(_one_offset_cells(R, C, sure=np.ones(len(R), bool)), *args)
    assert met.all()
    # one cell of 3 x 3 offsets of which only the first row and column lie in the file (end one past them)
    cl = _one_offset_cells([0], [0], sure=[True])
    cl = cl[:2] + (np.array([3], np.int32), np.array([3], np.int32), np.array([1], np.int32),
                   np.array([1], np.int32)) + cl[6:]
    n = 400
    r0, c0, met = tiling.reject_draw(cl, np.zeros(n, np.int64), np.ones((1, 2), np.int64), np.zeros(1, bool),
                                     cells.bank_terms(s.contents, np.zeros(1, np.int64)), ds.index.size, 5, 256, 10**9,
                                     10**9)
    assert met.all() and not r0.any() and not c0.any()


def test_draws_are_uniform_over_a_files_cells_and_a_function_of_the_seed(tmp_path):
    """Every cell sure: each key's offset uniform over the file's cells' offsets (chi-square over 3 cells of 2 x 3
    offsets spread on a grid of 4 cells a row, and a second file of one cell), the same for the same seed, other
    for another; keys of an empty file are left unmet."""
    ds, _ = _dataset(tmp_path, 4, "images")
    s = rt.RandomChipSampler(ds, length=10, seed=0, min_class={"c": {1: 0.3}})
    i32 = lambda *v: np.array(v, np.int32)  # noqa: E731
    cl = (i32(3, 1, 1), i32(0, 3, 4), i32(2, 1, 1), i32(3, 1, 1), i32(28, 29, 29), i32(32, 33, 33), i32(1, 5, 0),
          i32(2, 7, 0), i32(4, 1, 1), i32(0, 5, 7, 0, 0), np.ones(5, bool))
    n = 18000
    inv = np.concatenate([np.zeros(n, np.int64), np.ones(100, np.int64), np.full(10, 2, np.int64)])
    empty = np.array([False, False, True])
    terms = cells.bank_terms(s.contents, np.zeros(3, np.int64))
    go = lambda seed: tiling.reject_draw(cl, inv, np.ones((3, 2), np.int64), empty, terms, ds.index.size, seed,  # noqa: E731
                                         8, 10**9, 10**9)
    r0, c0, met = go(11)
    assert met[:n + 100].all() and not met[n + 100:].any()
    want = {(1 + q // 4 * 2 + a, 2 + q % 4 * 3 + b) for q in (0, 5, 7) for a in range(2) for b in range(3)}
    got = {}
    for r, c in zip(r0[:n].tolist(), c0[:n].tolist()):
        got[(r, c)] = got.get((r, c), 0) + 1
    assert set(got) == want
    e = n / len(want)
    chi2 = sum((v - e) ** 2 / e for v in got.values())
    assert chi2 < 17 + 6 * 34 ** 0.5, chi2
    assert set(zip(r0[n:n + 100].tolist(), c0[n:n + 100].tolist())) == {(5, 7)}
    again = go(11)
    other = go(12)
    assert all((a == b).all() for a, b in zip(again, (r0, c0, met)))
    assert (other[0] != r0).any()


def test_keys_of_a_file_without_a_chip_are_given_up(tmp_path):
    """A file none of whose candidates meets the limits: its keys are left unmet (for its pool), after at most
    `tries` candidates each and fewer once its acceptance says they would cost more than give_up."""
    ds, _ = _dataset(tmp_path, 5, "images")
    s = rt.RandomChipSampler(ds, length=10, seed=0, min_class={"c": {1: 0.3}})
    terms = cells.bank_terms(s.contents, np.zeros(1, np.int64))
    # one offset whose chip fails, as a cell drawn by every key
    R, C = np.meshgrid(np.arange(29), np.arange(33), indexing="ij")
    bad = np.flatnonzero(~s.contents.ok_many(np.array([0]), np.zeros(R.size, np.int64), R.ravel(), C.ravel()))[0]
    cl = _one_offset_cells([R.ravel()[bad]], [C.ravel()[bad]])
    r0, c0, met = tiling.reject_draw(cl, np.zeros(500, np.int64), np.ones((1, 2), np.int64), np.zeros(1, bool), terms,
                                     ds.index.size, 1, samplers.REJECT_MIN_TRIES * 4, samplers.REJECT_MIN_TRIES,
                                     samplers.REJECT_GIVE_UP)
    assert not met.any() and not r0.any() and not c0.any()


def test_the_sampler_takes_the_native_draw_for_class_limits_alone(tmp_path, monkeypatch):
    """Class limits alone on files of one tile grid: _rejected's keys come from one native call per round of
    files (counted), each meeting ok_many; a file drawn more than REJECT_KEYS keys natively too (no pool made)
    where at least NATIVE_SURE_SHARE of its cells are sure, else from its pool; with min_valid beside them the
    numpy draw (no native call)."""
    ds, _ = _dataset(tmp_path, 6, "images")
    calls = []
    real = tiling.reject_draw

    def counted(*a, **k):
        calls.append(len(a[1]))
        return real(*a, **k)

    monkeypatch.setattr(tiling, "reject_draw", counted)
    s = rt.RandomChipSampler(ds, length=300, seed=0, min_class={"c": {1: 0.3}})
    keys = np.array(list(s))
    assert calls and sum(calls) >= 300
    for j in np.unique(keys[:, 0]).tolist():
        k = keys[keys[:, 0] == j]
        assert s.contents.ok_many(np.array([j]), np.zeros(len(k), np.int64), k[:, 1], k[:, 2]).all()
    # files drawn more keys than REJECT_KEYS each: natively too, no offset map (pool) made
    from rumi.torch import constraints
    made = []
    real_map = constraints.offset_map
    monkeypatch.setattr(constraints, "offset_map", lambda *a, **k: made.append(a[1]) or real_map(*a, **k))
    n = 3 * ds.index.num_files * samplers.REJECT_KEYS
    for share in (0.0, 1.01):  # every file's cells sure enough, or none: natively, or from its pool
        monkeypatch.setattr(samplers, "NATIVE_SURE_SHARE", share)
        calls.clear()
        made.clear()
        keys = np.array(list(rt.RandomChipSampler(ds, length=n, seed=0, min_class={"c": {1: 0.3}})))
        assert (np.bincount(keys[:, 0]) > samplers.REJECT_KEYS).all()
        if share == 0.0:
            assert sum(calls) >= n and not made
        else:
            assert sum(calls) < n and sorted(set(made)) == [0, 1, 2]
    calls.clear()
    list(rt.RandomChipSampler(ds, length=300, seed=0, min_class={"c": {1: 0.3}}, min_valid=0.5))
    assert not calls


def _good(tmp_path):
    ds, _ = _dataset(tmp_path, 7, "images")
    s = rt.RandomChipSampler(ds, length=10, seed=0, min_class={"c": {1: 0.3}})
    terms = cells.bank_terms(s.contents, np.zeros(2, np.int64))
    return dict(cells=_one_offset_cells([0, 1], [0, 1]), inv=np.array([0, 1, 1], np.int64),
                step=np.ones((2, 2), np.int64), empty=np.zeros(2, bool), limits=terms, size=ds.index.size, seed=1,
                tries=4, min_tries=10, give_up=100)


def _call(a):
    n = len(a["inv"])
    outs = [np.zeros(n, np.int64), np.zeros(n, np.int64), np.zeros(n, bool)]
    outs = a.pop("outs", outs)
    st_ = a["step"]
    from rumi._internal import _rumi
    _rumi.reject_draw(a["cells"], a["inv"], np.ascontiguousarray(st_[:, 0]), np.ascontiguousarray(st_[:, 1]),
                      a["empty"], a["limits"], a["size"], a["seed"], a["tries"], a["min_tries"], a["give_up"], *outs)


def _lim(k, v):
    def f(a):
        t = list(a["limits"][0])
        t[k] = v(t[k]) if callable(v) else v
        a["limits"] = [tuple(t)]
    return f


def _cell(k, v):
    def f(a):
        c = list(a["cells"])
        c[k] = v(c[k]) if callable(v) else v
        a["cells"] = tuple(c)
    return f


BAD = [
    (_cell(0, lambda x: x.astype(np.int64)), "count must hold int32"),
    (_cell(10, lambda x: x.astype(np.uint8)), "sure must hold bool"),
    (_cell(3, lambda x: x[:1]), "cell_c has 1 values, count has 2"),
    (lambda a: a.update(cells=a["cells"][:10]), "cells must be Cells.of's 11 arrays"),
    (_cell(1, lambda x: x + 5), "cells 5..6 are not within the 2 cells"),
    (_cell(2, lambda x: x * 0), "each must be >= 1"),
    (_cell(9, lambda x: x - 3), "has the number -3"),
    (lambda a: a.update(inv=np.array([0, 2], np.int64)), "inv[1] = 2 is not one of the 2 files"),
    (lambda a: a.update(inv=np.array([0, 1], np.int32)), "inv must hold int64"),
    (lambda a: a.update(empty=np.zeros(3, bool)), "empty has 3 values, one per file (2) needed"),
    (lambda a: a.update(step=np.zeros((2, 2), np.int64)), "each must be >= 1"),
    (lambda a: a.update(step=np.full((2, 2), 1 << 62, np.int64)), "is beyond +-"),
    (lambda a: a.update(size=(0, 12)), "size (0, 12) must be positive"),
    (lambda a: a.update(outs=[np.zeros(2, np.int64), np.zeros(3, np.int64), np.zeros(3, bool)]), "r0 has 2 values"),
    (lambda a: a.update(outs=[np.zeros(3, np.int64), np.zeros(3, np.int64), np.zeros(3, np.int8)]), "met must hold bool"),
    (_lim(0, "mean"), "kind \"mean\" is not min, max or cloud"),
    (_lim(8, lambda p: p + 1000), "table row 1000 is outside the table's"),
    (_lim(8, lambda p: p[:1]), "pos has 1 values (one per file: 2)"),
    (_lim(7, lambda ar: ar * 2), "area[0] = 128, but tile (0, 0) has 64 samples"),
    (_lim(6, lambda t: t * 0 + 1e6), "outside [0, its 64 samples]"),
    (_lim(5, (9, 9)), "grid (9, 9) is not the tiles"),
    (lambda a: a.update(limits=[a["limits"][0][:5]]), "limits[0] must be a tuple of 11 terms"),
]


@pytest.mark.parametrize("bad,msg", BAD, ids=[m for _, m in BAD])
def test_bad_inputs_are_errors_naming_them(tmp_path, bad, msg):
    a = _good(tmp_path)
    _call(dict(a))  # the good call runs
    bad(a)
    with pytest.raises(ValueError) as e:
        _call(a)
    assert msg in str(e.value), str(e.value)


def test_outputs_overlapping_an_input_are_refused(tmp_path):
    a = _good(tmp_path)
    out = a["inv"].copy()
    a["inv"] = out
    a["outs"] = [out, np.zeros(3, np.int64), np.zeros(3, bool)]
    with pytest.raises(ValueError, match="overlap"):
        _call(a)


def _cells_by_file(c):
    """Cells.decide's result as {file position: sorted (cell number, sure)}, with the per-file terms."""
    count, cell, end, lo, ncx, idx, sure = c
    start = np.cumsum(count) - count
    by = {f: sorted(zip(idx[start[f]:start[f] + count[f]].tolist(), sure[start[f]:start[f] + count[f]].tolist()))
          for f in range(len(count))}
    return by, [np.asarray(a).tolist() for a in (cell, end, lo, ncx)]


@settings(max_examples=16, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**31), kind=st.sampled_from(sorted(LIMITS)),
       levels=st.integers(0, 3), align=st.sampled_from([False, True, 3]), mode=st.sampled_from(MODES))
def test_native_cells_are_the_numpy_levels_cells(tmp_path_factory, seed, mode, kind, levels, align):
    """Cells.decide's native way (every limit's counts in one bank group) gives each file the same cells, each
    as sure, as the numpy levels (Contents.ok_range_many; forced by marking no file native), for min / max / two /
    cloud limits, label files shifted off the image's origin, 0-3 levels and align steps."""
    ds, band = _dataset(tmp_path_factory.mktemp("d"), seed, mode)
    _same_cells(ds, LIMITS[kind](band), levels, align)


def test_native_cells_where_the_labels_cut_a_block(tmp_path):
    """on_missing="raise" (chips anywhere) and a limit every labelled chip meets (at most half of a class the
    labels lack) but no unlabelled one (counted as every sample): blocks across a label file's edge are never
    sure, natively as in numpy."""
    ds, band = _dataset(tmp_path, 8, "raise")
    for levels in (0, 2):
        got = _same_cells(ds, dict(max_class={band: {(7, 8): 0.5}}), levels, False, tolerate=False)
        sure = [v for cs in got.values() for _, v in cs]
        assert any(sure) and not all(sure)  # (cells of both kinds: the comparison is not vacuous)


def _same_cells(ds, lim, levels, align, tolerate=True):
    """Cells.decide's cells of every file natively and in numpy, asserted equal: {file: [(cell, sure)]}."""
    try:
        s = rt.RandomChipSampler(ds, length=10, seed=0, align=align, **lim)
    except rumi.RequestError:
        if not tolerate:
            raise
        return {}
    old = cells.MAYBE_LEVELS
    cells.MAYBE_LEVELS = levels
    try:
        files = np.arange(ds.index.num_files)
        h, w = ds.index.size
        shapes = np.asarray(ds.index.shapes, np.int64)
        step = s._steps(files)
        P = np.stack([(shapes[:, 2] - h) // step[:, 0] + 1, (shapes[:, 3] - w) // step[:, 1] + 1], 1)
        c = cells.Cells(ds.index, s.contents)
        assert (cells.combos(s.contents, files) >= 0).all()
        native = _cells_by_file(c.decide(files, P, step))
        real = cells.combos
        cells.combos = lambda contents, f: np.full(len(f), -1, np.int64)
        try:
            numpy = _cells_by_file(c.decide(files, P, step))
        finally:
            cells.combos = real
    finally:
        cells.MAYBE_LEVELS = old
    assert native == numpy
    return native[0]
