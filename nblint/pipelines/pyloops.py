"""Loops in Python sources: what a loop variable stands for, read without running anything.

Part of the Python reader (:mod:`nblint.pipelines.pysource`, which mixes this in):

* a loop (or comprehension) over values written in the source -- a list, a
  dict's items, ``zip``/``enumerate`` of those, ``range`` -- gives its variable
  a :class:`~nblint.pipelines.calls.OneOf` of them, so models kept in lists and
  dicts are fitted one by one;
* a loop over a list of *frames* -- names written in the source that hold no
  value nblint knows (``for dataset in [train, test]``, or a name bound to such
  a list) -- is read once per frame, the loop variable standing for it, so
  columns written through ``dataset`` are written into ``train`` and ``test``;
* a list grown in place (``features.append(c)``, ``features.extend(range(24))``,
  ``features += [...]``) holds what was added; added items nblint cannot read
  make the whole list unknown, never a guess;
* ``[c for c in df.columns if c not in drop]`` is every column but the names
  written (:class:`~nblint.pipelines.pyvalues.AllBut`), which a selection reads
  as a drop of those names.
"""

from __future__ import annotations

import ast
from typing import Any

from nblint.pipelines.calls import Expr
from nblint.pipelines.pycolumns import names
from nblint.pipelines.pystate import ReaderState
from nblint.pipelines.pyvalues import (
    AllBut,
    OneOf,
    calls_in,
    enumerated,
    is_sequence,
    items_of,
    method_items,
    one_of,
    zipped,
)
from nblint.pipelines.pyvalues import unknown as _unknown

Comprehension = ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp
#: The most frames a loop over a list of frames is read for (its body is read once per frame).
MAX_FRAMES_WALKED = 6


def listed_names(node: ast.expr) -> tuple[str, ...] | None:
    """``[train, test]`` (a list or tuple of plain names, at most MAX_FRAMES_WALKED): the names, else None."""
    if isinstance(node, (ast.List, ast.Tuple)) and 1 < len(node.elts) <= MAX_FRAMES_WALKED:
        found = tuple(e.id for e in node.elts if isinstance(e, ast.Name))
        if len(found) == len(node.elts):
            return found
    return None


