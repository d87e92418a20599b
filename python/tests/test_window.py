"""Window arithmetic's one home (rumi._window, issue 49 item 3) against rasterio's `windows`
module: the window of CRS bounds on random grids (rotated and south-up ones included), a
window's transform, its part inside a raster; what `window=` accepts made one Window and checked
as before; tile counts from the core against the frames a written file has."""

from __future__ import annotations

import math
import os
import types

import numpy as np
import pytest
from affine import Affine

import rumi
from rumi import _rumi
from rumi._grid import Grid
from rumi._window import Window, as_window, covering, from_bounds, window_bounds, window_transform, within

hypothesis = pytest.importorskip("hypothesis")
rasterio = pytest.importorskip("rasterio")
from hypothesis import HealthCheck, assume, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from rasterio import windows as rwin  # noqa: E402

#: derandomized as the differential suite's "ci" profile (RUMI_HYPOTHESIS_PROFILE=long: random)
SETTINGS = settings(
    max_examples=int(os.environ.get("RUMI_WINDOW_EXAMPLES", "200")),
    derandomize=os.environ.get("RUMI_HYPOTHESIS_PROFILE", "ci") != "long", deadline=None, database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)

size = st.floats(0.01, 1000.0).flatmap(lambda v: st.sampled_from([v, -v]))
shear = st.one_of(st.just(0.0), st.floats(-50.0, 50.0))
origin = st.floats(-1e6, 1e6)


@st.composite
def transforms(draw):
    """Pixel-corner transforms: north-up, south-up, west-left, rotated and sheared, never degenerate."""
    a, e, b, d = draw(size), draw(size), draw(shear), draw(shear)
    t = Affine(a, b, draw(origin), d, e, draw(origin))
    assume(abs(t.determinant) > 1e-6 * abs(a * e))
    return t


def outward(v: float, up: bool) -> int:
    """rumi's rounding of a pixel coordinate: outwards, within 1e-9 of an integer taken as it."""
    return math.ceil(v - 1e-9) if up else math.floor(v + 1e-9)


def near_integer(v: float) -> bool:
    return abs(v - round(v)) < 1e-6


@SETTINGS
@given(transforms(), st.floats(-300.0, 300.0), st.floats(-300.0, 300.0), st.floats(0.0, 400.0), st.floats(0.0, 400.0))
def test_from_bounds_is_rasterios_rounded_outwards(t, col, row, dcol, drow):
    """The window of CRS bounds is rasterio's windows.from_bounds (the corners' pixel
    coordinates' bounding box) rounded outwards to whole pixels, on any grid rasterio takes."""
    xs, ys = t @ (np.array([col, col + dcol]), np.array([row, row + drow]))
    left, right = sorted(float(v) for v in xs)
    bottom, top = sorted(float(v) for v in ys)
    # rasterio refuses bounds whose order disagrees with the transform's signs (below); give it theirs
    if t.a < 0:
        left, right = right, left
    if t.e > 0:
        bottom, top = top, bottom
    want = rwin.from_bounds(left, bottom, right, top, transform=t)
    edges = (want.col_off, want.row_off, want.col_off + want.width, want.row_off + want.height)
    assume(not any(near_integer(v) for v in edges))  # the two sides' last bits may round apart there
    got = from_bounds(left, bottom, right, top, t)
    c0, r0, c1, r1 = outward(edges[0], False), outward(edges[1], False), outward(edges[2], True), outward(edges[3], True)
    assert got == Window(c0, r0, c1 - c0, r1 - r0)
    assert all(type(v) is int for v in (got.col_off, got.row_off, got.width, got.height))


@SETTINGS
@given(st.floats(0.01, 1000.0), st.floats(0.01, 1000.0), st.booleans(), origin, origin,
       st.integers(-500, 500), st.integers(-500, 500), st.integers(0, 300), st.integers(0, 300))
def test_from_bounds_of_a_windows_bounds_is_that_window(a, e, south_up, x0, y0, col, row, w, h):
    """Bounds on pixel edges (a window's own bounds) give that window exactly, as rasterio's
    float window rounds to it."""
    # the 1e-9 slack covers the rounding of a pixel edge's coordinates while the origin is
    # within a million pixels of zero (UTM at 1 m, lon/lat at 1e-4 degree)
    assume(abs(x0) / a < 1e6 and abs(y0) / e < 1e6)
    t = Affine(a, 0.0, x0, 0.0, e if south_up else -e, y0)
    win = Window(col, row, w, h)
    b = Grid("EPSG:32633", t, (1, 1)).window_bounds(win)
    assert from_bounds(*b, t) == win
    if not south_up:  # rasterio refuses a south-up grid's (bottom < top) bounds as inconsistent
        r = rwin.from_bounds(*b, transform=t)
        assert (round(r.col_off), round(r.row_off), round(r.width), round(r.height)) == (col, row, w, h)


