//! The parsing the GDAL adapter does through its private protocol (src/driver/protocol/,
//! called here through the crate's Rust API): `RUMI:` dataset names (`rumi_gdal_parse_name`)
//! and the open and configuration options (`rumi_gdal_open_options`: resource limits,
//! PROMOTE, threads, cache size), with the error texts the driver shows.

use std::collections::HashMap;
use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::ptr;

use gdal_rumi::capi::*;
use gdal_rumi::driver::protocol::*;

fn last_error() -> String {
    // SAFETY: rumi_last_error returns a valid C string.
    unsafe { CStr::from_ptr(rumi_last_error()) }.to_string_lossy().into_owned()
}

/// (path, time) of reading `alternative` of `name`, or the error text.
fn parse(name: &str, alternative: u32) -> Result<Option<(String, c_int)>, String> {
    let name = CString::new(name).unwrap();
    let mut time = -7;
    // SAFETY: a valid C string and a writable int.
    let path = unsafe { rumi_gdal_parse_name(name.as_ptr(), alternative, &mut time) };
    if path.is_null() {
        let e = last_error();
        return if alternative == 1 && e.is_empty() { Ok(None) } else { Err(e) };
    }
    // SAFETY: non-null result of rumi_gdal_parse_name: a C string.
    Ok(Some((unsafe { CStr::from_ptr(path) }.to_string_lossy().into_owned(), time)))
}

#[test]
fn dataset_names_parse_as_the_driver_documents() {
    assert_eq!(parse("RUMI:a/b.rumi", 0), Ok(Some(("a/b.rumi".into(), -1))));
    assert_eq!(parse("RUMI:\"a:b.rumi\":12", 0), Ok(Some(("a:b.rumi".into(), 12))));
    assert_eq!(parse("RUMI:\"a.rumi\"", 0), Ok(Some(("a.rumi".into(), -1))));
    assert_eq!(parse("RUMI:a.rumi:3", 0), Ok(Some(("a.rumi:3".into(), -1))));
    assert_eq!(parse("RUMI:a.rumi:3", 1), Ok(Some(("a.rumi".into(), 3))));
    let err = parse("RUMI:\"a.rumi\":x", 0).unwrap_err();
    assert_eq!(
        err,
        "invalid dataset name 'RUMI:\"a.rumi\":x': ':x' after the quoted path is not ':' followed by a time index \
         (a non-negative integer); expected RUMI:<path> or RUMI:\"<path>\":<time index>"
    );
    assert!(parse("RUMI:\"\"", 0).unwrap_err().contains("unterminated or empty quoted path"));
    assert!(parse("RUMI:", 0).unwrap_err().contains("': no path; expected"));
    assert!(parse("RUMI:\"a\":1234567890", 0).is_err(), "at most 9 digits");
}

unsafe extern "C" fn lookup(ctx: *mut c_void, name: *const c_char) -> *const c_char {
    // SAFETY: ctx is the test's map, name a C string from rumi_gdal_open_options.
    let map = unsafe { &*(ctx as *const HashMap<String, CString>) };
    let name = unsafe { CStr::from_ptr(name) }.to_string_lossy();
    map.get(name.as_ref()).map_or(ptr::null(), |v| v.as_ptr())
}

/// The options `rumi_gdal_open_options` finds in `options` (GDAL's block cache: 1 GiB), and
/// its warning, or the error text.
fn gdal_options(options: &[(&str, &str)]) -> Result<(rumi_gdal_options, Option<String>), String> {
    let map: HashMap<String, CString> =
        options.iter().map(|(k, v)| (k.to_string(), CString::new(*v).unwrap())).collect();
    let mut out = std::mem::MaybeUninit::<rumi_gdal_options>::zeroed();
    // SAFETY: a writable out, a lookup reading the map passed as ctx.
    let code =
        unsafe { rumi_gdal_open_options(Some(lookup), &map as *const _ as *mut c_void, 1 << 30, out.as_mut_ptr()) };
    if code != RUMI_OK {
        return Err(last_error());
    }
    // SAFETY: written by the successful call.
    let out = unsafe { out.assume_init() };
    // SAFETY: NULL or a C string valid until the next call on this thread.
    let warning = (!out.warning.is_null()).then(|| unsafe { CStr::from_ptr(out.warning) }.to_string_lossy().into());
    Ok((out, warning))
}

fn limits(options: &[(&str, &str)]) -> Result<rumi_limits, String> {
    gdal_options(options).map(|(o, _)| o.limits)
}

