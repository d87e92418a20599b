//! Measures the OpenZL graphs/levels a writer can use, per frame unit, against zstd on the same
//! tiles: compression ratio, encode and decode speed (MB/s of raw samples, one thread).
//!
//! Run: `RAYON_NUM_THREADS=1 cargo run --release --example codec_bench -- FILE.tif...`
//! (defaults to the real rasters of ../shared/data). Prints a Markdown table.

use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::time::Instant;

use gdal::raster::GdalDataType;
use gdal::Dataset;
use rumi::codec::{self, AlignedBuf, Graph, Predictor};
use rumi::format::{FrameUnit, Georef, RasterType, SampleEncoding, TimeAxis, TimeKind, Trailer};
use rumi::Limits;
use rumi::{write_array, ImageSpec};
use rumi::{Reader, Window};

fn read_source(path: &Path) -> Option<(SampleEncoding, u32, u32, u16, Vec<u8>)> {
    let ds = Dataset::open(path).ok()?;
    let (x, y) = ds.raster_size();
    let b = ds.raster_count();
    let band1 = ds.rasterband(1).ok()?;
    let enc = match band1.band_type() {
        GdalDataType::UInt8 => SampleEncoding::U8,
        GdalDataType::UInt16 => SampleEncoding::U16,
        GdalDataType::Int16 => SampleEncoding::I16,
        GdalDataType::UInt32 => SampleEncoding::U32,
        GdalDataType::Int32 => SampleEncoding::I32,
        GdalDataType::Float32 => SampleEncoding::F32,
        GdalDataType::Float64 => SampleEncoding::F64,
        _ => return None,
    };
    let mut data = Vec::new();
    for i in 1..=b {
        let band = ds.rasterband(i).ok()?;
        macro_rules! plane {
            ($t:ty) => {{
                let buf = band.read_as::<$t>((0, 0), (x, y), (x, y), None).ok()?;
                for v in buf.data() {
                    data.extend_from_slice(&v.to_le_bytes());
                }
            }};
        }
        match enc {
            SampleEncoding::U8 => plane!(u8),
            SampleEncoding::U16 => plane!(u16),
            SampleEncoding::I16 => plane!(i16),
            SampleEncoding::U32 => plane!(u32),
            SampleEncoding::I32 => plane!(i32),
            SampleEncoding::F32 => plane!(f32),
            _ => plane!(f64),
        }
    }
    Some((enc, x as u32, y as u32, b as u16, data))
}

