#!/usr/bin/python3
"""Builds the malformed-file corpus: valid files written by our writer (examples/make_fixture.rs),
each copy breaking exactly one MUST / MUST NOT of the rumi 0.1.0 specification.

    make_corpus.py OUT_DIR        # writes OUT_DIR/<case>.rumi, OUT_DIR/<case>.blob, cases.json

Each case of cases.json holds:
  name      the case (prefix = the spec section it breaks)
  file      the rumi file (always present; may be valid when the case breaks the blob only)
  blob      the header blob a stateless open uses (the base file's valid blob, or a broken one)
  expect    substrings, one of which the error of `rumi validate FILE [--header BLOB]` contains
  gdal      substrings for `gdalinfo -checksum FILE` (a validated open), None when GDAL is not
            asked (blob-only cases)
  stateless substrings for `gdalinfo -checksum -oo HEADER=BLOB FILE`; [] when a stateless open
            may succeed (the blob is authoritative: an IFD it never reads may be broken)
  prefix    True when GDAL must be given RUMI:<path> (a broken magic is not identified as rumi)
  header    True when `rumi validate` gets --header BLOB (blob cases)

The files are small (a few KB); the corpus is generated, never committed.
"""

import json
import struct
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "gdal_autotest"))
import numpy as np  # noqa: E402

import rumi_util  # noqa: E402

W, H, TILE = 37, 29, (16, 8)
FIXED = 292  # file header + IFD
TAGS = [256, 257, 258, 277, 322, 323, 324, 325, 339, 34264, 34735, 65000, 65001]
TYPE_SIZE = {3: 2, 4: 4, 12: 8, 16: 8}
TRUNC = ["truncated", "file size is"]


# ---- reading and patching the structures of a valid file ---------------------------------------

def entry(i):
    """File offset of IFD entry i."""
    return 24 + 20 * i


def value(i):
    """File offset of the value field of IFD entry i."""
    return entry(i) + 12


class Rumi:
    """A valid file and what a patcher needs to know about it."""

    def __init__(self, data, blob):
        self.data = bytes(data)
        self.blob = bytes(blob)
        self.entries = []
        for i in range(13):
            tag, typ, count = struct.unpack_from("<HHQ", data, entry(i))
            self.entries.append((tag, typ, count))
        self.bands = struct.unpack_from("<H", data, value(3))[0]
        self.times = struct.unpack_from("<I", data, value(12))[0]
        self.n = self.entries[6][2]
        self.offsets = self.values(6, "Q")
        self.counts = self.values(7, "I")
        self.base = self.offsets[0]
        self.trailer = self.offsets[-1] + self.counts[-1]

    def value_offset(self, i):
        """File offset of the value of entry i (inline or external)."""
        _, typ, count = self.entries[i]
        if count * TYPE_SIZE[typ] <= 8:
            return value(i)
        return struct.unpack_from("<Q", self.data, value(i))[0]

    def values(self, i, fmt):
        _, _, count = self.entries[i]
        return list(struct.unpack_from("<%d%s" % (count, fmt), self.data, self.value_offset(i)))

    def geo(self):
        """Offset of the 128-byte matrix; the 32-byte key directory follows it."""
        return self.base - 160

    def trailer_texts_end(self):
        p = self.trailer + 6
        for _ in range(self.bands):
            (n,) = struct.unpack_from("<H", self.data, p)
            p += 2 + n
        return p


def put(data, at, fmt, *v):
    b = bytearray(data)
    struct.pack_into("<" + fmt, b, at, *v)
    return bytes(b)


def zigzag(x):
    return 2 * x if x >= 0 else -2 * x - 1


def bit_length(x):
    return x.bit_length()


