#!/usr/bin/python3
"""Runs many corpus cases through GDAL in one process: test_hostile.py's valgrind mode.

    gdal_batch.py JOBS.json RESULTS.jsonl

JOBS.json: a list of [file, header, kind] ("info": GDALOpenEx with HEADER=<header>, then GDALInfo
with -checksum, the library function the gdalinfo tool is a wrapper of; "multidim": the
multidimensional API, every array read, as read_multidim.py). Before each job it writes the marker
line `@@rumi-job <index>` to stderr (valgrind's error lines, written to stderr when they happen,
then fall between the markers of the job that caused them); after each, one JSON line to RESULTS
({"job": index, "failed": whether the open or a read failed, "errors": the GDAL error and
warning lines as gdalinfo prints them}).
Runs the jobs from index `RUMI_BATCH_START` (the test restarts after a job that crashed or hung).
"""

import json
import os
import sys

from osgeo import gdal


def walk(group):
    """Reads every array, as read_multidim.py; False at the first failure (where it stops)."""
    for name in group.GetMDArrayNames() or []:
        array = group.OpenMDArray(name)
        if array is None or array.Read() is None:
            return False
    for name in group.GetGroupNames() or []:
        sub = group.OpenGroup(name)
        if sub is None or not walk(sub):
            return False
    return True


def main():
    jobs = json.loads(open(sys.argv[1]).read())
    out = open(sys.argv[2], "a")
    lines = []

    def handler(cls, no, msg):
        # gdalinfo's own form of a driver's error (test_hostile.GDAL_LINE)
        if cls >= gdal.CE_Failure:
            lines.append(f"ERROR {no}: {msg}")
        elif cls == gdal.CE_Warning:
            lines.append(f"Warning {no}: {msg}")

    gdal.PushErrorHandler(handler)
    for i in range(int(os.environ.get("RUMI_BATCH_START", "0")), len(jobs)):
        path, header, kind = jobs[i]
        os.write(2, f"@@rumi-job {i}\n".encode())
        lines.clear()
        if kind == "info":  # as gdalinfo opens
            ds = gdal.OpenEx(path, gdal.OF_RASTER | gdal.OF_VERBOSE_ERROR, open_options=[f"HEADER={header}"])
            failed = ds is None or gdal.Info(ds, options=["-checksum"]) is None
        else:  # as read_multidim.py (its exceptions name a file no driver takes: OF_VERBOSE_ERROR)
            ds = gdal.OpenEx(path, gdal.OF_MULTIDIM_RASTER | gdal.OF_VERBOSE_ERROR, open_options=[f"HEADER={header}"])
            root = ds.GetRootGroup() if ds is not None else None
            failed = root is None or not walk(root)
            root = None
        ds = None  # closes the dataset before the next job
        out.write(json.dumps({"job": i, "failed": failed, "errors": list(lines)}) + "\n")
        out.flush()
    os.write(2, b"@@rumi-job end\n")


if __name__ == "__main__":
    main()
