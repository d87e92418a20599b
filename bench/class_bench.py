"""Class- and cloud-aware chip sampling (issue 50 items 2 and 4): rumi's samplers, which decide
from the catalogue's class counts (rumi:classes) without reading a pixel, against the rejection
sampling a TorchGeo user writes today (draw a random window, read its labels with rasterio,
keep it when it meets the constraint, else draw again), and the catalogue's growth from the
column (docs/scaling.md's sizes; the encoding each row got); --search ROWS: a search's time and
bytes read with the column read by searches and left for later (search_cost).

    ~/.cache/rumi/venvs/torch-py3.11/bin/python bench/class_bench.py [--chips 500] [--reps 3]
    ~/.cache/rumi/venvs/torch-py3.11/bin/python bench/class_bench.py --growth-only [--search 100000]
    ~/.cache/rumi/venvs/torch-py3.11/bin/python bench/class_bench.py --many-files-only [--files 200] [--reps 3]

Inputs (../shared/data): the LANDFIRE fuel-model map (labels, 27 classes, 1013 x 799, int16)
beside the LANDFIRE elevation (the images), and the eo-learn NDVI stack with its 68-date cloud
masks (101 x 100). rumi's files are `rumi convert --tile 64` (fuel, elevation) and 67-step Cubes
with 16 x 16 tiles (NDVI, masks); the peer reads the GeoTIFFs. Each case draws --chips chips:

- min_class: fuel class 165 >= 40 % and class 99 <= 2 % of a 96 x 96 chip (docs/training.md's
  example; 30 % and 5 % while the counts of a one-step file were quantised, before 6fac703);
- cloud: at least 37 of the 67 steps of a 32 x 32 chip at most 5 % cloudy;
- balance: four fuel classes (165, 185, 122, 102: 16 %, 39 %, 2.7 %, 1.2 % of the map) in equal
  shares of the drawn pixels (the peer: rejection with acceptance probability inversely
  proportional to the chip's own pixel shares, the usual weighting).

Measured: wall and CPU seconds (process time, threads included) of choosing the chips (rumi: the
sampler's construction and its keys; the peer: its loop), label bytes decoded to choose them,
and how close each constraint is met on the chips' actual pixels (the GeoTIFF's). Also rumi's
plain RandomChipSampler's time per key, beside the constrained ones' (target: <= 2x), also over
--files small image + label files (about 50 keys a file: the per-file cost)."""

from __future__ import annotations

import argparse
import gc
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("RUMI_DATA", ROOT.parent / "shared" / "data"))
CLI = Path(os.environ.get("RUMI_CLI", ROOT / "target" / "release" / "rumi"))


def clock():
    return time.perf_counter(), time.process_time()


def since(t):
    w, c = clock()
    return w - t[0], c - t[1]


def convert(name, out, *extra):
    dst = out / (Path(name).stem + ".rumi")
    if not dst.exists():
        subprocess.run([str(CLI), "convert", str(DATA / name), str(dst), "--time", "2020-05-18", *extra], check=True,
                       capture_output=True)
    return dst


def best(fn, reps):
    """The repetition with the least wall time: (wall, cpu, result)."""
    out = None
    for _ in range(reps):
        t = clock()
        r = fn()
        w, c = since(t)
        if out is None or w < out[0]:
            out = (w, c, r)
    return out


