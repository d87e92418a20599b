"""Catalogue searches by box equal brute force on the sphere (issue 47, items A and B): boxes in
any CRS (UTM zones north and south, polar EPSG:3031 / 3413, EPSG:4326 boxes across 180
degrees), footprints across the antimeridian and around a pole, single-file and partitioned
catalogues; a truncated catalogue part is a rumi error naming the file.

The oracle never uses rumi.catalog's geometry: shapely in the box's own CRS when the file shares
it (exact), otherwise both outlines densely projected into a stereographic projection centred on
the box (no cut at 180 degrees nor at the poles there), with the pairs that lie within a few
metres of touching left out (both sides densify curved edges). duckdb over the part files is the
second oracle: the bbox covering (xmin > xmax across 180 degrees) of every row that intersects
must meet the box's envelope, and the parts hold every row."""

from __future__ import annotations

import math
import os
from pathlib import Path

import numpy as np
import pytest
from affine import Affine

import rumi

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
pyproj = pytest.importorskip("pyproj")
shapely = pytest.importorskip("shapely")
hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from rumi._grid import Grid  # noqa: E402
from rumi.catalog import Catalog, schema, write_parts, write_table  # noqa: E402
from rumi.catalog.rows import footprint  # noqa: E402

#: per scene; derandomized as the differential suite's "ci" profile (RUMI_HYPOTHESIS_PROFILE=long:
#: random examples; RUMI_GEOMETRY_EXAMPLES: how many)
SETTINGS = settings(
    max_examples=int(os.environ.get("RUMI_GEOMETRY_EXAMPLES", "12")),
    derandomize=os.environ.get("RUMI_HYPOTHESIS_PROFILE", "ci") != "long", deadline=None, database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much,
                           HealthCheck.function_scoped_fixture],
)
US = 1_000_000
#: metres: pairs closer than this to touching are left out of the comparison (both sides densify)
TOL = 5.0
DENSE = 400


def write_file(path: Path, crs: str, transform: Affine, shape=(8, 8)) -> Path:
    rumi.write(path, np.zeros((1, 1) + tuple(shape), np.uint8), bands=["b"], times=["2020-01-01"], crs=crs, transform=transform, tile=8)
    return path


# -- the oracle -------------------------------------------------------------------------------
def _t(src: str, dst: str):
    return pyproj.Transformer.from_crs(src, dst, always_xy=True)


def dense_ring(corners, n=DENSE):
    c = np.asarray(corners, float)
    out = []
    for i in range(len(c)):
        a, b = c[i], c[(i + 1) % len(c)]
        t = np.arange(n)[:, None] / n
        out.append(a + (b - a) * t)
    r = np.concatenate(out)
    return np.concatenate([r, r[:1]])


def box_corners(bounds, crs):
    w, s, e, n = bounds
    if crs == "EPSG:4326" and w > e:
        e += 360.0
    return [(w, s), (e, s), (e, n), (w, n)]


def grid_corners(crs, t: Affine, shape):
    h, w = shape
    return [t @ (0, 0), t @ (w, 0), t @ (w, h), t @ (0, h)]


def oracle(box, box_crs, grids):
    """{index: True/False} of the grids (crs, transform, shape) that surely meet / miss the box
    (the ambiguous ones left out)."""
    out = {}
    if box_crs == "EPSG:4326":
        w, s, e, n = box
        clon = (w + (e + 360.0 if w > e else e)) / 2
        clat = (s + n) / 2
    else:
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        clon, clat = _t(box_crs, "EPSG:4326").transform(cx, cy)
    stere = f"+proj=stere +lat_0={clat} +lon_0={clon} +k=1 +x_0=0 +y_0=0 +ellps=WGS84 +units=m +no_defs"
    ring = dense_ring(box_corners(box, box_crs))
    bx, by = _t(box_crs, stere).transform(ring[:, 0], ring[:, 1])
    bpoly = shapely.Polygon(np.stack([bx, by], 1))
    assert bpoly.is_valid and np.isfinite(bx).all()
    for i, (crs, t, shape) in enumerate(grids):
        corners = grid_corners(crs, t, shape)
        if crs == box_crs and crs != "EPSG:4326":  # the same plane: exact, touching included
            out[i] = bool(shapely.Polygon(corners).intersects(shapely.box(*box)))
            continue
        r = dense_ring(corners)
        x, y = _t(crs, stere).transform(r[:, 0], r[:, 1])
        if not (np.isfinite(x).all() and np.isfinite(y).all()):
            continue
        poly = shapely.Polygon(np.stack([x, y], 1))
        if not poly.is_valid:
            continue
        if poly.buffer(-TOL).intersects(bpoly) or poly.intersects(bpoly.buffer(-TOL)):
            out[i] = True
        elif not poly.buffer(TOL).intersects(bpoly):
            out[i] = False
    return out


