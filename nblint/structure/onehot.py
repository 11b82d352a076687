"""One-hot groups: sets of 0/1 columns that sum to exactly one on every row.

Columns ``x_1..x_K`` (each 0/1) form a one-hot group exactly when every row has
one and only one of them set:

    sum_k x_rk = 1  for every row r.

With ``s_k = sum_r x_rk`` (the diagonal of the co-occurrence matrix ``O``) and
``O_kl`` the rows where both are 1, that holds if and only if the columns are
pairwise exclusive (``O_kl = 0`` for ``k != l``: no row has two) and their counts
add up to the number of rows (``sum_k s_k = n``: no row has none).  Both conditions
are integer equalities, so detection is exact.  Such a group makes
``[1, x_1..x_K]`` rank deficient: each member's variance inflation factor is
infinite (DESIGN.md section 7; footnote 3 of the Williams paper).

Several exact covers can share columns: a 0/1 column that is the union of two
levels (``weekend = sat + sun`` beside the weekday indicators), or a subtype whose
levels refine a main type's (states nested in regions: every union stands in for its
parts at once too, so the regions' own cover is found beside the mixed ones).  Every
cover is enumerated, then disjoint covers are chosen by a rule that does not depend on
column order: covers whose members share a name stem (or a prefix or suffix) first,
then the finer split (more levels), then the members' names.
A chosen group records the covers it was preferred to.  A cover whose names point to two
variables (:func:`~nblint.structure.names.cross_stem`), or that takes part of one named
variable's levels and completes it with a coarser column the other levels imply
(:func:`~nblint.structure.nesting.partial_family`), is a relation between variables, never a group;
where names say nothing, so is a cover of fine levels completed by a column that holds the
other levels (:func:`~nblint.structure.nesting.coarsened_cover`).
"""

from __future__ import annotations

import numpy as np

from nblint.core.records import Record
from nblint.structure.budget import Budget
from nblint.structure.groups import Group
from nblint.structure.names import (
    cross_stem,
    family_stems,
    group_stem,
    informative_stem,
    shared_affix,
)
from nblint.structure.nesting import nameless_nested, partial_family

#: Other covers listed in a group's evidence when the choice was ambiguous.
MAX_ALTERNATIVES = 3
#: Rows of the co-occurrence counts the exact cover search sums at once (bounds its temporaries).
_ROWS_AT_ONCE = 256


class GroupSearch(Record):
    """The one-hot groups of a table, and whether the search ran out of budget.

    (A class written out: a dataclass's generated methods cost a first check in a fresh process ~1 ms.)
    """

    __slots__ = ("onehot", "capped", "cross")

    def __init__(self, onehot: list[Group], capped: bool = False, cross: list[Group] | None = None) -> None:
        self.onehot = onehot
        self.capped = capped
        #: Exact covers whose names point to two or more variables (:func:`~nblint.structure.names.cross_stem`):
        #: a relation between variables (one nested in the other), reported as such, not as a group.
        self.cross: list[Group] = [] if cross is None else cross


