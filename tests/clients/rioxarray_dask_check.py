"""Run by test_rioxarray_dask.py with build/venv/bin/python (which has rioxarray and dask on top
of Debian's rasterio/GDAL): opens rumi files with rioxarray.open_rasterio(chunks=...) and
computes per-band statistics on a dask.distributed.LocalCluster of 2 single-threaded worker
processes. Prints one JSON document on stdout.

Usage: rioxarray_dask_check.py PLUGIN_DIR FILE [FILE...]

GDAL_DRIVER_PATH is put in os.environ before the cluster starts, so the worker processes (which
open the files themselves: the task graph carries only the path) load the plugin through it.
"""

import json
import os
import sys


def worker_probe():
    """Runs in each worker: where GDAL looks for plugins and whether it found RUMI there."""
    try:
        from osgeo import gdal
    except ImportError:  # a rasterio wheel's venv: its bundled GDAL, seen through rasterio
        import rasterio

        with rasterio.Env() as env:
            found = "RUMI" in env.drivers()
        return {"pid": os.getpid(), "GDAL_DRIVER_PATH": os.environ.get("GDAL_DRIVER_PATH"),
                "rumi_driver": found, "gdal": rasterio.__gdal_version__}
    gdal.AllRegister()
    drv = gdal.GetDriverByName("RUMI")
    return {"pid": os.getpid(), "GDAL_DRIVER_PATH": os.environ.get("GDAL_DRIVER_PATH"),
            "rumi_driver": drv is not None,
            "plugin_version": drv.GetMetadataItem("DMD_PLUGIN_VERSION") if drv else None}


def block_pid(block):
    """Tags a block with the pid of the process that loaded it."""
    import numpy as np

    return np.full((1,) * block.ndim, os.getpid(), dtype="int64")


def main():
    plugin_dir, files = sys.argv[1], sys.argv[2:]
    os.environ["GDAL_DRIVER_PATH"] = plugin_dir  # before any worker process exists

    import dask
    import dask.array as da
    import numpy as np
    import rioxarray
    import xarray as xr
    from dask.distributed import Client, LocalCluster, get_task_stream

    out = {"versions": {"rioxarray": rioxarray.__version__, "dask": dask.__version__}, "files": {}}
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        out["workers"] = list(client.run(worker_probe).values())
        for path in files:
            try:
                xa = rioxarray.open_rasterio(path, chunks={"band": 1, "y": 256, "x": 256}, lock=False)
            except Exception as e:  # reported to the test, which decides
                out["files"][path] = {"error": f"{type(e).__name__}: {e}"}
                continue
            subdatasets = None
            if isinstance(xa, xr.Dataset):
                # A Cube lists one subdataset per time step, and rioxarray opens each as a
                # variable (an Image of B bands): stack them back, in time order, along "band".
                subdatasets = list(xa.data_vars)
                long_names = []
                for v in subdatasets:
                    ln = xa[v].attrs.get("long_name", [])
                    long_names += [ln] if isinstance(ln, str) else list(ln)
                xa = xr.concat([xa[v] for v in subdatasets], dim="band")
                xa.attrs["long_name"] = long_names
            data = xa.data
            assert isinstance(data, da.Array), type(data)
            f64 = data.astype("float64")
            with get_task_stream(client) as ts:
                mins, maxs, sums, sqs = dask.compute(
                    f64.min(axis=(1, 2)), f64.max(axis=(1, 2)), f64.sum(axis=(1, 2)), (f64 * f64).sum(axis=(1, 2)))
            pids = da.map_blocks(block_pid, data, dtype="int64", chunks=(1,) * data.ndim).compute()
            out["files"][path] = {
                "shape": list(xa.shape),
                "dtype": str(xa.dtype),
                "chunks": [list(c) for c in data.chunks],
                "crs": xa.rio.crs.to_epsg(),
                "transform": list(xa.rio.transform())[:6],
                "long_name": list(xa.attrs.get("long_name", [])) if not isinstance(xa.attrs.get("long_name"), str)
                else [xa.attrs["long_name"]],
                "band": [int(b) for b in xa.band.values],
                "min": mins.tolist(), "max": maxs.tolist(), "sum": sums.tolist(), "sumsq": sqs.tolist(),
                "tasks": len(ts.data),
                "task_workers": sorted({t["worker"] for t in ts.data}),
                "block_pids": sorted(set(np.unique(pids).tolist())),
                "client_pid": os.getpid(),
                "subdatasets": subdatasets,
            }
            xa.close()
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
