//! [`StoreSource`]: one object as a [`RangeRead`]; [`fetch`]: a whole small object.

use std::io;
use std::mem::ManuallyDrop;
use std::ops::Range;
use std::sync::{Arc, OnceLock};

use object_store::path::Path;
use object_store::{GetOptions, ObjectStore, ObjectStoreExt};

use super::client::{io_err, resolve, url_err, Client, Scheme};
use super::Options;
use crate::io::RangeRead;

/// One object in an object store, read by ranges.
///
/// Its size is known once a response has carried it (each ranged GET's Content-Range; a HEAD
/// only when [`RangeRead::size`] is asked before any read): [`RangeRead::known_size`] answers
/// without a request, so `Reader::open_with_blob` sends none, and a range past the end
/// of an object whose size is not yet known fails as a truncated read when it is fetched.
pub struct StoreSource {
    client: ManuallyDrop<Arc<Client>>,
    path: Path,
    url: String,
    size: OnceLock<u64>,
    pid: u32,
    coalesce: u64,
}

impl Drop for StoreSource {
    fn drop(&mut self) {
        if std::process::id() != self.pid {
            // Inherited through fork(): the runtime's epoll instance and the client's sockets
            // are shared with the parent; closing or deregistering them here would break the
            // parent's. Leak them (the host has opened a fresh source in the child).
            return;
        }
        // SAFETY: the field is dropped exactly once, here, and never used afterwards.
        unsafe { ManuallyDrop::drop(&mut self.client) };
    }
}

impl StoreSource {
    /// The source of `url` (`s3://bucket/key`, `http(s)://host/path`) with the endpoint's
    /// shared client (no request is sent).
    pub fn open(url: &str, opts: &Options) -> io::Result<Self> {
        let (client, path, _) = resolve(url, opts)?;
        Ok(StoreSource {
            client: ManuallyDrop::new(client),
            path,
            url: url.to_string(),
            size: OnceLock::new(),
            pid: std::process::id(),
            coalesce: opts.coalesce,
        })
    }

    /// The URL this source reads.
    pub fn url(&self) -> &str {
        &self.url
    }
}

/// A short response: never handed on as data.
fn short(r: &Range<u64>, got: usize) -> object_store::Error {
    object_store::Error::Generic {
        store: "rumi",
        source: format!("range {}..{} returned {got} bytes (object truncated or response cut short)", r.start, r.end)
            .into(),
    }
}

impl RangeRead for StoreSource {
    fn latency_bound(&self) -> bool {
        true
    }

    fn read_at(&self, offset: u64, len: usize) -> io::Result<Vec<u8>> {
        Ok(self.read_ranges(&[(offset, len)])?.pop().unwrap_or_default())
    }

    fn read_ranges(&self, ranges: &[(u64, usize)]) -> io::Result<Vec<Vec<u8>>> {
        let known = self.size.get().copied();
        let mut rs: Vec<Range<u64>> = Vec::with_capacity(ranges.len());
        for &(o, l) in ranges {
            let end = o.checked_add(l as u64).filter(|&e| known.is_none_or(|size| e <= size)).ok_or_else(|| {
                url_err(
                    io::ErrorKind::UnexpectedEof,
                    &self.url,
                    format_args!("range {o}+{l} is past the end ({} bytes)", known.unwrap_or(0)),
                )
            })?;
            rs.push(o..end);
        }
        let (store, path, size) = (&*self.client.store, &self.path, &self.size);
        // each response carries the object size (Content-Range): remember it
        let fetch = object_store::coalesce_ranges(
            &rs,
            |r| async move {
                let res =
                    store.get_opts(path, GetOptions { range: Some(r.clone().into()), ..Default::default() }).await?;
                let _ = size.set(res.meta.size);
                let b = res.bytes().await?;
                if b.len() as u64 != r.end - r.start {
                    return Err(short(&r, b.len()));
                }
                Ok(b)
            },
            self.coalesce,
        );
        let got = self.client.rt.block_on(fetch).map_err(|e| io_err(&self.url, e))?;
        if got.len() != rs.len() {
            return Err(io::Error::other(format!("{}: {} ranges asked, {} returned", self.url, rs.len(), got.len())));
        }
        let mut out = Vec::with_capacity(got.len());
        for (b, r) in got.into_iter().zip(&rs) {
            if b.len() as u64 != r.end - r.start {
                return Err(io_err(&self.url, short(r, b.len())));
            }
            out.push(b.to_vec());
        }
        Ok(out)
    }

    fn size(&self) -> io::Result<u64> {
        if let Some(s) = self.size.get() {
            return Ok(*s);
        }
        let meta = self.client.rt.block_on(self.client.store.head(&self.path)).map_err(|e| io_err(&self.url, e))?;
        Ok(*self.size.get_or_init(|| meta.size))
    }

    fn known_size(&self) -> io::Result<Option<u64>> {
        Ok(self.size.get().copied())
    }
}

