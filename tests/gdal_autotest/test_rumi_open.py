"""Opening rumi files: header blobs (HEADER=, sidecar, NONE), virtual file systems, update
mode, and malformed inputs (which must fail with a GDAL error, never crash the process)."""

import json
import os
import shutil
import struct
import subprocess
import sys
import zipfile

import numpy as np
import pytest
from osgeo import gdal

import rumi_util
from rumi_util import config_option, make_rumi, sample_array

W, H, TILE = 37, 29, (16, 8)


@pytest.fixture
def cube(tmp_path):
    data = sample_array("uint16", 2, 3, H, W)
    path = tmp_path / "c.rumi"
    header = tmp_path / "elsewhere.header"
    make_rumi(path, data, "uint16", tile=TILE, frame_unit=4, header=header)
    return path, header, data


def read_all(ds):
    a = ds.ReadAsArray()
    return a.reshape((2, 3) + a.shape[-2:])


def test_without_header_the_file_is_validated(cube):
    path, _, data = cube
    ds = gdal.Open(str(path))
    assert ds.GetMetadataItem("OPEN_MODE", "RUMI") == "VALIDATED"
    assert ds.GetMetadataItem("HEADER", "RUMI") is None
    np.testing.assert_array_equal(read_all(ds), data)


def test_header_option_opens_statelessly(cube):
    path, header, data = cube
    ds = gdal.OpenEx(str(path), open_options=[f"HEADER={header}"])
    assert ds.GetMetadataItem("OPEN_MODE", "RUMI") == "STATELESS"
    assert ds.GetMetadataItem("HEADER", "RUMI") == str(header)
    np.testing.assert_array_equal(read_all(ds), data)
    assert str(header) in ds.GetFileList()


def test_header_option_accepts_vsi_paths(cube):
    path, header, data = cube
    gdal.FileFromMemBuffer("/vsimem/blob.header", header.read_bytes())
    try:
        ds = gdal.OpenEx(str(path), open_options=["HEADER=/vsimem/blob.header"])
        assert ds.GetMetadataItem("OPEN_MODE", "RUMI") == "STATELESS"
        np.testing.assert_array_equal(read_all(ds), data)
    finally:
        gdal.Unlink("/vsimem/blob.header")


def test_sidecar_header_is_found(cube):
    path, header, data = cube
    sidecar = path.with_name(path.name + ".header")
    shutil.copy(header, sidecar)
    ds = gdal.Open(str(path))
    assert ds.GetMetadataItem("OPEN_MODE", "RUMI") == "STATELESS"
    assert ds.GetMetadataItem("HEADER", "RUMI") == str(sidecar)
    np.testing.assert_array_equal(read_all(ds), data)
    assert sorted(ds.GetFileList()) == sorted([str(path), str(sidecar)])
    # ... also for subdatasets
    sub = gdal.Open(f'RUMI:"{path}":1')
    assert sub.GetMetadataItem("OPEN_MODE", "RUMI") == "STATELESS"
    np.testing.assert_array_equal(sub.ReadAsArray(), data[1])
    # HEADER=NONE ignores the sidecar
    ds = gdal.OpenEx(str(path), open_options=["HEADER=NONE"])
    assert ds.GetMetadataItem("OPEN_MODE", "RUMI") == "VALIDATED"


def test_missing_header_file_is_an_error(cube):
    path, _, _ = cube
    with pytest.raises(RuntimeError, match="cannot read the header blob"):
        gdal.OpenEx(str(path), open_options=[f"HEADER={path}.nope"])


def test_header_of_another_file_is_an_error(tmp_path, cube):
    path, _, _ = cube
    other_header = tmp_path / "other.header"
    make_rumi(tmp_path / "other.rumi", sample_array("uint8", 1, 1, 50, 50), "uint8", tile=(16, 16),
              header=other_header)
    with pytest.raises(RuntimeError, match="RUMI: .*header blob"):
        ds = gdal.OpenEx(str(path), open_options=[f"HEADER={other_header}"])
        ds.ReadAsArray()


# ---- a stale or broken sidecar never breaks a valid file --------------------------------------

