"""rumi.catalog.decode, the one decoder of catalogue rows, against the raw pyarrow columns read row
by row in Python (to_pylist) on real catalogues (rumi.Catalog.build of files rumi.write wrote:
instants and intervals, nodata, scales), an old catalogue without the optional columns, empty
tables, row groups of a partitioned catalogue; and its time-overlap test against a brute-force
oracle (hypothesis)."""

from __future__ import annotations

import os

import numpy as np
import pytest

import rumi

pa = pytest.importorskip("pyarrow")
pytest.importorskip("pyproj")
pytest.importorskip("shapely")
hypothesis = pytest.importorskip("hypothesis")
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from rumi.catalog import Catalog, schema, write_parts, write_table  # noqa: E402
from rumi.catalog.decode import Rows, overlap, time_indices  # noqa: E402


def _write(d, name, arr, **kw):
    p = d / f"{name}.rumi"
    rumi.write(p, arr, **kw)
    os.unlink(f"{p}.header")
    return str(p)


@pytest.fixture(scope="module")
def catalogue(tmp_path_factory):
    """Four files: a uint16 Cube of instants with nodata and a scale, a float32 Image of an
    interval, a Cube of three intervals, a uint8 Image without georeferencing."""
    d = tmp_path_factory.mktemp("decode")
    rng = np.random.default_rng(3)
    a = rng.integers(1, 60000, size=(3, 2, 70, 90), dtype=np.uint16)
    a[:, :, :10] = 0
    srcs = [
        _write(d, "a", a, bands=["red", "nir"], times=["2020-01-01", "2020-02-01T10:00:00", "2020-03-01"],
               crs="EPSG:32633", geotransform=(500000.0, 10.0, 0.0, 5100000.0, 0.0, -10.0), tile=32, nodata=0,
               scales=[0.5, 1.0], offsets=[1.0, 0.0]),
        _write(d, "b", rng.standard_normal((1, 1, 40, 50)).astype(np.float32), bands=["dem"],
               times=[("2019-01-01", "2020-01-01")], crs="EPSG:4326", geotransform=(10.0, 0.01, 0.0, 46.0, 0.0, -0.01),
               tile=16),
        _write(d, "c", rng.integers(0, 9, (3, 3, 20, 30), dtype=np.uint8), bands=["nir", "x", "red"],
               times=[("2021-01-01", "2021-01-02"), ("2021-02-01", "2021-02-03"), ("2021-03-01T00:00:01", "2021-03-04")],
               crs="EPSG:3857", geotransform=(0.0, 5.0, 0.0, 0.0, 0.0, -5.0), tile=16),
        _write(d, "d", rng.integers(0, 9, (1, 1, 12, 12), dtype=np.uint8), bands=["red"], times=["1969-12-31T23:59:59"]),
    ]
    return Catalog.build(srcs, d / "cat.parquet").table


def _secs(v):
    return None if v is None else [int(x.timestamp()) for x in v]


def _tables(table, tmp_path):
    """The catalogue as read in every way a consumer sees it: whole, an old catalogue without the
    optional columns (as opened), a slice (Arrow offsets not 0), one row group per row of a
    partitioned catalogue, empty."""
    old = table.drop_columns(["rumi:nodata", "rumi:valid", "rumi:scales", "rumi:offsets", "rumi:units", "rumi:etag",
                              "rumi:digest"])
    write_table(old, tmp_path / "old.parquet")
    out = {"whole": table, "old": Catalog.open(tmp_path / "old.parquet").table, "slice": table.slice(1, 3),
           "chunks": pa.concat_tables([table.slice(0, 2), table.slice(2)]),
           "empty": table.slice(0, 0), "none": pa.Table.from_pylist([], schema=schema()),
           "dropped": old}
    cat = Catalog.open(write_parts(table, tmp_path / "parts/", rows_per_group=1) and str(tmp_path / "parts") + "/")
    groups = [cat.read_shard(s).table for s in cat.shards()]
    out["group"] = next(g for g in groups if g.num_rows)
    return out


