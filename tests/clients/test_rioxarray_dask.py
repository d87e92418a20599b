"""rioxarray + dask.distributed: rioxarray.open_rasterio(path, chunks=...) on converted files, the
statistics computed by a LocalCluster(n_workers=2, threads_per_worker=1) of worker processes
that load the plugin through GDAL_DRIVER_PATH, compared with the source GeoTIFFs'.

rioxarray and dask are not Debian packages here: they live in build/venv (made by
scripts/install-client-deps.sh on /usr/bin/python3 with --system-site-packages, so it uses
Debian's rasterio and GDAL). This test runs rioxarray_dask_check.py with that venv's python and
checks the JSON it prints. Under a pip rasterio wheel (RUMI_CLIENTS_PLUGIN_DIR, scripts/test-wheels.sh)
the wheel's venv has rioxarray and dask itself and runs the check.
"""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import clients_util as cu

CHECK = Path(__file__).with_name("rioxarray_dask_check.py")


@pytest.fixture(scope="module")
def dask_run(real, plugin_dir):
    # a rasterio wheel's venv (RUMI_CLIENTS_PLUGIN_DIR) runs the check itself; Debian's rasterio
    # gets rioxarray and dask from build/venv
    python = Path(sys.executable) if cu.WHEEL_PLUGIN_DIR else cu.VENV_PYTHON
    cu.need(python.exists(), f"{python} (venv with rioxarray and dask) is missing")
    probe = subprocess.run([str(python), "-c", "import rioxarray, dask.distributed, rasterio; "
                            "print(rasterio.__file__)"], capture_output=True, text=True)
    cu.need(probe.returncode == 0, f"{python} cannot import rioxarray/dask: {probe.stderr.strip()}")
    if not cu.WHEEL_PLUGIN_DIR:
        cu.need(probe.stdout.strip().startswith("/usr/lib/python3/"),
                f"the venv's rasterio is {probe.stdout.strip()}, not Debian's (a PyPI wheel needs the plugin "
                f"scripts/plugin-for-python.sh builds for it)")
    files = {"landsat": str(real("landsat").rumi), "elev": str(real("elev").rumi),
             "s1cube": str(real("s1cube").rumi), "s1cube_t1": f'RUMI:"{real("s1cube").rumi}":1'}
    p = subprocess.run([str(python), str(CHECK), plugin_dir, *files.values()],
                       capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        pytest.fail(f"{CHECK.name} exited {p.returncode}:\n{p.stderr[-4000:]}", pytrace=False)
    out = json.loads(p.stdout)
    sys.stderr.write(p.stderr[-2000:])
    return out, files


def source_stats(paths):
    a = np.concatenate([cu.read_all(p) for p in paths]).astype("float64")
    return {"min": a.min(axis=(1, 2)), "max": a.max(axis=(1, 2)), "sum": a.sum(axis=(1, 2)),
            "sumsq": (a * a).sum(axis=(1, 2)), "shape": list(a.shape)}


def test_workers_load_the_plugin(dask_run, plugin_dir):
    out, _ = dask_run
    workers = out["workers"]
    assert len(workers) == 2
    for w in workers:
        assert w["GDAL_DRIVER_PATH"] == plugin_dir, w
        assert w["rumi_driver"], f"worker {w['pid']} did not load the RUMI driver: {w}"
    assert len({w["pid"] for w in workers}) == 2


@pytest.mark.parametrize("case", ["landsat", "elev", "s1cube_t1", "s1cube"])
def test_band_statistics_equal_source(dask_run, real, case):
    out, files = dask_run
    res = out["files"][files[case]]
    if case == "s1cube":
        r = real("s1cube")
        sources = r.sources
        # rioxarray opens a Cube through its subdatasets (one variable per time step, named the
        # way rasterio lists them, without the double quotes): one per time step
        assert "error" not in res, res["error"]
        assert len(res["subdatasets"]) == len(r.times), res["subdatasets"]
    elif case == "s1cube_t1":
        sources = [real("s1cube").sources[1]]
    else:
        sources = real(case).sources
    assert "error" not in res, res["error"]
    want = source_stats(sources)
    assert res["shape"] == want["shape"]
    # dask really split the work: 256x256 chunks, loaded by both worker processes, not the client
    assert all(c <= 256 for c in res["chunks"][1] + res["chunks"][2])
    worker_pids = {w["pid"] for w in out["workers"]}
    assert set(res["block_pids"]) <= worker_pids and res["client_pid"] not in res["block_pids"]
    if np.prod([len(c) for c in res["chunks"]]) >= 4:
        assert len(res["task_workers"]) == 2, res["task_workers"]
    for k in ("min", "max"):
        np.testing.assert_array_equal(res[k], want[k], err_msg=k)
    for k in ("sum", "sumsq"):  # exact for the integer rasters, summation order for float32
        np.testing.assert_allclose(res[k], want[k], rtol=1e-12 if "int" in res["dtype"] else 1e-9, err_msg=k)
    # georeferencing and band names as rioxarray sees them
    src = sources[0]
    assert res["crs"] == cu.epsg(src)
    gt = cu.geotransform(src)
    assert res["transform"] == [gt[1], gt[2], gt[0], gt[4], gt[5], gt[3]]
    r = real(case.replace("_t1", ""))
    if case == "s1cube":
        assert res["long_name"] == r.names * len(r.times)
    else:
        assert res["long_name"] == r.names