def find_onehot_groups(
    binary, cooccurrence: np.ndarray, n_rows: int, table_order: dict[str, int], budget: Budget
) -> GroupSearch:
    """Every set of 0/1 columns that sums to exactly one on every row, chosen without regard to column order.

    Parameters
    ----------
    binary : sequence of str
        The complete 0/1 columns.
    cooccurrence : ndarray (b, b) of int
        Exact co-occurrence counts ``O``; ``diag(O)`` are the columns' counts of ones.
    n_rows : int
    table_order : dict
        Column name -> position in the table (only to list members in table order).
    budget : Budget
        Search steps; the search stops (``capped``) when it runs out.

    Notes
    -----
    A cover is a clique of the exclusivity graph whose counts add up to ``n``.  Every
    0/1 column constrains it: in an exact cover ``C`` each row has exactly one member
    set, so for every column ``k`` the rows where ``k`` is set split over the members,
    ``sum_{c in C} O_ck = s_k``.  A branch is pruned as soon as some column is
    over-covered by the members chosen, or can no longer be covered by the
    candidates left (``partial_k + sum_{j in P} O_jk < s_k``).  That prunes nested
    codings (a subtype's levels beside its main type's), whose exclusive sets are
    many, to the covers alone.  The search branches as Knuth's Algorithm X does: on
    the column still short of its count that the fewest candidates can help cover
    (one of them must be in the cover), ties by name; a candidate tried is left out
    of the branches after it, so each cover is found once.  A drop-first set, whose
    reference rows no candidate covers, is then dropped at its first member instead
    of after every subset of its levels was tried.
    """
    binary = list(binary)
    b = len(binary)
    if not b:
        return GroupSearch([])
    counts = np.diag(cooccurrence).astype(np.int64)
    usable = (counts > 0) & (counts < n_rows)
    order = sorted(range(b), key=lambda i: binary[i])
    rank = np.empty(b, dtype=np.int64)
    rank[order] = np.arange(b)
    # The search runs over the usable columns in name order: ties between constraints are broken
    # by name, so the nodes visited (and where a capped search stops) do not depend on column order.
    searched = np.array([i for i in order if usable[i]], dtype=np.int64)
    O = np.asarray(cooccurrence, dtype=np.int64)  # (no copy when it is int64 already)
    cover_search = _CoverSearch(O[np.ix_(searched, searched)], n_rows, budget)
    covers: list[tuple[int, ...]] = []

    def search(allowed: np.ndarray) -> None:
        for found in cover_search.covers(allowed[searched]):
            covers.append(tuple(sorted((int(searched[k]) for k in found), key=lambda k: rank[k])))

    # A column that is exactly the union of finer exclusive columns (weekend = sat + sun, a main
    # type = its subtypes) doubles the covers for every such column.  Covers of the finer columns
    # are searched first without them, then covers among what is left; each union then stands
    # for the mixed covers it would make.
    parts = union_parts(O, counts, usable)
    unions = np.array([bool(parts[i]) for i in range(b)], dtype=bool)
    search(usable & ~unions)
    taken = np.zeros(b, dtype=bool)
    for cover in covers:
        taken[list(cover)] = True
    search(usable & ~taken)
    mixed = [_mixed(cover, parts) for cover in covers] + [_mixed_all(cover, parts) for cover in covers]
    candidates = covers + list(dict.fromkeys(m for m in mixed if m is not None))
    groups, cross = _named_readings(candidates, binary, O, counts, usable, n_rows, table_order)
    return GroupSearch(groups, capped=budget.exhausted, cross=cross)


def _named_readings(
    candidates, binary, O: np.ndarray, counts: np.ndarray, usable: np.ndarray, n_rows: int, table_order
) -> tuple[list[Group], list[Group]]:
    """The groups chosen among the exact ``candidates`` covers, and the covers that relate two variables.

    (The last step of :func:`find_onehot_groups`: names decide between equally exact readings.)
    """
    # Names decide between equally exact readings: a cover whose names point to different
    # variables (a continent and the countries of the other continents) is a relation
    # between them, not a group; its columns stay free for the same-stem groups.  So is a cover
    # that takes part of one named variable's levels and a coarser column the others imply: it is
    # never chosen, but stays a rival the chosen groups record (weekend beside day_mon..day_fri).
    all_names = list(table_order)
    stems_of = [family_stems(name, all_names) for name in binary] if candidates else []
    named_apart = {c: cross_stem([binary[k] for k in c], all_names) for c in set(candidates)}
    nested = {c: partial_family(c, binary, stems_of, O, usable) for c in set(candidates) if named_apart[c] is None}
    crossing = {c: named_apart[c] or nested.get(c) for c in set(candidates)}
    rivals_only = {c for c, v in nested.items() if v is not None} | nameless_nested(nested, stems_of, O, counts, usable)
    groups = [
        _group(cover, alternatives, why, binary, counts, n_rows, table_order)
        for cover, alternatives, why in choose_covers(
            [c for c in candidates if named_apart[c] is None], binary, all_names, rivals_only
        )
    ]
    groups.sort(key=lambda g: table_order[g.members[0]])
    used = {m for g in groups for m in g.members}
    cross = []
    for cover in sorted(set(candidates), key=lambda c: sorted(binary[k] for k in c)):
        variables = crossing[cover]
        names = [binary[k] for k in cover]
        if variables is not None and used.isdisjoint(names):
            group = _group(cover, [], None, binary, counts, n_rows, table_order)
            group.evidence["variables"] = list(variables)
            cross.append(group)
            used.update(names)
    return groups, cross


