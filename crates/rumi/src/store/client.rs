//! One client and one runtime per endpoint and options, per process; URLs -> (client, path);
//! object_store errors -> `io::Error`s naming the URL.

use std::collections::HashMap;
use std::io;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use object_store::aws::{AmazonS3Builder, AmazonS3ConfigKey};
use object_store::http::HttpBuilder;
use object_store::multipart::MultipartStore;
use object_store::path::Path;
use object_store::{BackoffConfig, ClientOptions, ObjectStore, RetryConfig};

use super::Options;
use crate::per_process::PerProcess;

/// The client of one endpoint and the runtime that drives it, shared by its sources.
pub(super) struct Client {
    pub store: Arc<dyn ObjectStore>,
    /// the same store's numbered-part uploads (S3 only)
    pub parts: Option<Arc<dyn MultipartStore>>,
    pub rt: tokio::runtime::Runtime,
}

/// A built store, and its multipart side when it has one.
type Built = (Arc<dyn ObjectStore>, Option<Arc<dyn MultipartStore>>);

impl Options {
    fn client_options(&self, allow_http: bool) -> ClientOptions {
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

/// An error about `url` of kind `kind`.
pub(super) fn url_err(kind: io::ErrorKind, url: &str, what: impl std::fmt::Display) -> io::Error {
    io::Error::new(kind, format!("{url}: {what}"))
}

/// An object_store error as an `io::Error` naming the URL: not found, refused access (with
/// where the credentials come from), our own check of a short response (`UnexpectedEof`).
pub(super) fn io_err(url: &str, e: object_store::Error) -> io::Error {
    use object_store::Error as E;
    match e {
        E::NotFound { .. } => url_err(io::ErrorKind::NotFound, url, format_args!("no such object ({e})")),
        E::PermissionDenied { .. } | E::Unauthenticated { .. } if url.starts_with("s3://") => url_err(
            io::ErrorKind::PermissionDenied,
            url,
            format_args!(
                "access refused: {e} (credentials come from AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and \
                 AWS_SESSION_TOKEN, or none for a public bucket; AWS_REGION and AWS_ENDPOINT_URL name the endpoint)"
            ),
        ),
        E::PermissionDenied { .. } | E::Unauthenticated { .. } => {
            url_err(io::ErrorKind::PermissionDenied, url, format_args!("access refused: {e}"))
        }
        E::Generic { store: "rumi", source } => url_err(io::ErrorKind::UnexpectedEof, url, source),
        // object_store's HTTP client: a ranged GET answered with 200 (the whole object)
        E::NotSupported { ref source } if source.to_string().starts_with("Range request not supported") => {
            let server = url.split('/').take(3).collect::<Vec<_>>().join("/");
            url_err(io::ErrorKind::Unsupported, url, crate::range_unsupported(&server, &e.to_string()))
        }
        e => url_err(io::ErrorKind::Other, url, e),
    }
}

/// This process's client for `key`, built by `build` the first time.
fn client(key: String, build: impl FnOnce() -> io::Result<Built>) -> io::Result<Arc<Client>> {
    // a forked child leaves the parent's registry as it is (its runtimes and sockets are the
    // parent's, its lock perhaps held for good by a parent's thread): never locked nor closed
    static CLIENTS: PerProcess<Mutex<HashMap<String, Arc<Client>>>> = PerProcess::empty();
    let reg = CLIENTS.get_or_init(|_| Mutex::default());
    let mut g = reg.lock().map_err(|_| io::Error::other("the object-storage client registry is poisoned"))?;
    if let Some(c) = g.get(&key) {
        return Ok(Arc::clone(c));
    }
    // current-thread: no worker threads to lose in a forked child; concurrent callers share
    // its I/O driver, and one read's requests run concurrently inside one block_on
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| io::Error::other(format!("cannot start the I/O runtime: {e}")))?;
    let (store, parts) = build()?;
    let c = Arc::new(Client { store, parts, rt });
    g.insert(key, Arc::clone(&c));
    Ok(c)
}

/// Which kind of endpoint a URL names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Scheme {
    S3,
    Http,
}

/// The shared client of `url`'s endpoint (built with `opts` the first time; no request is
/// sent), the object's path in it, and the endpoint's kind.
pub(super) fn resolve(url: &str, opts: &Options) -> io::Result<(Arc<Client>, Path, Scheme)> {
    let bad = |what: &str| url_err(io::ErrorKind::InvalidInput, url, what);
    if let Some(rest) = url.strip_prefix("s3://") {
        let (bucket, key) = rest.split_once('/').ok_or_else(|| bad("expected s3://bucket/key"))?;
        if bucket.is_empty() || key.is_empty() {
            return Err(bad("expected s3://bucket/key"));
        }
        // the client reads its settings from the AWS_* environment (or the options' copy of
        // another process's): part of the key
        let mut env: Vec<(String, String)> = match &opts.env {
            Some(e) => e.iter().filter(|(k, _)| k.starts_with("AWS_")).cloned().collect(),
            None => std::env::vars().filter(|(k, _)| k.starts_with("AWS_")).collect(),
        };
        env.sort();
        let c = client(format!("s3://{bucket} {opts:?} {env:?}"), || {
            let var = |k: &str| env.iter().find(|(n, v)| n == k && !v.is_empty()).map(|(_, v)| v.clone());
            let endpoint = var("AWS_ENDPOINT_URL_S3").or_else(|| var("AWS_ENDPOINT_URL"));
            let mut b = AmazonS3Builder::new();
            for (k, v) in &env {
                if let Ok(key) = k.to_ascii_lowercase().parse::<AmazonS3ConfigKey>() {
                    b = b.with_config(key, v);
                }
            }
            let mut b = b.with_bucket_name(bucket).with_retry(opts.retry());
            let allow_http = endpoint.as_deref().is_some_and(|e| e.starts_with("http://"))
                || var("AWS_ALLOW_HTTP").is_some_and(|v| v.eq_ignore_ascii_case("true") || v == "1");
            if let Some(e) = endpoint {
                b = b.with_endpoint(e);
            }
            if var("AWS_REGION").is_none() && var("AWS_DEFAULT_REGION").is_none() {
                b = b.with_region("us-east-1");
            }
            if var("AWS_ACCESS_KEY_ID").is_none() {
                b = b.with_skip_signature(true);
            }
            let s = Arc::new(
                b.with_client_options(opts.client_options(allow_http)).build().map_err(|e| bad(&e.to_string()))?,
            );
            Ok((Arc::clone(&s) as Arc<dyn ObjectStore>, Some(s as Arc<dyn MultipartStore>)))
        })?;
        let path = Path::from_url_path(key).map_err(|e| bad(&e.to_string()))?;
        return Ok((c, path, Scheme::S3));
    }
    let scheme_end = url.find("://").map(|i| i + 3).ok_or_else(|| bad("not a URL"))?;
    let slash = url[scheme_end..].find('/').map(|i| i + scheme_end).ok_or_else(|| bad("no path"))?;
    let (base, key) = (&url[..slash], &url[slash + 1..]);
    if key.is_empty() {
        return Err(bad("no path"));
    }
    let c = client(format!("{base} {opts:?}"), || {
        let s = HttpBuilder::new()
            .with_url(base)
            .with_retry(opts.retry())
            .with_client_options(opts.client_options(url.starts_with("http://")))
            .build()
            .map_err(|e| bad(&e.to_string()))?;
        Ok((Arc::new(s) as Arc<dyn ObjectStore>, None))
    })?;
    let path = Path::from_url_path(key).map_err(|e| bad(&e.to_string()))?;
    Ok((c, path, Scheme::Http))
}
