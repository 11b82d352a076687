"""What each column is, and which Naive Bayes event model should read it.

A kind is a conclusion from evidence in the profile: the values, whether they are
whole, their range and gaps, the shape of their frequencies, a group the column
belongs to or decodes, and the columns beside it on the same scale.  Names are
only a tie-breaker, used where the values do not decide.  Where the evidence is
not decisive the kind is *ambiguous*: the more likely reading is ``kind``, the
other is ``alternative``, and rules built on it are at most ``info``.  A kind the
user declared (``[tool.nblint.columns]``, the API, pandera) wins and is shown as
declared.

========================  =====================================================
kind                      evidence
========================  =====================================================
``target``                it is the class column
``constant``              one distinct value on every row, or every value missing
``identifier``            (nearly) a different value on every row
``group-member``          a member of a one-hot or dummy group (NB101, NB102)
``binary``                exactly two values: 0/1, true/false, "yes"/"no", 1/2
``categorical``           text, or integer codes (decoding a group, flat or gappy
                          frequencies, or a handful of levels)
``count``                 non-negative integers of a magnitude: Poisson-like or
                          smooth frequencies, many levels, or one of several
                          columns on the same 0..H scale (pixels, word counts)
``continuous``            numbers that are not all whole, or whole numbers over a
                          wide range
========================  =====================================================
"""

from __future__ import annotations

import fnmatch
import re
from enum import StrEnum
from typing import NamedTuple

import numpy as np

from nblint.structure.shapes import falls_from, frequencies, heaped, holes_in_the_middle, spread_evenly, unimodal

#: Non-negative integer columns with more distinct values than this are magnitudes, never codes.
MAX_CODE_LEVELS = 50
#: Whole numbers with many values whose smallest value is at least this share of the largest
#: sit far from zero: a measurement on an integer grid (an IQ, a length in mm), not a count.
OFFSET_SHARE = 0.05
#: A shared 0..H scale with H at least this has too many ordered steps to be codes.
SCALE_OF_COUNTS = 10
#: Text columns with more distinct values than this are high-cardinality.
HIGH_CARDINALITY = 50
#: Share of distinct values among the non-missing rows that makes a column an identifier.
IDENTIFIER_SHARE = 0.95
#: Words a text column's values hold on average to be documents (a label or a name holds a few).
DOCUMENT_WORDS = 5
#: Columns sharing one 0..H integer scale that make it a scale of counts or intensities.
SCALE_FAMILY = 5
#: Columns with at most this many distinct values are never read with confidence as counts or
#: measurements on their frequencies alone (three to five codes, or 0 / 0.5 / 1).
FEW_LEVELS = 5
#: Rows per distinct value (on average) before a few fractional values are read as levels.
REPEATS = 10
#: Largest ratio of the most to the least frequent level for "flat" frequencies (codes of a design).
FLAT_RATIO = 2.5

# Names break ties only; they never overrule the values. (Patterns compiled on first use, by ``re``'s
# cache: a table's columns ask, a block of words never does, and compiling both costs ~0.8 ms.)
_CODE_HINT = r"(?i)(^|_|\b)(code|codes|id|type|kind|cat|category|class|group|level|segment|status|zip)s?($|_|\b)"
_COUNT_HINT = (
    r"(?i)(^|_|\b)(n|num|count|counts|cnt|qty|quantity|visits|calls|clicks|times|freq|frequency|number|occurrences"
    r"|events)($|_|\b)"
)


class Kind(StrEnum):
    """What a column is to a Naive Bayes model; each kind has its event model (:data:`MODEL_FOR_KIND`).

    A string enum: a kind compares, hashes and prints as its value (``Kind.COUNT == "count"``).
    """

    BINARY = "binary"
    GROUP_MEMBER = "group-member"
    CATEGORICAL = "categorical"
    COUNT = "count"
    CONTINUOUS = "continuous"
    IDENTIFIER = "identifier"
    CONSTANT = "constant"
    TARGET = "target"


#: The event model each kind is read by (None: not a feature, or dropped).
MODEL_FOR_KIND: dict[Kind, str | None] = {
    Kind.BINARY: "bernoulli",
    Kind.GROUP_MEMBER: "categorical",
    Kind.CATEGORICAL: "categorical",
    Kind.COUNT: "multinomial",
    Kind.CONTINUOUS: "gaussian",
    Kind.IDENTIFIER: None,
    Kind.CONSTANT: None,
    Kind.TARGET: None,
}


