"""The drop-first search's pool: the exclusivity graph's cliques, their weak members pruned, and the sets chosen.

:func:`~nblint.structure.exclusive.dummy_sets` starts from the maximal cliques of the
graph of pairwise exclusive 0/1 columns (:mod:`nblint.structure.cliques`).  A column
stays in a clique only with evidence (:func:`nblint.structure.groups.member_evidence`),
its names, or a batch of rare levels beyond chance together; disjoint sets are then
chosen by a rule that does not depend on column order.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from nblint.structure.budget import Budget
from nblint.structure.cliques import maximal_cliques
from nblint.structure.groups import exclusivity_evidence, member_evidence
from nblint.structure.names import cross_stem, informative_stem, stem_ties

#: Family-wise chance, over the columns tried, of letting one chance-exclusive column into a set.
MEMBER_FALSE_ALARM = 0.05


@dataclass
class ExclusiveSet:
    """A candidate set of (nearly) exclusive 0/1 columns, as indices into the 0/1 columns."""

    members: list[int]
    counts: list[int]
    #: Row pairs with two members set, summed over pairs (0 for an exclusive set).
    overlap: int = 0
    #: ``-log P(disjoint | independent)`` in nats (exclusive sets only).
    evidence: float = 0.0
    stem: str | None = None
    alternatives: list[list[int]] = field(default_factory=list)
    chosen_by: str | None = None
    #: Names say nothing and a rival set as large is beyond chance too: which is a variable, if either,
    #: the values cannot say (the rivals' columns are taken with it; a guess is no group).
    undecided: bool = False


def member_threshold(n_columns: int, min_evidence: float) -> float:
    """Evidence (nats) a column needs to join a set on statistics alone.

    ``P(member evidence >= t | independent) <= exp(-t)``, so with ``m`` columns tried
    ``t = log(m / MEMBER_FALSE_ALARM)`` keeps the chance of any spurious member
    below :data:`MEMBER_FALSE_ALARM` (Bonferroni).  A member never needs more than a
    whole group does (``min_evidence``): for a pair the two are the same number.
    """
    return min(math.log(max(n_columns, 1) / MEMBER_FALSE_ALARM), min_evidence)


class DummySearch:
    """:func:`~nblint.structure.exclusive.dummy_sets`' search: the exclusivity graph, and how its cliques are pruned and chosen.

    The pool of candidate sets is re-pruned after every choice, mostly into sets seen
    before: :meth:`prune` and :meth:`preference` are memoised by set.
    """

    def __init__(
        self, names: list[str], cooccurrence: np.ndarray, n_rows: int, all_names: tuple[str, ...], min_evidence
    ):
        b = len(names)
        self.names, self.n_rows, self.all_names = names, n_rows, all_names
        self.counts = counts = np.diag(cooccurrence).astype(np.int64)
        usable = (counts > 0) & (counts < n_rows)
        self.exclusive = (cooccurrence == 0) & usable[:, None] & usable[None, :]
        np.fill_diagonal(self.exclusive, False)
        self.order = sorted(range(b), key=lambda i: names[i])
        self.tried = int(self.exclusive.any(axis=1).sum())
        self.threshold = member_threshold(self.tried, min_evidence)
        self.pruned: dict[tuple, list[int]] = {}
        self.preferred: dict[tuple, tuple] = {}

    def prune(self, members: list[int]) -> list[int]:
        """Drop, weakest first, members neither tied by name nor supported by the evidence."""
        key = tuple(members)
        if key not in self.pruned:
            self.pruned[key] = self._prune(list(members))
        return list(self.pruned[key])

    def _prune(self, members: list[int]) -> list[int]:
        names, counts = self.names, self.counts
        while len(members) >= 2:
            total = int(counts[members].sum())
            tied = stem_ties([names[k] for k in members], self.all_names)
            weak = [
                (member_evidence(int(counts[k]), total - int(counts[k]), self.n_rows), names[k], k)
                for k in members
                if names[k] not in tied
            ]
            weak = [w for w in weak if w[0] < self.threshold]
            if not weak or self.weak_together([w[2] for w in weak], members):
                break
            members.remove(min(weak)[2])
        return members if len(members) >= 2 else []

    def weak_together(self, weak: list[int], members: list[int]) -> bool:
        """Whether the weak members, too rare each to tell from chance, are beyond chance as a batch.

        Levels seen on a row or two each avoid the others' rows by chance, but that all of
        them avoid the rest's rows and each other's has the chance
        ``P(all disjoint) / P(rest disjoint)``; the batch is one of ``C(tried - |rest|, |weak|)``
        that could have been picked (from the columns tried, less the rest, which are in the set
        on their own evidence or names), so it must beat the member threshold by that choice's log.
        Where the rest's names share a stem that names them, the names say what the variable's
        levels are called, and columns that do not carry it are no batch of its levels (each can
        still join on its own evidence).
        """
        if len(weak) < 2:
            return False
        rest = [k for k in members if k not in weak]
        if informative_stem([self.names[k] for k in rest], self.all_names) is not None:
            return False
        batch = exclusivity_evidence(self.counts[members].tolist(), self.n_rows) - exclusivity_evidence(
            self.counts[rest].tolist(), self.n_rows
        )
        pickable = max(self.tried - len(rest), len(weak))
        return batch >= self.threshold + math.log(math.comb(pickable, len(weak)))

    def preference(self, members: list[int]):
        key = tuple(members)
        if key not in self.preferred:
            self.preferred[key] = self._preference(members)
        return self.preferred[key]

    def _preference(self, members: list[int]):
        member_names = [self.names[k] for k in members]
        stem = informative_stem(member_names, self.all_names)
        evidence = exclusivity_evidence(self.counts[members].tolist(), self.n_rows)
        # Names pointing to different variables come last: same-stem sets take their columns first.
        crossing = cross_stem(member_names, self.all_names) is not None
        return (crossing, stem is None, -len(members), -round(evidence, 6), sorted(member_names))

    def undecided(self, best: list[int], rivals: list[list[int]]) -> bool:
        """Whether names say nothing of ``best`` and a rival as large is beyond chance too.

        Beyond chance as the search measures it: the member threshold, which every member of
        a pooled set has passed (or its batch, or its names).
        """
        mine = self.preference(best)
        crossing, nameless = mine[0], mine[1]
        if crossing or not nameless:
            return False  # (names speak: a stem names the set, or stems of two variables)
        return any(self.preference(r)[:3] == mine[:3] and -self.preference(r)[3] >= self.threshold for r in rivals)

    def choose(self, budget: Budget) -> list[ExclusiveSet]:
        """The sets chosen from the pruned maximal cliques, best first, each taking its columns from the rest."""
        pool = [p for p in (self.prune(c) for c in maximal_cliques(self.exclusive, self.order, budget)) if p]
        chosen: list[ExclusiveSet] = []
        taken: set[int] = set()
        while pool:
            pool.sort(key=self.preference)
            best = pool[0]
            rivals = [p for p in pool[1:] if set(p) & set(best)]
            taken.update(best)
            chosen.append(self.chosen_set(best, rivals, taken))
            rest = []
            for p in pool[1:]:
                left = self.prune([k for k in p if k not in taken])
                if left and left not in rest:
                    rest.append(left)
            pool = rest
        return chosen

    def chosen_set(self, best: list[int], rivals: list[list[int]], taken: set[int]) -> ExclusiveSet:
        """``best`` as an :class:`ExclusiveSet`, with its rivals and why it won (``taken`` grows when undecided)."""
        names, counts = self.names, self.counts
        found = ExclusiveSet(
            sorted(best, key=lambda k: names[k]),
            [int(counts[k]) for k in sorted(best, key=lambda k: names[k])],
            0,
            exclusivity_evidence(counts[best].tolist(), self.n_rows),
            informative_stem([names[k] for k in best], self.all_names),
        )
        if rivals:
            mine, theirs = self.preference(best), self.preference(rivals[0])
            found.alternatives = [sorted(r, key=lambda k: names[k]) for r in rivals[:3]]
            found.chosen_by = (
                "names share a stem"
                if mine[:2] != theirs[:2]
                else "more levels (the finer split)"
                if mine[2] != theirs[2]
                else "stronger evidence"
                if mine[3] != theirs[3]
                else "member names (an arbitrary, fixed rule)"
            )
            if self.undecided(best, rivals):
                # Nameless sets of one size, each beyond chance, share a column: both exclusions are
                # real relations and only one can be the column's variable; the values cannot say
                # which, so the rivals' columns go with this set, which the caller does not report
                # as a group.
                found.undecided = True
                taken.update(k for r in rivals for k in r if self.preference(r)[:3] == mine[:3])
        return found
