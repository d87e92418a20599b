//! Property tests of the format layer: bit packing, zigzag, time_step rounding, and
//! parse(serialise(x)) == x for the trailer, the header blob, the georeferencing block and the
//! file prefix (header + IFD + external values).

use proptest::collection::vec;
use proptest::prelude::*;

use rumi::format::bitpack::{bit_length, pack, unpack, unzigzag, zigzag};
use rumi::format::ifd::serialise_prefix;
use rumi::format::trailer::time_step;
use rumi::format::{
    Blob, FrameUnit, Georef, IfdHead, Layout, ModelType, RasterType, SampleEncoding, TimeAxis, TimeKind, Trailer,
};
use rumi::Limits;

/// Bit `j` of value `i` at bit position `i * bits + j`, LSB first: the spec's definition, bit by bit.
fn reference_pack(values: &[u64], bits: u32) -> Vec<u8> {
    let mut out = vec![0u8; (values.len() as u64 * u64::from(bits)).div_ceil(8) as usize];
    for (i, &v) in values.iter().enumerate() {
        for j in 0..bits as usize {
            if (v >> j) & 1 == 1 {
                let p = i * bits as usize + j;
                out[p / 8] |= 1 << (p % 8);
            }
        }
    }
    out
}

/// `round((last - first) / (C - 1))`, halves toward +infinity, by remainder instead of the
/// crate's floor((2d + n) / 2n); `None` when it does not fit in int64.
fn reference_step(coords: &[i64]) -> Option<i64> {
    if coords.len() < 2 {
        return Some(0);
    }
    let d = i128::from(coords[coords.len() - 1]) - i128::from(coords[0]);
    let n = (coords.len() - 1) as i128;
    let (q, r) = (d.div_euclid(n), d.rem_euclid(n));
    i64::try_from(if 2 * r >= n { q + 1 } else { q }).ok()
}

fn limits() -> Limits {
    Limits::default()
}

/// A valid layout with at most a few tens of thousands of frames.
fn layouts() -> impl Strategy<Value = Layout> {
    (1u32..600, 1u32..600, 1u32..4, 1u16..7, 16u16..300, 16u16..300, 0usize..21, any::<prop::sample::Index>()).prop_map(
        |(w, l, t, b, tw, tl, e, unit)| {
            let units = FrameUnit::valid_for(u32::from(b), t);
            let unit = units[unit.index(units.len())].value();
            Layout::new(w, l, t, b, tw, tl, SampleEncoding::ALL[e], unit.into(), &limits()).unwrap()
        },
    )
}

/// A layout and N byte counts: small, full-range, or all equal (count_bits 0).
fn layouts_and_counts() -> impl Strategy<Value = (Layout, Vec<u32>)> {
    layouts().prop_flat_map(|layout| {
        let n = layout.frame_count().unwrap() as usize;
        let counts =
            prop_oneof![vec(1u32..5000, n), vec(1u32..=u32::MAX, n), (1u32..=u32::MAX).prop_map(move |c| vec![c; n]),];
        (Just(layout), counts)
    })
}

fn georefs() -> impl Strategy<Value = Georef> {
    let raster = prop_oneof![Just(RasterType::Area), Just(RasterType::Point)];
    let model = prop_oneof![Just(ModelType::Projected), Just(ModelType::Geographic)];
    let coefficient = prop_oneof![-1e7f64..1e7, Just(0.0), -1e-3f64..1e-3];
    prop_oneof![
        raster.clone().prop_map(|raster_type| Georef::Undefined { raster_type }),
        (
            model,
            raster,
            1024u16..=32766,
            [
                coefficient.clone(),
                coefficient.clone(),
                coefficient.clone(),
                coefficient.clone(),
                coefficient.clone(),
                coefficient
            ]
        )
            .prop_map(|(model, raster_type, epsg, affine)| Georef::Epsg { model, raster_type, epsg, affine }),
    ]
}

/// B unique, non-empty, NUL-free texts (some non-ASCII).
fn band_texts(b: usize) -> impl Strategy<Value = Vec<String>> {
    vec("[A-Za-z0-9 ,./()µλ-]{0,24}", b)
        .prop_map(|texts| texts.into_iter().enumerate().map(|(i, t)| format!("{t}#{i}")).collect())
}

/// A valid time axis of T steps in seconds: instants non-decreasing, intervals non-empty and
/// non-overlapping; optionally whole days; starting anywhere from far before 1970.
fn time_axes(t: usize) -> impl Strategy<Value = TimeAxis> {
    let start = -4_000_000_000_000i64..4_000_000_000_000;
    let deltas = vec(prop_oneof![0i64..3, 0i64..100_000, 0i64..(1 << 40)], 2 * t);
    (any::<bool>(), any::<bool>(), start, deltas).prop_map(move |(interval, days, start, deltas)| {
        let unit = if days { 86_400 } else { 1 };
        let kind = if interval { TimeKind::Interval } else { TimeKind::Instant };
        let c = if interval { 2 * t } else { t };
        let mut v = start / unit;
        let mut coords = Vec::with_capacity(c);
        for (i, d) in deltas.into_iter().take(c).enumerate() {
            // interval ends are strictly after their starts
            let d = if interval && i % 2 == 1 { d.max(1) } else { d };
            if i > 0 {
                v += d;
            }
            coords.push(v * unit);
        }
        TimeAxis::from_seconds(kind, coords, t as u32).unwrap()
    })
}

