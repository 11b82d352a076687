"""No module of nblint/ and rules/ is over 500 lines, and no function over 80 (issue 39 item 1).

A module is one idea a reader holds at once, a function one step of it. The few that are
over today are listed below with their size as the ceiling (they may shrink, never grow)
and the reason they are not split yet; a split lowers or removes the entry, and this test
says when an entry is stale (the module or function is back under the bar, or gone).
Blank lines, docstrings and comments count: they are what a reader reads.
"""

from __future__ import annotations

import ast

import pytest
from codebase import ROOT, files, text_of, tree_of, walk

#: ``codebase`` parses the package once per test process: the tests that read it share one worker.
pytestmark = pytest.mark.xdist_group("codebase")

FOLDERS = ("nblint", "rules")

MAX_MODULE_LINES = 500
MAX_FUNCTION_LINES = 80

#: Module -> (its ceiling in lines, why it is not split yet).
MODULE_CEILINGS = {}

#: ``module::function`` -> (its ceiling in lines, why it is not split yet).
FUNCTION_CEILINGS = {
    "nblint/readers/csvfile.py::_block_batches": (
        110,
        "the CSV block reader's restart protocol: one loop whose state (the carried partial line, the retry with a wider block) a split would pass around",
    ),
    "nblint/structure/kinds.py::_kind": (
        100,
        "one decision list over a column's evidence, read top to bottom in the order of the evidence's strength",
    ),
}


def sizes() -> tuple[dict[str, int], dict[str, int]]:
    """Lines per module of nblint/ and rules/, and lines per function (``module::name``; the longest of a name)."""
    modules: dict[str, int] = {}
    functions: dict[str, int] = {}
    for folder in FOLDERS:
        for path in files(folder):
            name = path.relative_to(ROOT).as_posix()
            modules[name] = len(text_of(path).splitlines())
            for node in walk(tree_of(path)):
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    key = f"{name}::{node.name}"
                    length = node.end_lineno - node.lineno + 1
                    functions[key] = max(functions.get(key, 0), length)
    return modules, functions


def over(measured: dict[str, int], limit: int, ceilings: dict[str, tuple[int, str]]) -> dict[str, str]:
    """What breaks the bar: over ``limit`` and not listed, over its ceiling, or listed but no longer over.

    (A listed one that shrinks but stays over may keep its ceiling: whoever splits it lowers it.)
    """
    found = {}
    for name, lines in measured.items():
        ceiling = ceilings.get(name, (limit, ""))[0]
        if lines > ceiling:
            found[name] = f"{lines} lines (at most {ceiling})"
    for name, (ceiling, _) in ceilings.items():
        if measured.get(name, 0) <= limit:
            found[name] = f"listed with a ceiling of {ceiling} but {measured.get(name, 0)} lines: remove the entry"
    return found


def test_the_checker_sees_a_new_offender_a_grown_one_and_a_stale_entry():
    measured = {"a.py": 501, "b.py": 620, "c.py": 300, "d.py": 590, "e.py": 10}  # (d.py shrank: allowed)
    ceilings = {"b.py": (600, "why"), "c.py": (520, "why"), "d.py": (600, "why")}
    assert over(measured, 500, ceilings) == {
        "a.py": "501 lines (at most 500)",
        "b.py": "620 lines (at most 600)",
        "c.py": "listed with a ceiling of 520 but 300 lines: remove the entry",
    }


def test_every_exception_says_why():
    for name, (ceiling, reason) in {**MODULE_CEILINGS, **FUNCTION_CEILINGS}.items():
        assert reason.strip() and ceiling > 0, name


def test_no_module_is_over_500_lines_but_the_listed_ones_at_their_ceilings():
    modules, _ = sizes()
    assert len(modules) > 150  # (the walk found the package)
    assert over(modules, MAX_MODULE_LINES, MODULE_CEILINGS) == {}


def test_no_function_is_over_80_lines_but_the_listed_ones_at_their_ceilings():
    _, functions = sizes()
    assert over(functions, MAX_FUNCTION_LINES, FUNCTION_CEILINGS) == {}
