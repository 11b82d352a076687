"""What each column is, and which Naive Bayes event model should read it.

Kinds are inferred from the profile only:

========================  =====================================================
kind                      evidence
========================  =====================================================
``target``                it is the class column
``constant``              one distinct value on every row, or every value missing
``identifier``            (nearly) a different value on every row
``group-member``          a member of a one-hot or dummy group (NB101, NB102)
``binary``                exactly two values: 0/1, true/false, "yes"/"no", 1/2 (not 2.5/3.7)
``categorical``           text with more than two values, or integer codes
``count``                 non-negative integers with more than two values
``continuous``            numbers that are not all whole
========================  =====================================================

Integer codes and counts are both small non-negative integers; they are told apart
by (in order) decoding a one-hot group (NB105: codes), a name hint (``*_code``,
``*_type``, ``region``... against ``n_*``, ``*_count``, ``visits``...), the spread
(more than ``MAX_CODE_LEVELS`` values, or gaps in the support, decide), and the shape
of the frequencies: counts of events (four or more values from 0 or 1) rise to a
single mode and fall away from it (Poisson-like), while codes of a categorical
variable have no reason to; three values count only as 0, 1, 2 with falling
frequencies.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from nblint.profile import TableProfile

#: Integer columns with more distinct values than this are counts (or measures), not codes.
MAX_CODE_LEVELS = 20
#: Text columns with more distinct values than this are high-cardinality.
HIGH_CARDINALITY = 50
#: Share of distinct values among the non-missing rows that makes a column an identifier.
IDENTIFIER_SHARE = 0.95

_CODE_HINT = re.compile(r"(^|_|\b)(code|codes|id|type|kind|cat|category|class|group|level|region|segment|status|zip|state|country|city|grade|label)s?($|_|\b)", re.I)
_COUNT_HINT = re.compile(r"(^|_|\b)(n|num|count|counts|cnt|qty|quantity|visits|calls|clicks|times|freq|frequency|total|sum|nb|number|occurrences|events)($|_|\b)", re.I)

MODEL_FOR_KIND = {
    "binary": "bernoulli",
    "group-member": "categorical",
    "categorical": "categorical",
    "count": "multinomial",
    "continuous": "gaussian",
    "identifier": None,
    "constant": None,
    "target": None,
}


@dataclass(frozen=True)
class ColumnKind:
    """A column's kind, the event model recommended for it, and why."""

    column: str
    kind: str
    model: str | None  # recommended event model; None: drop the column / not a feature
    why: str
    n_distinct: float | None
    group: str | None = None  # the group's label for group members

    def to_dict(self) -> dict:
        return {"column": self.column, "kind": self.kind, "model": self.model, "why": self.why,
                "n_distinct": None if self.n_distinct is None else round(self.n_distinct), "group": self.group}


def infer_kinds(profile: TableProfile, groups, code_columns=None) -> dict[str, ColumnKind]:
    """Kind of every column, in table order.

    Parameters
    ----------
    profile : TableProfile
    groups : list of nblint.structure.Group
        One-hot and dummy groups found in the table.
    code_columns : dict, optional
        Columns found to decode a group (NB105): they are categorical codes.
    """
    member_of = {m: g for g in groups for m in g.members}
    code_columns = code_columns or {}
    kinds = {}
    for column in profile.names:
        kind = _kind(profile, column, member_of.get(column))
        if column in code_columns and kind.kind in ("count", "continuous"):
            group = code_columns[column]
            kind = ColumnKind(column, "categorical", "categorical",
                              f"codes of the same variable as the group {group.label!r} (NB105): a categorical feature",
                              kind.n_distinct)
        kinds[column] = kind
    return kinds


