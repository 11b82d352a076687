"""BLAS on one thread while nblint's dense matrix products run: its parallelism is over chunks, not inside them.

A run is a :func:`blas_scope`: cheap to enter, it limits nothing by itself.  Each dense
BLAS step (a Gram matrix, a Cholesky factorisation, a model's products) is a
:func:`dense_blas` of its multiply-adds; the first one large enough for BLAS to use
threads limits every BLAS loaded (OpenBLAS, MKL, BLIS, through threadpoolctl) and sets
the environment they read as they load, until the last run leaves.  A run with no such
step (a sparse document-term matrix, a small table) never looks for the BLAS libraries:
threadpoolctl's scan of the process's shared libraries (229 of them once scikit-learn is
loaded) was a fifth of a text corpus's first check.  On release each BLAS returns to its
thread count, and a BLAS loaded meanwhile gets the count the others returned to, so an
API caller's session is left as it was.  :func:`one_blas_thread` limits at once (a
caller that runs many small checks, the testing harness).
"""

from __future__ import annotations

import importlib.machinery
import os
import sys
import threading
from collections.abc import Iterator, Set
from contextlib import ExitStack, contextmanager
from typing import Any

from nblint.core.shared import ProcessWide

#: What OpenBLAS, MKL and BLIS read, when they load, for their thread count.
BLAS_THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "BLIS_NUM_THREADS")

#: Multiply-adds below which a matrix product runs on one thread whatever the BLAS may use:
#: OpenBLAS threads a product only from 65,536 x 4 of them (its SMP_THRESHOLD_MIN times
#: GEMM_MULTITHREAD_THRESHOLD).  A step whose product is smaller needs no limit.
THREADED_WORK = 65_536 * 4


@contextmanager
def one_blas_thread() -> Iterator[None]:
    """Keep BLAS (OpenBLAS's matrix products, Cholesky) on one thread meanwhile, from now on.

    nblint's parallelism is over chunks (``--jobs`` threads, plus as many parsing
    CSV blocks); BLAS threads of its own would compete with them for the same
    cores, and OpenBLAS's waiting threads spin.  Measured on the 2-core machine
    with another process busy: a 1,800 x 1,800 Cholesky took 2.5 s with two BLAS
    threads against 0.06-0.09 s with one, and profiling the 20k x 2,000 table with
    ``--jobs 2`` 4.8-5.7 s against 3.4-3.9 s.

    A BLAS loaded meanwhile (scipy's, when a large table first needs
    ``scipy.linalg``) is not among those limited on entry: it reads its thread
    count from the environment as it loads, so the environment says one thread
    meanwhile.  On the 1M x 65 bench table, scipy's BLAS on two threads (its SSYRK
    then counted the co-occurrences) had cost 5-9 s of CPU (0.3 s on one).  On
    exit, a BLAS loaded meanwhile gets the thread count the others return to, so
    an API caller's session is left as it was.
    """
    with _LIMIT.held():
        yield


@contextmanager
def blas_scope(environment: bool = False) -> Iterator[None]:
    """A run: its :func:`dense_blas` steps share one limit, taken by the first and held until the last run leaves.

    ``environment`` sets the BLAS thread variables to one from the start: for a
    process of nblint's own (the CLI), whose numpy loads later and should start
    on one thread (its buffers are reserved per thread, under ``ulimit -v`` too).
    """
    with ExitStack() as stack:
        if environment:
            stack.enter_context(_ENVIRONMENT.held())
        with _SCOPES.lock:
            _SCOPES.runs += 1
        try:
            yield
        finally:
            held = None
            with _SCOPES.lock:
                _SCOPES.runs -= 1
                if _SCOPES.runs == 0:  # (the last run to leave gives back the limit its steps took)
                    held, _SCOPES.held = _SCOPES.held, None
            if held is not None:
                held.close()


