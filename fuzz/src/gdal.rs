//! Fuzz target `gdal`: the GDAL driver's C++ adapter (src/driver/*.cpp) driven through GDAL's
//! public C API, the way gdalinfo, gdal_translate and Python drive it. The input is a file (and
//! a header blob) put in `/vsimem/`; the first byte picks how it is opened and read:
//!
//! - bit 0: with a header blob (the rest split as in [`super::split`]), else validated;
//! - bit 1: also through the multidimensional API (every array read);
//! - bit 2: open option `PROMOTE=FLOAT32`;
//! - bits 3-4: the decoded-frame cache `RUMI_CACHE_MB` = default, 0 (none), 1 or 64;
//! - bit 5: `NUM_THREADS=2`.
//!
//! Then every query GDAL tools make (metadata of every domain, band descriptions, geotransform,
//! SRS, subdatasets), a checksum of every band (the block path), a whole-raster RasterIO of every
//! band (the multi-block path) and a decimated one (GDAL's resampling over the blocks). Any
//! panic, abort or sanitizer report is a bug, and so is a caught panic reported as a GDAL error
//! ("internal error in ...").
//!
//! Under `cargo fuzz`, build.rs compiles the C++ adapter with clang's coverage instrumentation
//! (and AddressSanitizer), so that libFuzzer is guided by the adapter's branches too.

use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::ptr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Once;

use gdal_sys::*;

use super::{limits, split};

// GDALOpenEx flags (C macros of gdal.h, not in gdal-sys's bindings)
const GDAL_OF_READONLY: u32 = 0x00;
const GDAL_OF_RASTER: u32 = 0x02;
const GDAL_OF_MULTIDIM_RASTER: u32 = 0x10;

static INTERNAL: AtomicBool = AtomicBool::new(false);

/// Swallows GDAL's error messages (the fuzzer would print millions), remembering whether one
/// reported a caught Rust panic or C++ exception.
unsafe extern "C" fn on_error(_class: CPLErr::Type, _num: CPLErrorNum, msg: *const c_char) {
    if msg.is_null() {
        return;
    }
    // SAFETY: GDAL passes a NUL-terminated message.
    let text = unsafe { CStr::from_ptr(msg) }.to_string_lossy();
    if text.contains("internal error") {
        INTERNAL.store(true, Ordering::Relaxed);
    }
}

fn cstr(s: &str) -> CString {
    CString::new(s).expect("no NUL")
}

fn set_config(key: &str, value: &str) {
    let (k, v) = (cstr(key), cstr(value));
    // SAFETY: NUL-terminated strings; GDAL copies them.
    unsafe { CPLSetConfigOption(k.as_ptr(), v.as_ptr()) };
}

fn setup() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // No GDALAllRegister: it would load an installed gdal_RUMI.so from GDAL's plugin folder,
        // whose driver (registered first, under the same name) would then be the one fuzzed.
        // Only this build's driver is registered.
        // SAFETY: plain GDAL calls at start-up, before any other GDAL use of this process.
        unsafe { CPLSetErrorHandler(Some(on_error)) };
        set_config("GDAL_DRIVER_PATH", "disable");
        gdal_rumi::driver::GDALRegister_RUMI();
        // SAFETY: a NUL-terminated name.
        assert!(!unsafe { GDALGetDriverByName(c"RUMI".as_ptr()) }.is_null(), "the RUMI driver is registered");
        let l = limits();
        for (key, value) in [
            ("RUMI_MAX_FRAME_BYTES", l.max_frame_bytes),
            ("RUMI_MAX_FRAMES", l.max_frames),
            ("RUMI_MAX_TRAILER_BYTES", l.max_trailer_bytes),
            ("RUMI_MAX_TIME_COORDS", l.max_time_coords),
            ("RUMI_MAX_BANDS", l.max_bands),
            ("RUMI_MAX_READ_BYTES", l.max_read_bytes),
        ] {
            set_config(key, &value.to_string());
        }
        set_config("GDAL_CACHEMAX", "16");
        set_config("GDAL_PAM_ENABLED", "NO");
        set_config("GDAL_DISABLE_READDIR_ON_OPEN", "EMPTY_DIR");
    });
}

/// A `/vsimem/` file over `bytes`, unlinked on drop (GDAL does not own or free the bytes).
struct MemFile {
    path: CString,
}

impl MemFile {
    fn new(path: &str, bytes: &[u8]) -> MemFile {
        let path = cstr(path);
        // SAFETY: GDAL reads `bytes` (never writes: the file is opened read-only) while the
        // file exists; it is unlinked in Drop, before `bytes` goes away.
        let fp = unsafe { VSIFileFromMemBuffer(path.as_ptr(), bytes.as_ptr() as *mut u8, bytes.len() as u64, 0) };
        assert!(!fp.is_null(), "VSIFileFromMemBuffer failed");
        // SAFETY: a handle just returned by GDAL.
        unsafe { VSIFCloseL(fp) };
        MemFile { path }
    }
}