# -- catalogue rows of grids (as describe writes them, without files) ----------------------------
def rows_of(grids, years=None):
    rows = []
    for i, (crs, t, shape) in enumerate(grids):
        wkb, (x0, y0, x1, y1) = footprint(Grid(crs, t, shape))
        y = 2020 + (years[i] if years else 0)
        secs = int(np.datetime64(f"{y}-06-01", "s").astype("int64"))
        rows.append({
            "id": f"g{i:03d}", "datetime": secs * US, "start_datetime": None, "end_datetime": None,
            "geometry": wkb, "bbox": {"xmin": x0, "ymin": y0, "xmax": x1, "ymax": y1},
            "proj:code": crs, "proj:transform": list(t)[:6], "proj:shape": list(shape),
            "assets": {"data": {"href": f"/nowhere/g{i}.rumi", "type": "application/x-rumi", "roles": ["data"]}},
            "location": f"/nowhere/g{i}.rumi", "rumi:header": b"x", "rumi:bands": ["b"], "rumi:time_kind": "instant",
            "rumi:times": [secs * US], "rumi:time_ends": None, "rumi:dtype": "uint8", "rumi:shape": [1, 1] + list(shape),
            "rumi:frame_unit": 1, "rumi:tile_shape": [8, 8], "rumi:file_size": 100, "rumi:crs_type": "projected",
        })
    sch = schema()
    for r in rows:
        for n in sch.names:
            r.setdefault(n, None)
    return pa.Table.from_pylist(rows, schema=sch)


# -- the scenarios: grids and boxes ---------------------------------------------------------------
#: (name, the files' CRSs, the boxes' CRSs, the centre (lon, lat))
SCENES = [
    ("antimeridian north", ["EPSG:32660", "EPSG:32601", "EPSG:4326"], ["EPSG:4326", "EPSG:32660", "EPSG:32601"], (180.0, 52.0)),
    ("antimeridian south", ["EPSG:32760", "EPSG:32701", "EPSG:4326"], ["EPSG:4326", "EPSG:32760", "EPSG:32701"], (180.0, -18.0)),
    ("utm 21", ["EPSG:32621", "EPSG:32622", "EPSG:4326"], ["EPSG:32621", "EPSG:4326", "EPSG:32622"], (-57.5, 47.0)),
    ("south pole", ["EPSG:3031", "EPSG:32758"], ["EPSG:3031", "EPSG:4326", "EPSG:32758"], (0.0, -90.0)),
    ("north pole", ["EPSG:3413", "EPSG:3995"], ["EPSG:3413", "EPSG:4326", "EPSG:3995"], (0.0, 90.0)),
]


