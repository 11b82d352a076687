"""One column as the rules read it: a record over the profile, so no rule indexes its arrays.

The profile keeps a table's statistics as arrays over all numeric columns (one pass,
mergeable); a rule asks about a column by name. :class:`ColumnRecord` is that
translation, in one place: the column's kind, whether it is text, its missing values,
its range, its levels and its per-class statistics over the classes that have rows.
Each field is read from the profile when first asked for.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from nblint.profile.levels import Levels
from nblint.profile.table import TableProfile
from nblint.structure.kinds import ColumnKind


class ColumnRecord:
    """What the profile knows of one feature column, by name.

    Parameters
    ----------
    profile : TableProfile
    name : str
    kind : ColumnKind
        The column's kind and recommended event model (the context's :attr:`kinds`).

    Attributes
    ----------
    name : str
    kind : ColumnKind
    text : bool
        Its values are strings (no range, no moments).
    """

    def __init__(self, profile: TableProfile, name: str, kind: ColumnKind):
        self._profile = profile
        self.name, self.kind = name, kind
        self.text = name in profile.text
        #: Position among the profile's numeric columns (None for text).
        self._j = None if self.text else profile.numeric.names.index(name)

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

    def _numeric(self, field: str):
        if self._j is None:
            return None
        return getattr(self._profile.numeric, field)[self._j]

    @property
    def minimum(self) -> float | None:
        """Its smallest value (None for text; NaN when every value is missing)."""
        return None if self._j is None else float(self._numeric("minimum"))

    @property
    def maximum(self) -> float | None:
        """Its largest value (None for text; NaN when every value is missing)."""
        return None if self._j is None else float(self._numeric("maximum"))

    @property
    def integral(self) -> bool | None:
        """Every non-missing value is whole (None for text)."""
        return None if self._j is None else bool(self._numeric("integral"))

    def _per_class(self, field: str) -> np.ndarray | None:
        if self._j is None:
            return None
        return getattr(self._profile.numeric, field)[: self._n_classes, self._j]

    @property
    def class_n(self) -> np.ndarray | None:
        """(C,) rows of each class where the column has a value (None for text)."""
        return self._per_class("class_n")

    @property
    def class_mean(self) -> np.ndarray | None:
        """(C,) the column's mean within each class (None for text)."""
        return self._per_class("class_mean")

    @property
    def class_m2(self) -> np.ndarray | None:
        """(C,) the column's centred sum of squares within each class (None for text)."""
        return self._per_class("class_m2")
