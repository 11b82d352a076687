"""The one extra row pass: per-row verifications of candidate structure, gathered chunk by chunk.

The structure searches work from the profile's counts; some candidates need the rows
themselves: how many rows of a broken-group candidate sum to 0 or to 2 and more (with
example rows), whether a code column and a group determine each other, whether columns
that may duplicate one another agree on every row (an order-free hash of their values),
whether two columns recode each other (or one is a function of the other: a nested
variable). :class:`RowChecks` gathers all of it in one pass
(:func:`verify_rows`); every part adds up in any
grouping of the rows, the example rows in row order.
"""

from __future__ import annotations

import numpy as np

from nblint.core.hashing import float_hashes, mix64, row_weights
from nblint.core.records import Record
from nblint.engine.findings import EXAMPLE_ROWS
from nblint.readers import Chunk


class RowSums:
    """A broken-group candidate's rows: how many sum to 0 and to 2 or more, and the first example rows (1-based)."""

    def __init__(self) -> None:  # (a plain class: a dataclass exec's its methods at import, for a first check too)
        self.zero = 0
        self.multi = 0
        #: Rows not summing to one, and rows summing to two or more (at most EXAMPLE_ROWS each, in row order).
        self.examples: list[int] = []
        self.multi_examples: list[int] = []

    def add(self, total: np.ndarray, row_offset: int) -> None:
        """Count one chunk's row sums (``total``: the members' sum on each row of the chunk)."""
        self.zero += int((total == 0).sum())
        self.multi += int((total >= 2).sum())
        for examples, rows in (
            (self.examples, np.flatnonzero(total != 1)),
            (self.multi_examples, np.flatnonzero(total >= 2)),
        ):
            room = EXAMPLE_ROWS - len(examples)
            if room > 0:
                examples.extend(int(r) + row_offset + 1 for r in rows[:room])

    def merge(self, other: RowSums) -> None:
        """Add the sums of rows after these."""
        self.zero += other.zero
        self.multi += other.multi
        self.examples.extend(other.examples[: EXAMPLE_ROWS - len(self.examples)])
        self.multi_examples.extend(other.multi_examples[: EXAMPLE_ROWS - len(self.multi_examples)])


class RowVerdicts(Record):
    """What the rows say: per broken candidate its sums; per (code column, group) whether they
    determine each other; the columns agreeing on every row; per pair whether they recode each other

    and whether the second is a function of the first.

    (Written out: a named tuple's class costs a fresh process ~0.4 ms to create; none reads this as a tuple.)
    """

    __slots__ = ("row_sums", "decodes", "identical", "recodes", "functions")

    def __init__(
        self,
        row_sums: list[RowSums],
        decodes: list[bool],
        identical: list[list[str]],
        recodes: list[int],
        functions: list[bool],
    ) -> None:
        self.row_sums = row_sums
        self.decodes = decodes
        self.identical = identical
        #: Per pair, the levels it maps one to one (0: not a recoding).
        self.recodes = recodes
        #: Per pair ``(a, b)``, whether each value of ``a`` goes with one value of ``b`` (``b`` a function of ``a``).
        self.functions = functions


