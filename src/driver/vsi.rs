//! The byte source of a GDAL open: `rumi_io` callbacks over a VSI handle (`VSILFILE *`), in
//! Rust. The plugin crate links libgdal, so it calls GDAL's VSI C functions (`cpl_vsi.h`)
//! itself; the C++ adapter only hands over the handle GDAL opened (`rumi_gdal_open`, the
//! private protocol), which from then on belongs to the [`VsiFile`] here: the dataset keeps
//! it, and `rumi_free` (or a failed open) closes it.

use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicPtr, Ordering};
use std::sync::Mutex;

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

/// A VSI handle and the process it belongs to, whose threads alone take its lock.
struct Slot {
    /// the handle (null once closed); a VSI handle has a file position, so every use holds the lock
    fp: Mutex<*mut c_void>,
    /// the process id the handle belongs to: a forked child shares the parent's handle (a local
    /// file's descriptor, hence its file offset, a network handle's connection) and must not
    /// read through it, nor take its lock: fork copies a mutex as it was, held by a thread of
    /// the parent's that the child does not have, and the child would wait for it forever
    pid: u32,
}

/// A VSI handle, closed on drop. A process forked after the open reopens the file for itself
/// at its first read ([`VsiFile::slot_for`]) into a slot of its own: GDAL users fork (Python's
/// multiprocessing) with datasets open in the parent, and reads of parent and child through
/// one handle interleave their seeks and read the wrong bytes.
pub(crate) struct VsiFile {
    /// the slot of the process that reads now (a `Box<Slot>`): the opener's, or a forked
    /// child's, which replaces it in the child only; a replaced slot is left as it is (its lock
    /// may be held by a thread that only the parent has, its handle is the parent's)
    slot: AtomicPtr<Slot>,
    /// the GDAL path the handle reads, to reopen it in a forked child
    path: CString,
    /// the server of a URL (`http://host:port` of `/vsicurl/http://host:port/f.rumi`), else
    /// the path: named when a read fails
    server: String,
}

// SAFETY: a handle is only used with its slot's mutex held, and VSI handles may move between threads.
unsafe impl Send for VsiFile {}
// SAFETY: as above: every use of a handle goes through its slot's mutex; slots are swapped atomically.
unsafe impl Sync for VsiFile {}

impl Drop for VsiFile {
    fn drop(&mut self) {
        let p = *self.slot.get_mut();
        // SAFETY: the slot pointer is always a live `Box<Slot>` (never null, freed only here).
        let slot = unsafe { &mut *p };
        // a forked child that never read leaves the parent's slot and handle to the parent
        if slot.pid == std::process::id() {
            let fp = *slot.fp.get_mut().unwrap_or_else(|e| e.into_inner());
            if !fp.is_null() {
                // SAFETY: this process's handle (handed over by `rumi_gdal_open`'s caller, or
                // reopened here), closed once.
                unsafe { VSIFCloseL(fp) };
            }
            // SAFETY: the box made in `VsiFile::with_owner` or `slot_for`, freed once.
            drop(unsafe { Box::from_raw(p) });
        }
    }
}

impl VsiFile {
    /// Takes over `fp` (a `VSILFILE *`, non-null).
    pub(crate) fn new(fp: *mut c_void) -> Box<VsiFile> {
        Self::with_owner(fp, std::process::id())
    }