@st.composite
def scene(draw, which):
    name, file_crss, box_crss, (lon, lat) = which
    polar = "pole" in name
    grids = []
    for _ in range(draw(st.integers(2, 7))):
        crs = draw(st.sampled_from(file_crss))
        size = draw(st.sampled_from([2_000.0, 30_000.0, 150_000.0, 600_000.0] if polar else [2_000.0, 30_000.0, 150_000.0]))
        hw = (draw(st.integers(1, 12)), draw(st.integers(1, 12)))
        # around the centre: a point at a drawn offset, in the file's CRS
        if polar and lat in (90.0, -90.0):
            r = draw(st.sampled_from([0.0, 0.0, 1.0, 2.0, 4.0, 8.0, 15.0]))  # degrees from the pole
            clon = draw(st.floats(-180, 180))
            clat = lat - math.copysign(r, lat)
        else:
            clon = lon + draw(st.floats(-4, 4))
            clat = lat + draw(st.floats(-3, 3))
        if crs == "EPSG:4326":
            px = size / 111_000.0 / hw[1]
            py = size / 111_000.0 / hw[0]
            x0 = clon - draw(st.floats(0, 1)) * px * hw[1]
            t = Affine(px, 0, x0, 0, -py, clat + draw(st.floats(0, 1)) * py * hw[0])
        else:
            cx, cy = _t("EPSG:4326", crs).transform(clon, clat)
            pxl = size / max(hw)
            fx, fy = draw(st.sampled_from([0.0, 0.5, 1.0])), draw(st.sampled_from([0.0, 0.5, 1.0, draw(st.floats(0, 1))]))
            # origins snapped to whole pixels of the centre sometimes: corners and edges on the pole
            t = Affine(pxl, 0, round(cx - fx * pxl * hw[1]), 0, -pxl, round(cy + fy * pxl * hw[0]))
        grids.append((crs, t, hw))
    box_crs = draw(st.sampled_from(box_crss))
    bsize = draw(st.sampled_from([500.0, 3_800.0, 40_000.0, 400_000.0]))
    if box_crs == "EPSG:4326":
        dlon = draw(st.floats(0.01, 30.0)) if not polar else draw(st.floats(0.01, 359.0))
        dlat = draw(st.floats(0.01, 10.0))
        blon = lon + draw(st.floats(-5, 5)) if not polar else draw(st.floats(-180, 180))
        blat = lat + draw(st.floats(-3, 3)) if not polar else lat - math.copysign(draw(st.floats(dlat, 25.0)), lat)
        w = (blon - dlon / 2 + 180.0) % 360.0 - 180.0
        e = (blon + dlon / 2 + 180.0) % 360.0 - 180.0  # w > e across 180 degrees
        s, n = max(-90.0, blat - dlat / 2), min(90.0, blat + dlat / 2)
        box = (w, s, e, n)
    else:
        g = grids[draw(st.integers(0, len(grids) - 1))]
        gx, gy = _t(g[0], box_crs).transform(*(g[1] @ (g[2][1] / 2, g[2][0] / 2)))
        ox, oy = draw(st.floats(-1.5, 1.5)) * bsize, draw(st.floats(-1.5, 1.5)) * bsize
        aspect = draw(st.floats(0.3, 3.0))
        box = (gx + ox - bsize / 2, gy + oy - bsize * aspect / 2, gx + ox + bsize / 2, gy + oy + bsize * aspect / 2)
    return name, grids, box_crs, box


def _ids(cat):
    return set(cat.column("id"))


def _duckdb_superset(folder: Path, env) -> tuple[int, set[str]]:
    """duckdb over the part files: (rows, ids whose bbox covering meets the envelope env (w, s, e, n;
    w > e across 180 degrees) on the circle, xmin > xmax read as across 180 degrees)."""
    duckdb = pytest.importorskip("duckdb")
    w, s, e, n = env
    con = duckdb.connect()
    glob = str(folder / "*.parquet")
    total = con.execute(f"select count(*) from read_parquet('{glob}')").fetchone()[0]
    lon = "(least(bbox.xmin, 999) <= {e} + k and (case when bbox.xmin > bbox.xmax then bbox.xmax + 360 else bbox.xmax end) >= {w} + k)"
    e2 = e + 360.0 if w > e else e
    cond = " or ".join(lon.format(e=e2, w=w).replace("k", str(k)) for k in (-360, 0, 360))
    ids = {r[0] for r in con.execute(
        f"select id from read_parquet('{glob}') where bbox.ymin <= {n} and bbox.ymax >= {s} and ({cond})").fetchall()}
    return total, ids


@pytest.mark.parametrize("which", SCENES, ids=[s[0].replace(" ", "-") for s in SCENES])
def test_search_equals_brute_force_on_the_sphere(tmp_path_factory, which):
    SETTINGS(given(scene(which))(lambda sc: _check(tmp_path_factory, sc)))()


def _check(tmp_path_factory, sc):
    name, grids, box_crs, box = sc
    want = oracle(box, box_crs, grids)
    years = [i % 2 for i in range(len(grids))]
    table = rows_of(grids, years)
    d = tmp_path_factory.mktemp("geo")
    write_table(table, d / "cat.parquet")
    folder = d / "parts"
    write_parts(table, str(folder), rows_per_group=2)
    single = _ids(Catalog.open(d / "cat.parquet").search(bbox=box, crs=box_crs))
    cat = Catalog.open(folder)
    parted = _ids(cat.search(bbox=box, crs=box_crs))
    deferred = cat.search(bbox=box, crs=box_crs, defer=True)
    shards = set()
    for sh in deferred.shards():
        shards |= set(deferred.read_shard(sh, ["id"]).table.column("id").to_pylist())
    ids = [f"g{i:03d}" for i in range(len(grids))]
    for i, sure in want.items():
        for got, how in ((single, "single file"), (parted, "parts"), (shards, "shards")):
            assert (ids[i] in got) == sure, (name, how, box_crs, box, grids[i], sure)
    assert single == parted == shards
    # duckdb: the parts hold every row, and every row that meets the box has a bbox covering that
    # meets the box's envelope (what the search pushes down)
    from rumi.catalog.search import box4326

    total, coarse = _duckdb_superset(folder, box4326(box, box_crs))
    assert total == len(grids)
    assert {ids[i] for i, sure in want.items() if sure} <= coarse


