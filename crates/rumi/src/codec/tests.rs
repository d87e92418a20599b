use super::decode::STACK_ARENA_FRAME_BYTES;
use super::ffi::MAX_PREDICT_COMPRESSORS;
use super::*;

/// The kept frame (auto): the smallest unless a faster graph's is within SLOWER_COSTS per
/// decode class step; the first on ties. Image: the smallest.
#[test]
fn choose_trades_four_percent_per_speed_class() {
    let (grad, left, lz, num) = (
        Graph::Coded(Predictor::Gradient, Coding::FAST),
        Graph::Coded(Predictor::Left, Coding::FAST),
        Graph::Predict(Predictor::LeftLz),
        Graph::Numeric(7),
    );
    assert_eq!(Graph::image_candidates(7), vec![grad, left, lz, num]);
    // pixel-interleaved 8- and 16-bit frames add the band predictors (one class above left,
    // the LZ one as slow to encode as left+LZ); other frames keep the list
    let (bands, bands_lz) = (Graph::Coded(Predictor::Bands(4), Coding::FAST), Graph::Predict(Predictor::BandsLz(4)));
    assert_eq!(Graph::image_candidates_for(7, 1, 4), vec![grad, left, bands, lz, bands_lz, num]);
    assert_eq!(Graph::image_candidates_for(7, 2, 4), vec![grad, left, bands, lz, bands_lz, num]);
    for (width, per_pixel) in [(1, 1), (4, 4), (8, 2), (1, 300)] {
        assert_eq!(Graph::image_candidates_for(7, width, per_pixel), vec![grad, left, lz, num]);
    }
    assert_eq!(bands.decode_class(), left.decode_class() + 1);
    assert!(bands_lz.slow_encoder() && !bands.slow_encoder());
    assert_eq!(choose(&[], SLOWER_COSTS, 2), None);
    assert_eq!(choose(&[(lz, 1000), (grad, 990)], 0.0, 2), Some(1));
    assert_eq!(Graph::Image(7).slower_costs(), 0.0);
    assert_eq!(Graph::Auto(7).slower_costs(), SLOWER_COSTS);
    // fast gradient (class 2) one class slower than left+LZ (1): 1.08 x its bytes against
    // 1.04 x, kept only when about 4 % smaller
    assert_eq!(choose(&[(grad, 965), (lz, 1000)], SLOWER_COSTS, 2), Some(1));
    assert_eq!(choose(&[(grad, 955), (lz, 1000)], SLOWER_COSTS, 2), Some(0));
    // numeric (2) two classes slower than fast left (0): kept only when 1.08 x its bytes is less
    assert_eq!(choose(&[(left, 1000), (num, 935)], SLOWER_COSTS, 2), Some(0));
    assert_eq!(choose(&[(left, 1000), (num, 920)], SLOWER_COSTS, 2), Some(1));
    // the previous candidates keep their order: the byte planes through FSE cost a class each
    let (old_grad, old_left) = (Graph::Predict(Predictor::Gradient), Graph::Predict(Predictor::Left));
    assert!(left.decode_class() < lz.decode_class() && lz.decode_class() < num.decode_class());
    assert!(num.decode_class() <= old_left.decode_class() && old_left.decode_class() < old_grad.decode_class());
    assert!(grad.decode_class() < old_grad.decode_class());
    // on 8-bit data numeric is a class further from left+LZ: kept only when 1.12 x its bytes is
    // less than 1.04 x left+LZ's
    assert_eq!(num.decode_class_for(1), num.decode_class() + 1);
    assert_eq!(lz.decode_class_for(1), lz.decode_class());
    assert_eq!(choose(&[(lz, 1000), (num, 940)], SLOWER_COSTS, 2), Some(1));
    assert_eq!(choose(&[(lz, 1000), (num, 940)], SLOWER_COSTS, 1), Some(0));
    assert_eq!(choose(&[(lz, 1000), (num, 920)], SLOWER_COSTS, 1), Some(1));
    assert_eq!(choose(&[(num, 1000), (Graph::Numeric(3), 1000)], SLOWER_COSTS, 2), Some(0));
    // the writer's candidates on a noisy surface: encode_best keeps what `choose` picks
    // from the candidates' own frame sizes, and that frame decodes to the samples
    let mut seed = 1u32;
    let surface: Vec<u8> = (0..64u32 * 64)
        .flat_map(|i| {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            let (y, x) = (i / 64, i % 64);
            ((x * x + 3 * y * y + x * y) as u16 / 4 + (seed >> 28) as u16).to_le_bytes()
        })
        .collect();
    let cands = Graph::image_candidates(7);
    let sizes: Vec<(Graph, usize)> =
        cands.iter().map(|&g| (g, encode_rows(&surface, 2, 64, g).unwrap().len())).collect();
    let (frame, i) = encode_best(&surface, 2, 64, &cands, SLOWER_COSTS).unwrap();
    assert_eq!((Some(i), frame.len()), (choose(&sizes, SLOWER_COSTS, 2), sizes[i].1), "{sizes:?}");
    let mut out = AlignedBuf::zeroed(surface.len());
    decode_into(&frame, &mut out, 0).unwrap();
    assert_eq!(out.as_bytes(), &surface[..]);
}

