"""The value of an expression in a Python source, and where a name comes from (mixed into the reader).

Literals are themselves; a name or attribute is what the source bound to it, else
its dotted origin through the imports (an :class:`~nblint.pipelines.calls.Expr`);
an item of a container is the estimator kept there (``models["nb"]``,
``encoders[col]``); ``+`` joins literal lists and strings; calls and
comprehensions are read once per frame by the call and loop readers.  Anything
else is unknown, never guessed.
"""

from __future__ import annotations

import ast
import math
from typing import Any

from nblint.pipelines import catalog
from nblint.pipelines.calls import Expr, Note
from nblint.pipelines.pystate import ReaderState
from nblint.pipelines.pyvalues import (
    MAX_JOINED,
    TOO_LARGE,
    UNKNOWN,
    Instance,
    calls_in,
    concatenated,
    is_literal,
    subscript,
)
from nblint.pipelines.pyvalues import mark as _mark
from nblint.pipelines.pyvalues import unknown as _unknown
from nblint.pipelines.tree import PosDict

CONSTANTS = {
    "numpy.nan": math.nan,
    "numpy.NaN": math.nan,
    "numpy.inf": math.inf,
    "math.nan": math.nan,
    "math.inf": math.inf,
}
BUILTINS = frozenset({"range", "list", "tuple", "sorted", "zip", "enumerate", "dict", "float"})
#: scikit-learn's modules, for ``from sklearn import *`` followed by ``naive_bayes.GaussianNB()``.
SKLEARN_MODULES = frozenset(
    {
        "naive_bayes",
        "preprocessing",
        "pipeline",
        "compose",
        "model_selection",
        "feature_extraction",
        "decomposition",
        "feature_selection",
        "impute",
        "calibration",
        "multiclass",
        "ensemble",
        "linear_model",
        "kernel_approximation",
        "random_projection",
    }
)
#: Conventional aliases, read as such where the source uses them without importing them.
CONVENTIONAL = {"np": "numpy", "pd": "pandas"}


def _item_text(holder: str, node: ast.Subscript) -> str:
    """``encoders[col]`` as written: the key an item stored through a subscript is kept under."""
    return f"{holder}[{ast.unparse(node.slice)}]"


class ExpressionReading(ReaderState):
    """The expression half of the Python reader (mixed into it; see the module docstring)."""

    # ---------------------------------------------------------------- expressions

    def expr(self, node: ast.expr) -> Any:
        """The value of an expression: a literal, a :class:`Call`, a list/dict of those, a OneOf, or an :class:`Expr`."""
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            value = self.expr(node.operand)
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                return -value if isinstance(node.op, ast.USub) else value
        elif isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            items = []
            for element in node.elts:
                if isinstance(element, ast.Starred) and isinstance(self.expr(element.value), list):
                    items += self.expr(element.value)
                else:
                    items.append(self.expr(element))
            return items
        elif isinstance(node, ast.Dict):
            keys = [k for k in node.keys if isinstance(k, ast.Constant)]  # None stands for **mapping
            if len(keys) == len(node.keys):
                found = PosDict(_mark(node))
                for key, value in zip(keys, node.values):
                    found[key.value] = self.expr(value)
                    found.marks[key.value] = _mark(key)
                return found
        elif isinstance(node, (ast.Name, ast.Attribute)):
            return self._reference(node)
        elif isinstance(node, ast.Subscript):
            # An estimator kept in a list or dict (models["nb"]); a literal picked from a container is left
            # unknown, since such containers are often overwritten at run time (best = search.best_params_).
            holder = self._dotted_text(node.value)
            stored = self.env.get(_item_text(holder, node)) if holder in self.item_holders else None
            if stored is not None:
                return stored  # encoders[col], set by encoders[col] = LabelEncoder()
            found = subscript(self.expr(node.value), self.expr(node.slice))
            if calls_in(found) or isinstance(found, Instance):
                return found
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            joined = concatenated(self.expr(node.left), self.expr(node.right))
            if joined is TOO_LARGE:
                self._gave_up(node)
                return _unknown(node)
            if joined is not None:
                return joined  # [0] + alphas, col + "_enc" (also for each name a loop takes)
        elif isinstance(node, (ast.Call, ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
            memo_key = (id(node), self.frame)
            if memo_key not in self.memo:
                self.memo[memo_key] = UNKNOWN  # a call reached again while being read
                self.memo[memo_key] = self._call(node) if isinstance(node, ast.Call) else self._comprehension(node)
            return self.memo[memo_key]
        return _unknown(node)

    def _gave_up(self, node: ast.BinOp) -> None:
        """Say once (NB510) that a joined value grew past what the reader holds, so it is read as unknown."""
        if "<too large>" in self.noted:
            return
        self.noted.add("<too large>")
        self.notes.append(
            Note(
                node.lineno,
                (
                    f"the value joined at line {node.lineno} would hold more than {MAX_JOINED:,} characters or items "
                    "(a value that keeps doubling): nblint gave up reading it, so what it feeds is not followed"
                ),
            )
        )

    def _store_item(self, target: ast.Subscript, value: Any) -> None:
        """``encoders[col] = LabelEncoder()``: the estimator is what ``encoders[col]`` stands for from here on
        (the same container read through the same subscript), and a known dict gains it under a literal key."""
        holder = self._dotted_text(target.value)
        if holder is None or not (calls_in(value) or isinstance(value, Instance)):
            return
        key = self.expr(target.slice)
        container = self.env.get(holder)
        if isinstance(container, dict) and is_literal(key):
            container[key] = value
        self.env[_item_text(holder, target)] = value
        self.item_holders.add(holder)

    def _reference(self, node: ast.Name | ast.Attribute) -> Any:
        if isinstance(node, ast.Attribute):
            base = self.expr(node.value)
            if isinstance(base, Instance):
                return base.attrs.get(node.attr, _unknown(node))
        text = self._dotted_text(node)
        if text is not None and text in self.env:
            return self.env[text]
        dotted = self.resolve(node)
        if dotted in CONSTANTS:
            return CONSTANTS[dotted]
        return Expr(dotted) if dotted else _unknown(node)

    # ---------------------------------------------------------------- names

    def resolve(self, node: ast.expr) -> str | None:
        """The dotted origin of a name or attribute through the module's imports (None if not imported)."""
        if isinstance(node, ast.Name):
            if node.id in self.imports:
                return self.imports[node.id]
            if node.id in CONVENTIONAL and node.id not in self.env and node.id not in self.functions:
                return CONVENTIONAL[node.id]  # np and pd used without an import (a snippet)
            for module in self.star:
                if node.id in catalog.KNOWN_NAMES or (module == "sklearn" and node.id in SKLEARN_MODULES):
                    return f"{module}.{node.id}"
            return None
        if isinstance(node, ast.Attribute):
            base = self.resolve(node.value)
            return f"{base}.{node.attr}" if base else None
        return None

    def _builtin(self, func: ast.expr) -> str | None:
        """The builtin a call's function names (``zip``, ``range``...), unless the source rebinds the name."""
        if (
            isinstance(func, ast.Name)
            and func.id in BUILTINS
            and func.id not in self.imports
            and func.id not in self.functions
            and func.id not in self.env
        ):
            return func.id
        return None

    @staticmethod
    def _dotted_text(node: ast.expr) -> str | None:
        """``name`` or ``self.name`` as written, for binding and looking up."""
        if isinstance(node, ast.Name):
            return node.id
        if isinstance(node, ast.Attribute):
            base = ExpressionReading._dotted_text(node.value)
            return f"{base}.{node.attr}" if base else None
        return None
