"""Before/after comparison of two builds of the GDAL plugin on the same rumi files, in one run.

    /usr/bin/python3 bench/compare_builds.py BEFORE_PLUGIN_DIR AFTER_PLUGIN_DIR [MORE_DIRS...] [--rounds 5]

Each plugin dir holds a gdal_RUMI.so; every build after the first is compared with the first. The files are converted once from ../shared/data (or
RUMI_DATA_DIR) with target/release/rumi into build/compare/. Every round runs bench/gdal_worker.py
once per build (the order rotating every round), each in a fresh process with GDAL_DRIVER_PATH set
to that build: a full decode (ReadRaster of every band, 1 thread and ALL_CPUS) and random 256x256
windows (cold: open + window + close; warm: one open dataset). Pixels (CRC32) must agree between
builds. Prints medians and bests (max over rounds) per build and the ratios to the first build (a machine shared with other work
moves absolute figures; the ratios of one run are what to read).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORKER = ROOT / "bench" / "gdal_worker.py"
INPUTS = {
    "landsat8": "landsat8_LC08_L1TP_224078_20200518_3band_uint16.tif",
    "lf_elev": "lf_elev_220_mt_hood_utm.tif",
    "naip": "naip_m_3607824_se_17_1_20160620_sub.tif",
}


def data_dir():
    for d in [os.environ.get("RUMI_DATA_DIR"), ROOT.parent / "shared" / "data", "/work/shared/data"]:
        if d and Path(d, INPUTS["landsat8"]).exists():
            return Path(d)
    sys.exit("compare_builds: the real rasters of ../shared/data are not here (set RUMI_DATA_DIR)")


def convert(out):
    out.mkdir(parents=True, exist_ok=True)
    files = {}
    for name, src in INPUTS.items():
        dst = out / f"{name}.rumi"
        if not dst.exists():
            subprocess.run([str(ROOT / "target" / "release" / "rumi"), "convert", str(data_dir() / src), str(dst),
                            "--time", "2020-01-01", "--allow-nodata-loss", "-q"], check=True)
        files[name] = str(dst)
    return files


def worker(plugin, task):
    env = dict(os.environ, GDAL_DRIVER_PATH=str(plugin))
    r = subprocess.run(["/usr/bin/python3", str(WORKER), json.dumps(task)], env=env, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"worker failed with {plugin}: {r.stderr[-2000:]}")
    return json.loads(r.stdout)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("builds", nargs="+", metavar="PLUGIN_DIR")
    ap.add_argument("--rounds", type=int, default=5)
    a = ap.parse_args()
    files = convert(ROOT / "build" / "compare")
    entries = [{"label": k, "path": v, "oo": ["HEADER=" + v + ".header"]} for k, v in files.items()]
    if len(a.builds) < 2:
        sys.exit("compare_builds: give at least two plugin dirs")
    names = ["before"] + (["after"] if len(a.builds) == 2 else [f"after{i}" for i in range(1, len(a.builds))])
    builds = dict(zip(names, a.builds))
    figures = {b: {} for b in builds}
    crcs = {b: {} for b in builds}
    for rnd in range(a.rounds):
        k = rnd % len(builds)
        order = list(builds)[k:] + list(builds)[:k]
        for b in order:
            for threads in ["1", "ALL_CPUS"]:
                out = worker(builds[b], {"task": "decode", "entries": entries, "reps": 1, "threads": threads,
                                         "rotate": rnd, "min_time": 0.3})
                for label, r in out.items():
                    mbps = r["bytes"] / r["wall"][0] / 1e6
                    figures[b].setdefault(f"{label} full decode {threads} (MB/s)", []).append(mbps)
                    crcs[b][label] = r["crc"]
            out = worker(builds[b], {"task": "windows", "entries": entries, "reps": 1, "threads": "1", "size": 256,
                                     "seed": 7, "n_cold": 20, "n_warm": 20, "min_time": 0.3})
            for label, r in out.items():
                figures[b].setdefault(f"{label} cold windows/s", []).append(r["cold"][0])
                figures[b].setdefault(f"{label} warm windows/s", []).append(r["warm"][0])
                crcs[b][label + " windows"] = r["crc"]
    if any(crcs[b] != crcs["before"] for b in builds):
        sys.exit(f"pixels differ between builds: {crcs}")
    for b, d in builds.items():
        print(f"{b}: {d}")
    later = names[1:]
    print(f"| figure ({a.rounds} rounds) | " + " | ".join(f"{b} median / best" for b in names) + " | "
          + " | ".join(f"{b}/before median, best" for b in later) + " |")
    print("|---|" + "---|" * (len(names) + len(later)))
    for key in figures["before"]:
        med = {b: statistics.median(figures[b][key]) for b in names}
        top = {b: max(figures[b][key]) for b in names}
        cells = [f"{med[b]:.1f} / {top[b]:.1f}" for b in names]
        cells += [f"{med[b] / med['before']:.2f}, {top[b] / top['before']:.2f}" for b in later]
        print(f"| {key} | " + " | ".join(cells) + " |")
    print("pixels: CRC32 equal between builds for every full decode and window sequence")


if __name__ == "__main__":
    main()
