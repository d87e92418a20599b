//! `rumi_read`, the C ABI of the core's read planner, driven the way the GDAL adapter drives it:
//! GDAL-style band maps and spacings, multidimensional start/step/stride with negative steps
//! and strides (the origin is not the lowest byte), float32 promotion, and its errors.

#[path = "../crates/rumi/tests/common/mod.rs"]
mod common;
#[path = "support/vec_io.rs"]
mod vec_io;

use std::ffi::{c_int, CStr};
use std::ptr;

use common::*;
use gdal_rumi::capi::*;
use rumi::format::SampleEncoding;
use rumi::Limits;
use rumi::{Reader, Window};
use vec_io::vec_io;

fn last_error() -> String {
    // SAFETY: rumi_last_error returns a valid C string.
    unsafe { CStr::from_ptr(rumi_last_error()) }.to_string_lossy().into_owned()
}

fn open(bytes: &Vec<u8>, blob: &[u8]) -> *mut rumi_dataset {
    let io = vec_io(bytes);
    let mut ds = ptr::null_mut();
    // SAFETY: valid io, blob and out pointers; `bytes` outlives the dataset in every test.
    let code = unsafe { rumi_open(&io, blob.as_ptr(), blob.len(), ptr::null(), &mut ds) };
    assert_eq!(code, RUMI_OK, "{}", last_error());
    ds
}

fn read(ds: *mut rumi_dataset, req: &rumi_request, threads: u32) -> Result<(), (c_int, String)> {
    // SAFETY: live dataset; the request's planes and buffer are valid for what it addresses.
    match unsafe { rumi_read(ds, req, threads) } {
        RUMI_OK => Ok(()),
        code => Err((code, last_error())),
    }
}

/// A Cube read with time reversed, rows backwards (step -2) and columns stored right to left:
/// every sample equals the reader's own `[t][b][y][x]` window at the mirrored place.
#[test]
fn negative_steps_and_strides_match_the_reader() {
    let (t, b, y, x) = (3u32, 2u16, 45u32, 38u32);
    let n = (t * u32::from(b) * y * x) as usize;
    for unit in [0u16, 4, 5, 9] {
        let (file, blob) =
            write(spec(SampleEncoding::I16, x, y, b, t, (16, 16), unit, utm()), &samples(SampleEncoding::I16, n, 2));
        let r = Reader::open(file.clone(), Limits::default()).unwrap();
        let mut want = vec![0u8; n * 2];
        let win = Window { times: 0..t, bands: vec![0, 1], rows: 0..y, cols: 0..x };
        r.read_window(&win, &mut want).unwrap();
        let at = |tt: u32, bb: u32, yy: u32, xx: u32| ((((tt * 2 + bb) * y + yy) * x + xx) * 2) as usize;
        let ds = open(&file, &blob);
        // output [t'][b][i][j]: t' = 2 - t, row 44 - 2i (23 rows), column 37 - j stored at -j
        let (ny, nx) = (23u32, x);
        let plane = (ny * nx * 2) as i64;
        let planes: Vec<rumi_plane> = (0..t)
            .flat_map(|tt| (0..2u32).map(move |bb| (tt, bb)))
            .map(|(tt, bb)| rumi_plane { band: bb, time: 2 - tt, offset: (tt * 2 + bb) as i64 * plane })
            .collect();
        let mut buf = vec![0u8; planes.len() * plane as usize];
        let origin = unsafe { buf.as_mut_ptr().add(2 * (nx as usize - 1)) };
        let req = rumi_request {
            planes: planes.as_ptr(),
            plane_count: planes.len(),
            rows: rumi_axis { start: 44, count: ny, step: -2, spacing: i64::from(nx) * 2 },
            cols: rumi_axis { start: 37, count: nx, step: -1, spacing: -2 },
            origin: origin.cast(),
            output: RUMI_OUTPUT_NATIVE,
        };
        for threads in [1, 2] {
            buf.fill(0);
            read(ds, &req, threads).unwrap();
            for tt in 0..t {
                for bb in 0..2 {
                    for i in 0..ny {
                        for j in 0..nx {
                            // sample (tt, bb, i, j) sits at origin + plane + i*line - 2j
                            let got =
                                (tt * 2 + bb) as usize * plane as usize + (i * nx * 2) as usize + 2 * (nx as usize - 1)
                                    - 2 * j as usize;
                            let src = at(2 - tt, bb, 44 - 2 * i, 37 - j);
                            assert_eq!(buf[got..got + 2], want[src..src + 2], "unit {unit} t {tt} b {bb} i {i} j {j}");
                        }
                    }
                }
            }
        }
        // SAFETY: live dataset, freed once.
        unsafe { rumi_free(ds) };
    }
}

/// RUMI_OUTPUT_FLOAT32 promotes float16 exactly, with GDAL's pixel-interleaved spacings.
#[test]
fn float32_output_with_pixel_interleaving() {
    let (b, y, x) = (3u16, 20u32, 17u32);
    let values: Vec<f32> = (0..u32::from(b) * y * x).map(|i| (i as f32 - 300.0) / 8.0).collect();
    let data: Vec<u8> = values.iter().flat_map(|v| half::f16::from_f32(*v).to_le_bytes()).collect();
    let (file, blob) = write(spec(SampleEncoding::F16, x, y, b, 1, (16, 16), 1, utm()), &data);
    let ds = open(&file, &blob);
    let band_map = [2u32, 0, 1];
    let planes: Vec<rumi_plane> =
        band_map.iter().enumerate().map(|(p, &band)| rumi_plane { band, time: 0, offset: 4 * p as i64 }).collect();
    let mut out = vec![0f32; 3 * (y * x) as usize];
    let req = rumi_request {
        planes: planes.as_ptr(),
        plane_count: 3,
        rows: rumi_axis { start: 0, count: y, step: 1, spacing: 12 * i64::from(x) },
        cols: rumi_axis { start: 0, count: x, step: 1, spacing: 12 },
        origin: out.as_mut_ptr().cast(),
        output: RUMI_OUTPUT_FLOAT32,
    };
    read(ds, &req, 2).unwrap();
    for yy in 0..y {
        for xx in 0..x {
            for (p, &band) in band_map.iter().enumerate() {
                let got = out[((yy * x + xx) * 3) as usize + p];
                assert_eq!(got, values[((band * y + yy) * x + xx) as usize], "band {band} at ({yy}, {xx})");
            }
        }
    }
    // bad output codes, rows outside the raster and NULL planes are argument errors
    let mut bad = req;
    bad.output = 7;
    assert_eq!(
        read(ds, &bad, 1).unwrap_err(),
        (
            RUMI_ERR_ARGUMENT,
            "invalid request: rumi_read: output 7 is not RUMI_OUTPUT_NATIVE or RUMI_OUTPUT_FLOAT32".into()
        )
    );
    let mut bad = req;
    bad.rows.start = 15;
    let (code, msg) = read(ds, &bad, 1).unwrap_err();
    assert_eq!(code, RUMI_ERR_ARGUMENT);
    assert!(msg.contains("rows: start 15 + 19 steps of 1 leaves 0..20"), "{msg}");
    let mut bad = req;
    bad.planes = ptr::null();
    assert!(read(ds, &bad, 1).unwrap_err().1.contains("planes is NULL"));
    // SAFETY: live dataset, freed once.
    unsafe { rumi_free(ds) };
}