class LoopReading(ReaderState):
    """The loop half of the Python reader (see the module docstring)."""

    def frames_walked(self, node: ast.expr) -> tuple[str, ...] | None:
        """The frames a loop walks: a list of names written in the source (``[train, test]``, or a name bound
        to one), none of them holding a value nblint knows (models and literals are walked as a OneOf) or
        imported (``[BernoulliNB, GaussianNB]`` are classes)."""
        names = self.frame_lists.get(node.id) if isinstance(node, ast.Name) else listed_names(node)
        if names is None or any(name in self.env or name in self.imports for name in names):
            return None
        return names

    def loop_over_frames(self, loop: ast.For | ast.AsyncFor, frames: tuple[str, ...]) -> None:
        """``for dataset in [train, test]: dataset["t"] = ...``: the body is read once per frame, the loop
        variable standing for it, so what the body changes in ``dataset`` is changed in that frame.

        Calls are read once (on the first frame), as everywhere: a model fitted in such a loop is linked to
        the first frame's data, an encoder built in it is one encoder.
        """
        for inner in ast.walk(loop.iter):
            if isinstance(inner, ast.Call):
                self.expr(inner)
        assert isinstance(loop.target, ast.Name)  # the reader walks only `for name in [...]` this way
        variable = loop.target.id
        for frame in frames:
            self.bind(loop.target, _unknown(loop.target), self.data.get(frame))
            self.aliases.append(({variable: frame}, {}, False))
            try:
                self.statements(loop.body)
            finally:
                changed = self.aliases.pop()[1]
            self.apply_changes(changed)
        self.statements(loop.orelse)

    def iterate(self, node: ast.expr) -> Any:
        """What a loop variable over ``node`` takes in turn (a OneOf), or unknown."""
        items = None
        if isinstance(node, ast.Call):
            func = node.func
            dotted = self.resolve(func) or ""
            if node.args and (
                self._builtin(func) in ("list", "sorted", "tuple")
                or dotted.split(".")[0] == "tqdm"
                or isinstance(func, ast.Name)
                and func.id in ("reversed", "iter")
                and func.id not in self.env
            ):
                return self.iterate(node.args[0])  # the same items, in a list or behind a progress bar
            args = [self.expr(a) for a in node.args]
            if isinstance(func, ast.Attribute) and func.attr in ("items", "values", "keys") and not args:
                items = method_items(self.expr(func.value), func.attr)
            elif self._builtin(func) == "zip":
                items = zipped(args)
            elif self._builtin(func) == "enumerate" and args:
                items = enumerated(args[0], args[1] if len(args) > 1 else 0)
            else:
                items = items_of(self.expr(node))
        else:
            items = items_of(self.expr(node))
        return one_of(items) if items else _unknown(node)

    def _comprehension(self, node: Comprehension) -> Any:
        """``[make_pipeline(enc, m) for m in models]``: the element read with each generator's items;
        ``[x for x in items]`` (no condition) is the items themselves, ``[c for c in df.columns if c not in
        drop]`` every column but ``drop``."""
        left_out = self._all_but(node)
        if left_out is not None:
            return left_out
        bound = {n.id for gen in node.generators for n in ast.walk(gen.target) if isinstance(n, ast.Name)}
        with self.scoped(bound):
            for generator in node.generators:
                self.bind(generator.target, self.iterate(generator.iter), None)
            value = self.expr(node.value if isinstance(node, ast.DictComp) else node.elt)
        calls = calls_in(value)
        if calls:
            return calls
        copied = _copied_items(node)
        if copied is not None and not node.generators[0].ifs:
            items = items_of(self.iterate(copied))
            if items is not None:
                return items
        return _unknown(node)

    def _all_but(self, node: Comprehension) -> AllBut | None:
        """``[c for c in df.columns if c not in drop and c != "id"]``: the names left out, where all are written."""
        if not isinstance(node, ast.ListComp) or len(node.generators) != 1:
            return None
        generator = node.generators[0]
        columns = generator.iter
        if isinstance(columns, ast.Call) and self._builtin(columns.func) in ("list", "tuple") and columns.args:
            columns = columns.args[0]
        if (
            _copied_items(node) is None
            or not isinstance(node.elt, ast.Name)
            or not generator.ifs
            or not (isinstance(columns, ast.Attribute) and columns.attr == "columns")
        ):
            return None
        conditions: list[ast.expr] = []
        for condition in generator.ifs:
            if isinstance(condition, ast.BoolOp) and isinstance(condition.op, ast.And):
                conditions += condition.values
            else:
                conditions.append(condition)
        left_out: set[str] = set()
        for condition in conditions:
            if not (
                isinstance(condition, ast.Compare)
                and len(condition.ops) == 1
                and isinstance(condition.left, ast.Name)
                and condition.left.id == node.elt.id
            ):
                return None
            value = self.expr(condition.comparators[0])
            found = (
                names(value)
                if isinstance(condition.ops[0], ast.NotIn)
                else (value,)
                if isinstance(condition.ops[0], ast.NotEq) and isinstance(value, str)
                else None
            )
            if not found:
                return None
            left_out.update(found)
        return AllBut(frozenset(left_out), node)

    def grow(self, holder: ast.expr, added: ast.expr, one: bool) -> None:
        """``holder.append(added)`` (``one``), ``holder.extend(added)`` or ``holder += added``: a list held by a
        name gains the items; a loop appending gains each item its variable takes. Items not known make the
        list unknown."""
        name = self._dotted_text(holder)
        if name is None:
            return
        current = self.env.get(name)
        if not is_sequence(current):
            return
        value = self.expr(added) if one else self.iterate(added)  # iterate: one item stands for itself
        if isinstance(value, Expr):
            items = None
        elif isinstance(value, OneOf):
            items = list(value.items)
        else:
            items = [value]
        if items is None:
            self.env.pop(name)
        else:
            self.env[name] = list(current) + items


def _copied_items(node: Comprehension) -> ast.expr | None:
    """The iterable of ``[x for x in items]`` (one generator whose element is its plain loop variable)."""
    if isinstance(node, (ast.ListComp, ast.GeneratorExp, ast.SetComp)) and len(node.generators) == 1:
        generator = node.generators[0]
        if (
            isinstance(generator.target, ast.Name)
            and isinstance(node.elt, ast.Name)
            and node.elt.id == generator.target.id
            and not generator.is_async
        ):
            return generator.iter
    return None
