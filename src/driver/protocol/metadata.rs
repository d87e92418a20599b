//! The metadata the GDAL adapter sets as it is: the lists of `rumi_gdal_metadata` (RUMI-domain
//! items, time items, subdatasets, band descriptions, CF attributes of the multidimensional
//! arrays), which parts of the file a metadata query needs (`rumi_gdal_parts`), and the
//! driver's own items (`rumi_gdal_driver_items`: capabilities, names, option lists as XML).

use std::cell::RefCell;
use std::ffi::c_char;
use std::panic::catch_unwind;
use std::ptr;
use std::sync::OnceLock;

use rumi::format::{Georef, ModelType, TimeKind, TimeStep};
use rumi::Error;

use crate::capi::{dataset, fail, guard_ptr, rumi_dataset};

/// `rumi_gdal_metadata` list: the RUMI-domain items known at open (COMPRESSION .. OPEN_MODE).
pub const RUMI_MD_FILE: u32 = 0;
/// `rumi_gdal_metadata` list: the RUMI-domain items of the time axis (TIME_TYPE, TIME_SCALE).
pub const RUMI_MD_TIME_AXIS: u32 = 1;
/// `rumi_gdal_metadata` list: the dataset's default-domain time items: TIME, or TIME_START and
/// TIME_END, of step `time`; TIME_COUNT and TIMES (every step) when `time` is negative.
pub const RUMI_MD_DATASET: u32 = 2;
/// `rumi_gdal_metadata` list: SUBDATASET_<n>_NAME / _DESC of each time step of the file `path`.
pub const RUMI_MD_SUBDATASETS: u32 = 3;
/// `rumi_gdal_metadata` list: band `band`'s BAND_TEXT and, when `time` is not negative (a band of
/// a Cube), TIME_INDEX and TIME or TIME_START and TIME_END of step `time`.
pub const RUMI_MD_BAND: u32 = 4;
/// `rumi_gdal_metadata` list: one string (not KEY=VALUE), band `band`'s description: its text, and
/// " @ <time step>" when `time` is not negative.
pub const RUMI_MD_DESCRIPTION: u32 = 5;
/// `rumi_gdal_metadata` list: the CF attributes of the multidimensional `time` array.
pub const RUMI_MD_CF_TIME: u32 = 6;
/// `rumi_gdal_metadata` list: the CF attributes of the `time_bounds` array; empty for instants.
pub const RUMI_MD_CF_TIME_BOUNDS: u32 = 7;
/// `rumi_gdal_metadata` list: the CF attributes (standard_name, units) of the multidimensional `y`
/// array: latitude for a geographic CRS, else the projection coordinate in the CRS's linear
/// unit, whose name (as OGR spells it) is `path`; empty without a CRS.
pub const RUMI_MD_CF_Y: u32 = 8;
/// `rumi_gdal_metadata` list: as `RUMI_MD_CF_Y`, of the `x` array (longitude).
pub const RUMI_MD_CF_X: u32 = 9;
/// `rumi_gdal_metadata` list: the multidimensional `data` array's `SCALE`, `OFFSET`, `UNIT` and
/// `NODATA`, from the PAM sidecar `<path>.aux.xml` (through VSI; none with `GDAL_PAM_ENABLED=NO`)
/// whose values the classic view reports per band: an item when every band of the time steps
/// shown (`time`, negative: all) agrees, none and a `WARNING` naming the bands when they differ
/// (one value for the array would be wrong for some bands), or when the sidecar is unreadable.
pub const RUMI_MD_DATA_PAM: u32 = 10;

