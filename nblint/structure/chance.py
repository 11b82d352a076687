"""How often an exact relation among sparse columns arises by chance: chance is not structure.

A sparse corpus makes exact relations by accident: two words seen once, in the same
document, are identical columns; a word missing from one document and a word seen only
there sum to one on every row. Such a relation is structure only when independent
columns of the same supports would rarely produce it. Under independence, a column with
support ``s`` (rows where it is non-zero) has its rows drawn uniformly from the ``n``:

* ``K`` columns of supports ``s_1 .. s_K`` (summing to ``n``) partition the rows with
  probability ``[n! / (s_1! ... s_K!)] / prod_j C(n, s_j)`` (the ways to partition, over
  the ways to place each column); for ``K = 2`` that is ``1 / C(n, s_2)``;
* two columns of support ``s`` coincide with probability ``1 / C(n, s)``.

The expected number of such relations among the columns tried multiplies that by the
number of ways to pick the members among the columns of the same supports. A relation is
kept when that expectation is below ``MAX_EXPECTED`` (the same 1% as the other chance
claims), or when the member names share a stem (an encoding says so).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

#: Largest expected number of chance relations like a found one for it to count as structure.
MAX_EXPECTED = 0.01


def log_comb(n: int, k: int) -> float:
    """``log C(n, k)``."""
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


def expected_covers(supports: Sequence[int], n: int, peers: Counter) -> float:
    """Expected number of exact covers of the ``n`` rows by independent columns of these supports.

    ``peers[s]`` is how many columns of support ``s`` there are to choose members from.
    """
    log_p = math.lgamma(n + 1) - sum(math.lgamma(s + 1) for s in supports) - sum(log_comb(n, s) for s in supports)
    total = log_p + _log_choices(supports, peers)
    return math.inf if total > 700 else math.exp(total)


def expected_identical(support: int, size: int, n: int, peers: Counter, spread: float = 1.0) -> float:
    """Expected number of sets of ``size`` identical columns of this support among independent columns.

    ``spread`` (at least 1) is how much likelier rows are to be shared when they are drawn in
    proportion to unequal weights (documents of unequal length): each coincidence is about
    ``spread^support`` times likelier than with rows drawn uniformly.
    """
    log_p = (size - 1) * (support * math.log(max(spread, 1.0)) - log_comb(n, support))
    log_tries = _log_choices([support] * size, peers)
    total = log_p + log_tries
    return math.inf if total > 700 else math.exp(total)


def _log_choices(supports: Sequence[int], peers: Counter) -> float:
    """``log`` of the ways to pick one column per member among the columns of its support (unordered per support)."""
    total = 0.0
    for s, k in Counter(supports).items():
        m = max(peers.get(s, 0), k)
        total += log_comb(m, k)
    return total
