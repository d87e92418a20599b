//! Atomic outputs: a rumi file and its sidecars are one thing (used by every host that writes).
//!
//! * Temporary files are anonymous ([`Staged`]: `O_TMPFILE`, linked into the folder only at
//!   commit), so a kill leaves nothing visible. Where the filesystem has no `O_TMPFILE`, a
//!   named `.rumi-partial-XXXXXX` file is used, locked with `flock` while it lives; the next
//!   run in that folder removes those whose lock is free ([`clean_stale`]).
//!   `RUMI_NAMED_TEMPORARIES=1` forces the named fallback.
//! * A file and its sidecars are committed so that every intermediate state is consistent
//!   ([`commit_pair`]): the old sidecars are removed first, then the new file is renamed into
//!   place, then its new sidecars; the folder is fsynced after each step. A crash leaves the old
//!   pair, the old file alone, the new file alone or the new pair; never a file beside another
//!   file's sidecar.
//! * Rewriting a file replaces it and its sidecars ([`plan_rewrite`], every host's one rule):
//!   the old `.header` and rumi's own nodata `.aux.xml` go with the old file; the sidecars GDAL
//!   derived from the old contents (overviews, saved statistics, masks) would describe pixels
//!   that are gone, so a rewrite refuses, naming them, unless the caller asked to remove them.

use std::ffi::{CString, OsStr};
use std::fs::File;
use std::io::{self, Write};
use std::os::fd::{AsRawFd, FromRawFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// Prefix of named temporary files.
pub const PARTIAL_PREFIX: &str = ".rumi-partial-";

/// `<path><suffix>` (e.g. the `.header` sidecar of a path that is not UTF-8).
pub fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut s = path.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

fn io_err(what: String, e: io::Error) -> Error {
    Error::Io(io::Error::new(e.kind(), format!("{what}: {e}")))
}

fn dir_of(path: &Path) -> &Path {
    path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."))
}

fn cstring(path: &Path) -> Result<CString> {
    CString::new(path.as_os_str().as_bytes()).map_err(|_| {
        Error::Io(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{}: the path contains a NUL byte", path.display()),
        ))
    })
}

/// A complete-or-nothing temporary output, beside its final path.
pub struct Staged {
    file: File,
    path: PathBuf,
    /// the name in the folder while it has one (the fallback, or after linking)
    named: Option<PathBuf>,
}

fn random_name(dir: &Path) -> PathBuf {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let mix = (nanos as u64) ^ (u64::from(std::process::id()) << 32) ^ n.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    dir.join(format!("{PARTIAL_PREFIX}{:012x}", mix & 0xffff_ffff_ffff))
}

fn flock(file: &File, nonblocking: bool) -> bool {
    let op = libc::LOCK_EX | if nonblocking { libc::LOCK_NB } else { 0 };
    // SAFETY: flock on a file descriptor we own for the duration of the call.
    unsafe { libc::flock(file.as_raw_fd(), op) == 0 }
}

impl Staged {
    /// An anonymous temporary file in the folder of `path`, with the mode a plain
    /// `File::create` would give the output (that of the file it replaces, or 0666 minus the
    /// umask).
    pub fn create(path: &Path) -> Result<Self> {
        let dir = dir_of(path);
        let what = || format!("cannot create a temporary file beside {}", path.display());
        let existing = std::fs::metadata(path).ok().filter(|m| m.is_file()).map(|m| m.permissions());
        let cdir = cstring(dir)?;
        // An anonymous file is linked at commit through /proc/self/fd: without /proc, a named one.
        // RUMI_NAMED_TEMPORARIES=1 forces the named fallback (how the tests exercise it).
        let named = std::env::var_os("RUMI_NAMED_TEMPORARIES").is_some_and(|v| v == "1");
        let fd = if !named && Path::new("/proc/self/fd").is_dir() {
            // SAFETY: open(2) with a NUL-terminated path; the returned descriptor is owned below.
            unsafe { libc::open(cdir.as_ptr(), libc::O_TMPFILE | libc::O_RDWR | libc::O_CLOEXEC, 0o666) }
        } else {
            -2
        };
        let staged = if fd >= 0 {
            // SAFETY: `fd` is a fresh descriptor nobody else owns.
            let file = unsafe { File::from_raw_fd(fd) };
            flock(&file, false);
            Staged { file, path: path.to_path_buf(), named: None }
        } else {
            let err = if fd == -2 {
                std::io::Error::from_raw_os_error(libc::EOPNOTSUPP)
            } else {
                std::io::Error::last_os_error()
            };
            match err.raw_os_error() {
                // no O_TMPFILE on this filesystem or kernel (or no /proc): a named, locked temporary file
                Some(libc::EOPNOTSUPP | libc::EISDIR | libc::EINVAL) => {
                    let mut builder = tempfile::Builder::new();
                    builder.prefix(PARTIAL_PREFIX).permissions(std::fs::Permissions::from_mode(0o666));
                    let (file, tmp) = builder
                        .tempfile_in(dir)
                        .map_err(|e| io_err(what(), e))?
                        .keep()
                        .map_err(|e| io_err(what(), e.error))?;
                    flock(&file, false);
                    Staged { file, path: path.to_path_buf(), named: Some(tmp) }
                }
                _ => return Err(io_err(what(), err)),
            }
        };
        if let Some(p) = existing {
            staged.file.set_permissions(p).map_err(|e| io_err(what(), e))?;
        }
        Ok(staged)
    }