/// The whole object at `url` (e.g. a header blob) in one GET; an object larger than
/// `max_bytes` is refused before its body is read. A missing object is a `NotFound` error.
pub fn fetch(url: &str, opts: &Options, max_bytes: u64) -> io::Result<Vec<u8>> {
    let (client, path, _) = resolve(url, opts)?;
    let store: &dyn ObjectStore = &*client.store;
    let got = client.rt.block_on(async {
        let res = store.get_opts(&path, GetOptions::default()).await?;
        if res.meta.size > max_bytes {
            return Ok(Err(res.meta.size));
        }
        let want = res.meta.size;
        let b = res.bytes().await?;
        if b.len() as u64 != want {
            return Err(short(&(0..want), b.len()));
        }
        Ok(Ok(b))
    });
    match got.map_err(|e| io_err(url, e))? {
        Ok(b) => Ok(b.to_vec()),
        Err(n) => Err(url_err(
            io::ErrorKind::InvalidData,
            url,
            format_args!("{n} bytes is more than the {max_bytes} allowed"),
        )),
    }
}

/// The size of the object at `url`, or `None` when there is none (one HEAD request).
pub fn head(url: &str, opts: &Options) -> io::Result<Option<u64>> {
    Ok(stat(url, opts)?.map(|s| s.size))
}

/// An object's size and the store's identity of its content (`etag:<ETag>`, else
/// `modified:<Last-Modified>`; `None` when the store gives neither): what a catalogue records
/// to tell a rewritten object from the one it described.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjectStat {
    pub size: u64,
    pub identity: Option<String>,
}

/// The size and identity of the object at `url`, or `None` when there is none (one HEAD
/// request, the one [`head`] sends).
pub fn stat(url: &str, opts: &Options) -> io::Result<Option<ObjectStat>> {
    let (client, path, _) = resolve(url, opts)?;
    match client.rt.block_on(client.store.head(&path)) {
        Ok(meta) => {
            let identity = match meta.e_tag {
                Some(e) if !e.is_empty() => Some(format!("etag:{e}")),
                _ => Some(format!("modified:{}", meta.last_modified.to_rfc3339())),
            };
            Ok(Some(ObjectStat { size: meta.size, identity }))
        }
        Err(object_store::Error::NotFound { .. }) => Ok(None),
        Err(e) => Err(io_err(url, e)),
    }
}

/// The objects directly inside the folder `url` names (`s3://bucket/prefix`, with or without a
/// trailing `/`; not those in its sub-folders): `(url, size)` of each, in the store's order (one
/// listing, its pages followed). A web server cannot list: an `http(s)://` folder is an error.
pub fn list(url: &str, opts: &Options) -> io::Result<Vec<(String, u64)>> {
    let base = url.trim_end_matches('/');
    // the folder's client and path, resolved through a name inside it (a bucket's root included)
    let (client, inside, scheme) = resolve(&format!("{base}/_"), opts)?;
    if scheme != Scheme::S3 {
        return Err(url_err(io::ErrorKind::Unsupported, url, "a web server cannot list a folder"));
    }
    let prefix = inside.parent().filter(|p| p.parts_count() > 0);
    let listed = client.rt.block_on(client.store.list_with_delimiter(prefix.as_ref())).map_err(|e| io_err(url, e))?;
    Ok(listed
        .objects
        .into_iter()
        .filter_map(|m| m.location.filename().map(|name| (format!("{base}/{name}"), m.size)))
        .collect())
}

#[cfg(test)]
mod tests {
    use std::io::{BufRead, BufReader, Write};
    use std::net::TcpListener;

    use super::*;

    /// An HTTP server on 127.0.0.1 that ignores Range (as Python's http.server does): every
    /// GET is answered 200 with the whole body. Returns its URL for `name`.
    fn server_without_ranges(name: &str, body: Vec<u8>) -> String {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/{name}", listener.local_addr().unwrap());
        std::thread::spawn(move || {
            for stream in listener.incoming().take(16) {
                let Ok(mut stream) = stream else { continue };
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                let mut line = String::new();
                while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
                    line.clear();
                }
                let head = format!("HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n", body.len());
                let _ = stream.write_all(head.as_bytes()).and_then(|()| stream.write_all(&body));
            }
        });
        url
    }

    #[test]
    fn a_server_without_range_support_is_named() {
        let url = server_without_ranges("f.rumi", (0..=255u8).cycle().take(4096).collect());
        let src = StoreSource::open(&url, &Options { max_retries: 0, ..Options::default() }).unwrap();
        let e = src.read_at(100, 20).unwrap_err();
        let server = url.trim_end_matches("/f.rumi");
        let text = e.to_string();
        assert!(
            text.starts_with(&format!("{url}: the server at {server} does not support HTTP Range requests")),
            "{e}"
        );
        assert!(text.contains("status 200, not 206 Partial Content"), "{e}");
        assert_eq!(e.kind(), io::ErrorKind::Unsupported);
        // through the core's error, as the Python binding and the CLI report it
        let core = crate::Error::Io(e);
        assert!(core.to_string().contains("does not support HTTP Range requests"), "{core}");
    }
}
