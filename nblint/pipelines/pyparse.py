"""Turn Python text into an :mod:`ast` module: IPython syntax blanked, Python 2 recognised, nothing run.

Notebook cells are Python with IPython's additions.  Those additions are
replaced line for line (so every line keeps its number) before parsing:

* line magics (``%matplotlib inline``), shell escapes (``!pip install ...``,
  ``files = !ls``) and help lines (``df.head?``, ``??model``) become ``pass``
  at the same indentation;
* ``%time`` and ``%timeit`` in front of a statement leave the statement
  (``%time model.fit(X, y)`` fits the model);
* a cell magic (``%%...`` on the first line) that runs its body as Python in
  the kernel (``%%time``, ``%%capture``...) loses only that line; any other
  (``%%bash``, ``%%writefile``, ``%%html``...) blanks the whole cell, whose body
  is not Python run by the notebook.

A cell is first parsed as written and transformed only when that fails, so
valid Python that happens to contain such text (in a string, say) is read as is.

Python 2 is recognised by what Python 3 refuses in it (``print x``,
``exec code``, ``except E, e:``, ``raise E, "text"``, ``0777``, backticks,
``<>``, ``ur"..."``).  Its statements that cannot build or feed a model are then
set aside line for line -- ``print`` and ``exec`` statements become ``pass``,
``except E, e:`` reads as ``except E as e:``, ``raise E, "text"`` as ``raise E``
-- and the source is read if that is enough; either way NB510 says so, and a
source still refused is reported as not followed, never guessed at.

Depth.  Python's parser refuses code nested past its own limits (a few hundred
brackets, or a chain of thousands of ``+``); such a source (or notebook cell) is
:class:`Unreadable` with ``deep`` set: valid code nblint cannot read, reported
as not followed like Python 2, not as a broken file.  Code that parses but is
nested deeper than :data:`MAX_NESTING` syntax-tree levels (a cell building an
image as ``[0]*52 + [67] + [131] + ...`` over hundreds of terms) is cut at that
depth (:func:`cut_deep`): the deeper part is read as a value nblint does not
know, the rest of the source as written, and NB510 names the lines cut.  The
reader follows the tree recursively, so this bound is what keeps it within
Python's stack on any input.
"""

from __future__ import annotations

import ast
import re
import sys
from dataclasses import dataclass

#: Cell magics whose body is Python run in the kernel: only the magic line is dropped.
PYTHON_CELL_MAGICS = frozenset({"time", "timeit", "capture", "prun", "memit", "debug", "pypy"})

_LINE_MAGIC = re.compile(r"^(?P<indent>[ \t]*)(?:%|!|\?)")
_ASSIGNED_MAGIC = re.compile(r"^(?P<indent>[ \t]*)[\w.]+(?:\s*,\s*[\w.]+)*\s*=\s*[%!]")
_HELP = re.compile(r"^(?P<indent>[ \t]*)[\w.\[\]'\"()]+\?\??\s*$")
_TIMED = re.compile(r"^(?P<indent>[ \t]*)%(?:time|timeit)(?:\s+-\S+(?:\s+\d+)?)*\s+(?P<code>\S.*)$")
_RUN = re.compile(r"^[ \t]*%run\s+(?:-\w+\s+)*(?P<script>\S+)")

# What Python 3 refuses in Python 2 code, on the line of the syntax error.
_PY2_LINE = re.compile(
    r"^\s*(?:print\b\s*(?:[^\s(=.,)\]}:;]|>>|\(.*\)\s*,\s*\S)"  # print x, print >>f, x, print (a), b
    r"|exec\s+[\"'\w]"  # exec "code"
    r"|except\s+[\w.]+\s*,\s*\w+\s*:"  # except E, e:
    r"|raise\s+[\w.]+\s*,)"  # raise E, "text"
    r"|`[^`\n]+`|<>|\b0\d+\b(?!\.)|\bur[\"']"  # backticks, <>, 0777, ur"..."
)
_PY2_MESSAGES = (
    "Missing parentheses in call to 'print'",
    "Missing parentheses in call to 'exec'",
    "multiple exception types must be parenthesized",
    "leading zeros in decimal integer literals",
)
# Python 2 statements set aside (see the module docstring), each matched on a whole line.
_PY2_STATEMENT = re.compile(r"^(?P<indent>[ \t]*)(?:print\b(?!\s*\()(?!\s*=)|exec\s+[\"'\w]).*$")
_PY2_EXCEPT = re.compile(r"^(?P<head>[ \t]*except\s+[^,:]+?)\s*,\s*(?P<name>\w+)\s*:")
_PY2_RAISE = re.compile(r"^(?P<head>[ \t]*raise\s+[\w.]+)\s*,.*$")


