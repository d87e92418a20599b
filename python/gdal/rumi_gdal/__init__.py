"""The rumi GDAL driver, prebuilt for the GDAL inside pip-installed rasterio wheels.

    import rumi_gdal            # (or rumi.gdal.register(), the same call)
    rumi_gdal.register()        # before or after `import rasterio`
    rasterio.open("scene.rumi")               # rioxarray.open_rasterio too
    rasterio.open('RUMI:"cube.rumi":3')      # time step 3 of a Cube, as with gdalinfo

register() picks the plugin built for the GDAL line of the rasterio it imports (GDAL 3.10 in
rasterio 1.4 wheels, 3.12 in rasterio 1.5 wheels), loads it into that GDAL, and puts its folder on
GDAL_DRIVER_PATH so that the processes this one starts (dask workers, DataLoader workers) load it
as they register GDAL's drivers. Another GDAL line is an error naming the lines this wheel has:
a plugin is never loaded into a GDAL it was not built for. The system GDAL (gdalinfo, QGIS,
Debian's python3-rasterio) takes the Debian package gdal-plugin-rumi instead.

A rasterio wheel names its bundled library libgdal-<hash>.so.<soversion>...: a plugin is linked to
the library of one rasterio release. For another release of the same GDAL line (same soversion),
register() writes a copy of the plugin that names that library to ~/.cache/rumi/gdal-plugins/
(XDG_CACHE_HOME), so that the dynamic loader binds it to the copy rasterio loaded.
"""

from __future__ import annotations

import ctypes
import json
import os
import re
import sys
from pathlib import Path

from ._elf import ElfError, dynamic, relinked_copy, soname

__all__ = ["PluginError", "lines", "register"]

_PLUGINS = Path(__file__).resolve().parent / "plugins"
_LIB = re.compile(r"/libgdal(-[0-9a-f]+)?\.so[.0-9]*$")
_registered: Path | None = None


class PluginError(RuntimeError):
    """The plugin cannot be loaded into this process's GDAL; the message says what is needed."""


def lines() -> dict[str, dict[str, str]]:
    """The GDAL lines this wheel has a plugin for -> what it was built against
    ({"gdal": "3.10.3", "rasterio": "1.4.4", "needed": "libgdal-....so.36.3.10.3"})."""
    out = {}
    for info in sorted(_PLUGINS.glob("gdal-*/plugin.json")):
        out[info.parent.name.removeprefix("gdal-")] = json.loads(info.read_text())
    return out


def _described(have: dict[str, dict[str, str]]) -> str:
    if not have:
        return "no GDAL line (this rumi-gdal wheel carries no plugin: rebuild it with scripts/build-wheels.sh)"
    return ", ".join(f"GDAL {k} (rasterio {v['rasterio'].rsplit('.', 1)[0]}.x wheels)" for k, v in have.items())


def _loaded_gdal(rasterio_dir: Path) -> Path:
    """The libgdal file this process's rasterio loaded (from /proc/self/maps)."""
    with open("/proc/self/maps") as maps:
        libs = sorted({line.split()[-1] for line in maps if _LIB.search(line.strip())})
    own = [p for p in libs if Path(p).parent.name == "rasterio.libs" and Path(p).parent.parent == rasterio_dir.parent]
    if len(own) == 1:
        return Path(own[0])
    if len(libs) == 1:
        return Path(libs[0])
    raise PluginError(
        f"cannot tell which GDAL library rasterio uses: this process has loaded {len(libs)} ({', '.join(libs) or 'none'})"
    )


def register() -> Path:
    """Adds the RUMI driver to the GDAL of the rasterio this Python imports; returns the folder of
    the plugin it loaded (also prepended to os.environ["GDAL_DRIVER_PATH"]). Calling it again
    does nothing. Raises PluginError, naming what is needed, when no plugin fits that GDAL."""
    global _registered
    if _registered is not None:
        return _registered
    if not sys.platform.startswith("linux"):
        raise PluginError(f"rumi-gdal's plugins are for Linux (x86-64, aarch64); this is {sys.platform}")
    try:
        import rasterio
        from rasterio import _base  # noqa: F401  (loads libgdal)
    except ImportError as e:
        raise PluginError(
            f"rumi_gdal.register() adds the rumi driver to pip rasterio's GDAL, and rasterio cannot be "
            f"imported ({e}): pip install 'rasterio>=1.4'. For the system GDAL (gdalinfo, QGIS, Debian's "
            f"python3-rasterio) install the Debian package gdal-plugin-rumi instead."
        ) from None
    version = str(rasterio.__gdal_version__)
    line = ".".join(version.split(".")[:2])
    have = lines()
    if line not in have:
        system = " (the system GDAL: install the Debian package gdal-plugin-rumi)" if "rasterio.libs" not in str(
            _loaded_gdal(Path(rasterio.__file__).parent)) else ""
        raise PluginError(
            f"rasterio {rasterio.__version__} uses GDAL {version}{system}; this rumi-gdal has plugins for "
            f"{_described(have)}. Install a rasterio of one of those lines, or build the plugin for GDAL "
            f"{line} from rumi's sources: scripts/plugin-for-python.sh {sys.executable} DIR"
        )
    plugin = _PLUGINS / f"gdal-{line}" / "gdal_RUMI.so"
    lib = _loaded_gdal(Path(rasterio.__file__).parent)
    try:
        name = soname(lib)
        wanted = next(n for n in dynamic(plugin.read_bytes(), str(plugin)).needed if n.startswith("libgdal"))
    except (OSError, ElfError, StopIteration) as e:
        raise PluginError(f"cannot read {lib} or {plugin}: {e}") from None
    if name != wanted:
        # another rasterio release of the same line: the same GDAL ABI (soversion) or nothing
        sover = lambda s: s.split(".so.", 1)[1].split(".")[0] if ".so." in s else s  # noqa: E731
        if sover(name) != sover(wanted):
            raise PluginError(
                f"rasterio {rasterio.__version__}'s {name} is not the GDAL {line} ABI the plugin was built for "
                f"({wanted}); build the plugin for it: scripts/plugin-for-python.sh {sys.executable} DIR"
            )
        cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "rumi" / "gdal-plugins" / name
        target = cache / "gdal_RUMI.so"
        if not target.is_file() or target.stat().st_mtime < plugin.stat().st_mtime:
            try:
                relinked_copy(plugin, wanted, name, target)
            except (OSError, ElfError) as e:
                raise PluginError(f"cannot write the plugin for {name} to {cache}: {e}") from None
        plugin = target
    try:
        handle = ctypes.CDLL(str(plugin), mode=os.RTLD_LOCAL)
        handle.GDALRegister_RUMI()
    except OSError as e:
        raise PluginError(f"GDAL {version} could not load {plugin}: {e}") from None
    folder = str(plugin.parent)
    paths = [p for p in os.environ.get("GDAL_DRIVER_PATH", "").split(":") if p]
    if folder not in paths:
        os.environ["GDAL_DRIVER_PATH"] = ":".join([folder, *paths])
    _registered = plugin.parent
    return _registered
