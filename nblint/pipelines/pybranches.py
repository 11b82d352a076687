"""Branches in Python sources: which ``if`` a call of a helper takes, read without running anything.

Part of the Python reader (:mod:`nblint.pipelines.pysource`, which mixes this in).
Real scripts pick an encoder per model through a helper::

    def transformer(name):
        if name == "bernoulli":
            return KBinsDiscretizer(encode="onehot")
        elif name in ("multinomial", "categorical"):
            return OneHotEncoder(handle_unknown="ignore")
        return StandardScaler()

    for name in models:
        make_pipeline(transformer(name), models[name])

What follows from that is read per call site:

* a call whose argument is a literal (``transformer("bernoulli")``) reads only the
  branch the literal decides (``==``, ``!=``, ``in``, ``not in``, ``is``, ``not``,
  ``and``, ``or`` on the parameter and literals);
* a loop over literal keys that passes its variable to a helper of the source is
  read once per key (:meth:`BranchReading.keys_walked`), so ``transformer(name)``
  and ``models[name]`` are paired key by key, never across keys;
* a helper whose branches nblint cannot decide for a call and that returns
  different steps on them: with literal arguments, every branch's step is
  followed, each marked :data:`~nblint.pipelines.flow.UNDECIDED_BRANCH` so that
  what follows from it is at most ``info`` (it may not be what the call returns);
  with arguments nblint cannot read, the call is an unknown value (no finding).
  NB510 says so either way: the first branch is never taken as a guess.
"""

from __future__ import annotations

import ast
from typing import Any

from nblint.pipelines.calls import Call, Note, OneOf
from nblint.pipelines.flow import UNDECIDED_BRANCH
from nblint.pipelines.pystate import Function, ReaderState
from nblint.pipelines.pyvalues import Instance, calls_in, is_literal, one_of, unpack

#: The most keys a loop over literal keys is read for (its body is read once per key).
MAX_KEYS_WALKED = 12
#: The most loop bodies read key by key in one source, all loops together: nested loops multiply their
#: keys, so past this budget a loop is read once, its variable standing for all its keys, as before.
MAX_KEY_READINGS = 144

#: A decision that cannot be told (a parameter not bound to a literal, a test on anything else).
UNDECIDED = None


class BranchReading(ReaderState):
    """The branch half of the Python reader (see the module docstring)."""

    def decided(self, test: ast.expr) -> bool | None:
        """Whether ``test`` holds for the source call being read, where its literal arguments decide it.

        Only tests on the call's parameters (bound to literals at the call site) and literals are
        decided; anything else is :data:`UNDECIDED`, and both branches are read as before.
        """
        if not self.literal_args:
            return UNDECIDED
        known = self.literal_args[-1]
        if isinstance(test, ast.BoolOp):
            parts = [self.decided(value) for value in test.values]
            if any(part is UNDECIDED for part in parts):
                return UNDECIDED
            return all(parts) if isinstance(test.op, ast.And) else any(parts)
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            inner = self.decided(test.operand)
            return UNDECIDED if inner is UNDECIDED else not inner
        if isinstance(test, ast.Name):
            return bool(known[test.id]) if test.id in known else UNDECIDED
        if isinstance(test, ast.Compare) and len(test.ops) == 1:
            left, right = _operand(test.left, known), _operand(test.comparators[0], known)
            if left is _UNKNOWN or right is _UNKNOWN:
                return UNDECIDED
            return _compare(test.ops[0], left, right)
        return UNDECIDED

    def keys_walked(self, loop: ast.For | ast.AsyncFor, taken: Any) -> list[Any] | None:
        """The items a loop is read for one by one, or None to read it once as before.

        A loop is walked item by item when its variable (or one of the names it unpacks into:
        ``for name, model in models.items()``, ``zip(names, models)``, ``enumerate(...)``) takes literal
        values written in the source and its body passes that name to a function of the source:
        what the function returns then depends on the item.
        """
        if not isinstance(taken, OneOf):
            return None
        items = list(taken.items)
        if not 1 < len(items) <= MAX_KEYS_WALKED or self.key_readings + len(items) > MAX_KEY_READINGS:
            return None
        literal_names = _literal_names(loop.target, items)
        if not literal_names:
            return None
        for node in ast.walk(ast.Module(body=loop.body, type_ignores=[])):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in self.functions
                and any(
                    isinstance(a, ast.Name) and a.id in literal_names
                    for a in [*node.args, *(k.value for k in node.keywords)]
                )
            ):
                self.key_readings += len(items)
                return items
        return None

    def returned_value(self, function: Function, node: ast.Call, values: list[Any], literal: bool) -> Any:
        """What a call of a source function gives back, from the values its ``return`` statements gave.

        One estimator (or the same estimator, class and parameters, on every branch read) stands for the
        call. Different steps on different branches (another class, or the same class with other parameters:
        ``BernoulliNB()`` on one, ``BernoulliNB(binarize=None)`` on another) mean a branch was not decided for
        this call (a decided branch that returns ends the reading of the function). Where the call's arguments
        are literals, the branches depend on something else the source sets: each of them is followed (the
        value is one of the steps, each marked as returned on an undecided branch so that findings about it
        are at most ``info``), and NB510 says so. Where the arguments themselves are unknown, the value is
        unknown (no finding), said once per function: the first branch is never taken as a guess.
        """
        estimators = [value for value in values if calls_in(value) or isinstance(value, Instance)]
        if len({_shape(value) for value in estimators}) > 1:
            key = f"<branches of {function.name}>"
            if key not in self.noted:
                self.noted.add(key)
                if literal:
                    said = (
                        f"{function.name}() (called at line {node.lineno}) returns different steps on branches its "
                        "arguments do not decide: nblint checks each of them, one of which is what the call returns, and "
                        "says what follows from them as info"
                    )
                else:
                    said = (
                        f"{function.name}() (called at line {node.lineno}) returns different steps on branches that "
                        "its arguments there do not decide, so nblint does not follow what it returns (a literal "
                        "argument, or a loop over literal keys, has each branch checked)"
                    )
                self.notes.append(Note(node.lineno, said))
            if not literal:
                return None
            where = f"{function.name}() (called at line {node.lineno})"
            for value in estimators:
                _mark_undecided(value, function, where)
            return one_of(estimators)
        if estimators:
            return estimators[0]
        return values[0] if values else None


