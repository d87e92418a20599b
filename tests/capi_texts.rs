//! The parsing the GDAL adapter does through the C ABI: `RUMI:` dataset names
//! (`rumi_parse_name`) and the resource-limit options (`rumi_limits_from_options`), with the
//! error texts the driver shows.

use std::collections::HashMap;
use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::ptr;

use gdal_rumi::capi::*;

fn last_error() -> String {
    // SAFETY: rumi_last_error returns a valid C string.
    unsafe { CStr::from_ptr(rumi_last_error()) }.to_string_lossy().into_owned()
}

/// (path, time) of reading `alternative` of `name`, or the error text.
fn parse(name: &str, alternative: u32) -> Result<Option<(String, c_int)>, String> {
    let name = CString::new(name).unwrap();
    let mut time = -7;
    // SAFETY: a valid C string and a writable int.
    let path = unsafe { rumi_parse_name(name.as_ptr(), alternative, &mut time) };
    if path.is_null() {
        let e = last_error();
        return if alternative == 1 && e.is_empty() { Ok(None) } else { Err(e) };
    }
    // SAFETY: non-null result of rumi_parse_name: a C string.
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
    // SAFETY: ctx is the test's map, name a C string from rumi_limits_from_options.
    let map = unsafe { &*(ctx as *const HashMap<String, CString>) };
    let name = unsafe { CStr::from_ptr(name) }.to_string_lossy();
    map.get(name.as_ref()).map_or(ptr::null(), |v| v.as_ptr())
}

fn limits(options: &[(&str, &str)]) -> Result<rumi_limits, String> {
    let map: HashMap<String, CString> =
        options.iter().map(|(k, v)| (k.to_string(), CString::new(*v).unwrap())).collect();
    let mut out = rumi_limits {
        max_frame_bytes: 0,
        max_frames: 0,
        max_trailer_bytes: 0,
        max_time_coords: 0,
        max_bands: 0,
        max_read_bytes: 0,
    };
    // SAFETY: a writable out, a lookup reading the map passed as ctx.
    let code = unsafe { rumi_limits_from_options(&mut out, Some(lookup), &map as *const _ as *mut c_void) };
    if code == RUMI_OK {
        Ok(out)
    } else {
        Err(last_error())
    }
}

#[test]
fn limit_options_parse_and_name_bad_values() {
    let defaults = limits(&[]).unwrap();
    assert_eq!(defaults.max_bands, 65535);
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
