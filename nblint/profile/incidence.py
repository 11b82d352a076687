"""The 0/1 block of a wide table kept as its sparse incidence matrix: co-occurrences answered when asked.

A wide table's co-occurrence counts ``O = B^T B`` (``B`` the rows x 0/1-columns
incidence matrix) cost ``sum_r m_r^2`` to build, ``m_r`` the ones of row r: on a bag of
words in binary form (20 Newsgroups, 11,293 documents x 42,254 words) that is hundreds
of millions of pairs, seconds and gigabytes, for a matrix of which the searches read a
few rows.  :class:`Incidence` keeps ``B`` itself (as large as the data's ones) and
answers what the searches ask: each column's count of ones (``O_ii``), the columns that
share a row with one column (the stored pattern of ``O``'s row j), the dense block of
``O`` among a few columns, and the sets of identical columns (equal row sets), found
by hashing each column's rows and confirmed by comparing them.

A dense block (a long table's one-hot levels and flags, a one in every few cells) has
``sum_r m_r^2`` of the order of rows x columns^2: every column meets nearly every other,
and gathering each one's partners row by row cost seconds per thousand columns.  There
the columns are also kept as bits, 64 rows to a word, and two columns are seen to meet
by a few words' AND (:meth:`Incidence._partners_by_bits`); only the pairs not met in
the first words are compared on every word.
"""

from __future__ import annotations

import numpy as np

from nblint.core.hashing import row_weights, segment_sums

#: Words of 64 rows on which every column is first compared with the one asked about.
HEAD_WORDS = 4
#: The columns are kept as bits only in a block with at least one one in this many cells: the
#: bits then take no more memory than the column indices held already (4 bytes a one).
BITS_DENSITY = 32