class ColumnKind(NamedTuple):
    """A column's kind, the event model recommended for it, and why.

    A named tuple: immutable, and made in a third of the time of a frozen dataclass (a
    vocabulary has a kind per word: 27 ms against 8 ms for Reuters-8's 10,684).

    Attributes
    ----------
    alternative : str or None
        The other reading of an ambiguous column (None when the evidence decides).
    declared : bool
        The user declared the kind.
    """

    column: str
    kind: Kind
    model: str | None  # recommended event model; None: drop the column / not a feature
    why: str
    n_distinct: float | None
    group: str | None = None  # the group's label for group members
    alternative: Kind | None = None
    declared: bool = False

    @property
    def ambiguous(self) -> bool:
        return self.alternative is not None

    @property
    def status(self) -> str:
        """``declared``, ``ambiguous`` or ``inferred``."""
        return "declared" if self.declared else "ambiguous" if self.ambiguous else "inferred"

    def to_dict(self) -> dict:
        return {
            "column": self.column,
            "kind": str(self.kind),
            "model": self.model,
            "why": self.why,
            "n_distinct": None if self.n_distinct is None else round(self.n_distinct),
            "group": self.group,
            "status": self.status,
            "alternative": None if self.alternative is None else str(self.alternative),
        }


def declared_kind(column: str, declared: dict[str, str] | None) -> str | None:
    """The kind declared for ``column``: an exact name first, then the first matching glob (in given order)."""
    if not declared:
        return None
    if column in declared:
        return declared[column]
    for pattern, kind in declared.items():
        if any(ch in pattern for ch in "*?[") and fnmatch.fnmatchcase(column, pattern):
            return kind
    return None


#: Readings the values decide alone (:func:`~nblint.structure.wordkinds.term_kinds`, :func:`_constant_kind`,
#: :func:`_binary_kind`): kind, event model and why, by number.
_ALL_MISSING, _ONE_VALUE, _PRESENCE, _WORD_COUNT, _WORD_WEIGHT = range(5)
_READINGS: tuple[tuple[Kind, str | None, str], ...] = (
    (Kind.CONSTANT, None, "every value is missing"),
    (Kind.CONSTANT, None, "the same value on every row"),
    (Kind.BINARY, "bernoulli", "exactly two values: a Bernoulli feature"),
    (Kind.COUNT, "multinomial", "a word of a document-term block: its counts are what a multinomial text model reads"),
    (Kind.CONTINUOUS, "multinomial", "a word of a document-term block: a weight (tf-idf)"),
)


def infer_kinds(profile, groups, code_columns=None, declared=None, preset_at=None) -> dict[str, ColumnKind]:
    """Kind of every column but the preset ones, in table order.

    Parameters
    ----------
    profile : nblint.profile.table.TableProfile
    groups : list of nblint.structure.Group
        One-hot and dummy groups found in the table.
    code_columns : dict, optional
        Columns found to decode a group (NB105): they are categorical codes.
    declared : dict, optional
        Column name or glob -> kind (one of :data:`nblint.core.models.DECLARABLE_KINDS`); declared kinds win.
    preset_at : ndarray of int, optional
        Positions in table order of the columns whose kinds are already known (the words of a
        document-term block, :func:`nblint.structure.wordkinds.term_kinds`): left out.
    """
    member_of = {m: g for g in groups for m in g.members}
    code_columns = code_columns or {}
    scale = shared_scale(profile)
    names = profile.names
    # The columns left at once (a vocabulary's words are preset), then inferred one by one.
    left = names
    if preset_at is not None and len(preset_at):
        others = np.ones(len(names), dtype=bool)
        others[preset_at] = False
        left = np.array(names, dtype=object)[others].tolist()
    kinds: dict[str, ColumnKind] = {}
    for column in left:
        named = declared_kind(column, declared) if column != profile.target else None
        if named is not None:
            chosen = Kind(named)
            kinds[column] = ColumnKind(
                column, chosen, MODEL_FOR_KIND[chosen], f"declared {chosen}", profile.n_distinct(column), declared=True
            )
            continue
        kind = _kind(profile, column, member_of.get(column), scale)
        if column in code_columns and kind.kind in ("count", "continuous", "categorical"):
            group = code_columns[column]
            kind = ColumnKind(
                column,
                Kind.CATEGORICAL,
                "categorical",
                f"codes of the same variable as the group {group.label!r} (NB105): a categorical feature",
                kind.n_distinct,
            )
        kinds[column] = kind
    return kinds


