"""Data preparation in Python sources: which encoders the data a model is fitted on went through.

The Python reader (:mod:`nblint.pipelines.pysource`) records, for each name
holding data, the *chains* of preparation applied to it: ``pd.get_dummies``
and fitted transformers (``enc.fit_transform(X)``), each use with the columns
it was applied to where the source says.  What is followed:

* results bound to names, and anything computed from them
  (``X_train, X_test, ... = train_test_split(X, y)``, ``X.values``, ``pd.concat``);
* encoder output written into columns and slices: ``df[col] = le.fit_transform(df[col])``
  (in a loop over column names too), ``df[["a", "b"]] = enc.fit_transform(df[["a", "b"]])``,
  ``X[:, 0] = le.fit_transform(X[:, 0])``, ``df.loc[:, "a"] = ...``, and
  ``df.apply(LabelEncoder().fit_transform)``;
* columns selected (``df[["a", "b"]]``, ``df.a``) and dropped by name
  (``df.drop(columns=[...])``, ``df.drop([...], axis=1)``, ``inplace=True``): an
  encoded column that is dropped or not selected no longer feeds the model,
  and a *level* column dropped after ``get_dummies`` (``drop(["Sex", "male"], axis=1)``
  after ``get_dummies(df.Sex)``) leaves K-1 bits, as ``drop_first=True`` does;
* the target: a column used as ``y`` (``model.fit(X, df["label"])``,
  ``y = df.label``, a cross-validation or split's ``y``) is not a feature, so
  its encoding (``LabelEncoder`` on the labels) is not data preparation of the model's input.

A level is told from a column by name: with ``get_dummies(series)`` the dummies
are named by the levels alone, so a dropped name that the source never uses as a
column (``df["male"]`` appears nowhere) is a level; with
``get_dummies(df, columns=[...])`` a level column is ``<column>_<level>``.
"""

from __future__ import annotations

import ast
from typing import Any

from nblint.pipelines.pyvalues import calls_in, is_sequence
from nblint.pipelines.spec import Call, OneOf

Chains = tuple[tuple[Call, ...], ...]

FIT_METHODS = frozenset({"fit", "partial_fit"})
TRANSFORM_METHODS = frozenset({"fit_transform", "transform"})
#: Methods whose result is a prediction or a score, not the data they are given.
PREDICT_METHODS = frozenset({"predict", "predict_proba", "predict_log_proba", "decision_function", "score",
                             "fit_predict", "inverse_transform", "get_feature_names_out"})
#: pandas attributes that are not columns (``df.values`` is the data, ``df.Sex`` a column).
FRAME_ATTRIBUTES = frozenset({"values", "T", "loc", "iloc", "at", "iat", "columns", "index", "shape", "dtypes",
                              "str", "dt", "cat", "sparse", "array", "plot", "size", "ndim", "empty", "name",
                              "dtype", "A", "data", "toarray", "todense"})
INDEXERS = frozenset({"loc", "iloc", "at", "iat"})


def union(*chain_sets: Chains | None) -> Chains | None:
    """Chains of data preparation from several sources, each once, in order."""
    seen, out = set(), []
    for chains in chain_sets:
        for chain in chains or ():
            key = tuple(map(id, chain))
            if key not in seen:
                seen.add(key)
                out.append(chain)
    return tuple(out) or None


def argument(node: ast.Call, index: int, keyword: str) -> ast.expr | None:
    """The argument at ``index`` or passed as ``keyword``."""
    if len(node.args) > index and not any(isinstance(a, ast.Starred) for a in node.args[:index + 1]):
        return node.args[index]
    return next((k.value for k in node.keywords if k.arg == keyword), None)


def _names(value: Any) -> tuple[str, ...] | None:
    """Column names a literal value stands for: a name, a list of names, the names a loop takes."""
    if isinstance(value, str):
        return (value,)
    if isinstance(value, OneOf):
        value = list(value.items)
    if is_sequence(value) and value and all(isinstance(v, str) for v in value):
        return tuple(value)
    return None


def _same_names(use: Call) -> bool:
    """Whether the output of this use keeps the names of the columns it was applied to (not one-hot)."""
    return use.cls != "get_dummies"