def _mark_undecided(value: Any, function: Function, where: str) -> None:
    """Mark the estimators ``function`` made for this call (``value`` is what one of its branches returned) as
    returned on a branch that ``where`` (the call) does not decide. Estimators made elsewhere (a model the
    helper returns from a global) are left as they are: the source uses them outside this call too."""
    first, last = function.lineno, function.end_lineno or function.lineno
    for call in calls_in(value):
        line = call.mark[0]
        if line is not None and first <= line <= last:
            call.params.setdefault(UNDECIDED_BRANCH, where)


class _Unknown:
    pass


_UNKNOWN = _Unknown()


def _operand(node: ast.expr, known: dict[str, Any]) -> Any:
    """A literal, a parameter bound to one, or a tuple/list/set of literals; else _UNKNOWN."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name) and node.id in known:
        return known[node.id]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)) and all(isinstance(e, ast.Constant) for e in node.elts):
        return tuple(e.value for e in node.elts)  # type: ignore[attr-defined]
    return _UNKNOWN


def _compare(op: ast.cmpop, left: Any, right: Any) -> bool | None:
    if isinstance(op, (ast.Eq, ast.NotEq, ast.Is, ast.IsNot)):
        same = (
            left == right if isinstance(op, (ast.Eq, ast.NotEq)) else left is right or (left == right and left is None)
        )
        return same if isinstance(op, (ast.Eq, ast.Is)) else not same
    if isinstance(op, (ast.In, ast.NotIn)) and isinstance(right, (tuple, str)):
        try:
            inside = left in right
        except TypeError:  # a number in a string
            return UNDECIDED
        return inside if isinstance(op, ast.In) else not inside
    return UNDECIDED


def _literal_names(target: ast.expr, items: list[Any]) -> set[str]:
    """The names a loop target binds that take a literal value on every item (``name`` of ``name, model``,
    also nested: ``i, (name, model)``)."""
    bound = [_bound(target, item) for item in items]
    if any(row is None for row in bound):
        return set()
    names = set.intersection(*(set(row) for row in bound if row is not None))
    return {name for name in names if all(is_literal(row[name]) for row in bound if row is not None)}


def _bound(target: ast.expr, value: Any) -> dict[str, Any] | None:
    """Name -> value a target binds from one item, where the item unpacks as the target says."""
    if isinstance(target, ast.Name):
        return {target.id: value}
    if isinstance(target, (ast.Tuple, ast.List)):
        parts = unpack(value, len(target.elts))
        if parts is None:
            return None
        found: dict[str, Any] = {}
        for element, part in zip(target.elts, parts):
            inner = _bound(element, part)
            if inner is None:
                return None
            found.update(inner)
        return found
    return None


def _shape(value: Any) -> Any:
    """What a returned value is, for telling branches apart: classes and parameters as written (where in the
    source they are written, and the facts nblint adds under ``_`` names, left out)."""
    if isinstance(value, Instance):
        return ("instance", value.cls)
    if isinstance(value, Call):
        params = tuple(sorted((k, _shape(v)) for k, v in value.params.items() if not k.startswith("_")))
        return ("call", value.cls, params)
    if isinstance(value, OneOf):
        return ("one of", tuple(_shape(v) for v in value.items))
    if isinstance(value, (list, tuple)):
        return tuple(_shape(v) for v in value)
    if isinstance(value, dict):
        return ("dict", tuple(sorted((repr(k), _shape(v)) for k, v in value.items())))
    if is_literal(value):
        return value
    return ("value", str(value))