    /// A staged file holding `bytes`.
    pub fn with_bytes(path: &Path, bytes: &[u8]) -> Result<Self> {
        let mut s = Staged::create(path)?;
        s.file.write_all(bytes).map_err(|e| io_err(format!("cannot write {}", path.display()), e))?;
        Ok(s)
    }

    /// The open temporary file.
    pub fn file(&mut self) -> &mut File {
        &mut self.file
    }

    /// The final path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Flushes the contents to disk.
    fn sync(&self) -> Result<()> {
        self.file.sync_all().map_err(|e| io_err(format!("cannot write {}", self.path.display()), e))
    }

    /// Gives the anonymous file a (temporary) name in its folder.
    fn link(&mut self) -> Result<PathBuf> {
        if let Some(n) = &self.named {
            return Ok(n.clone());
        }
        let proc = CString::new(format!("/proc/self/fd/{}", self.file.as_raw_fd()))
            .map_err(|_| Error::Io(io::Error::other("internal error: descriptor path")))?;
        for _ in 0..16 {
            let name = random_name(dir_of(&self.path));
            let cname = cstring(&name)?;
            // SAFETY: linkat(2) with NUL-terminated paths; AT_SYMLINK_FOLLOW makes the magic
            // /proc link name the open (anonymous) file.
            let r = unsafe {
                libc::linkat(libc::AT_FDCWD, proc.as_ptr(), libc::AT_FDCWD, cname.as_ptr(), libc::AT_SYMLINK_FOLLOW)
            };
            if r == 0 {
                self.named = Some(name.clone());
                return Ok(name);
            }
            let err = std::io::Error::last_os_error();
            if err.kind() != std::io::ErrorKind::AlreadyExists {
                return Err(io_err(format!("cannot write {}", self.path.display()), err));
            }
        }
        Err(Error::Io(io::Error::new(
            io::ErrorKind::AlreadyExists,
            format!("cannot write {}: no free temporary name", self.path.display()),
        )))
    }

    /// Renames into place (and fsyncs the folder).
    fn rename_into_place(mut self) -> Result<()> {
        let tmp = self.link()?;
        std::fs::rename(&tmp, &self.path).map_err(|e| io_err(format!("cannot write {}", self.path.display()), e))?;
        self.named = None;
        sync_dir(&self.path)
    }

    /// Flushes and renames into place: for single-file outputs.
    pub fn commit(self) -> Result<()> {
        self.sync()?;
        self.rename_into_place()
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        if let Some(n) = self.named.take() {
            let _ = std::fs::remove_file(n);
        }
    }
}

/// fsyncs the folder of `path` so that renames and removals in it are durable.
pub fn sync_dir(path: &Path) -> Result<()> {
    let dir = dir_of(path);
    File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(|e| io_err(format!("cannot sync the folder {}", dir.display()), e))
}

/// Removes a file, naming it in the error.
fn remove(path: &Path) -> Result<()> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(io_err(format!("cannot remove {}", path.display()), e))
        }
        _ => Ok(()),
    }
}

/// Commits a new file and its sidecars: `remove` (the old sidecars) first, then `main`, then
/// `sidecars`, each step made durable before the next. Every state a crash can leave is
/// consistent (see the module documentation).
pub fn commit_pair(main: Staged, sidecars: Vec<Staged>, remove_first: &[PathBuf]) -> Result<()> {
    main.sync()?;
    for s in &sidecars {
        s.sync()?;
    }
    let new_sidecars: Vec<&Path> = sidecars.iter().map(|s| s.path()).collect();
    let mut removed = false;
    for p in remove_first.iter().map(PathBuf::as_path).chain(new_sidecars.iter().copied()) {
        if p.symlink_metadata().is_ok() {
            remove(p)?;
            removed = true;
        }
    }
    if removed {
        sync_dir(main.path())?;
    }
    main.rename_into_place()?;
    for s in sidecars {
        s.rename_into_place()?;
    }
    Ok(())
}

/// Removes the named temporary files of interrupted runs from the folder of `out` (those no
/// live process holds locked); returns their paths, for the host to say so.
pub fn clean_stale(out: &Path) -> Vec<PathBuf> {
    let mut removed = Vec::new();
    let dir = dir_of(out);
    let Ok(entries) = std::fs::read_dir(dir) else { return removed };
    for e in entries.flatten() {
        let name = e.file_name();
        if !name.as_bytes().starts_with(PARTIAL_PREFIX.as_bytes()) {
            continue;
        }
        let path = out.with_file_name(&name);
        let Ok(file) = File::open(&path) else { continue };
        if file.metadata().is_ok_and(|m| m.is_file()) && flock(&file, true) && std::fs::remove_file(&path).is_ok() {
            removed.push(path);
        }
    }
    removed
}

