//! Per-stream accounting of the image graphs: where every byte of a frame goes and what each
//! stream costs to decode. For every frame of rumi files (or every k-th, `--frames N`), the
//! residuals of the left, up and gradient predictors (computed here with the graphs' wrapping
//! arithmetic, zigzagged) are split into the streams the graphs code (byte planes), and each
//! stream is measured against its order-0 entropy:
//!
//! - `H0`: the stream's order-0 entropy in bytes, summed per frame (a table-free bound);
//! - each entropy graph's bytes for the stream coded alone (`codec::encode_entropy`: auto =
//!   OpenZL's `entropy` choice, FSE, huf0 Huffman, PivCo Huffman), less the fixed cost of a
//!   one-stream frame (a stored frame's size minus the stream's length), so the figure is the
//!   stream with its own header and tables;
//! - the decode time of those one-stream frames, ns per sample (best of `--reps`);
//! - for 16-bit samples, two bounds for coding the residual whole: its 16-bit order-0 entropy,
//!   and OpenZL's `partition` split (values below 240 one bucket each, then power-of-two
//!   buckets with raw extra bits: the bucket entropy plus the extra bits);
//! - the real frames of each graph (`Graph::Coded`), so that `frame - sum of streams` is the
//!   graph's own overhead (frame header, transform headers, checksums).
//!
//! Run: `cargo run --release --example stream_probe -- [--frames N] [--reps R] FILE.rumi...`

use std::time::Instant;

use rumi::codec::{self, AlignedBuf, Coding, Entropy, Graph, Predictor};
use rumi::Limits;
use rumi::Reader;

const BACKENDS: [(&str, Entropy); 4] =
    [("auto", Entropy::Auto), ("fse", Entropy::Fse), ("huf0", Entropy::Huffman), ("pivco", Entropy::Pivco)];

/// Order-0 entropy of `syms` in bytes.
fn h0_bytes<I: Iterator<Item = usize>>(syms: I, alphabet: usize) -> f64 {
    let mut count = vec![0u64; alphabet];
    let mut n = 0u64;
    for s in syms {
        count[s] += 1;
        n += 1;
    }
    let n_f = n as f64;
    count.iter().filter(|&&c| c > 0).map(|&c| -(c as f64) * (c as f64 / n_f).log2()).sum::<f64>() / 8.0
}

/// Residuals of `x` (rows of `row` elements of `w` bytes, little-endian), zigzagged, as u64.
fn residuals(x: &[u8], w: usize, row: usize, p: &str) -> Vec<u64> {
    let n = x.len() / w;
    let bits = 8 * w as u32;
    let mask = if w == 8 { u64::MAX } else { (1u64 << bits) - 1 };
    let v = |i: usize| -> u64 {
        let mut b = [0u8; 8];
        b[..w].copy_from_slice(&x[i * w..i * w + w]);
        u64::from_le_bytes(b)
    };
    (0..n)
        .map(|i| {
            let (r, c) = (i / row, i % row);
            let pred = match p {
                "left" => {
                    if i == 0 {
                        0
                    } else {
                        v(i - 1)
                    }
                }
                "up" => {
                    if r == 0 {
                        if i == 0 {
                            0
                        } else {
                            v(i - 1)
                        }
                    } else {
                        v(i - row)
                    }
                }
                _ => {
                    if r == 0 {
                        if i == 0 {
                            0
                        } else {
                            v(i - 1)
                        }
                    } else if c == 0 {
                        v(i - row)
                    } else {
                        v(i - 1).wrapping_add(v(i - row)).wrapping_sub(v(i - row - 1))
                    }
                }
            };
            let d = v(i).wrapping_sub(pred) & mask;
            // zigzag in `bits`: the sign to the low bit
            let neg = (d >> (bits - 1)) & 1 == 1;
            ((d << 1) & mask) ^ if neg { mask } else { 0 }
        })
        .collect()
}

/// Bucket and extra bits of `z` in the partition of Coding::Partition (240 singletons, then
/// buckets of 16 << k).
fn partition(z: u64) -> (usize, u32) {
    if z < 240 {
        return (z as usize, 0);
    }
    let mut start = 240u64;
    for k in 0..12 {
        let size = 16u64 << k;
        if z < start + size {
            return (240 + k, 4 + k as u32);
        }
        start += size;
    }
    (252, 16)
}

