//! Unit tests of `layout.rs`: frame index and position, base offsets, frame geometry.

use super::*;

#[test]
fn spec_worked_example_frames_113_and_119() {
    let l = Layout::new(1024, 1024, 3, 4, 256, 256, SampleEncoding::U16, 0, &Limits::default()).unwrap();
    assert_eq!(l.grid_size(), 16);
    assert_eq!(l.frame_count().unwrap(), 192);
    assert_eq!(l.frame_index(2, 1, 1, 2), 113);
    assert_eq!(l.frame_index(2, 1, 3, 2), 119);
    assert_eq!(l.frame_position(113), (2, 1, 1, 2));
    assert_eq!(l.frame_position(119), (2, 1, 3, 2));
}

#[test]
fn frame_position_inverts_index_for_every_unit() {
    for unit in FrameUnit::valid_for(3, 4) {
        let l = Layout::new(70, 50, 4, 3, 32, 16, SampleEncoding::U8, unit.value().into(), &Limits::default()).unwrap();
        for i in 0..l.frame_count().unwrap() {
            let (r, c, b, t) = l.frame_position(i);
            assert_eq!(l.frame_index(r, c, b, t), i);
        }
    }
}

#[test]
fn base_offset_thresholds() {
    assert_eq!(base_frame_offset(4, 1).unwrap(), 292 + 160);
    assert_eq!(base_frame_offset(4, 2).unwrap(), 292 + 160 + 16);
    assert_eq!(base_frame_offset(4, 3).unwrap(), 292 + 160 + 24 + 12);
    assert_eq!(base_frame_offset(5, 1).unwrap(), 292 + 160 + 20);
}

/// Every frame's geometry agrees with its index and position, and maps the samples of its
/// (b, t, y, x) onto `0..frame_samples` one to one (no two samples share a place, none is
/// left out), for every frame unit and for edge tiles.
#[test]
fn frame_geometry_maps_every_sample_once() {
    for unit in FrameUnit::valid_for(3, 2) {
        let l = Layout::new(37, 21, 2, 3, 16, 8, SampleEncoding::U16, unit.value().into(), &Limits::default()).unwrap();
        for i in 0..l.frame_count().unwrap() {
            let g = l.frame_geometry(i);
            let (row, col, b, t) = l.frame_position(i);
            assert_eq!(g, l.frame_at(row, col, b, t));
            assert_eq!((g.index, g.y0, g.x0), (i, row * 8, col * 16));
            assert_eq!((g.h, g.w), l.tile_dims(row, col));
            let pairs: Vec<(u32, u32)> = match g.tile {
                Some(p) => vec![p],
                None => (0..2).flat_map(|t| (0..3).map(move |b| (b, t))).collect(),
            };
            assert_eq!(g.tile.is_some(), unit.is_tile());
            let mut seen = vec![false; l.frame_samples(g.h, g.w) as usize];
            for (b, t) in pairs {
                assert!(g.holds(b, t));
                for y in 0..g.h {
                    for x in 0..g.w {
                        let k = g.sample(b, t, y, x);
                        assert!(!seen[k], "unit {} frame {i}: sample {k} twice", unit.value());
                        seen[k] = true;
                    }
                }
            }
            assert!(seen.iter().all(|&s| s), "unit {} frame {i}: a sample left out", unit.value());
        }
    }
}
