//! State that belongs to one process: [`PerProcess`], for every lock a host may hold while it
//! forks. Hosts fork with datasets open (Python's multiprocessing, a PyTorch DataLoader's
//! workers, dask's processes); `fork()` copies a mutex as it was, held or not, and a lock a
//! thread of the parent held at that moment is held for good in the child, which has no such
//! thread: the child's first read would wait for it forever. State behind a [`PerProcess`] is
//! replaced in a child at its first use, decided before any lock is taken (on a count of forks
//! that a `pthread_atfork` handler keeps: raw `clone` or `vfork` children that do not exec are not
//! seen, as for every fork handler);
//! the parent's copy is never touched there (neither locked nor dropped: its buffers are the
//! parent's copy-on-write pages, its handles and threads the parent's).

use std::sync::atomic::{AtomicPtr, AtomicU64, Ordering};
use std::sync::Once;

/// How many forks lie between the process that first used a [`PerProcess`] and this one: a
/// fork handler (`pthread_atfork`) adds one in every child. Compared instead of the process id,
/// which costs a system call (getpid, ~150 ns here) on every lock of the frame cache.
static GENERATION: AtomicU64 = AtomicU64::new(0);

extern "C" fn in_forked_child() {
    GENERATION.fetch_add(1, Ordering::AcqRel);
}

/// This process's generation (see [`GENERATION`]), the fork handler registered at first use.
fn generation() -> u64 {
    static HANDLER: Once = Once::new();
    HANDLER.call_once(|| {
        // SAFETY: registers a handler that only increments an atomic (async-signal-safe), run
        // in the child of every later fork(); a registration that fails leaves every process
        // in generation 0 and would share state across fork: refused below.
        let rc = unsafe { libc::pthread_atfork(None, None, Some(in_forked_child)) };
        assert_eq!(rc, 0, "pthread_atfork failed: rumi cannot tell a forked child from its parent");
    });
    GENERATION.load(Ordering::Acquire)
}

/// A value of the process that made it; another process (a child of `fork()`) that asks for it
/// gets a value of its own, made at its first [`PerProcess::get_or_try_init`].
pub struct PerProcess<T> {
    /// null, or a `Box<Slot<T>>`: this process's, or one that a process this one was forked
    /// from made (then it is replaced, never freed here)
    slot: AtomicPtr<Slot<T>>,
}

struct Slot<T> {
    /// the generation of the process that made it ([`generation`])
    generation: u64,
    /// its process id (for messages)
    pid: u32,
    value: T,
}

// SAFETY: a PerProcess hands out `&T` only (shared across threads: T: Sync) and drops or moves
// a T only on the thread that drops the PerProcess (T: Send).
unsafe impl<T: Send + Sync> Send for PerProcess<T> {}
// SAFETY: as above; slots are installed with one compare-exchange and freed only on drop.
unsafe impl<T: Send + Sync> Sync for PerProcess<T> {}

impl<T> PerProcess<T> {
    /// Nothing yet: the first use in a process makes its value (usable in a `static`).
    pub const fn empty() -> Self {
        PerProcess { slot: AtomicPtr::new(std::ptr::null_mut()) }
    }

    /// `value`, this process's.
    pub fn new(value: T) -> Self {
        let slot = Box::into_raw(Box::new(Slot { generation: generation(), pid: std::process::id(), value }));
        PerProcess { slot: AtomicPtr::new(slot) }
    }

    /// This process's value, made by `init` when there is none (the first use, or the first
    /// in a process forked after the value was made). `init` is told the id of the process
    /// whose value it replaces (None at the first use); it never sees that value, which may be
    /// locked for good. When threads make one at once, one value wins and the others are dropped.
    pub fn get_or_try_init<E>(&self, init: impl FnOnce(Option<u32>) -> Result<T, E>) -> Result<&T, E> {
        self.get_in(generation(), init)
    }

    /// [`PerProcess::get_or_try_init`] with an `init` that cannot fail.
    pub fn get_or_init(&self, init: impl FnOnce(Option<u32>) -> T) -> &T {
        match self.get_or_try_init(|owner| Ok::<T, std::convert::Infallible>(init(owner))) {
            Ok(v) => v,
            Err(never) => match never {},
        }
    }

    /// The value of the process of generation `generation` (the tests' stand-in for the
    /// current one).
    fn get_in<E>(&self, generation: u64, init: impl FnOnce(Option<u32>) -> Result<T, E>) -> Result<&T, E> {
        let cur = self.slot.load(Ordering::Acquire);
        // SAFETY: a non-null slot is a live `Box<Slot<T>>`: slots are freed only on drop.
        let owner = unsafe { cur.as_ref() };
        if owner.is_some_and(|s| s.generation == generation) {
            // SAFETY: as above.
            return Ok(&unsafe { &*cur }.value);
        }
        let value = init(owner.map(|s| s.pid))?;
        let fresh = Box::into_raw(Box::new(Slot { generation, pid: std::process::id(), value }));
        match self.slot.compare_exchange(cur, fresh, Ordering::AcqRel, Ordering::Acquire) {
            // SAFETY: installed: alive until `self` is dropped.
            Ok(_) => Ok(&unsafe { &*fresh }.value),
            Err(won) => {
                // another thread of this process installed its value first
                // SAFETY: `fresh` was never shared; freed once, here.
                drop(unsafe { Box::from_raw(fresh) });
                // SAFETY: `won` is a live slot, installed by a thread of this process (only
                // this process's threads replace a slot in this process's memory).
                Ok(&unsafe { &*won }.value)
            }
        }
    }
}

