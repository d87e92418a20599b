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
    # graph= as rumi.write's, through the dask blocks: the same file as rumi.write's
    rumi.to_rumi(x, tmp_path / "f.rumi", tile=64, block_bytes=1, graph="fast")
    rumi.write(tmp_path / "w.rumi", lazy.compute(), bands=["B1", "B2"], times=TIMES, crs="EPSG:32632",
               geotransform=(300000.0, 20.0, 0.0, 5000000.0, 0.0, -20.0), tile=64, graph="fast", frame_unit=9)
    with rumi.open(tmp_path / "f.rumi") as ds:
        assert np.array_equal(ds.read(), lazy.compute())
    assert (tmp_path / "f.rumi").read_bytes() == (tmp_path / "w.rumi").read_bytes()
    with pytest.raises(ValueError, match="is not one of"):
        rumi.to_rumi(x, tmp_path / "bad.rumi", tile=64, graph="quick")
    assert not (tmp_path / "bad.rumi").exists()


def test_dask_blocks_on_the_processes_scheduler(tmp_path):
    # the blocks are encoded in the pool's processes and placed here: the same bytes as threads
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    import dask

    a = (np.arange(2 * 2 * 300 * 260, dtype="uint32") * 7 % 4093).astype("uint16").reshape(2, 2, 300, 260)
    x = cf_array(da.from_array(a, chunks=(1, 1, 100, 100)))
    with dask.config.set(scheduler="threads"):
        rumi.to_rumi(x, tmp_path / "t.rumi", tile=64, block_bytes=1)
    # a pool the user configured is the one used
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn")) as pool, \
            dask.config.set(scheduler="processes", pool=pool):
        rumi.to_rumi(x, tmp_path / "p.rumi", tile=64, block_bytes=1)
    assert (tmp_path / "p.rumi").read_bytes() == (tmp_path / "t.rumi").read_bytes()
    with rumi.open(tmp_path / "p.rumi") as ds:
        assert np.array_equal(ds.read(), a)


def test_dask_processes_scheduler_without_a_pool_starts_one_for_the_write(tmp_path, monkeypatch):
    """Without pool= dask's processes scheduler starts (spawns) a pool of fresh interpreters per
    compute call, and to_rumi computes the blocks a batch at a time: one pool is started for the
    whole write (5 blocks in 3 batches here: 3 pools before, 98-115 s instead of 6-8 s in CI)."""
    import concurrent.futures

    import dask
    import dask.multiprocessing

    made = []

    class Counted(concurrent.futures.ProcessPoolExecutor):
        def __init__(self, *a, **k):
            made.append(k.get("mp_context"))
            super().__init__(*a, **k)

    monkeypatch.setattr(dask.multiprocessing, "ProcessPoolExecutor", Counted)
    monkeypatch.setattr(rumi._to_rumi, "ProcessPoolExecutor", Counted)
    a = (np.arange(2 * 2 * 300 * 260, dtype="uint32") * 7 % 4093).astype("uint16").reshape(2, 2, 300, 260)
    x = cf_array(da.from_array(a, chunks=(1, 1, 100, 100)))
    with dask.config.set(scheduler="threads"):
        rumi.to_rumi(x, tmp_path / "t.rumi", tile=64, block_bytes=1)
    with dask.config.set(scheduler="processes", num_workers=2):
        rumi.to_rumi(x, tmp_path / "p.rumi", tile=64, block_bytes=1)
    assert len(made) == 1 and made[0] is not None and made[0].get_start_method() == dask.multiprocessing.get_context().get_start_method()
    assert (tmp_path / "p.rumi").read_bytes() == (tmp_path / "t.rumi").read_bytes()
    assert dask.config.get("pool", None) is None  # the write's pool is not left configured


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


def test_the_arrays_crs_is_an_epsg_crs_exactly_or_refused(tmp_path):
    """The array's CRS (rioxarray's, CF's crs_wkt) is recorded as an EPSG code only when it is
    that EPSG CRS (as crs= of rumi.write): pyproj's near match at confidence 70 ("+proj=utm
    +zone=33 +ellps=GRS80", of no datum, as EPSG:25833, one of several) is refused naming what to
    do, an unnamed CRS equivalent to EPSG:32633 is that code."""
    pytest.importorskip("rioxarray")
    pyproj = pytest.importorskip("pyproj")
    a = np.zeros((1, 1, 20, 20), "uint16")
    odd = pyproj.CRS.from_proj4("+proj=utm +zone=33 +ellps=GRS80 +units=m")
    assert odd.to_epsg(min_confidence=70) == 25833
    for x in (cf_array(a, crs=None).rio.write_crs(odd.to_wkt()), cf_array(a, crs=odd.to_wkt())):
        with pytest.raises(ValueError, match=r"the array's CRS \(unknown\) has no EPSG code.*pass crs='EPSG:n'"):
            rumi.to_rumi(x, tmp_path / "odd.rumi")
    assert not (tmp_path / "odd.rumi").exists()
    rumi.to_rumi(cf_array(a, crs=None).rio.write_crs(odd.to_wkt()), tmp_path / "given.rumi", crs="EPSG:25833")
    same = pyproj.CRS.from_proj4("+proj=tmerc +lat_0=0 +lon_0=15 +k=0.9996 +x_0=500000 +y_0=0 +datum=WGS84 +units=m")
    rumi.to_rumi(cf_array(a, crs=same.to_wkt()), tmp_path / "same.rumi")
    with rumi.open(tmp_path / "same.rumi") as ds, rumi.open(tmp_path / "given.rumi") as given:
        assert (ds.epsg, given.epsg) == (32633, 25833)


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


