//! A GDAL raster as a rumi source: its shape, sample encoding, georeferencing (EPSG CRS +
//! affine, spec "Georeferencing"), band texts and acquisition time, with every reason it cannot
//! be stored collected before anything is written; then tile rows read on demand.

use std::ffi::{c_char, c_int, CStr, CString, OsStr};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use gdal::errors::GdalError;
use gdal::spatial_ref::SpatialRef;
use gdal::{Dataset, GdalOpenFlags, Metadata};
use gdal_sys::GDALDataType;
use rumi::format::{GeoTransform, Georef, ModelType, RasterType, SampleEncoding};
use rumi::pam::BandPam;

use crate::fail::{Failure, Res};
use crate::times::MetaTime;
use crate::WriteOpts;

/// GDAL errors are returned through the API and become part of our messages; GDAL warnings
/// are shown as warnings. Nothing else is printed by GDAL itself.
pub fn quiet_gdal_errors() {
    gdal::config::set_error_handler(|class, _no, msg| {
        if class == gdal::errors::CplErrType::Warning {
            crate::fail::say(&format!("warning: GDAL: {msg}"));
        }
    });
}

/// An opened, inspected source that rumi can store.
pub struct Source {
    /// the path given
    pub path: PathBuf,
    ds: Dataset,
    /// X
    pub width: u32,
    /// Y
    pub length: u32,
    /// B
    pub bands: u16,
    /// the rumi sample encoding
    pub encoding: SampleEncoding,
    /// the GDAL type samples are read as (same bits as `encoding`)
    gdal_type: GDALDataType::Type,
    /// GDAL's name of that type (plus PIXELTYPE), for messages
    pub type_name: String,
    /// the georeferencing to store
    pub georef: Georef,
    /// the GDAL geotransform as given, if any (for co-registration checks)
    pub geotransform: Option<[f64; 6]>,
    /// the band texts to store
    pub band_texts: Vec<String>,
    /// the acquisition time in the metadata, if any
    pub meta_time: Option<MetaTime>,
    /// warnings and notes for the user
    pub notes: Vec<String>,
    /// what GDAL's PAM sidecar keeps of each band: its nodata value, colour interpretation
    /// and colour table
    pub pam: Vec<BandPam>,
    /// "the nodata value -9999 of band 0 of SRC", when there is one
    pub nodata_note: Option<String>,
    /// the files GDAL reads for this source (the path itself, sidecars, VRT sources...)
    pub files: Vec<PathBuf>,
}

/// Maps a GDAL data type name (and PIXELTYPE) to a rumi encoding, or says why it has none.
fn encoding_for(type_name: &str, signed_byte: bool) -> Result<SampleEncoding, String> {
    use SampleEncoding::*;
    Ok(match type_name {
        "Byte" if signed_byte => I8,
        "Byte" => U8,
        "Int8" => I8,
        "UInt16" => U16,
        "Int16" => I16,
        "UInt32" => U32,
        "Int32" => I32,
        "UInt64" => U64,
        "Int64" => I64,
        "Float16" => F16,
        "Float32" => F32,
        "Float64" => F64,
        "CFloat16" => C32,
        "CFloat32" => C64,
        "CFloat64" => C128,
        "CInt16" | "CInt32" => {
            let wider = if type_name == "CInt16" { "CFloat32" } else { "CFloat64" };
            return Err(format!(
                "its samples are complex integers ({type_name}), which have no rumi sample encoding \
                 (rumi's complex encodings are IEEE floating point); convert them first, e.g. \
                 `gdal_translate -ot {wider} SRC tmp.tif` (exact for {type_name})"
            ));
        }
        other => return Err(format!("its GDAL data type {other:?} has no rumi sample encoding")),
    })
}

fn type_name(t: GDALDataType::Type) -> String {
    // SAFETY: GDALGetDataTypeName returns a pointer to a static string or null.
    let p = unsafe { gdal_sys::GDALGetDataTypeName(t) };
    if p.is_null() {
        format!("type {t}")
    } else {
        // SAFETY: non-null, NUL-terminated static string.
        unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
    }
}

/// Formats a list of 0-based band indices (as GDAL's RUMI driver and rumi number them):
/// `band 2` or `bands 0, 1, 2`.
fn band_list(bands: &[usize]) -> String {
    let list: Vec<String> = bands.iter().map(|b| b.to_string()).collect();
    if list.len() == 1 {
        format!("band {}", list[0])
    } else {
        format!("bands {}", list.join(", "))
    }
}