class DataTracking:
    """The data-preparation half of the Python reader (mixed into it; see the module docstring)."""

    tracks_data: bool
    data: dict
    frame: int
    call_data: dict
    targets: set
    selected: dict
    tree: ast.Module
    imports: dict
    env: dict
    uses: dict
    series_uses: set
    _column_references: set | None

    # ---------------------------------------------------------------- where data goes

    def data_of(self, node: ast.expr) -> Chains | None:
        """The data preparation the value of ``node`` went through."""
        if not self.tracks_data:
            return None
        if isinstance(node, ast.Call):
            return self._call_data(node)
        if isinstance(node, ast.Subscript):
            return self._selected(self.data_of(node.value), self.column_names(node))
        if isinstance(node, (ast.Name, ast.Attribute)):
            text = self._dotted_text(node)
            if text in self.data:
                return self.data[text]
            if isinstance(node, ast.Attribute):
                base = self.expr(node.value)
                if hasattr(base, "data") and isinstance(base.data, dict) and node.attr in base.data:
                    return base.data[node.attr]  # an attribute of an instance of a class in the source
                if node.attr in FIT_METHODS | TRANSFORM_METHODS | PREDICT_METHODS:
                    return None
                return self._selected(self.data_of(node.value), self.column_names(node))
            return None
        return union(*(self.data_of(child) for child in ast.iter_child_nodes(node) if isinstance(child, ast.expr)))

    def _call_data(self, node: ast.Call) -> Chains | None:
        key = (id(node), self.frame)
        value = self.expr(node)
        if key in self.call_data:  # a function of the source, read with its arguments
            return self.call_data[key]
        for call in calls_in(value):
            if call.cls == "get_dummies":
                source = argument(node, 0, "data")
                selected = self.column_names(source) if source is not None and "columns" not in call.params else None
                use = self.use(call, selected, selected is not None and self._series(source))
                return self._then(self.data_of(source) if source is not None else None, [use])
        func = node.func
        if isinstance(func, ast.Attribute):
            if func.attr in FIT_METHODS or func.attr in PREDICT_METHODS:
                return None  # model.fit(X) is the fitted model, predict(X) a prediction
            if func.attr in TRANSFORM_METHODS:
                receivers = calls_in(self.expr(func.value))
                if receivers:
                    source = argument(node, 0, "X")
                    columns = self.column_names(source) if source is not None else None
                    return self._then(self.data_of(source) if source is not None else None,
                                      [self.use(r, columns) for r in receivers])
            if func.attr == "apply":
                applied = argument(node, 0, "func")
                if isinstance(applied, ast.Attribute) and applied.attr in TRANSFORM_METHODS:
                    receivers = calls_in(self.expr(applied.value))
                    if receivers:
                        columns = self.column_names(func.value)
                        return self._then(self.data_of(func.value), [self.use(r, columns) for r in receivers])
            if func.attr == "drop":
                return self.dropped(self.data_of(func.value), node)
            if func.attr == "pop":
                return None  # df.pop("label") is the target column
        # Anything else computed from data keeps its preparation (df.fillna(0), np.hstack([a, b]), X.toarray()).
        receiver = self.data_of(func.value) if isinstance(func, ast.Attribute) else None
        arguments = [a.value if isinstance(a, ast.Starred) else a for a in node.args] + [k.value for k in node.keywords]
        return union(receiver, *(self.data_of(a) for a in arguments))

    @staticmethod
    def _then(chains: Chains | None, uses: list[Call]) -> Chains:
        """Each chain (or the raw input) followed by each of ``uses``."""
        return tuple(chain + (use,) for use in uses for chain in chains or ((),))

    def use(self, call: Call, columns: tuple[str, ...] | None, series: bool = False) -> Call:
        """The call as applied to ``columns``: the same parameters, the columns of this use (one object per use)."""
        if columns is None:
            return call
        key = (id(call), columns)
        found = self.uses.get(key)
        if found is None:
            found = Call(call.target, call.params, call.mark, call.marks, columns=columns)
            self.uses[key] = found
            if series:
                self.series_uses.add(id(found))
        return found

    def _series(self, node: ast.expr) -> bool:
        """Whether ``node`` picks one column (``df["a"]``, ``df.a``): its dummies are named by the levels alone."""
        if isinstance(node, ast.Subscript):
            return isinstance(self.expr(node.slice), str)
        return isinstance(node, ast.Attribute) and node.attr not in FRAME_ATTRIBUTES

    # ---------------------------------------------------------------- columns

    def column_names(self, node: ast.expr | None) -> tuple[str, ...] | None:
        """The columns ``df[...]``, ``df.loc[:, ...]`` or ``df.a`` picks, where the source says."""
        if isinstance(node, ast.Subscript):
            key = node.slice
            if isinstance(node.value, ast.Attribute) and node.value.attr in INDEXERS:
                if node.value.attr != "loc" or not isinstance(key, ast.Tuple) or len(key.elts) != 2:
                    return None
                key = key.elts[1]
            return _names(self.expr(key))
        if isinstance(node, ast.Attribute) and node.attr not in FRAME_ATTRIBUTES and isinstance(node.value, ast.Name):
            base = node.value.id
            if base not in self.imports and not isinstance(self.env.get(base), (Call, OneOf, dict, list, tuple)):
                return (node.attr,)  # df.Sex: a column of a frame (not a module's or a model's attribute)
        return None

    def _selected(self, chains: Chains | None, columns: tuple[str, ...] | None) -> Chains | None:
        """The chains still present after selecting ``columns`` (encoders of other columns are left behind)."""
        if chains is None or columns is None:
            return chains
        kept = tuple(c for c in chains if not (c[-1].columns and _same_names(c[-1]) and not set(c[-1].columns) & set(columns)))
        return kept or None

    def assign_columns(self, target: ast.Subscript, data: Chains | None) -> None:
        """``df[cols] = value``: the frame's columns ``cols`` now hold ``value``'s preparation."""
        base = target.value
        if isinstance(base, ast.Attribute) and base.attr in INDEXERS:
            base = base.value
        name = self._dotted_text(base)
        if name is None:
            return
        existing = self.data.get(name)
        columns = self.column_names(target)
        if existing and columns:  # the old contents of these columns are replaced
            existing = tuple(c for c in existing
                             if not (c[-1].columns and _same_names(c[-1]) and set(c[-1].columns) <= set(columns))) or None
        chains = union(existing, data)
        if chains:
            self.data[name] = chains
        else:
            self.data.pop(name, None)

    def dropped(self, chains: Chains | None, node: ast.Call) -> Chains | None:
        """The chains after ``frame.drop(...)``: encoded columns dropped, or a dummy level dropped by name."""
        names = self._drop_names(node)
        if chains is None or names is None:
            return chains
        out = []
        for chain in chains:
            last = chain[-1]
            if last.columns and _same_names(last) and set(last.columns) <= names:
                continue  # the encoded columns are gone
            if last.cls == "get_dummies" and "dropped" not in last.params and last.params.get("drop_first") is not True:
                levels = self._levels(last, names)
                if levels:
                    chain = chain[:-1] + (self._without_levels(last, levels, node),)
            out.append(chain)
        return tuple(out) or None

    def _drop_names(self, node: ast.Call) -> set[str] | None:
        """The column names ``drop`` removes; None for rows, or names not written in the source."""
        columns = next((k.value for k in node.keywords if k.arg == "columns"), None)
        if columns is None:
            axis = next((k.value for k in node.keywords if k.arg == "axis"), None)
            if axis is None and len(node.args) > 1:
                axis = node.args[1]
            if axis is None or self.expr(axis) not in (1, "columns"):
                return None
            columns = argument(node, 0, "labels")
        names = _names(self.expr(columns)) if columns is not None else None
        return set(names) if names else None

    def _levels(self, use: Call, names: set[str]) -> list[str]:
        """The dropped names that are level columns of this ``get_dummies`` use (every variable losing one)."""
        if id(use) in self.series_uses:
            return sorted(n for n in names if n not in use.columns and n not in self.column_references)
        encoded = _names(use.params.get("columns")) or use.columns  # get_dummies(df, columns=...) or df[[...]]
        if not encoded:
            return []
        separator = use.params.get("prefix_sep", "_")
        prefix = use.params.get("prefix")
        prefixes = [prefix] if isinstance(prefix, str) and len(encoded) == 1 else encoded
        if not isinstance(separator, str) or not all(isinstance(p, str) for p in prefixes):
            return []
        per_variable = [[n for n in names if n.startswith(f"{p}{separator}")] for p in prefixes]
        if not all(per_variable):
            return []  # some variable keeps all its levels
        return sorted({n for found in per_variable for n in found})

    def _without_levels(self, use: Call, levels: list[str], node: ast.Call) -> Call:
        marks = dict(use.marks)
        marks["dropped"] = (node.lineno, node.col_offset + 1)
        found = Call(use.target, {**use.params, "dropped": levels}, use.mark, marks, columns=use.columns)
        if id(use) in self.series_uses:
            self.series_uses.add(id(found))
        return found

    @property
    def column_references(self) -> set[str]:
        """Every name the source uses as a column (``df["a"]``, ``df[["a", "b"]]``, ``df.loc[:, "a"]``, ``df.a``)."""
        if self._column_references is None:
            found = set()
            for node in ast.walk(self.tree):
                if isinstance(node, ast.Subscript):
                    for inner in ast.walk(node.slice):
                        if isinstance(inner, ast.Constant) and isinstance(inner.value, str):
                            found.add(inner.value)
                elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                        and node.value.id not in self.imports:
                    found.add(node.attr)
            self._column_references = found
        return self._column_references

    # ---------------------------------------------------------------- the target

    def note_target(self, node: ast.expr | None) -> None:
        """Remember the columns ``node`` (a model's ``y``) stands for: they are the target, not features."""
        if node is None:
            return
        if isinstance(node, ast.Name):
            self.targets.update(self.selected.get(node.id, ()))
        else:
            self.targets.update(self.column_names(node) or ())

    def remember_selection(self, name: str, node: ast.expr) -> None:
        """``y = df["label"]``: the columns a name holds, should it be used as a target later."""
        columns = None
        if isinstance(node, (ast.Subscript, ast.Attribute)):
            columns = self.column_names(node)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "pop":
            columns = _names(self.expr(node.args[0])) if node.args else None
        if columns:
            self.selected[name] = columns
        else:
            self.selected.pop(name, None)

    def features_only(self, calls: list[Call]) -> None:
        """Drop from each model's feeders the chains that only encode target columns."""
        for call in calls:
            if call.feeders:
                call.feeders = tuple(chain for chain in call.feeders if not self._target_only(chain))

    def _target_only(self, chain: tuple[Call, ...]) -> bool:
        return bool(self.targets) and all(use.columns and set(use.columns) <= self.targets for use in chain)