def landfire(out, chips, reps):
    import rasterio
    from rasterio.windows import Window

    import rumi
    import rumi.torch as rt

    elev = convert("lf_elev_220_mt_hood_utm.tif", out, "--tile", "64")
    fuel = convert("lf_fbfm40_220_mt_hood_utm.tif", out, "--tile", "64")
    cat = rumi.Catalog.build([str(elev)], out / "elev.parquet")
    lcat = rumi.Catalog.build([str(fuel)], out / "fuel.parquet")
    tif = DATA / "lf_fbfm40_220_mt_hood_utm.tif"
    with rasterio.open(tif) as src:
        px = src.read(1)
    Y, X = px.shape
    res = {}

    # -- min / max class --------------------------------------------------------------------------
    size = 96
    lim = dict(min_class={"labels:band 0": {165: 0.4}}, max_class={"labels:band 0": {99: 0.02}})

    def ok(a):
        return (a == 165).mean() >= 0.4 and (a == 99).mean() <= 0.02

    def rumi_min():
        ds = rt.ChipDataset(cat, size=size, labels=lcat)
        return list(rt.RandomChipSampler(ds, length=chips, seed=0, **lim))

    def peer_min():
        rng = np.random.default_rng(0)
        keys, reads, nbytes = [], 0, 0
        with rasterio.open(tif) as src:
            while len(keys) < chips:
                r, c = int(rng.integers(0, Y - size + 1)), int(rng.integers(0, X - size + 1))
                a = src.read(1, window=Window(c, r, size, size))
                reads += 1
                nbytes += a.nbytes
                if ok(a):
                    keys.append((0, r, c))
        return keys, reads, nbytes

    res["min_class"] = case(rumi_min, peer_min, lambda k: ok(px[k[1]:k[1] + size, k[2]:k[2] + size]), reps, chips)
    # the bound's tightness: of the grid chips (stride 8) that meet it on their pixels, those it admits
    ds = rt.ChipDataset(cat, size=size, labels=lcat)
    grid = list(rt.GridChipSampler(ds, stride=8))
    truly = {k for k in grid if ok(px[k[1]:k[1] + size, k[2]:k[2] + size])}
    admitted = set(rt.GridChipSampler(ds, stride=8, **lim))
    res["min_class"]["admitted_of_true"] = [len(admitted & truly), len(truly), len(admitted - truly)]
    ds64 = rt.ChipDataset(cat, size=64, labels=lcat)
    tiles = list(rt.TileChipSampler(ds64))
    res["min_class"]["tile_chips_exact"] = set(rt.TileChipSampler(ds64, **lim)) == {
        k for k in tiles if ok(px[k[1]:k[1] + 64, k[2]:k[2] + 64])}

    # the same with the labels written with smaller tiles (the bound is per tile)
    for t in (32, 16):
        f = out / f"fuel{t}.rumi"
        with rasterio.open(tif) as src:
            rumi.write(f, px[None, None], bands=["band 0"], times=["2020-05-18"], nodata=32767, crs=src.crs.to_string(),
                       geotransform=src.transform.to_gdal(), tile=t)
        dst = rt.ChipDataset(cat, size=size, labels=rumi.Catalog.build([str(f)], out / f"fuel{t}.parquet",
                                                                      exact_classes=True))  # over 4 KB: exact asked for
        adm = set(rt.GridChipSampler(dst, stride=8, **lim))
        distinct = len(set(rt.RandomChipSampler(dst, length=chips, seed=0, **lim)))
        res["min_class"][f"labels_tile_{t}"] = {"admitted_of_true": [len(adm & truly), len(truly), len(adm - truly)],
                                                "distinct": distinct}

    # -- balance ----------------------------------------------------------------------------------
    size = 64
    target = {165: 0.25, 185: 0.25, 122: 0.25, 102: 0.25}
    want = np.array(list(target.values()))

    def shares(keys):
        a = np.stack([px[r:r + size, c:c + size] for _, r, c in keys])
        n = np.array([(a == k).sum() for k in target], float)
        return n / n.sum()

    def rumi_bal():
        ds = rt.ChipDataset(cat, size=size, labels=lcat)
        return list(rt.RandomChipSampler(ds, length=chips, seed=0, balance=rt.ClassBalance("labels:band 0", target)))

    freq = np.array([(px == k).mean() for k in target])

    def peer_bal():
        # accept a chip with probability proportional to sum over the classes of its share / the
        # class's share of the map (inverse frequency), normalised by its largest value
        rng = np.random.default_rng(0)
        keys, reads, nbytes = [], 0, 0
        top = 1.0 / freq.min()
        with rasterio.open(tif) as src:
            while len(keys) < chips:
                r, c = int(rng.integers(0, Y - size + 1)), int(rng.integers(0, X - size + 1))
                a = src.read(1, window=Window(c, r, size, size))
                reads += 1
                nbytes += a.nbytes
                s = np.array([(a == k).mean() for k in target])
                if rng.random() < float((s / freq).sum()) / top:
                    keys.append((0, r, c))
        return keys, reads, nbytes

    def plain():
        return list(rt.RandomChipSampler(rt.ChipDataset(cat, size=size, labels=lcat), length=chips, seed=0))

    b = case(rumi_bal, peer_bal, None, reps, chips)
    b["shares"] = {"target": want.tolist(), "plain": shares(plain()).round(4).tolist(),
                   "rumi": shares(b.pop("_rumi_keys")).round(4).tolist(), "peer": shares(b.pop("_peer_keys")).round(4).tolist()}
    b["l1_to_target"] = {k: round(float(np.abs(np.array(v) - want).sum()), 4) for k, v in b["shares"].items() if k != "target"}
    res["balance"] = b
    return res