/// The EPSG code and model type of a CRS, or why rumi cannot store it.
fn epsg_of(srs: &SpatialRef) -> Result<(u16, ModelType), String> {
    let name = srs.name().unwrap_or_else(|| "unnamed".into());
    let kind = if srs.is_compound() {
        Some("a compound CRS")
    } else if srs.is_vertical() {
        Some("a vertical CRS")
    } else if srs.is_geocentric() {
        Some("a geocentric CRS")
    } else if srs.is_local() {
        Some("a local (engineering) CRS")
    } else if srs.is_derived_geographic() {
        Some("a derived geographic CRS")
    } else if !srs.is_projected() && !srs.is_geographic() {
        Some("neither a projected nor a geographic CRS")
    } else {
        None
    };
    if let Some(kind) = kind {
        return Err(format!(
            "its CRS {name:?} is {kind}; rumi stores only a 2-D projected or geographic CRS by EPSG code"
        ));
    }
    let code = identify_epsg(srs).ok_or_else(|| {
        let candidates = epsg_candidates(srs);
        let hint = if candidates.is_empty() {
            String::new()
        } else {
            format!(" (closest EPSG matches, not exact: {})", candidates.join(", "))
        };
        format!(
            "its CRS {name:?} has no EPSG code{hint}; rumi stores a CRS only as an EPSG code. Reproject \
             (gdalwarp -t_srs EPSG:<code>), assign an equivalent code (gdal_translate -a_srs EPSG:<code>), \
             or pass --no-georef"
        )
    })?;
    let epsg = u16::try_from(code)
        .ok()
        .filter(|c| (1024..=32766).contains(c))
        .ok_or_else(|| format!("its CRS is EPSG:{code}, outside the range 1024..=32766 rumi can store"))?;
    // The type comes from the EPSG registry (PROJ database), never from the number.
    let registry = SpatialRef::from_epsg(u32::from(epsg))
        .map_err(|e| format!("EPSG:{epsg} is not in the EPSG registry known to PROJ ({e})"))?;
    let model = if registry.is_projected() {
        ModelType::Projected
    } else if registry.is_geographic() && !registry.is_derived_geographic() {
        ModelType::Geographic
    } else {
        return Err(format!("EPSG:{epsg} is neither a projected nor a geographic CRS in the EPSG registry"));
    };
    if registry.axes_count() != 2 {
        return Err(format!("EPSG:{epsg} is a {}-D CRS; rumi stores only 2-D CRSs", registry.axes_count()));
    }
    if registry.is_projected() != srs.is_projected() {
        return Err(format!("the source CRS {name:?} and EPSG:{epsg} disagree on being projected"));
    }
    Ok((epsg, model))
}

/// Checks that `epsg` is defined by the EPSG registry (PROJ's database, through GDAL's OSR) as
/// a 2-D CRS of the model type the file declares (spec "Georeferencing"). The core validator
/// checks only the range; this is the registry half, which needs PROJ.
pub fn epsg_defined(epsg: u16, model: ModelType) -> Result<(), String> {
    let srs = SpatialRef::from_epsg(u32::from(epsg))
        .map_err(|_| format!("EPSG:{epsg} is not defined by the EPSG registry (PROJ's database has no such CRS)"))?;
    let registry = if srs.is_projected() {
        ModelType::Projected
    } else if srs.is_geographic() && !srs.is_derived_geographic() {
        ModelType::Geographic
    } else {
        return Err(format!("EPSG:{epsg} is neither a projected nor a geographic CRS in the EPSG registry"));
    };
    if srs.axes_count() != 2 {
        return Err(format!(
            "EPSG:{epsg} is a {}-D CRS in the EPSG registry; rumi stores only 2-D CRSs",
            srs.axes_count()
        ));
    }
    if registry != model {
        let name = |m: ModelType| if m == ModelType::Projected { "projected" } else { "geographic" };
        return Err(format!(
            "the file declares EPSG:{epsg} as a {} CRS, but the EPSG registry defines it as {}",
            name(model),
            name(registry)
        ));
    }
    Ok(())
}

/// EPSG code of the CRS root: its own authority, else OSR AutoIdentifyEPSG, else the single
/// 100 % match of OSR FindMatches.
fn identify_epsg(srs: &SpatialRef) -> Option<i32> {
    let epsg_root =
        |s: &SpatialRef| s.auth_name().filter(|a| a.eq_ignore_ascii_case("EPSG")).and_then(|_| s.auth_code().ok());
    if let Some(c) = epsg_root(srs) {
        return Some(c);
    }
    let mut copy = srs.clone();
    if copy.auto_identify_epsg().is_ok() {
        if let Some(c) = epsg_root(&copy) {
            return Some(c);
        }
    }
    let matches = find_matches(srs);
    let exact: Vec<i32> = matches.iter().filter(|m| m.1 == 100).filter_map(|m| m.0).collect();
    (exact.len() == 1).then(|| exact[0])
}