#[test]
/// One thread's context (its stack arena reused frame after frame, and renewed after a frame
/// larger than STACK_ARENA_FRAME_BYTES) decodes frames of alternating sizes exactly.
fn arena_reuse_across_frame_sizes() {
    let small: Vec<u8> = (0..65536u32).flat_map(|i| ((i * 13 % 4000) as u16).to_le_bytes()).collect();
    let large: Vec<u8> =
        (0..(STACK_ARENA_FRAME_BYTES as u32 / 2 + 4096)).flat_map(|i| ((i % 65521) as u16).to_le_bytes()).collect();
    let (fs, fl) = (encode(&small, 2, Graph::Numeric(3)).unwrap(), encode(&large, 2, Graph::Numeric(3)).unwrap());
    for (f, want) in [(&fs, &small), (&fl, &large), (&fs, &small), (&fs, &small), (&fl, &large), (&fs, &small)] {
        let mut out = AlignedBuf::zeroed(want.len());
        decode_into(f, &mut out, 0).unwrap();
        assert!(out.as_bytes() == &want[..], "{} bytes decoded wrong", want.len());
    }
    // a corrupt frame after them fails cleanly, and the context still decodes afterwards
    let mut bad = fs.clone();
    let mid = bad.len() / 2;
    bad[mid] ^= 0xff;
    let mut out = AlignedBuf::zeroed(small.len());
    assert!(decode_into(&bad, &mut out, 0).is_err());
    decode_into(&fs, &mut out, 0).unwrap();
    assert!(out.as_bytes() == &small[..]);
}

#[test]
fn round_trip_whatever_the_output_type() {
    let data: Vec<u8> = (0..4096u32).flat_map(|i| ((i * 7 % 1000) as u16).to_le_bytes()).collect();
    for f in [
        Graph::Numeric(6),
        Graph::Numeric(7),
        Graph::Generic(6),
        Graph::BestOf,
        Graph::Predict(Predictor::Gradient),
        Graph::Predict(Predictor::Up),
        Graph::Image(7),
    ]
    .into_iter()
    .map(|g| encode_rows(&data, 2, 64, g).unwrap())
    .chain([1, 4, 8].map(|w| encode(&data, w, Graph::Numeric(6)).unwrap()))
    .chain([encode_serial(&data, 6).unwrap()])
    {
        let mut out = AlignedBuf::zeroed(data.len());
        decode_into(&f, &mut out, 0).unwrap();
        assert_eq!(out.as_bytes(), &data[..]);
        let mut short = AlignedBuf::zeroed(data.len() - 2);
        let e = decode_into(&f, &mut short, 1).unwrap_err();
        assert_eq!(
            e.to_string(),
            "frame 1: decoded 8192 bytes, expected 8190 (the header blob may not belong to this file)"
        );
    }
}

#[test]
fn garbage_is_an_error() {
    let mut out = AlignedBuf::zeroed(64);
    assert!(decode_into(&[0x28, 0xb5, 1, 2, 3, 4, 5, 6, 7], &mut out, 9).is_err());
    assert!(decode_into(&[], &mut out, 9).is_err());
}

