"""Columns in Python sources: which encoded columns of a frame still reach a model.

Data preparation is recorded as chains of *uses* (:mod:`nblint.pipelines.pydata`):
an encoder or ``get_dummies`` call as applied to some columns.  This module
works out what happens to those uses when the source picks columns by name:

* written into columns (``df[col] = le.fit_transform(df[col])``, new columns
  ``df["outlook_n"] = ...``): the use now lives in the columns written; one-hot
  output written into a single column can only be one bit;
* selected (``df[["a", "b"]]``, ``df.a``): a use of other columns is left
  behind; after ``get_dummies``, the dummy columns selected tell which variables
  still reach the model as several bits (``sg_b, sg_c, ...``) and which as one
  (``Gender_Male`` alone);
* dropped (``df.drop(columns=[...])``, ``drop([...], axis=1)``): a use of the
  dropped columns is gone, and a dropped *level* column of ``get_dummies``
  leaves K-1 bits, as ``drop_first=True`` does.

A level is told from a column by name: with ``get_dummies(series)`` the dummies
are named by the levels alone, so a dropped name that the source never uses as a
column (``df["male"]`` appears nowhere, and no encoder of the frame wrote it) is a
level; with ``get_dummies(df)`` a level column is ``<column>_<level>``, and with a
``prefix`` (on a Series too) ``<prefix>_<level>``.  Where the names do not say,
the use is kept as it was: nothing is guessed away.

The columns ``get_dummies(frame, columns=[...])`` leaves alone are a use marked
:data:`~nblint.pipelines.flow.UNLISTED`: raw columns, if the frame has any; once
a selection names a column that is not one of the dummies, they are known to be
there, and the route is the raw one again.
"""

from __future__ import annotations

import ast
from typing import Any, Literal

from nblint.pipelines.calls import Call, OneOf
from nblint.pipelines.flow import DROPPED_LEVELS, ONE_COLUMN, RENAMED, UNLISTED
from nblint.pipelines.pystate import Chains, ReaderState
from nblint.pipelines.pyvalues import is_sequence

#: pandas attributes that are not columns (``df.values`` is the data, ``df.Sex`` a column).
FRAME_ATTRIBUTES = frozenset(
    {
        "values",
        "T",
        "loc",
        "iloc",
        "ix",
        "at",
        "iat",
        "columns",
        "index",
        "shape",
        "dtypes",
        "str",
        "dt",
        "cat",
        "sparse",
        "array",
        "plot",
        "size",
        "ndim",
        "empty",
        "name",
        "dtype",
        "A",
        "data",
        "toarray",
        "todense",
    }
)
#: pandas indexers; ``ix`` (removed in pandas 1.0, common in older code) takes labels as ``loc`` does.
INDEXERS = frozenset({"loc", "iloc", "ix", "at", "iat"})
LABEL_INDEXERS = frozenset({"loc", "ix"})
#: Encoders whose output is one-hot bits (named after levels, not after the columns given).
ONEHOT_USES = frozenset({"get_dummies", "OneHotEncoder", "LabelBinarizer", "DictVectorizer"})


def names(value: Any) -> tuple[str, ...] | None:
    """Column names a literal value stands for: a name, a list of names, the names a loop takes."""
    if isinstance(value, str):
        return (value,)
    if isinstance(value, OneOf):
        value = list(value.items)
    if is_sequence(value) and value and all(isinstance(v, str) for v in value):
        return tuple(value)
    return None


def same_names(use: Call) -> bool:
    """Whether this use's output keeps the names of the columns it was applied to (an encoder, not one-hot)."""
    return use.cls not in ONEHOT_USES


def unlisted(use: Call | None) -> bool:
    """Whether this use stands for the columns a ``get_dummies(frame, columns=[...])`` left alone."""
    return use is not None and use.params.get(UNLISTED) is True


def raw(chain: tuple[Call, ...]) -> bool:
    """Whether a chain is the input as given: no use, or the columns get_dummies left alone."""
    return not chain or unlisted(chain[-1])


