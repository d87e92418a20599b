"""The `rumi-catalog build|search|vrt` console script (installed with the package)."""

from __future__ import annotations

import argparse
import sys
from typing import Sequence

from .._errors import FormatError, RequestError, RumiIOError
from .table import Catalog


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="rumi-catalog", description="catalogues of rumi files (GeoParquet 1.1)")
    sub = p.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("build", help="one row per rumi file")
    b.add_argument("srcs", nargs="+", help="rumi files or URLs")
    b.add_argument("-o", "--output", required=True,
                   help="catalogue path (.parquet), or a folder (existing, or ending with /): a partitioned catalogue, new part files added")
    b.add_argument("--skip-errors", action="store_true", help="leave out files that fail, with a warning")
    b.add_argument("--nodata", type=float, nargs="+", metavar="V",
                   help="nodata of every band (one value) or of each band (default: each file's .aux.xml)")  # fmt: skip
    b.add_argument("--classes", nargs="+", metavar="BAND",
                   help="bands whose class counts per step and tile are recorded (default: integer bands with at most "
                        "32 values; 'none': no band)")  # fmt: skip
    b.add_argument("--exact-classes", action="store_true",
                   help="keep the class counts exact whatever their bytes (default: quantised past 4 KB a band for a "
                        "file of one step, 1,280 bytes for a Cube)")
    b.add_argument("--no-stats", action="store_true",
                   help="do not record the numeric statistics (rumi:stats; they read every file's pixels once)")
    v = sub.add_parser("vrt", help="GDAL VRT mosaic of a selection")
    v.add_argument("catalog")
    v.add_argument("-o", "--output", required=True)
    v.add_argument("--bbox", type=float, nargs=4, metavar=("W", "S", "E", "N"))
    v.add_argument("--crs", help="CRS of --bbox (default EPSG:4326)")
    v.add_argument("--time", nargs="+", help="an instant or START END")
    v.add_argument("--bands", nargs="+")
    v.add_argument("--time-index", type=int, default=0)
    s = sub.add_parser("search", help="print the ids of matching rows")
    s.add_argument("catalog")
    s.add_argument("--bbox", type=float, nargs=4, metavar=("W", "S", "E", "N"))
    s.add_argument("--crs")
    s.add_argument("--time", nargs="+")
    s.add_argument("--bands", nargs="+")
    return p


def _run(args: argparse.Namespace) -> int:
    if args.cmd == "build":
        nd = None if not args.nodata else (args.nodata[0] if len(args.nodata) == 1 else args.nodata)
        cl = None if not args.classes else (False if args.classes == ["none"] else args.classes)
        cat = Catalog.build(args.srcs, args.output, on_error="skip" if args.skip_errors else "raise", nodata=nd, classes=cl,
                            stats=not args.no_stats, exact_classes=args.exact_classes)
        print(f"{args.output}: {len(cat)} files")
        return 0
    cat = Catalog.open(args.catalog)
    t = None if not args.time else (args.time[0] if len(args.time) == 1 else tuple(args.time[:2]))
    sel = cat.search(bbox=args.bbox, crs=args.crs, time=t, bands=args.bands)
    if args.cmd == "search":
        for i in sel.column("id"):
            print(i)
        return 0
    sel.vrt(args.output, time_index=args.time_index, bands=args.bands)
    print(f"{args.output}: mosaic of {len(sel)} files")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """`rumi-catalog build|search|vrt ...`: errors go to stderr with exit status 1."""
    args = _parser().parse_args(argv)
    try:
        return _run(args)
    except (FormatError, RequestError, RumiIOError, ValueError, OSError) as e:
        print(f"rumi-catalog: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
