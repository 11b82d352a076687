"""The Gram block of a profile: co-moments of the complete numeric columns (for VIF)
and exact co-occurrence counts of the 0/1 columns among them (for group detection).

One chunk's block is :func:`chunk_gram`; two blocks of disjoint rows merge with
:func:`merge_gram` (counts add, co-moments take Chan et al.'s pairwise update,
:func:`nblint.nbmath.merge_moments`).  Wide tables keep their 0/1 counts sparse.
"""

from __future__ import annotations

from typing import cast

import numpy as np

from nblint.core.blas import dense_blas
from nblint.core.resources import ProfileCaps
from nblint.profile.incidence import Incidence
from nblint.readers import Names
from nblint.readers.sparse import MOMENT_COLUMNS

#: More complete 0/1 columns than this make a table *wide*: their co-occurrences are
#: kept as a sparse matrix and they stay out of the co-moment (VIF) matrix, whose
#: dense (b x b) float64 form would need 8 b^2 bytes (3.2 GB at b = 20,000).
WIDE_BINARY = 4096
#: Multiply-adds (rows x 0/1 columns squared) up to which a chunk's co-occurrences are one
#: dense product without looking at how sparse the block is (the sparse product needs
#: scipy.sparse, ~0.1 s to import on a busy machine, against about a millisecond).
SMALL_PRODUCT = 1 << 22


class Gram:
    """Centred co-moments of the complete numeric columns, and exact 0/1 co-occurrences.

    The 0/1 block of the co-moments is not stored: it follows exactly from the
    integer counts, ``M_bb = O - s s^T / n`` (``s`` the counts of ones), so merging
    two parts adds integers there, and only the ``(q, z)`` columns of the other
    complete columns take Chan et al.'s pairwise update.  :attr:`comoment`
    assembles the whole matrix when it is asked for.

    Attributes
    ----------
    names : tuple of str
        Numeric feature columns with no missing value, in table order.
    n : int
        Rows.
    mean : ndarray (q,)
    moments : ndarray (q, z)
        The columns of ``M = sum_r (x_r - mean)(x_r - mean)^T`` that belong to the
        ``z`` columns of ``names`` that are not 0/1 (in ``names`` order).
    binary : tuple of str
        The 0/1 columns among ``names``.
    counts : ndarray (b, b) int64, or :class:`~nblint.profile.incidence.Incidence` when ``wide``
        ``O_ij`` = rows where both 0/1 columns are 1 (diagonal: the column's count of
        ones), for ``i <= j`` only when dense (zeros below the diagonal: the products
        are symmetric, so half of them are computed and added); when wide, the 0/1
        block itself, which gives the entries of ``O`` that are asked for.
    wide : bool
        More than ``wide_binary`` 0/1 columns: ``cooccurrence`` is an incidence matrix
        (``O`` on demand), ``names``/``mean``/``comoment`` cover the
        other complete columns only.

    (A class written out: a dataclass's generated methods cost a first check in a fresh process ~1 ms.)
    """

    def __init__(
        self,
        names: tuple[str, ...],
        n: int,
        mean: np.ndarray,
        moments: np.ndarray,
        binary: tuple[str, ...],
        counts: np.ndarray | Incidence,
        wide: bool = False,
    ) -> None:
        self.names, self.binary = Names(names), Names(binary)  # look-ups by name in O(1)
        self.n = n
        self.mean = mean
        self.moments = moments
        self.counts = counts
        self.wide = wide
        self._comoment: np.ndarray | None = None
        self._cooccurrence: np.ndarray | None = None

    def block(self, index) -> np.ndarray:
        """The co-occurrence counts among the 0/1 columns at positions ``index``: ``O[index][:, index]``, dense."""
        if isinstance(self.counts, Incidence):  # (wide)
            return self.counts.block(index)
        index = np.asarray(index, dtype=np.int64)
        return np.asarray(self.dense_cooccurrence()[np.ix_(index, index)], dtype=np.int64)

    @property
    def cooccurrence(self) -> np.ndarray | Incidence:
        """The symmetric co-occurrence counts ``O`` (dense int64, or when wide the incidence that answers for it)."""
        if isinstance(self.counts, Incidence):  # (wide)
            return self.counts
        return self.dense_cooccurrence()

    def dense_cooccurrence(self) -> np.ndarray:
        """``O`` of a table that is not wide, symmetric (dense int64)."""
        upper = self.counts
        assert not isinstance(upper, Incidence), "a wide table's co-occurrences are its incidence"
        if self._cooccurrence is None:
            self._cooccurrence = upper + upper.T - np.diag(np.diag(upper))
        return self._cooccurrence

    @property
    def positions(self) -> tuple[np.ndarray, np.ndarray]:
        """Positions in ``names`` of the 0/1 columns (none when wide) and of the others."""
        is_binary = np.array([not self.wide and name in self.binary for name in self.names], dtype=bool)
        return np.flatnonzero(is_binary), np.flatnonzero(~is_binary)

    @property
    def comoment(self) -> np.ndarray:
        """``M = sum_r (x_r - mean)(x_r - mean)^T`` over ``names`` (q, q), assembled once."""
        if self._comoment is None:
            bpos, zpos = self.positions
            q = len(self.names)
            M = np.empty((q, q))
            M[:, zpos] = self.moments
            M[zpos, :] = self.moments.T
            if len(bpos):
                ones = self.diagonal().astype(np.float64)
                # Exact integers minus one rounded product: as exact as the data allow.
                M[np.ix_(bpos, bpos)] = self.dense_cooccurrence() - np.outer(ones, ones) / max(self.n, 1)
            self._comoment = M
        return self._comoment

    def comoment_of(self, index) -> np.ndarray:
        """``M[index][:, index]`` for ascending positions ``index`` in ``names``, without assembling all of ``M``.

        What VIF reads when a document-term block's words are left out: the block is most
        of ``names``, and the whole ``M`` over a 4,000-word vocabulary is 128 MB to fill.
        """
        index = np.asarray(index, dtype=np.int64)
        if self._comoment is not None or len(index) == len(self.names):
            return self.comoment[np.ix_(index, index)]
        bpos, zpos = self.positions
        z_column = np.full(len(self.names), -1, dtype=np.int64)
        z_column[zpos] = np.arange(len(zpos))
        at_z = z_column[index] >= 0
        zk, bk = np.flatnonzero(at_z), np.flatnonzero(~at_z)
        M = np.empty((len(index), len(index)))
        M[:, zk] = self.moments[np.ix_(index, z_column[index[zk]])]
        M[zk, :] = M[:, zk].T
        if len(bk):
            b = np.searchsorted(bpos, index[bk])  # (the 0/1 columns are in ``names`` order: ascending)
            upper = cast(np.ndarray, self.counts)[np.ix_(b, b)]
            ones = np.diag(upper).astype(np.float64)
            # As :attr:`comoment`: exact integers (symmetric) minus one rounded product.
            M[np.ix_(bk, bk)] = (upper + upper.T - np.diag(np.diag(upper))) - np.outer(ones, ones) / max(self.n, 1)
        return M

    def diagonal(self) -> np.ndarray:
        """Each 0/1 column's count of ones, ``O_ii``."""
        if isinstance(self.counts, Incidence):  # (wide)
            return self.counts.diagonal()
        return np.diag(self.counts).astype(np.int64) if len(self.binary) else np.zeros(0, dtype=np.int64)