def open_collecting_warnings(path, **kw):
    """Opens `path` and returns (dataset, the RUMI warnings the open emitted)."""
    warnings = []

    def handler(cls, num, msg):
        if cls == gdal.CE_Warning and msg.startswith("RUMI"):
            warnings.append(msg)

    gdal.PushErrorHandler(handler)
    try:
        ds = gdal.OpenEx(str(path), **kw)
    finally:
        gdal.PopErrorHandler()
    return ds, warnings


def checksums(ds):
    return [ds.GetRasterBand(i + 1).Checksum() for i in range(ds.RasterCount)]


def assert_sidecar_ignored(path, data, why):
    """The file opens validated despite its sidecar, with one warning naming the sidecar and
    `why`, and its pixels are those of an open without the sidecar."""
    sidecar = f"{path}.header"
    ds, warnings = open_collecting_warnings(path)
    assert len(warnings) == 1, warnings
    assert f"ignoring the sidecar header blob {sidecar}" in warnings[0], warnings
    assert why in warnings[0], warnings
    assert "opening the file by parsing it" in warnings[0], warnings
    assert ds.GetMetadataItem("OPEN_MODE", "RUMI") == "VALIDATED"
    assert ds.GetMetadataItem("HEADER", "RUMI") is None
    assert sidecar not in ds.GetFileList()
    a = ds.ReadAsArray()
    np.testing.assert_array_equal(a.reshape(data.shape), data)
    validated = gdal.OpenEx(str(path), open_options=["HEADER=NONE"])
    assert checksums(ds) == checksums(validated)


def test_stale_sidecar_of_another_shape_is_ignored(tmp_path):
    path = tmp_path / "s.rumi"
    make_rumi(path, sample_array("uint16", 1, 2, 40, 50), "uint16", tile=TILE, header=f"{path}.header")
    data = sample_array("uint16", 1, 3, H, W, seed=3)
    make_rumi(path, data, "uint16", tile=TILE)  # rewritten; the sidecar is stale
    assert_sidecar_ignored(path, data, "header blob image_width is 50 but the file says 37")


def test_stale_sidecar_with_other_frame_sizes_is_ignored(tmp_path):
    """Same shape, larger frames: in a small file the IFD's byte counts (in the first bytes GDAL
    read) disagree with the sidecar's."""
    path = tmp_path / "s.rumi"
    make_rumi(path, np.full((1, 2, H, W), 7, dtype="uint16"), "uint16", tile=TILE, header=f"{path}.header")
    data = sample_array("uint16", 1, 2, H, W, seed=1)
    make_rumi(path, data, "uint16", tile=TILE)
    assert_sidecar_ignored(path, data, "header blob frame_byte_counts[0] is")


def test_stale_sidecar_locating_frames_past_the_end_is_ignored(tmp_path):
    """Same shape, smaller frames, and too many frames for the IFD's byte counts to be in the
    first 16 KiB: the file is smaller than the frames the sidecar locates."""
    path = tmp_path / "s.rumi"
    shape = (1, 1, 8 * 48, 16 * 48)  # 2304 frames: 27 KiB of IFD values
    make_rumi(path, sample_array("uint8", *shape, seed=2), "uint8", tile=(16, 8), header=f"{path}.header")
    data = np.zeros(shape, dtype="uint8")
    make_rumi(path, data, "uint8", tile=(16, 8))
    assert_sidecar_ignored(path, data, "file size is")


@pytest.mark.parametrize("content,why", [(b"", "header blob"), (b"garbage" * 40, "header blob")],
                         ids=["empty", "garbage"])
def test_broken_sidecar_is_ignored(tmp_path, content, why):
    path = tmp_path / "s.rumi"
    data = sample_array("uint16", 1, 2, H, W)
    make_rumi(path, data, "uint16", tile=TILE)
    (tmp_path / "s.rumi.header").write_bytes(content)
    assert_sidecar_ignored(path, data, why)


def test_sidecar_that_is_a_directory_is_ignored(tmp_path):
    path = tmp_path / "s.rumi"
    data = sample_array("uint16", 1, 2, H, W)
    make_rumi(path, data, "uint16", tile=TILE)
    (tmp_path / "s.rumi.header").mkdir()
    assert_sidecar_ignored(path, data, "cannot read the header blob")


