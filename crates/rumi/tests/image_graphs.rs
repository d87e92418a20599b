//! The image graphs (2-D predictors built from standard OpenZL codecs): every sample encoding x
//! frame unit x graph round-trips bit-exactly through the reader (OpenZL's standard decoder),
//! including edge tiles of one row or one column, and prediction pays on smooth 2-D data.

mod common;

use std::io::Cursor;

use common::*;
use rumi::codec::{self, AlignedBuf, Coding, Graph, Predictor, Stage};
use rumi::format::{FrameUnit, SampleEncoding};
use rumi::write_array;
use rumi::Limits;
use rumi::{Reader, Window};

const GRAPHS: [Graph; 21] = [
    Graph::Coded(Predictor::Gradient, Coding::FAST),
    // pixel-interleaved 8-bit frames of 2 and 3 samples per pixel; every other frame as Left
    // (LeftLz)
    Graph::Coded(Predictor::Bands(2), Coding::FAST),
    Graph::Coded(Predictor::Bands(3), Coding::FAST),
    Graph::Predict(Predictor::BandsLz(2)),
    Graph::Predict(Predictor::BandsLz(3)),
    Graph::Coded(Predictor::Left, Coding::FAST),
    Graph::Coded(Predictor::Up, Coding::FAST),
    // the other residual stages and forward-adaptive classes (measured, not written by default)
    Graph::Coded(Predictor::Left, Coding { low: Stage::Pivco, high: Stage::Zstd, classes: 4, segment: 16 }),
    Graph::Coded(Predictor::Gradient, Coding { low: Stage::Partition, high: Stage::FieldLz, classes: 0, segment: 0 }),
    // the stages `fast` adds: stored planes and LZ4
    Graph::Coded(Predictor::Left, Coding { low: Stage::Store, high: Stage::Lz4, classes: 0, segment: 0 }),
    Graph::Coded(Predictor::Left, Coding { low: Stage::Lz4, high: Stage::Store, classes: 0, segment: 0 }),
    Graph::Predict(Predictor::Up),
    Graph::Predict(Predictor::Gradient),
    Graph::Predict(Predictor::Left),
    Graph::Predict(Predictor::LeftLz),
    Graph::Image(0),
    Graph::Image(7),
    Graph::Auto(7),
    // the decode-speed setting and the auto rule's weight at both ends
    Graph::Fast,
    Graph::AutoWeighted(7, 0),
    Graph::AutoWeighted(7, 100),
];

#[test]
fn every_encoding_frame_unit_and_image_graph_round_trips() {
    for enc in SampleEncoding::ALL {
        for (b, t) in [(1u16, 1u32), (3, 1), (1, 3), (2, 3)] {
            for unit in FrameUnit::valid_for(u32::from(b), t) {
                // 16x8 tiles: edge tiles of 5 columns and of 1 row (y = 17)
                let (x, y) = (37u32, 17u32);
                let n = (x * y) as usize * usize::from(b) * t as usize;
                let data = samples(enc, n, u64::from(unit.value()) + 11);
                for graph in GRAPHS {
                    let s = spec(enc, x, y, b, t, (16, 8), unit.value().into(), utm());
                    let (cur, blob) = write_array(Cursor::new(Vec::new()), s, graph, &data).unwrap();
                    let file = cur.into_inner();
                    let r =
                        Reader::open_with_blob(file.as_slice(), &blob.to_bytes().unwrap(), Limits::default()).unwrap();
                    let win = Window { times: 0..t, bands: (0..u32::from(b)).collect(), rows: 0..y, cols: 0..x };
                    let mut out = vec![0u8; r.window_bytes(&win).unwrap() as usize];
                    r.read_window(&win, &mut out).unwrap();
                    assert!(out == data, "{enc:?} B={b} T={t} unit={} {graph:?}", unit.value());
                }
            }
        }
    }
}

/// A smooth 2-D surface (a tilted plane with a bump, plus a little noise) as u16.
fn surface(w: usize, h: usize) -> Vec<u8> {
    let mut x = 12345u64;
    let mut out = Vec::with_capacity(w * h * 2);
    for r in 0..h {
        for c in 0..w {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let bump = 400.0 * (-(((c as f64 - 80.0).powi(2) + (r as f64 - 60.0).powi(2)) / 2000.0)).exp();
            let v = 1000.0 + 3.7 * c as f64 + 5.3 * r as f64 + bump + (x >> 62) as f64;
            out.extend_from_slice(&(v as u16).to_le_bytes());
        }
    }
    out
}

fn decode(frame: &[u8], len: usize) -> Vec<u8> {
    let mut out = AlignedBuf::zeroed(len);
    codec::decode_into(frame, &mut out, 0).unwrap();
    out.as_bytes().to_vec()
}

#[test]
fn gradient_prediction_beats_the_numeric_graph_on_a_smooth_surface() {
    let (w, h) = (160usize, 120usize);
    let data = surface(w, h);
    let numeric = codec::encode_rows(&data, 2, w, Graph::Numeric(7)).unwrap();
    let gradient = codec::encode_rows(&data, 2, w, Graph::Predict(Predictor::Gradient)).unwrap();
    let up = codec::encode_rows(&data, 2, w, Graph::Predict(Predictor::Up)).unwrap();
    assert_eq!(decode(&gradient, data.len()), data);
    assert_eq!(decode(&up, data.len()), data);
    assert!(
        gradient.len() * 10 < numeric.len() * 9,
        "gradient {} bytes, numeric {} bytes",
        gradient.len(),
        numeric.len()
    );
    // the candidates' gradient (PivCo low plane, sparse high plane) too; the smallest-of choice
    // reports which candidate made the frame
    let fast_graph = Graph::Coded(Predictor::Gradient, Coding::FAST);
    let fast = codec::encode_rows(&data, 2, w, fast_graph).unwrap();
    assert_eq!(decode(&fast, data.len()), data);
    assert!(fast.len() * 10 < numeric.len() * 9, "fast gradient {} bytes, numeric {} bytes", fast.len(), numeric.len());
    let cands = Graph::image_candidates(7);
    let (best, i) = codec::encode_best(&data, 2, w, &cands, 0.0).unwrap();
    assert_eq!(cands[i], fast_graph);
    assert_eq!(best, fast);
    assert_eq!(decode(&best, data.len()), data);
}