def chunk_gram(
    X: np.ndarray,
    names,
    complete: np.ndarray,
    zero_one: np.ndarray,
    wide_binary: int = WIDE_BINARY,
    caps: ProfileCaps | None = None,
) -> tuple[Gram, tuple[str, ...]]:
    """Co-moments of the complete columns; exact co-occurrences of the 0/1 ones among them.

    Within ``caps``: the continuous columns' co-moments are left out when their
    matrix would not fit, and the 0/1 columns' co-occurrences when their count
    would not (then the returned notes say so, for NB106).
    """
    # Its products (co-moments, co-occurrences) take at most n q^2 multiply-adds over the q complete columns.
    with dense_blas(float(X.shape[0]) * float(np.count_nonzero(complete)) ** 2):
        return _chunk_gram(X, names, complete, zero_one, wide_binary, caps)


def _chunk_gram(
    X: np.ndarray, names, complete: np.ndarray, zero_one: np.ndarray, wide_binary: int, caps: ProfileCaps | None
) -> tuple[Gram, tuple[str, ...]]:
    """:func:`chunk_gram` with BLAS settled."""
    n = X.shape[0]
    q_idx = np.flatnonzero(complete)
    b_mask = zero_one[q_idx]
    b_idx, z_idx = q_idx[b_mask], q_idx[~b_mask]
    limits: tuple[str, ...] = ()
    if caps is not None and len(z_idx) > caps.comoment_columns:
        limits += (_comoment_note(len(z_idx), caps),)
        z_idx = z_idx[:0]
    wide = len(b_idx) > wide_binary or (caps is not None and 24.0 * len(b_idx) ** 2 > caps.share)
    if caps is not None and wide and len(b_idx):
        row_ones = column_block(X, b_idx).sum(axis=1)
        pairs = min(float(row_ones @ row_ones), float(len(b_idx)) ** 2)  # O = B^T B has at most these
        if pairs > caps.cooccurrences:
            limits += (_cooccurrence_note(len(b_idx), pairs, caps),)
            b_idx, wide = b_idx[:0], False
    q_idx = np.sort(np.concatenate([b_idx, z_idx]))
    b_mask = np.isin(q_idx, b_idx)
    bits = column_block(X, b_idx)
    if len(b_idx):
        cooc = _cooccurrence(bits, wide)
        ones = np.asarray(cooc.diagonal(), dtype=np.float64)
    else:
        cooc = np.zeros((0, 0), dtype=np.int64)
        ones = np.zeros(0)
    Z = column_block(X, z_idx)
    z_mean = Z.mean(axis=0) if len(z_idx) else np.zeros(0)
    Zc = Z - z_mean
    binary = tuple(names[i] for i in b_idx)
    if wide:
        return Gram(tuple(names[i] for i in z_idx), n, z_mean, Zc.T @ Zc, binary, cooc, True), limits
    # M_bz = B^T Zc because Zc sums to 0; M_zz = Zc^T Zc; M_bb is left to the counts.
    bpos, zpos = np.flatnonzero(b_mask), np.flatnonzero(~b_mask)
    mean = np.empty(len(q_idx))
    mean[bpos], mean[zpos] = ones / n, z_mean
    moments = np.empty((len(q_idx), len(z_idx)))
    moments[zpos] = Zc.T @ Zc
    if len(b_idx):
        moments[bpos] = bits.T @ Zc
    return Gram(tuple(names[i] for i in q_idx), n, mean, moments, binary, cooc), limits


