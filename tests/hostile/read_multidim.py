#!/usr/bin/python3
"""Opens a rumi file with GDAL's multidimensional API and reads every array in full.

    read_multidim.py FILE HEADER      # HEADER: a blob path, or NONE

Exit 0 when everything was read, 1 with the GDAL error on stderr otherwise (test_hostile.py runs
it on every corpus case, under the same timeout and address-space limit as gdalinfo)."""

import sys

from osgeo import gdal


def walk(group):
    for name in group.GetMDArrayNames() or []:
        group.OpenMDArray(name).Read()
    for name in group.GetGroupNames() or []:
        walk(group.OpenGroup(name))


def main():
    gdal.UseExceptions()
    path, header = sys.argv[1], sys.argv[2]
    try:
        ds = gdal.OpenEx(path, gdal.OF_MULTIDIM_RASTER, open_options=[f"HEADER={header}"])
        walk(ds.GetRootGroup())
    except RuntimeError as e:
        print(f"ERROR: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
