"""What a new user does first, run in a venv where rumi came from the built wheels
(scripts/test-artifacts.sh runs it with no compiler on PATH):

  python smoke.py WORKDIR [--expect-rasterio 1.4] [--torch]

write -> read (pixels, CRS, transform, nodata, times, band names), the xarray engine, a
catalogue and a chip batch (--torch), and rasterio + rioxarray through rumi.gdal.register()
(--expect-rasterio). Prints the first `import rumi` and the first read in milliseconds, and
one line per check; any failure raises."""

import argparse
import os
import sys
import time

t = time.perf_counter()
import rumi  # noqa: E402

import_ms = (time.perf_counter() - t) * 1e3

import numpy as np  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("work")
    ap.add_argument("--expect-rasterio", help="the rasterio series installed (1.4 or 1.5)")
    ap.add_argument("--torch", action="store_true", help="also a catalogue and a chip batch")
    args = ap.parse_args()
    os.chdir(args.work)
    print(f"rumi {rumi.__version__} from {os.path.dirname(rumi.__file__)}")
    assert "site-packages" in rumi.__file__, f"rumi imported from {rumi.__file__}, not the installed wheel"

    rng = np.random.default_rng(7)
    arr = rng.integers(1, 10000, (2, 2, 600, 700), dtype=np.uint16)
    arr[:, :, :10, :10] = 0
    tr = (500000.0, 10.0, 0.0, 4100000.0, 0.0, -10.0)
    rumi.write("cube.rumi", arr, bands=["red", "nir"], times=["2020-05-18", "2020-06-02"], crs="EPSG:32633",
               geotransform=tr, nodata=0, tile=256)
    t = time.perf_counter()
    with rumi.open("cube.rumi") as ds:
        a = ds.read(t=1, b=["nir"], window=rumi.Window(col_off=300, row_off=200, width=256, height=300))
        read_ms = (time.perf_counter() - t) * 1e3
        assert np.array_equal(a[0, 0], arr[1, 1, 200:500, 300:556]), "pixels differ"
        assert ds.crs == "EPSG:32633" and tuple(ds.transform)[:6] == (10.0, 0.0, 500000.0, 0.0, -10.0, 4100000.0), (
            ds.crs, ds.transform)
        assert ds.nodata == 0 and list(ds.bands) == ["red", "nir"], (ds.nodata, ds.bands)
        assert [str(x)[:10] for x in ds.times] == ["2020-05-18", "2020-06-02"], ds.times
    print(f"ok: write + read (pixels, crs, transform, nodata, bands, times); first import {import_ms:.0f} ms, "
          f"first read {read_ms:.1f} ms")

    import xarray as xr

    da = xr.open_dataset("cube.rumi", engine="rumi", chunks={}, mask_and_scale=False)["band_data"]
    assert da.dims == ("time", "band", "y", "x") and da.shape == arr.shape, (da.dims, da.shape)
    assert np.array_equal(da.isel(time=0).sel(band="red").values, arr[0, 0]), "xarray pixels differ"
    rumi.to_rumi(da, "copy.rumi")
    with rumi.open("copy.rumi") as c:
        assert np.array_equal(c.read(), arr) and c.nodata == 0, "to_rumi round trip differs"
    print("ok: xarray engine (lazy dask) and to_rumi round trip")

    if args.torch:
        import torch

        from rumi.torch import ChipDataset, RandomChipSampler

        for k in range(2):
            rumi.write(f"scene{k}.rumi", arr[k : k + 1], bands=["red", "nir"], times=[f"2020-0{k + 3}-01"],
                       crs="EPSG:32633", geotransform=(tr[0] + 7000 * k, *tr[1:]), tile=256)
        rumi.Catalog.build(["scene0.rumi", "scene1.rumi"], "catalog.parquet")
        cat = rumi.Catalog.open("catalog.parquet")
        assert len(cat) == 2, len(cat)
        ds = ChipDataset(cat, size=256, bands=["nir"], dtype=torch.float32)
        loader = ds.loader(RandomChipSampler(ds, length=8, seed=0), batch_size=4)
        batch = next(iter(loader))
        img = batch["image"]
        assert tuple(img.shape) == (4, 1, 1, 256, 256) and img.dtype == torch.float32, (img.shape, img.dtype)
        assert float(img.min()) >= 1.0 and float(img.max()) < 10000.0, (float(img.min()), float(img.max()))
        print(f"ok: catalogue of 2 files, a chip batch {tuple(img.shape)} (torch {torch.__version__})")

    if args.expect_rasterio:
        import rasterio

        assert rasterio.__version__.startswith(args.expect_rasterio + "."), rasterio.__version__
        folder = rumi.gdal.register()
        with rasterio.open("cube.rumi") as r:
            # a Cube is T*B bands, time-major (docs/gdal.md): band t*B + b + 1
            assert (r.count, r.width, r.height) == (4, 700, 600), (r.count, r.width, r.height)
            assert r.crs.to_epsg() == 32633 and r.nodata == 0, (r.crs, r.nodata)
            assert np.array_equal(r.read(4), arr[1, 1]), "rasterio pixels differ"
        with rasterio.open('RUMI:"cube.rumi":0') as r:
            assert np.array_equal(r.read(1), arr[0, 0]), "rasterio time step 0 differs"
        # a child process (a dask or DataLoader worker started afterwards) finds the plugin through
        # GDAL_DRIVER_PATH, without calling register() itself
        import subprocess

        child = subprocess.run([sys.executable, "-c", "import rasterio, numpy as np; "
                                "print(int(rasterio.open('cube.rumi').read(4).sum()))"],
                               capture_output=True, text=True)
        assert child.returncode == 0 and int(child.stdout) == int(arr[1, 1].sum(dtype=np.int64)), child.stderr[-2000:]
        import rioxarray

        x = rioxarray.open_rasterio('RUMI:"cube.rumi":0', chunks={"band": 1, "y": 300, "x": 350})
        assert np.array_equal(x.sel(band=2).values, arr[0, 1]), "rioxarray pixels differ"
        print(f"ok: rasterio {rasterio.__version__} (GDAL {rasterio.__gdal_version__}) and rioxarray read through "
              f"rumi.gdal.register() -> {folder}")
    print(f"SMOKE OK python {sys.version.split()[0]} import_ms={import_ms:.0f} first_read_ms={read_ms:.1f}")


if __name__ == "__main__":
    main()
