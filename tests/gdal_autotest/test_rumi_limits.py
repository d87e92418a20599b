"""Resource limits through GDAL: the RUMI_MAX_* configuration options, and absurd headers refused
before any allocation (gdalinfo in a subprocess under an address-space limit far below what the
header claims)."""

import os
import struct
import subprocess

import numpy as np
import pytest
from osgeo import gdal

from rumi_util import config_option, make_rumi, sample_array

W, H, TILE = 37, 29, (16, 8)
OPTIONS = ["RUMI_MAX_FRAME_BYTES", "RUMI_MAX_FRAMES", "RUMI_MAX_TRAILER_BYTES", "RUMI_MAX_TIME_COORDS",
           "RUMI_MAX_BANDS", "RUMI_MAX_READ_BYTES"]
AS_LIMIT = 1 << 30  # 1 GiB of address space for gdalinfo: a 4-gigapixel raster does not fit


def value_at(i):
    """File offset of the value field of IFD entry i."""
    return 24 + 20 * i + 12


@pytest.fixture
def cube(tmp_path):
    """uint16, 37 x 29, B = 3, T = 2, tiles 16 x 8, frame_unit 0 (N = 72), with its blob."""
    data = sample_array("uint16", 2, 3, H, W)
    path, header = tmp_path / "c.rumi", tmp_path / "c.blob"
    make_rumi(path, data, "uint16", tile=TILE, frame_unit=0, header=header)
    return path, header, data


def test_driver_lists_the_configuration_options():
    xml = gdal.GetDriverByName("RUMI").GetMetadataItem("DMD_RUMI_CONFIG_OPTIONS")
    for name in OPTIONS:
        assert f"name='{name}'" in xml or f'name="{name}"' in xml, name


@pytest.mark.parametrize("option,value,what", [
    ("RUMI_MAX_FRAMES", "71", "frame count N is 72, the limit is 71"),
    ("RUMI_MAX_BANDS", "2", "band count B is 3, the limit is 2"),
    ("RUMI_MAX_FRAME_BYTES", "255", "decoded frame size is 256, the limit is 255"),
    ("RUMI_MAX_TRAILER_BYTES", "51", "trailer size is 52, the limit is 51"),
    ("RUMI_MAX_TIME_COORDS", "1", "time coordinate count C is 2, the limit is 1"),
])
@pytest.mark.parametrize("stateless", [False, True])
def test_configuration_options_reach_the_reader(cube, option, value, what, stateless):
    path, header, data = cube
    oo = [f"HEADER={header}" if stateless else "HEADER=NONE"]
    with config_option(option, value):
        if stateless and option in ("RUMI_MAX_TRAILER_BYTES", "RUMI_MAX_TIME_COORDS"):
            # a stateless open reads the trailer on first use: pixels read, time metadata fails
            ds = gdal.OpenEx(str(path), open_options=oo)
            np.testing.assert_array_equal(ds.ReadAsArray().reshape(data.shape), data)
            with pytest.raises(RuntimeError) as e:
                ds.GetMetadataItem("TIME_TYPE", "RUMI")
        else:
            with pytest.raises(RuntimeError) as e:
                gdal.OpenEx(str(path), open_options=oo)
    assert what in str(e.value) and option in str(e.value)
    # one more than the file needs: it opens and reads
    with config_option(option, str(int(value) + 1)):
        ds = gdal.OpenEx(str(path), open_options=oo)
        np.testing.assert_array_equal(ds.ReadAsArray().reshape(data.shape), data)


@pytest.mark.parametrize("value", ["0", "-5", "12MB", "1e9", "", " 7", "99999999999999999999999"])
def test_bad_configuration_values_are_refused(cube, value):
    path, _, _ = cube
    with config_option("RUMI_MAX_FRAMES", value):
        if value == "":
            assert gdal.Open(str(path)) is not None  # empty means unset
            return
        with pytest.raises(RuntimeError, match="RUMI_MAX_FRAMES=.* is not a positive integer"):
            gdal.Open(str(path))


def test_open_option_overrides_the_configuration_option(cube):
    path, _, _ = cube
    with config_option("RUMI_MAX_FRAME_BYTES", "100"):
        with pytest.raises(RuntimeError, match="decoded frame size is 256, the limit is 100"):
            gdal.Open(str(path))
        assert gdal.OpenEx(str(path), open_options=["MAX_FRAME_MB=1"]) is not None


def gdalinfo(plugin_dir, *args):
    env = dict(os.environ, GDAL_DRIVER_PATH=plugin_dir, GDAL_PAM_ENABLED="NO")
    return subprocess.run(["prlimit", f"--as={AS_LIMIT}", "gdalinfo", *args], capture_output=True, text=True,
                          timeout=60, env=env)