def case(rumi_fn, peer_fn, meets, reps, chips):
    w, c, keys = best(rumi_fn, reps)
    pw, pc, (pkeys, reads, nbytes) = best(peer_fn, reps)
    out = {"rumi": {"wall_s": round(w, 4), "cpu_s": round(c, 4), "label_bytes_read": 0, "chips": len(keys)},
           "peer": {"wall_s": round(pw, 4), "cpu_s": round(pc, 4), "label_bytes_read": int(nbytes), "candidates_read": reads,
                    "chips": len(pkeys)}}
    if meets is not None:
        out["rumi"]["met"] = float(np.mean([bool(meets(k)) for k in keys]))
        out["peer"]["met"] = float(np.mean([bool(meets(k)) for k in pkeys]))
        out["rumi"]["distinct"] = len(set(keys))
        out["peer"]["distinct"] = len(set(pkeys))
    else:
        out["_rumi_keys"], out["_peer_keys"] = keys, pkeys
    return out


def clouds(out, chips, reps):
    import rasterio
    from rasterio.windows import Window

    import rumi
    import rumi.torch as rt

    with rasterio.open(DATA / "eolearn_s2_ndvi_68t_float32.tif") as s:
        ndvi, desc, crs, gt = s.read(), s.descriptions, s.crs.to_string(), s.transform.to_gdal()
    times = np.array(desc, dtype="datetime64[s]")
    keep = np.concatenate([[True], np.diff(times) > np.timedelta64(0, "s")])
    tif = DATA / "eolearn_s2_clm_68t_uint8.tif"
    with rasterio.open(tif) as s:
        m = s.read()
    geo = dict(crs=crs, geotransform=gt, tile=16)
    tt = [str(t) for t in times[keep]]
    rumi.write(out / "ndvi.rumi", ndvi[keep][:, None], bands=["ndvi"], times=tt, **geo)
    rumi.write(out / "clm.rumi", m[keep][:, None], bands=["clouds"], times=tt, **geo)
    cat = rumi.Catalog.build([str(out / "ndvi.rumi")], out / "ndvi.parquet")
    lcat = rumi.Catalog.build([str(out / "clm.rumi")], out / "clm.parquet")
    if not chips:  # the files and catalogues alone (per_key)
        return {}
    size, need = 32, 37
    mk = m[keep]
    T, Y, X = mk.shape
    idx = np.flatnonzero(keep) + 1  # GeoTIFF band numbers of the kept steps

    def ok(a):
        return int((a.reshape(len(a), -1).mean(1) <= 0.05).sum()) >= need

    def rumi_cloud():
        ds = rt.ChipDataset(cat, size=size, labels=lcat)
        return list(rt.RandomChipSampler(ds, length=chips, seed=0, cloud=rt.Cloud("clouds", max=0.05, min_clear_steps=need)))

    def peer_cloud():
        rng = np.random.default_rng(0)
        keys, reads, nbytes = [], 0, 0
        with rasterio.open(tif) as src:
            while len(keys) < chips:
                r, c = int(rng.integers(0, Y - size + 1)), int(rng.integers(0, X - size + 1))
                a = src.read(idx.tolist(), window=Window(c, r, size, size))
                reads += 1
                nbytes += a.nbytes
                if ok(a):
                    keys.append((0, r, c))
        return keys, reads, nbytes

    return {"cloud": case(rumi_cloud, peer_cloud, lambda k: ok(mk[:, k[1]:k[1] + size, k[2]:k[2] + size]), reps, chips)}


