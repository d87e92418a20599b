"""The Rasteret anchor of bench/chip_bench.py, run in a python that has `rasteret` (PyPI; it
needs Python >= 3.12 and no torch, so it runs in its own venv, see bench/README.md):

    PY -m rasteret_chips build SPEC.json   # the collection: COG headers parsed into Parquet
    PY -m rasteret_chips read SPEC.json    # the chips, timed; prints one JSON line

SPEC.json: {"workspace": dir, "hrefs": [one per file], "check": [local tif per file],
"transforms": [GDAL 6-tuple per file], "epsg": n, "keys": [[file, row, col], ...], "size": 256,
"workers": 0 | n}. `build` runs rasteret.build_from_table(enrich_cog=True) over the hrefs (local
paths or http:// URLs: Rasteret reads through obstore) and checks the first chips' pixels
against rasterio windows of the local files. `read` loads the collection and reads every chip
with Collection.read_window (its tiled COG reader over the cached headers), one chip per call
as a map-style dataset does; workers > 0 splits the chips over that many processes (Rasteret
has no DataLoader of its own here: torch is not in its venv). Output: samples/s.
"""

import json
import multiprocessing as mp
import sys
import time

import numpy as np


def _bounds(spec, key):
    j, r, c = key
    x0, xres, _, y0, _, yres = spec["transforms"][j]
    n = spec["size"]
    return (x0 + c * xres, y0 + (r + n) * yres, x0 + (c + n) * xres, y0 + r * yres), (xres, -yres)


def build(spec):
    import pyarrow as pa
    import pyproj
    import rasteret
    import shapely

    tr = pyproj.Transformer.from_crs(spec["epsg"], 4326, always_xy=True)
    rows = []
    for j, (href, gt) in enumerate(zip(spec["hrefs"], spec["transforms"])):
        x0, xres, _, y0, _, yres = gt
        w, s, e, n = tr.transform_bounds(x0, y0 + 512 * yres, x0 + 512 * xres, y0)
        rows.append({"id": f"f{j:04d}", "datetime": np.datetime64("2020-05-18", "us").astype(object),
                     "geometry": shapely.to_wkb(shapely.box(w, s, e, n)), "href": href})
    t = time.perf_counter()
    rasteret.build_from_table(pa.Table.from_pylist(rows), href_column="href", band_index_map={"b1": 0, "b2": 1, "b3": 2},
                              enrich_cog=True, workspace_dir=spec["workspace"], name="chips", force=True)
    built = time.perf_counter() - t
    col = rasteret.load(spec["workspace"])
    import rasterio
    from rasterio.windows import Window

    for key in spec["keys"][:8]:
        j, r, c = key
        bounds, res = _bounds(spec, key)
        got = col.read_window(record_ids=[f"f{j:04d}"], bounds=bounds, res=res, bands=["b1", "b2", "b3"])
        with rasterio.open(spec["check"][j]) as d:
            want = d.read(window=Window(c, r, spec["size"], spec["size"]))
        if not np.array_equal(got, want):
            raise SystemExit(f"rasteret: chip {key} differs from rasterio's window")
    print(json.dumps({"build_s": built}))


def _read(spec, keys):
    import rasteret

    col = rasteret.load(spec["workspace"])
    for key in keys:
        bounds, res = _bounds(spec, key)
        col.read_window(record_ids=[f"f{key[0]:04d}"], bounds=bounds, res=res, bands=["b1", "b2", "b3"])
    return len(keys)


def _worker(args):
    spec, keys = args
    return _read(spec, keys)


def read(spec):
    keys = [tuple(k) for k in spec["keys"]]
    n = spec["workers"]
    t = time.perf_counter()
    if n <= 0:
        done = _read(spec, keys)
    else:
        import rasteret  # noqa: F401  (imported once; the forked workers share it, as DataLoader's do)

        with mp.get_context("fork").Pool(n) as pool:
            done = sum(pool.map(_worker, [(spec, keys[i::n]) for i in range(n)]))
    print(json.dumps({"samples_per_s": done / (time.perf_counter() - t)}))


def allow_plain_http():
    """Rasteret's HTTP store refuses http:// (obstore's allow_http is off): the loopback server
    of the benchmark is plain HTTP, so the client options Rasteret passes get allow_http."""
    from rasteret.fetch import cog

    cog._OBSTORE_CLIENT_OPTIONS["allow_http"] = "true"


if __name__ == "__main__":
    cmd, path = sys.argv[1], sys.argv[2]
    with open(path) as f:
        spec = json.load(f)
    if any(h.startswith("http://") for h in spec["hrefs"]):
        allow_plain_http()
    {"build": build, "read": read}[cmd](spec)
