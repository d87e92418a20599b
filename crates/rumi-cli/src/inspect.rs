//! `header`, `validate` and `info`: build the header blob of, check and describe rumi files,
//! local or in object storage (`s3://`, `http(s)://`: [`crate::remote`]).

use std::fs::File;
use std::io::Write;
use std::path::Path;

use rumi::format::{Blob, GeoTransform, Georef, Layout, ModelType, RasterType, TimeKind, TimeStep};
use rumi::open::{BlobCheck, HeaderBlob, OpenOptions};
use rumi::store::Source;
use rumi::Limits;
use rumi::RangeRead;
use rumi::Reader;
use serde::Serialize;

use crate::fail::{plain, print, say, Context, Failure, Plain, Res};
use crate::output::{self, sidecar};
use crate::remote::{self, open, read_blob, url_of};
use crate::source::epsg_defined;

/// `12.3 MiB`-style size.
pub fn human_bytes(n: u64) -> String {
    const UNITS: [&str; 5] = ["bytes", "KiB", "MiB", "GiB", "TiB"];
    let mut v = n as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < UNITS.len() {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{n} bytes")
    } else {
        format!("{v:.2} {}", UNITS[u])
    }
}

/// Decoded size of the whole raster: `T * B * Y * X * bytes_per_sample`.
pub fn decoded_bytes(l: &Layout) -> u64 {
    u64::from(l.times)
        * u64::from(l.bands)
        * u64::from(l.length)
        * u64::from(l.width)
        * l.encoding.decoded_bytes() as u64
}

/// A failed read of `path` as the CLI words it: `<path>: <verdict>: <error>`, but an object
/// storage I/O error (not found, access refused, the server's faults; it names the URL) as
/// itself, since it says nothing about the file's contents.
fn verdict<'a>(path: &'a Path, verdict: &'static str) -> impl Fn(rumi::Error) -> Failure + 'a {
    move |e| match e {
        rumi::Error::Io(io) if url_of(path).is_some() => Failure(io.to_string()),
        e => Failure(format!("{}: {verdict}: {}", path.display(), Plain(e))),
    }
}

/// Builds the header blob from a finalized rumi file (spec "Creating the header blob").
fn build_header<R: RangeRead>(src: R) -> rumi::Result<Vec<u8>> {
    rumi::build_header(src, Limits::default())
}

/// [`build_header`] with the CLI's wording of errors.
fn build_header_plain<R: RangeRead>(src: R) -> Result<Vec<u8>, Plain> {
    build_header(src).map_err(plain)
}

/// The header blob of a file the writer just produced: built from the finished file (so every
/// duplicated value is checked against its IFD) and compared with what the writer computed.
pub fn header_of_written(file: &mut File, blob: &Blob, out: &Path) -> Res<Vec<u8>> {
    file.flush().context(|| format!("cannot write {}", out.display()))?;
    let clone = file.try_clone().context(|| format!("cannot read back {}", out.display()))?;
    let built = build_header_plain(clone).context(|| "the written file does not validate (internal error)")?;
    if built != blob.to_bytes()? {
        return Err(Failure("internal error: the header built from the written file differs from the writer's".into()));
    }
    Ok(built)
}

/// `rumi header FILE [-o OUT]` (FILE and OUT paths or URLs; OUT by default `<FILE>.header`).
pub fn header(path: &Path, output: Option<&Path>) -> Res<()> {
    let out = output.map(Path::to_path_buf).unwrap_or_else(|| sidecar(path));
    if let Some(url) = url_of(&out) {
        remote::check_writable(url)?;
    }
    let mut inputs = output::Inputs::default();
    inputs.add(path);
    inputs.check(&out, "output")?;
    let src = open(path)?;
    let bytes = build_header(src).map_err(verdict(path, "not a valid rumi file"))?;
    check_epsg_registry(path)?;
    if let Some(url) = url_of(&out) {
        remote::put(url, &bytes)?;
    } else {
        output::clean_stale(&out);
        // checked again just before the write: the input may have been linked there meanwhile
        inputs.check(&out, "output")?;
        output::Staged::with_bytes(&out, &bytes)?.commit()?;
    }
    print(&format!("wrote {} ({} bytes) for {}\n", out.display(), bytes.len(), path.display()))
}