/// OSR FindMatches: `(EPSG code if any, confidence %)`, best first.
fn find_matches(srs: &SpatialRef) -> Vec<(Option<i32>, i32)> {
    let mut n: c_int = 0;
    let mut conf: *mut c_int = std::ptr::null_mut();
    // SAFETY: the SRS handle is live for the call; GDAL allocates the returned array and the
    // confidence array, which are freed below with the matching functions.
    let arr = unsafe { gdal_sys::OSRFindMatches(srs.to_c_hsrs(), std::ptr::null_mut(), &mut n, &mut conf) };
    let mut out = Vec::new();
    if !arr.is_null() {
        for i in 0..usize::try_from(n).unwrap_or(0) {
            // SAFETY: `arr` holds `n` handles and `conf` `n` ints (when non-null).
            let (h, c) = unsafe { (*arr.add(i), if conf.is_null() { 0 } else { *conf.add(i) }) };
            if h.is_null() {
                continue;
            }
            // SAFETY: `h` is a live handle owned by `arr`; the strings are copied at once.
            let code = unsafe {
                let auth = gdal_sys::OSRGetAuthorityName(h, std::ptr::null());
                let code = gdal_sys::OSRGetAuthorityCode(h, std::ptr::null());
                if !auth.is_null()
                    && !code.is_null()
                    && CStr::from_ptr(auth).to_string_lossy().eq_ignore_ascii_case("EPSG")
                {
                    CStr::from_ptr(code).to_string_lossy().parse::<i32>().ok()
                } else {
                    None
                }
            };
            out.push((code, c));
        }
        // SAFETY: frees the array returned by OSRFindMatches, once.
        unsafe { gdal_sys::OSRFreeSRSArray(arr) };
    }
    if !conf.is_null() {
        // SAFETY: the confidence array was allocated by GDAL with CPLMalloc.
        unsafe { gdal_sys::VSIFree(conf.cast()) };
    }
    out
}

fn epsg_candidates(srs: &SpatialRef) -> Vec<String> {
    find_matches(srs).into_iter().filter_map(|(c, p)| c.map(|c| format!("EPSG:{c} ({p}%)"))).take(3).collect()
}

/// Band texts from the descriptions: a blank one becomes `band N`; texts shared by several
/// bands get ` (band N)` appended (N is the 0-based band index, as everywhere in rumi).
/// Errors if that still leaves duplicates.
fn derive_band_texts(descriptions: &[String]) -> Result<(Vec<String>, Option<String>), String> {
    let mut texts: Vec<String> = descriptions
        .iter()
        .enumerate()
        .map(|(i, d)| if d.trim().is_empty() { format!("band {i}") } else { d.clone() })
        .collect();
    let dup: Vec<usize> = (0..texts.len()).filter(|&i| texts.iter().filter(|t| **t == texts[i]).count() > 1).collect();
    let mut note = None;
    if !dup.is_empty() {
        for &i in &dup {
            texts[i] = format!("{} (band {i})", texts[i]);
        }
        note = Some(format!(
            "band descriptions of {} are not unique; \" (band N)\" appended to make them so (use --band-text to choose)",
            band_list(&dup)
        ));
    }
    check_texts(&texts).map_err(|e| format!("{e}; name the bands with --band-text"))?;
    Ok((texts, note))
}

/// The trailer's rules on band texts (spec "Band descriptions").
pub fn check_texts(texts: &[String]) -> Result<(), String> {
    for (i, t) in texts.iter().enumerate() {
        if t.is_empty() {
            return Err(format!("the text of band {i} is empty"));
        }
        if t.contains('\0') {
            return Err(format!("the text of band {i} contains a NUL byte"));
        }
        if t.len() > usize::from(u16::MAX) {
            return Err(format!("the text of band {i} is {} bytes, more than 65535", t.len()));
        }
        if let Some(j) = texts[..i].iter().position(|o| o == t) {
            return Err(format!("bands {j} and {i} have the same text {t:?}"));
        }
    }
    Ok(())
}

fn format_value(v: f64) -> String {
    if v.is_finite() && v == v.trunc() && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}

impl Source {
    /// Opens and inspects `path`; fails with every reason it cannot be stored as one message.
    pub fn open(path: &Path, opts: &WriteOpts) -> Res<Self> {
        let ds = open_dataset(path, &opts.open_options)?;
        let mut problems: Vec<String> = Vec::new();
        let mut notes: Vec<String> = Vec::new();
        let count = ds.raster_count();
        if count == 0 {
            let subs = ds.metadata_domain("SUBDATASETS").unwrap_or_default();
            let hint = subs
                .iter()
                .find_map(|kv| kv.strip_prefix("SUBDATASET_1_NAME="))
                .map(|n| format!("; it has subdatasets: convert one of them, e.g. {n:?}"))
                .unwrap_or_default();
            return Err(Failure(format!("{} has no raster bands{hint}", path.display())));
        }
        let bands = u16::try_from(count)
            .map_err(|_| Failure(format!("{} has {count} bands, more than 65535", path.display())))?;
        let (x, y) = ds.raster_size();
        let (width, length) = (u32::try_from(x).unwrap_or(0), u32::try_from(y).unwrap_or(0));
        let facts = BandFacts::of(&ds, path, count)?;
        let (encoding, gdal_type, type_name) = facts.sample_encoding(&mut problems);
        let nodata_note = facts.nodata_and_masks(path, opts, &mut notes, &mut problems);
        let (georef, geotransform) = source_georef(&ds, path, opts, &mut notes, &mut problems);
        let band_texts = source_band_texts(&facts.descriptions, path, opts, count, &mut notes, &mut problems);
        let meta_time = MetaTime::of(|key, domain| ds.metadata_item(key, domain));
        let files = file_list(&ds, path);
        if !problems.is_empty() {
            let msg = if problems.len() == 1 {
                format!("{} cannot be stored as rumi: {}", path.display(), problems[0])
            } else {
                format!("{} cannot be stored as rumi:\n  - {}", path.display(), problems.join("\n  - "))
            };
            return Err(Failure(msg));
        }
        Ok(Source {
            path: path.to_path_buf(),
            ds,
            width,
            length,
            bands,
            encoding,
            gdal_type,
            type_name,
            georef,
            geotransform: geotransform.map(|g| [g[0], g[1], g[2], g[3], g[4], g[5]]),
            band_texts,
            meta_time,
            notes,
            pam: facts.pam(),
            nodata_note,
            files,
        })
    }

