"""Window reads (the driver's IRasterIO): a request without resampling into a buffer of the
bands' type is one rumi_read, which fetches every frame it needs in one batched range read,
decodes each once on NUM_THREADS / GDAL_NUM_THREADS threads (or serves it from the dataset's
decoded-frame cache) and copies the samples straight into the buffer. Whatever the thread
count and the buffer layout, the pixels must be those of block-by-block reads."""

import contextlib
import re

import numpy as np
import pytest
from osgeo import gdal

import rumi_util
from rumi_util import make_rumi, sample_array

W, H, TILE = 75, 53, (16, 8)  # 5 x 7 tiles, the last column and row clipped


@contextlib.contextmanager
def config(**options):
    old = {k: gdal.GetConfigOption(k) for k in options}
    for k, v in options.items():
        gdal.SetConfigOption(k, v)
    try:
        yield
    finally:
        for k, v in old.items():
            gdal.SetConfigOption(k, v)


READ = re.compile(r"(\w[\w ]*) read of .*: (\d+) frame\(s\) needed, (\d+) read from the file, (\d+) from the cache")


class DebugLines:
    """Collects the driver's debug line of each rumi_read: (kind, frames needed, frames read
    from the file, frames from the cache)."""

    def __init__(self):
        self.reads = []

    def __call__(self, err_class, err_no, msg):
        m = READ.search(msg)
        if err_class == gdal.CE_Debug and m:
            self.reads.append((m.group(1), int(m.group(2)), int(m.group(3)), int(m.group(4))))

    def __enter__(self):
        gdal.SetConfigOption("CPL_DEBUG", "RUMI")
        gdal.PushErrorHandler(self)
        return self

    def __exit__(self, *exc):
        gdal.PopErrorHandler()
        gdal.SetConfigOption("CPL_DEBUG", None)


