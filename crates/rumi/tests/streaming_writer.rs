//! The streaming writer: blocks of tile rows in any order, frames encoded elsewhere, and the
//! errors of blocks that do not fit.

mod common;

use std::io::Cursor;

use common::*;
use rumi::format::SampleEncoding;
use rumi::{assemble, encode_tile_rows, Graph, ImageSpec, Limits, Reader, Window, Writer};

/// `[t][b][y][x]` rows `y0..y1` of a full array.
fn rows_of(data: &[u8], s: &ImageSpec, y0: u32, y1: u32) -> Vec<u8> {
    let bps = s.encoding.decoded_bytes();
    let (ny, row) = (s.length as usize, s.width as usize * bps);
    let mut out = Vec::new();
    for p in 0..s.times as usize * usize::from(s.bands) {
        out.extend_from_slice(&data[(p * ny + y0 as usize) * row..(p * ny + y1 as usize) * row]);
    }
    out
}

fn read_all(file: &[u8], s: &ImageSpec) -> Vec<u8> {
    let r = Reader::open(file, Limits::default()).unwrap();
    let win =
        Window { times: 0..s.times, bands: (0..u32::from(s.bands)).collect(), rows: 0..s.length, cols: 0..s.width };
    let mut out = vec![0u8; r.window_bytes(&win).unwrap() as usize];
    r.read_window(&win, &mut out).unwrap();
    out
}

/// A 3-band, 2-step cube of 7 tile rows (the last partial) and its samples.
fn cube() -> (ImageSpec, Vec<u8>) {
    let s = spec(SampleEncoding::U16, 45, 52, 3, 2, (16, 8), 4, utm());
    let data = samples(SampleEncoding::U16, 45 * 52 * 3 * 2, 7);
    (s, data)
}

#[test]
fn blocks_in_any_order_give_the_file_of_one_block() {
    let (s, data) = cube();
    let graph = Graph::Numeric(6);
    let (one, blob) = rumi::write_array(Cursor::new(Vec::new()), s.clone(), graph, &data).unwrap();
    let one = one.into_inner();
    // blocks of 2 tile rows (16 pixel rows) and the partial last: 0..16, 16..32, 32..48, 48..52
    for order in [[3usize, 1, 0, 2], [0, 1, 2, 3], [2, 3, 1, 0]] {
        let bounds = [(0u32, 16u32), (16, 32), (32, 48), (48, 52)];
        let mut w = Writer::new(Cursor::new(Vec::new()), s.clone(), graph).unwrap().spool_dir(std::env::temp_dir());
        for &i in &order {
            let (y0, y1) = bounds[i];
            w.write_tile_rows(y0 / 8, &rows_of(&data, &s, y0, y1)).unwrap();
        }
        let (file, b) = w.finish().unwrap();
        let file = file.into_inner();
        assert_eq!(read_all(&file, &s), data, "order {order:?}");
        // a fixed graph gives each frame the same bytes whatever the blocks: the same file
        assert_eq!(file, one, "order {order:?}");
        assert_eq!(b.to_bytes().unwrap(), blob.to_bytes().unwrap());
    }
}

#[test]
fn frames_encoded_elsewhere_assemble_into_the_same_file() {
    let (s, data) = cube();
    let graph = Graph::Auto(7);
    // encoded as independent blocks (e.g. by other processes), in reverse order
    let blocks: Vec<_> = [(48u32, 52u32), (24, 48), (0, 24)]
        .iter()
        .map(|&(y0, y1)| encode_tile_rows(&s, graph, y0 / 8, &rows_of(&data, &s, y0, y1)).unwrap())
        .collect();
    // through the writer
    let mut w = Writer::new(Cursor::new(Vec::new()), s.clone(), graph).unwrap();
    for b in blocks.iter().cloned() {
        w.write_encoded(b).unwrap();
    }
    let (file, _) = w.finish().unwrap();
    let file = file.into_inner();
    assert_eq!(read_all(&file, &s), data);
    // by hand: prefix, frames in row order, trailer
    let mut sorted = blocks.clone();
    sorted.sort_by_key(|b| b.first_row);
    let counts: Vec<u32> = sorted.iter().flat_map(|b| b.counts.iter().copied()).collect();
    let (prefix, trailer) = assemble(&s, &counts).unwrap();
    let mut by_hand = prefix;
    for b in &sorted {
        by_hand.extend_from_slice(&b.frames);
    }
    by_hand.extend_from_slice(&trailer);
    assert_eq!(by_hand, file);
    assert!(rumi::validate(by_hand.as_slice(), None, Limits::default()).is_ok());
}