    /// Reads rows `y0 .. y0 + h` of every band into `out` as `[b][y][x]` little-endian samples.
    pub fn read_rows(&self, y0: u32, h: u32, out: &mut [u8]) -> Res<()> {
        let bps = self.encoding.decoded_bytes();
        let line = bps as i64 * i64::from(self.width);
        let plane = line * i64::from(h);
        let need = plane as u128 * u128::from(self.bands);
        if out.len() as u128 != need {
            return Err(Failure(format!("internal error: row buffer is {} bytes, {need} needed", out.len())));
        }
        let mut band_map: Vec<c_int> = (1..=c_int::from(self.bands)).collect();
        let to_int = |v: u32| c_int::try_from(v).map_err(|_| Failure("raster too large for GDAL".into()));
        let (xs, ys, hh) = (to_int(self.width)?, to_int(y0)?, to_int(h)?);
        // SAFETY: `out` holds exactly B * h * X samples of `gdal_type` (checked above) laid out
        // with the pixel, line and band spacings given; the band map has B entries.
        let err = unsafe {
            gdal_sys::GDALDatasetRasterIOEx(
                self.ds.c_dataset(),
                gdal_sys::GDALRWFlag::GF_Read,
                0,
                ys,
                xs,
                hh,
                out.as_mut_ptr().cast(),
                xs,
                hh,
                self.gdal_type,
                c_int::from(self.bands),
                band_map.as_mut_ptr(),
                bps as i64,
                line,
                plane,
                std::ptr::null_mut(),
            )
        };
        if err != gdal_sys::CPLErr::CE_None {
            return Err(Failure(format!(
                "{}: reading rows {y0}..{}: {}",
                self.path.display(),
                y0 + h,
                last_gdal_error()
            )));
        }
        if cfg!(target_endian = "big") {
            let w = self.encoding.element_width();
            for chunk in out.chunks_exact_mut(w) {
                chunk.reverse();
            }
        }
        Ok(())
    }

    /// The CRS as text: `EPSG:32631 (projected)` or `no CRS`.
    pub fn crs_text(&self) -> String {
        match self.georef {
            Georef::Undefined { .. } => "no CRS".into(),
            Georef::Epsg { epsg, model, .. } => {
                format!("EPSG:{epsg} ({})", if model == ModelType::Projected { "projected" } else { "geographic" })
            }
        }
    }
}

/// The georeferencing of a dataset (spec "Georeferencing"): an EPSG CRS with the affine
/// transform, or undefined when there is neither a geotransform nor a CRS.
fn georef_of(
    gt: Option<[f64; 6]>,
    srs: Option<&SpatialRef>,
    gcps: usize,
    raster_type: RasterType,
) -> Result<Georef, String> {
    let gcp_only = || {
        format!(
            "it is georeferenced only by {gcps} ground control points (no geotransform); rumi stores an affine transform \
             with an EPSG CRS. Warp it first (gdalwarp -t_srs EPSG:<code> SRC out.tif) or pass --no-georef"
        )
    };
    let (gt, srs) = match (gt, srs) {
        (None, None) if gcps > 0 => return Err(gcp_only()),
        (None, None) => return Ok(Georef::Undefined { raster_type }),
        (None, Some(_)) if gcps > 0 => return Err(gcp_only()),
        (None, Some(_)) => {
            return Err("it has a CRS but no geotransform; pass --no-georef to store it without georeferencing".into())
        }
        (Some(_), None) => {
            return Err(
                "it has a geotransform but no CRS; assign one (gdal_translate -a_srs EPSG:<code>) or pass --no-georef"
                    .into(),
            )
        }
        (Some(gt), Some(srs)) => (gt, srs),
    };
    let (epsg, model) = epsg_of(srs)?;
    // GDAL's geotransform maps pixel corners; a PixelIsPoint file records pixel centres (the
    // core's one conversion, GeoTransform, shifts by half a pixel)
    let affine = GeoTransform(gt).to_affine(raster_type).map_err(|e| match e {
        rumi::Error::Usage(why) => format!("its {why}"),
        e => e.to_string(),
    })?;
    Ok(Georef::Epsg { model, raster_type, epsg, affine })
}

