//! [`RangeRead`](rumi::io::RangeRead) over `object_store`: S3 and S3-compatible endpoints
//! (`s3://bucket/key`, credentials and endpoint from the usual `AWS_*` environment variables,
//! `AWS_ENDPOINT_URL` included) and plain HTTP(S) servers (`http(s)://host/path`).
//!
//! `read_ranges` goes through `object_store::coalesce_ranges`: touching ranges (runs of
//! adjacent frames) become one request, ranges closer than `coalesce` bytes too (default 0: no
//! byte outside the frames is fetched), and the runs are fetched concurrently. Server faults (5xx,
//! dropped connections, timeouts) are retried with exponential backoff by object_store's
//! client, bounded by a total retry time, then reported as an I/O error.
//!
//! The sources of one endpoint (an HTTP(S) host, an S3 bucket) with the same options share one
//! client and one tokio runtime, kept per process: opening a file costs no client build (TLS
//! roots, connection pool) and its requests reuse the host's open connections. A forked child
//! starts a registry of its own and never touches (or drops) the parent's clients (the Python
//! layer reopens sources after `fork()`).

use std::collections::HashMap;
use std::io;
use std::mem::ManuallyDrop;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use object_store::aws::AmazonS3Builder;
use object_store::http::HttpBuilder;
use object_store::path::Path;
use object_store::{BackoffConfig, ClientOptions, GetOptions, ObjectStore, ObjectStoreExt, RetryConfig};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// True for the URL schemes served by object storage.
pub fn is_url(s: &str) -> bool {
    s.starts_with("http://") || s.starts_with("https://") || s.starts_with("s3://")
}

/// Client settings (`rumi.open(..., options={...})`).
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// per-request timeout
    pub timeout: Duration,
    /// connect timeout
    pub connect_timeout: Duration,
    /// retries of one request
    pub max_retries: usize,
    /// total time spent retrying one request
    pub retry_timeout: Duration,
    /// first backoff
    pub backoff: Duration,
    /// ranges at most this many bytes apart are fetched as one request (0: only touching ones)
    pub coalesce: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            timeout: Duration::from_secs(30),
            connect_timeout: Duration::from_secs(5),
            max_retries: 5,
            retry_timeout: Duration::from_secs(60),
            backoff: Duration::from_millis(100),
            coalesce: 0,
        }
    }
}

impl Options {
    pub fn from_dict(d: Option<&Bound<'_, PyDict>>) -> PyResult<Self> {
        let mut o = Options::default();
        let Some(d) = d else { return Ok(o) };
        for (k, v) in d.iter() {
            let key: String = k.extract()?;
            let secs = || -> PyResult<Duration> {
                let s: f64 = v.extract()?;
                if !(s.is_finite() && s > 0.0) {
                    return Err(PyValueError::new_err(format!("option {key} must be a positive number of seconds")));
                }
                Ok(Duration::from_secs_f64(s))
            };
            match key.as_str() {
                "timeout" => o.timeout = secs()?,
                "connect_timeout" => o.connect_timeout = secs()?,
                "retry_timeout" => o.retry_timeout = secs()?,
                "backoff" => o.backoff = secs()?,
                "max_retries" => o.max_retries = v.extract()?,
                "coalesce" => o.coalesce = v.extract()?,
                _ => {
                    return Err(PyValueError::new_err(format!(
                        "unknown option {key:?} (known: timeout, connect_timeout, max_retries, retry_timeout, backoff, coalesce)"
                    )))
                }
            }
        }
        Ok(o)
    }

    fn client(&self, allow_http: bool) -> ClientOptions {
        ClientOptions::new()
            .with_timeout(self.timeout)
            .with_connect_timeout(self.connect_timeout)
            .with_allow_http(allow_http)
    }

    fn retry(&self) -> RetryConfig {
        RetryConfig {
            backoff: BackoffConfig { init_backoff: self.backoff, max_backoff: Duration::from_secs(5), base: 2.0 },
            max_retries: self.max_retries,
            retry_timeout: self.retry_timeout,
        }
    }
}

/// The client of one endpoint and the runtime that drives it, shared by its sources.
struct Client {
    store: Arc<dyn ObjectStore>,
    rt: tokio::runtime::Runtime,
}