# -- the repros of issue 47 ------------------------------------------------------------------------
@pytest.fixture()
def dateline(tmp_path):
    """A file in EPSG:32660 across 180 degrees (issue 47, item A)."""
    return write_file(tmp_path / "f.rumi", "EPSG:32660", Affine(1000, 0, 700000, 0, -1000, 5050000), (100, 100))


@pytest.mark.parametrize("where", ["c.parquet", "c/"])
def test_footprint_across_the_antimeridian(dateline, tmp_path, where):
    cat = rumi.Catalog.build([str(dateline)], str(tmp_path / where))
    assert len(cat.search(bbox=(0, 40, 10, 50))) == 0  # Europe: the file is not a band around the globe
    assert len(cat.search(bbox=(-100, 40, -90, 50))) == 0  # America
    assert len(cat.search(bbox=(179.8, 44.9, 179.9, 45.0))) == 1  # west of 180 degrees
    assert len(cat.search(bbox=(-179.9, 44.9, -179.8, 45.0))) == 1  # east of it
    assert len(cat.search(bbox=(170, 40, -170, 50))) == 1  # a box across 180 degrees (w > e)
    assert len(cat.search(bbox=(-170, 40, 170, 50))) == 0  # the box around the rest of the globe
    row = cat.row(0)
    bb = row["bbox"]
    assert bb["xmin"] > bb["xmax"] and 179 < bb["xmin"] < 180 and -180 < bb["xmax"] < -179  # STAC's form
    g = shapely.from_wkb(row["geometry"])
    assert g.geom_type == "MultiPolygon" and len(g.geoms) == 2
    lo, hi = g.bounds[0], g.bounds[2]
    assert lo == -180.0 and hi == 180.0 and all(-180 <= p.bounds[0] and p.bounds[2] <= 180 for p in g.geoms)
    # the pieces hold the file's outline: its centre, in lon/lat, is in one of them
    lon, lat = _t("EPSG:32660", "EPSG:4326").transform(750000, 5000000)
    assert g.contains(shapely.Point(lon, lat))
    # the area on the sphere equals the file's (1e4 km2, UTM's scale near 1), not a band's
    geod = pyproj.Geod(ellps="WGS84")
    area = sum(abs(geod.geometry_area_perimeter(p)[0]) for p in g.geoms)
    assert 0.99e10 < area < 1.01e10, area
    if where == "c.parquet":  # GeoParquet's metadata: MultiPolygon footprints, all longitudes
        import json

        geo = json.loads(pq.ParquetFile(tmp_path / where).schema_arrow.metadata[b"geo"])["columns"]["geometry"]
        assert "MultiPolygon" in geo["geometry_types"] and (geo["bbox"][0], geo["bbox"][2]) == (-180.0, 180.0)


@pytest.mark.parametrize("tiles_crs", ["EPSG:32621", "EPSG:4326"])
def test_box_in_a_projected_crs_is_exact(tmp_path, tiles_crs):
    """Issue 47, item B: a 3.8 km box in EPSG:32621 selects the tiles that intersect it, not
    those that meet its lon/lat envelope."""
    e0, n0 = 300_000.0, 6_650_000.0  # 60 N, 2.6 degrees west of the zone's central meridian
    tiles = []
    for i in range(10):
        for j in range(10):
            x, y = e0 + 1000.0 * j, n0 - 1000.0 * i
            if tiles_crs == "EPSG:4326":  # about the same places, as lon/lat files
                lon, lat = _t("EPSG:32621", "EPSG:4326").transform(x, y)
                t = Affine(0.018 / 8, 0, lon, 0, -0.009 / 8, lat)
            else:
                t = Affine(1000.0 / 8, 0, x, 0, -1000.0 / 8, y)
            tiles.append(write_file(tmp_path / f"t{i}_{j}.rumi", tiles_crs, t))
    cat = rumi.Catalog.build([str(p) for p in tiles], str(tmp_path / "c.parquet"))
    box = (e0 + 1_130.0, n0 - 4_230.0, e0 + 4_930.0, n0 - 430.0)  # 3.8 km, off the tiles' edges
    got = set(cat.search(bbox=box, crs="EPSG:32621").column("id"))
    grids = [(r["proj:code"], Affine(*r["proj:transform"]), tuple(r["proj:shape"])) for r in cat.table.to_pylist()]
    want = oracle(box, "EPSG:32621", grids)
    assert len(want) == len(grids)  # no tile within metres of the box's edges
    ids = cat.column("id")
    assert got == {ids[i] for i, sure in want.items() if sure}
    # the tiles that meet the box's lon/lat envelope (what the search used to select) are more
    envelope = shapely.box(*_t("EPSG:32621", "EPSG:4326").transform_bounds(*box, densify_pts=21))
    leak = {ids[i] for i, g in enumerate(grids)
            if shapely.Polygon(np.stack(_t(g[0], "EPSG:4326").transform(*np.asarray(grid_corners(*g)).T), 1)).intersects(envelope)}
    assert got and got < leak, (len(got), len(leak))


