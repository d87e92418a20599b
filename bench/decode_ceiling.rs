//! The raw OpenZL decode ceiling of rumi files: every frame's bytes are read into memory first,
//! then all frames are decoded (no GDAL, no plane extraction, no copy into an output; each
//! thread decodes into one reused buffer), on one thread and on a rayon pool. The driver's overhead is measured against this number
//! (`bench/run.py`: overhead = 1 - driver MB/s / ceiling MB/s).
//!
//! Run: `cargo run --release --example decode_ceiling -- [--threads 1,2] [--reps R]
//! [--min-time S] FILE.rumi...`. Prints one JSON object per file and thread count:
//! `{"file":..., "threads":N, "raw_bytes":..., "frames":..., "runs_s":[...]}`: seconds per
//! decode of all frames, one value per repetition (each repetition decodes all frames as many
//! times as it takes to last `--min-time` seconds, default 0.2, and reports the mean pass).
//! MB/s = raw_bytes / 1e6 / seconds.

use std::cell::RefCell;
use std::path::PathBuf;
use std::time::Instant;

use rayon::prelude::*;
use rumi::codec::AlignedBuf;
use rumi::reader::Reader;
use rumi::Limits;

thread_local! {
    static SCRATCH: RefCell<AlignedBuf> = RefCell::new(AlignedBuf::default());
}

fn main() {
    let mut threads = vec![1usize];
    let mut reps = 5usize;
    let mut min_time = 0.2f64;
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--threads" => {
                threads = args
                    .next()
                    .unwrap_or_default()
                    .split(',')
                    .filter_map(|s| s.parse().ok())
                    .filter(|&n: &usize| n > 0)
                    .collect();
            }
            "--reps" => reps = args.next().and_then(|s| s.parse().ok()).unwrap_or(5).max(1),
            "--min-time" => min_time = args.next().and_then(|s| s.parse().ok()).unwrap_or(0.2),
            _ => files.push(PathBuf::from(a)),
        }
    }
    if files.is_empty() || threads.is_empty() {
        eprintln!("usage: decode_ceiling [--threads 1,2] [--reps R] FILE.rumi...");
        std::process::exit(2);
    }
    for f in &files {
        let file = match std::fs::File::open(f) {
            Ok(x) => x,
            Err(e) => {
                eprintln!("{}: {e}", f.display());
                std::process::exit(1);
            }
        };
        let reader = match Reader::open(file, Limits::default()) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("{}: {e}", f.display());
                std::process::exit(1);
            }
        };
        let n = reader.frame_count();
        let frames: Vec<(u64, Vec<u8>)> =
            (0..n).map(|i| (i, reader.read_frame_bytes(i).expect("frame bytes"))).collect();
        let raw: u64 = (0..n).map(|i| reader.layout().decoded_frame_bytes(i)).sum();
        for &t in &threads {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(t).build().expect("thread pool");
            let mut runs = Vec::with_capacity(reps);
            // one warm-up pass: creates the per-thread OpenZL contexts
            // Each thread decodes into its own reused buffer, as the driver does.
            let decode = |i: u64, b: &[u8]| {
                SCRATCH.with(|cell| {
                    let mut out = cell.borrow_mut();
                    reader.decode_frame_into(i, b, &mut out).expect("decode");
                    std::hint::black_box(out.as_bytes().len());
                })
            };
            let pass = || {
                if t == 1 {
                    for (i, b) in &frames {
                        decode(*i, b);
                    }
                } else {
                    pool.install(|| frames.par_iter().for_each(|(i, b)| decode(*i, b)));
                }
            };
            // Warm-up for as long as a repetition: creates the per-thread OpenZL contexts and lets
            // the allocator settle (the first ~0.3 s of decoding run up to 2x slower: OpenZL's
            // working buffers are mapped and unmapped until glibc raises its mmap threshold).
            let t0 = Instant::now();
            while t0.elapsed().as_secs_f64() < min_time.max(0.3) {
                pass();
            }
            for _ in 0..reps {
                let t0 = Instant::now();
                let mut n = 0u32;
                while n == 0 || t0.elapsed().as_secs_f64() < min_time {
                    pass();
                    n += 1;
                }
                runs.push(t0.elapsed().as_secs_f64() / f64::from(n));
            }
            let runs: Vec<String> = runs.iter().map(|r| format!("{r:.6}")).collect();
            println!(
                "{{\"file\":{:?},\"threads\":{t},\"raw_bytes\":{raw},\"frames\":{n},\"runs_s\":[{}]}}",
                f.display().to_string(),
                runs.join(",")
            );
        }
    }
}