@contextmanager
def dense_blas(work: float) -> Iterator[None]:
    """A dense BLAS step of ``work`` multiply-adds: on one BLAS thread when BLAS would use more.

    Below :data:`THREADED_WORK` nothing is done (BLAS runs it on one thread anyway).
    Within a :func:`blas_scope` the first large step takes the limit for the
    scope's remaining steps (no thread counts set back and forth between chunks);
    outside one, the step holds it itself.
    """
    if work < THREADED_WORK:
        yield
        return
    with _SCOPES.lock:
        if _SCOPES.runs and _SCOPES.held is None:
            stack = ExitStack()
            stack.enter_context(_LIMIT.held())
            _SCOPES.held = stack
    with _LIMIT.held():  # (the step's own hold: a run of another thread may leave meanwhile)
        yield


class _Scopes:
    """The runs in progress, and the limit their first large step took (closed when the last one leaves)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.runs = 0
        self.held: ExitStack | None = None


_SCOPES = _Scopes()


def _take_limit() -> tuple[ExitStack, set[str], Any]:
    """The environment at one thread, every BLAS loaded limited to one; what :func:`_give_back_limit` needs."""
    stack = ExitStack()
    stack.enter_context(_ENVIRONMENT.held())
    imported = set(sys.modules)
    before = _blas_libraries(imported)
    limiter = before.limit(limits=1)
    stack.callback(limiter.restore_original_limits)
    return stack, imported, before


def _give_back_limit(taken: tuple[ExitStack, set[str], Any]) -> None:
    """Each BLAS back to its thread count; one loaded meanwhile gets the count the ones limited returned to."""
    stack, imported, before = taken
    stack.close()
    restored = [lib.num_threads for lib in before.lib_controllers]
    if not restored or not _new_extension_modules(imported):
        return
    loaded = {lib.filepath for lib in before.lib_controllers}
    for lib in _blas_libraries(set(sys.modules)).lib_controllers:
        if lib.filepath not in loaded:
            lib.set_num_threads(max(restored))


def _blas_libraries(imported: set[str]):
    """threadpoolctl's controller of the BLAS libraries loaded in this process (``imported``: ``sys.modules`` now).

    A scan of the process's shared libraries costs 5-25 ms, so its result is kept for the
    next run: nblint loads shared libraries only by importing extension modules, so while
    no extension module is imported, the BLAS libraries are the ones found (and the
    controller asks each for its thread count when it limits them).
    """
    global _SCANNED
    if _SCANNED is not None:
        seen, controller = _SCANNED
        if not _new_extension_modules(seen, imported):
            if not imported <= seen:
                _SCANNED = (seen | imported, controller)
            return controller
    from threadpoolctl import ThreadpoolController

    controller = ThreadpoolController().select(user_api="blas")
    _SCANNED = (frozenset(imported), controller)
    return controller


#: The module names imported when the BLAS libraries were last looked for, and what was found.
_SCANNED: tuple[frozenset[str], Any] | None = None


def _new_extension_modules(seen: Set[str], imported: Set[str] | None = None) -> bool:
    """Whether a module in ``imported`` (default: ``sys.modules``) but not in ``seen`` is a shared library."""
    names = set(sys.modules) if imported is None else imported
    for name in names - seen:
        file = getattr(sys.modules.get(name), "__file__", None)
        if isinstance(file, str) and file.endswith(_EXTENSION_SUFFIXES):
            return True
    return False


_EXTENSION_SUFFIXES = tuple(importlib.machinery.EXTENSION_SUFFIXES)


def _one_thread_environment() -> dict[str, str | None]:
    """Set ``BLAS_THREAD_VARIABLES`` to 1; what they were."""
    saved = {name: os.environ.get(name) for name in BLAS_THREAD_VARIABLES}
    os.environ.update(dict.fromkeys(BLAS_THREAD_VARIABLES, "1"))
    return saved


def _restore_environment(saved: dict[str, str | None]) -> None:
    for name, value in saved.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


#: ``BLAS_THREAD_VARIABLES`` at 1 while any run (of any thread) holds the limit, or a scope asked for them.
_ENVIRONMENT = ProcessWide(_one_thread_environment, _restore_environment)
#: Every BLAS loaded on one thread while any run (of any thread) holds it.
_LIMIT = ProcessWide(_take_limit, _give_back_limit)
