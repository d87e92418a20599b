"""Every case of the malformed-file corpus (make_corpus.py: one broken MUST / MUST NOT each) through
`rumi validate` and through GDAL (`gdalinfo -checksum`, and GDAL's multidimensional API reading
every array), validated and stateless, each in its own process, asserting:

- a clean failure: exit code 1 (never a signal, never a Rust panic's 101), and an error naming
  the rule (one of the case's substrings);
- no hang: every process has a timeout;
- bounded memory: every process runs under `prlimit --as` (address space), and its peak resident
  memory is measured (`/usr/bin/time`) and reported at the end of the run;
- no noise: stderr holds only GDAL's error lines (no OpenZL log line), and rumi's error for
  one failure appears once.

RUMI_HOSTILE_VALGRIND=1 (scripts/test-hostile.sh --valgrind) runs the gdalinfo processes under
`valgrind --error-exitcode=99` instead (no address-space limit: valgrind needs its own), on
the subset RUMI_HOSTILE_VALGRIND_SUBSET selects ("all", or every k-th case, default 3).
RUMI_HOSTILE_SHARD=k/n keeps the k-th of n shares of the GDAL cases (test-hostile.sh --valgrind
runs one share per core).
"""

import os
import re
import subprocess
from pathlib import Path

import pytest

import rumi_util
from conftest import STATE

RUMI = rumi_util.TARGET / "release" / "rumi"
VALGRIND = os.environ.get("RUMI_HOSTILE_VALGRIND") == "1"
TIMEOUT = 300 if VALGRIND else 60  # seconds: a hang, not a slow machine
AS_VALIDATE = 1 << 30  # bytes of address space for `rumi validate`
AS_GDAL = 2 << 30  # gdalinfo maps GDAL, PROJ and their data
SUBSET = os.environ.get("RUMI_HOSTILE_VALGRIND_SUBSET", "3")
# "k/n": this process runs the k-th of n shares of the GDAL cases (scripts/test-hostile.sh runs
# one process per core; valgrind runs a process on one core)
SHARD = tuple(int(x) for x in os.environ.get("RUMI_HOSTILE_SHARD", "0/1").split("/"))

CASES = STATE["cases"]
# lines gdalinfo itself prints around a driver's errors
GDAL_LINE = re.compile(r"^(ERROR \d+: |Warning \d+: |gdalinfo failed - unable to open )")


def run(args, what, name, mode="", limit=None, env=None):
    """Runs `args` with a timeout, under an address-space limit, measuring peak RSS."""
    cmd = ["/usr/bin/time", "-f", "RUMI_MAXRSS_KB=%M"]
    if limit is not None:
        cmd += ["prlimit", f"--as={limit}"]
    p = subprocess.run(cmd + args, capture_output=True, text=True, timeout=TIMEOUT, env=env,
                       cwd=STATE["corpus"])
    lines = p.stderr.splitlines()
    rss = [int(x.split("=")[1]) for x in lines if x.startswith("RUMI_MAXRSS_KB=")]
    if rss:
        STATE["peak"][(what, name, mode)] = rss[-1]
    # /usr/bin/time adds its own lines; a signal shows as "Command terminated by signal N"
    signalled = any(x.startswith("Command terminated by signal") for x in lines)
    stderr = [x for x in lines if not x.startswith(("RUMI_MAXRSS_KB=", "Command exited with non-zero status",
                                                    "Command terminated by signal"))]
    return p.returncode, signalled, stderr


def ids(cases):
    return [c["name"] for c in cases]


@pytest.mark.skipif(VALGRIND, reason="valgrind mode runs the GDAL cases only")
@pytest.mark.parametrize("case", [c for c in CASES if c["expect"]], ids=ids([c for c in CASES if c["expect"]]))
def test_rumi_validate(case):
    args = [str(RUMI), "validate", case["file"]]
    if case["header"]:
        args += ["--header", case["blob"]]
    code, signalled, stderr = run(args, "validate", case["name"], limit=AS_VALIDATE)
    assert not signalled and code == 1, f"exit {code}: {stderr}"
    text = "\n".join(stderr)
    assert any(e in text for e in case["expect"]), f"{stderr} names none of {case['expect']}"
    assert len(stderr) == 1 and stderr[0].startswith("rumi: "), f"one error line expected: {stderr}"


