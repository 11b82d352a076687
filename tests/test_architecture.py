"""Issue 15's architecture holds: rule codes live in ``rules/`` only.

The engine, the analyses and the integrations never name a rule: rules declare the
settings they need (``Option(shared=True)``, read as ``ctx.setting(name)``) and the
row checks that report them (``Rule.row_checks``).  Prose may mention a code (a
docstring, a message such as "VIF (NB104) leaves out..."); a code as a value may not.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CODE = re.compile(r"NB[0-9]{1,3}")


def code_values(source: str) -> list[tuple[int, str]]:
    """(line, text) of every string constant in ``source`` that is a rule code or prefix, docstrings aside."""
    tree = ast.parse(source)
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return sorted(
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
        and CODE.fullmatch(node.value.strip())
    )


def test_the_checker_finds_a_code_used_as_a_value():
    source = '"""NB101 in a docstring is prose."""\nTHRESHOLD = options["NB104"]["vif-threshold"]\nSELECT = ["NB1"]\n'
    assert code_values(source) == [(2, "NB104"), (3, "NB1")]


def test_no_rule_code_is_a_value_in_nblint():
    found = {
        f"{path.relative_to(ROOT)}:{line}": text
        for path in sorted((ROOT / "nblint").rglob("*.py"))
        for line, text in code_values(path.read_text("utf-8"))
    }
    assert found == {}
