"""rumi.to_rumi: xarray (numpy and dask) -> rumi, metadata from rioxarray / odc-geo / CF, a dask
LocalCluster cube larger than a worker's memory, S3 destinations on moto (a worker killed, a
client killed), and the errors of arrays rumi cannot write."""

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import numpy as np
import pytest

import rumi
from conftest import CLI

xr = pytest.importorskip("xarray")
da = pytest.importorskip("dask.array")

TIMES = np.array(["2021-06-01", "2021-07-01"], dtype="datetime64[ns]")


def cf_array(a, x0=300000.0, y0=5000000.0, res=20.0, **attrs):
    T, B, Y, X = a.shape
    return xr.DataArray(
        a,
        dims=("time", "band", "y", "x"),
        coords={"time": TIMES[:T], "band": [f"B{i + 1}" for i in range(B)],
                "y": y0 - res / 2 - res * np.arange(Y), "x": x0 + res / 2 + res * np.arange(X)},
        attrs={k: v for k, v in {"crs": "EPSG:32632", **attrs}.items() if v is not None},
    )


def pattern(block, block_info=None):
    """A smooth, deterministic cube block (no randomness: any worker recomputes it exactly)."""
    loc = block_info[None]["array-location"]
    t, b, y, x = np.ogrid[tuple(slice(lo, hi) for lo, hi in loc)]
    return ((y * 3 + x * 5 + b * 1000 + t * 77) % 4093 + (x * y) % 7).astype("uint16")


def lazy_cube(shape, chunks, delay=0.0):
    def slow(block, block_info=None):
        if delay:
            time.sleep(delay)
        return pattern(block, block_info)

    return da.zeros(shape, dtype="uint16", chunks=chunks).map_blocks(slow, dtype="uint16")


def noisy_cube(shape, chunks, delay=0.0):
    """Samples of 12 random bits (hardly compressible: the encoded blocks fill S3 parts),
    seeded by the block's place so that any worker recomputes a block exactly."""

    def noise(block, block_info=None):
        if delay:
            time.sleep(delay)
        loc = block_info[None]["array-location"]
        rng = np.random.default_rng([lo for lo, _ in loc])
        return rng.integers(0, 4096, size=block.shape, dtype="uint16")

    return da.zeros(shape, dtype="uint16", chunks=chunks).map_blocks(noise, dtype="uint16")


def validate(path):
    if CLI.exists():
        r = subprocess.run([str(CLI), "validate", str(path)], capture_output=True, text=True)
        assert r.returncode == 0, r.stdout + r.stderr


def test_numpy_dataarray_cf(tmp_path):
    a = (np.arange(2 * 3 * 70 * 50) % 1009).astype("int16").reshape(2, 3, 70, 50)
    x = cf_array(a, _FillValue=-1)
    p = tmp_path / "cf.rumi"
    blob = rumi.to_rumi(x, p, tile=32, block_bytes=1)
    with rumi.open(p) as ds:
        assert np.array_equal(ds.read(), a)
        assert ds.bands == ["B1", "B2", "B3"] and ds.crs == "EPSG:32632"
        assert ds.geotransform == (300000.0, 20.0, 0.0, 5000000.0, 0.0, -20.0)
        assert list(ds.times) == list(TIMES.astype("datetime64[s]"))
    assert (tmp_path / "cf.rumi.header").read_bytes() == blob
    assert rumi._rumi.pam_nodata((tmp_path / "cf.rumi.aux.xml").read_text())[0] == (1, "-1")
    # the accessor, a one-variable Dataset, other dim names, (y, x) and (band, y, x)
    y = x.rename({"y": "lat", "x": "lon"}).to_dataset(name="v")
    y.rumi.to_rumi(tmp_path / "ds.rumi", tile=32)
    assert np.array_equal(rumi.open(tmp_path / "ds.rumi").read(), a)
    two = x.isel(time=0, band=0).drop_vars(["time", "band"]).rename("dem")
    rumi.to_rumi(two, tmp_path / "dem.rumi", times="2021-06-01", tile=32)
    with rumi.open(tmp_path / "dem.rumi") as ds:
        assert ds.bands == ["dem"] and np.array_equal(ds.read()[0, 0], a[0, 0])
    validate(p)


