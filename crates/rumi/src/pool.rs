//! The process's rayon thread pools, one per size, and the thread-count option as GDAL spells it.
//! Every host that runs work on a pool (the read path's decoders, the Python binding's writer)
//! takes it from here.
//!
//! Fork safety: the registry is the process's own ([`PerProcess`]). A child of `fork()`
//! inherits the parent's registry but not the pools' threads, nor a lock a parent's thread held
//! at the fork; its first request builds new pools, and the parent's are left as they are
//! (never locked, joined or dropped).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use rayon::ThreadPool;

use crate::error::{Error, Result};
use crate::per_process::PerProcess;

/// Largest thread count honoured (a host asking for more gets this many).
pub const MAX_THREADS: usize = 256;

/// The pool of `threads` threads (at least 1, at most [`MAX_THREADS`]) of this process, built
/// on first use.
pub fn get(threads: usize) -> Result<Arc<ThreadPool>> {
    // the parent's registry (its lock perhaps held for good, its pools without threads here)
    // is left as it is in a forked child, never locked nor dropped
    static POOLS: PerProcess<Mutex<HashMap<usize, Arc<ThreadPool>>>> = PerProcess::empty();
    let threads = threads.clamp(1, MAX_THREADS);
    // a panic while holding the lock cannot leave the map inconsistent: recover it
    let mut map = POOLS.get_or_init(|_| Mutex::default()).lock().unwrap_or_else(|p| p.into_inner());
    if let Some(p) = map.get(&threads) {
        return Ok(Arc::clone(p));
    }
    let p = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("rumi-{i}"))
        .build()
        .map_err(|e| Error::Threads { threads, message: e.to_string() })?;
    let p = Arc::new(p);
    map.insert(threads, Arc::clone(&p));
    Ok(p)
}

/// The pool for work split over `threads` threads, or `None` for one thread (the work then runs
/// on the caller's thread, with no hand-over).
pub fn for_threads(threads: usize) -> Result<Option<Arc<ThreadPool>>> {
    if threads.min(MAX_THREADS) <= 1 {
        return Ok(None);
    }
    get(threads).map(Some)
}

/// Parses a thread count as GDAL spells it (`NUM_THREADS`, `GDAL_NUM_THREADS`): `ALL_CPUS`
/// (any case) or a positive integer, capped at [`MAX_THREADS`].
pub fn parse_threads(value: &str) -> Result<usize> {
    let v = value.trim();
    if v.eq_ignore_ascii_case("ALL_CPUS") {
        return Ok(std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1).min(MAX_THREADS));
    }
    match v.parse::<u64>() {
        Ok(n) if n >= 1 => Ok((n as usize).min(MAX_THREADS)),
        _ => Err(Error::Usage(format!("thread count {value:?} is not ALL_CPUS or a positive integer"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thread_counts() {
        assert_eq!(parse_threads("3").unwrap(), 3);
        assert_eq!(parse_threads(" 100000 ").unwrap(), MAX_THREADS);
        assert!(parse_threads("all_cpus").unwrap() >= 1);
        for bad in ["0", "-2", "abc", "", "1.5"] {
            let e = parse_threads(bad).unwrap_err().to_string();
            assert!(e.contains("is not ALL_CPUS or a positive integer"), "{bad}: {e}");
        }
    }

    /// One pool per size and process: asked twice, the same pool; one thread runs on the caller.
    #[test]
    fn pools_are_shared_per_size() {
        let a = get(3).unwrap();
        assert!(Arc::ptr_eq(&a, &get(3).unwrap()));
        assert_eq!(a.current_num_threads(), 3);
        assert_eq!(get(0).unwrap().current_num_threads(), 1);
        assert!(for_threads(1).unwrap().is_none());
        assert!(Arc::ptr_eq(&a, &for_threads(3).unwrap().unwrap()));
    }
}