/// More frame shapes and graphs than a thread keeps predictor compressors for
/// (MAX_PREDICT_COMPRESSORS): every frame still encodes and round-trips. (Evicting one
/// compressor used to re-point the context at the thread's base compressor first, which OpenZL
/// refuses, "Graph invalid", when no frame of the thread has selected a standard graph in it.)
#[test]
fn more_frame_shapes_than_cached_compressors() {
    std::thread::spawn(|| {
        // 4 frame shapes (a raster's inner, right, bottom and corner tiles) x 9 graphs = 36 keys
        let shapes = [(256usize, 256usize), (245, 256), (256, 31), (245, 31)];
        let mut graphs = vec![Graph::Predict(Predictor::Left), Graph::Predict(Predictor::Up)];
        for low in [Stage::Entropy, Stage::Pivco] {
            for high in [Stage::Entropy, Stage::Pivco, Stage::Zstd] {
                graphs.push(Graph::Coded(Predictor::Gradient, Coding { low, high, classes: 0, segment: 0 }));
            }
        }
        graphs.push(Graph::Coded(Predictor::Left, Coding::PARTITION));
        assert!(graphs.len() * shapes.len() > MAX_PREDICT_COMPRESSORS);
        for g in graphs {
            for (row, rows) in shapes {
                let data: Vec<u8> =
                    (0..row * rows).flat_map(|i| ((i * 7 + i / row * 5) as u16 % 3000).to_le_bytes()).collect();
                let f = encode_rows(&data, 2, row, g).unwrap_or_else(|e| panic!("{row} x {rows} {g:?}: {e}"));
                let mut out = AlignedBuf::zeroed(data.len());
                decode_into(&f, &mut out, 0).unwrap();
                assert_eq!(out.as_bytes(), &data[..], "{row} x {rows} {g:?}");
            }
        }
    })
    .join()
    .unwrap();
}

/// `encode_screened` compares the candidates on every `every`-th chunk of 8 rows and encodes the
/// frame whole with the one `choose` picks there; small frames are compared whole.
#[test]
fn screening_picks_on_a_sample_and_encodes_the_whole_frame() {
    // 256 rows of 256: smooth rows above, noise below (a sample sees both)
    let mut seed = 7u32;
    let (h, w) = (256u32, 256u32);
    let frame: Vec<u8> = (0..h * w)
        .flat_map(|i| {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            let (y, x) = (i / w, i % w);
            let v = if y < 128 { (x * 3 + y * 5) as u16 } else { (x * 3 + y * 5) as u16 + (seed >> 22) as u16 };
            v.to_le_bytes()
        })
        .collect();
    let cands = Graph::image_candidates(7);
    // the sample: chunks 0, 4, 8, ... of 8 rows (every 4th of 32 chunks)
    let line = w as usize * 2;
    let sample: Vec<u8> = frame.chunks(8 * line).step_by(4).flatten().copied().collect();
    assert_eq!(sample.len(), frame.len() / 4);
    let on_sample: Vec<(Graph, usize)> =
        cands.iter().map(|&g| (g, encode_rows(&sample, 2, w as usize, g).unwrap().len())).collect();
    let want = choose(&on_sample, SLOWER_COSTS, 2).unwrap();
    let (f, i) = encode_screened(&frame, 2, w as usize, &cands, SLOWER_COSTS, 4, true).unwrap();
    assert_eq!(i, want, "{on_sample:?}");
    assert_eq!(f, encode_rows(&frame, 2, w as usize, cands[i]).unwrap()); // the whole frame, that graph
    let mut out = AlignedBuf::zeroed(frame.len());
    decode_into(&f, &mut out, 0).unwrap();
    assert_eq!(out.as_bytes(), &frame[..]);
    // 63 rows: fewer than 8 chunks for a sample of every second: compared whole, as encode_best
    let small = &frame[..63 * line];
    assert_eq!(
        encode_screened(small, 2, w as usize, &cands, SLOWER_COSTS, 4, true).unwrap(),
        encode_best(small, 2, w as usize, &cands, SLOWER_COSTS).unwrap()
    );
    // one candidate: no screening
    let (one, k) = encode_screened(&frame, 2, w as usize, &cands[1..2], SLOWER_COSTS, 4, true).unwrap();
    assert_eq!((one, k), (encode_rows(&frame, 2, w as usize, cands[1]).unwrap(), 0));
}

