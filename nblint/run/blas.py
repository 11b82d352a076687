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
import threading
from contextlib import contextmanager

#: What OpenBLAS, MKL and BLIS read, when they load, for their thread count.
BLAS_THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "BLIS_NUM_THREADS")


@contextmanager
def one_blas_thread():
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
    """
    from threadpoolctl import ThreadpoolController

    extensions = _extension_modules()
    before = ThreadpoolController().select(user_api="blas")

    def hand_back() -> None:
        """Give each BLAS loaded meanwhile the thread count the ones limited here returned to."""
        restored = [lib.num_threads for lib in before.lib_controllers]
        if not restored or _extension_modules() <= extensions:
            # nblint loads shared libraries only by importing extension modules: with none
            # imported meanwhile, no BLAS was loaded (and the second scan of the process's
            # libraries, 20 ms, is spared).
            return
        loaded = {lib.filepath for lib in before.lib_controllers}
        for lib in ThreadpoolController().select(user_api="blas").lib_controllers:
            if lib.filepath not in loaded:
                lib.set_num_threads(max(restored))

    with _one_thread_environment(hand_back), before.limit(limits=1):
        yield


def _extension_modules() -> set[str]:
    """The names of the imported modules that are shared libraries (extension modules)."""
    files = ((name, getattr(module, "__file__", None)) for name, module in list(sys.modules.items()))
    return {name for name, file in files if isinstance(file, str) and file.endswith(_EXTENSION_SUFFIXES)}


_EXTENSION_SUFFIXES = tuple(importlib.machinery.EXTENSION_SUFFIXES)
_environment_lock = threading.Lock()
_environment_users = 0
_environment_saved: dict[str, str | None] = {}


@contextmanager
def _one_thread_environment(on_last_exit):
    """``BLAS_THREAD_VARIABLES`` set to 1 meanwhile; when the last user (of any thread)
    leaves, they are restored and ``on_last_exit()`` is called."""
    global _environment_users
    with _environment_lock:
        if _environment_users == 0:
            _environment_saved.update((name, os.environ.get(name)) for name in BLAS_THREAD_VARIABLES)
            os.environ.update(dict.fromkeys(BLAS_THREAD_VARIABLES, "1"))
        _environment_users += 1
    try:
        yield
    finally:
        with _environment_lock:
            _environment_users -= 1
            if _environment_users == 0:
                for name, value in _environment_saved.items():
                    if value is None:
                        os.environ.pop(name, None)
                    else:
                        os.environ[name] = value
                on_last_exit()
