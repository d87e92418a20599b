"""Partitioned catalogues (issue 40, item 1): searches equal a brute-force filter, skip row
groups by their statistics, never read header blobs at open or search; appends write new part
files and two appenders both keep their rows; s3:// and http(s):// folders search alike."""

from __future__ import annotations

import hashlib
import os
import pickle
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import rumi

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
pafs = pytest.importorskip("pyarrow.fs")
shapely = pytest.importorskip("shapely")

from rumi.catalog import Catalog, norm_time, schema, time_indices, write_listing, write_parts, write_table  # noqa: E402
from rumi.catalog import parts as parts_mod  # noqa: E402
from rumi.catalog import stores  # noqa: E402
from rumi.catalog.rows import footprint  # noqa: E402
from rumi._grid import Grid  # noqa: E402

US = 1_000_000
MERC = pytest.importorskip("pyproj").Transformer.from_crs("EPSG:4326", "EPSG:3857", always_xy=True)
T2020 = 1577836800  # 2020-01-01T00:00:00Z


def gen_rows(n: int, seed: int = 1, id0: int = 0, year0: int = 2020) -> pa.Table:
    """n catalogue rows of distinct footprints (grids of quads on a 0.5 degree grid, some sheared,
    one in seven in EPSG:3857; footprints as a row stores them), over
    three years: one-instant files (datetime) and year Cubes (start/end, several steps, some with
    time ends), two CRSs, two band sets, blobs of random bytes (some rows without one)."""
    rng = np.random.default_rng(seed)
    rows = []
    for i in range(n):
        k = id0 + i
        cx = -120 + (k * 7919 % 480) * 0.5 + 0.25
        cy = -50 + (k * 104729 % 200) * 0.5 + 0.25
        h = 0.2 + 0.05 * (k % 3)
        skew = 0.05 * ((k % 5) - 2)
        # the row's grid (some sheared; one in seven in EPSG:3857) and its footprint as a row stores it
        code = "EPSG:4326" if k % 7 else "EPSG:3857"
        tr = [2 * h / 400, skew / 400, cx - h, 0.0, -2 * h / 400, cy + h]
        if code == "EPSG:3857":
            (x0, x1, x3), (y0, y1, y3) = MERC.transform([cx - h, cx + h, cx - h + skew], [cy + h, cy + h, cy - h])
            tr = [(x1 - x0) / 400, (x3 - x0) / 400, x0, (y1 - y0) / 400, (y3 - y0) / 400, y0]
        wkb, (bx0, by0, bx1, by1) = footprint(Grid.from_affine(code, tr, (400, 400)))
        y = year0 + int(rng.integers(0, 3))
        base = int(np.datetime64(f"{y}-01-01", "s").astype("int64"))
        if k % 4 == 0:  # one instant
            t = [base + int(rng.integers(0, 365 * 86400))]
            ends = None
        else:
            t = sorted(base + int(v) for v in rng.choice(365 * 86400, size=int(rng.integers(2, 8)), replace=False))
            ends = [v + 3600 for v in t] if k % 4 == 3 else None
        one = len(t) == 1 and ends is None
        lo, hi = t[0], (ends or t)[-1]
        bands = ["red", "nir"] if k % 3 else ["red", "nir", "swir"]
        blob = None if k % 11 == 0 else rng.bytes(int(rng.integers(40, 400)))
        rows.append({
            "id": f"f{k:06d}",
            "datetime": lo * US if one else None,
            "start_datetime": None if one else lo * US,
            "end_datetime": None if one else hi * US,
            "geometry": wkb,
            "bbox": {"xmin": bx0, "ymin": by0, "xmax": bx1, "ymax": by1},
            "proj:code": code,
            "proj:transform": tr,
            "proj:shape": [400, 400],
            "assets": {"data": {"href": f"/nowhere/f{k}.rumi", "type": "application/x-rumi", "roles": ["data"]}},
            "location": f"/nowhere/f{k}.rumi",
            "rumi:header": blob,
            "rumi:bands": bands,
            "rumi:time_kind": "interval" if ends else "instant",
            "rumi:times": [v * US for v in t],
            "rumi:time_ends": [v * US for v in ends] if ends else None,
            "rumi:dtype": "uint16",
            "rumi:shape": [len(t), len(bands), 400, 400],
            "rumi:frame_unit": 1,
            "rumi:tile_shape": [256, 256],
            "rumi:file_size": 1000 + k,
            "rumi:crs_type": "geographic",
            "rumi:nodata": None,
            "rumi:valid": None,
        })
    return pa.Table.from_pylist(rows, schema=schema())


def brute(table: pa.Table, bbox=None, time=None, bands=None, crs=None) -> set[str]:
    """The ids of the rows that pass, row by row in Python (the reference)."""
    out = set()
    window = norm_time(time)
    rect = shapely.box(*bbox) if bbox is not None else None
    for r in table.to_pylist():
        if rect is not None and (r["geometry"] is None or not shapely.from_wkb(r["geometry"]).intersects(rect)):
            continue
        if window is not None:
            if r["rumi:times"] is None:
                continue
            ts = [int(v.timestamp()) for v in r["rumi:times"]]
            es = [int(v.timestamp()) for v in r["rumi:time_ends"]] if r["rumi:time_ends"] else None
            if not time_indices(ts, es, window):
                continue
        if bands is not None and not set(bands) <= set(r["rumi:bands"]):
            continue
        if crs is not None and r["proj:code"] != crs:
            continue
        out.add(r["id"])
    return out


