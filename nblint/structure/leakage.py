"""What separates the classes beyond chance: single-class levels, and columns that decide the target.

Both are claims about chance, so both carry it:

* a level seen with one class only (perfect separation on that level) is reported
  only where chance cannot explain it.  Under independence, the ``r`` rows of a
  level fall in one class with probability ``sum_c C(n_c, r) / C(n, r)``
  (hypergeometric: ``n_c`` the rows of class c among the ``n`` rows with a class);
  that chance is multiplied by the number of levels tested, over every column
  (Bonferroni), and compared with a false-alarm level;
* a column that decides the target on (nearly) every row: each of its levels is
  (almost) always one class — the target *equals* a relabelling of it — or, for a
  two-class target, one threshold on its values gives the class on 99%+ of rows;
* a column that decides one side: for a two-class target, one side of a threshold
  (``expenditure > 0``) holds one class with (nearly) no exception, on a large part
  of the rows, and the other class lies only on the other side.  The rows the reading
  gets wrong are then all on one side, the signature of a label written from the
  column (a card is "yes" because there is spending) rather than of a strong feature,
  whose errors fall on both sides of its best cut.  It is reported below 99% of the
  rows, but only where chance cannot explain the pure side: under independence its
  ``r`` rows fall in one class with probability ``sum_c C(n_c, r) / C(n, r)``, times
  the number of cuts tried (Bonferroni).
  Identifiers decide every row trivially (one row per level), so the level reading
  needs several rows per level; the threshold reading does not (an ID range per
  class is a leak too).

Both readings come from the profile's contingency tables (columns with up to
:data:`nblint.profile.table.DISTINCT_CAP` distinct values); the level reading is for
discrete columns only (a measurement whose values happen to repeat per group, a
team's payroll, is not a relabelling of the class).  A measurement with more
distinct values than that is a threshold candidate when the two classes' means lie
far apart in within-class standard deviations; one pass over the candidates then
histograms each class's values, and the best cut between histogram bins gives a lower
bound on the share of rows a threshold decides (:mod:`nblint.structure.leakage_scans`).
"""

from __future__ import annotations

from itertools import repeat
from math import exp, lgamma
from typing import NamedTuple

import numpy as np

from nblint.core.records import Record
from nblint.profile.levels import PackedLevels, level_reading_right, level_sizes
from nblint.structure.wordkinds import kind_names, of_kinds

#: Kinds whose levels are scanned for single-class levels (counts and measurements are
#: magnitudes: a value of theirs that goes with one class is a threshold, NB208's matter).
LEVEL_KINDS = ("binary", "group-member", "categorical")
#: Average rows per level a column needs before its levels can be said to decide the target.
MIN_ROWS_PER_LEVEL = 10
#: Kinds whose levels can decide the target: the level kinds, and identifiers, whose values repeated
#: on ten rows or more each (:data:`MIN_ROWS_PER_LEVEL`) are the units of a panel (a state code on
#: every state-year): a class constant within each unit is read off the unit's id.
DECIDING_LEVEL_KINDS = LEVEL_KINDS + ("identifier",)


class SingleClassLevel(Record):
    """A level all of whose rows are in one class, with the chance of that.

    (Written out: a named tuple's class costs a fresh process ~0.4 ms to create; none reads this as a tuple.)
    """

    __slots__ = ("column", "value", "klass", "rows", "chance", "corrected")

    def __init__(self, column: str, value: object, klass: int, rows: int, chance: float, corrected: float) -> None:
        self.column = column
        self.value = value
        self.klass = klass  # index into profile.classes
        self.rows = rows
        #: Probability, under independence, of a level this size falling in one class.
        self.chance = chance
        #: ``chance`` times the number of levels tested (Bonferroni), capped at 1.
        self.corrected = corrected


