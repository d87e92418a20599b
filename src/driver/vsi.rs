//! The byte source of a GDAL open: `rumi_io` callbacks over a VSI handle (`VSILFILE *`), in
//! Rust. The plugin crate links libgdal, so it calls GDAL's VSI C functions (`cpl_vsi.h`)
//! itself; the C++ adapter only hands over the handle GDAL opened (`rumi_gdal_open`, the
//! private protocol), which from then on belongs to the [`VsiFile`] here: the dataset keeps
//! it, and `rumi_free` (or a failed open) closes it.

use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Mutex;

use rumi::per_process::PerProcess;

use crate::capi::{rumi_io, RUMI_IO_EOF, RUMI_IO_ERROR, RUMI_IO_OK};

extern "C" {
    // GDAL's VSI API (cpl_vsi.h); vsi_l_offset is an unsigned 64-bit integer.
    fn VSIFSeekL(fp: *mut c_void, offset: u64, whence: c_int) -> c_int;
    fn VSIFTellL(fp: *mut c_void) -> u64;
    fn VSIFReadL(buf: *mut c_void, size: usize, count: usize, fp: *mut c_void) -> usize;
    fn VSIFReadMultiRangeL(
        ranges: c_int,
        data: *mut *mut c_void,
        offsets: *const u64,
        sizes: *const usize,
        fp: *mut c_void,
    ) -> c_int;
    fn VSIFCloseL(fp: *mut c_void) -> c_int;
    fn VSIFOpenL(path: *const c_char, access: *const c_char) -> *mut c_void;
    fn VSIIngestFile(fp: *mut c_void, name: *const c_char, out: *mut *mut u8, size: *mut u64, max: i64) -> c_int;
    fn VSIFree(p: *mut c_void);
    // cpl_error.h: the number of errors this thread has seen, and the last one's text
    fn CPLGetErrorCounter() -> u32;
    fn CPLGetLastErrorMsg() -> *const c_char;
    // cpl_vsi.h (GDAL >= 3.6): false for network file systems (/vsicurl/, /vsis3/...)
    fn VSIIsLocal(path: *const c_char) -> bool;
    // cpl_conv.h: whether the file is in the sibling list (NULL: VSIStatL), fixing its case
    fn CPLCheckForFile(name: *mut c_char, siblings: *mut *mut c_char) -> c_int;
    // cpl_conv.h / cpl_string.h: a configuration option, and GDAL's reading of a boolean text
    fn CPLGetConfigOption(key: *const c_char, default: *const c_char) -> *const c_char;
    fn CPLTestBool(value: *const c_char) -> c_int;
}

const SEEK_SET: c_int = 0;
const SEEK_END: c_int = 2;

/// A VSI handle (null once closed), closed on drop; a VSI handle has a file position, so every
/// use holds the mutex around it.
struct Handle(*mut c_void);

// SAFETY: VSI handles may move between threads; a Handle is only used with its mutex held.
unsafe impl Send for Handle {}

impl Drop for Handle {
    fn drop(&mut self) {
        if !self.0.is_null() {
            // SAFETY: this process's handle (handed over by `rumi_gdal_open`'s caller, or
            // reopened in a forked child), closed once.
            unsafe { VSIFCloseL(self.0) };
        }
    }
}

/// A VSI handle, closed on drop. A process forked after the open reopens the file for itself
/// at its first read ([`locked`]): GDAL users fork (Python's multiprocessing) with datasets open
/// in the parent, and reads of parent and child through one handle (a local file's descriptor,
/// hence its file offset, a network handle's connection) interleave their seeks and read the
/// wrong bytes. The handle is the process's own ([`PerProcess`]): the child never takes the
/// parent's lock, which a thread of the parent's may have held at the fork, nor closes its handle.
pub(crate) struct VsiFile {
    handle: PerProcess<Mutex<Handle>>,
    /// the GDAL path the handle reads, to reopen it in a forked child
    path: CString,
    /// the server of a URL (`http://host:port` of `/vsicurl/http://host:port/f.rumi`), else
    /// the path: named when a read fails
    server: String,
}

impl VsiFile {
    /// Takes over `fp` (a `VSILFILE *`, non-null).
    pub(crate) fn new(fp: *mut c_void) -> Box<VsiFile> {
        Box::new(VsiFile {
            handle: PerProcess::new(Mutex::new(Handle(fp))),
            path: CString::default(),
            server: String::new(),
        })
    }

