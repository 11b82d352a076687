"""BLAS on one thread while nblint runs: its parallelism is over chunks, not inside matrix products.

:func:`one_blas_thread` limits every BLAS loaded (OpenBLAS, MKL, BLIS, through
threadpoolctl) and sets the environment they read as they load, for the run;
on exit each returns to its thread count, and a BLAS loaded meanwhile gets the
count the others returned to, so an API caller's session is left as it was.
"""

from __future__ import annotations

import importlib.machinery
import os
import sys
from collections.abc import Set
from contextlib import contextmanager
from typing import Any

from nblint.core.shared import ProcessWide

#: What OpenBLAS, MKL and BLIS read, when they load, for their thread count.
BLAS_THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "BLIS_NUM_THREADS")

#: Multiply-adds below which a matrix product runs on one thread whatever the BLAS may use:
#: OpenBLAS threads a product only from 65,536 x 4 of them (its SMP_THRESHOLD_MIN times
#: GEMM_MULTITHREAD_THRESHOLD).  A run whose largest product is smaller needs no limit.
THREADED_WORK = 65_536 * 4


def table_work(source: Any, test: Any = None) -> int | None:
    """Multiply-adds of the largest BLAS products a check of ``source`` (a table source) makes; None when not known.

    Its Gram matrix (``n p^2``, the co-moments and 0/1 co-occurrences) and the Cholesky
    factorisation of the columns' correlations (``p^3``) bound them.  A stream that has not
    counted its rows yet is not known, nor a check with a ``test`` table (its own pass too).
    """
    if not source.n_rows or test is not None:
        return None
    n_rows, n_columns = source.n_rows, len(source.names)
    return n_rows * n_columns**2 + n_columns**3


@contextmanager
def one_blas_thread(work: int | None = None):
    """Keep BLAS (OpenBLAS's matrix products, Cholesky) on one thread meanwhile.

    nblint's parallelism is over chunks (``--jobs`` threads, plus as many parsing
    CSV blocks); BLAS threads of its own would compete with them for the same
    cores, and OpenBLAS's waiting threads spin.  Measured on the 2-core machine
    with another process busy: a 1,800 x 1,800 Cholesky took 2.5 s with two BLAS
    threads against 0.06-0.09 s with one, and profiling the 20k x 2,000 table with
    ``--jobs 2`` 4.8-5.7 s against 3.4-3.9 s.

    A BLAS loaded meanwhile (scipy's, when a large table first needs
    ``scipy.linalg``; numpy's, when the CLI enters this before importing numpy)
    is not among those limited on entry: it reads its thread count from the
    environment as it loads, so the environment says one thread meanwhile.  On
    the 1M x 65 bench table, scipy's BLAS on two threads (its SSYRK then counted
    the co-occurrences) had cost 5-9 s of CPU (0.3 s on one).  On exit, a BLAS loaded meanwhile gets the thread count the
    others return to, so an API caller's session is left as it was.

    ``work`` is the most multiply-adds one BLAS call of the run makes (:func:`table_work`), None
    when not known.  Below :data:`THREADED_WORK` BLAS runs every call on one thread anyway, so
    nothing is limited or set: the BLAS libraries are not looked for (threadpoolctl's import and
    scan, 5-10 ms, were most of a small table's first check beside the imports).
    """
    if work is not None and work < THREADED_WORK:
        yield
        return
    imported = set(sys.modules)
    before = _blas_libraries(imported)

    def hand_back() -> None:
        """Give each BLAS loaded meanwhile the thread count the ones limited here returned to."""
        restored = [lib.num_threads for lib in before.lib_controllers]
        if not restored or not _new_extension_modules(imported):
            return
        loaded = {lib.filepath for lib in before.lib_controllers}
        for lib in _blas_libraries(set(sys.modules)).lib_controllers:
            if lib.filepath not in loaded:
                lib.set_num_threads(max(restored))

    with _ENVIRONMENT.held(on_last_exit=hand_back), before.limit(limits=1):
        yield


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


#: ``BLAS_THREAD_VARIABLES`` at 1 while any run (of any thread) is in :func:`one_blas_thread`.
_ENVIRONMENT = ProcessWide(_one_thread_environment, _restore_environment)
