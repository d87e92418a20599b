#!/usr/bin/python3
"""Replays the fuzz corpora through the GDAL driver (the C++ adapter that cargo fuzz does not
reach): every input of fuzz/corpus/read_file as a file (validated open) and every input of
fuzz/corpus/read_blob split into blob and file (stateless open), each through
`gdalinfo -checksum` in its own process under a timeout and `prlimit --as`.

    replay_corpus.py PLUGIN_DIR [--valgrind] [--every K]

Prints the number of inputs replayed and every one that ended with a signal, a timeout or (with
--valgrind) a valgrind error; exits 1 if there was any. scripts/fuzz.sh runs it after fuzzing.
"""

import argparse
import os
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "fuzz" / "corpus"


def cases(tmp, every):
    for i, p in enumerate(sorted((CORPUS / "read_file").glob("*"))):
        if i % every == 0:
            yield p.name, ["-oo", "HEADER=NONE", f"RUMI:{p}"]
    for i, p in enumerate(sorted((CORPUS / "read_blob").glob("*"))):
        d = p.read_bytes()
        if i % every or len(d) < 2:
            continue
        n = struct.unpack("<H", d[:2])[0]
        if n > len(d) - 2:
            continue
        blob, rumi = tmp / f"{p.name}.blob", tmp / f"{p.name}.rumi"
        blob.write_bytes(d[2:2 + n])
        rumi.write_bytes(d[2 + n:])
        yield p.name + " (blob)", ["-oo", f"HEADER={blob}", f"RUMI:{rumi}"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("plugin_dir")
    ap.add_argument("--valgrind", action="store_true")
    ap.add_argument("--every", type=int, default=1, help="replay every K-th input")
    a = ap.parse_args()
    env = dict(os.environ, GDAL_DRIVER_PATH=a.plugin_dir, GDAL_PAM_ENABLED="NO", CPL_DEBUG="OFF")
    bad, total = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, args in cases(Path(tmp), a.every):
            total += 1
            if a.valgrind:
                cmd = ["valgrind", "--error-exitcode=99", "--quiet", "gdalinfo", "-checksum", *args]
            else:
                cmd = ["prlimit", f"--as={2 << 30}", "gdalinfo", "-checksum", *args]
            try:
                p = subprocess.run(cmd, capture_output=True, text=True, timeout=300 if a.valgrind else 60, env=env)
                if p.returncode not in (0, 1):
                    bad.append(f"{name}: exit {p.returncode}: {p.stderr[-2000:]}")
            except subprocess.TimeoutExpired:
                bad.append(f"{name}: timeout")
    print(f"replay_corpus: {total} fuzz inputs through gdalinfo{' under valgrind' if a.valgrind else ''}, "
          f"{len(bad)} failed")
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
