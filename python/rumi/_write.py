"""Writing: rumi.Writer (blocks of tile rows in any order, memory bounded by a block), the pure
encoding step rumi.encode_rows with its picklable rumi.WriteSpec, and rumi.write (one array);
rumi.WriteOptions, how a file is written as one frozen value (the writers' front doors gather
their keywords into it once, and pass it inward)."""

from __future__ import annotations

import os
import dataclasses
from dataclasses import dataclass, fields
from types import TracebackType
from typing import Any, ClassVar, Sequence, Union

import numpy as np

from . import _rumi
from ._crs import CrsLike, parse_crs
from ._dataset import default_threads
from ._dtypes import encoding_of, numpy_dtype
from ._errors import FormatError, RequestError
from ._grid import affine_of
from ._nodata import Nodata, encode_masked, gdal_texts, normalize
from ._options import Options
from . import _scale
from ._times import parse_times

PathLike = Union[str, "os.PathLike[str]"]
_DEFAULT_LEVEL = 7


def check_graph(graph: Any, level: int | None = None) -> str:
    """`graph` if it names a graph (rumi convert --graph's names: the core checks them), else a
    ValueError listing the accepted ones (TypeError: not a str); a level with "fast" or "best",
    which have no numeric candidate, is a ValueError."""
    if not isinstance(graph, str):
        raise TypeError(f"graph must be a str (as rumi convert --graph), not {type(graph).__name__}")
    _rumi.graph_check(graph, _DEFAULT_LEVEL if level is None else int(level))
    if level is not None and graph in ("fast", "best"):
        raise ValueError(f"level={level!r} cannot be combined with graph={graph!r} (it has no numeric candidate)")
    return graph


