# Sourced by scripts/build-wheels.sh, scripts/build-deb.sh and scripts/test-artifacts-aarch64.sh:
# what the aarch64 artefacts are built and run with on an x86-64 machine.
#
#   arm64_root [SUITE]   -> sets ROOT to $cache/arm64/root: Debian 12's arm64 packages of
#                           $arm64_packages and their dependency closure, downloaded by apt-get
#                           (a private apt state in $cache/arm64/apt, APT::Architecture=arm64:
#                           the system's dpkg and sources are untouched) and unpacked with
#                           dpkg-deb -x (not installed: no maintainer script runs). The arm64
#                           Python 3.11, its pip wheel, GDAL 3.6 (libgdal32, gdal-bin) and the
#                           headers and libgdal.so of libgdal-dev (without its dependencies) for
#                           linking. Made again when a package version changes; apt's lists are
#                           refreshed once a day. SUITE trixie: Debian 13's python3.13 and its pip
#                           wheel only, in $cache/arm64/trixie/root (rasterio 1.5 wants Python >= 3.12).
#                           Also sets ROOT_PY (python3.11 | python3.13) and ROOT_PIP.
#   arm64_python VENV    -> a fresh venv of that arm64 Python at VENV, without pip (pip runs
#                           from Debian's pip wheel: $ROOT_PIP), whose bin/$ROOT_PY runs the
#                           interpreter under qemu-aarch64 (there is no binfmt_misc here, so a
#                           child process of it, sys.executable, goes through the same file).
#                           QEMU_CPU in the environment picks the emulated CPU (default: max).
#   arm64_wheelhouse [--target DIR] R...
#                        -> the aarch64 wheels R... need for $ROOT_PY, in $arm64_dir/wheels (pip
#                           download here), for an emulated `pip install --no-index --find-links`;
#                           with --target also unpacked into DIR here
#   cross_gcc_env        -> exports the cc crate's and cargo's compilers for
#                           aarch64-unknown-linux-gnu: Debian's aarch64-linux-gnu-gcc/g++ (g++-12,
#                           libstdc++'s C++11 ABI, as GDAL's C++ API needs; OpenZL's C gets
#                           -march=armv8.2-a from .cargo/config.toml).
# Needs apt-get, dpkg-deb, qemu-user (qemu-aarch64) and g++-aarch64-linux-gnu (install-deps.sh).
cache=${RUMI_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/rumi}
arm64_dir=$cache/arm64
arm64_packages=(python3.11 python3-pip-whl libgdal32 gdal-bin)
arm64_nodeps=(libgdal-dev)   # its headers and libgdal.so link only: not the -dev closure (500 MB)
arm64_state=$arm64_dir       # the suite's apt state, downloads and root (arm64_root sets it)

arm64_apt() { # apt-get|apt-cache ARGS...: with the private arm64 state
  local tool=$1 a=$arm64_state/apt
  shift
  "$tool" -o "Dir::Etc::SourceList=$a/etc/sources.list" -o Dir::Etc::SourceParts=/dev/null \
    -o "Dir::State::Lists=$a/lists" -o "Dir::State::status=$a/etc/status" -o "Dir::Cache=$a" \
    -o "Dir::Cache::archives=$a/archives" -o APT::Architecture=arm64 -o APT::Architectures=arm64 \
    -o Debug::NoLocking=1 -o APT::Sandbox::User=root -qq "$@"
}