def shared_scale(profile) -> float | None:
    """The top H of a 0..H integer scale that at least :data:`SCALE_FAMILY` columns reach exactly, if any."""
    numeric = profile.numeric
    # (every column at once: a vocabulary has tens of thousands)
    on_scale = numeric.integral & ~numeric.zero_one & (numeric.minimum == 0) & (numeric.maximum >= 2)
    if profile.target in numeric.names:  # (names are unique)
        on_scale[numeric.names.index(profile.target)] = False
    tops, n = np.unique(numeric.maximum[on_scale], return_counts=True)
    shared = tops[n >= SCALE_FAMILY]
    return float(shared.max()) if len(shared) else None


def _constant_kind(column: str, present: int, n_distinct: float | None) -> ColumnKind | None:
    """The kind of a column with no value, or one value on every row; None for any other column."""
    if present == 0:
        return ColumnKind(column, *_READINGS[_ALL_MISSING], 0.0)
    if n_distinct is not None and n_distinct <= 1:
        return ColumnKind(column, *_READINGS[_ONE_VALUE], n_distinct)
    return None


def is_documents(profile, column: str) -> bool:
    """Whether a text column holds documents: :data:`DOCUMENT_WORDS` words a value on average, on many values.

    A column of a few repeated phrases (a category spelt out) is categorical: documents
    are also (nearly) all different, more than :data:`HIGH_CARDINALITY` values.
    """
    stats = profile.text.get(column)
    if stats is None:
        return False
    present = profile.n_rows - stats.n_missing
    n_distinct = profile.n_distinct(column)
    many = n_distinct is None or n_distinct > HIGH_CARDINALITY
    return present > 0 and many and stats.words >= DOCUMENT_WORDS * present


def _binary_kind(column: str) -> ColumnKind:
    return ColumnKind(column, *_READINGS[_PRESENCE], 2.0)