def test_rows_match_the_raw_columns(catalogue, tmp_path):
    for what, t in _tables(catalogue, tmp_path).items():
        raw = t.to_pylist()
        r = Rows(t)
        assert r.n == len(raw), what
        # times: seconds and ends, per row, as the Python values of the columns
        starts = [_secs(x["rumi:times"]) for x in raw]
        ends = [_secs(x["rumi:time_ends"]) for x in raw]
        assert r.times.lists() == starts, what
        assert r.times.lists(ends=True) == ends, what
        for i, (s, e) in enumerate(zip(starts, ends)):
            a, b = int(r.times.off[i]), int(r.times.off[i + 1])
            assert r.times.start[a:b].tolist() == (s or []), what
            assert r.times.end[a:b].tolist() == (e or s or []), what
            assert r.times.stop[a:b].tolist() == (e or [v + 1 for v in s or []]), what
            assert r.times.step_no[a:b].tolist() == list(range(b - a))
        assert r.times.interval.tolist() == [e is not None for e in ends]
        # shapes, tiles, sizes, sample types, ids, strings
        assert r.shapes.tolist() == [x["rumi:shape"] for x in raw]
        assert r.shapes.dtype == np.int64 and r.shapes.shape == (len(raw), 4)
        assert r.tiles.tolist() == [x["rumi:tile_shape"] for x in raw]
        assert r.file_sizes.tolist() == [x["rumi:file_size"] for x in raw]
        assert r.sample_types.tolist() == [x["rumi:dtype"] for x in raw]
        assert [r.id(i) for i in range(r.n)] == [x["id"] for x in raw]
        for name in ("location", "rumi:etag", "rumi:digest"):
            s = r.strings(name) if r.has(name) else None
            if s is not None:
                assert [s.text(i) for i in range(r.n)] == [x[name] for x in raw], (what, name)
        if r.has("rumi:header"):
            h = r.strings("rumi:header")
            assert [bytes(h.at(i)) if h.valid[i] else None for i in range(r.n)] == [x["rumi:header"] for x in raw]
        # grids
        names, idx = r.grid_codes
        assert [names[k] if k >= 0 else None for k in idx] == [x["proj:code"] for x in raw]
        for i, x in enumerate(raw):
            tr = x["proj:transform"]
            want = tr[:6] if tr is not None and len(tr) >= 6 else [np.nan] * 6
            np.testing.assert_array_equal(r.transforms[i], want)
            assert r.transform_lengths[i] == (len(tr) if tr is not None else 0)
            sh = x["proj:shape"]
            np.testing.assert_array_equal(r.proj_shapes[i], sh[-2:] if sh is not None and len(sh) >= 2 else [np.nan] * 2)
        # bands: every row's index of each name, rows lacking one
        for names_ in (["red"], ["nir", "red"], ["dem"], []):
            lk = r.bands_of(names_)
            for i, x in enumerate(raw):
                has = all(b in x["rumi:bands"] for b in names_)
                assert bool(lk.missing[i]) == (not has), (what, names_, i)
                if has:
                    assert lk.idx[i].tolist() == [x["rumi:bands"].index(b) for b in names_]
        if r.n:
            assert r.first_bands() == raw[0]["rumi:bands"]
        # nodata of the bands read, valid summaries, scaling
        keep = np.arange(r.n)
        bi = np.zeros((r.n, 1), np.int64)
        bi[:, 0] = [x["rumi:bands"].index("red") if "red" in x["rumi:bands"] else 0 for x in raw]
        val, has, known = r.band_nodata(keep, bi)
        for i, x in enumerate(raw):
            nd = x.get("rumi:nodata")
            assert bool(known[i]) == (nd is not None)
            v = None if nd is None or bi[i, 0] >= len(nd) else nd[bi[i, 0]]
            assert bool(has[i, 0]) == (v is not None)
            if v is not None:
                assert val[i, 0] == v or (np.isnan(v) and np.isnan(val[i, 0]))
        v = r.valid
        assert [bytes(v.at(i)) if v.valid[i] else None for i in range(r.n)] == [x.get("rumi:valid") for x in raw]
        sc, of, un, rec = r.scaling(keep, bi)
        for i, x in enumerate(raw):
            rec_i = all(x.get(c) is not None for c in ("rumi:scales", "rumi:offsets", "rumi:units"))
            assert bool(rec[i]) == rec_i
            for got, c, dflt in ((sc, "rumi:scales", 1.0), (of, "rumi:offsets", 0.0), (un, "rumi:units", "")):
                lst = x.get(c) or []
                assert got[i, 0] == (lst[bi[i, 0]] if lst else dflt), (what, c, i)