/// `rumi validate FILE [--header BLOB]` (paths or URLs).
pub fn validate(path: &Path, header: Option<&Path>) -> Res<()> {
    let blob = header.map(read_blob).transpose()?;
    if let (Some(b), Some(h)) = (&blob, header) {
        Blob::parse(b, &Limits::default())
            .map_err(plain)
            .context(|| format!("{} is not a valid header blob", h.display()))?;
    }
    let report = rumi::validate(open(path)?, blob.as_deref(), Limits::default()).map_err(|e| match (e, header) {
        (e @ (rumi::Error::BlobMismatch { .. } | rumi::Error::BlobCountMismatch { .. }), Some(h)) => {
            Failure(format!("header blob {} does not belong to {}: {e}", h.display(), path.display()))
        }
        (e, _) => verdict(path, "not rumi 0.1.0 compliant")(e),
    })?;
    if let Georef::Epsg { epsg, model, .. } = report.georef {
        epsg_defined(epsg, model)
            .map_err(|why| Failure(format!("{}: not rumi 0.1.0 compliant: {why}", path.display())))?;
    }
    let l = report.layout;
    print(&format!(
        "{}: rumi 0.1.0 compliant: {} T={} B={} Y={} X={} {}, {} frames decoded{}\n",
        path.display(),
        if l.times > 1 { "Cube" } else { "Image" },
        l.times,
        l.bands,
        l.length,
        l.width,
        l.encoding.name(),
        report.frames,
        if header.is_some() { ", header blob matches" } else { "" }
    ))
}

#[derive(Serialize)]
#[allow(non_snake_case)]
struct Shape {
    T: u32,
    B: u16,
    Y: u32,
    X: u32,
}

#[derive(Serialize)]
struct Encoding {
    name: &'static str,
    sample_format: u16,
    bits_per_sample: u16,
    decoded_bytes: usize,
}

#[derive(Serialize)]
struct Tiles {
    width: u16,
    length: u16,
    across: u32,
    down: u32,
}

#[derive(Serialize)]
struct Unit {
    value: u8,
    layout: &'static str,
    frame: &'static str,
}

#[derive(Serialize)]
struct GeorefInfo {
    epsg: u16,
    model: &'static str,
    raster_type: &'static str,
    /// `(x_res, row_rot, x_origin, col_rot, y_res, y_origin)` as stored
    affine: [f64; 6],
    /// the same transform in GDAL's order `(x_origin, x_res, row_rot, y_origin, col_rot, y_res)`
    geotransform: [f64; 6],
}

#[derive(Serialize)]
#[serde(untagged)]
enum Step {
    Instant(String),
    Interval { start: String, end: String },
}

#[derive(Serialize)]
struct Times {
    kind: &'static str,
    scale_seconds: u32,
    steps: Vec<Step>,
}

#[derive(Serialize)]
struct GdalNodata {
    sidecar: String,
    bands: std::collections::BTreeMap<u32, String>,
}

/// One GDAL band's scale, offset and unit as its PAM sidecar records them.
#[derive(Serialize)]
struct BandScaling {
    scale: f64,
    offset: f64,
    unit: Option<String>,
}

/// The scales, offsets and units of the GDAL bands (number -> values) that the PAM sidecar
/// records (read as GDAL reads them, by `rumi::pam::parse`), or why it cannot be read.
#[derive(Serialize)]
struct GdalScaling {
    sidecar: String,
    bands: std::collections::BTreeMap<u32, BandScaling>,
    error: Option<String>,
}

