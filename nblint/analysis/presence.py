"""The documents each word occurs in, per class: a block of words' non-zero pattern, counted.

Presence questions (does a word give a class away?) read where a word is non-zero,
whatever its values: counts, 0/1 bits and tf-idf weights have the same pattern. The
profile knows it for 0/1 words (their class sums) and for words whose levels it keeps
(the rows off the level 0); for the others (tf-idf weights, thousands of distinct values
each) :class:`ClassPresence` counts it in one pass over their rows, chunk by chunk.
:func:`class_vocabulary` reads that presence for the words that give a class away.
"""

from __future__ import annotations

import numpy as np

from nblint.profile.levels import key_counts, level_sizes
from nblint.profile.table import class_slots
from nblint.structure import giveaways


class ClassPresence:
    """``presence[c, j]``: rows of class slot ``c`` where column ``j`` is non-zero, added chunk by chunk."""

    def __init__(self, columns, target: str, classes: tuple):
        self.columns = tuple(columns)
        self.target = target
        self.classes = classes
        self.position = {name: j for j, name in enumerate(self.columns)}
        self.presence = np.zeros((len(classes) + 1, len(self.columns)), dtype=np.int64)

    def add(self, chunk) -> None:
        slots = class_slots(chunk, self.target, self.classes)
        width = len(self.classes) + 1
        if chunk.sparse is not None:  # a matrix's row block: its stored entries, at once
            block = chunk.sparse
            csr = block.matrix.tocsr()
            at = np.array([self.position.get(name, -1) for name in block.names], dtype=np.int64)
            rows = np.repeat(np.arange(csr.shape[0]), np.diff(csr.indptr))
            cols = at[csr.indices]
            keep = (cols >= 0) & (csr.data != 0) & ~np.isnan(csr.data)
            cell = slots[rows[keep]] * len(self.columns) + cols[keep]
            self.presence += np.bincount(cell, minlength=width * len(self.columns)).reshape(width, -1)
        for name, column in zip(chunk.names, chunk.columns):
            j = self.position.get(name)
            if j is None:
                continue
            values = column.as_float()
            present = (values != 0) & ~np.isnan(values)
            self.presence[:, j] += np.bincount(slots[present], minlength=width)

    def merge(self, other: ClassPresence) -> None:
        self.presence += other.presence


def term_presence(profile, terms, order: dict[str, int], source, reduce_rows) -> tuple[tuple[str, ...], np.ndarray]:
    """The term columns (table order) and the documents of each class each is non-zero in, ``(C, p)``.

    From the profile where it tells (0/1 words; words whose levels it keeps: the rows
    off the level 0); the others (tf-idf weights) are counted in one pass over their rows
    (a sparse matrix's own row blocks; else ``reduce_rows(columns, accumulator)``).
    """
    numeric, target = profile.numeric, profile.target
    n_classes = len(profile.classes)
    features = profile.features
    # (a vectorizer's matrix: every feature is a word, already in table order)
    every = isinstance(terms, frozenset) and len(terms) == len(features) and terms.issuperset(features)
    names = tuple(features) if every else tuple(sorted(terms, key=order.__getitem__))
    if names == tuple(numeric.names):  # (the words are the numeric columns, in their order: nothing to look up)
        at = np.arange(len(names), dtype=np.int64)
    else:
        at = np.fromiter(map(numeric.names.positions().__getitem__, names), dtype=np.int64, count=len(names))
    presence = np.full((n_classes, len(names)), -1, dtype=np.int64)
    if not len(names) or target is None:
        return names, presence
    zero_one = numeric.zero_one[at]
    presence[:, zero_one] = numeric.level_counts[1][:n_classes, at[zero_one]]
    tabled = ~zero_one & (level_sizes(numeric.levels)[at] >= 0)
    zeros = key_counts(numeric.levels, 0.0, numeric.class_n.shape[0])
    presence[:, tabled] = (numeric.class_n - zeros)[:n_classes, at[tabled]]
    unread = np.flatnonzero(~zero_one & ~tabled)
    unknown = [names[j] for j in unread.tolist()]
    if unknown:
        counter = ClassPresence(unknown, target, profile.classes)
        if source.matrix is not None:  # a sparse matrix: its own row blocks
            for chunk in source.chunks():
                counter.add(chunk)
        else:
            counter = reduce_rows(unknown + [target], counter)
        presence[:, unread] = counter.presence[:n_classes]
    return names, presence


def class_vocabulary(ctx) -> giveaways.ClassVocabulary:
    """Words of ``ctx`` that give a class away, and class-specific words (:mod:`nblint.structure.giveaways`).

    Read from the words' presence per class (``ctx.term_presence``); words that decide the
    target outright are NB208's, and left out.
    """
    if ctx.target is None or not ctx.term_columns:
        return giveaways.ClassVocabulary([], [], 0)
    names, presence = ctx.term_presence
    deciding = ctx.deciding_columns
    if deciding:
        keep = [j for j, c in enumerate(names) if c not in deciding]
        names, presence = tuple(names[j] for j in keep), presence[:, keep]
    settings = ctx.settings
    return giveaways.class_vocabulary(
        names,
        presence,
        ctx.profile.class_count[: len(ctx.profile.classes)],
        settings.giveaway_share,
        settings.decides_share,
        settings.separation_min_rows,
        settings.separation_max_chance,
    )
