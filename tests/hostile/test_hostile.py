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

RUMI_HOSTILE_VALGRIND=1 (scripts/test-hostile.sh --valgrind) runs the GDAL cases under
`valgrind --error-exitcode=99` instead (no address-space limit: valgrind needs its own), on
the subset RUMI_HOSTILE_VALGRIND_SUBSET selects ("all", the default, or every k-th case): every
case's gdalinfo run (GDALOpenEx, then GDALInfo with -checksum: what the gdalinfo tool calls) and
multidimensional read in one Python process (gdal_batch.py; valgrind's start-up over libgdal,
2 CPU-s, was 95 % of a gdalinfo process: 250 processes took 12 minutes, the batch takes seconds),
each job's valgrind errors, GDAL errors and other stderr lines told apart by markers, the process
started again after a job that crashed or hung; the same assertions as without valgrind, plus no
valgrind error; and two gdalinfo processes of their own under valgrind (the tool's start and exit).
RUMI_HOSTILE_SHARD=k/n keeps the k-th of n shares of the GDAL cases (test-hostile.sh --valgrind
runs one share per core).
"""

import json
import os
import re
import subprocess
import time
from pathlib import Path

import pytest

import rumi_util
from conftest import STATE

RUMI = rumi_util.TARGET / "release" / "rumi"
VALGRIND = os.environ.get("RUMI_HOSTILE_VALGRIND") == "1"
TIMEOUT = 300 if VALGRIND else 60  # seconds: a hang, not a slow machine
AS_VALIDATE = 1 << 30  # bytes of address space for `rumi validate`
AS_GDAL = 2 << 30  # gdalinfo maps GDAL, PROJ and their data
SUBSET = os.environ.get("RUMI_HOSTILE_VALGRIND_SUBSET", "all")
# "k/n": this process runs the k-th of n shares of the GDAL cases (scripts/test-hostile.sh runs
# one process per core; valgrind runs a process on one core)
SHARD = tuple(int(x) for x in os.environ.get("RUMI_HOSTILE_SHARD", "0/1").split("/"))

CASES = STATE["cases"]
# lines gdalinfo itself prints around a driver's errors
GDAL_LINE = re.compile(r"^(ERROR \d+: |Warning \d+: |gdalinfo failed - unable to open )")
VALGRIND_CMD = ["valgrind", "--error-exitcode=99", "--quiet", "--trace-children=no"]
MARKER = "@@rumi-job "


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


def gdal_env():
    return dict(os.environ, GDAL_DRIVER_PATH=str(STATE["plugins"]), CPL_DEBUG="OFF", GDAL_PAM_ENABLED="NO")


def run_batch(jobs):
    """Runs `jobs` ([file, header, kind]) through gdal_batch.py under valgrind in one process,
    started again after the job a crash or hang stopped it at. Returns (per job: its result line,
    its valgrind lines, its other stderr lines, how it ended if it stopped the process; the
    lines outside every job; the exit status of each process)."""
    work = STATE["work"] / "batch"
    work.mkdir(exist_ok=True)
    (work / "jobs.json").write_text(json.dumps(jobs))
    results = work / "results.jsonl"
    env = dict(gdal_env(), PYTHONMALLOC="malloc")  # valgrind sees Python's own allocations
    per_job = {i: {"valgrind": [], "other": [], "ended": None} for i in range(len(jobs))}
    outside, codes, start = [], [], 0
    while start < len(jobs):
        err_path = work / f"stderr-{start}.txt"
        with open(err_path, "w") as err:
            p = subprocess.Popen(VALGRIND_CMD + [rumi_util.PYTHON, str(Path(__file__).parent / "gdal_batch.py"),
                                                 str(work / "jobs.json"), str(results)],
                                 stdout=subprocess.DEVNULL, stderr=err, cwd=STATE["corpus"],
                                 env=dict(env, RUMI_BATCH_START=str(start)))
            seen, since, hung = None, time.monotonic(), False
            while p.poll() is None:
                time.sleep(0.5)
                markers = [x for x in err_path.read_text(errors="replace").splitlines() if x.startswith(MARKER)]
                if markers[-1:] != seen:
                    seen, since = markers[-1:], time.monotonic()
                elif time.monotonic() - since > TIMEOUT:  # one job, not the whole batch
                    p.kill()
                    p.wait()
                    hung = True
        codes.append(p.returncode)
        job = None
        for line in err_path.read_text(errors="replace").splitlines():
            if line.startswith(MARKER):
                job = None if line == MARKER + "end" else int(line[len(MARKER):])
            elif job is None:
                outside.append(line)
            else:
                per_job[job]["valgrind" if line.startswith("==") else "other"].append(line)
        if job is None:  # ran to its end, or stopped before its first job
            if p.returncode not in (0, 99):
                outside.append(f"(the batch stopped before a job: {'no answer' if hung else p.returncode})")
            break
        per_job[job]["ended"] = f"no answer in {TIMEOUT} s" if hung else f"exit status {p.returncode}"
        start = job + 1
    for line in results.read_text().splitlines() if results.exists() else []:
        r = json.loads(line)
        per_job[r["job"]].update(r)
    return per_job, outside, codes


def batch():
    """This session's one valgrind batch (run at first use): every GDAL case of this shard through
    GDALInfo and the multidimensional API. Returns (results by (case, mode, kind), lines outside
    every job, the exit status of each process)."""
    if "batch" not in STATE:
        jobs, keys = [], []
        for kind in ("info", "multidim"):
            for p in gdal_cases():
                c, m = p.values
                name = ("RUMI:" if c["prefix"] and kind == "info" else "") + c["file"]
                jobs.append([name, "NONE" if m == "validated" else c["blob"], kind])
                keys.append((c["name"], m, kind))
        per_job, outside, codes = run_batch(jobs)
        STATE["batch"] = ({k: per_job[i] for i, k in enumerate(keys)}, outside, codes)
    return STATE["batch"]


def batch_result(case, mode, kind):
    """The job of this case, mode and kind in the valgrind batch, checked: it ran to its end, with
    no valgrind error."""
    results, outside, _ = batch()
    r = results[(case["name"], mode, kind)]
    assert r["ended"] is None, f"the job stopped its process ({r['ended']}):\n" + "\n".join(
        (r["valgrind"] + r["other"])[-60:])
    assert not r["valgrind"], "valgrind reported errors:\n" + "\n".join(r["valgrind"][-60:])
    assert "failed" in r, "the job did not run:\n" + "\n".join(outside[-60:])
    return r


@pytest.mark.parametrize("case,mode", gdal_cases())
def test_gdal(case, mode):
    name = ("RUMI:" if case["prefix"] else "") + case["file"]
    header = "NONE" if mode == "validated" else case["blob"]
    args = ["gdalinfo", "-checksum", "-oo", f"HEADER={header}", name]
    if VALGRIND:  # GDALInfo in the batch: its GDAL error lines, then any other stderr line (noise)
        r = batch_result(case, mode, "info")
        code, signalled, stderr = int(r["failed"]), False, r["errors"] + r["other"]
    else:
        code, signalled, stderr = run(args, "gdal", case["name"], mode, limit=AS_GDAL, env=gdal_env())
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


@pytest.mark.parametrize("case,mode", gdal_cases())
def test_gdal_multidim(case, mode):
    """The same case through GDAL's multidimensional API: open, then read every array."""
    header = "NONE" if mode == "validated" else case["blob"]
    if VALGRIND:
        r = batch_result(case, mode, "multidim")
        code, signalled, stderr = int(r["failed"]), False, r["errors"] + r["other"]
    else:
        args = [rumi_util.PYTHON, str(Path(__file__).parent / "read_multidim.py"), case["file"], header]
        code, signalled, stderr = run(args, "multidim", case["name"], mode, limit=AS_GDAL, env=gdal_env())
    assert not signalled and code in (0, 1), f"exit {code}: {stderr}"
    expect = case["gdal"] if mode == "validated" else case["stateless"]
    if expect and code == 1:
        text = "\n".join(stderr)
        assert any(e in text for e in expect) or "not recognized" in text or "not a supported" in text, stderr


@pytest.mark.skipif(not VALGRIND, reason="valgrind mode only")
def test_valgrind_outside_the_jobs():
    """The batch's interpreter start and exit have no valgrind error, and the gdalinfo tool itself
    (its start, one case, GDALDestroyDriverManager at exit) runs clean under valgrind: a case
    GDAL refuses and one it opens, each in a process of its own."""
    _, outside, codes = batch()
    assert not [x for x in outside if x.startswith("==")], "valgrind reported errors:\n" + "\n".join(outside[-60:])
    assert codes[-1:] in ([], [0]), f"the batch's last process ended with {codes[-1]}:\n" + "\n".join(outside[-60:])
    refused = next(c for c in CASES if c["gdal"])
    opened = next(c for c in CASES if not c["stateless"])
    for case, header in ((refused, "NONE"), (opened, opened["blob"])):
        name = ("RUMI:" if case["prefix"] else "") + case["file"]
        args = VALGRIND_CMD + ["gdalinfo", "-checksum", "-oo", f"HEADER={header}", name]
        code, signalled, stderr = run(args, "valgrind", case["name"], env=gdal_env())
        assert code != 99, "valgrind reported errors:\n" + "\n".join(stderr[-60:])
        assert not signalled and code in (0, 1), f"exit {code}: {stderr}"


def test_corpus_covers_every_section():
    """The corpus breaks rules of every part of the format."""
    prefixes = {c["name"].split("_")[0] for c in CASES}
    for section in ("header", "ifd", "placement", "samples", "frame", "offsets", "counts", "geo", "trailer",
                    "band", "time", "blob", "truncated", "absurd"):
        assert section in prefixes, section
    assert len(CASES) >= 100
    assert all(Path(STATE["corpus"], c["file"]).exists() for c in CASES)