class Counting:
    """Wraps pyarrow's local filesystem to count the files opened and the bytes read from each."""

    def __init__(self) -> None:
        self.opened: list[str] = []
        self.bytes: dict[str, int] = {}

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        real = stores.store
        counting = self

        class Handler(pafs.FileSystemHandler):
            def __init__(self, inner):
                self.inner = inner

            def get_type_name(self):
                return "counting"

            def normalize_path(self, p):
                return p

            def equals(self, other):
                return self is other

            def get_file_info(self, paths):
                return self.inner.get_file_info(paths)

            def get_file_info_selector(self, sel):
                return self.inner.get_file_info(sel)

            def open_input_file(self, p):
                counting.opened.append(p)
                f = self.inner.open_input_file(p)

                class File:  # the bytes pyarrow reads, counted
                    closed = False

                    def read(self, n=-1):
                        b = f.read(n)
                        counting.bytes[p] = counting.bytes.get(p, 0) + len(b)
                        return b

                    def seek(self, pos, whence=0):
                        return f.seek(pos, whence)

                    def tell(self):
                        return f.tell()

                    def size(self):
                        return f.size()

                    def readable(self):
                        return True

                    def seekable(self):
                        return True

                    def close(self):
                        f.close()

                return pa.PythonFile(File(), mode="r")

            def open_input_stream(self, p):
                return self.open_input_file(p)

            def open_output_stream(self, p, metadata):
                return self.inner.open_output_stream(p)

            def create_dir(self, p, recursive):
                os.makedirs(p, exist_ok=True)

            def delete_dir(self, p):
                raise NotImplementedError

            delete_dir_contents = delete_root_dir_contents = delete_file = move = copy_file = open_append_stream = delete_dir

        def store(url, options=None):
            fs, root = real(url, options)
            if isinstance(fs, pafs.LocalFileSystem):
                return pafs.PyFileSystem(Handler(fs)), root
            return fs, root

        monkeypatch.setattr(parts_mod, "store", store)

    def read_from(self, suffix: str) -> int:
        return sum(v for k, v in self.bytes.items() if k.endswith(suffix))


@pytest.fixture(scope="module")
def rows():
    return gen_rows(3000)


@pytest.fixture()
def folder(rows, tmp_path):
    d = tmp_path / "cat"
    write_parts(rows, str(d), rows_per_group=32)
    return d


QUERIES = [
    dict(bbox=(-100.0, -20.0, -60.0, 10.0)),
    dict(time=("2021-03-01", "2021-06-30")),
    dict(bbox=(0.0, 0.0, 40.0, 30.0), time="2022-05"),
    dict(bbox=(-10.0, -10.0, 10.0, 10.0), time=("2020-06-01", None), bands=["swir"]),
    dict(time=(None, "2020-02-15")),
    dict(bbox=(100.5, 20.1, 100.6, 20.2)),
    dict(bbox=(-180.0, -90.0, 180.0, 90.0), bands=["red"]),
]


def test_layout_and_schema(folder, rows):
    names = sorted(os.listdir(folder))
    pq_files = [n for n in names if n.endswith(".parquet")]
    assert len(pq_files) == 3 and all(n.startswith("part-") for n in pq_files)  # one per year
    assert sorted(n for n in names if n.endswith(".headers")) == sorted(n[:-8] + ".headers" for n in pq_files)
    f = pq.ParquetFile(folder / pq_files[0])
    assert "rumi:header" not in f.schema_arrow.names and "rumi:header_offset" in f.schema_arrow.names
    assert b"geo" in f.schema_arrow.metadata and f.metadata.num_row_groups > 10
    rg = f.metadata.row_group(0)
    stats = {rg.column(j).path_in_schema: rg.column(j).statistics for j in range(rg.num_columns)}
    assert stats["bbox.xmin"] is not None and stats["bbox.xmin"].has_min_max
    assert stats["id"] is None or not stats["id"].has_min_max  # only the pushed-down columns
    # rows sorted along the Hilbert curve of their bbox centres within the part
    t = f.read(columns=["bbox"])
    cx = np.array([(b["xmin"] + b["xmax"]) / 2 for b in t.column("bbox").to_pylist()])
    cy = np.array([(b["ymin"] + b["ymax"]) / 2 for b in t.column("bbox").to_pylist()])
    key = parts_mod.hilbert_key((cx + 180) / 360, (cy + 90) / 180)
    assert np.all(np.diff(key) >= 0)
    cat = Catalog.open(folder)
    assert cat.partitioned and len(cat) == rows.num_rows and cat.groups_read == 0


def test_hilbert_key_is_a_bijection_on_the_grid():
    b = 4
    g = (np.arange(16) + 0.5) / 16
    x, y = np.meshgrid(g, g)
    k = parts_mod.hilbert_key(x.ravel(), y.ravel(), bits=b)
    assert sorted(k) == list(range(256))
    order = np.argsort(k)
    steps = np.abs(np.diff(x.ravel()[order])) + np.abs(np.diff(y.ravel()[order]))
    assert np.allclose(steps, 1 / 16)  # consecutive cells are neighbours


@pytest.mark.parametrize("q", QUERIES, ids=[str(i) for i in range(len(QUERIES))])
def test_search_equals_brute_force(folder, rows, tmp_path, q):
    want = brute(rows, **q)
    cat = Catalog.open(folder)
    sel = cat.search(**q)
    got = sel.column("id")
    assert len(got) == len(set(got)) and set(got) == want
    assert len(sel) == len(want) and sel.table.schema.equals(schema())
    # the single-file catalogue agrees (one search semantics)
    write_table(rows, tmp_path / "one.parquet")
    assert set(Catalog.open(tmp_path / "one.parquet").search(**q).column("id")) == want
    # a search of a search, and filter_crs
    assert set(sel.filter_crs("EPSG:3857").column("id")) == brute(rows, crs="EPSG:3857", **q)