fn spec(enc: SampleEncoding, x: u32, y: u32, b: u16, unit: u16, tile: u16) -> ImageSpec {
    ImageSpec {
        width: x,
        length: y,
        times: 1,
        bands: b,
        encoding: enc,
        tile_width: tile,
        tile_length: tile,
        frame_unit: unit,
        georef: Georef::Undefined { raster_type: RasterType::Area },
        trailer: Trailer {
            band_texts: (0..b).map(|i| format!("band {i}")).collect(),
            time: TimeAxis::from_seconds(TimeKind::Instant, vec![0], 1).expect("one instant"),
        },
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

/// zstd on each 256x256 tile plane (what a ZSTD GeoTIFF without predictor does).
fn zstd_tiles(enc: SampleEncoding, x: u32, y: u32, b: u16, data: &[u8], level: i32) -> (u64, f64, f64) {
    let bps = enc.decoded_bytes();
    let mut tiles = Vec::new();
    for band in 0..b as usize {
        for ty in (0..y).step_by(256) {
            for tx in (0..x).step_by(256) {
                let (h, w) = ((y - ty).min(256) as usize, (x - tx).min(256) as usize);
                let mut t = Vec::with_capacity(h * w * bps);
                for r in 0..h {
                    let s = ((band * y as usize + ty as usize + r) * x as usize + tx as usize) * bps;
                    t.extend_from_slice(&data[s..s + w * bps]);
                }
                tiles.push(t);
            }
        }
    }
    let t0 = Instant::now();
    let comp: Vec<Vec<u8>> = tiles.iter().map(|t| zstd::bulk::compress(t, level).expect("zstd")).collect();
    let enc_s = t0.elapsed().as_secs_f64();
    let mut dec = Vec::new();
    for _ in 0..3 {
        let t0 = Instant::now();
        for (c, t) in comp.iter().zip(&tiles) {
            let d = zstd::bulk::decompress(c, t.len()).expect("zstd");
            assert_eq!(d.len(), t.len());
        }
        dec.push(t0.elapsed().as_secs_f64());
    }
    (comp.iter().map(|c| c.len() as u64).sum(), enc_s, median(dec))
}

fn main() {
    let args: Vec<PathBuf> = std::env::args().skip(1).map(PathBuf::from).collect();
    let files = if args.is_empty() {
        // RUMI_DATA_DIR, else ../shared/data beside the repository (or beside a worktree's parent)
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let dir = std::env::var_os("RUMI_DATA_DIR")
            .map(PathBuf::from)
            .or_else(|| [root.join("../shared/data"), root.join("../../shared/data")].into_iter().find(|d| d.is_dir()))
            .unwrap_or_default();
        [
            "landsat8_LC08_L1TP_224078_20200518_3band_uint16.tif",
            "lf_elev_220_mt_hood_utm.tif",
            "lf_fbfm40_220_mt_hood_utm.tif",
            "xrspatial_s2_4band_10m_uint16.tif",
            "naip_m_3607824_se_17_1_20160620_sub.tif",
            "rasterio_RGB.byte.tif",
            "S1A__IW___A_20150309T173017_VV_grd_mli_geo_norm_db.tif",
            "S1A__IW___D_20170309T054356_VV_grd_mli_geo_norm_db.tif",
            "eolearn_s2_ndvi_68t_float32.tif",
            "eolearn_s2_clm_68t_uint8.tif",
            "eolearn_dem_float32.tif",
            "eolearn_lulc_uint16.tif",
            "stars_olinda_dem_utm25s.tif",
            "gdal_byte.tif",
        ]
        .iter()
        .map(|f| dir.join(f))
        .filter(|p| p.exists())
        .collect()
    } else {
        args
    };
    if files.is_empty() {
        eprintln!("no input rasters (../shared/data is absent); pass GeoTIFF paths");
        return;
    }
    println!("| input | setting | ratio | encode MB/s | decode MB/s | codec decode MB/s |");
    println!("|---|---|---|---|---|---|");
    for f in files {
        let Some((enc, x, y, b, data)) = read_source(&f) else {
            eprintln!("skip {}: unsupported", f.display());
            continue;
        };
        let name = f.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let raw = data.len() as f64;
        let mb = raw / 1e6;
        for level in [9, 19] {
            let (size, e, d) = zstd_tiles(enc, x, y, b, &data, level);
            println!("| {name} | zstd {level}, tile | {:.3} | {:.0} | {:.0} |", raw / size as f64, mb / e, mb / d);
        }
        let mut units: Vec<u16> = FrameUnit::valid_for(u32::from(b), 1).iter().map(|u| u16::from(u.value())).collect();
        if std::env::var_os("CODEC_BENCH_DEFAULT_UNIT").is_some() {
            units = vec![ImageSpec::default_frame_unit(b, 1)];
        }
        for unit in units {
            let all = std::env::var_os("CODEC_BENCH_ALL").is_some();
            let mut graphs = vec![("numeric 7", Graph::Numeric(7))];
            if all {
                graphs.extend([
                    ("numeric 6", Graph::Numeric(6)),
                    ("numeric 9", Graph::Numeric(9)),
                    ("generic 6", Graph::Generic(6)),
                    ("best of numeric 6/7", Graph::BestOf),
                    ("up", Graph::Predict(Predictor::Up)),
                    ("left", Graph::Predict(Predictor::Left)),
                    ("left lz", Graph::Predict(Predictor::LeftLz)),
                    ("gradient", Graph::Predict(Predictor::Gradient)),
                ]);
            }
            graphs.extend([("image 0", Graph::Image(0)), ("image 7", Graph::Image(7)), ("auto 7", Graph::Auto(7))]);
            for (label, graph) in graphs {
                let t0 = Instant::now();
                let (cur, blob) =
                    write_array(Cursor::new(Vec::new()), spec(enc, x, y, b, unit, 256), graph, &data).expect("write");
                let e = t0.elapsed().as_secs_f64();
                let file = cur.into_inner();
                let total = file.len() + blob.to_bytes().expect("blob").len();
                let r = Reader::open(file.as_slice(), Limits::default()).expect("open");
                r.set_cache_bytes(0); // every read decodes (a small file would be kept whole)
                let win = Window { times: 0..1, bands: (0..u32::from(b)).collect(), rows: 0..y, cols: 0..x };
                let mut out = vec![0u8; data.len()];
                let mut dec = Vec::new();
                for _ in 0..3 {
                    let t0 = Instant::now();
                    r.read_window(&win, &mut out).expect("read");
                    dec.push(t0.elapsed().as_secs_f64());
                }
                assert!(out == data, "round trip");
                // codec alone: every frame decoded into a reused buffer, one thread
                let mut off = blob.layout.base_frame_offset().expect("offset") as usize;
                let mut frames = Vec::new();
                for (i, &c) in blob.counts.iter().enumerate() {
                    let (row, col, _, _) = blob.layout.frame_position(i as u64);
                    let (h, w) = blob.layout.tile_dims(row, col);
                    let n = blob.layout.frame_samples(h, w) as usize * enc.decoded_bytes();
                    frames.push((&file[off..off + c as usize], n));
                    off += c as usize;
                }
                let mut bufs: Vec<AlignedBuf> = frames.iter().map(|f| AlignedBuf::zeroed(f.1)).collect();
                let mut cdec = Vec::new();
                for _ in 0..5 {
                    let t0 = Instant::now();
                    for (i, (f, _)) in frames.iter().enumerate() {
                        codec::decode_into(f, &mut bufs[i], i as u64).expect("decode");
                    }
                    cdec.push(t0.elapsed().as_secs_f64());
                }
                let cdec = mb / median(cdec);
                println!(
                    "| {name} | {label}, unit {unit} | {:.3} | {:.0} | {:.0} | {cdec:.0} |",
                    raw / total as f64,
                    mb / e,
                    mb / median(dec)
                );
            }
        }
    }
}