@dataclass(frozen=True)
class WriteOptions(Options):
    """How a file is written, besides its samples and what they describe (bands, times, grid,
    scales): the options rumi.write, rumi.Writer, rumi.to_rumi and rumi.build share, as one
    frozen value, checked when made (each with the error its keyword gives). Pass it as
    `write_options=` (the keywords it holds then stay at their defaults), e.g.
    `rumi.to_rumi(da, dest, write_options=opts)`; `dataclasses.replace(opts, nodata=...)` for one
    file; `opts.kwargs()` as keyword arguments.

    tile: int or (height, width), 1..65535. frame_unit: 0..9 (None: by shape). level: OpenZL
    level of the numeric candidate, 1..22 (None: 7; 0: without it). graph: "auto" (default),
    "auto:<percent>", "fast", "image", ... (as rumi.write's graph). nodata: one value or one per
    band (the .aux.xml sidecar; rumi.build takes each file's from its load). threads: encoding
    threads (None: the CPU count, at most 16). options: object-storage options (as rumi.open's;
    rumi.build's storage_options). force: remove GDAL's derived sidecars of an existing file
    (see rumi.write)."""

    ARG: ClassVar[str] = "write_options"

    tile: int | tuple[int, int] = 256
    frame_unit: int | None = None
    level: int | None = None
    nodata: Any = None
    threads: int | None = None
    options: dict[str, Any] | None = None
    graph: str = "auto"
    force: bool = False

    def __post_init__(self) -> None:
        level, tile, frame_unit = self.level, self.tile, self.frame_unit
        if level is not None and (isinstance(level, bool) or int(level) != level or not 0 <= int(level) <= 22):
            raise ValueError(f"level={level!r}: an OpenZL level 1..22, or 0 for no numeric candidate (default 7)")
        check_graph(self.graph, level)
        if isinstance(tile, (int, np.integer)):
            tile = (int(tile), int(tile))
        tile_hw = tuple(int(v) for v in tile)
        if len(tile_hw) != 2 or not all(0 < v <= 65535 for v in tile_hw):
            raise ValueError(f"tile must be an int or (height, width) in 1..65535, got {tile!r}")
        if frame_unit is not None and not (isinstance(frame_unit, (int, np.integer)) and 0 <= frame_unit <= 9):
            raise ValueError(f"frame_unit must be an int 0..9, got {frame_unit!r}")

    @classmethod
    def training(cls, **changes: Any) -> WriteOptions:
        """The layout measured best for a store read by random chips (a training Cube):
        graph="fast", tiles of 128 (docs/compression.md, "What each writer writes, and why": 1.9x
        the default's all-date chips per CPU-second for about 4 % more bytes); `changes` as
        keywords, e.g. WriteOptions.training(threads=4). The default (graph="auto", tiles of 256)
        is the smaller archive."""
        return cls(**{"graph": "fast", "tile": 128, **changes})

    @property
    def tile_hw(self) -> tuple[int, int]:
        """(height, width) of a tile."""
        t = self.tile
        return (int(t), int(t)) if isinstance(t, (int, np.integer)) else (int(t[0]), int(t[1]))

    @property
    def encode_threads(self) -> int:
        """Encoding threads: threads, else the CPU count (at most 16)."""
        return int(self.threads or default_threads())

    def kwargs(self) -> dict[str, Any]:
        """The options as keyword arguments of rumi.write, rumi.Writer and rumi.to_rumi."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(frozen=True)
class WriteSpec:
    """Everything a rumi file records besides its samples: picklable, so that encode_rows can run
    in another process or on another machine. Make one with WriteSpec.make (or Writer.spec)."""

    shape: tuple[int, int, int, int]
    encoding: str
    bands: tuple[str, ...]
    time_kind: str
    seconds: tuple[int, ...]
    georef: tuple[int, str, str, tuple[float, ...]] | None
    tile: tuple[int, int]
    frame_unit: int | None
    level: int
    graph: str = "auto"

    @staticmethod
    def make(
        shape: Sequence[int],
        dtype: Any,
        *,
        bands: str | Sequence[str],
        times: Any,
        crs: CrsLike | None = None,
        transform: Any = None,
        tile: int | tuple[int, int] = 256,
        frame_unit: int | None = None,
        level: int | None = None,
        pixel_is_point: bool = False,
        geotransform: Any = None,
        graph: str = "auto",
    ) -> "WriteSpec":
        """Checks the arguments of rumi.Writer / rumi.write (see there) and returns the spec."""
        opts = WriteOptions(tile=tile, frame_unit=frame_unit, level=level, graph=graph)
        return WriteSpec.of(shape, dtype, opts, bands=bands, times=times, crs=crs, transform=transform,
                            geotransform=geotransform, pixel_is_point=pixel_is_point)

    @staticmethod
    def of(
        shape: Sequence[int],
        dtype: Any,
        opts: WriteOptions,
        *,
        bands: str | Sequence[str],
        times: Any,
        crs: CrsLike | None = None,
        transform: Any = None,
        geotransform: Any = None,
        pixel_is_point: bool = False,
    ) -> "WriteSpec":
        """The spec of a (T, B, Y, X) or (B, Y, X) array of dtype described by bands, times and
        georeferencing (checked here), written with opts (checked when made)."""
        dims = tuple(int(v) for v in shape)
        if len(dims) == 3:
            dims = (1,) + dims
        if len(dims) != 4:
            raise ValueError(f"shape must be (B, Y, X) or (T, B, Y, X), got {tuple(shape)}")
        if min(dims) <= 0:
            raise ValueError(f"shape has an empty axis: {dims}")
        enc = encoding_of(dtype)
        T, B, Y, X = dims
        names = [bands] if isinstance(bands, str) else list(bands)
        if len(names) != B or not all(isinstance(s, str) and s for s in names):
            raise ValueError(f"bands must be {B} non-empty strings (one per band), got {names!r}")
        kind, secs = parse_times(times, T)
        t = affine_of(transform, geotransform)
        if (crs is None) != (t is None):
            raise ValueError(
                "crs and transform (or geotransform) go together: give both (georeferenced) or neither (undefined)"
            )
        georef = None
        if crs is not None and t is not None:
            gt = t.to_gdal()
            code, crs_kind = parse_crs(crs) or (0, "")
            georef = (code, crs_kind, "point" if pixel_is_point else "area", tuple(float(v) for v in gt))
        return WriteSpec(
            shape=(T, B, Y, X),
            encoding=enc,
            bands=tuple(names),
            time_kind=kind,
            seconds=tuple(secs),
            georef=georef,
            tile=opts.tile_hw,
            frame_unit=None if opts.frame_unit is None else int(opts.frame_unit),
            level=_DEFAULT_LEVEL if opts.level is None else int(opts.level),
            graph=opts.graph,
        )

    @property
    def dtype(self) -> np.dtype[Any]:
        return numpy_dtype(self.encoding)

    @property
    def tile_rows(self) -> int:
        """Number of tile rows (blocks start at multiples of the tile height)."""
        return _rumi.tile_counts(self.shape[2:], self.tile)[0]

    def compression(self) -> tuple[str, int]:
        """(graph, level), as the native writer takes them."""
        return self.graph, self.level

    def native(self) -> Any:
        T, B, Y, X = self.shape
        georef = None if self.georef is None else (*self.georef[:3], list(self.georef[3]))
        return (
            (T, B, Y, X), self.encoding, list(self.bands), self.time_kind, list(self.seconds), georef,
            self.tile, self.frame_unit,
        )

    def check_block(self, block: Any, row: int, nodata: Nodata | None = None) -> np.ndarray[Any, Any]:
        """The (T, B, rows, X) C-contiguous array of a block starting at pixel row `row`, or a
        ValueError/TypeError naming what does not fit. A numpy masked array's masked samples
        become their band's `nodata` (rumi._nodata.encode_masked: an error without one)."""
        if not isinstance(block, np.ndarray):
            block = np.asarray(block)
        T, B, Y, X = self.shape
        if block.ndim == 2 and T == B == 1:
            block = block[np.newaxis, np.newaxis]
        elif block.ndim == 3 and T == 1:
            block = block[np.newaxis]
        if isinstance(block, np.ma.MaskedArray) and block.ndim == 4:
            block = encode_masked(block, nodata, 1, "a masked block")
        if block.ndim != 4 or block.shape[0] != T or block.shape[1] != B or block.shape[3] != X:
            raise ValueError(
                f"a block must be (T, B, rows, X) = ({T}, {B}, rows, {X})"
                f"{' or (B, rows, X)' if T == 1 else ''}, got shape {block.shape}"
            )
        if block.dtype != self.dtype:
            raise TypeError(f"block dtype {block.dtype} is not the file's {self.dtype} (use .astype)")
        th = self.tile[0]
        rows = block.shape[2]
        if not isinstance(row, (int, np.integer)) or row < 0 or row % th != 0 or row >= Y:
            raise ValueError(f"row={row!r}: blocks start at a tile row, a multiple of {th} below {Y}")
        if rows == 0 or row + rows > Y or (rows % th != 0 and row + rows != Y):
            raise ValueError(
                f"a block at row {row} must hold whole tile rows of {th} rows (the last may end at row {Y}): "
                f"{rows} rows given"
            )
        return np.ascontiguousarray(block)

    def check_tiles(self, block: Any, row: int, col: int) -> np.ndarray[Any, Any]:
        """The (T, B, h, cols) C-contiguous array of a block of tiles of one tile row: pixel rows
        row .. row + h (the tile row's, h its height) and columns col .. col + cols (whole tile
        columns, the last may end at the raster's last column), or a ValueError/TypeError."""
        if not isinstance(block, np.ndarray):
            block = np.asarray(block)
        T, B, Y, X = self.shape
        th, tw = self.tile
        if not isinstance(row, (int, np.integer)) or row < 0 or row % th != 0 or row >= Y:
            raise ValueError(f"row={row!r}: blocks start at a tile row, a multiple of {th} below {Y}")
        if not isinstance(col, (int, np.integer)) or col < 0 or col % tw != 0 or col >= X:
            raise ValueError(f"col={col!r}: blocks of tiles start at a tile column, a multiple of {tw} below {X}")
        h = min(th, Y - row)
        if block.ndim != 4 or block.shape[:3] != (T, B, h):
            raise ValueError(f"a block of tiles at row {row} must be (T, B, h, cols) = ({T}, {B}, {h}, cols), got shape {block.shape}")
        if block.dtype != self.dtype:
            raise TypeError(f"block dtype {block.dtype} is not the file's {self.dtype} (use .astype)")
        cols = block.shape[3]
        if cols == 0 or col + cols > X or (cols % tw != 0 and col + cols != X):
            raise ValueError(
                f"a block of tiles at column {col} must hold whole tile columns of {tw} columns (the last may end at "
                f"column {X}): {cols} columns given"
            )
        return np.ascontiguousarray(block)


