"""A process-wide setting held by overlapping runs: changed by the first to enter, restored by the last to leave.

Several nblint runs may overlap in one process (an API caller's threads, ``--jobs``): a
setting that belongs to the whole process (the environment BLAS reads, the cyclic garbage
collector) must be changed once, when the first run enters, and given back once, as it
was, when the last one leaves, whichever thread that is.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any


class ProcessWide:
    """A process-wide setting: ``take()`` changes it and returns what it was, ``give_back(was)`` restores it.

    Parameters
    ----------
    take : callable
        Called by the first run to enter; returns what :func:`give_back` needs.
    give_back : callable
        Called with that value by the last run to leave.
    """

    def __init__(self, take: Callable[[], Any], give_back: Callable[[Any], None]):
        self._take, self._give_back = take, give_back
        self._lock = threading.Lock()
        self._users = 0
        self._saved: Any = None

    @contextmanager
    def held(self, on_last_exit: Callable[[], None] | None = None) -> Iterator[None]:
        """The setting changed meanwhile; the last run to leave restores it, then calls its ``on_last_exit``."""
        with self._lock:
            if self._users == 0:
                self._saved = self._take()
            self._users += 1
        try:
            yield
        finally:
            with self._lock:
                self._users -= 1
                if self._users == 0:
                    self._give_back(self._saved)
                    if on_last_exit is not None:
                        on_last_exit()
