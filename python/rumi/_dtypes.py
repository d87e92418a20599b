"""Sample encodings <-> numpy dtypes, and the DLPack export of decoded samples (spec: "Sample
encodings", "DLPack representation")."""

from __future__ import annotations

from types import ModuleType
from typing import Any, Sequence

import numpy as np

from . import _rumi
from ._errors import UnsupportedError

try:  # bfloat16 / float8 as numpy dtypes
    import ml_dtypes as _ml_dtypes

    _ml: ModuleType | None = _ml_dtypes
except ImportError:  # pragma: no cover - exercised by a test that hides the module
    _ml = None

#: the core's table of the sample encodings: (name, numpy source, numpy name, bytes, DLPack)
ENCODINGS = _rumi.encodings()
#: encodings numpy always has (encoding name == numpy dtype name)
NUMPY_TYPES: tuple[str, ...] = tuple(e[0] for e in ENCODINGS if e[1] == "numpy")
#: encodings that become numpy dtypes through ml_dtypes
ML_TYPES: tuple[str, ...] = tuple(e[0] for e in ENCODINGS if e[1] == "ml_dtypes")
#: encodings torch holds: the DLPack types torch.from_dlpack takes (int, uint, float, bfloat,
#: bool, and complex of float32/float64 parts; not the float8 codes nor complex32)
TORCH_TYPES: frozenset[str] = frozenset(
    e[0] for e in ENCODINGS if e[4][0] in (0, 1, 2, 4, 6) or (e[4][0] == 5 and e[4][1] >= 64)
)

_DTYPES: dict[str, np.dtype[Any]] = {}  # encoding -> numpy dtype (read() asks on every call)


def _ml_module() -> ModuleType | None:
    return _ml


def numpy_dtype(encoding: str) -> np.dtype[Any]:
    """The numpy dtype of a rumi sample encoding; UnsupportedError when numpy has none here."""
    dt = _DTYPES.get(encoding)
    if dt is not None:
        return dt
    if encoding in NUMPY_TYPES:
        new: np.dtype[Any] = np.dtype(encoding)
        _DTYPES[encoding] = new
        return new
    if encoding in ML_TYPES:
        ml = _ml_module()
        if ml is None or not hasattr(ml, encoding):
            raise UnsupportedError(
                f"{encoding} samples need the ml_dtypes package to become a numpy array "
                "(pip install ml_dtypes); without it, read them with Dataset.read_tensor() and DLPack"
            )
        ml_dt: np.dtype[Any] = np.dtype(getattr(ml, encoding))
        return ml_dt
    if encoding == "complex32":
        raise UnsupportedError(
            "complex32 (complex with float16 parts) has no numpy dtype; read it with Dataset.read_tensor() and DLPack"
        )
    raise UnsupportedError(f"unknown sample encoding {encoding!r}")


def encoding_of(dtype: Any) -> str:
    """The rumi encoding name of a numpy dtype (TypeError when rumi cannot store it)."""
    dt = np.dtype(dtype)
    if dt.byteorder == ">" or (dt.byteorder == "=" and not np.little_endian):
        raise TypeError(f"dtype {dt} is big-endian; rumi stores little-endian samples (use .astype('<...'))")
    for enc in NUMPY_TYPES:
        if dt == np.dtype(enc):
            return enc
    ml = _ml_module()
    if ml is not None:
        for enc in ML_TYPES:
            if hasattr(ml, enc) and dt == np.dtype(getattr(ml, enc)):
                return enc
    raise TypeError(f"rumi has no sample encoding for numpy dtype {dt}")


# ---------------------------------------------------------------------------------------------
# DLPack


def _dlpack(buffer: Any, shape: Sequence[int], encoding: str, max_version: tuple[int, int] | None) -> object:
    versioned = max_version is not None and tuple(max_version)[0] >= 1
    return _rumi.dlpack_capsule(buffer, [int(s) for s in shape], encoding, versioned)


def _check_dlpack_args(stream: Any, dl_device: tuple[int, int] | None, copy: bool | None) -> None:
    if stream is not None and stream != -1:
        raise BufferError("rumi arrays live in CPU memory: stream must be None")
    if dl_device is not None and tuple(dl_device)[0] != 1:
        raise BufferError("rumi arrays live in CPU memory (kDLCPU)")
    if copy is True:
        raise BufferError("rumi exports without copying (copy=True is not supported)")


class Array(np.ndarray[Any, np.dtype[Any]]):
    """A numpy array of decoded samples whose __dlpack__ uses the rumi spec's DLPack types
    (bool, bfloat16 and every float8 included), without a copy."""

    def __dlpack__(  # type: ignore[override]
        self,
        *,
        stream: Any = None,
        max_version: tuple[int, int] | None = None,
        dl_device: tuple[int, int] | None = None,
        copy: bool | None = None,
    ) -> object:
        _check_dlpack_args(stream, dl_device, copy)
        if not self.flags.c_contiguous:
            raise BufferError("DLPack export of rumi arrays needs a C-contiguous array (use np.ascontiguousarray)")
        enc = encoding_of(self.dtype)
        return _dlpack(self.view(np.ndarray).reshape(-1).view(np.uint8), self.shape, enc, max_version)

    def __dlpack_device__(self) -> tuple[int, int]:  # type: ignore[override]
        return (1, 0)


class Tensor:
    """Decoded samples in rumi's own memory for encodings numpy may lack (bfloat16/float8
    without ml_dtypes, complex32): `shape`, `encoding`, DLPack export, `numpy()`."""

    def __init__(self, storage: np.ndarray[Any, np.dtype[np.uint8]], shape: Sequence[int], encoding: str) -> None:
        self._storage = storage
        self.shape: tuple[int, ...] = tuple(shape)
        self.encoding = encoding

    def __dlpack__(
        self,
        *,
        stream: Any = None,
        max_version: tuple[int, int] | None = None,
        dl_device: tuple[int, int] | None = None,
        copy: bool | None = None,
    ) -> object:
        _check_dlpack_args(stream, dl_device, copy)
        return _dlpack(self._storage, self.shape, self.encoding, max_version)

    def __dlpack_device__(self) -> tuple[int, int]:
        return (1, 0)

    def numpy(self) -> Array:
        return self._storage.view(numpy_dtype(self.encoding)).reshape(self.shape).view(Array)

    def __repr__(self) -> str:
        return f"rumi.Tensor(shape={self.shape}, encoding={self.encoding})"


def gdal_type(encoding: str) -> str:
    """The GDAL data type the driver gives the bands of `encoding` (the core's table: Int8 for
    int8, float16/bfloat16/float8 promoted to Float32, complex32 to CFloat32)."""
    types = dict(_rumi.gdal_types())
    if encoding not in types:
        raise ValueError(f"no rumi sample encoding {encoding!r}")
    return types[encoding]
