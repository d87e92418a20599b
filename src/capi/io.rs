//! The byte source of a dataset: the host's [`rumi_io`] callbacks as the core's
//! [`RangeRead`], with the host's first bytes served from memory, small reads split for
//! /vsicurl/ and range reads batched.

use std::ffi::{c_int, c_void};
use std::io;

use rumi::Error;
use rumi::RangeRead;

use super::{RUMI_IO_EOF, RUMI_IO_OK};

/// Byte access supplied by the host. The callbacks may be called from any thread that uses
/// the dataset, concurrently when the host uses one dataset from several threads, so they must
/// be thread-safe (GDAL's driver serialises them with a mutex around its VSI handle). `ctx`
/// must stay valid until `rumi_free` returns.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct rumi_io {
    /// Passed unchanged to every callback.
    pub ctx: *mut c_void,
    /// Reads exactly `len` bytes at `offset` into `buf`. Returns `RUMI_IO_OK`, `RUMI_IO_EOF`
    /// when the range ends past the end of the source, or `RUMI_IO_ERROR`. Required.
    pub read: Option<unsafe extern "C" fn(ctx: *mut c_void, offset: u64, len: usize, buf: *mut u8) -> c_int>,
    /// Stores the size of the source in bytes in `*size`. Returns `RUMI_IO_OK` or
    /// `RUMI_IO_ERROR`. Required.
    pub size: Option<unsafe extern "C" fn(ctx: *mut c_void, size: *mut u64) -> c_int>,
    /// Optional: reads `count` ranges (`offsets[i]`, `lens[i]`) into `bufs[i]` in one request,
    /// with the same results as `read`. NULL means ranges are read one by one with `read`.
    pub read_multi: Option<
        unsafe extern "C" fn(
            ctx: *mut c_void,
            count: usize,
            offsets: *const u64,
            lens: *const usize,
            bufs: *const *mut u8,
        ) -> c_int,
    >,
    /// Optional (NULL, 0: none): the first `prefix_len` bytes of the source, which the host
    /// already has (GDAL: the bytes it read to identify the file), copied by `rumi_open`.
    /// Reads inside them are served from memory, so that a stateless open reads the
    /// georeferencing block (and a validating open the IFD) of a small file at no request.
    pub prefix: *const u8,
    /// number of bytes at `prefix`
    pub prefix_len: usize,
}

/// `RangeRead` over host callbacks.
pub(crate) struct CallbackSource {
    io: rumi_io,
    /// `rumi_io.prefix`, copied at open.
    prefix: Vec<u8>,
    /// the host says each request is a round trip (GDAL: a path VSIIsLocal calls not local)
    remote: bool,
    /// the size the host reported first: a rumi file is never changed in place (a rewrite
    /// replaces it by a rename), so one query serves the open's checks and every read after
    /// (GDAL's size of a local file is a seek to the end that reads its last block again)
    size: std::sync::OnceLock<u64>,
}

// SAFETY: the `rumi_io` contract requires the callbacks to be thread-safe and `ctx` to outlive
// the dataset; the struct holds nothing else.
unsafe impl Send for CallbackSource {}
// SAFETY: as above: shared use only calls the thread-safe callbacks.
unsafe impl Sync for CallbackSource {}

thread_local! {
    /// Why the last callback of this thread failed, when its host says (`set_failure_cause`).
    static CAUSE: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
}

/// Says why the callback about to return `RUMI_IO_ERROR` on this thread failed: the text
/// replaces "read callback returned -1" in the error the core reports. For hosts inside this
/// crate (the GDAL adapter's VSI callbacks, which know GDAL's error); not part of the C ABI.
pub(crate) fn set_failure_cause(cause: String) {
    CAUSE.with(|c| *c.borrow_mut() = Some(cause));
}

/// The result of a callback that returned `code` (its failure cause, if any, taken).
fn io_result(code: c_int, what: &str) -> io::Result<()> {
    let cause = CAUSE.with(|c| c.borrow_mut().take());
    match code {
        RUMI_IO_OK => Ok(()),
        RUMI_IO_EOF => {
            Err(io::Error::new(io::ErrorKind::UnexpectedEof, format!("{what} is past the end of the source")))
        }
        other => Err(io::Error::other(match cause {
            Some(cause) => format!("{what} failed: {cause}"),
            None => format!("{what} failed (read callback returned {other})"),
        })),
    }
}

/// Ranges per `rumi_io.read_multi` call: HTTP servers cap the ranges of one request (and
/// GDAL's /vsicurl/ fails a request with hundreds of them).
const MULTI_BATCH: usize = 64;

/// Reads shorter than this (and of at least 2 bytes) are made as a `read_multi` of two
/// adjacent halves when the host has one: GDAL's /vsicurl/ widens a small single read to a
/// whole 16 KiB chunk (which would fetch the IFD when a stateless open reads the
/// georeferencing block) but fetches the ranges of a multi-range read exactly. On local files
/// this is two plain reads.
const SMALL_READ: usize = 16384;

type MultiFn = unsafe extern "C" fn(*mut c_void, usize, *const u64, *const usize, *const *mut u8) -> c_int;