def test_from_bounds_refuses_a_degenerate_grid_as_before():
    with pytest.raises(rumi.RequestError, match=r"the grid transform \(1.0, 2.0, 0.0, 2.0, 4.0, 0.0\) is degenerate"):
        from_bounds(0.0, 0.0, 1.0, 1.0, Affine(1.0, 2.0, 0.0, 2.0, 4.0, 0.0))


@SETTINGS
@given(transforms(), st.integers(-10_000, 10_000), st.integers(-10_000, 10_000))
def test_window_transform_is_rasterios(t, col, row):
    """A window's transform is rasterio's windows.transform (to rounding: rasterio composes two
    translations, rumi one) and Grid.window_transform, from a Window or the numbers row_off,
    col_off as before."""
    win = Window(col, row, 3, 4)
    got = window_transform(win, t)
    want = rwin.transform(rwin.Window(col, row, 3, 4), t)
    scale = max(abs(v) for v in tuple(t)[:6]) * (1 + abs(col) + abs(row))
    assert np.allclose(tuple(got)[:6], tuple(want)[:6], rtol=0, atol=1e-9 * scale)
    assert (got.a, got.b, got.d, got.e) == (t.a, t.b, t.d, t.e)
    g = Grid(None, t, (10, 10))
    assert g.window_transform(win) == got == g.window_transform(row, col) == g.window_transform(row_off=row, col_off=col)
    assert g.window_bounds(win) == g.window_bounds(row, col, 4, 3) == g.window_bounds(row, col, width=3, height=4)


@SETTINGS
@given(transforms(), st.integers(-10_000, 10_000), st.integers(-10_000, 10_000), st.integers(0, 500),
       st.integers(0, 500))
def test_window_bounds_are_the_corners_of_the_windows_grid(t, col, row, w, h):
    """A window's bounds (Grid.window_bounds, the chip index's bounds) are the bounding box of
    the corners of its grid (Grid(window_transform, (h, w)).bounds, to the last bit), and
    rasterio's windows.bounds on a grid without rotation (to rounding: rasterio transforms the
    corners of the big grid)."""
    win = Window(col, row, w, h)
    got = window_bounds(win, t)
    assert got == tuple(Grid(None, window_transform(win, t), (h, w)).bounds)
    assert Grid(None, t, (1, 1)).window_bounds(win) == got == window_bounds(win, tuple(t)[:6])
    if t.b == 0 and t.d == 0:
        left, bottom, right, top = rwin.bounds(rwin.Window(col, row, w, h), t)
        want = (min(left, right), min(bottom, top), max(left, right), max(bottom, top))
        scale = max(abs(v) for v in tuple(t)[:6]) * (1 + abs(col) + abs(row) + w + h)
        assert np.allclose(got, want, rtol=0, atol=1e-9 * scale)


def test_grid_methods_refuse_a_mixed_or_short_window():
    g = Grid(None, Affine(10.0, 0.0, 0.0, 0.0, -10.0, 0.0), (10, 10))
    for call in (lambda: g.window_transform(1), lambda: g.window_transform(1, row_off=2),
                 lambda: g.window_transform(1, 2, 3), lambda: g.window_transform(Window(0, 0, 1, 1), col_off=1)):
        with pytest.raises(TypeError, match=r"^give a rumi.Window, or 2 numbers \(row_off, col_off\)$"):
            call()
    with pytest.raises(TypeError, match=r"4 numbers \(row_off, col_off, height, width\)"):
        g.window_bounds(Window(0, 0, 1, 1), 3)


@SETTINGS
@given(st.integers(-50, 150), st.integers(-50, 150), st.integers(0, 200), st.integers(0, 200),
       st.integers(0, 120), st.integers(0, 120))