/// The `RUMI_MD_DATA_PAM` items of sidecar `entries` (GDAL band `t * bands + b + 1`) over the
/// steps `shown`: each of scale, offset, unit and nodata once when every band agrees, else a
/// warning naming the first two bands that differ.
fn array_pam_items(
    entries: &[(u32, rumi::pam::BandPam)],
    bands: u32,
    shown: std::ops::Range<u32>,
    aux: &str,
) -> Vec<Vec<u8>> {
    let mut by_band = std::collections::HashMap::new();
    for (n, e) in entries {
        by_band.insert(*n, e); // a band listed twice: the later values, as GDAL reads them
    }
    let none = rumi::pam::BandPam::default();
    let all: Vec<(u32, &rumi::pam::BandPam)> = shown
        .flat_map(|t| (0..bands).map(move |b| t * bands + b + 1))
        .map(|n| (n, by_band.get(&n).copied().unwrap_or(&none)))
        .collect();
    // each value as GDAL's classic view reports it: scale 1 and offset 0 when absent
    type Get = fn(&rumi::pam::BandPam) -> Option<String>;
    let values: [(&str, &str, Get); 4] = [
        ("SCALE", "scale", |e| e.is_scaled().then(|| format!("{:?}", e.scale.unwrap_or(1.0)))),
        ("OFFSET", "offset", |e| e.is_scaled().then(|| format!("{:?}", e.offset.unwrap_or(0.0)))),
        ("UNIT", "unit", |e| e.unit.clone().filter(|u| !u.is_empty())),
        ("NODATA", "nodata", |e| e.nodata.as_ref().map(|v| v.trim().to_string())),
    ];
    let mut out = Vec::new();
    for (key, name, get) in values {
        let Some((n0, first)) = all.first().map(|(n, e)| (*n, get(e))) else { continue };
        match all.iter().find(|(_, e)| get(e) != first) {
            None => out.extend(first.map(|v| item(key, v))),
            Some((n, e)) => out.push(item(
                "WARNING",
                format!(
                    "{aux}: the bands' {name}s differ (GDAL band {n0}: {}, band {n}: {}); the data array, one \
                     array for every band, reports none: read the {name} of each band through the classic API",
                    first.as_deref().unwrap_or("none"),
                    get(e).as_deref().unwrap_or("none")
                ),
            )),
        }
    }
    out
}

