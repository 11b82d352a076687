"""Identical rows of a document-term block: the same document twice, sometimes with two labels.

Rows are compared by a 64-bit fingerprint of their non-zero cells: the sum (wrapping
uint64) over the cells of ``mix64(column salt + mix64(value bits))``, with the column's
salt derived from its name, so that a sparse matrix and the same table read from a file
give the same fingerprints, whatever the column order. Rows with no non-zero cell (empty
documents) are counted apart: they are all alike without being copies of each other.
"""

from __future__ import annotations

import numpy as np

from nblint.core.hashing import EXACT_INTEGERS, GOLDEN_GAMMA, mix64, segment_sums, whole_hashes
from nblint.core.records import Record
from nblint.readers import name_mask


def _salts(names) -> np.ndarray:
    """The columns' salts: a 64-bit hash of each name, for every name at once (a vocabulary has thousands).

    Each code point is mixed with its position in its name, the mixed values are summed per name
    (wrapping), and the sum is mixed with the name's length: no Python per name, and the same salt
    for a name wherever it is read.
    """
    names = list(names)
    lengths = np.fromiter(map(len, names), dtype=np.int64, count=len(names))
    codes = np.frombuffer("".join(names).encode("utf-32-le", "surrogatepass"), dtype=np.uint32).astype(np.uint64)
    bounds = np.concatenate([np.zeros(1, dtype=np.int64), np.cumsum(lengths)])
    position = np.arange(len(codes), dtype=np.uint64) - np.repeat(bounds[:-1], lengths).astype(np.uint64)
    with np.errstate(over="ignore"):
        cells = mix64(codes + position * np.uint64(GOLDEN_GAMMA))
        return mix64(segment_sums(cells, bounds) + lengths.astype(np.uint64) * np.uint64(GOLDEN_GAMMA))


#: An integer column whose values in a chunk span fewer than this many integers is hashed through a table
#: of those values' cell hashes (:meth:`RowFingerprints._add_coded`) rather than cell by cell.
MAX_CODED_VALUES = 1024


def _value_bits(values: np.ndarray) -> np.ndarray:
    """The bits of each value as float64 (so 3 and 3.0 agree), as uint64."""
    return np.ascontiguousarray(values, dtype=np.float64).view(np.uint64)