/// This process's clients by endpoint + options (see the module notes).
fn client(key: String, build: impl FnOnce() -> Result<Arc<dyn ObjectStore>, String>) -> Result<Arc<Client>, String> {
    type Registry = Mutex<(u32, HashMap<String, Arc<Client>>)>;
    static CLIENTS: OnceLock<Registry> = OnceLock::new();
    let reg = CLIENTS.get_or_init(|| Mutex::new((std::process::id(), HashMap::new())));
    let mut g = reg.lock().map_err(|_| "the object-storage client registry is poisoned".to_string())?;
    let pid = std::process::id();
    if g.0 != pid {
        // inherited through fork(): the parent's runtimes and sockets; never close them here
        std::mem::forget(std::mem::take(&mut g.1));
        g.0 = pid;
    }
    if let Some(c) = g.1.get(&key) {
        return Ok(Arc::clone(c));
    }
    // current-thread: no worker threads to lose in a forked child; concurrent callers share
    // its I/O driver, and get_ranges runs a read's requests concurrently
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the I/O runtime: {e}"))?;
    let c = Arc::new(Client { store: build()?, rt });
    g.1.insert(key, Arc::clone(&c));
    Ok(c)
}

/// One object in an object store.
pub struct StoreSource {
    client: ManuallyDrop<Arc<Client>>,
    path: Path,
    url: String,
    size: OnceLock<u64>,
    pid: u32,
    coalesce: u64,
    /// While set and the size is still unknown, `size()` answers `u64::MAX` instead of sending
    /// a HEAD request (see [`StoreSource::defer_size`]).
    deferred: AtomicBool,
}

impl Drop for StoreSource {
    fn drop(&mut self) {
        if std::process::id() != self.pid {
            // Inherited through fork(): the runtime's epoll instance and the client's sockets
            // are shared with the parent; closing or deregistering them here would break the
            // parent's. Leak them (the Python layer has already opened a fresh source).
            return;
        }
        // SAFETY: the field is dropped exactly once, here, and never used afterwards.
        unsafe { ManuallyDrop::drop(&mut self.client) };
    }
}

fn io_err(url: &str, e: object_store::Error) -> io::Error {
    let kind = match e {
        object_store::Error::NotFound { .. } => io::ErrorKind::NotFound,
        // our own check of a short range response (see read_ranges)
        object_store::Error::Generic { store: "rumi", .. } => io::ErrorKind::UnexpectedEof,
        _ => io::ErrorKind::Other,
    };
    io::Error::new(kind, format!("{url}: {e}"))
}

impl StoreSource {
    /// Builds the client for `url` (no request is sent).
    pub fn open(url: &str, opts: &Options) -> Result<Self, String> {
        let (client, path) = if let Some(rest) = url.strip_prefix("s3://") {
            let (bucket, key) = rest.split_once('/').ok_or_else(|| format!("{url}: expected s3://bucket/key"))?;
            if bucket.is_empty() || key.is_empty() {
                return Err(format!("{url}: expected s3://bucket/key"));
            }
            // the client reads its settings from the AWS_* environment: part of the key
            let mut env: Vec<(String, String)> = std::env::vars().filter(|(k, _)| k.starts_with("AWS_")).collect();
            env.sort();
            let c = client(format!("s3://{bucket} {opts:?} {env:?}"), || {
                let endpoint = std::env::var("AWS_ENDPOINT_URL_S3").or_else(|_| std::env::var("AWS_ENDPOINT_URL")).ok();
                let mut b = AmazonS3Builder::from_env().with_bucket_name(bucket).with_retry(opts.retry());
                let allow_http = endpoint.as_deref().is_some_and(|e| e.starts_with("http://"));
                if let Some(e) = endpoint {
                    b = b.with_endpoint(e);
                }
                if std::env::var("AWS_REGION").is_err() && std::env::var("AWS_DEFAULT_REGION").is_err() {
                    b = b.with_region("us-east-1");
                }
                if std::env::var("AWS_ACCESS_KEY_ID").is_err() {
                    b = b.with_skip_signature(true);
                }
                let s = b.with_client_options(opts.client(allow_http)).build().map_err(|e| format!("{url}: {e}"))?;
                Ok(Arc::new(s) as Arc<dyn ObjectStore>)
            })?;
            (c, Path::from_url_path(key).map_err(|e| format!("{url}: {e}"))?)
        } else {
            let scheme_end = url.find("://").map(|i| i + 3).unwrap_or(0);
            let slash = url[scheme_end..].find('/').map(|i| i + scheme_end).ok_or_else(|| format!("{url}: no path"))?;
            let (base, key) = (&url[..slash], &url[slash + 1..]);
            let c = client(format!("{base} {opts:?}"), || {
                let s = HttpBuilder::new()
                    .with_url(base)
                    .with_retry(opts.retry())
                    .with_client_options(opts.client(url.starts_with("http://")))
                    .build()
                    .map_err(|e| format!("{url}: {e}"))?;
                Ok(Arc::new(s) as Arc<dyn ObjectStore>)
            })?;
            (c, Path::from_url_path(key).map_err(|e| format!("{url}: {e}"))?)
        };
        Ok(StoreSource {
            client: ManuallyDrop::new(client),
            path,
            url: url.to_string(),
            size: OnceLock::new(),
            pid: std::process::id(),
            coalesce: opts.coalesce,
            deferred: AtomicBool::new(false),
        })
    }
}