thread_local! {
    static LIST: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Stores `items` NUL-separated, ending with an empty string, in the thread's list buffer.
fn hand_out(items: Vec<Vec<u8>>) -> *const c_char {
    LIST.with(|l| {
        let mut l = l.borrow_mut();
        l.clear();
        for item in items {
            l.extend(item.into_iter().filter(|&c| c != 0));
            l.push(0);
        }
        l.push(0);
        l.as_ptr().cast()
    })
}

fn item(key: &str, value: impl std::fmt::Display) -> Vec<u8> {
    format!("{key}={value}").into_bytes()
}

fn time_items(axis: &rumi::format::TimeAxis, t: usize, out: &mut Vec<Vec<u8>>) {
    match axis.step(t) {
        TimeStep::Interval(s, e) => {
            out.push(item("TIME_START", axis.iso(s)));
            out.push(item("TIME_END", axis.iso(e)));
        }
        TimeStep::Instant(s) => out.push(item("TIME", axis.iso(s))),
    }
}

fn metadata_items(ds: &rumi_dataset, kind: u32, band: u32, time: i64, path: &[u8]) -> Result<Vec<Vec<u8>>, Error> {
    let mut out = Vec::new();
    if kind == RUMI_MD_FILE {
        let l = ds.reader.layout();
        let unit = l.frame_unit.value();
        out.push(item("COMPRESSION", "OPENZL"));
        out.push(item("FRAME_UNIT", unit));
        out.push(item("FRAME_LAYOUT", l.frame_unit.describe(u32::from(l.bands))));
        out.push(item("TILE_WIDTH", l.tile_width));
        out.push(item("TILE_LENGTH", l.tile_length));
        out.push(item("FRAME_COUNT", ds.reader.frame_count()));
        out.push(item("BAND_COUNT", l.bands));
        out.push(item("TIME_COUNT", l.times));
        out.push(item("SAMPLE_ENCODING", l.encoding.name()));
        out.push(item("OPEN_MODE", if ds.stateless { "STATELESS" } else { "VALIDATED" }));
        return Ok(out);
    }
    if kind == RUMI_MD_CF_Y || kind == RUMI_MD_CF_X {
        return cf_xy_items(ds, kind == RUMI_MD_CF_Y, path);
    }
    if kind == RUMI_MD_DATA_PAM {
        let l = ds.reader.layout();
        let (bands, times) = (u32::from(l.bands), l.times);
        let shown = match u32::try_from(time) {
            Ok(t) if t < times => t..t + 1,
            Ok(_) => return Err(Error::Usage(format!("time step {time} does not exist (T = {times})"))),
            Err(_) => 0..times,
        };
        let aux = [path, b".aux.xml"].concat();
        let text =
            if crate::driver::vsi::pam_enabled() { crate::driver::vsi::ingest_bytes(&aux, 1 << 24) } else { None };
        let aux = String::from_utf8_lossy(&aux).into_owned();
        return Ok(match text.map(|t| rumi::pam::parse(&String::from_utf8_lossy(&t))) {
            None => Vec::new(),
            Some(Err(e)) => {
                vec![item("WARNING", format!("{aux}: {e}; the data array reports no scale, offset, unit or nodata"))]
            }
            Some(Ok(entries)) => array_pam_items(&entries, bands, shown, &aux),
        });
    }
    let trailer = ds.reader.trailer()?;
    let axis = &trailer.time;
    let steps = axis.steps();
    let step = usize::try_from(time).ok();
    if step.is_some_and(|t| t >= steps) {
        return Err(Error::Usage(format!("time step {time} does not exist (T = {steps})")));
    }
    let text = || -> Result<Vec<u8>, Error> {
        let texts = ds.band_texts()?;
        let t = texts.get(band as usize);
        t.map(|t| t.to_bytes().to_vec())
            .ok_or_else(|| Error::Usage(format!("band {band} does not exist (B = {})", texts.len())))
    };
    let interval = matches!(axis.kind, TimeKind::Interval);
    let units = if axis.scale == 86400 { "days since 1970-01-01" } else { "seconds since 1970-01-01T00:00:00Z" };
    match (kind, step) {
        (RUMI_MD_CF_TIME, _) => {
            out.push(item("standard_name", "time"));
            out.push(item("long_name", if interval { "start of the time step" } else { "time" }));
            out.push(item("units", units));
            out.push(item("calendar", "proleptic_gregorian"));
            out.push(item("axis", "T"));
            if interval {
                out.push(item("bounds", "time_bounds"));
            }
        }
        (RUMI_MD_CF_TIME_BOUNDS, _) if interval => {
            out.push(item("long_name", "start and end (exclusive) of the time step"));
            out.push(item("units", units));
            out.push(item("calendar", "proleptic_gregorian"));
        }
        (RUMI_MD_CF_TIME_BOUNDS, _) => {}
        (RUMI_MD_TIME_AXIS, _) => {
            out.push(item("TIME_TYPE", if interval { "INTERVAL" } else { "INSTANT" }));
            out.push(item("TIME_SCALE", axis.scale));
        }
        (RUMI_MD_DATASET, Some(t)) => time_items(axis, t, &mut out),
        (RUMI_MD_DATASET, None) => {
            out.push(item("TIME_COUNT", steps));
            out.push(item("TIMES", (0..steps).map(|t| axis.step_iso(t)).collect::<Vec<_>>().join(",")));
        }
        (RUMI_MD_SUBDATASETS, _) => {
            let bands = ds.reader.layout().bands;
            for t in 0..steps {
                out.push(
                    [format!("SUBDATASET_{}_NAME=RUMI:\"", t + 1).as_bytes(), path, format!("\":{t}").as_bytes()]
                        .concat(),
                );
                let desc = format!("SUBDATASET_{}_DESC=Time step {t} ({}) of ", t + 1, axis.step_iso(t));
                out.push([desc.as_bytes(), path, format!(": {bands} band(s)").as_bytes()].concat());
            }
        }
        (RUMI_MD_BAND, _) => {
            out.push([b"BAND_TEXT=".as_slice(), &text()?].concat());
            if let Some(t) = step {
                out.push(item("TIME_INDEX", t));
                time_items(axis, t, &mut out);
            }
        }
        (RUMI_MD_DESCRIPTION, None) => out.push(text()?),
        (RUMI_MD_DESCRIPTION, Some(t)) => out.push([text()?, format!(" @ {}", axis.step_iso(t)).into_bytes()].concat()),
        _ => return Err(Error::Usage(format!("rumi_gdal_metadata: unknown list {kind}"))),
    }
    Ok(out)
}

/// The CF attributes of the y (`is_y`) or x coordinate array; `unit`: the CRS's linear unit
/// as OGR names it (CF spells metre "m", foot "ft", US survey foot "US_survey_foot").
fn cf_xy_items(ds: &rumi_dataset, is_y: bool, unit: &[u8]) -> Result<Vec<Vec<u8>>, Error> {
    let (axis, geographic, degrees) =
        if is_y { ("y", "latitude", "degrees_north") } else { ("x", "longitude", "degrees_east") };
    let unit = String::from_utf8_lossy(unit);
    let cf_unit = match unit.to_ascii_lowercase().as_str() {
        "" | "metre" | "meter" => "m",
        "foot" => "ft",
        "us survey foot" => "US_survey_foot",
        _ => &unit,
    };
    Ok(match ds.reader.georef()? {
        Georef::Undefined { .. } => Vec::new(),
        Georef::Epsg { model: ModelType::Geographic, .. } => {
            vec![item("standard_name", geographic), item("units", degrees)]
        }
        Georef::Epsg { .. } => {
            vec![item("standard_name", format!("projection_{axis}_coordinate")), item("units", cf_unit)]
        }
    })
}

/// A list of metadata texts the GDAL adapter sets as they are, `kind` a `RUMI_MD_*` value:
/// NUL-terminated `KEY=VALUE` strings one after another, ending with an empty string. `band`
/// and `time` select a band and a time step (`time` negative: none), `path` (NULL: "") is the
/// file's name in the subdataset texts (the CRS's linear unit in the x and y lists). The list stays valid until the next `rumi_gdal_metadata`
/// call on the same thread. All lists but `RUMI_MD_FILE` read the trailer on first use. NULL,
/// with `rumi_last_error`, on failure.
///
/// # Safety
/// `ds` must be a live dataset; `path` NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn rumi_gdal_metadata(
    ds: *const rumi_dataset,
    kind: u32,
    band: u32,
    time: i64,
    path: *const c_char,
) -> *const c_char {
    guard_ptr("rumi_gdal_metadata", || {
        // SAFETY: the caller guarantees `ds` is NULL or live.
        let Ok(ds) = (unsafe { dataset(ds, "rumi_gdal_metadata") }) else { return ptr::null() };
        // SAFETY: NULL or NUL-terminated per the contract.
        let path = if path.is_null() { &[][..] } else { unsafe { std::ffi::CStr::from_ptr(path) }.to_bytes() };
        match metadata_items(ds, kind, band, time, path) {
            Ok(items) => hand_out(items),
            Err(e) => {
                fail(e);
                ptr::null()
            }
        }
    })
}