def encode_rows(block: Any, spec: WriteSpec, row: int, *, threads: int | None = None) -> tuple[int, bytes, list[int]]:
    """The frames of a block (see Writer.write) of the file `spec` describes, as (tile rows,
    frame bytes, byte counts): a pure step that runs in any process (the GIL is released); give
    its result to Writer.write_encoded(row, ...) in the process that assembles the file."""
    data = spec.check_block(block, row)
    buf = data.reshape(-1).view(np.uint8)
    try:
        rows, frames, counts = _rumi.encode_rows(
            spec.native(), spec.compression(), row // spec.tile[0], buf, int(threads or default_threads())
        )
    except FormatError as e:
        raise RequestError(f"rumi.encode_rows: {e}") from None
    return rows, frames, counts


def encode_tiles(
    block: Any, spec: WriteSpec, row: int, col: int, *, threads: int | None = None
) -> tuple[int, bytes, list[int]]:
    """The frames of a block of tiles of one tile row (see WriteSpec.check_tiles: (T, B, h, cols)
    samples from pixel row `row` and column `col`), as (tile columns, frame bytes, byte counts):
    the frames encode_rows makes for those tiles, from a block whose size does not grow with the
    raster's width. Give the result to Writer.write_encoded_tiles(row, col, ...)."""
    data = spec.check_tiles(block, row, col)
    buf = data.reshape(-1).view(np.uint8)
    th, tw = spec.tile
    try:
        cols, frames, counts = _rumi.encode_tiles(
            spec.native(), spec.compression(), row // th, col // tw, buf, int(threads or default_threads())
        )
    except FormatError as e:
        raise RequestError(f"rumi.encode_tiles: {e}") from None
    return cols, frames, counts


