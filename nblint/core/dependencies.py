"""What nblint needs installed, and the one line that says how to install what is missing.

nblint is distributed as ``naive-bayes-lint`` (``nblint`` on the package index is an
unrelated project: installing it would replace this one's ``nblint/`` folder), so every
install hint is built here and names this distribution.  scikit-learn is a required
dependency, imported only where it is used; matplotlib (``plot``), openpyxl and xlrd
(``excel``), dask and distributed (``dask``) are optional extras.
"""

from __future__ import annotations

import importlib

from nblint.core.errors import MissingDependency

#: The name this project is installed under (``pip install naive-bayes-lint``).
DISTRIBUTION = "naive-bayes-lint"

#: Import name -> (the package to install, the extra of naive-bayes-lint that brings it; None: required).
PROVIDERS: dict[str, tuple[str, str | None]] = {
    "sklearn": ("scikit-learn", None),
    "matplotlib": ("matplotlib", "plot"),
    "openpyxl": ("openpyxl", "excel"),
    "xlrd": ("xlrd", "excel"),
    "dask": ("dask", "dask"),
    "distributed": ("distributed", "dask"),
}


def install_hint(module: str) -> str:
    """The command that installs what provides the top-level import ``module``.

    Examples
    --------
    >>> install_hint("matplotlib")
    'pip install "naive-bayes-lint[plot]"'
    >>> install_hint("sklearn")
    'pip install scikit-learn'
    """
    package, extra = PROVIDERS[module.split(".")[0]]
    return f'pip install "{DISTRIBUTION}[{extra}]"' if extra else f"pip install {package}"


def missing_message(module: str, what: str) -> str:
    """One line: ``what`` needs the package that provides ``module``, and how to install it."""
    package, extra = PROVIDERS[module.split(".")[0]]
    if extra is None:  # a required dependency missing: a broken environment, not a choice
        return (
            f"{what} needs {package}, which {DISTRIBUTION} requires and is not installed here: {install_hint(module)}"
        )
    return f"{what} needs {package}: {install_hint(module)}"


def require(module: str, what: str):
    """Import ``module`` (its top-level package is in :data:`PROVIDERS`) for ``what``.

    Raises
    ------
    MissingDependency
        When it is not installed; the message is :func:`missing_message`.  (An installed
        package that fails to import, a version mismatch say, raises its own error.)
    """
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if not _is_missing(exc, module):
            raise
        raise MissingDependency(missing_message(module, what), name=module.split(".")[0]) from None


def explain_missing(exc: ImportError) -> str | None:
    """The one line for a package nblint knows how to install that is not installed, else None."""
    if isinstance(exc, MissingDependency):
        return str(exc)
    top = (exc.name or "").split(".")[0]
    if not isinstance(exc, ModuleNotFoundError) or top not in PROVIDERS:
        return None
    return missing_message(top, "this command")


def _is_missing(exc: ModuleNotFoundError, module: str) -> bool:
    """The module not found is ``module``'s package (not another one it imports, which is its own problem)."""
    return (exc.name or "").split(".")[0] == module.split(".")[0]