@pytest.mark.parametrize("readdir", ["TRUE", "FALSE"])
def test_dangling_sidecar_is_ignored_with_a_warning(tmp_path, readdir):
    """A dangling symbolic link as the sidecar: a local open probes the sidecar with a stat
    (TRUE: it lists no folder), which follows the link and finds nothing; the link is still an
    unusable sidecar, and the open warns as for the other unusable ones (it once said nothing),
    naming the link's target, and opens the file validated with its pixels."""
    path = tmp_path / "s.rumi"
    data = sample_array("uint16", 1, 2, H, W)
    make_rumi(path, data, "uint16", tile=TILE)
    (tmp_path / "s.rumi.header").symlink_to(tmp_path / "gone.header")
    with config_option("GDAL_DISABLE_READDIR_ON_OPEN", readdir):
        assert_sidecar_ignored(path, data, "cannot read the header blob")
        if readdir == "TRUE":
            _, warnings = open_collecting_warnings(path)
            assert f"symbolic link to '{tmp_path / 'gone.header'}', which does not exist" in warnings[0], warnings


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads files whatever their permissions")
def test_sidecar_without_read_permission_is_ignored(tmp_path):
    path = tmp_path / "s.rumi"
    data = sample_array("uint16", 1, 2, H, W)
    make_rumi(path, data, "uint16", tile=TILE, header=f"{path}.header")
    os.chmod(f"{path}.header", 0)
    assert_sidecar_ignored(path, data, "cannot read the header blob")


def test_valid_sidecar_gives_no_warning(cube):
    path, header, data = cube
    shutil.copy(header, f"{path}.header")
    ds, warnings = open_collecting_warnings(path)
    assert warnings == []
    assert ds.GetMetadataItem("OPEN_MODE", "RUMI") == "STATELESS"


def test_stale_explicit_header_is_an_error_naming_it(tmp_path):
    path = tmp_path / "s.rumi"
    stale = tmp_path / "stale.header"
    make_rumi(path, np.full((1, 2, H, W), 7, dtype="uint16"), "uint16", tile=TILE, header=stale)
    make_rumi(path, sample_array("uint16", 1, 2, H, W, seed=1), "uint16", tile=TILE)
    with pytest.raises(RuntimeError, match=f"RUMI: header blob {stale} does not describe {path}: header blob frame_byte_counts"):
        gdal.OpenEx(str(path), open_options=[f"HEADER={stale}"])
    make_rumi(path, sample_array("uint16", 1, 3, H, W), "uint16", tile=TILE)
    with pytest.raises(RuntimeError, match=f"header blob {stale}.*samples_per_pixel is 2 but the file says 3"):
        gdal.OpenEx(str(path), open_options=[f"HEADER={stale}"])


def test_vsimem(cube):
    path, _, data = cube
    gdal.FileFromMemBuffer("/vsimem/c.rumi", path.read_bytes())
    try:
        ds = gdal.Open("/vsimem/c.rumi")
        assert ds.GetDriver().ShortName == "RUMI"
        np.testing.assert_array_equal(read_all(ds), data)
        sub = gdal.Open('RUMI:"/vsimem/c.rumi":0')
        np.testing.assert_array_equal(sub.ReadAsArray(), data[0])
    finally:
        gdal.Unlink("/vsimem/c.rumi")


def test_vsizip_with_sidecar(tmp_path, cube):
    path, header, data = cube
    archive = tmp_path / "a.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.write(path, "dir/c.rumi")
        z.write(header, "dir/c.rumi.header")
    ds = gdal.Open(f"/vsizip/{archive}/dir/c.rumi")
    assert ds.GetMetadataItem("OPEN_MODE", "RUMI") == "STATELESS"
    np.testing.assert_array_equal(read_all(ds), data)
    sub = gdal.Open(f'RUMI:"/vsizip/{archive}/dir/c.rumi":1')
    np.testing.assert_array_equal(sub.ReadAsArray(), data[1])


def test_update_mode_is_refused(cube):
    path, _, _ = cube
    with pytest.raises(RuntimeError, match="read-only"):
        gdal.Open(str(path), gdal.GA_Update)
    with pytest.raises(RuntimeError, match="read-only"):
        gdal.OpenEx(f'RUMI:"{path}":0', gdal.OF_RASTER | gdal.OF_UPDATE)


def test_open_leaves_no_aux_xml(cube):
    path, _, _ = cube
    ds = gdal.Open(str(path))
    ds.GetRasterBand(1).Checksum()
    ds = None
    assert not path.with_name(path.name + ".aux.xml").exists()


