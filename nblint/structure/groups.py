"""Indicator groups: the :class:`Group` record, and the evidence that exclusive columns are one variable.

A categorical variable written as 0/1 columns (one-hot, or drop-first dummies) has
columns that are pairwise exclusive: no row has two set.  Exclusive flags also
happen by chance when they are rare, so exclusivity is weighed:

    P(disjoint | independent) = n! / ((n - S)! prod_k s_k!)  /  prod_k C(n, s_k)

is the probability that K independent columns with ``s_k`` ones each (``S = sum s_k``)
placed at random among ``n`` rows never share a row (choose the K disjoint sets
together, over choosing each alone).  Its negative logarithm, in nats, is the
*exclusivity evidence*: about ``sum_{k<l} s_k s_l / n`` (the co-occurrences
independence predicts) when the columns are sparse, and much more when they cover
most rows.  ``member_evidence`` is what one column adds: ``-log`` of the chance that
its ones all fall in the rows the other members leave free.
"""

from __future__ import annotations

from math import lgamma

from nblint.core.records import Record


class Group(Record):
    """A set of mutually exclusive 0/1 columns that encode one variable.

    Attributes
    ----------
    kind : {"one-hot", "dummy"}
    members : list of str
        Member columns in table order.
    counts : list of int
        Rows with each member set.
    n_rows : int
    stem : str or None
        The likely source variable, when the names tell.
    evidence : dict
        Why the set was judged one variable (and, where another reading was as
        valid, ``ambiguous`` and the ``alternatives``).

    (Written out: a dataclass costs a fresh process ~0.5 ms to create.)
    """

    __slots__ = ("kind", "members", "counts", "n_rows", "stem", "evidence")

    def __init__(
        self,
        kind: str,
        members: list[str],
        counts: list[int],
        n_rows: int,
        stem: str | None = None,
        evidence: dict | None = None,
    ) -> None:
        self.kind = kind
        self.members = members
        self.counts = counts
        self.n_rows = n_rows
        self.stem = stem
        self.evidence: dict = {} if evidence is None else evidence

    @property
    def reference_count(self) -> int:
        """Rows where no member is set (the dropped level of a dummy group)."""
        return self.n_rows - sum(self.counts)

    @property
    def n_levels(self) -> int:
        """Levels of the encoded variable: K for one-hot, K + 1 for dummy (the reference)."""
        return len(self.members) + (self.kind == "dummy")

    @property
    def label(self) -> str:
        return group_label(self.members, self.stem)


def group_label(members, stem: str | None) -> str:
    """A group's name: its stem (the variable the names say it encodes), else its first members joined.

    The one naming of a group: findings, ``nblint impact`` and the features of
    :class:`nblint.MixedNB` (found or declared) all use it.

    Examples
    --------
    >>> group_label(["plan_basic", "plan_pro"], "plan")
    'plan'
    >>> group_label(["a", "b", "c", "d"], None)
    'a+b+c+...'
    """
    return stem or "+".join(members[:3]) + ("+..." if len(members) > 3 else "")


def exclusivity_evidence(counts, n_rows: int) -> float:
    """``-log P(disjoint | independent)`` of columns with these counts of ones, in nats.

    Examples
    --------
    >>> round(exclusivity_evidence([5], 100), 6)  # one column: nothing to explain
    0.0
    >>> round(exclusivity_evidence([50, 50], 100), 1)  # two halves that never meet
    66.8
    """
    counts = [int(s) for s in counts]
    total = sum(counts)
    if n_rows <= 0 or total > n_rows:
        return 0.0 if n_rows <= 0 else float("inf")
    log_p = lgamma(n_rows + 1) - lgamma(n_rows - total + 1)
    log_p += sum(lgamma(n_rows - s + 1) - lgamma(n_rows + 1) for s in counts)
    return max(0.0, -log_p)


def member_evidence(count: int, others: int, n_rows: int) -> float:
    """``-log`` of the chance that a column's ``count`` ones all avoid the ``others`` rows.

    That is the hypergeometric ``C(n - others, count) / C(n, count)``: what the
    column adds to the evidence of the rest of its group.
    """
    if count <= 0 or others <= 0:
        return 0.0
    if count + others > n_rows:
        return float("inf")
    free = n_rows - others
    log_p = (lgamma(free + 1) - lgamma(free - count + 1)) - (lgamma(n_rows + 1) - lgamma(n_rows - count + 1))
    return max(0.0, -log_p)


def expected_cooccurrences(counts, n_rows: int) -> float:
    """Co-occurrences independent columns would show, summed over pairs: ``sum_{k<l} s_k s_l / n``."""
    s = [float(c) for c in counts]
    total = sum(s)
    return (total * total - sum(c * c for c in s)) / 2.0 / n_rows if n_rows else 0.0