def per_key(out, reps, n=10_000, files=200, many_only=False):
    """RandomChipSampler's CPU time per key, the sampler alone (made, then its n keys listed),
    plain and with each kind of constraint, the repetitions interleaved (each round times every
    case once, so a change of the machine's load shows in all; a first round uncounted, garbage
    collected before each): the median over the rounds, and
    each case's ratio to the plain sampler of its own dataset (the target: <= 2x). LANDFIRE
    (elevation images with nodata 32767, fuel classes as labels, tiles of 64, 96 x 96 chips):
    min_valid, min / max class, both, balance; eo-learn (NDVI Cube, cloud masks as labels, tiles
    of 16, 67 steps, 32 x 32 chips): the cloud limit; a large file (large_file: 256 x 256 chips
    of a 4096 x 4096 class map): one and two class limits. A second epoch (set_epoch(1)) reuses
    the sampler's per-file pools: its time per key is given too. Many files (many_files: `files`
    small image + label files, about n / files keys a file): the label coverage alone, min_class
    and max_class, each against the images' sampler without labels (no constraint), where each
    file's offsets are decided for few keys; many_only: these cases alone (no shared data)."""
    import rumi
    import rumi.torch as rt

    many, alone = many_files(out, files)
    cases = {
        f"{files} files plain": (alone, {}),  # no constraint (the images alone)
        f"{files} files labels": (many, {}),  # chips inside the label files (on_missing="skip")
        f"{files} files min_class": (many, dict(min_class={"cls": {5: 0.2}})),
        f"{files} files max_class": (many, dict(max_class={"cls": {1: 0.3}})),
    }
    if not many_only:
        cases.update(_shared_cases(out))
    return _per_key_runs(cases, reps, n)


def _shared_cases(out):
    """per_key's cases on the shared rasters (LANDFIRE, eo-learn) and large_file."""
    import rumi
    import rumi.torch as rt

    elev = convert("lf_elev_220_mt_hood_utm.tif", out, "--tile", "64")
    fuel = convert("lf_fbfm40_220_mt_hood_utm.tif", out, "--tile", "64")
    lf = rt.ChipDataset(rumi.Catalog.build([str(elev)], out / "pk_elev.parquet"), size=96,
                        labels=rumi.Catalog.build([str(fuel)], out / "pk_fuel.parquet"))
    eo = rt.ChipDataset(rumi.Catalog.open(out / "ndvi.parquet"), size=32, labels=rumi.Catalog.open(out / "clm.parquet"))
    # docs/training.md's limits (the fuel map's counts are exact again since 6fac703: 30 % / 5 % before)
    lim = dict(min_class={"labels:band 0": {165: 0.4}}, max_class={"labels:band 0": {99: 0.02}})
    big = large_file(out)
    one = {"min_class": {"classes": {1: 0.3}}}
    return {
        "landfire plain": (lf, {}),
        "landfire min_valid=0.99": (lf, dict(min_valid=0.99)),
        "landfire min/max class": (lf, lim),
        "landfire min_valid + class": (lf, dict(min_valid=0.99, **lim)),
        "landfire balance": (lf, dict(balance=rt.ClassBalance("labels:band 0", {165: 1, 185: 1, 122: 1, 102: 1}))),
        "eo-learn plain": (eo, {}),
        "eo-learn cloud": (eo, dict(cloud=rt.Cloud("clouds", max=0.05, min_clear_steps=37))),
        "large plain": (big, {}),
        "large min_class": (big, one),
        "large min/max class": (big, dict(one, max_class={"classes": {2: 0.1}})),
    }


