"""The rows found in both a training and a test table (NB603), and how likely that is by chance.

Rows are compared by a 64-bit fingerprint of the features the two tables share
(:class:`nblint.analysis.rows.RowFingerprints`, with the text columns added): the training
rows' fingerprints are made in the profile's own pass where it can (:func:`train_rows_for`),
the test rows' in the test pass (:mod:`nblint.run.testpass`); two tables of documents compare
their documents as read. :func:`overlap` weighs the rows found against the training table's
own repeats.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from nblint.analysis.rows import RowFingerprints
from nblint.core.hashing import mix64
from nblint.core.tails import binomial_sf
from nblint.engine.findings import EXAMPLE_ROWS
from nblint.readers import TableSource
from nblint.readers.chunks import Chunk, SparseBlock


@dataclass(frozen=True)
class Overlap:
    """Test rows found in the training table (by the features the two share), and their chance.

    A narrow table of a few discrete columns repeats rows by itself: a test row equal to a
    training row is then what the values allow, not a copy. The chance that a fresh row equals
    some training row is estimated from the training table itself (leave one out: the share of
    training rows whose features another training row repeats); ``p_value`` is the one-sided
    binomial probability of at least ``rows`` such test rows at that chance. The rows whose
    label differs are weighed the same way against their own chance (``conflict_p_value``: the
    share of training rows whose features another training row repeats under another label),
    since a table that repeats rows by itself rarely repeats them under another class.
    """

    rows: int  # test rows whose features are a training row's
    conflicting: int  # of those, rows whose label is not among that training row's labels
    examples: list[int]  # first test rows (1-based), the conflicting ones first
    conflicting_examples: list[int]
    chance: float = 0.0  # the share of fresh rows expected to equal a training row
    p_value: float = 0.0
    conflict_chance: float = 0.0  # the share expected to equal a training row under another label
    conflict_p_value: float = 1.0


def overlap(train: np.ndarray, train_labels, test: np.ndarray, test_labels) -> Overlap:
    """:class:`Overlap` of two arrays of row keys (and labels, as text, where both tables have them)."""
    # One sort of the training keys serves the repeat rate and every membership test (np.isin sorts the
    # two arrays together on each call, about ten times the cost on a million rows).
    ordered = np.sort(train)
    chance = float(_repeated(ordered).mean()) if len(train) else 0.0
    at = np.flatnonzero(_member(test, ordered))
    p_value = binomial_sf(at.size - 1, len(test), chance) if at.size else 1.0
    conflicting: list[int] = []
    conflict_chance, conflict_p_value = 0.0, 1.0
    if test_labels is not None and train_labels is not None and at.size:
        train_pairs, test_pairs = _labelled_keys(train, train_labels, test, test_labels)
        # A found test row conflicts when no training row has its features under its label.
        conflicting = at[~_member(test_pairs[at], np.sort(train_pairs))].tolist()
        # The training keys seen under two or more labels: their distinct (key, label) pairs repeat the key.
        keys, labels_per_key = np.unique(train[np.unique(train_pairs, return_index=True)[1]], return_counts=True)
        mixed = keys[labels_per_key > 1]
        conflict_chance = float(_member(train, mixed).mean()) if mixed.size else 0.0
        if conflicting:
            conflict_p_value = binomial_sf(len(conflicting) - 1, len(test), conflict_chance)
    first = [i + 1 for i in conflicting[:EXAMPLE_ROWS]]
    rest = [int(i) + 1 for i in at.tolist() if int(i) + 1 not in first]
    examples = (first + rest)[:EXAMPLE_ROWS]
    return Overlap(int(at.size), len(conflicting), examples, first, chance, p_value, conflict_chance, conflict_p_value)


def _repeated(ordered: np.ndarray) -> np.ndarray:
    """Which of the sorted keys occur more than once (a key equal to a neighbour)."""
    same_as_next = ordered[1:] == ordered[:-1]
    repeated = np.zeros(len(ordered), dtype=bool)
    repeated[1:] |= same_as_next
    repeated[:-1] |= same_as_next
    return repeated


def _member(values: np.ndarray, ordered: np.ndarray) -> np.ndarray:
    """Which ``values`` occur in the sorted array ``ordered`` (``np.isin`` by one binary search per value)."""
    if not len(ordered):
        return np.zeros(len(values), dtype=bool)
    # The values searched in their own sorted order: numpy's bisection then starts each search where the
    # last one ended (a fifth of the time of random probes into a million keys, most of it cache misses).
    order = np.argsort(values)
    sought = values[order]
    at = np.minimum(np.searchsorted(ordered, sought), len(ordered) - 1)
    found = np.empty(len(values), dtype=bool)
    found[order] = ordered[at] == sought
    return found


def _labelled_keys(train: np.ndarray, train_labels, test: np.ndarray, test_labels) -> tuple[np.ndarray, np.ndarray]:
    """Each row's key with its label folded in (64-bit, wrapping), for both tables: equal only for equal pairs."""
    code: dict = {}
    for label in [*set(train_labels.tolist()), *set(test_labels.tolist())]:
        code.setdefault(label, len(code))

    def keyed(keys: np.ndarray, labels) -> np.ndarray:
        codes = np.fromiter(map(code.__getitem__, labels.tolist()), dtype=np.uint64, count=len(labels))
        with np.errstate(over="ignore"):
            return keys + mix64(codes + np.uint64(1))

    return keyed(train, train_labels), keyed(test, test_labels)


