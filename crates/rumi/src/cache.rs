//! The decoded-frame cache a reader keeps (an LRU within a byte budget) and the process's
//! spare frame buffers (what caches let go of, reused by the next decodes of that size).

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use crate::aligned::AlignedBuf;
use crate::per_process::PerProcess;

/// Default byte budget of a reader's decoded-frame cache.
pub const DEFAULT_CACHE_BYTES: u64 = 32 << 20;

/// Bytes of decoded-frame buffers kept for reuse after the cache that held them is dropped
/// or emptied (see [`spare`]).
const SPARE_BYTES: usize = DEFAULT_CACHE_BYTES as usize;

/// A reader's decoded frames, most recently used last, within a byte budget (of decoded
/// bytes: a frame decoded into a thread's larger scratch buffer, an edge tile, holds up to one
/// frame's worth more). Buffers evicted while nobody else holds them go back to the decoding
/// thread for reuse (no allocation or page faults per frame in long reads).
///
/// The frames are this process's ([`PerProcess`]): a child of `fork()` starts with an empty
/// cache of the same budget and never takes the parent's lock, which a thread of the parent
/// may have held at the fork (the child's reads waited for it forever).
#[derive(Debug)]
pub struct FrameCache {
    /// the byte budget, read without the lock (a forked child's cache starts with it)
    budget: AtomicU64,
    inner: PerProcess<Mutex<CacheInner>>,
}

#[derive(Debug, Default)]
struct CacheInner {
    bytes: u64,
    frames: VecDeque<(u64, Arc<AlignedBuf>)>,
}

impl Default for FrameCache {
    fn default() -> Self {
        FrameCache::new(DEFAULT_CACHE_BYTES)
    }
}