class RowFingerprints:
    """Accumulates a fingerprint and a label per row, chunk by chunk (``add``), in row order (``merge``)."""

    def __init__(
        self,
        features: frozenset[str],
        target: str | None,
        words: frozenset[str] | None = None,
        keep_labels: bool = True,
    ):
        self.features = features
        self.target = target
        #: The document-term block's columns: a row with none of them set is an empty document, whatever
        #: the table's other columns beside the words hold (None: every feature counts).
        self.words = words
        self.hashes: list[np.ndarray] = []
        self.nonzero: list[np.ndarray] = []
        self.word_nonzero: list[np.ndarray] = []
        self.labels: list[np.ndarray] = []
        #: Every row's share from columns held whole in memory (:meth:`add_held`), or None.
        self.held: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        #: Keep each row's label (an object per row); a caller that reads the labels its own way says False.
        self.keep_labels = keep_labels
        self._tables: dict[str, tuple[int, np.ndarray]] = {}  # column -> its cell hashes (:meth:`_table`)

    def _is_word(self, names) -> np.ndarray:
        """Which of ``names`` are words (all of them when the block is not known)."""
        if self.words is None:
            return np.ones(len(names), dtype=bool)
        return name_mask(names, self.words)

    def add_held(self, matrix, names: tuple[str, ...]) -> None:
        """Add the cells of ``names``, held for every row as one CSR matrix (a wide table's 0/1 block).

        The same sums :meth:`add` makes from a sparse block, for all the rows at once: a
        pass need not read these columns again. The row passes then skip them.
        """
        with np.errstate(over="ignore"):
            cells = mix64(_salts(names)[matrix.indices] + whole_hashes(matrix.data))
            hashes = segment_sums(cells, matrix.indptr)
        words = np.concatenate([[0], np.cumsum(self._is_word(names)[matrix.indices], dtype=np.int64)])
        self.held = (
            hashes,
            np.diff(matrix.indptr).astype(np.int64),
            words[matrix.indptr[1:]] - words[matrix.indptr[:-1]],
        )
        self.features = self.features - frozenset(names)

    def add(self, chunk) -> None:
        n = chunk.n_rows
        hashes = np.zeros(n, dtype=np.uint64)
        nonzero = np.zeros(n, dtype=np.int64)
        word_nonzero = np.zeros(n, dtype=np.int64)
        with np.errstate(over="ignore"):
            if chunk.sparse is not None:
                block = chunk.sparse
                csr = block.matrix
                salts = self._salts(block.names)
                cells = mix64(salts[csr.indices] + whole_hashes(csr.data), in_place=True)  # (counts: from a table)
                hashes += segment_sums(cells, csr.indptr)
                nonzero += np.diff(csr.indptr)
                is_word = self._is_word(block.names)
                if is_word.all():  # (a vectorizer's matrix: every cell a word's)
                    word_nonzero += np.diff(csr.indptr)
                else:
                    words = np.concatenate([[0], np.cumsum(is_word[csr.indices], dtype=np.int64)])
                    word_nonzero += words[csr.indptr[1:]] - words[csr.indptr[:-1]]
            dense = [
                (name, np.asarray(column.values))
                for name, column in zip(chunk.names, chunk.columns)
                if name != self.target and name in self.features and column.kind == "numeric"
            ]
            # Integer columns of a narrow range of values (0/1 bits, small counts) through a table of their
            # values' cell hashes, a column at a time; the rest (real numbers, wide ranges) cell by cell.
            # (Without a block of words every feature counts as one: the words' count is the cells' count.)
            words_apart = self.words is not None
            own_words = word_nonzero if words_apart else nonzero
            scratch = np.empty(n, dtype=np.uint64)
            rest = [
                (name, values)
                for name, values in dense
                if not self._add_coded(name, values, hashes, nonzero, own_words, scratch)
            ]
            if rest:
                self._add_cells(rest, hashes, nonzero, own_words)
        if not words_apart:
            word_nonzero = nonzero.copy()
        self.hashes.append(hashes)
        self.nonzero.append(nonzero)
        self.word_nonzero.append(word_nonzero)
        self.labels.append(self._labels(chunk) if self.keep_labels else np.zeros(0, dtype=object))

    def _add_coded(self, name: str, values: np.ndarray, hashes, nonzero, word_nonzero, scratch) -> bool:
        """Add an integer column through a table of its values' cell hashes; False: not integers of a narrow range.

        With ``lo`` .. ``hi`` the values, ``table[v - lo]`` is the cell hash of the value ``v``
        (0 for the value 0, which sets no cell): one gather per row, no hash computed per cell.
        """
        if values.dtype.kind not in "biu" or not values.size:
            return False
        if values.dtype == np.bool_:
            values = values.view(np.uint8)
        lo, hi = int(values.min()), int(values.max())
        if hi - lo >= MAX_CODED_VALUES or lo < -EXACT_INTEGERS or hi > EXACT_INTEGERS:
            return False  # (beyond 2**53 the float64 bits every cell is hashed by round: read cell by cell)
        low, table = self._table(name, lo, hi)
        # (``scratch``: one buffer for every column's gather; "clip" writes it unbuffered, the codes are in range)
        hashes += table.take(values.astype(np.int64) - low if low else values, out=scratch, mode="clip")
        present = values != 0
        nonzero += present
        if self.words is not None and name in self.words:  # (else ``word_nonzero`` is ``nonzero``)
            word_nonzero += present
        return True

    def _add_cells(self, columns, hashes, nonzero, word_nonzero) -> None:
        """Add columns cell by cell: the non-zero cells in row order, hashed, summed per row."""
        salts = self._salts(tuple(name for name, _ in columns))
        values = np.column_stack([np.asarray(v, dtype=np.float64) for _, v in columns])
        cell = values != 0
        rows, cols = np.nonzero(cell)
        cells = mix64(salts[cols] + mix64(_value_bits(values[rows, cols])))
        bounds = np.concatenate([[0], np.cumsum(cell.sum(axis=1))])
        hashes += segment_sums(cells, bounds)
        nonzero += np.diff(bounds)
        if word_nonzero is not nonzero:
            word_nonzero += cell[:, self._is_word([name for name, _ in columns])].sum(axis=1)

    def _table(self, name: str, lo: int, hi: int) -> tuple[int, np.ndarray]:
        """The cell hashes of column ``name``'s integers from ``low`` (<= ``lo``) to at least ``hi``: ``low``, table.

        Kept from chunk to chunk, widened where a chunk's values leave it.
        """
        kept = self._tables.get(name)
        if kept is not None and kept[0] <= lo and hi < kept[0] + len(kept[1]):
            return kept
        if kept is not None:
            wide_lo, wide_hi = min(lo, kept[0]), max(hi, kept[0] + len(kept[1]) - 1)
            if wide_hi - wide_lo < MAX_CODED_VALUES:  # (chunks far apart: this chunk's range replaces the kept one)
                lo, hi = wide_lo, wide_hi
        levels = np.arange(lo, hi + 1, dtype=np.float64)
        with np.errstate(over="ignore"):
            table = mix64(_salts((name,))[0] + mix64(_value_bits(levels)))
        table[levels == 0] = 0  # (a zero sets no cell)
        self._tables[name] = (lo, table)
        return lo, table

    def _salts(self, names: tuple[str, ...]) -> np.ndarray:
        """The salts of a block's columns, computed once for all the blocks (they share the names)."""
        if getattr(self, "_salt_names", None) != names:
            self._salt_names, self._salt_values = names, _salts(names)
        return self._salt_values

    def _labels(self, chunk) -> np.ndarray:
        if self.target is None or self.target not in chunk.names:
            return np.zeros(chunk.n_rows, dtype=object)
        column = chunk.columns[chunk.names.index(self.target)]
        if column.kind == "text":
            return np.asarray([*column.labels, None], dtype=object)[np.asarray(column.values)]  # (-1: missing)
        return np.asarray(column.values).astype(object)

    def merge(self, other: RowFingerprints) -> None:
        self.hashes += other.hashes
        self.nonzero += other.nonzero
        self.word_nonzero += other.word_nonzero
        self.labels += other.labels