def test_dask_blocks_on_the_threaded_scheduler(tmp_path):
    shape = (2, 2, 300, 260)
    lazy = lazy_cube(shape, (1, 1, 100, 100))
    x = cf_array(lazy)
    rumi.to_rumi(x, tmp_path / "d.rumi", tile=64, block_bytes=1)  # one task per tile row
    with rumi.open(tmp_path / "d.rumi") as ds:
        assert np.array_equal(ds.read(), lazy.compute())


def test_dask_blocks_on_the_processes_scheduler(tmp_path):
    # the blocks are encoded in the pool's processes and placed here: the same bytes as threads
    import dask

    a = (np.arange(2 * 2 * 300 * 260, dtype="uint32") * 7 % 4093).astype("uint16").reshape(2, 2, 300, 260)
    x = cf_array(da.from_array(a, chunks=(1, 1, 100, 100)))
    with dask.config.set(scheduler="threads"):
        rumi.to_rumi(x, tmp_path / "t.rumi", tile=64, block_bytes=1)
    with dask.config.set(scheduler="processes", num_workers=2):
        rumi.to_rumi(x, tmp_path / "p.rumi", tile=64, block_bytes=1)
    assert (tmp_path / "p.rumi").read_bytes() == (tmp_path / "t.rumi").read_bytes()
    with rumi.open(tmp_path / "p.rumi") as ds:
        assert np.array_equal(ds.read(), a)


def test_rioxarray_and_odc_geo_metadata(tmp_path):
    rioxarray = pytest.importorskip("rioxarray")  # noqa: F841
    a = (np.arange(1 * 2 * 40 * 30) % 255).astype("uint8").reshape(1, 2, 40, 30)
    x = cf_array(a, crs=None)
    x = x.rio.write_crs("EPSG:32631").rio.write_nodata(255)
    rumi.to_rumi(x, tmp_path / "rio.rumi", tile=16)
    with rumi.open(tmp_path / "rio.rumi") as ds:
        assert ds.crs == "EPSG:32631" and ds.geotransform == (300000.0, 20.0, 0.0, 5000000.0, 0.0, -20.0)
    assert rumi._rumi.pam_nodata((tmp_path / "rio.rumi.aux.xml").read_text())[0] == (1, "255")
    # a rotated grid the caller did not ask for
    x.attrs.pop("GeoTransform", None)
    rot = x.rio.write_transform(__import__("affine").Affine(20.0, 0.5, 300000.0, 0.5, -20.0, 5000000.0))
    with pytest.raises(ValueError, match="grid is rotated"):
        rumi.to_rumi(rot, tmp_path / "rot.rumi", tile=16)
    odc_geo = pytest.importorskip("odc.geo.xr")  # noqa: F841
    from odc.geo.geobox import GeoBox
    from odc.geo.xr import xr_zeros

    gb = GeoBox.from_bbox((500000, 4000000, 500640, 4000480), "EPSG:32633", resolution=10)
    z = xr_zeros(gb, dtype="uint16") + 7
    z = z.expand_dims(band=["a"]).expand_dims(time=TIMES[:1])
    rumi.to_rumi(z, tmp_path / "odc.rumi", tile=32)
    with rumi.open(tmp_path / "odc.rumi") as ds:
        assert ds.crs == "EPSG:32633" and ds.geotransform == (500000.0, 10.0, 0.0, 4000480.0, 0.0, -10.0)
        assert ds.shape == (1, 1, 48, 64) and int(ds.read().max()) == 7
    assert not (tmp_path / "rot.rumi").exists()


def test_arrays_rumi_cannot_write(tmp_path):
    a = np.zeros((1, 1, 20, 20), "uint16")
    with pytest.raises(ValueError, match="the array has no CRS"):
        rumi.to_rumi(cf_array(a, crs=None), tmp_path / "a.rumi")
    bad = cf_array(a)
    bad = bad.assign_coords(x=np.r_[np.arange(10) * 20.0, 200 + np.arange(10) * 25.0])
    with pytest.raises(ValueError, match=r"irregular x spacing \(20 at the start, 25 at index 10\)"):
        rumi.to_rumi(bad, tmp_path / "a.rumi")
    with pytest.raises(TypeError, match="numpy dtype object"):
        rumi.to_rumi(cf_array(a.astype(object)), tmp_path / "a.rumi")
    with pytest.raises(TypeError, match="datetime64"):
        rumi.to_rumi(cf_array(a.astype("datetime64[s]")), tmp_path / "a.rumi")
    with pytest.raises(TypeError, match="big-endian"):
        rumi.to_rumi(cf_array(a.astype(">u2")), tmp_path / "a.rumi")
    with pytest.raises(ValueError, match="this Dataset has 2"):
        rumi.to_rumi(xr.Dataset({"a": cf_array(a), "b": cf_array(a)}), tmp_path / "a.rumi")
    with pytest.raises(ValueError, match=r"unrecognised: level"):
        rumi.to_rumi(cf_array(a).rename({"band": "level"}), tmp_path / "a.rumi")
    with pytest.raises(ValueError, match="no time coordinate and rumi never invents one"):
        rumi.to_rumi(cf_array(a).isel(time=0, drop=True), tmp_path / "a.rumi")
    assert os.listdir(tmp_path) == []


