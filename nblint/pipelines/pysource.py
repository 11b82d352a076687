"""Find the scikit-learn pipelines a Python source builds, through :mod:`ast` only (never imported or run).

The module is read statement by statement, in source order (function and
class bodies, branches and loops included, each once).  What is followed:

* imports (``from sklearn.naive_bayes import BernoulliNB as B``,
  ``import sklearn.naive_bayes as nb``, ``from sklearn import naive_bayes``,
  ``import pandas as pd``, and ``from sklearn.naive_bayes import *``);
* calls of scikit-learn and imbalanced-learn callables, with keyword and
  positional arguments (positional ones for the callables whose parameters
  nblint names: ``Pipeline(steps)``, ``make_pipeline(*steps)``,
  ``GridSearchCV(estimator, param_grid)``...); a subclass of a class nblint
  knows (``class MyNB(MultinomialNB)``) is read as that class;
* literal values (numbers, strings, lists, tuples, dicts, ``None``, ``np.nan``,
  ``np.linspace``/``np.arange``/``range`` of literal numbers), names bound
  earlier (also ``self.x = ...``), items of known lists and dicts (``models["nb"]``);
* loops (:mod:`nblint.pipelines.pyloops`): a loop variable takes each item of a
  list, dict, ``.items()``, ``zip``/``enumerate`` written in the source
  (:class:`~nblint.pipelines.calls.OneOf`), so models kept in lists, dicts and
  tuples are fitted, searched and cross-validated one by one; a loop over a list
  of frames (``for dataset in [train, test]``) is read once per frame;
* functions and classes of the same source: a call is read with its arguments
  bound to the parameters (``train(GaussianNB(), X, y)``, ``Trainer(model).fit(X)``),
  those it omits to their defaults, a few levels deep;
* ``model.set_params(alpha=0)``, ``pipe.set_params(clf__alpha=0)`` and
  ``model.alpha = 0`` change the estimator's parameters;
* data preparation (:mod:`nblint.pipelines.pydata`): what the data a model is
  fitted on (``model.fit(X, y)``, ``cross_val_score(model, X, y)``) went through.

Anything else (a value computed at run time) is an :class:`~nblint.pipelines.calls.Expr`
whose value nblint does not guess.  What cannot be followed at all -- a Python 2
source, a syntax error, syntax newer than the running Python, code nested too
deeply (:mod:`nblint.pipelines.pyparse`), a value too large to hold, a star
import from a module of the project that may define a scikit-learn name used
here -- becomes a :class:`~nblint.pipelines.calls.Note`, reported by NB510.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from nblint.pipelines import catalog
from nblint.pipelines.calls import Expr, Note
from nblint.pipelines.pybranches import BranchReading
from nblint.pipelines.pycalls import CallReading
from nblint.pipelines.pycolumns import FRAME_ATTRIBUTES
from nblint.pipelines.pydata import DataTracking
from nblint.pipelines.pyexported import exported_cells, exported_magic
from nblint.pipelines.pyexpr import ExpressionReading
from nblint.pipelines.pyloops import LoopReading, listed_names
from nblint.pipelines.pynotes import cut_message, line_list, unreadable_message
from nblint.pipelines.pyparse import imports_library, parse_source
from nblint.pipelines.pystate import Chains, Parts
from nblint.pipelines.pyvalues import Instance, calls_in, classes_named, unpack
from nblint.pipelines.pyvalues import mark as _mark
from nblint.pipelines.pyvalues import unknown as _unknown
from nblint.pipelines.spec import PipelineSpec, build_specs

#: Words without which a source prepares no data nblint follows (its data is then not tracked, for speed).
DATA_WORDS = ("get_dummies", "transform", ".apply(", "scale(", "normalize(", "binarize(")


def read_python(text: str, path: str) -> list[PipelineSpec] | None:
    """The pipelines a Python source builds, or None when it calls nothing from scikit-learn or imblearn.

    A source that cannot be parsed (Python 2, a syntax error, syntax newer than the running
    Python, code nested past what Python's parser accepts) is still a Python source: it is one
    note (NB510) naming the reason and where, never an input error, since the file may well
    run where it is used and only nblint cannot read it.
    """
    parsed = parse_source(text, path)
    problem = parsed.unreadable
    if parsed.tree is None:
        assert problem is not None  # parse_source gives a tree or says why not
        if not imports_library(text):
            return None
        cells = exported_cells(text, path)
        if cells is not None:  # a notebook exported as a script: its other cells run, as in the notebook
            tree, broken = cells
            message = (
                f"this file has a Python syntax error at line {problem.line}, column {problem.column} "
                f"({problem.message}); it is a notebook exported as a script, so nblint read its cells apart and "
                f"what the cell{'s' if len(broken) > 1 else ''} at {line_list(broken)} do{'' if len(broken) > 1 else 'es'} "
                "is not followed"
            )
            return read_module(tree, path, text, notes=[Note(problem.line, message)])
        message = unreadable_message(problem, text)
        return [PipelineSpec(path, "python", (), None, notes=(Note(problem.line, message),))]
    notes = []
    if parsed.python2:
        assert problem is not None  # the lines set aside are those the Python 2 problem was found in
        notes.append(
            Note(
                problem.line,
                (
                    f"this file is Python 2 (Python 3 refuses its syntax at line {problem.line}): nblint read it with its "
                    f"Python 2 statements set aside (print, exec, old except/raise forms at {line_list(parsed.python2)}), "
                    "so what it checked assumes the rest means the same in Python 3"
                ),
            )
        )
    if parsed.cut:
        notes.append(Note(parsed.cut[0], cut_message(line_list(parsed.cut))))
    return read_module(parsed.tree, path, text, notes=notes)


def read_module(
    tree: ast.Module,
    path: str,
    text: str,
    form: str = "python",
    notes: list[Note] | None = None,
    runs: Sequence[tuple[str, int]] = (),
) -> list[PipelineSpec] | None:
    """The pipelines of a parsed module (a script, or a notebook's cells joined), with what was not followed.

    Parameters
    ----------
    tree : ast.Module
    path, text : str
        The file and its source (the text says whether data preparation is worth following).
    form : str
        The spec's form (``python`` or ``notebook``).
    notes : list of Note, optional
        What the caller could not follow already (unreadable notebook cells).
    runs : list of (str, int)
        Scripts run into the namespace (``%run helpers.py``), with their lines.

    Returns
    -------
    list of PipelineSpec or None
        None when the module calls nothing from scikit-learn or imbalanced-learn.
    """
    reader = _ModuleReader(tree, tracks_data=any(word in text for word in DATA_WORDS))
    reader.foreign += [(f"%run {script}", line) for script, line in runs]
    try:
        reader.statements(tree.body)
    except RecursionError:  # beyond what cut_deep bounds (calls of the source's functions nested in each other)
        if not any(call.known for call in reader.calls):
            return None
        note = Note(
            None,
            "the code is nested too deeply for nblint to follow to the end (functions of the source "
            "called inside one another, on deeply nested expressions): its pipelines are not checked",
        )
        return [PipelineSpec(path, form, (), None, notes=(*(notes or ()), note))]
    if not any(call.known and not call.target.startswith("pandas.") for call in reader.calls):
        return None
    for call in reader.calls:
        if call.feeders:
            call.feeders = reader.fitted_on(call.feeders) or ()
    # What could not be read (an unreadable notebook cell) may use a model: nothing is taken as unused then.
    specs = build_specs(reader.calls, path, form, skip=set() if notes else reader.unused())
    all_notes = tuple(notes or ()) + tuple(reader.notes)
    if all_notes:
        specs.append(PipelineSpec(path, form, (), None, notes=all_notes))
    return specs


class _ModuleReader(CallReading, LoopReading, BranchReading, DataTracking, ExpressionReading):
    """The Python reader: its state is :class:`~nblint.pipelines.pystate.ReaderState`, its parts mixed in."""

    # ---------------------------------------------------------------- statements

    def statements(self, body: list[ast.stmt]) -> None:
        for stmt in body:
            self.statement(stmt)
            if self.ended:  # (a return in a function being read: the rest of the block does not run)
                break

    def statement(self, stmt: ast.stmt) -> None:
        if isinstance(stmt, (ast.Import, ast.ImportFrom)):
            self.import_(stmt)
            return
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self.define(stmt)
            return
        magic = exported_magic(stmt)
        if magic is not None:  # get_ipython().run_cell_magic('time', '', "...code...") in an exported notebook
            self.statements(magic)
            return
        if isinstance(stmt, ast.ClassDef):
            self.define_class(stmt)
            return
        taken = None  # what a for loop's variable takes, once read
        if isinstance(stmt, ast.If):
            decision = self.decided(stmt.test)
            if decision is not None:  # a helper's branch its literal argument decides: only that one runs
                self._calls_in(stmt.test)
                self.statements(stmt.body if decision else stmt.orelse)
                return
        if isinstance(stmt, (ast.For, ast.AsyncFor)):
            frames = self.frames_walked(stmt.iter) if isinstance(stmt.target, ast.Name) else None
            if frames:
                self.loop_over_frames(stmt, frames)
                return
            taken = self.iterate(stmt.iter)
            keys = self.keys_walked(stmt, taken)
            if keys:
                self.loop_over_keys(stmt, keys)
                return
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is not None:
            for target in stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]:
                self.assign(target, stmt.value)
        elif isinstance(stmt, (ast.For, ast.AsyncFor)):
            self.bind(stmt.target, taken if taken is not None else self.iterate(stmt.iter), None)
        elif isinstance(stmt, ast.AugAssign) and isinstance(stmt.op, ast.Add):
            self.grow(stmt.target, stmt.value, one=False)  # features += [...]
        elif isinstance(stmt, ast.Return) and stmt.value is not None and self.returns:
            parts: Parts | None = None
            if isinstance(stmt.value, ast.Tuple) and not any(isinstance(e, ast.Starred) for e in stmt.value.elts):
                parts = [(self.data_of(e), e) for e in stmt.value.elts]
            self.returns[-1].append((self.expr(stmt.value), self.data_of(stmt.value), parts))
            self.ended = True
        elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            self._in_place(stmt.value)
            made = self.expr(stmt.value)
            created = self.created.get(id(stmt.value))
            # (A method call that gives back None, such as set_params on a name bound to None, built nothing.)
            if created is not None and created is made:
                self.bare.append(created)  # GaussianNB(priors=None) on its own: built, never kept
        # Every call of the statement's own expressions (nested statements come after, in order).
        for _, field in ast.iter_fields(stmt):
            for node in field if isinstance(field, list) else [field]:
                if isinstance(node, (ast.expr, ast.withitem, ast.arguments, ast.keyword)):
                    for inner in ast.walk(node):
                        if isinstance(inner, (ast.Call, ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
                            self.expr(inner)
        for name in ("body", "orelse", "finalbody", "handlers", "cases"):
            for child in getattr(stmt, name, None) or []:
                if isinstance(child, ast.stmt):
                    self.statement(child)
                else:  # an except handler or a match case
                    self.statements(child.body)
                self.ended = False  # a return inside a branch, loop or try may not run: read on

    def _calls_in(self, node: ast.expr) -> None:
        """Read every call of an expression (a test whose value decides a branch)."""
        for inner in ast.walk(node):
            if isinstance(inner, (ast.Call, ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)):
                self.expr(inner)

    def loop_over_keys(self, loop: ast.For | ast.AsyncFor, keys: list) -> None:
        """``for name in models: make_pipeline(transformer(name), models[name])``: the body read once per
        key, the variable bound to that key, each reading its own frame (so the calls it makes are made
        per key and a helper's branches are decided per key)."""
        self._calls_in(loop.iter)
        outer = self.frame
        for key in keys:
            self.frames += 1
            self.frame = self.frames
            try:
                self.bind(loop.target, key, None)
                self.statements(loop.body)
            finally:
                self.frame = outer
                self.ended = False
        self.statements(loop.orelse)

    def import_(self, stmt: ast.Import | ast.ImportFrom) -> None:
        if isinstance(stmt, ast.Import):
            for alias in stmt.names:
                if alias.asname:
                    self.imports[alias.asname] = alias.name
                else:
                    self.imports[alias.name.split(".")[0]] = alias.name.split(".")[0]
            return
        module = ("." * stmt.level) + (stmt.module or "")
        for alias in stmt.names:
            if alias.name != "*":
                if not stmt.level:
                    self.imports[alias.asname or alias.name] = f"{stmt.module}.{alias.name}"
            elif not stmt.level and module.split(".")[0] in catalog.LIBRARIES:
                self.star.append(module)
            else:
                self.foreign.append((f"from {module} import *", stmt.lineno))

    def define(self, stmt: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        """Register a function (or method) and read its body once, its parameters unknown, its names its own."""
        name = f"{self.class_name}.{stmt.name}" if self.class_name else stmt.name
        self.functions[name] = stmt
        outer_class, self.class_name = self.class_name, None
        for node in stmt.decorator_list:
            self.expr(node)
        # Default values are made once, where the function is defined; a call that omits one gets that object.
        arguments = stmt.args
        positional = [*arguments.posonlyargs, *arguments.args]
        with_defaults = list(zip(positional[len(positional) - len(arguments.defaults) :], arguments.defaults))
        with_defaults += [(a, d) for a, d in zip(arguments.kwonlyargs, arguments.kw_defaults) if d is not None]
        self.defaults[id(stmt)] = {a.arg: (self.expr(d), self.data_of(d)) for a, d in with_defaults}
        with self.scoped(self.local_names(stmt)):
            for parameter in self.local_names(stmt):
                self.env.pop(parameter, None)
                self.data.pop(parameter, None)
            self.returns.append([])  # returns read now belong to no call
            try:
                self.statements(stmt.body)
            finally:
                self.returns.pop()
                self.ended = False
        self.class_name = outer_class

    def define_class(self, stmt: ast.ClassDef) -> None:
        for base in stmt.bases:
            dotted = self.resolve(base)
            if dotted and catalog.is_known(dotted) and catalog.short_name(dotted) in catalog.KNOWN_NAMES:
                self.imports[stmt.name] = dotted  # class MyNB(MultinomialNB): read as a MultinomialNB
        if stmt.name not in self.imports:
            self.classes.add(stmt.name)
        for node in [*stmt.decorator_list, *stmt.bases, *(k.value for k in stmt.keywords)]:
            self.expr(node)
        outer, self.class_name = self.class_name, stmt.name
        try:
            self.statements(stmt.body)
        finally:
            self.class_name = outer

    def local_names(self, function: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
        """The parameters and the names a function assigns (minus ``global`` ones): its own scope."""
        key = id(function)
        if key not in self._locals:
            arguments = function.args
            names = {a.arg for a in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]}
            names |= {a.arg for a in (arguments.vararg, arguments.kwarg) if a is not None}
            declared = set()
            for node in ast.walk(function):
                if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                    names.add(node.id)
                elif isinstance(node, (ast.Global, ast.Nonlocal)):
                    declared.update(node.names)
            self._locals[key] = names - declared
        return self._locals[key]

    @contextmanager
    def scoped(self, names: set[str]) -> Iterator[None]:
        """Give ``names`` back their values afterwards (a function's or a comprehension's own names)."""
        missing = object()
        tables: tuple[dict[str, Any], ...] = (self.env, self.data, self.chosen, self.frame_lists)
        saved = {n: tuple(table.get(n, missing) for table in tables) for n in names}
        try:
            yield
        finally:
            for name, values in saved.items():
                for table, value in zip(tables, values):
                    if value is missing:
                        table.pop(name, None)
                    else:
                        table[name] = value

    def assign(self, target: ast.expr, node: ast.expr) -> None:
        """``target = node``; ``X, y = a, b`` pairs each name with its own expression, and a split or a
        function returning a tuple gives each name its own part."""
        elements = (
            target.elts
            if isinstance(target, (ast.Tuple, ast.List)) and not any(isinstance(e, ast.Starred) for e in target.elts)
            else None
        )
        if (
            elements is not None
            and isinstance(node, (ast.Tuple, ast.List))
            and len(elements) == len(node.elts)
            and not any(isinstance(e, ast.Starred) for e in node.elts)
        ):
            for element, part in zip(elements, node.elts):
                self.assign(element, part)
            return
        parts = self.parts_of(node) if elements is not None else None
        if elements is not None and parts is not None and len(parts) == len(elements):
            values = unpack(self.expr(node), len(parts))
            for index, (element, (data, source)) in enumerate(zip(elements, parts)):
                self.bind(element, values[index] if values is not None else _unknown(element), data, source)
            return
        self.bind(target, self.expr(node), self.data_of(node), node)

    def bind(self, target: ast.expr, value: Any, data: Chains | None, node: ast.expr | None = None) -> None:
        if isinstance(target, (ast.Tuple, ast.List)):
            parts = unpack(value, len(target.elts))
            for index, element in enumerate(target.elts):
                self.bind(element, parts[index] if parts is not None else _unknown(element), data)
            return
        if isinstance(target, ast.Starred):
            self.bind(target.value, _unknown(target), data)
            return
        if isinstance(target, ast.Subscript):
            self.assign_columns(target, data)
            self._store_item(target, value)
            return
        if isinstance(target, ast.Attribute):
            base = self.expr(target.value)
            if isinstance(base, Instance):
                base.attrs[target.attr] = value
                base.data[target.attr] = data
                return
            for call in calls_in(base):  # model.alpha = 0
                call.params[target.attr] = value
                call.marks[target.attr] = _mark(target)
            if (
                data
                and isinstance(target.value, ast.Name)
                and not calls_in(base)
                and target.attr not in FRAME_ATTRIBUTES
            ):
                # df.brand = le.fit_transform(df.brand): pandas sets the column, as df["brand"] = ... does
                column = ast.copy_location(
                    ast.Subscript(value=target.value, slice=ast.Constant(target.attr), ctx=ast.Store()), target
                )
                self.made_nodes.append(column)  # (kept alive: the reader keys what it knows by node ids)
                self.assign_columns(column, data)
                return
        name = self._dotted_text(target)
        if name is None:
            return
        self.rebound(name)
        self.env.pop(name, None)
        self.data.pop(name, None)
        for item in [key for key in self.env if key.startswith(f"{name}[")]:
            del self.env[item]  # encoders[col] stored in the container this name held
        # A list of frames holds the objects bound when it was made: rebinding one of them (or the list's
        # name) ends what the list says about the names.
        for holder in [h for h, held in self.frame_lists.items() if name in held or h == name]:
            del self.frame_lists[holder]
        listed = listed_names(node) if node is not None else None
        if listed:
            self.frame_lists[name] = listed
        if not isinstance(value, Expr) or classes_named(value):  # (a class is kept: it may be called later)
            self.env[name] = value
        if data:
            self.data[name] = data
        if isinstance(target, ast.Name):
            self.remember_selection(name, node)
            calls = calls_in(value)
            if calls and node is not None:
                self.bound.append((name, calls))

    def _in_place(self, node: ast.Call) -> None:
        """``df.drop([...], axis=1, inplace=True)`` changes the frame it is called on; ``names.append(c)`` and
        ``names.extend(items)`` the list."""
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr in ("append", "extend") and len(node.args) == 1:
            self.grow(func.value, node.args[0], one=func.attr == "append")
        inplace = any(
            k.arg == "inplace" and isinstance(k.value, ast.Constant) and k.value.value is True for k in node.keywords
        )
        if inplace and isinstance(func, ast.Attribute) and func.attr == "drop":
            name = self._dotted_text(func.value)
            if name is not None and name in self.data:
                chains = self.dropped(self.data[name], node)
                if chains:
                    self.data[name] = chains
                else:
                    self.data.pop(name)
                self.changed_in_place(name)
