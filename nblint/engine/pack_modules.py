"""The modules of a rule pack, listed as ``pkgutil.walk_packages`` lists them, one directory listing per package.

Every check lists the built-in pack's modules to find its rules. ``pkgutil`` tells a
package from a plain directory by listing the directory, so it lists every family's
``__pycache__`` too (hundreds of bytecode files once several interpreters have run): 27
listings, about 5 ms of a first check. Here a directory is a package when it holds an
``__init__`` file with one of the import system's suffixes (a few ``stat`` calls, the
very test ``pkgutil`` makes of the listing). Where a package's path is not a set of
directories (an archive, a custom finder), ``pkgutil`` answers.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from importlib.machinery import all_suffixes


def walk_modules(package) -> Iterator[tuple[str, bool]]:
    """(full name, is a package) of every module under ``package``, in ``pkgutil.walk_packages``'s order.

    Each subpackage is imported before its own modules are listed (its ``__path__`` says where they are), as
    there; its import errors propagate.
    """
    paths = list(getattr(package, "__path__", None) or [])
    if not all(os.path.isdir(path) for path in paths):
        import pkgutil

        for info in pkgutil.walk_packages(paths, package.__name__ + "."):
            yield info.name, info.ispkg
        return
    yield from _walk(paths, package.__name__ + ".")


def _walk(paths: list[str], prefix: str) -> Iterator[tuple[str, bool]]:
    """``walk_packages(paths, prefix)`` over directories: each module, then a package's own modules."""
    suffixes = _suffixes()
    yielded: set[str] = set()
    walked: set[str] = set()  # (a path two of these packages share is walked once)
    for path in paths:
        for name, is_package in _directory_modules(path, suffixes):
            if name in yielded:
                continue
            yielded.add(name)
            yield prefix + name, is_package
            if is_package:
                full = prefix + name
                try:
                    __import__(full)
                except ImportError:  # (its modules are not listed; importing it again says why)
                    continue
                inner = [p for p in getattr(sys.modules[full], "__path__", None) or [] if p not in walked]
                walked.update(inner)
                yield from _walk(inner, full + ".")


def _directory_modules(path: str, suffixes: list[str]) -> Iterator[tuple[str, bool]]:
    """(name, is a package) of the modules of one directory, in sorted file order, as ``pkgutil`` finds them."""
    try:
        filenames = sorted(os.listdir(path))
    except OSError:  # (an unreadable directory is skipped, as the import system does)
        return
    seen: set[str] = set()
    for filename in filenames:
        name = _module_name(filename, suffixes)
        if name == "__init__" or name in seen:
            continue
        is_package = False
        if name is None:
            full = os.path.join(path, filename)
            if "." in filename or not os.path.isdir(full):
                continue
            if not any(os.path.lexists(os.path.join(full, "__init__" + suffix)) for suffix in suffixes):
                continue  # (a directory without an __init__ is no package)
            name, is_package = filename, True
        if name and "." not in name:
            seen.add(name)
            yield name, is_package


def _module_name(filename: str, suffixes: list[str]) -> str | None:
    """``inspect.getmodulename``: the name a file imports as (its longest import suffix removed), else None."""
    for suffix in suffixes:
        if filename.endswith(suffix):
            return filename[: -len(suffix)]
    return None


def _suffixes() -> list[str]:
    """The import system's file suffixes, longest first (as ``inspect.getmodulename`` tries them)."""
    return sorted(all_suffixes(), key=len, reverse=True)
