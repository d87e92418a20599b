"""The selection's scale, offset and unit (the catalogue's rumi:scales, rumi:offsets, rumi:units):
the per-file values of the bands read, as index columns (`per_file`), and what ChipDataset
decides of them over the whole selection (`ScaleChecks`, one of the index's selection checks:
the same answer at every rank and world size).

Without apply_scale, chips are raw samples: a selection whose files give one band different
scales or offsets is refused (the same raw value would mean two things in one batch), and one
whose files share a scale or offset other than 1 and 0 is read with one warning naming the bands.
With apply_scale, the files' values are computed per file, so their scales may differ, but every
file must have recorded them (a catalogue written before these columns has not: refused) and a
band may not have two units."""

from __future__ import annotations

import warnings
from typing import Any, Callable, Sequence

import numpy as np

from rumi import RequestError
from rumi.catalog.decode import Rows

from .dtypes import Array

#: rows of ScaleChecks' messages shown
SHOWN = 3


def per_file(t: Any, keep: Array, bi: Array, shapes: Array | None = None) -> tuple[Array, Array, Array, Array]:
    """Of the rows keep of a shard's table t (a pyarrow Table or its rumi.catalog.decode.Rows; bi:
    every row's indices of the bands read): (scales (k, B) float64, offsets (k, B) float64, units
    (k, B) object, recorded (k,) bool: the row has the three columns): Rows.scaling."""
    return (t if isinstance(t, Rows) else Rows(t)).scaling(keep, bi)


class ScaleChecks:
    """The selection's scales, offsets and units per band read, gathered shard by shard (add),
    then decided (finish)."""

    def __init__(self, names: Sequence[str], apply_scale: bool) -> None:
        self.names = list(names)
        self.apply_scale = apply_scale
        B = len(self.names)
        self.pairs: list[dict[tuple[float, float], str]] = [{} for _ in range(B)]  # (scale, offset) -> a file with it
        self.units: list[dict[str, str]] = [{} for _ in range(B)]  # unit -> a file with it
        self.unrecorded = 0
        self.unrecorded_ids: list[str] = []
        self.kept = 0

    def add(self, t: Any, keep: Array, bi: Array, shapes: Array, id_of: Callable[[int], str]) -> None:
        """The rows keep of a shard's table (id_of(i): the id of the row keep[i])."""
        if not len(keep):
            return
        sc, of, un, rec = per_file(t, keep, bi)
        self.kept += len(keep)
        miss = np.flatnonzero(~rec)
        self.unrecorded += len(miss)
        self.unrecorded_ids += [id_of(int(i)) for i in miss[:max(0, SHOWN - len(self.unrecorded_ids))]]
        ok = np.flatnonzero(rec)
        for b in range(len(self.names)):
            pairs = np.stack([sc[ok, b], of[ok, b]], 1)
            uniq, first = np.unique(pairs, axis=0, return_index=True)
            for k in np.argsort(first, kind="stable"):  # in the rows' order
                s, o = uniq[k]
                self.pairs[b].setdefault((float(s), float(o)), id_of(int(ok[first[k]])))
            col = un[ok, b].tolist()
            for u in dict.fromkeys(col):
                if u:
                    self.units[b].setdefault(str(u), id_of(int(ok[col.index(u)])))

    def finish(self) -> tuple[str, ...]:
        """The bands' units ('' where none), after refusing what the module's text refuses (a
        RequestError naming the bands, values and files), and warning once of raw samples with a
        scale."""
        def num(x: float) -> str:  # short where that is exact, else every digit (two values never read alike)
            return f"{x:g}" if float(f"{x:g}") == x else repr(x)

        def pair_text(p: tuple[float, float]) -> str:
            return f"scale {num(p[0])}, offset {num(p[1])}"

        if self.apply_scale:
            if self.unrecorded:
                shown = ", ".join(self.unrecorded_ids) + (" ..." if self.unrecorded > SHOWN else "")
                raise RequestError(
                    f"apply_scale=True needs the files' scales and offsets, and the catalogue did not record them for "
                    f"{self.unrecorded} of the {self.kept} files ({shown}): it was written before rumi:scales, "
                    "rumi:offsets and rumi:units; build it again (rumi.Catalog.build, rumi-catalog build), which "
                    "reads them from each file's .aux.xml")
            for name, us in zip(self.names, self.units):
                if len(us) > 1:
                    (u0, f0), (u1, f1) = list(us.items())[:2]
                    raise RequestError(
                        f"band {name} is in {u0!r} in {f0} and in {u1!r} in {f1}: "
                        "apply_scale=True would put values of different units in one batch; select files of one unit")
        else:
            if self.unrecorded:  # raw chips: nothing to apply, but nothing to check either
                shown = ", ".join(self.unrecorded_ids) + (" ..." if self.unrecorded > SHOWN else "")
                warnings.warn(
                    f"rumi.torch: the catalogue did not record scales, offsets and units for {self.unrecorded} of the "
                    f"{self.kept} files ({shown}; written before rumi:scales): the chips are raw samples, and whether "
                    "a band has one scale and offset in all of them is not checked; build the catalogue again "
                    "(rumi.Catalog.build, rumi-catalog build) to check it", RuntimeWarning, stacklevel=5)
            for name, ps in zip(self.names, self.pairs):
                if len(ps) > 1:
                    (p0, g0), (p1, g1) = list(ps.items())[:2]
                    raise RequestError(
                        f"band {name} has {pair_text(p0)} in {g0} and {pair_text(p1)} in {g1}: the same raw sample means different values in these files. Pass "
                        "apply_scale=True (chips of values raw * scale + offset, per file), or select files of "
                        "one scale and offset")
            scaled = [(n, next(iter(ps))) for n, ps in zip(self.names, self.pairs)
                      if len(ps) == 1 and next(iter(ps)) != (1.0, 0.0)]
            if scaled:
                text = "; ".join(f"{n}: {pair_text(p)}" for n, p in scaled)
                warnings.warn(
                    f"rumi.torch: the chips are raw samples, and the files' bands have a scale or offset ({text}): "
                    "pass apply_scale=True for the values raw * scale + offset", RuntimeWarning, stacklevel=5)
        return tuple(next(iter(us)) if len(us) == 1 else "" for us in self.units)