class DecidingColumn(NamedTuple):
    """A column from which the target can be read on (nearly) every row."""

    column: str
    #: Share of rows whose class the column gives.
    share: float
    #: "threshold" (two classes, a cut on the values) or "levels" (each level one class).
    how: str
    #: The cut, for "threshold": class ``above`` where value > threshold.
    threshold: float | None = None
    above: int | None = None
    #: Rows it gets wrong.
    errors: int = 0
    #: For a one-sided reading: the rows on the pure side, whether it is the side above the
    #: threshold, the rows of another class among them, and the chance of so pure a side, corrected.
    pure_rows: int = 0
    pure_above: bool = False
    exceptions: int = 0
    chance: float | None = None

    @property
    def one_sided(self) -> bool:
        """Whether the column decides one side only (its errors all on the other side)."""
        return self.chance is not None

    @property
    def pure_class(self) -> int:
        """The class of a one-sided reading's pure side (two classes: 0 or 1)."""
        above = int(self.above or 0)
        return above if self.pure_above else 1 - above


def _log_choose(n: int, k: int) -> float:
    return lgamma(n + 1) - lgamma(k + 1) - lgamma(n - k + 1)


def one_class_chance(rows: int, class_rows) -> float:
    """``sum_c C(n_c, r) / C(n, r)``: the chance that ``rows`` rows drawn at random share one class."""
    n = int(sum(class_rows))
    if rows <= 1:
        return 1.0
    log_total = _log_choose(n, rows)
    return min(1.0, sum(exp(_log_choose(int(n_c), rows) - log_total) for n_c in class_rows if n_c >= rows))


def scanned_columns(profile, kinds) -> list[str]:
    """Columns whose levels are scanned: binary, group members and categorical codes."""
    numeric, text = profile.numeric, profile.text
    # (arrays: a vocabulary has thousands of 0/1 words; their tables come from the class counts, the
    # others' from the packed levels: none is made here)
    with_table = numeric.zero_one | (level_sizes(numeric.levels) >= 0)
    columns = list(kinds)
    chosen = of_kinds(kind_names(kinds), LEVEL_KINDS)
    at = np.fromiter(map(numeric.names.positions().get, columns, repeat(-1)), dtype=np.int64, count=len(columns))
    tabled = np.zeros(len(columns), dtype=bool)
    tabled[at >= 0] = with_table[at[at >= 0]]
    for k in np.flatnonzero(chosen & (at < 0)).tolist():  # (a text column has a table when its levels are known)
        tabled[k] = text[columns[k]].levels is not None
    return np.array(columns, dtype=object)[chosen & tabled].tolist()


def single_class_levels(profile, columns, min_rows: int, max_chance: float, counted=(0, ())) -> list[SingleClassLevel]:
    """Levels seen in one class only that chance cannot explain (see the module docstring).

    ``columns`` are read by their levels (the words of a document-term block are weighed by
    their documents elsewhere: :mod:`nblint.structure.giveaways`); ``counted`` is
    ``(tested, candidates)`` of columns without a table, counted apart (:meth:`LevelScan.single_class`).
    """
    n_classes = len(profile.classes)
    if n_classes < 2:
        return []
    class_rows = profile.class_count[:n_classes]
    tested, candidates = counted[0], list(counted[1])
    # The 0/1 columns' two levels, all at once (a bag of words has thousands): how many levels are
    # tested, and which columns have a level in one class, before any column is looked at alone.
    numeric = profile.numeric
    index = numeric.names
    position = index.positions()  # (a dict: a vocabulary's tens of thousands of look-ups)
    single = np.zeros(len(index), dtype=bool)  # a 0/1 column with a level of min_rows rows in one class
    big_levels = np.zeros(len(index), dtype=np.int64)  # its levels of min_rows rows or more (the tests)
    for counts in (c[:n_classes] for c in numeric.level_counts):
        big = numeric.zero_one & (counts.sum(axis=0) >= min_rows)
        big_levels += big
        single |= big & ((counts > 0).sum(axis=0) == 1)
    # The 0/1 columns count their tests from the matrices; only those with a level in one class are read alone.
    text = profile.text
    at = np.array([-1 if column in text else position[column] for column in columns], dtype=np.int64)
    zero_one = np.zeros(len(at), dtype=bool)
    zero_one[at >= 0] = numeric.zero_one[at[at >= 0]]
    tested += int(big_levels[at[zero_one]].sum())
    read = ~zero_one
    read[zero_one] = single[at[zero_one]]
    # (every packed table at once, but only where a column is read: a vocabulary's words are not, here)
    packed = _packed_single_levels(numeric.levels, n_classes, min_rows) if read.any() else None
    for k in np.flatnonzero(read).tolist():
        column, j = columns[k], (int(at[k]) if at[k] >= 0 else None)
        if packed is not None and j is not None and packed[0][j] >= 0:  # (a packed table, read with the others)
            tested += int(packed[0][j])
            candidates += [(column, *level) for level in packed[1].get(j, ())]
            continue
        levels = profile.levels(column)
        keys, table = levels.keys, levels.table[:, :n_classes]
        sizes = table.sum(axis=1)
        if j is None or not numeric.zero_one[j]:
            tested += int((sizes >= min_rows).sum())
        for key, row, size in zip(keys, table, sizes):
            present = np.flatnonzero(row)
            if len(present) == 1 and size >= min_rows:
                candidates.append((column, key, int(present[0]), int(size)))
    found = []
    chances: dict[int, float] = {}  # (a vocabulary's candidates share a few sizes)
    for column, key, klass, rows in candidates:
        chance = chances.get(rows)
        if chance is None:
            chance = chances[rows] = one_class_chance(rows, class_rows)
        corrected = min(1.0, chance * max(tested, 1))
        if corrected <= max_chance:
            found.append(SingleClassLevel(column, key, klass, rows, chance, corrected))
    return found