impl CallbackSource {
    /// The source over `io`, with its prefix copied; `read` and `size` are required.
    ///
    /// # Safety
    /// `io.prefix` must be NULL or point to `io.prefix_len` readable bytes (the `rumi_io`
    /// contract).
    pub(crate) unsafe fn new(io: rumi_io) -> Result<CallbackSource, Error> {
        if io.read.is_none() || io.size.is_none() {
            return Err(Error::Usage("rumi_io.read and rumi_io.size are required".into()));
        }
        let prefix = if io.prefix.is_null() || io.prefix_len == 0 {
            Vec::new()
        } else {
            // SAFETY: the caller guarantees `prefix_len` readable bytes at `prefix`.
            unsafe { std::slice::from_raw_parts(io.prefix, io.prefix_len) }.to_vec()
        };
        Ok(CallbackSource { io, prefix, remote: false, size: std::sync::OnceLock::new() })
    }

    /// Marks a source whose requests each cost a round trip ([`RangeRead::latency_bound`]).
    pub(crate) fn remote(self, remote: bool) -> Self {
        CallbackSource { remote, ..self }
    }

    /// One `rumi_io.read` of `buf.len()` bytes at `offset`.
    fn read_exact(&self, offset: u64, buf: &mut [u8]) -> io::Result<()> {
        let read = self.io.read.ok_or_else(|| io::Error::other("rumi_io.read is NULL"))?;
        if buf.is_empty() {
            return Ok(());
        }
        let len = buf.len();
        // SAFETY: `buf` has `len` writable bytes; the callback contract says it writes at most
        // `len` bytes there and `ctx` is valid while the dataset lives.
        let code = unsafe { read(self.io.ctx, offset, len, buf.as_mut_ptr()) };
        io_result(code, &format!("reading {len} bytes at offset {offset}"))
    }

    /// Reads `ranges` into `bufs` (one buffer of the range's length each) with `read_multi`
    /// calls of at most [`MULTI_BATCH`] ranges; the ranges of a call that fails are read one
    /// by one with `read` (which reports a range past the end of the source).
    fn read_batched(&self, multi: MultiFn, ranges: &[(u64, usize)], bufs: &mut [Vec<u8>]) -> io::Result<()> {
        for (ranges, bufs) in ranges.chunks(MULTI_BATCH).zip(bufs.chunks_mut(MULTI_BATCH)) {
            let offsets: Vec<u64> = ranges.iter().map(|r| r.0).collect();
            let lens: Vec<usize> = ranges.iter().map(|r| r.1).collect();
            let ptrs: Vec<*mut u8> = bufs.iter_mut().map(|b| b.as_mut_ptr()).collect();
            // SAFETY: the three arrays have `ranges.len()` entries; `ptrs[i]` points at
            // `lens[i]` writable bytes owned by `bufs`, which outlives the call.
            let code = unsafe { multi(self.io.ctx, ranges.len(), offsets.as_ptr(), lens.as_ptr(), ptrs.as_ptr()) };
            // a failed batch is read again range by range, which reports its own cause
            let _ = CAUSE.with(|c| c.borrow_mut().take());
            if code != RUMI_IO_OK {
                for (&(offset, _), buf) in ranges.iter().zip(bufs.iter_mut()) {
                    self.read_exact(offset, buf)?;
                }
            }
        }
        Ok(())
    }
}

impl RangeRead for CallbackSource {
    fn latency_bound(&self) -> bool {
        self.remote
    }

    fn read_at(&self, offset: u64, len: usize) -> io::Result<Vec<u8>> {
        let start = usize::try_from(offset).unwrap_or(usize::MAX);
        if let Some(bytes) = start.checked_add(len).and_then(|end| self.prefix.get(start..end)) {
            return Ok(bytes.to_vec());
        }
        match self.io.read_multi {
            Some(multi) if (2..SMALL_READ).contains(&len) => {
                let half = len / 2;
                let mut bufs = vec![vec![0u8; half], vec![0u8; len - half]];
                self.read_batched(
                    multi,
                    &[(offset, half), (offset.saturating_add(half as u64), len - half)],
                    &mut bufs,
                )?;
                Ok(bufs.concat())
            }
            _ => {
                let mut buf = vec![0u8; len];
                self.read_exact(offset, &mut buf)?;
                Ok(buf)
            }
        }
    }

    fn read_ranges(&self, ranges: &[(u64, usize)]) -> io::Result<Vec<Vec<u8>>> {
        let Some(multi) = self.io.read_multi else {
            return ranges.iter().map(|&(o, l)| self.read_at(o, l)).collect();
        };
        let mut bufs: Vec<Vec<u8>> = ranges.iter().map(|&(_, l)| vec![0u8; l]).collect();
        self.read_batched(multi, ranges, &mut bufs)?;
        Ok(bufs)
    }

    fn size(&self) -> io::Result<u64> {
        if let Some(&known) = self.size.get() {
            return Ok(known);
        }
        let size = self.io.size.ok_or_else(|| io::Error::other("rumi_io.size is NULL"))?;
        let mut out = 0u64;
        // SAFETY: `out` is a valid u64 to write; `ctx` is valid while the dataset lives.
        let code = unsafe { size(self.io.ctx, &mut out) };
        io_result(code, "querying the source size")?;
        Ok(*self.size.get_or_init(|| out))
    }
}
