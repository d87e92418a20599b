"""The few ELF facts register() needs: a shared object's SONAME and DT_NEEDED names, and a copy of
a plugin whose libgdal DT_NEEDED names another build of the same GDAL (little-endian ELF64: x86-64 and aarch64)."""

from __future__ import annotations

import os
import struct
import tempfile
from dataclasses import dataclass
from pathlib import Path

_PT_LOAD, _PT_DYNAMIC = 1, 2
_DT_NULL, _DT_NEEDED, _DT_STRTAB, _DT_STRSZ, _DT_SONAME = 0, 1, 5, 10, 14


class ElfError(ValueError):
    """Not a little-endian ELF64 shared object, or one whose dynamic section cannot be read."""


@dataclass(frozen=True)
class Dynamic:
    soname: str | None
    needed: dict[str, int]  # name -> file offset of its string in .dynstr
    soname_at: int | None  # file offset of the SONAME string


def dynamic(data: bytes, name: str = "file") -> Dynamic:
    """The dynamic section's SONAME and DT_NEEDED entries of an ELF64 little-endian file."""
    if data[:4] != b"\x7fELF" or len(data) < 64 or data[4] != 2 or data[5] != 1:
        raise ElfError(f"{name} is not a 64-bit little-endian ELF file")
    phoff, = struct.unpack_from("<Q", data, 32)
    phentsize, phnum = struct.unpack_from("<HH", data, 54)
    loads, dyn = [], None
    for i in range(phnum):
        p_type, _, p_offset, p_vaddr, _, p_filesz, _, _ = struct.unpack_from("<IIQQQQQQ", data, phoff + i * phentsize)
        if p_type == _PT_LOAD:
            loads.append((p_vaddr, p_offset, p_filesz))
        elif p_type == _PT_DYNAMIC:
            dyn = (p_offset, p_filesz)
    if dyn is None:
        raise ElfError(f"{name} has no dynamic section (not a shared object)")

    def offset(vaddr: int) -> int:
        for v, o, size in loads:
            if v <= vaddr < v + size:
                return vaddr - v + o
        raise ElfError(f"{name}: address {vaddr:#x} is in no loaded segment")

    entries = []
    for pos in range(dyn[0], dyn[0] + dyn[1], 16):
        tag, val = struct.unpack_from("<qQ", data, pos)
        if tag == _DT_NULL:
            break
        entries.append((tag, val))
    tags = dict((t, v) for t, v in entries if t in (_DT_STRTAB, _DT_STRSZ))
    if _DT_STRTAB not in tags or _DT_STRSZ not in tags:
        raise ElfError(f"{name}: the dynamic section has no string table")
    strtab = offset(tags[_DT_STRTAB])

    def string(off: int) -> str:
        end = data.index(b"\0", strtab + off)
        return data[strtab + off : end].decode("utf-8", "replace")

    needed = {string(v): strtab + v for t, v in entries if t == _DT_NEEDED}
    at = next((strtab + v for t, v in entries if t == _DT_SONAME), None)
    soname = None if at is None else string(at - strtab)
    return Dynamic(soname, needed, at)


def soname(path: Path) -> str:
    """The SONAME of a shared library (its file name when it records none)."""
    return dynamic(path.read_bytes(), str(path)).soname or path.name


def renamed(data: bytes, old: str, new: str, name: str = "file") -> bytes:
    """`data` with its DT_NEEDED or SONAME string `old` reading `new`, rewritten in place (so
    `new` may not be longer than `old`)."""
    dyn = dynamic(data, name)
    at = dyn.needed.get(old, dyn.soname_at if dyn.soname == old else None)
    if at is None:
        raise ElfError(f"{name} neither needs nor is {old} (it needs {', '.join(dyn.needed)})")
    if len(new.encode()) > len(old.encode()):
        raise ElfError(f"cannot rename {old} to {new} in {name}: the new name is longer")
    out = bytearray(data)
    out[at : at + len(old.encode())] = new.encode().ljust(len(old.encode()), b"\0")
    check = dynamic(bytes(out), name)
    if old in check.needed or check.soname == old or (new not in check.needed and check.soname != new):
        raise ElfError(f"renaming {old} -> {new} in {name} failed")
    return bytes(out)


def relinked_copy(plugin: Path, old: str, new: str, out: Path) -> Path:
    """Writes `out`, a copy of `plugin` whose DT_NEEDED `old` reads `new`, atomically; returns it."""
    data = renamed(plugin.read_bytes(), old, new, str(plugin))
    out.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=out.parent, prefix=".gdal_RUMI.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, 0o755)
        os.replace(tmp, out)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return out