/// The file a RUMI driver dataset name refers to (`RUMI:"path":t`, `RUMI:path:t` or
/// `RUMI:path` give `path`, read as the GDAL driver reads it: the core's `rumi::name`); other
/// names, and names the driver would refuse, give `None`.
pub fn rumi_path(name: &OsStr) -> Option<PathBuf> {
    let parsed = rumi::name::parse(name.as_bytes())?.ok()?;
    let is_file = |p: &[u8]| Path::new(OsStr::from_bytes(p)).is_file();
    let (path, _) = parsed.resolve(is_file);
    (!path.is_empty()).then(|| PathBuf::from(OsStr::from_bytes(path)))
}

/// Opens `path` (any bytes: the name is passed to GDAL as given, not as UTF-8) read-only with
/// the open options; a failure says why.
fn open_dataset(path: &Path, open_options: &[String]) -> Res<Dataset> {
    let name = CString::new(path.as_os_str().as_bytes())
        .map_err(|_| Failure(format!("{}: the path contains a NUL byte", path.display())))?;
    let options: Vec<CString> = open_options
        .iter()
        .map(|o| CString::new(o.as_str()).map_err(|_| Failure(format!("--oo {o:?} contains a NUL byte"))))
        .collect::<Res<_>>()?;
    let mut list: Vec<*const c_char> = options.iter().map(|o| o.as_ptr()).collect();
    list.push(std::ptr::null());
    gdal::DriverManager::register_all();
    let flags = GdalOpenFlags::GDAL_OF_RASTER | GdalOpenFlags::GDAL_OF_READONLY | GdalOpenFlags::GDAL_OF_VERBOSE_ERROR;
    // SAFETY: NUL-terminated name and a null-terminated list of NUL-terminated options, all
    // alive for the call; GDAL copies what it keeps.
    let h =
        unsafe { gdal_sys::GDALOpenEx(name.as_ptr(), flags.bits(), std::ptr::null(), list.as_ptr(), std::ptr::null()) };
    if h.is_null() {
        return Err(Failure(format!("cannot open {} with GDAL: {}", path.display(), why_not_opened(path))));
    }
    // SAFETY: a non-null dataset handle returned by GDALOpenEx, owned from here on.
    Ok(unsafe { Dataset::from_c_dataset(h) })
}

/// Why GDAL could not open `path`: the file's own error first (missing, unreadable), then a
/// RUMI driver that is not loaded, then GDAL's message.
fn why_not_opened(path: &Path) -> String {
    let gdal = last_gdal_error();
    let bytes = path.as_os_str().as_bytes();
    // a plain path, not a driver-prefixed name (NETCDF:...) or a /vsi path
    let plain = !bytes.starts_with(b"/vsi") && !bytes.split(|&c| c == b'/').next().is_some_and(|h| h.contains(&b':'));
    let file = rumi_path(path.as_os_str()).or_else(|| plain.then(|| path.to_path_buf()));
    if let Some(file) = file {
        if let Err(e) = std::fs::File::open(&file) {
            return format!("{}: {e}", file.display());
        }
    }
    if rumi_path(path.as_os_str()).is_some() {
        let driver = CString::new("RUMI").unwrap_or_default();
        // SAFETY: NUL-terminated name; the returned handle is only compared with null.
        if unsafe { gdal_sys::GDALGetDriverByName(driver.as_ptr()) }.is_null() {
            return "GDAL's RUMI driver is not loaded (install gdal_RUMI.so in GDAL's plugin folder or point \
                    GDAL_DRIVER_PATH at it)"
                .into();
        }
    }
    gdal
}

/// The files GDAL reads for the dataset (GDALGetFileList), plus `path` and the file a
/// `RUMI:` name refers to.
fn file_list(ds: &Dataset, path: &Path) -> Vec<PathBuf> {
    let mut files = vec![path.to_path_buf()];
    files.extend(rumi_path(path.as_os_str()));
    // SAFETY: the dataset handle is live; the returned list is a NULL-terminated array of
    // NUL-terminated strings that we own and free with CSLDestroy.
    unsafe {
        let list = gdal_sys::GDALGetFileList(ds.c_dataset());
        if !list.is_null() {
            let mut i = 0;
            while !(*list.add(i)).is_null() {
                files.push(PathBuf::from(OsStr::from_bytes(CStr::from_ptr(*list.add(i)).to_bytes())));
                i += 1;
            }
            gdal_sys::CSLDestroy(list);
        }
    }
    files
}

fn gdal_message(e: &GdalError) -> String {
    match e {
        GdalError::NullPointer { msg, .. } if !msg.is_empty() => msg.clone(),
        GdalError::CplError { msg, .. } if !msg.is_empty() => msg.clone(),
        other => other.to_string(),
    }
}