def test_the_catalogue_has_what_the_test_reads(catalogue):
    """The fixture holds what the comparisons above need to mean something."""
    raw = catalogue.to_pylist()
    assert [x["rumi:time_ends"] is not None for x in raw] == [False, True, True, False]
    assert raw[0]["rumi:nodata"] == [0.0, 0.0] and raw[0]["rumi:valid"] is not None
    assert raw[0]["rumi:scales"] == [0.5, 1.0] and raw[1]["rumi:scales"] == []
    assert raw[3]["proj:code"] is None and _secs(raw[3]["rumi:times"]) == [-1]


def test_bad_rows_are_named(catalogue):
    t = catalogue.set_column(catalogue.schema.get_field_index("rumi:time_ends"), "rumi:time_ends",
                             pa.array([None, [0, 1], None, None], pa.list_(pa.timestamp("us", tz="UTC"))))
    with pytest.raises(rumi.FormatError, match="rumi:time_ends and rumi:times differ in length"):
        Rows(t).times
    t = catalogue.set_column(catalogue.schema.get_field_index("rumi:shape"), "rumi:shape",
                             pa.array([[1, 2, 3], [1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1]], pa.list_(pa.int64())))
    with pytest.raises(rumi.RequestError, match=r"rumi:shape of some rows has not 4 values \(\[3, 4\]\)"):
        Rows(t).shapes
    lk = Rows(catalogue).bands_of(["red", "nir"])
    with pytest.raises(rumi.RequestError, match=r"row 7 \(b\) lacks some of the bands \['red', 'nir'\]"):
        lk.require(np.array([0, 1, 2]), lambda i: f"row {6 + i} ({Rows(catalogue).id(i)})")
    lk.require(np.array([0, 2]), Rows(catalogue).id)  # both have them
    with pytest.raises(KeyError, match="no column 'rumi:bands'"):
        Rows(catalogue.select(["id"])).bands_of(["red"])


# -- the time-overlap test against a brute force over whole seconds ---------------------------
_T = st.integers(-50, 50)
_W = st.one_of(st.none(), _T)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(spans=st.lists(st.tuples(_T, st.integers(0, 10)), max_size=8), lo=_W, hi=_W, end_open=st.booleans())
def test_overlap_is_the_brute_force(spans, lo, hi, end_open):
    """A span of the seconds s..s + d, as [s, s + d] or (end_open) [s, s + d + 1), meets the
    closed window [lo, hi] exactly when one of its seconds lies in the window (open sides: the
    whole line). A reversed window (lo > hi) is not drawn: overlap takes it as given (a span
    over both ends meets it), as the search always has."""
    hypothesis.assume(lo is None or hi is None or lo <= hi)
    s = np.array([a for a, _ in spans], np.int64)
    e = s + np.array([d for _, d in spans], np.int64) + (1 if end_open else 0)
    got = overlap(s, e, (lo, hi), end_open=end_open)
    a = -200 if lo is None else lo
    b = 200 if hi is None else hi
    for k, (s0, d) in enumerate(spans):
        secs = range(s0, s0 + d + 1)
        assert bool(got[k]) == any(a <= x <= b for x in secs), (s0, d, lo, hi, end_open)
    instants = [k for k, (_, d) in enumerate(spans) if d == 0]
    assert time_indices(s.tolist(), None, (lo, hi)) == [k for k in range(len(spans))
                                                      if (lo is None or s[k] >= lo) and (hi is None or s[k] <= hi)]
    assert all(bool(overlap(s[k], s[k], (lo, hi))) == bool(overlap(s[k], s[k] + 1, (lo, hi), end_open=True))
               for k in instants)