def test_frame_limit_open_option(cube):
    path, _, _ = cube
    # a frame of unit 4 holds 2 x 3 x 16 x 8 uint16 samples = 1536 bytes; 1 MiB is plenty
    ds = gdal.OpenEx(str(path), open_options=["MAX_FRAME_MB=1"])
    assert ds is not None
    with pytest.raises(RuntimeError, match="MAX_FRAME_MB"):
        gdal.OpenEx(str(path), open_options=["MAX_FRAME_MB=0"])


def test_stateless_open_reads_georef_and_trailer_on_first_use(tmp_path, cube):
    """With a blob, the trailer (band texts, times) is read when metadata is first asked for, not
    at open: a file whose trailer is broken still reads its pixels (the spec forbids using the
    trailer to locate or decode frames); the metadata query reports the broken rule, once."""
    path, header, data = cube
    raw = bytearray(path.read_bytes())
    good = gdal.OpenEx(str(path), open_options=[f"HEADER={header}"])
    assert good.GetRasterBand(4).GetDescription() == "band 0 @ " + good.GetMetadataItem("TIMES").split(",")[1]
    assert good.GetMetadataItem("TIME_TYPE", "RUMI") in ("INSTANT", "INTERVAL")
    assert good.GetGeoTransform() is not None and good.GetSpatialRef() is not None
    good = None
    trailer_at = raw.rfind(b"TAIL")  # the trailer's magic (the texts and times after it hold no "TAIL")
    assert raw[trailer_at:trailer_at + 4] == b"TAIL"
    raw[trailer_at] = ord("X")
    bad = tmp_path / "bad_trailer.rumi"
    bad.write_bytes(bytes(raw))
    ds = gdal.OpenEx(str(bad), open_options=[f"HEADER={header}"])
    np.testing.assert_array_equal(read_all(ds), data)
    assert ds.GetMetadataItem("OPEN_MODE", "RUMI") == "STATELESS"
    with pytest.raises(RuntimeError, match="trailer: magic"):
        ds.GetMetadata()
    # reported once: the later queries find no trailer values, and no error
    assert ds.GetRasterBand(1).GetDescription() == ""
    assert ds.GetRasterBand(2).GetMetadataItem("TIME") is None
    assert not ds.GetMetadata("SUBDATASETS")
    assert gdal.GetLastErrorType() == gdal.CE_None
    # validated, the same file is refused at open
    with pytest.raises(RuntimeError, match="trailer: magic"):
        gdal.OpenEx(str(bad), open_options=["HEADER=NONE"])


def test_pam_values_win_over_lazily_read_ones(tmp_path, cube):
    """A band description and an item saved in .aux.xml are kept when the trailer is read later."""
    path, header, _ = cube
    copy = tmp_path / "pam.rumi"
    shutil.copy(path, copy)
    ds = gdal.OpenEx(str(copy), open_options=[f"HEADER={header}"])
    ds.GetRasterBand(2).SetDescription("my band")
    ds.SetMetadataItem("TIME_COUNT", "user value")
    ds = None
    assert copy.with_name(copy.name + ".aux.xml").exists()
    ds = gdal.OpenEx(str(copy), open_options=[f"HEADER={header}"])
    assert ds.GetRasterBand(2).GetDescription() == "my band"
    assert ds.GetMetadataItem("TIME_COUNT") == "user value"
    assert ds.GetRasterBand(1).GetDescription().startswith("band 0 @ ")
    assert ds.GetMetadataItem("TIMES").count(",") == 1


# ---- malformed inputs, each opened and read in a child process --------------------------------

PROBE = r"""
import sys
from osgeo import gdal
gdal.DontUseExceptions()
errors = []
gdal.PushErrorHandler(lambda cls, num, msg: errors.append(msg) if cls >= gdal.CE_Failure else None)
name, options = sys.argv[1], sys.argv[2:]
ds = gdal.OpenEx(name, gdal.OF_RASTER | gdal.OF_VERBOSE_ERROR, open_options=options)
if ds is None:
    print("OPEN_FAILED", " | ".join(errors))
    sys.exit(0)
for i in range(ds.RasterCount):
    ds.GetRasterBand(i + 1).Checksum()
ds.GetMetadata()  # as gdalinfo: the trailer of a stateless open is read here
print("READ_FAILED " + " | ".join(errors) if errors else "OK")
"""


