//! Outputs: a rumi file and its sidecars are one thing.
//!
//! * Inputs are sacred: every output path (file, sidecar, derived sidecar to be removed) is
//!   compared with every input by file identity (device + inode, so spelling, `./`, symlinks
//!   and hard links do not matter) before anything is written ([`Inputs`]).
//! * Temporary files and the commit of a file with its sidecars are the core's
//!   (`rumi::commit`: anonymous temporaries, old sidecars removed first, then the file, then
//!   its new sidecars, each step durable), shared with the Python package.

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use crate::fail::{say, Failure, Res};

/// `<out><suffix>`.
pub fn with_suffix(out: &Path, suffix: &str) -> PathBuf {
    rumi::commit::with_suffix(out, suffix)
}

/// `<out>.header`: the path of the header blob sidecar.
pub fn sidecar(out: &Path) -> PathBuf {
    with_suffix(out, rumi::open::HEADER_SUFFIX)
}

/// `<out>.aux.xml`: GDAL's PAM sidecar (where rumi stores the nodata values).
pub fn aux_xml(out: &Path) -> PathBuf {
    with_suffix(out, rumi::pam::AUX_SUFFIX)
}

fn dir_of(path: &Path) -> &Path {
    path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."))
}

/// (device, inode) of the file at `path` (symlinks followed), if it exists.
fn identity(path: &Path) -> Option<(u64, u64)> {
    std::fs::metadata(path).ok().map(|m| (m.dev(), m.ino()))
}

/// The files a command reads, by identity.
#[derive(Default)]
pub struct Inputs {
    files: Vec<(PathBuf, (u64, u64))>,
}

impl Inputs {
    /// Records `path` as an input (nothing if it does not exist as a file).
    pub fn add(&mut self, path: &Path) {
        if let Some(id) = identity(path) {
            if !self.files.iter().any(|f| f.1 == id) {
                self.files.push((path.to_path_buf(), id));
            }
        }
    }

    /// Refuses an output `out` (`what`: "output", "header sidecar", ...) that is an input.
    pub fn check(&self, out: &Path, what: &str) -> Res<()> {
        let Some(id) = identity(out) else { return Ok(()) };
        match self.files.iter().find(|f| f.1 == id) {
            Some((input, _)) => Err(Failure(format!(
                "the {what} {} is the same file as the input {}; nothing was written (choose another output)",
                out.display(),
                input.display()
            ))),
            None => Ok(()),
        }
    }
}

pub use rumi::commit::{commit_pair, Staged};

/// Removes the named temporary files of interrupted runs from the folder of `out` (those no
/// live process holds locked); says so for each.
pub fn clean_stale(out: &Path) {
    for path in rumi::commit::clean_stale(out) {
        say(&format!("removed {}, left by an interrupted rumi run", path.display()));
    }
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

#[cfg(test)]
mod tests {
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
}
