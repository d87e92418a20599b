//! SIGINT, SIGTERM and SIGHUP while writing: the first one stops the work at the next tile row,
//! the temporary files vanish and the process exits with 128 + the signal number (130, 143,
//! 129), as shells expect; a second one terminates at once (the default action; the anonymous
//! temporary files vanish with the process).

use std::sync::atomic::{AtomicI32, Ordering};

use crate::fail::{Failure, Res};

static SIGNAL: AtomicI32 = AtomicI32::new(0);

extern "C" fn on_signal(sig: libc::c_int) {
    SIGNAL.store(sig, Ordering::SeqCst);
}

/// Installs the one-shot handlers.
pub fn catch() {
    for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        // SAFETY: a zeroed sigaction is a valid "no flags, empty mask" value; the handler
        // only stores to an atomic (async-signal-safe); SA_RESETHAND restores the default
        // action after the first signal.
        unsafe {
            let mut sa: libc::sigaction = std::mem::zeroed();
            sa.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
            sa.sa_flags = libc::SA_RESETHAND;
            libc::sigemptyset(&mut sa.sa_mask);
            libc::sigaction(sig, &sa, std::ptr::null_mut());
        }
    }
}

/// The signal received, if any.
pub fn received() -> Option<i32> {
    match SIGNAL.load(Ordering::SeqCst) {
        0 => None,
        s => Some(s),
    }
}

fn name(sig: i32) -> &'static str {
    match sig {
        libc::SIGINT => "SIGINT",
        libc::SIGTERM => "SIGTERM",
        libc::SIGHUP => "SIGHUP",
        _ => "a signal",
    }
}

/// Fails once a signal has arrived.
pub fn check() -> Res<()> {
    match received() {
        Some(s) => Err(Failure(format!("interrupted by {}; nothing was written", name(s)))),
        None => Ok(()),
    }
}