def probe(name, *options):
    out = subprocess.run([rumi_util.PYTHON, "-c", PROBE, str(name), *options], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, f"the process died ({out.returncode}): {out.stderr[-2000:]}"
    return out.stdout.strip()


@pytest.fixture
def good(tmp_path):
    data = sample_array("uint16", 1, 2, H, W)
    path = tmp_path / "good.rumi"
    header = tmp_path / "good.header"
    make_rumi(path, data, "uint16", tile=TILE, frame_unit=0, header=header)
    return path, header


def mutate(path, dest, edit):
    b = bytearray(path.read_bytes())
    b = edit(b)
    dest.write_bytes(bytes(b))
    return dest


def test_malformed_wrong_magic(tmp_path, good):
    path, _ = good
    bad = mutate(path, tmp_path / "magic.rumi", lambda b: b"RUMX" + b[4:])
    out = probe(bad)
    assert out.startswith("OPEN_FAILED") and "not recognized" in out, out
    out = probe(f"RUMI:{bad}")
    assert out.startswith("OPEN_FAILED") and "RUMI:" in out and "magic" in out, out


def test_malformed_wrong_version(tmp_path, good):
    path, _ = good
    bad = mutate(path, tmp_path / "version.rumi", lambda b: b[:4] + struct.pack("<H", 2) + b[6:])
    out = probe(f"RUMI:{bad}")
    assert out.startswith("OPEN_FAILED") and "version" in out, out


@pytest.mark.parametrize("keep", [10, 200, 400, 600, -5])
def test_malformed_truncated(tmp_path, good, keep):
    path, header = good
    raw = path.read_bytes()
    bad = tmp_path / "trunc.rumi"
    bad.write_bytes(raw[:keep])
    out = probe(f"RUMI:{bad}")
    assert out.startswith("OPEN_FAILED") and "RUMI:" in out, out
    # statelessly the frames are located by the blob; the missing bytes still fail cleanly
    out = probe(bad, f"HEADER={header}")
    assert out.startswith(("OPEN_FAILED", "READ_FAILED")) and "RUMI:" in out, out


def test_malformed_bad_tile_offset(tmp_path, good):
    path, _ = good
    raw = bytearray(path.read_bytes())
    # IFD entry 7 (TileOffsets, tag 324) holds the offset of the external array
    entry = 16 + 8 + 6 * 20
    assert struct.unpack_from("<H", raw, entry)[0] == 324
    (array_at,) = struct.unpack_from("<Q", raw, entry + 12)
    first = struct.unpack_from("<Q", raw, array_at + 8)[0]
    struct.pack_into("<Q", raw, array_at + 8, first + 3)
    bad = tmp_path / "offsets.rumi"
    bad.write_bytes(bytes(raw))
    out = probe(bad)
    assert out.startswith("OPEN_FAILED") and "TileOffsets" in out, out


def test_malformed_corrupt_frame(tmp_path, good):
    path, header = good
    raw = bytearray(path.read_bytes())
    base = 292 + 8 * 24 + 4 * 24 + 160  # B = 2, N = 24 frames
    for i in range(base + 4, base + 40):
        raw[i] ^= 0x5A
    bad = tmp_path / "frame.rumi"
    bad.write_bytes(bytes(raw))
    out = probe(bad)
    assert out.startswith("READ_FAILED") and "RUMI:" in out and "frame" in out, out
    out = probe(bad, f"HEADER={header}")
    assert out.startswith("READ_FAILED"), out


def test_malformed_blob_of_another_file(tmp_path, good):
    path, _ = good
    other = tmp_path / "other.header"
    make_rumi(tmp_path / "other.rumi", sample_array("uint16", 1, 2, H, W, seed=9) // 7, "uint16", tile=TILE,
              frame_unit=0, header=other)
    out = probe(path, f"HEADER={other}")
    assert out.startswith(("OPEN_FAILED", "READ_FAILED")) and "RUMI:" in out, out


@pytest.mark.parametrize("blob", [b"", b"LOVE", b"NOPE" + bytes(60), b"LOVE\x01\x00" + bytes(26)])
def test_malformed_blob_bytes(tmp_path, good, blob):
    path, _ = good
    bad = tmp_path / "bad.header"
    bad.write_bytes(blob)
    out = probe(path, f"HEADER={bad}")
    assert out.startswith("OPEN_FAILED") and "RUMI:" in out, out


def test_malformed_trailer(tmp_path, good):
    path, _ = good
    bad = mutate(path, tmp_path / "tail.rumi", lambda b: b[:-3] + b"\xff\xff\xff")
    out = probe(bad)
    assert out.startswith("OPEN_FAILED") and "trailer" in out, out


def test_malformed_random_bytes_never_crash(tmp_path, good):
    path, header = good
    raw = path.read_bytes()
    rng = np.random.default_rng(42)
    names = []
    for k in range(12):
        b = bytearray(raw)
        for pos in rng.integers(8, len(b), 4):
            b[pos] = int(rng.integers(0, 256))
        p = tmp_path / f"fuzz{k}.rumi"
        p.write_bytes(bytes(b))
        names.append(str(p))
    # one process for all, each input checked the same way
    script = (
        "import sys, json\nfrom osgeo import gdal\ngdal.DontUseExceptions()\ngdal.PushErrorHandler('CPLQuietErrorHandler')\n"
        "for name in json.loads(sys.argv[1]):\n"
        "    for opts in ([], ['HEADER=' + sys.argv[2]]):\n"
        "        gdal.ErrorReset()\n"
        "        ds = gdal.OpenEx(name, gdal.OF_RASTER, open_options=opts)\n"
        "        if ds is not None:\n"
        "            [ds.GetRasterBand(i + 1).Checksum() for i in range(ds.RasterCount)]\n"
        "        print('FAILED' if gdal.GetLastErrorType() >= gdal.CE_Failure else 'OK')\n"
    )
    out = subprocess.run([rumi_util.PYTHON, "-c", script, json.dumps(names), str(header)], capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    lines = out.stdout.splitlines()
    assert len(lines) == 24
    assert all(line == "OK" or "FAILED" in line for line in lines)


# ---- an open does what the blob and the fixed IFD require, and no more ------------------------

OPENS = """
import sys
from osgeo import gdal
gdal.UseExceptions()
for _ in range(int(sys.argv[2])):
    ds = gdal.Open(sys.argv[1])
    assert ds.GetMetadataItem("OPEN_MODE", "RUMI") == "STATELESS"
    ds = None
"""


def syscalls_of_opens(path, n):
    """{system call: successful calls} of a process that opens `path` n times through GDAL
    (PAM on)."""
    out = path.parent / f"strace.{n}"
    subprocess.run(["strace", "-f", "-c", "-U", "name,calls,errors", "-o", str(out), sys.executable, "-c", OPENS,
                    str(path), str(n)], check=True, env={**os.environ, "GDAL_PAM_ENABLED": "YES"})
    counts = {}
    for line in out.read_text().splitlines():
        parts = line.split()
        if len(parts) in (2, 3) and all(p.isdigit() for p in parts[1:]):
            counts[parts[0]] = int(parts[1]) - (int(parts[2]) if len(parts) == 3 else 0)
    return counts


@pytest.mark.skipif(shutil.which("strace") is None, reason="strace is not installed (scripts/install-deps.sh installs it)")
def test_local_open_lists_no_folder_and_sizes_the_file_once(tmp_path):
    """A local open finds the sidecar blob (and .aux.xml) by a stat, not by listing the folder
    (GDAL's sibling list read the whole folder at every open: 8x a GTiff open in a folder of
    10,000 files), and asks the file's size once (each query is a seek to the end that reads
    the file's last block). Counted as the system calls that 20 more opens add."""
    path = tmp_path / "s.rumi"
    make_rumi(path, sample_array("uint16", 1, 2, H, W), "uint16", tile=TILE, header=f"{path}.header")
    for i in range(300):
        (tmp_path / f"other{i}.txt").write_bytes(b"")
    one, more = syscalls_of_opens(path, 1), syscalls_of_opens(path, 21)
    added = {k: (more.get(k, 0) - one.get(k, 0)) / 20 for k in set(one) | set(more)}
    assert added.get("getdents64", 0) == 0, added
    # the file and its blob opened (PAM's probes of .aux.xml and .aux find nothing)
    assert added.get("openat", 0) == 2, added
    assert added.get("read", 0) <= 5, added
