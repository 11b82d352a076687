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
"""

from __future__ import annotations

import numpy as np

from nblint.core.hashing import row_weights


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
            # The rows' stored columns gathered straight from the CSR arrays and marked (a bincount,
            # not a sort): a frequent word's thousands of rows took milliseconds through B[rows].
            starts, lengths = self.B.indptr[rows], np.diff(self.B.indptr)[rows]
            offsets = np.repeat(starts - np.concatenate([[0], np.cumsum(lengths)[:-1]]), lengths)
            cells = self.B.indices[offsets + np.arange(int(lengths.sum()))]
            marked = np.flatnonzero(np.bincount(cells, minlength=self.B.shape[1]))
            # (kept per column for the search: in the indices' own dtype, as B[rows].indices gave them)
            found = self._partners[j] = marked.astype(self.B.indices.dtype, copy=False)
        return found

    def rows(self, index) -> np.ndarray:
        """The rows each of the columns ``index`` is set on, one after the other (one entry per one)."""
        csc = self._columns()
        return np.concatenate(
            [np.zeros(0, dtype=csc.indices.dtype)] + [csc.indices[csc.indptr[j] : csc.indptr[j + 1]] for j in index]
        )

    def block(self, index) -> np.ndarray:
        """The dense block ``O[index][:, index]`` (int64)."""
        part = self.B[:, np.asarray(index, dtype=np.int64)].astype(np.int64)
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
            running = np.concatenate([np.zeros(1, dtype=np.uint64), np.cumsum(mixed, dtype=np.uint64)])
        hashes = running[csc.indptr[1:]] - running[csc.indptr[:-1]]
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
