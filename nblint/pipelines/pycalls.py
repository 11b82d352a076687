"""Calls in Python sources: scikit-learn constructors, methods on models, and the source's own functions.

Part of the Python reader (:mod:`nblint.pipelines.pysource`, which mixes this in):

* a call of a scikit-learn (imblearn, category_encoders, ``pandas.get_dummies``)
  callable becomes a :class:`~nblint.pipelines.calls.Call`; given a loop's model
  (a OneOf of estimators, perhaps inside a step list) it becomes one call per
  model;
* ``fit``/``partial_fit`` and the cross-validation functions link a model to
  the data it is fitted on; ``set_params`` (``clf__alpha`` paths too) changes
  its parameters; ``le.fit(["n", "y"])`` records the categories written;
* ``clone(model)`` and ``copy.deepcopy(model)`` are the model they copy (same class, same parameters);
* a name bound to a scikit-learn class (``model_cls = BernoulliNB``, a loop over
  ``[BernoulliNB, GaussianNB]``) called later builds that class (each one the loop takes);
* a function or class of the source is read with its arguments bound to its
  parameters (those not passed to their default values), a few calls deep
  (:meth:`CallReading.inline`);
* numbers spelled out by ``range``/``np.arange``/``np.linspace``/``np.logspace``,
  ``dict(alpha=...)``, ``float("nan")``.
"""

from __future__ import annotations

import ast
from typing import Any

from nblint.pipelines import catalog
from nblint.pipelines.calls import Call, Expr, Note, OneOf
from nblint.pipelines.flow import FITTED_LEVELS
from nblint.pipelines.params import resolve_param
from nblint.pipelines.pydata import FIT_METHODS, argument, union
from nblint.pipelines.pystate import Chains, Function, Parts, ReaderState
from nblint.pipelines.pyvalues import (
    Instance,
    Partial,
    calls_in,
    classes_named,
    enumerated,
    is_literal,
    is_sequence,
    items_of,
    number_range,
    one_of,
    zipped,
)
from nblint.pipelines.pyvalues import mark as _mark
from nblint.pipelines.pyvalues import unknown as _unknown
from nblint.pipelines.tree import PosDict

CV_FUNCTIONS = frozenset(
    {
        "cross_val_score",
        "cross_validate",
        "cross_val_predict",
        "learning_curve",
        "validation_curve",
        "permutation_test_score",
    }
)
SPLIT_FUNCTIONS = frozenset({"train_test_split"})
RANGES = frozenset({"builtins.range", "numpy.arange", "numpy.linspace", "numpy.logspace"})
SEQUENCES = frozenset({"numpy.array", "numpy.asarray", "builtins.list", "builtins.tuple", "builtins.sorted"})
#: How deep calls of the source's own functions are followed, and how many calls in all.
MAX_DEPTH = 4
MAX_INLINED = 400
#: The most alternatives one call is expanded into (one per model of a list it is given).
MAX_ALTERNATIVES = 16
#: Calls that give a copy of an estimator: the same class with the same parameters (unfitted, for clone).
COPIES = frozenset({"sklearn.base.clone", "sklearn.clone", "copy.deepcopy", "copy.copy"})


def _with(value: Any, old: Any, new: Any, depth: int = 0) -> Any:
    """``value`` with ``old`` (found by identity, inside lists, tuples and dicts) replaced by ``new``."""
    if value is old:
        return new
    if depth > 3:
        return value
    if isinstance(value, list):
        return [_with(v, old, new, depth + 1) for v in value]
    if isinstance(value, tuple):
        return tuple(_with(v, old, new, depth + 1) for v in value)
    return value


def _choice(value: Any, depth: int = 0) -> OneOf | None:
    """The first OneOf of estimators inside ``value`` (a step list holding a loop's model, say)."""
    if isinstance(value, OneOf) and calls_in(value):
        return value
    if depth < 3 and isinstance(value, (list, tuple)):
        for item in value:
            found = _choice(item, depth + 1)
            if found is not None:
                return found
    return None