def test_crop_is_rasterios(col, row, w, h, height, width):
    got = Window(col, row, w, h).crop(height, width)
    want = rwin.crop(rwin.Window(col, row, w, h), height, width)
    assert (got.col_off, got.row_off, got.width, got.height) == (want.col_off, want.row_off, want.width, want.height)
    # the pixels it holds are exactly the window's pixels inside the raster
    inside = np.zeros((height, width), bool)
    inside[got.toslices()] = True
    rows, cols = np.arange(height)[:, None], np.arange(width)[None, :]
    assert np.array_equal(inside, (rows >= row) & (rows < row + h) & (cols >= col) & (cols < col + w))


@SETTINGS
@given(st.lists(st.tuples(st.integers(-1000, 1000), st.integers(-1000, 1000)), min_size=1, max_size=30))
def test_covering_is_the_smallest_window_holding_the_pixels(pixels):
    rows, cols = np.array([p[0] for p in pixels]), np.array([p[1] for p in pixels])
    win = covering(rows, cols)
    r, c = rows - win.row_off, cols - win.col_off
    assert (r >= 0).all() and (r < win.height).all() and (c >= 0).all() and (c < win.width).all()
    assert r.min() == 0 and c.min() == 0 and r.max() == win.height - 1 and c.max() == win.width - 1


@SETTINGS
@given(st.integers(-20, 60), st.integers(-20, 60), st.integers(0, 40), st.integers(0, 40))
def test_every_window_form_is_one_window(col, row, w, h):
    """A rumi Window, a rasterio Window and the tuple (row_off, col_off, height, width) are one
    Window; inside a 40 x 50 raster or refused, naming the form given, as before."""
    forms = [Window(col, row, w, h), rwin.Window(col, row, w, h), (row, col, h, w)]
    assert {as_window(f) for f in forms} == {Window(col, row, w, h)}
    if row >= 0 and col >= 0 and row + h <= 40 and col + w <= 50:
        assert {within(f, 40, 50) for f in forms} == {Window(col, row, w, h)}
    else:
        for f, shown in zip(forms, [f"Window(col_off={col}, row_off={row}, width={w}, height={h})"] * 2
                            + [f"{(row, col, h, w)} (row_off, col_off, height, width)"]):
            with pytest.raises(rumi.RequestError) as e:
                within(f, 40, 50)
            assert str(e.value) == (f"window {shown} is outside the 40x50 raster "
                                    "(Dataset.read(..., boundless=True, fill_value=v) fills what lies outside)")
    assert within(None, 40, 50) == Window(0, 0, 50, 40)


def test_negative_sizes_and_non_windows_are_refused_as_before():
    # a rasterio Window refuses a negative size itself: an object with its attributes stands in
    other = types.SimpleNamespace(col_off=0, row_off=0, width=3, height=-1)
    for f in (Window(0, 0, 3, -1), other, (0, 0, -1, 3)):
        with pytest.raises(rumi.RequestError, match=r"^window height -1 and width 3 must not be negative$"):
            as_window(f)
    for f in ("abc", (1, 2, 3), 5):
        with pytest.raises(TypeError, match=r"window must be a rumi.Window\(col_off, row_off, width, height\)"):
            as_window(f)
    with pytest.raises(ValueError, match="a boundless read needs a window"):
        as_window(None)


@SETTINGS
@given(st.integers(1, 2**32 - 1), st.integers(1, 2**32 - 1), st.integers(1, 65535), st.integers(1, 65535))
def test_tile_counts_are_the_ceiling(height, width, th, tw):
    assert _rumi.tile_counts((height, width), (th, tw)) == (-(-height // th), -(-width // tw))


@settings(max_examples=12, derandomize=True, deadline=None, database=None)
@given(st.integers(1, 70), st.integers(1, 70), st.sampled_from([16, 32]), st.sampled_from([16, 48]))
def test_tile_counts_match_the_frames_of_a_written_file(tmp_path_factory, height, width, th, tw):
    """The tile counts times T x B are the frames the core wrote (one per tile and plane)."""
    p = tmp_path_factory.mktemp("tiles") / "t.rumi"
    a = np.zeros((2, 3, height, width), np.uint8)
    rumi.write(p, a, bands=["a", "b", "c"], times=["2020-01-01", "2020-01-02"], tile=(th, tw), frame_unit=0)
    with rumi.open(p) as ds:
        down, across = _rumi.tile_counts(ds.shape[2:], ds.tile_shape)
        assert 2 * 3 * down * across == ds.native.info().frame_count


def test_tile_counts_refuse_a_zero_tile():
    with pytest.raises(ValueError, match=r"the tile shape \(0, 16\) has a zero side"):
        _rumi.tile_counts((10, 10), (0, 16))
