"""The leakage readings that need a pass of their own: threshold candidates, and levels past the cap.

The claims of :mod:`nblint.structure.leakage` come from the profile's contingency tables.
Two kinds of column have none: a measurement with more distinct values than
:data:`nblint.profile.table.DISTINCT_CAP`, and a discrete column past that cap. For each,
the profile says which columns are worth one more pass (:func:`threshold_candidates`: two
classes' means far apart in within-class standard deviations; :func:`past_cap_candidates`:
enough rows per estimated level), and a mergeable accumulator fed chunk by chunk counts
what the reading needs: per-class histograms over fixed bins (:class:`ThresholdScan`, whose
best cut between bins is a lower bound on the share of rows a threshold decides), or the
rows of each (value, class) pair (:class:`LevelScan`). The verdicts are leakage's
(:class:`~nblint.structure.leakage.DecidingColumn`, :func:`~nblint.structure.leakage.decides`).
"""

from __future__ import annotations

from itertools import compress
from typing import Any

import numpy as np

from nblint.profile.levels import PairLevels, level_sizes, sort_key
from nblint.structure.leakage import (
    LEVEL_KINDS,
    MIN_ROWS_PER_LEVEL,
    DecidingColumn,
    _best_threshold,
    decides,
    one_sided_threshold,
)

#: Standardised distance between two classes' means that makes a measurement a threshold candidate
#: (a cut that decides 99% of rows needs the classes far apart).
CANDIDATE_SEPARATION = 1.5
#: Bins of the per-class histograms a threshold is searched over.
HISTOGRAM_BINS = 1024


def _untabled(profile, kinds) -> list[tuple[str, Any]]:
    """``kinds``' items, in their order, without the numeric columns that have a table (0/1 or counted levels).

    A vocabulary's words all have a table: they leave as one set difference, never visited one by one.
    (Column names are unique: a table with a repeated name is refused when it is read.)
    """
    numeric = profile.numeric
    tabled = numeric.zero_one | (level_sizes(numeric.levels) >= 0)
    left = kinds.keys() - set(compress(numeric.names, tabled.tolist()))
    if len(left) == len(kinds):
        return list(kinds.items())
    return [(column, kinds[column]) for column in kinds if column in left] if left else []


def threshold_candidates(profile, kinds) -> list[str]:
    """Measurements without a contingency table whose two classes' means lie far apart (two-class targets)."""
    numeric = profile.numeric
    if len(profile.classes) != 2:
        return []
    # The numeric columns with a table, all at once (a vocabulary is tens of thousands): never candidates.
    position = numeric.names.positions()
    found = []
    for column, kind in _untabled(profile, kinds):
        if column in profile.text or kind.kind in ("target", "constant"):
            continue
        j = position[column]
        n_c, mean, m2 = numeric.class_n[:2, j], numeric.class_mean[:2, j], numeric.class_m2[:2, j]
        if min(n_c) < 2 or profile.n_missing(column):
            continue
        pooled = np.sqrt(m2.sum() / (n_c.sum() - 2))
        if pooled > 0 and abs(mean[1] - mean[0]) / pooled >= CANDIDATE_SEPARATION:
            found.append(column)
    return found