@pytest.fixture(scope="module")
def cluster():
    distributed = pytest.importorskip("distributed")
    # 2 worker processes of 1 thread, each allowed 320 MiB
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, memory_limit="320MiB",
                                  processes=True, dashboard_address=":0") as c, distributed.Client(c) as client:
        yield client


def test_local_cluster_cube_larger_than_a_worker(tmp_path, cluster):
    # 2 x 3 x 6144 x 6144 uint16 = 453 MB: more than either worker may hold
    shape = (2, 3, 6144, 6144)
    lazy = lazy_cube(shape, (1, 3, 512, 3072))  # rechunked into blocks of whole tile rows
    limit = min(w["memory_limit"] for w in cluster.scheduler_info()["workers"].values())
    assert lazy.nbytes > limit
    x = cf_array(lazy)
    p = tmp_path / "big.rumi"
    rumi.to_rumi(x, p, tile=256)
    with rumi.open(p) as ds:
        assert ds.shape == shape and ds.bands == ["B1", "B2", "B3"]
        for y0 in range(0, 6144, 1024):  # compared block by block, never whole, in this process
            want = lazy[:, :, y0 : y0 + 1024].compute(scheduler="sync")
            assert np.array_equal(ds.read(window=(y0, 0, 1024, 6144)), want), y0
    validate(p)


def s3_env(moto, monkeypatch):
    boto3 = pytest.importorskip("boto3")
    endpoint, _ = moto
    env = {"AWS_ENDPOINT_URL": endpoint, "AWS_ACCESS_KEY_ID": "test", "AWS_SECRET_ACCESS_KEY": "test",
           "AWS_REGION": "us-east-1", "AWS_ALLOW_HTTP": "true"}
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    s3 = boto3.client("s3", endpoint_url=endpoint)
    return s3, env


def worker_puts():
    import rumi._parts

    return rumi._parts.PUTS


def test_s3_parts_are_uploaded_by_the_workers(tmp_path, cluster, moto, monkeypatch):
    s3, _ = s3_env(moto, monkeypatch)
    s3.create_bucket(Bucket="parts")
    shape = (1, 2, 3072, 2048)  # 24 MiB of 12-bit noise, blocks of one 2 MiB tile row
    x = cf_array(noisy_cube(shape, (1, 2, 512, 1024)), nodata=4095)
    local = tmp_path / "local.rumi"
    import dask

    with dask.config.set(scheduler="threads"):
        rumi.to_rumi(x, local, tile=256, block_bytes=2 << 20)
    before = sum(cluster.run(worker_puts).values())
    blob = rumi.to_rumi(x, "s3://parts/c/cube.rumi", tile=256, block_bytes=2 << 20)
    import rumi._parts as parts

    assert parts.PUTS == 0, "the client uploaded parts itself"
    puts = sum(cluster.run(worker_puts).values()) - before
    obj = s3.get_object(Bucket="parts", Key="c/cube.rumi")
    data = obj["Body"].read()
    assert data == local.read_bytes()  # the same bytes as the local, threaded write
    n = int(obj["ETag"].strip('"').rsplit("-", 1)[1])  # a multipart object's ETag ends in -<parts>
    assert n >= 3 and puts >= n, (n, puts)
    assert blob == s3.get_object(Bucket="parts", Key="c/cube.rumi.header")["Body"].read()
    assert blob == (tmp_path / "local.rumi.header").read_bytes()
    aux = s3.get_object(Bucket="parts", Key="c/cube.rumi.aux.xml")["Body"].read()
    assert aux == (tmp_path / "local.rumi.aux.xml").read_bytes()
    assert s3.list_multipart_uploads(Bucket="parts").get("Uploads", []) == []


