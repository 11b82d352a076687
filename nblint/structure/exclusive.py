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

import math
from dataclasses import dataclass, field

import numpy as np

from nblint.structure.budget import Budget
from nblint.structure.groups import Group, exclusivity_evidence, expected_cooccurrences, member_evidence
from nblint.structure.names import (
    candidate_stems,
    cross_stem,
    family_stems,
    group_stem,
    informative_stem,
    measured_per_level,
    name_stem,
    names_say_complete,
    shared_affix,
    stem_ties,
)

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


def maximal_cliques(adjacency: np.ndarray, order: list[int], budget: Budget) -> list[list[int]]:
    """Every maximal clique (two or more vertices) of a graph, by Bron-Kerbosch with pivoting.

    Vertices are visited in ``order`` (by name: the result does not depend on column
    order).  Each clique is returned sorted in that order.

    Notes
    -----
    The recursion of Bron-Kerbosch runs as a loop over an explicit stack, so a clique of K
    members (drop-first dummies: one branch per level) needs no recursion depth of K.  The
    sets are Python integers used as bit sets (bit r: the vertex of rank r), so a node's
    ``P`` and ``X`` are two numbers kept in its frame (``O(b)`` bits each) and the pivot, the
    vertex with most neighbours in ``P``, is a bit count per vertex of ``P | X``.
    """
    order = list(order)
    m = len(order)
    if not m:
        return []
    # Everything is indexed by rank (name order) from here: the first of equals is the first by name.
    A = np.asarray(adjacency, dtype=bool)[np.ix_(order, order)]
    neighbours = [int.from_bytes(np.packbits(row, bitorder="little").tobytes(), "little") for row in A]
    chosen: list[int] = []
    cliques: list[list[int]] = []
    # Each frame: [vertices to try, position, P, X, whether a child of tries[position] is open].
    stack: list[list] = []

    def enter(p: int, x: int) -> None:
        if not budget.spend():
            return
        if not p and not x:
            if len(chosen) >= 2:
                cliques.append(sorted(chosen))
            return
        # The first vertex with the most neighbours in P; none can have more than |P| (a vertex of X)
        # or |P| - 1 (one of P): the search stops at the first that reaches it (a clique: the first).
        most = p.bit_count() - (0 if x else 1)
        best, pivot = -1, 0
        for u in _members(p | x):
            degree = (neighbours[u] & p).bit_count()
            if degree > best:
                best, pivot = degree, u
                if degree >= most:
                    break
        stack.append([list(_members(p & ~neighbours[pivot])), 0, p, x, False])

    enter(sum(1 << v for v in range(m) if neighbours[v]), 0)
    while stack:
        frame = stack[-1]
        tries, position, p, x, open_child = frame
        if open_child:  # back from the child of tries[position]: the vertex moves from P to X
            v = tries[position]
            chosen.pop()
            frame[1], frame[2], frame[3], frame[4] = position + 1, p & ~(1 << v), x | (1 << v), False
            if budget.exhausted:
                break
            continue
        if position == len(tries):
            stack.pop()
            continue
        v = tries[position]
        chosen.append(v)
        frame[4] = True
        enter(p & neighbours[v], x & neighbours[v])
    return [[order[k] for k in clique] for clique in cliques]


