"""The drop-first search's pool: the exclusivity graph's cliques, their weak members pruned, and the sets chosen.

:func:`~nblint.structure.exclusive.dummy_sets` starts from the maximal cliques of the
graph of pairwise exclusive 0/1 columns (:mod:`nblint.structure.cliques`).  A column
stays in a clique only with evidence (:func:`nblint.structure.groups.member_evidence`),
its names, or a batch of rare levels beyond chance together; disjoint sets are then
chosen by a rule that does not depend on column order.
"""

from __future__ import annotations

import math

import numpy as np

from nblint.core.records import Record
from nblint.structure.budget import Budget
from nblint.structure.cliques import maximal_cliques
from nblint.structure.groups import exclusivity_evidence, member_evidence
from nblint.structure.names import cross_stem, informative_stem, stem_ties

#: Family-wise chance, over the columns tried, of letting one chance-exclusive column into a set.
MEMBER_FALSE_ALARM = 0.05


class ExclusiveSet(Record):
    """A candidate set of (nearly) exclusive 0/1 columns, as indices into the 0/1 columns.

    (Written out: a dataclass costs a fresh process ~0.5 ms to create; the search sets the last three fields.)
    """

    __slots__ = ("members", "counts", "overlap", "evidence", "stem", "alternatives", "chosen_by", "undecided")

    def __init__(
        self, members: list[int], counts: list[int], overlap: int = 0, evidence: float = 0.0, stem: str | None = None
    ) -> None:
        self.members = members
        self.counts = counts
        #: Row pairs with two members set, summed over pairs (0 for an exclusive set).
        self.overlap = overlap
        #: ``-log P(disjoint | independent)`` in nats (exclusive sets only).
        self.evidence = evidence
        self.stem = stem
        self.alternatives: list[list[int]] = []
        self.chosen_by: str | None = None
        #: Names say nothing and a rival set as large is beyond chance too: which is a variable, if either,
        #: the values cannot say (the rivals' columns are taken with it; a guess is no group).
        self.undecided = False


#: Relative slack for rounding where the pruning skips a walk that exact arithmetic says ends empty
#: (:meth:`DummySearch.falls_whole`): far above the few ulps each log-gamma term may be off.
ROUNDING = 1e-9

#: What :meth:`DummySearch.weakest` says of a set no member of which can stay.
FALLS_WHOLE = -1


