"""Temporary files a killed run does not leave behind for good: the next run removes them.

SIGKILL, an out-of-memory kill or a CPU-time limit end a process without running
its clean-up (:mod:`nblint.core.interrupts` covers SIGINT and SIGTERM), so its
spill and its copies of standard input or of a sheet stay in the temporary
folder. Each process that makes temporary files holds an advisory lock on a
small file, ``nblint-<pid>.lock``, for its lifetime and names its files
``nblint-<pid>-...``. The kernel releases the lock whatever ends the process: a
lock file whose lock can be taken belongs to a process that is gone, and its
files are removed by the first later run that makes a temporary file. Locks
are shared by every process that sees the folder (containers too), so a live
run's files are never taken for an orphan's, whatever its process number looks
like from here.

Where advisory locks are not available (Windows), nothing is swept: the files
are removed as before, at exit and on the two signals.
"""

from __future__ import annotations

import atexit
import contextlib
import glob
import os
import tempfile

try:
    import fcntl
except ImportError:  # (Windows)
    fcntl = None  # type: ignore[assignment]

_PREFIX = "nblint-"
#: The process that swept and locked (``pid``), and its lock's descriptor (``fd``, open for the
#: process's lifetime) when the lock could be taken.
_held: dict[str, int] = {}


def owned_prefix(kind: str) -> str:
    """The prefix for a temporary file of this process (``nblint-<pid>-<kind>-``), orphans swept first.

    Parameters
    ----------
    kind : str
        What the file holds (``spill``, ``stdin``, ``excel``): part of its name, for whoever lists the folder.
    """
    folder = tempfile.gettempdir()
    if fcntl is not None and _held.get("pid") != os.getpid():  # (a forked worker takes its own lock)
        _held.clear()
        _held["pid"] = os.getpid()  # once per process, whether or not the lock can be taken
        _sweep(folder)
        _lock(folder)
    return f"{_PREFIX}{os.getpid()}-{kind}-"


def _lock(folder: str) -> None:
    path = os.path.join(folder, f"{_PREFIX}{os.getpid()}.lock")
    for _ in range(3):
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError:  # (a read-only folder: the files themselves will fail and say so)
            return
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return
        if os.fstat(fd).st_nlink:
            _held["fd"] = fd
            atexit.register(_remove, path)
            return
        os.close(fd)  # a sweep took the file between its creation and the lock: make it again


def _sweep(folder: str) -> None:
    """Remove the files of every process whose lock file is no longer locked."""
    for lock in glob.glob(os.path.join(glob.escape(folder), f"{_PREFIX}*.lock")):
        owner = os.path.basename(lock)[len(_PREFIX) : -len(".lock")]
        if not owner.isdigit():
            continue
        try:
            fd = os.open(lock, os.O_RDWR)
        except OSError:  # (another user's, or removed meanwhile)
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)  # held: its process runs
            continue
        for orphan in glob.glob(os.path.join(glob.escape(folder), f"{_PREFIX}{owner}-*")):
            _remove(orphan)
        _remove(lock)
        os.close(fd)


def _remove(path: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)
