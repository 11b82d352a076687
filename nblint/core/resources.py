"""Resource budgets: the memory a table's statistics may take, and the disk nblint's temporary files may.

Whatever the input (its width, its number of classes, its compression ratio),
nblint's memory stays under a budget: by default :data:`MEMORY_FRACTION` of the
machine's memory (or of the container's limit, when that is lower), otherwise
``memory-budget`` in the configuration or the ``NBLINT_MEMORY_BUDGET``
environment variable.  Work whose statistics would exceed it is capped, and
NB106 says what was not checked.

Temporary files (the copy of standard input, the spill of a parsed CSV) may take
at most half of the free space of the temporary folder, or
``NBLINT_DISK_BUDGET`` bytes: standard input beyond that is refused, and a spill
beyond it is dropped (the later passes parse the CSV again instead).
"""

from __future__ import annotations

import math
import os
import re
import tempfile

from nblint.core.records import Record

#: Share of the machine's memory a run may plan to use by default.
MEMORY_FRACTION = 0.25
#: Share of the temporary folder's free space temporary files may take by default.
DISK_FRACTION = 0.5
_UNITS = {
    "": 1,
    "b": 1,
    "k": 1e3,
    "kb": 1e3,
    "kib": 2**10,
    "m": 1e6,
    "mb": 1e6,
    "mib": 2**20,
    "g": 1e9,
    "gb": 1e9,
    "gib": 2**30,
    "t": 1e12,
    "tb": 1e12,
    "tib": 2**40,
}
#: A size as text (compiled by ``re`` where one is read, not at import: a run seldom has one).
_SIZE = r"^\s*(?P<number>\d+(?:\.\d*)?|\.\d+)\s*(?P<unit>[a-z]*)\s*$"


def parse_size(value, what: str = "") -> int:
    """Bytes from an integer or a string such as ``"4GB"``, ``"512 MiB"``; ValueError naming ``what`` (if given)."""
    named = f"{what} " if what else ""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise ValueError(f"{named}must be a size such as 2GB or a number of bytes, got {value!r}")
    if isinstance(value, str):
        found = re.match(_SIZE, value, re.I)
        if not found or found.group("unit").lower() not in _UNITS:
            raise ValueError(f"{named}must be a size such as 2GB or a number of bytes, got {value!r}")
        value = float(found.group("number")) * _UNITS[found.group("unit").lower()]
    if not math.isfinite(value) or value < 1 << 20:
        raise ValueError(f"{named}must be a finite size of at least 1MiB, got {value!r}")
    return int(value)


def _environment_size(value: str, name: str) -> int:
    """A size from an environment variable; a bad one is a configuration error naming the variable."""
    from nblint.core.errors import ConfigError

    try:
        return parse_size(value, name)
    except ValueError as exc:
        raise ConfigError(str(exc)) from None


def machine_memory() -> int:
    """Physical memory, or the cgroup (container) limit when that is lower."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):  # pragma: no cover - not POSIX
        total = 8 << 30
    for path in ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"):
        try:
            with open(path) as handle:
                limit = handle.read().strip()
        except OSError:
            continue
        if limit.isdigit():
            total = min(total, int(limit))
    return int(total)


def address_space_limit() -> int | None:
    """The process's address-space limit (``ulimit -v``, RLIMIT_AS) in bytes, or None when there is none."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not POSIX
        return None
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    return None if soft == resource.RLIM_INFINITY else int(soft)


#: Below this address-space limit, threads are kept few: each reserves a stack and a malloc arena
#: (tens of MB of address space) that a small ``ulimit -v`` cannot hold.
FEW_THREADS_BELOW = 4 << 30


def fit_threads_to_address_space() -> None:
    """Under a small ``ulimit -v``, keep what reserves address space without using it small.

    pyarrow then allocates through the system allocator (jemalloc reserves large
    stretches of address space up front: OpenBLAS's buffers then found none left and
    it ended the process) and uses one CPU thread and one I/O thread. Called before
    pyarrow is imported (its allocator is chosen then), unless ``ARROW_DEFAULT_MEMORY_POOL``
    says otherwise.
    """
    limit = address_space_limit()
    if limit is None or limit >= FEW_THREADS_BELOW:
        return
    os.environ.setdefault("ARROW_DEFAULT_MEMORY_POOL", "system")
    import pyarrow as pa

    pa.set_cpu_count(1)
    pa.set_io_thread_count(1)