impl StoreSource {
    /// While on and the size is unknown, `size()` answers without a request: the stateless open
    /// with a blob (whose size check then passes) sends no HEAD; the size is learnt from the
    /// first range response (its Content-Range), and a frame past the real end fails as a
    /// truncated read.
    pub fn set_deferred(&self, on: bool) {
        self.deferred.store(on, Ordering::SeqCst);
    }

    /// The object size when known (from a HEAD or a range response), without a request.
    pub fn known_size(&self) -> Option<u64> {
        self.size.get().copied()
    }
}

impl rumi::io::RangeRead for StoreSource {
    fn read_at(&self, offset: u64, len: usize) -> io::Result<Vec<u8>> {
        Ok(self.read_ranges(&[(offset, len)])?.pop().unwrap_or_default())
    }

    fn read_ranges(&self, ranges: &[(u64, usize)]) -> io::Result<Vec<Vec<u8>>> {
        let known = self.known_size();
        let mut rs: Vec<Range<u64>> = Vec::with_capacity(ranges.len());
        for &(o, l) in ranges {
            let end = o.checked_add(l as u64).filter(|&e| known.is_none_or(|size| e <= size)).ok_or_else(|| {
                io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    format!("{}: range {o}+{l} is past the end ({} bytes)", self.url, known.unwrap_or(0)),
                )
            })?;
            rs.push(o..end);
        }
        let (store, path, size) = (&*self.client.store, &self.path, &self.size);
        // each request's response carries the object size (Content-Range): remember it
        let fetch = object_store::coalesce_ranges(
            &rs,
            |r| async move {
                let res =
                    store.get_opts(path, GetOptions { range: Some(r.clone().into()), ..Default::default() }).await?;
                let _ = size.set(res.meta.size);
                let want = r.end - r.start;
                let b = res.bytes().await?;
                if b.len() as u64 != want {
                    // a short response (truncated object or connection): never hand it on
                    return Err(object_store::Error::Generic {
                        store: "rumi",
                        source: format!(
                            "range {}..{} returned {} bytes (object truncated or response cut short)",
                            r.start,
                            r.end,
                            b.len()
                        )
                        .into(),
                    });
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
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    format!(
                        "{}: range {}..{} returned {} bytes (object truncated?)",
                        self.url,
                        r.start,
                        r.end,
                        b.len()
                    ),
                ));
            }
            out.push(b.to_vec());
        }
        Ok(out)
    }

    fn size(&self) -> io::Result<u64> {
        if let Some(s) = self.size.get() {
            return Ok(*s);
        }
        if self.deferred.load(Ordering::SeqCst) {
            return Ok(u64::MAX);
        }
        let meta = self.client.rt.block_on(self.client.store.head(&self.path)).map_err(|e| io_err(&self.url, e))?;
        Ok(*self.size.get_or_init(|| meta.size))
    }
}