def _members(bits: int):
    """The vertices of a bit set, in increasing order."""
    while bits:
        low = bits & -bits
        yield low.bit_length() - 1
        bits ^= low


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
    b = len(names)
    if b < 2 or n_rows == 0:
        return []
    counts = np.diag(cooccurrence).astype(np.int64)
    usable = (counts > 0) & (counts < n_rows)
    exclusive = (cooccurrence == 0) & usable[:, None] & usable[None, :]
    np.fill_diagonal(exclusive, False)
    order = sorted(range(b), key=lambda i: names[i])
    tried = int(exclusive.any(axis=1).sum())
    threshold = member_threshold(tried, min_evidence)
    all_names = list(all_names)

    # The pool is re-pruned after every choice, mostly into sets seen before: memoise by set.
    pruned: dict[tuple, list[int]] = {}
    preferred: dict[tuple, tuple] = {}

    def prune(members: list[int]) -> list[int]:
        """Drop, weakest first, members neither tied by name nor supported by the evidence."""
        key = tuple(members)
        if key not in pruned:
            pruned[key] = _prune(list(members))
        return list(pruned[key])

    def _prune(members: list[int]) -> list[int]:
        while len(members) >= 2:
            total = int(counts[members].sum())
            tied = stem_ties([names[k] for k in members], all_names)
            weak = [
                (member_evidence(int(counts[k]), total - int(counts[k]), n_rows), names[k], k)
                for k in members
                if names[k] not in tied
            ]
            weak = [w for w in weak if w[0] < threshold]
            if not weak or weak_together([w[2] for w in weak], members):
                break
            members.remove(min(weak)[2])
        return members if len(members) >= 2 else []

    def weak_together(weak: list[int], members: list[int]) -> bool:
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
        if informative_stem([names[k] for k in rest], all_names) is not None:
            return False
        batch = exclusivity_evidence(counts[members].tolist(), n_rows) - exclusivity_evidence(
            counts[rest].tolist(), n_rows
        )
        pickable = max(tried - len(rest), len(weak))
        return batch >= threshold + math.log(math.comb(pickable, len(weak)))

    def preference(members: list[int]):
        key = tuple(members)
        if key not in preferred:
            preferred[key] = _preference(members)
        return preferred[key]

    def _preference(members: list[int]):
        member_names = [names[k] for k in members]
        stem = informative_stem(member_names, all_names)
        evidence = exclusivity_evidence(counts[members].tolist(), n_rows)
        # Names pointing to different variables come last: same-stem sets take their columns first.
        crossing = cross_stem(member_names, all_names) is not None
        return (crossing, stem is None, -len(members), -round(evidence, 6), sorted(member_names))

    def undecided(best: list[int], rivals: list[list[int]]) -> bool:
        """Whether names say nothing of ``best`` and a rival as large is beyond chance too.

        Beyond chance as the search measures it: the member threshold, which every member of
        a pooled set has passed (or its batch, or its names).
        """
        mine = preference(best)
        crossing, nameless = mine[0], mine[1]
        if crossing or not nameless:
            return False  # (names speak: a stem names the set, or stems of two variables)
        return any(preference(r)[:3] == mine[:3] and -preference(r)[3] >= threshold for r in rivals)

    pool = [p for p in (prune(c) for c in maximal_cliques(exclusive, order, budget)) if p]
    chosen: list[ExclusiveSet] = []
    taken: set[int] = set()
    while pool:
        pool.sort(key=preference)
        best = pool[0]
        rivals = [p for p in pool[1:] if set(p) & set(best)]
        taken.update(best)
        found = ExclusiveSet(
            sorted(best, key=lambda k: names[k]),
            [int(counts[k]) for k in sorted(best, key=lambda k: names[k])],
            0,
            exclusivity_evidence(counts[best].tolist(), n_rows),
            informative_stem([names[k] for k in best], all_names),
        )
        if rivals:
            mine, theirs = preference(best), preference(rivals[0])
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
            if undecided(best, rivals):
                # Nameless sets of one size, each beyond chance, share a column: both exclusions are
                # real relations and only one can be the column's variable; the values cannot say
                # which, so the rivals' columns go with this set, which the caller does not report
                # as a group.
                found.undecided = True
                taken.update(k for r in rivals for k in r if preference(r)[:3] == mine[:3])
        chosen.append(found)
        rest = []
        for p in pool[1:]:
            left = prune([k for k in p if k not in taken])
            if left and left not in rest:
                rest.append(left)
        pool = rest
    return chosen


