"""A document-term block's kinds as arrays: every word's reading by position, a word's kind made when asked.

A vocabulary has tens of thousands of words, each a count (or a tf-idf weight) whatever it
looks like alone (:mod:`nblint.structure.kinds` says why). Their readings are decided for all
at once from the profile's arrays (:func:`term_kinds`) and kept as arrays in :class:`Kinds`, the
mapping column -> :class:`~nblint.structure.kinds.ColumnKind` the rules read: a rule asks for a
few columns' kinds by name, and for every column's kind or model as one array, so a check makes,
keeps and frees no kind per word.
"""

from __future__ import annotations

from collections.abc import Iterator, KeysView, Mapping
from operator import attrgetter

import numpy as np

from nblint.core.records import Record
from nblint.profile.levels import level_sizes
from nblint.structure.kinds import (
    _ALL_MISSING,
    _ONE_VALUE,
    _PRESENCE,
    _READINGS,
    _WORD_COUNT,
    _WORD_WEIGHT,
    REPEATS,
    ColumnKind,
)


def term_kinds(profile, at: np.ndarray) -> TermKinds:
    """The kinds of the words of a document-term block, from the profile's arrays (no :class:`ColumnKind` made).

    A word is a count (a weight, tf-idf, when its values are not whole) read by a
    multinomial text model, whatever a single word looks like: a word with three distinct
    counts is not a categorical code. A word with two values is binary (presence), a word
    with one constant. The caller leaves out words that are group members or declared.

    ``at``: the words' positions among the profile's numeric columns, increasing (a vocabulary's
    words are found by mask, never looked up by name one by one).
    """
    numeric = profile.numeric
    names = numeric.names
    columns = list(names) if len(at) == len(names) else list(map(names.__getitem__, at.tolist()))
    # Every word's evidence at once, from the profile's arrays (a vocabulary has tens of thousands):
    # the 0/1 words' distinct values from their level counts, the others' from their tables.
    zero_one_distinct = sum((counts.sum(axis=0) > 0).astype(np.int64) for counts in numeric.level_counts)
    distinct = np.where(numeric.zero_one, zero_one_distinct, level_sizes(numeric.levels))  # -1: past the cap
    present = profile.n_rows - numeric.n_missing[at]
    n_distinct = distinct[at].astype(np.float64)
    for k in np.flatnonzero(n_distinct < 0).tolist():  # (a word past the level cap: its estimate)
        estimate = profile.n_distinct(columns[k])
        n_distinct[k] = np.nan if estimate is None else estimate
    integral = numeric.integral[at]
    # Each word's reading, as _constant_kind and _binary_kind would give it, decided for all at once.
    reading = np.select(
        [
            present == 0,
            n_distinct <= 1,
            (n_distinct == 2) & (integral | (present >= REPEATS * 2)),
            integral,
        ],
        [_ALL_MISSING, _ONE_VALUE, _PRESENCE, _WORD_COUNT],
        _WORD_WEIGHT,
    )
    n_distinct[reading == _ALL_MISSING] = 0.0
    n_distinct[reading == _PRESENCE] = 2.0
    shown = n_distinct.astype(object)
    shown[np.isnan(n_distinct)] = None  # (NaN: unknown)
    return TermKinds(columns, reading, shown)


class TermKinds(Record):
    """The kinds of a document-term block's words, as arrays (:func:`term_kinds`).

    Attributes
    ----------
    columns : list of str
        The words.
    reading : ndarray of int
        Each word's reading: its row of :data:`_READINGS` (kind, event model, why).
    shown : ndarray of object
        Each word's distinct values (``ColumnKind.n_distinct``: a float, None when unknown).

    (Written out: a named tuple's class costs a fresh process ~0.4 ms to create; none reads this as a tuple.)
    """

    __slots__ = ("columns", "reading", "shown")

    def __init__(self, columns: list[str], reading: np.ndarray, shown: np.ndarray) -> None:
        self.columns = columns
        self.reading = reading
        self.shown = shown


#: Each reading's kind and event model, as object arrays indexed by reading.
_READING_KINDS = np.array([reading[0] for reading in _READINGS], dtype=object)
_READING_MODELS = np.array([reading[1] for reading in _READINGS], dtype=object)


