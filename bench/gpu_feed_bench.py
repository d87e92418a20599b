"""Feeding a GPU (issue 35, item 5): what a random chip costs the loader, by the tile size a
training collection is written with and the sampler's alignment, and what the training
process pays per batch with the loader's settings; with --gpu (CUDA), the share of a ResNet-50
bf16 step ceiling the loader keeps.

Data: --files pieces of 512 x 512 x 3 uint16 cut from the real Landsat 8 scene of
../shared/data (as bench/chip_bench.py), written with rumi.write at each tile size of --tiles
(its other defaults). Chips: random 256 x 256, batch --batch.

Figures (one table per part, all from this run):
  1. size: MiB of the collection per tile size (the size cost of smaller tiles);
  2. decode per chip: decoded bytes per delivered chip byte (frames decoded x their decoded
     size / chip bytes), frames per chip and chips/s of the loader alone (0 workers, every
     core), for RandomChipSampler with and without align=True, with frames not kept across
     batches (keep_cache=False: a collection larger than the caches, as the H200 run) and
     with the default cache (512 MiB per process);
  3. loader settings: chips/s and CPU-seconds of the training process per batch (getrusage of
     the process: its read-ahead threads count, its workers do not) and of the workers, for
     0 workers (read-ahead) and for the workers of ChipDataset.loader's CUDA defaults
     (prefetch 4; pinned memory where CUDA is);
  4. --gpu: ResNet-50 (torchvision's, or the same architecture here), bf16 autocast,
     channels-last, SGD, batch --batch: images/s of the step alone on a batch already on the
     GPU, then fed by ChipDataset.loader with its defaults (uint16 chips copied with
     non_blocking, scaled to float on the GPU): the fraction of the ceiling, the training
     process's CPU-seconds per batch and the decoded bytes per chip byte, at tile 256 and the
     training tile (--tile, 64), any offset and align=True, frames kept or not.

    V=~/.cache/rumi/venvs/torchgeo-py3.12
    PYTHONPATH=python $V/bin/python bench/gpu_feed_bench.py            # parts 1-3 (CPU)
    PYTHONPATH=python python bench/gpu_feed_bench.py --gpu             # part 4 alone: one table (< 5 min on an H200)
    PYTHONPATH=python python bench/gpu_feed_bench.py --gpu --parts 1,2,3   # all four

Noisy on a shared 2-core machine: compare ratios measured in one run.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import torch

import rumi
import rumi.torch as rt
from rumi.torch.loader import gpu_defaults, loader_workers

DATA = Path(os.environ.get("RUMI_DATA_DIR", Path(__file__).resolve().parents[2] / "shared" / "data"))
if not DATA.is_dir():
    DATA = Path("/work/shared/data")
SCENE = DATA / "landsat8_LC08_L1TP_224078_20200518_3band_uint16.tif"
CHIP = 256


def scene() -> tuple[np.ndarray, tuple[float, ...], int]:
    """The Landsat 8 scene's pixels (3, Y, X) uint16, its GDAL transform and EPSG code."""
    import rasterio  # the scene is a GeoTIFF

    with rasterio.open(SCENE) as src:
        return src.read(), src.transform.to_gdal(), int(src.crs.to_epsg())


def cut(out: Path, n: int, tile: int, a: np.ndarray, gt: tuple[float, ...], epsg: int, piece: int = 512) -> list[str]:
    """n pieces of the scene (the positions of chip_bench.cut) written with rumi.write at tile."""
    _, Y, X = a.shape
    pos = [(r, c) for r in range(0, Y - piece + 1, 64) for c in range(0, X - piece + 1, 64)]
    rng = np.random.default_rng(0)
    pos = [pos[i] for i in rng.permutation(len(pos))[:n]]
    paths = []
    for k, (r, c) in enumerate(pos):
        t = (gt[0] + c * gt[1], gt[1], 0.0, gt[3] + r * gt[5], 0.0, gt[5])
        p = out / f"t{tile}_{k:04d}.rumi"
        rumi.write(p, np.ascontiguousarray(a[:, r:r + piece, c:c + piece]), bands=["b1", "b2", "b3"],
                   times=["2020-05-18"], crs=f"EPSG:{epsg}", geotransform=t, tile=tile)
        os.unlink(f"{p}.header")
        paths.append(str(p))
    return paths


def frame_bytes(cat: rumi.Catalog) -> int:
    """Decoded bytes of one frame of the (uniform) collection: a tile of one band (units 0, 9)
    or of every band (cells)."""
    row = cat.row(0)
    th, tw = row["rumi:tile_shape"]
    _, B, _, _ = row["rumi:shape"]
    unit = int(row["rumi:frame_unit"])
    return int(th) * int(tw) * 2 * (1 if unit in (0, 9) else int(B))


