//! Output files: created beside their final path and renamed into place when complete
//! ([`AtomicFile`], which gives them the permissions a plain `File::create` would).

use std::ffi::OsString;
use std::io::Write;
use std::path::{Path, PathBuf};

use rumi::writer::AtomicFile;

use crate::fail::{Context, Res};

/// `<out>.header`: the path of the header blob sidecar.
pub fn sidecar(out: &Path) -> PathBuf {
    let mut s: OsString = out.as_os_str().to_owned();
    s.push(".header");
    PathBuf::from(s)
}

/// A temporary file beside `path`, with the mode the output will have (see [`AtomicFile`]).
pub fn create(path: &Path) -> Res<AtomicFile> {
    AtomicFile::create(path).context(|| format!("cannot create a temporary file beside {}", path.display()))
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
