"""Work spread over threads, with results in their input order (so output is deterministic)."""

from __future__ import annotations

import itertools
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import TypeVar

T = TypeVar("T")
R = TypeVar("R")


def ordered_map(function: Callable[[T], R], items: Iterable[T], jobs: int, name: str = "nblint") -> Iterator[R]:
    """``function(item)`` for each item, in the items' order, computed ``jobs`` at a time.

    numpy's and pyarrow's kernels release the GIL, so threads share the cores.  At
    most ``jobs + 1`` items are in flight, so memory stays bounded by a few items
    however many there are; ``jobs <= 1`` computes each item here, on this thread.
    """
    if jobs <= 1:
        for item in items:
            yield function(item)
        return
    # A single item (a small table's one block or chunk) is computed here: starting and
    # joining a pool of threads for it was a tenth of a small table's check.
    items = iter(items)
    first = list(itertools.islice(items, 2))
    if len(first) < 2:
        for item in first:
            yield function(item)
        return
    from concurrent.futures import ThreadPoolExecutor  # (its thread and queue modules: only where a pool starts)

    with ThreadPoolExecutor(max_workers=jobs, thread_name_prefix=name) as pool:
        in_flight: deque = deque()
        try:
            for item in itertools.chain(first, items):
                in_flight.append(pool.submit(function, item))
                if len(in_flight) > jobs:
                    yield in_flight.popleft().result()
            while in_flight:
                yield in_flight.popleft().result()
        finally:
            for future in in_flight:
                future.cancel()
