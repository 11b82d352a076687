"""Jupyter notebooks: the code cells of an ``.ipynb`` file, read as one Python module (never executed).

A notebook is JSON: ``cells`` (nbformat 4), or ``worksheets[*].cells``
(nbformat 3), each with a ``cell_type`` and its ``source`` (nbformat 3: code
cells keep it under ``input``) as a string or a list of lines.  The code cells
are joined in notebook order into one text, so names and data flow across cells
as they do when the notebook is run top to bottom; :class:`CellMap` takes a line
of that text back to its cell and line.  Cells are numbered 1, 2, ... counting
every cell, markdown and raw ones included, as they appear in the notebook.

Each cell is parsed on its own, as IPython runs it (a cell indented as a whole
dedented, IPython syntax blanked, Python 2 statements set
aside, code nested past what nblint reads cut, see :mod:`nblint.pipelines.pyparse`),
so one cell that is still not Python 3 -- a half-written line -- or that Python's
parser refuses as nested too deeply is reported as not followed and the others
are still read.  A notebook whose kernel is not Python is skipped.
"""

from __future__ import annotations

import ast
import bisect
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

from nblint.core.errors import InputError
from nblint.pipelines.pyparse import Unreadable, parse_source

if TYPE_CHECKING:
    from nblint.pipelines.tree import PosList


@dataclass
class Cell:
    """One code cell: its 1-based position among all cells and its source text."""

    number: int
    source: str


@dataclass
class CellMap:
    """Lines of the joined code text <-> (cell, line in cell), and where each line sits in the ``.ipynb`` file.

    Attributes
    ----------
    starts : list of int
        The 1-based line of the joined text where each code cell starts.
    cells : list of int
        The cell number (1-based, counting every cell) of each code cell.
    file_lines : dict
        (cell, line in cell) -> 1-based line of the ``.ipynb`` text where that source line is written.
    """

    starts: list[int] = field(default_factory=list)
    cells: list[int] = field(default_factory=list)
    file_lines: dict[tuple[int, int], int] = field(default_factory=dict)

    def locate(self, line: int) -> tuple[int, int]:
        """The (cell, line in cell) of a line of the joined text."""
        index = bisect.bisect_right(self.starts, line) - 1
        return self.cells[index], line - self.starts[index] + 1

    def describe(self, line: int) -> str:
        """``cell 7, line 3`` for a line of the joined text."""
        cell, local = self.locate(line)
        return f"cell {cell}, line {local}"


@dataclass
class Notebook:
    """A notebook read for its code: the joined text, one module of the cells that parse, what did not."""

    text: str
    tree: ast.Module
    cells: CellMap
    runs: list[tuple[str, int]]
    unreadable: list[tuple[int, Unreadable]]  # (cell number, why), lines within the cell
    python2: list[tuple[int, Unreadable]]  # cells read with their Python 2 statements set aside
    cut: list[tuple[int, list[int]]] = field(default_factory=list)  # (cell number, lines in it cut at depth)


#: Keys of a cell whose values nblint never reads: dropped as each object is parsed, so that only
#: one cell's outputs (embedded plots, tables) are ever held at once.
_SKIPPED_KEYS = frozenset({"outputs", "attachments"})


def _without_outputs(pairs: list) -> dict:
    return {key: value for key, value in pairs if key not in _SKIPPED_KEYS}


def load_cells(raw: bytes) -> list[Cell] | None:
    """The code cells of a notebook's bytes; None when its kernel is not Python.

    Raises
    ------
    InputError
        When the bytes are not JSON, or not a notebook (no ``cells`` list).
    """
    try:
        document = json.loads(raw, object_pairs_hook=_without_outputs)
    except UnicodeDecodeError as exc:
        raise InputError(f"not a notebook: not UTF-8 text ({exc.reason})") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"not a notebook: invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}") from None
    except RecursionError:
        raise InputError("nested too deeply to read") from None
    if not isinstance(document, dict):
        raise InputError("not a Jupyter notebook: the JSON is not an object with a 'cells' list")
    if isinstance(document.get("cells"), list):
        all_cells = document["cells"]
    elif isinstance(document.get("worksheets"), list):  # nbformat 3
        all_cells = [
            cell
            for sheet in document["worksheets"]
            if isinstance(sheet, dict)
            for cell in sheet.get("cells") or []
            if isinstance(sheet.get("cells"), list)
        ]
    else:
        raise InputError("not a Jupyter notebook: no 'cells' list")
    if not _python_kernel(document.get("metadata")):
        return None
    cells = []
    for number, cell in enumerate(all_cells, 1):
        if isinstance(cell, dict) and cell.get("cell_type") == "code":
            source = cell.get("source", cell.get("input", ""))
            if isinstance(source, list):
                source = "".join(part for part in source if isinstance(part, str))
            if isinstance(source, str):
                cells.append(Cell(number, source))
    return cells


