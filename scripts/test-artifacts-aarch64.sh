#!/usr/bin/env bash
# The aarch64 artefacts of scripts/build-wheels.sh and scripts/build-deb.sh, installed and used as a
# user of an aarch64 machine would (NVIDIA Grace, AWS Graviton), here under qemu-user: Debian 12's
# arm64 Python 3.11 and GDAL 3.6 with their libraries, taken from Debian's arm64 packages
# (scripts/lib/aarch64.sh: downloaded by apt-get, unpacked; no root filesystem from elsewhere).
# scripts/test-artifacts.sh runs it after its x86-64 checks, with the compilers replaced on PATH
# by its recording stubs (the emulated processes inherit that PATH), and passes an x86-64 venv
# with the x86-64 wheels for the comparison across architectures:
#
#   scripts/test-artifacts-aarch64.sh WORKDIR X86_PYTHON
#
#  1. a fresh venv of Debian 12's arm64 Python 3.11: `pip install` of the aarch64 rumi wheel
#     (timed; numpy, affine, pyproj: PyPI's aarch64 wheels, downloaded here first into
#     $cache/arm64/wheels, as pip's cache serves them on x86-64), then rumi-gdal with rasterio
#     1.4's aarch64 wheel (GDAL 3.10);
#  2. tests/artifacts/smoke.py as on x86-64 (write, read, xarray engine, catalogue, a chip batch
#     through rumi.torch, rasterio and rioxarray through rumi.gdal.register()) on an emulated
#     Neoverse N1 (Graviton 2: armv8.2-a and nothing of armv8.3+ or SVE), with xarray, dask,
#     rioxarray, pyarrow, shapely and torch 2.10 (the newest CPU-only aarch64 torch on PyPI; from
#     2.11 PyPI's aarch64 torch is the CUDA build for Grace, 480 MB plus the CUDA wheels) borrowed
#     through a .pth file from a folder this machine's pip unpacks once ($cache/arm64/extras-py3.11),
#     as the x86-64 checks borrow torch; the documentation's env=wheels examples; register() with another
#     rasterio release of the line (tests/artifacts/other_release.py: the plugin relinked);
#  3. a Cortex-A72 (armv8.0: Graviton 1, Raspberry Pi 4) gets rumi's error naming lse and rdm,
#     from rumi.write and through rasterio's GDAL, never an illegal instruction;
#  4. every real raster of ../shared/data written by rumi.write on each architecture
#     (tests/artifacts/cross_arch.py) reads back on the other with the source's samples, through
#     rumi.open and through rasterio + the plugin; the files' bytes are compared too;
#  5. the arm64 .deb unpacked over a copy of the arm64 packages (hard links; what apt would
#     install), its Depends checked against them, then with GDAL_DRIVER_PATH unset: `rumi convert`
#     of every real raster, the arm64 `gdalinfo -checksum` equal to this machine's (x86-64 GDAL 3.6.2)
#     on the GeoTIFF (and to MANIFEST.tsv's where it lists them all), gdal_translate back to GeoTIFF, and Debian's python3-gdal (osgeo) reading
#     through the installed plugin;
#  6. a fresh venv of Debian 13's arm64 Python 3.13 (rasterio 1.5 has no wheel for 3.11): the rumi
#     wheel, rumi-gdal and rasterio 1.5's aarch64 wheel (GDAL 3.12: the wheel's other plugin), and
#     smoke.py without the chip batch.
# Prints each step's time and the figures; exits 1 when a check fails.
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$(pwd)
usage="usage: scripts/test-artifacts-aarch64.sh WORKDIR X86_PYTHON"
work=${1:?$usage}/aarch64
x86_py=${2:?$usage}
. scripts/lib/aarch64.sh
t0=$(date +%s)
stamp() { echo; echo "== aarch64: $1 ($(( $(date +%s) - t0 ))s)"; }
fail=0
bad() { echo "  FAIL: $*" >&2; fail=1; }
figures=()
figure() { figures+=("$(printf '  %-58s %s' "$1" "$2")"); }
secs() { python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.1f}')" "$1" "$(date +%s.%N)"; }
expect_error() { # label, text the output must contain, command...
  local out
  if out=$("${@:3}" 2>&1); then bad "$1: it succeeded: $(tail -3 <<<"$out")"; return; fi
  if grep -qF -- "$2" <<<"$out"; then echo "  ok: $1: $(grep -F -- "$2" <<<"$out" | head -1 | cut -c1-240)"
  else bad "$1: expected '$2' in: $(tail -5 <<<"$out")"; fi
}

