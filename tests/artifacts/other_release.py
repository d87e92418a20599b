"""rumi_gdal.register() with a rasterio release whose bundled GDAL has another file name than the
one the plugin was linked to (each rasterio wheel names its library libgdal-<hash>.so.<soversion>).
It makes such a release out of the installed one: in a copy of this venv's site-packages, the
library is renamed (file and SONAME) and every rasterio module that needs it is pointed at the new
name; then a fresh interpreter on that copy registers the plugin (which writes a relinked copy to
XDG_CACHE_HOME) and reads a rumi file through rasterio.

  python other_release.py WORKDIR      (in a venv with rumi, rumi-gdal and a rasterio wheel)"""

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

from rumi_gdal._elf import dynamic, renamed


def main() -> None:
    work = Path(sys.argv[1])
    site = Path(sysconfig.get_paths()["purelib"])
    copy = work / "site-packages"
    shutil.copytree(site, copy, symlinks=True, ignore=shutil.ignore_patterns("__pycache__", "zz_*.pth"))
    libs = copy / "rasterio.libs"
    lib = next(libs.glob("libgdal-*.so*"))
    old = dynamic(lib.read_bytes()).soname or lib.name
    head, tail = old.split(".so.", 1)
    new = f"libgdal-{'0123abcd' * 4}"[: len(head)] + f".so.{tail}"  # another hash, same length
    assert len(new) == len(old) and new != old, (old, new)
    (libs / new).write_bytes(renamed(lib.read_bytes(), old, new, lib.name))
    lib.unlink()
    touched = 0
    for so in [*copy.joinpath("rasterio").rglob("*.so"), *libs.glob("*.so*")]:
        data = so.read_bytes()
        if data[:4] == b"\x7fELF" and old in dynamic(data, so.name).needed:
            so.write_bytes(renamed(data, old, new, so.name))
            touched += 1
    assert touched > 5, touched
    code = f"""
import sys; sys.path.insert(0, {str(copy)!r})
import numpy as np, rasterio, rumi, rumi_gdal
assert rasterio.__file__.startswith({str(copy)!r}), rasterio.__file__
a = np.arange(2 * 200 * 300, dtype=np.uint16).reshape(2, 200, 300)
rumi.write("other.rumi", a, bands=["a", "b"], times=["2021-01-01"], crs="EPSG:32633",
           geotransform=(500000.0, 10.0, 0.0, 4100000.0, 0.0, -10.0))
folder = rumi_gdal.register()
assert str(folder).startswith({str(work / 'cache')!r}), folder
with rasterio.open("other.rumi") as r:
    assert np.array_equal(r.read(), a)
maps = open("/proc/self/maps").read()
assert {new!r} in maps and {old!r} not in maps, "two GDAL libraries loaded"
print("ok: rasterio with its GDAL renamed {old} -> {new}: register() relinked the plugin to", folder)
"""
    env = dict(os.environ, XDG_CACHE_HOME=str(work / "cache"), PYTHONNOUSERSITE="1")
    r = subprocess.run([sys.executable, "-S", "-c", code], cwd=work, env=env, capture_output=True, text=True)
    print(r.stdout.strip())
    if r.returncode:
        sys.exit(f"FAIL: {r.stderr[-3000:]}")


if __name__ == "__main__":
    main()