def test_row_groups_are_skipped_and_blobs_never_read(folder, rows, monkeypatch):
    c = Counting()
    c.install(monkeypatch)
    cat = Catalog.open(folder)
    assert not any(p.endswith(".headers") for p in c.opened)  # open: no blob
    assert c.read_from(".parquet") == 0  # and no footer: the parts' names carry their summaries
    files = [folder / n for n in os.listdir(folder) if n.endswith(".parquet")]
    total = sum(os.path.getsize(p) for p in files)
    tails = sum(pq.ParquetFile(p).metadata.serialized_size + 8 + (64 << 10) for p in files)  # a 64 KiB tail, then the rest
    q = dict(bbox=(60.0, 20.0, 70.0, 30.0), time=("2021-01-01", "2021-12-31"))
    sel = cat.search(**q)
    footers = c.read_from(".parquet")
    assert 0 < footers <= tails / 2  # the footer of the one part (of 3) that may match
    assert set(sel.column("id")) == brute(rows, **q) and len(sel) > 0
    assert cat.groups_read <= cat.num_groups // 8, (cat.groups_read, cat.num_groups)  # > 87 % skipped (3000 rows; more on larger ones)
    assert not any(p.endswith(".headers") for p in c.opened)  # search: no blob
    read = c.read_from(".parquet") - footers
    assert read < total / 8, (read, total)
    # each blob is read when its row is opened: exactly its bytes
    by_id = dict(zip(rows.column("id").to_pylist(), rows.column("rumi:header").to_pylist()))
    ids = sel.column("id")
    for i in range(min(5, len(sel))):
        assert sel.row(i)["rumi:header"] == by_id[ids[i]]
    got = c.read_from(".headers")
    assert got == sum(len(by_id[ids[i]] or b"") for i in range(min(5, len(sel))))


def test_rows_of_the_whole_folder_and_columns(folder, rows):
    cat = Catalog.open(folder)
    by_id = {r["id"]: r for r in rows.to_pylist()}
    for i in (0, 777, len(cat) - 1, -1):
        r = cat.row(i)
        assert r == by_id[r["id"]] and list(r) == schema().names
    assert cat.groups_read == 4  # one row group per row
    assert sorted(cat.column("id")) == sorted(by_id)
    assert cat.table.num_rows == len(by_id)
    assert pickle.loads(pickle.dumps(cat.search(bands=["swir"]))).column("id") == cat.search(bands=["swir"]).column("id")


def _digest(d: Path) -> dict[str, tuple[int, int, str]]:
    return {n: (os.stat(d / n).st_size, os.stat(d / n).st_mtime_ns, hashlib.sha256((d / n).read_bytes()).hexdigest())
            for n in os.listdir(d)}


def test_append_writes_new_parts_only(folder, rows):
    before = _digest(folder)
    cat = Catalog.open(folder)
    sel = cat.search(time="2021")
    new = gen_rows(200, seed=5, id0=100_000, year0=2023)
    cat2 = cat.append(new)
    after = _digest(folder)
    assert all(after[n] == v for n, v in before.items())  # nothing rewritten
    added = sorted(set(after) - set(before))
    assert len(added) == 6 and sorted(n.rsplit(".", 1)[1] for n in added) == ["headers"] * 3 + ["parquet"] * 3  # a part a year
    assert len(cat2) == rows.num_rows + 200 and len(Catalog.open(folder)) == len(cat2)
    assert set(cat2.search(time=("2023-01-01", None)).column("id")) == set(new.column("id").to_pylist())
    # a selection pickled before the append replays on the parts it was made from
    assert pickle.loads(pickle.dumps(sel)).column("id") == sel.column("id")
    with pytest.raises(rumi.FormatError, match="append"):
        sel.append(new)


APPENDER = """
import sys
sys.path.insert(0, {tests!r})
from test_catalog_scale import gen_rows
from rumi.catalog import Catalog
cat = Catalog.open({folder!r})
for k in range(4):
    cat = cat.append(gen_rows(50, seed={seed} + k, id0={id0} + 50 * k, year0=2024))
"""


def test_two_appenders_both_keep_their_rows(folder, rows):
    here = str(Path(__file__).resolve().parent)
    procs = [
        subprocess.Popen([sys.executable, "-c", APPENDER.format(tests=here, folder=str(folder), seed=10 * j, id0=200_000 * (j + 1))])
        for j in range(2)
    ]
    assert [p.wait(120) for p in procs] == [0, 0]
    cat = Catalog.open(folder)
    ids = set(cat.search(time=("2024-01-01", None)).column("id"))
    want = {f"f{200_000 * (j + 1) + k:06d}" for j in range(2) for k in range(200)}
    assert ids == want and len(cat) == rows.num_rows + 400


def test_build_a_folder_of_real_files_and_read_pixels(tmp_path):
    from test_catalog import make_files

    files = make_files(tmp_path)
    cat = Catalog.build([str(p) for p, _ in files.values()], str(tmp_path / "cat") + "/")
    assert cat.partitioned and len(cat) == 3
    sel = cat.search(bbox=(14.0, 45.0, 16.0, 47.0), time=("2020-01-01", "2020-12-31"), bands=["red"])
    assert sel.column("id") == ["a"]
    np.testing.assert_array_equal(sel.dataset(0).read(), files["a"][1])
    w = pickle.loads(pickle.dumps(sel))
    np.testing.assert_array_equal(w.dataset(0).read(), files["a"][1])
    again = Catalog.open(tmp_path / "cat")
    by = {again.row(i)["id"]: i for i in range(3)}
    np.testing.assert_array_equal(again.dataset(by["c"]).read(), files["c"][1])


