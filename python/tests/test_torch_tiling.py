"""The native tile-bound sums (rumi._rumi.tile_sums through rumi.torch.tiling.tile_sums and
tile_sum_ranges, which Contents.ok_many / ok_range_many decide class limits with) against their
reference, tiling.py's numpy walk (tile_overlaps, tile_overlap_ranges) with the same terms:
random tile grids, tables, chips and blocks (chips larger than tiles, rasters not a multiple of
the tile, offsets past the raster's edge), bit-identical; a block's sums bound every chip of it
(brute force); bad inputs are ValueErrors naming the problem."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("pyarrow")

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from rumi._internal import _rumi  # noqa: E402
from rumi.catalog.scan import tile_areas  # noqa: E402
from rumi.torch.tiling import tile_overlap_ranges, tile_overlaps, tile_sum_ranges, tile_sums  # noqa: E402


def _term(n, area, ov, lower):
    """A tile's term of the bound (Contents' ok_many and ok_range_many)."""
    return np.maximum(0.0, n - (area - ov)) if lower else np.minimum(ov, n)


def _ref_chips(tiles, shape, grid, table, area, rows, r0, c0, h, w, lower):
    """tile_sums by the numpy walk."""
    out = np.zeros(len(r0))
    for tri, tci, ov in tile_overlaps(tiles, shape, grid, r0, c0, h, w):
        t = tri * grid[1] + tci
        out += _term(table[rows, t], area[t], ov, lower)
    return out


def _ref_blocks(tiles, shape, grid, table, area, rows, r1, r2, c1, c2, h, w, lower):
    """tile_sum_ranges by the numpy walk."""
    tri, tci, least, most = tile_overlap_ranges(tiles, shape, grid, r1, r2, c1, c2, h, w)
    t = tri * grid[1] + tci
    n, a = table[rows[None, :], t], area[t]
    return _term(n, a, least, lower).sum(0), _term(n, a, most, lower).sum(0)


def _case(seed, th, tw, Y, X, h, w, files, count):
    """A tile grid, a random integer table within each tile's samples (0 and the area often),
    its areas, and count queries: rows, offsets from before the raster to past its edge."""
    rng = np.random.default_rng(seed)
    grid = (-(-Y // th), -(-X // tw))
    area = tile_areas((th, tw), (Y, X), grid).astype(np.float64).ravel()
    table = np.floor(rng.random((files, area.size)) * (area + 1))
    table[rng.random(table.shape) < 0.2] = 0.0
    full = rng.random(table.shape) < 0.2
    table[full] = np.broadcast_to(area, table.shape)[full]
    rows = rng.integers(0, files, count)
    r1 = rng.integers(-h - 2, Y + 3, count)
    c1 = rng.integers(-w - 2, X + 3, count)
    r2 = r1 + rng.integers(0, 2 * th + 3, count) * (rng.random(count) < 0.8)
    c2 = c1 + rng.integers(0, 2 * tw + 3, count) * (rng.random(count) < 0.8)
    return grid, table, area, rows, r1, r2, c1, c2


grids = dict(seed=st.integers(0, 2**32 - 1), th=st.integers(1, 70), tw=st.integers(1, 70), Y=st.integers(1, 300),
             X=st.integers(1, 300), h=st.integers(1, 200), w=st.integers(1, 200), files=st.integers(1, 5),
             count=st.integers(0, 60))


@settings(max_examples=300, deadline=None)
@given(**grids)
def test_tile_sums_equal_the_walk(seed, th, tw, Y, X, h, w, files, count):
    grid, table, area, rows, r1, r2, c1, c2 = _case(seed, th, tw, Y, X, h, w, files, count)
    for lower in (True, False):
        got = tile_sums((th, tw), (Y, X), grid, table, area, rows, r1, c1, h, w, lower)
        want = _ref_chips((th, tw), (Y, X), grid, table, area, rows, r1, c1, h, w, lower)
        assert got.dtype == np.float64 and np.array_equal(got, want), (lower, got, want)
        least, most = tile_sum_ranges((th, tw), (Y, X), grid, table, area, rows, r1, r2, c1, c2, h, w, lower)
        want_l, want_m = _ref_blocks((th, tw), (Y, X), grid, table, area, rows, r1, r2, c1, c2, h, w, lower)
        assert np.array_equal(least, want_l), (lower, least, want_l)
        assert np.array_equal(most, want_m), (lower, most, want_m)
        one_l, one_m = tile_sum_ranges((th, tw), (Y, X), grid, table, area, rows, r1, r1, c1, c1, h, w, lower)
        assert np.array_equal(one_l, got) and np.array_equal(one_m, got)  # a block of one chip: the chip's sum


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), th=st.integers(1, 20), tw=st.integers(1, 20), Y=st.integers(1, 60),
       X=st.integers(1, 60), h=st.integers(1, 40), w=st.integers(1, 40))
def test_block_sums_bound_every_chip(seed, th, tw, Y, X, h, w):
    """least <= the sum of every chip of a block <= most, each chip summed by the walk."""
    grid, table, area, rows, r1, r2, c1, c2 = _case(seed, th, tw, Y, X, h, w, 3, 8)
    for lower in (True, False):
        least, most = tile_sum_ranges((th, tw), (Y, X), grid, table, area, rows, r1, r2, c1, c2, h, w, lower)
        for i in range(len(rows)):
            rr, cc = np.meshgrid(np.arange(r1[i], r2[i] + 1), np.arange(c1[i], c2[i] + 1), indexing="ij")
            each = _ref_chips((th, tw), (Y, X), grid, table, area, np.full(rr.size, rows[i]), rr.ravel(), cc.ravel(),
                              h, w, lower)
            assert least[i] <= each.min() and each.max() <= most[i], (lower, i, least[i], each, most[i])


def _args(**change):
    """A valid call of _rumi.tile_sums (two chips of a 2-file table of 3 x 2 tiles of 10 of a
    25 x 20 raster), with arguments changed."""
    area = tile_areas((10, 10), (25, 20), (3, 2)).astype(np.float64).ravel()
    a = dict(tiles=(10, 10), shape=(25, 20), grid=(3, 2), table=np.tile(area / 2, (2, 1)), area=area,
             rows=np.array([0, 1]), r1=np.array([0, 5]), r2=np.array([0, 5]), c1=np.array([3, 0]), c2=np.array([3, 0]),
             size=(8, 8), lower=True, least=np.zeros(2), most=None)
    a.update(change)
    return a


def test_tile_sums_valid_call():
    out = np.zeros(2)
    _rumi.tile_sums(**_args(least=out))
    area = _args()["area"]
    want = _ref_chips((10, 10), (25, 20), (3, 2), np.tile(area / 2, (2, 1)), area, np.array([0, 1]), np.array([0, 5]),
                      np.array([3, 0]), 8, 8, True)
    assert np.array_equal(out, want) and out.any()


@pytest.mark.parametrize("change, message", [
    (dict(table=np.zeros((2, 6), np.float32)), "table must hold float64"),
    (dict(table=np.zeros((2, 5))), r"table has shape \(2, 5\), not \(rows, 6\)"),
    (dict(table=np.zeros(12)), r"table has shape \(12,\), not \(rows, 6\)"),
    (dict(table=np.zeros((6, 2)).T), "table must be C-contiguous"),
    (dict(area=np.zeros(5)), "area has 5 values, not one per tile"),
    (dict(area=np.full(6, 100.0)), r"area\[4\] = 100, but tile \(2, 0\) has 50 samples"),
    (dict(rows=np.array([0, 1], np.int32)), "rows must hold int64"),
    (dict(rows=np.array([0.0, 1.0])), "rows must hold int64"),
    (dict(rows=np.array([0, 2])), r"rows\[1\] = 2 is outside the table's 2 rows"),
    (dict(rows=np.array([-1, 0])), r"rows\[0\] = -1 is outside the table's 2 rows"),
    (dict(c2=np.array([3])), "c2 has 1 values, rows has 2"),
    (dict(least=np.zeros(1)), "least has 1 values, rows has 2"),
    (dict(least=np.zeros(2, np.int64)), "least must hold float64"),
    (dict(least=np.zeros(4)[::2]), "least must be C-contiguous"),
    (dict(most=np.zeros(3)), "most has 3 values, rows has 2"),
    (dict(least=np.zeros(2), most=np.zeros(2)[::-1]), "most must be C-contiguous"),
    (dict(least=np.frombuffer(bytes(16))), "least is read-only"),
    (dict(least=[0.0, 0.0]), "least must be a buffer"),
    (dict(grid=(2, 2)), r"grid \(2, 2\) is not the tiles \(10, 10\) of a \(25, 20\) raster \(\(3, 2\)\)"),
    (dict(tiles=(0, 10)), r"tiles \(0, 10\) must be positive"),
    (dict(size=(8, -1)), r"size \(8, -1\) must be positive"),
    (dict(r2=np.array([0, 4])), "query 1: reversed offsets r1 5 > r2 4"),
    (dict(r2=np.array([0, 6])), r"query 1 is a block of chips .*: blocks need `most`"),
    (dict(r1=np.array([0, 1 << 50]), r2=np.array([0, 1 << 50])), "query 1: the offset 1125899906842624 is beyond"),
    (dict(table=np.full((2, 6), 150.0)), r"table\[0\] holds 150 for tile \(0, 0\), outside \[0, its 100 samples\]"),
    (dict(table=np.full((2, 6), np.nan)), r"table\[0\] holds NaN for tile \(0, 0\)"),
    (dict(table=np.full((2, 6), -1.0)), r"table\[0\] holds -1 for tile \(0, 0\)"),
])
def test_tile_sums_bad_inputs(change, message):
    with pytest.raises(ValueError, match=message):
        _rumi.tile_sums(**_args(**change))


def test_tile_sums_outputs_must_not_overlap():
    a = _args()
    both = np.zeros(2)
    with pytest.raises(ValueError, match="the outputs overlap another buffer of the call"):
        _rumi.tile_sums(**dict(a, least=both, most=both))
    table = a["table"].copy()
    with pytest.raises(ValueError, match="the outputs overlap another buffer of the call"):
        _rumi.tile_sums(**dict(a, table=table, least=table[0, :2]))
    assert np.array_equal(table, a["table"])  # not written
