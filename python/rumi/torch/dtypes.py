"""Sample types: a file's encoding as a torch dtype, and which dtype= conversions keep every value."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import torch

from rumi import RequestError

#: a numpy array (samples, offsets, masks)
Array = np.ndarray[Any, Any]


def torch_dtype(enc: str) -> Any:
    """The torch dtype of samples of encoding enc."""
    if enc in ("uint16", "uint32", "uint64") and not hasattr(torch, enc):  # pragma: no cover
        raise RequestError(f"this torch has no {enc}")
    return getattr(torch, enc) if enc != "bool" else torch.bool


def as_torch_dtype(v: Any, what: str) -> Any:
    """dtype= as a torch.dtype (or None): a torch.dtype or its name."""
    if v is None or isinstance(v, torch.dtype):
        return v
    if isinstance(v, str) and isinstance(getattr(torch, v.removeprefix("torch."), None), torch.dtype):
        return getattr(torch, v.removeprefix("torch."))
    raise TypeError(f"{what} must be a torch.dtype (e.g. torch.float32) or its name, not {v!r}")


def never_sample(v: float, enc: str) -> bool:
    """True when no sample of encoding enc can equal nodata v (NaN or a fraction for integers,
    or a value outside their range): every sample of that band is valid."""
    dt = torch_dtype(enc)
    if dt.is_floating_point or dt.is_complex:
        return False
    if math.isnan(v) or v != int(v):
        return True
    lo, hi = (0, 1) if dt == torch.bool else (torch.iinfo(dt).min, torch.iinfo(dt).max)
    return not lo <= v <= hi


def cast_check(enc: str, dst: Any, what: str) -> Any:
    """dst when the files' samples (encoding enc) convert to it without wraparound or
    truncation, None when no conversion is needed; else ValueError."""
    if dst is None:
        return None
    src = torch_dtype(enc)
    if dst == src:
        return None
    if dst.is_complex or src.is_complex:
        if dst.is_complex and src.is_complex and dst.itemsize >= src.itemsize:
            return dst
        raise ValueError(f"{what}={dst}: {enc} samples do not convert to it")
    if dst.is_floating_point:
        return dst  # rounding to the nearest float, as any float cast
    if src.is_floating_point:
        raise ValueError(f"{what}={dst}: converting {enc} samples to an integer type would truncate them; use a "
                         "floating dtype (torch.float32)")
    if dst == torch.bool:
        raise ValueError(f"{what}={dst}: {enc} samples do not fit in bool")
    lo, hi = (0, 1) if src == torch.bool else (torch.iinfo(src).min, torch.iinfo(src).max)
    info = torch.iinfo(dst)
    if lo < info.min or hi > info.max:
        raise ValueError(f"{what}={dst} cannot hold every {enc} value ({lo}..{hi}; it holds {info.min}..{info.max}): "
                         "values would wrap around; use a wider integer type (torch.int32, torch.int64) or torch.float32")
    return dst
