"""`da.rumi.to_rumi(dest, ...)` / `ds.rumi.to_rumi(...)`: rumi.to_rumi as an xarray accessor.
Registered when rumi is imported after xarray, or when rumi.to_rumi or the xarray backend loads."""

from __future__ import annotations

from typing import Any

import xarray as xr


class _RumiAccessor:
    def __init__(self, obj: Any) -> None:
        self._obj = obj

    def to_rumi(self, dest: Any, **options: Any) -> bytes:
        """rumi.to_rumi(self, dest, **options): see there."""
        from ._to_rumi import to_rumi

        return to_rumi(self._obj, dest, **options)


xr.register_dataarray_accessor("rumi")(_RumiAccessor)
xr.register_dataset_accessor("rumi")(_RumiAccessor)