version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -1)
rumi_whl=$repo/dist/rumi-$version-cp311-abi3-manylinux_2_28_aarch64.whl
gdal_whl=$(ls "$repo"/dist/rumi_gdal-"$version"-py3-none-*_aarch64.whl 2>/dev/null | head -1 || true)
deb=$repo/dist/gdal-plugin-rumi_${version}-1_arm64.deb
data=${RUMI_DATA_DIR:-$repo/../shared/data}
[ -f "$rumi_whl" ] || { echo "test-artifacts-aarch64: error: $rumi_whl is missing: run scripts/build-wheels.sh first" >&2; exit 1; }
[ -n "$gdal_whl" ] || { echo "test-artifacts-aarch64: error: dist/rumi_gdal-$version-*_aarch64.whl is missing: run scripts/build-wheels.sh first" >&2; exit 1; }
skip_deb=${RUMI_ARTIFACTS_SKIP_DEB:-0}
[ "$skip_deb" = 1 ] || [ -f "$deb" ] || { echo "test-artifacts-aarch64: error: $deb is missing: run scripts/build-deb.sh first" >&2; exit 1; }
rm -rf "$work"; mkdir -p "$work"
export PIP_ONLY_BINARY=:all: PIP_DISABLE_PIP_VERSION_CHECK=1
# every emulated process runs on a Neoverse N1 (Graviton 2's core: armv8.2-a, nothing newer) unless
# a check names another CPU; also qemu's default CPU (max) has pointer authentication, which it
# computes in software: Debian 13's Python, built with branch protection, runs 6x slower on it
export QEMU_CPU=neoverse-n1

stamp "Debian 12's arm64 packages (python3.11, libgdal32, gdal-bin and their dependencies)"
arm64_root || { bad "the Debian arm64 packages could not be had"; exit 1; }
figure "aarch64 rumi wheel $(basename "$rumi_whl")" "$(( $(stat -c %s "$rumi_whl") / 1000 )) kB"
figure "aarch64 rumi-gdal wheel $(basename "$gdal_whl")" "$(( $(stat -c %s "$gdal_whl") / 1000 )) kB"
# pip from Debian's pip wheel, from the wheels arm64_wheelhouse fetched (no index: an emulated pip
# resolving on PyPI takes about 15 s a package, and its cache does not work under qemu-user)
pip_in() { local py=$1; shift; "$py" "$ROOT_PIP/pip" install -q --no-index --find-links "$arm64_dir/wheels" "$@"; }
extras_reqs=(xarray "dask[array]" rioxarray pyarrow shapely "torch>=2.10,<2.11")
stamp "the aarch64 wheels of PyPI that the installs need (pip download here, into $arm64_dir/wheels)"
t=$(date +%s.%N)
arm64_wheelhouse "$rumi_whl" "$gdal_whl" "rasterio>=1.4,<1.5" "${extras_reqs[@]}" || bad "pip download of the aarch64 wheels"
figure "pip download of the aarch64 dependencies (cached)" "$(secs "$t") s"

# torch and the other extras, once: unpacked by this machine's pip into a folder kept in the cache
# (an emulated pip takes 5 minutes over them; this one 30 s); the fresh venv borrows it (.pth)
extras=$arm64_dir/extras-py3.11
if [ "$(cat "$extras/.complete" 2>/dev/null)" != "${extras_reqs[*]}" ]; then
  stamp "the borrowed extras, once: ${extras_reqs[*]} unpacked into $extras (pip --target here)"
  t=$(date +%s.%N)
  rm -rf "$extras"
  if arm64_wheelhouse --target "$extras" "${extras_reqs[@]}"; then echo "${extras_reqs[*]}" >"$extras/.complete"; else bad "the aarch64 extras in $extras"; fi
  figure "once: the extras unpacked (pip --target, native)" "$(secs "$t") s"
fi