def sparse_chunk_gram(
    X, names, complete: np.ndarray, zero_one: np.ndarray, wide_binary: int, words: np.ndarray | None = None
):
    """:func:`nblint.profile.gram.chunk_gram` from sparse columns (never densified).

    ``zero_one`` marks the columns that are 0/1 in the whole matrix: a column that is
    0/1 in these rows only takes the co-moments, as it does once the dense path has
    merged its blocks, and a word counted twice somewhere never fills the co-occurrences.
    ``words`` marks the words of a document-term block: they take no co-moments (VIF leaves
    words out; a 4,000-word vocabulary's would be a dense 128 MB product of every pair of words).
    """
    from scipy import sparse

    n = X.shape[0]
    b_idx = np.flatnonzero(complete & zero_one)
    moments = complete & ~zero_one if words is None else complete & ~zero_one & ~words
    z_idx = np.flatnonzero(moments) if int(moments.sum()) <= MOMENT_COLUMNS else np.zeros(0, dtype=np.int64)
    wide = len(b_idx) > wide_binary
    empty = sparse.csr_matrix((n, 0), dtype=X.dtype)  # (no column: no slice, which visits every entry; weights)
    B = (X[:, b_idx] if len(b_idx) else empty).tocsr()
    B.sort_indices()
    B = sparse.csr_matrix((np.ones(B.nnz, dtype=np.int64), B.indices, B.indptr), shape=B.shape)
    binary = tuple(map(names.__getitem__, b_idx.tolist()))  # (Python ints index a tuple fastest)
    if len(z_idx):
        Z = X[:, z_idx].astype(np.float64)
        z_mean = np.asarray(Z.sum(axis=0)).ravel() / max(n, 1)
        zz = (Z.T @ Z).toarray() - n * np.outer(z_mean, z_mean)
    else:  # (a block of words takes no co-moments: scipy's sums and products of empty matrices cost a millisecond)
        Z, z_mean, zz = None, np.zeros(0), np.zeros((0, 0))
    if wide:  # the incidence, not O = B^T B: a bag of words' pairs of words are hundreds of millions
        return Gram(tuple(map(names.__getitem__, z_idx.tolist())), n, z_mean, zz, binary, Incidence(B), True)
    O = (B.T.tocsr() @ B).tocsr()
    ones = np.asarray(O.diagonal(), dtype=np.float64)
    q_idx = np.sort(np.concatenate([b_idx, z_idx]))
    b_mask = zero_one[q_idx]
    bpos, zpos = np.flatnonzero(b_mask), np.flatnonzero(~b_mask)
    mean = np.empty(len(q_idx))
    mean[bpos], mean[zpos] = ones / max(n, 1), z_mean
    moments = np.empty((len(q_idx), len(z_idx)))
    moments[zpos] = zz
    if len(b_idx) and Z is not None:
        moments[bpos] = (B.T @ Z).toarray() - np.outer(ones, z_mean)
    q_names = tuple(map(names.__getitem__, q_idx.tolist()))
    return Gram(q_names, n, mean, moments, binary, np.triu(O.toarray()).astype(np.int64))