def near_sets(names, cooccurrence: np.ndarray, n_rows: int, max_share: float, budget: Budget) -> list[ExclusiveSet]:
    """Disjoint sets of 0/1 columns that sum to one on nearly every row, with a few overlaps.

    Two columns are *near* when no row has both, or when the rows that have both are
    few (at most ``max_share`` of the rows) and at most half of what independent
    columns would share.  A maximal clique of that graph with at least one
    overlapping pair is kept when, overlaps counted twice, it still covers nearly
    every row: ``sum s - 2 sum O_kl >= (1 - max_share) n``, a lower bound on the rows
    summing to exactly one.  Exclusive sets (no overlap) are :func:`dummy_sets`'.
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


#: A broken-group candidate: its members (table order), their counts of ones, whether the
#: names enumerate every level (then all-zero rows are breakage too), whether it is a
#: drop-first set (its all-zero rows are the reference level: only rows with two set break it),
#: and the stems of the one-hot groups written the same way, when they say no level was dropped.
BrokenCandidate = tuple[list[str], list[int], bool, bool, list[str]]


def _written_as(members, stem: str | None) -> str | None:
    """The separator every member's name puts after ``stem`` (``_`` for ``region_C``), or None."""
    if not stem or not all(len(m) > len(stem) and m.startswith(stem) for m in members):
        return None
    seps = {m[len(stem)] for m in members}
    sep = seps.pop() if len(seps) == 1 else None
    return None if sep is None or sep.isalnum() else sep


def encoded_whole(members, stem: str | None, onehot: list[Group], stemmed_sets) -> list[str]:
    """The one-hot groups written as ``members`` are, when they say the encoder kept every level.

    ``pd.get_dummies`` and ``OneHotEncoder`` encode every variable of a call the same way:
    ``region_C, region_M, ...`` and ``sex_F, sex_M`` summing to one on every row say the call
    kept every level, so an exclusive set written alike (``education_P, education_PS,
    education_S``) with a few all-zero rows lost its value there: no level was dropped.
    Only when the one-hot groups are the only other stem-named sets written that way (a
    drop-first set beside them would say the encoding differs by variable).

    Parameters
    ----------
    members : list of str
    stem : str or None
        The members' stem.
    onehot : list of Group
        The table's exact one-hot groups.
    stemmed_sets : list of (stem, members)
        The exclusive sets with a stem, ``members`` among them.
    """
    sep = _written_as(members, stem)
    if sep is None:
        return []
    alike = sorted(g.stem + sep for g in onehot if g.stem and _written_as(g.members, g.stem) == sep)
    others = [m for st, m in stemmed_sets if set(m) != set(members) and _written_as(m, st) == sep]
    return alike if alike and not others else []


def stem_family_columns(members: list[str], binary: list[str], all_names) -> list[str]:
    """The 0/1 columns outside ``members`` whose names carry the members' shared stem as their variable.

    ``reg_ne, reg_west`` beside ``reg_nc, reg_south``: the other levels of ``reg``.  A column
    under a longer stem of its own (``occupation_husb_*`` beside ``occupation_*``) is another
    variable and is left out.
    """
    stem = name_stem(members, period_dummies=False)
    if stem is None:
        return []
    family = []
    for name in binary:
        if name in members or not name.startswith(stem):
            continue  # cheap test first: the table's other columns do not carry the stem at all
        if name_stem(list(members) + [name], period_dummies=False) != stem:
            continue
        own = family_stems(name, all_names)
        if own and max(own, key=lambda x: (len(x), x)) != stem:
            continue
        family.append(name)
    return family


def level_family(names, binary) -> list[str]:
    """The columns whose names count in a stem's family when it is asked whether the stem names a set of 0/1 columns.

    A stem names a set of 0/1 columns when the columns carrying it are the set (and at most
    one more, :func:`~nblint.structure.names.informative_stem`).  Measurements that carry it
    beside mostly 0/1 columns (``occ_years``, ``occ_score`` beside ``occ_1 .. occ_14``) are
    attributes of the variable, not levels, and are left out of the count; where the stem's
    columns are mostly measurements (``pixel_*``, a few of them 0/1), they stay, and the stem
    names a family of measurements, not the levels of one variable.
    """
    names = list(names)
    stems_of = [candidate_stems(name) for name in names]  # (once per name: a vocabulary is thousands)
    carriers: dict[str, list[int]] = {}  # stem -> [0/1 carriers, other carriers]
    for name, stems in zip(names, stems_of):
        for stem in stems:
            carriers.setdefault(stem, [0, 0])[name not in binary] += 1
    kept = []
    for name, stems in zip(names, stems_of):
        if name in binary or not stems or any(carriers[st][0] <= carriers[st][1] for st in stems):
            kept.append(name)
    return kept