def encode_block(block: Any, spec: WriteSpec, row: int, col: int | None = None) -> tuple[int, bytes, list[int]]:
    """A dask task's encoding of one block (one thread: the scheduler runs tasks side by side):
    whole tile rows (col None) or tiles of one tile row from column `col`."""
    if col is None:
        return encode_rows(np.asarray(block), spec, row, threads=1)
    return encode_tiles(np.asarray(block), spec, row, col, threads=1)


def _bare(e: Exception) -> str:
    """The core's message without its category prefix (the exception class says it)."""
    m = str(e)
    return m.split(": ", 1)[1] if m.startswith(("invalid request: ", "format: ")) else m


class Writer:
    """A rumi file written block by block: blocks of whole tile rows in any order, each exactly
    once; memory holds one block (blocks ahead of the next one to place wait in a spool file
    beside the destination). The file, its .header sidecar and (with nodata) its .aux.xml appear
    at close, all or nothing; an exception inside `with`, abort(), or a failed block leaves
    nothing behind.

        with rumi.Writer("cube.rumi", shape=(T, B, Y, X), dtype="uint16", bands=[...],
                         times=[...], crs="EPSG:32633", transform=affine, tile=256) as w:
            for row in range(0, Y, 1024):
                w.write(cube[:, :, row:row + 1024], row=row)

    dest: a path or s3://bucket/key (written locally, uploaded at close: a failed upload leaves
    no object and no pending multipart upload). shape: (T, B, Y, X) or (B, Y, X). dtype: the
    sample type. bands, times, crs, transform, tile, frame_unit, level, graph, pixel_is_point: as
    rumi.write. nodata: one value or one per band, for GDAL readers (the .aux.xml sidecar).
    scales, offsets, units: as rumi.write. options: object-storage options (as rumi.open). force: remove GDAL's derived sidecars of
    an existing dest (see rumi.write). write_options: instead of tile, nodata, frame_unit, level,
    threads, options, force and graph, one rumi.WriteOptions (`.write_options`: what it writes with)."""

    def __init__(
        self,
        dest: PathLike,
        *,
        shape: Sequence[int],
        dtype: Any,
        bands: str | Sequence[str],
        times: Any,
        crs: CrsLike | None = None,
        transform: Any = None,
        tile: int | tuple[int, int] = 256,
        nodata: Any = None,
        frame_unit: int | None = None,
        level: int | None = None,
        pixel_is_point: bool = False,
        threads: int | None = None,
        options: dict[str, Any] | None = None,
        geotransform: Any = None,
        force: bool = False,
        scales: Any = None,
        offsets: Any = None,
        units: Any = None,
        graph: str = "auto",
        write_options: WriteOptions | None = None,
    ) -> None:
        opts = WriteOptions.gather(
            write_options, f"rumi.Writer {os.fspath(dest)}", tile=tile, nodata=nodata, frame_unit=frame_unit,
            level=level, threads=threads, options=options, force=force, graph=graph,
        )
        spec = WriteSpec.of(shape, dtype, opts, bands=bands, times=times, crs=crs, transform=transform,
                            geotransform=geotransform, pixel_is_point=pixel_is_point)
        self._start(dest, spec, opts, (scales, offsets, units))

    @classmethod
    def of(cls, dest: PathLike, spec: WriteSpec, opts: WriteOptions, scaling: tuple[Any, Any, Any] = (None, None, None)) -> "Writer":
        """The writer of a file that spec describes, written with opts (spec's tile, frame unit,
        level and graph are the file's; opts gives its nodata, threads, storage options and
        force); scaling: (scales, offsets, units) as rumi.write takes them."""
        w = cls.__new__(cls)
        w._start(dest, spec, opts, scaling)
        return w

    def _start(self, dest: PathLike, spec: WriteSpec, opts: WriteOptions, scaling: tuple[Any, Any, Any]) -> None:
        self.spec = spec
        self.dest = os.fspath(dest)
        #: the options it writes with (rumi.WriteOptions)
        self.write_options = opts
        self.threads = opts.encode_threads
        nodata = opts.nodata
        nodata_texts = gdal_texts(nodata, self.spec.dtype, self.spec.shape[1], self.spec.shape[0])
        #: one nodata value (or None) per band: what masked samples are stored as
        self.nodata = normalize(nodata, self.spec.shape[1], f"rumi.Writer {self.dest}")
        T, B = self.spec.shape[0], self.spec.shape[1]
        #: per band scale, offset and unit (rumi._scale.Scaling; None: none), for GDAL readers
        self.scaling = _scale.normalize(*scaling, B, f"rumi.Writer {self.dest}")
        lists = _scale.pam_lists(self.scaling, T)
        has_nodata = bool(nodata_texts) and any(v is not None for v in nodata_texts or [])
        #: the .aux.xml text (None: no nodata, scale, offset or unit), for writers that assemble
        #: the file elsewhere
        self.aux = (
            _rumi.pam_render(B, nodata_texts or [None] * (T * B), *(lists or (None, None, None)))
            if has_nodata or lists else None
        )
        self.options = opts.options
        try:
            self._native = _rumi.NativeWriter(
                self.dest, self.spec.native(), self.spec.compression(), self.threads, None, self.options,
                bool(opts.force), self.aux,
            )
        except FormatError as e:
            raise RequestError(f"rumi.Writer {self.dest}: {_bare(e)}") from None
        self.blob: bytes | None = None

    def write(self, block: Any, row: int = 0) -> None:
        """Encodes and places `block`: (T, B, rows, X) samples (also (B, rows, X) when T == 1,
        (rows, X) when T == B == 1) of pixel rows row .. row + rows; row a multiple of the tile
        height, rows whole tile rows (the last block may end at the raster's last row)."""
        self._check_open()
        data = self.spec.check_block(block, row, self.nodata)
        try:
            self._native.write_rows(row // self.spec.tile[0], data.reshape(-1).view(np.uint8))
        except (FormatError, RequestError) as e:
            raise RequestError(f"rumi.Writer {self.dest}: {_bare(e)}") from None

    def write_encoded(self, row: int, encoded: tuple[int, bytes, list[int]]) -> None:
        """Places what rumi.encode_rows(block, self.spec, row) returned (made anywhere)."""
        self._check_open()
        rows, frames, counts = encoded
        th = self.spec.tile[0]
        if row % th != 0:
            raise ValueError(f"row={row!r}: blocks start at a tile row, a multiple of {th}")
        try:
            self._native.write_encoded(row // th, int(rows), bytes(frames), [int(c) for c in counts])
        except (FormatError, RequestError) as e:
            raise RequestError(f"rumi.Writer {self.dest}: {_bare(e)}") from None

    def write_encoded_tiles(self, row: int, col: int, encoded: tuple[int, bytes, list[int]]) -> None:
        """Places what rumi.encode_tiles(block, self.spec, row, col) returned (made anywhere):
        tiles of one tile row, in any order with the other blocks, each tile once."""
        self._check_open()
        cols, frames, counts = encoded
        th, tw = self.spec.tile
        if row % th != 0 or col % tw != 0:
            raise ValueError(f"(row, col) = ({row!r}, {col!r}): blocks of tiles start at a tile, multiples of {th}, {tw}")
        try:
            self._native.write_encoded_tiles(row // th, col // tw, int(cols), bytes(frames), [int(c) for c in counts])
        except (FormatError, RequestError) as e:
            raise RequestError(f"rumi.Writer {self.dest}: {_bare(e)}") from None

    @property
    def missing_rows(self) -> list[int]:
        """Pixel rows at which tile rows not written yet start."""
        return [r * self.spec.tile[0] for r in self._native.missing_rows()]

    def close(self) -> bytes:
        """Finishes the file; it appears with its sidecars. Returns the header blob."""
        if self.blob is not None:
            return self.blob
        self._check_open()
        missing = self._native.missing_rows()
        if missing:
            self._native.abort()
            th = self.spec.tile[0]
            shown = ", ".join(str(r * th) for r in missing[:8]) + (", ..." if len(missing) > 8 else "")
            raise RequestError(
                f"rumi.Writer {self.dest}: {len(missing)} of {self.spec.tile_rows} tile rows never written "
                f"(blocks at rows {shown}); nothing was written"
            )
        try:
            self.blob = bytes(self._native.close())
        except FormatError as e:
            raise RequestError(f"rumi.Writer {self.dest}: {_bare(e)}") from None
        return self.blob

    def abort(self) -> None:
        """Drops the file being written: nothing appears."""
        self._native.abort()

    def _check_open(self) -> None:
        if not self._native.is_open:
            state = "closed" if self.blob is not None else "aborted (after an error or abort())"
            raise RequestError(f"rumi.Writer {self.dest} is {state}")

    def __enter__(self) -> "Writer":
        return self

    def __exit__(
        self, et: type[BaseException] | None, ev: BaseException | None, tb: TracebackType | None
    ) -> None:
        if et is None:
            self.close()
        else:
            self.abort()

    def __repr__(self) -> str:
        T, B, Y, X = self.spec.shape
        return f"<rumi.Writer {self.dest!r} {T}x{B}x{Y}x{X} {self.spec.encoding}>"


def write(
    path: PathLike,
    data: np.ndarray[Any, Any],
    *,
    bands: str | Sequence[str],
    times: Any,
    crs: CrsLike | None = None,
    transform: Any = None,
    tile: int | tuple[int, int] = 256,
    nodata: Any = None,
    frame_unit: int | None = None,
    level: int | None = None,
    pixel_is_point: bool = False,
    threads: int | None = None,
    options: dict[str, Any] | None = None,
    geotransform: Any = None,
    force: bool = False,
    scales: Any = None,
    offsets: Any = None,
    units: Any = None,
    graph: str = "auto",
    write_options: WriteOptions | None = None,
) -> bytes:
    """Writes data ((B, Y, X) or (T, B, Y, X) numpy array) to path (or s3://bucket/key) and its
    <path>.header sidecar, atomically (nothing is left on failure). Returns the header blob.

    bands: one text per band. times: one instant per step (ISO string, datetime64, datetime) or
    (start, end) interval (also 'start/end'). crs: 'EPSG:n' or n: its type (projected or
    geographic) comes from PROJ's EPSG database (pyproj; a code it lacks is a ValueError naming
    it), or (n, 'projected'|'geographic') to record that type; or a CRS object (rasterio's
    src.crs, pyproj's CRS, WKT) that is an EPSG CRS exactly (one without a code is refused). transform: the affine.Affine of
    pixel corners (rasterio's `transform`; affine.Affine(*stac_item.properties["proj:transform"][:6])
    for STAC), or a rumi.Grid; geotransform: instead, GDAL's 6-tuple (x0, xres, row_rot, y0,
    col_rot, yres). Six bare numbers as transform= are refused: their order is never guessed.
    tile: int or (height, width). frame_unit: 0..9; by default from the shape, except that a
    multi-band image (T = 1) of 8- or 16-bit samples gets pixel-interleaved cells (2) when its
    middle tile row encodes at least 3 % smaller that way (bands that share their texture, such
    as NAIP or Sentinel-2's visible bands), as rumi convert does.
    nodata: one value or one per band, recorded for GDAL readers in <path>.aux.xml.
    scales, offsets, units: rasterio's (one value per band, or one for all; None: none): the
    stored samples are raw, a value is `raw * scale + offset` in `unit`; recorded for GDAL
    readers in <path>.aux.xml (`<Scale>`, `<Offset>`, `<UnitType>`), reported by
    Dataset.scales/offsets/units, gdalinfo and rasterio, and applied by the xarray engine with
    mask_and_scale=True. A scale or offset that is not a finite number is a ValueError.
    level: OpenZL compression level (default 7) of the numeric candidate of the default graph
    (auto: per frame, the image predictors or OpenZL's numeric graph, as `rumi convert`); 0
    leaves the numeric graph out (faster to encode and decode; larger on categorical rasters).
    graph: how frames are coded, as `rumi convert --graph` (docs/compression.md): "auto" (the
    default: per frame the smallest candidate unless a faster one is within 4 % per decode-speed
    class), "auto:<percent>" (that weight instead, 0..100: 0 the smallest, larger the faster),
    "fast" (the fastest decode: the left predictor, each byte-plane stream stored, LZ4, PivCo
    Huffman or zstd by its bytes and modelled decode time, 2-3x auto's decode speed for a few
    percent more bytes; no level), "image" (the smallest: every candidate on every
    frame), "numeric", "generic", "best". Every graph writes standard OpenZL frames; a name not
    in this list is a ValueError listing them. Only the auto graphs sample the frame unit.
    pixel_is_point: record PixelIsPoint.
    A rewrite replaces the file and its sidecars, as `rumi convert` does: the old .header and
    rumi's own .aux.xml goes (pass nodata=, scales=, offsets=, units= again to keep
    them: ds.nodatavals, ds.scales... of the rumi.Dataset read); sidecars GDAL derived from the old pixels (gdaladdo's .ovr,
    saved statistics, .msk) make it a RequestError naming them, unless force=True removes them.
    data may be a numpy masked array: its masked samples are stored as their band's nodata
    (rasterio's write does the same); a masked sample in a band without nodata is a ValueError.
    write_options: instead of tile, nodata, frame_unit, level, threads, options, force and graph,
    those options as one rumi.WriteOptions value.
    A call of rumi.Writer with one block."""
    if not isinstance(data, np.ndarray):
        raise TypeError(f"data must be a numpy array, not {type(data).__name__}")
    if data.ndim == 3:
        data = data[np.newaxis]
    if data.ndim != 4:
        raise ValueError(f"data must be (B, Y, X) or (T, B, Y, X), got {data.ndim} dimensions")
    path = os.fspath(path)
    opts = WriteOptions.gather(
        write_options, f"rumi.write {path}", tile=tile, nodata=nodata, frame_unit=frame_unit, level=level,
        threads=threads, options=options, force=force, graph=graph,
    )
    if isinstance(data, np.ma.MaskedArray):
        data = encode_masked(data, normalize(opts.nodata, data.shape[1], f"rumi.write {path}"), 1, f"rumi.write {path}")
    if os.path.isdir(path):
        raise ValueError(f"{path} is a directory")
    spec = WriteSpec.of(data.shape, data.dtype, opts, bands=bands, times=times, crs=crs, transform=transform,
                        geotransform=geotransform, pixel_is_point=pixel_is_point)
    if opts.frame_unit is None:
        # a multi-band image of 8- or 16-bit samples: pixel-interleaved cells when its middle
        # tile row says they are worth their slower decode (as rumi convert decides)
        data = np.ascontiguousarray(data)
        try:
            unit = _rumi.frame_unit_from_image(spec.native(), spec.compression(), data.reshape(-1).view(np.uint8),
                                               opts.encode_threads)
        except FormatError as e:
            raise RequestError(f"rumi.write {path}: {_bare(e)}") from None
        opts = dataclasses.replace(opts, frame_unit=unit)
        spec = dataclasses.replace(spec, frame_unit=int(unit))
    with Writer.of(path, spec, opts, (scales, offsets, units)) as w:
        w.write(data, row=0)
    assert w.blob is not None
    return w.blob
