"""A notebook exported as a script (``jupyter nbconvert --to script``), read as the notebook runs.

Two things the export does are undone: the cells joined into one file are read
apart when the whole does not parse (``# In[n]:`` markers; the cells that parse
are read, the others said by NB510), and a cell magic that runs Python, spelled
as ``get_ipython().run_cell_magic(...)``, has its code read where the call is.
"""

from __future__ import annotations

import ast
import re

from nblint.pipelines.pyparse import PYTHON_CELL_MAGICS, parse_source

#: The cell marker ``jupyter nbconvert --to script`` writes before each code cell (``# In[12]:``, ``# In[ ]:``).
_CELL_MARKER = re.compile(r"^# In\[[ 0-9]*\]:\s*$", re.MULTILINE)


def exported_cells(text: str, path: str) -> tuple[ast.Module, list[int]] | None:
    """A notebook exported as a script, read cell by cell: the module of the cells that parse and the
    first lines of those that do not; None when the text has no cell markers or no cell parses."""
    starts = [text.count("\n", 0, match.start()) + 1 for match in _CELL_MARKER.finditer(text)]
    if len(starts) < 2:
        return None
    lines = text.split("\n")
    bounds = [1, *starts, len(lines) + 1]
    body: list[ast.stmt] = []
    broken: list[int] = []
    for first, end in zip(bounds, bounds[1:]):
        chunk = "\n".join(lines[first - 1 : end - 1])
        if not chunk.strip():
            continue
        parsed = parse_source(chunk, path, ipython=True)
        if parsed.tree is None:
            broken.append(first)
            continue
        ast.increment_lineno(parsed.tree, first - 1)
        body += parsed.tree.body
    if not body or not broken:
        return None
    return ast.Module(body=body, type_ignores=[]), broken


def exported_magic(stmt: ast.stmt) -> list[ast.stmt] | None:
    """The statements a notebook cell magic runs, where an exported script spells it as a call.

    ``jupyter nbconvert --to script`` writes ``%%time`` cells as
    ``get_ipython().run_cell_magic('time', '', "<the cell's code>")`` and ``%time x = f()`` as
    ``get_ipython().run_line_magic('time', 'x = f()')``: for magics that run their Python code
    (:data:`~nblint.pipelines.pyparse.PYTHON_CELL_MAGICS`), that code is read where the call is,
    every line of it at the call's line (the code is one string literal there).
    """
    call = stmt.value if isinstance(stmt, ast.Expr) else None
    if not (
        isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and call.func.attr in ("run_cell_magic", "run_line_magic")
        and isinstance(call.func.value, ast.Call)
        and isinstance(call.func.value.func, ast.Name)
        and call.func.value.func.id == "get_ipython"
    ):
        return None
    position = 2 if call.func.attr == "run_cell_magic" else 1
    literals = [a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else None for a in call.args]
    if len(literals) <= position or literals[0] not in PYTHON_CELL_MAGICS or literals[position] is None:
        return None
    code = literals[position]
    if code is None:
        return None
    parsed = parse_source(code, "<magic>", ipython=True)
    if parsed.tree is None:
        return None
    for node in ast.walk(parsed.tree):
        if hasattr(node, "lineno"):  # statements, expressions, keywords, arguments...
            setattr(node, "lineno", stmt.lineno)  # noqa: B010 (nodes without a line have no such field)
            setattr(node, "end_lineno", stmt.end_lineno)  # noqa: B010
    return parsed.tree.body
