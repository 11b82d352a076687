"""Zero-count cells: the (value, class) pairs no row has, as the event model reading each column sees them.

What a cell is follows the model that reads the column (the declared model, or with
none declared the one its kind recommends): a level of a categorical column (integer
codes included, Categorical); the 1 or the 0 of a 0/1 column or of a column binarised
at 0 (Bernoulli); a class whose total count of the feature is zero (Multinomial,
Complement).  Gaussian features have no cells.  Classes with fewer rows than
``min-class-rows`` are not searched (in a class of one row every other level is a zero
cell: NB206's finding), and levels seen in one class beyond chance are NB202's.

The search reads the profile only, and counts a vocabulary's cells as matrices
(classes x columns) rather than column by column; the cells themselves are listed
when asked for (a finding shows a few).  NB201 words what is found here
(:attr:`~nblint.analysis.context.TableContext.zero_cells`).
"""

from __future__ import annotations

import functools
from itertools import repeat

import numpy as np

from nblint.profile.levels import counts_below, level_sizes
from nblint.readers import name_mask
from nblint.structure.wordkinds import models_of

#: Kinds whose values are levels (cells of a contingency table).
DISCRETE_KINDS = ("binary", "group-member", "categorical", "count")


def zero_cells(ctx) -> Found:
    """The zero cells of every discrete feature of ``ctx`` (document-term words included).

    The columns whose classes a level decides beyond chance (``ctx.deciding_columns``)
    are left out: their zero cells are the leak NB208 reports.
    """
    kinds = ctx.kinds
    terms = ctx.term_columns  # tf-idf weights too: a word a class never has is a zero cell under any weighting
    features = ctx.profile.features
    # (the words at once: a vocabulary has thousands; the other columns by their kinds)
    searched = name_mask(features, terms)
    for k in np.flatnonzero(~searched).tolist():
        searched[k] = kinds[features[k]].kind in DISCRETE_KINDS
    searched &= ~name_mask(features, set(ctx.deciding_columns))
    columns = np.array(features, dtype=object)[searched].tolist()
    return ClassCells(ctx).search(columns)