def test_s3_and_http_folders_search_alike(folder, rows, moto, nginx, monkeypatch):
    boto3 = pytest.importorskip("boto3")
    endpoint, _ = moto
    for k, v in {"AWS_ENDPOINT_URL": endpoint, "AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test",
                 "AWS_REGION": "us-east-1", "AWS_ALLOW_HTTP": "true"}.items():
        monkeypatch.setenv(k, v)
    boto3.client("s3", endpoint_url=endpoint).create_bucket(Bucket="scale")
    write_parts(rows, "s3://scale/cat/", rows_per_group=32)
    # http(s): the same parts served by nginx, with the listing a web server cannot give
    import shutil

    web = Path(nginx.root) / "cat"
    shutil.copytree(folder, web)
    write_listing(str(web))
    q = dict(bbox=(60.0, 20.0, 70.0, 30.0), time=("2021-01-01", "2021-12-31"))
    want = brute(rows, **q)
    by_id = dict(zip(rows.column("id").to_pylist(), rows.column("rumi:header").to_pylist()))
    for url in ("s3://scale/cat/", nginx.url("cat/")):
        cat = Catalog.open(url)
        assert len(cat) == rows.num_rows
        sel = cat.search(**q)
        assert set(sel.column("id")) == want and cat.groups_read <= cat.num_groups // 8
        i = next(i for i, b in enumerate(sel.column("id")) if by_id[b] is not None)
        assert sel.row(i)["rumi:header"] == by_id[sel.column("id")[i]]
    s3cat = Catalog.open("s3://scale/cat/").append(gen_rows(30, seed=3, id0=500_000, year0=2025))
    assert set(s3cat.search(time=("2025-01-01", None)).column("id")) == {f"f{500_000 + k:06d}" for k in range(30)}


def test_appending_to_a_published_folder_rewrites_its_listing(folder, rows, nginx):
    """A folder published for http(s) readers (write_listing) keeps a listing that names every
    part after an append, so a reader over https sees the appended rows (before, the stale
    listing hid them without an error); a folder never published gets no listing."""
    import json
    import shutil

    listing = folder / "_parts.json"
    Catalog.open(str(folder)).append(gen_rows(10, seed=5, id0=600_000, year0=2026))
    assert not listing.exists()
    write_listing(str(folder))
    before = json.loads(listing.read_text())
    Catalog.open(str(folder)).append(gen_rows(20, seed=4, id0=700_000, year0=2027))
    listed = sorted((e["name"], e["size"]) for e in json.loads(listing.read_text()))
    assert listed == sorted((p.name, p.stat().st_size) for p in folder.glob("*.parquet"))
    assert len(listed) > len(before)
    shutil.copytree(folder, Path(nginx.root) / "published")
    cat = Catalog.open(nginx.url("published/"))
    assert len(cat) == rows.num_rows + 30
    added = {f"f{600_000 + k:06d}" for k in range(10)} | {f"f{700_000 + k:06d}" for k in range(20)}
    assert set(cat.column("id")) == set(rows.column("id").to_pylist()) | added


def test_parts_pruned_by_their_extent_and_parts_without_one(folder, rows):
    """A part's "rumi:catalog" metadata records its extent; a search skips parts that cannot
    match before asking pyarrow about their row groups; a part without an extent (written
    before rumi recorded it) is searched as any."""
    import json

    names = sorted(n for n in os.listdir(folder) if n.endswith(".parquet"))
    exts = [json.loads(pq.ParquetFile(folder / n).schema_arrow.metadata[b"rumi:catalog"])["extent"] for n in names]
    year = [int(np.datetime64(e["start_datetime"][0], "us").astype("datetime64[Y]").astype(int)) + 1970 for e in exts]
    assert year == [2020, 2021, 2022]
    from rumi.catalog.search import query

    assert [parts_mod.may_match(e, query(time="2021-06")) for e in exts] == [False, True, False]
    assert [parts_mod.may_match(e, query(bbox=(200.0, 0.0, 210.0, 5.0))) for e in exts] == [False] * 3
    assert parts_mod.may_match(None, query(time="2021-06"))
    # the 2021 part rewritten without its extent, under a name without a summary (as rumi
    # wrote parts before it named them with one): the same search results
    t = pq.read_table(folder / names[1])
    md = dict(t.schema.metadata)
    md[b"rumi:catalog"] = json.dumps({"version": "0.1.0"}).encode()
    old = names[1][: -len(".parquet")]
    legacy = old.rsplit(".", 1)[0]
    assert legacy != old and parts_mod.parse_summary(legacy + ".parquet") is None
    pq.write_table(t.replace_schema_metadata(md), folder / (legacy + ".parquet"), row_group_size=32)
    os.remove(folder / names[1])
    if (folder / (old + ".headers")).exists():
        os.rename(folder / (old + ".headers"), folder / (legacy + ".headers"))
    cat = Catalog.open(folder)
    assert cat._parts.extents[1] is None
    for qq in QUERIES[:4]:
        assert set(cat.search(**qq).column("id")) == brute(rows, **qq)