def test_s3_parts_a_failing_block_aborts_the_upload(tmp_path, cluster, moto, monkeypatch):
    s3, _ = s3_env(moto, monkeypatch)
    s3.create_bucket(Bucket="failing")
    good = noisy_cube((1, 2, 4096, 1024), (1, 2, 256, 1024))

    def broken(block, block_info=None):
        if block_info[None]["array-location"][2][0] == 3584:
            raise RuntimeError("sensor glitch in block 3584")
        return block

    x = cf_array(good.map_blocks(broken, dtype="uint16"))
    with pytest.raises(RuntimeError, match="sensor glitch in block 3584"):
        rumi.to_rumi(x, "s3://failing/f.rumi", tile=256, block_bytes=1 << 20)
    assert "Contents" not in s3.list_objects_v2(Bucket="failing")
    assert s3.list_multipart_uploads(Bucket="failing").get("Uploads", []) == []


def test_s3_destination_with_a_worker_killed(tmp_path, cluster, moto, monkeypatch):
    s3, _ = s3_env(moto, monkeypatch)
    s3.create_bucket(Bucket="cubes")
    shape = (1, 2, 4096, 1024)  # 16 MiB of noise: the workers upload several parts
    lazy = noisy_cube(shape, (1, 1, 256, 1024), delay=0.15)
    x = cf_array(lazy)
    pids = [w["pid"] for w in cluster.run(lambda: {"pid": os.getpid()}).values()]

    def kill_one():
        time.sleep(1.0)
        os.kill(pids[0], signal.SIGKILL)

    killer = threading.Thread(target=kill_one)
    killer.start()
    rumi.to_rumi(x, "s3://cubes/a/cube.rumi", tile=256, block_bytes=1 << 20)
    killer.join()
    alive = [w["pid"] for w in cluster.run(lambda: {"pid": os.getpid()}).values()]
    assert pids[0] not in alive, "the worker was not killed during the build"
    keys = sorted(o["Key"] for o in s3.list_objects_v2(Bucket="cubes")["Contents"])
    assert keys == ["a/cube.rumi", "a/cube.rumi.header"]
    assert "-" in s3.head_object(Bucket="cubes", Key="a/cube.rumi")["ETag"]  # parts
    with rumi.open("s3://cubes/a/cube.rumi") as ds:
        assert np.array_equal(ds.read(), lazy.compute(scheduler="sync"))
    assert s3.list_multipart_uploads(Bucket="cubes").get("Uploads", []) == []
    cluster.wait_for_workers(2, timeout=60)


def test_s3_client_on_a_cluster_killed_mid_build_leaves_nothing(tmp_path, moto, monkeypatch):
    # the workers have uploaded parts when the client dies: its guard aborts the upload
    s3, env = s3_env(moto, monkeypatch)
    s3.create_bucket(Bucket="killed2")
    script = tmp_path / "build.py"
    script.write_text(textwrap.dedent("""
        import time
        import dask.array as da, numpy as np, xarray as xr, distributed, rumi
        def noise(b, block_info=None):
            time.sleep(0.3)
            loc = block_info[None]["array-location"]
            return np.random.default_rng([lo for lo, _ in loc]).integers(0, 4096, b.shape, dtype="uint16")
        if __name__ == "__main__":
            lazy = da.zeros((1, 1, 16384, 2048), dtype="uint16", chunks=(1, 1, 256, 2048)).map_blocks(noise, dtype="uint16")
            x = xr.DataArray(lazy, dims=("time", "band", "y", "x"),
                             coords={"time": np.array(["2021-01-01"], "datetime64[ns]"), "band": ["a"],
                                     "y": 5e6 - 10 * np.arange(16384), "x": 3e5 + 10 * np.arange(2048)},
                             attrs={"crs": "EPSG:32632"})
            with distributed.Client(processes=False, n_workers=1, threads_per_worker=2, dashboard_address=":0"):
                print("started", flush=True)
                rumi.to_rumi(x, "s3://killed2/k.rumi", tile=256, block_bytes=1 << 20)
            print("finished", flush=True)
    """))
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True,
                            env=dict(os.environ, **env))
    assert proc.stdout.readline().strip() == "started"
    deadline = time.time() + 60
    while not s3.list_multipart_uploads(Bucket="killed2").get("Uploads"):
        assert proc.poll() is None and time.time() < deadline, "no multipart upload was started"
        time.sleep(0.1)
    (upload,) = s3.list_multipart_uploads(Bucket="killed2")["Uploads"]
    while not s3.list_parts(Bucket="killed2", Key="k.rumi", UploadId=upload["UploadId"]).get("Parts"):
        assert proc.poll() is None and time.time() < deadline, "no part was uploaded"
        time.sleep(0.1)
    proc.kill()
    proc.wait(10)
    deadline = time.time() + 30
    while s3.list_multipart_uploads(Bucket="killed2").get("Uploads") and time.time() < deadline:
        time.sleep(0.2)
    assert s3.list_multipart_uploads(Bucket="killed2").get("Uploads", []) == []
    assert "Contents" not in s3.list_objects_v2(Bucket="killed2")


