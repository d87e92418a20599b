"""Time coordinates given to rumi.write -> whole seconds since 1970 (spec: "Time coordinates")."""

from __future__ import annotations

import datetime as _dt
from typing import Any, Sequence, Union

import numpy as np

#: one time step: an instant, or a (start, end) interval (also the string "start/end")
TimeLike = Union[str, np.datetime64, _dt.date, _dt.datetime]


def seconds(v: Any, what: str) -> int:
    """Seconds since 1970 (UTC) of an ISO 8601 string, datetime64, datetime or date."""
    if isinstance(v, str):
        s = v.strip()
        if s.endswith("Z"):
            s = s[:-1]
        try:
            d = np.datetime64(s, "s")
        except ValueError:
            raise ValueError(f"{what}: {v!r} is not an ISO 8601 UTC time") from None
    elif isinstance(v, np.datetime64):
        if np.isnat(v):
            raise ValueError(f"{what} is NaT")
        d = v.astype("datetime64[s]")
        if d.astype("datetime64[ns]") != v.astype("datetime64[ns]") and v.dtype.str[-2] not in "DWMYhms":
            raise ValueError(f"{what}: {v} has sub-second precision; rumi stores whole seconds")
    elif isinstance(v, _dt.datetime):
        if v.tzinfo is not None:
            v = v.astimezone(_dt.timezone.utc).replace(tzinfo=None)
        d = np.datetime64(v, "s")
    elif isinstance(v, _dt.date):
        d = np.datetime64(v, "s")
    else:
        raise TypeError(f"{what}: {v!r} is not a time (ISO string, datetime64, datetime or (start, end))")
    return int(d.astype("int64"))


def parse_times(times: Any, steps: int) -> tuple[str, list[int]]:
    """('instant' | 'interval', seconds) of the `times` argument of rumi.write for `steps` time
    steps (two seconds per interval)."""
    if times is None:
        raise ValueError("times is required: one instant or (start, end) interval per time step")
    if isinstance(times, (str, np.datetime64, _dt.date)) or (
        isinstance(times, tuple) and steps == 1 and len(times) == 2 and not isinstance(times[0], (tuple, list))
    ):
        times = [times]
    if isinstance(times, np.ndarray):
        times = list(times) if times.ndim == 1 else [tuple(r) for r in times]
    items: Sequence[Any] = list(times)
    if len(items) != steps:
        raise ValueError(f"{len(items)} times given for {steps} time steps")
    kinds: set[str] = set()
    secs: list[int] = []
    for i, v in enumerate(items):
        if isinstance(v, str) and "/" in v:
            v = tuple(v.split("/", 1))
        if isinstance(v, (tuple, list, np.ndarray)):
            if len(v) != 2:
                raise ValueError(f"times[{i}] must be an instant or a (start, end) pair")
            kinds.add("interval")
            secs += [seconds(v[0], f"times[{i}] start"), seconds(v[1], f"times[{i}] end")]
        else:
            kinds.add("instant")
            secs.append(seconds(v, f"times[{i}]"))
    if len(kinds) > 1:
        raise ValueError("times mixes instants and intervals")
    return kinds.pop(), secs