/// With frames large enough for a probe (cells of 3 bands of 256 rows), the slow encoders'
/// probe keeps the choice of comparing every candidate on the sample: numeric on categorical
/// codes (where it wins), a fast predictor on smooth data with noise (where it is not tried).
#[test]
fn the_slow_encoders_probe_keeps_the_sample_choice() {
    let (rows, w) = (768u32, 256u32);
    let mut seed = 11u32;
    let mut rand = move || {
        seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        seed >> 16
    };
    // a few classes in patches of 16 x 8 pixels (fuel-model-like codes)
    let classes = [91u16, 101, 102, 121, 122, 141, 161, 165, 181, 183];
    let patches: Vec<u16> = (0..(rows / 8) * (w / 16)).map(|_| classes[rand() as usize % classes.len()]).collect();
    let codes: Vec<u8> =
        (0..rows * w).flat_map(|i| patches[((i / w / 8) * (w / 16) + (i % w) / 16) as usize].to_le_bytes()).collect();
    let smooth: Vec<u8> =
        (0..rows * w).flat_map(|i| (((i % w) * 7 + (i / w) * 3) as u16 + (rand() % 24) as u16).to_le_bytes()).collect();
    let cands = Graph::image_candidates(7);
    for (name, frame, slow_wins) in [("codes", &codes, true), ("smooth", &smooth, false)] {
        let probed = encode_screened(frame, 2, w as usize, &cands, SLOWER_COSTS, 4, true).unwrap();
        let all = encode_screened(frame, 2, w as usize, &cands, SLOWER_COSTS, 4, false).unwrap();
        assert_eq!(probed.1, all.1, "{name}: the probe changed the choice");
        assert_eq!(probed.0, all.0, "{name}");
        assert_eq!(cands[probed.1].slow_encoder(), slow_wins, "{name}: picked {:?}", cands[probed.1]);
        let mut out = AlignedBuf::zeroed(frame.len());
        decode_into(&probed.0, &mut out, 0).unwrap();
        assert_eq!(out.as_bytes(), &frame[..], "{name}");
    }
}

/// A band predictor built with no band count never divides by zero: the frame round-trips.
#[test]
fn band_predictors_without_a_band_count_fall_back() {
    let data: Vec<u8> = (0..4096u32).flat_map(|i| ((i * 7 % 1000) as u16).to_le_bytes()).collect();
    for g in [Graph::Coded(Predictor::Bands(0), Coding::FAST), Graph::Predict(Predictor::BandsLz(0))] {
        let f = encode_rows(&data, 2, 64, g).unwrap();
        let mut out = AlignedBuf::zeroed(data.len());
        decode_into(&f, &mut out, 0).unwrap();
        assert_eq!(out.as_bytes(), &data[..]);
    }
}

/// The names users give graphs (`rumi convert --graph`, Python's `graph=`): each names its graph,
/// `auto:4` is `auto`, and anything else is an error listing the accepted names.
#[test]
fn graph_names() {
    for (name, graph) in [
        ("auto", Graph::Auto(5)),
        ("auto:4", Graph::Auto(5)),
        ("auto:0", Graph::AutoWeighted(5, 0)),
        ("auto:10", Graph::AutoWeighted(5, 10)),
        ("auto:100", Graph::AutoWeighted(5, 100)),
        ("fast", Graph::Fast),
        ("image", Graph::Image(5)),
        ("numeric", Graph::Numeric(5)),
        ("generic", Graph::Generic(5)),
        ("best", Graph::BestOf),
    ] {
        assert_eq!(Graph::named(name, 5), Ok(graph), "{name}");
    }
    for bad in ["nonsense", "Fast", "", "auto:", "auto:101", "auto:-1", "auto:+5", "auto:2.5", "auto:4%", "fast:1"] {
        let e = Graph::named(bad, 7).unwrap_err();
        assert!(e.starts_with(&format!("graph {bad:?} is not one of: ")) && e.contains(GRAPH_NAMES), "{e}");
    }
    assert!(Graph::named("auto:101", 7).unwrap_err().ends_with("\"101\" is not a whole percent 0..=100"));
    // the weight is the auto rule's: auto:N weighs each decode class N %, and only the auto
    // graphs pick per frame by it
    assert_eq!(Graph::AutoWeighted(7, 10).slower_costs(), 0.10);
    assert_eq!(Graph::AutoWeighted(7, 0).slower_costs(), 0.0);
    assert_eq!(Graph::Fast.slower_costs(), 0.0);
    assert!(Graph::Auto(7).is_auto() && Graph::AutoWeighted(7, 0).is_auto());
    assert!(!Graph::Fast.is_auto() && !Graph::Image(7).is_auto());
    assert_eq!(Graph::Fast.decode_class(), 0);
}
