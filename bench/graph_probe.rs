//! Re-encodes every frame of rumi files with each writer graph and reports, per graph, the
//! ratio (raw / frame bytes, no file overhead) and the single-thread OpenZL decode MB/s of the
//! re-encoded frames (best of `--reps` passes), then the writer's per-frame choice
//! (`codec::choose`) at several costs per decode class. Answers "which graph decodes fastest at
//! what size" on real data without rewriting files.
//!
//! Run: `cargo run --release --example graph_probe -- [--reps R] FILE.rumi...`

use std::time::Instant;

use rumi::codec::{self, AlignedBuf, Graph, Predictor};
use rumi::Limits;
use rumi::Reader;

fn main() {
    let mut reps = 5usize;
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--reps" => reps = args.next().and_then(|s| s.parse().ok()).unwrap_or(5).max(1),
            _ => files.push(a),
        }
    }
    let graphs = [
        ("numeric 7", Graph::Numeric(7)),
        ("numeric 3", Graph::Numeric(3)),
        ("gradient", Graph::Predict(Predictor::Gradient)),
        ("left", Graph::Predict(Predictor::Left)),
        ("left+lz", Graph::Predict(Predictor::LeftLz)),
        ("generic 7", Graph::Generic(7)),
    ];
    for f in &files {
        let reader = Reader::open(std::fs::File::open(f).expect("open"), Limits::default()).expect("rumi file");
        let l = *reader.layout();
        let width = l.encoding.element_width();
        let frames: Vec<(AlignedBuf, usize)> = (0..reader.frame_count())
            .map(|i| {
                let row = l.frame_geometry(i).strides.y * l.encoding.decoded_bytes() / width;
                let mut frame = AlignedBuf::default();
                let bytes = reader.read_frame_bytes(i).expect("frame bytes");
                reader.decode_frame_into(i, &bytes, &mut frame).expect("frame");
                (frame, row)
            })
            .collect();
        let raw: usize = frames.iter().map(|(b, _)| b.as_bytes().len()).sum();
        // per graph: encoded frames and the best per-frame decode seconds
        let mut per: Vec<(Vec<Vec<u8>>, Vec<f64>)> = Vec::new();
        for (name, g) in graphs {
            let enc: Vec<Vec<u8>> = frames
                .iter()
                .map(|(b, row)| codec::encode_rows(b.as_bytes(), width, *row, g).expect("encode"))
                .collect();
            let mut outs: Vec<AlignedBuf> =
                frames.iter().map(|(b, _)| AlignedBuf::zeroed(b.as_bytes().len())).collect();
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
            println!("{f}\t{name}\tratio {:.3}\tdecode {:.0} MB/s", raw as f64 / size as f64, raw as f64 / t / 1e6);
            per.push((enc, secs));
        }
        // the writer's choice (`codec::choose`) among the image candidates (gradient, left,
        // left+lz, numeric 7) with several per-class costs: 0 is `--graph image`, 0.02 the default
        let cands = [2usize, 3, 4, 0];
        for cost in [0.0, 0.01, 0.02, 0.04] {
            let (mut size, mut t) = (0usize, 0f64);
            for i in 0..frames.len() {
                let sizes: Vec<(Graph, usize)> = cands.iter().map(|&c| (graphs[c].1, per[c].0[i].len())).collect();
                let pick = cands[codec::choose(&sizes, cost).expect("candidates")];
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
