#!/usr/bin/env bash
# Runs every fuzz target of fuzz/ (cargo fuzz, libFuzzer + AddressSanitizer) for SECONDS each.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]     # default: 60 seconds, every target
#   FUZZ_JOBS=2 scripts/fuzz.sh 1800          # two targets at a time (default 1)
#
# Seeds are generated from valid files of every encoding and frame unit (examples/fuzz_seeds.rs)
# into fuzz/corpus/<target>/, which libFuzzer then grows (not committed). libFuzzer runs in fork
# mode, so a crash does not end the run: crashing inputs land in fuzz/artifacts/<target>/; keep
# each one as tests/fuzz_regressions/<class>/<target>-<name> (tests/fuzz_regressions.rs replays
# them). Logs and final stats (executions, coverage) are in fuzz/logs/<target>.log. At the end the
# grown read_file / read_blob corpora are replayed through gdalinfo (tests/hostile/replay_corpus.py)
# and a summary is printed. Runs at nice 19: the machine is shared. cargo-fuzz needs nightly
# features: on a stable toolchain RUSTC_BOOTSTRAP=1 enables them (set for cargo fuzz only, so
# that the main target directory keeps its fingerprints).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(ifd trailer blob read_file read_blob capi gdal)
fi
jobs=${FUZZ_JOBS:-1}

command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz
nice -n 19 cargo build --release --example fuzz_seeds
./target/release/examples/fuzz_seeds fuzz/corpus
(cd fuzz && RUSTC_BOOTSTRAP=1 nice -n 19 cargo fuzz build -O)
mkdir -p fuzz/logs

run_one() {
  local t=$1
  mkdir -p "fuzz/artifacts/$t"
  # -timeout: an input taking over 10 s is a hang; -rss_limit_mb: the limits keep a run far below
  (cd fuzz && RUSTC_BOOTSTRAP=1 nice -n 19 cargo fuzz run -O "$t" "corpus/$t" -- \
      -max_total_time="$seconds" -timeout=10 -rss_limit_mb=1024 -max_len=65536 \
      -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
      -print_final_stats=1 -artifact_prefix="artifacts/$t/") >"fuzz/logs/$t.log" 2>&1 || true
}

running=0
for t in "${targets[@]}"; do
  run_one "$t" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then
    wait -n || true
    running=$((running - 1))
  fi
done
wait || true

# the grown read_file / read_blob corpora also through gdalinfo (the plugin as GDAL loads it)
nice -n 19 cargo build --release --lib
plugins=$(mktemp -d)
cp target/release/libgdal_rumi.so "$plugins/gdal_RUMI.so"
nice -n 19 /usr/bin/python3 tests/hostile/replay_corpus.py "$plugins" || true
rm -rf "$plugins"

echo
printf '%-10s %14s %8s %8s %9s %s\n' target executions cov ft corpus artifacts
for t in "${targets[@]}"; do
  log=fuzz/logs/$t.log
  last=$(grep -E '^#[0-9]+' "$log" | tail -1)
  execs=$(echo "$last" | grep -o '^#[0-9]*' | tr -d '#')
  cov=$(echo "$last" | grep -o 'cov: [0-9]*' | grep -o '[0-9]*')
  ft=$(echo "$last" | grep -o 'ft: [0-9]*' | grep -o '[0-9]*')
  corp=$(echo "$last" | grep -o 'corp: [0-9]*' | grep -o '[0-9]*')
  found=$(find "fuzz/artifacts/$t" -type f | wc -l)
  printf '%-10s %14s %8s %8s %9s %s\n' "$t" "${execs:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}" "$found"
done
