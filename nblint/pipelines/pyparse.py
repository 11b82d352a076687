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
"""

from __future__ import annotations

import ast
import re
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
    r"|exec\s+[\"'\w]"                                   # exec "code"
    r"|except\s+[\w.]+\s*,\s*\w+\s*:"                    # except E, e:
    r"|raise\s+[\w.]+\s*,)"                              # raise E, "text"
    r"|`[^`\n]+`|<>|\b0\d+\b(?!\.)|\bur[\"']"            # backticks, <>, 0777, ur"..."
)
_PY2_MESSAGES = ("Missing parentheses in call to 'print'", "Missing parentheses in call to 'exec'",
                 "multiple exception types must be parenthesized", "leading zeros in decimal integer literals")
# Python 2 statements set aside (see the module docstring), each matched on a whole line.
_PY2_STATEMENT = re.compile(r"^(?P<indent>[ \t]*)(?:print\b(?!\s*\()(?!\s*=)|exec\s+[\"'\w]).*$")
_PY2_EXCEPT = re.compile(r"^(?P<head>[ \t]*except\s+[^,:]+?)\s*,\s*(?P<name>\w+)\s*:")
_PY2_RAISE = re.compile(r"^(?P<head>[ \t]*raise\s+[\w.]+)\s*,.*$")


_LIBRARY_IMPORT = re.compile(r"^\s*(?:from|import)\s+(?:sklearn|imblearn)\b", re.M)


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

    @property
    def reason(self) -> str:
        """``Python 2 syntax``, or the syntax error's message."""
        return "Python 2 syntax" if self.python2 else f"syntax error: {self.message}"


@dataclass
class Parsed:
    """A parsed source: the module, the scripts it ``%run``s, and why it could not be parsed (if so)."""

    tree: ast.Module | None
    runs: list[tuple[str, int]]
    unreadable: Unreadable | None = None
    python2: list[int] | None = None  # the Python 2 lines set aside, where that made the source readable


def parse_source(text: str, path: str, ipython: bool = False) -> Parsed:
    """Parse ``text``; with ``ipython``, blank IPython syntax first where the text does not parse as is.

    Returns
    -------
    Parsed
        ``tree`` is None and ``unreadable`` says why when the text is not Python 3.

    Raises
    ------
    RecursionError
        For pathologically nested code (the caller reports it).
    """
    runs: list[tuple[str, int]] = []
    try:
        return Parsed(ast.parse(text, filename=path), runs)
    except SyntaxError as exc:
        first = exc
    except ValueError as exc:  # a null byte
        return Parsed(None, runs, Unreadable(1, 1, str(exc), False))
    if ipython:
        text, runs = blank_ipython(text)
        try:
            return Parsed(ast.parse(text, filename=path), runs)
        except SyntaxError as exc:
            first = exc
        except ValueError as exc:
            return Parsed(None, runs, Unreadable(1, 1, str(exc), False))
    problem = _unreadable(first, text)
    if problem.python2:
        python3, changed = set_aside_python2(text)
        try:
            return Parsed(ast.parse(python3, filename=path), runs, problem, changed)
        except (SyntaxError, ValueError):
            pass
    return Parsed(None, runs, problem)


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
