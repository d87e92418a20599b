//! Writing to object storage: [`upload`] (a finished file and its sidecars, complete or not
//! at all), [`put`] and [`delete`] of one small object. S3 and S3-compatible endpoints only:
//! plain HTTP(S) servers are read-only here.

use std::fs::File;
use std::io;
use std::os::unix::fs::FileExt;

use object_store::multipart::{MultipartStore, PartId};
use object_store::path::Path;
use object_store::{ObjectStore, ObjectStoreExt, WriteMultipart};

use super::client::{io_err, resolve, url_err, Client, Scheme};
use super::Options;

/// Size of the parts of a multipart upload (S3 wants at least 5 MiB but for the last).
pub const PART_BYTES: usize = 8 << 20;

/// Parts in flight at once.
const CONCURRENT_PARTS: usize = 4;

/// A sidecar of an uploaded file, `<url><suffix>`: its new bytes, or `None` when the file has
/// none any more (a previous one is removed: it would describe the previous file).
#[derive(Debug, Clone, Copy)]
pub struct Sidecar<'a> {
    /// appended to the file's URL, e.g. `.header`
    pub suffix: &'a str,
    /// the sidecar's bytes; `None`: removed
    pub bytes: Option<&'a [u8]>,
}

fn writable(url: &str, opts: &Options) -> io::Result<(std::sync::Arc<Client>, Path)> {
    let (client, path, scheme) = resolve(url, opts)?;
    if scheme != Scheme::S3 {
        return Err(url_err(
            io::ErrorKind::Unsupported,
            url,
            "cannot write there: HTTP(S) servers are read-only here; write to s3://bucket/key",
        ));
    }
    Ok((client, path))
}

/// Writes `bytes` as the object at `url` (one PUT: the object appears complete or not at all).
pub fn put(url: &str, bytes: &[u8], opts: &Options) -> io::Result<()> {
    let (client, path) = writable(url, opts)?;
    client.rt.block_on(client.store.put(&path, bytes.to_vec().into())).map_err(|e| io_err(url, e))?;
    Ok(())
}

/// Removes the object at `url` (no error when there is none).
pub fn delete(url: &str, opts: &Options) -> io::Result<()> {
    let (client, path) = writable(url, opts)?;
    match client.rt.block_on(client.store.delete(&path)) {
        Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
        Err(e) => Err(io_err(url, e)),
    }
}

/// Uploads the finished local `file` to `url` with its `sidecars`, so that a failure leaves
/// nothing new at the destination:
///
/// 1. the file as a multipart upload ([`PART_BYTES`] parts, a few in flight), nothing visible
///    yet; `stop()` is asked before each part (an interrupt);
/// 2. the previous sidecars removed (never a new file beside its predecessor's header blob);
/// 3. the upload completed: the file appears whole;
/// 4. the new sidecars written (one PUT each).
///
/// An error or a stop in 1-3 aborts the multipart upload (no part is left pending; the error
/// says so if even the abort fails); an error in 4 removes the file and the sidecars written
/// so far again. Returns the file's size.
pub fn upload(
    file: &File,
    url: &str,
    sidecars: &[Sidecar<'_>],
    opts: &Options,
    stop: &dyn Fn() -> bool,
) -> io::Result<u64> {
    let (client, path) = writable(url, opts)?;
    upload_with(&client, &path, url, file, sidecars, PART_BYTES, stop)
}

/// [`upload`] through `client` (tests use an in-memory store) with parts of `part` bytes.
fn upload_with(
    client: &Client,
    path: &Path,
    url: &str,
    file: &File,
    sidecars: &[Sidecar<'_>],
    part: usize,
    stop: &dyn Fn() -> bool,
) -> io::Result<u64> {
    let size = file.metadata()?.len();
    let store = &*client.store;
    let side = sidecar_paths(url, path, sidecars);
    client.rt.block_on(async {
        let upload = store.put_multipart(path).await.map_err(|e| io_err(url, e))?;
        let mut w = WriteMultipart::new_with_chunk_size(upload, part);
        let staged: io::Result<()> = async {
            let mut off = 0u64;
            while off < size {
                if stop() {
                    return Err(url_err(io::ErrorKind::Interrupted, url, "upload interrupted"));
                }
                w.wait_for_capacity(CONCURRENT_PARTS).await.map_err(|e| io_err(url, e))?;
                let n = (size - off).min(part as u64) as usize;
                let mut buf = vec![0u8; n];
                file.read_exact_at(&mut buf, off)?;
                w.put(buf.into());
                off += n as u64;
            }
            if stop() {
                return Err(url_err(io::ErrorKind::Interrupted, url, "upload interrupted"));
            }
            remove_stale(store, &side).await
        }
        .await;
        if let Err(e) = staged {
            return Err(aborted(e, w.abort().await));
        }
        // finish() aborts the upload itself when a part or the completion fails
        w.finish().await.map_err(|e| io_err(url, e))?;
        put_sidecars(store, url, path, &side).await?;
        Ok(size)
    })
}

/// `(url, path, bytes)` of each sidecar of `url` (at `path`).
fn sidecar_paths<'a>(url: &str, path: &Path, sidecars: &[Sidecar<'a>]) -> Vec<(String, Path, Option<&'a [u8]>)> {
    sidecars
        .iter()
        .map(|s| (format!("{url}{}", s.suffix), Path::from(format!("{path}{}", s.suffix)), s.bytes))
        .collect()
}