def pack(values, bits):
    total = len(values) * bits
    out = bytearray((total + 7) // 8)
    pos = 0
    for v in values:
        for k in range(bits):
            if (v >> k) & 1:
                out[pos // 8] |= 1 << (pos % 8)
            pos += 1
    return bytes(out)


def time_fields(coords, kind=2, scale=1, epoch=None, step=None, bits=None, region=None):
    """Time fields + residual region for coordinates `coords` (the spec's encoding); any
    argument given overrides the value a writer would compute."""
    c = len(coords)
    if step is None:
        if c < 2:
            step = 0
        else:
            diff, n = coords[-1] - coords[0], c - 1
            step = (2 * diff + n) // (2 * n)
    if epoch is None:
        epoch = coords[0]
    packed = [zigzag(v - (epoch + i * step)) for i, v in enumerate(coords)]
    if bits is None:
        bits = bit_length(max(packed)) if packed else 0
    if region is None:
        region = pack(packed, bits)
    return struct.pack("<BBqqI", kind, bits, epoch, step, scale) + region


def with_trailer(base, trailer):
    """The base file with its trailer replaced (frames, offsets and counts unchanged)."""
    return base.data[:base.trailer] + trailer


def with_time(base, fields):
    return base.data[:base.trailer_texts_end()] + fields


def with_frames(base, frames, counts=None):
    """The base file with its frames replaced; TileOffsets / TileByteCounts follow."""
    counts = counts if counts is not None else [len(f) for f in frames]
    d = bytearray(base.data[:base.base])
    off = base.base
    offs = []
    for c in counts:
        offs.append(off)
        off += c
    struct.pack_into("<%dQ" % len(offs), d, base.value_offset(6), *offs)
    struct.pack_into("<%dI" % len(counts), d, base.value_offset(7), *counts)
    return bytes(d) + b"".join(frames) + base.data[base.trailer:]


def frames_of(base):
    return [base.data[o:o + c] for o, c in zip(base.offsets, base.counts)]


def blob_with_counts(blob, counts, count_min=None, bits=None, pad=None):
    mn = min(counts) if count_min is None else count_min
    res = [c - mn for c in counts]
    b = bit_length(max(res)) if bits is None else bits
    region = bytearray(pack(res, b))
    if pad is not None:
        region[-1] |= pad
    return blob[:27] + struct.pack("<IB", mn, b) + bytes(region)


# ---- the base files -------------------------------------------------------------------------------

def make_base(tmp, name, encoding, shape, tile, unit, georef=None, time=None, data=None, texts=None):
    t, b, y, x = shape
    if data is None:
        data = rumi_util.sample_array(encoding, t, b, y, x, seed=3)
    path, header = tmp / f"base_{name}.rumi", tmp / f"base_{name}.header"
    rumi_util.make_rumi(path, data, encoding, tile=tile, frame_unit=unit, georef=georef, time=time,
                        band_texts=texts, header=header)
    return Rumi(path.read_bytes(), header.read_bytes())


def bases(tmp):
    undefined = {"raster_type": "area"}
    days = {"kind": "interval", "seconds": [0, 86400 * 10]}
    u8 = np.arange(3 * 5 * 6, dtype="u1").reshape(1, 3, 5, 6) % 3  # 0, 1, 2: not booleans
    return {
        # N = 12 locations * 3 bands * 2 times = 72 tile frames; B <= 4: sample tags inline
        "cube": make_base(tmp, "cube", "uint16", (2, 3, H, W), TILE, 0),
        # the same shape as 12 cell frames (t b h w)
        "cell": make_base(tmp, "cell", "uint16", (2, 3, H, W), TILE, 4),
        # five bands: BitsPerSample / SampleFormat external
        "bands5": make_base(tmp, "bands5", "int16", (1, 5, 20, 18), (8, 8), 1),
        # one frame, undefined georeferencing, a whole-day interval
        "single": make_base(tmp, "single", "uint8", (1, 1, 6, 10), (16, 16), 0, georef=undefined, time=days),
        # uint8 samples 0..2, to be relabelled as booleans
        "bytes": make_base(tmp, "bytes", "uint8", (1, 3, 5, 6), (4, 4), 1, data=u8),
    }


# ---- the cases ----------------------------------------------------------------------------------------

def cases(b):
    cube, cell, bands5, single, u8 = b["cube"], b["cell"], b["bands5"], b["single"], b["bytes"]
    out = []

    def case(name, base, data, expect, gdal=None, stateless=None, blob=None, prefix=False, header=False):
        """stateless: None = same as gdal; [] = may succeed."""
        gdal = expect if gdal is None else gdal
        out.append({
            "name": name, "data": data, "blob_bytes": blob if blob is not None else base.blob,
            "expect": expect, "gdal": gdal if not header else None,
            "stateless": gdal if stateless is None else stateless, "prefix": prefix, "header": header,
        })

    # File header (the magic and version are what GDAL's Identify looks at: RUMI:<path> forces the driver)
    case("header_magic", cube, put(cube.data, 0, "4s", b"RUMX"), ["magic is"], stateless=[], prefix=True)
    case("header_version", cube, put(cube.data, 4, "H", 2), ["version is 2, expected 1"], stateless=[],
         prefix=True)
    case("header_reserved", cube, put(cube.data, 6, "H", 1), ["reserved field is 1"], stateless=[], prefix=True)
    case("header_ifd_offset", cube, put(cube.data, 8, "Q", 17), ["ifd_offset is 17"], stateless=[])
    # Fixed IFD: entry count, next IFD, tags, types, counts
    case("ifd_entry_count", cube, put(cube.data, 16, "Q", 14), ["entry count is 14"], stateless=[])
    case("ifd_next_ifd", cube, put(cube.data, 284, "Q", 1000), ["next-IFD offset is 1000"], stateless=[])
    d = put(put(cube.data, entry(0), "H", 257), entry(1), "H", 256)
    case("ifd_tag_order", cube, d, ["tag is 257, expected 256"], stateless=[])
    case("ifd_tag_forbidden_pixel_scale", cube, put(cube.data, entry(9), "H", 33550),
         ["tag is 33550, expected 34264"], stateless=[])
    case("ifd_tag_forbidden_ascii_params", cube, put(cube.data, entry(12), "H", 34737),
         ["tag is 34737, expected 65001"], stateless=[])
    case("ifd_type_width_short", cube, put(cube.data, entry(0) + 2, "H", 3), ["type is 3, expected 4"],
         stateless=[])
    case("ifd_type_offsets_long", cube, put(cube.data, entry(6) + 2, "H", 4), ["type is 4, expected 16"],
         stateless=[])
    for i, name, cnt in [(0, "width", 2), (2, "bits_per_sample", 4), (6, "tile_offsets", cube.n + 1),
                         (7, "tile_byte_counts", cube.n - 1), (8, "sample_format", 2), (9, "matrix", 17),
                         (10, "geokeys", 15), (12, "time_count", 0)]:
        case(f"ifd_count_{name}", cube, put(cube.data, entry(i) + 4, "Q", cnt), [f"count is {cnt}, expected"],
             stateless=[])
    # counts per frame unit: a cell file (N = 12) whose counts are those of tile frames (N = 72)
    d = put(put(cell.data, entry(6) + 4, "Q", 72), entry(7) + 4, "Q", 72)
    case("ifd_count_cell_offsets_as_tiles", cell, d, ["count is 72, expected 12"], stateless=[])
    d = put(put(cube.data, entry(6) + 4, "Q", 12), entry(7) + 4, "Q", 12)
    case("ifd_count_tile_offsets_as_cells", cube, d, ["count is 12, expected 72"], stateless=[])
    # Placement
    case("placement_inline_padding", cube, put(cube.data, value(0) + 4, "I", 1), ["unused bytes of the inline"],
         stateless=[])
    case("placement_inline_padding_short", cube, put(cube.data, value(11) + 2, "H", 9),
         ["unused bytes of the inline"], stateless=[])
    for i, name in [(6, "tile_offsets"), (7, "tile_byte_counts"), (9, "matrix"), (10, "geokeys")]:
        at = cube.value_offset(i)
        case(f"placement_gap_{name}", cube, put(cube.data, value(i), "Q", at + 8), ["external value at offset"],
             stateless=[])
    at = bands5.value_offset(2)
    case("placement_gap_bits_per_sample", bands5, put(bands5.data, value(2), "Q", at + 2),
         ["external value at offset"], stateless=[])
    # positive dimensions (ImageWidth.. TimeCount)
    for i, fmt, name, rule in [(0, "I", "width", "ImageWidth is 0"), (1, "I", "length", "ImageLength is 0"),
                               (3, "H", "bands", "SamplesPerPixel is 0"), (4, "H", "tile_width", "TileWidth is 0"),
                               (5, "H", "tile_length", "TileLength is 0"), (12, "I", "times", "TimeCount is 0")]:
        case(f"ifd_zero_{name}", cube, put(cube.data, value(i), fmt, 0), [rule], stateless=[])
    # sample pairs
    at = bands5.value_offset(2)
    case("samples_mixed_bits", bands5, put(bands5.data, at + 4, "H", 32), ["BitsPerSample[2] is 32"], stateless=[])
    at = bands5.value_offset(8)
    case("samples_mixed_format", bands5, put(bands5.data, at + 8, "H", 1), ["SampleFormat[4] is 1"], stateless=[])
    case("samples_unknown_pair", cube, put(cube.data, value(2), "HHH", 12, 12, 12),
         ["sample pair (sample_format 1, bits_per_sample 12)"], stateless=[])
    case("samples_reserved_format", cube, put(cube.data, value(8), "HHH", 104, 104, 104),
         ["sample pair (sample_format 104, bits_per_sample 16)"], stateless=[])
    case("samples_float8_as_ieee", u8, put(u8.data, value(8), "HHH", 3, 3, 3),
         ["sample pair (sample_format 3, bits_per_sample 8)"], stateless=[])
    # frame_unit
    case("frame_unit_unregistered", cube, put(cube.data, value(11), "H", 10), ["frame_unit 10 is not registered"],
         stateless=[])
    case("frame_unit_shape", cube, put(cube.data, value(11), "H", 1), ["frame_unit 1 is not valid for B=3, T=2"],
         stateless=[])
    # offsets and counts per frame unit
    case("offsets_base", cube, put(cube.data, cube.value_offset(6), "Q", cube.base + 1),
         ["TileOffsets[0] is"], stateless=[])
    case("offsets_prefix_sum", cube, put(cube.data, cube.value_offset(6) + 8 * 5, "Q", cube.offsets[5] + 1),
         ["TileOffsets[5] is"], stateless=[])
    case("offsets_prefix_sum_cell", cell, put(cell.data, cell.value_offset(6) + 8 * 11, "Q", 1),
         ["TileOffsets[11] is"], stateless=[])
    case("counts_zero", cube, put(cube.data, cube.value_offset(7) + 4 * 3, "I", 0), ["TileByteCounts[3] is 0"],
         stateless=[])
    d = put(cube.data, cube.value_offset(7) + 4 * 3, "I", cube.counts[3] + 1)
    case("counts_disagree_with_offsets", cube, d, ["TileOffsets[4] is"], stateless=[])
    # frames: counts that cut frames apart (the offsets follow, so only decoding notices)
    fr = frames_of(cube)
    moved = fr[:]
    moved[0], moved[1] = fr[0][:-1], fr[0][-1:] + fr[1]
    # (the base's blob still has the true boundaries: a stateless read is right)
    case("frames_boundary_moved", cube, with_frames(cube, moved), ["frame 0: OpenZL decode failed"], stateless=[])
    # Georeferencing
    g = cube.geo()
    case("geo_keys_header", cube, put(cube.data, g + 128, "HHHH", 1, 1, 0, 4), ["header is [1, 1, 0, 4]"])
    case("geo_key_form", cube, put(cube.data, g + 128 + 8 + 2, "H", 1), ["GeoKeyDirectoryTag key 0"])
    case("geo_key_order", cube, put(cube.data, g + 128 + 8, "H", 1025), ["GeoKeyDirectoryTag key 0"])
    case("geo_model_type", cube, put(cube.data, g + 128 + 8 + 6, "H", 3), ["GTModelTypeGeoKey is 3"])
    case("geo_raster_type", cube, put(cube.data, g + 128 + 16 + 6, "H", 3), ["GTRasterTypeGeoKey is 3"])
    case("geo_crs_key_mismatch", cube, put(cube.data, g + 128 + 24, "H", 2048), ["does not agree with"])
    case("geo_epsg_range", cube, put(cube.data, g + 128 + 24 + 6, "H", 99), ["EPSG code 99 is outside"])
    case("geo_epsg_range_high", cube, put(cube.data, g + 128 + 24 + 6, "H", 40000), ["EPSG code 40000 is outside"])
    s = single.geo()
    case("geo_undefined_code", single, put(single.data, s + 128 + 24 + 6, "H", 4326),
         ["must use GeographicTypeGeoKey 0"])
    case("geo_undefined_matrix", single, put(single.data, s + 8 * 3, "d", 5.0), ["ModelTransformationTag"])
    case("geo_matrix_third_row", cube, put(cube.data, g + 8 * 9, "d", 1.0), ["ModelTransformationTag"])
    case("geo_matrix_fourth_row", cube, put(cube.data, g + 8 * 15, "d", 2.0), ["ModelTransformationTag"])
    case("geo_matrix_nan", cube, put(cube.data, g + 8 * 0, "d", float("nan")), ["not a finite number"])
    case("geo_matrix_inf", cube, put(cube.data, g + 8 * 3, "d", float("inf")), ["not a finite number"])
    # Trailer: magic, version, size
    t = cube.trailer
    case("trailer_magic", cube, put(cube.data, t, "4s", b"TALE"), ["trailer: magic is"])
    case("trailer_version", cube, put(cube.data, t + 4, "H", 2), ["trailer: version is 2"])
    case("trailer_garbage_after", cube, cube.data + b"\0", ["trailer: size is"])
    case("trailer_garbage_many", cube, cube.data + b"GARBAGE" * 100, ["trailer: size is"])
    # band texts
    texts = [b"band 0", b"band 1", b"band 2"]

    def band_trailer(ts):
        return b"TAIL" + struct.pack("<H", 1) + b"".join(struct.pack("<H", len(x)) + x for x in ts) + \
            cube.data[cube.trailer_texts_end():]

    case("band_text_empty", cube, with_trailer(cube, band_trailer([b"", texts[1], texts[2]])),
         ["band text 0 is empty"])
    case("band_text_nul", cube, with_trailer(cube, band_trailer([texts[0], b"ba\0d", texts[2]])),
         ["band text 1 contains the byte 0x00"])
    case("band_text_utf8", cube, with_trailer(cube, band_trailer([texts[0], texts[1], b"\xff\xfe"])),
         ["band text 2 is not valid UTF-8"])
    case("band_text_utf8_overlong", cube, with_trailer(cube, band_trailer([b"\xc0\xaf", texts[1], texts[2]])),
         ["band text 0 is not valid UTF-8"])
    case("band_text_duplicate", cube, with_trailer(cube, band_trailer([texts[0], texts[1], texts[0]])),
         ["band texts 0 and 2 are equal"])
    case("band_text_length_past_end", cube, put(cube.data, t + 6, "H", 60000), ["truncated trailer"])
    # time fields
    inst = [1_600_000_000, 1_600_432_007]  # cube: 2 instants (rumi_util.instants)
    case("time_type", cube, with_time(cube, time_fields(inst, kind=3)), ["time_type is 3"])
    case("time_bits_65", cube, with_time(cube, time_fields(inst, bits=65, region=b"")), ["time_bits is 65"])
    case("time_scale", cube, with_time(cube, time_fields(inst, scale=60)), ["time_scale is 60"])
    case("time_scale_not_minimal", cube, with_time(cube, time_fields([86400, 3 * 86400])),
         ["time_scale is 1 but every coordinate"])
    case("time_epoch", cube, with_time(cube, time_fields(inst, epoch=inst[0] + 1,
                                                         region=pack([zigzag(-1), zigzag(-1)], 1))),
         ["time_epoch is"])
    case("time_step", cube, with_time(cube, time_fields(inst, step=432_006, region=pack([0, 2], 2), bits=2)),
         ["time_step is 432006"])
    case("time_bits_not_minimal", cube, with_time(cube, time_fields(inst, bits=3, region=b"\0")),
         ["time_bits is 3 but the minimum"])
    case("time_residual_padding", cube, with_time(cube, time_fields(inst, bits=1, region=b"\x04")),
         ["unused bits in the final byte"])
    case("time_instants_decrease", cube, with_time(cube, time_fields([1000, 999])), ["instant 1 (999) is before"])
    case("time_overflow", cube, with_time(cube, time_fields(inst, epoch=2**63 - 1, step=2**63 - 1, bits=0,
                                                            region=b"")), ["does not fit in int64"])
    case("time_region_short", cube, with_time(cube, time_fields(inst, bits=8)[:-1]), ["trailer: size is"])
    d = single.data[:single.trailer_texts_end()] + time_fields([0, 0], kind=1, scale=86400)
    case("time_interval_empty", single, d, ["interval 0 starts at 0 and ends at 0"])
    # a 2-step interval cube needs its own file: overlap is checked on the cube rewritten with 4 coordinates
    d = with_time(cube, time_fields([0, 10, 5, 20], kind=1))
    case("time_intervals_overlap", cube, d, ["interval 1 starts at 5"])
    # Frames: decoded size, element width, booleans, garbage
    case("frame_garbage", cube, with_frames(cube, [b"\x55" * len(f) for f in fr]), ["frame 0: OpenZL decode failed"])
    flipped = bytearray(cube.data)
    for k in range(cube.base + 8, cube.base + cube.counts[0]):
        flipped[k] ^= 0xA5
    case("frame_flipped_bytes", cube, bytes(flipped), ["frame 0:"])
    swapped = fr[:]
    swapped[0], swapped[12] = fr[12], fr[0]  # an edge tile (5 columns) where a full tile belongs
    case("frame_wrong_size", cube, with_frames(cube, swapped), ["frame 0: decoded", "decoded 80 bytes"],
         stateless=["frame 0"])
    d = put(cube.data, value(4), "H", 15)  # 15-pixel tiles: same grid, every decoded size differs
    bl = put(cube.blob, 18, "H", 15)
    case("frame_tile_width_relabelled", cube, d, ["frame 0: decoded 256 bytes, expected 240"], blob=bl)
    # (uint32 frames relabelled complex32 -- same decoded bytes, other element width -- are a
    # VALID file: a frame is defined by its decoded bytes; crates/rumi/tests/validation.rs
    # frame_is_defined_by_its_decoded_bytes covers it)
    d = put(u8.data, value(2), "HHH", 1, 1, 1)  # uint8 0..2 relabelled bool
    bl = put(u8.blob, 24, "B", 1)
    case("frame_boolean_byte", u8, d, ["boolean sample byte", "must be 0 or 1"], blob=bl)
    # absurd dimensions: limits before allocation
    d = put(put(cube.data, value(0), "I", 2**32 - 1), value(1), "I", 2**32 - 1)
    case("absurd_width_length", cube, d, ["resource limit exceeded: frame count N"], stateless=[])
    d = put(put(put(put(cube.data, value(0), "I", 65535), value(1), "I", 65535), value(4), "H", 65535),
            value(5), "H", 65535)
    case("absurd_tile", cube, d, ["resource limit exceeded: decoded frame size"], stateless=[])
    d = put(put(put(put(cube.data, value(0), "I", 65536), value(1), "I", 65536), value(4), "H", 256),
            value(5), "H", 256)
    case("absurd_4_gigapixel", cube, d, ["count is 72, expected 393216"], stateless=[])
    d = put(put(cube.data, value(3), "H", 65535), value(11), "H", 0)
    case("absurd_bands", cube, d, ["count is 3, expected 65535", "resource limit exceeded"], stateless=[])
    # Header blob (rumi validate --header, gdalinfo -oo HEADER=)
    v = cube.data
    case("blob_magic", cube, v, ["header blob: magic is"], blob=put(cube.blob, 0, "4s", b"LOV3"), header=True)
    case("blob_version", cube, v, ["header blob: version is 3"], blob=put(cube.blob, 4, "H", 3), header=True)
    case("blob_count_bits", cube, v, ["count_bits is 33"], blob=put(cube.blob, 31, "B", 33), header=True)
    case("blob_size_long", cube, v, ["header blob: size is"], blob=cube.blob + b"\0", header=True)
    case("blob_size_short", cube, v, ["header blob: size is", "truncated header blob"], blob=cube.blob[:-1],
         header=True)
    case("blob_size_header_only", cube, v, ["truncated header blob"], blob=cube.blob[:20], header=True)
    case("blob_empty", cube, v, ["truncated header blob"], blob=b"", header=True)
    case("blob_count_min", cube, v, ["count_min is"],
         blob=blob_with_counts(cube.blob, cube.counts, count_min=min(cube.counts) - 1), header=True)
    case("blob_count_bits_not_minimal", cube, v, ["count_bits is"],
         blob=blob_with_counts(cube.blob, cube.counts, bits=bit_length(max(cube.counts) - min(cube.counts)) + 1),
         header=True)
    bits = bit_length(max(cube.counts) - min(cube.counts))
    if (cube.n * bits) % 8:
        case("blob_padding", cube, v, ["unused bits in the final byte"],
             blob=blob_with_counts(cube.blob, cube.counts, pad=0x80), header=True)
    case("blob_count_overflow", cube, v, ["does not fit in uint32"], stateless=["does not fit in uint32", "file size is"],
         blob=cube.blob[:27] + struct.pack("<IB", 2**32 - 1, 1) + pack([0] + [1] * (cube.n - 1), 1), header=True)
    case("blob_count_zero", cube, v, ["frame_byte_counts[0] is 0"],
         blob=cube.blob[:27] + struct.pack("<IB", 0, 0), header=True)
    for at, fmt, name, rule in [(6, "I", "width", "image_width is 0"), (10, "I", "length", "image_length is 0"),
                                (14, "I", "times", "time_count is 0"), (18, "H", "tile_width", "tile_width is 0"),
                                (20, "H", "tile_length", "tile_length is 0"),
                                (22, "H", "bands", "samples_per_pixel is 0")]:
        case(f"blob_zero_{name}", cube, v, [rule], blob=put(cube.blob, at, fmt, 0), header=True)
    case("blob_sample_pair", cube, v, ["sample pair (sample_format 1, bits_per_sample 12)"],
         blob=put(cube.blob, 24, "B", 12), header=True)
    case("blob_frame_unit", cube, v, ["frame_unit 11 is not registered"], blob=put(cube.blob, 26, "B", 11),
         header=True)
    # a stateless open trusts the blob: the first inconsistency it meets is the error
    other = ["GeoKeyDirectoryTag", "ModelTransformationTag", "OpenZL decode failed", "decoded", "trailer",
             "file size is", "truncated"]
    case("blob_of_another_file", cube, v, ["header blob frame_unit is 4 but the file says 0"], blob=cell.blob,
         stateless=other, header=True)
    # stateless reads trust the blob: a blob of another file fails at the first frame, never reads out of range
    case("blob_other_file_stateless", cell, cell.data, [], gdal=[], blob=cube.blob, stateless=other)
    case("blob_counts_shifted", cube, v, ["header blob frame_byte_counts["], stateless=["OpenZL decode failed"],
         blob=blob_with_counts(cube.blob, cube.counts[1:] + cube.counts[:1]), header=True)
    gig = cube.blob[:6] + struct.pack("<IIIHHHBBB", 65536, 65536, 2, 256, 256, 3, 16, 1, 0) + \
        struct.pack("<IB", 100, 0)
    case("blob_absurd_4_gigapixel", cube, v, ["header blob image_width is 65536 but the file says 37"], blob=gig,
         stateless=["truncated georeferencing block", "file size is"], header=True)
    # the most frames the default limits allow (N = 2^24, one-pixel tiles) in a 32-byte blob: the
    # counts and offsets are allocated (the worst case of a stateless open), then the short file fails
    most = cube.blob[:6] + struct.pack("<IIIHHHBBB", 4096, 4096, 1, 1, 1, 1, 16, 1, 0) + struct.pack("<IB", 1, 0)
    case("blob_most_frames", cube, v, ["header blob image_width is 4096 but the file says 37"], blob=most,
         stateless=["truncated georeferencing block", "file size is"], header=True)
    huge = cube.blob[:6] + struct.pack("<IIIHHHBBB", 2**32 - 1, 2**32 - 1, 2**32 - 1, 1, 1, 65535, 16, 1, 0) + \
        struct.pack("<IB", 1, 0)
    case("blob_absurd_everything", cube, v, ["resource limit exceeded", "cannot be represented"], blob=huge,
         header=True)
    # truncation at every structure boundary
    cuts = {0: "empty", 4: "magic", 6: "version", 8: "reserved", 16: "file_header", 24: "entry_count",
            284: "entries", 292: "ifd", cube.value_offset(7): "tile_offsets", cube.geo(): "byte_counts",
            cube.geo() + 128: "matrix", cube.base: "geokeys", cube.base + cube.counts[0]: "frame0",
            cube.offsets[36]: "frame36", cube.trailer: "frames", cube.trailer + 4: "trailer_magic",
            cube.trailer + 6: "trailer_version", cube.trailer_texts_end() - 1: "band_texts",
            cube.trailer_texts_end(): "texts", cube.trailer_texts_end() + 21: "time_fields",
            len(cube.data) - 1: "residuals"}
    for at, name in sorted(cuts.items()):
        empty_or_header = at < 8
        case(f"truncated_at_{at}_{name}", cube, cube.data[:at], TRUNC,
             gdal=["not recognized as a supported file format"] + TRUNC if empty_or_header else TRUNC,
             stateless=["not recognized as a supported file format"] + TRUNC if empty_or_header else
             TRUNC + ["trailer: size is", "frame"])
    return out


def main():
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "hostile-corpus")
    out.mkdir(parents=True, exist_ok=True)
    b = bases(out)
    manifest = []
    for c in cases(b):
        f, bl = out / f"{c['name']}.rumi", out / f"{c['name']}.blob"
        f.write_bytes(c.pop("data"))
        bl.write_bytes(c.pop("blob_bytes"))
        c["file"], c["blob"] = f.name, bl.name
        manifest.append(c)
    names = [c["name"] for c in manifest]
    assert len(names) == len(set(names)), "duplicate case names"
    (out / "cases.json").write_text(json.dumps(manifest, indent=1))
    print(f"make_corpus: {len(manifest)} cases in {out}")


if __name__ == "__main__":
    main()
