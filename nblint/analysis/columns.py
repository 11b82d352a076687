"""One column as the rules read it: a record over the profile, so no rule indexes its arrays.

The profile keeps a table's statistics as arrays over all numeric columns (one pass,
mergeable); a rule asks about a column by name. :class:`ColumnRecord` is that
translation, in one place: the column's kind, whether it is text, its missing values,
its range, its levels and its per-class statistics over the classes that have rows.
Each field is read from the profile when first asked for. The kinds themselves
(:func:`column_kinds`) are the structure's inference, the words of a document-term
block preset as counts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cached_property

import numpy as np

from nblint.core.records import Record
from nblint.profile.levels import Levels, counts_below, level_sizes
from nblint.profile.table import TableProfile
from nblint.readers import name_mask
from nblint.structure.kinds import ColumnKind, declared_kind, infer_kinds
from nblint.structure.wordkinds import Kinds, kind_names, model_names, of_kinds, term_kinds


class KindIndex:
    """Every column's kind as arrays in table order: the columns of some kinds read at once.

    Several rules ask for the columns of a few kinds, each over every column of a vocabulary;
    a comparison of one array per kind asked replaces a Python pass over tens of thousands of kinds.
    """

    def __init__(self, kinds: Mapping[str, ColumnKind]):
        self.names = np.array(list(kinds), dtype=object)
        self.kinds = kind_names(kinds)
        self._values = kinds

    @cached_property
    def models(self) -> np.ndarray:
        """Every column's recommended event model (None: not a feature), made when first asked for."""
        return model_names(self._values)

    def columns(self, *wanted: str, model: str | None = None) -> list[str]:
        """The columns of the ``wanted`` kinds, in table order (a new list); with ``model``, only those read by it."""
        chosen = of_kinds(self.kinds, wanted)
        if model is not None:
            chosen &= self.models == model
        return self.names[chosen].tolist()


def column_kinds(ctx) -> Kinds:
    """Every column's kind and recommended event model (see :mod:`nblint.structure.kinds`).

    The words of a document-term block are counts (or, fractional, weights read as
    measurements) whatever a single word looks like: a word with three distinct counts
    is not a categorical code. Group members, 0/1 words and declared kinds keep their kind.
    """
    groups = ctx.structure.groups
    members = {m for g in groups for m in g.members}
    terms, declared = ctx.term_columns, ctx.declared_kinds
    # The words by mask over the numeric columns (a vocabulary's tens of thousands: no look-up by name).
    names = ctx.profile.numeric.names
    words = name_mask(names, terms)
    if members:
        words &= ~name_mask(names, members)
    if declared:
        for k in np.flatnonzero(words).tolist():
            words[k] = declared_kind(names[k], declared) is None
    at = np.flatnonzero(words)
    terms = term_kinds(ctx.profile, at)
    # The words' places in table order (the kinds' order), then every other column's kind inferred.
    table = ctx.profile.names
    index = dict(zip(table, range(len(table))))  # (names are unique)
    if tuple(table[: len(names)]) == tuple(names):  # (a matrix's numeric columns lead its table, in order)
        word_at = at.astype(np.intp, copy=False)
    else:
        word_at = np.fromiter(map(index.__getitem__, terms.columns), dtype=np.intp, count=len(terms.columns))
    chosen = infer_kinds(ctx.profile, groups, ctx.structure.code_columns, ctx.declared_kinds, word_at)
    return Kinds(index, chosen, word_at, terms)