def _packed_single_levels(levels, n_classes: int, min_rows: int) -> tuple[np.ndarray, dict] | None:
    """For packed tables (:class:`~nblint.profile.levels.PackedLevels`), every column's levels at once.

    Returns each column's levels of ``min_rows`` rows or more (the tests; -1 where the column has
    no packed table: a 0/1 column, or past the cap), and per column its such levels seen in one
    class only, as ``(key, class, rows)`` in key order; None for tables kept one by one (a dense
    table's, read alone).
    """
    if not isinstance(levels, PackedLevels):
        return None
    sizes = levels.level_rows(n_classes)  # (read from the non-empty cells: no dense table)
    big = sizes >= min_rows
    column = np.repeat(np.arange(len(levels)), np.diff(levels.bounds))
    tests = np.where(levels.known, np.bincount(column[big], minlength=len(levels)), -1)
    classes_seen, only_class = levels.level_classes(n_classes)
    at = np.flatnonzero(big & (classes_seen == 1))
    singles: dict[int, list] = {}
    for j, key, klass, rows in zip(
        column[at].tolist(),
        levels.keys[at].tolist(),
        only_class[at].tolist(),
        sizes[at].tolist(),
    ):
        singles.setdefault(j, []).append((key, int(klass), int(rows)))
    return tests, singles


