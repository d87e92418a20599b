//! Writing to object storage: [`upload`] (a finished file and its sidecars, complete or not
//! at all), [`put`] and [`delete`] of one small object. S3 and S3-compatible endpoints only:
//! plain HTTP(S) servers are read-only here.

use std::fs::File;
use std::io;
use std::os::unix::fs::FileExt;

use object_store::path::Path;
use object_store::{ObjectStoreExt, WriteMultipart};

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
    let mut side = Vec::with_capacity(sidecars.len());
    for s in sidecars {
        let u = format!("{url}{}", s.suffix);
        let p = Path::from(format!("{path}{}", s.suffix));
        side.push((u, p, s.bytes));
    }
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
            for (u, p, _) in &side {
                match store.delete(p).await {
                    Ok(()) | Err(object_store::Error::NotFound { .. }) => {}
                    Err(e) => return Err(io_err(u, e)),
                }
            }
            Ok(())
        }
        .await;
        if let Err(e) = staged {
            return Err(match w.abort().await {
                Ok(()) => e,
                Err(a) => io::Error::new(e.kind(), format!("{e}; and the multipart upload could not be aborted: {a}")),
            });
        }
        // finish() aborts the upload itself when a part or the completion fails
        w.finish().await.map_err(|e| io_err(url, e))?;
        let mut written: Vec<&Path> = Vec::new();
        for (u, p, bytes) in &side {
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
        Ok(size)
    })
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
        Client { store: Arc::new(InMemory::new()), rt }
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
    fn http_is_read_only() {
        let e = put("http://127.0.0.1:9/x.rumi", b"x", &Options::default()).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::Unsupported);
        assert!(e.to_string().contains("read-only"), "{e}");
    }
}