class ClassCells:
    """The class counts behind every numeric column's cells, for the whole table at once (classes x columns).

    Attributes
    ----------
    index : dict
        Column name to its position in the matrices.
    counted : ndarray of bool
        The classes with at least ``min-class-rows`` rows: smaller ones are NB206's finding,
        not a source of zero cells (in a class of one row, every other level is a zero cell).
    totals : ndarray
        ``totals[c, j]``: the sum of column j over the rows of class c (its count, for counts).
    absent : ndarray of bool
        ``|totals| < 1e-9``: the column never occurs in the class (weights such as tf-idf sum to
        less than 0.5 without being zero, so this is not a rounding of the totals).
    zero_one : ndarray of bool
        The 0/1 columns, whose level counts are ``zeros`` and ``ones`` (rows of each class with 0, with 1).
    """

    def __init__(self, ctx):
        self._ctx = ctx
        numeric = ctx.profile.numeric
        n_classes = len(ctx.profile.classes)
        self.class_rows = ctx.profile.class_count[:n_classes].astype(np.int64)
        self.counted = self.class_rows >= ctx.settings.min_class_rows
        self.index = numeric.names.positions()
        class_n = numeric.class_n[:n_classes]
        self.totals = numeric.class_mean[:n_classes] * class_n
        self.absent = np.abs(self.totals) < 1e-9
        self.zero_one = numeric.zero_one
        self.zeros, self.ones = (counts[:n_classes] for counts in numeric.level_counts)
        self._numeric, self._n = numeric, class_n

    def search(self, columns: list[str]) -> Found:
        """The zero (value, class) cells of ``columns``, each read by its model (:meth:`models`).

        A column read by counts (Multinomial, Complement) has one cell per class its total
        misses; a 0/1 column, whatever reads it, one per (level, class) its level misses.
        Those are counted for all such columns at once, as matrices (their lists are made
        when asked for: a vocabulary shows ten); a column with a table of levels
        (categorical codes, counts read as Bernoulli) is read alone, by
        :meth:`level_cells`. Columns without a zero cell are left out.
        """
        ctx = self._ctx
        n = len(columns)
        count, vetoed = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
        where = np.fromiter(map(self.index.get, columns, repeat(-1)), dtype=np.int64, count=n)  # (text: -1)
        listed: dict[int, list] = {}
        routes = np.zeros(n, dtype=np.int8)
        if self.counted.any():
            text = ctx.profile.text
            # A level seen in one class beyond chance is NB202's finding, not a zero cell.
            separated = {(level.column, level.value) for levels in ctx.single_class_levels.values() for level in levels}
            mixed = {c for c, _ in separated}
            flags = np.zeros(n, dtype=bool)
            flags[where >= 0] = self.zero_one[where[where >= 0]]
            splits = np.zeros(n, dtype=bool)
            splits[where >= 0] = self.splits[where[where >= 0]]
            models = self.models(columns)
            routes = _matrix_routes(columns, np.array(models, dtype=object), text, mixed, flags, splits)
            for k in np.flatnonzero(routes == _ALONE).tolist():
                column, model = columns[k], models[k]
                if (model != "bernoulli" or column in text) and ctx.level_pairs(column) is not None:
                    # Past the cap on levels: counted from the non-empty cells, a few listed.
                    skip = {value for c, value in separated if c == column}
                    count[k], vetoed[k], listed[k] = ctx.level_pairs(column).zero_cells(
                        self.counted, self.class_rows, skip, LISTED_CELLS
                    )
                else:
                    cells = self.level_cells(column, model)
                    if cells:
                        listed[k] = cells
            for counted_route in (_BY_COUNTS, _ZERO_ONE, _SPLIT):
                at = np.flatnonzero(routes == counted_route)
                held = [mask[:, where[at]] & self.counted[:, None] for _, mask in self._masks[counted_route]]
                count[at] = sum((mask.sum(axis=0) for mask in held), np.zeros(len(at), dtype=np.int64))
                vetoed[at] = sum((self.class_rows @ mask for mask in held), np.zeros(len(at), dtype=np.int64))
            for k in np.flatnonzero(routes == _MIXED).tolist():
                column, j = columns[k], where[k]
                masks = [(key, mask[:, j]) for key, mask in self._masks[_ZERO_ONE] if (column, key) not in separated]
                cells = [(key, int(c)) for key, mask in masks for c in np.flatnonzero(mask & self.counted)]
                if cells:
                    listed[k] = cells
            for k, cells in listed.items():
                if not count[k]:
                    count[k], vetoed[k] = len(cells), sum(int(self.class_rows[c]) for _, c in cells)
        keep = np.flatnonzero(count)
        return Found(
            list(map(columns.__getitem__, keep.tolist())),
            count[keep],
            vetoed[keep],
            functools.partial(self._cells_of, list(map(listed.get, keep.tolist())), routes[keep], where[keep]),
            self.table,
        )

    def model(self, column) -> str | None:
        """The event model that reads ``column``: the declared one, or the one its kind recommends."""
        return self._ctx.model or self._ctx.kinds[column].model

    def models(self, columns: list[str]) -> list[str | None]:
        """:meth:`model` of each column (a vocabulary has tens of thousands)."""
        ctx = self._ctx
        if ctx.model:
            return [ctx.model] * len(columns)
        return models_of(ctx.kinds, columns)

    def level_cells(self, column, model) -> list[tuple[object, int]]:
        """The zero cells of a column read through its contingency table (levels, or Bernoulli's split)."""
        ctx = self._ctx
        table = self.table(column, model)
        if table is None:
            return []
        separated = {level.value for level in ctx.single_class_levels.get(column, ())}
        cells = []
        for key, row in zip(*table):
            if key in separated or row.sum() == 0:
                continue
            cells += [(key, int(c)) for c in np.flatnonzero((row == 0) & self.counted)]
        return cells

    def table(self, column, model=None) -> tuple | None:
        """The table the zero cells are cells of: (keys, counts[key, class]), as the model reads the column."""
        ctx = self._ctx
        model = model or self.model(column)
        if model in ("multinomial", "complement"):
            totals = self.totals[:, self.index[column]]
            return ("any count > 0",), np.rint(totals)[None, :]
        bernoulli = model == "bernoulli" and column not in ctx.profile.text
        table = ctx.column(column).class_table
        pairs = ctx.level_pairs(column) if table is None and bernoulli else None
        if pairs is not None:
            # Past the cap on levels: the split below, from the non-empty cells.
            positive = np.array([float(k) > 0 for k in pairs.keys], dtype=np.int64)[pairs.level]
            split = np.zeros((2, len(ctx.profile.classes)), dtype=np.int64)
            np.add.at(split, (positive, pairs.klass), pairs.rows)
            occurs = split.sum(axis=1) > 0
            return tuple(k for k, o in zip((0.0, 1.0), occurs) if o), split[occurs]
        if table is None:
            return None
        keys, counts = table
        if bernoulli:
            # Bernoulli reads x > 0 as 1 (scikit-learn's binarize=0.0): cells of that split,
            # for the sides that occur in the column.
            positive = np.array([float(k) > 0 for k in keys])
            split = np.vstack([counts[~positive].sum(axis=0), counts[positive].sum(axis=0)])
            occurs = split.sum(axis=1) > 0
            keys, counts = tuple(k for k, o in zip((0.0, 1.0), occurs) if o), split[occurs]
        return keys, counts

    @functools.cached_property
    def _masks(self) -> dict[int, list]:
        """(key, mask[class, column]) pairs whose counted classes are a column's cells, by route."""
        # A level's cells: the classes it misses, where it occurs in the column at all.
        levels = [(key, (counts == 0) & counts.any(axis=0)) for key, counts in ((0.0, self.zeros), (1.0, self.ones))]
        # Bernoulli's split of a column with a table (x > 0 against x = 0, :meth:`table`), for
        # every such column at once: the rows at levels up to 0, and the others (see :attr:`splits`).
        numeric, n_classes = self._numeric, len(self.class_rows)
        at_zero = counts_below(numeric.levels, 0.0, numeric.class_n.shape[0], inclusive=True)[:n_classes]
        split = [
            (key, (counts == 0) & counts.any(axis=0)) for key, counts in ((0.0, at_zero), (1.0, self._n - at_zero))
        ]
        return {_BY_COUNTS: [("any count > 0", self.absent)], _ZERO_ONE: levels, _SPLIT: split}

    @functools.cached_property
    def splits(self) -> np.ndarray:
        """The columns whose Bernoulli split is read from the matrices: a table of levels, none missing.

        A vocabulary's words seen at a few weights each (tf-idf, hashed and normed counts) are
        thousands of such tables; their cells are the same as each table's split, read alone.
        """
        numeric = self._numeric
        return ~self.zero_one & (level_sizes(numeric.levels) >= 0) & (numeric.n_missing == 0)

    def _cells_of(self, listed: list, routes: np.ndarray, where: np.ndarray, k: int) -> list[tuple[object, int]]:
        """The ``k``-th found column's cells: listed already, or read from its route's masks."""
        if listed[k] is not None:
            return listed[k]
        j = where[k]
        return [
            (key, int(c))
            for key, mask in self._masks[int(routes[k])]
            for c in np.flatnonzero(mask[:, j] & self.counted)
        ]