fn last_gdal_error() -> String {
    // SAFETY: CPLGetLastErrorMsg returns a pointer to a thread-local string, never null.
    let p = unsafe { gdal_sys::CPLGetLastErrorMsg() };
    if p.is_null() {
        "GDAL read error".into()
    } else {
        // SAFETY: non-null and NUL-terminated; copied at once.
        unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
    }
}

/// What the bands of a source say about themselves (one entry per band).
struct BandFacts {
    types: Vec<(GDALDataType::Type, bool)>,
    descriptions: Vec<String>,
    nodata: Vec<(usize, String)>,
    band_nodata: Vec<Option<String>>,
    masked: Vec<usize>,
    /// per band: the scale and offset (both or neither: GDAL's PAM records both) and the unit
    scaling: Vec<Scaling>,
    /// per band: GDAL's colour interpretation name and the colour table (RGB palettes only)
    colors: Vec<(Option<String>, Option<Palette>)>,
    /// bands whose palette is not RGB (GDAL's PAM records RGB palettes only): `(band, interpretation)`
    odd_palettes: Vec<(usize, String)>,
}

/// A band's scale and offset (`None` when GDAL reports 1 and 0) and unit (`None`: none).
type Scaling = (Option<(f64, f64)>, Option<String>);

/// An RGB(A) colour table's entries (c1, c2, c3, c4), as GDAL's `GDALColorEntry`.
type Palette = Vec<[i16; 4]>;

/// A band's colour interpretation (GDAL's name; `None` for Undefined) and its colour table when
/// it is an RGB palette (else the palette's interpretation, which is not stored).
fn band_colors(band: &gdal::raster::RasterBand) -> (Option<String>, Result<Option<Palette>, String>) {
    // SAFETY: the band handle is live while `band` is; GDALGetColorInterpretationName returns
    // a static string or null; the colour table belongs to the band and its entries are read
    // at once.
    unsafe {
        let band = band.c_rasterband();
        let ci = gdal_sys::GDALGetRasterColorInterpretation(band);
        let name = gdal_sys::GDALGetColorInterpretationName(ci);
        let interp = (ci != gdal_sys::GDALColorInterp::GCI_Undefined && !name.is_null())
            .then(|| CStr::from_ptr(name).to_string_lossy().into_owned());
        let table = gdal_sys::GDALGetRasterColorTable(band);
        if table.is_null() {
            return (interp, Ok(None));
        }
        let pi = gdal_sys::GDALGetPaletteInterpretation(table);
        if pi != gdal_sys::GDALPaletteInterp::GPI_RGB {
            let name = gdal_sys::GDALGetPaletteInterpretationName(pi);
            let name =
                if name.is_null() { format!("{pi}") } else { CStr::from_ptr(name).to_string_lossy().into_owned() };
            return (interp, Err(name));
        }
        let n = gdal_sys::GDALGetColorEntryCount(table).max(0);
        let entries = (0..n)
            .filter_map(|i| gdal_sys::GDALGetColorEntry(table, i).as_ref().map(|e| [e.c1, e.c2, e.c3, e.c4]))
            .collect();
        (interp, Ok(Some(entries)))
    }
}

impl BandFacts {
    fn of(ds: &Dataset, path: &Path, count: usize) -> Res<Self> {
        let mut types = Vec::with_capacity(count);
        let mut descriptions = Vec::with_capacity(count);
        let mut nodata: Vec<(usize, String)> = Vec::new();
        let mut band_nodata: Vec<Option<String>> = Vec::with_capacity(count);
        let mut masked: Vec<usize> = Vec::new();
        let mut scaling: Vec<Scaling> = Vec::with_capacity(count);
        let mut colors = Vec::with_capacity(count);
        let mut odd_palettes: Vec<(usize, String)> = Vec::new();
        for i in 0..count {
            let band = ds
                .rasterband(i + 1)
                .map_err(|e| Failure(format!("{}: band {i}: {}", path.display(), gdal_message(&e))))?;
            // SAFETY: the band handle is live while `band` is.
            let t = unsafe { gdal_sys::GDALGetRasterDataType(band.c_rasterband()) };
            let signed = band
                .metadata_item("PIXELTYPE", "IMAGE_STRUCTURE")
                .or_else(|| ds.metadata_item("PIXELTYPE", "IMAGE_STRUCTURE"));
            types.push((t, signed.as_deref() == Some("SIGNEDBYTE")));
            // what rumi's driver writes (kept by gdal_translate) first: the description of a
            // Cube's band carries " @ <time>"
            let text = band.metadata_item("BAND_TEXT", "").filter(|t| !t.is_empty());
            descriptions.push(text.or_else(|| band.description().ok()).unwrap_or_default());
            let nd = match type_name(t).as_str() {
                "Int64" => band.no_data_value_i64().map(|v| v.to_string()),
                "UInt64" => band.no_data_value_u64().map(|v| v.to_string()),
                _ => band.no_data_value().map(format_value),
            };
            band_nodata.push(nd.clone());
            if let Some(v) = nd {
                nodata.push((i, v));
            } else if let Ok(flags) = band.mask_flags() {
                if !flags.is_all_valid() && !flags.is_alpha() && !flags.is_nodata() {
                    masked.push(i);
                }
            }
            // GDAL answers 1 and 0 for a band without them
            let (scale, offset) = (band.scale().unwrap_or(1.0), band.offset().unwrap_or(0.0));
            let scaled = (scale != 1.0 || offset != 0.0).then_some((scale, offset));
            scaling.push((scaled, Some(band.unit()).filter(|u| !u.is_empty())));
            let (interp, table) = band_colors(&band);
            let table = table.unwrap_or_else(|palette| {
                odd_palettes.push((i, palette));
                None
            });
            // a palette index without its (unstored) palette is not a palette
            let interp = interp.filter(|c| c != "Palette" || table.is_some());
            colors.push((interp, table));
        }
        Ok(BandFacts { types, descriptions, nodata, band_nodata, masked, scaling, colors, odd_palettes })
    }