#: Syntax-tree levels (from the module, or the notebook cell) that nblint reads; real code stays
#: well under 50. The reader uses a few stack frames per level, Python allows 1,000 in all.
MAX_NESTING = 100
#: The name a part cut by :func:`cut_deep` is replaced with: bound to nothing, so its value is unknown.
CUT = "__nblint_not_followed__"
#: Python's own refusals of code nested past its parser's limits (besides RecursionError).
_DEPTH_MESSAGES = ("too many nested parentheses", "too many levels of indentation")

_LIBRARY_IMPORT = re.compile(r"^\s*(?:from|import)\s+(?:sklearn|imblearn)\b", re.M)


# Syntax newer than some Pythons, on the line of the syntax error: (pattern, the version that reads it).
_NEWER = (
    (re.compile(r"^\s*type\s+[A-Za-z_]\w*\s*(?:\[[^\]]*\])?\s*="), (3, 12)),  # type X = ... (PEP 695)
    (re.compile(r"^\s*(?:async\s+)?def\s+\w+\s*\["), (3, 12)),  # def f[T](...) (PEP 695)
    (re.compile(r"^\s*class\s+\w+\s*\["), (3, 12)),  # class C[T]: (PEP 695)
    (re.compile(r"^\s*except\s*\*"), (3, 11)),  # except* (PEP 654)
    (re.compile(r"^\s*match\s+\S.*:\s*(?:#.*)?$"), (3, 10)),  # match x: (PEP 634)
    (re.compile(r"^\s*except\s+[\w.]+\s*,\s*[\w.]+\s*(?:,\s*[\w.]+\s*)*:"), (3, 14)),  # except A, B: (PEP 758)
    (re.compile(r"(?<![\w.])t[\"']"), (3, 14)),  # t"..." template strings (PEP 750)
)


def newer_syntax(text: str, line: int) -> tuple[int, int] | None:
    """The Python version whose syntax line ``line`` of ``text`` uses, when newer than this interpreter; else None."""
    lines = text.splitlines()
    if not 1 <= line <= len(lines):
        return None
    for pattern, version in _NEWER:
        if sys.version_info[:2] < version and pattern.search(lines[line - 1]):
            return version
    return None


def imports_library(text: str) -> bool:
    """Whether ``text`` has an import line of scikit-learn or imbalanced-learn (read without parsing)."""
    return bool(_LIBRARY_IMPORT.search(text))


@dataclass
class Unreadable:
    """A source (or notebook cell) that is not Python 3: where, and why."""

    line: int
    column: int
    message: str
    python2: bool
    deep: bool = False  # nested past the limits of Python's parser

    @property
    def reason(self) -> str:
        """``Python 2 syntax``, ``nested too deeply for Python's parser``, or the syntax error's message."""
        if self.deep:
            return "nested too deeply for Python's parser"
        return "Python 2 syntax" if self.python2 else f"syntax error: {self.message}"


@dataclass
class Parsed:
    """A parsed source: the module, the scripts it ``%run``s, and why it could not be parsed (if so)."""

    tree: ast.Module | None
    runs: list[tuple[str, int]]
    unreadable: Unreadable | None = None
    python2: list[int] | None = None  # the Python 2 lines set aside, where that made the source readable
    cut: list[int] | None = None  # the lines where code nested past MAX_NESTING was cut (cut_deep)


def parse_source(text: str, path: str, ipython: bool = False) -> Parsed:
    """Parse ``text``; with ``ipython``, blank IPython syntax first where the text does not parse as is.

    Returns
    -------
    Parsed
        ``tree`` is None and ``unreadable`` says why when the text is not Python 3 or is nested past
        what Python's parser accepts; a tree nested deeper than :data:`MAX_NESTING` comes back cut
        (``cut`` lists where).
    """
    parsed = _parse(text, path, ipython)
    if parsed.tree is not None:
        parsed.cut = cut_deep(parsed.tree)
    return parsed


def _parse(text: str, path: str, ipython: bool) -> Parsed:
    runs: list[tuple[str, int]] = []
    tree, problem = _attempt(text, path)
    if isinstance(problem, SyntaxError) and ipython:
        text, runs = blank_ipython(text)
        tree, problem = _attempt(text, path)
    if tree is not None:
        return Parsed(tree, runs)
    if isinstance(problem, Unreadable):
        return Parsed(tree, runs, problem)
    assert problem is not None  # _attempt gives a tree or a problem
    problem = _unreadable(problem, text)
    if problem.python2:
        python3, changed = set_aside_python2(text)
        tree, _ = _attempt(python3, path)
        if tree is not None:
            return Parsed(tree, runs, problem, changed)
    return Parsed(None, runs, problem)