#[test]
fn blocks_that_do_not_fit_are_refused_by_name() {
    let (s, data) = cube();
    let new = || Writer::new(Cursor::new(Vec::new()), s.clone(), Graph::Numeric(3)).unwrap();
    let err = |r: rumi::Result<()>| r.unwrap_err().to_string();
    // not whole tile rows
    let mut w = new();
    let e = err(w.write_tile_rows(0, &rows_of(&data, &s, 0, 12)));
    assert!(e.contains("whole tile rows of 8 pixel rows") && e.contains("12 pixel rows given"), "{e}");
    // not whole pixel rows
    let e = err(w.write_tile_rows(0, &data[..100]));
    assert!(e.contains("not whole pixel rows"), "{e}");
    // past the end
    let e = err(w.write_tile_rows(7, &rows_of(&data, &s, 48, 52)));
    assert!(e.contains("tile row 7 is past the last tile row (6)"), "{e}");
    // twice
    w.write_tile_rows(2, &rows_of(&data, &s, 16, 32)).unwrap();
    let e = err(w.write_tile_rows(3, &rows_of(&data, &s, 24, 32)));
    assert_eq!(e, "invalid request: tile row 3 (pixel row 24) written twice");
    // frames made for another layout (8x8 tiles: twice the frames per tile row)
    let other = spec(SampleEncoding::U16, 45, 52, 3, 2, (8, 8), 4, utm());
    let foreign = encode_tile_rows(&other, Graph::Numeric(3), 0, &rows_of(&data, &other, 0, 8)[..]).unwrap();
    let e = err(w.write_encoded(foreign));
    assert!(e.contains("not made for this file's layout"), "{e}");
    // missing at the end
    let e = w.finish().unwrap_err().to_string();
    assert!(e.contains("5 of 7 tile rows never written: 0 (pixel row 0), 1 (pixel row 8), 4"), "{e}");
}

/// `[t][b][y][x]` samples of tile row `row`'s pixel rows and pixel columns `x0..x1`.
fn tiles_of(data: &[u8], s: &ImageSpec, row: u32, x0: u32, x1: u32) -> Vec<u8> {
    let bps = s.encoding.decoded_bytes();
    let th = u32::from(s.tile_length);
    let (y0, y1) = (row * th, ((row + 1) * th).min(s.length));
    let (ny, nx) = (s.length as usize, s.width as usize);
    let mut out = Vec::new();
    for p in 0..s.times as usize * usize::from(s.bands) {
        for y in y0 as usize..y1 as usize {
            let at = (p * ny + y) * nx;
            out.extend_from_slice(&data[(at + x0 as usize) * bps..(at + x1 as usize) * bps]);
        }
    }
    out
}