    /// Records the GDAL path the handle reads, for messages.
    pub(crate) fn set_path(&mut self, path: &CStr) {
        self.path = path.to_owned();
        let path = path.to_string_lossy();
        self.server = match path.find("://") {
            Some(i) => {
                let start = path[..i].rfind('/').map_or(0, |j| j + 1);
                let end = path[i + 3..].find('/').map_or(path.len(), |j| i + 3 + j);
                path[start..end].to_string()
            }
            None => path.into_owned(),
        };
    }

    /// The callbacks over this handle, with `prefix` (copied by `rumi_open`); the box must
    /// outlive the dataset opened with them.
    pub(crate) fn io(self: &VsiFile, prefix: &[u8]) -> rumi_io {
        rumi_io {
            ctx: self as *const VsiFile as *mut c_void,
            read: Some(read),
            size: Some(size),
            read_multi: Some(read_multi),
            prefix: prefix.as_ptr(),
            prefix_len: prefix.len(),
        }
    }
}

/// Runs `f` on the handle of `ctx` (a `VsiFile`) with its lock held, first reopening the file
/// when this process is not the one that opened the handle (a forked child); no panic escapes.
fn locked(ctx: *mut c_void, f: impl FnOnce(*mut c_void, &VsiFile) -> c_int) -> c_int {
    catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: `ctx` is the `VsiFile` of `VsiFile::io`, alive while the dataset lives.
        let file = unsafe { &*(ctx as *const VsiFile) };
        let handle = match file.handle.get_or_try_init(|parent| {
            // SAFETY: a NUL-terminated path and access mode; GDAL returns a new handle or NULL.
            let fresh = unsafe { VSIFOpenL(file.path.as_ptr(), c"rb".as_ptr()) };
            if fresh.is_null() {
                crate::capi::io::set_failure_cause(format!(
                    "this process ({}) was forked from process {} after the open, and cannot reopen '{}' to \
                     read it through a handle of its own (the parent's is not shared: its file offset would be)",
                    std::process::id(),
                    parent.unwrap_or(0),
                    file.path.to_string_lossy()
                ));
                return Err(RUMI_IO_ERROR);
            }
            Ok(Mutex::new(Handle(fresh)))
        }) {
            Ok(handle) => handle,
            Err(code) => return code,
        };
        let fp = handle.lock().unwrap_or_else(|e| e.into_inner());
        f(fp.0, file)
    }))
    .unwrap_or(RUMI_IO_ERROR)
}

/// The file size, seeking to its end (the caller holds the lock).
fn size_of(fp: *mut c_void) -> Option<u64> {
    // SAFETY: `fp` is a live VSI handle, used under its lock.
    (unsafe { VSIFSeekL(fp, 0, SEEK_END) } == 0).then(|| unsafe { VSIFTellL(fp) })
}

/// The errors GDAL reported on this thread so far (compare before and after a VSI call).
fn error_count() -> u32 {
    // SAFETY: reads a thread-local counter.
    unsafe { CPLGetErrorCounter() }
}

/// When GDAL reported an error since `before`, says why the VSI call failed (the core adds it
/// to the error it reports): a server without Range support is named as such (GDAL's
/// /vsicurl/ says "Range downloading not supported by this server!" or that a ranged request
/// "failed with response_code=200"), anything else is quoted.
fn explain_failure(before: u32, file: &VsiFile) {
    if error_count() == before {
        return;
    }
    // SAFETY: CPLGetLastErrorMsg returns this thread's NUL-terminated message, never null; copied at once.
    let msg = unsafe { CStr::from_ptr(CPLGetLastErrorMsg()) }.to_string_lossy().into_owned();
    let cause = if msg.contains("Range downloading not supported") || msg.contains("failed with response_code=200") {
        rumi::range_unsupported(&file.server, &format!("GDAL: {msg}"))
    } else {
        format!("GDAL: {msg}")
    };
    crate::capi::io::set_failure_cause(cause);
}

unsafe extern "C" fn read(ctx: *mut c_void, offset: u64, len: usize, buf: *mut u8) -> c_int {
    locked(ctx, |fp, file| {
        let before = error_count();
        // SAFETY: `fp` is live and locked; `buf` has `len` writable bytes (rumi_io contract).
        if unsafe { VSIFSeekL(fp, offset, SEEK_SET) == 0 && VSIFReadL(buf.cast(), 1, len, fp) == len } {
            return RUMI_IO_OK;
        }
        explain_failure(before, file);
        match size_of(fp) {
            Some(n) if offset > n || len as u64 > n - offset => RUMI_IO_EOF,
            _ => RUMI_IO_ERROR,
        }
    })
}

