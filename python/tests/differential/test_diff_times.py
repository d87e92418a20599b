"""Times and Cubes: every form rumi.write takes (ISO strings with and without Z, datetime64 of any
unit, naive and aware datetimes, pandas Timestamps, dates, (start, end) intervals and "start/end"
strings) stores the instant numpy gives, rounded to the nearest second (halves up) with a
warning naming the stored time when it had a fraction; the read surfaces (Dataset.times, the
xarray engine's time/time_end, the plugin's TIME/TIME_START/TIME_END, the CLI) agree, and
engine -> to_rumi keeps them (intervals included) with every sample of every step."""

from __future__ import annotations

import datetime as dt
import warnings

import numpy as np
import pytest
import xarray as xr
from hypothesis import assume, given, settings, strategies as st

import rumi
from diffkit import assert_same_samples

EPOCH = dt.datetime(1970, 1, 1)


def _us(d: dt.datetime) -> int:
    """Microseconds since 1970 of a naive UTC datetime (exact integer arithmetic)."""
    delta = d - EPOCH
    return (delta.days * 86400 + delta.seconds) * 10**6 + delta.microseconds


def _rounded(us: int) -> int:
    q, r = divmod(us, 10**6)
    return q + (1 if 2 * r >= 10**6 else 0)


@st.composite
def instants(draw):
    """(the value given to rumi.write, its form, the stored second, whether a fraction was rounded)."""
    d = draw(st.datetimes(min_value=dt.datetime(1900, 1, 1), max_value=dt.datetime(2100, 1, 1)))
    if draw(st.booleans()):
        d = d.replace(microsecond=0)
    form = draw(st.sampled_from(["iso", "isoZ", "dt64[us]", "dt64[ms]", "dt64[ns]", "datetime", "aware", "pandas", "date"]))
    if form == "date":
        day = d.date()
        return day, form, _us(dt.datetime(day.year, day.month, day.day)) // 10**6, False
    if form == "dt64[ms]":
        d = d.replace(microsecond=d.microsecond // 1000 * 1000)
    secs, rounded = _rounded(_us(d)), d.microsecond != 0
    if form == "iso":
        return d.isoformat(), form, secs, rounded
    if form == "isoZ":
        return d.isoformat() + "Z", form, secs, rounded
    if form.startswith("dt64"):
        return np.datetime64(d, form[5:-1]), form, secs, rounded
    if form == "datetime":
        return d, form, secs, rounded
    if form == "aware":
        off = draw(st.integers(-12 * 60, 14 * 60))
        tz = dt.timezone(dt.timedelta(minutes=off))
        return (d + dt.timedelta(minutes=off)).replace(tzinfo=tz), form, secs, rounded
    pd = pytest.importorskip("pandas")
    return pd.Timestamp(d), form, secs, rounded


def _write(path, T: int, times, B: int = 2, dtype="int16"):
    a = np.arange(T * B * 5 * 7, dtype=dtype).reshape(T, B, 5, 7)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        rumi.write(path, a, bands=[f"b{i}" for i in range(B)], times=times, crs="EPSG:32633",
                   transform=rumi_affine(), tile=4)
    return a, [w for w in caught if issubclass(w.category, UserWarning)]


def rumi_affine():
    from affine import Affine

    return Affine(10.0, 0.0, 500000.0, 0.0, -10.0, 4100000.0)


@given(items=st.lists(instants(), min_size=1, max_size=4), data=st.data())
def test_instants_and_intervals(scratch, items, data):
    interval = data.draw(st.booleans(), label="intervals")
    items = sorted(items, key=lambda it: it[2])  # the spec's time steps never go back
    T = len(items)
    if interval:  # intervals never overlap (the spec): each ends at the latest where the next starts
        assume(len({it[2] for it in items}) == T)
        nexts = [it[2] for it in items[1:]] + [None]
        lengths = [data.draw(st.integers(1, 400 * 86400), label="length") for _ in items]
        lengths = [n if nx is None else min(n, nx - it[2]) for n, nx, it in zip(lengths, nexts, items)]
        given = [(v, np.datetime64(s + n, "s")) for (v, _, s, _), n in zip(items, lengths)]
        if data.draw(st.booleans(), label="as 'start/end'") and all(isinstance(v, str) for v, *_ in items):
            given = [f"{v}/{np.datetime_as_string(e)}" for v, e in given]
        want = np.array([[s, s + n] for (_, _, s, _), n in zip(items, lengths)], "int64").astype("datetime64[s]")
    else:
        given = [v for v, *_ in items]
        want = np.array([s for _, _, s, _ in items], "int64").astype("datetime64[s]")
    what = f"times={given!r} (forms {[f for _, f, _, _ in items]})"
    d = scratch()
    a, warned = _write(d / "t.rumi", T, given)
    n_rounded = sum(r for *_, r in items)
    assert len(warned) == n_rounded, f"{what}: {len(warned)} rounding warnings for {n_rounded} fractions: {[str(w.message) for w in warned]}"
    for w in warned:
        assert "stored as" in str(w.message), f"{what}: the warning does not name the stored time: {w.message}"
    with rumi.open(d / "t.rumi") as ds:
        assert ds.time_kind == ("interval" if interval else "instant"), f"{what}: time_kind {ds.time_kind}"
        assert np.array_equal(ds.times.astype("datetime64[s]"), want), f"{what}: times {ds.times} != {want}"
        for t in range(T):
            assert_same_samples(ds.read(t=t)[0], a[t], f"{what}: read(t={t})")
    # the xarray engine: time (and time_end) coordinates, then back through to_rumi
    x = xr.open_dataset(d / "t.rumi", engine="rumi")["band_data"]
    starts = want[:, 0] if interval else want
    assert np.array_equal(x["time"].values, starts.astype("datetime64[ns]")), f"{what}: engine time {x['time'].values}"
    if interval:
        assert "time_end" in x.coords, f"{what}: the engine has no time_end for intervals"
        assert np.array_equal(x["time_end"].values, want[:, 1].astype("datetime64[ns]")), f"{what}: engine time_end"
    rumi.to_rumi(x, d / "back.rumi", tile=4)
    with rumi.open(d / "back.rumi") as back:
        assert back.time_kind == ("interval" if interval else "instant"), f"{what}: engine -> to_rumi time_kind {back.time_kind}"
        assert np.array_equal(back.times.astype("datetime64[s]"), want), f"{what}: engine -> to_rumi times {back.times}"
        assert_same_samples(back.read(), a, f"{what}: engine -> to_rumi samples")


@settings(max_examples=10)
@given(items=st.lists(instants(), min_size=1, max_size=3), interval=st.booleans())
def test_times_through_gdal(scratch, gdal_oracle, items, interval):
    """The plugin's time metadata: TIME (or TIME_START/TIME_END) on an Image, per band on a Cube
    (GDAL band t * B + b + 1, described "<text> @ <time>"), the stored instants."""
    T, B = len(items), 2
    secs = sorted(s for _, _, s, _ in items)
    given = [(np.datetime64(s, "s"), np.datetime64(s + 3600, "s")) if interval else np.datetime64(s, "s") for s in secs]
    d = scratch()
    a, _ = _write(d / "t.rumi", T, given, B=B)
    m, arr = gdal_oracle.describe(d / "t.rumi", d / "t.npz")
    assert "error" not in m, f"times {given}: GDAL: {m}"
    assert m["count"] == T * B, f"times {given}: GDAL sees {m['count']} bands"
    assert_same_samples(arr["read"], a.reshape(T * B, 5, 7), f"times {given}: GDAL samples (time-major bands)")

    def parse(v):
        return np.datetime64(v.rstrip("Z"), "s")

    for t in range(T):
        for b in range(B):
            md = m["band_metadata"][t * B + b] if T > 1 else {**m["metadata"], **m["band_metadata"][b]}
            what = f"times {given}: GDAL band {t * B + b + 1} metadata {md}"
            if interval:
                assert parse(md["TIME_START"]) == np.datetime64(secs[t], "s"), what
                assert parse(md["TIME_END"]) == np.datetime64(secs[t] + 3600, "s"), what
            else:
                assert parse(md["TIME"]) == np.datetime64(secs[t], "s"), what
            if T > 1:
                assert m["descriptions"][t * B + b].startswith(f"b{b} @ "), f"{what}: description {m['descriptions'][t * B + b]}"


@pytest.mark.parametrize("given,stored", [
    ("2015-03-09T17:30:17", "2015-03-09T17:30:17"),
    ("2015-03-09T17:30:17Z", "2015-03-09T17:30:17"),
    ("2015-03-09T17:30:17.5Z", "2015-03-09T17:30:18"),
    ("2015-03-09T17:30:17.499999Z", "2015-03-09T17:30:17"),
    ("2015-03-09", "2015-03-09T00:00:00"),
])
def test_cli_times_as_python(scratch, cli, given, stored):
    """`rumi convert --time` and `rumi stack --times` take the strings rumi.write takes and store
    the same second (one parser of times for every host); a fraction of a second typed on the
    command line may be refused instead, naming it (rumi.write rounds it with a warning)."""
    import subprocess

    from diffkit import Case, write_tif

    d = scratch()
    src = write_tif(Case(data=np.zeros((1, 4, 4), np.uint8)), d / "src.tif")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rumi.write(d / "py.rumi", np.zeros((1, 4, 4), np.uint8), bands=["a"], times=[given], crs="EPSG:32633",
                   transform=rumi_affine())
    with rumi.open(d / "py.rumi") as ds:
        assert ds.times[0].astype("datetime64[s]") == np.datetime64(stored), f"rumi.write times=[{given!r}]: {ds.times}"
    for args in (["convert", "-q", "--time", given, str(src), str(d / "c.rumi")],
                 ["stack", "-q", "--times", f"{given},2030-01-01", str(src), str(src), str(d / "s.rumi")]):
        r = subprocess.run([str(cli), *args], capture_output=True, text=True)
        if "." in given and r.returncode != 0:  # a fraction typed on the command line: refused, named
            assert "fraction" in r.stderr, f"rumi {' '.join(args)}: an unclear refusal: {r.stderr}"
            continue
        assert r.returncode == 0, f"rumi {' '.join(args)}: {r.stderr}"
        with rumi.open(d / ("c.rumi" if args[0] == "convert" else "s.rumi")) as ds:
            assert ds.times[0].astype("datetime64[s]") == np.datetime64(stored), f"rumi {args[0]} {given!r}: stored {ds.times[0]}"