/// `rumi_gdal_parts` bit: the query needs the georeferencing block.
pub const RUMI_PART_GEOREF: u32 = 1;
/// `rumi_gdal_parts` bit: the query needs the trailer (band texts, time coordinates).
pub const RUMI_PART_TRAILER: u32 = 2;

fn is_default_domain(domain: &str) -> bool {
    domain.is_empty()
}

/// Whether metadata item `name` of `domain` is one the trailer sets.
fn is_trailer_item(name: Option<&str>, domain: &str) -> bool {
    let name = name.map(str::to_ascii_uppercase);
    match domain.to_ascii_uppercase().as_str() {
        "" => name.is_some_and(|n| n.starts_with("TIME") || n == "BAND_TEXT"),
        "RUMI" => name.is_some_and(|n| n == "TIME_TYPE" || n == "TIME_SCALE"),
        "SUBDATASETS" => true,
        _ => false,
    }
}

/// Which parts of the file (`RUMI_PART_*` bits) the driver reads, on first use, before it
/// answers a metadata query: of the dataset (`band` 0) or of a band (1), for the whole domain
/// `domain` (NULL: the default domain) when `name` is NULL, else for item `name`. The
/// georeferencing block sets AREA_OR_POINT (default domain of the dataset); the trailer the
/// time items (TIME*, BAND_TEXT; TIME_TYPE and TIME_SCALE in the RUMI domain) and the
/// subdatasets. So a query of what the open already knows (OPEN_MODE in the RUMI domain,
/// after a pixel read) costs no request.
///
/// # Safety
/// `name` and `domain` must be NULL or NUL-terminated strings.
#[no_mangle]
pub unsafe extern "C" fn rumi_gdal_parts(band: u32, name: *const c_char, domain: *const c_char) -> u32 {
    let r = catch_unwind(|| {
        // SAFETY: NULL or NUL-terminated per the contract.
        let text = |p: *const c_char| (!p.is_null()).then(|| unsafe { std::ffi::CStr::from_ptr(p) }.to_string_lossy());
        let (name, domain) = (text(name), text(domain).unwrap_or_default());
        let (name, default) = (name.as_deref(), is_default_domain(&domain));
        let trailer_domain = default || ["SUBDATASETS", "RUMI"].iter().any(|d| domain.eq_ignore_ascii_case(d));
        let trailer = match (band, name) {
            (0, None) => trailer_domain,
            (0, Some(_)) => is_trailer_item(name, &domain),
            (_, None) => default,
            (_, Some(_)) => default && is_trailer_item(name, &domain),
        };
        let georef = band == 0 && default && name.is_none_or(|n| n.eq_ignore_ascii_case("AREA_OR_POINT"));
        (u32::from(georef) * RUMI_PART_GEOREF) | (u32::from(trailer) * RUMI_PART_TRAILER)
    });
    r.unwrap_or(RUMI_PART_GEOREF | RUMI_PART_TRAILER)
}