class ColumnRecord:
    """What the profile knows of one feature column, by name.

    Parameters
    ----------
    profile : TableProfile
    name : str
    kinds : callable
        Returns the context's kinds (column -> :class:`ColumnKind`), computed when first asked for.

    Attributes
    ----------
    name : str
    text : bool
        Its values are strings (no range, no moments).
    """

    def __init__(self, profile: TableProfile, name: str, kinds: Callable[[], Mapping[str, ColumnKind]]):
        self._profile, self._kinds = profile, kinds
        self.name = name
        self.text = name in profile.text
        numeric = profile.numeric.names
        #: Position among the profile's numeric columns (None for text).
        self._j = None if self.text or name not in numeric else numeric.index(name)

    @property
    def kind(self) -> ColumnKind:
        """Its kind and recommended event model (:mod:`nblint.structure.kinds`)."""
        return self._kinds()[self.name]

    @property
    def _n_classes(self) -> int:
        return len(self._profile.classes)

    @cached_property
    def missing(self) -> int:
        """Rows where the column has no value."""
        return self._profile.n_missing(self.name)

    @cached_property
    def levels(self) -> Levels | None:
        """Its contingency table over the class slots (0/1 columns included), None past the cap on levels."""
        return self._profile.levels(self.name)

    @cached_property
    def class_table(self) -> tuple[tuple, np.ndarray] | None:
        """(level keys, counts[level, class]) for the classes that have rows; None if unknown."""
        levels = self.levels
        if levels is None:
            return None
        return levels.keys, levels.table[:, : self._n_classes]

    @property
    def n_distinct(self) -> float | None:
        """Distinct non-missing values: exact up to the cap, else estimated; None if unknown."""
        return self._profile.n_distinct(self.name)

    def _numeric(self, field: str, per_class: bool = False):
        """Its entry of the profile's numeric array ``field`` ((C,) over the classes with rows if ``per_class``)."""
        if self._j is None:
            raise TypeError(f"column {self.name!r} is not numeric: it has no {field}")
        values = getattr(self._profile.numeric, field)
        return values[: self._n_classes, self._j] if per_class else values[self._j]

    @property
    def minimum(self) -> float:
        """Its smallest value (NaN when every value is missing; a numeric column's only)."""
        return float(self._numeric("minimum"))

    @property
    def maximum(self) -> float:
        """Its largest value (NaN when every value is missing; a numeric column's only)."""
        return float(self._numeric("maximum"))

    @property
    def integral(self) -> bool:
        """Every non-missing value is whole (a numeric column's only)."""
        return bool(self._numeric("integral"))

    @property
    def class_n(self) -> np.ndarray:
        """(C,) rows of each class where the column has a value (a numeric column's only)."""
        return self._numeric("class_n", per_class=True)

    @property
    def class_mean(self) -> np.ndarray:
        """(C,) the column's mean within each class (a numeric column's only)."""
        return self._numeric("class_mean", per_class=True)

    @property
    def class_m2(self) -> np.ndarray:
        """(C,) the column's centred sum of squares within each class (a numeric column's only)."""
        return self._numeric("class_m2", per_class=True)


# --------------------------------------------------------------------------- many columns at once


def columns_with_missing(profile: TableProfile) -> set[str]:
    """The columns that may have missing values: numeric ones with a missing count, and every text column.

    (A set, not a record per column: a vocabulary's tens of thousands of words have none.)
    """
    numeric = profile.numeric
    return {numeric.names[j] for j in np.flatnonzero(numeric.n_missing).tolist()} | set(profile.text)


class NegativeColumns(Record):
    """The numeric columns with negative values, in table order, as arrays (a signed hash has thousands).

    Attributes
    ----------
    names : list of str
    minimum : ndarray
        Each column's minimum.
    cells : ndarray of int
        Its cells below 0, where its levels are tabled (``counted``), else 0.
    counted : ndarray of bool
        Its negative cells are known (False: past the level cap).

    (Written out: a named tuple's class costs a fresh process ~0.4 ms to create; none reads this as a tuple.)
    """

    __slots__ = ("names", "minimum", "cells", "counted")

    def __init__(self, names: list[str], minimum: np.ndarray, cells: np.ndarray, counted: np.ndarray) -> None:
        self.names = names
        self.minimum = minimum
        self.cells = cells
        self.counted = counted


def negative_columns(profile: TableProfile, columns, order: dict[str, int]) -> NegativeColumns:
    """The ``columns`` (numeric) with a negative value, in table order, each with its rows below 0.

    Every column is read at once, from the profile's arrays: its minimum, and its negative
    cells from the level tables (a vocabulary of words has thousands).
    """
    numeric = profile.numeric
    chosen = columns if isinstance(columns, (set, frozenset)) else set(columns)
    # The columns below 0 first, from the minima (an unsigned hashed block has none): only those are looked up.
    below = np.flatnonzero(numeric.minimum < 0)
    below_names = np.array(list(map(numeric.names.__getitem__, below.tolist())), dtype=object)
    kept = np.fromiter(map(chosen.__contains__, below_names.tolist()), dtype=bool, count=len(below))
    names, at = below_names[kept], below[kept]
    in_order = np.argsort(np.fromiter(map(order.__getitem__, names.tolist()), dtype=np.int64, count=len(names)))
    names, at = names[in_order], at[in_order]
    counted = level_sizes(numeric.levels)[at] >= 0
    below = counts_below(numeric.levels, 0.0, numeric.class_n.shape[0]).sum(axis=0)[at] if len(at) else at
    return NegativeColumns(names.tolist(), numeric.minimum[at], np.where(counted, below, 0), counted)
