//! The process's rayon thread pools, one per size, and the thread-count option as GDAL spells it.
//! Every host that runs work on a pool (the read path's decoders, the Python binding's writer)
//! takes it from here.
//!
//! Fork safety: pools are kept per process id. A child of `fork()` inherits the registry but
//! not the pools' threads; its first request builds new pools, and the parent's are forgotten
//! (never joined or dropped: their threads do not exist in the child).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use rayon::ThreadPool;

use crate::error::{Error, Result};

/// Largest thread count honoured (a host asking for more gets this many).
pub const MAX_THREADS: usize = 256;

/// The pool of `threads` threads (at least 1, at most [`MAX_THREADS`]) of this process, built
/// on first use.
pub fn get(threads: usize) -> Result<Arc<ThreadPool>> {
    type Pools = HashMap<(u32, usize), Arc<ThreadPool>>;
    static POOLS: OnceLock<Mutex<Pools>> = OnceLock::new();
    let threads = threads.clamp(1, MAX_THREADS);
    let key = (std::process::id(), threads);
    // a panic while holding the lock cannot leave the map inconsistent: recover it
    let mut map = POOLS.get_or_init(|| Mutex::new(HashMap::new())).lock().unwrap_or_else(|p| p.into_inner());
    if let Some(p) = map.get(&key) {
        return Ok(Arc::clone(p));
    }
    // Pools of a parent process have no threads here: forget them without running their Drop.
    let stale: Vec<_> = map.keys().filter(|k| k.0 != key.0).copied().collect();
    for k in stale {
        if let Some(p) = map.remove(&k) {
            std::mem::forget(p);
        }
    }
    let p = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .thread_name(|i| format!("rumi-{i}"))
        .build()
        .map_err(|e| Error::Threads { threads, message: e.to_string() })?;
    let p = Arc::new(p);
    map.insert(key, Arc::clone(&p));
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
