"""The project's own modules, read and parsed once per test process.

The architecture and size tests (``test_architecture.py``, ``test_module_sizes.py``) each walk
every module of ``nblint/`` and ``rules/``: about 2 MB of source, over a second of CPU to parse
and walk. Each test asks here instead of parsing again, so the package is parsed once per
process, whatever the number of tests that read it. The trees are shared: a reader never
changes one.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@functools.cache
def files(folder: str) -> tuple[Path, ...]:
    """The ``.py`` files under ``ROOT / folder``, in sorted order."""
    return tuple(sorted((ROOT / folder).rglob("*.py")))


@functools.cache
def text_of(path: Path) -> str:
    """The source of the module at ``path`` (UTF-8)."""
    return path.read_text(encoding="utf-8")


@functools.cache
def tree_of(path: Path) -> ast.Module:
    """The syntax tree of the module at ``path``."""
    return ast.parse(text_of(path))


@functools.cache
def walk(node: ast.AST) -> tuple[ast.AST, ...]:
    """Every node under ``node`` (itself included), in ``ast.walk`` order: walked once per tree.

    (Nodes compare by identity, and the cache holds the tree, so a node's ``id`` stays its own.)
    """
    return tuple(ast.walk(node))
