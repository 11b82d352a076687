"""Find the scikit-learn pipelines a Python source builds, through :mod:`ast` only (never imported or run).

The module is read statement by statement, in source order (function and
class bodies, branches and loops included, each once).  What is followed:

* imports (``from sklearn.naive_bayes import BernoulliNB as B``,
  ``import sklearn.preprocessing as pre``, ``import pandas as pd``, and
  ``from sklearn.pipeline import *`` for the names nblint knows);
* calls of scikit-learn and imbalanced-learn callables, with keyword and
  positional arguments (positional ones for the callables whose parameters
  nblint names: ``Pipeline(steps)``, ``make_pipeline(*steps)``,
  ``ColumnTransformer(transformers)``, ``make_column_transformer(*pairs)``...);
* literal argument values (numbers, strings, lists, tuples, dicts, ``None``,
  ``np.nan``), and names bound earlier by ``name = ...`` (also ``self.x = ...``);
* data preparation: ``X = pd.get_dummies(df)`` or ``X = encoder.fit_transform(df)``
  (and anything computed from ``X``, such as ``train_test_split(X, y)``) feeds
  the estimator or pipeline later fitted on it (``model.fit(X_train, y)``,
  ``cross_val_score(model, X, y)``).

Anything else (a value computed at run time) is an :class:`~nblint.pipelines.spec.Expr`
whose parameters nblint does not guess.
"""

from __future__ import annotations

import ast
import math
from typing import Any

from nblint.errors import InputError
from nblint.pipelines import catalog
from nblint.pipelines.spec import Call, Expr, Mark, PipelineSpec, build_specs

FIT_METHODS = frozenset({"fit", "partial_fit"})
TRANSFORM_METHODS = frozenset({"fit_transform", "transform"})
CV_FUNCTIONS = frozenset({"cross_val_score", "cross_validate", "cross_val_predict", "learning_curve",
                          "validation_curve", "permutation_test_score"})
CONSTANTS = {"numpy.nan": math.nan, "numpy.NaN": math.nan, "numpy.inf": math.inf, "math.nan": math.nan,
             "math.inf": math.inf}

Chains = tuple[tuple[Call, ...], ...]


def read_python(text: str, path: str) -> list[PipelineSpec] | None:
    """The pipelines a Python source builds, or None when it calls nothing from scikit-learn or imblearn.

    Parameters
    ----------
    text : str
        The source.
    path : str
        Its file, for messages and the specs.

    Returns
    -------
    list of PipelineSpec or None

    Raises
    ------
    InputError
        On a syntax error, with its line and column.
    """
    try:
        tree = ast.parse(text, filename=path)
    except SyntaxError as exc:
        where = f" at line {exc.lineno}, column {exc.offset}" if exc.lineno else ""
        raise InputError(f"Python syntax error{where}: {exc.msg}") from None
    except ValueError as exc:  # a null byte
        raise InputError(f"Python source cannot be parsed: {exc}") from None
    except (RecursionError, MemoryError):  # CPython's parser stops at its own depth limit with either
        raise InputError("nested too deeply to read") from None
    # Data preparation can only be followed where the source mentions it.
    reader = _ModuleReader(tracks_data="get_dummies" in text or "transform" in text)
    reader.statements(tree.body)
    if not any(call.target.split(".", 1)[0] in catalog.LIBRARIES for call in reader.calls):
        return None
    return build_specs(reader.calls, path, "python")


def _mark(node: ast.AST) -> Mark:
    return node.lineno, node.col_offset + 1


def _unknown(node: ast.expr) -> Expr:
    """A value computed at run time, shown as its source text."""
    return Expr(lambda: ast.unparse(node))


def _union(*chain_sets: Chains | None) -> Chains | None:
    """Chains of data preparation from several sources, each once, in order."""
    seen, out = set(), []
    for chains in chain_sets:
        for chain in chains or ():
            key = tuple(map(id, chain))
            if key not in seen:
                seen.add(key)
                out.append(chain)
    return tuple(out) or None