#[test]
fn blocks_of_tiles_give_the_frames_and_file_of_tile_rows() {
    // cells (4) and tiles walked band then time (0) or time then band (9); 3 tile columns, the
    // last partial (45 = 16 + 16 + 13), 7 tile rows, the last partial
    for unit in [4u16, 0, 9] {
        let (mut s, data) = cube();
        s.frame_unit = unit;
        let graph = Graph::Auto(7);
        // today's blocks: one tile row each, a fresh encoder each (as dask tasks encode them)
        let mut w = Writer::new(Cursor::new(Vec::new()), s.clone(), graph).unwrap();
        let mut rows = Vec::new();
        for r in 0..7u32 {
            let e = encode_tile_rows(&s, graph, r, &rows_of(&data, &s, r * 8, (r * 8 + 8).min(52))).unwrap();
            rows.push(e.clone());
            w.write_encoded(e).unwrap();
        }
        let (want, _) = w.finish().unwrap();
        let want = want.into_inner();
        // blocks of tiles (1 or 2 tile columns) and of tile rows, mixed, in a scrambled order
        let mut pieces: Vec<(u32, u32, u32)> = Vec::new(); // (row, first col, cols); cols 0: the whole row
        for r in 0..7u32 {
            match r % 3 {
                0 => pieces.extend([(r, 0, 1), (r, 1, 1), (r, 2, 1)]),
                1 => pieces.extend([(r, 1, 2), (r, 0, 1)]),
                _ => pieces.push((r, 0, 0)),
            }
        }
        let n = pieces.len();
        let order: Vec<usize> = (0..n).map(|i| (i * 7 + 3) % n).collect();
        let mut w = Writer::new(Cursor::new(Vec::new()), s.clone(), graph).unwrap().spool_dir(std::env::temp_dir());
        for &i in &order {
            let (r, c, k) = pieces[i];
            if k == 0 {
                w.write_encoded(rows[r as usize].clone()).unwrap();
                continue;
            }
            let (x0, x1) = (c * 16, ((c + k) * 16).min(45));
            let e = rumi::encode_tiles(&s, graph, r, c, &tiles_of(&data, &s, r, x0, x1)).unwrap();
            assert_eq!((e.row, e.first_col, e.cols), (r, c, k));
            // the same frames as the tile row's, for those tiles
            let per = (e.counts.len() / k as usize) as u32;
            let skip = (c * per) as usize;
            let whole = &rows[r as usize];
            assert_eq!(e.counts[..], whole.counts[skip..skip + e.counts.len()], "unit {unit} row {r} col {c}");
            let start: usize = whole.counts[..skip].iter().map(|&v| v as usize).sum();
            assert_eq!(e.frames[..], whole.frames[start..start + e.frames.len()]);
            w.write_encoded_tiles(e).unwrap();
        }
        let (file, _) = w.finish().unwrap();
        let file = file.into_inner();
        assert_eq!(file, want, "unit {unit}");
        assert_eq!(read_all(&file, &s), data);
    }
}

#[test]
fn blocks_of_tiles_that_do_not_fit_are_refused_by_name() {
    let (s, data) = cube();
    let graph = Graph::Numeric(3);
    let err = |r: rumi::Result<()>| r.unwrap_err().to_string();
    // not whole tile columns
    let e = rumi::encode_tiles(&s, graph, 0, 0, &tiles_of(&data, &s, 0, 0, 20)).unwrap_err().to_string();
    assert!(e.contains("whole tile columns of 16 pixel columns") && e.contains("20 pixel columns given"), "{e}");
    let e = rumi::encode_tiles(&s, graph, 0, 3, &tiles_of(&data, &s, 0, 32, 45)).unwrap_err().to_string();
    assert!(e.contains("tile (row 0, column 3) is outside the raster's 7 x 3 tiles"), "{e}");
    let mut w = Writer::new(Cursor::new(Vec::new()), s.clone(), graph).unwrap();
    w.write_encoded_tiles(rumi::encode_tiles(&s, graph, 2, 1, &tiles_of(&data, &s, 2, 16, 32)).unwrap()).unwrap();
    // a tile twice, as a tile and within a tile row
    let again = rumi::encode_tiles(&s, graph, 2, 0, &tiles_of(&data, &s, 2, 0, 45)).unwrap();
    let e = err(w.write_encoded_tiles(again));
    assert_eq!(e, "invalid request: tile (row 2, column 1; pixel row 16, column 16) written twice");
    let e = err(w.write_tile_rows(2, &rows_of(&data, &s, 16, 24)));
    assert_eq!(e, "invalid request: tile row 2 (pixel row 16) written twice");
    // a row with a tile missing is a missing row
    let e = w.finish().unwrap_err().to_string();
    assert!(e.contains("7 of 7 tile rows never written"), "{e}");
}