unsafe extern "C" fn size(ctx: *mut c_void, out: *mut u64) -> c_int {
    locked(ctx, |fp, _| match size_of(fp) {
        Some(n) => {
            // SAFETY: `out` is writable (rumi_io contract).
            unsafe { out.write(n) };
            RUMI_IO_OK
        }
        None => RUMI_IO_ERROR,
    })
}

unsafe extern "C" fn read_multi(
    ctx: *mut c_void,
    count: usize,
    offsets: *const u64,
    lens: *const usize,
    bufs: *const *mut u8,
) -> c_int {
    let Ok(n) = c_int::try_from(count) else { return RUMI_IO_ERROR };
    locked(ctx, |fp, file| {
        let before = error_count();
        // SAFETY: the three arrays have `count` entries, each buffer `lens[i]` writable bytes
        // (rumi_io contract); GDAL only writes through the data pointers.
        let code = unsafe { VSIFReadMultiRangeL(n, bufs as *mut *mut c_void, offsets, lens, fp) };
        if code == 0 {
            RUMI_IO_OK
        } else {
            explain_failure(before, file);
            RUMI_IO_ERROR
        }
    })
}

/// The bytes of the file `name` (through VSI), at most `max` of them; None when it is
/// missing, unreadable or larger.
/// False for a path on a network file system (`/vsicurl/`, `/vsis3/`, ...): every request
/// there is a round trip.
pub(crate) fn is_local(path: &CStr) -> bool {
    // SAFETY: a NUL-terminated path GDAL only reads.
    unsafe { VSIIsLocal(path.as_ptr()) }
}

/// Whether GDAL's PAM (`.aux.xml` sidecars) is on (`GDAL_PAM_ENABLED`, default YES).
pub(crate) fn pam_enabled() -> bool {
    // SAFETY: NUL-terminated key and default; GDAL returns a string it owns, read at once.
    let v = unsafe { CStr::from_ptr(CPLGetConfigOption(c"GDAL_PAM_ENABLED".as_ptr(), c"YES".as_ptr())) };
    // SAFETY: a NUL-terminated string GDAL only reads.
    unsafe { CPLTestBool(v.as_ptr()) != 0 }
}

/// [`ingest`] of a name given as bytes (None when it holds a NUL).
pub(crate) fn ingest_bytes(name: &[u8], max: u64) -> Option<Vec<u8>> {
    ingest(&CString::new(name).ok()?, max)
}

pub(crate) fn ingest(name: &CStr, max: u64) -> Option<Vec<u8>> {
    let mut data: *mut u8 = std::ptr::null_mut();
    let mut len = 0u64;
    let max = i64::try_from(max).unwrap_or(i64::MAX);
    // SAFETY: a NUL-terminated name and two writable out-parameters; GDAL allocates `data`.
    let ok = unsafe { VSIIngestFile(std::ptr::null_mut(), name.as_ptr(), &mut data, &mut len, max) } != 0;
    let bytes = (ok && !data.is_null()).then(|| {
        // SAFETY: VSIIngestFile returned `len` bytes at `data` (plus a NUL it adds).
        unsafe { std::slice::from_raw_parts(data, usize::try_from(len).unwrap_or(0)) }.to_vec()
    });
    // SAFETY: `data` is NULL or GDAL's allocation, freed once.
    unsafe { VSIFree(data.cast()) };
    bytes
}

/// The sidecar header blob `<path>.header` (spec: "Header blob"), when GDAL's sibling list
/// (NULL: a stat) has it, spelled as listed.
///
/// # Safety
/// `siblings` must be NULL or a NULL-terminated list of NUL-terminated strings.
pub(crate) unsafe fn sidecar(path: &CStr, siblings: *mut *mut c_char) -> Option<CString> {
    let mut name = [path.to_bytes(), b".header"].concat();
    name.push(0);
    // SAFETY: `name` is NUL-terminated; CPLCheckForFile rewrites it in place, same length.
    let found = unsafe { CPLCheckForFile(name.as_mut_ptr().cast(), siblings) } != 0;
    found.then(|| CStr::from_bytes_until_nul(&name).ok().map(CStr::to_owned)).flatten()
}