class RowChecks:
    """The per-row verifications of candidate structure, accumulated chunk by chunk.

    For each broken-group candidate: rows summing to 0, to 2 or more, and the first
    example rows (not summing to one; summing to two or more); for each (code column, group) candidate: the (code, level) pairs
    seen; for each column that may duplicate another: an order-free hash of its
    values (a sum, modulo 2**64, of a hash of each (row, value)); for each pair of
    columns that may recode each other: the (value, value) pairs seen.  Every part
    adds up in any grouping of the rows, the examples in row order.
    """

    def __init__(self, broken_candidates, code_candidates, hash_columns, recode_candidates=()):
        self.broken_candidates, self.code_candidates = broken_candidates, code_candidates
        self.recode_candidates = list(recode_candidates)
        self.row_sums = [RowSums() for _ in broken_candidates]
        self.pair_tables: list[set] = [set() for _ in code_candidates]
        self.hashes = {c: np.uint64(0) for c in hash_columns}
        self.recode_tables: list[set] = [set() for _ in self.recode_candidates]

    def add(self, chunk: Chunk) -> None:
        values = dict(zip(chunk.names, chunk.columns))
        for (members, _), acc in zip(self.broken_candidates, self.row_sums):
            total = np.zeros(chunk.n_rows, dtype=np.int64)
            for m in members:
                total += values[m].values.astype(np.int64)
            acc.add(total, chunk.row_offset)
        for (column, group), pairs in zip(self.code_candidates, self.pair_tables):
            k = len(group.members) + 1
            level = np.full(chunk.n_rows, k - 1, dtype=np.int64)
            # Rows where the members or the code are missing say nothing (a group found on the rows
            # where its members are known, beside a code column missing on the same rows).
            known = np.ones(chunk.n_rows, dtype=bool)
            for position, m in enumerate(group.members):
                member = values[m].as_float()
                known &= ~np.isnan(member)
                level[member == 1] = position
            col = values[column]
            if col.kind == "text":
                known &= col.values >= 0
                # Distinct (code, level) pairs of this chunk, then local codes -> labels.
                assert col.labels is not None  # a text column's codes index its labels
                for key in np.unique(col.values[known] * k + level[known]).tolist():
                    pairs.add((col.labels[key // k], key % k))
            else:
                code = col.as_float()
                known &= ~np.isnan(code)
                stacked = np.column_stack([code[known], level[known].astype(np.float64)])
                pairs.update((a, int(b)) for a, b in np.unique(stacked, axis=0).tolist())
        if self.hashes:
            weights = row_weights(np.arange(chunk.row_offset, chunk.row_offset + chunk.n_rows, dtype=np.uint64))
            for column in self.hashes:
                with np.errstate(over="ignore"):
                    self.hashes[column] = np.uint64(
                        self.hashes[column] + np.sum(mix64(_value_hash(values[column]) ^ weights), dtype=np.uint64)
                    )
        for (a, b), seen in zip(self.recode_candidates, self.recode_tables):
            seen.update(zip(_labels(values[a]), _labels(values[b])))

    def merge(self, other: RowChecks) -> None:
        """Add the checks of rows after these (gathered apart)."""
        for acc, part in zip(self.row_sums, other.row_sums):
            acc.merge(part)
        for pairs, other_pairs in zip(self.pair_tables, other.pair_tables):
            pairs |= other_pairs
        for seen, other_seen in zip(self.recode_tables, other.recode_tables):
            seen |= other_seen
        with np.errstate(over="ignore"):
            for column in self.hashes:
                self.hashes[column] = np.uint64(self.hashes[column] + other.hashes[column])

    def verdicts(self, identical_candidates) -> RowVerdicts:
        """What the rows say of each candidate, once every row was added."""
        decodes = [_one_to_one(pairs) for pairs in self.pair_tables]
        identical = []
        for cols in identical_candidates:
            by_hash: dict[int, list[str]] = {}
            for c in cols:
                by_hash.setdefault(int(self.hashes[c]), []).append(c)
            identical += [group for group in by_hash.values() if len(group) > 1]
        recodes = [len(seen) if _one_to_one(seen) else 0 for seen in self.recode_tables]
        functions = [_many_to_one(seen) for seen in self.recode_tables]
        return RowVerdicts(self.row_sums, decodes, identical, recodes, functions)


def verify_rows(
    reduce_rows, order: dict[str, int], broken_candidates, code_candidates, identical_candidates, recode_candidates=()
) -> RowVerdicts:
    """One chunked pass computing every per-row verification at once, over the columns the candidates name.

    ``reduce_rows(columns, accumulator)`` is the context's pass (columns in table order, ``order``).
    """
    checks = RowChecks(
        broken_candidates, code_candidates, [c for cols in identical_candidates for c in cols], recode_candidates
    )
    needed = sorted(
        {m for members, _ in broken_candidates for m in members}
        | {c for c, _ in code_candidates}
        | {m for _, g in code_candidates for m in g.members}
        | set(checks.hashes)
        | {c for pair in recode_candidates for c in pair},
        key=lambda c: order[c],
    )
    if needed:
        checks = reduce_rows(needed, checks)
    return checks.verdicts(identical_candidates)


def _one_to_one(pairs: set) -> bool:
    """Whether the (a, b) pairs seen map each a to one b and each b to one a (the two columns determine each other)."""
    return len({a for a, _ in pairs}) == len(pairs) == len({b for _, b in pairs})


def _many_to_one(pairs: set) -> bool:
    """Whether the (a, b) pairs seen map each a to one b (``b`` is a function of ``a``; several a may share a b)."""
    return len({a for a, _ in pairs}) == len(pairs)


def _labels(col) -> list:
    """The distinct values of one chunk's column, as a list aligned with its rows (labels for text)."""
    if col.kind == "text":
        return [col.labels[k] if k >= 0 else None for k in col.values.tolist()]
    return col.as_float().tolist()


def _value_hash(col) -> np.ndarray:
    """A 64-bit hash of each row's value, equal for equal values across columns."""
    import pandas as pd

    if col.kind == "text":
        label_hash = pd.util.hash_array(np.array(col.labels + ("\x00missing",), dtype=object))
        return label_hash[col.values]
    return float_hashes(col.as_float())