/// Forward-adaptive classes: `z` cut into segments of `seg` samples, each tagged with one of
/// `k` classes by its mean (class bounds: the frame's quantiles of segment means); returns the
/// order-0 entropy in bytes of every byte plane within each class, and of the tags.
fn classes(z: &[u64], w: usize, seg: usize, k: usize) -> (f64, f64) {
    let means: Vec<f64> = z.chunks(seg).map(|c| c.iter().map(|&v| v as f64).sum::<f64>() / c.len() as f64).collect();
    let mut sorted = means.clone();
    sorted.sort_by(|a, b| a.total_cmp(b));
    let bounds: Vec<f64> = (1..k).map(|i| sorted[i * sorted.len() / k]).collect();
    let tags: Vec<usize> = means.iter().map(|m| bounds.iter().filter(|&&b| *m >= b).count()).collect();
    let tags_b = h0_bytes(tags.iter().copied(), k);
    let mut planes_b = 0.0;
    for class in 0..k {
        let members: Vec<u64> =
            z.chunks(seg).zip(&tags).filter(|(_, &t)| t == class).flat_map(|(c, _)| c.iter().copied()).collect();
        for b in 0..w {
            planes_b += h0_bytes(members.iter().map(|&v| ((v >> (8 * b)) & 255) as usize), 256);
        }
    }
    (planes_b, tags_b)
}

fn time_decode(frame: &[u8], len: usize, reps: usize) -> f64 {
    let mut out = AlignedBuf::zeroed(len);
    let mut best = f64::MAX;
    for _ in 0..reps {
        let t0 = Instant::now();
        codec::decode_into(frame, &mut out, 0).expect("decode");
        best = best.min(t0.elapsed().as_secs_f64());
    }
    best
}

#[derive(Default, Clone)]
struct Acc {
    n: usize,
    h0: f64,
    bytes: [usize; 4],
    secs: [f64; 4],
}