# --- rioxarray as the oracle: what to_raster writes, to_rumi writes ---------------------------


def geotiff(path, a, nodata=None, descriptions=None, transform=None):
    """A (B, Y, X) GeoTIFF written by rasterio (EPSG:32632, 20 m pixels)."""
    rasterio = pytest.importorskip("rasterio")
    from affine import Affine

    B, Y, X = a.shape
    with rasterio.open(path, "w", driver="GTiff", width=X, height=Y, count=B, dtype=a.dtype, crs="EPSG:32632",
                       transform=transform or Affine(20.0, 0.0, 300000.0, 0.0, -20.0, 5000000.0),
                       nodata=nodata) as f:
        f.write(a)
        for i, d in enumerate(descriptions or []):
            f.set_band_description(i + 1, d)
    return str(path)


def rasterio_read(path):
    import rasterio

    with rasterio.open(path) as f:
        return f.read(), f.nodatavals, f.crs.to_epsg(), f.transform, f.descriptions


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64"])
def test_masked_array_stores_its_nodata_not_nan(tmp_path, dtype):
    """A masked array (rioxarray's masked=True, the engine's mask_and_scale) whose nodata is a
    number: the missing samples (NaN) are stored as that number, as rioxarray's to_raster writes
    them (its encoded_nodata), so that a masked read masks them again. They were once stored as
    NaN beside a recorded nodata of -99: a masked read then masked nothing."""
    rioxarray = pytest.importorskip("rioxarray")
    rng = np.random.default_rng(3)
    a = rng.normal(size=(2, 30, 40)).astype(dtype) * 10
    if a.dtype.kind == "c":
        a = (a + 1j * rng.normal(size=a.shape)).astype(dtype)
    a[:, :4, :5] = -99
    a[1, 10, 10] = np.nan  # NaN beside the nodata: a masked read cannot tell them apart, to_raster stores -99
    src = geotiff(tmp_path / "src.tif", a, nodata=-99) if dtype != "complex64" else None
    if src is None:  # rasterio writes no complex nodata reliably: the rumi engine is the masked source
        a[1, 10, 10] = -99
        src_rumi = tmp_path / "src.rumi"
        rumi.write(src_rumi, a[None], bands=["a", "b"], times=["2021-06-01"], crs="EPSG:32632",
                   geotransform=(300000.0, 20.0, 0.0, 5000000.0, 0.0, -20.0), nodata=-99)
        masked = xr.open_dataset(src_rumi, engine="rumi")["band_data"]
        expect = a[None]
    else:
        masked = rioxarray.open_rasterio(src, masked=True)
        assert np.isnan(masked.values[:, :4, :5]).all() and masked.rio.encoded_nodata == -99
        masked.rio.to_raster(tmp_path / "oracle.tif")
        expect, nodatavals, *_ = rasterio_read(tmp_path / "oracle.tif")
        assert nodatavals == (-99.0, -99.0) and (expect[:, :4, :5] == -99).all()
        expect = expect[None]
        masked = masked.expand_dims(time=TIMES[:1])
    rumi.to_rumi(masked, tmp_path / "out.rumi", tile=16)
    with rumi.open(tmp_path / "out.rumi") as ds:
        got = ds.read()
        assert ds.nodatavals == (-99.0, -99.0) and ds.dtype == np.dtype(dtype)
        assert np.array_equal(got, expect, equal_nan=True) and (got[..., :4, :5] == -99).all()
        m = ds.read(masked=True)
        assert m.mask[..., :4, :5].all() and m.mask.sum() == (got == -99).sum()
    # and the engine's masked read of it masks them again
    again = xr.open_dataset(tmp_path / "out.rumi", engine="rumi")["band_data"]
    assert np.isnan(again.values[..., :4, :5]).all() and again.encoding["_FillValue"] == -99
    # a dask-backed masked array is encoded back block by block to the same samples
    rumi.to_rumi(masked.chunk({"y": 7}), tmp_path / "lazy.rumi", tile=16, block_bytes=1)
    with rumi.open(tmp_path / "lazy.rumi") as ds:
        assert np.array_equal(ds.read(), got, equal_nan=True) and ds.nodatavals == (-99.0, -99.0)