def train_rows_for(train: TableSource, test: TableSource, target: str | None) -> RowPrints | None:
    """An empty accumulator of the training rows' fingerprints, for the profile's pass to fill; None: not there.

    Over the columns the two tables share by name (the features compared, unless the profile
    leaves one out: :func:`compare` then reads the training rows again). Two tables of
    documents compare their documents instead; a Dask source profiles where its rows live.
    """
    if (train.documents is not None and test.documents is not None) or train.backend.distributed:
        return None
    tested = set(test.names)
    shared = [name for name in train.names if name != target and name in tested]
    return RowPrints(shared, target) if shared else None


class RowPrints:
    """Row fingerprints over numeric, sparse and text columns (numeric ones: :class:`RowFingerprints`)."""

    def __init__(self, common: Sequence[str], target: str | None):
        self.common, self.target = tuple(common), target
        self.shared = frozenset(common)  # (membership per column: a vocabulary is tens of thousands)
        self.numeric = RowFingerprints(self.shared, target, keep_labels=False)  # (labels: read as text below)
        self.text: list[np.ndarray] = []
        self.label_parts: list[np.ndarray] = []

    def empty(self) -> RowPrints:
        """A fresh accumulator over the same columns."""
        return RowPrints(self.common, self.target)

    @property
    def n_rows(self) -> int:
        return sum(len(part) for part in self.text)

    def add(self, chunk) -> None:
        block = chunk.sparse
        if block is not None and not self.shared.issuperset(block.names):
            # (a row block holds every column of the table: the ones the test table lacks are not compared)
            keep = [k for k, name in enumerate(block.names) if name in self.shared]
            names = tuple(block.names[k] for k in keep)
            kept = SparseBlock(
                names, block.matrix[:, keep], block.integer_dtype, block.binary[keep], block.table_columns
            )
            chunk = Chunk(chunk.names, chunk.columns, chunk.row_offset, chunk.n_rows, sparse=kept)
        self.numeric.add(chunk)
        if self.target is not None and self.target in chunk.names:
            self.label_parts.append(_labels_of(chunk.column(self.target)))
        extra = np.zeros(chunk.n_rows, dtype=np.uint64)
        with np.errstate(over="ignore"):
            for name, column in zip(chunk.names, chunk.columns):
                if name == self.target or name not in self.shared or column.kind != "text":
                    continue
                labels = np.array([*column.labels, "\0missing"], dtype=object)
                import pandas as pd

                values = pd.util.hash_array(labels)[np.asarray(column.values)]
                extra += mix64(_salt(name) + values)
        self.text.append(extra)

    def merge(self, other: RowPrints) -> None:
        self.numeric.merge(other.numeric)
        self.text += other.text
        self.label_parts += other.label_parts

    def labels(self) -> np.ndarray:
        """Each row's label as text (None: missing), in row order (an object array)."""
        return np.concatenate(self.label_parts) if self.label_parts else np.zeros(0, dtype=object)

    def hashes(self) -> np.ndarray:
        numeric = np.concatenate(self.numeric.hashes) if self.numeric.hashes else np.zeros(0, np.uint64)
        if self.numeric.held is not None:
            numeric = numeric + self.numeric.held[0]
        text = np.concatenate(self.text) if self.text else np.zeros_like(numeric)
        with np.errstate(over="ignore"):
            return numeric + text


def _salt(name: str) -> np.uint64:
    import zlib

    return mix64(np.array([zlib.crc32(name.encode("utf-8", "surrogatepass"))], dtype=np.uint64))[0]


def document_hashes(documents: Sequence[str]) -> np.ndarray:
    """A key per document: its text with case and spacing folded (a copy re-typed is still a copy)."""
    import pandas as pd

    folded = np.array([" ".join(str(d).lower().split()) for d in documents], dtype=object)
    return pd.util.hash_array(folded) if len(folded) else np.zeros(0, dtype=np.uint64)


def label_text(value) -> str:
    """A class label as text, as users wrote it (1 and 1.0 are one class)."""
    if isinstance(value, (float, np.floating)) and float(value).is_integer():
        return str(int(value))
    return str(value)


def _labels_of(column) -> np.ndarray:
    """A target column's labels as text (None: missing), an object array (each distinct value written once)."""
    if column.kind == "text":
        return np.array([*column.labels, None], dtype=object)[np.asarray(column.values)]
    distinct, inverse = np.unique(column.as_float(), return_inverse=True)  # (NaN last, as one value)
    names = np.empty(len(distinct), dtype=object)
    names[:] = [None if math.isnan(v) else label_text(v) for v in distinct.tolist()]
    return names[inverse.reshape(-1)]


def training_labels(ctx) -> np.ndarray:
    class _Labels:
        def __init__(self):
            self.parts: list[np.ndarray] = []

        def add(self, chunk):
            self.parts.append(_labels_of(chunk.column(ctx.target)))

        def merge(self, other):
            self.parts += other.parts

    parts = ctx.reduce_rows([ctx.target], _Labels()).parts
    return np.concatenate(parts) if parts else np.zeros(0, dtype=object)