/// The PAM sidecar of `path` (a file, or the object beside a URL): its name and text.
fn aux_of(path: &Path) -> Res<Option<(String, String)>> {
    Ok(match url_of(path) {
        Some(url) => remote::aux_text(url)?,
        None => {
            let aux = output::aux_xml(path);
            std::fs::read_to_string(&aux).ok().map(|text| (aux.display().to_string(), text))
        }
    })
}

/// The scales, offsets and units of `path`'s PAM sidecar, if it records any.
fn gdal_scaling(path: &Path) -> Res<Option<GdalScaling>> {
    let Some((sidecar, text)) = aux_of(path)? else { return Ok(None) };
    let (bands, error): (std::collections::BTreeMap<u32, BandScaling>, _) = match rumi::pam::parse(&text) {
        Ok(bands) => (
            bands
                .into_iter()
                .filter(|(_, b)| b.is_scaled() || b.unit.is_some())
                .map(|(n, b)| {
                    let v =
                        BandScaling { scale: b.scale.unwrap_or(1.0), offset: b.offset.unwrap_or(0.0), unit: b.unit };
                    (n, v)
                })
                .collect(),
            None,
        ),
        Err(e) => (Default::default(), Some(e.to_string())),
    };
    Ok((!bands.is_empty() || error.is_some()).then_some(GdalScaling { sidecar, bands, error }))
}

/// rumi's nodata sidecar of `path` (a file, or the object beside a URL), if there is one (a
/// PAM file with more than rumi wrote in it is GDAL's, and not described here).
fn gdal_nodata(path: &Path) -> Res<Option<GdalNodata>> {
    let (sidecar, text) = match url_of(path) {
        Some(url) => match remote::aux_text(url)? {
            Some(found) => found,
            None => return Ok(None),
        },
        None => {
            let aux = output::aux_xml(path);
            match std::fs::read_to_string(&aux) {
                Ok(text) => (aux.display().to_string(), text),
                Err(_) => return Ok(None),
            }
        }
    };
    // a sidecar of colour interpretations only records no nodata
    let bands: std::collections::BTreeMap<u32, String> = if rumi::pam::is_ours(&text) {
        rumi::pam::top_level_nodata(&text).into_iter().collect()
    } else {
        Default::default()
    };
    Ok((!bands.is_empty()).then_some(GdalNodata { sidecar, bands }))
}

#[derive(Serialize)]
struct Info {
    file: String,
    file_bytes: u64,
    header_blob: Option<String>,
    kind: &'static str,
    shape: Shape,
    encoding: Encoding,
    tile: Tiles,
    frame_unit: Unit,
    frames: u64,
    base_frame_offset: u64,
    trailer_offset: u64,
    raster_type: &'static str,
    georef: Option<GeorefInfo>,
    band_texts: Vec<String>,
    /// nodata values for GDAL readers, from rumi's `<FILE>.aux.xml` (GDAL band number -> value)
    gdal_nodata: Option<GdalNodata>,
    /// scales, offsets and units for GDAL readers, from `<FILE>.aux.xml` (GDAL band number ->
    /// values)
    gdal_scaling: Option<GdalScaling>,
    time: Times,
    compressed_bytes: u64,
    decoded_bytes: u64,
    ratio: f64,
}

/// `rumi header` validates the georeferencing against the EPSG registry as `validate` does.
fn check_epsg_registry(path: &Path) -> Res<()> {
    let reader = Reader::open(open(path)?, Limits::default()).map_err(verdict(path, "not a valid rumi file"))?;
    if let Georef::Epsg { epsg, model, .. } = reader.georef().context(|| path.display().to_string())? {
        epsg_defined(epsg, model)
            .map_err(|why| Failure(format!("{}: not rumi 0.1.0 compliant: {why}", path.display())))?;
    }
    Ok(())
}

fn raster_type_name(r: RasterType) -> &'static str {
    match r {
        RasterType::Area => "PixelIsArea",
        RasterType::Point => "PixelIsPoint",
    }
}

