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
//! MB/s = raw_bytes / 1e6 / seconds (with `--cpu`, one thread's: its CPU seconds, for loaded
//! machines). With `--passes N`: exactly N passes on each thread count,
//! no warm-up and no timing (for `valgrind --tool=callgrind`: N = 2 less N = 1 is one pass's
//! instructions; `bench/README.md`).
//!
//! With `--read`, the read path is measured instead, through `Reader::read` with no
//! decoded-frame cache (every read fetches and decodes): `"mode":"full"` reads the whole raster
//! as one `[t][b][y][x]` request on each thread count, `"mode":"windows"` reads 64 windows of
//! 256 x 256 (all bands, first time step, fixed pseudo-random places) one by one on one thread
//! (a data loader's pattern), `"mode":"tiles"` reads every whole interior tile (all bands, first
//! time step) as one `[b][y][x]` request of its own (a GDAL block or an aligned chip: each frame
//! lands contiguously in the buffer); `runs_s` is seconds per full read, per 64 windows or per
//! pass over the tiles. With `--read --passes N`: exactly N passes over the tiles inside
//! `tiles_pass`, untimed (`valgrind --tool=callgrind --toggle-collect='*tiles_pass*'`).

use std::cell::RefCell;
use std::path::PathBuf;
use std::time::Instant;

use rayon::prelude::*;
use rumi::codec::AlignedBuf;
use rumi::Limits;
use rumi::Reader;
use rumi::Request;

thread_local! {
    static SCRATCH: RefCell<AlignedBuf> = RefCell::new(AlignedBuf::default());
}

fn main() {
    let mut threads = vec![1usize];
    let mut reps = 5usize;
    let mut min_time = 0.2f64;
    let mut files = Vec::new();
    let mut read = false;
    let mut cpu = false;
    let start = Instant::now();
    let mut passes: Option<u32> = None;
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
            "--read" => read = true,
            "--cpu" => cpu = true,
            "--passes" => passes = args.next().and_then(|s| s.parse().ok()),
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
        if read {
            read_path(&reader, &f.display().to_string(), &threads, reps, min_time, passes);
            continue;
        }
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
            if let Some(p) = passes {
                // exactly `p` passes, no warm-up and no clock: for instruction counts
                // (`valgrind --tool=callgrind`: the count of 2 passes less that of 1 is one pass)
                (0..p).for_each(|_| pass());
                println!(
                    "{{\"file\":{:?},\"threads\":{t},\"raw_bytes\":{raw},\"frames\":{n},\"passes\":{p}}}",
                    f.display().to_string()
                );
                continue;
            }
            let t0 = Instant::now();
            while t0.elapsed().as_secs_f64() < min_time.max(0.3) {
                pass();
            }
            // with --cpu on one thread: the thread's CPU time, which a loaded machine's
            // preemption does not inflate (wall time otherwise)
            let clock = || if cpu && t == 1 { thread_cpu_s() } else { start.elapsed().as_secs_f64() };
            for _ in 0..reps {
                let t0 = clock();
                let mut n = 0u32;
                while n == 0 || clock() - t0 < min_time {
                    pass();
                    n += 1;
                }
                runs.push((clock() - t0) / f64::from(n));
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

/// The calling thread's CPU time in seconds.
fn thread_cpu_s() -> f64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes one timespec into `ts`, which lives across the call.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

/// Mean seconds of `pass` per repetition (each repetition lasting at least `min_time`), after a
/// warm-up as long as a repetition.
fn timed(reps: usize, min_time: f64, mut pass: impl FnMut()) -> Vec<String> {
    let t0 = Instant::now();
    while t0.elapsed().as_secs_f64() < min_time.max(0.3) {
        pass();
    }
    (0..reps)
        .map(|_| {
            let t0 = Instant::now();
            let mut n = 0u32;
            while n == 0 || t0.elapsed().as_secs_f64() < min_time {
                pass();
                n += 1;
            }
            format!("{:.6}", t0.elapsed().as_secs_f64() / f64::from(n))
        })
        .collect()
}

/// The read path's figures for one file (see the module notes).
fn read_path(
    r: &Reader<std::fs::File>,
    name: &str,
    threads: &[usize],
    reps: usize,
    min_time: f64,
    passes: Option<u32>,
) {
    let l = *r.layout();
    let bps = l.encoding.decoded_bytes();
    let (times, bands): (Vec<u32>, Vec<u32>) = ((0..l.times).collect(), (0..u32::from(l.bands)).collect());
    r.set_cache_bytes(0);
    let (th, tw) = (u32::from(l.tile_length), u32::from(l.tile_width));
    let tiles: Vec<Request> = (0..l.length / th)
        .flat_map(|k| (0..l.width / tw).map(move |j| (k, j)))
        .map(|(k, j)| Request::dense(&[0], &bands, k * th..(k + 1) * th, j * tw..(j + 1) * tw, bps))
        .collect();
    let mut tile = AlignedBuf::zeroed(tiles.first().map_or(0, |t| t.samples() as usize * bps));
    if let Some(p) = passes {
        tiles_pass(r, &tiles, tile.as_bytes_mut(), p);
        println!("{{\"file\":{name:?},\"mode\":\"tiles\",\"tiles\":{},\"passes\":{p}}}", tiles.len());
        return;
    }
    if !tiles.is_empty() {
        let raw = tiles.len() as u64 * tile.as_bytes().len() as u64;
        let runs = timed(reps, min_time, || tiles_pass(r, &tiles, tile.as_bytes_mut(), 1));
        println!(
            "{{\"file\":{name:?},\"mode\":\"tiles\",\"threads\":1,\"raw_bytes\":{raw},\"runs_s\":[{}]}}",
            runs.join(",")
        );
    }
    let req = Request::dense(&times, &bands, 0..l.length, 0..l.width, bps);
    let raw = req.samples() * bps as u64;
    let mut out = vec![0u8; raw as usize];
    for &t in threads {
        let runs = timed(reps, min_time, || {
            r.read(&req, &mut out, 0, t).expect("read");
        });
        println!(
            "{{\"file\":{name:?},\"mode\":\"full\",\"threads\":{t},\"raw_bytes\":{raw},\"runs_s\":[{}]}}",
            runs.join(",")
        );
    }
    let (h, w) = (l.length.min(256), l.width.min(256));
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = |n: u32| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % u64::from(n)) as u32
    };
    let wins: Vec<Request> = (0..64)
        .map(|_| {
            let (y, x) = (next(l.length - h + 1), next(l.width - w + 1));
            Request::dense(&[0], &bands, y..y + h, x..x + w, bps)
        })
        .collect();
    let raw = 64 * wins[0].samples() * bps as u64;
    let mut out = vec![0u8; (raw / 64) as usize];
    let runs = timed(reps, min_time, || {
        for req in &wins {
            r.read(req, &mut out, 0, 1).expect("read");
        }
    });
    println!(
        "{{\"file\":{name:?},\"mode\":\"windows\",\"threads\":1,\"raw_bytes\":{raw},\"runs_s\":[{}]}}",
        runs.join(",")
    );
}

/// `passes` reads of every request of `tiles` into `out`, one by one on this thread.
#[inline(never)]
fn tiles_pass(r: &Reader<std::fs::File>, tiles: &[Request], out: &mut [u8], passes: u32) {
    for _ in 0..passes {
        for req in tiles {
            r.read(req, out, 0, 1).expect("read");
        }
    }
}