#[test]
fn open_options_promote_threads_and_cache() {
    let (o, w) = gdal_options(&[]).unwrap();
    assert_eq!((o.output, o.threads, o.cache_bytes, w), (RUMI_OUTPUT_NATIVE, 1, 256 << 20, None));
    assert_eq!(gdal_options(&[("PROMOTE", "float32")]).unwrap().0.output, RUMI_OUTPUT_FLOAT32);
    assert_eq!(
        gdal_options(&[("PROMOTE", "Int16")]).unwrap_err(),
        "PROMOTE=Int16 is not supported: use NONE or FLOAT32"
    );
    assert_eq!(gdal_options(&[("NUM_THREADS", "4"), ("GDAL_NUM_THREADS", "2")]).unwrap().0.threads, 4);
    assert_eq!(gdal_options(&[("GDAL_NUM_THREADS", "2")]).unwrap().0.threads, 2);
    assert!(gdal_options(&[("GDAL_NUM_THREADS", "ALL_CPUS")]).unwrap().0.threads >= 1);
    assert_eq!(gdal_options(&[("NUM_THREADS", ""), ("GDAL_NUM_THREADS", "2")]).unwrap().0.threads, 1);
    let (o, w) = gdal_options(&[("NUM_THREADS", "abc")]).unwrap();
    assert_eq!(o.threads, 1);
    assert_eq!(
        w.as_deref(),
        Some("NUM_THREADS=abc: invalid request: thread count \"abc\" is not ALL_CPUS or a positive integer; reading on 1 thread")
    );
    assert_eq!(gdal_options(&[("RUMI_CACHE_MB", "5")]).unwrap().0.cache_bytes, 5 << 20);
    assert_eq!(gdal_options(&[("RUMI_CACHE_MB", "0")]).unwrap().0.cache_bytes, 0);
    for bad in ["abc", "-3", "12MB", "1e3", "99999999999999999"] {
        assert_eq!(
            gdal_options(&[("RUMI_CACHE_MB", bad)]).unwrap_err(),
            format!(
                "configuration option RUMI_CACHE_MB={bad} is not a number of MiB (a non-negative integer; 0: no \
                 decoded-frame cache; default a quarter of GDAL_CACHEMAX, at least 32)"
            )
        );
    }
    assert_eq!(gdal_options(&[("RUMI_CACHE_MB", "")]).unwrap().0.cache_bytes, 256 << 20);
    let mut out = std::mem::MaybeUninit::<rumi_gdal_options>::zeroed();
    // SAFETY: a writable out and a small block cache.
    unsafe {
        assert_eq!(
            rumi_gdal_open_options(
                Some(lookup),
                &HashMap::<String, CString>::new() as *const _ as *mut c_void,
                1 << 20,
                out.as_mut_ptr()
            ),
            RUMI_OK
        )
    };
    // SAFETY: written by the successful call.
    assert_eq!(unsafe { out.assume_init() }.cache_bytes, 32 << 20, "at least 32 MiB");
}

/// The GDAL data type of each encoding, and the PROMOTE text for those GDAL has none for.
#[test]
fn gdal_data_types() {
    let ty = |encoding, output, int8| {
        let mut out = 99;
        // SAFETY: a writable out.
        let name = unsafe { rumi_gdal_data_type(encoding, output, int8, &mut out) };
        // SAFETY: NULL or a static C string.
        (!name.is_null()).then(|| (unsafe { CStr::from_ptr(name) }.to_string_lossy().into_owned(), out))
    };
    assert_eq!(ty(RUMI_ENCODING_UINT16, RUMI_OUTPUT_FLOAT32, 1), Some(("UInt16".into(), RUMI_OUTPUT_NATIVE)));
    assert_eq!(ty(RUMI_ENCODING_INT8, RUMI_OUTPUT_NATIVE, 1), Some(("Int8".into(), RUMI_OUTPUT_NATIVE)));
    assert_eq!(ty(RUMI_ENCODING_INT8, RUMI_OUTPUT_NATIVE, 0), Some(("Byte".into(), RUMI_OUTPUT_NATIVE)));
    assert_eq!(ty(RUMI_ENCODING_COMPLEX64, RUMI_OUTPUT_NATIVE, 1), Some(("CFloat32".into(), RUMI_OUTPUT_NATIVE)));
    assert_eq!(ty(RUMI_ENCODING_COMPLEX32, RUMI_OUTPUT_FLOAT32, 1), Some(("CFloat32".into(), RUMI_OUTPUT_FLOAT32)));
    assert_eq!(ty(RUMI_ENCODING_BFLOAT16, RUMI_OUTPUT_FLOAT32, 1), Some(("Float32".into(), RUMI_OUTPUT_FLOAT32)));
    assert_eq!(ty(RUMI_ENCODING_FLOAT16, RUMI_OUTPUT_NATIVE, 1), None);
    assert_eq!(
        last_error(),
        "float16 samples have no GDAL data type. Open with the open option PROMOTE=FLOAT32 (e.g. gdalinfo -oo \
         PROMOTE=FLOAT32) to read them converted exactly to Float32"
    );
    assert_eq!(ty(99, RUMI_OUTPUT_NATIVE, 1), None);
}

