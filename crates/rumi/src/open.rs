//! The open policy every host uses: which header blob an open uses, how it is checked against
//! the file, and what happens when it does not match (spec "Header blob": how an application
//! keeps a blob associated with its file is outside the specification; this is rumi's rule).
//!
//! - An **explicit** blob (the caller named it: GDAL's `HEADER=` open option, Python's
//!   `header=`, the CLI's `--header`) that is invalid or does not match the file is an error
//!   naming both.
//! - The **sidecar** `<file>.header` ([`sidecar_name`]), found beside the file by the host, is
//!   used when it matches; a stale one is ignored with a warning and the file parsed instead
//!   ([`StaleSidecar::Warn`], the default), or refused ([`StaleSidecar::Error`]).
//! - **None**: the file is parsed and validated ([`Reader::open`]).
//!
//! Hosts fetch the blob's bytes with their own I/O (VSI, a local file, object storage) and
//! hand them here; the checks, the texts and the fallback live only here.

use crate::error::{Error, Limits, Result};
use crate::format::blob::BLOB_HEADER_BYTES;
use crate::io::RangeRead;
use crate::reader::Reader;
use crate::validate::check_blob_prefix;

/// The suffix of the header blob sidecar: `<file>.header`.
pub const HEADER_SUFFIX: &str = ".header";

/// The name of the header blob sidecar of `file` (a path or a URL).
pub fn sidecar_name(file: &str) -> String {
    format!("{file}{HEADER_SUFFIX}")
}

/// The sidecar `<file>.header` of a file on the local file system: [`HeaderBlob::None`] when
/// nothing has that name, its bytes, or [`HeaderBlob::Unreadable`] when something there cannot
/// be read ([`unreadable_sidecar`]).
pub fn local_sidecar(file: &str) -> HeaderBlob {
    let name = sidecar_name(file);
    match std::fs::read(&name) {
        Ok(bytes) => HeaderBlob::Sidecar { name, bytes },
        Err(e) => match unreadable_sidecar(&name, Some(&e)) {
            Some(why) => HeaderBlob::Unreadable { name, why },
            None => HeaderBlob::None,
        },
    }
}

/// Why the local sidecar `name`, which a host could not read (`err`, when it has one) or did
/// not find with a `stat` (which follows links), is still a sidecar the open must warn about:
/// a symbolic link to a missing file, or something there that cannot be read. `None` when
/// nothing has that name: no sidecar.
pub fn unreadable_sidecar(name: &str, err: Option<&std::io::Error>) -> Option<String> {
    let meta = std::fs::symlink_metadata(name).ok()?;
    if meta.file_type().is_symlink() && std::fs::metadata(name).is_err() {
        let target = std::fs::read_link(name).map(|t| t.display().to_string()).unwrap_or_default();
        return Some(format!(
            "cannot read the header blob '{name}': it is a symbolic link to '{target}', which does not exist"
        ));
    }
    let why = err.map_or_else(|| "unreadable".to_string(), |e| e.to_string());
    Some(format!("cannot read the header blob '{name}': {why}"))
}

/// The warning of an open that ignores the unreadable sidecar `name` of `file` (`why`).
pub fn unreadable_warning(file: &str, name: &str, why: &str) -> String {
    format!("{file}: ignoring the sidecar header blob {name} ({why}); opening the file by parsing it")
}

/// The largest header blob `limits` allow, in bytes: the 32-byte fixed part and a 32-bit count
/// for each of `max_frames` frames (at most 2^40), so that a host reading a blob before it is
/// parsed allocates no more than the frame limit implies.
pub fn max_blob_bytes(limits: &Limits) -> u64 {
    BLOB_HEADER_BYTES as u64 + 4 * limits.max_frames.min(1 << 40)
}

/// The header blob an open is given.
#[derive(Debug, Clone)]
pub enum HeaderBlob {
    /// No blob: the file is parsed and validated.
    None,
    /// A blob the caller named (`name` is how errors refer to it): an error when unusable.
    Explicit { name: String, bytes: Vec<u8> },
    /// The sidecar the host found beside the file: ignored (or refused) when stale.
    Sidecar { name: String, bytes: Vec<u8> },
    /// A sidecar that is there but cannot be read (`why`: a symbolic link to a missing file, a
    /// folder, no permission, too large): ignored with a warning (or refused) as a stale one.
    Unreadable { name: String, why: String },
}

/// What a sidecar that does not match its file does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum StaleSidecar {
    /// Ignored with a warning ([`Opened::warning`]); the file is parsed instead.
    #[default]
    Warn,
    /// An error, as for an explicit blob.
    Error,
}

/// How much of the file a blob is checked against before it is trusted.
#[derive(Debug, Clone, Copy, Default)]
pub enum BlobCheck<'a> {
    /// The file's first bytes, which the host already holds (GDAL identifies files by them):
    /// with the 292-byte header and IFD the shape is compared, with the external values too
    /// every frame byte count; then the file's size.
    Prefix(&'a [u8]),
    /// The file's size, and the trailer magic where the blob's frames end: one 4-byte read
    /// (free on a local file).
    #[default]
    SizeAndTrailer,
    /// Only the size the blob's fixed header implies (the stateless open reads no byte of the
    /// file; the source's size may be learned from its first response).
    Size,
    /// As [`BlobCheck::Prefix`], with the bytes before the first frame read here (one request:
    /// header, IFD and every frame byte count compared; a remote object's size comes with it).
    ReadPrefix,
}

