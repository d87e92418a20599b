"""Noise: a corrupted frame gives GDAL error lines and nothing else on stderr (OpenZL is built with
-DNDEBUG: no internal log line, no assert), and each rumi error reaches the user once."""

import os
import re
import struct
import subprocess

import pytest
from osgeo import gdal

from rumi_util import make_rumi, sample_array

GDAL_LINE = re.compile(r"^(ERROR \d+: |Warning \d+: )")


def corrupted(tmp_path):
    """A one-band Image whose frame 0 has bytes flipped past its magic."""
    data = sample_array("uint16", 1, 1, 29, 37)
    path = make_rumi(tmp_path / "f.rumi", data, "uint16", tile=(16, 8), frame_unit=0)
    f = bytearray(path.read_bytes())
    offsets_at = struct.unpack_from("<Q", f, 24 + 20 * 6 + 12)[0]
    first = struct.unpack_from("<Q", f, offsets_at)[0]
    for k in range(first + 6, first + 40):
        f[k] ^= 0x5A
    path.write_bytes(f)
    return path


def test_block_errors_reach_every_api(tmp_path):
    # the driver records a block error without printing it (GDAL's block cache prints it): every
    # way of reading the block still gets the message
    ds = gdal.Open(str(corrupted(tmp_path)))
    band = ds.GetRasterBand(1)
    with pytest.raises(RuntimeError, match="RUMI: .*frame 0: "):
        band.ReadBlock(0, 0)
    with pytest.raises(RuntimeError, match="RUMI: .*frame 0: "):
        band.ReadAsArray(0, 0, 16, 8)
    with pytest.raises(RuntimeError, match="RUMI: .*frame 0: "):
        band.ReadAsArray()
    np_ok = band.ReadAsArray(16, 0, 16, 8)  # the other frames are fine
    assert np_ok.shape == (8, 16)


def test_corrupted_frame_prints_only_gdal_errors(tmp_path, plugin_dir):
    path = corrupted(tmp_path)
    env = dict(os.environ, GDAL_DRIVER_PATH=plugin_dir, GDAL_PAM_ENABLED="NO", CPL_DEBUG="OFF")
    p = subprocess.run(["gdalinfo", "-checksum", str(path)], capture_output=True, text=True, timeout=60, env=env)
    assert p.returncode == 0, p.stderr  # gdalinfo reports an unreadable checksum, it does not fail
    lines = [x for x in p.stderr.splitlines() if x.strip()]
    assert lines, "the corrupted frame went unnoticed"
    assert all(GDAL_LINE.match(x) for x in lines), f"non-GDAL lines on stderr: {lines}"
    # the driver's message appears once, inside GDAL's own report of the failed block read
    # ("<file>, band 1: IReadBlock failed at X offset 0, Y offset 0: RUMI: ... frame 0: ...")
    rumi = [x for x in lines if "RUMI: " in x]
    assert len(rumi) == 1 and "frame 0:" in rumi[0] and "IReadBlock failed" in rumi[0], lines
    assert rumi[0].count("RUMI: ") == 1, lines
