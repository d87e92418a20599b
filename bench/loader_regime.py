"""The loader's small-collection regime at 0 workers (issue 48), builds side by side.

60 pieces of 512 x 512 x 3 uint16 cut from the Landsat 8 scene (bench/chip_bench.py's cut(), with
their uint8 masks), 384 random unaligned 256 x 256 chips (chips share tiles: the decoded frames
are served again), batch 16, `ds.loader(keys, batch_size=16)` at 0 workers, against rasterio
reading the same windows of ZSTD-9 + predictor tiled GeoTIFFs kept open (GDAL's block cache; the
best peer of chip_bench.py in this regime). Figure: chips per CPU-second (getrusage of the
process: every thread), per run; min / median / max over the runs; rumi / rasterio of the
medians, the two measured in the same process, alternately.

Each --python is an interpreter whose `import rumi` is the build under test (a venv of another
commit: `python -m venv --system-site-packages` from the torch venv, `pip install --no-deps
<worktree>/python`); their processes run in rotation, --rounds times, on one collection cut once,
so that a loaded shared machine weighs on every build alike (each process warms up with one unmeasured pass of each). Only ratios
measured in one run compare. torch runs one intra-op thread (see worker()).

    V=~/.cache/rumi/venvs/torch-py3.11
    $V/bin/python bench/loader_regime.py                       # this build, 4 rounds
    $V/bin/python bench/loader_regime.py --python old=/work/old-venv/bin/python --python head=$V/bin/python
    $V/bin/python bench/loader_regime.py --data DIR --graph fast     # the images written with graph="fast"

--graph G writes the collection's images again with rumi.write(graph=G) (in DIR/graph-G, once) and
reads those: the regime with a writer setting other than the default, beside the same rasterio.
"""

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _cpu():
    s = resource.getrusage(resource.RUSAGE_SELF)
    return s.ru_utime + s.ru_stime


def keys_of(n_files, chips, piece=512, size=256, seed=0):
    """chips random unaligned (file, row, col) keys, the same for every build."""
    import numpy as np

    rng = np.random.default_rng(seed)
    return [(int(rng.integers(n_files)), int(rng.integers(piece - size + 1)), int(rng.integers(piece - size + 1)))
            for _ in range(chips)]


def worker(args):
    """One process of one build: --reps alternations of rumi and rasterio; JSON on stdout."""
    import numpy as np
    import torch

    import rumi
    import rumi.torch as rt

    # rasterio's batches are stacked by default_collate: with torch's intra-op threads (one per
    # core) spinning after each stack, rasterio took 5-7x the CPU per chip on the loaded 2-core
    # machine. One thread, as a tuned user (and every DataLoader worker) has; rumi's batches are
    # written in place by its own threads and do not stack.
    torch.set_num_threads(1)
    sys.path.insert(0, str(HERE))
    from chip_bench import RasterioPairs

    files = json.loads((Path(args.data) / "files.json").read_text())
    tmp = Path(tempfile.mkdtemp(prefix="rumi-loader-regime-"))
    cat = rumi.Catalog.build(files["rumi"], tmp / "cat.parquet")
    mcat = rumi.Catalog.build(files["rumi_mask"], tmp / "mcat.parquet") if args.masks else None
    keys = keys_of(len(files["rumi"]), args.chips)

    def run(loader):
        c0 = _cpu()
        n = 0
        for b in loader:
            n += b["image"].shape[0]
        return n / max(_cpu() - c0, 1e-9)

    def rumi_run():
        ds = rt.ChipDataset(cat, size=256, labels=mcat)  # fresh readers: nothing cached from a previous run
        return run(ds.loader(keys, batch_size=args.batch))

    imgs, msks = files["tif_zstd"], files["tif_zstd_mask"] if args.masks else None

    class Images(RasterioPairs):
        def __getitem__(self, key):
            j, r, c = key
            from rasterio.windows import Window

            return {"image": torch.from_numpy(self._read(self.images[j], Window(c, r, self.size, self.size))[np.newaxis])}

    def rasterio_run():
        ds = (RasterioPairs if args.masks else Images)(imgs, msks, 256, True)  # kept open within the run
        return run(torch.utils.data.DataLoader(ds, batch_size=args.batch, sampler=keys, num_workers=0))

    # the same pixels (first batch), or the figures mean nothing
    ds = rt.ChipDataset(cat, size=256, labels=mcat)
    b = ds.__getitems__(keys[:args.batch])
    ref = RasterioPairs(imgs, files["tif_zstd_mask"], 256, False)
    for i, k in enumerate(keys[:args.batch]):
        want = ref[k]
        assert torch.equal(b["image"][i], want["image"]), k
        if args.masks:
            assert torch.equal(b["mask"][i], want["mask"]), k
    out = {"rumi": [], "rasterio": [], "rumi_file": rumi.__file__}
    rumi_run(), rasterio_run()  # warm-up, not counted (the first pass of a process pays its lazy imports)
    for _ in range(args.reps):
        out["rumi"].append(rumi_run())
        out["rasterio"].append(rasterio_run())
    print(json.dumps(out))


