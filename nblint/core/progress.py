"""A progress bar for long reads, drawn on stderr when a person watches it.

Whether anyone watches is decided in one place, :func:`nblint.core.terminal.is_interactive`
(a terminal, and none of ``PRE_COMMIT``, ``CI``, ``GITHUB_ACTIONS`` set).
"""

from __future__ import annotations

import time


class ProgressBar:
    """A one-line progress bar of a read: bytes done, rate and time left.

    Nothing is drawn during the first ``delay`` seconds, so short reads stay
    silent; afterwards the line is redrawn at most ``1 / interval`` times per
    second, and erased by :meth:`close`.

    Parameters
    ----------
    label : str
        What is being read (the path).
    total_bytes : int
        Size of the input; the share done is ``bytes / total_bytes``.
    stream : file-like
    delay, interval : float
        Seconds before the first draw, and between draws.
    clock : callable
        Returns seconds (``time.monotonic``; replaceable in tests).
    """

    WIDTH = 24

    def __init__(
        self, label: str, total_bytes: int, stream, delay: float = 1.0, interval: float = 0.1, clock=time.monotonic
    ):
        self.label = label
        self.total = max(int(total_bytes), 1)
        self.stream = stream
        self.delay, self.interval = delay, interval
        self.clock = clock
        self.pass_number = 0
        self.started = self.clock()
        self.drawn_at: float | None = None

    def update(self, pass_number: int, done_bytes: int, rows: int) -> None:
        """Record progress of pass ``pass_number`` and redraw when due."""
        now = self.clock()
        if pass_number != self.pass_number:
            self.pass_number, self.started = pass_number, now
        if now - self.started < self.delay or (self.drawn_at is not None and now - self.drawn_at < self.interval):
            return
        self.drawn_at = now
        self.stream.write("\r" + self.line(done_bytes, rows, now - self.started) + "\x1b[K")
        self.stream.flush()

    def line(self, done_bytes: int, rows: int, elapsed: float) -> str:
        """The text of the bar: ``label pass N [####....] 42% 1.2/3.0 GB 85 MB/s ETA 0:21 1,234 rows``."""
        share = min(max(done_bytes / self.total, 0.0), 1.0)
        filled = int(round(share * self.WIDTH))
        rate = done_bytes / elapsed if elapsed > 0 else 0.0
        eta = (self.total - done_bytes) / rate if rate > 0 else float("nan")
        return (
            f"{self.label} pass {self.pass_number} [{'#' * filled}{'.' * (self.WIDTH - filled)}] "
            f"{share:4.0%} {_size(done_bytes)}/{_size(self.total)} {_size(rate)}/s "
            f"ETA {_duration(eta)} {rows:,} rows"
        )

    def close(self) -> None:
        """Erase the bar, if it was drawn."""
        if self.drawn_at is not None:
            self.stream.write("\r\x1b[K")
            self.stream.flush()


def _size(n: float) -> str:
    for unit in ("B", "kB", "MB", "GB"):
        if n < 1000 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1000.0
    return f"{n:.1f} TB"  # pragma: no cover


def _duration(seconds: float) -> str:
    if seconds != seconds:  # NaN: no rate yet
        return "-:--"
    minutes, secs = divmod(int(round(seconds)), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"