fn main() {
    let mut reps = 5usize;
    let mut max_frames = usize::MAX;
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--reps" => reps = args.next().and_then(|s| s.parse().ok()).unwrap_or(5).max(1),
            "--frames" => max_frames = args.next().and_then(|s| s.parse().ok()).unwrap_or(usize::MAX).max(1),
            _ => files.push(a),
        }
    }
    let overhead = {
        let one = codec::encode_entropy(&[7u8; 1000], Entropy::Store).expect("store");
        one.len() - 1000
    };
    println!("one-stream frame overhead (subtracted below): {overhead} bytes");
    for f in &files {
        let reader = Reader::open(std::fs::File::open(f).expect("open"), Limits::default()).expect("rumi file");
        let l = *reader.layout();
        let w = l.encoding.element_width();
        let step = (reader.frame_count() as usize).div_ceil(max_frames).max(1);
        let frames: Vec<(AlignedBuf, usize)> = (0..reader.frame_count())
            .step_by(step)
            .map(|i| {
                let row = l.frame_geometry(i).strides.y * l.encoding.decoded_bytes() / w;
                let mut frame = AlignedBuf::default();
                let bytes = reader.read_frame_bytes(i).expect("frame bytes");
                reader.decode_frame_into(i, &bytes, &mut frame).expect("frame");
                (frame, row)
            })
            .collect();
        let raw: usize = frames.iter().map(|(b, _)| b.as_bytes().len()).sum();
        let samples = raw / w;
        println!("\n## {f}: {} frames, {samples} samples of {w} bytes, raw {raw} bytes", frames.len());
        println!(
            "| predictor | stream | n | H0 bytes | auto | fse | huf0 | pivco | ns/sample auto / fse / huf0 / pivco |"
        );
        println!("|---|---|---|---|---|---|---|---|---|");
        for (pn, p) in [("left", Predictor::Left), ("up", Predictor::Up), ("gradient", Predictor::Gradient)] {
            let mut planes = vec![Acc::default(); w];
            let (mut h16, mut hpart, mut extra) = (0f64, 0f64, 0f64);
            // forward-adaptive classes: (segment length, classes) -> bytes of planes + tags
            let class_cfg = [(16usize, 2usize), (16, 4), (32, 4), (32, 8), (64, 4), (64, 8), (128, 8)];
            let mut class_bytes = vec![(0f64, 0f64); class_cfg.len()];
            for (x, row) in &frames {
                let z = residuals(x.as_bytes(), w, *row, pn);
                if w == 2 {
                    h16 += h0_bytes(z.iter().map(|&v| v as usize), 1 << 16);
                    hpart += h0_bytes(z.iter().map(|&v| partition(v).0), 256);
                    extra += z.iter().map(|&v| f64::from(partition(v).1)).sum::<f64>() / 8.0;
                }
                for (ci, &(seg, k)) in class_cfg.iter().enumerate() {
                    let (planes_b, tags_b) = classes(&z, w, seg, k);
                    class_bytes[ci].0 += planes_b;
                    class_bytes[ci].1 += tags_b;
                }
                for (k, acc) in planes.iter_mut().enumerate() {
                    let plane: Vec<u8> = z.iter().map(|&v| (v >> (8 * k)) as u8).collect();
                    acc.n += plane.len();
                    acc.h0 += h0_bytes(plane.iter().map(|&b| b as usize), 256);
                    for (j, &(_, e)) in BACKENDS.iter().enumerate() {
                        let fr = codec::encode_entropy(&plane, e).expect("encode");
                        acc.bytes[j] += fr.len().saturating_sub(overhead);
                        acc.secs[j] += time_decode(&fr, plane.len(), reps);
                    }
                }
            }
            let mut total = Acc::default();
            for (k, a) in planes.iter().enumerate() {
                total.n += a.n;
                total.h0 += a.h0;
                for j in 0..4 {
                    total.bytes[j] += a.bytes[j];
                    total.secs[j] += a.secs[j];
                }
                let ns: Vec<String> = a.secs.iter().map(|s| format!("{:.2}", s * 1e9 / a.n as f64)).collect();
                println!(
                    "| {pn} | plane {k} | {} | {:.0} | {} | {} | {} | {} | {} |",
                    a.n,
                    a.h0,
                    a.bytes[0],
                    a.bytes[1],
                    a.bytes[2],
                    a.bytes[3],
                    ns.join(" / ")
                );
            }
            let ns: Vec<String> = total.secs.iter().map(|s| format!("{:.2}", s * 1e9 / samples as f64)).collect();
            println!(
                "| {pn} | all planes | {samples} | {:.0} | {} | {} | {} | {} | {} |",
                total.h0,
                total.bytes[0],
                total.bytes[1],
                total.bytes[2],
                total.bytes[3],
                ns.join(" / ")
            );
            if w == 2 {
                println!("| {pn} | 16-bit residual, order-0 bound | {samples} | {h16:.0} | | | | | |");
                println!(
                    "| {pn} | partition bound: buckets + extra bits | {samples} | {:.0} ({hpart:.0} + {extra:.0}) | | | | | |",
                    hpart + extra
                );
            }
            for (ci, &(seg, k)) in class_cfg.iter().enumerate() {
                let (pb, tb) = class_bytes[ci];
                println!(
                    "| {pn} | planes H0 with {k} classes of {seg}-sample segments (+ tags) | {samples} | {:.0} ({pb:.0} + {tb:.0}) | | | | | |",
                    pb + tb
                );
            }
            // the real frames of the graphs: frame bytes and decode ns per sample
            for (cn, c) in [
                ("planes (entropy)", Coding::PLANES),
                ("low plane pivco", Coding::LOW_PIVCO),
                ("planes pivco", Coding::PLANES_PIVCO),
                ("partition", Coding::PARTITION),
                ("fast: low plane pivco, high planes sparse", Coding::FAST),
            ] {
                let (mut size, mut secs) = (0usize, 0f64);
                for (x, row) in &frames {
                    let fr = codec::encode_rows(x.as_bytes(), w, *row, Graph::Coded(p, c)).expect("encode");
                    size += fr.len();
                    secs += time_decode(&fr, x.as_bytes().len(), reps);
                }
                println!(
                    "| {pn} | graph frames, {cn} | {samples} | | {size} bytes (ratio {:.3}) | | | | {:.2} |",
                    raw as f64 / size as f64,
                    secs * 1e9 / samples as f64
                );
            }
        }
    }
}
