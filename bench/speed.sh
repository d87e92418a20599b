#!/usr/bin/env bash
# Issue 41's speed benchmarks in one command (bench/README.md; figures in docs/performance.md):
#   1. GDAL open + read against the fastest lossless COG of similar size, on every input of
#      bench/run.sh (--quick --skip-big --skip-http --lean), RUNS times back to back (default 3):
#      each run's summary table, the last run's report in bench/results/latest.md;
#   2. [T, C, 256, 256] chips with all dates and the 12-date window: rumi Cubes (tiles 256, 128,
#      64) against Zarr v3's fastest and smallest chains (bench/timeseries_bench.py --suite zarr);
#   3. OpenZL's decode ceiling on those Cubes, one thread (per byte and per frame);
#   4. with a CUDA GPU: a ResNet-50 bf16 step fed by the loader's defaults (bench/gpu_feed_bench.py
#      --gpu, in the torch venv of scripts/test-torch.sh); without one, said and skipped.
#   5. the size/speed frontier (bench/frontier.py --quick; FRONTIER_ARGS="" for the full run): every
#      rumi setting against every Zarr, COG and image-codec setting, pictures in docs/img/.
# About 17 min on the 2-core machine (1: 3.3 min a run, 2: 4-5 min, 3: 1 min) + the frontier.
# SKIP="gdal,zarr,ceiling,frontier,gpu" leaves parts out; RUNS=N sets the GDAL runs.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-3}
SKIP=${SKIP:-}
PY=${PY:-target/py-venv/bin/python}
TORCH_PY=${TORCH_PY:-$HOME/.cache/rumi/venvs/torch-py3.11/bin/python}
mkdir -p build/bench
skip() { [[ ",$SKIP," == *",$1,"* ]]; }
part() { echo; echo "== $1 ($(date +%H:%M:%S))"; }

if ! skip gdal; then
  for i in $(seq 1 "$RUNS"); do
    part "GDAL open + read against the COGs, run $i of $RUNS"
    bench/run.sh --quick --skip-big --skip-http --lean > "build/bench/speed-run-$i.log" 2>&1 ||
      { tail -20 "build/bench/speed-run-$i.log"; exit 1; }
    cp bench/results/latest.md "build/bench/speed-run-$i.md"
    sed -n '/^## Summary/,/^## Details/p' "build/bench/speed-run-$i.md" | grep '^|'
  done
fi

if ! skip zarr; then
  part "time-series chips: rumi Cubes against Zarr v3's fastest and smallest chains"
  "$PY" bench/timeseries_bench.py --suite zarr --rumi-tiles 256,128,64
fi

if ! skip ceiling; then
  part "OpenZL's decode ceiling on the Cubes, one thread (seconds per decode of every frame)"
  cargo build -q --release --example decode_ceiling
  for f in build/ts-bench/full/*_u9_t*.rumi; do
    [ -e "$f" ] && target/release/examples/decode_ceiling --threads 1 --reps 3 "$f"
  done
fi

if ! skip frontier; then
  part "the size/speed frontier: rumi's settings against every Zarr, COG and image-codec setting (issue 48)"
  if [ -f build/frontier-pkgs/zarr/__init__.py ] || "$TORCH_PY" -c "import zarr" 2> /dev/null; then
    "$TORCH_PY" bench/frontier.py ${FRONTIER_ARGS:---quick}
  else
    echo "skipped: zarr missing (pip install --target build/frontier-pkgs zarr numcodecs pcodec)"
  fi
fi

if ! skip gpu; then
  part "a GPU fed with the loader's defaults"
  if command -v nvidia-smi > /dev/null && nvidia-smi -L > /dev/null 2>&1 && [ -x "$TORCH_PY" ]; then
    PYTHONPATH=python "$TORCH_PY" bench/gpu_feed_bench.py --gpu
  else
    echo "skipped: no CUDA GPU here (nvidia-smi finds none) or no torch venv at $TORCH_PY"
  fi
fi
