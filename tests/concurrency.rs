//! Concurrency: several threads reading one file, each with its own `Reader` (and several
//! threads sharing one `Reader`, and one C ABI dataset), get exactly the samples of a serial
//! read, for a bounded time.

#[path = "../crates/rumi/tests/common/mod.rs"]
mod common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use common::*;
#[path = "support/vec_io.rs"]
mod vec_io;
use rumi::format::SampleEncoding;
use rumi::Limits;
use rumi::{Reader, Window};
use vec_io::vec_io;

const THREADS: usize = 4;
const BUDGET: Duration = Duration::from_millis(1500);

/// A Cube (uint16, 3 bands, 2 times, cell frames) on disk, and its samples read serially.
fn fixture(unit: u16) -> (tempfile::TempPath, Vec<u8>, (u32, u32, u32, u32)) {
    let (x, y, b, t) = (150u32, 97u32, 3u16, 2u32);
    let n = (x * y) as usize * usize::from(b) * t as usize;
    let (file, _) =
        write(spec(SampleEncoding::U16, x, y, b, t, (32, 16), unit, utm()), &samples(SampleEncoding::U16, n, 5));
    let mut tmp = tempfile::NamedTempFile::new().unwrap();
    std::io::Write::write_all(&mut tmp, &file).unwrap();
    let path = tmp.into_temp_path();
    let r = Reader::open(std::fs::File::open(&path).unwrap(), Limits::default()).unwrap();
    let win = Window { times: 0..t, bands: (0..u32::from(b)).collect(), rows: 0..y, cols: 0..x };
    let mut all = vec![0u8; r.window_bytes(&win).unwrap() as usize];
    r.read_window(&win, &mut all).unwrap();
    (path, all, (x, y, u32::from(b), t))
}

/// The window `(t, b, rows, cols)` cut out of the serial read.
fn expected(all: &[u8], dims: (u32, u32, u32, u32), win: &Window) -> Vec<u8> {
    let (x, y, b, _) = (dims.0 as usize, dims.1 as usize, dims.2 as usize, dims.3);
    let mut out = Vec::new();
    for t in win.times.clone() {
        for &band in &win.bands {
            for row in win.rows.clone() {
                let start = ((t as usize * b + band as usize) * y + row as usize) * x + win.cols.start as usize;
                out.extend_from_slice(&all[start * 2..(start + win.cols.len()) * 2]);
            }
        }
    }
    out
}

/// Deterministic pseudo-random windows, different per thread.
fn windows(seed: u64, dims: (u32, u32, u32, u32)) -> impl Iterator<Item = Window> {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move |m: u32| {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s % u64::from(m)) as u32
    };
    std::iter::repeat_with(move || {
        let (x, y, b, t) = dims;
        let (r0, c0) = (next(y), next(x));
        let (r1, c1) = (r0 + 1 + next(y - r0), c0 + 1 + next(x - c0));
        let t0 = next(t);
        let bands = (0..1 + next(b)).map(|_| next(b)).collect();
        Window { times: t0..t0 + 1 + next(t - t0), bands, rows: r0..r1.min(y), cols: c0..c1.min(x) }
    })
}

fn hammer<F: Fn(&Window) -> Vec<u8> + Sync>(all: &[u8], dims: (u32, u32, u32, u32), read: F) -> usize {
    let start = Instant::now();
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..THREADS)
            .map(|i| {
                let read = &read;
                s.spawn(move || {
                    let mut reads = 0;
                    for win in windows(i as u64 + 1, dims) {
                        assert_eq!(read(&win), expected(all, dims, &win), "thread {i}, window {win:?}");
                        reads += 1;
                        if start.elapsed() > BUDGET {
                            break;
                        }
                    }
                    reads
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).sum()
    })
}

#[test]
fn one_reader_per_thread_matches_a_serial_read() {
    for unit in [0, 4] {
        let (path, all, dims) = fixture(unit);
        let reads = hammer(&all, dims, |win| {
            // a new reader (and file handle) per read, as GDAL opens one dataset per thread
            let r = Reader::open(std::fs::File::open(&path).unwrap(), Limits::default()).unwrap();
            let mut out = vec![0u8; r.window_bytes(win).unwrap() as usize];
            r.read_window(win, &mut out).unwrap();
            out
        });
        assert!(reads >= THREADS, "unit {unit}: {reads} reads");
    }
}

#[test]
fn one_shared_reader_matches_a_serial_read() {
    let (path, all, dims) = fixture(4);
    let r = Arc::new(Reader::open(std::fs::File::open(&path).unwrap(), Limits::default()).unwrap());
    let reads = hammer(&all, dims, |win| {
        let mut out = vec![0u8; r.window_bytes(win).unwrap() as usize];
        r.read_window(win, &mut out).unwrap();
        out
    });
    assert!(reads >= THREADS);
}

#[test]
fn one_capi_dataset_shared_by_threads_matches_a_serial_read() {
    use gdal_rumi::capi::*;
    let (path, all, dims) = fixture(0);
    let bytes = std::fs::read(&path).unwrap();

    let io = vec_io(&bytes);
    let mut ds: *mut rumi_dataset = std::ptr::null_mut();
    // SAFETY: valid io, NULL blob and limits, writable out.
    assert_eq!(unsafe { rumi_open(&io, std::ptr::null(), 0, std::ptr::null(), &mut ds) }, RUMI_OK);
    struct Ds(*mut rumi_dataset);
    // SAFETY: the C ABI documents concurrent use of one dataset as safe.
    unsafe impl Sync for Ds {}
    let ds = Ds(ds);
    let reads = hammer(&all, dims, |win| {
        // the window as the C ABI reads it: planes time-major, rows and columns C order
        let ds = &ds;
        let planes: Vec<rumi_plane> = win
            .times
            .clone()
            .flat_map(|t| win.bands.iter().map(move |&b| (b, t)))
            .enumerate()
            .map(|(i, (band, time))| rumi_plane {
                band,
                time,
                offset: (i * win.rows.len() * win.cols.len() * 2) as i64,
            })
            .collect();
        let mut out = vec![0u8; planes.len() * win.rows.len() * win.cols.len() * 2];
        let req = rumi_request {
            planes: planes.as_ptr(),
            plane_count: planes.len(),
            rows: rumi_axis {
                start: win.rows.start,
                count: win.rows.len() as u32,
                step: 1,
                spacing: (win.cols.len() * 2) as i64,
            },
            cols: rumi_axis { start: win.cols.start, count: win.cols.len() as u32, step: 1, spacing: 2 },
            origin: out.as_mut_ptr().cast(),
            output: RUMI_OUTPUT_NATIVE,
        };
        // SAFETY: live dataset; the request addresses exactly the bytes of `out`.
        assert_eq!(unsafe { rumi_read(ds.0, &req, 1) }, RUMI_OK);
        out
    });
    assert!(reads >= THREADS);
    // SAFETY: no other thread uses it any more.
    unsafe { rumi_free(ds.0) };
}