def _per_key_runs(cases, reps, n):
    """per_key's interleaved rounds over cases ({name: (dataset, sampler arguments)}; a case's
    plain sampler: the one named with its first word and "plain")."""
    import rumi.torch as rt

    first = {k: [] for k in cases}
    second = {k: [] for k in cases}
    for rep in range(reps + 1):  # the first round warms up (imports, caches) and is not counted
        for name, (ds, kw) in cases.items():
            s = None  # the previous case's sampler freed, and its garbage collected, outside this one's time
            gc.collect()
            t = time.process_time()
            s = rt.RandomChipSampler(ds, length=n, seed=0, **kw)
            keys = list(s)
            t1 = time.process_time() - t
            assert len(keys) == n
            s.set_epoch(1)
            gc.collect()
            t = time.process_time()
            list(s)
            if rep:
                first[name].append(t1)
                second[name].append(time.process_time() - t)
    res = {}
    for name in cases:
        plain = name.rsplit(" ", 1)[0] + " plain" if name.startswith(tuple("0123456789")) else name.split()[0] + " plain"
        us, us2 = (float(np.median(v[name])) / n * 1e6 for v in (first, second))
        p1, p2 = (float(np.median(v[plain])) / n * 1e6 for v in (first, second))
        res[name] = {"us_per_key": round(us, 2), "ratio": round(us / p1, 2), "second_epoch_us_per_key": round(us2, 2),
                     "second_epoch_ratio": round(us2 / p2, 2)}
    return res


def many_files(out, n):
    """n small files (seed 0): 512 x 512 uint16 images beside uint8 label files of classes 1-5 in
    blobs of 64 pixels (shares 50/20/15/10/5 %), tiles of 64, as 96 x 96 chips with labels: a
    sampler of 10,000 keys draws about 50 keys a file, so the per-file cost of deciding the
    offsets shows (each file's map made and refined for few keys). (the dataset with labels, the
    images alone: its sampler has no constraint, the one with labels keeps chips inside them)"""
    import rumi
    import rumi.torch as rt

    rng = np.random.default_rng(0)
    d = out / f"many{n}"
    d.mkdir(exist_ok=True)
    imgs, labs = [], []
    for i in range(n):
        gt = (500000.0 + i * 6000, 10.0, 0.0, 5100000.0, 0.0, -10.0)
        img = rng.integers(1, 9000, (1, 1, 512, 512), dtype=np.uint16)
        blobs = rng.choice([1, 2, 3, 4, 5], (1, 1, 9, 9), p=[.5, .2, .15, .1, .05])
        lab = np.repeat(np.repeat(blobs, 64, 2), 64, 3)[:, :, :512, :512].astype(np.uint8)
        fi, fl = d / f"i{i}.rumi", d / f"l{i}.rumi"
        if not fl.exists():
            rumi.write(fi, img, bands=["red"], times=["2020-01-01"], crs="EPSG:32633", geotransform=gt, tile=64)
            rumi.write(fl, lab, bands=["cls"], times=["2020-01-01"], crs="EPSG:32633", geotransform=gt, tile=64)
        imgs.append(str(fi))
        labs.append(str(fl))
    ic = rumi.Catalog.build(imgs, d / "img.parquet")
    return rt.ChipDataset(ic, size=96, labels=rumi.Catalog.build(labs, d / "lab.parquet")), rt.ChipDataset(ic, size=96)


def large_file(out):
    """A 4096 x 4096 class map (classes 0-3 in squares of 200 pixels, seed 0), tiles of 128, as
    the images of 256 x 256 chips: 14.8 M offsets, whose maps' blocks follow the squares' edges."""
    import rumi
    import rumi.torch as rt

    f = out / "large.rumi"
    if not f.exists():
        g = np.random.default_rng(0).integers(0, 4, (21, 21)).astype(np.uint8)
        a = np.repeat(np.repeat(g, 200, 0), 200, 1)[:4096, :4096]
        rumi.write(f, a[None, None], bands=["classes"], times=["2020-05-18"], crs="EPSG:32633",
                   geotransform=(500000.0, 10.0, 0.0, 5100000.0, 0.0, -10.0), tile=128)
    return rt.ChipDataset(rumi.Catalog.build([str(f)], out / "large.parquet"), size=256)