#[test]
fn prediction_without_rows_falls_back_and_still_round_trips() {
    let data = surface(50, 3);
    // no row length, a row length that does not divide the frame, a single row
    for row in [0usize, 7, 150] {
        for p in [Predictor::Up, Predictor::Gradient, Predictor::Left, Predictor::LeftLz] {
            let f = codec::encode_rows(&data, 2, row, Graph::Predict(p)).unwrap();
            assert_eq!(decode(&f, data.len()), data, "row {row} {p:?}");
        }
    }
    let e = codec::encode_best(&data, 2, 50, &[Graph::Image(7)], 0.0).unwrap_err();
    assert!(e.to_string().contains("is not a single graph"), "{e}");
}

/// `fast` codes a frame with the left predictor, each stream (the low byte plane, the higher
/// planes) to the stage of `codec::FAST_STAGES` of least bytes + FAST_BYTES_PER_NS x modelled
/// decode ns: the oracle here is every pair of stages coded as a whole frame, the one of least
/// frame bytes + the model's ns. White noise is stored (a Huffman code saves nothing of it and
/// costs decode time); a smooth surface's high plane (all zeros) is not stored, nor its low
/// plane; its frames are standard frames the decoder reads.
#[test]
fn fast_picks_each_planes_stage_by_bytes_and_modelled_decode_time() {
    let (w, h) = (256usize, 64usize);
    // dense planes: residuals of white noise over 0..65535
    let mut x = 99u64;
    let noisy: Vec<u8> = (0..w * h)
        .flat_map(|_| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((x >> 40) as u16).to_le_bytes()
        })
        .collect();
    // a smooth surface: its left residuals' high plane is all zeros
    let smooth = surface(w, h);
    let bytes: Vec<u8> = smooth.iter().step_by(2).copied().collect();
    let coded = |low, high| Graph::Coded(Predictor::Left, Coding { low, high, classes: 0, segment: 0 });
    for (name, data, width) in [("noise", &noisy, 2usize), ("smooth", &smooth, 2), ("smooth bytes", &bytes, 1)] {
        let n = (data.len() / width) as f64;
        let highs: &[Stage] = if width == 1 { &[Stage::Pivco] } else { &codec::FAST_STAGES };
        let mut best: Option<(f64, Graph)> = None;
        for &low in &codec::FAST_STAGES {
            for &high in highs {
                let frame = codec::encode_rows(data, width, w, coded(low, high)).unwrap();
                let ns = n * codec::fast_ns_per_byte(low) + n * (width - 1) as f64 * codec::fast_ns_per_byte(high);
                let cost = frame.len() as f64 + codec::FAST_BYTES_PER_NS * ns;
                if best.is_none_or(|b| cost < b.0) {
                    best = Some((cost, coded(low, high)));
                }
            }
        }
        let want = best.unwrap().1;
        let fast = codec::encode_rows(data, width, w, Graph::Fast).unwrap();
        assert_eq!(fast, codec::encode_rows(data, width, w, want).unwrap(), "{name}: want {want:?}");
        assert_eq!(decode(&fast, data.len()), *data, "{name}");
        let Graph::Coded(_, c) = want else { unreachable!() };
        match name {
            "noise" => assert_eq!((c.low, c.high), (Stage::Store, Stage::Store), "{name}"),
            "smooth" => assert!(c.low != Stage::Store && c.high != Stage::Store, "{name}: {c:?}"),
            _ => assert_ne!(c.low, Stage::Store, "{name}"),
        }
    }
}

/// A corrupted `fast` frame is never a silent wrong result: every byte of the frame, changed in
/// turn, makes the decoder fail (OpenZL's checksums of the compressed bytes and of the content)
/// or, where the byte does not matter, decode the same samples.
#[test]
fn every_corrupted_byte_of_a_fast_frame_fails_or_decodes_the_same() {
    let (w, h) = (64usize, 48usize);
    let mut x = 7u64;
    let noisy: Vec<u8> = surface(w, h)
        .chunks_exact(2)
        .flat_map(|s| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (u16::from_le_bytes([s[0], s[1]]) ^ ((x >> 52) as u16)).to_le_bytes()
        })
        .collect();
    for data in [surface(w, h), noisy] {
        let frame = codec::encode_rows(&data, 2, w, Graph::Fast).unwrap();
        let (mut failed, mut same) = (0, 0);
        for k in 0..frame.len() {
            let mut bad = frame.clone();
            bad[k] ^= 0xA5;
            let mut out = AlignedBuf::zeroed(data.len());
            match codec::decode_into(&bad, &mut out, 0) {
                Err(_) => failed += 1,
                Ok(()) => {
                    assert!(out.as_bytes() == data.as_slice(), "byte {k} of {}: wrong samples, no error", frame.len());
                    same += 1;
                }
            }
        }
        assert!(
            failed > frame.len() * 9 / 10,
            "{failed} of {} corruptions failed ({same} decoded the same)",
            frame.len()
        );
    }
}
