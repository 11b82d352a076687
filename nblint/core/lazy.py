"""Names a package re-exports from modules it imports only when one of the names is first used (PEP 562).

A package's face may offer names whose modules cost start-up time most runs never need
(the file readers beside an in-memory table, the pipeline-config readers beside a table
check, the Naive Bayes model beside a profile). :func:`lazy_exports` gives such a package
the module-level ``__getattr__`` that imports a name's module on first use and keeps the
name in the package, as an import at the top would have.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from typing import Any


def lazy_exports(package: str, homes: dict[str, str]) -> Callable[[str], Any]:
    """The ``__getattr__`` of ``package``: each name of ``homes`` from its module (name -> module), on first use.

    The value found is kept in the package, so later look-ups are plain attribute reads.
    """

    def __getattr__(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(home), name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__