def test_polar_footprints(tmp_path):
    """Footprints around a pole, with a corner on it and an edge through it (EPSG:3031, 3413)."""
    files = {
        "around": write_file(tmp_path / "around.rumi", "EPSG:3031", Affine(10_000, 0, -40_000, 0, -10_000, 40_000)),
        "corner": write_file(tmp_path / "corner.rumi", "EPSG:3031", Affine(10_000, 0, 0, 0, -10_000, 80_000)),
        "edge": write_file(tmp_path / "edge.rumi", "EPSG:3413", Affine(10_000, 0, -40_000, 0, -10_000, 0)),
    }
    cat = rumi.Catalog.build([str(p) for p in files.values()], str(tmp_path / "c.parquet"))
    by_id = {r["id"]: r for r in cat.table.to_pylist()}
    assert (by_id["around"]["bbox"]["xmin"], by_id["around"]["bbox"]["xmax"], by_id["around"]["bbox"]["ymin"]) == (-180.0, 180.0, -90.0)
    assert by_id["corner"]["bbox"]["ymin"] == -90.0 and by_id["edge"]["bbox"]["ymax"] == 90.0

    def ids(**kw):
        return set(cat.search(**kw).column("id"))

    assert ids(bbox=(-180, -90, 180, -89.9)) == {"around", "corner"}  # the south pole's cap
    assert ids(bbox=(100, -89.8, 110, -89.7)) == {"around"}  # the corner covers longitudes 0..90 only... in 3031's terms
    assert ids(bbox=(-5000, -5000, 5000, 5000), crs="EPSG:3031") == {"around", "corner"}
    assert ids(bbox=(-5000, -5000, -1000, -1000), crs="EPSG:3031") == {"around"}
    assert ids(bbox=(-179, 89.9, 179, 90), crs="EPSG:4326") == {"edge"}
    assert ids(bbox=(-5000, 1000, 5000, 5000), crs="EPSG:3413") == set()  # the other side of the edge
    assert ids(bbox=(-5000, -5000, 5000, -1000), crs="EPSG:3413") == {"edge"}
    # a geodesic area check: the footprint around the pole is the file's 80 km x 80 km
    g = shapely.from_wkb(by_id["around"]["geometry"])
    geod = pyproj.Geod(ellps="WGS84")
    area = sum(abs(geod.geometry_area_perimeter(p)[0]) for p in shapely.get_parts(g))
    k2 = pyproj.Proj("EPSG:3031").get_factors(0, -90).areal_scale  # the projection's scale at the pole
    assert abs(area - 6.4e9 / k2) < 0.01 * area, (area, 6.4e9 / k2)


def test_old_band_footprints_are_answered_right(dateline, tmp_path):
    """A row written before footprints were cut at 180 degrees (a band around the globe, its
    bbox -180..180) is searched on its own grid: right, not the band."""
    cat = rumi.Catalog.build([str(dateline)], str(tmp_path / "c.parquet"))
    t = cat.table
    ring = Grid("EPSG:32660", Affine(1000, 0, 700000, 0, -1000, 5050000), (100, 100)).outline("EPSG:4326", densify=16)
    band = shapely.make_valid(shapely.Polygon(ring))
    t = t.set_column(t.schema.get_field_index("geometry"), "geometry", pa.array([shapely.to_wkb(band)], pa.binary()))
    x, y = ring[:, 0], ring[:, 1]
    old_bb = pa.array([{"xmin": float(x.min()), "ymin": float(y.min()), "xmax": float(x.max()), "ymax": float(y.max())}],
                      t.schema.field("bbox").type)
    t = t.set_column(t.schema.get_field_index("bbox"), "bbox", old_bb)
    assert old_bb[0]["xmax"].as_py() - old_bb[0]["xmin"].as_py() > 359  # the old band
    write_table(t, tmp_path / "old.parquet")
    old = rumi.Catalog.open(tmp_path / "old.parquet")
    assert len(old.search(bbox=(0, 40, 10, 50))) == 0
    assert len(old.search(bbox=(170, 40, -170, 50))) == 1
    write_parts(t, str(tmp_path / "oldparts"))
    assert len(rumi.Catalog.open(tmp_path / "oldparts").search(bbox=(0, 40, 10, 50))) == 0