class ColumnTracking(ReaderState):
    """The column half of the Python reader's data tracking (mixed into it; see the module docstring)."""

    def use(self, call: Call, columns: tuple[str, ...] | None, series: bool = False) -> Call:
        """The call as applied to ``columns``: the same parameters, the columns of this use (one object per use)."""
        if columns is None:
            return call
        key = (id(call), columns)
        found = self.uses.get(key)
        if found is None:
            found = Call(call.target, call.params, call.mark, call.marks, columns=columns)
            self.uses[key] = found
            self.base_of[id(found)] = call
            if series:
                self.series_uses.add(id(found))
        return found

    def marked(self, use: Call, param: str, value: Any, node: ast.expr | None = None) -> Call:
        """A copy of ``use`` with a fact the source established (:data:`~nblint.pipelines.flow.DROPPED_LEVELS`...)."""
        marks = dict(use.marks)
        if node is not None:
            marks[param] = (node.lineno, node.col_offset + 1)
        found = Call(use.target, {**use.params, param: value}, use.mark, marks, columns=use.columns)
        if id(use) in self.series_uses:
            self.series_uses.add(id(found))
        return found

    def _series(self, node: ast.expr) -> bool:
        """Whether ``node`` picks one column (``df["a"]``, ``df.a``): its dummies are named by the levels alone."""
        if isinstance(node, ast.Subscript):
            return isinstance(self.expr(node.slice), str)
        return isinstance(node, ast.Attribute) and node.attr not in FRAME_ATTRIBUTES

    def column_names(self, node: ast.expr | None) -> tuple[str, ...] | None:
        """The columns ``df[...]``, ``df.loc[:, ...]`` (``df.ix[:, ...]``) or ``df.a`` picks, where the source says."""
        if isinstance(node, ast.Subscript):
            key = node.slice
            if isinstance(node.value, ast.Attribute) and node.value.attr in INDEXERS:
                if node.value.attr not in LABEL_INDEXERS or not isinstance(key, ast.Tuple) or len(key.elts) != 2:
                    return None
                key = key.elts[1]
            return names(self.expr(key))
        if isinstance(node, ast.Attribute) and node.attr not in FRAME_ATTRIBUTES and isinstance(node.value, ast.Name):
            base = node.value.id
            if base not in self.imports and not isinstance(self.env.get(base), (Call, OneOf, dict, list, tuple)):
                return (node.attr,)  # df.Sex: a column of a frame (not a module's or a model's attribute)
        return None

    # ---------------------------------------------------------------- selecting

    def selected(self, chains: Chains | None, columns: tuple[str, ...] | None) -> Chains | None:
        """The chains still present after selecting ``columns``."""
        if chains is None or columns is None:
            return chains
        out = []
        asked = columns
        for chain in chains:
            last = chain[-1] if chain else None
            renamed = last.params.get(RENAMED) if last is not None else None
            columns = tuple(renamed.get(name, name) for name in asked) if isinstance(renamed, dict) else asked
            # A named column that is not one of the dummies is one get_dummies left alone.
            if last is not None and unlisted(last):
                if any(not self._dummy_name(last, name) for name in columns):
                    out.append(chain[:-1])
            elif last is None or last.columns is None and same_names(last):
                out.append(chain)  # the raw route, or an encoder of columns the source does not name
            elif last.columns is not None and same_names(last):
                if set(last.columns) & set(columns):
                    out.append(chain)
            else:
                narrowed = self._dummies_selected(last, columns)
                if narrowed is not False:
                    out.append(chain if narrowed is None else chain[:-1] + (narrowed,))
        return tuple(out) or None

    def _dummies_selected(self, use: Call, columns: tuple[str, ...]) -> Call | Literal[False] | None:
        """What selecting ``columns`` leaves of a one-hot use: False for none of its bits, a one-bit-per-variable
        copy when no variable keeps two bits, None when the names do not tell."""
        if use.cls != "get_dummies":
            return None
        prefixes = self._prefixes(use)
        separator = use.params.get("prefix_sep", "_")
        if prefixes is None and (
            id(use) in self.series_uses or use.params.get("prefix") is not None or not isinstance(separator, str)
        ):
            return None  # dummies named by their levels alone, or by prefixes the source does not spell
        groups: dict[str, int] = {}
        for name in columns:
            if prefixes is not None:
                prefix = next((p for p in prefixes if name.startswith(p)), None)
            else:  # get_dummies(df): <column><sep><level>, the column not named in the source
                prefix = name.rsplit(separator, 1)[0] if separator in name else None
            if prefix is not None:
                groups[prefix] = groups.get(prefix, 0) + 1
        if not groups:
            return False
        if max(groups.values()) == 1:
            return self.marked(use, ONE_COLUMN, True)
        return None

    def _prefixes(self, use: Call) -> list[str] | None:
        """How the dummy columns of a ``get_dummies`` use start (``"Sex_"``...), one per variable, where the
        source says: pandas names them ``<prefix><prefix_sep><level>``, the prefix being the column's name by
        default; a Series without a ``prefix`` gives the levels alone (None)."""
        separator = use.params.get("prefix_sep", "_")
        prefix = use.params.get("prefix")
        encoded = names(use.params.get("columns")) or use.columns
        if not isinstance(separator, str):
            return None
        if isinstance(prefix, str):  # one prefix for every column: it names one variable only if there is one
            return [f"{prefix}{separator}"] if id(use) in self.series_uses or encoded and len(encoded) == 1 else None
        if isinstance(prefix, OneOf) and all(isinstance(p, str) for p in prefix.items):
            return [f"{p}{separator}" for p in prefix.items]  # get_dummies(df[c], prefix=c) in a loop: one per column
        if isinstance(prefix, dict):
            prefix = list(prefix.values())
        if isinstance(prefix, list):
            return [f"{p}{separator}" for p in prefix] if prefix and all(isinstance(p, str) for p in prefix) else None
        if prefix is not None or id(use) in self.series_uses or not encoded:
            return None
        return [f"{p}{separator}" for p in encoded]

    def _dummy_name(self, use: Call, name: str) -> bool:
        """Whether ``name`` may be a dummy column of this ``get_dummies`` use (True where the names do not tell)."""
        prefixes = self._prefixes(use)
        return prefixes is None or any(name.startswith(p) for p in prefixes)

    def renamed(self, chains: Chains | None, mapping: dict) -> Chains | None:
        """``df.rename(columns={"sex_male": "Male"})``: the dummies of a ``get_dummies`` use keep what they are
        under their new names (a selection of ``Male`` is the bit ``sex_male``)."""
        if chains is None or not all(isinstance(k, str) and isinstance(v, str) for k, v in mapping.items()):
            return chains
        out = []
        for chain in chains:
            last = chain[-1] if chain else None
            if last is not None and last.cls == "get_dummies":
                earlier = last.params.get(RENAMED) or {}
                names = {new: earlier.get(old, old) for old, new in mapping.items()}
                chain = chain[:-1] + (self.marked(last, RENAMED, {**earlier, **names}),)
            out.append(chain)
        return tuple(out)

    # ---------------------------------------------------------------- writing

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
            existing = (
                tuple(
                    c
                    for c in existing
                    if not (c and c[-1].columns and same_names(c[-1]) and set(c[-1].columns) <= set(columns))
                )
                or None
            )
        if data:
            data = tuple(self._written(chain, columns) for chain in data if chain)
        chains = _union(existing, data)
        if chains:
            self.data[name] = chains
        else:
            self.data.pop(name, None)
        self.changed_in_place(name)

    def _written(self, chain: tuple[Call, ...], columns: tuple[str, ...] | None) -> tuple[Call, ...]:
        """A chain whose output is written into ``columns``: its last use now lives there (or, where the
        source does not say which columns those are, in columns it does not name)."""
        last = chain[-1]
        if not same_names(last):
            # One-hot output that fits in the columns written: one bit per column written.
            return chain[:-1] + (self.marked(last, ONE_COLUMN, True),) if columns and len(columns) == 1 else chain
        base = self.base_of.get(id(last), last)
        return chain[:-1] + (self.use(base, columns) if columns else base,)

    # ---------------------------------------------------------------- dropping

    def dropped(self, chains: Chains | None, node: ast.expr, left_out: frozenset[str] | None = None) -> Chains | None:
        """The chains after ``frame.drop(...)`` (or a selection of every column but ``left_out``, ``node`` then
        being where they were left out): encoded columns dropped, or a dummy level dropped by name."""
        dropped: set[str] | None
        if left_out is not None:
            dropped = set(left_out)
        else:
            dropped = self._drop_names(node) if isinstance(node, ast.Call) else None
        if chains is None or dropped is None:
            return chains
        # Columns an encoder of the frame wrote are columns, not levels of a get_dummies(series).
        written = {c for chain in chains for use in chain if use.columns and same_names(use) for c in use.columns}
        out = []
        for chain in chains:
            last = chain[-1] if chain else None
            if last is not None and last.columns and same_names(last) and set(last.columns) <= dropped:
                continue  # the encoded columns are gone
            if (
                last is not None
                and last.cls == "get_dummies"
                and DROPPED_LEVELS not in last.params
                and last.params.get("drop_first") is not True
                and not unlisted(last)
            ):
                levels = self._levels(last, dropped - written)
                if levels:
                    chain = chain[:-1] + (self.marked(last, DROPPED_LEVELS, levels, self._spelled_at(node, levels)),)
            out.append(chain)
        return tuple(out) or None

    def _spelled_at(self, node: ast.expr, levels: list[str]) -> ast.expr:
        """Where the source writes the names of the dropped ``levels``: the drop itself (``node``) when they are
        written in it, else the latest assignment before it of a name the drop reads whose value spells one
        (``remove = [..., "porte_Grande porte", ...]`` read by ``[c for c in df.columns if c not in remove]``).
        A finding about a dropped level points at the line that names it, as one about ``drop="first"``
        points at that parameter."""
        wanted = set(levels)

        def spells(tree: ast.AST) -> bool:
            return any(
                isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value in wanted for n in ast.walk(tree)
            )

        if spells(node):
            return node
        read = {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
        best: ast.expr | None = None
        for stmt in ast.walk(self.tree):
            if isinstance(stmt, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and stmt.value is not None:
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                if (
                    any(isinstance(t, ast.Name) and t.id in read for t in targets)
                    and stmt.lineno <= node.lineno
                    and spells(stmt.value)
                    and (best is None or stmt.value.lineno > best.lineno)
                ):
                    best = stmt.value
        return best if best is not None else node

    def _drop_names(self, node: ast.Call) -> set[str] | None:
        """The column names ``drop`` removes; None for rows, or names not written in the source."""
        columns = next((k.value for k in node.keywords if k.arg == "columns"), None)
        if columns is None:
            axis = next((k.value for k in node.keywords if k.arg == "axis"), None)
            if axis is None and len(node.args) > 1:
                axis = node.args[1]
            if axis is None or self.expr(axis) not in (1, "columns"):
                return None
            columns = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "labels"), None)
        found = names(self.expr(columns)) if columns is not None else None
        return set(found) if found else None

    def _levels(self, use: Call, dropped: set[str]) -> list[str]:
        """The dropped names that are level columns of this ``get_dummies`` use (every variable losing one)."""
        prefixes = self._prefixes(use)
        if prefixes is None:
            if id(use) in self.series_uses and use.params.get("prefix") is None:  # dummies named by the levels
                return sorted(n for n in dropped if n not in (use.columns or ()) and n not in self.column_references)
            return []
        per_variable = [[n for n in dropped if n.startswith(p)] for p in prefixes]
        if not all(per_variable):
            return []  # some variable keeps all its levels
        return sorted({n for found in per_variable for n in found})

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
                elif (
                    isinstance(node, ast.Attribute)
                    and isinstance(node.value, ast.Name)
                    and node.value.id not in self.imports
                ):
                    found.add(node.attr)
            self._column_references = found
        return self._column_references


def _union(*chain_sets: Chains | None) -> Chains | None:
    seen, out = set(), []
    for chains in chain_sets:
        for chain in chains or ():
            key = tuple(map(id, chain))
            if key not in seen:
                seen.add(key)
                out.append(chain)
    return tuple(out) or None
