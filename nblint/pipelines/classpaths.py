"""Class paths a config names in scikit-learn, checked against the installed scikit-learn's public names.

A Hydra ``_target_``, a Lightning/jsonargparse ``class_path`` or an nblint spec's
encoder can name a class by its full path (``sklearn.naive_bayes.BernoulliNB``).
A typo there (``sklearn.naive_bayes.BernouliNB``) makes the config fail when it is
instantiated, and until then a linter that skips what it does not recognise would
pass it silently.  A path under ``sklearn.`` is unmistakably scikit-learn's, so a
name it does not have is an input error with the likeliest path it meant.

Nothing is imported, scikit-learn included (importing it costs a pipeline-only run about
a second and loads the table libraries): its public modules are listed from its folder
and their names read from their source with :mod:`ast` (what a module defines, imports
and lists in ``__all__``). Nothing the config names outside ``sklearn.`` is read or
checked, and a path through a private module (``sklearn.preprocessing._encoders``)
is left alone: it is not the public API, and whether it exists says little.
"""

from __future__ import annotations

import ast
import importlib.util
import os
import pkgutil
import re
from functools import cache

from nblint.core.suggest import closest

_IDENTIFIER = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")
#: Public-looking subpackages that are not API (test suites, vendored code).
_NOT_API = frozenset({"tests", "externals", "conftest", "setup"})


def misnamed(path: str) -> str | None:
    """Why ``path`` names nothing in the installed scikit-learn, with the likeliest path; None when it is fine.

    None also when the path is not scikit-learn's, goes through a private module,
    or when scikit-learn is not installed (nothing to check against).
    """
    parts = path.split(".")
    if parts[0] != "sklearn" or len(parts) < 2 or not all(_IDENTIFIER.match(part) for part in parts):
        return None
    modules = _public_modules()
    if modules is None:
        return None
    module, name = ".".join(parts[:-1]), parts[-1]
    if module != "sklearn" and ".".join(parts[:2]) not in modules:
        guess = _closest_module(".".join(parts[:2]), modules)
        if guess is not None:
            rest = ".".join(parts[2:-1])
            fixed = f"{guess}.{rest}" if rest else guess
            names = _names_in(fixed)
            found = closest(name, names, n=1) if names else []
            return _said(path, f"{fixed}.{found[0]}" if found else None, f"scikit-learn has no module {parts[1]!r}")
        return _said(path, _anywhere(name), f"scikit-learn has no module {parts[1]!r}")
    if module == "sklearn":  # sklearn.Pipeline: a class is in a module, never at the top
        return _said(path, _anywhere(name), f"scikit-learn has no {name!r} at its top level")
    names = _names_in(module)
    if names is None:
        return _said(path, _anywhere(name), f"scikit-learn has no module {module!r}")
    if name in names:
        return None
    nearby = closest(name, names, n=1)
    guess = f"{module}.{nearby[0]}" if nearby else _anywhere(name)
    return _said(path, guess, f"{module} has no {name!r}")


def _said(path: str, guess: str | None, why: str) -> str:
    hint = f"; did you mean {guess!r}?" if guess else ""
    return f"{why} (in {path!r}){hint}"


@cache
def _sklearn_folder() -> str | None:
    """The installed scikit-learn's package folder, found without importing it; None: not installed."""
    try:
        spec = importlib.util.find_spec("sklearn")
    except (ImportError, ValueError):
        return None
    locations = list(spec.submodule_search_locations or ()) if spec is not None else []
    return locations[0] if locations else None


@cache
def _public_modules() -> frozenset[str] | None:
    """``sklearn.<module>`` for every public subpackage and module of the installed scikit-learn."""
    folder = _sklearn_folder()
    if folder is None:
        return None
    return frozenset(
        f"sklearn.{info.name}"
        for info in pkgutil.iter_modules([folder])
        if not info.name.startswith("_") and info.name not in _NOT_API
    )


def _source_of(module: str) -> str | None:
    """The ``.py`` file of a scikit-learn module (a package's ``__init__.py``); None: none there."""
    folder = _sklearn_folder()
    if folder is None:
        return None
    base = os.path.join(folder, *module.split(".")[1:])
    for candidate in (os.path.join(base, "__init__.py"), base + ".py"):
        if os.path.isfile(candidate):
            return candidate
    return None


@cache
def _names_in(module: str) -> tuple[str, ...] | None:
    """The public names of a scikit-learn module, read from its source: what it defines, imports and
    lists in ``__all__``, without a leading ``_``; None where it has no Python source."""
    path = _source_of(module)
    if path is None:
        return None
    try:
        with open(path, encoding="utf-8") as handle:
            tree = ast.parse(handle.read(), path)
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
        return None
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(t.id for t in targets if isinstance(t, ast.Name))
            if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets) and node.value is not None:
                try:
                    names.update(str(v) for v in ast.literal_eval(node.value))
                except ValueError:  # (an __all__ built by code: its other names are still read)
                    pass
    # submodules are names of a package too (sklearn.feature_extraction.text)
    if path.endswith("__init__.py"):
        names.update(info.name for info in pkgutil.iter_modules([os.path.dirname(path)]))
    return tuple(sorted(name for name in names if not name.startswith("_")))


def _closest_module(module: str, modules: frozenset[str]) -> str | None:
    found = closest(module, sorted(modules), n=1)
    return found[0] if found else None


def _anywhere(name: str) -> str | None:
    """The public path of ``name`` (or the closest name) in any scikit-learn module: a class put in the
    wrong module (``sklearn.preprocessing.BernoulliNB``) or misspelt there too."""
    modules = _public_modules() or frozenset()
    exact = sorted(module for module in modules if name in (_names_in(module) or ()))
    if exact:
        return f"{exact[0]}.{name}"
    best: list[tuple[str, str]] = []
    for module in sorted(modules):
        for found in closest(name, _names_in(module) or (), n=1):
            best.append((found, module))
    ranked = closest(name, [found for found, _ in best], n=1)
    if not ranked:
        return None
    module = next(module for found, module in best if found == ranked[0])
    return f"{module}.{ranked[0]}"