class CallReading(ReaderState):
    """The call half of the Python reader (see the module docstring)."""

    def _call(self, node: ast.Call) -> Any:
        dotted = self.resolve(node.func)
        if dotted in COPIES and len(node.args) == 1 and not isinstance(node.args[0], ast.Starred):
            return self.expr(node.args[0])  # clone(model): the same class with the same parameters
        if dotted is not None and catalog.is_known(dotted) and "." in dotted:
            return self._library_call(node, dotted)
        builtin = self._builtin(node.func)
        name = dotted or (f"builtins.{builtin}" if builtin else None)
        if name in RANGES:
            args = [self.expr(a) for a in node.args]
            values = number_range(name, args, {k.arg: self.expr(k.value) for k in node.keywords if k.arg})
            return values if values is not None else _unknown(node)
        if name == "functools.partial" and node.args and not isinstance(node.args[0], ast.Starred):
            return Partial(node)  # make_model = partial(MultinomialNB, alpha=0): read where it is called
        if name in SEQUENCES and len(node.args) == 1:
            value = self.expr(node.args[0])
            return list(value) if isinstance(value, (list, tuple)) else _unknown(node)
        if builtin in ("zip", "enumerate") and node.args:  # models = zip(names, classifiers), walked later
            args = [self.expr(a) for a in node.args]
            pairs = zipped(args) if builtin == "zip" else enumerated(args[0], args[1] if len(args) > 1 else 0)
            return pairs if pairs is not None else _unknown(node)
        if builtin == "dict" and len(node.args) == 1 and not node.keywords:
            # dict(zip(names, models)), dict([("nb", BernoulliNB()), ...]): pairs with literal keys
            pairs = items_of(self.expr(node.args[0]))
            if pairs and all(is_sequence(p) and len(p) == 2 and is_literal(p[0]) for p in pairs):
                found = PosDict(_mark(node))
                for key, value in pairs:
                    found[key] = value
                    found.marks[key] = _mark(node)
                return found
        if builtin == "dict" and not node.args:
            found = PosDict(_mark(node))
            for keyword in node.keywords:
                if keyword.arg is not None:
                    found[keyword.arg] = self.expr(keyword.value)
                    found.marks[keyword.arg] = _mark(keyword)
            return found
        if builtin == "float" and node.args and isinstance(node.args[0], ast.Constant):
            literal = node.args[0].value
            if isinstance(literal, (str, float)) and str(literal).strip().lower() in ("nan", "inf"):
                return float(literal)
        if isinstance(node.func, ast.Attribute):
            return self._method_call(node, node.func)
        if isinstance(node.func, ast.Name) and dotted is None:
            return self._source_call(node, node.func.id)
        return _unknown(node)

    def _library_call(self, node: ast.Call, dotted: str) -> Any:
        """A call of a scikit-learn (or imblearn, pandas.get_dummies) callable: one Call, or one per model it is given."""
        args = []
        for arg in node.args:
            if isinstance(arg, ast.Starred) and isinstance(self.expr(arg.value), list):
                args += [(value, _mark(arg)) for value in self.expr(arg.value)]
            else:
                args.append((self.expr(arg), _mark(arg)))
        keywords = [(k.arg, self.expr(k.value), _mark(k)) for k in node.keywords if k.arg is not None]
        choice = next(
            (c for c in (_choice(v) for v in [a for a, _ in args] + [v for _, v, _ in keywords]) if c is not None), None
        )
        if choice is None:
            return self._make_call(node, dotted, args, keywords)
        made = []
        for item in choice.items[:MAX_ALTERNATIVES]:
            made.append(
                self._make_call(
                    node,
                    dotted,
                    [(_with(v, choice, item), m) for v, m in args],
                    [(k, _with(v, choice, item), m) for k, v, m in keywords],
                )
            )
        return one_of(made)

    def _make_call(self, node: ast.Call, dotted: str, args: list, keywords: list) -> Call:
        call = Call(dotted, mark=_mark(node))
        self.calls.append(call)
        call.bind_positional(args)
        for name, value, mark in keywords:
            call.params[name] = value
            call.marks[name] = mark
        self.created[id(node)] = call
        short = catalog.short_name(dotted)
        if short in CV_FUNCTIONS:
            self.trains = True
            self.note_target(argument(node, 2, "y"))
            self._link(call.params.get("estimator", call.params.get("arg0")), argument(node, 1, "X"))
        elif short in SPLIT_FUNCTIONS and len(node.args) >= 2:
            self.note_target(node.args[-1])
        return call

    def _method_call(self, node: ast.Call, func: ast.Attribute) -> Any:
        receiver = self.expr(func.value)
        if isinstance(receiver, Instance):
            method = self.functions.get(f"{receiver.cls}.{func.attr}")
            return self.inline(method, node, receiver) if method is not None else _unknown(node)
        if func.attr in FIT_METHODS:
            self.trains = True
            self.note_target(argument(node, 1, "y"))
            self._link(receiver, argument(node, 0, "X"))
            for call in calls_in(receiver):
                if call.cls in catalog.ORDINAL_ENCODERS and node.args:  # le.fit(["n", "y"]): its categories
                    levels = self.expr(node.args[0])
                    if isinstance(levels, list) and all(isinstance(v, (str, int, float)) for v in levels):
                        call.params[FITTED_LEVELS] = list(dict.fromkeys(levels))
            return receiver if calls_in(receiver) else _unknown(node)
        if func.attr == "set_params":
            for call in calls_in(receiver):
                for keyword in node.keywords:
                    found = resolve_param(call, keyword.arg) if keyword.arg else None
                    if found is not None:
                        target, name = found
                        target.params[name] = self.expr(keyword.value)
                        target.marks[name] = _mark(keyword)
            return receiver
        return _unknown(node)

    def _source_call(self, node: ast.Call, name: str) -> Any:
        """A call of a function or class defined in the source, or of a name nblint cannot trace.

        A scikit-learn class name that is neither imported nor defined (an exercise
        snippet run where the environment provides it) is read as that class, unless
        the source star-imports a module of its own, which may define it (NB510).
        """
        if name in self.env:
            bound = self.env[name]
            if isinstance(bound, Partial):
                return self.expr(self.partial_call(bound, node))
            # model_cls = BernoulliNB; model_cls(alpha=1): the class it names (each one a loop over classes takes)
            classes = classes_named(bound)
            if classes:
                return one_of([self._library_call(node, dotted) for dotted in classes[:MAX_ALTERNATIVES]])
            return _unknown(node)
        if name in self.classes:
            instance = Instance(name)
            init = self.functions.get(f"{name}.__init__")
            if init is not None:
                self.inline(init, node, instance)
            return instance
        if name in self.functions:
            return self.inline(self.functions[name], node)
        if name in catalog.KNOWN_NAMES and not self.foreign:
            return self._library_call(node, name)
        if name in catalog.KNOWN_NAMES and name not in self.noted:
            self.noted.add(name)
            source, line = self.foreign[0]
            self.notes.append(
                Note(
                    node.lineno,
                    (
                        f"{name} (line {node.lineno}) is not imported from scikit-learn here; it may come from "
                        f"`{source}` (line {line}), which nblint does not read, so what it builds is not checked"
                    ),
                )
            )
        return _unknown(node)

    def partial_call(self, partial: Partial, node: ast.Call) -> ast.Call:
        """The call a ``partial`` stands for when called by ``node``: its function, with the partial's
        arguments before the call's (keywords of the call override the partial's), at the call's place.
        Made once per calling node, so it is read once per frame like any call."""
        made = self.partials.get(id(node))
        if made is None:
            given = {k.arg for k in node.keywords if k.arg is not None}
            keywords = [k for k in partial.node.keywords if k.arg not in given] + list(node.keywords)
            made = ast.copy_location(
                ast.Call(func=partial.node.args[0], args=[*partial.node.args[1:], *node.args], keywords=keywords), node
            )
            self.partials[id(node)] = made
            self.made_nodes.append(made)  # (kept alive, so its id is never reused for another node)
        return made

    def inline(self, function: Function, node: ast.Call, instance: Instance | None = None) -> Any:
        """Read a source function's body for this call, its parameters bound to the call's arguments.

        Returns the value it returns (an estimator among several returns); the data
        it returns is kept for :meth:`data_of`.  ``instance`` is bound to the first
        parameter (``self``) of a method.
        """
        if function in self.stack or len(self.stack) >= MAX_DEPTH or self.inlined >= MAX_INLINED:
            return _unknown(node)
        self.inlined += 1
        arguments = function.args
        positional = [a.arg for a in [*arguments.posonlyargs, *arguments.args]]
        bound: dict[str, tuple[Any, Any]] = {}
        if instance is not None and positional:
            bound[positional.pop(0)] = (instance, None)
        given = [a for a in node.args if not isinstance(a, ast.Starred)]
        passed = list(zip(positional, given))
        accepted = set(positional) | {a.arg for a in arguments.kwonlyargs}
        passed += [(k.arg, k.value) for k in node.keywords if k.arg in accepted]
        for parameter, arg in passed:
            bound[parameter] = (self.expr(arg), self.data_of(arg))
        for parameter, default in self.defaults.get(id(function), {}).items():
            bound.setdefault(parameter, default)  # def f(vectorizer=TfidfVectorizer()), called as f()
        # A frame passed by name and changed in place (df[col] = ..., df.drop(..., inplace=True)) is the
        # caller's frame changed: those changes go back to the caller's name.
        aliases = {parameter: arg.id for parameter, arg in passed if isinstance(arg, ast.Name)}
        outer = self.frame
        returned: list[tuple[Any, Chains | None, Parts | None]] = []
        literal: dict[str, Any] = {}
        with self.scoped(self.local_names(function)):
            for name in self.local_names(function):
                self.env.pop(name, None)
                self.data.pop(name, None)
            for name, (value, data) in bound.items():
                if not isinstance(value, Expr) or classes_named(value):  # (a class passed in may be called)
                    self.env[name] = value
                if data:
                    self.data[name] = data
            self.frames += 1
            self.frame = self.frames
            self.stack.append(function)
            self.returns.append([])
            self.aliases.append((aliases, {}, True))
            literal = {name: value for name, (value, _) in bound.items() if is_literal(value)}
            self.literal_args.append(literal)
            try:
                self.statements(function.body)
            finally:
                returned = self.returns.pop()
                changed = self.aliases.pop()[1]
                self.literal_args.pop()
                self.stack.pop()
                self.frame = outer
                self.ended = False
        self.apply_changes(changed)
        self.call_data[(id(node), outer)] = union(*(data for _, data, _ in returned))
        each = [parts for _, _, parts in returned if parts is not None]
        shapes = {len(parts) for parts in each}
        if returned and len(shapes) == 1 and len(each) == len(returned):
            size = shapes.pop()
            self.call_parts[(id(node), outer)] = [
                (union(*(parts[i][0] for parts in each)), each[0][i][1]) for i in range(size)
            ]
        value = self.returned_value(function, node, [value for value, _, _ in returned], bool(literal))
        return _unknown(node) if value is None else value

    def apply_changes(self, changed: dict[str, Any]) -> None:
        """Give the names a function's parameters (or a loop's variable) stood for the data changed through them."""
        for name, data in changed.items():
            if data:
                self.data[name] = data
            else:
                self.data.pop(name, None)
            self.changed_in_place(name)

    def changed_in_place(self, name: str) -> None:
        """Note that the frame ``name`` holds was changed in place: the frame it stands for (a caller's
        argument, or the frame a loop over frames has reached) is changed too."""
        for names, changed, scope_ends in reversed(self.aliases):
            if name in names:
                changed[names[name]] = self.data.get(name)
                return
            if scope_ends:  # a function's names are its own: the caller's are out of reach
                return

    def rebound(self, name: str) -> None:
        """``name`` now holds another object: changes to it are no longer the caller's (or the loop's frame's)."""
        for names, _, scope_ends in reversed(self.aliases):
            names.pop(name, None)
            if scope_ends:
                return

    def _link(self, estimator: Any, data_node: ast.expr | None) -> None:
        """Record that ``estimator`` (or each model a OneOf stands for) is fitted on the data ``data_node`` holds."""
        if data_node is None:
            return
        chains: Chains | None = None
        for call in calls_in(estimator):
            self.fitted.add(id(call))
            chains = chains if chains is not None else self.data_of(data_node)
            if chains:
                call.feeders = union(call.feeders, chains) or ()

    def unused(self) -> set[int]:
        """The models (ids) that have no effect: in a source that fits models, those built and never fitted,
        and either bound only to names the source never reads or built in a bare expression."""
        if not self.trains:
            return set()  # a source that only builds pipelines: every one of them is what it is for
        read = {n.id for n in ast.walk(self.tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        candidates = [c for name, calls in self.bound if name not in read for c in calls] + self.bare
        # Only estimators: a call such as cross_val_score(model, X, y) is itself a use of the model.
        return {id(c) for c in candidates if id(c) not in self.fitted and c.role in ("nb", "pipeline", "meta")}