/// Opens `path` for `info` with the core's open policy (`rumi::open`): statelessly from
/// `header` when given (an error when it does not describe the file); an object in object
/// storage from its sidecar `<url>.header` when that describes it (checked against the bytes
/// before its first frame; a stale one is ignored with a warning); else by parsing it.
/// Returns the reader and the header blob used.
fn open_for_info(path: &Path, header: Option<&Path>) -> Res<(Reader<Source>, Option<String>)> {
    let url = url_of(path);
    let blob = match (header, url) {
        (Some(h), _) => HeaderBlob::Explicit { name: h.display().to_string(), bytes: read_blob(h)? },
        (None, Some(url)) => match remote::sidecar(url)? {
            Some((name, bytes)) => HeaderBlob::Sidecar { name, bytes },
            None => HeaderBlob::None,
        },
        (None, None) => HeaderBlob::None,
    };
    let check = if url.is_some() { BlobCheck::ReadPrefix } else { BlobCheck::SizeAndTrailer };
    let opts = OpenOptions { check, ..Default::default() };
    let opened = rumi::open::open(open(path)?, &path.display().to_string(), blob, &opts).map_err(|e| match e {
        e @ rumi::Error::HeaderBlob { .. } => Failure(Plain(e).to_string()),
        e => verdict(path, "not a valid rumi file")(e),
    })?;
    if let Some(w) = opened.warning {
        say(&format!("warning: {w}"));
    }
    Ok((opened.reader, opened.blob))
}

fn describe(path: &Path, header: Option<&Path>) -> Res<Info> {
    let (reader, header_blob) = open_for_info(path, header)?;
    let what = || path.display().to_string();
    let l = *reader.layout();
    let georef = reader.georef().context(what)?;
    let trailer = reader.trailer().context(what)?;
    let georef_info = match georef {
        Georef::Undefined { .. } => None,
        Georef::Epsg { model, raster_type, epsg, affine } => Some(GeorefInfo {
            epsg,
            model: if model == ModelType::Projected { "projected" } else { "geographic" },
            raster_type: raster_type_name(raster_type),
            affine,
            geotransform: GeoTransform::from_affine(affine, raster_type, true).0,
        }),
    };
    let axis = &trailer.time;
    let steps = (0..axis.steps())
        .map(|i| match axis.step(i) {
            TimeStep::Instant(t) => Step::Instant(axis.iso(t)),
            TimeStep::Interval(a, b) => Step::Interval { start: axis.iso(a), end: axis.iso(b) },
        })
        .collect();
    let file_bytes = reader.source().size().context(|| format!("cannot read {}", path.display()))?;
    let compressed = reader.compressed_bytes();
    let decoded = decoded_bytes(&l);
    let (sample_format, bits_per_sample) = l.encoding.pair();
    Ok(Info {
        file: path.display().to_string(),
        file_bytes,
        header_blob,
        kind: if l.times > 1 { "Cube" } else { "Image" },
        shape: Shape { T: l.times, B: l.bands, Y: l.length, X: l.width },
        encoding: Encoding {
            name: l.encoding.name(),
            sample_format,
            bits_per_sample,
            decoded_bytes: l.encoding.decoded_bytes(),
        },
        tile: Tiles { width: l.tile_width, length: l.tile_length, across: l.tiles_across(), down: l.tiles_down() },
        frame_unit: Unit {
            value: l.frame_unit.value(),
            layout: l.frame_unit.describe(u32::from(l.bands)),
            frame: if l.frame_unit.is_tile() { "tile" } else { "cell" },
        },
        frames: reader.frame_count(),
        base_frame_offset: l.base_frame_offset()?,
        trailer_offset: reader.trailer_offset(),
        raster_type: raster_type_name(georef.raster_type()),
        georef: georef_info,
        band_texts: trailer.band_texts.clone(),
        gdal_nodata: gdal_nodata(path)?,
        gdal_scaling: gdal_scaling(path)?,
        time: Times {
            kind: if axis.kind == TimeKind::Instant { "instant" } else { "interval" },
            scale_seconds: axis.scale,
            steps,
        },
        compressed_bytes: compressed,
        decoded_bytes: decoded,
        ratio: decoded as f64 / compressed.max(1) as f64,
    })
}