/// Removes the previous sidecars before the new file appears (never a new file beside its
/// predecessor's header blob).
async fn remove_stale(store: &dyn ObjectStore, side: &[(String, Path, Option<&[u8]>)]) -> io::Result<()> {
    for (u, p, _) in side {
        match store.delete(p).await {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => {}
            Err(e) => return Err(io_err(u, e)),
        }
    }
    Ok(())
}

/// Writes the new sidecars once the file is complete; on an error removes the file and the
/// sidecars written so far again.
async fn put_sidecars(
    store: &dyn ObjectStore,
    url: &str,
    path: &Path,
    side: &[(String, Path, Option<&[u8]>)],
) -> io::Result<()> {
    let mut written: Vec<&Path> = Vec::new();
    for (u, p, bytes) in side {
        let Some(b) = bytes else { continue };
        if let Err(e) = store.put(p, b.to_vec().into()).await {
            let mut undo = Vec::new();
            for q in written.into_iter().chain([path]) {
                if let Err(d) = store.delete(q).await {
                    undo.push(d.to_string());
                }
            }
            let e = io_err(u, e);
            let msg = if undo.is_empty() {
                format!("{e}; {url} was removed again")
            } else {
                format!("{e}; and removing {url} again failed: {}", undo.join("; "))
            };
            return Err(io::Error::new(e.kind(), msg));
        }
        written.push(p);
    }
    Ok(())
}

/// `e`, saying so when the abort of the upload failed too.
fn aborted(e: io::Error, abort: object_store::Result<()>) -> io::Error {
    match abort {
        Ok(()) => e,
        Err(a) => io::Error::new(e.kind(), format!("{e}; and the multipart upload could not be aborted: {a}")),
    }
}

/// The smallest part S3 accepts, but for the last one.
pub const MIN_PART_BYTES: usize = 5 << 20;

/// A multipart upload of the object at `url` whose numbered parts are uploaded by whoever holds
/// their bytes (another thread, process or machine: the URL, the id and the options are all
/// it needs), then completed with the object's sidecars, or aborted. Part `i` (from 0) is the
/// object's `i`-th piece; each part but the last must hold at least [`MIN_PART_BYTES`]. Nothing
/// is visible at `url` before [`Parts::finish`]; a process that starts one and may die before
/// finishing must arrange for [`Parts::abort`] (uploaded parts are kept, and billed, until then).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parts {
    /// the object's URL (`s3://bucket/key`)
    pub url: String,
    /// the upload's id
    pub id: String,
}

fn multipart(url: &str, opts: &Options) -> io::Result<(std::sync::Arc<Client>, Path)> {
    let (client, path) = writable(url, opts)?;
    parts_of(&client, url)?;
    Ok((client, path))
}

/// The client's multipart side, or an error naming `url`.
fn parts_of<'a>(client: &'a Client, url: &str) -> io::Result<&'a dyn MultipartStore> {
    client
        .parts
        .as_deref()
        .ok_or_else(|| url_err(io::ErrorKind::Unsupported, url, "this store has no multipart uploads"))
}

impl Parts {
    /// Starts a multipart upload to `url`.
    pub fn start(url: &str, opts: &Options) -> io::Result<Parts> {
        let (client, path) = multipart(url, opts)?;
        Self::start_with(&client, &path, url)
    }