class ThresholdScan:
    """Per-class histograms of threshold candidates over fixed bins, filled chunk by chunk (mergeable)."""

    def __init__(self, profile, columns):
        numeric = profile.numeric
        self.columns = list(columns)
        self.edges = {
            c: np.linspace(
                numeric.minimum[numeric.names.index(c)], numeric.maximum[numeric.names.index(c)], HISTOGRAM_BINS + 1
            )
            for c in self.columns
        }
        self.counts = {c: np.zeros((HISTOGRAM_BINS, 2), dtype=np.int64) for c in self.columns}

    def add(self, values: dict, classes: np.ndarray) -> None:
        """Count one chunk: ``values`` column -> float array, ``classes`` the class slot of each row (2: none)."""
        for column in self.columns:
            x = values[column]
            bins = np.clip(np.searchsorted(self.edges[column], x, side="right") - 1, 0, HISTOGRAM_BINS - 1)
            for c in (0, 1):
                self.counts[column][:, c] += np.bincount(bins[classes == c], minlength=HISTOGRAM_BINS)

    def merge(self, other: ThresholdScan) -> None:
        """Add the counts of other rows (the same candidates and bins)."""
        for column in self.columns:
            self.counts[column] += other.counts[column]

    def results(self) -> list[DecidingColumn]:
        """The best cut between bins of each candidate (a lower bound on the best threshold's share)."""
        found = []
        for column in self.columns:
            table = self.counts[column]
            used = table.sum(axis=1) > 0
            edges = self.edges[column]
            # A cut after bin i sits at its upper edge: the reported threshold is that edge.
            best = _best_threshold(edges[1:][used], table[used], column)
            found.append(best)
        return found

    def one_sided(self, columns, class_rows, min_share: float, max_chance: float) -> list[DecidingColumn]:
        """The one-sided readings (:func:`one_sided_threshold`) of ``columns``, cut between bins."""
        used = {c: self.counts[c].sum(axis=1) > 0 for c in columns}
        tried = sum(max(int(u.sum()) - 1, 0) for u in used.values())
        found = []
        for column in columns:
            keys, table = self.edges[column][1:][used[column]], self.counts[column][used[column]]
            if len(keys) < 2:
                continue
            side = one_sided_threshold(keys, table, column, class_rows, min_share, max_chance, tried)
            if side is not None:
                found.append(side)
        return found


#: Slack on a distinct-value sketch's estimate (its relative error is about 3%) when choosing what to scan.
SKETCH_SLACK = 1.25


def past_cap_candidates(profile, kinds) -> list[str]:
    """Discrete columns with too many levels for a contingency table whose levels could decide the target.

    The level reading of :func:`deciding_columns` for columns past the profile's cap on
    distinct values (their levels are estimated, not counted): categorical columns with
    enough rows per level, as below the cap, and any discrete column with about as many
    values as the target has classes (the target relabelled, whatever the column looks
    like). The sketch's estimate only chooses what is scanned; the scan decides.
    """
    n_classes = len(profile.classes)
    if n_classes < 2:
        return []
    n = int(profile.class_count[:n_classes].sum())
    # The numeric columns with a table, all at once (a vocabulary is tens of thousands): never past the cap.
    found = []
    for column, kind in _untabled(profile, kinds):
        if kind.kind in ("target", "constant"):
            continue
        if profile.levels(column) is not None or profile.n_missing(column):
            continue
        distinct = profile.n_distinct(column)  # (None for a measurement: not discrete)
        if distinct is None or distinct * MIN_ROWS_PER_LEVEL > SKETCH_SLACK * n:
            continue
        if kind.kind in LEVEL_KINDS or distinct <= SKETCH_SLACK * n_classes:
            found.append(column)
    return found


