//! Output files: created beside their final path and renamed into place when complete
//! ([`AtomicFile`]), with the permissions a plain `File::create` would give them.

use std::ffi::OsString;
use std::fs::Permissions;
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use rumi::writer::AtomicFile;

use crate::fail::{Context, Res};

/// `<out>.header`: the path of the header blob sidecar.
pub fn sidecar(out: &Path) -> PathBuf {
    let mut s: OsString = out.as_os_str().to_owned();
    s.push(".header");
    PathBuf::from(s)
}

#[allow(clippy::useless_conversion)] // mode_t is u32 on Linux, u16 elsewhere
fn umask() -> u32 {
    // SAFETY: umask only swaps the process's file-mode creation mask; the old mask is put back
    // at once (the CLI creates no files from other threads meanwhile).
    let old = unsafe { libc::umask(0o022) };
    // SAFETY: as above.
    unsafe { libc::umask(old) };
    u32::from(old)
}

/// A temporary file beside `path`. Temporary files are created with mode 0600; the output
/// gets the mode of the file it replaces, or 0666 minus the umask for a new file.
pub fn create(path: &Path) -> Res<AtomicFile> {
    let mut f =
        AtomicFile::create(path).context(|| format!("cannot create a temporary file beside {}", path.display()))?;
    let mode = match std::fs::metadata(path) {
        Ok(m) if m.is_file() => m.permissions().mode() & 0o7777,
        _ => 0o666 & !umask(),
    };
    f.file().set_permissions(Permissions::from_mode(mode)).context(|| path.display().to_string())?;
    Ok(f)
}

/// A temporary file beside `path` holding `bytes`, ready to be committed.
pub fn staged(path: &Path, bytes: &[u8]) -> Res<AtomicFile> {
    let mut f = create(path)?;
    f.file().write_all(bytes).context(|| path.display().to_string())?;
    Ok(f)
}

/// Renames a complete temporary file into place.
pub fn commit(f: AtomicFile, path: &Path) -> Res<()> {
    f.commit().context(|| format!("cannot write {}", path.display()))
}
