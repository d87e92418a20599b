"""The documentation's Python examples, as tests run them (python/tests/test_readme.py,
tests/clients/test_readme_gdal.py): every ```python block of README.md and of the guides
docs/*.md, in order, with the hidden setup an HTML comment right above it may give (invisible
on the rendered page):

    <!-- readme-test env=torch
    import rumi; rumi.write("scene.rumi", ...)      # what the example takes as given
    -->
    ```python
    ...the example, run as written...
    ```

env names where the block runs: python (the package's test venv, the default), torch (the
PyTorch venv), torchgeo (Python 3.12 with TorchGeo), gdal (Debian's python3 with rasterio and
the GDAL plugin: tests/clients), wheels (a fresh venv where rumi, rumi-gdal and rasterio came
from wheels: scripts/test-artifacts.sh runs `python scripts/readme_blocks.py wheels`). Each block runs in a fresh interpreter in an empty folder, its
setup first, so that an example cannot lean on another's leftovers. A block is named by its env,
file and line (`torch-docs/training.md-L40`): env comes first, so that `pytest -k torch` or
`-k torchgeo` selects by env (no documentation file has "torch" in its name)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"


def files() -> list[Path]:
    """README.md, then the guides under docs/ by name."""
    return [README, *sorted((ROOT / "docs").glob("*.md"))]
ENVS = ("python", "torch", "torchgeo", "gdal", "wheels")

_FENCE = re.compile(r"^(\s*)```python\s*$")
_TAG = re.compile(r"^\s*<!-- readme-test(?P<args>[^\n]*?)\s*$")


@dataclass(frozen=True)
class Block:
    path: str  # the file, relative to the repository root ("README.md", "docs/training.md")
    line: int  # 1-based line of the opening fence
    section: str  # the heading the block is under
    env: str
    setup: str
    code: str

    @property
    def name(self) -> str:
        return f"{self.env}-{self.path}-L{self.line}"

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"


def blocks(paths: list[Path] | None = None) -> list[Block]:
    """Every block of `paths` (default: files()), file by file, in order."""
    return [b for path in (files() if paths is None else paths) for b in _blocks(path)]


def _blocks(path: Path) -> list[Block]:
    rel = path.resolve().relative_to(ROOT).as_posix() if path.resolve().is_relative_to(ROOT) else path.name
    lines = path.read_text().splitlines()
    out: list[Block] = []
    section = ""
    i = 0
    pending: tuple[str, str] | None = None  # (env, setup) of a tag waiting for its block
    in_other = False  # inside a fence of another language
    while i < len(lines):
        line = lines[i]
        if line.strip().startswith("```") and not _FENCE.match(line):
            in_other = not in_other if line.strip() == "```" or not in_other else in_other
            i += 1
            continue
        if in_other:
            i += 1
            continue
        if line.startswith("#"):
            section = line.lstrip("#").strip()
        tag = _TAG.match(line)
        if tag:
            args = dict(a.split("=", 1) for a in tag.group("args").split() if "=" in a)
            env = args.get("env", "python")
            if env not in ENVS:
                raise ValueError(f"{rel}:{i + 1}: env={env!r} is not one of {ENVS}")
            body = []
            i += 1
            while i < len(lines) and lines[i].strip() != "-->":
                body.append(lines[i])
                i += 1
            pending = (env, textwrap.dedent("\n".join(body)))
            i += 1
            continue
        fence = _FENCE.match(line)
        if fence:
            indent = len(fence.group(1))
            code = []
            start = i + 1
            i += 1
            while i < len(lines) and lines[i].strip() != "```":
                code.append(lines[i][indent:] if lines[i][:indent].strip() == "" else lines[i])
                i += 1
            env, setup = pending or ("python", "")
            out.append(Block(rel, start, section, env, setup, "\n".join(code)))
            pending = None
        elif line.strip() and pending is not None and not line.lstrip().startswith("<!--"):
            raise ValueError(f"{rel}:{i + 1}: a readme-test comment must be right above its ```python block")
        i += 1
    return out


def run(block: Block, workdir: Path, python: str | None = None, env: dict[str, str] | None = None,
        timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """Runs the block's setup, then the block, in a fresh interpreter with `workdir` as the
    current folder; the result's returncode is 0 when both ran."""
    script = workdir / "readme_block.py"
    script.write_text(f"{block.setup}\n# --- {block.where} ---\n{block.code}\n")
    return subprocess.run([python or sys.executable, str(script)], cwd=workdir, capture_output=True, text=True,
                          timeout=timeout, env=dict(os.environ, **(env or {})))


def main(argv: list[str]) -> int:
    """`python scripts/readme_blocks.py ENV`: runs every block of ENV with this interpreter, each
    in a fresh temporary folder; prints one line per block, exit status 1 when one fails."""
    import tempfile

    if len(argv) != 1 or argv[0] not in ENVS:
        print(f"usage: python scripts/readme_blocks.py ENV (one of {', '.join(ENVS)})", file=sys.stderr)
        return 2
    chosen = [b for b in blocks() if b.env == argv[0]]
    if not chosen:
        print(f"no {argv[0]} examples found", file=sys.stderr)
        return 1
    failed = 0
    for b in chosen:
        with tempfile.TemporaryDirectory() as work:
            r = run(b, Path(work))
        if r.returncode == 0:
            print(f"  ok: example {b.where} ({b.section})")
        else:
            failed += 1
            print(f"  FAIL: example {b.where} ({b.section}):\n{r.stderr[-3000:]}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