class _ModuleReader:
    def __init__(self, tracks_data: bool = True):
        self.tracks_data = tracks_data
        self.imports: dict[str, str] = {}   # local name -> dotted origin
        self.star: list[str] = []           # modules imported with *
        self.env: dict[str, Any] = {}       # name (or dotted attribute) -> value bound to it
        self.data: dict[str, Chains] = {}   # name -> the data preparation it holds
        self.memo: dict[int, Any] = {}      # id(ast.Call) -> its value, so each call is read once
        self.calls: list[Call] = []

    # ---------------------------------------------------------------- statements

    def statements(self, body: list[ast.stmt]) -> None:
        for stmt in body:
            self.statement(stmt)

    def statement(self, stmt: ast.stmt) -> None:
        if isinstance(stmt, ast.Import):
            for alias in stmt.names:
                if alias.asname:
                    self.imports[alias.asname] = alias.name
                else:
                    self.imports[alias.name.split(".")[0]] = alias.name.split(".")[0]
            return
        if isinstance(stmt, ast.ImportFrom):
            if stmt.module and not stmt.level:
                for alias in stmt.names:
                    if alias.name == "*":
                        self.star.append(stmt.module)
                    else:
                        self.imports[alias.asname or alias.name] = f"{stmt.module}.{alias.name}"
            return
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is not None:
            value, data = self.expr(stmt.value), self.data_of(stmt.value)
            for target in stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]:
                self.bind(target, value, data)
        # Every call of the statement's own expressions (nested statements come after, in order).
        for _, field in ast.iter_fields(stmt):
            for node in field if isinstance(field, list) else [field]:
                if isinstance(node, (ast.expr, ast.withitem, ast.arguments, ast.keyword)):
                    for inner in ast.walk(node):
                        if isinstance(inner, ast.Call):
                            self.expr(inner)
        for name in ("body", "orelse", "finalbody", "handlers", "cases"):
            for child in getattr(stmt, name, None) or []:
                if isinstance(child, ast.stmt):
                    self.statement(child)
                else:  # an except handler or a match case
                    self.statements(child.body)

    def bind(self, target: ast.expr, value: Any, data: Chains | None) -> None:
        if isinstance(target, (ast.Tuple, ast.List)):
            for element in target.elts:
                self.bind(element, _unknown(element), data)
            return
        name = self._dotted_text(target)
        if name is None:
            return
        self.env.pop(name, None)
        self.data.pop(name, None)
        if not isinstance(value, Expr):
            self.env[name] = value
        if data:
            self.data[name] = data

    # ---------------------------------------------------------------- expressions

    def expr(self, node: ast.expr) -> Any:
        """The value of an expression: a literal, a :class:`Call`, a list/dict of those, or an :class:`Expr`."""
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
            if all(isinstance(k, ast.Constant) for k in node.keys):
                return {k.value: self.expr(v) for k, v in zip(node.keys, node.values)}
        elif isinstance(node, (ast.Name, ast.Attribute)):
            return self._reference(node)
        elif isinstance(node, ast.Call):
            key = id(node)
            if key not in self.memo:
                self.memo[key] = self._call(node)
            return self.memo[key]
        return _unknown(node)

    def _reference(self, node: ast.Name | ast.Attribute) -> Any:
        text = self._dotted_text(node)
        if text is not None and text in self.env:
            return self.env[text]
        dotted = self.resolve(node)
        if dotted in CONSTANTS:
            return CONSTANTS[dotted]
        return Expr(dotted) if dotted else _unknown(node)

    def _call(self, node: ast.Call) -> Any:
        dotted = self.resolve(node.func)
        if dotted is not None and catalog.is_known(dotted) and "." in dotted:
            short = catalog.short_name(dotted)
            call = Call(dotted, mark=_mark(node))
            self.calls.append(call)
            args = []
            for arg in node.args:
                if isinstance(arg, ast.Starred) and isinstance(self.expr(arg.value), list):
                    args += [(value, _mark(arg)) for value in self.expr(arg.value)]
                else:
                    args.append((self.expr(arg), _mark(arg)))
            call.bind_positional(args)
            for keyword in node.keywords:
                if keyword.arg is not None:
                    call.params[keyword.arg] = self.expr(keyword.value)
                    call.marks[keyword.arg] = _mark(keyword)
            if short in CV_FUNCTIONS:
                self._link(call.params.get("estimator", call.params.get("arg0")), _argument(node, 1, "X"))
            return call
        if dotted == "builtins.float" or (isinstance(node.func, ast.Name) and node.func.id == "float"):
            if node.args and isinstance(node.args[0], ast.Constant) and str(node.args[0].value).lower() in ("nan", "inf"):
                return float(node.args[0].value)
        if isinstance(node.func, ast.Attribute) and node.func.attr in FIT_METHODS:
            receiver = self.expr(node.func.value)
            self._link(receiver, _argument(node, 0, "X"))
            if isinstance(receiver, Call):
                return receiver  # fit returns the estimator itself
        return _unknown(node)

    def _link(self, estimator: Any, data_node: ast.expr | None) -> None:
        """Record that ``estimator`` is fitted on the data ``data_node`` holds."""
        if isinstance(estimator, Call) and data_node is not None:
            chains = self.data_of(data_node)
            if chains:
                estimator.feeders = _union(estimator.feeders, chains)

    def data_of(self, node: ast.expr) -> Chains | None:
        """The data preparation the value of ``node`` went through (get_dummies, fitted transformers)."""
        if not self.tracks_data:
            return None
        if isinstance(node, ast.Call):
            value = self.expr(node)
            if isinstance(value, Call) and value.cls == "get_dummies":
                source = _argument(node, 0, "data")
                return tuple(chain + (value,) for chain in (self.data_of(source) if source else None) or ((),))
            func = node.func
            if isinstance(func, ast.Attribute) and func.attr in FIT_METHODS:
                return None  # model.fit(X) is the fitted model, not data
            if isinstance(func, ast.Attribute) and func.attr in TRANSFORM_METHODS:
                receiver = self.expr(func.value)
                if isinstance(receiver, Call):
                    source = _argument(node, 0, "X")
                    return tuple(chain + (receiver,) for chain in (self.data_of(source) if source else None) or ((),))
        elif isinstance(node, (ast.Name, ast.Attribute)):
            text = self._dotted_text(node)
            if text in self.data:
                return self.data[text]
        return _union(*(self.data_of(child) for child in ast.iter_child_nodes(node) if isinstance(child, ast.expr)))

    # ---------------------------------------------------------------- names

    def resolve(self, node: ast.expr) -> str | None:
        """The dotted origin of a name or attribute through the module's imports (None if not imported)."""
        if isinstance(node, ast.Name):
            if node.id in self.imports:
                return self.imports[node.id]
            for module in self.star:
                if module.split(".")[0] in catalog.LIBRARIES and node.id in catalog.KNOWN_NAMES:
                    return f"{module}.{node.id}"
            return None
        if isinstance(node, ast.Attribute):
            base = self.resolve(node.value)
            return f"{base}.{node.attr}" if base else None
        return None

    @staticmethod
    def _dotted_text(node: ast.expr) -> str | None:
        """``name`` or ``self.name`` as written, for binding and looking up."""
        if isinstance(node, ast.Name):
            return node.id
        if isinstance(node, ast.Attribute):
            base = _ModuleReader._dotted_text(node.value)
            return f"{base}.{node.attr}" if base else None
        return None


def _argument(node: ast.Call, index: int, keyword: str) -> ast.expr | None:
    """The argument at ``index`` or passed as ``keyword``."""
    if len(node.args) > index and not isinstance(node.args[index], ast.Starred):
        return node.args[index]
    return next((k.value for k in node.keywords if k.arg == keyword), None)
