"""Drop-first dummy groups and broken one-hot groups: 0/1 columns that are (nearly) exclusive.

After the exact one-hot groups (:mod:`nblint.structure.onehot`) are taken out, the
0/1 columns left can still encode a variable:

* **dummy (drop-first) groups**: pairwise exclusive columns whose counts add up to
  less than ``n``; the rows with none set are the dropped reference level, however
  rare it is;
* **broken groups**: columns that sum to one on nearly every row but have two or
  more set on a few (overlaps), or none set on a few where the names say no level
  can have been dropped (they enumerate both levels, or every other variable written
  the same way is a complete one-hot group); and drop-first groups whose same-stem
  columns share a few rows, far fewer than chance: the whole stem family is the
  broken group, not an exclusive subset of it.

Exclusive flags happen by chance when they are rare, so a column joins a set only
with evidence (:func:`nblint.structure.groups.member_evidence`): the chance that
its ones all avoid the other members' rows must be small, corrected for the number
of columns tried, unless the names tie it to the others, or it is one of a batch of
levels too rare each to tell from chance that together are beyond it (the batch's joint
chance, corrected for the batches that could be picked).  Sets are the maximal
cliques of the exclusivity graph with their weak members pruned; disjoint sets are
then chosen by a rule that does not depend on column order: a shared name stem
first, then the finer split, then the stronger evidence, then the names.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from nblint.structure.budget import Budget
from nblint.structure.cliques import maximal_cliques
from nblint.structure.dummy_search import DummySearch, ExclusiveSet
from nblint.structure.groups import Group, expected_cooccurrences
from nblint.structure.kin import (
    affix_family_columns,
    crossing_kin,
    encoded_whole,
    filling_kin,
    level_family,
    multi_label_kin,
    stem_family_columns,
)
from nblint.structure.names import (
    cross_stem,
    group_stem,
    informative_stem,
    measured_per_level,
    name_stem,
    names_say_complete,
    shared_affix,
)


def dummy_sets(
    names, cooccurrence: np.ndarray, n_rows: int, all_names, budget: Budget, min_evidence: float
) -> list[ExclusiveSet]:
    """Disjoint sets of pairwise exclusive 0/1 columns that are likely one variable each.

    Parameters
    ----------
    names : sequence of str
        The candidate 0/1 columns (complete, not in a one-hot or broken group).
    cooccurrence : ndarray (b, b) of int
        Their exact co-occurrence counts.
    n_rows : int
    all_names : sequence of str
        Every column of the table (a name stem counts only if it tells columns apart).
    budget : Budget
    min_evidence : float
        Nats of exclusivity evidence a set needs (caps what one member needs).

    Returns
    -------
    list of ExclusiveSet
        Each with every member supported (by the evidence or by a shared stem); the
        caller decides which sets are strong enough to report.
    """
    names = list(names)
    if len(names) < 2 or n_rows == 0:
        return []
    return DummySearch(names, cooccurrence, n_rows, tuple(all_names), min_evidence).choose(budget)


def near_sets(names, cooccurrence: np.ndarray, n_rows: int, max_share: float, budget: Budget) -> list[ExclusiveSet]:
    """Disjoint sets of 0/1 columns that sum to one on nearly every row, with a few overlaps.

    Two columns are *near* when no row has both, or when the rows that have both are
    few (at most ``max_share`` of the rows) and at most half of what independent
    columns would share.  A maximal clique of that graph with at least one
    overlapping pair is kept when, overlaps counted twice, it still covers nearly
    every row: ``sum s - 2 sum O_kl >= (1 - max_share) n``, a lower bound on the rows
    summing to exactly one.  Exclusive sets (no overlap) are :func:`dummy_sets`'.  Columns
    that cannot be in such a clique are left out of the graph first (:func:`can_cover`).
    """
    names = list(names)
    b = len(names)
    if b < 2 or n_rows == 0:
        return []
    O = cooccurrence
    s = np.diag(O).astype(np.float64)
    usable = (s > 0) & (s < n_rows)
    expected = np.outer(s, s) / n_rows
    near = ((O == 0) | ((O <= max_share * n_rows) & (O <= 0.5 * expected))) & usable[:, None] & usable[None, :]
    np.fill_diagonal(near, False)
    order = sorted(range(b), key=lambda i: names[i])
    found = []
    least = (1 - max_share) * n_rows
    covering = can_cover(near, s, least)
    near &= np.outer(covering, covering)
    for clique in maximal_cliques(near, order, budget):
        if s[clique].sum() < least:
            continue  # (overlaps only take away from what the clique covers: it cannot qualify)
        pairs = O[np.ix_(clique, clique)]
        overlap = int((pairs.sum() - np.trace(pairs)) // 2)
        covered = int(s[clique].sum()) - 2 * overlap
        if overlap and covered >= least:
            found.append((-covered, sorted(names[k] for k in clique), clique, overlap))
    chosen: list = []
    taken: set[int] = set()
    for _, _, clique, overlap in sorted(found):
        if taken.isdisjoint(clique):
            taken.update(clique)
            chosen.append(ExclusiveSet(list(clique), [int(s[k]) for k in clique], overlap))
    return chosen


def can_cover(near: np.ndarray, s: np.ndarray, least: float) -> np.ndarray:
    """The columns that can be in a clique of ``near`` whose columns have ``least`` ones in all.

    A clique's ones are at most a column's own and its neighbours' (``s`` each): a column
    whose neighbourhood falls short is in no such clique, and without it its neighbours'
    neighbourhoods shrink, so columns are dropped until every one left has enough.  Every
    clique with ``least`` ones keeps its columns, and is maximal among those left as it was
    among all (a column dropped could not have joined it); so the search of
    :func:`near_sets` visits that smaller graph alone, and finds the same sets.
    """
    alive = np.asarray(near.any(axis=1))
    reach = s + near @ np.where(alive, s, 0.0)
    short = alive & (reach < least)
    while short.any():
        alive &= ~short
        reach -= near[:, short] @ s[short]
        short = alive & (reach < least)
    return alive


#: A broken-group candidate: its members (table order), their counts of ones, whether the
#: names enumerate every level (then all-zero rows are breakage too), whether it is a
#: drop-first set (its all-zero rows are the reference level: only rows with two set break it),
#: and the stems of the one-hot groups written the same way, when they say no level was dropped.
BrokenCandidate = tuple[list[str], list[int], bool, bool, list[str]]


def candidate_sets(
    binary: list[str],
    cooccurrence: np.ndarray,
    onehot: list[Group],
    n_rows: int,
    names: Sequence[str],
    order: dict[str, int],
    max_share: float,
    min_evidence: float,
    budget: Budget,
) -> tuple[list[BrokenCandidate], list[Group], list[Group]]:
    """Broken-group, dummy-group and exclusive-flag candidates among the 0/1 columns outside the one-hot groups.

    First the sets that sum to one on nearly every row (at most ``max_share`` rows
    off: :func:`near_sets`), then, among the columns left, the exclusive sets
    (:func:`dummy_sets`).  An exclusive set whose names enumerate every level
    (``smoker_yes``/``smoker_no``), or written as the table's complete one-hot groups
    are (:func:`encoded_whole`), is a broken-group candidate, since no level can be
    missing; so is a stem family (or levels named by a shared prefix or suffix, ``exhealth, poorhealth``) of which the set is an exclusive part, when the
    family's columns share rows far more rarely than chance (a drop-first group with
    a few rows that have two set).  Exclusive sets whose names say they are not one
    variable (two stems, one flag per alternative of a measured choice, same-stem
    flags that overlap at chance) are exclusive flags; the others are dummy-group
    candidates with their evidence, which row checks then confirm or drop.

    Parameters
    ----------
    binary : list of str
        The table's complete 0/1 columns, in the order of ``cooccurrence``.
    cooccurrence : ndarray (b, b)
        Their co-occurrence counts ``O`` (diagonal: counts of ones).
    onehot : list of Group
        The exact one-hot groups found already; their members are not searched.
    n_rows : int
    names : list of str
        Every column of the table (for the name stems).
    order : dict
        Column -> position in the table: members are listed in that order.
    max_share, min_evidence : float
        The ``max-violation-share`` and ``min-evidence`` settings.
    budget : Budget
        The table's search budget, shared with the other searches.
    """
    in_group = {m for g in onehot for m in g.members}
    search = CandidatePass(binary, cooccurrence, in_group, n_rows, names, order, max_share, min_evidence)
    search.near_and_exclusive(budget)
    for i, s in enumerate(search.sets):
        if i not in search.merged:
            search.classify(i, s, onehot)
    return search.broken, search.dummy, search.flags


class CandidatePass:
    """:func:`candidate_sets`' one pass: the near sets, then each exclusive set read as broken, flags or a dummy group.

    Indices: ``leftover`` are the 0/1 columns outside the one-hot groups (``O`` their
    co-occurrences), ``rest`` the positions in ``leftover`` of those outside the near sets, which
    the exclusive sets' members index.
    """

    def __init__(self, binary, cooccurrence, in_group, n_rows, names, order, max_share, min_evidence):
        self.binary, self.cooccurrence, self.n_rows, self.names, self.order = binary, cooccurrence, n_rows, names, order
        self.max_share, self.min_evidence, self.in_group = max_share, min_evidence, in_group
        idx = [i for i, name in enumerate(binary) if name not in in_group]
        self.leftover = [binary[i] for i in idx]
        self.O = cooccurrence[np.ix_(idx, idx)] if idx else np.zeros((0, 0), dtype=np.int64)
        self.ones = {name: int(self.O[k, k]) for k, name in enumerate(self.leftover)}
        self.index = {name: k for k, name in enumerate(binary)}
        self.all_ones = np.diag(cooccurrence)
        self.binary_names = set(binary)
        self.broken: list[BrokenCandidate] = []
        self.dummy: list[Group] = []
        self.flags: list[Group] = []
        self.merged: set[int] = set()

    def near_and_exclusive(self, budget: Budget) -> None:
        """The near sets (broken-group candidates), then the exclusive sets among the columns they leave."""
        leftover, order, ones = self.leftover, self.order, self.ones
        near = near_sets(leftover, self.O, self.n_rows, self.max_share, budget)
        claimed = {k for s in near for k in s.members}
        for s in near:
            members = sorted((leftover[k] for k in s.members), key=order.__getitem__)
            self.broken.append((members, [ones[m] for m in members], False, False, []))
        self.rest = rest = [k for k in range(len(leftover)) if k not in claimed]
        sub = self.O[np.ix_(rest, rest)]
        family = level_family(self.names, self.binary_names)
        self.sets = sets = dummy_sets([leftover[k] for k in rest], sub, self.n_rows, family, budget, self.min_evidence)
        self.set_of = {leftover[rest[k]]: i for i, s in enumerate(sets) for k in s.members}
        # Columns a one-hot group or a near set holds cannot join a broken drop-first set.
        self.held = self.in_group | {leftover[k] for k in claimed}
        self.sets_stems = [(s.stem, [leftover[rest[k]] for k in s.members]) for s in sets if s.stem]

    def classify(self, i: int, s: ExclusiveSet, onehot: list[Group]) -> None:
        """Exclusive set ``i``: a broken-group candidate, exclusive flags, or a dummy-group candidate."""
        leftover, rest, order, n_rows, names = self.leftover, self.rest, self.order, self.n_rows, self.names
        members = sorted((leftover[rest[k]] for k in s.members), key=order.__getitem__)
        counts = [self.ones[m] for m in members]
        if names_say_complete(members, name_stem(members)):
            self.broken.append((members, counts, True, False, []))
            return
        evidence: dict = {
            "exclusivity_evidence": round(s.evidence, 3),
            "expected_cooccurrences_if_independent": round(expected_cooccurrences(counts, n_rows), 3),
        }
        variables = cross_stem(members, names)
        measured = None if variables else measured_per_level(members, s.stem, names, self.binary_names)
        if not (variables or measured) and self.broken_family(i, s, members):
            return
        if self.flag_evidence(s, members, variables, measured, evidence):
            # Exclusive, but the names (or flags that fill the all-zero rows) say these are not the
            # levels of one variable.
            if s.evidence >= self.min_evidence:
                self.flags.append(Group("dummy", members, counts, n_rows, None, evidence))
            return
        if s.undecided:
            return  # (a rival reading as good: no group is claimed, see ExclusiveSet.undecided)
        whole = sum(counts) >= (1 - self.max_share) * n_rows
        siblings = encoded_whole(members, s.stem, onehot, self.sets_stems) if whole else []
        if siblings:
            # Every other variable written the same way keeps all its levels (one call of the same
            # encoder): the few rows with none of these set are missing values, not a reference level.
            self.broken.append((members, counts, False, False, siblings))
            return
        if s.stem:
            evidence["shared_name_stem"] = s.stem
        if s.alternatives:
            evidence["ambiguous"] = True
            evidence["alternatives"] = [
                sorted((leftover[rest[k]] for k in alt), key=order.__getitem__) for alt in s.alternatives
            ]
            evidence["chosen_by"] = s.chosen_by
        self.dummy.append(Group("dummy", members, counts, n_rows, group_stem(members, names), evidence))

    def broken_family(self, i: int, s: ExclusiveSet, members: list[str]) -> bool:
        """Whether the set is an exclusive part of a named family that shares rows far more rarely than chance (added as broken)."""
        binary, names, order = self.binary, self.names, self.order
        family = stem_family_columns(members, binary, names)
        by_affix = not family and not s.stem
        if by_affix:
            family = affix_family_columns(members, binary, names)
        if not family or not self.held.isdisjoint(family):
            return False
        # Same-stem columns share rows with the set, but far more rarely than independent
        # columns would: the set (with the other exclusive sets those columns are in) is one
        # variable whose group is broken on those rows (NB103), not groups of its own (NB102).
        others = sorted({self.set_of[k] for k in family if k in self.set_of} - {i})
        whole = set(members) | set(family) | {self.leftover[self.rest[k]] for j in others for k in self.sets[j].members}
        whole_list = sorted(whole, key=order.__getitem__)
        inside = [self.index[m] for m in whole_list]
        pairs = self.cooccurrence[np.ix_(inside, inside)]
        overlap = int((pairs.sum() - np.trace(pairs)) // 2)
        chance = expected_cooccurrences([int(self.all_ones[k]) for k in inside], self.n_rows)
        named_whole = informative_stem(whole_list, names) or (by_affix and shared_affix(whole_list) is not None)
        if named_whole and 0 < overlap <= 0.5 * chance:
            self.broken.append((whole_list, [int(self.all_ones[k]) for k in inside], False, True, []))
            self.merged.update(others)
            return True
        return False

    def flag_evidence(self, s: ExclusiveSet, members: list[str], variables, measured, evidence: dict) -> bool:
        """Whether names or other flags say the set is flags, not one variable's levels (the reason added to ``evidence``)."""
        binary, cooccurrence, order = self.binary, self.cooccurrence, self.order
        kin = [] if variables or measured else multi_label_kin(members, binary, cooccurrence, self.names)
        filling: list[str] = []
        crossing: list[str] = []
        if not (variables or measured or kin or s.stem):
            inside = [self.index[m] for m in members]
            filling = [binary[k] for k in filling_kin(inside, cooccurrence, self.n_rows, self.max_share)]
            filling = [] if self.held.intersection(filling) else filling
            if not filling and not shared_affix(members):
                crossing = [binary[k] for k in crossing_kin(inside, cooccurrence, self.n_rows, self.min_evidence)]
        if variables:
            evidence["variables"] = list(variables)
        elif measured:
            evidence["measured_per_level"] = measured
        elif kin:
            evidence["overlapping_kin"] = sorted(kin, key=order.__getitem__)
        elif filling:
            evidence["filling_kin"] = sorted(filling, key=order.__getitem__)
        elif crossing:
            evidence["crossing_kin"] = sorted(crossing, key=order.__getitem__)
        else:
            return False
        return True
