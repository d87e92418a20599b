"""Locks that a child of fork() does not inherit held. fork() copies a threading.Lock as it
is: one that a thread of the parent held at that moment (a read-ahead thread inside a read) is
held for good in the child, which has no such thread, and the child's first use waits forever
(a DataLoader's workers, multiprocessing's "fork" start method). An object hands its locks to
`renew_after_fork`; in a child, they are replaced by new, free ones before anything else runs
there (os.register_at_fork, as the logging module does for its handlers' locks). What a lock
guards is each object's own concern: every such object already starts its state afresh in a
child (it compares os.getpid() under the lock)."""

from __future__ import annotations

import os
import threading
import weakref

_OWNERS: weakref.WeakKeyDictionary[object, tuple[str, ...]] = weakref.WeakKeyDictionary()


def renew_after_fork(owner: object, *attrs: str) -> None:
    """Gives owner's attributes attrs (threading.Lock) new, free locks in every child of fork()."""
    _OWNERS[owner] = attrs


def _in_child() -> None:
    for owner, attrs in list(_OWNERS.items()):
        for a in attrs:
            setattr(owner, a, threading.Lock())


os.register_at_fork(after_in_child=_in_child)