def test_s3_client_killed_mid_build_leaves_nothing(tmp_path, moto, monkeypatch):
    s3, env = s3_env(moto, monkeypatch)
    s3.create_bucket(Bucket="killed")
    script = tmp_path / "build.py"
    script.write_text(textwrap.dedent("""
        import sys, time
        import dask.array as da, numpy as np, xarray as xr, rumi
        def slow(b):
            time.sleep(0.2)
            return b + 1
        lazy = da.zeros((1, 1, 4096, 512), dtype="uint16", chunks=(1, 1, 256, 512)).map_blocks(slow)
        x = xr.DataArray(lazy, dims=("time", "band", "y", "x"),
                         coords={"time": np.array(["2021-01-01"], "datetime64[ns]"), "band": ["a"],
                                 "y": 5e6 - 10 * np.arange(4096), "x": 3e5 + 10 * np.arange(512)},
                         attrs={"crs": "EPSG:32632"})
        print("started", flush=True)
        rumi.to_rumi(x, "s3://killed/k.rumi", tile=256)
        print("finished", flush=True)
    """))
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True,
                            env=dict(os.environ, **env))
    assert proc.stdout.readline().strip() == "started"
    time.sleep(1.5)
    proc.kill()
    proc.wait(10)
    assert "Contents" not in s3.list_objects_v2(Bucket="killed")
    assert s3.list_multipart_uploads(Bucket="killed").get("Uploads", []) == []


def test_unreachable_destination_and_refused_credentials(tmp_path, moto, monkeypatch):
    from conftest import free_port, wait_port

    a = np.ones((1, 1, 64, 64), "uint8")
    s3, env = s3_env(moto, monkeypatch)
    with pytest.raises(rumi.RumiIOError, match="no-such-bucket"):
        rumi.to_rumi(cf_array(a), "s3://no-such-bucket/x.rumi", tile=32)
    # a moto server that authenticates every request: the key "test" is not in its IAM
    port = free_port()
    exe = os.path.join(os.path.dirname(sys.executable), "moto_server")
    strict = subprocess.Popen([exe, "-H", "127.0.0.1", "-p", str(port)], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, env=dict(os.environ, INITIAL_NO_AUTH_ACTION_COUNT="0"))
    try:
        wait_port(port, strict, "moto_server")
        monkeypatch.setenv("AWS_ENDPOINT_URL", f"http://127.0.0.1:{port}")
        with pytest.raises(rumi.RumiIOError, match="(?i)access refused|403|InvalidAccessKeyId"):
            rumi.to_rumi(cf_array(a), "s3://locked/x.rumi", tile=32)
    finally:
        strict.terminate()
        strict.wait(10)
    monkeypatch.setenv("AWS_ENDPOINT_URL", "http://127.0.0.1:9")
    with pytest.raises(rumi.RumiIOError, match="127.0.0.1:9"):
        rumi.to_rumi(cf_array(a), "s3://locked/x.rumi", tile=32, options={"max_retries": 0, "timeout": 2})
    assert os.listdir(tmp_path) == []


def test_without_xarray_the_error_says_what_to_install():
    code = ("import sys; sys.modules['xarray'] = None\n"
            "import numpy as np, rumi\n"
            "try:\n    rumi.to_rumi(np.zeros((4, 4)), 'x.rumi')\n"
            "except ImportError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "rumi.to_rumi writes xarray arrays: pip install xarray" in out and "rumi.write" in out, out