@pytest.mark.parametrize("q", QUERIES[:4], ids=[str(i) for i in range(4)])
def test_deferred_search_reads_shard_by_shard(folder, rows, q):
    """search(defer=True) reads nothing; its shards are the row groups that may match (from the
    footers), and read_shard gives each one's matching rows with their blobs' places: together,
    the eager search's rows; the same selection read whole (len, table, row) agrees."""
    cat = Catalog.open(folder)
    sel = cat.search(**q, defer=True)
    shards = sel.shards()
    assert cat.groups_read == 0 and len(shards) < cat.num_groups and len(set(shards)) == len(shards)
    by_id = dict(zip(rows.column("id").to_pylist(), rows.column("rumi:header").to_pylist()))
    got = []
    for s in shards:
        sr = sel.read_shard(s, ["id", "rumi:header"])
        assert sr.header is None and sr.table.column_names == ["id"]
        part, off, size = sr.refs
        assert np.all(part == s[0]) and list(sr.pos) == sorted(sr.pos)
        for i, fid in enumerate(sr.table.column("id").to_pylist()):
            blob = sel.headers.read(int(part[i]), int(off[i]) if size[i] >= 0 else None, int(size[i]) if size[i] >= 0 else None)
            assert blob == by_id[fid]
            got.append(fid)
    assert cat.groups_read == len(shards)
    eager = cat.search(**q).column("id")
    assert got == eager and set(got) == brute(rows, **q)
    # read whole when asked: len, its rows, a search of it stays deferred, pickles deferred
    assert len(sel) == len(eager) and sel.column("id") == eager
    assert sel.row(0)["rumi:header"] == by_id[eager[0]]
    again = pickle.loads(pickle.dumps(cat.search(**q, defer=True)))
    assert again._table is None and again.column("id") == eager
    assert cat.search(**q, defer=True).filter_crs("EPSG:4326")._table is None
    # rows in memory: shards are runs of rows
    mem = Catalog(rows)
    assert mem.shards() == [(-1, s) for s in range(0, rows.num_rows, parts_mod.ROWS_PER_GROUP)]
    sr = mem.read_shard(mem.shards()[0], ["id"])
    assert sr.refs is None and sr.header.to_pylist() == rows.column("rumi:header").to_pylist()[:parts_mod.ROWS_PER_GROUP]


def test_footers_kept_are_bounded_and_searches_read_them_again(rows, tmp_path, monkeypatch):
    """A process keeps the footers (statistics, about 20 KB of memory per row group: 490 MB at
    100 M rows) of at most FOOTERS_KEPT parts: open reads none (the names carry the parts' rows
    per row group and extents); a search, a row and the whole column read the footers they
    need, with the same results as when every footer was kept."""
    d = tmp_path / "many"
    write_parts(rows, str(d), rows_per_group=32, rows_per_part=400)
    nparts = len([n for n in os.listdir(d) if n.endswith(".parquet")])
    assert nparts >= 8
    kept_all = Catalog.open(d)
    monkeypatch.setattr(parts_mod, "FOOTERS_KEPT", 2)
    cat = Catalog.open(d)
    assert len(cat._parts._kept) == 0 and cat.num_groups == kept_all.num_groups  # open: no footer
    for q in QUERIES:
        got = cat.search(**q)
        assert set(got.column("id")) == brute(rows, **q)
        assert got.column("id") == kept_all.search(**q).column("id")
        assert len(cat._parts._kept) <= 2
    by_id = {r["id"]: r for r in rows.to_pylist()}
    for i in (0, 401, 1999, len(cat) - 1):
        assert cat.row(i) == kept_all.row(i) == by_id[cat.row(i)["id"]]
    assert sorted(cat.column("id")) == sorted(by_id)
    assert len(cat._parts._kept) <= 2


def test_part_names_carry_their_summaries(rows, tmp_path):
    """Each part's name carries its rows per row group (those of its footer) and an extent
    that holds the footer's (the bbox rounded outward to float32, times and proj:code exact),
    so that opening reads no footer; names stay under 255 bytes."""
    import json

    d = tmp_path / "named"
    write_parts(rows, str(d), rows_per_group=32, rows_per_part=700)
    names = sorted(n for n in os.listdir(d) if n.endswith(".parquet"))
    assert len(names) >= 5
    for n in names:
        assert len(n.encode()) < 255 and len((n[: -len(".parquet")] + ".headers").encode()) < 255
        assert len((n[: -len(".parquet")] + parts_mod.lazy_suffix("rumi:classes")).encode()) < 255
        groups, ext = parts_mod.parse_summary(n)
        meta = pq.ParquetFile(d / n).metadata
        assert groups.tolist() == [meta.row_group(i).num_rows for i in range(meta.num_row_groups)]
        stored = json.loads(pq.ParquetFile(d / n).schema_arrow.metadata[b"rumi:catalog"])["extent"]
        for k in ("xmin", "ymin", "xmax", "ymax"):
            lo, hi = ext[f"bbox.{k}"]
            assert lo <= stored[f"bbox.{k}"][0] and hi >= stored[f"bbox.{k}"][1]
        for k, side in (("xmin", 0), ("ymin", 0), ("xmax", 1), ("ymax", 1)):  # what a search reads
            assert abs(ext[f"bbox.{k}"][side] - stored[f"bbox.{k}"][side]) < 1e-4
        for k in ("datetime", "start_datetime", "end_datetime", "proj:code"):
            assert ext[k] == stored[k], k
    assert parts_mod.parse_summary("part-20261206T000000000000Z-" + "0" * 32 + ".parquet") is None
    assert parts_mod.parse_summary("part-20261206T000000000000Z-" + "0" * 32 + ".sAAAA.parquet") is None
    cat = Catalog.open(d)
    for q in QUERIES:
        assert set(cat.search(**q).column("id")) == brute(rows, **q)