def deciding_columns(profile, kinds, min_share: float, max_chance: float = 0.0) -> list[DecidingColumn]:
    """Columns that give the class on at least ``min_share`` of the rows, beyond what the class shares give.

    The share must also leave at most a tenth of the smaller classes' rows wrong, so a
    target that is 99% one class is not "decided" by any column.  With ``max_chance``
    above 0, two-class columns that decide one side (:func:`one_sided_threshold`) are
    found too, below ``min_share``.
    """
    n_classes = len(profile.classes)
    if n_classes < 2:
        return []
    class_rows = profile.class_count[:n_classes].astype(np.int64)
    n = int(class_rows.sum())
    # No reading of a 0/1 column's two values errs less than giving each its commonest class: columns
    # whose least errors are too many cannot decide (all of a bag of words' 0/1 words, at once).
    numeric = profile.numeric
    zeros, ones = (counts[:n_classes] for counts in numeric.level_counts)
    least_errors = n - zeros.max(axis=0, initial=0) - ones.max(axis=0, initial=0)
    allowed = _allowed_errors(class_rows, min_share)
    hopeless = numeric.zero_one & (least_errors > allowed)
    # The same bound for the columns with a table of levels (each level given its commonest class): a
    # vocabulary's words seen at one or a few weights (hashed or tf-idf hapaxes) are dismissed at once.
    # No cut errs less than the levels either, so a one-sided cut, whose errors may reach a tenth of
    # the smaller class (:func:`one_sided_threshold`), is hopeless past that bound alone: a column
    # within it is still read for a one-sided cut (two classes), though it cannot decide every row.
    right = level_reading_right(numeric.levels, n_classes)
    levels_hopeless = ~numeric.zero_one & (right >= 0) & (n - right > allowed)
    one_sided_left = levels_hopeless & (n - right <= 0.1 * (n - int(class_rows.max()))) & (n_classes == 2)
    hopeless |= levels_hopeless & ~one_sided_left
    one_sided_only = one_sided_left.tolist()
    text = profile.text
    position = numeric.names.positions()
    columns, kind_of = _scanned(kinds, n_classes)
    # Dismissed at once (a vocabulary's columns): the target, constants, numeric columns missing values or hopeless.
    at = np.fromiter(map(position.get, columns, repeat(-1)), dtype=np.int64, count=len(columns))  # (text: -1)
    dismissed = (kind_of == "target") | (kind_of == "constant")
    in_numeric = at >= 0
    dismissed[in_numeric] |= (numeric.n_missing[at[in_numeric]] > 0) | hopeless[at[in_numeric]]
    found = []
    sides: list[tuple[str, np.ndarray, np.ndarray]] = []  # (the two-class tables read for a one-sided cut)
    for k in np.flatnonzero(~dismissed).tolist():
        column, kind = columns[k], kind_of[k]
        if column in text:
            if text[column].n_missing:
                continue
        else:
            j = position[column]
            if one_sided_only[j]:
                levels = profile.levels(column)
                if levels is not None and len(levels.keys) >= 2:
                    sides.append((column, np.asarray(levels.keys), levels.table[:, :n_classes].astype(np.int64)))
                continue
        by_threshold = column not in profile.text and n_classes == 2
        if not by_threshold and kind not in DECIDING_LEVEL_KINDS:
            continue  # (neither reading below applies: a bag of words' count columns, with many classes)
        levels = profile.levels(column)
        if levels is None or len(levels.keys) < 2:
            continue
        table = levels.table[:, :n_classes].astype(np.int64)
        best = None
        if by_threshold:
            best = _best_threshold(levels.keys, table, column)
        if len(levels.keys) * MIN_ROWS_PER_LEVEL <= n and kind in DECIDING_LEVEL_KINDS:
            errors = int(n - table.max(axis=1).sum())
            if best is None or errors < best.errors:
                best = DecidingColumn(column, 1 - errors / n, "levels", errors=errors)
        if best is not None and decides(best, class_rows, min_share):
            found.append(best)
        elif by_threshold:
            sides.append((column, np.asarray(levels.keys), table))
    if max_chance > 0 and sides:
        tried = sum(len(keys) - 1 for _, keys, _ in sides)
        for column, keys, table in sides:
            side = one_sided_threshold(keys, table, column, class_rows, min_share, max_chance, tried)
            if side is not None:
                found.append(side)
    return found


def _scanned(kinds, n_classes: int) -> tuple[list, np.ndarray]:
    """The columns :func:`deciding_columns` reads and their kinds' names as an array.

    Every column's kind is read once, as an array (a vocabulary's tens of thousands: no Python per
    column); beyond two classes only the level reading applies (no threshold): only level kinds can decide.
    """
    columns, names = list(kinds), kind_names(kinds)
    if n_classes == 2:
        return columns, names
    level_kind = of_kinds(names, DECIDING_LEVEL_KINDS)
    return list(map(columns.__getitem__, np.flatnonzero(level_kind).tolist())), names[level_kind]


