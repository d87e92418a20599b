//! Re-encodes every frame of rumi files with each writer graph and reports, per graph, the
//! ratio (raw / frame bytes, no file overhead), the single-thread OpenZL decode MB/s of the
//! re-encoded frames and their single-thread encode MB/s (best of `--reps` passes), then the writer's per-frame choice
//! (`codec::choose`) at several costs per decode class. Answers "which graph decodes fastest at
//! what size" on real data without rewriting files.
//!
//! Run: `cargo run --release --example graph_probe -- [--reps R] FILE.rumi...`; with `--screen`, the
//! writer's `auto` choice three ways (whole frames, a sample, a sample with the slow encoders'
//! probe): bytes, encode MB/s and picks per candidate. `--graphs` also takes `fast@W` (`fast`
//! with W bytes per modelled ns of decode, `codec::encode_fast_weighted`) and with `--pick` the
//! per-frame pick among the graphs given of least `bytes + lambda * decode ns` for a few lambdas.

use std::time::Instant;

use rumi::codec::{self, AlignedBuf, Coding, Graph, Predictor, Stage};

/// `PRED/LOW-HIGH[/cK-SEG]`: a predictor (left, up, gradient, or bandsN for pixel-interleaved
/// frames of N bands), the stages of the low and high
/// byte planes (entropy, pivco, sparse, zstd, fieldlz, partition, store, lz4) and optional classes.
fn parse_coded(s: &str) -> Option<Graph> {
    let mut parts = s.split('/');
    let p = match parts.next()? {
        "left" => Predictor::Left,
        "up" => Predictor::Up,
        "gradient" => Predictor::Gradient,
        b => Predictor::Bands(b.strip_prefix("bands")?.parse().ok()?),
    };
    let stage = |n: &str| {
        Some(match n {
            "entropy" => Stage::Entropy,
            "pivco" => Stage::Pivco,
            "sparse" => Stage::Sparse,
            "zstd" => Stage::Zstd,
            "fieldlz" => Stage::FieldLz,
            "partition" => Stage::Partition,
            "store" => Stage::Store,
            "lz4" => Stage::Lz4,
            _ => return None,
        })
    };
    let (low, high) = parts.next()?.split_once('-')?;
    let mut c = Coding { low: stage(low)?, high: stage(high)?, classes: 0, segment: 0 };
    if let Some(cl) = parts.next() {
        let (k, seg) = cl.strip_prefix('c')?.split_once('-')?;
        c.classes = k.parse().ok()?;
        c.segment = seg.parse().ok()?;
    }
    Some(Graph::Coded(p, c))
}
use rumi::Limits;
use rumi::Reader;