/// Which metadata queries read the georeferencing block or the trailer first.
#[test]
fn metadata_parts() {
    let parts = |band, name: Option<&CStr>, domain: Option<&CStr>| {
        // SAFETY: NULL or C strings.
        unsafe {
            rumi_gdal_parts(band, name.map_or(ptr::null(), CStr::as_ptr), domain.map_or(ptr::null(), CStr::as_ptr))
        }
    };
    let both = RUMI_PART_GEOREF | RUMI_PART_TRAILER;
    assert_eq!(parts(0, None, None), both);
    assert_eq!(parts(0, None, Some(c"")), both);
    assert_eq!(parts(0, None, Some(c"rumi")), RUMI_PART_TRAILER);
    assert_eq!(parts(0, None, Some(c"SUBDATASETS")), RUMI_PART_TRAILER);
    assert_eq!(parts(0, None, Some(c"IMAGE_STRUCTURE")), 0);
    assert_eq!(parts(0, Some(c"area_or_point"), None), RUMI_PART_GEOREF);
    assert_eq!(parts(0, Some(c"TIME_START"), Some(c"")), RUMI_PART_TRAILER);
    assert_eq!(parts(0, Some(c"OPEN_MODE"), Some(c"RUMI")), 0);
    assert_eq!(parts(0, Some(c"TIME_SCALE"), Some(c"RUMI")), RUMI_PART_TRAILER);
    assert_eq!(parts(0, Some(c"SUBDATASET_1_NAME"), Some(c"SUBDATASETS")), RUMI_PART_TRAILER);
    assert_eq!(parts(1, None, None), RUMI_PART_TRAILER);
    assert_eq!(parts(1, None, Some(c"RUMI")), 0);
    assert_eq!(parts(1, Some(c"BAND_TEXT"), None), RUMI_PART_TRAILER);
    assert_eq!(parts(1, Some(c"AREA_OR_POINT"), None), 0);
    assert_eq!(parts(1, Some(c"NBITS"), Some(c"IMAGE_STRUCTURE")), 0);
}

/// The driver's metadata items: capabilities and the option lists as XML.
#[test]
fn driver_items() {
    let mut list = rumi_gdal_driver_items();
    let mut items = Vec::new();
    // SAFETY: a static list of C strings ending with an empty one.
    unsafe {
        while *list != 0 {
            let item = CStr::from_ptr(list);
            items.push(item.to_string_lossy().into_owned());
            list = list.add(item.to_bytes().len() + 1);
        }
    }
    assert!(items.contains(&"DCAP_RASTER=YES".to_string()), "{items:?}");
    assert!(items.contains(&"DMD_CONNECTION_PREFIX=RUMI:".to_string()), "{items:?}");
    assert!(items.contains(&format!("DMD_PLUGIN_VERSION={}", env!("CARGO_PKG_VERSION"))));
    let open = items.iter().find(|i| i.starts_with("DMD_OPENOPTIONLIST=<OpenOptionList>")).expect("open options");
    assert!(open.contains("name='PROMOTE'") && open.ends_with("</OpenOptionList>"), "{open}");
    assert!(items.iter().any(|i| i.starts_with("DMD_RUMI_CONFIG_OPTIONS=<ConfigOptionList>")));
}

#[test]
fn limit_options_parse_and_name_bad_values() {
    let defaults = limits(&[]).unwrap();
    assert_eq!(defaults.max_bands, 65535);
    assert_eq!(rumi::Limits::from(defaults), rumi::Limits::default(), "no option set: the core's defaults");
    let set = limits(&[("RUMI_MAX_BANDS", "12"), ("RUMI_MAX_FRAMES", ""), ("MAX_FRAME_MB", "3")]).unwrap();
    assert_eq!((set.max_bands, set.max_frames, set.max_frame_bytes), (12, defaults.max_frames, 3 << 20));
    assert_eq!(
        limits(&[("RUMI_MAX_BANDS", "+5")]).unwrap_err(),
        "configuration option RUMI_MAX_BANDS=+5 is not a positive integer (default 65535)"
    );
    assert!(limits(&[("RUMI_MAX_READ_BYTES", "0")]).is_err());
    assert!(limits(&[("RUMI_MAX_READ_BYTES", "99999999999999999999")]).is_err());
    assert_eq!(limits(&[("MAX_FRAME_MB", "0")]).unwrap_err(), "MAX_FRAME_MB=0 is not a positive number of MiB");
    assert_eq!(limits(&[("MAX_FRAME_MB", " 2abc")]).unwrap().max_frame_bytes, 2 << 20, "as CPLAtoGIntBig reads it");
}