def resource_error(exc: BaseException) -> str | None:
    """A one-line message for an error that says the process ran out of memory or threads, else None."""
    text = str(exc)
    out_of_threads = "Failed to launch worker thread" in text or "can't start new thread" in text
    # A compiled module imported late (pandas' on a later pass) whose mapping the address space refused.
    unmapped = isinstance(exc, ImportError) and "failed to map segment from shared object" in text
    if not (isinstance(exc, MemoryError) or out_of_threads or unmapped or type(exc).__name__ == "ArrowMemoryError"):
        return None
    limit = address_space_limit()
    where = f" (the address-space limit, ulimit -v, is {_bytes(limit)})" if limit is not None else ""
    what = "threads" if out_of_threads else "memory"
    return f"out of {what}{where}: raise the limit, or lower NBLINT_MEMORY_BUDGET or --jobs"


class MemoryBudget(Record):
    """Bytes the statistics of one table may take (``memory``).

    (Written out: a named tuple's class costs a fresh process ~0.4 ms to create; none reads this as a tuple.)
    """

    __slots__ = ("memory",)

    def __init__(self, memory: int) -> None:
        self.memory = memory

    @classmethod
    def default(cls, configured=None) -> MemoryBudget:
        """``configured`` (bytes or a size string), else ``NBLINT_MEMORY_BUDGET``, else the machine's share."""
        if configured is None:
            configured = os.environ.get("NBLINT_MEMORY_BUDGET") or None
            if configured is not None:
                return cls(_environment_size(configured, "NBLINT_MEMORY_BUDGET"))
            return cls(int(MEMORY_FRACTION * machine_memory()))
        return cls(parse_size(configured, "memory-budget"))


def disk_budget(folder: str | None = None) -> int:
    """Bytes temporary files may take: ``NBLINT_DISK_BUDGET``, else half the free space of ``folder``."""
    configured = os.environ.get("NBLINT_DISK_BUDGET")
    if configured:
        return _environment_size(configured, "NBLINT_DISK_BUDGET")
    try:
        stats = os.statvfs(folder or tempfile.gettempdir())
    except (OSError, AttributeError):  # pragma: no cover - not POSIX
        return 1 << 34
    return int(DISK_FRACTION * stats.f_bavail * stats.f_frsize)


#: Bytes one exact level of one column takes in a profile, before its per-class counts
#: (its key in a tuple, its index entry during a merge).
LEVEL_BYTES = 64
#: The fewest distinct values a column keeps exactly, whatever the budget.
MIN_LEVELS = 16
#: Bytes one distinct (value, class) pair of a column past the cap takes in the pass that counts them
#: (its value and class in a pandas index, its count, and the copies a merge makes).
PAIR_BYTES = 160


class ProfileCaps(Record):
    """How much of each structure one table's profile may hold within a memory budget.

    Each structure may take ``share`` bytes (half the budget; tables that strain one
    rarely strain another).  The byte counts per item include the copies a merge
    makes and the chunks in flight.

    Parameters
    ----------
    share : int
        Bytes each structure may take.
    n_columns : int
        Columns of the table.
    distinct : int
        Distinct values kept per column when memory is no constraint.

    (Written out: a named tuple's class costs a fresh process ~0.4 ms to create; none reads this as a tuple.)
    """

    __slots__ = ("share", "n_columns", "distinct")

    def __init__(self, share: int, n_columns: int, distinct: int) -> None:
        self.share = share
        self.n_columns = n_columns
        self.distinct = distinct

    @classmethod
    def for_table(cls, budget: MemoryBudget | None, n_columns: int, distinct: int) -> ProfileCaps:
        budget = budget or MemoryBudget.default()
        return cls(budget.memory // 2, n_columns, distinct)

    def levels(self, slots: int) -> int:
        """Distinct values kept exactly per column, with ``slots`` class slots per level."""
        per_column = self.share // (max(self.n_columns, 1) * (LEVEL_BYTES + 8 * slots))
        return int(min(self.distinct, max(MIN_LEVELS, per_column)))

    def pairs(self, columns: int) -> int:
        """Distinct (value, class) pairs each of ``columns`` columns past the cap may hold in the pass over them."""
        return self.share // (max(columns, 1) * PAIR_BYTES)

    @property
    def comoment_columns(self) -> int:
        """Complete continuous columns whose co-moment matrix (8 bytes a cell, about 4 copies) is kept."""
        return math.isqrt(self.share // 32)

    @property
    def cooccurrences(self) -> int:
        """Co-occurrence counts of 0/1 columns kept (sparse: about 40 bytes a count with its index and copies)."""
        return self.share // 40

    @property
    def class_cells(self) -> int:
        """Class slots x numeric columns of per-class statistics (about 10 arrays of 8 bytes a cell)."""
        return self.share // 80

    def describe(self, size: float) -> str:
        """``size`` bytes against the budget, in words."""
        return f"{_bytes(size)}, over the memory budget's {_bytes(self.share)} for it"


def _bytes(size: float) -> str:
    for unit in ("B", "kB", "MB", "GB", "TB"):
        if size < 1000 or unit == "TB":
            return f"{size:.3g} {unit}"
        size /= 1000
    return f"{size:.3g} TB"  # pragma: no cover