def regraph(data, graph):
    """data/graph-<graph>: the collection with its images written again with graph= (once); returns that folder."""
    import rumi

    out = data / f"graph-{graph}"
    if (out / "files.json").exists():
        return out
    out.mkdir(exist_ok=True)
    files = json.loads((data / "files.json").read_text())
    images = []
    for f in files["rumi"]:
        with rumi.open(f) as ds:
            arr, crs, gt, (th, tw) = ds.read()[0], ds.crs, ds.geotransform, ds.tile_shape
        p = out / Path(f).name
        # what chip_bench.cut() writes, but the graph
        rumi.write(p, arr, bands=["b1", "b2", "b3"], times=["2020-05-18"], crs=crs, geotransform=gt, tile=(th, tw),
                   graph=graph)
        Path(f"{p}.header").unlink(missing_ok=True)
        images.append(str(p))
    (out / "files.json").write_text(json.dumps({**files, "rumi": images}))
    print(f"images written with graph={graph!r} in {out}", flush=True)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--python", action="append", default=[],
                    help="NAME=INTERPRETER of a build under test (repeatable; default: this interpreter as 'this')")
    ap.add_argument("--rounds", type=int, default=4, help="processes per build, in rotation")
    ap.add_argument("--reps", type=int, default=2, help="rumi / rasterio alternations per process")
    ap.add_argument("--pieces", type=int, default=60)
    ap.add_argument("--chips", type=int, default=384)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--images-only", dest="masks", action="store_false", help="images without their masks")
    ap.add_argument("--data", help="folder of a collection cut by an earlier run (files.json), else a fresh one")
    ap.add_argument("--graph", help="read the images written again with rumi.write(graph=GRAPH) (default: as cut)")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        return worker(args)
    builds = dict(p.split("=", 1) for p in args.python) or {"this": sys.executable}
    if args.data and (Path(args.data) / "files.json").exists():
        data = Path(args.data)
    else:
        sys.path.insert(0, str(HERE))
        from chip_bench import SCENE, cut

        if not SCENE.exists():
            sys.exit(f"{SCENE} is absent")
        data = Path(args.data or tempfile.mkdtemp(prefix="rumi-loader-regime-data-"))
        data.mkdir(parents=True, exist_ok=True)
        t = time.perf_counter()
        files = cut(data, args.pieces)
        (data / "files.json").write_text(json.dumps({k: v for k, v in files.items() if k != "days"}))
        print(f"collection: {args.pieces} pieces in {data} ({time.perf_counter() - t:.1f} s)", flush=True)
    if args.graph:
        data = regraph(data, args.graph)
    print(f"{args.pieces} pieces, {args.chips} chips, batch {args.batch}, {'images + masks' if args.masks else 'images'}, "
          f"0 workers; {os.cpu_count()} cores, load {os.getloadavg()[0]:.2f} at start", flush=True)
    res = {name: {"rumi": [], "rasterio": []} for name in builds}
    names = list(builds)
    for rnd in range(args.rounds):
        order = names[rnd % len(names):] + names[:rnd % len(names)]
        for name in order:
            cmd = [builds[name], __file__, "--worker", "--data", str(data), "--chips", str(args.chips),
                   "--batch", str(args.batch), "--reps", str(args.reps)] + ([] if args.masks else ["--images-only"])
            r = subprocess.run(cmd, capture_output=True, text=True, cwd="/")
            if r.returncode != 0:
                sys.exit(f"{name}: {r.stderr[-3000:]}")
            j = json.loads(r.stdout.strip().splitlines()[-1])
            res[name]["rumi"] += j["rumi"]
            res[name]["rasterio"] += j["rasterio"]
            print(f"round {rnd + 1} {name} ({j['rumi_file']}): rumi " + ", ".join(f"{v:,.0f}" for v in j["rumi"])
                  + "; rasterio " + ", ".join(f"{v:,.0f}" for v in j["rasterio"]) + " chips per CPU-second", flush=True)
    print("chips per CPU-second, min / median / max; rumi / rasterio of the medians (the same processes):")
    for name in names:
        r, g = res[name]["rumi"], res[name]["rasterio"]
        print(f"  {name}: rumi {min(r):,.0f} / {statistics.median(r):,.0f} / {max(r):,.0f}; rasterio-kept-zstd "
              f"{min(g):,.0f} / {statistics.median(g):,.0f} / {max(g):,.0f}; "
              f"rumi / rasterio {statistics.median(r) / statistics.median(g):.2f}x")
    if len(names) > 1:
        base = statistics.median(res[names[0]]["rumi"])
        print("  rumi median against " + names[0] + ": "
              + ", ".join(f"{n} {statistics.median(res[n]['rumi']) / base:.2f}x" for n in names[1:]))
    print(f"load at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
