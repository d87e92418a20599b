"""Files written on one architecture read bit-identically on the other (scripts/test-artifacts-aarch64.sh
runs it with the x86-64 wheels natively and the aarch64 wheels under qemu-user):

  python cross_arch.py write DATA OUT   # every real raster of DATA (../shared/data) -> OUT/<name>.rumi
  python cross_arch.py read DIR         # every DIR/*.rumi read back

`write` reads each GeoTIFF with rasterio (the rasterio wheel's GDAL) and writes it with rumi.write as
test_diff_real.py does (EPSG code, transform, per-band nodata, band descriptions; without
georeferencing when rumi cannot record the CRS), then prints one JSON object: per file the SHA-256
of the source's samples (rasterio's read) and of what rumi.open reads back, or the refusal.
`read` prints per file the SHA-256 of rumi.open(...).read() and of rasterio's read through the
plugin (rumi.gdal.register()). The shell compares the digests across the two machines and the
files' bytes."""

import hashlib
import json
import pathlib
import sys
import time

import numpy as np
import rasterio

import rumi


def digest(a: np.ndarray) -> str:
    return f"{a.dtype.str}{a.shape}:" + hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest()[:32]


def write(data: pathlib.Path, out: pathlib.Path) -> dict:
    out.mkdir(parents=True, exist_ok=True)
    res = {}
    for tif in sorted(data.glob("*.tif")):
        t = time.perf_counter()
        with rasterio.open(tif) as src:
            arr = src.read()
            nd = tuple(src.nodatavals)
            nodata = None if all(v is None for v in nd) else (nd[0] if len(set(map(repr, nd))) == 1 else list(nd))
            epsg = src.crs.to_epsg(confidence_threshold=100) if src.crs else None
            georef = epsg is not None and not src.transform.is_identity
            kw = dict(bands=[d or f"band {i}" for i, d in enumerate(src.descriptions)], times=["2020-05-18"],
                      nodata=nodata, pixel_is_point=src.tags().get("AREA_OR_POINT") == "Point")
            dest = out / (tif.stem + ".rumi")
            try:
                if georef:
                    try:
                        rumi.write(dest, arr, crs=f"EPSG:{epsg}", transform=src.transform, **kw)
                    except ValueError:  # a code PROJ's database lacks: written without georeferencing
                        rumi.write(dest, arr, **kw)
                else:
                    rumi.write(dest, arr, **kw)
            except Exception as e:  # noqa: BLE001 (a refusal is recorded and must match across machines)
                res[tif.stem] = {"refused": f"{type(e).__name__}: {e}"}
                continue
        with rumi.open(dest) as ds:
            back = ds.read()[0]
        res[tif.stem] = {"source": digest(arr), "rumi": digest(back), "s": round(time.perf_counter() - t, 2)}
    return res


def read(folder: pathlib.Path) -> dict:
    rumi.gdal.register()
    res = {}
    for f in sorted(folder.glob("*.rumi")):
        with rumi.open(f) as ds:
            a = ds.read()[0]
        with rasterio.open(f) as r:
            assert r.driver == "RUMI", (f, r.driver)
            g = r.read()
        res[f.stem] = {"rumi": digest(a), "rasterio": digest(g)}
    return res


if __name__ == "__main__":
    mode, *args = sys.argv[1:]
    out = write(pathlib.Path(args[0]), pathlib.Path(args[1])) if mode == "write" else read(pathlib.Path(args[0]))
    print(json.dumps(out, sort_keys=True))
