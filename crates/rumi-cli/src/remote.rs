//! Object storage in the CLI: `info`, `validate` and `header` read `s3://bucket/key` and
//! `http(s)://host/path` through the core's store (`rumi::store`), and `convert` / `stack`
//! upload to `s3://bucket/key` once the local temporary file is complete. Endpoint,
//! credentials and region come from the usual AWS environment variables (`AWS_ENDPOINT_URL`,
//! `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`, `AWS_REGION`,
//! `AWS_ALLOW_HTTP`); timeouts and retries are the core's defaults.

use std::fs::File;
use std::io::ErrorKind;
use std::path::Path;

use rumi::store::{self, Options, Sidecar, Source};

use crate::fail::{say, Context, Failure, Res};
use crate::interrupt;

/// Largest header blob fetched from object storage.
const MAX_BLOB_BYTES: u64 = 1 << 30;

/// The URL `path` spells, when it is one (`s3://`, `http://`, `https://`).
pub fn url_of(path: &Path) -> Option<&str> {
    path.to_str().filter(|s| store::is_url(s))
}

/// The client settings (the core's defaults).
pub fn options() -> Options {
    Options::default()
}

/// Opens a rumi file by path or URL (no request is sent for a URL).
pub fn open(path: &Path) -> Res<Source> {
    match url_of(path) {
        Some(url) => Source::open(url, &options()).map_err(|e| Failure(e.to_string())),
        None => File::open(path).map(Source::File).context(|| format!("cannot open {}", path.display())),
    }
}

/// The bytes of a header blob by path or URL.
pub fn read_blob(path: &Path) -> Res<Vec<u8>> {
    let what = || format!("cannot read header blob {}", path.display());
    match url_of(path) {
        Some(url) => store::fetch(url, &options(), MAX_BLOB_BYTES).context(what),
        None => std::fs::read(path).context(what),
    }
}

/// The sidecar `<url>.header` of the object at `url` (its URL and bytes), when there is one. A
/// sidecar that cannot be read is ignored with a warning; a refused access is an error (the
/// object has the same endpoint and credentials). Whether it describes the object is the
/// core's open policy's to check (`rumi::open`).
pub fn sidecar(url: &str) -> Res<Option<(String, Vec<u8>)>> {
    let side = rumi::open::sidecar_name(url);
    match store::fetch(&side, &options(), MAX_BLOB_BYTES) {
        Ok(bytes) => Ok(Some((side, bytes))),
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(None),
        // the object is behind the same endpoint and credentials: no use trying it
        Err(e) if e.kind() == ErrorKind::PermissionDenied => Err(Failure(e.to_string())),
        Err(e) => {
            say(&format!(
                "warning: {url}: cannot read the sidecar header blob ({e}); opening the object by parsing it"
            ));
            Ok(None)
        }
    }
}

/// The text of the PAM sidecar `<url>.aux.xml` beside the object at `url` (its URL and text),
/// when there is one; as [`sidecar`], an unreadable one is ignored with a warning.
pub fn aux_text(url: &str) -> Res<Option<(String, String)>> {
    let side = format!("{url}{}", rumi::pam::AUX_SUFFIX);
    match store::fetch(&side, &options(), MAX_BLOB_BYTES) {
        Ok(bytes) => Ok(Some((side, String::from_utf8_lossy(&bytes).into_owned()))),
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(None),
        Err(e) if e.kind() == ErrorKind::PermissionDenied => Err(Failure(e.to_string())),
        Err(e) => {
            say(&format!("warning: {side}: cannot read the nodata sidecar ({e}); nodata not shown"));
            Ok(None)
        }
    }
}

/// Fails early (before any conversion) when `url` cannot be written: HTTP(S) is read-only.
pub fn check_writable(url: &str) -> Res<()> {
    if url.starts_with("s3://") {
        Ok(())
    } else {
        Err(Failure(format!("{url}: cannot write there: HTTP(S) servers are read-only here; write to s3://bucket/key")))
    }
}

/// Uploads the finished `file` to `url`, then its header blob (`None`: --no-header) and nodata
/// sidecar (`None`: no nodata); previous sidecars that would be stale are removed. On failure
/// or interrupt nothing new is left at the destination and no multipart upload is pending.
pub fn upload(file: &File, url: &str, header: Option<&[u8]>, aux_xml: Option<&[u8]>) -> Res<()> {
    let sidecars =
        [Sidecar { suffix: rumi::open::HEADER_SUFFIX, bytes: header }, Sidecar { suffix: ".aux.xml", bytes: aux_xml }];
    match store::upload(file, url, &sidecars, &options(), &|| interrupt::received().is_some()) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == ErrorKind::Interrupted => {
            interrupt::check()?;
            Err(Failure(format!("{e}; nothing was written")))
        }
        Err(e) => Err(Failure(format!("cannot upload {e}; nothing was written there"))),
    }
}

/// Writes a small object (a header blob) with one PUT.
pub fn put(url: &str, bytes: &[u8]) -> Res<()> {
    store::put(url, bytes, &options()).map_err(|e| Failure(format!("cannot write {url}: {e}")))
}
