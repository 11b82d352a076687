"""Data preparation in Python sources: which encoders the data a model is fitted on went through.

The Python reader (:mod:`nblint.pipelines.pysource`) records, for each name
holding data, the *chains* of preparation applied to it: ``pd.get_dummies``
and fitted transformers (``enc.fit_transform(X)``), each use with the columns
it was applied to where the source says (:mod:`nblint.pipelines.pycolumns`).
An empty chain is the raw route: columns that reach the model untouched, as
the columns ``get_dummies(df)`` leaves alone do.  What is followed:

* results bound to names, and anything computed from them (``X.values``,
  ``pd.concat``, ``np.hstack``); ``train_test_split(X, y)`` and a resampler's
  ``fit_resample(X, y)`` pair each output with its own input, and a function
  of the source returning a tuple gives each name its own part;
* ``df.apply(LabelEncoder().fit_transform)``, and scikit-learn's function forms
  (``minmax_scale(X)``, ``scale(X)``...) as their transformers; a transformer nblint cannot
  identify (``encoder.transform(X)`` on an object of another library) makes
  the route opaque instead of passing the data through unseen;
* columns written, selected and dropped (:mod:`nblint.pipelines.pycolumns`);
* the target: a column used as ``y`` (``model.fit(X, df["label"])``,
  ``y = df.label.values``, a cross-validation or split's ``y``) is not a
  feature, so its encoding (``LabelEncoder`` on the labels) is not data
  preparation of the model's input.  A target picked by position (``y =
  df.iloc[:, -1]``) names no column; where the frame's columns were encoded one
  per statement, the column written last, by a ``LabelEncoder``, is taken for it
  (sources encode a table's columns in file order, target last, as ``X =
  df.iloc[:, :-1]`` assumes): its encoder is left quiet, since reporting the
  target's encoder would be a false alarm while the order is only a tie-breaker.
"""

from __future__ import annotations

import ast

from nblint.pipelines.calls import Call
from nblint.pipelines.catalog import FUNCTION_TRANSFORMS
from nblint.pipelines.flow import UNLISTED
from nblint.pipelines.pycolumns import ColumnTracking, names, raw, same_names
from nblint.pipelines.pycolumns import _union as union
from nblint.pipelines.pystate import Chains, Parts
from nblint.pipelines.pyvalues import AllBut, calls_in

__all__ = ["FIT_METHODS", "TRANSFORM_METHODS", "DataTracking", "argument", "union"]

FIT_METHODS = frozenset({"fit", "partial_fit"})
TRANSFORM_METHODS = frozenset({"fit_transform", "transform"})
RESAMPLE_METHODS = frozenset({"fit_resample", "fit_sample"})
#: Methods whose result is a prediction or a score, not the data they are given.
PREDICT_METHODS = frozenset(
    {
        "predict",
        "predict_proba",
        "predict_log_proba",
        "decision_function",
        "score",
        "fit_predict",
        "inverse_transform",
        "get_feature_names_out",
    }
)
#: Frame attributes that hold labels, not data: iterating them gives names (``[c for c in df.columns]``).
LABELS = frozenset({"columns", "index", "dtypes", "shape"})
#: Methods that give the same column(s) in another container (``y.values.ravel()``).
SAME_VALUES = frozenset(
    {"to_numpy", "ravel", "astype", "reshape", "copy", "squeeze", "flatten", "tolist", "to_frame", "to_list"}
)


def argument(node: ast.Call, index: int, keyword: str) -> ast.expr | None:
    """The argument at ``index`` or passed as ``keyword``."""
    if len(node.args) > index and not any(isinstance(a, ast.Starred) for a in node.args[: index + 1]):
        return node.args[index]
    return next((k.value for k in node.keywords if k.arg == keyword), None)


def unwrapped(node: ast.expr) -> ast.expr:
    """The column expression under ``.values``, ``.to_numpy()``, ``.ravel()``, ``.astype(int)``..."""
    while True:
        if isinstance(node, ast.Attribute) and node.attr == "values":
            node = node.value
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in SAME_VALUES:
            node = node.func.value
        else:
            return node