static CONFIG_OPTIONS: &std::ffi::CStr = c"<ConfigOptionList>  <Option name='RUMI_MAX_FRAME_BYTES' type='int' default='268435456' description='Largest decoded frame, in bytes (also bounds a compressed frame)'/>  <Option name='RUMI_MAX_FRAMES' type='int' default='16777216' description='Largest frame count N'/>  <Option name='RUMI_MAX_TRAILER_BYTES' type='int' default='67108864' description='Largest trailer (band texts and time coordinates), in bytes'/>  <Option name='RUMI_MAX_TIME_COORDS' type='int' default='4194304' description='Largest number of time coordinates C'/>  <Option name='RUMI_MAX_BANDS' type='int' default='65535' description='Largest band count B'/>  <Option name='RUMI_MAX_READ_BYTES' type='int' default='4294967296' description='Largest window one read may decode into memory, in bytes'/></ConfigOptionList>";

static OPEN_OPTIONS: &std::ffi::CStr = c"<OpenOptionList>  <Option name='HEADER' type='string' description='External header blob for a stateless open (any GDAL path, e.g. /vsis3/...), or NONE to parse and validate the file itself. Default: the sidecar file.rumi.header when it exists, else NONE'/>  <Option name='PROMOTE' type='string-select' default='NONE' description='Encodings GDAL has no data type for (float16, bfloat16, complex32, float8) are refused unless FLOAT32: then their values are converted exactly to Float32 (CFloat32 for complex32)'>    <Value>NONE</Value>    <Value>FLOAT32</Value>  </Option>  <Option name='MAX_FRAME_MB' type='int' default='256' description='Largest decoded frame to accept, in MiB (overrides the RUMI_MAX_FRAME_BYTES configuration option)'/>  <Option name='NUM_THREADS' type='string' description='Threads decoding the frames of a multi-block read: a number or ALL_CPUS. Default: the GDAL_NUM_THREADS configuration option, else 1'/>  <Option name='LAZY' type='boolean' default='NO' description='YES: a stateless open of a RUMI:&quot;...&quot; name over a network file system sends no request (the georeferencing block is read when first asked for, and a server without HTTP Range support fails only then). NO: that block is read at open, so that such a server fails the open'/></OpenOptionList>";

/// The GDAL driver's metadata items (`KEY=VALUE`, NUL-separated, ending with an empty
/// string, as `rumi_gdal_metadata`), a static list: its capabilities, names, version, and option
/// lists as GDAL's XML (DMD_RUMI_CONFIG_OPTIONS: the resource limits of docs/reliability.md,
/// read at every open, MAX_FRAME_MB overriding the first; DMD_OPENOPTIONLIST).
#[no_mangle]
pub extern "C" fn rumi_gdal_driver_items() -> *const c_char {
    static ITEMS: OnceLock<Vec<u8>> = OnceLock::new();
    let r = catch_unwind(|| {
        ITEMS
            .get_or_init(|| {
                let version = concat!("DMD_PLUGIN_VERSION=", env!("CARGO_PKG_VERSION"));
                let items = [
                    "DCAP_RASTER=YES",
                    "DCAP_MULTIDIM_RASTER=YES",
                    "DCAP_OPEN=YES",
                    "DMD_LONGNAME=rumi stateless raster storage",
                    "DMD_EXTENSION=rumi",
                    "DMD_EXTENSIONS=rumi",
                    "DCAP_VIRTUALIO=YES",
                    "DMD_SUBDATASETS=YES",
                    "DMD_CONNECTION_PREFIX=RUMI:",
                    version,
                ];
                let xml = [("DMD_RUMI_CONFIG_OPTIONS=", CONFIG_OPTIONS), ("DMD_OPENOPTIONLIST=", OPEN_OPTIONS)];
                let mut list: Vec<u8> = items.iter().flat_map(|i| i.bytes().chain([0])).collect();
                list.extend(xml.iter().flat_map(|(k, v)| k.bytes().chain(v.to_bytes().iter().copied()).chain([0])));
                list.push(0);
                list
            })
            .as_ptr()
            .cast()
    });
    r.unwrap_or(ptr::null())
}