def block_by_block(ds):
    """Every band assembled from ReadBlock calls: the per-block path, (bands, Y, X)."""
    out = []
    for i in range(ds.RasterCount):
        band = ds.GetRasterBand(i + 1)
        bx, by = band.GetBlockSize()
        dt = gdal.GetDataTypeName(band.DataType)
        np_dt = {"Byte": "u1", "UInt16": "<u2", "Int16": "<i2", "UInt32": "<u4", "Int32": "<i4",
                 "Float32": "<f4", "Float64": "<f8", "CFloat32": "<c8", "CFloat64": "<c16"}[dt]
        plane = np.zeros((ds.RasterYSize, ds.RasterXSize), dtype=np_dt)
        for y in range(0, ds.RasterYSize, by):
            for x in range(0, ds.RasterXSize, bx):
                blk = np.frombuffer(band.ReadBlock(x // bx, y // by), dtype=np_dt).reshape(by, bx)
                h, w = min(by, ds.RasterYSize - y), min(bx, ds.RasterXSize - x)
                plane[y:y + h, x:x + w] = blk[:h, :w]
        out.append(plane)
    return np.stack(out)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """uint16 Image (B=3) in tiles, cells and pixel-interleaved cells; a float32 Cube (T=3,
    B=2) in tiles and cells; the expected (GDAL bands, Y, X) arrays."""
    d = tmp_path_factory.mktemp("multiblock")
    out = {}
    img = sample_array("uint16", 1, 3, H, W, seed=1)
    for unit in (0, 1, 2):
        out[f"image-u{unit}"] = (make_rumi(d / f"i{unit}.rumi", img, "uint16", tile=TILE, frame_unit=unit,
                                           header=d / f"i{unit}.rumi.header"), img.reshape(3, H, W))
    cube = sample_array("float32", 3, 2, H, W, seed=2)
    for unit in (0, 4, 9):
        out[f"cube-u{unit}"] = (make_rumi(d / f"c{unit}.rumi", cube, "float32", tile=TILE, frame_unit=unit),
                                cube.reshape(6, H, W))
    return out


@pytest.mark.parametrize("threads", ["1", "ALL_CPUS", "3"])
@pytest.mark.parametrize("name", ["image-u0", "image-u1", "image-u2", "cube-u0", "cube-u4", "cube-u9"])
def test_window_reads_equal_block_by_block(files, name, threads):
    path, expected = files[name]
    with config(GDAL_NUM_THREADS=threads):
        blocks = block_by_block(gdal.Open(str(path)))
        np.testing.assert_array_equal(blocks, expected)
        ds = gdal.Open(str(path))
        np.testing.assert_array_equal(ds.ReadAsArray(), expected)  # whole raster, every band
        np.testing.assert_array_equal(ds.ReadAsArray(5, 3, 41, 37), expected[:, 3:40, 5:46])  # unaligned
        b = ds.GetRasterBand(2)  # band IRasterIO
        np.testing.assert_array_equal(b.ReadAsArray(17, 9, 50, 40), expected[1, 9:49, 17:67])
        np.testing.assert_array_equal(b.ReadAsArray(), expected[1])
        # band subsets in any order, repeats
        got = np.frombuffer(ds.ReadRaster(3, 2, 60, 45, band_list=[3, 1, 3]), dtype=expected.dtype)
        np.testing.assert_array_equal(got.reshape(3, 45, 60), expected[[2, 0, 2], 2:47, 3:63])


@pytest.mark.parametrize("threads", ["1", "ALL_CPUS"])
def test_buffer_layouts(files, threads):
    """Pixel-interleaved and line-interleaved buffers, type conversion, resampling."""
    path, expected = files["image-u1"]
    e = expected[:, 4:50, 6:70]
    with config(GDAL_NUM_THREADS=threads):
        ds = gdal.Open(str(path))
        bip = ds.ReadRaster(6, 4, 64, 46, buf_pixel_space=6, buf_line_space=6 * 64, buf_band_space=2)
        np.testing.assert_array_equal(np.frombuffer(bip, "<u2").reshape(46, 64, 3).transpose(2, 0, 1), e)
        bil = ds.ReadRaster(6, 4, 64, 46, buf_pixel_space=2, buf_line_space=3 * 2 * 64, buf_band_space=2 * 64)
        np.testing.assert_array_equal(np.frombuffer(bil, "<u2").reshape(46, 3, 64).transpose(1, 0, 2), e)
        f64 = ds.ReadRaster(6, 4, 64, 46, buf_type=gdal.GDT_Float64)
        np.testing.assert_array_equal(np.frombuffer(f64, "<f8").reshape(3, 46, 64), e)
        # a 2x nearest-neighbour decimation goes through GDAL's resampling path
        half = np.frombuffer(ds.ReadRaster(0, 0, W - 1, H - 1, (W - 1) // 2, (H - 1) // 2), "<u2")
        mem = gdal.GetDriverByName("MEM").Create("", W, H, 3, gdal.GDT_UInt16)
        mem.WriteRaster(0, 0, W, H, expected.tobytes())
        want = np.frombuffer(mem.ReadRaster(0, 0, W - 1, H - 1, (W - 1) // 2, (H - 1) // 2), "<u2")
        np.testing.assert_array_equal(half, want)


def test_subdataset_and_promoted_reads(tmp_path):
    cube = sample_array("float32", 3, 2, H, W, seed=4)
    path = make_rumi(tmp_path / "c.rumi", cube, "float32", tile=TILE, frame_unit=4)
    f16 = sample_array("float16", 1, 2, H, W, seed=5)
    p16 = make_rumi(tmp_path / "h.rumi", f16, "float16", tile=TILE, frame_unit=1)
    with config(GDAL_NUM_THREADS="ALL_CPUS"):
        ds = gdal.Open(f'RUMI:"{path}":1')
        np.testing.assert_array_equal(ds.ReadAsArray(), cube[1])
        np.testing.assert_array_equal(ds.ReadAsArray(7, 1, 60, 50), cube[1][:, 1:51, 7:67])
        ds = gdal.OpenEx(str(p16), open_options=["PROMOTE=FLOAT32"])
        np.testing.assert_array_equal(ds.ReadAsArray(3, 3, 70, 45), f16[0][:, 3:48, 3:73].astype(np.float32))
        with DebugLines() as dbg:
            np.testing.assert_array_equal(ds.ReadAsArray(), f16[0].astype(np.float32))
        assert [r[0] for r in dbg.reads] == ["window"], dbg.reads  # promoted: still one rumi_read


def test_a_window_is_one_read(files):
    """A window is one rumi_read of the frames of its tiles; a block read one of one frame."""
    path, expected = files["image-u0"]  # 35 tiles, 3 bands, one frame per (tile, band)
    with DebugLines() as dbg:
        ds = gdal.Open(str(path))
        np.testing.assert_array_equal(ds.ReadAsArray(10, 8, 16, 8), expected[:, 8:16, 10:26])  # two tiles
        np.testing.assert_array_equal(ds.ReadAsArray(), expected)
        ds.GetRasterBand(1).ReadBlock(4, 6)
    assert dbg.reads[0] == ("window", 6, 6, 0), dbg.reads
    assert dbg.reads[1] == ("window", 105, 99, 6), dbg.reads  # the first window's frames are cached
    # the whole raster fits in a quarter of the decoded-frame cache, so the read kept its frames
    # (a redraw decodes nothing): the block is a cache hit. Larger reads keep only the frames
    # they read in part (crates/rumi/tests/planner.rs checks both).
    assert dbg.reads[2] == ("block", 1, 0, 1), dbg.reads
    assert len(dbg.reads) == 3


def test_band_by_band_reads_of_cells_decode_each_cell_once(files):
    """gdal_translate to a band-sequential output reads band by band: with cell frames the
    first band's read decodes every cell, the others find them in the decoded-frame cache."""
    path, expected = files["image-u1"]
    with DebugLines() as dbg:
        ds = gdal.Open(str(path))
        for b in range(3):
            np.testing.assert_array_equal(ds.GetRasterBand(b + 1).ReadAsArray(), expected[b])
    assert dbg.reads == [("window", 35, 35, 0), ("window", 35, 0, 35), ("window", 35, 0, 35)], dbg.reads
    with DebugLines() as dbg:  # block by block: each cell is decoded once too
        np.testing.assert_array_equal(block_by_block(gdal.Open(str(path))), expected)
    assert len(dbg.reads) == 3 * 35 and sum(r[2] for r in dbg.reads) == 35, dbg.reads


@pytest.mark.parametrize("threads", ["1", "ALL_CPUS"])
def test_num_threads_open_option(files, threads):
    path, expected = files["cube-u4"]
    for value in ("2", "ALL_CPUS", "nonsense", "0"):
        with config(GDAL_NUM_THREADS=threads):
            ds = gdal.OpenEx(str(path), open_options=[f"NUM_THREADS={value}"])
            np.testing.assert_array_equal(ds.ReadAsArray(), expected)
            np.testing.assert_array_equal(ds.ReadAsArray(9, 4, 50, 33), expected[:, 4:37, 9:59])
    assert "NUM_THREADS" in gdal.GetDriverByName("RUMI").GetMetadataItem("DMD_OPENOPTIONLIST")


@pytest.mark.parametrize("threads", ["1", "ALL_CPUS"])
def test_corrupt_frame_fails_the_read(tmp_path, threads):
    data = sample_array("uint16", 1, 1, H, W, seed=9)
    path = make_rumi(tmp_path / "f.rumi", data, "uint16", tile=TILE, header=tmp_path / "f.rumi.header")
    raw = bytearray(path.read_bytes())
    # scramble the middle of the frame area (frames start after the IFD values and georef block)
    mid = len(raw) // 2
    raw[mid:mid + 64] = bytes((b ^ 0x5A) for b in raw[mid:mid + 64])
    path.write_bytes(bytes(raw))
    with config(GDAL_NUM_THREADS=threads):
        ds = gdal.Open(str(path))
        with pytest.raises(RuntimeError, match="RUMI"):
            ds.ReadAsArray()


def test_real_landsat_windows_match_the_source():
    src_path = rumi_util.DATA_DIR / "landsat8_LC08_L1TP_224078_20200518_3band_uint16.tif"
    if not src_path.exists():
        pytest.skip("../shared/data is absent")
    src = gdal.Open(str(src_path))
    a = src.ReadAsArray(0, 0, 700, 600)
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        path = make_rumi(f"{tmp}/l.rumi", a[None], "uint16", tile=(256, 256), frame_unit=1)
        for threads in ("1", "ALL_CPUS"):
            with config(GDAL_NUM_THREADS=threads):
                ds = gdal.Open(str(path))
                np.testing.assert_array_equal(ds.ReadAsArray(), a)
                np.testing.assert_array_equal(ds.ReadAsArray(100, 200, 300, 256), a[:, 200:456, 100:400])