    /// What the PAM sidecar keeps of each band.
    fn pam(&self) -> Vec<BandPam> {
        self.band_nodata
            .iter()
            .zip(&self.colors)
            .zip(&self.scaling)
            .map(|((nodata, (interp, table)), (scaled, unit))| BandPam {
                nodata: nodata.clone(),
                color_interp: interp.clone(),
                color_table: table.clone(),
                scale: scaled.map(|s| s.0),
                offset: scaled.map(|s| s.1),
                unit: unit.clone(),
            })
            .collect()
    }

    /// The one sample encoding of every band, its GDAL type and type name (a problem when the
    /// bands differ or rumi has no encoding for the type).
    fn sample_encoding(&self, problems: &mut Vec<String>) -> (SampleEncoding, GDALDataType::Type, String) {
        let types = &self.types;
        let (t0, signed0) = types[0];
        let mut encoding = SampleEncoding::U8;
        let mut gdal_type = t0;
        let tname = |t: GDALDataType::Type, s: bool| {
            if s {
                format!("{} (PIXELTYPE=SIGNEDBYTE)", type_name(t))
            } else {
                type_name(t)
            }
        };
        if let Some(i) = types.iter().position(|&v| v != (t0, signed0)) {
            problems.push(format!(
            "its bands have different data types (band 0 is {}, band {} is {}); rumi stores one sample encoding per file",
            tname(t0, signed0),
            i,
            tname(types[i].0, types[i].1)
        ));
        } else {
            match encoding_for(&type_name(t0), signed0) {
                Ok(e) => encoding = e,
                Err(p) => problems.push(p),
            }
        }
        if gdal_type == GDALDataType::GDT_Unknown {
            gdal_type = GDALDataType::GDT_Byte;
        }

        (encoding, gdal_type, tname(t0, signed0))
    }

    /// Notes and problems about nodata values, scales, offsets and units (kept for GDAL
    /// readers), masks and palettes GDAL cannot keep; the note announcing the PAM sidecar.
    fn nodata_and_masks(
        &self,
        path: &Path,
        opts: &WriteOpts,
        notes: &mut Vec<String>,
        problems: &mut Vec<String>,
    ) -> Option<String> {
        let (nodata, masked) = (&self.nodata, &self.masked);
        let mut nodata_note = None;
        if !nodata.is_empty() {
            let mut values: Vec<&str> = nodata.iter().map(|n| n.1.as_str()).collect();
            values.dedup();
            let which = band_list(&nodata.iter().map(|n| n.0).collect::<Vec<_>>());
            let value = if values.len() == 1 {
                format!("nodata value {}", values[0])
            } else {
                format!("nodata values {}", values.join(", "))
            };
            nodata_note = Some(format!("the {value} of {which} of {}", path.display()));
        }
        if !masked.is_empty() {
            let which = band_list(masked);
            if opts.allow_nodata_loss {
                notes.push(format!(
                    "warning: {}: the mask of {which} is not stored (rumi has no masks)",
                    path.display()
                ));
            } else {
                problems.push(format!(
                    "{which} ha{} a validity mask, which rumi cannot store. Pass --allow-nodata-loss to drop it",
                    if masked.len() == 1 { "s" } else { "ve" }
                ));
            }
        }
        let mut kept = Vec::new();
        for (i, (scaled, unit)) in self.scaling.iter().enumerate() {
            if let Some((s, o)) = scaled {
                if !s.is_finite() || !o.is_finite() {
                    problems.push(format!(
                        "band {i} has scale {s} and offset {o}, not finite numbers (GDAL would make every value NaN or \
                         infinite): fix them (gdal_translate -a_scale/-a_offset) or drop them (-unscale)"
                    ));
                    continue;
                }
                kept.push(format!(
                    "band {i}: scale {s}, offset {o}{}",
                    unit.as_ref().map(|u| format!(", unit {u}")).unwrap_or_default()
                ));
            } else if let Some(u) = unit {
                kept.push(format!("band {i}: unit {u}"));
            }
        }
        if !kept.is_empty() {
            let what = format!("the scale, offset and unit of {} ({})", path.display(), kept.join("; "));
            nodata_note = Some(match nodata_note {
                Some(n) => format!("{n}, and {what}"),
                None => what,
            });
        }
        for (i, palette) in &self.odd_palettes {
            notes.push(format!(
                "warning: {}: the colour table of band {i} is a {palette} palette, which GDAL's PAM sidecar cannot \
                 record (it records RGB palettes); it is not stored, palette indices are kept",
                path.display()
            ));
        }

        nodata_note
    }
}