/// How to open: limits, the stale-sidecar rule and the blob check.
#[derive(Debug, Clone, Copy, Default)]
pub struct OpenOptions<'a> {
    /// resource limits of the reader
    pub limits: Limits,
    /// what a stale sidecar does
    pub stale_sidecar: StaleSidecar,
    /// how a blob is checked against the file
    pub check: BlobCheck<'a>,
}

/// An open file, and how it was opened.
pub struct Opened<R: RangeRead> {
    /// the reader
    pub reader: Reader<R>,
    /// the name of the blob the open used (stateless), `None` when the file was parsed
    pub blob: Option<String>,
    /// why a sidecar was ignored, when it was ([`StaleSidecar::Warn`])
    pub warning: Option<String>,
}

/// Opens `src` (named `file` in errors and warnings) with `header` under `opts`.
pub fn open<R: RangeRead>(src: R, file: &str, header: HeaderBlob, opts: &OpenOptions<'_>) -> Result<Opened<R>> {
    let (name, bytes, explicit) = match header {
        HeaderBlob::None => {
            let reader = Reader::open(src, opts.limits)?;
            return Ok(Opened { reader, blob: None, warning: None });
        }
        HeaderBlob::Explicit { name, bytes } => (name, bytes, true),
        HeaderBlob::Sidecar { name, bytes } => (name, bytes, false),
        HeaderBlob::Unreadable { name, why } if opts.stale_sidecar == StaleSidecar::Warn => {
            let warning = unreadable_warning(file, &name, &why);
            let reader = Reader::open(src, opts.limits)?;
            return Ok(Opened { reader, blob: None, warning: Some(warning) });
        }
        HeaderBlob::Unreadable { name, why } => {
            let source = Box::new(Error::Io(std::io::Error::other(why)));
            return Err(Error::HeaderBlob { blob: name, file: file.to_string(), source });
        }
    };
    // checked through a borrowed source first, so that a stale sidecar leaves `src` to parse
    match check(&src, &bytes, opts) {
        Ok(()) => {
            let reader = Reader::open_with_blob(src, &bytes, opts.limits)?;
            Ok(Opened { reader, blob: Some(name), warning: None })
        }
        // the file itself cannot be read: said as such (a file shorter than the blob says is a
        // mismatch, below)
        Err(Error::Io(e)) if e.kind() != std::io::ErrorKind::UnexpectedEof => Err(Error::Io(e)),
        Err(e) if !explicit && opts.stale_sidecar == StaleSidecar::Warn => {
            let warning = format!(
                "{file}: ignoring the sidecar header blob {name}, which does not match the file ({e}); \
                 opening the file by parsing it"
            );
            let reader = Reader::open(src, opts.limits)?;
            Ok(Opened { reader, blob: None, warning: Some(warning) })
        }
        Err(e) => Err(Error::HeaderBlob { blob: name, file: file.to_string(), source: Box::new(e) }),
    }
}

/// Every check `opts.check` asks for of `blob` against the file behind `src`.
fn check<R: RangeRead>(src: &R, blob: &[u8], opts: &OpenOptions<'_>) -> Result<()> {
    let probe = Reader::open_with_blob(Borrowed(src), blob, opts.limits)?;
    match opts.check {
        BlobCheck::Prefix(prefix) => check_blob_prefix(&probe, prefix),
        BlobCheck::SizeAndTrailer => {
            check_blob_prefix(&probe, &[])?;
            let at = probe.trailer_offset();
            let magic = probe.source().read_at(at, 4)?;
            if magic != crate::format::trailer::TRAILER_MAGIC {
                return Err(Error::TrailerNotAtFramesEnd { offset: at, found: magic_of(&magic) });
            }
            Ok(())
        }
        BlobCheck::Size => Ok(()),
        BlobCheck::ReadPrefix => {
            let base = probe.layout().base_frame_offset()?;
            let len = usize::try_from(base).map_err(|_| Error::Overflow("base_frame_offset"))?;
            let prefix = probe.source().read_at(0, len)?;
            check_blob_prefix(&probe, &prefix)
        }
    }
}

fn magic_of(bytes: &[u8]) -> [u8; 4] {
    let mut m = [0u8; 4];
    let n = bytes.len().min(4);
    m[..n].copy_from_slice(&bytes[..n]);
    m
}

/// A source read through a reference, for the checks that must leave the source to its owner.
struct Borrowed<'a, R>(&'a R);

impl<R: RangeRead> RangeRead for Borrowed<'_, R> {
    fn read_at(&self, offset: u64, len: usize) -> std::io::Result<Vec<u8>> {
        self.0.read_at(offset, len)
    }
    fn read_ranges(&self, ranges: &[(u64, usize)]) -> std::io::Result<Vec<Vec<u8>>> {
        self.0.read_ranges(ranges)
    }
    fn size(&self) -> std::io::Result<u64> {
        self.0.size()
    }
    fn known_size(&self) -> std::io::Result<Option<u64>> {
        self.0.known_size()
    }
    fn latency_bound(&self) -> bool {
        self.0.latency_bound()
    }
}
