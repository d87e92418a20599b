"""Time coordinates given to rumi.write -> whole seconds since 1970 (spec: "Time coordinates")."""

from __future__ import annotations

import datetime as _dt
import os
import sys
import warnings
from typing import Any, Sequence, Union

import numpy as np

from ._errors import RequestError

#: one time step: an instant, or a (start, end) interval (also the string "start/end")
TimeLike = Union[str, np.datetime64, _dt.date, _dt.datetime]


def rounded_seconds(d: np.datetime64) -> tuple[int, bool]:
    """(seconds since 1970 of d rounded to the nearest second, halves up, as `rumi convert`
    rounds metadata times; whether a fraction was rounded away), without a warning: for
    writers that report every rounding at once (rumi.build)."""
    unit, _ = np.datetime_data(d.dtype)
    per = _PER_SECOND.get(unit)
    if per is None:  # seconds or coarser: exact
        return int(d.astype("datetime64[s]").astype("int64")), False
    v = int(d.astype(f"datetime64[{unit}]").astype("int64"))
    q, r = divmod(v, per)
    if r == 0:
        return q, False
    return q + (1 if 2 * r >= per else 0), True


def rounded_micros(us: Any) -> np.ndarray[Any, Any]:
    """Microseconds since 1970 (int64 array) -> whole seconds rounded to the nearest, halves up:
    rounded_seconds over an array, without a warning (rumi.build reports its roundings at once)."""
    q, r = np.divmod(np.asarray(us, np.int64), _PER_SECOND["us"])
    out: np.ndarray[Any, Any] = q + (2 * r >= _PER_SECOND["us"])
    return out


def _whole_seconds(d: np.datetime64, what: str, given: Any) -> int:
    """rounded_seconds, with a warning naming the change when d has a fraction of a second."""
    out, rounded = rounded_seconds(d)
    if rounded:
        _warn_rounded(what, given, out)
    return out


def _warn_rounded(what: str, given: str, out: int) -> None:
    shown = np.datetime_as_string(np.datetime64(out, "s"))
    warnings.warn(
        f"{what}: {given} has a fraction of a second; rumi stores whole seconds, so it is stored as {shown}Z "
        "(rounded to the nearest second)",
        UserWarning,
        stacklevel=caller_level(),
    )


def caller_level() -> int:
    """The warnings stacklevel that names the first frame outside the rumi package (the user's
    line), for a warnings.warn made by the function that calls this one."""
    here = os.path.dirname(os.path.abspath(__file__))
    f = sys._getframe(2)  # the frame that calls warnings.warn is level 1
    level = 2
    while f is not None and os.path.abspath(f.f_code.co_filename).startswith(here + os.sep):
        f = f.f_back  # type: ignore[assignment]
        level += 1
    return level


def as_datetime64(kind: str, secs: Sequence[int]) -> np.ndarray[Any, Any]:
    """The `times` argument that gives back exactly these whole seconds (instants (T,), intervals
    (T, 2)): what a writer passes on after parsing once, so a rounding is warned about once."""
    a = np.array(list(secs), dtype="int64").astype("datetime64[s]")
    return a.reshape(-1, 2) if kind == "interval" else a


#: sub-second datetime64 units -> their count per second
_PER_SECOND = {"ms": 10**3, "us": 10**6, "ns": 10**9, "ps": 10**12, "fs": 10**15, "as": 10**18}


def seconds(v: Any, what: str) -> int:
    """Seconds since 1970 (UTC) of an ISO 8601 string, datetime64, datetime (pandas Timestamps
    included) or date; a fraction of a second is rounded to the nearest second with a warning
    naming the change (the format stores whole seconds)."""
    if isinstance(v, str):
        # the core's one parser of time texts (the CLI's --times reads the same strings)
        from . import _rumi

        return _text_seconds(v, what)[0]
    if hasattr(v, "to_datetime64") and not isinstance(v, np.datetime64):  # pandas.Timestamp: keeps ns
        if getattr(v, "tzinfo", None) is not None:
            v = v.tz_convert("UTC").tz_localize(None)
        v = v.to_datetime64()
    if isinstance(v, np.datetime64):
        if np.isnat(v):
            raise ValueError(f"{what} is NaT")
        return _whole_seconds(v, what, str(v))
    if isinstance(v, _dt.datetime):
        if v.tzinfo is not None:
            v = v.astimezone(_dt.timezone.utc).replace(tzinfo=None)
        return _whole_seconds(np.datetime64(v, "us"), what, v.isoformat())
    if isinstance(v, _dt.date):
        return int(np.datetime64(v, "s").astype("int64"))
    raise TypeError(f"{what}: {v!r} is not a time (ISO string, datetime64, datetime or (start, end))")


def _text_seconds(text: str, what: str) -> tuple[int, int]:
    """(seconds, span) of a time text by the core's one parser (span: the seconds it covers),
    a fraction rounded with a warning."""
    from . import _rumi

    try:
        secs, rounded, span = _rumi.parse_time(text)
    except ValueError as e:
        raise ValueError(f"{what}: {e}") from None
    if rounded:
        _warn_rounded(what, repr(text), secs)
    return secs, span


#: datetime64 units coarser than a second -> what a value of that unit covers (time_span)
_COARSE = ("Y", "M", "W", "D", "h", "m")


def time_span(v: Any, what: str = "time") -> tuple[int, int]:
    """(first, last) second that a time value covers, as STAC searches read dates: a date text
    its day, "YYYY-MM" its month, "YYYY" its year, "HH:MM" its minute (the core's parser says
    what a text covers), a datetime64 of a coarser unit that unit, a date its day; one second
    for an instant."""
    if isinstance(v, str):
        start, span = _text_seconds(v, what)
        return start, start + span - 1
    start = seconds(v, what)
    unit = None
    if isinstance(v, np.datetime64):
        unit = np.datetime_data(v.dtype)[0]
    elif isinstance(v, _dt.date) and not isinstance(v, _dt.datetime):
        unit = "D"
    if unit in _COARSE:
        d = np.datetime64(start, "s").astype(f"datetime64[{unit}]")
        return start, int((d + 1).astype("datetime64[s]").astype("int64")) - 1
    return start, start


def interval_seconds(text: str, what: str) -> list[int]:
    """[start, end] seconds of an interval text "START/END" by the core's one parser of time
    texts (the CLI's --intervals reads the same strings): END after START, a fraction of a
    second rounded with a warning as `seconds` rounds it; RequestError (a ValueError) naming
    the text otherwise."""
    from . import _rumi

    try:
        (a, a_rounded), (b, b_rounded) = _rumi.parse_interval(text)
    except ValueError as e:
        raise RequestError(f"{what}: {e}") from None
    for secs, rounded, end in ((a, a_rounded, "start"), (b, b_rounded, "end")):
        if rounded:
            _warn_rounded(f"{what} {end}", repr(text), secs)
    return [a, b]


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
            kinds.add("interval")
            secs += interval_seconds(v, f"times[{i}]")
        elif isinstance(v, (tuple, list, np.ndarray)):
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