class Incidence:
    """The incidence matrix ``B`` (CSR, rows x 0/1 columns) of a wide 0/1 block.

    Parameters
    ----------
    B : scipy.sparse matrix
        One stored entry per one (its value is not read).
    """

    def __init__(self, B):
        from scipy import sparse

        B = sparse.csr_matrix(B)
        B.sort_indices()
        self.B = sparse.csr_matrix((np.ones(B.nnz, dtype=np.int8), B.indices, B.indptr), shape=B.shape)
        self._csc = None
        self._partners: dict[int, np.ndarray] = {}
        self._row_ones: np.ndarray | None = None
        self._bits: np.ndarray | None = None

    def _columns(self):
        """``B`` in CSC form (each column's rows), made once when first needed."""
        if self._csc is None:
            self._csc = self.B.tocsc()
        return self._csc

    @property
    def shape(self) -> tuple[int, int]:
        """(columns, columns): the shape of ``O``."""
        return (self.B.shape[1], self.B.shape[1])

    def diagonal(self) -> np.ndarray:
        """Each column's count of ones, ``O_ii``."""
        return np.bincount(self.B.indices, minlength=self.B.shape[1]).astype(np.int64)

    def pairs(self) -> float:
        """An upper bound on the entries of ``O``: ``min(sum_r m_r^2, b^2)``."""
        ones = np.diff(self.B.indptr).astype(np.float64)
        return min(float(ones @ ones), float(self.B.shape[1]) ** 2)

    def partners(self, j: int) -> np.ndarray:
        """The columns that share a row with column ``j`` (itself included), sorted: row j of ``O``'s pattern."""
        found = self._partners.get(j)
        if found is None:
            csc = self._columns()
            rows = csc.indices[csc.indptr[j] : csc.indptr[j + 1]]
            if self._row_ones is None:
                self._row_ones = np.diff(self.B.indptr)
            lengths = self._row_ones[rows]
            cells = int(lengths.sum())  # (the entries a gather of the rows reads)
            marked = self._partners_by_bits(j, cells)
            if marked is None:
                # The rows' stored columns gathered straight from the CSR arrays and marked (a bincount,
                # not a sort): a frequent word's thousands of rows took milliseconds through B[rows].
                starts = self.B.indptr[rows]
                offsets = np.repeat(starts - np.concatenate([[0], np.cumsum(lengths)[:-1]]), lengths)
                gathered = self.B.indices[offsets + np.arange(cells)]
                marked = np.flatnonzero(np.bincount(gathered, minlength=self.B.shape[1]))
            # (kept per column for the search: in the indices' own dtype, as B[rows].indices gave them)
            found = self._partners[j] = marked.astype(self.B.indices.dtype, copy=False)
        return found

    def _partners_by_bits(self, j: int, cells: int) -> np.ndarray | None:
        """:meth:`partners` from the columns' bits, or None where gathering ``cells`` entries costs less.

        Every column's first :data:`HEAD_WORDS` words are AND-ed with column j's (``columns
        x HEAD_WORDS`` operations, against ``cells`` for a gather); the columns not met
        there are compared on every word, unless that would cost more than the gather.
        """
        n, b = self.B.shape
        if cells <= b * HEAD_WORDS or self.B.nnz * BITS_DENSITY < n * b:
            return None  # (a sparse block, a bag of words: a gather is cheaper, and bits would take more memory)
        bits = self._column_bits()
        own = bits[j]
        head = min(HEAD_WORDS, bits.shape[1])
        met = (bits[:, :head] & own[:head]).any(axis=1)
        undecided = np.flatnonzero(~met)
        if len(undecided) * (bits.shape[1] - head) > cells:
            return None
        if len(undecided) and head < bits.shape[1]:
            met[undecided] = (bits[undecided, head:] & own[head:]).any(axis=1)
        return np.flatnonzero(met)

    def _column_bits(self) -> np.ndarray:
        """Each column's rows as bits, (columns, words of 64 rows) uint64, made once when first needed."""
        if self._bits is None:
            csc = self._columns()
            csc.sort_indices()  # (a conversion's are sorted already: then this only checks)
            n, b = self.B.shape
            words = -(-n // 64)
            bits = np.zeros(b * words, dtype=np.uint64)
            # Columns a few million entries at a time (the keys take 8 bytes an entry while made).
            step = max(1, (1 << 22) * b // max(csc.nnz, 1))
            for first in range(0, b, step):
                last = min(b, first + step)
                lo, hi = int(csc.indptr[first]), int(csc.indptr[last])
                rows = csc.indices[lo:hi].astype(np.int64)
                column = np.repeat(np.arange(first, last, dtype=np.int64), np.diff(csc.indptr[first : last + 1]))
                key = column * words + (rows >> 6)
                if not len(key):
                    continue
                # A column's rows are sorted, so its ones within one word are adjacent, and being
                # distinct bits, their sum is their OR.
                new = np.flatnonzero(np.concatenate([[True], key[1:] != key[:-1]]))
                bits[key[new]] = np.add.reduceat(np.left_shift(np.uint64(1), (rows & 63).astype(np.uint64)), new)
            self._bits = bits.reshape(b, words)
        return self._bits

    def rows(self, index) -> np.ndarray:
        """The rows each of the columns ``index`` is set on, one after the other (one entry per one)."""
        csc = self._columns()
        return np.concatenate(
            [np.zeros(0, dtype=csc.indices.dtype)] + [csc.indices[csc.indptr[j] : csc.indptr[j + 1]] for j in index]
        )

    def block(self, index) -> np.ndarray:
        """The dense block ``O[index][:, index]`` (int64)."""
        # (the columns from the CSC form: from the CSR one, each block read every stored entry of B,
        # and a report of 800 groups' figures read them 800 times)
        part = self._columns()[:, np.asarray(index, dtype=np.int64)].astype(np.int64)
        return np.asarray((part.T @ part).toarray(), dtype=np.int64)

    def take(self, index) -> Incidence:
        """The columns ``index`` only (in that order)."""
        return Incidence(self.B[:, np.asarray(index, dtype=np.int64)])

    def __add__(self, other: Incidence) -> Incidence:
        """The incidence of both parts' rows (two disjoint sets of rows, the same columns): ``O`` adds."""
        from scipy import sparse

        return Incidence(sparse.vstack([self.B, other.B], format="csr"))

    def identical_sets(self) -> list[list[int]]:
        """Sets of columns set on exactly the same rows (two or more; columns with no one, or all ones, left out).

        Each column's rows are hashed (a wrapping sum of mixed row numbers); columns that
        agree on count and hash are then compared row by row, so a set is exact.
        Sets are ordered by their first column, members ascending.
        """
        n, b = self.B.shape
        csc = self._columns()
        counts = np.diff(csc.indptr)
        with np.errstate(over="ignore"):
            mixed = row_weights(csc.indices)
        hashes = segment_sums(mixed, csc.indptr)
        varied = np.flatnonzero((counts > 0) & (counts < n))
        order = varied[np.lexsort((varied, hashes[varied], counts[varied]))]
        if not len(order):
            return []
        # Runs of equal (count, hash) in that order, found at once: only runs of two or more are compared.
        new = np.ones(len(order), dtype=bool)
        new[1:] = (counts[order[1:]] != counts[order[:-1]]) | (hashes[order[1:]] != hashes[order[:-1]])
        starts = np.flatnonzero(new)
        stops = np.append(starts[1:], len(order))
        shared = stops - starts > 1
        sets: list[list[int]] = []
        for start, stop in zip(starts[shared].tolist(), stops[shared].tolist()):
            sets += self._confirmed(sorted(order[start:stop].tolist()))
        return sorted(sets, key=lambda members: members[0])

    def _confirmed(self, candidates: list[int]) -> list[list[int]]:
        """Split columns of equal hash into the sets whose rows really are equal."""
        csc = self._columns()
        # Rows compared as bytes (one dictionary look-up a column: a document's hundred hapaxes are one set).
        by_rows: dict[bytes, list[int]] = {}
        for j in candidates:
            by_rows.setdefault(csc.indices[csc.indptr[j] : csc.indptr[j + 1]].tobytes(), []).append(j)
        return [members for members in by_rows.values() if len(members) > 1]