class _CoverSearch:
    """Knuth's Algorithm X over co-occurrence counts, as a loop with an explicit stack.

    The columns are indexed in name order; ``O`` is their (u, u) co-occurrence block.  A
    node's state is kept once and updated as columns enter and leave it, never copied:

    * ``candidates``: the columns a cover may still take (exclusive of every chosen one);
    * ``reach = sum_{j in candidates} O_j``: what the candidates can still cover of each column;
    * ``able_k``: the candidates that share a row with column k (``O_jk > 0``);
    * ``covered = sum_{c in chosen} O_c``: what the chosen members cover of each column.

    A column leaves the candidates at most once along a path and comes back when the search
    backtracks past it, so a path costs ``O(u^2)`` and memory stays at ``O`` plus a few
    vectors and the stack (one index list per level): a one-hot group of K levels, whose
    every node has one branch, is K nodes of ``O(u)`` work, with no recursion to run out of.
    Rows of ``O`` are summed in blocks of :data:`_ROWS_AT_ONCE`, so no temporary is as large as ``O``.
    """

    def __init__(self, O: np.ndarray, n_rows: int, budget: Budget):
        self.O, self.n_rows, self.budget = O, n_rows, budget
        self.counts = np.diag(O).copy() if len(O) else np.zeros(0, dtype=np.int64)
        #: ``O_jk > 0`` as 0/1 bytes: a row adds to ``able`` without a temporary.
        self.meets = (O > 0).view(np.int8)

    def covers(self, allowed: np.ndarray) -> list[list[int]]:
        """Every exact cover (two or more members) among the ``allowed`` columns, in the order found."""
        O, counts, n = self.O, self.counts, self.n_rows
        meet = self.meets.view(bool)  # (symmetric: row k is column k)
        u = len(counts)
        self.candidates = np.zeros(u, dtype=bool)
        self.reach = np.zeros(u, dtype=np.int64)
        self.able = np.zeros(u, dtype=np.int64)
        self.candidate_total = 0
        self._include(np.flatnonzero(allowed))
        covered = np.zeros(u, dtype=np.int64)
        chosen: list[int] = []
        total = 0
        found: list[list[int]] = []
        # Each frame: [branch, position, columns the child took from the candidates (None: no child)].
        stack: list[list] = []

        def enter() -> None:
            """Visit the node of the current state: record a cover, or push its branches."""
            if total == n:
                if len(chosen) >= 2:
                    found.append(list(chosen))
                return
            if not self.candidates.any() or not self.budget.spend() or total + self.candidate_total < n:
                return
            deficit = counts - covered
            if (deficit < 0).any() or (self.reach < deficit).any():
                return  # a column over-covered, or one the candidates left can no longer cover
            # Every row of a column still short of its count needs a member among the candidates
            # that share rows with it: branch on the column with the fewest such candidates (the
            # first by name among them).  A candidate tried leaves the branches after it, so each
            # cover is found once.
            short = np.flatnonzero(deficit > 0)
            k = int(short[np.argmin(self.able[short])])
            branch = np.flatnonzero(self.candidates & meet[k]).tolist()
            stack.append([branch, 0, None])

        enter()
        while stack:
            frame = stack[-1]
            branch, position, taken = frame
            if taken is not None:  # back from the child of branch[position]
                j = branch[position]
                # The child's candidates come back, all but j: every cover with j was tried.
                self._include(taken[taken != j])
                covered -= O[j]
                total -= int(counts[j])
                chosen.pop()
                frame[1], frame[2] = position + 1, None
                if self.budget.exhausted:
                    break
                continue
            if position == len(branch):
                self._include(np.array(branch, dtype=np.int64))  # the tried candidates come back
                stack.pop()
                continue
            j = branch[position]
            if total + int(counts[j]) > n:
                self._exclude(np.array([j]))
                frame[1] = position + 1
                continue
            chosen.append(j)
            total += int(counts[j])
            covered += O[j]
            # The child's candidates: those exclusive of j (j itself shares its own rows).
            frame[2] = np.flatnonzero(self.candidates & meet[j])
            self._exclude(frame[2])
            enter()
        return found

    def _exclude(self, index: np.ndarray) -> None:
        """Take columns out of the candidates."""
        index = index[self.candidates[index]]
        self.candidates[index] = False
        self._add(index, -1)

    def _include(self, index: np.ndarray) -> None:
        """Put columns (back) among the candidates."""
        index = index[~self.candidates[index]]
        self.candidates[index] = True
        self._add(index, 1)

    def _add(self, index: np.ndarray, sign: int) -> None:
        add = np.add if sign > 0 else np.subtract
        if not len(index):
            return
        if len(index) == 1:  # (most moves are one column: its rows, added in place without temporaries)
            add(self.reach, self.O[index[0]], out=self.reach)
            add(self.able, self.meets[index[0]], out=self.able)
        else:
            for start in range(0, len(index), _ROWS_AT_ONCE):
                part = index[start : start + _ROWS_AT_ONCE]
                add(self.reach, self.O[part].sum(axis=0), out=self.reach)
                add(self.able, self.meets[part].sum(axis=0, dtype=np.int64), out=self.able)
        self.candidate_total += sign * int(self.counts[index].sum())


