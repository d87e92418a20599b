"""Options as values: the base of rumi's frozen option values (rumi.WriteOptions,
rumi.torch.ReadOptions), each built once from the friendly keyword arguments at a public edge
and passed inward as one value (zarr-python 3's ArrayConfig is the model)."""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar, Mapping, TypeVar

O = TypeVar("O", bound="Options")


def _is_default(value: Any, default: Any) -> bool:
    """value is the keyword's default (the same object, or an equal value of the same type)."""
    if value is default:
        return True
    return default is not None and type(value) is type(default) and bool(value == default)


class Options:
    """A frozen dataclass of options (subclasses check each field in __post_init__), with the
    one merge of a public function's keyword arguments and its `<ARG>=` value (gather)."""

    #: the keyword argument that takes the value ("write_options", "read_options")
    ARG: ClassVar[str] = "options"

    @classmethod
    def gather(cls: type[O], given: O | None, where: str, names: Mapping[str, str] | None = None, **kw: Any) -> O:
        """The options of a call: cls(**kw) (the keywords, checked), or `given` when the call
        passed a value, whose keywords must then be left at their defaults (a TypeError naming
        those that are not: the value is never merged field by field). names: a keyword's name
        where the call spells it differently from the field (rumi.build's storage_options)."""
        if given is None:
            return cls(**kw)
        if not isinstance(given, cls):
            raise TypeError(f"{where}: {cls.ARG}= takes a {cls.__qualname__}, not {type(given).__name__}")
        defaults = {f.name: f.default for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
        both = [(names or {}).get(k, k) for k, v in kw.items() if not _is_default(v, defaults[k])]
        if both:
            listed = ", ".join(f"{k}=" for k in both)
            raise TypeError(
                f"{where}: {listed} given beside {cls.ARG}=: give each option once, in {cls.ARG}= "
                f"(dataclasses.replace({cls.ARG}, ...)) or as keywords"
            )
        return given
