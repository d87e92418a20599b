"""rumi: read and write rumi stateless rasters without GDAL.

    with rumi.open("scene.rumi") as ds:          # or http(s)://..., s3://bucket/key
        ds.shape, ds.dtype, ds.bands, ds.times, ds.crs, ds.transform   # transform: affine.Affine
        a = ds.read(t=0, b=[2, 1, 0], window=rumi.Window(0, 0, 256, 256))  # (T, B, h, w), exact type
    torch.from_dlpack(a)                         # no copy

    rumi.write("out.rumi", array, bands=["red"], times=["2020-05-18"], crs="EPSG:32633",
               geotransform=(x0, 10.0, 0.0, y0, 0.0, -10.0))

Submodules load on first use: rumi.catalog (GeoParquet catalogues; rumi.Catalog), rumi.torch
(PyTorch chips), rumi.torchgeo (TorchGeo datasets), rumi.xarray_backend (xr.open_dataset(..., engine="rumi")), rumi.to_rumi
(xarray/dask -> rumi; also da.rumi.to_rumi(dest) once rumi is imported after xarray), rumi.build
(STAC items -> cubes per grid cell and time range + their catalogue; the rumi-build script),
rumi.gdal (rumi.gdal.register(): the driver for pip rasterio's GDAL, from the rumi-gdal wheel).
"""

from __future__ import annotations

import importlib
import sys
from typing import TYPE_CHECKING, Any

from . import _rumi
from ._crs import crs_type
from ._dataset import Dataset, open
from ._grid import BoundingBox, Grid
from ._location import Location
from ._dtypes import Array, Tensor, encoding_of, numpy_dtype
from ._errors import FormatError, LimitError, RequestError, RumiError, RumiIOError, UnsupportedError
from ._window import Window
from ._write import WriteOptions, WriteSpec, Writer, encode_rows, encode_tiles, write

if TYPE_CHECKING:
    from . import catalog, gdal, torch, torchgeo, xarray_backend
    from ._build import BuildError, BuildPlan, build, plan_build, run_plan
    from ._to_rumi import to_rumi
    from .catalog import Catalog

__all__ = [
    "open",
    "write",
    "Writer",
    "WriteSpec",
    "WriteOptions",
    "encode_rows",
    "encode_tiles",
    "to_rumi",
    "Dataset",
    "Window",
    "Array",
    "Tensor",
    "RumiError",
    "FormatError",
    "LimitError",
    "UnsupportedError",
    "RumiIOError",
    "RequestError",
    "crs_type",
    "numpy_dtype",
    "encoding_of",
    "Catalog",
    "build",
    "BuildError",
    "BuildPlan",
    "plan_build",
    "run_plan",
    "CORE_VERSION",
    "__version__",
    "BoundingBox",
    "Grid",
    "Location",
]

#: the version of the rumi core library inside the native module
CORE_VERSION: str = _rumi.CORE_VERSION


def _package_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("rumi")
    except PackageNotFoundError:  # imported from a source tree that was never installed
        return CORE_VERSION


#: the installed package's version (PEP 396 / `importlib.metadata.version("rumi")`)
__version__: str = _package_version()

_SUBMODULES = ("catalog", "gdal", "torch", "torchgeo", "xarray_backend")
_BUILD = ("build", "BuildError", "BuildPlan", "plan_build", "run_plan")


def __getattr__(name: str) -> Any:
    """rumi.catalog, rumi.torch, rumi.xarray_backend and rumi.Catalog load on first use (their
    dependencies are optional and heavy)."""
    if name in _SUBMODULES:
        return importlib.import_module(f"{__name__}.{name}")
    if name == "to_rumi":
        return importlib.import_module(f"{__name__}._to_rumi").to_rumi
    if name == "Catalog":
        return importlib.import_module(f"{__name__}.catalog").Catalog
    if name in _BUILD:  # rumi.build: STAC items -> cubes + catalogue (rumi[stac]); plan_build + run_plan
        return getattr(importlib.import_module(f"{__name__}._build"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_SUBMODULES) | {"Catalog", "to_rumi"} | set(_BUILD))


if sys.modules.get("xarray") is not None:  # da.rumi.to_rumi(...) when xarray came first
    from . import _to_rumi  # noqa: F401  (registers the accessor)