@settings(max_examples=100, deadline=None, derandomize=True)
@given(rows=st.lists(st.one_of(st.none(), st.lists(st.tuples(_T, st.integers(0, 5)), max_size=4)), max_size=6),
       interval=st.lists(st.booleans(), min_size=6, max_size=6), lo=_W, hi=_W)
def test_rows_meeting_is_the_brute_force(rows, interval, lo, hi):
    """Rows.times.rows_meeting against each row's steps tested one by one."""
    hypothesis.assume(lo is None or hi is None or lo <= hi)
    ts = pa.timestamp("us", tz="UTC")
    times = [None if r is None else [s * 1_000_000 for s, _ in r] for r in rows]
    ends = [None if r is None or not interval[i] else [(s + d) * 1_000_000 for s, d in r] for i, r in enumerate(rows)]
    t = pa.table({"rumi:times": pa.array(times, pa.list_(ts)), "rumi:time_ends": pa.array(ends, pa.list_(ts))})
    got = Rows(t).times.rows_meeting((lo, hi))
    for i, r in enumerate(rows):
        want = r is not None and any((lo is None or (s + (d if interval[i] else 0)) >= lo) and (hi is None or s <= hi)
                                     for s, d in r)
        assert bool(got[i]) == want


def test_every_consumer_refuses_time_ends_that_do_not_match(catalogue):
    """A row whose rumi:time_ends has another length than its rumi:times is refused by the search,
    the chip index and TorchGeo alike (the chip index took such a row's steps as instants)."""
    from rumi.catalog import search

    t = catalogue.set_column(catalogue.schema.get_field_index("rumi:time_ends"), "rumi:time_ends",
                             pa.array([None, None, [0, 1], None], pa.list_(pa.timestamp("us", tz="UTC"))))
    with pytest.raises(rumi.FormatError, match="rumi:time_ends and rumi:times differ in length"):
        search.mask(t, (("time", (0, None)),))
    pytest.importorskip("torch")
    from rumi.torch.index import ChipIndex, IndexSpec

    with pytest.raises(rumi.FormatError, match="rumi:time_ends and rumi:times differ in length"):
        ChipIndex.plan(Catalog(t.slice(2, 1)), None, IndexSpec(size=(8, 8), bands=("nir",)))


@pytest.mark.parametrize("text", ["2023", "2024-02", "2023-12", "2023-05-11", "2023-05-11T10:30", "2023-05-11 10:30",
                                  "2023-05-11T10:30:05", "2023-05-11T10:30:05Z", "1969-12-31", "2023-05-11T10:30+02:00"])
def test_a_time_text_covers_what_numpy_reads_it_as(text):
    """A search's time text covers its year, month, day or minute (the core's parser says which),
    against numpy's datetime64 of the same text: its unit's first and last second (a zone: numpy
    reads none, so the offset is applied to its value)."""
    from rumi.catalog import norm_time

    plain, zone = (text[:-6], int(text[-6:-3]) * 3600) if text[-6:-5] == "+" else (text.rstrip("Z"), 0)
    d = np.datetime64(plain.replace(" ", "T"))
    unit = np.datetime_data(d.dtype)[0]
    first = int(d.astype("datetime64[s]").astype("int64")) - zone
    last = int((d + 1).astype("datetime64[s]").astype("int64")) - 1 - zone if unit != "s" else first
    assert norm_time(text) == (first, last)
    assert norm_time((text, text)) == (first, last)


def test_a_time_text_covers_the_same_whatever_its_letters():
    """"t" and "z" are ISO 8601's "T" and "Z" (the core's parser reads them): a minute covers its
    minute in either spelling (the search read the lower-case one again with numpy, which does
    not take it, and covered one second)."""
    from rumi.catalog import norm_time

    a, b = norm_time("2023-05-11T10:30Z")
    assert b - a == 59
    for text in ("2023-05-11t10:30z", "2023-05-11t10:30", "2023-05-11T10:30z", "2023-05-11 10:30z"):
        assert norm_time(text) == (a, b), text
