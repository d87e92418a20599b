"""QGIS (Debian's python3-qgis, headless) reads rumi files through its GDAL provider.

Each converted real raster is loaded as QgsRasterLayer(path, name, 'gdal') and compared with
the source GeoTIFF loaded the same way: CRS, extent, band count and names, identify() values,
and a QgsMapRendererParallelJob render with the same renderer and style. The renders are kept in
build/test-artifacts/qgis/<case>_rumi.png and <case>_source.png (plus <case>_diff.png, the
absolute difference x 16); rerun this file to regenerate them:

    /usr/bin/python3 -m pytest tests/clients/test_qgis.py
"""

import numpy as np
import pytest

import clients_util as cu

PNG_DIR = cu.ARTIFACTS / "qgis"
RENDER_WIDTH = 600
# A render of the rumi layer must match the source's: at most this fraction of pixels may differ
# by more than 2 in any channel, and the mean absolute difference must stay below 0.5.
MAX_DIFFERING = 0.001
MAX_MEAN_DIFF = 0.5


@pytest.fixture(scope="module")
def qgs():
    try:
        from qgis.core import QgsApplication
    except ImportError as e:
        cu.need(False, f"QGIS Python bindings (python3-qgis) are not installed: {e}")
    app = QgsApplication([], False)
    app.initQgis()
    from qgis.core import QgsProviderRegistry

    assert "gdal" in QgsProviderRegistry.instance().providerList()
    yield app
    # exitQgis() is left out on purpose: it tears down GDAL drivers while Python still holds
    # layers, which crashes some QGIS 3.22 builds at interpreter exit.


def layer(path, name):
    from qgis.core import QgsRasterLayer

    lyr = QgsRasterLayer(str(path), name, "gdal")
    assert lyr.isValid(), f"QGIS could not load {path}: {lyr.error().summary()}"
    return lyr


# case -> (real key, rumi dataset name template, source index, GDAL band(s) of the rumi dataset
# that hold the source's bands, renderer bands (1-based, of the layer))
CASES = {
    "landsat": ("landsat", "{path}", 0, [1, 2, 3], [3, 2, 1]),
    "s2": ("s2", "{path}", 0, [1, 2, 3, 4], [3, 2, 1]),
    "elev": ("elev", "{path}", 0, [1], [1]),
    "s1cube": ("s1cube", "{path}", 0, [1], [1]),  # the Cube's band 1 = time step 0
    "s1cube_t1": ("s1cube", 'RUMI:"{path}":1', 1, [1], [1]),  # the time-step subdataset
}


def expected_names(real, case):
    """QGIS band names: 'Band N: <GDAL description>'."""
    if case == "s1cube":
        return [f"Band {i + 1}: {real.names[0]} @ {t}" for i, t in enumerate(real.times)]
    return [f"Band {i + 1}: {n}" for i, n in enumerate(real.names)]


def style(lyr, bands, lo, hi):
    """The same renderer on both layers: gray or RGB, linear stretch between fixed lo/hi."""
    from qgis.core import (QgsContrastEnhancement, QgsMultiBandColorRenderer,
                           QgsSingleBandGrayRenderer)

    prov = lyr.dataProvider()

    def ce(band, i):
        c = QgsContrastEnhancement(prov.dataType(band))
        c.setContrastEnhancementAlgorithm(QgsContrastEnhancement.StretchToMinimumMaximum)
        c.setMinimumValue(float(lo[i]))
        c.setMaximumValue(float(hi[i]))
        return c

    if len(bands) == 3:
        r = QgsMultiBandColorRenderer(prov, *bands)
        r.setRedContrastEnhancement(ce(bands[0], 0))
        r.setGreenContrastEnhancement(ce(bands[1], 1))
        r.setBlueContrastEnhancement(ce(bands[2], 2))
    else:
        r = QgsSingleBandGrayRenderer(prov, bands[0])
        r.setContrastEnhancement(ce(bands[0], 0))
    lyr.setRenderer(r)


def render(lyr, png):
    from qgis.core import QgsMapRendererParallelJob, QgsMapSettings
    from qgis.PyQt.QtCore import QSize
    from qgis.PyQt.QtGui import QColor, QImage

    ext = lyr.extent()
    ms = QgsMapSettings()
    ms.setLayers([lyr])
    ms.setDestinationCrs(lyr.crs())
    ms.setBackgroundColor(QColor(255, 255, 255))
    ms.setOutputSize(QSize(RENDER_WIDTH, max(1, round(RENDER_WIDTH * ext.height() / ext.width()))))
    ms.setExtent(ext)
    job = QgsMapRendererParallelJob(ms)
    job.start()
    job.waitForFinished()
    img = job.renderedImage()
    assert not img.isNull()
    png.parent.mkdir(parents=True, exist_ok=True)
    assert img.save(str(png), "PNG")
    img = img.convertToFormat(QImage.Format_RGBA8888)
    ptr = img.constBits()
    ptr.setsize(img.sizeInBytes())
    return np.frombuffer(ptr, np.uint8).reshape(img.height(), img.bytesPerLine())[:, : img.width() * 4] \
        .reshape(img.height(), img.width(), 4).copy()