class LevelScan:
    """Rows of each (value, class) pair of columns past the cap on levels, counted chunk by chunk (mergeable).

    Memory follows the distinct pairs (at most the rows), not levels x classes: a
    10,000-level column of a 10,000-class target is 10,000 pairs when it is the target.

    Parameters
    ----------
    columns : list of str
    n_classes : int
    max_pairs : int, optional
        Most distinct pairs a column may hold (the memory budget's share of it): a column
        with more is dropped from the scan and named in ``dropped``. A column's pairs only
        grow as rows are added, so which columns are dropped does not depend on how the
        rows were split into chunks or merged.
    """

    def __init__(self, columns, n_classes: int, max_pairs: int | None = None):
        self.columns, self.n_classes, self.max_pairs = list(columns), n_classes, max_pairs
        self.pairs = {c: _no_pairs() for c in self.columns}
        self.dropped: set[str] = set()

    def add(self, values: dict, classes: np.ndarray) -> None:
        """Count one chunk: ``values`` column -> array of values, ``classes`` each row's class slot."""
        import pandas as pd

        labelled = classes < self.n_classes
        for column in self.columns:
            if column in self.dropped:
                continue
            counts = pd.DataFrame({"value": values[column][labelled], "klass": classes[labelled]}).value_counts()
            self.pairs[column] = _add_counts(self.pairs[column], counts)
        self._drop_past_budget()

    def merge(self, other: LevelScan) -> None:
        """Add the counts of other rows (the same columns)."""
        self.dropped |= other.dropped
        for column in self.columns:
            self.pairs[column] = _add_counts(self.pairs[column], other.pairs[column])
        self._drop_past_budget()

    def _drop_past_budget(self) -> None:
        for column in self.columns:
            if column in self.dropped or (self.max_pairs is not None and len(self.pairs[column]) > self.max_pairs):
                self.dropped.add(column)
                self.pairs[column] = _no_pairs()

    def table(self, column: str) -> PairLevels | None:
        """The column's contingency table by its non-empty cells (None: not scanned, or dropped)."""
        if column not in self.pairs or column in self.dropped:
            return None
        frame = self.pairs[column].rename("rows").reset_index()
        values = frame["value"].tolist()
        keys = tuple(sorted(set(values), key=sort_key))
        index = {key: i for i, key in enumerate(keys)}
        level = np.fromiter(map(index.__getitem__, values), dtype=np.int64, count=len(values))
        klass, rows = frame["klass"].to_numpy(np.int64), frame["rows"].to_numpy(np.int64)
        order = np.lexsort((klass, level))
        return PairLevels(keys, level[order], klass[order], rows[order])

    def single_class(self, columns, min_rows: int) -> tuple[int, list[tuple]]:
        """Levels of ``min_rows`` rows or more tested, and those all in one class, as :func:`single_class_levels` counts them."""
        tested, candidates = 0, []
        for column in columns:
            pairs = self.pairs[column]
            if pairs.empty:
                continue
            frame = pairs.rename("rows").reset_index()
            per_value = frame.groupby("value", sort=True).agg(
                rows=("rows", "sum"), classes=("klass", "size"), klass=("klass", "min")
            )
            big = per_value[per_value["rows"] >= min_rows]
            tested += len(big)
            for value, row in big[big["classes"] == 1].iterrows():
                candidates.append((column, value, int(row["klass"]), int(row["rows"])))
        return tested, candidates

    def results(self, class_rows, min_share: float, level_columns, columns=None) -> list[DecidingColumn]:
        """Each column's level reading, where it decides the target (see :func:`past_cap_candidates`).

        ``level_columns`` are read as below the cap; the others only when each class is one
        value of theirs (the values' commonest classes are every class, once each). ``columns``:
        the columns read (default: all scanned).
        """
        n = int(np.sum(class_rows))
        found = []
        for column in self.columns if columns is None else columns:
            pairs = self.pairs[column]
            if pairs.empty:
                continue
            frame = (
                pairs.rename("rows")
                .reset_index()
                .sort_values(["value", "rows", "klass"], ascending=[True, False, True])
            )
            commonest = frame.drop_duplicates("value")  # each value's commonest class (ties: the first class)
            if len(commonest) < 2 or len(commonest) * MIN_ROWS_PER_LEVEL > n:
                continue
            relabelled = len(commonest) == len(class_rows) and commonest["klass"].nunique() == len(class_rows)
            if column not in level_columns and not relabelled:
                continue
            errors = n - int(commonest["rows"].sum())
            deciding = DecidingColumn(column, 1 - errors / n, "levels", errors=errors)
            if decides(deciding, class_rows, min_share):
                found.append(deciding)
        return found


def _no_pairs():
    """An empty pair count (pandas is imported only where a column is scanned)."""
    import pandas as pd

    return pd.Series(dtype=np.int64)


def _add_counts(a, b):
    """Two pair counts added (pairs in either)."""
    if a.empty:
        return b
    if b.empty:
        return a
    return a.add(b, fill_value=0).astype(np.int64)