def test_the_scale_bench_rows_have_the_catalogues_schema(tmp_path, monkeypatch):
    """bench/scale_bench.py's synthetic rows (part_rows, also bench/scale_loader.py's) are the
    catalogue's current schema, whatever columns it gains: they write as parts, open and search
    (it raised KeyError on 'rumi:etag' when the catalogue gained that column); with --stats'
    values (StatsPool) they give Catalog.stats the pieces drawn. Loading it leaves sys.path as it
    was: it imports the installed rumi (it put the source tree's python/ first, and every later
    spawned child imported rumi without its native module)."""
    import importlib.util

    pytest.importorskip("pyproj")
    path = Path(__file__).resolve().parents[2] / "bench" / "scale_bench.py"
    monkeypatch.setattr(sys, "path", list(sys.path))
    before = list(sys.path)
    spec = importlib.util.spec_from_file_location("scale_bench", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert sys.path == before
    tiles = bench.Tiles(12)
    table, _ = bench.year_table(tiles, np.arange(12), 2021, np.random.default_rng(0))
    assert table.schema.names == parts_mod.part_schema().names
    write_parts(table, str(tmp_path / "c"), rows_per_group=4)
    cat = Catalog.open(str(tmp_path / "c") + "/")
    assert len(cat.search(time=("2021-01-01", "2021-12-31"))) == 12
    with pytest.raises(rumi.RequestError, match="no statistics"):
        cat.stats()
    pool = bench.StatsPool(per=2)
    table, _ = bench.year_table(tiles, np.arange(12), 2021, np.random.default_rng(0), pool)
    write_parts(table, str(tmp_path / "d"), rows_per_group=4)
    got = Catalog.open(str(tmp_path / "d") + "/").search(time=("2021-01-01", "2021-12-31")).stats()
    T = [len(t) for t in table.column("rumi:times").to_pylist()]
    fs = [rumi.catalog.unpack_stats(b, (t, 4, 2048, 2048), (128, 128)) for b, t in zip(table.column("rumi:stats").to_pylist(), T)]
    from rumi.catalog.stats import Pieces, total

    want = total(Pieces(*(np.stack([f.cells[k].reshape(4, -1) for f in fs], 1).reshape(4, -1) for k in range(5))), axis=1)
    assert got.count.tolist() == want.n.tolist() and np.allclose(got.mean, want.sum / want.n, rtol=1e-12)
    assert table.column("rumi:classes").to_pylist() == [[]] * 12


@pytest.fixture()
def https_without_ranges(folder, tmp_path, monkeypatch):
    """The folder (with its listing) on an https server that ignores Range requests, as
    Python's http.server does (every GET answered 200 with the whole file); its self-signed
    certificate's CA trusted through SSL_CERT_FILE. Yields the folder's URL."""
    import datetime as dt
    import http.server
    import ipaddress
    import ssl
    import threading
    from functools import partial

    x509 = pytest.importorskip("cryptography.x509")
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    now = dt.datetime.now(dt.timezone.utc)

    def issue(subject, key, issuer, signer, ca):
        b = (x509.CertificateBuilder().subject_name(x509.Name([x509.NameAttribute(x509.oid.NameOID.COMMON_NAME, subject)]))
             .issuer_name(x509.Name([x509.NameAttribute(x509.oid.NameOID.COMMON_NAME, issuer)])).public_key(key.public_key())
             .serial_number(x509.random_serial_number()).not_valid_before(now - dt.timedelta(days=1))
             .not_valid_after(now + dt.timedelta(days=1))
             .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True))
        if not ca:
            b = b.add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
        return b.sign(signer, hashes.SHA256())

    ca_key, key = ec.generate_private_key(ec.SECP256R1()), ec.generate_private_key(ec.SECP256R1())
    ca = issue("rumi test CA", ca_key, "rumi test CA", ca_key, True)
    cert = issue("127.0.0.1", key, "rumi test CA", ca_key, False)
    ca_pem, pem, key_pem = tmp_path / "ca.pem", tmp_path / "cert.pem", tmp_path / "key.pem"
    ca_pem.write_bytes(ca.public_bytes(serialization.Encoding.PEM))
    pem.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_pem.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                          serialization.NoEncryption()))
    monkeypatch.setenv("SSL_CERT_FILE", str(ca_pem))
    write_listing(str(folder))

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *a):
            pass

    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), partial(Quiet, directory=str(folder)))
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(pem, key_pem)
    srv.socket = ctx.wrap_socket(srv.socket, server_side=True)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield f"https://127.0.0.1:{srv.server_address[1]}"
    srv.shutdown()
    srv.server_close()


def test_https_server_without_range_support_is_named_as_the_core_names_it(https_without_ranges):
    """A catalogue part over https from a server that ignores Range fails with the core's one
    text for it (rumi::range_unsupported, as rumi.open and the GDAL driver say), naming the part
    (the catalogue's reads go through the core's object store: issue 49, item 4)."""
    server = https_without_ranges
    with pytest.raises(rumi.RumiIOError) as e:
        Catalog.open(server + "/").search(bbox=(60.0, 20.0, 70.0, 30.0))
    text = str(e.value)
    assert f"the server at {server} does not support HTTP Range requests" in text, text
    assert text.startswith(f"{server}/part-") and f".parquet: the server at {server} " in text, text
    assert "status 200, not 206 Partial Content" in text, text


# --- the lazy columns beside each part (issue 50: the search figures unchanged) ----------------


def with_lazy(table: pa.Table, seed: int = 7) -> pa.Table:
    """table with rumi:stats and rumi:classes values (random bytes: nothing decodes them here;
    some rows without), as large as real ones: 600 bytes and 300 of counts a row."""
    rng = np.random.default_rng(seed)
    n = table.num_rows
    stats = [None if i % 13 == 0 else rng.bytes(600) for i in range(n)]
    classes = [[] if i % 5 == 0 else [{"band": 0, "values": [1, 2, 7], "counts": rng.bytes(300)}] for i in range(n)]
    sch = schema()
    for name, values in (("rumi:stats", stats), ("rumi:classes", classes)):
        table = table.set_column(sch.get_field_index(name), sch.field(name), pa.array(values, sch.field(name).type))
    return table


def _by_id(table: pa.Table, name: str) -> dict:
    return dict(zip(table.column("id").to_pylist(), table.column(name).to_pylist()))