impl FrameCache {
    /// An empty cache holding at most `budget` bytes of decoded frames (0 disables it).
    pub fn new(budget: u64) -> Self {
        FrameCache { budget: AtomicU64::new(budget), inner: PerProcess::new(Mutex::default()) }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, CacheInner> {
        // a panic while holding the lock cannot leave the queue inconsistent: recover it
        self.inner.get_or_init(|_| Mutex::default()).lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Changes the budget, evicting what no longer fits.
    pub fn set_budget(&self, budget: u64) {
        let mut c = self.lock();
        self.budget.store(budget, Ordering::Relaxed);
        if let Some(buf) = c.shrink(budget) {
            spare::put(buf);
        }
    }

    /// Drops every cached frame (their buffers go to the process's spares).
    pub fn clear(&self) {
        let mut c = self.lock();
        if let Some(buf) = c.shrink(0) {
            spare::put(buf);
        }
    }

    /// Bytes of decoded frames held.
    pub fn bytes(&self) -> u64 {
        self.lock().bytes
    }

    /// The byte budget.
    pub fn budget(&self) -> u64 {
        self.budget.load(Ordering::Relaxed)
    }

    /// The decoded frame `index`, if cached (it becomes the most recently used).
    pub fn get(&self, index: u64) -> Option<Arc<AlignedBuf>> {
        let mut c = self.lock();
        let pos = c.frames.iter().rposition(|(i, _)| *i == index)?;
        let entry = c.frames.remove(pos)?;
        let buf = Arc::clone(&entry.1);
        c.frames.push_back(entry);
        Some(buf)
    }

    /// Keeps `buf` as frame `index`; returns a buffer the caller may reuse (`buf` itself when
    /// it does not fit, or an evicted one nobody else holds).
    pub(crate) fn insert(&self, index: u64, buf: AlignedBuf) -> Option<AlignedBuf> {
        let size = buf.as_bytes().len() as u64;
        let mut c = self.lock();
        // read under the lock: set_budget changes it holding the lock
        let budget = self.budget();
        if size > budget || c.frames.iter().any(|(i, _)| *i == index) {
            return Some(buf);
        }
        let budget = budget - size;
        let recycled = c.shrink(budget);
        c.frames.push_back((index, Arc::new(buf)));
        c.bytes += size;
        recycled
    }
}

impl Drop for FrameCache {
    fn drop(&mut self) {
        if let Some(buf) = self.lock().shrink(0) {
            spare::put(buf);
        }
    }
}

impl CacheInner {
    /// Evicts the least recently used frames until at most `budget` bytes are held; returns
    /// the last evicted buffer nobody else holds (the others go to the process's spares).
    fn shrink(&mut self, budget: u64) -> Option<AlignedBuf> {
        let mut recycled: Option<AlignedBuf> = None;
        while self.bytes > budget {
            let Some((_, buf)) = self.frames.pop_front() else { break };
            self.bytes -= buf.as_bytes().len() as u64;
            if let Ok(buf) = Arc::try_unwrap(buf) {
                if let Some(old) = recycled.replace(buf) {
                    spare::put(old);
                }
            }
        }
        recycled
    }
}

/// Decoded-frame buffers no cache holds any more, kept (up to [`SPARE_BYTES`]) for the next
/// frames of their size. A short read (open, one window, close: a data loader's pattern)
/// caches every frame it decodes and frees them all when the dataset closes; without the
/// spares each such read allocates its frames afresh and the C allocator hands the memory back
/// to the kernel between reads, so that every frame is page-faulted in again (landsat8 cells:
/// 1,090 page faults per 256 x 256 window, 0.77x the windows/s of the pre-planner driver).
/// The lock is only ever tried (a thread that finds it taken skips the spares), and the
/// spares are the process's own: a child of `fork()` starts with none.
/// Hosts use them too, for buffers they hand out batch after batch (the Python package's
/// training batches).
pub mod spare {
    use std::sync::Mutex;

    use super::SPARE_BYTES;
    use crate::aligned::AlignedBuf;
    use crate::per_process::PerProcess;

    fn spares() -> &'static Mutex<(usize, Vec<AlignedBuf>)> {
        static SPARES: PerProcess<Mutex<(usize, Vec<AlignedBuf>)>> = PerProcess::empty();
        SPARES.get_or_init(|_| Mutex::new((0, Vec::new())))
    }

    /// Keeps `buf` for reuse when there is room (otherwise frees it).
    pub fn put(buf: AlignedBuf) {
        let n = buf.held_bytes();
        if n == 0 || n > SPARE_BYTES {
            return;
        }
        if let Ok(mut s) = spares().try_lock() {
            if s.0 + n <= SPARE_BYTES {
                s.0 += n;
                s.1.push(buf);
            }
        }
    }

    /// A spare buffer of `len` bytes (its contents are a previous frame's), if one holds that
    /// many and at most twice as many.
    pub fn take(len: usize) -> Option<AlignedBuf> {
        let mut s = spares().try_lock().ok()?;
        let pos = s.1.iter().rposition(|b| (len..=len.saturating_mul(2)).contains(&b.held_bytes()))?;
        let mut buf = s.1.swap_remove(pos);
        s.0 -= buf.held_bytes();
        buf.fit(len);
        Some(buf)
    }

    /// Bytes of spare buffers held.
    #[cfg(test)]
    pub fn bytes() -> usize {
        spares().lock().map(|s| s.0).unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dropped_caches_leave_spares_of_their_sizes() {
        // a size no other test uses, so that parallel tests do not take these buffers
        let size = 3_000_011;
        let c = FrameCache::new(8 << 20);
        assert!(c.insert(7, AlignedBuf::zeroed(size)).is_none());
        assert!(c.insert(8, AlignedBuf::zeroed(size)).is_none());
        let held = c.get(8).expect("cached");
        let before = spare::bytes();
        drop(c);
        // frame 7 became a spare; frame 8 is still held by `held` and is not
        assert!(spare::bytes() >= before + size);
        // a spare serves a frame of its size down to half of it, without allocating
        assert!(spare::take(2 * size + 64).is_none());
        let b = spare::take(size - 1000).expect("a spare");
        assert_eq!((b.as_bytes().len(), b.held_bytes()), (size - 1000, 3_000_016));
        assert!(spare::take(size).is_none());
        assert_eq!(held.as_bytes().len(), size);
    }

    /// A real fork() while a thread of the parent holds the cache's lock (as a thread inside a
    /// read holds it): the child reads and caches on its own (an empty cache of the same
    /// budget) instead of waiting for that lock forever; its spares and pools work.
    #[test]
    fn a_forked_child_never_waits_on_locks_its_parent_held() {
        let c = FrameCache::new(1 << 20);
        assert!(c.insert(1, AlignedBuf::zeroed(1000)).is_none());
        // held while the process forks: the child's copy is held for good
        let held = c.lock();
        // SAFETY: the child only runs this test's code, which takes no lock the parent holds
        // (the point of the test) and allocates (glibc's malloc is fork-safe), then _exits.
        let pid = unsafe { libc::fork() };
        assert!(pid >= 0, "fork failed");
        if pid == 0 {
            let ok = c.get(1).is_none()
                && c.budget() == 1 << 20
                && c.insert(2, AlignedBuf::zeroed(3000)).is_none()
                && c.get(2).is_some_and(|b| b.as_bytes().len() == 3000)
                && c.bytes() == 3000
                && {
                    spare::put(AlignedBuf::zeroed(5_000_017));
                    spare::take(5_000_017).is_some()
                }
                && crate::pool::get(2).is_ok_and(|p| p.install(rayon::current_num_threads) == 2);
            // SAFETY: ends the child at once, without the test harness's exit handlers.
            unsafe { libc::_exit(if ok { 0 } else { 1 }) };
        }
        drop(held);
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        let mut status = 0;
        // SAFETY: waits for our own child, without blocking.
        while unsafe { libc::waitpid(pid, &mut status, libc::WNOHANG) } == 0 {
            if std::time::Instant::now() > deadline {
                // SAFETY: kills and reaps our own child.
                unsafe {
                    libc::kill(pid, libc::SIGKILL);
                    libc::waitpid(pid, &mut status, 0);
                }
                panic!("the forked child still waits after 60 s on a lock its parent held");
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        assert!(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0, "the child's cache misbehaved: {status}");
    }

    #[test]
    fn cache_keeps_recent_frames_within_budget() {
        let c = FrameCache::new(100);
        assert!(c.insert(1, AlignedBuf::zeroed(40)).is_none());
        assert!(c.insert(2, AlignedBuf::zeroed(40)).is_none());
        assert!(c.get(1).is_some()); // 1 is now the most recent
        let back = c.insert(3, AlignedBuf::zeroed(40)).expect("frame 2 evicted and recycled");
        assert_eq!(back.as_bytes().len(), 40);
        assert!(c.get(2).is_none() && c.get(1).is_some() && c.get(3).is_some());
        assert_eq!(c.bytes(), 80);
        // too large for the budget: handed straight back
        assert_eq!(c.insert(4, AlignedBuf::zeroed(101)).map(|b| b.as_bytes().len()), Some(101));
        c.set_budget(0);
        assert_eq!(c.bytes(), 0);
    }
}