def absurd(cube, width, length, tile):
    """The cube's file and blob patched to claim width x length pixels in tile x tile tiles."""
    path, header, _ = cube
    f = bytearray(path.read_bytes())
    struct.pack_into("<I", f, value_at(0), width)
    struct.pack_into("<I", f, value_at(1), length)
    struct.pack_into("<H", f, value_at(4), tile)
    struct.pack_into("<H", f, value_at(5), tile)
    # every frame 100 bytes: count_min 100, count_bits 0, no packed counts (a 32-byte blob)
    b = bytearray(header.read_bytes()[:32])
    struct.pack_into("<IIIHH", b, 6, width, length, 2, tile, tile)
    struct.pack_into("<IB", b, 27, 100, 0)
    out, blob = path.with_name("absurd.rumi"), path.with_name("absurd.blob")
    out.write_bytes(f)
    blob.write_bytes(b)
    return out, blob


def test_four_gigapixel_frame_is_refused_without_allocating(cube, plugin_dir):
    # 65535 x 65535 pixels in ONE tile: an 8.6 GB decoded frame, refused by the frame limit
    # before anything is allocated, in a process that could not allocate a tenth of it
    path, blob = absurd(cube, 65535, 65535, 65535)
    for oo in ["HEADER=NONE", f"HEADER={blob}"]:
        p = gdalinfo(plugin_dir, "-checksum", "-oo", oo, str(path))
        assert p.returncode == 1, p.stderr
        assert "resource limit exceeded: decoded frame size is 8589672450" in p.stderr, p.stderr
        assert "RUMI_MAX_FRAME_BYTES" in p.stderr


def test_four_gigapixel_tiled_header_reads_nothing_it_cannot_find(cube, plugin_dir):
    # 65536 x 65536 pixels in 256 x 256 tiles (N = 393216 frames): a plausible size, so the limits
    # let it through; the file is far too short for it, which the validated open finds in the IFD
    # and the stateless open at the georeferencing block, both without allocating the raster
    path, blob = absurd(cube, 65536, 65536, 256)
    p = gdalinfo(plugin_dir, "-oo", "HEADER=NONE", str(path))
    assert p.returncode == 1 and "count is 72, expected 393216" in p.stderr, p.stderr
    p = gdalinfo(plugin_dir, "-checksum", "-oo", f"HEADER={blob}", str(path))
    assert p.returncode == 1 and "blob" in p.stderr, p.stderr
    assert "truncated georeferencing block" in p.stderr or "file size is" in p.stderr, p.stderr


def test_frame_limit_bounds_the_header_blob_read(cube):
    # a blob holds at most 4 bytes a frame: with RUMI_MAX_FRAMES=1 a 104-byte blob is not read
    path, header, _ = cube
    with config_option("RUMI_MAX_FRAMES", "1"):
        with pytest.raises(RuntimeError, match="larger than the 36 bytes RUMI_MAX_FRAMES allows"):
            gdal.OpenEx(str(path), open_options=[f"HEADER={header}"])


def test_a_cube_of_65536_time_steps_opens_in_linear_time(tmp_path):
    # 65536 one-pixel time steps (a 2.6 MB file, 65536 GDAL bands and subdatasets): the open
    # took 40 s when each subdataset name was added with a search for an existing key
    import time

    t = 65536
    path = make_rumi(tmp_path / "many.rumi", np.zeros((t, 1, 1, 1), dtype="u1"), "uint8", tile=(1, 1),
                     time={"kind": "instant", "seconds": list(range(t))})
    start = time.monotonic()
    ds = gdal.Open(str(path))
    subdatasets = ds.GetMetadata_List("SUBDATASETS")  # built from the trailer, on first use
    elapsed = time.monotonic() - start
    assert ds.RasterCount == t
    assert len(subdatasets) == 2 * t
    assert ds.GetMetadata_List("SUBDATASETS")[2 * t - 2] == f'SUBDATASET_{t}_NAME=RUMI:"{path}":{t - 1}'
    assert elapsed < 10, f"opening and listing took {elapsed:.1f} s"


@pytest.mark.parametrize("value", ["abc", "-3", "12MB", "1e3", " ", "0", "5"])
def test_cache_size_is_checked_like_the_limits(cube, value):
    """RUMI_CACHE_MB is a configuration option like the RUMI_MAX_* limits: a value that is not
    a number of MiB is refused, naming the option and the value (it was once read as 0: no cache,
    without a word); 0 (no cache) and a number read the pixels."""
    path, _, data = cube
    with config_option("RUMI_CACHE_MB", value):
        if value in ("0", "5"):
            np.testing.assert_array_equal(gdal.Open(str(path)).ReadAsArray().reshape(data.shape), data)
            return
        with pytest.raises(RuntimeError, match=f"RUMI_CACHE_MB={value} is not a number of MiB"):
            gdal.Open(str(path))