@pytest.mark.parametrize("case", list(CASES))
def test_qgis_layer_matches_source(qgs, real, case):
    from qgis.core import QgsPointXY, QgsRaster, QgsRasterRange

    key, template, src_i, rumi_bands, render_bands = CASES[case]
    r = real(key)
    src_path = r.sources[src_i]
    name = template.format(path=r.rumi)
    rl = layer(name, f"rumi {case}")
    sl = layer(src_path, f"source {case}")

    # CRS, extent, band count and names
    assert rl.crs().authid() == f"EPSG:{cu.epsg(src_path)}"
    assert rl.crs().authid() == sl.crs().authid()
    assert rl.extent() == sl.extent(), (rl.extent().toString(), sl.extent().toString())
    assert rl.width() == sl.width() and rl.height() == sl.height()
    n_expected = len(r.sources) * len(r.names) if case == "s1cube" else len(r.names)
    assert rl.bandCount() == n_expected
    names = [rl.bandName(b) for b in range(1, rl.bandCount() + 1)]
    if case == "s1cube_t1":
        assert names == [f"Band 1: {r.names[0]}"]
    else:
        assert names == expected_names(r, case)

    # identify(): values at pixel centres equal the source's pixels
    src = cu.read_all(src_path)
    gt = cu.geotransform(src_path)
    rows, cols = src.shape[1:]
    rng = np.random.default_rng(7)
    picks = [(rows // 2, cols // 2), (0, 0), (rows - 1, cols - 1)] + \
        [tuple(p) for p in rng.integers([0, 0], [rows, cols], size=(5, 2))]
    nodata = cu.nodata(src_path)
    for row, col in picks:
        pt = QgsPointXY(gt[0] + (col + 0.5) * gt[1], gt[3] + (row + 0.5) * gt[5])
        res = rl.dataProvider().identify(pt, QgsRaster.IdentifyFormatValue)
        assert res.isValid()
        got = res.results()
        for i, b in enumerate(rumi_bands):
            want = src[i, row, col]
            if nodata is not None and want == nodata:
                # the nodata value travels in OUT.rumi.aux.xml: QGIS masks it as in the source
                assert got[b] is None, (case, row, col, b, got[b])
                continue
            assert got[b] is not None, (case, row, col, b)
            assert np.isclose(got[b], want, rtol=1e-6, atol=0), (case, row, col, b, got[b], want)

    # render both with the same renderer/style and compare
    nd = cu.nodata(src_path)
    if nd is not None:
        # the same nodata for both layers (rumi's comes from the OUT.rumi.aux.xml rumi convert wrote)
        for b in range(1, rl.bandCount() + 1):
            rl.dataProvider().setUserNoDataValue(b, [QgsRasterRange(nd, nd)])
    valid = src.astype("f8")
    if nd is not None:
        valid[src == nd] = np.nan
    valid[:, (src == 0).all(axis=0)] = np.nan  # Landsat's zero collar would flatten the stretch
    lo = [np.nanpercentile(valid[b - 1], 2) for b in render_bands]
    hi = [np.nanpercentile(valid[b - 1], 98) for b in render_bands]
    style(rl, render_bands, lo, hi)
    style(sl, render_bands, lo, hi)
    a = render(rl, PNG_DIR / f"{case}_rumi.png").astype(int)
    b = render(sl, PNG_DIR / f"{case}_source.png").astype(int)
    diff = np.abs(a - b)
    from qgis.PyQt.QtGui import QImage

    d8 = np.clip(diff[..., :3] * 16, 0, 255).astype(np.uint8)
    d8 = np.ascontiguousarray(np.dstack([d8, np.full(d8.shape[:2], 255, np.uint8)]))
    QImage(d8.data, d8.shape[1], d8.shape[0], d8.shape[1] * 4, QImage.Format_RGBA8888) \
        .save(str(PNG_DIR / f"{case}_diff.png"), "PNG")

    # not blank: many distinct colours, and not just the white background
    rgb = a[..., :3]
    assert len(np.unique(rgb.reshape(-1, 3), axis=0)) > 50, f"{case}: render looks blank"
    assert (rgb != 255).any(axis=2).mean() > 0.3, f"{case}: render is mostly background"
    differing = (diff.max(axis=2) > 2).mean()
    assert differing <= MAX_DIFFERING and diff.mean() < MAX_MEAN_DIFF, \
        f"{case}: {differing:.4%} of pixels differ, mean |diff| {diff.mean():.3f}"