/// GDAL's sidecars derived from the current `out` (overviews, PAM statistics and metadata,
/// masks, and those of its time steps `RUMI:"out":t`): stale once `out` is rewritten.
pub fn derived_sidecars(out: &Path) -> Vec<PathBuf> {
    let Some(base) = out.file_name() else { return Vec::new() };
    let Ok(entries) = std::fs::read_dir(dir_of(out)) else { return Vec::new() };
    let mut found: Vec<PathBuf> = entries
        .flatten()
        .filter(|e| e.file_name().as_bytes().strip_prefix(base.as_bytes()).is_some_and(is_derived_suffix))
        .map(|e| out.with_file_name(e.file_name()))
        .collect();
    found.sort();
    found
}

/// `.ovr`, `.aux.xml`, `.msk`, `.aux`, `.t<N>.ovr`, and each of these + `.aux.xml`.
fn is_derived_suffix(s: &[u8]) -> bool {
    let s = s.strip_suffix(b".aux.xml").map(|r| if r.is_empty() { b".aux.xml".as_slice() } else { r }).unwrap_or(s);
    if [b".ovr".as_slice(), b".aux.xml", b".msk", b".aux"].contains(&s) {
        return true;
    }
    s.strip_prefix(b".t")
        .and_then(|r| r.strip_suffix(b".ovr"))
        .is_some_and(|digits| !digits.is_empty() && digits.iter().all(u8::is_ascii_digit))
}

/// What a derived sidecar holds, for messages.
pub fn describe_derived(path: &Path) -> &'static str {
    let name = path.file_name().map(OsStr::as_bytes).unwrap_or_default();
    if name.ends_with(b".aux.xml") {
        "GDAL's saved statistics and metadata"
    } else if name.ends_with(b".msk") {
        "a mask"
    } else {
        "overviews"
    }
}

/// What rewriting the local file `out` removes besides replacing it (give it to
/// [`commit_pair`] as `remove_first`): the old `.header` and rumi's own nodata `.aux.xml`
/// always, and GDAL's derived sidecars (overviews, saved statistics, masks) only with `force`.
/// Without `force` and with derived sidecars present it is an error naming each of them and
/// `flag`, the host's name for `force` (`--force`, `force=True`); with `force`, the second
/// value is a warning naming what is removed.
pub fn plan_rewrite(
    out: &Path,
    force: bool,
    flag: &str,
) -> std::result::Result<(Vec<PathBuf>, Option<String>), String> {
    let aux = with_suffix(out, crate::pam::AUX_SUFFIX);
    let mut remove = vec![with_suffix(out, crate::open::HEADER_SUFFIX)];
    let mut derived = Vec::new();
    for p in derived_sidecars(out) {
        if p == aux && std::fs::read_to_string(&p).is_ok_and(|t| crate::pam::is_ours(&t)) {
            remove.push(p);
        } else {
            derived.push(p);
        }
    }
    if derived.is_empty() {
        return Ok((remove, None));
    }
    let list: Vec<String> = derived.iter().map(|p| format!("{} ({})", p.display(), describe_derived(p))).collect();
    if !force {
        return Err(format!(
            "{} has sidecars GDAL derived from its current contents, which would be stale after the rewrite: {}. \
             Pass {flag} to remove them (they can be rebuilt: gdaladdo, gdalinfo -stats), or move them away; \
             nothing was written",
            out.display(),
            list.join(", ")
        ));
    }
    let note = format!("removed {} ({flag}): derived from the previous {}", list.join(", "), out.display());
    remove.extend(derived);
    Ok((remove, Some(note)))
}

#[cfg(test)]
mod rewrite_tests {
    use super::*;

    #[test]
    fn derived_suffixes() {
        for ok in [".ovr", ".aux.xml", ".msk", ".ovr.aux.xml", ".msk.aux.xml", ".t0.ovr", ".t12.ovr.aux.xml", ".aux"] {
            assert!(is_derived_suffix(ok.as_bytes()), "{ok}");
        }
        for no in ["", ".header", ".tif", ".t.ovr", ".tx.ovr", "2.ovr", ".ovr.bak"] {
            assert!(!is_derived_suffix(no.as_bytes()), "{no}");
        }
    }

    #[test]
    fn rewrite_refuses_overviews_unless_forced() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("a.rumi");
        std::fs::write(&out, b"old").unwrap();
        let (remove, note) = plan_rewrite(&out, false, "--force").unwrap();
        assert_eq!(remove, vec![with_suffix(&out, ".header")]);
        assert!(note.is_none());
        std::fs::write(with_suffix(&out, ".ovr"), b"ovr").unwrap();
        let e = plan_rewrite(&out, false, "force=True").unwrap_err();
        assert!(e.contains("a.rumi.ovr (overviews)") && e.contains("Pass force=True"), "{e}");
        let (remove, note) = plan_rewrite(&out, true, "--force").unwrap();
        assert!(remove.contains(&with_suffix(&out, ".ovr")), "{remove:?}");
        assert!(note.unwrap().contains("a.rumi.ovr (overviews)"));
    }
}