impl Drop for MemFile {
    fn drop(&mut self) {
        // SAFETY: a NUL-terminated path.
        unsafe { VSIUnlink(self.path.as_ptr()) };
    }
}

/// A NULL-terminated array of C strings for GDAL's `char **` options.
struct StringList {
    _owned: Vec<CString>,
    ptrs: Vec<*mut c_char>,
}

impl StringList {
    fn new(items: &[String]) -> StringList {
        let owned: Vec<CString> = items.iter().map(|s| cstr(s)).collect();
        let mut ptrs: Vec<*mut c_char> = owned.iter().map(|s| s.as_ptr() as *mut c_char).collect();
        ptrs.push(ptr::null_mut());
        StringList { _owned: owned, ptrs }
    }

    fn as_ptr(&self) -> *const *const c_char {
        self.ptrs.as_ptr() as *const *const c_char
    }
}

/// Counts the entries of a GDAL string list and touches every byte of them.
///
/// # Safety
/// `list` must be NULL or a NULL-terminated array of NUL-terminated strings.
unsafe fn walk(list: *mut *mut c_char) -> usize {
    let mut n = 0;
    if list.is_null() {
        return 0;
    }
    // SAFETY: per the contract, entries up to the NULL one are valid strings.
    unsafe {
        while !(*list.add(n)).is_null() {
            let _ = CStr::from_ptr(*list.add(n)).to_bytes().len();
            n += 1;
        }
    }
    n
}

/// Opens the input through GDAL and reads everything; see the module documentation.
pub fn gdal(data: &[u8]) {
    gdal_opens(data);
}

/// [`gdal`], telling whether GDAL opened the input as a raster.
pub fn gdal_opens(data: &[u8]) -> bool {
    let Some((&mode, rest)) = data.split_first() else { return false };
    let (blob, file) = if mode & 1 == 1 {
        match split(rest) {
            Some((b, f)) => (Some(b), f),
            None => return false,
        }
    } else {
        (None, rest)
    };
    setup();
    INTERNAL.store(false, Ordering::Relaxed);
    let path = "/vsimem/fuzz.rumi";
    let _file = MemFile::new(path, file);
    let _blob = blob.map(|b| MemFile::new("/vsimem/fuzz.rumi.header", b));
    let mut options = vec![format!("HEADER={}", if blob.is_some() { "/vsimem/fuzz.rumi.header" } else { "NONE" })];
    if mode & 4 != 0 {
        options.push("PROMOTE=FLOAT32".into());
    }
    if mode & 32 != 0 {
        options.push("NUM_THREADS=2".into());
    }
    set_config("RUMI_CACHE_MB", ["", "0", "1", "64"][usize::from((mode >> 3) & 3)]);
    let options = StringList::new(&options);
    let drivers = StringList::new(&["RUMI".to_owned()]);
    let name = cstr(path);
    // SAFETY: valid NUL-terminated name and NULL-terminated lists, alive during the call.
    let ds = unsafe {
        GDALOpenEx(name.as_ptr(), GDAL_OF_RASTER | GDAL_OF_READONLY, drivers.as_ptr(), options.as_ptr(), ptr::null())
    };
    let opened = !ds.is_null();
    if opened {
        // SAFETY: `ds` is an open dataset, closed once below.
        unsafe {
            raster(ds);
            GDALClose(ds);
        }
    }
    if mode & 2 != 0 {
        // SAFETY: as above.
        let ds = unsafe {
            GDALOpenEx(
                name.as_ptr(),
                GDAL_OF_MULTIDIM_RASTER | GDAL_OF_READONLY,
                drivers.as_ptr(),
                options.as_ptr(),
                ptr::null(),
            )
        };
        if !ds.is_null() {
            // SAFETY: as above.
            unsafe {
                multidim(ds);
                GDALClose(ds);
            }
        }
    }
    assert!(!INTERNAL.load(Ordering::Relaxed), "the driver reported an internal error (a caught panic)");
    opened
}