    fn start_with(client: &Client, path: &Path, url: &str) -> io::Result<Parts> {
        let parts = parts_of(client, url)?;
        let id = client.rt.block_on(parts.create_multipart(path)).map_err(|e| io_err(url, e))?;
        Ok(Parts { url: url.to_string(), id })
    }

    /// Uploads part `index` (again: the part is replaced, as a retried task does); returns its
    /// id (ETag) for [`Parts::finish`].
    pub fn put(&self, index: usize, bytes: Vec<u8>, opts: &Options) -> io::Result<String> {
        let (client, path) = multipart(&self.url, opts)?;
        self.put_with(&client, &path, index, bytes)
    }

    fn put_with(&self, client: &Client, path: &Path, index: usize, bytes: Vec<u8>) -> io::Result<String> {
        let parts = parts_of(client, &self.url)?;
        let id = client.rt.block_on(parts.put_part(path, &self.id, index, bytes.into())).map_err(|e| {
            url_err(io::ErrorKind::Other, &self.url, format_args!("part {index}: {}", io_err(&self.url, e)))
        })?;
        Ok(id.content_id)
    }

    /// Completes the upload from its parts' ids in part order, with the object's `sidecars`:
    /// the previous sidecars removed, the object completed, the new sidecars written (an error
    /// there removes the object again). An error before the completion aborts the upload.
    pub fn finish(&self, etags: Vec<String>, sidecars: &[Sidecar<'_>], opts: &Options) -> io::Result<()> {
        let (client, path) = multipart(&self.url, opts)?;
        self.finish_with(&client, &path, etags, sidecars)
    }

    fn finish_with(
        &self,
        client: &Client,
        path: &Path,
        etags: Vec<String>,
        sidecars: &[Sidecar<'_>],
    ) -> io::Result<()> {
        let url = self.url.as_str();
        let parts = parts_of(client, url)?;
        let store = &*client.store;
        let side = sidecar_paths(url, path, sidecars);
        client.rt.block_on(async {
            let ids = etags.into_iter().map(|content_id| PartId { content_id }).collect();
            let done = match remove_stale(store, &side).await {
                Ok(()) => parts.complete_multipart(path, &self.id, ids).await.map_err(|e| io_err(url, e)),
                Err(e) => Err(e),
            };
            if let Err(e) = done {
                return Err(aborted(e, parts.abort_multipart(path, &self.id).await));
            }
            put_sidecars(store, url, path, &side).await
        })
    }

    /// Aborts the upload: its parts are dropped, nothing appears (an upload S3 no longer knows,
    /// already completed or aborted, is not an error).
    pub fn abort(&self, opts: &Options) -> io::Result<()> {
        let (client, path) = multipart(&self.url, opts)?;
        self.abort_with(&client, &path)
    }

    fn abort_with(&self, client: &Client, path: &Path) -> io::Result<()> {
        let parts = parts_of(client, &self.url)?;
        match client.rt.block_on(parts.abort_multipart(path, &self.id)) {
            Ok(()) | Err(object_store::Error::NotFound { .. }) => Ok(()),
            Err(e) => Err(io_err(&self.url, e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    use object_store::memory::InMemory;
    use object_store::ObjectStore;

    use super::*;

    fn client() -> Client {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let m = Arc::new(InMemory::new());
        Client { store: Arc::clone(&m) as Arc<dyn ObjectStore>, parts: Some(m), rt }
    }

    fn get(c: &Client, p: &str) -> Option<Vec<u8>> {
        let store: &dyn ObjectStore = &*c.store;
        c.rt.block_on(async { Some(store.get(&Path::from(p)).await.ok()?.bytes().await.ok()?.to_vec()) })
    }

    fn file_of(bytes: &[u8]) -> File {
        let mut f = tempfile::tempfile().unwrap();
        f.write_all(bytes).unwrap();
        f
    }

    #[test]
    fn parts_in_order_then_sidecars_and_stale_ones_removed() {
        let c = client();
        let data: Vec<u8> = (0..10_000u32).map(|i| (i * 7 % 251) as u8).collect();
        c.rt.block_on(c.store.put(&Path::from("b/x.rumi.aux.xml"), b"old".to_vec().into())).unwrap();
        c.rt.block_on(c.store.put(&Path::from("b/x.rumi.header"), b"old".to_vec().into())).unwrap();
        let side = [Sidecar { suffix: ".header", bytes: Some(b"blob") }, Sidecar { suffix: ".aux.xml", bytes: None }];
        let n =
            upload_with(&c, &Path::from("b/x.rumi"), "s3://b/x.rumi", &file_of(&data), &side, 3000, &|| false).unwrap();
        assert_eq!(n, 10_000);
        assert_eq!(get(&c, "b/x.rumi").unwrap(), data); // 4 parts, in order
        assert_eq!(get(&c, "b/x.rumi.header").unwrap(), b"blob");
        assert_eq!(get(&c, "b/x.rumi.aux.xml"), None);
    }

    #[test]
    fn a_stop_mid_way_leaves_nothing_new() {
        let c = client();
        c.rt.block_on(c.store.put(&Path::from("b/y.rumi.header"), b"old".to_vec().into())).unwrap();
        let asked = AtomicUsize::new(0);
        let stop = || asked.fetch_add(1, Ordering::SeqCst) >= 2;
        let side = [Sidecar { suffix: ".header", bytes: Some(b"blob") }];
        let e = upload_with(&c, &Path::from("b/y.rumi"), "s3://b/y.rumi", &file_of(&[1u8; 10_000]), &side, 3000, &stop)
            .unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::Interrupted);
        assert!(e.to_string().contains("s3://b/y.rumi: upload interrupted"), "{e}");
        assert_eq!(get(&c, "b/y.rumi"), None);
        assert_eq!(get(&c, "b/y.rumi.header").unwrap(), b"old"); // not touched before the file is complete
    }

    #[test]
    fn parts_uploaded_in_any_order_then_completed_with_sidecars() {
        let c = client();
        let (url, path) = ("s3://b/p.rumi", Path::from("b/p.rumi"));
        c.rt.block_on(c.store.put(&Path::from("b/p.rumi.aux.xml"), b"old".to_vec().into())).unwrap();
        let up = Parts::start_with(&c, &path, url).unwrap();
        let pieces: Vec<Vec<u8>> = (0..3u8).map(|i| vec![i + 1; 1000 + usize::from(i)]).collect();
        let mut ids = vec![String::new(); 3];
        for i in [2usize, 0, 1, 2] {
            // part 2 twice: a retried task replaces it
            ids[i] = up.put_with(&c, &path, i, pieces[i].clone()).unwrap();
        }
        assert_eq!(get(&c, "b/p.rumi"), None); // nothing visible before the completion
        let side = [Sidecar { suffix: ".header", bytes: Some(b"blob") }, Sidecar { suffix: ".aux.xml", bytes: None }];
        up.finish_with(&c, &path, ids, &side).unwrap();
        assert_eq!(get(&c, "b/p.rumi").unwrap(), pieces.concat());
        assert_eq!(get(&c, "b/p.rumi.header").unwrap(), b"blob");
        assert_eq!(get(&c, "b/p.rumi.aux.xml"), None);
    }

    #[test]
    fn a_failed_completion_aborts_and_an_abort_leaves_nothing() {
        let c = client();
        let (url, path) = ("s3://b/q.rumi", Path::from("b/q.rumi"));
        c.rt.block_on(c.store.put(&Path::from("b/q.rumi.header"), b"old".to_vec().into())).unwrap();
        let side = [Sidecar { suffix: ".header", bytes: Some(b"new") }];
        // an upload the store never started (or aborted meanwhile)
        let gone = Parts { url: url.into(), id: "99".into() };
        let e = gone.finish_with(&c, &path, vec!["0".into()], &side).unwrap_err();
        assert!(e.to_string().starts_with("s3://b/q.rumi: "), "{e}");
        assert_eq!(get(&c, "b/q.rumi"), None);
        assert_eq!(get(&c, "b/q.rumi.header"), None); // removed before the completion was tried
        let up = Parts::start_with(&c, &path, url).unwrap();
        up.put_with(&c, &path, 0, vec![1; 10]).unwrap();
        up.abort_with(&c, &path).unwrap();
        assert_eq!(get(&c, "b/q.rumi"), None);
    }

    #[test]
    fn http_is_read_only() {
        let e = put("http://127.0.0.1:9/x.rumi", b"x", &Options::default()).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::Unsupported);
        assert!(e.to_string().contains("read-only"), "{e}");
    }
}