def test_lazy_columns_lie_beside_each_part(rows, tmp_path):
    """rumi:stats and rumi:classes are not in a part file: each lies beside it in its own
    `part-....stats.lazy` / `.classes.lazy` (Parquet, the part's rows and row groups), named in the part's
    "rumi:catalog" metadata; a search leaves them unread and lazy_column reads its rows' values;
    the whole folder's rows, column(), read_shard and append read them from there. A folder
    without their values has no .lazy file (its metadata: none there) and reads them null."""
    import json

    lazy = with_lazy(rows)
    d = tmp_path / "lazy"
    write_parts(lazy, str(d), rows_per_group=32)
    names = sorted(n for n in os.listdir(d) if n.endswith(".parquet"))
    assert sorted(n for n in os.listdir(d) if n.endswith(".lazy")) == \
           sorted(n[:-8] + x for n in names for x in (".stats.lazy", ".classes.lazy"))
    for n in names:
        part = pq.ParquetFile(d / n)
        assert "rumi:stats" not in part.schema_arrow.names and "rumi:classes" not in part.schema_arrow.names
        for x, col in ((".stats.lazy", "rumi:stats"), (".classes.lazy", "rumi:classes")):
            side = pq.ParquetFile(d / (n[:-8] + x))
            assert side.schema_arrow.names == [col]
            assert [side.metadata.row_group(i).num_rows for i in range(side.metadata.num_row_groups)] == \
                   [part.metadata.row_group(i).num_rows for i in range(part.metadata.num_row_groups)]
        assert json.loads(part.schema_arrow.metadata[b"rumi:catalog"])["lazy"] == ["rumi:stats", "rumi:classes"]
    stats, classes = _by_id(lazy, "rumi:stats"), _by_id(lazy, "rumi:classes")
    cat = Catalog.open(d)
    for q in QUERIES[:4]:
        s = cat.search(**q)
        ids = s.column("id")
        assert set(ids) == brute(rows, **q) and s.table.column("rumi:stats").null_count == len(ids)
        assert s.lazy_column("rumi:stats").to_pylist() == [stats[i] for i in ids]
        assert s.lazy_column("rumi:classes").to_pylist() == [classes[i] for i in ids]
        assert s.filter_crs("EPSG:3857").lazy_column("rumi:stats").to_pylist() == \
               [stats[i] for i in s.filter_crs("EPSG:3857").column("id")]
        d_ = cat.search(**q, defer=True)
        for sh in d_.shards()[:5]:
            t = d_.read_shard(sh, ["id", "rumi:stats", "rumi:classes"]).table
            assert t.column("rumi:stats").to_pylist() == [stats[i] for i in t.column("id").to_pylist()]
            assert t.column("rumi:classes").to_pylist() == [classes[i] for i in t.column("id").to_pylist()]
    by_id = {r["id"]: r for r in lazy.to_pylist()}
    for i in (0, 777, len(cat) - 1):
        r = cat.row(i)
        assert r == by_id[r["id"]]
    assert dict(zip(cat.column("id"), cat.column("rumi:stats"))) == stats
    # append: the new parts' lazy columns beside them too
    new = with_lazy(gen_rows(100, seed=5, id0=100_000, year0=2023), seed=9)
    cat2 = cat.append(new)
    s = cat2.search(time=("2023-01-01", None))
    assert s.lazy_column("rumi:stats").to_pylist() == [_by_id(new, "rumi:stats")[i] for i in s.column("id")]
    # no values: no .lazy file, the column null
    e = tmp_path / "none"
    write_parts(rows, str(e), rows_per_group=32)
    assert not [n for n in os.listdir(e) if n.endswith(".lazy")]
    part = pq.ParquetFile(next(e.glob("*.parquet")))
    assert json.loads(part.schema_arrow.metadata[b"rumi:catalog"])["lazy"] == []
    s = Catalog.open(e).search(**QUERIES[0])
    assert len(s) and s.lazy_column("rumi:stats").null_count == len(s)