fn main() {
    let mut reps = 5usize;
    let mut only: Option<Vec<String>> = None;
    let mut max_frames = usize::MAX;
    let mut once = false;
    let mut screen = false;
    let mut pick = false;
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--reps" => reps = args.next().and_then(|s| s.parse().ok()).unwrap_or(5).max(1),
            "--frames" => max_frames = args.next().and_then(|s| s.parse().ok()).unwrap_or(usize::MAX).max(1),
            "--once" => once = true,
            "--screen" => screen = true,
            "--pick" => pick = true,
            "--graphs" => only = args.next().map(|s| s.split(',').map(str::to_string).collect()),
            _ => files.push(a),
        }
    }
    let mut graphs = vec![
        ("file", Graph::default()),
        ("numeric 7", Graph::Numeric(7)),
        ("numeric 3", Graph::Numeric(3)),
        ("gradient", Graph::Predict(Predictor::Gradient)),
        ("left", Graph::Predict(Predictor::Left)),
        ("left+lz", Graph::Predict(Predictor::LeftLz)),
        ("generic 7", Graph::Generic(7)),
        ("gradient fast", Graph::Coded(Predictor::Gradient, Coding::FAST)),
        ("left fast", Graph::Coded(Predictor::Left, Coding::FAST)),
        ("fast", Graph::Fast),
        ("fast pivco", Graph::Coded(Predictor::Left, Coding::PLANES_PIVCO)),
    ];
    // any predictor/coding given as PRED/LOW-HIGH[/cK-SEG] (e.g. gradient/pivco-entropy/c4-32)
    for name in only.iter().flatten() {
        if let Some(g) = parse_coded(name) {
            graphs.push((Box::leak(name.clone().into_boxed_str()), g));
        }
        // fast@W: `fast` with W bytes per modelled ns of decode (codec::encode_fast_weighted)
        if name.strip_prefix("fast@").is_some_and(|w| w.parse::<f64>().is_ok()) {
            graphs.push((Box::leak(name.clone().into_boxed_str()), Graph::Fast));
        }
    }
    match &only {
        Some(o) => graphs.retain(|(n, _)| o.iter().any(|x| x == n)),
        None => graphs.retain(|(n, _)| *n != "file"),
    }

    for f in &files {
        let reader = Reader::open(std::fs::File::open(f).expect("open"), Limits::default()).expect("rumi file");
        let l = *reader.layout();
        let width = l.encoding.element_width();
        // with --frames N, every k-th frame so that at most N remain (spread over the raster)
        let step = (reader.frame_count() as usize).div_ceil(max_frames).max(1);
        let mut stored = Vec::new();
        let frames: Vec<(AlignedBuf, usize)> = (0..reader.frame_count())
            .step_by(step)
            .map(|i| {
                let row = l.frame_geometry(i).strides.y * l.encoding.decoded_bytes() / width;
                let mut frame = AlignedBuf::default();
                let bytes = reader.read_frame_bytes(i).expect("frame bytes");
                reader.decode_frame_into(i, &bytes, &mut frame).expect("frame");
                stored.push(bytes);
                (frame, row)
            })
            .collect();
        let raw: usize = frames.iter().map(|(b, _)| b.as_bytes().len()).sum();
        if screen {
            // the writer's `auto` (level 7) frame by frame, one thread: whole frames compared
            // (encode_best), a sample of every 4th chunk (the probe off), and the writer's way
            let cands = Graph::image_candidates(7);
            let cost = Graph::Auto(7).slower_costs();
            type Enc = fn(&[u8], usize, usize, &[Graph], f64) -> rumi::Result<(Vec<u8>, usize)>;
            let ways: [(&str, Enc); 3] = [
                ("whole frames", |s, w, r, c, k| codec::encode_best(s, w, r, c, k)),
                ("sample, no probe", |s, w, r, c, k| codec::encode_screened(s, w, r, c, k, 4, false)),
                ("sample + probe (writer)", |s, w, r, c, k| codec::encode_screened(s, w, r, c, k, 4, true)),
            ];
            for (name, enc) in ways {
                let mut best = f64::MAX;
                let (mut size, mut picks) = (0usize, vec![0usize; cands.len()]);
                for rep in 0..reps {
                    let t0 = Instant::now();
                    let out: Vec<(Vec<u8>, usize)> = frames
                        .iter()
                        .map(|(b, row)| enc(b.as_bytes(), width, *row, &cands, cost).expect("encode"))
                        .collect();
                    best = best.min(t0.elapsed().as_secs_f64());
                    if rep == 0 {
                        size = out.iter().map(|o| o.0.len()).sum();
                        out.iter().for_each(|o| picks[o.1] += 1);
                    }
                }
                println!(
                    "{f}\t{name}\tbytes {size}\tratio {:.4}\tencode {:.1} MB/s\tpicks {picks:?}",
                    raw as f64 / size as f64,
                    raw as f64 / best / 1e6
                );
            }
            continue;
        }
        // per graph: encoded frames and the best per-frame decode seconds
        let mut per: Vec<(Vec<Vec<u8>>, Vec<f64>)> = Vec::new();
        for &(name, g) in &graphs {
            // "file": the file's own frames as they are
            let t_enc = Instant::now();
            let enc: Vec<Vec<u8>> = if name == "file" {
                stored.clone()
            } else if let Some(w) = name.strip_prefix("fast@").and_then(|w| w.parse::<f64>().ok()) {
                frames
                    .iter()
                    .map(|(b, row)| codec::encode_fast_weighted(b.as_bytes(), width, *row, w).expect("encode"))
                    .collect()
            } else {
                frames
                    .iter()
                    .map(|(b, row)| codec::encode_rows(b.as_bytes(), width, *row, g).expect("encode"))
                    .collect()
            };
            let enc_mbs = raw as f64 / t_enc.elapsed().as_secs_f64() / 1e6;
            let mut outs: Vec<AlignedBuf> =
                frames.iter().map(|(b, _)| AlignedBuf::zeroed(b.as_bytes().len())).collect();
            if once {
                // one decode of every frame, in a function of its own: under
                // `valgrind --tool=callgrind --toggle-collect='*decode_pass*'` its instructions
                decode_pass(&enc, &mut outs);
                assert!(outs.iter().zip(&frames).all(|(o, (b, _))| o.as_bytes() == b.as_bytes()), "{name}: differ");
                let size: usize = enc.iter().map(Vec::len).sum();
                println!("{f}\t{name}\tratio {:.4}\tsamples {}", raw as f64 / size as f64, raw / width);
                continue;
            }
            let mut secs = vec![f64::MAX; enc.len()];
            for _ in 0..reps + 1 {
                for (i, (e, out)) in enc.iter().zip(outs.iter_mut()).enumerate() {
                    let t0 = Instant::now();
                    codec::decode_into(e, out, i as u64).expect("decode");
                    secs[i] = secs[i].min(t0.elapsed().as_secs_f64());
                }
            }
            assert!(
                outs.iter().zip(&frames).all(|(o, (b, _))| o.as_bytes() == b.as_bytes()),
                "{name}: decoded bytes differ"
            );
            let size: usize = enc.iter().map(Vec::len).sum();
            let t: f64 = secs.iter().sum();
            println!(
                "{f}\t{name}\tratio {:.3}\tdecode {:.0} MB/s\tencode {enc_mbs:.0} MB/s",
                raw as f64 / size as f64,
                raw as f64 / t / 1e6
            );
            per.push((enc, secs));
        }
        // the writer's choice (`codec::choose`) among the image candidates (gradient fast, left
        // fast, left+lz, numeric 7) with several per-class costs: 0 is `--graph image`, 0.02 the
        // default
        if pick {
            // per frame, the graph of least `bytes + lambda * decode ns`, the decode ns modelled
            // as the frame's raw bytes / the graph's speed over all frames ("model"), or the
            // frame's own measured decode ("measured"); lambda in bytes per ns of decode
            let speed: Vec<f64> = per.iter().map(|(_, s)| raw as f64 / s.iter().sum::<f64>() / 1e9).collect();
            for lambda in [0.0, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 1.5, 2.0, 4.0] {
                for measured in [false, true] {
                    let (mut size, mut t, mut picks) = (0usize, 0f64, vec![0usize; per.len()]);
                    for (i, (b, _)) in frames.iter().enumerate() {
                        let n = b.as_bytes().len() as f64;
                        let cost = |g: usize| {
                            let ns = if measured { per[g].1[i] * 1e9 } else { n / speed[g] };
                            per[g].0[i].len() as f64 + lambda * ns
                        };
                        let g = (0..per.len()).min_by(|&a, &b| cost(a).total_cmp(&cost(b))).expect("graphs");
                        size += per[g].0[i].len();
                        t += per[g].1[i];
                        picks[g] += 1;
                    }
                    println!(
                        "{f}\tpick, {} lambda {lambda}\tratio {:.3}\tdecode {:.0} MB/s\tpicks {picks:?}",
                        if measured { "measured" } else { "model" },
                        raw as f64 / size as f64,
                        raw as f64 / t / 1e6
                    );
                }
            }
        }
        if only.is_some() || once {
            continue;
        }
        let cands = [6usize, 7, 4, 0];
        for cost in [0.0, 0.01, 0.02, 0.04] {
            let (mut size, mut t) = (0usize, 0f64);
            for i in 0..frames.len() {
                let sizes: Vec<(Graph, usize)> = cands.iter().map(|&c| (graphs[c].1, per[c].0[i].len())).collect();
                let pick = cands[codec::choose(&sizes, cost, width).expect("candidates")];
                size += per[pick].0[i].len();
                t += per[pick].1[i];
            }
            println!(
                "{f}\tchoose, {:.0} % per decode class\tratio {:.3}\tdecode {:.0} MB/s",
                cost * 100.0,
                raw as f64 / size as f64,
                raw as f64 / t / 1e6
            );
        }
    }
}

#[inline(never)]
fn decode_pass(enc: &[Vec<u8>], outs: &mut [AlignedBuf]) {
    for (i, (e, out)) in enc.iter().zip(outs.iter_mut()).enumerate() {
        codec::decode_into(e, out, i as u64).expect("decode");
    }
}