def _kind(profile, column: str, group, scale: float | None) -> ColumnKind:
    n_rows = profile.n_rows
    if column == profile.target:
        return ColumnKind(column, Kind.TARGET, None, "the class column", float(len(profile.classes)))
    n_missing = profile.n_missing(column)
    present = n_rows - n_missing
    n_distinct = profile.n_distinct(column)
    constant = _constant_kind(column, present, n_distinct)
    if constant is not None:
        return constant
    if group is not None:
        kind = "one-hot" if group.kind == "one-hot" else "drop-first dummy"
        why = f"member of the {kind} group {group.label!r}: model the collapsed variable as one categorical feature"
        return ColumnKind(column, Kind.GROUP_MEMBER, "categorical", why, n_distinct, group.label)
    text = column in profile.text
    whole = text or bool(profile.numeric.integral[profile.numeric.names.index(column)])
    if n_distinct is not None and n_distinct == 2 and whole:
        return _binary_kind(column)
    if text:
        if is_documents(profile, column):
            words = profile.text[column].words / max(present, 1)
            return ColumnKind(
                column,
                Kind.IDENTIFIER,
                None,
                f"documents ({words:.0f} words a row on average), read here as one value per row: "
                f"lint their words with --text {column} (text = {column!r} in the config)",
                n_distinct,
            )
        if n_distinct is None or (present >= 20 and n_distinct >= IDENTIFIER_SHARE * present):
            return ColumnKind(
                column,
                Kind.IDENTIFIER,
                None,
                "a different value on (nearly) every row: an identifier, not a feature",
                n_distinct,
            )
        if n_distinct > HIGH_CARDINALITY:
            why = f"text with {n_distinct:.0f} values: categorical, high-cardinality (merge rare levels or drop)"
        else:
            why = f"text with {n_distinct:.0f} values: a categorical feature (ordinal codes for CategoricalNB)"
        return ColumnKind(column, Kind.CATEGORICAL, "categorical", why, n_distinct)
    j = profile.numeric.names.index(column)
    numeric = profile.numeric
    if not numeric.integral[j]:
        # A few values each seen on many rows are levels; a few values on a few rows say nothing.
        repeated = n_distinct is not None and present >= REPEATS * n_distinct
        if repeated and n_distinct == 2:
            # Two values however scaled (scikit-learn's diabetes ``sex`` is +-0.05): two levels.
            return _binary_kind(column)
        levels = profile.levels(column) if repeated and n_distinct <= FEW_LEVELS else None
        # Levels repeat apart from the most common one too: a mostly-zero weight with three values seen
        # once each (a word's tf-idf) is a measurement, where 0 / 0.5 / 1 on dozens of rows each is codes.
        if levels is not None and levels.totals.sum() - levels.totals.max() >= REPEATS * (n_distinct - 1):
            values = "/".join(f"{v:g}" for v in levels.keys)
            why = f"only {n_distinct:.0f} distinct values ({values}): codes of a few levels (ambiguous: could also be a coarse measurement)"
            return ColumnKind(column, Kind.CATEGORICAL, "categorical", why, n_distinct, alternative=Kind.CONTINUOUS)
        return ColumnKind(column, Kind.CONTINUOUS, "gaussian", _continuous_why(profile, j), n_distinct)
    with np.errstate(over="ignore"):  # (int64's or float64's ends: the span is inf, wider than any rows)
        span = float(numeric.maximum[j]) - float(numeric.minimum[j]) + 1
    if n_distinct is None or (present >= 20 and n_distinct >= IDENTIFIER_SHARE * present):
        # Row numbers and keys fill their range; measurements (a floor area, an income)
        # are as distinct but spread over a range far wider than the rows.
        if n_distinct is not None and (n_distinct >= 0.5 * span or re.search(_CODE_HINT, column)):
            return ColumnKind(
                column,
                Kind.IDENTIFIER,
                None,
                "whole numbers, a different one on (nearly) every row: an identifier",
                n_distinct,
            )
        if spread_evenly(numeric, j):
            why = (
                "whole numbers, a different one on (nearly) every row, spread evenly over their range like keys: "
                "an identifier (ambiguous: could also be a measurement)"
            )
            return ColumnKind(column, Kind.IDENTIFIER, None, why, n_distinct, alternative=Kind.CONTINUOUS)
        return ColumnKind(
            column, Kind.CONTINUOUS, "gaussian", "whole numbers with many values: a measurement", n_distinct
        )
    if n_distinct > MAX_CODE_LEVELS and n_distinct >= 0.9 * span and spread_evenly(numeric, j):
        # Keys repeated on a few rows each (a patient seen twice): they fill their range evenly.
        why = (
            f"{n_distinct:.0f} whole numbers filling {numeric.minimum[j]:.0f}..{numeric.maximum[j]:.0f} evenly, "
            f"each on about {present / n_distinct:.1f} rows: an identifier of repeated units "
            "(ambiguous: could also be counts)"
        )
        return ColumnKind(column, Kind.IDENTIFIER, None, why, n_distinct, alternative=Kind.COUNT)
    kind, alternative, why = _integer_kind(profile, column, j, n_distinct, scale)
    if alternative is not None:
        why += f" (ambiguous: could also be {_READING[alternative]})"
    read = Kind(kind)
    return ColumnKind(
        column,
        read,
        MODEL_FOR_KIND[read],
        why,
        n_distinct,
        alternative=None if alternative is None else Kind(alternative),
    )


_READING = {
    "identifier": "an identifier",
    "categorical": "categorical codes",
    "count": "counts (a magnitude)",
    "continuous": "a measurement",
}


def _continuous_why(profile, j: int) -> str:
    from nblint.nbmath.moments import Moments, pooled_variance  # (a continuous column's: a bag of words has none)

    numeric = profile.numeric
    n = numeric.class_n[:, j].sum()
    per_class = Moments(numeric.class_n[:, j : j + 1], numeric.class_mean[:, j : j + 1], numeric.class_m2[:, j : j + 1])
    # Values near float64's ends overflow the mean and spread to inf or nan: no tail is measured then.
    with np.errstate(over="ignore", invalid="ignore"):
        mean = float(numeric.class_mean[:, j] @ numeric.class_n[:, j] / max(n, 1))
        sd = float(np.sqrt(pooled_variance(per_class)[0]))
        lo, hi = float(numeric.minimum[j]), float(numeric.maximum[j])
        tail = (hi - mean) / sd if np.isfinite(mean) and 0 < sd < np.inf else 0.0
    if lo >= 0 and tail > 6:
        return (
            "continuous, non-negative with a long right tail: Gaussian after a log transform, or binned into categories"
        )
    return "continuous values: a Gaussian feature (or binned into categories)"


