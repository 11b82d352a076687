"""The row-count signature of a dense table's 0/1 block, from its profile (see :mod:`nblint.readers.words`).

Whether a block of 0/1 columns is words or one-hot indicators is read from ``sum_r m_r``
and ``sum_r m_r^2``, ``m_r`` the block's ones on row ``r`` (:func:`nblint.readers.words.indicator_encoding`).
A sparse matrix gives them from its entries before it is profiled; a dense table from the
profile's Gram block: the columns' counts of ones, and the sum of their co-occurrence counts.
"""

from __future__ import annotations

import numpy as np

from nblint.profile.gram import Gram
from nblint.profile.incidence import Incidence


def row_count_sums(gram: Gram, columns) -> tuple[float, float]:
    """``(sum_r m_r, sum_r m_r^2)`` for ``m_r`` the ones of row ``r`` among the complete 0/1 ``columns``.

    Parameters
    ----------
    gram : Gram
        The profile's Gram block; ``columns`` must be among its 0/1 columns.
    columns : sequence of str
    """
    position = gram.binary.positions()  # (a Gram's names are Names)
    index = np.array(sorted(position[c] for c in columns), dtype=np.int64)
    if not len(index):
        return 0.0, 0.0
    if isinstance(gram.counts, Incidence):  # (wide: the rows are held; m is one sparse sum)
        m = np.asarray(gram.counts.B[:, index].sum(axis=1), dtype=np.float64).ravel()
        return float(m.sum()), float(np.dot(m, m))
    upper = gram.counts[np.ix_(index, index)]  # O_ij for i <= j (zeros below the diagonal)
    ones = float(np.trace(upper))
    return ones, 2.0 * float(upper.sum()) - ones  # sum_ij O_ij = sum_r m_r^2