def lgamma_array(x) -> np.ndarray:
    """``math.lgamma`` of each element of ``x``, computed once per distinct value.

    (The arguments are row counts, few distinct ones; :mod:`scipy.special` would cost a first
    check on a small table the import of a library it needs nothing else from.)
    """
    x = np.asarray(x, dtype=np.float64)
    values, where = np.unique(x, return_inverse=True)
    return np.array([math.lgamma(v) for v in values.tolist()])[where].reshape(x.shape)


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
    before: :meth:`prune` and :meth:`preference` are memoised by set.  Pruning is part of the
    search and spends from its budget as the clique search does (:meth:`prune`); the cliques
    that lose every member are told in one pass over them all (:meth:`cliques_falling_whole`).
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
        self.ones = counts.tolist()
        #: Columns whose names tie them to another searched column: a set can have ties only among these.
        self.tying = set(stem_ties([names[k] for k in np.flatnonzero(self.exclusive.any(axis=1))], all_names))
        self.pruned: dict[tuple, list[int]] = {}
        self.evidence: dict[tuple[int, int], float] = {}
        self.exclusivity: dict[tuple, float] = {}
        self.batch_bars: list[float] = [math.inf, math.inf]
        self.preferred: dict[tuple, tuple] = {}

    def prune(self, members: list[int], budget: Budget, found: bool = False) -> list[int]:
        """Drop, weakest first, members neither tied by name nor supported by the evidence.

        Pruning walks from the set through smaller sets, one member fewer at each step, and
        where a walk ends depends on the set it is at alone: every set met is memoised with
        that end, so the walks of overlapping cliques stop where they meet, and a set no member
        of which can stay (:meth:`falls_whole`) ends its walk at once.  Each weighing of a set
        is a node of the search's ``budget``, but a clique's first (``found``): the node of the
        clique search that found it paid for it.  Where none is left the set is dropped, and
        ``budget.exhausted`` says groups may be missing.
        """
        walked: list[tuple] = []
        members = list(members)
        while (key := tuple(members)) not in self.pruned:
            drop = None
            if len(members) >= 2:
                if not (found or budget.spend()):
                    return []
                found = False
                drop = self.weakest(members)
            if drop is None or drop == FALLS_WHOLE:
                self.pruned[key] = list(members) if drop is None and len(members) >= 2 else []
                break
            walked.append(key)
            members.remove(drop)
        end = self.pruned[key]
        for key in walked:
            self.pruned[key] = end
        return list(end)

    def weakest(self, members: list[int]) -> int | None:
        """The member :meth:`prune` drops next from ``members``, None where the set stands, or
        :data:`FALLS_WHOLE` where no member can stay."""
        names, ones = self.names, self.ones
        total = sum(ones[k] for k in members)
        may_tie = bool(self.tying) and sum(names[k] in self.tying for k in members) >= 2
        tied = stem_ties([names[k] for k in members], self.all_names) if may_tie else set()
        weighed = [
            (self.member_evidence(ones[k], total - ones[k]), names[k], k) for k in members if names[k] not in tied
        ]
        weak = [w for w in weighed if w[0] < self.threshold]
        if not weak:
            return None
        if len(weak) == len(members) and self.falls_whole(members, max(weak)[0]):
            return FALLS_WHOLE
        if self.weak_together([w[2] for w in weak], members):
            return None
        return min(weak)[2]

    def member_evidence(self, count: int, others: int) -> float:
        """:func:`~nblint.structure.groups.member_evidence` on this search's rows, memoised by its arguments."""
        key = (count, others)
        if key not in self.evidence:
            self.evidence[key] = member_evidence(count, others, self.n_rows)
        return self.evidence[key]

    def falls_whole(self, members: list[int], strongest: float) -> bool:
        """Whether no member of a set can stay: none tied by name (the caller found none), each weak, and no
        batch beyond chance.

        Dropping a member leaves the others fewer rows to avoid, so each one's evidence only
        falls; no smaller set has ties its names did not have; and a batch of ``k`` of the
        members is no more exclusive than the ``k`` with most ones (the evidence grows with
        every count).  So where every member is weak (``strongest``, the most evidence of one,
        is below the member threshold) and, for every ``k >= 2``, the ``k`` members with most
        ones fall short of the bar :meth:`weak_together` sets a batch of ``k`` with no rest,
        the walk of :meth:`prune` drops every member, and need not be taken.  Both sides keep a
        margin for rounding (:meth:`slack`), so that what holds in exact arithmetic holds for
        the floating-point comparisons the walk would make.
        """
        slack = self.slack(len(members))
        if strongest >= self.threshold - slack:
            return False
        n = self.n_rows
        log_all, total, log_avoid = math.lgamma(n + 1), 0, 0.0
        for k, count in enumerate(sorted((self.ones[m] for m in members), reverse=True), start=1):
            total += count
            if total > n:
                return False
            # groups.exclusivity_evidence of the k members with most ones, summed as it goes
            log_avoid += math.lgamma(n - count + 1) - log_all
            if k >= 2 and -(log_all - math.lgamma(n - total + 1) + log_avoid) >= self.batch_bar(k) - slack:
                return False
        return True

    def set_evidence(self, members: list[int]) -> float:
        """:func:`~nblint.structure.groups.exclusivity_evidence` of a set, memoised by its members (in order)."""
        key = tuple(members)
        if key not in self.exclusivity:
            self.exclusivity[key] = exclusivity_evidence([self.ones[k] for k in members], self.n_rows)
        return self.exclusivity[key]

    def slack(self, size):
        """The margin for rounding of :meth:`falls_whole` on sets of ``size`` members (:data:`ROUNDING` per
        log-gamma term of the evidence, at the scale of the largest)."""
        return ROUNDING * (size + 2) * (math.lgamma(self.n_rows + 1) + 1)

    def cliques_falling_whole(self, sets: list[list[int]]) -> np.ndarray:
        """:meth:`falls_whole` of each of many sets of two or more members (the cliques), in arrays."""
        if not sets:
            return np.zeros(0, dtype=bool)
        size = np.array([len(s) for s in sets], dtype=np.int64)
        n, width = self.n_rows, int(size.max())
        ones = np.zeros((len(sets), width))
        starts = np.cumsum(size) - size
        rows = np.repeat(np.arange(len(sets)), size)
        ones[rows, np.arange(int(size.sum())) - np.repeat(starts, size)] = self.counts[np.concatenate(sets)]
        total = ones.sum(axis=1)
        fits = total <= n  # (else two members share a row: infinite evidence, never weak)
        total = np.where(fits, total, n)
        log_all, log_rest = math.lgamma(n + 1), lgamma_array(n - ones + 1)
        free = n - (total[:, None] - ones)
        # groups.member_evidence of each member against the rest (0 for the padding, which has no ones)
        member = (log_all - log_rest) - (lgamma_array(free + 1) - lgamma_array(free - ones + 1))
        # groups.exclusivity_evidence of the k members with most ones, for every k (the padding last)
        most = -np.sort(-ones, axis=1)
        log_avoid = np.cumsum(lgamma_array(n - most + 1) - log_all, axis=1)
        top = -(log_all - lgamma_array(n - np.minimum(np.cumsum(most, axis=1), n) + 1) + log_avoid)
        slack = self.slack(size)
        k = np.arange(1, width + 1)
        bars = np.array([self.batch_bar(int(j)) if j >= 2 else math.inf for j in k])
        below = ((top < bars - slack[:, None]) | (k > size[:, None])).all(axis=1)
        falls = fits & (member.max(axis=1) < self.threshold - slack) & below
        return falls & ~self.may_tie(sets)

    def may_tie(self, sets: list[list[int]]) -> np.ndarray:
        """Whether names tie members of each set (:func:`~nblint.structure.names.stem_ties`), cheaply.

        Names tied in a set are tied among all the columns searched too, so only sets with two
        of those need their names read.
        """
        names, tying = self.names, self.tying
        if not tying:
            return np.zeros(len(sets), dtype=bool)
        return np.array(
            [
                sum(names[k] in tying for k in s) >= 2 and bool(stem_ties([names[k] for k in s], self.all_names))
                for s in sets
            ],
            dtype=bool,
        )

    def batch_bar(self, size: int) -> float:
        """The bar :meth:`weak_together` sets a batch of ``size`` members with no rest (memoised)."""
        while len(self.batch_bars) <= size:
            k = len(self.batch_bars)
            self.batch_bars.append(self.threshold + math.log(math.comb(max(self.tried, k), k)))
        return self.batch_bars[size]

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
        batch = self.set_evidence(members) - self.set_evidence(rest)
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
        evidence = self.set_evidence(members)
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
        cliques = maximal_cliques(self.exclusive, self.order, budget)
        standing = [c for c, falls in zip(cliques, self.cliques_falling_whole(cliques)) if not falls]
        pool = [p for p in (self.prune(c, budget, found=True) for c in standing) if p]
        chosen: list[ExclusiveSet] = []
        taken: set[int] = set()
        while pool:
            pool.sort(key=self.preference)
            best = pool[0]
            rivals = [p for p in pool[1:] if set(p) & set(best)]
            taken.update(best)
            chosen.append(self.chosen_set(best, rivals, taken))
            rest, kept = [], set()  # (the sets kept, for a look-up that does not grow with the pool)
            for p in pool[1:]:
                left = self.prune([k for k in p if k not in taken], budget)
                if left and tuple(left) not in kept:
                    kept.add(tuple(left))
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