def _kind(profile: TableProfile, column: str, group) -> ColumnKind:
    n_rows = profile.n_rows
    if column == profile.target:
        return ColumnKind(column, "target", None, "the class column", float(len(profile.classes)))
    n_missing = profile.n_missing(column)
    present = n_rows - n_missing
    n_distinct = profile.n_distinct(column)
    if present == 0:
        return ColumnKind(column, "constant", None, "every value is missing", 0.0)
    if n_distinct is not None and n_distinct <= 1:
        return ColumnKind(column, "constant", None, "the same value on every row", n_distinct)
    if group is not None:
        kind = "one-hot" if group.kind == "one-hot" else "drop-first dummy"
        why = f"member of the {kind} group {group.label!r}: model the collapsed variable as one categorical feature"
        return ColumnKind(column, "group-member", "categorical", why, n_distinct, group.label)
    text = column in profile.text
    whole = text or bool(profile.numeric.integral[profile.numeric.names.index(column)])
    if n_distinct is not None and n_distinct == 2 and whole:
        return ColumnKind(column, "binary", "bernoulli", "exactly two values: a Bernoulli feature", 2.0)
    if text:
        if n_distinct is None or (present >= 20 and n_distinct >= IDENTIFIER_SHARE * present):
            return ColumnKind(column, "identifier", None, "a different value on (nearly) every row: an identifier, not a feature", n_distinct)
        if n_distinct > HIGH_CARDINALITY:
            why = f"text with {n_distinct:.0f} values: categorical, high-cardinality (merge rare levels or drop)"
        else:
            why = f"text with {n_distinct:.0f} values: a categorical feature (ordinal codes for CategoricalNB)"
        return ColumnKind(column, "categorical", "categorical", why, n_distinct)
    j = profile.numeric.names.index(column)
    numeric = profile.numeric
    if not numeric.integral[j]:
        return ColumnKind(column, "continuous", "gaussian", _continuous_why(profile, j), n_distinct)
    if n_distinct is None or (present >= 20 and n_distinct >= IDENTIFIER_SHARE * present):
        if n_distinct is not None:
            return ColumnKind(column, "identifier", None, "whole numbers, a different one on (nearly) every row: an identifier", n_distinct)
        return ColumnKind(column, "continuous", "gaussian", "whole numbers with many values: a measurement", n_distinct)
    kind, why = _codes_or_counts(profile, column, j, n_distinct)
    return ColumnKind(column, kind, MODEL_FOR_KIND[kind], why, n_distinct)


def _continuous_why(profile: TableProfile, j: int) -> str:
    numeric = profile.numeric
    n = numeric.class_n[:, j].sum()
    mean = float(numeric.class_mean[:, j] @ numeric.class_n[:, j] / max(n, 1))
    # Total sum of squares = within-class + between-class parts.
    m2 = float(numeric.class_m2[:, j].sum() + (numeric.class_n[:, j] * (numeric.class_mean[:, j] - mean) ** 2).sum())
    sd = np.sqrt(m2 / max(n, 1))
    lo, hi = float(numeric.minimum[j]), float(numeric.maximum[j])
    if sd > 0 and lo >= 0 and (hi - mean) / sd > 6:
        return "continuous, non-negative with a long right tail: Gaussian after a log transform, or binned into categories"
    return "continuous values: a Gaussian feature (or binned into categories)"


def _codes_or_counts(profile: TableProfile, column: str, j: int, n_distinct: float) -> tuple[str, str]:
    numeric = profile.numeric
    lo, hi = float(numeric.minimum[j]), float(numeric.maximum[j])
    if _CODE_HINT.search(column):
        return "categorical", f"integer codes ({n_distinct:.0f} values; the name says codes): a categorical feature"
    if _COUNT_HINT.search(column) and lo >= 0:
        return "count", f"non-negative whole numbers ({n_distinct:.0f} values; the name says counts): a count feature"
    if lo < 0:
        if n_distinct <= MAX_CODE_LEVELS:
            return "categorical", f"integer codes including negatives ({n_distinct:.0f} values): a categorical feature"
        return "continuous", "whole numbers including negatives: a measurement, not counts"
    if n_distinct > MAX_CODE_LEVELS:
        return "count", f"non-negative whole numbers with {n_distinct:.0f} values: a count feature"
    levels = profile.levels(column)
    keys = np.array(levels.keys, dtype=np.float64)
    totals = levels.totals.astype(np.float64)
    support = hi - lo + 1
    if len(keys) < support * 0.75:
        return "categorical", f"integer codes with gaps ({len(keys)} of {support:.0f} values in {lo:.0f}..{hi:.0f} used): a categorical feature"
    # Frequencies over lo..hi; counts of events rise to one mode and fall away from it.
    freq = np.zeros(int(support))
    freq[(keys - lo).astype(int)] = totals
    if len(keys) >= 4 and lo <= 1 and _unimodal(freq):
        return "count", f"non-negative whole numbers ({n_distinct:.0f} values) whose frequencies fall away from one mode: a count feature"
    if len(keys) == 3 and lo == 0 and freq[0] > freq[1] > freq[2]:
        return "count", "whole numbers 0, 1, 2 with falling frequencies (Poisson-like): a count feature"
    return "categorical", f"a small set of integer codes ({n_distinct:.0f} values, frequencies with no single mode): a categorical feature"


def _unimodal(freq: np.ndarray, slack: float = 0.05) -> bool:
    """Frequencies that rise to one peak and fall after it (small wiggles allowed)."""
    peak = int(np.argmax(freq))
    tol = slack * freq.max()
    rising = np.all(np.diff(freq[: peak + 1]) >= -tol)
    falling = np.all(np.diff(freq[peak:]) <= tol)
    return bool(rising and falling)