class Kinds(Mapping):
    """Every column's kind by name, in table order: a read-only mapping column -> :class:`ColumnKind`.

    A document-term block's words (a vocabulary's tens of thousands) are held as arrays, their
    reading and distinct values by table position, and a word's :class:`ColumnKind` is made only
    when it is asked for by name: a check reads the kinds of a few columns by name, and of every
    column as the arrays :attr:`kind_names` and :attr:`models`, so no kind per word is made, kept
    or freed. The other columns' kinds are kept as they were inferred.

    Parameters
    ----------
    index : dict
        Column -> its position in table order (the mapping's order); read, never changed.
    chosen : dict
        The kinds of the columns that are not preset words.
    word_at : ndarray of int
        The preset words' positions in table order.
    words : TermKinds
        Their readings (:func:`term_kinds`), in the order of ``word_at``.
    """

    def __init__(self, index: dict[str, int], chosen: dict[str, ColumnKind], word_at: np.ndarray, words: TermKinds):
        self._index, self._known = index, chosen  # (the words' kinds join ``_known`` as they are asked for)
        n = len(index)
        self._reading = np.full(n, -1, dtype=np.int64)  # (-1: a column of ``chosen``)
        self._reading[word_at] = words.reading
        self._shown = np.empty(n, dtype=object)
        self._shown[word_at] = words.shown
        at = np.fromiter(map(index.__getitem__, chosen), dtype=np.intp, count=len(chosen))
        #: Every column's :class:`Kind`, in table order (object array).
        self.kind_names = np.empty(n, dtype=object)
        self.kind_names[word_at] = _READING_KINDS[words.reading]
        self.kind_names[at] = np.fromiter(map(attrgetter("kind"), chosen.values()), dtype=object, count=len(at))
        #: Every column's recommended event model (None: not a feature), in table order (object array).
        self.models = np.empty(n, dtype=object)
        self.models[word_at] = _READING_MODELS[words.reading]
        self.models[at] = np.fromiter(map(attrgetter("model"), chosen.values()), dtype=object, count=len(at))

    def __getitem__(self, column: str) -> ColumnKind:
        known = self._known.get(column)
        if known is not None:
            return known
        k = self._index[column]  # (KeyError: no such column)
        kind, model, why = _READINGS[self._reading[k]]
        # Kept once made: a rule that reads every word by name (a model declared over a vocabulary) asks again.
        made = self._known[column] = ColumnKind(column, kind, model, why, self._shown[k])
        return made

    def __contains__(self, column) -> bool:
        return column in self._index

    def __iter__(self) -> Iterator[str]:
        return iter(self._index)

    def __len__(self) -> int:
        return len(self._index)

    def keys(self) -> KeysView[str]:
        """The columns in table order, as a dictionary's view (its set operations run in C)."""
        return self._index.keys()

    def __repr__(self) -> str:
        return f"Kinds({len(self)} columns)"


def kind_names(kinds: Mapping[str, ColumnKind]) -> np.ndarray:
    """Every column's :class:`Kind` in the order of ``kinds``, as an object array (:class:`Kinds` holds it)."""
    if isinstance(kinds, Kinds):
        return kinds.kind_names
    return np.fromiter(map(attrgetter("kind"), kinds.values()), dtype=object, count=len(kinds))


def of_kinds(kinds: np.ndarray, wanted) -> np.ndarray:
    """Which entries of ``kinds`` (an array of kinds, as :func:`kind_names` gives) are one of ``wanted``."""
    chosen = np.zeros(len(kinds), dtype=bool)
    for kind in wanted:
        chosen |= kinds == kind
    return chosen


def model_names(kinds: Mapping[str, ColumnKind]) -> np.ndarray:
    """Every column's recommended event model in the order of ``kinds``, as an object array."""
    if isinstance(kinds, Kinds):
        return kinds.models
    return np.fromiter(map(attrgetter("model"), kinds.values()), dtype=object, count=len(kinds))


def models_of(kinds: Mapping[str, ColumnKind], columns: list[str]) -> list[str | None]:
    """The recommended event model of each of ``columns``, read by position from :class:`Kinds`' array."""
    if isinstance(kinds, Kinds):
        at = np.fromiter(map(kinds._index.__getitem__, columns), dtype=np.intp, count=len(columns))
        return kinds.models[at].tolist()
    return [kinds[column].model for column in columns]