def one_sided_threshold(
    keys, table: np.ndarray, column: str, class_rows, min_share: float, max_chance: float, tried: int
) -> DecidingColumn | None:
    """The cut one side of which is one class with (nearly) no exception, and that decides the rest, if any.

    Two classes.  A cut between consecutive values splits the rows into a *pure* side,
    at least ``min_share`` of whose rows are one class ``c`` (nearly no exception), and
    the other side, which holds every row of the other class (but those exceptions) and
    the rows of ``c`` the pure side misses.  The reading "``c`` on the pure side, the other
    class elsewhere" is reported when

    * its errors (exceptions plus missed rows of ``c``) are at most a tenth of the smaller
      class's rows, as for any deciding column (:func:`decides`), so the other side is
      mostly the other class and the pure side is most of ``c``;
    * chance cannot explain the pure side: :func:`pure_side_chance` of its rows, times the
      readings tried (four per cut: either side, either class; ``tried`` cuts over every
      column read), is at most ``max_chance``.

    Of the cuts that qualify, the one with the fewest errors (then the larger pure side).
    """
    class_rows = np.asarray(class_rows, dtype=np.int64)
    n = int(class_rows.sum())
    allowed = 0.1 * (n - int(class_rows.max()))
    at_or_below = np.cumsum(table, axis=0)[:-1]  # rows at or below each cut, per class
    sides = {"above": class_rows[None, :] - at_or_below, "below": at_or_below}
    best = None
    for where, side in sides.items():
        rows = side.sum(axis=1)
        for klass in (0, 1):
            exceptions = side[:, 1 - klass]
            errors = exceptions + (class_rows[klass] - side[:, klass])  # (plus the rows of c it misses)
            ok = (rows > 0) & (exceptions <= (1 - min_share) * rows) & (errors <= allowed)
            for i in np.flatnonzero(ok).tolist():
                key = (int(errors[i]), -int(rows[i]))
                if best is not None and key >= best[0]:
                    continue
                chance = pure_side_chance(int(rows[i]), int(exceptions[i]), klass, class_rows)
                chance = min(1.0, chance * 4 * max(tried, 1))
                if chance > max_chance:
                    continue
                up = klass if where == "above" else 1 - klass  # (the class above the threshold)
                threshold = (float(keys[i]) + float(keys[i + 1])) / 2
                errs = int(errors[i])
                found = DecidingColumn(column, 1 - errs / n, "threshold", threshold, up, errs)
                found = found._replace(pure_rows=int(rows[i]), pure_above=where == "above")
                best = (key, found._replace(exceptions=int(exceptions[i]), chance=chance))
    return None if best is None else best[1]


def pure_side_chance(rows: int, exceptions: int, klass: int, class_rows) -> float:
    """Chance that ``rows`` rows drawn at random hold at most ``exceptions`` rows outside class ``klass``.

    The hypergeometric tail ``sum_{j <= e} C(n - n_c, j) C(n_c, r - j) / C(n, r)``: with no
    exception, the ``C(n_c, r) / C(n, r)`` of :func:`one_class_chance` for that class.
    """
    class_rows = [int(c) for c in class_rows]
    n, n_c = sum(class_rows), class_rows[klass]
    log_total = _log_choose(n, rows)
    total = 0.0
    for j in range(exceptions + 1):
        if rows - j <= n_c and j <= n - n_c:
            total += exp(_log_choose(n - n_c, j) + _log_choose(n_c, rows - j) - log_total)
    return min(1.0, total)


def decides(found: DecidingColumn, class_rows, min_share: float) -> bool:
    """At most ``1 - min_share`` of the rows wrong, and at most a tenth of the smaller classes' rows."""
    return found.errors <= _allowed_errors(class_rows, min_share)


def _allowed_errors(class_rows, min_share: float) -> float:
    n = int(np.sum(class_rows))
    return min((1 - min_share) * n, 0.1 * (n - int(np.max(class_rows))))


def _best_threshold(keys, table: np.ndarray, column: str) -> DecidingColumn:
    """The cut between two consecutive values that gets the most rows' class right (two classes)."""
    n = int(table.sum())
    below = np.cumsum(table, axis=0)[:-1]  # rows at or below each cut, per class
    total = table.sum(axis=0)
    # Class 1 above the cut: right = class-0 rows below + class-1 rows above; or the reverse.
    right_up = below[:, 0] + (total[1] - below[:, 1])
    right_down = below[:, 1] + (total[0] - below[:, 0])
    i_up, i_down = int(np.argmax(right_up)), int(np.argmax(right_down))
    if right_up[i_up] >= right_down[i_down]:
        i, right, above = i_up, int(right_up[i_up]), 1
    else:
        i, right, above = i_down, int(right_down[i_down]), 0
    threshold = (float(keys[i]) + float(keys[i + 1])) / 2
    return DecidingColumn(column, right / n, "threshold", threshold, above, n - right)


__all__ = [
    "DecidingColumn",
    "SingleClassLevel",
    "deciding_columns",
    "one_class_chance",
    "scanned_columns",
    "single_class_levels",
]