def growth(out):
    """rumi:classes' bytes per row and the catalogue's growth: real files, and scale_bench.py's
    generated rows (a one-year Sentinel-2-like Cube, 2048 x 2048, 128 x 128 tiles, T = 48) with
    a cloud mask band (2 classes) and a scene classification band (12 classes) whose classes
    come in blobs of ~300 m, as masks do."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    import rumi
    from rumi.catalog.classes import encode_counts
    from rumi.catalog.scan import tile_areas

    res = {}
    for name, extra in (("lf_fbfm40_220_mt_hood_utm.tif", ()), ("lf_fbfm40_220_mt_hood_utm.tif", ("--tile", "64")),
                        ("eolearn_s2_clm_68t_uint8.tif", ())):
        d = out / ("g" + "_".join(extra).strip("-"))
        d.mkdir(exist_ok=True)
        f = convert(name, d, *extra)
        cat = rumi.Catalog.build([str(f)], d / "c.parquet")
        v = cat.row(0)["rumi:classes"]
        res[f"{name} {' '.join(extra) or 'tile 256'}"] = {"bands": len(v), "bytes": sum(len(e["counts"]) + 8 * len(e["values"]) for e in v),
                                                          "codec_table": sorted({e["counts"][:2].hex() for e in v})}
    # simulated rows: counts of blobby class maps per 128 x 128 tile and step
    rng = np.random.default_rng(0)
    T, ny, nx = 48, 16, 16
    area = tile_areas((128, 128), (2048, 2048), (ny, nx))
    for K, label in ((2, "cloud mask (2 classes)"), (12, "scene classification (12 classes)")):
        sizes, kinds = [], []
        for _ in range(20):
            # per step a field of 30 x 30 px blobs: each tile holds 1-3 classes
            blob = rng.integers(0, K, (T, 2048 // 32, 2048 // 32))
            if K == 2:
                blob = (rng.random((T, 1, 1)) < 0.3) * blob  # 70 % of the steps clear
            field = np.repeat(np.repeat(blob, 32, 1), 32, 2)
            counts = np.stack([(field == k).reshape(T, ny, 128, nx, 128).sum(axis=(2, 4)) for k in range(K)], -1)
            sizes.append(len(encode_counts(counts, area)) + 8 * K)
            kinds.append(encode_counts(counts, area)[:2].hex())
        res[f"simulated Cube row, {label}"] = {"bytes": int(np.mean(sizes)), "codec_table": sorted(set(kinds))}
    # the catalogue's growth at docs/scaling.md's sizes: its parquet is 573 MB at 1 M rows (573
    # bytes a row; 5,729 MB at 10 M); the column's counts are zstd already, so Parquet's own
    # compression leaves them as they are: growth = the column's bytes a row / 573
    for k, v in res.items():
        v["growth_at_scaling_md"] = round(v["bytes"] / 573.0, 3)
    return res


def cloud_pool(n, rng, T=48):
    """rumi:classes values of n simulated cloud-mask rows (the growth's: 2048 x 2048, 16 x 16
    tiles of 128, T steps, 30 % of the steps half cloudy in 320 m blobs), encoded as cataloguing
    encodes them."""
    from rumi.catalog.classes import encode_counts
    from rumi.catalog.scan import tile_areas

    area = tile_areas((128, 128), (2048, 2048), (16, 16))
    out = []
    for _ in range(n):
        blob = rng.integers(0, 2, (T, 64, 64)) * (rng.random((T, 1, 1)) < 0.3)
        cloudy = blob.reshape(T, 16, 4, 16, 4).sum(axis=(2, 4)) * 1024  # 32 x 32 px blobs, 4 x 4 a tile
        counts = np.stack([128 * 128 - cloudy, cloudy], -1)
        out.append([{"band": 4, "values": [0, 1], "counts": encode_counts(counts, area)}])
    return out


def decode_many(rows, reps, sample=2000, distinct=1000):
    """The first epoch's decode of the class counts per rank: a catalogue part of `rows` rows
    (rumi:classes of distinct simulated files repeated: label maps as many_files' (512 x 512,
    tiles of 64, classes 1-5 in blobs, exact counts) and cloud-mask Cubes as cloud_pool's (48
    steps, quantised)), decoded row by row (Rows.classes, the way before 2026-12-07 14:20: a
    sample of rows, per row) and all at once (Rows.classes_many): CPU us a row, the best of
    reps, and the seconds for every row."""
    import pyarrow as pa
    from rumi.catalog import columns as C
    from rumi.catalog.classes import encode_counts
    from rumi.catalog.decode import Rows
    from rumi.catalog.scan import tile_areas

    rng = np.random.default_rng(0)
    area = tile_areas((64, 64), (512, 512), (8, 8))
    labels = []
    for _ in range(distinct):
        blobs = rng.choice([1, 2, 3, 4, 5], (8, 8), p=[.5, .2, .15, .1, .05])
        counts = (blobs[..., None] == np.arange(1, 6)) * 4096
        labels.append([{"band": 0, "values": [1, 2, 3, 4, 5], "counts": encode_counts(counts[None], area)}])
    cubes = cloud_pool(max(1, distinct // 10), rng)
    ctype = C.schema().field(C.CLASSES).type
    out = {}
    for name, pool, shape, tile in (("label maps", labels, [1, 1, 512, 512], [64, 64]),
                                    ("cloud-mask Cubes", cubes, [48, 5, 2048, 2048], [128, 128])):
        n = rows if name == "label maps" else max(1, rows // 5)
        t = pa.table({C.SHAPE: pa.array([shape] * n, pa.list_(pa.int64())),
                      C.TILE_SHAPE: pa.array([tile] * n, pa.list_(pa.int64())),
                      C.CLASSES: pa.array([pool[i % len(pool)] for i in range(n)], ctype)})
        one, many = [], []
        for _ in range(reps):
            r = Rows(t)
            r.shapes, r.tiles  # (decoded once per part in both ways)
            k = min(sample, n)
            c = time.process_time()
            for i in range(k):
                r.classes(i)
            one.append((time.process_time() - c) / k)
            c = time.process_time()
            r.classes_many(np.arange(n))
            many.append((time.process_time() - c) / n)
        out[name] = {"rows": n, "per_row_us": round(min(one) * 1e6, 1), "many_us": round(min(many) * 1e6, 2),
                     "per_row_s_all": round(min(one) * n, 2), "many_s_all": round(min(many) * n, 3)}
    return out


def search_cost(out, rows, reps):
    """A bbox + time search of a partitioned catalogue of `rows` rows (bench/scale_bench.py's,
    each with a cloud-mask band's rumi:classes from cloud_pool) with the column read by searches
    (as before 2026-12-07) and left for later (parts.LAZY_COLUMNS): wall and CPU seconds (best
    of reps), bytes read from the part files (rchar of /proc/self/io), rows returned."""
    import pyarrow as pa

    sys.path.insert(0, str(ROOT / "bench"))
    import scale_bench as sb

    import rumi
    from rumi.catalog import parts as P, table as TB
    from rumi.catalog import columns as K

    rng = np.random.default_rng(0)
    pool = cloud_pool(2000, rng)  # a value recurs within a Parquet page rarely (as StatsPool)
    tiles_n, years = sb.plan(rows)
    tiles = sb.Tiles(tiles_n)
    q = sb.query_for(rows, want=rows // 100)
    res = {"rows": rows, "classes_bytes_a_row": round(float(np.mean([len(v[0]["counts"]) for v in pool])), 1)}

    def rchar():
        with open("/proc/self/io") as f:
            return int(next(line for line in f if line.startswith("rchar")).split()[1])

    for name, lazy in (("read by searches", (K.STATS,)), ("lazy", (K.STATS, K.CLASSES))):
        saved = P.LAZY_COLUMNS, TB.LAZY_COLUMNS
        P.LAZY_COLUMNS = TB.LAZY_COLUMNS = lazy
        try:
            folder = out / f"search_{len(lazy)}"
            folder.mkdir()
            done = 0
            for k in range(years):
                n = min(tiles_n, rows - done)
                table, blob_total = sb.year_table(tiles, np.arange(n), sb.FIRST_YEAR + k, rng)
                i = table.schema.get_field_index(K.CLASSES)
                vals = [pool[j] for j in rng.integers(0, len(pool), n).tolist()]
                table = table.set_column(i, table.schema.field(i), pa.array(vals, table.schema.field(i).type))
                sb.sparse_headers(P.write_parts(table, str(folder)), blob_total)
                done += n
            best = None
            for _ in range(reps):
                cat = rumi.Catalog.open(str(folder))
                r0, t = rchar(), clock()
                s = cat.search(q["bbox"], time=q["time"])
                n_rows = len(s)
                w, c = since(t)
                got = (round(w, 4), round(c, 4), rchar() - r0, n_rows)
                if best is None or got[0] < best[0]:
                    best = got
            t = clock()
            s.lazy_column(K.CLASSES) if lazy == (K.STATS, K.CLASSES) else None
            lw, _ = since(t)
            res[name] = {"wall_s": best[0], "cpu_s": best[1], "bytes_read": best[2], "rows": best[3],
                         "parquet_bytes": sum(p.stat().st_size for p in folder.glob("*.parquet")),
                         "lazy_column_s": round(lw, 4) if lazy == (K.STATS, K.CLASSES) else None}
        finally:
            P.LAZY_COLUMNS, TB.LAZY_COLUMNS = saved
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--chips", type=int, default=500)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--growth-only", action="store_true")
    ap.add_argument("--per-key-only", action="store_true", help="only the time per key against the plain sampler")
    ap.add_argument("--keys", type=int, default=10_000, help="keys per sampler in the time per key (default 10,000)")
    ap.add_argument("--files", type=int, default=200,
                    help="the many-files case of the time per key: small image + label files (default 200)")
    ap.add_argument("--many-files-only", action="store_true",
                    help="only the many-files cases of the time per key (no shared data needed)")
    ap.add_argument("--search", type=int, default=0, metavar="ROWS",
                    help="also a search's time and bytes with rumi:classes read by searches and lazy (partitioned "
                         "catalogues of ROWS rows of cloud-mask Cubes)")
    ap.add_argument("--decode-rows", type=int, default=0, metavar="ROWS",
                    help="only the class counts' decode of ROWS simulated rows, row by row and all at once")
    ap.add_argument("--out", help="results JSON (default: print)")
    a = ap.parse_args()
    if a.decode_rows:
        res = {"when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "load": os.getloadavg()[0],
               "decode": decode_many(a.decode_rows, a.reps)}
        print(json.dumps(res, indent=1))
        return
    if a.many_files_only:
        with tempfile.TemporaryDirectory() as tmp:
            res = {"when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "reps": a.reps, "files": a.files,
                   "load": os.getloadavg()[0], "per_key": per_key(Path(tmp), a.reps, a.keys, a.files, True)}
            res["load_after"] = os.getloadavg()[0]
        text = json.dumps(res, indent=1, default=str)
        if a.out:
            Path(a.out).write_text(text)
        print(text)
        return
    if not DATA.exists():
        sys.exit(f"{DATA} is absent: the benchmark needs the shared real rasters")
    if not CLI.exists():
        sys.exit(f"{CLI} is not built (cargo build --release -p rumi-cli)")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        res = {"when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "chips": a.chips, "reps": a.reps,
               "load": os.getloadavg()[0]}
        if a.per_key_only:
            clouds(out, 0, 0)  # the eo-learn files and catalogues
            res["per_key"] = per_key(out, a.reps, a.keys, a.files)
        else:
            res["growth"] = growth(out)
        if a.search:
            res["search"] = search_cost(out, a.search, a.reps)
        if not a.growth_only and not a.per_key_only:
            res.update(landfire(out, a.chips, a.reps))
            res.update(clouds(out, a.chips, a.reps))
            res["per_key"] = per_key(out, a.reps, a.keys, a.files)
    text = json.dumps(res, indent=1, default=str)
    if a.out:
        Path(a.out).write_text(text)
    print(text)


if __name__ == "__main__":
    main()