def cpu_self() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def cpu_children() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(loader: torch.utils.data.DataLoader) -> dict[str, float]:
    """One pass: chips/s, training-process and worker CPU-seconds per batch, frames decoded."""
    t0, s0, c0 = time.perf_counter(), cpu_self(), cpu_children()
    n = batches = decoded = frames = 0
    for b in loader:
        n += b["image"].shape[0]
        batches += 1
        st = b.get("stats")
        if st is not None:
            decoded += st["decoded"]
            frames += st["frames"]
    wall = time.perf_counter() - t0
    it = getattr(loader, "_iterator", None)
    if it is not None:
        it._shutdown_workers()  # persistent workers: joined, so that their CPU is in RUSAGE_CHILDREN
    del loader, it
    return {"chips_s": n / wall, "train_cpu": (cpu_self() - s0) / batches, "worker_cpu": (cpu_children() - c0) / batches,
            "decoded": decoded, "frames": frames, "chips": n, "batches": batches}


def touched(cat: rumi.Catalog, keys: list[tuple[int, int, int]]) -> float:
    """Mean tile locations a chip of keys covers (what it decodes read alone)."""
    th, tw = (int(v) for v in cat.row(0)["rumi:tile_shape"])
    n = [((r + CHIP - 1) // th - r // th + 1) * ((c + CHIP - 1) // tw - c // tw + 1) for _, r, c in keys]
    return float(np.mean(n))


def decode_table(cats: dict[int, rumi.Catalog], args: argparse.Namespace) -> None:
    print(f"\n## decode per chip: random {CHIP}x{CHIP} chips from {args.files} files, {args.chips} per run, batch "
          f"{args.batch}, 0 workers, median of {args.repeats}")
    print("decoded bytes per delivered chip byte: a chip read alone (the tiles it covers), and as the loader read them: "
          "frames shared within a batch only (keep_cache=False), or kept across batches (the default 512 MiB cache)")
    print("| tile | sampler | tiles per chip | decoded / chip bytes, alone | in batches | kept across batches | "
          "chips/s (in batches / kept) | CPU-s per batch (in batches / kept) |")
    print("|---|---|---|---|---|---|---|---|")
    for tile, cat in cats.items():
        fb = frame_bytes(cat)
        cell = fb // (tile * tile * 2)  # bands per frame
        for align in (False, True):
            res: dict[bool, list[dict[str, float]]] = {}
            keys: list[tuple[int, int, int]] = []
            for _ in range(args.repeats):
                for keep in (False, True):
                    ds = rt.ChipDataset(cat, size=CHIP, keep_cache=keep)
                    s = rt.RandomChipSampler(ds, length=args.chips, seed=1, align=align)
                    keys = list(s)
                    res.setdefault(keep, []).append(run(ds.loader(s, batch_size=args.batch, num_workers=0)))
            per_chip = touched(cat, keys)
            alone = per_chip * tile * tile * cell * 2 / (CHIP * CHIP * 3 * 2) * (3 // cell if cell < 3 else 1)
            amp = {k: v[0]["decoded"] * fb / (v[0]["chips"] * CHIP * CHIP * 3 * 2) for k, v in res.items()}
            med = {k: (statistics.median(x["chips_s"] for x in v), statistics.median(x["train_cpu"] for x in v))
                   for k, v in res.items()}
            print(f"| {tile} | {'align=True' if align else 'any offset'} | {per_chip:.2f} | {alone:.2f} | "
                  f"{amp[False]:.2f} | {amp[True]:.2f} | {med[False][0]:,.0f} / {med[True][0]:,.0f} | "
                  f"{med[False][1] * 1e3:.0f} / {med[True][1] * 1e3:.0f} ms |", flush=True)


def settings_table(cats: dict[int, rumi.Catalog], tile: int, args: argparse.Namespace) -> None:
    cat = cats[tile]
    w = loader_workers()
    cuda = torch.cuda.is_available()
    configs = [("0 workers, read-ahead 2 (the default without CUDA)", dict(num_workers=0)),
               (f"{w} workers, prefetch 4, persistent{', pinned' if cuda else ''} (the default with CUDA)",
                dict(num_workers=w, prefetch_factor=4, pin_memory=cuda))]
    if args.workers is not None:
        configs.append((f"{args.workers} workers, prefetch 4", dict(num_workers=args.workers, prefetch_factor=4)))
    print(f"\n## loader settings: tile {tile}, random chips (any offset), {args.chips} per run, batch {args.batch}, "
          f"frames not kept across batches, median of {args.repeats}")
    print("| settings | chips/s | training process CPU-s / batch | workers CPU-s / batch |")
    print("|---|---|---|---|")
    for name, kw in configs:
        rs = []
        for _ in range(args.repeats):
            ds = rt.ChipDataset(cat, size=CHIP, keep_cache=False)
            s = rt.RandomChipSampler(ds, length=args.chips, seed=1)
            rs.append(run(ds.loader(s, batch_size=args.batch, **kw)))
        print(f"| {name} | {statistics.median(x['chips_s'] for x in rs):,.0f} | "
              f"{statistics.median(x['train_cpu'] for x in rs) * 1e3:.0f} ms | "
              f"{statistics.median(x['worker_cpu'] for x in rs) * 1e3:.0f} ms |", flush=True)


def resnet50() -> torch.nn.Module:
    try:
        import torchvision

        return torchvision.models.resnet50()
    except ImportError:
        pass
    nn = torch.nn

    class Bottleneck(nn.Module):
        def __init__(self, cin: int, mid: int, stride: int) -> None:
            super().__init__()
            cout = mid * 4
            self.body = nn.Sequential(
                nn.Conv2d(cin, mid, 1, bias=False), nn.BatchNorm2d(mid), nn.ReLU(inplace=True),
                nn.Conv2d(mid, mid, 3, stride, 1, bias=False), nn.BatchNorm2d(mid), nn.ReLU(inplace=True),
                nn.Conv2d(mid, cout, 1, bias=False), nn.BatchNorm2d(cout))
            self.skip = (nn.Sequential(nn.Conv2d(cin, cout, 1, stride, bias=False), nn.BatchNorm2d(cout))
                         if stride != 1 or cin != cout else nn.Identity())

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            return torch.relu(self.body(x) + self.skip(x))

    layers: list[nn.Module] = [nn.Conv2d(3, 64, 7, 2, 3, bias=False), nn.BatchNorm2d(64), nn.ReLU(inplace=True),
                               nn.MaxPool2d(3, 2, 1)]
    cin = 64
    for mid, blocks, stride in ((64, 3, 1), (128, 4, 2), (256, 6, 2), (512, 3, 2)):
        for i in range(blocks):
            layers.append(Bottleneck(cin, mid, stride if i == 0 else 1))
            cin = mid * 4
    layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(cin, 1000)]
    return nn.Sequential(*layers)


def gpu_table(cats: dict[int, rumi.Catalog], args: argparse.Namespace) -> None:
    dev = torch.device("cpu" if args.dry_run else "cuda")
    torch.backends.cudnn.benchmark = True

    def sync() -> None:
        if dev.type == "cuda":
            torch.cuda.synchronize()

    model = resnet50().to(dev, memory_format=torch.channels_last)
    opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    loss_fn = torch.nn.CrossEntropyLoss()
    scale = 1.0 / 65535.0

    def as_float(x: torch.Tensor) -> torch.Tensor:
        try:
            return x.to(torch.float32)
        except (RuntimeError, NotImplementedError):  # a torch without the uint16 cast on this device
            return (x.view(torch.int16).to(torch.int32) & 0xFFFF).to(torch.float32)

    def step(img_u16: torch.Tensor) -> None:
        x = img_u16.to(dev, non_blocking=True)  # (N, 1, 3, h, w) uint16
        x = (as_float(x[:, 0]) * scale).contiguous(memory_format=torch.channels_last)
        y = torch.zeros(x.shape[0], dtype=torch.int64, device=dev)
        with torch.autocast(dev.type, dtype=torch.bfloat16):
            loss = loss_fn(model(x), y)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()

    fake = torch.randint(0, 30000, (args.batch, 1, 3, CHIP, CHIP), dtype=torch.int32).to(torch.uint16).to(dev)
    for _ in range(args.warmup):
        step(fake)
    sync()
    t0 = time.perf_counter()
    for _ in range(args.steps):
        step(fake)
    sync()
    ceiling = args.steps * args.batch / (time.perf_counter() - t0)
    d = gpu_defaults()
    name = "the CPU (--dry-run)" if args.dry_run else torch.cuda.get_device_name(0)
    print(f"\n## ResNet-50 bf16 on {name}, batch {args.batch}, {args.steps} steps after "
          f"{args.warmup}: loader defaults {d}")
    print("| fed by | images/s | fraction of the step ceiling | training process CPU-s / batch | "
          "decoded bytes / chip byte |")
    print("|---|---|---|---|---|")
    print(f"| the step alone (batch already on the GPU) | {ceiling:,.0f} | 100 % | | |", flush=True)
    # (tile, align, keep_cache): frames not kept across batches (as the H200 run of issue 35) at
    # 256 and the training tile, aligned, and the training tile with the default cache
    feeds = list(dict.fromkeys([(256, False, False), (args.tile, False, False), (args.tile, True, False),
                                (args.tile, False, True)]))
    for tile, align, keep in feeds:
        if tile not in cats:
            continue
        ds = rt.ChipDataset(cats[tile], size=CHIP, keep_cache=keep)
        n = (args.warmup + args.steps) * args.batch
        loader = ds.loader(rt.RandomChipSampler(ds, length=n, seed=2, align=align), batch_size=args.batch)
        it = iter(loader)
        for _ in range(args.warmup):
            step(next(it)["image"])
        sync()
        t0, c0 = time.perf_counter(), cpu_self()
        decoded = 0
        for _ in range(args.steps):
            b = next(it)
            decoded += b["stats"]["decoded"]
            step(b["image"])
        sync()
        wall, cpu = time.perf_counter() - t0, cpu_self() - c0
        rate = args.steps * args.batch / wall
        print(f"| ChipDataset.loader defaults, tile {tile}, {'align=True' if align else 'any offset'}, "
              f"{'frames kept (512 MiB per process)' if keep else 'frames not kept across batches'} | {rate:,.0f} | "
              f"{100 * rate / ceiling:.0f} % | {cpu / args.steps * 1e3:.0f} ms | "
              f"{decoded * frame_bytes(cats[tile]) / (args.steps * args.batch * CHIP * CHIP * 3 * 2):.2f} |", flush=True)
        del it, loader


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--files", type=int, default=192)
    ap.add_argument("--tiles", default="256,128,64")
    ap.add_argument("--tile", type=int, default=64, help="the tile size of parts 3 and 4 (docs/training.md's)")
    ap.add_argument("--chips", type=int, default=512, help="chips per run of parts 2 and 3")
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--workers", type=int, help="also measure this many workers in part 3")
    ap.add_argument("--gpu", action="store_true", help="part 4: the ResNet-50 step ceiling (needs CUDA)")
    ap.add_argument("--steps", type=int, default=60)
    ap.add_argument("--warmup", type=int, default=15)
    ap.add_argument("--dry-run", action="store_true", help=argparse.SUPPRESS)  # part 4's code on the CPU
    ap.add_argument("--parts", help="which CPU parts to run (1 size, 2 decode, 3 settings; default 1,2,3, none with --gpu)")
    args = ap.parse_args()
    if not SCENE.exists():
        sys.exit(f"{SCENE} is absent")
    if args.gpu and not args.dry_run and not torch.cuda.is_available():
        sys.exit("--gpu: CUDA is not available")
    if args.parts is None:
        args.parts = "" if args.gpu else "1,2,3"
    parts = {int(p) for p in args.parts.split(",") if p}
    # --gpu alone: one table, the tile sizes it feeds
    tiles = [int(t) for t in args.tiles.split(",")] if parts & {1, 2} else [256]
    if args.tile not in tiles:
        tiles.append(args.tile)
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f}; torch {torch.__version__}, "
          f"CUDA {'yes: ' + torch.cuda.get_device_name(0) if torch.cuda.is_available() else 'no'}; "
          f"ChipDataset.loader defaults here: {gpu_defaults()}", flush=True)
    tmp = Path(tempfile.mkdtemp(prefix="rumi-gpu-feed-"))
    a, gt, epsg = scene()
    cats: dict[int, rumi.Catalog] = {}
    sizes: dict[int, float] = {}
    t0 = time.perf_counter()
    for tile in tiles:
        paths = cut(tmp, args.files, tile, a, gt, epsg)
        cats[tile] = rumi.Catalog.build(paths, tmp / f"t{tile}.parquet")
        sizes[tile] = sum(os.path.getsize(p) for p in paths) / 2**20
    print(f"{args.files} pieces of 512x512x3 uint16 per tile size written in {time.perf_counter() - t0:.1f} s", flush=True)
    if 1 in parts:
        base = sizes.get(256, next(iter(sizes.values())))
        print("\n## size: the collection per tile size (rumi.write defaults otherwise)")
        print("| tile | frame unit | MiB | vs tile 256 |")
        print("|---|---|---|---|")
        for tile in tiles:
            print(f"| {tile} | {cats[tile].row(0)['rumi:frame_unit']} | {sizes[tile]:.1f} | {sizes[tile] / base:.3f}x |")
    if 2 in parts:
        decode_table(cats, args)
    if 3 in parts:
        settings_table(cats, args.tile, args)
    if args.gpu:
        gpu_table(cats, args)
    print(f"\nload average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
