"""Noise: a corrupted frame gives GDAL error lines and nothing else on stderr (OpenZL is built with
-DNDEBUG: no internal log line, no assert), and each rumi error is reported once."""

import os
import re
import struct
import subprocess

from rumi_util import make_rumi, sample_array

GDAL_LINE = re.compile(r"^(ERROR \d+: |Warning \d+: )")


def test_corrupted_frame_prints_only_gdal_errors(tmp_path, plugin_dir):
    data = sample_array("uint16", 1, 1, 29, 37)
    path = make_rumi(tmp_path / "f.rumi", data, "uint16", tile=(16, 8), frame_unit=0)
    f = bytearray(path.read_bytes())
    offsets_at = struct.unpack_from("<Q", f, 24 + 20 * 6 + 12)[0]
    first = struct.unpack_from("<Q", f, offsets_at)[0]
    for k in range(first + 6, first + 40):  # inside frame 0, past its magic
        f[k] ^= 0x5A
    path.write_bytes(f)
    env = dict(os.environ, GDAL_DRIVER_PATH=plugin_dir, GDAL_PAM_ENABLED="NO", CPL_DEBUG="OFF")
    p = subprocess.run(["gdalinfo", "-checksum", str(path)], capture_output=True, text=True, timeout=60, env=env)
    assert p.returncode == 0, p.stderr  # gdalinfo reports an unreadable checksum, it does not fail
    lines = [x for x in p.stderr.splitlines() if x.strip()]
    assert lines, "the corrupted frame went unnoticed"
    assert all(GDAL_LINE.match(x) for x in lines), f"non-GDAL lines on stderr: {lines}"
    rumi = [x for x in lines if x.startswith("ERROR 1: RUMI: ")]
    assert len(rumi) == 1 and "frame 0:" in rumi[0], lines
    # GDAL 3.6 itself wraps a failed block read as "IReadBlock failed at ...: <driver message>"
    wrapped = [x for x in lines if "IReadBlock failed" in x]
    assert len(wrapped) <= 1 and all(rumi[0][len("ERROR 1: "):] in x for x in wrapped), lines
