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

use std::ffi::CString;
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
