"""The rumi driver for pip rasterio's GDAL: `rumi.gdal.register()`, then rasterio.open("x.rumi").

The plugins (one per GDAL line inside rasterio's wheels: 3.10 in 1.4.x, 3.12 in 1.5.x) come in
the rumi-gdal wheel (`pip install rumi-gdal`, built by scripts/build-wheels.sh); its module
rumi_gdal does the work. The system GDAL (gdalinfo, QGIS, Debian's rasterio) takes the Debian
package gdal-plugin-rumi (scripts/build-deb.sh) and needs no call.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["register"]


def register() -> Path:
    """Adds the RUMI driver to the GDAL of the rasterio this Python imports (rumi_gdal.register);
    returns the plugin's folder. ImportError naming the wheel when rumi-gdal is not installed."""
    try:
        import rumi_gdal
    except ImportError:
        raise ImportError(
            "rumi.gdal.register() needs the rumi-gdal wheel, which carries the GDAL plugins for pip "
            "rasterio: pip install rumi-gdal (a wheel scripts/build-wheels.sh builds in dist/)"
        ) from None
    folder: Path = rumi_gdal.register()
    return folder