fn trailers() -> impl Strategy<Value = (Trailer, u16, u32)> {
    (1usize..6, 1usize..9).prop_flat_map(|(b, t)| {
        (band_texts(b), time_axes(t))
            .prop_map(move |(band_texts, time)| (Trailer { band_texts, time }, b as u16, t as u32))
    })
}

proptest! {
    #[test]
    fn bit_packing_round_trips(bits in 0u32..=64, raw in vec(any::<u64>(), 0..70)) {
        let mask = if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 };
        let values: Vec<u64> = raw.iter().map(|v| v & mask).collect();
        let packed = pack(&values, bits);
        prop_assert_eq!(packed.len() as u64, (values.len() as u64 * u64::from(bits)).div_ceil(8));
        prop_assert_eq!(&packed, &reference_pack(&values, bits));
        prop_assert_eq!(unpack(&packed, values.len(), bits, "test").unwrap(), values);
    }

    #[test]
    fn bit_length_is_minimal(x in any::<u64>()) {
        let n = bit_length(x);
        prop_assert!(n == 64 || x >> n == 0);
        prop_assert!(n == 0 || x >> (n - 1) == 1);
    }

    #[test]
    fn zigzag_is_the_spec_mapping_and_inverts(x in any::<i64>(), p in any::<u64>()) {
        let expected = if x >= 0 { 2 * i128::from(x) } else { -2 * i128::from(x) - 1 };
        prop_assert_eq!(i128::from(zigzag(x)), expected);
        prop_assert_eq!(unzigzag(zigzag(x)), x);
        prop_assert_eq!(zigzag(unzigzag(p)), p);
    }

    #[test]
    fn time_step_matches_reference(coords in vec(any::<i64>(), 0..12)) {
        prop_assert_eq!(time_step(&coords), reference_step(&coords));
    }

    #[test]
    fn time_step_matches_reference_near_halves(first in -1000i64..1000, n in 1i64..40, q in -1000i64..1000, r in -3i64..3) {
        // last - first = q * n + n / 2 + r lands on and around exact halves
        let mut coords = vec![first; n as usize + 1];
        coords[n as usize] = first + q * n + n / 2 + r;
        prop_assert_eq!(time_step(&coords), reference_step(&coords));
    }

    #[test]
    fn trailer_round_trips((trailer, b, t) in trailers()) {
        let bytes = trailer.to_bytes().unwrap();
        let s: usize = trailer.band_texts.iter().map(|x| 2 + x.len()).sum();
        let c = trailer.time.coords.len() as u64;
        let bits = u64::from(bytes[6 + s + 1]);
        prop_assert_eq!(bytes.len() as u64, 28 + s as u64 + (c * bits).div_ceil(8));
        let parsed = Trailer::parse(&bytes, b, t, 0, &limits()).unwrap();
        prop_assert_eq!(parsed, trailer);
    }

    #[test]
    fn blob_round_trips((layout, counts) in layouts_and_counts()) {
        let blob = Blob { layout, counts };
        let bytes = blob.to_bytes().unwrap();
        let parsed = Blob::parse(&bytes, &limits()).unwrap();
        prop_assert_eq!(&parsed, &blob);
        let offsets = parsed.offsets().unwrap();
        prop_assert_eq!(offsets[0], layout.base_frame_offset().unwrap());
        let total: u64 = blob.counts.iter().map(|&c| u64::from(c)).sum();
        prop_assert_eq!(offsets[offsets.len() - 1], offsets[0] + total);
    }

    #[test]
    fn georef_round_trips(g in georefs()) {
        let bytes = g.to_bytes().unwrap();
        prop_assert_eq!(Georef::parse(&bytes, 0).unwrap(), g);
    }

    #[test]
    fn ifd_prefix_round_trips((layout, counts) in layouts_and_counts(), g in georefs()) {
        let prefix = serialise_prefix(&layout, &counts, &g).unwrap();
        let base = layout.base_frame_offset().unwrap();
        prop_assert_eq!(prefix.len() as u64, base);
        let head = IfdHead::parse(&prefix[..292], &limits()).unwrap();
        prop_assert_eq!(head.base_frame_offset, base);
        prop_assert_eq!(head.frame_count(), counts.len() as u64);
        prop_assert_eq!(head.external_len(), base - 292);
        let ifd = head.finish(&prefix[292..], &limits()).unwrap();
        prop_assert_eq!(ifd.layout, layout);
        prop_assert_eq!(&ifd.byte_counts, &counts);
        prop_assert_eq!(ifd.georef, g);
        prop_assert_eq!(ifd.base_frame_offset, base);
        let mut expected = base;
        for (o, c) in ifd.offsets.iter().zip(&counts) {
            prop_assert_eq!(*o, expected);
            expected += u64::from(*c);
        }
    }
}