impl<T> Drop for PerProcess<T> {
    fn drop(&mut self) {
        let p = *self.slot.get_mut();
        // SAFETY: null or a live `Box<Slot<T>>`.
        if unsafe { p.as_ref() }.is_some_and(|s| s.generation == generation()) {
            // SAFETY: this process's slot, freed once, here.
            drop(unsafe { Box::from_raw(p) });
        }
        // else another process's value (a child dropping what it never used): left as it is
    }
}

impl<T: std::fmt::Debug> std::fmt::Debug for PerProcess<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // SAFETY: null or a live slot; shown only when it is this process's.
        match unsafe { self.slot.load(Ordering::Acquire).as_ref() } {
            Some(s) if s.generation == generation() => f.debug_tuple("PerProcess").field(&s.value).finish(),
            _ => f.write_str("PerProcess(<none in this process>)"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;
    use std::sync::mpsc;
    use std::sync::Mutex;
    use std::time::Duration;

    /// Fake generations (not this test process's, which is 0).
    const PARENT: u64 = u64::MAX - 2;
    const CHILD: u64 = u64::MAX - 1;
    const GRANDCHILD: u64 = u64::MAX;

    /// The state fork leaves a child in when a thread of the parent held the lock: the child
    /// (and its child) get values of their own without taking it; the parent keeps its own.
    #[test]
    fn a_forked_process_never_takes_a_lock_of_its_parent() {
        let shared: &'static PerProcess<Mutex<u32>> = Box::leak(Box::new(PerProcess::empty()));
        let parent = shared.get_in(PARENT, |owner| Ok::<_, ()>(Mutex::new(owner.map_or(1, |_| 99)))).unwrap();
        // held for good, as a thread of the parent would hold it at fork
        std::mem::forget(parent.lock().unwrap());
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut told = None;
            let child = shared
                .get_in(CHILD, |owner| {
                    told = owner;
                    Ok::<_, ()>(Mutex::new(2))
                })
                .unwrap();
            let again = shared.get_in(CHILD, |_| Err(())).unwrap();
            let grand = shared.get_in(GRANDCHILD, |owner| Ok::<_, ()>(Mutex::new(owner.map_or(0, |_| 3))));
            tx.send((told, *child.lock().unwrap(), std::ptr::eq(child, again), *grand.unwrap().lock().unwrap()))
                .unwrap();
        });
        // a hang (the held lock taken) fails here rather than stalling the suite
        let got = rx.recv_timeout(Duration::from_secs(60)).expect("the child waited on its parent's lock");
        // init is told the process id of the value it replaces (here all made by this process)
        assert_eq!(got, (Some(std::process::id()), 2, true, 3));
    }

    /// Two threads of a child making its value at once: one wins, the other's is dropped, and
    /// both use the winner's.
    #[test]
    fn threads_of_a_child_share_one_value() {
        static DROPPED: AtomicUsize = AtomicUsize::new(0);
        struct Counted(u32);
        impl Drop for Counted {
            fn drop(&mut self) {
                DROPPED.fetch_add(1, Ordering::SeqCst);
            }
        }
        let v = PerProcess::empty();
        let a = v.get_in(CHILD, |_| {
            // another thread installs its value while this one makes its own
            assert_eq!(v.get_in(CHILD, |_| Ok::<_, ()>(Counted(7))).unwrap().0, 7);
            Ok::<_, ()>(Counted(8))
        });
        assert_eq!(a.unwrap().0, 7);
        assert_eq!(DROPPED.load(Ordering::SeqCst), 1, "the loser's value is dropped");
        // the value of another process (CHILD is not this test's) is not dropped with it
        drop(v);
        assert_eq!(DROPPED.load(Ordering::SeqCst), 1);
        let mine = PerProcess::new(Counted(1));
        drop(mine);
        assert_eq!(DROPPED.load(Ordering::SeqCst), 2, "this process's value is dropped");
    }

    /// An `init` that fails leaves nothing installed: the next use tries again.
    #[test]
    fn a_failed_init_is_tried_again() {
        let v: PerProcess<u32> = PerProcess::empty();
        assert_eq!(v.get_or_try_init(|_| Err("no")), Err("no"));
        assert_eq!(v.get_or_try_init(|_| Ok::<_, &str>(5)), Ok(&5));
        assert_eq!(*v.get_or_init(|_| 6), 5);
    }
}