@pytest.mark.parametrize("cut", [0.5, 0.05])
def test_truncated_part_is_a_rumi_error_naming_it(tmp_path, dateline, cut):
    folder = tmp_path / "c"
    rumi.Catalog.build([str(dateline)], str(folder) + "/")
    part = next(p for p in folder.iterdir() if p.suffix == ".parquet")
    data = part.read_bytes()
    part.write_bytes(data[: int(len(data) * cut)])
    with pytest.raises(rumi.FormatError, match=part.name):
        cat = rumi.Catalog.open(folder)
        cat.search(bbox=(170, 40, -170, 50))
    single = tmp_path / "one.parquet"
    rumi.Catalog.build([str(dateline)], str(single))
    data = single.read_bytes()
    single.write_bytes(data[: int(len(data) * cut)])
    with pytest.raises(rumi.FormatError, match="one.parquet"):
        rumi.Catalog.open(single)


def test_old_pole_footprints_are_answered_right(tmp_path):
    """A footprint around a pole as written before footprints were closed through the poles (the
    outline's ring in lon/lat, its bbox stopping short of the pole), in a single file and in a
    part written then (no summary in its name, no extent): a box in the cap between the ring and
    the pole still finds it."""
    import json

    f = write_file(tmp_path / "pole.rumi", "EPSG:3031", Affine(10_000, 0, -40_000, 0, -10_000, 40_000))
    cat = rumi.Catalog.build([str(f)], str(tmp_path / "c.parquet"))
    t = cat.table
    ring = Grid("EPSG:3031", Affine(10_000, 0, -40_000, 0, -10_000, 40_000), (8, 8)).outline("EPSG:4326", densify=16)
    x, y = ring[:, 0], ring[:, 1]
    t = t.set_column(t.schema.get_field_index("geometry"), "geometry",
                     pa.array([shapely.to_wkb(shapely.make_valid(shapely.Polygon(ring)))], pa.binary()))
    t = t.set_column(t.schema.get_field_index("bbox"), "bbox", pa.array(
        [{"xmin": float(x.min()), "ymin": float(y.min()), "xmax": float(x.max()), "ymax": float(y.max())}], t.schema.field("bbox").type))
    cap = (-180, -90, 180, float(y.min()) - 0.05)  # between the pole and the old ring
    assert cap[3] > -90
    write_table(t, tmp_path / "old.parquet")
    assert len(rumi.Catalog.open(tmp_path / "old.parquet").search(bbox=cap)) == 1
    folder = tmp_path / "parts"
    (p,) = write_parts(t, str(folder))
    legacy = folder / (Path(p).name.split(".")[0] + ".parquet")  # a name without a summary
    old = pq.read_table(p)
    md = dict(old.schema.metadata)
    md[b"rumi:catalog"] = json.dumps({"version": "0.1.0"}).encode()
    pq.write_table(old.replace_schema_metadata(md), legacy, write_statistics=True)
    os.remove(p)
    hdr = Path(p[: -len(".parquet")] + ".headers")
    if hdr.exists():
        os.rename(hdr, folder / (legacy.name[: -len(".parquet")] + ".headers"))
    parts = rumi.Catalog.open(folder)
    assert parts._parts.extents[0] is None  # as rumi wrote parts then
    assert len(parts.search(bbox=cap)) == 1
    assert len(parts.search(bbox=(-5000, -5000, 5000, 5000), crs="EPSG:3031")) == 1
    assert len(parts.search(bbox=(-180, 80, 180, 90))) == 0
    # the old rows appended to a new folder (write_parts, as rumi-catalog converts a catalogue):
    # the same answers
    write_parts(t, str(tmp_path / "again"))
    assert len(rumi.Catalog.open(tmp_path / "again").search(bbox=cap)) == 1
