"""The loader half of the scale bench (issue 40, items 2, 3 and 5), run by bench/scale_bench.py.

1. **A chip dataset over N selected files** (`measure_dataset`). A partitioned catalogue of N
   rows (tiles of the land over years, as the catalogue half generates them) whose rows name 16
   real rumi files. Each real file is a year of 8 dates, 4 bands, 512 x 512, tiles of 128. Row i
   names real file i mod 16 and carries that file's header blob beside its part, so every read is
   real. In a fresh process: Catalog.open, a deferred search of every row, ChipDataset
   (streams=, the index planned shard by shard), a RandomChipSampler and ds.loader's first batch.
   Measured: the wall and CPU seconds (workers included) and the RSS added over the imports.
   Each DataLoader worker's unique memory (USS: the pages it does not share with the main
   process) is also measured.
2. **Ranks under torchrun with gloo** (`measure_ranks`): 1, 2 and 4 ranks over the same
   catalogue with streams=4. Each rank reads and plans only its shards (row groups read, files
   planned, RSS, first batch). Across world sizes: the same global order (the first keys of
   every rank, interleaved, against the 1-rank sequence), and resume at another world size (a
   state saved by rank 0 of 4 after 3 batches resumes 2 ranks; their keys are the 1-rank
   sequence's at the positions that follow).
3. **Egress and shuffle quality** (`measure_egress`). 64 real files on an 8 x 8 grid (the 16 of
   part 1 among them), a partitioned catalogue with row groups of 4 rows (16 shards), read with a decoded-frame cache of 128 MB per process against 1 GB of decoded
   frames. The epoch is a GridChipSampler of 192 x 192 chips at stride 160 (chips overlap:
   neighbours share tiles of 128). Four orders are compared: a full permutation, streams=4 with
   blocks of 1 file, and both again with 2 ranks that read their shares. The egress is the bytes
   fetched over the epoch by all ranks divided by the stored bytes of the distinct frames the
   epoch's chips need (1.0: each byte fetched once). The shuffle quality compares every window
   of 256 consecutive global keys with the same window of a full permutation of the same keys:
   the distinct files it holds, and the distance between the footprints of its keys (the mean
   over pairs of files of the grid distance, as a fraction of the full permutation's).
"""

from __future__ import annotations

import json
import math
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
PY = str(HERE.parent / "python")
sys.path.insert(0, PY)

REAL = 16  # the files the chip catalogue's rows name (the egress run reads EGRESS_FILES)
EGRESS_FILES = 64
CT, CB, CY, CTILE = 8, 4, 512, 128  # the real files: steps, bands, pixels, tile
BANDS = ["B02", "B03", "B04", "B08"]


def torch_python() -> str:
    """A python with torch: this one, or the torch venv of scripts/test-torch.sh."""
    try:
        import torch  # noqa: F401

        return sys.executable
    except ImportError:
        p = Path(os.environ.get("RUMI_TORCH_VENV", Path.home() / ".cache/rumi/venvs/torch-py3.11")) / "bin/python"
        if not p.exists():
            raise SystemExit(f"the loader half needs torch: no torch here and no {p} (scripts/test-torch.sh builds it)")
        return str(p)