# 6. Debian 13's Python 3.13 (rasterio 1.5 has no wheel for Python 3.11: the rumi-gdal wheel's
# GDAL 3.12 plugin is loaded here), beside the checks of Debian 12's (one emulated process at a
# time each: the two use both cores). Its packages and wheels fetched first, here (natively, in a
# subshell: arm64_root sets the root for its suite); its emulated part in a subshell in the
# background, its output, figures and failure gathered at the end.
venv13=$work/venv-3.13
extras13_reqs=(xarray "dask[array]" rioxarray)
extras13=$arm64_dir/extras-py3.13
py313_fetch() {
  arm64_root trixie || { echo "Debian 13's arm64 packages could not be had"; return 1; }
  arm64_wheelhouse "$rumi_whl" "$gdal_whl" "rasterio>=1.5,<1.6" || { echo "pip download of the aarch64 wheels for Python 3.13"; return 1; }
  if [ "$(cat "$extras13/.complete" 2>/dev/null)" != "${extras13_reqs[*]}" ]; then
    rm -rf "$extras13"
    if arm64_wheelhouse --target "$extras13" "${extras13_reqs[@]}"; then echo "${extras13_reqs[*]}" >"$extras13/.complete"
    else echo "the Python 3.13 extras in $extras13"; return 1; fi
  fi
}
py313_checks() {
  local first=${#figures[@]}
  fail=0
  arm64_root trixie
  arm64_python "$venv13"
  t=$(date +%s.%N)
  pip_in "$venv13/bin/python" "$rumi_whl" "$gdal_whl" "rasterio>=1.5,<1.6" || bad "pip install of the aarch64 wheels + rasterio 1.5 (Python 3.13)"
  figure "pip install aarch64 rumi + rumi-gdal + rasterio 1.5, Python 3.13 (emulated)" "$(secs "$t") s"
  echo "$extras13" >"$("$venv13/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')/zz_borrowed_extras.pth"
  mkdir -p "$work/smoke-3.13"
  t=$(date +%s.%N)
  if out=$("$venv13/bin/python" "$repo/tests/artifacts/smoke.py" "$work/smoke-3.13" --expect-rasterio 1.5 2>&1); then
    sed 's/^/  /' <<<"$out"
    figure "smoke.py, Python 3.13 + rasterio 1.5 (emulated Neoverse N1)" "$(secs "$t") s"
  else
    sed 's/^/  /' <<<"$out"; bad "smoke.py on aarch64 with Python 3.13 and rasterio 1.5"
  fi
  printf '%s\n' "${figures[@]:$first}" >"$work/py313.figures"
  return $fail
}
stamp "Debian 13's arm64 Python 3.13: its packages and wheels, then a fresh venv, the rumi wheel, rumi-gdal + rasterio 1.5 (GDAL 3.12), in the background"
py313_pid=""
if why=$(py313_fetch 2>&1 | tail -1; exit "${PIPESTATUS[0]}"); then
  (py313_checks) >"$work/py313.log" 2>&1 &
  py313_pid=$!
  trap '[ -z "${py313_pid:-}" ] || kill "$py313_pid" 2>/dev/null || true' EXIT
else
  bad "$why"
fi

stamp "a fresh venv of Debian's arm64 Python 3.11 (qemu-aarch64): the rumi wheel, then rumi-gdal + rasterio 1.4"
venv=$work/venv
arm64_python "$venv"
t=$(date +%s.%N)
pip_in "$venv/bin/python" "$rumi_whl" || bad "pip install of the aarch64 rumi wheel"
figure "pip install aarch64 rumi wheel, fresh venv (emulated, deps cached)" "$(secs "$t") s"
t=$(date +%s.%N)
"$venv/bin/python" -c 'import rumi' || bad "import rumi (aarch64)"
figure "first python -c 'import rumi' (emulated)" "$(secs "$t") s"
expect_error "rumi.gdal.register() without rumi-gdal (aarch64)" "pip install rumi-gdal" \
  "$venv/bin/python" -c 'import rumi.gdal; rumi.gdal.register()'
t=$(date +%s.%N)
pip_in "$venv/bin/python" "$gdal_whl" "rasterio>=1.4,<1.5" || bad "pip install of rumi-gdal + rasterio 1.4 (aarch64)"
figure "pip install aarch64 rumi-gdal + rasterio 1.4 (emulated)" "$(secs "$t") s"
own=$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
echo "$extras" >"$own/zz_borrowed_extras.pth"   # after the venv's own packages: its numpy, rasterio win

stamp "smoke.py (emulated Neoverse N1: Graviton 2), torch chip batch included"
mkdir -p "$work/smoke"
t=$(date +%s.%N)
if out=$("$venv/bin/python" "$repo/tests/artifacts/smoke.py" "$work/smoke" --expect-rasterio 1.4 --torch 2>&1); then
  sed 's/^/  /' <<<"$out"
  figure "smoke.py under emulation (Neoverse N1), whole run" "$(secs "$t") s"
  figure "first import rumi / first read (in smoke.py, emulated)" \
    "$(sed -n 's/.*import_ms=\([0-9]*\) first_read_ms=\([0-9.]*\).*/\1 ms \/ \2 ms/p' <<<"$out")"
else
  sed 's/^/  /' <<<"$out"; bad "smoke.py on aarch64"
fi
(cd "$repo" && "$venv/bin/python" scripts/readme_blocks.py wheels) | sed 's/^/  /' || bad "the documentation's wheels examples (aarch64)"
# another rasterio release of the same GDAL line (its libgdal under another name): register()
# relinks the aarch64 plugin (rumi_gdal._elf) as it does the x86-64 one
mkdir -p "$work/other"
t=$(date +%s.%N)
"$venv/bin/python" tests/artifacts/other_release.py "$work/other" | sed 's/^/  /' || bad "register() with another rasterio release (aarch64)"
figure "other_release.py (a renamed libgdal, relinked plugin), emulated" "$(secs "$t") s"

stamp "an armv8.0 CPU (emulated Cortex-A72: Graviton 1, Raspberry Pi 4) gets rumi's error"
cpu_check='
import numpy as np, rumi
a = np.arange(3 * 300 * 400, dtype=np.uint16).reshape(3, 300, 400)
rumi.write("cpu.rumi", a, bands=["a", "b", "c"], times=["2020-01-01"], crs="EPSG:32633", geotransform=(0, 1, 0, 0, 0, -1))'
want="this CPU lacks lse, rdm (armv8.2-a)"
(cd "$work" && expect_error "rumi.write on a Cortex-A72" "$want" env QEMU_CPU=cortex-a72 "$venv/bin/python" -c "$cpu_check")
# a file written on a supported CPU, read on the A72 through rasterio's GDAL: the same error, from GDAL
(cd "$work" && expect_error "rasterio read through the plugin on a Cortex-A72" "$want" env QEMU_CPU=cortex-a72 "$venv/bin/python" -c '
import rumi, rasterio
rumi.gdal.register()
rasterio.open("smoke/cube.rumi").read(1)')

stamp "files written on one architecture, read on the other (every real raster of $data)"
if [ -d "$data" ] && ls "$data"/*.tif >/dev/null 2>&1; then
  t=$(date +%s.%N)
  "$x86_py" tests/artifacts/cross_arch.py write "$data" "$work/x86" >"$work/x86-write.json" || bad "cross_arch.py write on x86-64"
  figure "cross_arch.py write, x86-64 (native)" "$(secs "$t") s"
  t=$(date +%s.%N)
  "$venv/bin/python" tests/artifacts/cross_arch.py write "$data" "$work/arm" >"$work/arm-write.json" || bad "cross_arch.py write on aarch64"
  figure "cross_arch.py write, aarch64 (emulated)" "$(secs "$t") s"
  t=$(date +%s.%N)
  "$venv/bin/python" tests/artifacts/cross_arch.py read "$work/x86" >"$work/arm-reads-x86.json" || bad "aarch64 reading x86-64's files"
  figure "cross_arch.py read of x86-64's files, aarch64 (emulated)" "$(secs "$t") s"
  "$x86_py" tests/artifacts/cross_arch.py read "$work/arm" >"$work/x86-reads-arm.json" || bad "x86-64 reading aarch64's files"
  python3 - "$work" <<'EOF' || bad "files across architectures (above)"
import json, pathlib, sys, filecmp
w = pathlib.Path(sys.argv[1])
x, a = (json.loads((w / f).read_text()) for f in ("x86-write.json", "arm-write.json"))
ra, rx = (json.loads((w / f).read_text()) for f in ("arm-reads-x86.json", "x86-reads-arm.json"))
bad, same_bytes, n = [], 0, 0
assert x.keys() == a.keys() and x, (sorted(x), sorted(a))
for name in sorted(x):
    if "refused" in x[name] or "refused" in a[name]:
        if x[name] != a[name]:
            bad.append(f"{name}: refused differently: {x[name]} / {a[name]}")
        continue
    n += 1
    src = x[name]["source"]
    if a[name]["source"] != src:
        bad.append(f"{name}: rasterio read the GeoTIFF differently on the two machines")
    for who, d in (("x86-64 wrote, x86-64 read", x[name]["rumi"]), ("aarch64 wrote, aarch64 read", a[name]["rumi"]),
                   ("x86-64 wrote, aarch64 rumi.open", ra[name]["rumi"]), ("x86-64 wrote, aarch64 rasterio", ra[name]["rasterio"]),
                   ("aarch64 wrote, x86-64 rumi.open", rx[name]["rumi"]), ("aarch64 wrote, x86-64 rasterio", rx[name]["rasterio"])):
        if d != src:
            bad.append(f"{name}: {who}: {d} != the source's {src}")
    files = sorted(p.name for p in (w / "x86").glob(name + ".rumi*"))
    if files == sorted(p.name for p in (w / "arm").glob(name + ".rumi*")) and all(
            filecmp.cmp(w / "x86" / f, w / "arm" / f, shallow=False) for f in files):
        same_bytes += 1
refused = sorted(k for k in x if "refused" in x[k])
print(f"  {n} rasters written on each machine: samples identical to the source's on both, read by "
      f"rumi.open and by rasterio through the plugin, across the architectures; the files "
      f"(.rumi and sidecars) byte-identical for {same_bytes} of {n}" + (f"; refused alike on both: {refused}" if refused else ""))
for b in bad:
    print("  FAIL:", b)
sys.exit(1 if bad else 0)
EOF
else
  # the real rasters are not part of the repository: without them (a checkout with no
  # ../shared/data beside it) the comparison is skipped, saying so, as every test that reads them
  echo "  SKIPPED: no real rasters in $data (RUMI_DATA_DIR names another folder): the comparison across architectures is left out"
fi

if [ "$skip_deb" != 1 ]; then
  stamp "the arm64 .deb over Debian's arm64 GDAL (unpacked into a copy of the packages), GDAL_DRIVER_PATH unset"
  sys=$work/system
  t=$(date +%s.%N)
  cp -al "$ROOT" "$sys" 2>/dev/null || { rm -rf "$sys"; cp -a "$ROOT" "$sys"; }   # a copy across file systems
  dpkg-deb -x "$deb" "$sys"
  figure "arm64 .deb unpacked ($(( $(stat -c %s "$deb") / 1000 )) kB; dpkg-deb -x, as apt would)" "$(secs "$t") s"
  # every dependency the package declares is met by the packages it was unpacked over
  depends=$(dpkg-deb -f "$deb" Depends)
  python3 - "$depends" "$ROOT/.packages" <<'EOF' || bad "the arm64 .deb's Depends"
import re, subprocess, sys
have = dict(l.split("=", 1) for l in open(sys.argv[2]).read().split() if "=" in l)
for dep in sys.argv[1].split(","):
    alts, ok = [a.strip() for a in dep.split("|")], False
    for a in alts:
        m = re.fullmatch(r"([^ ]+)(?: \((>=|<=|=|>>|<<) ([^)]+)\))?", a)
        name, op, ver = m.groups()
        if name in have and (op is None or subprocess.run(["dpkg", "--compare-versions", have[name], {"=": "eq", ">=": "ge", "<=": "le", ">>": "gt", "<<": "lt"}[op], ver]).returncode == 0):
            ok = True
    if not ok:
        sys.exit(f"  FAIL: {dep.strip()} is not met by Debian's arm64 packages")
print(f"  ok: Depends: {sys.argv[1]} (met by the arm64 packages)")
EOF
  file "$sys/usr/bin/rumi" | grep -q 'ARM aarch64' || bad "the .deb's /usr/bin/rumi is not an aarch64 program: $(file -b "$sys/usr/bin/rumi")"
  if [ -d "$data" ] && ls "$data"/*.tif >/dev/null 2>&1; then
    t=$(date +%s.%N)
    python3 - "$data" "$work" "$sys" <<'EOF' || bad "the arm64 CLI and GDAL tools (above)"
import csv, pathlib, subprocess, sys
data, work, sys_root = map(pathlib.Path, sys.argv[1:])
def emu(*args):
    return subprocess.run(["qemu-aarch64", "-L", str(sys_root), *map(str, args)], capture_output=True, text=True,
                          env={"PATH": "/usr/bin:/bin", "QEMU_CPU": "neoverse-n1"})
def checksums(path):
    r = emu(sys_root / "usr/bin/gdalinfo", "-checksum", path)
    return r.returncode, [int(l.split("=")[1]) for l in r.stdout.splitlines() if l.strip().startswith("Checksum=")], r
manifest = {r["file"]: r for r in csv.DictReader(open(data / "MANIFEST.tsv"), delimiter="\t")}
out, failed, ok, notes = work / "deb", [], 0, []
out.mkdir()
for tif in sorted(data.glob("*.tif")):
    dest = out / (tif.stem + ".rumi")
    r = emu(sys_root / "usr/bin/rumi", "convert", "-q", "--time", "2020-05-18", tif, dest)
    if r.returncode != 0:
        # a raster rumi cannot georeference: refused, naming why (then converted without georeferencing)
        notes.append(f"{tif.name}: {r.stderr.strip().splitlines()[-1][:160] if r.stderr.strip() else r.returncode}")
        r = emu(sys_root / "usr/bin/rumi", "convert", "-q", "--no-georef", "--time", "2020-05-18", tif, dest)
        if r.returncode != 0:
            # samples rumi has no encoding for (complex integers): refused, naming them
            if "cannot be stored as rumi" not in r.stderr:
                failed.append(f"{tif.name}: rumi convert --no-georef failed without saying why: {r.stderr[-300:]}")
            else:
                notes[-1] += f"; with --no-georef too: {r.stderr.strip()[:160]}"
            continue
    rc, got, info = checksums(dest)
    # the oracle: this machine's GDAL (x86-64, Debian's 3.6.2) on the GeoTIFF, as MANIFEST.tsv records it
    host = subprocess.run(["gdalinfo", "-checksum", str(tif)], capture_output=True, text=True).stdout
    want = [int(l.split("=")[1]) for l in host.splitlines() if l.strip().startswith("Checksum=")]
    listed = manifest[tif.name]["gdal_checksums_computed(GDAL 3.6.2)"]
    if "..." not in listed and [int(x) for x in listed.split(",")] != want:
        failed.append(f"{tif.name}: this machine's gdalinfo -checksum {want} is not MANIFEST.tsv's {listed}"); continue
    if rc != 0 or "Driver: RUMI/" not in info.stdout:
        failed.append(f"{tif.name}: gdalinfo on the arm64 conversion: {info.stderr[-300:]}"); continue
    if got != want:
        failed.append(f"{tif.name}: arm64 gdalinfo -checksum {got} != x86-64 GDAL's on the GeoTIFF {want}"); continue
    ok += 1
tr = emu(sys_root / "usr/bin/gdal_translate", "-q", "-of", "GTiff", out / "gdal_byte.rumi", out / "back.tif")
if tr.returncode != 0 or checksums(out / "back.tif")[1] != [4672]:
    failed.append(f"gdal_translate back to GeoTIFF: {tr.stderr[-300:]} {checksums(out / 'back.tif')[1]}")
py = emu(sys_root / "usr/bin/python3.11", "-c", f"""
from osgeo import gdal; import numpy as np
a = gdal.Open("{data / 'rasterio_RGB.byte.tif'}"); b = gdal.Open("{out / 'rasterio_RGB.byte.rumi'}")
assert b.GetDriver().ShortName == "RUMI", b.GetDriver().ShortName
assert np.array_equal(a.ReadAsArray(), b.ReadAsArray()) and a.GetGeoTransform() == b.GetGeoTransform()
print("osgeo", gdal.__version__)""")
if py.returncode != 0:
    failed.append(f"Debian's arm64 python3-gdal through the plugin: {py.stderr[-400:]}")
print(f"  ok: /usr/bin/rumi convert of {ok} real rasters, arm64 gdalinfo -checksum equal to x86-64 GDAL 3.6.2's on the GeoTIFFs "
      f"through /usr/lib/aarch64-linux-gnu/gdalplugins/gdal_RUMI.so; gdal_translate back to GeoTIFF; "
      f"{py.stdout.strip()} (Debian's arm64 python3-gdal) reads the same pixels")
for n in notes:
    print("  refused with georeferencing (then converted with --no-georef):", n)
for f in failed:
    print("  FAIL:", f)
sys.exit(1 if failed else 0)
EOF
    figure "arm64 rumi convert + gdalinfo -checksum of every real raster (emulated)" "$(secs "$t") s"
  fi
  rm -rf "$sys"
fi

stamp "Debian 13's arm64 Python 3.13 (run beside the checks above): its output"
if [ -n "$py313_pid" ]; then
  py313_rc=0
  wait "$py313_pid" || py313_rc=$?
  py313_pid=""
  cat "$work/py313.log"
  [ "$py313_rc" = 0 ] || bad "the Python 3.13 checks (above; exit status $py313_rc)"
  while IFS= read -r f; do [ -z "$f" ] || figures+=("$f"); done <"$work/py313.figures" 2>/dev/null || true
fi

stamp "aarch64 figures"
printf '%s\n' "${figures[@]}"
stamp "test-artifacts-aarch64 done (failures: $fail)"
exit $fail