class DuplicateRows(Record):
    """Rows that repeat an earlier row (non-empty ones), and the sets whose copies carry different labels.

    (Written out: a named tuple's class costs a fresh process ~0.4 ms to create; none reads this as a tuple.)
    """

    __slots__ = (
        "copies",
        "sets",
        "conflicting_sets",
        "conflicting_rows",
        "empty_rows",
        "examples",
        "lengths",
        "groups",
        "empty_by_label",
        "empty_positions",
    )

    def __init__(
        self,
        copies: int,
        sets: int,
        conflicting_sets: int,
        conflicting_rows: int,
        empty_rows: int,
        examples: list[list[int]],
        lengths: np.ndarray,
        groups: list[list[int]],
        empty_by_label: dict[str, int],
        empty_positions: list[int],
    ) -> None:
        self.copies = copies  # rows that repeat an earlier one
        self.sets = sets  # distinct rows that occur more than once
        self.conflicting_sets = conflicting_sets  # of those, the ones seen with two or more labels
        self.conflicting_rows = conflicting_rows  # rows in the conflicting sets
        self.empty_rows = empty_rows  # rows with no word of the block set: empty documents (not counted as copies)
        self.examples = examples  # 1-based rows of a few sets, the conflicting ones first
        #: Non-zero cells of each row (a document's distinct words): how unequal the documents are.
        self.lengths = lengths
        #: Every set of identical rows, as 0-based positions, the conflicting ones first.
        self.groups = groups
        #: The empty rows' labels: label -> rows (a target's labels as text; one key "" without a target).
        self.empty_by_label = empty_by_label
        #: The first empty rows, as 0-based positions.
        self.empty_positions = empty_positions


