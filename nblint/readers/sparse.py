"""A ``scipy.sparse`` matrix as a table source: row blocks as they are for the profile, named columns after.

The profile pass gets the matrix's rows in blocks of about :data:`CHUNK_ENTRIES`
stored entries, as a CSR :class:`SparseBlock` on the chunk (the target as an
ordinary column): :func:`nblint.profile.sparse.profile_block` reads them without
densifying. Later passes ask for a few columns by name; those come as ordinary
dense columns, a chunk of rows at a time.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

from nblint.readers.chunks import Chunk, ColumnData, SparseBlock, TableSource, chunk_rows_for, name_mask

#: Stored entries in one row block of the profile pass (about 100 MB of work arrays;
#: ``jobs + 1`` blocks are in flight).
CHUNK_ENTRIES = 1 << 21
#: Sparse blocks wider than this keep no co-moments for their non-0/1 columns (VIF).
MOMENT_COLUMNS = 4096
#: More empty (all-zero) columns than this, and more than half of the matrix, are left out of a sparse
#: input (NB106 says how many): a width declared, not filled, must not set the cost.
EMPTY_COLUMNS = 4096


class SparseSource(TableSource):
    """A ``scipy.sparse`` matrix of features, and optionally the class of each row.

    Parameters
    ----------
    matrix : scipy.sparse matrix or array (n, p)
    names : sequence of str
        The p feature names.
    target : str, optional
        Name of the class column.
    y : ColumnData, optional
        The classes, one per row (with ``target``).
    path : str
        Display name in findings.
    notes : sequence of str
        Sentences on how the matrix was made, said by NB106 (``check_pipeline``'s hash-bucket names).
    words : collection of str or True, optional
        The columns declared a document-term block (a vectorizer's output; True: every
        column); without it the block is read from the values when the settings are known
        (:meth:`settle_words`).
    """

    def __init__(
        self,
        matrix,
        names: Sequence[str],
        target: str | None = None,
        y: ColumnData | None = None,
        path: str = "<array>",
        words=None,
        notes: Sequence[str] = (),
    ):
        from scipy import sparse

        csr = sparse.csr_matrix(matrix)  # shares the caller's arrays when it is CSR already
        if csr.dtype.kind not in "biuf":
            raise TypeError(f"a sparse matrix of {csr.dtype} values cannot be linted (expected numbers or booleans)")
        #: The entries as CSC where putting them in canonical form made them (the profile reads them so).
        self.by_column = None
        zeros = not np.all(csr.data)
        if zeros or not csr.has_canonical_format:
            csr, self.by_column = canonical_copies(csr, zeros)  # never change the caller's matrix
        self._empty_limits: tuple[str, ...] = ()
        # Each column's stored entries (no stored zeros: its non-zero rows), read from the columns where they are made.
        entries = (
            np.bincount(csr.indices, minlength=csr.shape[1])
            if self.by_column is None
            else np.diff(self.by_column.indptr).astype(np.int64)
        )
        filled = entries > 0
        empty = len(filled) - int(filled.sum())
        #: All-zero columns left out of the matrix (each would be a candidate word: never negative, mostly 0).
        self.empty_columns = 0
        if empty > EMPTY_COLUMNS and empty > len(filled) // 2:
            # A declared width that is not the data's (HashingVectorizer's 2^20 buckets for 40
            # documents): the empty columns are left out, so that the cost follows the entries.
            keep = np.flatnonzero(filled)
            # No entry sits in an empty column: the entries stay as they are (shared, never changed), their
            # columns renumbered among those kept, in order (one gather over the entries, not a column slice).
            csr = columns_taken(csr, keep, copy=False)
            self.by_column, entries = None, entries[keep]
            take = getattr(names, "take", None)  # (DefaultNames: the hash buckets' x{j} made in one map)
            names = take(keep) if take is not None else tuple(names[j] for j in keep.tolist())
            self.empty_columns = empty
            self._empty_limits = (
                f"{empty:,} of the matrix's {len(filled):,} columns hold no non-zero value (empty hash buckets, an "
                "unused vocabulary) and are left out: they are constant zero columns, which no model learns from",
            )
        else:
            names = tuple(names)
        self.matrix = csr
        self._entries = entries
        # Columns with a stored value other than 1 (NaN included) are not 0/1 anywhere: one
        # pass over the entries, so that no row block counts co-occurrences for them.
        other = (csr.data != 1) & (csr.data != 0)
        self.binary = np.bincount(csr.indices[other], minlength=csr.shape[1]) == 0
        self.features = names
        self.y = y
        self.target = target
        super().__init__(path, self.features + ((target,) if target is not None else ()), csr.shape[0])
        entries_per_row = max(csr.nnz / max(csr.shape[0], 1), 1.0)
        self.block_rows = int(max(256, min(1 << 20, CHUNK_ENTRIES // entries_per_row)))
        self.word_mask: np.ndarray | None = None
        self._settled = False
        #: Sentences on how the matrix was made, for NB106 (``check_pipeline``'s hash-bucket names).
        self.notes = tuple(notes)
        self._say_limits(np.zeros(len(self.features), dtype=bool))
        if words is True:
            self._set_words(np.ones(len(self.features), dtype=bool))
        elif words is not None:
            declared = frozenset(words)
            self._set_words(name_mask(self.features, declared))

    def settle_words(self, term_block: int, share: float) -> None:
        """Decide which columns are a document-term block from the values (once; declared words stay).

        Before the profile pass: the words take no co-moments (:func:`nblint.readers.words.matrix_words`).
        """
        if not self._settled:
            from nblint.readers.words import matrix_words

            self._set_words(
                matrix_words(
                    self.matrix, self.binary, term_block, share, self.empty_columns, self.features, self._entries
                )
            )

    def _set_words(self, mask: np.ndarray) -> None:
        self._settled = True
        self.word_mask = mask if mask.any() else None
        every = mask.all()  # (a vectorizer's matrix: every column a word, the names taken whole)
        self.words = frozenset(
            self.features if every else map(self.features.__getitem__, np.flatnonzero(mask).tolist())
        )
        self._say_limits(mask)

    def _say_limits(self, words: np.ndarray) -> None:
        """What the profile of this source leaves out (NB106), the columns ``words`` being a document-term block."""
        moment_columns = len(self.features) - int(words.sum())
        moments: tuple[str, ...] = ()
        if moment_columns > MOMENT_COLUMNS:
            moments = (
                f"sparse input of {moment_columns} columns (more than {MOMENT_COLUMNS}) outside a document-term "
                "block: VIF (NB104) is not computed for its columns that are not 0/1, whose dense co-moment matrix "
                f"would need {8 * moment_columns**2 / 2**30:.1f} GiB",
            )
        self.limits = self._empty_limits + moments + self.notes

    def chunks(self, columns: Sequence[str] | None = None) -> Iterator[Chunk]:
        if columns is None:  # the profile pass: row blocks as they are
            yield from self._blocks()
            return
        names = tuple(columns)
        wanted = [self.names.index(n) for n in names if n != self.target]  # (features come first in names)
        position = {self.features[j]: k for k, j in enumerate(wanted)}
        rows = chunk_rows_for(len(names))
        for offset in range(0, self.n_rows, rows):
            length = min(rows, self.n_rows - offset)
            dense = self.matrix[offset : offset + length][:, wanted].toarray() if wanted else np.empty((length, 0))
            yield Chunk(
                names,
                tuple(
                    self._target_slice(offset, length)
                    if n == self.target
                    else self._dense_column(dense[:, position[n]])
                    for n in names
                ),
                offset,
                length,
            )

    def _blocks(self) -> Iterator[Chunk]:
        dense_names = (self.target,) if self.target is not None else ()
        for offset in range(0, self.n_rows, self.block_rows):
            length = min(self.block_rows, self.n_rows - offset)
            columns = (self._target_slice(offset, length),) if self.target is not None else ()
            whole = length == self.n_rows  # (one block: the matrix itself, never changed, and its columns if made)
            block = SparseBlock(
                self.features,
                self.matrix if whole else self.matrix[offset : offset + length],
                self.matrix.dtype.kind in "biu",
                self.binary,
                words=self.word_mask,
                by_column=self.by_column if whole else None,
            )
            yield Chunk(dense_names, columns, offset, length, sparse=block)

    def _target_slice(self, offset: int, length: int) -> ColumnData:
        assert self.y is not None  # called for the target column, which comes with its classes
        return slice_column(self.y, offset, length)

    def _dense_column(self, values: np.ndarray) -> ColumnData:
        if self.matrix.dtype.kind in "biu":
            return ColumnData("numeric", values, None, True)
        values = values.astype(np.float64)
        values[np.isinf(values)] = np.nan
        return ColumnData("numeric", values)


def slice_column(col: ColumnData, offset: int, length: int) -> ColumnData:
    """Rows ``[offset, offset + length)`` of a whole column."""
    end = offset + length
    missing = None if col.missing is None else col.missing[offset:end]
    return ColumnData(col.kind, col.values[offset:end], col.labels, col.integer_dtype, missing)


def canonical_copies(csr, zeros: bool = True):
    """A copy of a CSR matrix in canonical form (each row's entries sorted by column, none twice, no stored
    zero), and the same entries as CSC (or None). ``zeros``: the matrix may store zeros (else none is looked for).

    A vectorizer's matrix comes with each row's entries in vocabulary order, not column order
    (its columns are renumbered in name order after counting). Two counting sorts, to CSC and
    back, put every row in column order in O(entries); scipy's own ``sort_indices`` sorts row by
    row, comparisons and all, at about twice the cost (3 ms against 1.5 ms of a 100,000-entry
    matrix, 55 ms against 35 ms of 1.5 million). The CSC on the way is the profile's reading of
    the matrix, kept (the arrays ``tocsc`` of the canonical copy gives). Entries that share a cell
    (rare: a CSR matrix made by hand) are summed as scipy sums them, on a copy sorted by scipy, and
    no CSC is kept.
    """
    by_column = csr.tocsc()
    ordered = by_column.tocsr()
    if ordered.has_canonical_format:  # (sorted, every column once: the same arrays a sort per row gives)
        ordered.indices = ordered.indices.astype(csr.indices.dtype, copy=False)
        ordered.indptr = ordered.indptr.astype(csr.indptr.dtype, copy=False)
        if zeros:
            by_column.eliminate_zeros()
    else:
        ordered, by_column = csr.copy(), None
        ordered.sum_duplicates()  # (two entries of one cell may sum to 0)
        zeros = True
    if zeros:
        ordered.eliminate_zeros()
    return ordered, by_column


def columns_taken(matrix, at: np.ndarray, copy: bool = True):
    """``matrix[:, at]`` for distinct columns ``at`` that hold every entry of a CSR matrix: each entry renumbered.

    The columns ``at`` are a permutation of the matrix's (a block put in name order) or the
    columns left once the empty ones are dropped (a hashed matrix's 2^20 declared buckets). No
    entry moves between rows and none is dropped: the entries keep their order within each row,
    only their columns change (new column k is old column ``at[k]``), one gather over the entries.
    The arrays are scipy's column slice's, entry for entry, without its general fancy index (which
    allows repeated columns: it counts each wanted column's copies, then walks the entries; a hashed
    block's 13,000 columns of 6,444 tweets: 6 ms against 0.2). ``copy``: the values and row
    pointers are copied, as the slice copies them; else shared with ``matrix`` (never changed).
    """
    if matrix.format != "csr":
        return matrix[:, at]
    from scipy import sparse

    renumber = np.zeros(matrix.shape[1], dtype=matrix.indices.dtype)
    renumber[at] = np.arange(len(at), dtype=matrix.indices.dtype)
    data, indptr = (matrix.data.copy(), matrix.indptr.copy()) if copy else (matrix.data, matrix.indptr)
    return sparse.csr_matrix((data, renumber[matrix.indices], indptr), shape=(matrix.shape[0], len(at)), copy=False)
