"""Nested variables: a group each of whose levels lies within one level of another group.

A level ``f`` of one variable *implies* a level ``c`` of another when every row with ``f``
set has ``c`` set: ``O_fc = s_f`` in the co-occurrence counts (``s_f`` the rows of ``f``).
States and regions, a product's subtype and its type: each state lies within one region.
When every level of a group ``F`` written as a column implies one level of a coarser group
``C`` (or, for a drop-first ``C``, lies in its reference rows, where no level of ``C`` is
set), ``F`` is nested in ``C``: ``C`` is a function of ``F``, and Naive Bayes given both
counts the coarse variable twice, once by itself and once inside the fine one.  Implication
is not membership: the fine levels are never members of the coarse group, which is why
the search for groups treats a column within another as a union's part, not a level.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import log

import numpy as np

from nblint.structure.groups import Group
from nblint.structure.leakage import one_class_chance


@dataclass(frozen=True)
class Nesting:
    """Group ``fine`` nested in group ``coarse``: ``within`` maps each fine level to its coarse level (None: the reference)."""

    fine: Group
    coarse: Group
    within: dict
    #: ``-log`` of the chance that levels of these sizes each fall within one coarse level, in nats.
    evidence: float


def nested_groups(
    groups: list[Group], binary: list[str], cooccurrence: np.ndarray, min_evidence: float
) -> list[Nesting]:
    """Every pair of groups of which the finer is nested in the coarser (see the module docstring).

    Parameters
    ----------
    groups : list of Group
        The table's one-hot and dummy groups.
    binary : list of str
        The 0/1 columns of ``cooccurrence``; groups with a member outside them are not compared.
    cooccurrence : ndarray (b, b)
        Their co-occurrence counts.
    min_evidence : float
        Nats the nesting needs against chance (NB102's ``min-evidence``).

    Notes
    -----
    The fine group needs more levels than the coarse one and two or more of its levels
    within a coarse level (one alone is a level that happens to lie in another, not a
    variable nested in one).  Chance is not structure: a level seen on one row lies within
    some level of every other group.  Under independence the ``s_f`` rows of a fine level
    fall within one coarse level with probability ``sum_c C(s_c, s_f) / C(n, s_f)`` (the
    coarse levels' rows ``s_c``, a dummy group's reference rows among them:
    :func:`~nblint.structure.leakage.one_class_chance`); the levels' ``-log`` chances add
    up, and the nesting is reported from ``min_evidence`` nats.
    """
    index = {name: k for k, name in enumerate(binary)}
    usable = [g for g in groups if all(m in index for m in g.members)]
    found = []
    for fine in usable:
        for coarse in usable:
            if fine is coarse or fine.n_levels <= coarse.n_levels:
                continue
            within = _within(fine, coarse, index, cooccurrence)
            if within is None:
                continue
            levels = list(coarse.counts) + ([coarse.reference_count] if coarse.kind == "dummy" else [])
            evidence = sum(-log(max(one_class_chance(s, levels), 1e-300)) for s in fine.counts)
            if evidence >= min_evidence:
                found.append(Nesting(fine, coarse, within, evidence))
    return found


def _within(fine: Group, coarse: Group, index: dict, O: np.ndarray) -> dict | None:
    """Each fine level's coarse level, when every one lies within one (or in a drop-first coarse group's reference)."""
    rows = [index[c] for c in coarse.members]
    within: dict = {}
    for member in fine.members:
        f = index[member]
        shared = O[f, rows]
        meets = np.flatnonzero(shared)
        if len(meets) == 0 and coarse.kind == "dummy":
            within[member] = None
        elif len(meets) == 1 and shared[meets[0]] == O[f, f]:
            within[member] = coarse.members[int(meets[0])]
        else:
            return None
    inside = [c for c in within.values() if c is not None]
    return within if len(inside) >= 2 else None