def duplicate_rows(fingerprints: RowFingerprints, max_examples: int = 5) -> DuplicateRows:
    """Group the rows by fingerprint and count the copies and the label conflicts."""
    hashes = np.concatenate(fingerprints.hashes) if fingerprints.hashes else np.zeros(0, dtype=np.uint64)
    nonzero = np.concatenate(fingerprints.nonzero) if fingerprints.nonzero else np.zeros(0, dtype=np.int64)
    words = np.concatenate(fingerprints.word_nonzero) if fingerprints.word_nonzero else np.zeros(0, dtype=np.int64)
    labels = np.concatenate(fingerprints.labels) if fingerprints.labels else np.zeros(0, dtype=object)
    if fingerprints.held is not None:
        with np.errstate(over="ignore"):
            hashes = hashes + fingerprints.held[0]
        nonzero = nonzero + fingerprints.held[1]
        words = words + fingerprints.held[2]
    filled = np.flatnonzero(nonzero > 0)
    # An empty document has no word set, whatever the columns beside the words hold.
    empty_at = np.flatnonzero(words == 0)
    _, inverse, counts = np.unique(hashes[filled], return_inverse=True, return_counts=True)
    repeated = np.flatnonzero(counts > 1)
    members: dict[int, list[int]] = {int(s): [] for s in repeated}
    for position in np.flatnonzero(counts[inverse] > 1):
        members[int(inverse[position])].append(int(filled[position]))
    conflicting = [rows for rows in members.values() if len({str(labels[r]) for r in rows}) > 1]
    ordered = sorted(conflicting, key=lambda rows: rows[0]) + sorted(
        (rows for rows in members.values() if len({str(labels[r]) for r in rows}) == 1), key=lambda rows: rows[0]
    )
    empty_labels: dict[str, int] = {}
    for label in labels[empty_at].tolist():
        empty_labels[str(label)] = empty_labels.get(str(label), 0) + 1
    return DuplicateRows(
        copies=int((counts[repeated] - 1).sum()),
        sets=len(repeated),
        conflicting_sets=len(conflicting),
        conflicting_rows=sum(len(rows) for rows in conflicting),
        empty_rows=len(empty_at),
        examples=[[r + 1 for r in rows[:4]] for rows in ordered[:max_examples]],
        lengths=nonzero,
        groups=ordered,
        empty_by_label=dict(sorted(empty_labels.items())),
        empty_positions=empty_at[: max_examples * 2].tolist(),
    )


def document_rows(profile, source, words: frozenset[str], reduce_rows) -> DuplicateRows:
    """The identical rows of a table whose document-term block is ``words``: its features and target read once more.

    A sparse matrix is read as its own row blocks; a wide table's 0/1 block, held whole by
    the profile (its incidence), is fingerprinted from there, and only the other columns
    are read again (``reduce_rows(columns, accumulator)``, the context's pass).
    """
    features = tuple(profile.features)
    target = profile.target
    fingerprints = RowFingerprints(frozenset(features), target, words)
    if source.matrix is not None:  # a sparse matrix: its own row blocks
        for chunk in source.chunks():
            fingerprints.add(chunk)
    else:
        gram = profile.gram
        if gram.wide and gram.binary and not source.backend.distributed:
            # The wide 0/1 block is held whole (the profile's incidence): read only the other columns again.
            fingerprints.add_held(gram.cooccurrence.B, tuple(gram.binary))
            features = tuple(c for c in features if c in fingerprints.features)
        columns = features + ((target,) if target is not None else ())
        fingerprints = reduce_rows(columns, fingerprints)
    return duplicate_rows(fingerprints)


def table_duplicate_rows(ctx) -> DuplicateRows | None:
    """Identical rows of ``ctx``'s table where it holds a document-term block; else None.

    Only documents: in a narrow table of a few discrete columns, identical rows are what
    the values allow, not copies. The pass reads the features and the target once more
    (a sparse input as its row blocks).
    """
    if not ctx.term_columns:
        return None
    return document_rows(ctx.profile, ctx.source, ctx.term_columns, ctx.reduce_rows)


def empty_documents(ctx) -> DuplicateRows | None:
    """``ctx.duplicate_rows``, with its empty rows those with no word set.

    The structure may read some columns of the block as an encoded variable (a one-hot
    metadata group given in one matrix with the words): those do not fill a document, and
    only then is the pass made again with the words alone (the structure itself reads
    ``ctx.duplicate_rows``, so the first pass cannot wait for it).
    """
    found = ctx.duplicate_rows
    if found is None:
        return None
    encoded = {c for group in ctx.structure.groups for c in group.members} & ctx.term_columns
    if not encoded:
        return found
    return document_rows(ctx.profile, ctx.source, ctx.term_columns - encoded, ctx.reduce_rows)