def column_block(X: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """``X[:, idx]`` for sorted, distinct ``idx``: a view when the columns are consecutive.

    A table's 0/1 columns, or its continuous ones, usually sit side by side; the view
    spares a copy of ``n x len(idx)`` values per chunk (and the fresh pages it would
    touch), with the layout the copy had (a run of a Fortran-ordered matrix's columns is
    Fortran-ordered), so every product and sum over it is unchanged.
    """
    if len(idx) and idx[-1] - idx[0] == len(idx) - 1:
        return X[:, int(idx[0]) : int(idx[-1]) + 1]
    return X[:, idx]


def _comoment_note(columns: int, caps: ProfileCaps) -> str:
    return (
        f"VIF (NB104) leaves out the {columns:,} complete continuous columns: their co-moment matrix would take "
        f"{caps.describe(32.0 * columns**2)}; identical columns among them are still found, by hashing"
    )


def _cooccurrence_note(columns: int, pairs: float, caps: ProfileCaps) -> str:
    return (
        f"one-hot, dummy and broken groups (NB101-NB103, NB105) and identical 0/1 columns are not searched among "
        f"the {columns:,} complete 0/1 columns: their co-occurrence counts would take {caps.describe(40.0 * pairs)}"
    )


def _cooccurrence(bits: np.ndarray, wide: bool):
    """Exact co-occurrence counts ``O = B^T B`` of a block of 0/1 columns.

    Dense 0/1 blocks use one float32 product ``B^T B`` (numpy's SGEMM: float32
    sums of 0/1 products are exact integers while n < 2**24), of which the upper
    triangle is kept.  scipy's SSYRK would do half the multiply-adds, but its
    wrapper copies the block to Fortran order and holds the GIL meanwhile: 2.4 ms
    of CPU against 0.9 ms for a 16k x 60 chunk of the bench table, and the
    ``--jobs`` threads waited for each other.  Sparse ones use a sparse product,
    whose cost is ``sum_r m_r^2`` (``m_r`` ones in row r) instead of ``n b^2``; it
    is taken when that is clearly cheaper, and always for a wide block, whose
    result stays sparse.  Both give the same integers.

    Returns
    -------
    O
        Dense int64 upper triangle, or when ``wide`` the block's
        :class:`~nblint.profile.incidence.Incidence`, which answers for ``O``.
    """
    n, b = bits.shape
    if wide:  # the ones straight from the block: no float32 copy (a 418-row chunk of 20,000 columns is 33 MB)
        B = _incidence(bits)
        return Incidence(B)
    B32 = bits.astype(np.float32, order="F")
    if float(n) * b * b <= SMALL_PRODUCT:
        return _dense_counts(B32)
    row_ones = B32.sum(axis=1, dtype=np.float64)
    if float(np.dot(row_ones, row_ones)) * 250 >= float(n) * b * b:
        return _dense_counts(B32)
    B = _incidence(B32)
    O = (B.T.tocsr() @ B).tocsr()
    return np.triu(O.toarray())


def _incidence(bits: np.ndarray):
    """The ones of a dense 0/1 block as a CSR matrix of ones (int64)."""
    from scipy import sparse

    rows, cols = np.nonzero(bits)
    return sparse.csr_matrix((np.ones(len(rows), dtype=np.int64), (rows, cols)), shape=bits.shape)


def _dense_counts(B32: np.ndarray) -> np.ndarray:
    """The upper triangle of ``B^T B`` of a float32 0/1 block (Fortran-ordered: no copy for the product)."""
    return np.triu(B32.T @ B32).astype(np.int64)


def merge_gram(
    a: Gram, b: Gram, in_place: bool = False, caps: ProfileCaps | None = None
) -> tuple[Gram, tuple[str, ...]]:
    """:func:`_merge_grams`, then the sparse co-occurrences dropped if they outgrew ``caps`` (with NB106's note)."""
    merged = _merge_grams(a, b, in_place)
    if merged is None:  # a wide part beside a narrow one: their 0/1 blocks cannot be put together
        a_wide = a if a.wide else b
        note = _mixed_note(len(a_wide.binary))
        return Gram(a_wide.names, a.n + b.n, a_wide.mean, a_wide.moments, (), np.zeros((0, 0), dtype=np.int64)), (note,)
    counts = merged.counts
    if caps is not None and isinstance(counts, Incidence) and merged.binary and counts.pairs() > caps.cooccurrences:
        note = _cooccurrence_note(len(merged.binary), counts.pairs(), caps)
        return Gram(merged.names, merged.n, merged.mean, merged.moments, (), np.zeros((0, 0), dtype=np.int64)), (note,)
    return merged, ()


def _mixed_note(columns: int) -> str:
    return (
        f"one-hot, dummy and broken groups (NB101-NB103, NB105) and identical 0/1 columns are not searched among "
        f"the {columns:,} complete 0/1 columns: some row blocks had fewer of them (a value other than 0 or 1, or "
        "a missing one), too few to keep them as a wide block"
    )


def _merge_grams(a: Gram, b: Gram, in_place: bool = False) -> Gram | None:
    """Merge the Gram blocks of two disjoint sets of rows.

    Co-occurrence counts add; the ``(q, z)`` co-moment columns take Chan et al.'s
    pairwise update.  ``in_place`` lets the result reuse (and change) ``a``'s
    count matrix, sparing a fresh ``(b, b)`` array per merge while a table is
    profiled chunk after chunk.
    """
    from nblint.nbmath import Moments, merge_moments  # (a merge's: a table read in one chunk has none)

    n = a.n + b.n
    if a.names == b.names and a.binary == b.binary and a.wide == b.wide:
        # The common case (every chunk has the same complete columns): no re-indexing.
        _, zpos = a.positions
        _, mean, moments = merge_moments(Moments(a.n, a.mean, a.moments), Moments(b.n, b.mean, b.moments), zpos)
        if in_place and not a.wide:
            a.counts += b.counts
            a._cooccurrence = a._comoment = None  # (built from the counts before this merge)
            cooc = a.counts
        else:
            cooc = a.counts + b.counts
        return Gram(
            a.names,
            n,
            mean,
            moments,
            a.binary,
            cooc,
            a.wide,
        )
    # Different complete or 0/1 columns in the two parts (rare: a column with a
    # missing value, or a value other than 0/1, in one part only): merge the whole
    # co-moment matrices over the columns complete in both, then split again.
    in_b = {nm: i for i, nm in enumerate(b.names)}
    in_a = {nm: i for i, nm in enumerate(a.names)}
    names = tuple(nm for nm in a.names if nm in in_b)
    ia = [in_a[nm] for nm in names]
    ib = [in_b[nm] for nm in names]
    _, mean, comoment = merge_moments(
        Moments(a.n, a.mean[ia], a.comoment[np.ix_(ia, ia)]),
        Moments(b.n, b.mean[ib], b.comoment[np.ix_(ib, ib)]),
        slice(None),
    )
    bin_a = {nm: i for i, nm in enumerate(a.binary)}
    bin_b = {nm: i for i, nm in enumerate(b.binary)}
    binary = tuple(nm for nm in a.binary if nm in bin_b)
    ja = [bin_a[nm] for nm in binary]
    jb = [bin_b[nm] for nm in binary]
    wide = a.wide or b.wide
    if wide and not (a.wide and b.wide) and (a.binary and b.binary):
        return None  # (the narrow part's counts have no rows to add to the wide part's incidence)
    if wide:
        # The incidences are restricted to the common 0/1 columns.
        wide_part = [
            part.counts.take(index) for part, index in ((a, ja), (b, jb)) if isinstance(part.counts, Incidence)
        ]
        cooc = wide_part[0] if len(wide_part) == 1 else wide_part[0] + wide_part[1]
        # A dense part kept its 0/1 columns among the co-moments; a wide table does not.
        keep = [i for i, nm in enumerate(names) if nm not in bin_a and nm not in bin_b]
        names = tuple(names[i] for i in keep)
        mean, comoment = mean[keep], comoment[np.ix_(keep, keep)]
        return Gram(names, n, mean, comoment, binary, cooc, True)
    # (the kept 0/1 columns stay in order: the upper triangle of the sum is the counts)
    cooc = np.triu(a.dense_cooccurrence()[np.ix_(ja, ja)] + b.dense_cooccurrence()[np.ix_(jb, jb)])
    merged = Gram(names, n, mean, np.zeros((len(names), 0)), binary, cooc)
    _, zpos = merged.positions
    merged.moments = comoment[:, zpos]
    return merged
