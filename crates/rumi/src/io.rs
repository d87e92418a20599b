//! The range-read trait every reader works over, with local-file and in-memory sources.
//! The GDAL driver implements it over GDAL's VSI layer through the C ABI; object storage
//! (`store`, cargo feature `object-store`) over `object_store`.

use std::io;
use std::sync::Arc;

/// A source of bytes addressed by offset: a file, a byte slice, an HTTP object...
pub trait RangeRead: Send + Sync {
    /// Reads exactly `len` bytes at `offset`; a short read is an `UnexpectedEof` error.
    fn read_at(&self, offset: u64, len: usize) -> io::Result<Vec<u8>>;

    /// Reads several ranges; sources that can batch requests (HTTP) override this.
    fn read_ranges(&self, ranges: &[(u64, usize)]) -> io::Result<Vec<Vec<u8>>> {
        ranges.iter().map(|&(o, l)| self.read_at(o, l)).collect()
    }

    /// Total size of the source in bytes (a remote source may send a request to learn it).
    fn size(&self) -> io::Result<u64>;

    /// The size when the source knows it without a request: always for files and memory (the
    /// default: [`RangeRead::size`]); for object storage once a response has carried it (a
    /// ranged GET's Content-Range), else `None`. The stateless open checks a header blob
    /// against it only when known, so that an open with a blob sends no request; a frame
    /// past the end of such a source then fails as a truncated read when it is fetched.
    fn known_size(&self) -> io::Result<Option<u64>> {
        self.size().map(Some)
    }

    /// True when every request costs a round trip (HTTP, object storage): the read path then
    /// fetches a request's frames in as few requests as it can, instead of starting with a small
    /// batch so that decoding starts early (local files: the default, false).
    fn latency_bound(&self) -> bool {
        false
    }
}

fn eof(offset: u64, len: usize, size: u64) -> io::Error {
    io::Error::new(io::ErrorKind::UnexpectedEof, format!("range {offset}+{len} is past the end ({size} bytes)"))
}

impl RangeRead for std::fs::File {
    fn read_at(&self, offset: u64, len: usize) -> io::Result<Vec<u8>> {
        use std::os::unix::fs::FileExt;
        let mut buf = vec![0u8; len];
        self.read_exact_at(&mut buf, offset).map_err(|e| {
            if e.kind() == io::ErrorKind::UnexpectedEof {
                eof(offset, len, self.metadata().map(|m| m.len()).unwrap_or(0))
            } else {
                e
            }
        })?;
        Ok(buf)
    }
    fn size(&self) -> io::Result<u64> {
        Ok(self.metadata()?.len())
    }
}

/// Why reading a file over HTTP fails when its server ignores Range requests (answers a
/// ranged GET with status 200 and the whole object): the one text every host reports (the
/// GDAL driver over `/vsicurl/`, the core's object store for Python and the CLI). A stateless
/// open with a header blob sends no request, so this shows at the first read. `server` names
/// the server or object; `evidence` is what the HTTP client said.
pub fn range_unsupported(server: &str, evidence: &str) -> String {
    format!(
        "the server at {server} does not support HTTP Range requests: it answered a request for a byte range \
         with the whole object (status 200, not 206 Partial Content). rumi reads a file by byte ranges; serve it \
         from a server that supports them (nginx, Apache, S3 or another object store) or copy it locally \
         ({evidence})"
    )
}

/// An in-memory source.
impl RangeRead for Vec<u8> {
    fn read_at(&self, offset: u64, len: usize) -> io::Result<Vec<u8>> {
        self.as_slice().read_at(offset, len)
    }
    fn size(&self) -> io::Result<u64> {
        Ok(self.len() as u64)
    }
}

impl RangeRead for &[u8] {
    fn read_at(&self, offset: u64, len: usize) -> io::Result<Vec<u8>> {
        let start = usize::try_from(offset).ok().filter(|&s| s <= self.len());
        match start.and_then(|s| s.checked_add(len).filter(|&e| e <= self.len()).map(|e| (s, e))) {
            Some((s, e)) => Ok(self[s..e].to_vec()),
            None => Err(eof(offset, len, self.len() as u64)),
        }
    }
    fn size(&self) -> io::Result<u64> {
        Ok(self.len() as u64)
    }
}

/// A source behind a smart pointer reads as the source itself.
macro_rules! forward_range_read {
    ($($ptr:ident),*) => {$(
        impl<T: RangeRead + ?Sized> RangeRead for $ptr<T> {
            fn read_at(&self, offset: u64, len: usize) -> io::Result<Vec<u8>> {
                (**self).read_at(offset, len)
            }
            fn read_ranges(&self, ranges: &[(u64, usize)]) -> io::Result<Vec<Vec<u8>>> {
                (**self).read_ranges(ranges)
            }
            fn size(&self) -> io::Result<u64> {
                (**self).size()
            }
            fn known_size(&self) -> io::Result<Option<u64>> {
                (**self).known_size()
            }
            fn latency_bound(&self) -> bool {
                (**self).latency_bound()
            }
        }
    )*};
}

forward_range_read!(Arc, Box);