def write_real(folder: Path, n: int = REAL) -> list[dict]:
    """n real rumi files (8 dates of 2020, 4 bands, 512 x 512 uint16, tiles of 128; smooth
    fields plus noise): their paths, header blobs, sizes and times."""
    import rumi
    from affine import Affine

    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(7)
    out = []
    times = [f"2020-{m + 1:02d}-15T10:30:00" for m in range(CT)]
    for k in range(n):
        p = folder / f"real{k:03d}.rumi"
        base = rng.integers(0, 3000, (CT, CB, CY // 8, CY // 8)).astype(np.float32)
        a = (np.repeat(np.repeat(base, 8, 2), 8, 3) + rng.integers(0, 200, (CT, CB, CY, CY))).astype(np.uint16)
        if p.exists():  # written by an earlier run (--keep): the same content
            with rumi.open(p) as d:
                blob = d.header
        else:
            blob = rumi.write(p, a, bands=BANDS, times=times, crs="EPSG:32633", tile=CTILE,
                              transform=Affine(10, 0, 500000 + 5120 * (k % 8), 0, -10, 5100000 - 5120 * (k // 8)))
        out.append({"path": str(p), "blob": bytes(blob), "size": os.path.getsize(p),
                    "times": [int(np.datetime64(t, "s").astype(np.int64)) for t in times]})
    return out


def chip_table(tiles, idx: np.ndarray, year: int, real: list[dict], blob_off: np.ndarray):
    """Catalogue rows (part schema) of tiles idx in one year, row i naming real file i mod 16
    (its shape, times shifted to the year, size, blob beside: offset blob_off[k])."""
    import pyarrow as pa
    import scale_bench as sb

    n = len(idx)
    k = idx % len(real)
    ts = pa.timestamp("us", tz="UTC")
    shift = int(np.datetime64(f"{year}-01-01", "s").astype(np.int64) - np.datetime64("2020-01-01", "s").astype(np.int64))
    secs = np.array([r["times"] for r in real], np.int64)[k] + shift  # (n, CT)
    off = (np.arange(n + 1) * CT).astype(np.int32)
    times = pa.ListArray.from_arrays(pa.array(off), pa.array(secs.ravel() * 1_000_000, ts))
    x0 = 500000.0 + 5120.0 * (k % 8)
    y0 = 5100000.0 - 5120.0 * (k // 8)
    tr = np.stack([np.full(n, 10.0), np.zeros(n), x0, np.zeros(n), np.full(n, -10.0), y0], 1).ravel()
    sizes = np.array([len(r["blob"]) for r in real], np.int64)
    return sb.part_rows(tiles, idx, year=year, hrefs=pa.array(np.array([r["path"] for r in real], object)[k], pa.string()),
                        times=times, start=secs[:, 0] * 1_000_000, end=secs[:, -1] * 1_000_000,
                        codes=np.full(n, "EPSG:32633", object), transforms=tr,
                        shapes=np.tile(np.array([CT, CB, CY, CY], np.int64), n), tile=CTILE,
                        file_sizes=np.array([r["size"] for r in real], np.int64)[k],
                        valid=np.full(n * CB * (CY // CTILE) ** 2, 255, np.uint8),
                        header_offsets=blob_off[k], header_sizes=sizes[k])


def write_chip_catalogue(folder: Path, rows: int, real: list[dict]) -> dict:
    """A partitioned catalogue of `rows` rows over the real files (scale_bench's tiling and
    years), each part's .headers holding the real files' blobs."""
    import scale_bench as sb

    from rumi.catalog import write_parts

    tiles_n, years = sb.plan(rows)
    tiles = sb.Tiles(tiles_n)
    blobs = b"".join(r["blob"] for r in real)
    blob_off = np.cumsum([0] + [len(r["blob"]) for r in real])[:-1].astype(np.int64)
    t0 = time.perf_counter()
    done = 0
    for y in range(years):
        n = min(tiles_n, rows - done)
        for p in write_parts(chip_table(tiles, np.arange(n), sb.FIRST_YEAR + y, real, blob_off), str(folder)):
            Path(p[: -len(".parquet")] + ".headers").write_bytes(blobs)
        done += n
    return {"rows": done, "write_s": time.perf_counter() - t0, "parts": len(list(folder.glob("*.parquet"))),
            "parquet_mb": sum(p.stat().st_size for p in folder.glob("*.parquet")) / 1e6}


# -- 1. one process ---------------------------------------------------------------------------------
CHILD = r"""
import json, os, sys, time
sys.path.insert(0, {py!r})
import psutil
proc = psutil.Process()
def rss(p=proc): return p.memory_info().rss
def cpu_all():
    t = proc.cpu_times(); s = t.user + t.system
    for c in proc.children(recursive=True):
        try:
            ct = c.cpu_times(); s += ct.user + ct.system
        except psutil.Error:
            pass
    return s
import numpy, pyarrow, pyarrow.dataset, shapely, pyproj, torch
import rumi, rumi.torch as rt
out = dict(base_rss_mb=rss() / 1e6)
workers, streams, length, size = {workers!r}, {streams!r}, {length!r}, {size!r}
if workers:
    import multiprocessing as mp
    mp.set_start_method({method!r}, force=True)
r0, c0, t0 = rss(), cpu_all(), time.perf_counter()
cat = rumi.Catalog.open({url!r})
sel = cat.search(defer=True)
ds = rt.ChipDataset(sel, size=size, bands={bands!r}, streams=streams, rank=0 if streams else None, world_size=1 if streams else None)
out.update(plan_s=time.perf_counter() - t0, plan_cpu_s=cpu_all() - c0, plan_rss_mb=(rss() - r0) / 1e6, files=ds.num_files,
           groups_read=cat.groups_read, groups=cat.num_groups, spilled=type(ds.index.cols["rows"]).__name__ == "memmap")
t1 = time.perf_counter()
s = rt.RandomChipSampler(ds, length=length, seed=0, align=True)
out["sampler_s"] = time.perf_counter() - t1
loader = ds.loader(s, batch_size=16, num_workers=workers, pin_memory=False)
it = iter(loader)
b = next(it)
out.update(first_batch_s=time.perf_counter() - t0, first_cpu_s=cpu_all() - c0, rss_mb=rss() / 1e6, added_rss_mb=(rss() - r0) / 1e6,
           batch_mb=b["image"].numel() * b["image"].element_size() / 1e6, size=size)
kids = proc.children(recursive=True)
if workers:
    info = [c.memory_full_info() for c in kids]
    out["worker_uss_mb"] = [round(i.uss / 1e6, 1) for i in info]
    out["worker_rss_mb"] = [round(i.rss / 1e6, 1) for i in info]
t2 = time.perf_counter()
for _ in range(9):
    b = next(it)
out["next_batch_s"] = (time.perf_counter() - t2) / 9
out["peak_rss_mb"] = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM")) / 1e3
if workers:
    out["worker_uss_after_10_mb"] = [round(c.memory_full_info().uss / 1e6, 1) for c in kids]
print("RESULT " + json.dumps(out))
"""


def measure_dataset(python: str, url: str, *, workers: int = 0, method: str = "fork", streams: int | None = 4,
                    length: int = 1_000_000, size: int = 256) -> dict:
    code = CHILD.format(py=PY, url=url, workers=workers, method=method, streams=streams, length=length, bands=BANDS, size=size)
    r = subprocess.run([python, "-c", code], capture_output=True, text=True, timeout=3600)
    if r.returncode:
        raise SystemExit(f"measuring the dataset failed:\n{r.stderr[-3000:]}")
    return json.loads([x for x in r.stdout.splitlines() if x.startswith("RESULT ")][-1][7:])


def imports_baseline(python: str) -> dict:
    """RSS and USS of a process that imported what the measurements import (torch's CUDA build
    alone is most of it: a spawned DataLoader worker imports it again), and of torch alone."""
    code = ("import psutil, sys; sys.path.insert(0, %r); import numpy, pyarrow, pyarrow.dataset, shapely, pyproj, torch; "
            "import rumi, rumi.torch; i = psutil.Process().memory_full_info(); print(i.rss / 1e6, i.uss / 1e6)" % PY)
    rss, uss = (float(v) for v in subprocess.run([python, "-c", code], capture_output=True, text=True, check=True).stdout.split())
    torch_only = float(subprocess.run([python, "-c", "import psutil, torch; print(psutil.Process().memory_info().rss / 1e6)"],
                                      capture_output=True, text=True, check=True).stdout)
    return {"imports_rss_mb": rss, "imports_uss_mb": uss, "torch_rss_mb": torch_only}


# -- 2. ranks under torchrun -------------------------------------------------------------------------
RANK = r"""
import json, os, sys, time
sys.path.insert(0, {py!r})
import psutil
import numpy, pyarrow, pyarrow.dataset, shapely, pyproj, torch, torch.distributed as dist
import rumi, rumi.torch as rt
from rumi.torch.streams import positions
proc = psutil.Process()
dist.init_process_group("gloo")
r, w = dist.get_rank(), dist.get_world_size()
out = dict(rank=r, world=w)
r0, t0 = proc.memory_info().rss, time.perf_counter()
c0 = sum(proc.cpu_times()[:2])
cat = rumi.Catalog.open({url!r})
ds = rt.ChipDataset(cat.search(defer=True), size=256, bands={bands!r}, streams={streams!r})
out.update(plan_s=time.perf_counter() - t0, files=ds.num_files, groups_read=cat.groups_read, groups=cat.num_groups,
           shards=len(set(ds.index.shard.tolist())), num_shards=ds.index.num_shards, plan_rss_mb=(proc.memory_info().rss - r0) / 1e6)
s = rt.RandomChipSampler(ds, length={length!r}, seed=0, align=True)
loader = ds.loader(s, batch_size=16)
it = iter(loader)
b = next(it)
out.update(first_batch_s=time.perf_counter() - t0, rss_mb=proc.memory_info().rss / 1e6, added_rss_mb=(proc.memory_info().rss - r0) / 1e6)
for _ in range(2):
    b = next(it)
out["cpu_s"] = sum(proc.cpu_times()[:2]) - c0
state = loader.state_dict()  # after 3 batches
fid = ds.index.fid
keys = []
sampler = rt.RandomChipSampler(ds, length={length!r}, seed=0, align=True)
for k, (j, r0_, c0_) in enumerate(sampler):
    keys.append([int(fid[j]), r0_, c0_])
    if k + 1 == {first_n!r}:
        break
out["first_keys"] = keys
files_read = sorted({{int(fid[j]) >> 32 for j, _, _ in b["key"]}})
out["batch_shards"] = files_read
if {resume!r}:
    st = json.load(open({resume!r}))
    sampler.load_state_dict(st)
    P = st.get("offset", 0) + st["yielded"] * st["world_size"]
    got = []
    for k, (j, r0_, c0_) in enumerate(sampler):
        got.append([int(fid[j]), r0_, c0_])
        if k + 1 == {first!r}:
            break
    out["resumed_from"] = P
    out["resumed_keys"] = got
    out["resumed_positions"] = list(positions(sampler.epoch_length(), P, r, w))[:len(got)]
elif r == 0:
    json.dump(state, open({state_out!r}, "w"))
json.dump(out, open({out_path!r} + f".{{r}}.json", "w"))
dist.destroy_process_group()
"""


def measure_ranks(python: str, url: str, work: Path, worlds: tuple[int, ...] = (1, 2, 4), streams: int = 4,
                  length: int = 1_000_000, first: int = 64) -> dict:
    """torchrun --standalone at each world size: per rank its plan and first batch; then the
    global order and resume checks (see the module's notes)."""
    res: dict = {}
    state = work / "state4.json"
    for w in sorted(worlds, reverse=True):  # 4 first: its state resumes the others
        script = work / f"rank{w}.py"
        resume = str(state) if w != max(worlds) and state.exists() else ""
        script.write_text(RANK.format(py=PY, url=url, bands=BANDS, streams=streams, length=length, first=first,
                                      first_n=first if w > 1 else 4096,
                                      resume=resume, state_out=str(state), out_path=str(work / f"ranks{w}")))
        env = dict(os.environ, OMP_NUM_THREADS="1")
        t0 = time.perf_counter()
        r = subprocess.run([python, "-m", "torch.distributed.run", "--standalone", f"--nproc-per-node={w}", str(script)],
                           capture_output=True, text=True, timeout=3600, env=env)
        if r.returncode:
            raise SystemExit(f"torchrun at {w} ranks failed:\n{r.stderr[-4000:]}")
        res[w] = {"wall_s": time.perf_counter() - t0, "ranks": [json.load(open(work / f"ranks{w}.{k}.json")) for k in range(w)]}
    one = res[1]["ranks"][0]["first_keys"]
    checks = {}
    for w, x in res.items():
        ranks = x["ranks"]
        n = min(len(q["first_keys"]) for q in ranks)
        inter = [ranks[k % w]["first_keys"][k // w] for k in range(n * w)]
        checks[w] = {"same_order": inter == one[: n * w], "compared": n * w}
        own = [sorted({s for s in q["batch_shards"]}) for q in ranks]
        checks[w]["batch_shards_own"] = all(all(s % math.gcd(w, streams) == q["rank"] % math.gcd(w, streams) for s in sh)
                                            for q, sh in zip(ranks, own))
        if "resumed_keys" in ranks[0]:
            ok = all(q["resumed_keys"] == [one_full for one_full in _at(res, q["resumed_positions"])] for q in ranks)
            checks[w]["resume_exact"] = ok
            checks[w]["resumed_from"] = ranks[0]["resumed_from"]
    res["checks"] = checks
    return res


def _at(res: dict, positions: list[int]) -> list:
    """The 1-rank keys at global positions (from its recorded first keys)."""
    one = res[1]["ranks"][0]["first_keys"]
    return [one[p] if p < len(one) else None for p in positions]


# -- 3. egress and shuffle quality -------------------------------------------------------------------
EGRESS = r"""
import json, sys, time
sys.path.insert(0, {py!r})
import numpy as np, torch
import rumi, rumi.torch as rt
cat = rumi.Catalog.open({cat!r})
res = {{}}
def run(order, world):
    fetched = needed = 0
    keys_all = []
    for r in range(world):
        if order == "streams":
            ds = rt.ChipDataset(cat, size=192, bands={bands!r}, cache_bytes={cache!r}, streams=4, rank=r, world_size=world)
            s = rt.GridChipSampler(ds, stride=160, shuffle=True, seed=1, block=1, length=res["epoch"])
        else:
            ds = rt.ChipDataset(cat, size=192, bands={bands!r}, cache_bytes={cache!r})
            s = rt.GridChipSampler(ds, stride=160, shuffle=True, seed=1, rank=r, world_size=world)
        loader = ds.loader(s, batch_size=16)
        t0 = time.perf_counter()
        for b in loader:
            fetched += b["stats"]["bytes_fetched"]
            keys_all.append([(ds.index.ids[j], r0, c0, r) for j, r0, c0 in b["key"]])
        res.setdefault("read_s", {{}})[f"{{order}}-{{world}}"] = time.perf_counter() - t0
    return fetched, keys_all
# the stored bytes of the distinct frames the epoch needs
ds0 = rt.ChipDataset(cat, size=192, bands={bands!r})
full = rt.GridChipSampler(ds0, stride=160, shuffle=True, seed=1)
need = set()
sizes = {{}}
for j, r0, c0 in full:
    h = ds0.index.hrefs[j]
    d = sizes.get(h)
    if d is None:
        d = sizes[h] = rumi.open(h)
    for f in d.frames_for(None, None, rumi.Window(c0, r0, 192, 192)):
        need.add((h, f))
needed = sum(sizes[h].frame_range(f)[1] for h, f in need)  # (offset, length)
res["distinct_frame_bytes"] = needed
res["epoch"] = full.epoch_length()
for order in ("full", "streams"):
    for world in (1, 2):
        f, keys = run(order, world)
        res[f"{{order}}-{{world}}"] = dict(fetched=f, keys=sum(len(k) for k in keys))
        if world == 1:
            res[f"keys-{{order}}"] = [k[:3] for b in keys for k in b]
print("RESULT " + json.dumps(res))
"""


def write_egress_catalogue(work: Path, real: list[dict]) -> str:
    """The real files as a partitioned catalogue of row groups of 4 rows (16 shards of 64 files)."""
    import rumi
    from rumi.catalog import write_parts

    d = work / "egress"
    shutil.rmtree(d, ignore_errors=True)
    cat = rumi.Catalog.build([r["path"] for r in real], work / "egress.parquet")
    write_parts(cat.table, str(d), rows_per_group=4)
    return str(d) + "/"


def shuffle_quality(keys: list, ref: list, centres: dict, window: int = 256) -> dict:
    """Windows of `window` consecutive keys of `keys` against the same windows of `ref` (a full
    permutation of the same keys): distinct files per window, and the mean distance between
    the windows' files, each as a fraction of the full permutation's."""
    def stats(seq):
        files, dist = [], []
        for a in range(0, len(seq) - window + 1, window):
            w = seq[a:a + window]
            f = sorted({k[0] for k in w})
            files.append(len(f))
            xy = np.array([centres[x] for x in f], float)
            if len(xy) > 1:
                dd = np.sqrt(((xy[:, None, :] - xy[None, :, :]) ** 2).sum(-1))
                dist.append(dd.sum() / (len(xy) * (len(xy) - 1)))
            else:
                dist.append(0.0)
        return np.mean(files), np.mean(dist)

    f1, d1 = stats(keys)
    f0, d0 = stats(ref)
    return {"files_per_window": f1, "files_per_window_full": f0, "files_ratio": f1 / f0, "spread_ratio": d1 / d0 if d0 else float("nan")}


def measure_egress(python: str, work: Path, real: list[dict], cache_mb: int = 128) -> dict:
    cat = write_egress_catalogue(work, real)
    code = EGRESS.format(py=PY, cat=cat, bands=BANDS, cache=cache_mb << 20)
    r = subprocess.run([python, "-c", code], capture_output=True, text=True, timeout=3600)
    if r.returncode:
        raise SystemExit(f"the egress run failed:\n{r.stderr[-3000:]}")
    res = json.loads([x for x in r.stdout.splitlines() if x.startswith("RESULT ")][-1][7:])
    centres = {f"real{k:03d}": (k % 8, k // 8) for k in range(len(real))}  # their places on the grid of 5120 m
    full, streams = res.pop("keys-full"), res.pop("keys-streams")
    res["quality"] = shuffle_quality([tuple(k) for k in streams], [tuple(k) for k in full], centres)
    res["quality_full_self"] = shuffle_quality([tuple(k) for k in full], [tuple(k) for k in full], centres)
    for k in ("full-1", "full-2", "streams-1", "streams-2"):
        res[k]["egress"] = res[k]["fetched"] / res["distinct_frame_bytes"]
    return res