    fn with_owner(fp: *mut c_void, pid: u32) -> Box<VsiFile> {
        let slot = Box::into_raw(Box::new(Slot { fp: Mutex::new(fp), pid }));
        Box::new(VsiFile { slot: AtomicPtr::new(slot), path: CString::default(), server: String::new() })
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

    /// The slot of process `pid`, decided on the slot's process id before any lock is taken:
    /// the current slot when it is pid's, else (a process forked after the open, or after its
    /// parent's reopen) a new slot with the handle `reopen` gives (told the slot it replaces;
    /// `Err`: the read's error code), which this process's later reads use. The replaced slot
    /// is never locked nor closed here.
    fn slot_for(&self, pid: u32, reopen: impl FnOnce(&Slot) -> Result<*mut c_void, c_int>) -> Result<&Slot, c_int> {
        let cur = self.slot.load(Ordering::Acquire);
        // SAFETY: the slot pointer is always a live `Box<Slot>`; slots are never freed while the file lives.
        let slot = unsafe { &*cur };
        if slot.pid == pid {
            return Ok(slot);
        }
        let fresh = Box::into_raw(Box::new(Slot { fp: Mutex::new(reopen(slot)?), pid }));
        match self.slot.compare_exchange(cur, fresh, Ordering::AcqRel, Ordering::Acquire) {
            // SAFETY: installed: alive until the file is dropped.
            Ok(_) => Ok(unsafe { &*fresh }),
            Err(won) => {
                // another thread of this process reopened first: its slot is this process's
                // SAFETY: `fresh` was never shared; `won` is a live slot.
                let mine = unsafe { Box::from_raw(fresh) };
                let fp = mine.fp.into_inner().unwrap_or_else(|e| e.into_inner());
                if !fp.is_null() && !cfg!(test) {
                    // (the unit tests' handles are fake)
                    // SAFETY: the handle just opened by `reopen`, used by nobody.
                    unsafe { VSIFCloseL(fp) };
                }
                Ok(unsafe { &*won })
            }
        }
    }
}

/// Runs `f` on the handle of `ctx` (a `VsiFile`) with its lock held, first reopening the file
/// when this process is not the one that opened the handle (a forked child); no panic escapes.
fn locked(ctx: *mut c_void, f: impl FnOnce(*mut c_void, &VsiFile) -> c_int) -> c_int {
    catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: `ctx` is the `VsiFile` of `VsiFile::io`, alive while the dataset lives.
        let file = unsafe { &*(ctx as *const VsiFile) };
        let pid = std::process::id();
        let slot = match file.slot_for(pid, |parent| {
            // SAFETY: a NUL-terminated path and access mode; GDAL returns a new handle or NULL.
            let fresh = unsafe { VSIFOpenL(file.path.as_ptr(), c"rb".as_ptr()) };
            if fresh.is_null() {
                crate::capi::io::set_failure_cause(format!(
                    "this process ({pid}) was forked from process {} after the open, and cannot reopen '{}' to \
                     read it through a handle of its own (the parent's is not shared: its file offset would be)",
                    parent.pid,
                    file.path.to_string_lossy()
                ));
                return Err(RUMI_IO_ERROR);
            }
            Ok(fresh)
        }) {
            Ok(slot) => slot,
            Err(code) => return code,
        };
        let fp = slot.fp.lock().unwrap_or_else(|e| e.into_inner());
        f(*fp, file)
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;
    use std::time::Duration;

    /// Fake handles and process ids (not this process's: nothing is closed through GDAL).
    const PARENT: u32 = u32::MAX - 2;
    const CHILD: u32 = u32::MAX - 1;
    const GRANDCHILD: u32 = u32::MAX;

    fn fake(n: usize) -> *mut c_void {
        n as *mut c_void
    }

    /// The state fork leaves a child in when another thread of the parent was reading: the
    /// slot's lock held by a thread the child does not have. The child (and its own child)
    /// gets a slot of its own without taking that lock; the parent keeps its slot.
    #[test]
    fn a_forked_process_never_takes_the_lock_of_a_slot_not_its_own() {
        let file = VsiFile::with_owner(fake(1), PARENT);
        let parent = file.slot_for(PARENT, |_| panic!("the opener reopens nothing")).unwrap() as *const Slot as usize;
        // SAFETY (test): the slot is alive while `file` is; its lock is held for good, as a
        // thread of the parent would hold it at fork.
        std::mem::forget(unsafe { &*(parent as *const Slot) }.fp.lock().unwrap());
        let file: &'static VsiFile = Box::leak(file);
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut told = None;
            let child = file
                .slot_for(CHILD, |p| {
                    told = Some(p.pid);
                    Ok(fake(2))
                })
                .unwrap();
            let fp = *child.fp.lock().unwrap();
            let again = file.slot_for(CHILD, |_| panic!("reopened twice")).unwrap() as *const Slot as usize;
            let grand = file.slot_for(GRANDCHILD, |p| Ok(fake(3 + p.pid as usize - CHILD as usize))).unwrap();
            tx.send((
                told,
                fp as usize,
                child.pid,
                again == child as *const Slot as usize,
                *grand.fp.lock().unwrap() as usize,
            ))
            .unwrap();
        });
        // a hang (the held lock taken) fails here rather than stalling the suite
        let got = rx.recv_timeout(Duration::from_secs(60)).expect("the forked process waited on its parent's lock");
        assert_eq!(got, (Some(PARENT), 2, CHILD, true, 3));
    }

    /// Two threads of a forked child reopening at once: one slot wins, the other's handle is
    /// given up, and both read through the winner's.
    #[test]
    fn threads_of_a_child_share_one_reopened_slot() {
        let file: &'static VsiFile = Box::leak(VsiFile::with_owner(fake(1), PARENT));
        let a = file.slot_for(CHILD, |_| {
            // another thread installs its slot while this one reopens
            let b = file.slot_for(CHILD, |_| Ok(fake(7))).unwrap();
            assert_eq!(*b.fp.lock().unwrap() as usize, 7);
            Ok(fake(8))
        });
        assert_eq!(*a.unwrap().fp.lock().unwrap() as usize, 7);
    }
}