def test_masked_array_nodata_nan_and_given_nodata(tmp_path):
    """NaN nodata of a float array stays NaN; nodata= given names the stored value of the missing
    samples (never one value recorded and another stored)."""
    rioxarray = pytest.importorskip("rioxarray")
    a = np.arange(2 * 20 * 30, dtype="float32").reshape(2, 20, 30)
    a[:, :3, :3] = np.nan
    masked = rioxarray.open_rasterio(geotiff(tmp_path / "n.tif", a, nodata=np.nan), masked=True)
    rumi.to_rumi(masked, tmp_path / "n.rumi", times="2021-06-01", tile=16)
    with rumi.open(tmp_path / "n.rumi") as ds:
        assert np.isnan(ds.nodatavals).all() and np.array_equal(ds.read()[0], a, equal_nan=True)
    b = np.arange(20 * 30, dtype="uint16").reshape(1, 20, 30) % 200 + 1
    b[:, :2, :2] = 0
    masked = rioxarray.open_rasterio(geotiff(tmp_path / "u.tif", b, nodata=0), masked=True)
    rumi.to_rumi(masked, tmp_path / "u.rumi", times="2021-06-01", tile=16, nodata=65535)
    with rumi.open(tmp_path / "u.rumi") as ds:
        got = ds.read()[0]
        assert ds.nodatavals == (65535.0,) and ds.dtype == np.uint16
        assert (got[:, :2, :2] == 65535).all() and np.array_equal(got[:, 2:], b[:, 2:])
    with pytest.raises(ValueError, match=r"nodata -1.0 .* not a uint16 value"):
        rumi.to_rumi(masked, tmp_path / "bad.rumi", times="2021-06-01", nodata=-1)


def test_band_descriptions_and_interval_times(tmp_path):
    """rioxarray's band descriptions (attrs['long_name'], the band coordinate 1..B) become the
    band texts, as to_raster writes them (they were "1", "2", ...); an interval time (the
    engine's time_end coordinate) stays an interval (it became an instant)."""
    rioxarray = pytest.importorskip("rioxarray")
    a = (np.arange(3 * 20 * 30) % 251).astype("uint8").reshape(3, 20, 30)
    src = geotiff(tmp_path / "d.tif", a, descriptions=["red", "green", "nir"])
    da = rioxarray.open_rasterio(src)
    assert da.attrs["long_name"] == ("red", "green", "nir") and list(da.band.values) == [1, 2, 3]
    rumi.to_rumi(da, tmp_path / "d.rumi", times="2021-06-01", tile=16)
    da.rio.to_raster(tmp_path / "oracle.tif")
    assert rasterio_read(tmp_path / "oracle.tif")[4] == ("red", "green", "nir")
    with rumi.open(tmp_path / "d.rumi") as ds:
        assert ds.bands == ["red", "green", "nir"] and np.array_equal(ds.read()[0], a)
    # one description: rioxarray gives a string (to_raster writes it to every band)
    one = rioxarray.open_rasterio(geotiff(tmp_path / "e.tif", a[:1], descriptions=["elevation"]))
    assert one.attrs["long_name"] == "elevation"
    rumi.to_rumi(one, tmp_path / "e.rumi", times="2021-06-01", tile=16)
    assert rumi.open(tmp_path / "e.rumi").bands == ["elevation"]
    # a band selection keeps rioxarray's whole tuple: which text is whose is unknown, so refused
    with pytest.raises(ValueError, match=r"long_name.* 3 band descriptions .* 2 bands.*bands="):
        rumi.to_rumi(da.isel(band=[0, 2]), tmp_path / "s.rumi", times="2021-06-01")
    rumi.to_rumi(da.isel(band=[0, 2]), tmp_path / "s.rumi", times="2021-06-01", bands=["red", "nir"])
    # intervals through the engine and back
    rumi.write(tmp_path / "i.rumi", a[None].repeat(2, 0), bands=["r", "g", "n"], crs="EPSG:32632",
               times=[("2021-06-01", "2021-06-30"), ("2021-07-01T00:00:00", "2021-07-31T23:59:59")],
               geotransform=(300000.0, 20.0, 0.0, 5000000.0, 0.0, -20.0), tile=16)
    eng = xr.open_dataset(tmp_path / "i.rumi", engine="rumi")["band_data"]
    rumi.to_rumi(eng, tmp_path / "i2.rumi")
    with rumi.open(tmp_path / "i.rumi") as src_ds, rumi.open(tmp_path / "i2.rumi") as ds:
        assert ds.times.shape == (2, 2) and np.array_equal(ds.times, src_ds.times)
        assert ds.bands == ["r", "g", "n"]
    rumi.to_rumi(eng.isel(time=1), tmp_path / "i3.rumi")  # the scalar time and time_end of one step
    assert np.array_equal(rumi.open(tmp_path / "i3.rumi").times, rumi.open(tmp_path / "i.rumi").times[1:])
