"""SIGINT, SIGTERM, SIGHUP and SIGUSR1: stop, remove temporary files, and exit 128 + the signal's number.

Without this, SIGTERM ends the process at once (leaving the copy of standard
input and the spill, ``nblint-*`` files, in the temporary folder), and click
turns Ctrl-C into "Aborted!" and exit status 1, the status of "findings".  Here
either signal prints one line and raises :class:`Interrupted`, a ``SystemExit``:
the stack unwinds (``finally`` blocks close the files), the interpreter exits
normally (``weakref.finalize`` removes the temporary files still open) and the
exit status is 130 for SIGINT, 143 for SIGTERM. A closed terminal (SIGHUP) and
SIGUSR1 would also end the process at once by default: they are handled alike.
"""

from __future__ import annotations

import signal
import sys
import threading
from contextlib import contextmanager

#: The signals whose default is to end the process and that a run meets in practice (the last two not on Windows).
SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP", "SIGUSR1") if hasattr(signal, name))


class Interrupted(SystemExit):
    """The run was stopped by a signal; its exit status is 128 + the signal's number."""

    def __init__(self, signum: int):
        super().__init__(128 + signum)
        self.signum = signum


def _handler(signum, frame):
    for other in SIGNALS:  # a second signal while unwinding would cut the clean-up short
        signal.signal(other, signal.SIG_IGN)
    print(f"nblint: interrupted by {signal.Signals(signum).name}", file=sys.stderr, flush=True)
    raise Interrupted(signum)


@contextmanager
def exit_on_signals():
    """Handle :data:`SIGNALS` as above while the block runs (main thread only), then restore the handlers."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = {signum: signal.signal(signum, _handler) for signum in SIGNALS}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