def _python_kernel(metadata) -> bool:
    """Whether the notebook's kernel runs Python (True when the metadata does not say)."""
    if not isinstance(metadata, dict):
        return True
    for section, key in (("language_info", "name"), ("kernelspec", "language")):
        value = metadata.get(section, {}).get(key) if isinstance(metadata.get(section), dict) else None
        if isinstance(value, str) and value:
            return value.lower() in ("python", "ipython", "python2", "python3")
    return True


def leading_indent_removed(source: str) -> str:
    """A cell's source as IPython runs it: a first line's indentation taken off every line that starts with it.

    IPython's input transformer (``leading_indent``) dedents a cell pasted
    indented as a whole before compiling it, so such a cell runs; lines keep
    their numbers.  Blank lines before the first code line are kept as they are.
    """
    lines = source.split("\n")
    first = next((line for line in lines if line.strip()), "")
    indent = first[: len(first) - len(first.lstrip(" \t"))]
    if not indent:
        return source
    return "\n".join(line[len(indent) :] if line.startswith(indent) else line for line in lines)


def read_notebook(cells: list[Cell], path: str) -> Notebook:
    """Join the code cells into one module: each parsed alone, line numbers shifted to the joined text."""
    texts, body, runs, unreadable, python2, cut = [], [], [], [], [], []
    cell_map = CellMap()
    line = 1
    for cell in cells:
        # A cell is a block of lines; a trailing newline (or none) does not change its lines.
        source = cell.source[:-1] if cell.source.endswith("\n") else cell.source
        parsed = parse_source(leading_indent_removed(source), path, ipython=True)
        cell_map.starts.append(line)
        cell_map.cells.append(cell.number)
        offset = line - 1
        if parsed.tree is not None:
            ast.increment_lineno(parsed.tree, offset)
            body += parsed.tree.body
            if parsed.python2:
                assert parsed.unreadable is not None  # set aside because the cell as written was unreadable
                python2.append((cell.number, parsed.unreadable))
            if parsed.cut:
                cut.append((cell.number, parsed.cut))
        elif source.strip():
            assert parsed.unreadable is not None  # no tree: parse_source says why
            unreadable.append((cell.number, parsed.unreadable))
        runs += [(script, at + offset) for script, at in parsed.runs]
        texts.append(source)
        line += source.count("\n") + 1
    tree = ast.Module(body=body, type_ignores=[])
    return Notebook("\n".join(texts) + "\n", tree, cell_map, runs, unreadable, python2, cut)


def file_lines(raw: bytes, cells: CellMap) -> dict[tuple[int, int], int]:
    """Where each code cell's source lines are written in the notebook file (its JSON text).

    A cell's ``source`` is usually a list with one string per line, each on its
    own line of the file; written as one string, every line of it is on the
    line of that string.
    """
    from nblint.pipelines.tree import read_documents

    try:
        document = read_documents(raw.decode("utf-8-sig"), ".json")[0]
        all_cells = document.get("cells")
        if not isinstance(all_cells, list):
            all_cells = [c for sheet in document.get("worksheets", []) for c in sheet.get("cells", [])]
        return _source_lines(all_cells, cells)
    except (UnicodeDecodeError, InputError, LookupError, AttributeError, TypeError):
        return {}  # a notebook not written as UTF-8 JSON text: findings keep their cell, not a file line


def _source_lines(all_cells: list, cells: CellMap) -> dict[tuple[int, int], int]:
    found: dict[tuple[int, int], int] = {}
    for number in cells.cells:
        cell = all_cells[number - 1]
        key = "source" if "source" in cell else "input"
        source, mark = cell.get(key), cell.marks.get(key, (1, 1))
        if isinstance(source, list):
            local = 1
            # a list read from the document is a PosList (read_documents), which carries its items' marks
            for part, part_mark in zip(source, cast("PosList", source).marks):
                for _ in range(max(1, part.count("\n"))):
                    if part_mark[0] is not None:  # (JSON marks always have their line; a missing one reads as unknown)
                        found[(number, local)] = part_mark[0]
                    local += 1
        elif isinstance(source, str):
            for local in range(1, source.count("\n") + 2):
                found[(number, local)] = mark[0]
    return found