#: Zero cells listed for a column past the cap on levels (its count is complete; findings show fewer).
LISTED_CELLS = 1000

#: How :meth:`ClassCells.search` reads a column: by its total count, by its 0/1 levels as matrices,
#: by its 0/1 levels alone (some of them are NB202's), by Bernoulli's split of its levels as matrices,
#: or alone, through its own table (:func:`_matrix_routes`; 0: not at all, a Gaussian column).
_BY_COUNTS, _ZERO_ONE, _MIXED, _SPLIT, _ALONE = 1, 2, 3, 4, 5


def _matrix_routes(
    columns, models: np.ndarray, text, mixed: set, zero_one: np.ndarray, split: np.ndarray
) -> np.ndarray:
    """Each column's route (int8), decided for every column at once: a vocabulary is tens of thousands.

    In order: a Gaussian column, or a text column read by counts, has no cells (0); a column read
    by counts goes by its total; a 0/1 column (not text) by its levels, alone where some of its
    levels are NB202's (``mixed``); a Bernoulli column with a split read from the matrices by that
    split; any other alone (:data:`_ALONE`).
    """
    n = len(columns)
    # (the text columns and NB202's columns are few: looked up only when there are any)
    in_text, in_mixed = name_mask(columns, text), name_mask(columns, mixed)
    by_counts = (models == "multinomial") | (models == "complement")
    routes = np.full(n, _ALONE, dtype=np.int8)
    left = ~(models == "gaussian") & ~(in_text & by_counts)
    routes[~left] = 0
    routes[left & by_counts] = _BY_COUNTS
    left &= ~by_counts
    levels = left & ~in_text & zero_one
    routes[levels] = np.where(in_mixed[levels], _MIXED, _ZERO_ONE)
    left &= ~levels
    routes[left & (models == "bernoulli") & split & ~in_mixed] = _SPLIT
    return routes


class Found:
    """The columns with zero cells, in the order searched: counts and costs as arrays, cells listed when asked.

    Attributes
    ----------
    names : list of str
    count, vetoed : ndarray of int
        Each column's zero cells, and the rows of the classes they would veto.
    """

    def __init__(self, names: list[str], count: np.ndarray, vetoed: np.ndarray, cells_of, table):
        self.names, self.count, self.vetoed, self._cells_of = names, count, vetoed, cells_of
        #: ``table(column)``: the (keys, counts[key, class]) table a column's cells are cells of (None: unknown).
        self.table = table

    def zero(self, k: int) -> ZeroCells:
        """The ``k``-th column's zero cells."""
        return ZeroCells(int(self.count[k]), int(self.vetoed[k]), functools.partial(self._cells_of, k))


class ZeroCells:
    """One column's zero cells: how many, the rows of the classes they would veto, and (when asked) the list.

    Parameters
    ----------
    count, vetoed : int
    make : callable
        Returns the (value, class) cells, by value then class: a wide table lists only the
        cells of the columns it shows.
    """

    __slots__ = ("count", "vetoed", "cells")

    def __init__(self, count: int, vetoed: int, make):
        self.count, self.vetoed, self.cells = count, vetoed, make
