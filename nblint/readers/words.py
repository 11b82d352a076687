"""Which columns are a document-term block: words, or indicators of variables, read from the values.

A document-term block and a one-hot encoding look alike column by column: many
non-negative columns, each zero on most rows. Values tell them apart where they can
(a count above one, a tf-idf weight: no indicator holds those); a block of 0/1 columns
(``CountVectorizer(binary=True)`` against ``OneHotEncoder``) is told apart by its rows.

An indicator encoding sets at most one column per variable on a row: a one-hot
encoding of ``G`` variables sets exactly ``G`` on every row (its row counts do not
vary), and one variable's indicators (one-hot with missing values, or drop-first
dummies) set at most one. A document sets as many words as it has distinct words,
which vary from document to document. With ``m_r`` the block's ones on row ``r``, both
signatures are read from two sums, ``sum_r m_r`` and ``sum_r m_r^2``: from a sparse
matrix's entries here (:func:`matrix_words`, before its profile), from a dense table's
profile in :mod:`nblint.structure.terms` (the columns' counts of ones and the sum of the
block's co-occurrence counts ``O_ij``, diagonal included):

* constant row counts: ``Var(m) = mean(m^2) - mean(m)^2`` near 0;
* at most one per row: ``mean(m (m - 1)) = mean(m^2) - mean(m)`` near 0 (no two
  columns of the block meet).

"Near" allows a share ``share`` of rows off by one (a few broken rows, NB103's
``max-violation-share``): each adds at most about 1 to ``sum_r (m_r - mean)^2`` or 2 to
``sum_r m_r (m_r - 1)``. Anything more spread is words.
"""

from __future__ import annotations

import re

import numpy as np


def indicator_encoding(ones: float, squares: float, n_rows: int, share: float) -> str | None:
    """What row counts of a 0/1 block say it encodes, or None: it may be words.

    Parameters
    ----------
    ones, squares : float
        ``sum_r m_r`` and ``sum_r m_r^2`` (:func:`nblint.structure.terms.row_count_sums`).
    n_rows : int
    share : float
        Share of rows that may be off by one (broken rows).

    Returns
    -------
    str or None
        ``"one variable"``: no row sets two (one variable's indicators: one-hot, or dummies);
        ``"one-hot"``: every row sets the same number of columns (one per variable, several
        variables); None otherwise.

    Examples
    --------
    >>> indicator_encoding(60.0, 60.0, 100, 0.01)  # drop-first dummies: 0 or 1 per row
    'one variable'
    >>> indicator_encoding(200.0, 400.0, 100, 0.01)  # two one-hot variables: 2 ones on every row
    'one-hot'
    >>> indicator_encoding(300.0, 1500.0, 100, 0.01) is None  # rows of 1 to 9 words
    True
    """
    if n_rows <= 0 or ones <= 0:
        return None
    if squares - ones <= 2 * share * n_rows:  # sum_r m_r (m_r - 1)
        return "one variable"
    mean = ones / n_rows
    if squares - ones * mean <= share * n_rows:  # sum_r (m_r - mean)^2
        return "one-hot"
    return None


#: Fewest sparse non-negative columns that make a document-term block (NB209's ``term-block``): a
#: vocabulary from a few hundred words up; a table of a few dozen indicators or counts stays below.
TERM_BLOCK = 200


#: ``stem`` + separator + ``level``: how encoders name an indicator (``x0_red``, ``color=red``, ``C(color)[T.red]``).
_LEVEL_NAME = re.compile(r"^(.+?)(?:_|=|\[T\.)(.+)$")
#: Share of a 0/1 block's names that must read ``stem_level`` for the names to say it is an encoding.
ENCODED_NAMES_SHARE = 0.9
#: Fewest levels per stem, on average, for ``stem_level`` names to enumerate variables' levels.
LEVELS_PER_STEM = 10


def encoded_names(names) -> bool:
    """Whether the names of a 0/1 block enumerate the levels of a few variables (``x0_a``, ``x0_b``, ``x1_a``...).

    Values decide first (:func:`indicator_encoding`); names settle what values leave open:
    several drop-first variables whose reference levels are common set 0, 1 or 2 columns
    on a row, as short documents do. Nearly every name must read ``stem`` + separator +
    ``level`` with few stems (ten levels per stem on average); a vocabulary's words rarely
    hold a separator, and when they do (``new_york``) their first parts do not repeat so.
    """
    stems = [m.group(1) for m in map(_LEVEL_NAME.match, names) if m is not None]
    return len(stems) >= ENCODED_NAMES_SHARE * len(names) and LEVELS_PER_STEM * len(set(stems)) <= len(stems)