def gdal_cases():
    out = []
    for i, c in enumerate(CASES):
        if VALGRIND and SUBSET != "all" and i % int(SUBSET):
            continue
        if c["gdal"] is not None:
            out.append(pytest.param(c, "validated", id=f"{c['name']}-validated"))
        out.append(pytest.param(c, "stateless", id=f"{c['name']}-stateless"))
    return out[SHARD[0]::SHARD[1]]


@pytest.mark.parametrize("case,mode", gdal_cases())
def test_gdal(case, mode):
    name = ("RUMI:" if case["prefix"] else "") + case["file"]
    header = "NONE" if mode == "validated" else case["blob"]
    args = ["gdalinfo", "-checksum", "-oo", f"HEADER={header}", name]
    env = dict(os.environ, GDAL_DRIVER_PATH=str(STATE["plugins"]), CPL_DEBUG="OFF", GDAL_PAM_ENABLED="NO")
    if VALGRIND:
        args = ["valgrind", "--error-exitcode=99", "--quiet", "--trace-children=no"] + args
        code, signalled, stderr = run(args, "valgrind", case["name"], mode, env=env)
        assert code != 99, "valgrind reported errors:\n" + "\n".join(stderr[-60:])
        stderr = [x for x in stderr if not x.startswith("==")]
    else:
        code, signalled, stderr = run(args, "gdal", case["name"], mode, limit=AS_GDAL, env=env)
    assert not signalled and code in (0, 1), f"exit {code}: {stderr}"
    expect = case["gdal"] if mode == "validated" else case["stateless"]
    text = "\n".join(stderr)
    if expect:
        assert "ERROR" in text, f"no error reported: {stderr}"
        assert any(e in text for e in expect), f"{stderr} names none of {expect}"
    # no noise: only GDAL's own error lines (an OpenZL log line would not have this form)
    noise = [x for x in stderr if x.strip() and not GDAL_LINE.match(x)]
    assert not noise, f"unexpected stderr lines: {noise}"
    # every rumi error reaches the user once: no line repeats, no line holds a message twice
    # (a block error appears inside GDAL's "IReadBlock failed at ...: <message>" only)
    rumi_lines = [x for x in stderr if "RUMI: " in x]
    assert len(rumi_lines) == len(set(rumi_lines)), f"an error was reported twice: {rumi_lines}"
    assert all(x.count("RUMI: ") == 1 for x in rumi_lines), f"an error was reported twice: {rumi_lines}"
    messages = [x.split("RUMI: ", 1)[1] for x in rumi_lines]
    assert len(messages) == len(set(messages)), f"an error was reported twice: {rumi_lines}"


@pytest.mark.skipif(VALGRIND, reason="valgrind mode runs gdalinfo only")
@pytest.mark.parametrize("case,mode", gdal_cases())
def test_gdal_multidim(case, mode):
    """The same case through GDAL's multidimensional API: open, then read every array."""
    header = "NONE" if mode == "validated" else case["blob"]
    args = [rumi_util.PYTHON, str(Path(__file__).parent / "read_multidim.py"), case["file"], header]
    env = dict(os.environ, GDAL_DRIVER_PATH=str(STATE["plugins"]), CPL_DEBUG="OFF", GDAL_PAM_ENABLED="NO")
    code, signalled, stderr = run(args, "multidim", case["name"], mode, limit=AS_GDAL, env=env)
    assert not signalled and code in (0, 1), f"exit {code}: {stderr}"
    expect = case["gdal"] if mode == "validated" else case["stateless"]
    if expect and code == 1:
        text = "\n".join(stderr)
        assert any(e in text for e in expect) or "not recognized" in text or "not a supported" in text, stderr


def test_corpus_covers_every_section():
    """The corpus breaks rules of every part of the format."""
    prefixes = {c["name"].split("_")[0] for c in CASES}
    for section in ("header", "ifd", "placement", "samples", "frame", "offsets", "counts", "geo", "trailer",
                    "band", "time", "blob", "truncated", "absurd"):
        assert section in prefixes, section
    assert len(CASES) >= 100
    assert all(Path(STATE["corpus"], c["file"]).exists() for c in CASES)