def _attempt(text: str, path: str) -> tuple[ast.Module | None, SyntaxError | Unreadable | None]:
    """The tree of ``text``, or the syntax error (to look into), or why it is unreadable as it stands."""
    try:
        return ast.parse(text, filename=path), None
    except SyntaxError as exc:
        if _too_deep(exc):
            return None, Unreadable(exc.lineno or 1, exc.offset or 1, exc.msg, False, deep=True)
        return None, exc
    except ValueError as exc:  # a null byte
        return None, Unreadable(1, 1, str(exc), False)
    except RecursionError:  # past the depth Python's parser can build
        return None, Unreadable(1, 1, "nested too deeply", False, deep=True)


def _too_deep(exc: SyntaxError) -> bool:
    return any(message in (exc.msg or "") for message in _DEPTH_MESSAGES)


def cut_deep(tree: ast.AST, limit: int = MAX_NESTING) -> list[int]:
    """Cut what ``tree`` nests deeper than ``limit`` levels, in place; the 1-based lines cut, in order.

    An expression at the limit becomes the name :data:`CUT`, which nothing binds
    (so the reader takes its value as unknown), and a statement becomes ``pass``;
    everything above the limit is kept as written.  The walk uses its own stack,
    so any depth is safe here.
    """
    cut: set[int] = set()
    stack: list[tuple[ast.AST, int]] = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        for name, value in ast.iter_fields(node):
            children = value if isinstance(value, list) else [value]
            for index, child in enumerate(children):
                if not isinstance(child, ast.AST):
                    continue
                # An f-string's parts must stay f-string parts: they are cut a level further down.
                replaced = _cut(child) if depth + 1 >= limit and not isinstance(node, ast.JoinedStr) else None
                if replaced is None:
                    stack.append((child, depth + 1))
                    continue
                assert isinstance(child, (ast.expr, ast.stmt))  # the nodes _cut replaces, which have lines
                cut.add(child.lineno)
                if isinstance(value, list):
                    value[index] = replaced
                else:
                    setattr(node, name, replaced)
    return sorted(cut)


def _cut(node: ast.AST) -> ast.AST | None:
    """What stands for ``node`` once cut, or None for a node kept (a leaf, or a part that holds no code itself)."""
    if isinstance(node, ast.expr) and not isinstance(node, (ast.Name, ast.Constant)):
        return ast.copy_location(ast.Name(id=CUT, ctx=getattr(node, "ctx", ast.Load())), node)
    if isinstance(node, ast.stmt) and not isinstance(node, (ast.Pass, ast.Break, ast.Continue)):
        return ast.copy_location(ast.Pass(), node)
    return None


def set_aside_python2(text: str) -> tuple[str, list[int]]:
    """``text`` with its Python 2 statements set aside line for line, and the 1-based lines changed."""
    lines = text.split("\n")
    changed = []
    for index, line in enumerate(lines):
        new = _PY2_STATEMENT.sub(lambda m: m.group("indent") + "pass", line)
        new = _PY2_EXCEPT.sub(lambda m: f"{m.group('head')} as {m.group('name')}:", new)
        new = _PY2_RAISE.sub(lambda m: m.group("head"), new)
        if new != line:
            lines[index] = new
            changed.append(index + 1)
    return "\n".join(lines), changed


def _unreadable(exc: SyntaxError, text: str) -> Unreadable:
    line, column = exc.lineno or 1, exc.offset or 1
    lines = text.splitlines()
    source_line = lines[line - 1] if 0 < line <= len(lines) else ""
    python2 = any(m in (exc.msg or "") for m in _PY2_MESSAGES) or bool(_PY2_LINE.search(source_line))
    return Unreadable(line, column, exc.msg or "invalid syntax", python2)


def blank_ipython(text: str) -> tuple[str, list[tuple[str, int]]]:
    """``text`` with IPython magics, shell escapes and help lines replaced, line for line.

    Returns
    -------
    text : str
        The same number of lines, each IPython line replaced by ``pass`` (or by
        the statement a ``%time`` line times).
    runs : list of (str, int)
        The scripts ``%run`` executes, with their 1-based lines.
    """
    lines = text.split("\n")
    runs: list[tuple[str, int]] = []
    first = lines[0].strip() if lines else ""
    start = 0
    if first.startswith("%%"):
        magic = first[2:].split(maxsplit=1)[0] if first[2:].strip() else ""
        if magic not in PYTHON_CELL_MAGICS:
            return "\n".join("" for _ in lines), runs
        lines[0] = ""
        start = 1
    for index in range(start, len(lines)):
        line = lines[index]
        run = _RUN.match(line)
        if run:
            runs.append((run.group("script"), index + 1))
        timed = _TIMED.match(line)
        if timed:
            lines[index] = timed.group("indent") + timed.group("code")
            continue
        match = _LINE_MAGIC.match(line) or _ASSIGNED_MAGIC.match(line) or _HELP.match(line)
        if match:
            lines[index] = match.group("indent") + "pass"
    return "\n".join(lines), runs
