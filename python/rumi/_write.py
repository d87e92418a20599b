"""rumi.write: a numpy array -> a rumi file and its header sidecar, atomically."""

from __future__ import annotations

import os
from typing import Any, Sequence, Union

import numpy as np

from . import _rumi
from ._crs import CrsLike, as_gdal, parse_crs
from ._dataset import default_threads
from ._dtypes import encoding_of
from ._errors import FormatError, RequestError
from ._times import parse_times

PathLike = Union[str, "os.PathLike[str]"]


def write(
    path: PathLike,
    data: np.ndarray[Any, Any],
    *,
    bands: str | Sequence[str],
    times: Any,
    crs: CrsLike | None = None,
    transform: Any = None,
    tile: int | tuple[int, int] = 256,
    frame_unit: int | None = None,
    level: int | None = None,
    pixel_is_point: bool = False,
    threads: int | None = None,
) -> bytes:
    """Writes data ((B, Y, X) or (T, B, Y, X) numpy array) to path and its <path>.header sidecar,
    atomically (nothing is left on disk on failure). Returns the header blob.

    bands: one text per band. times: one instant per step (ISO string, datetime64, datetime) or
    (start, end) interval (also 'start/end'). crs: 'EPSG:n' or n: its type (projected or
    geographic) comes from PROJ's EPSG database (pyproj; a code it lacks is a ValueError naming
    it), or (n, 'projected'|'geographic') to record that type. transform: GDAL 6-tuple (x0,
    xres, row_rot, y0, col_rot, yres) of pixel corners, or an affine.Affine.
    tile: int or (height, width). frame_unit: 0..9 (default by shape).
    level: OpenZL compression level (default 7) of the numeric candidate of the default graph
    (auto: per frame, the image predictors or OpenZL's numeric graph, as `rumi convert`).
    pixel_is_point: record PixelIsPoint."""
    path = os.fspath(path)
    if not isinstance(data, np.ndarray):
        raise TypeError(f"data must be a numpy array, not {type(data).__name__}")
    if data.ndim == 3:
        data = data[np.newaxis]
    if data.ndim != 4:
        raise ValueError(f"data must be (B, Y, X) or (T, B, Y, X), got {data.ndim} dimensions")
    enc = encoding_of(data.dtype)
    T, B, Y, X = data.shape
    if min(data.shape) == 0:
        raise ValueError(f"data has an empty axis: shape {data.shape}")
    names = [bands] if isinstance(bands, str) else list(bands)
    if len(names) != B or not all(isinstance(s, str) and s for s in names):
        raise ValueError(f"bands must be {B} non-empty strings (one per band), got {names!r}")
    kind, secs = parse_times(times, T)
    if (crs is None) != (transform is None):
        raise ValueError("crs and transform go together: give both (georeferenced) or neither (undefined)")
    georef = None
    if crs is not None:
        gt = as_gdal(transform)
        code, crs_kind = parse_crs(crs) or (0, "")
        georef = (code, crs_kind, "point" if pixel_is_point else "area", list(gt))
    if isinstance(tile, (int, np.integer)):
        tile = (int(tile), int(tile))
    tile_hw = tuple(int(v) for v in tile)
    if len(tile_hw) != 2 or not all(0 < v <= 65535 for v in tile_hw):
        raise ValueError(f"tile must be an int or (height, width) in 1..65535, got {tile!r}")
    if frame_unit is not None and not (isinstance(frame_unit, (int, np.integer)) and 0 <= frame_unit <= 9):
        raise ValueError(f"frame_unit must be an int 0..9, got {frame_unit!r}")
    lvl = 7 if level is None else int(level)
    buf = np.ascontiguousarray(data).reshape(-1).view(np.uint8)
    if os.path.isdir(path):
        raise ValueError(f"{path} is a directory")
    try:
        return _rumi.write(
            path, buf, (T, B, Y, X), enc, names, kind, secs, georef, (tile_hw[0], tile_hw[1]),
            None if frame_unit is None else int(frame_unit), lvl, int(threads or default_threads()),
        )
    except FormatError as e:
        raise RequestError(f"rumi.write {path}: {e}") from None
