"""Implied columns: a 0/1 column set only where another 0/1 column is set.

Column ``a`` *implies* column ``b`` when every row with ``a`` set has ``b`` set too:
``O_ab = s_a < s_b`` in the co-occurrence counts (``s_a`` the rows of ``a``; equal counts
would make the two identical, a case of its own).  An interaction beside its factor
(``afhigh = afchnge * highearn``), a sub-condition beside its condition (``employ`` beside
``inwf``: the employed are in the workforce).  Naive Bayes given both multiplies in ``b``'s
likelihood on every row of ``a`` although ``a`` already says ``b``: the evidence ``b``
carries is counted again on those rows.

Implication is not membership: ``a`` is a refinement of ``b``, not a level beside ``b``'s
levels, so it never joins a group of another variable.  The implying column is read outside
every group (a group's levels within another variable's are a nesting,
:mod:`nblint.structure.nesting`); the implied one may be a group's level (``crimson`` set
only where ``color_red`` is: a level of a finer variable within one level of the group).

Chance is not structure.  Under independence the ``s_a`` rows of ``a`` fall inside the
``s_b`` rows of ``b`` with probability ``C(s_b, s_a) / C(n, s_a)`` (a column seen on a row
or two lies inside any frequent column); over the pairs tried, the expected number of
such chance implications must stay under ``exp(-min_evidence)``, the nats NB102's
``min-evidence`` asks of exclusivity.
"""

from __future__ import annotations

from collections.abc import Collection
from math import log

import numpy as np

from nblint.core.records import Record


class Implication(Record):
    """Column ``column`` implies each of ``implied`` (every row with ``column`` set has it set).

    (Written out: a named tuple's class costs a fresh process ~0.4 ms to create; none reads this as a tuple.)
    """

    __slots__ = ("column", "rows", "implied")

    def __init__(self, column: str, rows: int, implied: tuple[tuple[str, int, float], ...]) -> None:
        self.column = column
        #: Rows with ``column`` set.
        self.rows = rows
        #: The implied columns, by name, each with its rows set and the evidence in nats (``-log`` chance).
        self.implied = implied


def log_chance_inside(inner: np.ndarray, outer: np.ndarray, n: int) -> np.ndarray:
    """``log C(s_b, s_a) - log C(n, s_a)``: the log chance that ``s_a`` random rows fall inside ``s_b`` given rows."""
    from scipy.special import gammaln  # (here: a check with no pair to weigh never loads scipy)

    inner = np.asarray(inner, dtype=np.float64)
    outer = np.asarray(outer, dtype=np.float64)
    log_inside = gammaln(outer + 1) - gammaln(inner + 1) - gammaln(outer - inner + 1)
    log_all = gammaln(n + 1) - gammaln(inner + 1) - gammaln(n - inner + 1)
    return log_inside - log_all


def implied_columns(
    binary: list[str],
    cooccurrence: np.ndarray,
    n_rows: int,
    grouped: Collection[str],
    excluded: Collection[str],
    min_rows: int,
    min_evidence: float,
) -> list[Implication]:
    """Every 0/1 column outside the groups that implies another 0/1 column, where chance cannot explain it.

    Parameters
    ----------
    binary : list of str
        The complete 0/1 columns of ``cooccurrence``.
    cooccurrence : ndarray (b, b)
        Their co-occurrence counts (the diagonal: each column's rows).
    n_rows : int
    grouped : collection of str
        Group members: they may be implied, never imply.
    excluded : collection of str
        Columns neither implying nor implied (a document-term block's words: text is full of
        words seen only with another, a phrase's, and every text model reads them so).
    min_rows : int
        Rows the implying column needs (NB202's ``separation-min-rows``): a column seen on
        a row or two lies inside some other column by the table's own accident.
    min_evidence : float
        Nats the implication needs against chance, beyond the ``log`` of the pairs tried.

    Notes
    -----
    Implication is transitive: ``a`` inside ``b`` inside ``c`` puts ``a`` inside ``c`` too.
    That third pair says nothing the other two do not, so ``a``'s implied columns leave out
    those implied through another of them.
    """
    O = np.asarray(cooccurrence, dtype=np.int64)
    counts = np.diag(O).copy()
    searched = np.array([name not in excluded for name in binary], dtype=bool)
    usable = searched & (counts > 0) & (counts < n_rows)
    lone = np.array([name not in grouped for name in binary], dtype=bool)
    inner = usable & lone & (counts >= min_rows)
    tried = int(inner.sum()) * max(int(usable.sum()) - 1, 0)
    if not tried:
        return []
    inside = (O == counts[:, None]) & (counts[:, None] < counts[None, :])
    inside &= inner[:, None] & usable[None, :]
    pairs = np.argwhere(inside)
    if not len(pairs):
        return []
    log_chance = log_chance_inside(counts[pairs[:, 0]], counts[pairs[:, 1]], n_rows)
    # Expected chance implications among those tried below exp(-min_evidence).
    kept = pairs[-log_chance - log(tried) >= min_evidence]
    evidence = dict(zip(map(tuple, pairs.tolist()), (-log_chance).tolist()))
    implied: dict[int, set[int]] = {}
    for a, b in kept.tolist():
        implied.setdefault(a, set()).add(b)
    found = []
    for a, targets in implied.items():
        among = np.array(sorted(targets))
        # (one column of ``among`` inside another: the outer one is implied through the inner one)
        through = inside[np.ix_(among, among)].any(axis=0)
        direct = sorted(among[~through].tolist(), key=lambda b: binary[b])
        found.append(
            Implication(binary[a], int(counts[a]), tuple((binary[b], int(counts[b]), evidence[(a, b)]) for b in direct))
        )
    return sorted(found, key=lambda i: i.column)
