"""The passes over the rows that feed NB208's scans (:mod:`nblint.structure.leakage`), chunk by chunk.

A discrete column past the profile's cap on levels (:class:`LevelPass`) and a measurement
with too many values for a contingency table (:class:`ThresholdPass`) are read once more,
alone, with the target: each pass is an accumulator for
:meth:`nblint.analysis.context.TableContext.reduce_rows` (``add`` a chunk, ``merge`` the
rows after).
"""

from __future__ import annotations

import numpy as np

from nblint.profile.table import class_slots
from nblint.readers import Chunk
from nblint.structure import leakage_scans


class LevelPass:
    """NB208's pass over discrete columns past the cap on levels: a :class:`leakage_scans.LevelScan` fed chunk by chunk."""

    def __init__(self, columns, target: str, classes: tuple, max_pairs: int | None = None):
        self.scan, self.target, self.classes = (
            leakage_scans.LevelScan(columns, len(classes), max_pairs),
            target,
            classes,
        )

    def add(self, chunk: Chunk) -> None:
        slots = class_slots(chunk, self.target, self.classes)
        self.scan.add({c: compared_values(chunk.column(c)) for c in self.scan.columns}, slots)

    def merge(self, other: LevelPass) -> None:
        self.scan.merge(other.scan)


def compared_values(column) -> np.ndarray:
    """A column's values as they compare: text as its labels, whole numbers as integers (never through float64)."""
    if column.kind == "text":  # (a missing cell is code -1: the None after the labels, left out when counted)
        return np.asarray(tuple(column.labels or ()) + (None,), dtype=object)[column.values]
    return column.values if column.integer_dtype else column.as_float()


class ThresholdPass:
    """NB208's pass over threshold candidates: a :class:`leakage_scans.ThresholdScan` fed chunk by chunk."""

    def __init__(self, scan: leakage_scans.ThresholdScan, target: str, classes: tuple):
        self.scan, self.target, self.classes = scan, target, classes

    def add(self, chunk: Chunk) -> None:
        slots = class_slots(chunk, self.target, self.classes)
        self.scan.add({c: chunk.column(c).as_float() for c in self.scan.columns}, slots)

    def merge(self, other: ThresholdPass) -> None:
        self.scan.merge(other.scan)
