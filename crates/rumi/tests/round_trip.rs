//! write -> read -> identical samples, for every encoding and frame unit.

mod common;

use common::*;
use rumi::format::{FrameUnit, SampleEncoding};
use rumi::Limits;
use rumi::{Reader, Window};

fn full(b: u16, t: u32, y: u32, x: u32) -> Window {
    Window { times: 0..t, bands: (0..u32::from(b)).collect(), rows: 0..y, cols: 0..x }
}

/// Reads `win` out of a full `[t][b][y][x]` array.
fn expected(data: &[u8], bps: usize, dims: (u32, u16, u32, u32), win: &Window) -> Vec<u8> {
    let (_, nb, ny, nx) = (dims.0 as usize, dims.1 as usize, dims.2 as usize, dims.3 as usize);
    let mut out = Vec::new();
    for t in win.times.clone() {
        for &b in &win.bands {
            for y in win.rows.clone() {
                let start = (((t as usize * nb + b as usize) * ny + y as usize) * nx + win.cols.start as usize) * bps;
                out.extend_from_slice(&data[start..start + win.cols.len() * bps]);
            }
        }
    }
    out
}

#[test]
fn every_encoding_and_frame_unit() {
    for enc in SampleEncoding::ALL {
        for (b, t) in [(1u16, 1u32), (3, 1), (1, 3), (2, 3)] {
            for unit in FrameUnit::valid_for(u32::from(b), t) {
                let (x, y) = (37u32, 29u32);
                let n = (x * y) as usize * usize::from(b) * t as usize;
                let data = samples(enc, n, u64::from(unit.value()));
                let (file, blob) = write(spec(enc, x, y, b, t, (16, 8), unit.value().into(), utm()), &data);
                let bps = enc.decoded_bytes();
                for stateless in [false, true] {
                    let r = if stateless {
                        Reader::open_with_blob(file.as_slice(), &blob, Limits::default()).unwrap()
                    } else {
                        Reader::open(file.as_slice(), Limits::default()).unwrap()
                    };
                    assert_eq!(r.blob().to_bytes().unwrap(), blob);
                    let win = full(b, t, y, x);
                    let mut out = vec![0u8; r.window_bytes(&win).unwrap() as usize];
                    r.read_window(&win, &mut out).unwrap();
                    assert!(out == data, "{enc:?} B={b} T={t} unit={}", unit.value());
                    // an odd window crossing edge tiles, bands reordered
                    let win = Window {
                        times: (t - 1)..t,
                        bands: (0..u32::from(b)).rev().collect(),
                        rows: 5..29,
                        cols: 14..37,
                    };
                    let mut out = vec![0u8; r.window_bytes(&win).unwrap() as usize];
                    r.read_window(&win, &mut out).unwrap();
                    assert_eq!(out, expected(&data, bps, (t, b, y, x), &win), "{enc:?} unit {}", unit.value());
                }
            }
        }
    }
}