def test_parts_written_with_the_lazy_columns_inside_still_read(rows, tmp_path):
    """A part written before the .lazy files (rumi:stats and rumi:classes its last columns, no
    "lazy" in its metadata) reads as before, beside parts written now: searches, lazy_column,
    rows and shards give the values; a .lazy file a part's metadata names and that is missing
    is a FormatError naming it (never null values)."""
    import json
    import shutil

    lazy = with_lazy(rows)
    d = tmp_path / "mixed"
    write_parts(lazy, str(d), rows_per_group=32)
    names = sorted(n for n in os.listdir(d) if n.endswith(".parquet"))
    # the 2021 part as rumi wrote parts before: the columns inside, last
    p = d / names[1]
    t = pq.read_table(p)
    side = pq.read_table(d / (names[1][:-8] + ".stats.lazy")).append_column(
        "rumi:classes", pq.read_table(d / (names[1][:-8] + ".classes.lazy")).column(0))
    md = dict(t.schema.metadata)
    info = json.loads(md[b"rumi:catalog"])
    del info["lazy"]
    md[b"rumi:catalog"] = json.dumps(info).encode()
    old = t.append_column(side.schema.field(0), side.column(0)).append_column(side.schema.field(1), side.column(1))
    assert old.schema.names == parts_mod.part_schema().names
    pq.write_table(old.replace_schema_metadata(md), p, row_group_size=32)
    os.remove(d / (names[1][:-8] + ".stats.lazy"))
    os.remove(d / (names[1][:-8] + ".classes.lazy"))
    stats, classes = _by_id(lazy, "rumi:stats"), _by_id(lazy, "rumi:classes")
    cat = Catalog.open(d)
    for q in QUERIES[:4]:
        s = cat.search(**q)
        ids = s.column("id")
        assert set(ids) == brute(rows, **q) and s.table.column("rumi:classes").null_count == len(ids)
        assert s.lazy_column("rumi:stats").to_pylist() == [stats[i] for i in ids]
        assert s.lazy_column("rumi:classes").to_pylist() == [classes[i] for i in ids]
        for sh in cat.search(**q, defer=True).shards()[:8]:
            t = cat.search(**q, defer=True).read_shard(sh, ["id", "rumi:classes"]).table
            assert t.column("rumi:classes").to_pylist() == [classes[i] for i in t.column("id").to_pylist()]
    by_id = {r["id"]: r for r in lazy.to_pylist()}
    for i in range(0, len(cat), 397):
        r = cat.row(i)
        assert r == by_id[r["id"]]
    # a part whose .lazy file is gone: loud, naming it
    shutil.copytree(d, tmp_path / "lost")
    gone = names[2][:-8] + ".stats.lazy"
    os.remove(tmp_path / "lost" / gone)
    cat = Catalog.open(tmp_path / "lost")
    s = cat.search(time=("2022-01-01", "2022-12-31"))
    assert len(s) and s.column("id")
    assert s.lazy_column("rumi:classes").to_pylist() == [classes[i] for i in s.column("id")]  # its own file
    with pytest.raises(rumi.FormatError, match=rf"{gone} is missing: the lazy column rumi:stats"):
        s.lazy_column("rumi:stats")
    with pytest.raises(rumi.FormatError, match=rf"{gone} is missing"):
        cat.row(len(cat) - 1)
    cut = tmp_path / "lost" / (names[2][:-8] + ".classes.lazy")  # truncated: named, never a guess
    cut.write_bytes(cut.read_bytes()[: cut.stat().st_size // 2])
    with pytest.raises(rumi.FormatError, match=rf"{cut.name} is not a readable file of a part's lazy column"):
        Catalog.open(tmp_path / "lost").search(time=("2022-01-01", "2022-12-31")).lazy_column("rumi:classes")


def test_a_search_over_s3_reads_the_same_ranges_with_and_without_the_lazy_columns(rows, moto, nginx, monkeypatch):
    """Over S3 (moto) a search of a folder whose rows have rumi:stats and rumi:classes reads the
    same ranges, the same number of requests, as one without them: the columns lie beside the
    parts (in a part, their bytes lay between consecutive row groups: a range per row group);
    lazy_column then reads the column's .lazy files only, its row groups as runs too. Over https (a published folder), the listing
    gives the sizes of the files beside each part: lazy_column asks no HEAD."""
    import json
    import shutil

    boto3 = pytest.importorskip("boto3")
    endpoint, _ = moto
    for k, v in {"AWS_ENDPOINT_URL": endpoint, "AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test",
                 "AWS_REGION": "us-east-1", "AWS_ALLOW_HTTP": "true"}.items():
        monkeypatch.setenv(k, v)
    boto3.client("s3", endpoint_url=endpoint).create_bucket(Bucket="lazy")
    lazy = with_lazy(rows)
    write_parts(rows, "s3://lazy/without/", rows_per_group=32)
    write_parts(lazy, "s3://lazy/with/", rows_per_group=32)
    reads: list[tuple[str, int, int]] = []
    real = stores.ObjectFile.readinto

    def counting(self, b):
        reads.append((self.loc.text, self._pos, len(b)))
        return real(self, b)

    monkeypatch.setattr(stores.ObjectFile, "readinto", counting)
    q = dict(bbox=(-100.0, -20.0, -60.0, 10.0), time=("2021-01-01", "2022-12-31"))
    got = {}
    for name in ("without", "with"):
        cat = Catalog.open(f"s3://lazy/{name}/")
        reads.clear()
        s = cat.search(**q)
        got[name] = [(u.rsplit("/", 1)[1].split(".", 1)[0], n) for u, _, n in reads], s.column("id"), cat.groups_read
    (r0, ids0, g0), (r1, ids1, g1) = got["without"], got["with"]
    assert ids0 == ids1 and set(ids0) == brute(rows, **q) and g0 == g1
    assert len(r1) == len(r0) < g1, (len(r0), len(r1), g1)  # row groups read as runs, not one by one
    assert not any(u.endswith(".lazy") for u, _, _ in reads)
    for col in ("rumi:stats", "rumi:classes"):
        reads.clear()
        assert s.lazy_column(col).to_pylist() == [_by_id(lazy, col)[i] for i in ids1]
        files = {u for u, _, _ in reads}
        assert files and all(u.endswith(parts_mod.lazy_suffix(col)) for u in files)
        # as the search: a footer a file, then the runs of row groups it read (a range a row
        # group if the other column lay between them)
        assert len(reads) <= len(r1), (reads, r1)
    # https: the listing names each part's files beside and their sizes
    web = Path(nginx.root) / "lazyweb"
    write_parts(lazy, str(web), rows_per_group=32)
    write_listing(str(web))
    listing = json.loads((web / "_parts.json").read_text())
    for e in listing:
        stem = e["name"][:-8]
        assert e["beside"] == {x: (web / (stem + x)).stat().st_size for x in (".headers", ".stats.lazy", ".classes.lazy")}
    from rumi._location import Location

    heads = []
    size = Location.size
    monkeypatch.setattr(Location, "size", lambda self, *a, **k: (heads.append(self.text), size(self, *a, **k))[1])
    s = Catalog.open(nginx.url("lazyweb/")).search(**q)
    assert s.lazy_column("rumi:classes").to_pylist() == [_by_id(lazy, "rumi:classes")[i] for i in s.column("id")]
    i = next(i for i, f in enumerate(s.column("id")) if _by_id(rows, "rumi:header")[f] is not None)
    assert s.row(i)["rumi:header"] == _by_id(rows, "rumi:header")[s.column("id")[i]]
    assert heads == []  # every size from the listing: no HEAD
    shutil.rmtree(web)