/// `rumi info FILE [--json] [--header BLOB]`.
pub fn info(path: &Path, header: Option<&Path>, json: bool) -> Res<()> {
    let i = describe(path, header)?;
    if json {
        let text = serde_json::to_string_pretty(&i).map_err(|e| Failure(e.to_string()))?;
        return print(&format!("{text}\n"));
    }
    let mut o = String::new();
    let mut line = |k: &str, v: String| o.push_str(&format!("{k:<18}{v}\n"));
    line("file", format!("{} ({} bytes)", i.file, i.file_bytes));
    if let Some(h) = &i.header_blob {
        line("header blob", format!("{h} (layout and frame sizes read from it)"));
    }
    line("kind", i.kind.into());
    line("shape", format!("T={} B={} Y={} X={}", i.shape.T, i.shape.B, i.shape.Y, i.shape.X));
    line(
        "encoding",
        format!(
            "{} (sample_format {}, bits_per_sample {}, {} byte(s) per sample)",
            i.encoding.name, i.encoding.sample_format, i.encoding.bits_per_sample, i.encoding.decoded_bytes
        ),
    );
    line("tiles", format!("{} x {} ({} across x {} down)", i.tile.width, i.tile.length, i.tile.across, i.tile.down));
    line(
        "frame unit",
        format!("{}: {} (one {} per frame)", i.frame_unit.value, i.frame_unit.layout, i.frame_unit.frame),
    );
    line(
        "frames",
        format!("N={}, base_frame_offset {}, trailer at {}", i.frames, i.base_frame_offset, i.trailer_offset),
    );
    match &i.georef {
        None => line("georeferencing", format!("none ({})", i.raster_type)),
        Some(g) => {
            line("georeferencing", format!("EPSG:{} ({}), {}", g.epsg, g.model, g.raster_type));
            let a = g.affine;
            line("affine", format!("X = {} + col * {} + row * {}", a[2], a[0], a[1]));
            line("", format!("Y = {} + col * {} + row * {}", a[5], a[3], a[4]));
        }
    }
    for (n, t) in i.band_texts.iter().enumerate() {
        line(if n == 0 { "bands" } else { "" }, format!("{n}: {t}"));
    }
    if let Some(nd) = &i.gdal_nodata {
        let list: Vec<String> = nd.bands.iter().map(|(b, v)| format!("GDAL band {b}: {v}")).collect();
        line("nodata", format!("{} (for GDAL readers, in {})", list.join(", "), nd.sidecar));
    }
    if let Some(sc) = &i.gdal_scaling {
        let mut list: Vec<String> = sc
            .bands
            .iter()
            .map(|(b, v)| {
                let unit = v.unit.as_ref().map(|u| format!(" {u}")).unwrap_or_default();
                format!("GDAL band {b}: raw * {:?} + {:?}{unit}", v.scale, v.offset)
            })
            .collect();
        list.extend(sc.error.iter().map(|e| format!("unreadable: {e}")));
        line("scale", format!("{} (for GDAL readers, in {})", list.join(", "), sc.sidecar));
    }
    for (n, s) in i.time.steps.iter().enumerate() {
        let v = match s {
            Step::Instant(t) => t.clone(),
            Step::Interval { start, end } => format!("{start} / {end}"),
        };
        line(if n == 0 { "times" } else { "" }, format!("{n}: {v}"));
    }
    line("time", format!("{} (time_scale {} s)", i.time.kind, i.time.scale_seconds));
    line(
        "size",
        format!(
            "{} compressed, {} decoded, ratio {:.2}",
            human_bytes(i.compressed_bytes),
            human_bytes(i.decoded_bytes),
            i.ratio
        ),
    );
    print(&o)
}
