//! Outputs: a rumi file and its sidecars are one thing.
//!
//! * Inputs are sacred: every output path (file, sidecar, derived sidecar to be removed) is
//!   compared with every input by file identity (device + inode, so spelling, `./`, symlinks
//!   and hard links do not matter) before anything is written ([`Inputs`]).
//! * Temporary files and the commit of a file with its sidecars are the core's
//!   (`rumi::commit`: anonymous temporaries, old sidecars removed first, then the file, then
//!   its new sidecars, each step durable), shared with the Python package.

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

pub use rumi::commit::derived_sidecars;
