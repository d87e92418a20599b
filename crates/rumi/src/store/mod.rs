//! Object storage (cargo feature `object-store`, off by default): rumi files read from and
//! written to S3 and S3-compatible endpoints (`s3://bucket/key`; credentials, region and
//! endpoint from the usual `AWS_*` environment variables, `AWS_ENDPOINT_URL` included) and
//! read from plain HTTP(S) servers (`http(s)://host/path`), over `object_store`.
//!
//! * [`StoreSource`]: a [`RangeRead`](crate::io::RangeRead) over one object. Its size is
//!   learned from the first ranged GET's response (Content-Range), so the stateless open with a
//!   header blob sends no request (no HEAD) and a read fetches the frames only. `read_ranges`
//!   fetches runs of touching ranges as one request and the runs concurrently.
//! * [`Source`]: a local file or an object, by location (what a host's "open this path or URL"
//!   needs).
//! * [`fetch`]: a whole small object (a header blob) in one GET; [`put`] / [`delete`]; [`list`]:
//!   the objects of an `s3://` folder (a partitioned catalogue's parts).
//! * [`upload`]: a finished local file and its sidecars, complete or not at all: the file as a
//!   multipart upload aborted on any error, then its sidecars (see the function).
//! * [`Parts`]: a multipart upload whose numbered parts are uploaded by whoever holds them
//!   (workers of a distributed build), completed with its sidecars or aborted.
//!
//! Server faults (5xx, dropped connections, timeouts) are retried with exponential backoff by
//! object_store's client, bounded by a total retry time ([`Options`]), then reported as an
//! I/O error naming the URL. The clients of one endpoint with the same options share one
//! client and one current-thread tokio runtime per process; a forked child builds its own and
//! never touches (or drops) the parent's (see `client.rs`).

mod client;
mod source;
mod upload;

use std::fs::File;
use std::io;
use std::time::Duration;

pub use source::{fetch, head, list, stat, ObjectStat, StoreSource};
pub use upload::{delete, put, upload, Parts, Sidecar, MIN_PART_BYTES, PART_BYTES};

/// True for the URL schemes served by object storage (`s3://`, `http://`, `https://`).
pub fn is_url(location: &str) -> bool {
    location.starts_with("http://") || location.starts_with("https://") || location.starts_with("s3://")
}

/// Client settings: timeouts, retries, range coalescing.
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
    /// first backoff (doubled after each retry, at most 5 s)
    pub backoff: Duration,
    /// ranges at most this many bytes apart are fetched as one request (0: only touching ones)
    pub coalesce: u64,
    /// `AWS_*` settings used instead of this process's environment when set (what a client
    /// hands its workers so that they reach the same endpoint with the same credentials)
    pub env: Option<Vec<(String, String)>>,
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
            env: None,
        }
    }
}

impl Options {
    /// The option names [`Options::set`] knows.
    pub const NAMES: &'static str = "timeout, connect_timeout, max_retries, retry_timeout, backoff, coalesce";

    /// Sets one option by name (how hosts map their own option syntax): durations in seconds
    /// (positive and finite), `max_retries` and `coalesce` as integers.
    pub fn set(&mut self, name: &str, value: f64) -> Result<(), String> {
        let secs = || {
            if value.is_finite() && value > 0.0 {
                Ok(Duration::from_secs_f64(value))
            } else {
                Err(format!("option {name} must be a positive number of seconds"))
            }
        };
        let count = || {
            if value.is_finite() && value >= 0.0 && value.fract() == 0.0 && value < 9.0e15 {
                Ok(value as u64)
            } else {
                Err(format!("option {name} must be a non-negative integer"))
            }
        };
        match name {
            "timeout" => self.timeout = secs()?,
            "connect_timeout" => self.connect_timeout = secs()?,
            "retry_timeout" => self.retry_timeout = secs()?,
            "backoff" => self.backoff = secs()?,
            "max_retries" => self.max_retries = count()? as usize,
            "coalesce" => self.coalesce = count()?,
            _ => return Err(format!("unknown option {name:?} (known: {})", Self::NAMES)),
        }
        Ok(())
    }
}

/// A source of a rumi file by location: a local file or an object in object storage.
pub enum Source {
    /// a local file
    File(File),
    /// an object (`s3://`, `http(s)://`)
    Store(StoreSource),
}

impl Source {
    /// Opens `location`: a URL ([`is_url`]) builds its client (no request is sent), anything
    /// else is opened as a local file.
    pub fn open(location: &str, opts: &Options) -> io::Result<Self> {
        if is_url(location) {
            StoreSource::open(location, opts).map(Source::Store)
        } else {
            File::open(location)
                .map(Source::File)
                .map_err(|e| io::Error::new(e.kind(), format!("cannot open {location}: {e}")))
        }
    }
}

impl crate::io::RangeRead for Source {
    fn read_at(&self, offset: u64, len: usize) -> io::Result<Vec<u8>> {
        match self {
            Source::File(f) => f.read_at(offset, len),
            Source::Store(s) => s.read_at(offset, len),
        }
    }
    fn read_ranges(&self, ranges: &[(u64, usize)]) -> io::Result<Vec<Vec<u8>>> {
        match self {
            Source::File(f) => f.read_ranges(ranges),
            Source::Store(s) => s.read_ranges(ranges),
        }
    }
    fn size(&self) -> io::Result<u64> {
        match self {
            Source::File(f) => f.size(),
            Source::Store(s) => s.size(),
        }
    }
    fn known_size(&self) -> io::Result<Option<u64>> {
        match self {
            Source::File(f) => f.known_size(),
            Source::Store(s) => s.known_size(),
        }
    }
    fn latency_bound(&self) -> bool {
        matches!(self, Source::Store(_))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_by_name() {
        let mut o = Options::default();
        o.set("timeout", 2.5).unwrap();
        o.set("max_retries", 3.0).unwrap();
        o.set("coalesce", 4096.0).unwrap();
        assert_eq!((o.timeout, o.max_retries, o.coalesce), (Duration::from_millis(2500), 3, 4096));
        assert!(o.set("timeout", 0.0).unwrap_err().contains("positive"));
        assert!(o.set("max_retries", 1.5).unwrap_err().contains("integer"));
        assert!(o.set("colaesce", 1.0).unwrap_err().contains("known: timeout"));
    }

    #[test]
    fn urls_and_local_paths() {
        assert!(is_url("s3://b/k") && is_url("https://h/p") && is_url("http://h/p"));
        assert!(!is_url("/data/s3://x") && !is_url("file.rumi"));
        let e = Source::open("/nonexistent/x.rumi", &Options::default()).err().unwrap();
        assert_eq!(e.kind(), io::ErrorKind::NotFound);
        assert!(e.to_string().contains("cannot open /nonexistent/x.rumi"), "{e}");
    }
}