def affix_family_columns(members: list[str], binary: list[str], all_names) -> list[str]:
    """The 0/1 columns outside ``members`` that carry the members' shared prefix or suffix, when it names them.

    Levels written without a separator share a part of their names instead of a stem
    (``exhealth, vghealth, goodhealth`` beside ``poorhealth``).  The affix
    (:func:`~nblint.structure.names.shared_affix`) names a variable only when no more than
    one column of the table carries it beyond the family (as :func:`~nblint.structure.names.informative_stem`
    asks of a stem); then the other 0/1 columns carrying it are the variable's other levels.
    """
    affix = shared_affix(members)
    if affix is None:
        return []
    carriers = [name for name in all_names if _carries(name, affix)]
    family = [name for name in binary if name not in members and _carries(name, affix)]
    if not family or len(carriers) > len(members) + len(family) + 1:
        return []
    return family


def _carries(name: str, affix: str) -> bool:
    lowered = name.lower()
    return lowered.startswith(affix) or lowered.endswith(affix)


def multi_label_kin(members: list[str], binary: list[str], cooccurrence: np.ndarray, all_names) -> list[str]:
    """Columns outside ``members`` that carry their shared name stem and partly overlap one of them.

    ``disp.heinz32, disp.heinz41, disp.hunts32`` never share a row, but ``disp.heinz28``
    shares rows with two of them without lying within either: the ``disp`` flags are
    not exclusive, so an exclusive subset of them is not one encoded variable.  A
    column nested in a member (a subtype) or holding one (a union of levels) does not count.
    """
    stem = informative_stem(members, all_names)  # a stem of all columns (v1..v30) names no variable
    if stem is None:
        return []
    index = {name: k for k, name in enumerate(binary)}
    inside = [index[m] for m in members]
    counts = np.diag(cooccurrence)
    kin = []
    for c, name in enumerate(binary):
        if name in members or name_stem(list(members) + [name]) != stem:
            continue
        own = family_stems(name, all_names)
        if own and max(own, key=lambda x: (len(x), x)) != stem:
            continue  # a variable of its own under a longer stem (occupation_husb_* beside occupation_*)
        shared = cooccurrence[inside, c]
        partial = (shared > 0) & (shared < np.minimum(counts[inside], counts[c]))
        if partial.any():
            kin.append(name)
    return kin


def filling_kin(members: list[int], cooccurrence: np.ndarray, n_rows: int, max_share: float) -> list[int]:
    """Columns that take an exclusive set's all-zero rows, sharing far fewer rows with it than chance would.

    An exclusive set reads as a drop-first variable when its all-zero rows are a level of
    its own. When other 0/1 columns fill those rows instead (with them, at most
    ``max_share`` of the rows have none set) while meeting the set's members on a few
    rows, far fewer than independent columns would (at most half), the set and those
    columns are one family of flags that can be set together (multi-label: a plant with
    two dispersal modes), of which the set happens to be exclusive. Columns that never
    meet the set are left out (with it they are a larger exclusive set, the search's to
    find), as are columns within it. Indices are positions in ``cooccurrence``; the
    returned kin are empty when they leave more than ``max_share`` of the rows uncovered.
    """
    counts = np.diag(cooccurrence).astype(np.float64)
    inside = list(members)
    set_rows = float(counts[inside].sum())
    reference = n_rows - set_rows
    if reference <= max_share * n_rows:
        return []  # (nothing to fill: the set covers nearly every row itself)
    shared = cooccurrence[inside].sum(axis=0).astype(np.float64)
    expected = counts * set_rows / n_rows
    candidate = (shared > 0) & (shared <= 0.5 * expected) & (counts - shared > 0)
    candidate[inside] = False
    kin = np.flatnonzero(candidate).tolist()
    if not kin:
        return []
    # Rows the kin take outside the set, at least: their own rows there, less every row two of them share.
    pairs = cooccurrence[np.ix_(kin, kin)]
    outside = float((counts[kin] - shared[kin]).sum()) - float(np.triu(pairs, 1).sum())
    return kin if reference - outside <= max_share * n_rows else []


