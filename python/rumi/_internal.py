"""The package's one internal API: the private names of rumi's own modules that its lazily loaded
submodules (`rumi.catalog`, `rumi._build`, `rumi.torch`, `rumi.torchgeo`) use. A submodule
imports public names (`rumi.__all__`, from wherever they live, and the public submodules' names)
or names of this module, never another module's private name; tests/test_habits.py holds the
rule.

Each name keeps its one home; this module only lists them, so that what the submodules lean on
is visible in one place and a change to one of them is known to reach past its module.
`_to_rumi`'s names load on first use (it imports xarray when installed)."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from . import _rumi
from ._crs import epsg_code, exact_epsg
from ._dataset import read_batch
from ._dtypes import TORCH_TYPES, gdal_type
from ._fork import renew_after_fork
from ._grid import transformer
from ._nodata import Nodata, fits, gdal_texts, pam_nodata, valid_mask
from ._nodata import normalize as normalize_nodata
from ._options import Options
from ._pam import AUX_SUFFIX
from ._scale import Scaling
from ._scale import apply as apply_scaling
from ._times import caller_level, rounded_micros, rounded_seconds, seconds, time_span
from ._window import covering, from_bounds, window_bounds

#: the core's tile count per axis of a raster: tile_counts((Y, X), (th, tw)) -> (down, across)
tile_counts = _rumi.tile_counts
from ._write import WriteOptions, check_graph

if TYPE_CHECKING:
    from ._to_rumi import BLOCK_BYTES, block_cols

__all__ = [
    "_rumi",  # the native module: CORE_VERSION, clean_stale, spare_buffer, tile_counts
    "epsg_code",
    "exact_epsg",  # the one rule of "this CRS is EPSG:n" (TorchGeo's query CRS)
    "read_batch",
    "TORCH_TYPES",
    "gdal_type",
    "renew_after_fork",  # locks a forked child gets afresh (rumi.torch's readers, the catalogue's files)
    "transformer",
    "Nodata",
    "fits",
    "gdal_texts",
    "normalize_nodata",
    "Options",  # the base of the option values (rumi.torch.ReadOptions)
    "pam_nodata",
    "valid_mask",
    "AUX_SUFFIX",
    "Scaling",
    "apply_scaling",
    "caller_level",
    "rounded_micros",
    "rounded_seconds",
    "seconds",
    "time_span",
    "covering",
    "from_bounds",
    "window_bounds",
    "tile_counts",
    "WriteOptions",
    "check_graph",
    "BLOCK_BYTES",
    "block_cols",
]

#: names loaded from their module on first use
_LAZY = {"BLOCK_BYTES": "._to_rumi", "block_cols": "._to_rumi"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name], __package__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