/// The source's georeferencing as rumi stores it, and its geotransform.
fn source_georef(
    ds: &Dataset,
    path: &Path,
    opts: &WriteOpts,
    notes: &mut Vec<String>,
    problems: &mut Vec<String>,
) -> (Georef, Option<gdal::GeoTransform>) {
    let raster_type = match ds.metadata_item("AREA_OR_POINT", "") {
        Some(v) if v.eq_ignore_ascii_case("Point") => RasterType::Point,
        _ => RasterType::Area,
    };
    let geotransform = ds.geo_transform().ok();
    let srs = ds.spatial_ref().ok();
    let gcps = ds.gcps().len();
    let georef = match georef_of(geotransform, srs.as_ref(), gcps, raster_type) {
        Ok(g) if opts.no_georef => {
            if matches!(g, Georef::Epsg { .. }) {
                notes.push(format!("georeferencing of {} not stored (--no-georef)", path.display()));
            }
            Georef::Undefined { raster_type }
        }
        Ok(g) => g,
        Err(p) if opts.no_georef => {
            notes.push(format!("{} stored without georeferencing (--no-georef): {p}", path.display()));
            Georef::Undefined { raster_type }
        }
        Err(p) => {
            problems.push(p);
            Georef::Undefined { raster_type }
        }
    };

    (georef, geotransform)
}

/// The band texts: `--band-text`, else derived from the sources' BAND_TEXT or descriptions.
fn source_band_texts(
    descriptions: &[String],
    path: &Path,
    opts: &WriteOpts,
    count: usize,
    notes: &mut Vec<String>,
    problems: &mut Vec<String>,
) -> Vec<String> {
    let band_texts = if opts.band_text.is_empty() {
        match derive_band_texts(descriptions) {
            Ok((t, note)) => {
                notes.extend(note.map(|n| format!("{}: {n}", path.display())));
                t
            }
            Err(p) => {
                problems.push(p);
                Vec::new()
            }
        }
    } else if opts.band_text.len() != count {
        problems.push(format!(
            "--band-text was given {} time(s) but the source has {count} band(s); give one per band",
            opts.band_text.len()
        ));
        Vec::new()
    } else {
        if let Err(p) = check_texts(&opts.band_text) {
            problems.push(format!("--band-text: {p}"));
        }
        opts.band_text.clone()
    };

    band_texts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn band_texts_are_made_unique() {
        let (t, note) = derive_band_texts(&["".into(), "VV".into(), "VV".into()]).unwrap();
        assert_eq!(t, ["band 0", "VV (band 1)", "VV (band 2)"]);
        assert!(note.is_some_and(|n| n.contains("bands 1, 2")));
        assert!(derive_band_texts(&["a (band 1)".into(), "a".into(), "a".into()]).is_err());
    }

    #[test]
    fn rumi_dataset_names() {
        let p = |s: &str| rumi_path(OsStr::new(s));
        assert_eq!(p("RUMI:\"a b.rumi\":3"), Some(PathBuf::from("a b.rumi")));
        // the unquoted `<head>:<t>` reading when the head is the file (as the GDAL driver reads it)
        let dir = tempfile::tempdir().unwrap();
        let c = dir.path().join("c.rumi");
        std::fs::write(&c, b"x").unwrap();
        assert_eq!(p(&format!("rumi:{}:12", c.display())), Some(c.clone()));
        assert_eq!(p("rumi:/x/c.rumi:12"), Some(PathBuf::from("/x/c.rumi:12")));
        assert_eq!(p("RUMI:c.rumi"), Some(PathBuf::from("c.rumi")));
        assert_eq!(p("c.rumi"), None);
        assert_eq!(p("RUMI:\"\":0"), None);
    }

    #[test]
    fn point_shifts_origin_by_half_a_pixel() {
        let gt = [100.0, 10.0, 0.0, 200.0, 0.0, -10.0];
        let srs = SpatialRef::from_epsg(32631).unwrap();
        match georef_of(Some(gt), Some(&srs), 0, RasterType::Point).unwrap() {
            Georef::Epsg { affine, model, epsg, .. } => {
                assert_eq!(affine, [10.0, 0.0, 105.0, 0.0, -10.0, 195.0]);
                assert_eq!((model, epsg), (ModelType::Projected, 32631));
            }
            other => panic!("{other:?}"),
        }
    }
}