def crossing_kin(members: list[int], cooccurrence: np.ndarray, n_rows: int, min_evidence: float) -> list[int]:
    """Columns that exclude one member of an exclusive set beyond chance and cross another: the set is flags.

    The levels of one variable exclude each other and nothing else needs to: a column of
    another variable meets each level or is nested in one.  Exclusive flags of a world of
    facts (``feathers``, ``toothed``: no animal has both) sit among other facts that exclude
    some of them and overlap the rest: ``hair`` never meets ``feathers`` (beyond chance:
    ``min_evidence`` nats for the pair) but shares some rows with ``toothed`` and not others
    (a partial overlap, neither column within the other).  Such a column, when its
    exclusion of the member is a rival of the set's own (at least half the evidence the
    member brings to the set, and ``min_evidence``), says the set's exclusivity is one
    relation among many, not a partition into levels; a rare column of another variable
    that misses one level (no mining in the north-east) is far weaker than a level's
    exclusion of the other levels.  Indices are positions in ``cooccurrence``; members
    are not returned.
    """
    O = cooccurrence
    counts = np.diag(O).astype(np.int64)
    inside = list(members)
    usable = (counts > 0) & (counts < n_rows)
    usable[inside] = False
    rows = O[inside]  # (k, b): rows each member shares with each column
    smaller = np.minimum(counts[inside][:, None], counts[None, :])
    crosses = ((rows > 0) & (rows < smaller)).any(axis=0) & usable
    excludes = np.zeros(len(counts), dtype=bool)
    total = int(counts[inside].sum())
    for k, member in enumerate(inside):
        s = int(counts[member])
        # As strong a rival as the set's own members: at least half the evidence the member brings to the set.
        rival = max(min_evidence, 0.5 * member_evidence(s, total - s, n_rows))
        for column in np.flatnonzero((rows[k] == 0) & crosses).tolist():
            if exclusivity_evidence([s, int(counts[column])], n_rows) >= rival:
                excludes[column] = True
    return np.flatnonzero(excludes).tolist()