#: Largest share of the rows the median candidate column may be non-zero on, for the block to be words.
TYPICAL_WORD_SHARE = 0.25


def rare_typical_word(nonzero: np.ndarray, n_rows: int, empty: int = 0) -> bool:
    """Whether the candidate columns' typical one (the median) is non-zero on at most a quarter of the rows.

    Word frequencies fall with their rank (Zipf's law): in any vocabulary, even the 200 most
    frequent words of long news posts, the median word is absent from most documents (15% of
    20 Newsgroups' posts hold the median of its top 200 words, 2-4% at 1,000). Columns each set
    on nearly half of the rows (a table of coin flips, yes/no answers) are not a vocabulary.
    ``empty``: more candidate columns, each non-zero on no row (a source's left-out empty columns).
    """
    return bool(len(nonzero) + empty) and median_beside_zeros(nonzero, empty) <= TYPICAL_WORD_SHARE * n_rows


def median_beside_zeros(values: np.ndarray, zeros: int) -> float:
    """``np.median`` of non-negative ``values`` and ``zeros`` zeros more, the zeros never made.

    The zeros are the smallest values, so the middle one or two of the whole are read
    from the values' order statistics, shifted by ``zeros`` (a hashed matrix's empty
    buckets: a million zeros beside ten thousand columns).

    Examples
    --------
    >>> median_beside_zeros(np.array([3, 1, 2]), 2)
    1.0
    >>> median_beside_zeros(np.array([4, 2]), 0)
    3.0
    """
    n = len(values) + zeros
    middle = sorted({(n - 1) // 2, n // 2})  # (one place for an odd count, two for an even one)
    wanted = [i - zeros for i in middle if i >= zeros]
    found = np.partition(values, wanted)[wanted] if wanted else np.zeros(0)
    picked = np.concatenate([np.zeros(len(middle) - len(wanted)), found.astype(np.float64)])
    return float(np.mean(picked))


def levels_repeat(nonzero: np.ndarray) -> bool:
    """Whether the typical (median) candidate column is set on two rows or more, as an encoded level is.

    The row-count signature reads a 0/1 block as levels of variables; a level seen on one
    row only is an identifier's, not a variable's, and a block of such columns (each document's
    own words, hapaxes) is read as words whatever its rows' counts.
    """
    return bool(len(nonzero)) and float(np.median(nonzero)) >= 2


def sparse_candidates(minimum: np.ndarray, nonzero: np.ndarray, n_rows: int) -> np.ndarray:
    """The columns that may be words: no negative value, zero on at least half of the rows (a mask).

    ``nonzero``: rows where each column is non-zero, negative where unknown (never a candidate).
    """
    return (minimum >= 0) & (nonzero >= 0) & (2 * nonzero <= n_rows)


#: Least share of a block's signed columns that must keep one sign on every row for the signs to be a hash's.
ONE_SIGN_SHARE = 0.9


def sign_hashed(csr, negative: np.ndarray) -> bool:
    """Whether a matrix's negative entries are a sign hash's (``HashingVectorizer(alternate_sign=True)``).

    A sign hash gives each word one sign, in every document: a column with negative entries is
    negative on every row it is set on, but where two words of opposite signs share a bucket.
    Centred or signed measurements change sign from row to row. At least
    :data:`ONE_SIGN_SHARE` of the columns with a negative entry must hold no positive one.

    Parameters
    ----------
    csr : scipy.sparse.csr_matrix
        Canonical (no stored zeros).
    negative : ndarray of bool
        The columns with a negative entry.
    """
    n_negative = int(negative.sum())
    if not n_negative:
        return False
    positive = np.bincount(csr.indices[csr.data > 0], minlength=csr.shape[1]) > 0
    return int((negative & ~positive).sum()) >= ONE_SIGN_SHARE * n_negative


def matrix_words(
    csr, binary: np.ndarray, term_block: int, share: float, empty: int = 0, names=(), nonzero: np.ndarray | None = None
) -> np.ndarray:
    """The columns of a ``scipy.sparse`` matrix (canonical CSR) that are a document-term block (a mask).

    A matrix given as such is one block: with at least ``term_block`` candidate columns
    (:func:`sparse_candidates`; ``empty``: all-zero columns the source left out, candidates
    too), the typical one rare (:func:`rare_typical_word`), its columns are all words (but those with a
    negative weight that is not whole), its frequent ones ('the', in 93% of
    documents) included, unless the candidates are 0/1 columns whose rows say they are
    an indicator encoding (:func:`indicator_encoding`), or whose ``names`` say so
    (:func:`encoded_names`). A frequent column that outweighs its documents
    (:func:`outweighs_documents`: a length in characters stacked beside the counts) is not a
    word. One pass over the stored entries. ``nonzero``: each column's non-zero rows, if the source has them.
    """
    n, p = csr.shape
    words = np.zeros(p, dtype=bool)
    if nonzero is None:
        nonzero = np.bincount(csr.indices, minlength=p)  # (no stored zeros: the source made it canonical)
    below = csr.data < 0
    negative = np.bincount(csr.indices[below], minlength=p) > 0
    # A whole count with a negative cell is still a word (a corrupted count, a hashing vectorizer's sign):
    # NB302 says so once for the block. A signed weight that is not whole is a word only where the block's
    # signs are a hash's (:func:`sign_hashed`).
    fractional = np.bincount(csr.indices[below & (csr.data != np.floor(csr.data))], minlength=p) > 0
    unsigned = ~negative | ~fractional
    if fractional.any() and sign_hashed(csr, negative):
        unsigned = np.ones(p, dtype=bool)
    candidates = unsigned & (2 * nonzero <= n)
    if int(candidates.sum()) + empty < term_block:
        return words
    if not rare_typical_word(nonzero[candidates], n, empty):
        return words
    if np.all(binary[candidates]):  # 0/1 columns: words or indicators, as their rows (and names) tell
        rows = np.repeat(np.arange(n), np.diff(csr.indptr))
        m = np.bincount(rows[candidates[csr.indices]], minlength=n).astype(np.float64)
        repeated = levels_repeat(nonzero[candidates])
        if repeated and indicator_encoding(float(m.sum()), float(np.dot(m, m)), n, share) is not None:
            return words
        if len(names) and encoded_names([names[j] for j in np.flatnonzero(candidates).tolist()]):
            return words
    return unsigned & ~outweighs_documents(csr, candidates, unsigned & ~candidates, nonzero)


def outweighs_documents(csr, candidates: np.ndarray, frequent: np.ndarray, nonzero: np.ndarray) -> np.ndarray:
    """The ``frequent`` columns that are larger than the rest of their documents on most of their rows (a mask).

    A word's count is a part of its document: even 'the' (6% of English tokens) stays below
    the document's other words, ``|x_rj| <= L_r = sum over candidate words k of |x_rk|``
    (on six real corpora, on at most 0.3% of a frequent word's documents). A column
    above ``L_r`` on more than half of the rows it is set on is not counted from the
    document: a length in characters, a sum, a measurement stacked beside the words. It
    is linted as a table column. (A rating of 1 to 5 beside long documents stays
    ambiguous, and a word.)

    Parameters
    ----------
    csr : scipy.sparse.csr_matrix
        Canonical (no stored zeros).
    candidates, frequent : ndarray of bool
        The block's sparse candidate columns, and its columns set on more than half of the rows.
    nonzero : ndarray of int
        Each column's non-zero rows.
    """
    p = csr.shape[1]
    if not frequent.any():
        return np.zeros(p, dtype=bool)
    rows = np.repeat(np.arange(csr.shape[0]), np.diff(csr.indptr))
    magnitude = np.abs(csr.data)
    # L_r: the other entries weigh 0 (the same sums, term by term, as over the block's entries alone).
    rest = np.bincount(rows, weights=np.where(candidates[csr.indices], magnitude, 0.0), minlength=csr.shape[0])
    at = np.flatnonzero(frequent[csr.indices])
    above = at[magnitude[at] > rest[rows[at]]]
    return frequent & (2 * np.bincount(csr.indices[above], minlength=p) > nonzero)
