"""PyTorch chips from a rumi catalogue.

    cat = rumi.Catalog.open("catalog.parquet").search(time=("2020-01-01", "2020-12-31"))
    ds = rumi.torch.ChipDataset(cat, size=256, bands=["red", "green", "blue"], labels="labels.parquet")
    sampler = rumi.torch.RandomChipSampler(ds, length=10_000, seed=0, min_valid=0.9)
    loader = ds.loader(sampler, batch_size=16)  # CUDA: workers, pinned; else 2 batches read ahead
    # or torch's own: DataLoader(ds, batch_size=16, sampler=sampler) (its default collate_fn)
    for batch in loader:
        batch["image"]      # (N, T, B, 256, 256) tensor of the files' sample type (or dtype=; values
                            # raw * scale + offset, nodata NaN, with apply_scale=True)
        batch["mask"]       # (N, Tl, Bl, 256, 256) labels on the image chips' pixel grid (labels=)
        batch["valid"]      # (N, T, B, 256, 256) bool: samples that are not nodata (return_valid=True)
        batch["time_mask"]  # (N, T) bool: real time steps (False: padding)
        batch["time"]       # N datetime64[s] arrays: each chip's own time steps
        batch["bounds"]     # N x (left, bottom, right, top) in each file's CRS; batch["crs"]: N x "EPSG:n"
        batch["key"]        # N x (file, row_off, col_off)
        batch["stats"]      # requests, frames, bytes_fetched, bytes_needed, decode_s, wait_s

A sample's key is (file, row_off, col_off): file j of the dataset, pixel offset of the chip;
the dataset has no len() (a chip sampler decides how many chips an epoch has: len(sampler);
`num_files` counts the files). A batch is read by `__getitems__` (DataLoader's batched fetch,
then its collate_fn: torch's default_collate and rumi.torch.collate both give the batch dict
above, without copying the tensors; see collate). The chips are grouped by file,
each file's chips read one after another through one reader (its decoded-frame cache serves
the frames chips share), files in parallel on a thread pool with at most `max_in_flight` reads
per host, every chip decoded straight into its slot of the batch tensor. Files are opened from
the catalogued header blob: nothing but frames is requested, and a file whose size changed since
cataloguing raises FormatError.

Labels (`labels=`: a catalogue, a catalogue path, a rumi file or Dataset) are placed on each
image chip's pixel grid: a label file in the same CRS whose grid is the image's or an aligned
grid of an integer multiple of its resolution is windowed directly (each label pixel repeated);
any other grid is resampled with nearest neighbour (pixel centres through pyproj, as GDAL's
warper does). Samplers skip chips that no single label file covers (`on_missing="skip"`) or the
read raises (`on_missing="raise"`).

Nodata: the catalogue's per-band nodata and per-tile valid fractions (rumi.catalog) let samplers
draw only chips whose valid fraction is at least `min_valid` without reading a pixel: a chip's
bound is 1 - sum over its bands and tiles of min(samples of the tile in the chip, the tile's
invalid samples) / samples of the chip (exact for tile-aligned chips, never an overstatement).
A file whose nodata is not known (no rumi:nodata, no `nodata=`) is an error for min_valid and
return_valid, never "every sample valid".

Classes and clouds: the catalogue's class counts per step and tile (rumi:classes, recorded for
integer bands with few values or the bands `classes=` names) let samplers draw only chips whose
class fractions meet `min_class={band: {class: fraction}}` / `max_class=`, whose steps are clear
(`cloud=Cloud(band, max=0.1, classes=(8, 9, 10), min_clear_steps=None)`), or chips weighted so
that each class's pixel share approaches a target (`RandomChipSampler(balance=ClassBalance(band,
target))`), without reading a pixel (rumi.torch.contents: the same bounds as min_valid's).

Scale and offset: chips are raw samples unless `apply_scale=True` (values raw * scale + offset
per band and file, from the catalogue's rumi:scales / rumi:offsets, float32 by default, nodata
NaN). Without it, files that give one band two scales are refused and scaled bands are warned
about once (`scaling`: the checks, over the whole selection's columns).

Time: `time=` takes an instant or (start, end), both ends included; a date covers its whole
day (and a year-month its month), as STAC searches read them (pystac-client, odc-stac):
time="2023-05-11" is every step of that day, time=("2020-01-01", "2020-12-31") all of 2020.
Files may have different numbers of steps in `time=`; `max_steps=k` keeps the newest (or k
random, seeded per chip) steps; batches are padded to the longest with `time_mask`.

Resuming: samplers and `ds.loader(...)` have `state_dict()` / `load_state_dict()`; a sampler's
global sequence depends only on its seed and epoch, and rank r of w takes keys r, r + w, ...
(so 1, 2 and 4 ranks see the same sequence, split differently).

Pickling (DataLoader workers under spawn/forkserver) carries the catalogue's path and search,
not its rows; readers are opened per process (a forked child reopens its own).

The package, split by job as TorchGeo's datasets and samplers (joined only by the dataset's
index): `index` (ChipIndex: the files, grids, steps, nodata and labels a dataset reads, planned
once, frozen, pickled as its recipe), `constraints` (valid_bound, covered, chip_ok, the
breakpoint lattice: functions of the index), `samplers`, `labels` (label geometry on rumi.Grid,
nearest-neighbour resampling), `readers` (ReadOptions: a dataset's I/O settings as one value; open readers per process and the cache budget, shared
with rumi.torchgeo), `dataset` (ChipDataset: the batch read), `scaling` (the bands' scales and offsets in the
index, the selection's scale checks), `loader` (collate, the read-ahead loader, the GPU defaults), `shared` (a worker's batches in shared memory it reuses once the main
process lets them go), `dtypes`.
"""

from __future__ import annotations

try:
    import torch as _torch  # noqa: F401
except ImportError as e:  # the first thing a new user types must say what to do
    raise ImportError(f"rumi.torch needs PyTorch ({e}): pip install torch (or pip install 'rumi[torch]')") from e

from .dataset import ChipDataset
from .loader import collate
from .readers import DEFAULT_CACHE_BYTES, ReadOptions
from .contents import ClassBalance, Cloud
from .samplers import GridChipSampler, RandomChipSampler, TileChipSampler

__all__ = ["ChipDataset", "ClassBalance", "Cloud", "ReadOptions", "RandomChipSampler", "GridChipSampler", "TileChipSampler",
           "collate"]

# the public names live here (repr, pickles by reference, documentation), wherever they are defined
for _obj in (ChipDataset, ClassBalance, Cloud, ReadOptions, RandomChipSampler, GridChipSampler, TileChipSampler, collate):
    _obj.__module__ = __name__
del _obj