def candidate_sets(
    binary: list[str],
    cooccurrence: np.ndarray,
    onehot: list[Group],
    n_rows: int,
    names: list[str],
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
    idx = [i for i, name in enumerate(binary) if name not in in_group]
    leftover = [binary[i] for i in idx]
    O = cooccurrence[np.ix_(idx, idx)] if idx else np.zeros((0, 0), dtype=np.int64)
    ones = {name: int(O[k, k]) for k, name in enumerate(leftover)}
    broken: list[BrokenCandidate] = []
    dummy: list[Group] = []
    flags: list[Group] = []
    near = near_sets(leftover, O, n_rows, max_share, budget)
    claimed = {k for s in near for k in s.members}
    for s in near:
        members = sorted((leftover[k] for k in s.members), key=order.__getitem__)
        broken.append((members, [ones[m] for m in members], False, False, []))
    index = {name: k for k, name in enumerate(binary)}
    all_ones = np.diag(cooccurrence)
    binary_names = set(binary)
    rest = [k for k in range(len(leftover)) if k not in claimed]
    sub = O[np.ix_(rest, rest)]
    sets = dummy_sets([leftover[k] for k in rest], sub, n_rows, level_family(names, binary_names), budget, min_evidence)
    set_of = {leftover[rest[k]]: i for i, s in enumerate(sets) for k in s.members}
    # Columns a one-hot group or a near set holds cannot join a broken drop-first set.
    held = in_group | {leftover[k] for k in claimed}
    merged: set[int] = set()
    sets_stems = [(s.stem, [leftover[rest[k]] for k in s.members]) for s in sets if s.stem]
    for i, s in enumerate(sets):
        if i in merged:
            continue
        members = sorted((leftover[rest[k]] for k in s.members), key=order.__getitem__)
        counts = [ones[m] for m in members]
        if names_say_complete(members, name_stem(members)):
            broken.append((members, counts, True, False, []))
            continue
        evidence: dict = {
            "exclusivity_evidence": round(s.evidence, 3),
            "expected_cooccurrences_if_independent": round(expected_cooccurrences(counts, n_rows), 3),
        }
        variables = cross_stem(members, names)
        measured = None if variables else measured_per_level(members, s.stem, names, binary_names)
        family = [] if variables or measured else stem_family_columns(members, binary, names)
        by_affix = not family and not (variables or measured or s.stem)
        if by_affix:
            family = affix_family_columns(members, binary, names)
        if family and held.isdisjoint(family):
            # Same-stem columns share rows with the set, but far more rarely than independent
            # columns would: the set (with the other exclusive sets those columns are in) is one
            # variable whose group is broken on those rows (NB103), not groups of its own (NB102).
            others = sorted({set_of[k] for k in family if k in set_of} - {i})
            whole = set(members) | set(family) | {leftover[rest[k]] for j in others for k in sets[j].members}
            whole_list = sorted(whole, key=order.__getitem__)
            inside = [index[m] for m in whole_list]
            pairs = cooccurrence[np.ix_(inside, inside)]
            overlap = int((pairs.sum() - np.trace(pairs)) // 2)
            chance = expected_cooccurrences([int(all_ones[k]) for k in inside], n_rows)
            named_whole = informative_stem(whole_list, names) or (by_affix and shared_affix(whole_list) is not None)
            if named_whole and 0 < overlap <= 0.5 * chance:
                broken.append((whole_list, [int(all_ones[k]) for k in inside], False, True, []))
                merged.update(others)
                continue
        kin = [] if variables or measured else multi_label_kin(members, binary, cooccurrence, names)
        filling: list[str] = []
        crossing: list[str] = []
        if not (variables or measured or kin or s.stem):
            inside = [index[m] for m in members]
            filling = [binary[k] for k in filling_kin(inside, cooccurrence, n_rows, max_share)]
            filling = [] if held.intersection(filling) else filling
            if not filling and not shared_affix(members):
                crossing = [binary[k] for k in crossing_kin(inside, cooccurrence, n_rows, min_evidence)]
        if variables or kin or measured or filling or crossing:
            # Exclusive, but the names (or flags that fill the all-zero rows) say these are not the
            # levels of one variable.
            if variables:
                evidence["variables"] = list(variables)
            elif measured:
                evidence["measured_per_level"] = measured
            elif kin:
                evidence["overlapping_kin"] = sorted(kin, key=order.__getitem__)
            elif filling:
                evidence["filling_kin"] = sorted(filling, key=order.__getitem__)
            else:
                evidence["crossing_kin"] = sorted(crossing, key=order.__getitem__)
            if s.evidence >= min_evidence:
                flags.append(Group("dummy", members, counts, n_rows, None, evidence))
            continue
        if s.undecided:
            continue  # (a rival reading as good: no group is claimed, see ExclusiveSet.undecided)
        siblings = [] if sum(counts) < (1 - max_share) * n_rows else encoded_whole(members, s.stem, onehot, sets_stems)
        if siblings:
            # Every other variable written the same way keeps all its levels (one call of the same
            # encoder): the few rows with none of these set are missing values, not a reference level.
            broken.append((members, counts, False, False, siblings))
            continue
        if s.stem:
            evidence["shared_name_stem"] = s.stem
        if s.alternatives:
            evidence["ambiguous"] = True
            evidence["alternatives"] = [
                sorted((leftover[rest[k]] for k in alt), key=order.__getitem__) for alt in s.alternatives
            ]
            evidence["chosen_by"] = s.chosen_by
        dummy.append(Group("dummy", members, counts, n_rows, group_stem(members, names), evidence))
    return broken, dummy, flags