def _integer_kind(profile, column: str, j: int, n_distinct: float, scale: float | None) -> tuple[str, str | None, str]:
    """(kind, alternative or None, why) of a whole-number column with three or more values.

    The order is that of the strength of the evidence: the range and the number of
    levels, a shared 0..H scale, flat or gappy frequencies (codes of a design), a
    Poisson-like or smooth shape (a magnitude), and only then the name.
    """
    numeric = profile.numeric
    lo, hi = float(numeric.minimum[j]), float(numeric.maximum[j])
    k = int(n_distinct)
    if lo < 0:
        if k <= 12:
            return "categorical", "continuous", f"whole numbers including negatives with {k} values: codes"
        return "continuous", None, "whole numbers including negatives: a measurement, not counts"
    offset = lo > 0 and lo >= OFFSET_SHARE * hi
    if k > MAX_CODE_LEVELS:
        if offset:
            return "continuous", None, f"whole numbers with {k} values in {lo:.0f}..{hi:.0f}, far from 0: a measurement"
        return "count", None, f"non-negative whole numbers with {k} values from {lo:.0f}: a count feature"
    if scale is not None and lo == 0 and hi <= scale:
        why = f"on the same 0..{scale:.0f} scale as {SCALE_FAMILY} or more other columns"
        if scale >= SCALE_OF_COUNTS:
            return "count", None, f"{why}: counts or intensities"
        return "categorical", "count", f"{why}: a handful of ordered codes (or counts)"
    levels = profile.levels(column)
    keys = np.array(levels.keys, dtype=np.float64)
    totals = levels.totals.astype(np.float64)
    support = hi - lo + 1  # (a float: int64's and float64's ends are whole numbers too)
    freq = frequencies(keys, totals)
    named_code, named_count = bool(re.search(_CODE_HINT, column)), bool(re.search(_COUNT_HINT, column))
    if len(keys) == len(freq) and totals.max() <= FLAT_RATIO * totals.min():
        return (
            "categorical",
            "count",
            f"{k} integer levels {lo:.0f}..{hi:.0f}, all about equally frequent: codes of a design",
        )
    if k <= 20 and holes_in_the_middle(freq) and not heaped(keys, totals):
        return (
            "categorical",
            "count",
            f"integer codes with gaps ({k} of {support:.0f} values in {lo:.0f}..{hi:.0f} used)",
        )
    if lo <= 1 and falls_from(freq, lo) and not named_code:
        if k <= FEW_LEVELS or lo > 0:
            # Codes are often numbered from their most common level (stage 1, no difference 0,
            # a 1..7 scale whose second point is the mode): with a handful of values, or with
            # no zero (counts start at none), falling frequencies do not tell counts from codes.
            return (
                "count",
                "categorical",
                f"non-negative whole numbers ({k} values) whose frequencies fall away from the smallest",
            )
        return (
            "count",
            None,
            f"non-negative whole numbers ({k} values) whose frequencies fall away from the smallest: counts",
        )
    if k > 20 and offset:
        return "continuous", "count", f"whole numbers with {k} values in {lo:.0f}..{hi:.0f}, far from 0: a measurement"
    if k >= 5 and unimodal(freq) and not named_code:
        return "count", "categorical", f"whole numbers ({k} values) with smooth, single-peaked frequencies: a magnitude"
    if named_code and not named_count:
        return "categorical", "count", f"{k} integer values; the name suggests codes"
    if named_count and not named_code:
        return "count", "categorical", f"non-negative whole numbers ({k} values); the name suggests counts"
    if (lo == 0 and k >= 8) or k > 12:
        return "count", "categorical", f"{k} whole-number values {lo:.0f}..{hi:.0f}"
    return "categorical", "count", f"a small set of integer values ({k}, {lo:.0f}..{hi:.0f})"