arm64_root() {
  local suite=${1:-bookworm} a debs root t0 want have py s
  local -a packages nodeps_pkgs
  case $suite in
    bookworm) arm64_state=$arm64_dir py=python3.11 packages=("${arm64_packages[@]}") nodeps_pkgs=("${arm64_nodeps[@]}") ;;
    trixie) arm64_state=$arm64_dir/trixie py=python3.13 packages=(python3.13 python3-pip-whl libstdc++6) nodeps_pkgs=() ;;
    *) echo "arm64_root: no suite '$suite' (bookworm | trixie)" >&2; return 1 ;;
  esac
  a=$arm64_state/apt debs=$arm64_state/debs root=$arm64_state/root
  t0=$(date +%s)
  mkdir -p "$a/lists/partial" "$a/archives/partial" "$a/etc" "$debs"
  [ -f "$a/etc/status" ] || : >"$a/etc/status"   # nothing installed: the whole closure is listed
  {
    for s in "$suite" "$suite-updates"; do
      echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $s main"
    done
    echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian-security $suite-security main"
  } >"$a/etc/sources.list"
  if [ -z "$(find "$a/lists" -maxdepth 1 -name '*_Packages*' -mmin -1440 2>/dev/null | head -1)" ]; then
    arm64_apt apt-get update >&2 || { ls "$a/lists"/*_Packages* >/dev/null 2>&1 || return 1; echo "  (apt-get update failed: the lists of $(date -r "$a/lists" +%F) are used)" >&2; }
  fi
  # the closure as apt resolves it for an empty system: "Inst NAME (VERSION ..." lines
  want=$(arm64_apt apt-get -s install --no-install-recommends "${packages[@]}" \
    | sed -n 's/^Inst \([^ ]*\) (\([^ ]*\) .*/\1=\2/p' | sort) || return 1
  [ -n "$want" ] || { echo "arm64_root: apt resolved no packages for ${packages[*]}" >&2; return 1; }
  local nodeps=""
  if [ ${#nodeps_pkgs[@]} -gt 0 ]; then
    nodeps=$(arm64_apt apt-cache show --no-all-versions "${nodeps_pkgs[@]}" \
      | awk '/^Package:/ {p = $2} /^Version:/ {print p "=" $2}') || return 1
  fi
  want=$(printf '%s\n' $want $nodeps | sort -u)
  # what is made of them: a change to this file's unpacking below makes the root again
  local layout="layout 3: DEBIAN/symbols, DEBIAN/shlibs, blas/lapack links, /usr-merge links"
  if [ -f "$root/.packages" ] && [ "$(cat "$root/.packages")" = "$want"$'\n'"$layout" ]; then
    ROOT=$root ROOT_PY=$py
    ROOT_PIP=$(ls "$root"/usr/share/python-wheels/pip-*.whl | tail -1)
    return 0
  fi
  (cd "$debs" && arm64_apt apt-get download $want >&2) || return 1
  rm -rf "$root.tmp"; mkdir -p "$root.tmp"
  local p deb
  for p in $want; do
    deb=$(ls "$debs/${p%%=*}_$(sed 's/:/%3a/' <<<"${p#*=}")_"{arm64,all}.deb 2>/dev/null | head -1)
    [ -n "$deb" ] || { echo "arm64_root: no .deb downloaded for $p" >&2; return 1; }
    dpkg-deb -x "$deb" "$root.tmp"
  done
  # the packages' symbols and shlibs files, as one package build tree's (dpkg-shlibdeps -S$ROOT
  # computes an arm64 .deb's Depends from them: build-deb.sh)
  mkdir -p "$root.tmp/DEBIAN"
  for p in $want; do
    deb=$(ls "$debs/${p%%=*}_$(sed 's/:/%3a/' <<<"${p#*=}")_"{arm64,all}.deb 2>/dev/null | head -1)
    dpkg-deb --ctrl-tarfile "$deb" | tar -xO ./symbols 2>/dev/null >>"$root.tmp/DEBIAN/symbols" || true
    dpkg-deb --ctrl-tarfile "$deb" | tar -xO ./shlibs 2>/dev/null >>"$root.tmp/DEBIAN/shlibs" || true
  done
  # Debian 13 is /usr-merged: its packages put /lib's files in /usr/lib, and base-files (not in
  # the closure) makes the links; the ELF interpreter is /lib/ld-linux-aarch64.so.1
  local d
  for d in bin sbin lib; do [ -e "$root.tmp/$d" ] || ln -s "usr/$d" "$root.tmp/$d"; done
  # what libblas3's and liblapack3's postinst do (update-alternatives): libarmadillo, which
  # libgdal32 needs, links libblas.so.3 and liblapack.so.3
  [ ! -e "$root.tmp/usr/lib/aarch64-linux-gnu/blas" ] || ln -sf blas/libblas.so.3 "$root.tmp/usr/lib/aarch64-linux-gnu/libblas.so.3"
  [ ! -e "$root.tmp/usr/lib/aarch64-linux-gnu/lapack" ] || ln -sf lapack/liblapack.so.3 "$root.tmp/usr/lib/aarch64-linux-gnu/liblapack.so.3"
  printf '%s\n%s\n' "$want" "$layout" >"$root.tmp/.packages"
  # the downloads of packages no longer wanted go
  (cd "$debs" && for deb in *.deb; do
    grep -qxF "$(sed 's/%3a/:/' <<<"${deb%_*}" | sed 's/_/=/')" <<<"$want" || rm -f "$deb"
  done)
  rm -rf "$root"; mv "$root.tmp" "$root"
  ROOT=$root ROOT_PY=$py
  ROOT_PIP=$(ls "$root"/usr/share/python-wheels/pip-*.whl | tail -1)
  echo "arm64_root: $(wc -l <<<"$want") Debian $suite arm64 packages unpacked in $root ($(du -sm "$root" | cut -f1) MB, $(( $(date +%s) - t0 ))s)" >&2
}

arm64_python() {
  local venv=$1
  [ -n "${ROOT:-}" ] || arm64_root || return 1
  rm -rf "$venv"
  qemu-aarch64 -L "$ROOT" "$ROOT/usr/bin/$ROOT_PY" -m venv --without-pip "$venv" || return 1
  rm -f "$venv/bin/$ROOT_PY"
  cat >"$venv/bin/$ROOT_PY" <<EOF
#!/bin/sh
# Debian's arm64 $ROOT_PY under qemu-user (scripts/lib/aarch64.sh): argv[0] stays this file, so
# sys.executable is the venv's and the children it starts run through here too
exec /usr/bin/qemu-aarch64 -L "$ROOT" -0 "\$0" "$ROOT/usr/bin/$ROOT_PY" "\$@"
EOF
  chmod +x "$venv/bin/$ROOT_PY"
}

arm64_wheelhouse() { # [--target DIR] REQUIREMENT|WHEEL...: the cp311 aarch64 wheels these need,
  # downloaded into $arm64_dir/wheels by this machine's pip (the build venv's: native, fast; pip's
  # cache does not work under qemu-user, and an emulated pip takes about 15 s a package to
  # resolve): the emulated pip then installs from there (--no-index --find-links). With --target,
  # they are also unpacked into DIR by this pip (for packages a test borrows, not the install it
  # tests). A wheel file given is not copied there itself, only what it requires. pip evaluates
  # environment markers for this machine (platform_machine x86_64) even with --platform, so
  # torch, whose x86-64 wheels need the CUDA wheels, is fetched without its dependencies, and
  # those its METADATA names for aarch64 are fetched next.
  local pip=$cache/venvs/wheel-build/bin/pip target="" f r whl deps v
  local -a plain=() alone=()
  if [ "${1:-}" = --target ]; then target=$2; shift 2; fi
  [ -x "$pip" ] || { echo "$pip is missing: scripts/build-wheels.sh makes it" >&2; return 1; }
  mkdir -p "$arm64_dir/wheels"
  # the wheels pip on that Debian's arm64 Python would take: manylinux for its glibc and older
  # (pip does not widen a --platform to the older glibc versions itself)
  local pyv=${ROOT_PY#python} glibc
  [ -n "$pyv" ] || { echo "arm64_wheelhouse: arm64_root first" >&2; return 1; }
  glibc=$(ls "$ROOT"/lib/aarch64-linux-gnu/libc.so.6 "$ROOT"/usr/lib/aarch64-linux-gnu/libc.so.6 2>/dev/null | head -1)
  glibc=$(strings "$glibc" | sed -n 's/^GLIBC_2\.\([0-9]*\)$/\1/p' | sort -n | tail -1)
  local -a plat=(--only-binary=:all: --python-version "$pyv" --implementation cp --abi "cp${pyv/./}" --platform manylinux2014_aarch64)
  for v in $(seq 17 "$glibc"); do plat+=(--platform "manylinux_2_${v}_aarch64"); done
  local -a get=(download -q --disable-pip-version-check "${plat[@]}" -d "$arm64_dir/wheels")
  local -a put=(install -q --disable-pip-version-check "${plat[@]}" --no-index --find-links "$arm64_dir/wheels" --target "$target")
  # pip install checks Requires-Python against the Python it runs on (3.11) even with
  # --python-version (pip download does not): for another version the download's choice stands
  [ "$pyv" = "$("$cache/venvs/wheel-build/bin/python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')" ] \
    || put+=(--ignore-requires-python)
  for r in "$@"; do if [[ $r == torch* ]]; then alone+=("$r"); else plain+=("$r"); fi; done
  hostpip() { env -u PIP_ONLY_BINARY -u PIP_FIND_LINKS "$pip" "$@" >&2; }
  if [ ${#plain[@]} -gt 0 ]; then
    hostpip "${get[@]}" "${plain[@]}" || return 1
    [ -z "$target" ] || hostpip "${put[@]}" "${plain[@]}" || return 1
  fi
  for r in "${alone[@]}"; do
    hostpip "${get[@]}" --no-deps "$r" || return 1
    whl=$(ls "$arm64_dir/wheels"/torch-*-cp"${pyv/./}"-cp"${pyv/./}"-*aarch64.whl | sort -V | tail -1)
    deps=$("$cache/venvs/wheel-build/bin/python" - "$whl" "$pyv" <<'PY'
import sys, zipfile
from pip._vendor.packaging.requirements import Requirement
env = {"platform_machine": "aarch64", "platform_system": "Linux", "sys_platform": "linux", "python_version": sys.argv[2],
       "python_full_version": sys.argv[2] + ".0", "implementation_name": "cpython", "platform_python_implementation": "CPython",
       "os_name": "posix", "extra": ""}
z = zipfile.ZipFile(sys.argv[1])
meta = z.read(next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))).decode()
for line in meta.splitlines():
    if line.startswith("Requires-Dist: "):
        req = Requirement(line.split(": ", 1)[1])
        if req.marker is None or req.marker.evaluate(env):
            print(f"{req.name}{req.specifier}")
PY
) || return 1
    [ -z "$deps" ] || hostpip "${get[@]}" $deps || return 1
    if [ -n "$target" ]; then
      hostpip "${put[@]}" --no-deps "$r" || return 1
      [ -z "$deps" ] || hostpip "${put[@]}" $deps || return 1
    fi
  done
  for f in "$@"; do [ ! -f "$f" ] || rm -f "$arm64_dir/wheels/$(basename "$f")"; done
}

cross_gcc_env() {
  local t
  for t in gcc g++ ar strip; do
    command -v "aarch64-linux-gnu-$t" >/dev/null || { echo "aarch64-linux-gnu-$t is missing (apt install g++-aarch64-linux-gnu)" >&2; return 1; }
  done
  export CC_aarch64_unknown_linux_gnu=aarch64-linux-gnu-gcc CXX_aarch64_unknown_linux_gnu=aarch64-linux-gnu-g++ \
    AR_aarch64_unknown_linux_gnu=aarch64-linux-gnu-ar CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
  # what target/aarch64-gnu builds is packaged stripped (build-deb.sh, build-wheels.sh): no line
  # tables to compile (the release profile's, for valgrind and perf on target/release; the same
  # code: ~13 % less rustc CPU on the core crate), for every build there alike (no rebuild)
  export CARGO_PROFILE_RELEASE_DEBUG=false
}