def union_parts(O: np.ndarray, counts: np.ndarray, usable: np.ndarray) -> list[tuple[int, ...]]:
    """For each column, the finer exclusive columns it is exactly the union of (empty when none).

    Column ``d`` lies within ``c`` when ``O_cd = s_d < s_c``.  ``c`` is their union when the
    outermost such columns are pairwise exclusive and their counts add up to ``s_c``.
    """
    b = len(counts)
    inside = (O == counts[None, :]) & (counts[None, :] < counts[:, None]) & usable[:, None] & usable[None, :]
    np.fill_diagonal(inside, False)
    parts: list[tuple[int, ...]] = []
    for c in range(b):
        within = np.flatnonzero(inside[c])
        if len(within) < 2:
            parts.append(())
            continue
        # Keep the outermost: drop columns that lie within another column of the set.
        outer = within[~inside[np.ix_(within, within)].any(axis=0)].tolist()
        pairs = O[np.ix_(outer, outer)]
        exclusive = (pairs - np.diag(np.diag(pairs))).sum() == 0
        parts.append(tuple(outer) if len(outer) >= 2 and exclusive and counts[outer].sum() == counts[c] else ())
    return parts


def _mixed(cover, parts) -> tuple[int, ...] | None:
    """The cover with one union column standing in for its parts, if it contains all the parts of one."""
    members = set(cover)
    for union, within in enumerate(parts):
        if within and members.issuperset(within):
            return tuple(sorted((members - set(within)) | {union}))
    return None


def _mixed_all(cover, parts) -> tuple[int, ...] | None:
    """The cover with every union whose parts it holds standing in for them, if there are two or more.

    States nested in regions: the regions whose states are all columns are unions of them, and
    a cover of one region's column and the other regions' states becomes the regions' own cover
    (one union at a time, :func:`_mixed`, never reaches it).
    """
    members = set(cover)
    replaced = 0
    changed = True
    while changed:
        changed = False
        for union, within in enumerate(parts):
            if within and union not in members and members.issuperset(within):
                members = (members - set(within)) | {union}
                replaced += 1
                changed = True
    return tuple(sorted(members)) if replaced >= 2 else None


def choose_covers(
    covers, names, all_names, rivals_only=frozenset()
) -> list[tuple[tuple[int, ...], list[tuple[int, ...]], str | None]]:
    """Disjoint covers, preferred in an order that does not depend on column order.

    Preference: members sharing a name stem that names them (not a larger family of
    columns, see :func:`~nblint.structure.names.informative_stem`) or a prefix or suffix
    they all carry (:func:`~nblint.structure.names.shared_affix`), then more members (a union of two levels, or a coarser variable, gives
    way to the finer split), then the sorted member names.

    ``rivals_only`` are covers never chosen (a relation between variables, see
    :func:`~nblint.structure.nesting.partial_family`) but recorded among the alternatives of those that were.

    Returns
    -------
    list of (cover, alternatives, why)
        ``alternatives``: covers sharing a column with this one that were not
        chosen; ``why``: what decided against them (None when there were none).
    """
    names = list(names)

    def preference(cover):
        members = [names[k] for k in cover]
        # Names that tie the members: a stem that names them, or a prefix or suffix they all carry
        # (``regionA, regionB``): such a cover wins over one across variables (issue 37).
        named = informative_stem(members, all_names) is not None or shared_affix(members) is not None
        return (not named, -len(cover), sorted(members))

    ranked = sorted(set(covers), key=preference)
    chosen: list[tuple[int, ...]] = []
    taken: set[int] = set()
    for cover in ranked:
        if cover not in rivals_only and not taken.intersection(cover):
            chosen.append(cover)
            taken.update(cover)
    result = []
    for cover in chosen:
        rivals = [c for c in ranked if c != cover and set(c) & set(cover)]
        why = None
        if rivals:
            mine, theirs = preference(cover), preference(rivals[0])
            why = (
                "the others mix part of one variable's levels with a coarser column (nesting)"
                if theirs < mine  # (only a cover never chosen ranks before a chosen one)
                else "names share a stem"
                if mine[0] != theirs[0]
                else "more levels (the finer split)"
                if mine[1] != theirs[1]
                else "member names (an arbitrary, fixed rule)"
            )
        result.append((cover, rivals[:MAX_ALTERNATIVES], why))
    return result


def _group(cover, alternatives, why, binary, counts, n_rows, table_order) -> Group:
    """The :class:`Group` of a chosen cover, members in table order."""
    members = sorted(cover, key=lambda k: table_order[binary[k]])
    names = [binary[k] for k in members]
    evidence = {"row_sum": 1, "rows_summing_to_one": n_rows}
    if alternatives:
        evidence["ambiguous"] = True
        evidence["alternatives"] = [sorted((binary[k] for k in alt), key=table_order.get) for alt in alternatives]
        evidence["chosen_by"] = why
    return Group("one-hot", names, [int(counts[k]) for k in members], n_rows, group_stem(names, table_order), evidence)
