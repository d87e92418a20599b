"""A `<file>.header` sidecar that is there but cannot be read (a dangling symbolic link, a
folder) is ignored with the warning every other unusable sidecar gets, as the GDAL driver does
(the open policy is the core's, `rumi::open::local_sidecar`); it was once ignored silently."""

import os
import warnings

import numpy as np
import pytest

import rumi


def write(path):
    a = np.arange(2 * 30 * 40, dtype=np.uint16).reshape(1, 2, 30, 40)
    rumi.write(str(path), a, bands=["a", "b"], times="2020-01-01", tile=16)
    os.remove(f"{path}.header")
    return a


@pytest.mark.parametrize("kind", ["dangling", "folder"])
def test_unreadable_sidecar_is_ignored_with_a_warning(tmp_path, kind):
    path = tmp_path / "s.rumi"
    a = write(path)
    side = tmp_path / "s.rumi.header"
    if kind == "dangling":
        side.symlink_to(tmp_path / "gone.header")
    else:
        side.mkdir()
    with pytest.warns(RuntimeWarning, match=r"ignoring the sidecar header blob .*s\.rumi\.header") as w:
        ds = rumi.open(str(path))
    text = str(w[0].message)
    assert "opening the file by parsing it" in text, text
    if kind == "dangling":
        assert f"symbolic link to '{tmp_path / 'gone.header'}', which does not exist" in text, text
    np.testing.assert_array_equal(ds.read(), a)


def test_no_sidecar_gives_no_warning(tmp_path):
    path = tmp_path / "s.rumi"
    a = write(path)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        np.testing.assert_array_equal(rumi.open(str(path)).read(), a)