class DataTracking(ColumnTracking):
    """The data-preparation half of the Python reader (mixed into it; see the module docstring)."""

    def data_of(self, node: ast.expr) -> Chains | None:
        """The data preparation the value of ``node`` went through."""
        if not self.tracks_data:
            return None
        if isinstance(node, ast.Call):
            return self._call_data(node)
        if isinstance(node, ast.Subscript):
            every_but = self.expr(node.slice)
            if isinstance(every_but, AllBut):  # df[[c for c in df.columns if c not in drop]]: df without drop
                return self.dropped(self.data_of(node.value), every_but.node, every_but.names)
            return self.selected(self.data_of(node.value), self.column_names(node))
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
                return self.selected(self.data_of(node.value), self.column_names(node))
            return None
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp)):
            # [row for row in zip(a, b)]: the elements are taken from the data iterated (a frame's column
            # names and index are labels, not its data).
            taken = [
                g.iter for g in node.generators if not (isinstance(g.iter, ast.Attribute) and g.iter.attr in LABELS)
            ]
            return union(self.data_of(node.elt), *(self.data_of(i) for i in taken))
        return union(*(self.data_of(child) for child in ast.iter_child_nodes(node) if isinstance(child, ast.expr)))

    def _call_data(self, node: ast.Call) -> Chains | None:
        key = (id(node), self.frame)
        value = self.expr(node)
        if key in self.call_data:  # a function of the source, read with its arguments
            return self.call_data[key]
        for call in calls_in(value):
            if call.cls == "get_dummies":
                return self._dummies(node, call)
            if call.cls in FUNCTION_TRANSFORMS:  # minmax_scale(X): MinMaxScaler().fit_transform(X)
                return self._applied(argument(node, 0, "X"), [call])
        func = node.func
        if isinstance(func, ast.Attribute):
            if func.attr in FIT_METHODS or func.attr in PREDICT_METHODS:
                return None  # model.fit(X) is the fitted model, predict(X) a prediction
            if func.attr in TRANSFORM_METHODS or func.attr in RESAMPLE_METHODS:
                return self._transformed(node, func.value, argument(node, 0, "X"))
            if func.attr == "apply":
                applied = argument(node, 0, "func")
                if isinstance(applied, ast.Attribute) and applied.attr in TRANSFORM_METHODS:
                    return self._transformed(node, applied.value, func.value)
            if func.attr == "drop":
                return self.dropped(self.data_of(func.value), node)
            if func.attr == "pop":
                return None  # df.pop("label") is the target column
            if func.attr == "rename":
                written = next((k.value for k in node.keywords if k.arg == "columns"), None)
                mapping = self.expr(written) if written is not None else None
                if isinstance(mapping, dict):
                    return self.renamed(self.data_of(func.value), mapping)
        # Anything else computed from data keeps its preparation (df.fillna(0), np.hstack([a, b]), X.toarray()).
        receiver = self.data_of(func.value) if isinstance(func, ast.Attribute) else None
        arguments = [a.value if isinstance(a, ast.Starred) else a for a in node.args] + [k.value for k in node.keywords]
        return union(receiver, *(self.data_of(a) for a in arguments))

    def _dummies(self, node: ast.Call, call: Call) -> Chains | None:
        """``get_dummies(data)``: a Series or named columns become bits; on a whole frame, only some columns do.

        On a frame, get_dummies encodes the columns listed in ``columns=`` (with no
        list, its text and category columns) and leaves the others as they are:
        encoder output already in the frame (codes, scaled values, earlier dummies:
        numbers) unless listed, and the frame's raw columns -- with no list its
        numeric columns, with a list whatever the source did not list
        (:data:`~nblint.pipelines.flow.UNLISTED`), perhaps nothing but the target.
        """
        source = argument(node, 0, "data")
        chains = self.data_of(source) if source is not None else None
        listing = "columns" in call.params
        picked = self.column_names(source) if source is not None and not listing else None
        if picked is not None and source is not None:  # df["Sex"], df[["a", "b"]]: every column given is encoded
            return self._then(chains, [self.use(call, picked, self._series(source))])
        listed = names(call.params.get("columns")) if listing else None
        encoded, kept = [], []
        for chain in chains or ((),):
            into, passes = self._dummied(chain, listing, listed)
            if into:
                encoded.append(chain)
            if passes and chain:
                kept.append(chain)
        rest = (self.marked(call, UNLISTED, True),) if listing else ()
        return union(self._then(tuple(encoded) or None, [call]), tuple(kept) or None, (rest,))

    @staticmethod
    def _dummied(chain: tuple[Call, ...], listing: bool, listed: tuple[str, ...] | None) -> tuple[bool, bool]:
        """Whether a frame's route goes into ``get_dummies(frame)`` and whether (part of it) passes by it."""
        if raw(chain):
            return True, True
        last = chain[-1]
        if not same_names(last) or not listing:
            return False, True  # bits, or numbers get_dummies encodes only when listed
        if last.columns is None or listed is None:
            return True, False  # the source does not say which columns: read as encoded, as listed
        return bool(set(last.columns) & set(listed)), not set(last.columns) <= set(listed)

    def _transformed(self, node: ast.Call, receiver_node: ast.expr, source: ast.expr | None) -> Chains | None:
        """``receiver.fit_transform(source)`` (or ``source.apply(receiver.fit_transform)``, ``fit_resample``)."""
        receiver = self.expr(receiver_node)
        receivers = calls_in(receiver)
        if not receivers:
            chains = self.data_of(source) if source is not None else None
            if hasattr(receiver, "attrs"):  # an object of a class of the source: its method was read
                return chains
            # A transformer nblint cannot identify: what comes out is unknown, not the input unchanged.
            opaque = Call(f"<{ast.unparse(receiver_node)}>", mark=(node.lineno, node.col_offset + 1))
            return self._then(chains, [opaque])
        return self._applied(source, receivers)

    def _applied(self, source: ast.expr | None, transformers: list[Call]) -> Chains:
        """The data of ``source`` (the input, where none is given) through each of ``transformers``."""
        chains = self.data_of(source) if source is not None else None
        columns = self.column_names(unwrapped(source)) if source is not None else None
        return self._then(chains, [self.use(t, columns) for t in transformers])

    @staticmethod
    def _then(chains: Chains | None, uses: list[Call]) -> Chains:
        """Each chain (or the raw input) followed by each of ``uses``."""
        return tuple(chain + (use,) for use in uses for chain in chains or ((),))

    def parts_of(self, node: ast.expr) -> Parts | None:
        """The data of each element of a tuple result, with the expression it comes from (for the target).

        ``train_test_split(X, y)`` gives X's data to ``X_train, X_test`` and y's to
        ``y_train, y_test``; ``fit_resample(X, y)`` likewise; a source function
        returning a tuple gives each element's own data.
        """
        if not isinstance(node, ast.Call):
            return None
        self.expr(node)
        func = node.func
        dotted = self.resolve(func)
        if dotted is not None and dotted.rsplit(".", 1)[-1] == "train_test_split":
            arrays = [a for a in node.args if not isinstance(a, ast.Starred)]
            return [(self.data_of(a), a) for a in arrays for _ in (0, 1)]
        if isinstance(func, ast.Attribute) and func.attr in RESAMPLE_METHODS:
            features, target = argument(node, 0, "X"), argument(node, 1, "y")
            return [
                (self._transformed(node, func.value, features), features),
                (self.data_of(target) if target is not None else None, target),
            ]
        return self.call_parts.get((id(node), self.frame))

    # ---------------------------------------------------------------- the target

    def note_target(self, node: ast.expr | None) -> None:
        """Remember the columns ``node`` (a model's ``y``) stands for: they are the target, not features."""
        if node is None:
            return
        node = unwrapped(node)
        if isinstance(node, ast.Name):
            self.targets.update(self.chosen.get(node.id, ()))
        else:
            self.targets.update(self.column_names(node) or self.last_column(node) or ())

    def remember_selection(self, name: str, node: ast.expr | None) -> None:
        """``y = df["label"]``: the columns a name holds, should it be used as a target later."""
        columns = None
        if node is not None:
            node = unwrapped(node)
            if isinstance(node, (ast.Subscript, ast.Attribute)):
                columns = self.column_names(node) or self.last_column(node)
            elif isinstance(node, ast.Name):
                columns = self.chosen.get(node.id)
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "pop":
                columns = names(self.expr(node.args[0])) if node.args else None
        if columns:
            self.chosen[name] = columns
        else:
            self.chosen.pop(name, None)

    def last_column(self, node: ast.expr) -> tuple[str, ...] | None:
        """``df.iloc[:, -1]`` (a target picked by position): the column of ``df`` an encoder wrote last, alone.

        Which column is last is in the file, not in the source.  The order in which
        the source encoded the frame's columns one by one is the only evidence, and a
        tie-breaker only: the column written last is taken for the target when a
        ``LabelEncoder`` wrote it (the encoder scikit-learn documents for targets), so
        that the labels' encoder is not reported as a feature's.  Columns encoded
        together (a loop, ``df[cols] = ...``) give no such order.
        """
        if not (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute)):
            return None
        key = node.slice
        if node.value.attr != "iloc" or not isinstance(key, ast.Tuple) or len(key.elts) != 2:
            return None
        if self.expr(key.elts[1]) not in (-1, [-1]):
            return None
        frame = self._dotted_text(node.value.value)
        written = [
            chain[-1]
            for chain in self.data.get(frame or "", ()) or ()
            if chain and chain[-1].columns is not None and len(chain[-1].columns) == 1 and same_names(chain[-1])
        ]
        return written[-1].columns if written and written[-1].cls == "LabelEncoder" else None

    def fitted_on(self, chains: Chains) -> Chains | None:
        """What a model fitted on ``chains`` reads: encoders of the target left out, one encoder's column uses merged.

        An encoder of target columns only (``df["label"] = le.fit_transform(df["label"])``)
        is the target's business, not the features' (a target column left among the
        features is leakage, which no NB5xx rule is about).
        """
        # A chain that is nothing but the target's encoding is the target, not a raw route of features.
        kept = [
            stripped
            for chain in chains
            for stripped in [tuple(use for use in chain if not self._of_target(use))]
            if stripped or not chain
        ]
        merged: dict[tuple, tuple[Call, ...]] = {}
        for chain in kept:
            last = chain[-1] if chain else None
            base = self.base_of.get(id(last)) if last is not None else None
            if last is None or base is None:
                merged.setdefault((id(chain),), chain)
                continue
            key = (tuple(map(id, chain[:-1])), id(base))
            if key in merged:
                # (Every use in base_of was made for named columns: see use().)
                had = merged[key][-1].columns or ()
                columns = had + tuple(c for c in last.columns or () if c not in had)
                merged[key] = chain[:-1] + (self.use(base, columns),)
            else:
                merged[key] = chain
        return union(tuple(merged.values()))

    def _of_target(self, use: Call) -> bool:
        return use.columns is not None and len(use.columns) > 0 and same_names(use) and set(use.columns) <= self.targets