/// Every query and read of the classic raster API.
///
/// # Safety
/// `ds` must be an open dataset.
unsafe fn raster(ds: GDALDatasetH) {
    // SAFETY (whole body): GDAL C API calls on the live dataset and its bands, with outputs
    // that are locals or buffers of the size GDAL is told.
    unsafe {
        for domain in ["", "SUBDATASETS", "RUMI", "IMAGE_STRUCTURE"] {
            let d = cstr(domain);
            walk(GDALGetMetadata(ds, d.as_ptr()));
        }
        let domains = GDALGetMetadataDomainList(ds); // the caller's to free
        walk(domains);
        CSLDestroy(domains);
        let mut gt = [0.0f64; 6];
        GDALGetGeoTransform(ds, gt.as_mut_ptr());
        let _ = GDALGetSpatialRef(ds);
        let (w, h) = (GDALGetRasterXSize(ds), GDALGetRasterYSize(ds));
        let bands = GDALGetRasterCount(ds).min(16);
        for b in 1..=bands {
            let band = GDALGetRasterBand(ds, b);
            let _ = CStr::from_ptr(GDALGetDescription(band)).to_bytes().len();
            walk(GDALGetMetadata(band, ptr::null()));
            walk(GDALGetMetadata(band, c"IMAGE_STRUCTURE".as_ptr()));
            GDALChecksumImage(band, 0, 0, w, h);
        }
        // Whole raster, every band, pixel-interleaved Float64: the multi-block path.
        let samples = (w as usize) * (h as usize) * (bands as usize);
        if bands > 0 && samples <= 1 << 20 {
            let mut buf = vec![0f64; samples];
            let mut map: Vec<c_int> = (1..=bands).collect();
            GDALDatasetRasterIO(
                ds,
                GDALRWFlag::GF_Read,
                0,
                0,
                w,
                h,
                buf.as_mut_ptr().cast::<c_void>(),
                w,
                h,
                GDALDataType::GDT_Float64,
                bands,
                map.as_mut_ptr(),
                8 * bands,
                8 * bands * w, // at most 8 MiB: `samples` is bounded above
                8,
            );
            // A window at (1, 1) read at a third of its size (resampling over the blocks).
            let (ww, wh) = ((w - 1).max(1), (h - 1).max(1));
            let (bw, bh) = ((ww / 3).max(1), (wh / 3).max(1));
            let mut small = vec![0u8; (bw as usize) * (bh as usize) * (bands as usize)];
            GDALDatasetRasterIO(
                ds,
                GDALRWFlag::GF_Read,
                (w > 1) as c_int,
                (h > 1) as c_int,
                ww,
                wh,
                small.as_mut_ptr().cast::<c_void>(),
                bw,
                bh,
                GDALDataType::GDT_Byte,
                bands,
                map.as_mut_ptr(),
                0,
                0,
                0,
            );
        }
    }
}

/// The multidimensional view: the root group, every array's attributes, and every numeric
/// array read whole (when small) as Float64.
///
/// # Safety
/// `ds` must be an open dataset opened with `GDAL_OF_MULTIDIM_RASTER`.
unsafe fn multidim(ds: GDALDatasetH) {
    // SAFETY (whole body): GDAL C API calls on live handles, each released once; buffers are
    // sized from the array's dimensions.
    unsafe {
        let root = GDALDatasetGetRootGroup(ds);
        if root.is_null() {
            return;
        }
        let names = GDALGroupGetMDArrayNames(root, ptr::null_mut());
        let n = walk(names);
        for i in 0..n {
            let array = GDALGroupOpenMDArray(root, *names.add(i), ptr::null_mut());
            if array.is_null() {
                continue;
            }
            let mut nattr = 0usize;
            let attrs = GDALMDArrayGetAttributes(array, &mut nattr, ptr::null_mut());
            if !attrs.is_null() {
                GDALReleaseAttributes(attrs, nattr);
            }
            let mut ndim = 0usize;
            let dims = GDALMDArrayGetDimensions(array, &mut ndim);
            let sizes: Vec<u64> = (0..ndim).map(|d| GDALDimensionGetSize(*dims.add(d))).collect();
            if !dims.is_null() {
                GDALReleaseDimensions(dims, ndim);
            }
            let dtype = GDALMDArrayGetDataType(array);
            let numeric = GDALExtendedDataTypeGetClass(dtype) == GDALExtendedDataTypeClass::GEDTC_NUMERIC;
            GDALExtendedDataTypeRelease(dtype);
            let total = sizes.iter().try_fold(1u64, |a, &s| a.checked_mul(s));
            if numeric && total.is_some_and(|t| t > 0 && t <= 1 << 20) {
                let total = total.unwrap_or(0) as usize;
                let mut buf = vec![0f64; total];
                let start = vec![0u64; ndim];
                let count: Vec<usize> = sizes.iter().map(|&s| s as usize).collect();
                let f64type = GDALExtendedDataTypeCreate(GDALDataType::GDT_Float64);
                GDALMDArrayRead(
                    array,
                    start.as_ptr(),
                    count.as_ptr(),
                    ptr::null(),
                    ptr::null(),
                    f64type,
                    buf.as_mut_ptr().cast::<c_void>(),
                    buf.as_ptr().cast::<c_void>(),
                    total * 8,
                );
                GDALExtendedDataTypeRelease(f64type);
            }
            GDALMDArrayRelease(array);
        }
        CSLDestroy(names);
        GDALGroupRelease(root);
    }
}
