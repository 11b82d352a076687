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

from bisect import bisect_left
from collections.abc import Mapping
from math import log

import numpy as np

from nblint.core.records import Record
from nblint.structure.groups import Group
from nblint.structure.leakage import one_class_chance
from nblint.structure.names import candidate_stems


class Nesting(Record):
    """Group ``fine`` nested in group ``coarse``: ``within`` maps each fine level to its coarse level (None: the reference).

    (Written out: a named tuple's class costs a fresh process ~0.4 ms to create; none reads this as a tuple.)
    """

    __slots__ = ("fine", "coarse", "within", "evidence")

    def __init__(self, fine: Group, coarse: Group, within: dict, evidence: float) -> None:
        self.fine = fine
        self.coarse = coarse
        self.within = within
        #: ``-log`` of the chance that levels of these sizes each fall within one coarse level, in nats.
        self.evidence = evidence


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


def nested_in_columns(
    groups: list[Group], binary: list[str], cooccurrence: np.ndarray, n_rows: int, min_evidence: float
) -> list[Nesting]:
    """Lone 0/1 columns (in no group) that are a function of a group: each of its levels within their set rows or out.

    Regimes and one non-democracy column: the military, monarchy and civilian (reference) rows all
    have it set, the democratic regimes' rows none.  The column is then a coarsening of the group,
    a two-level variable nested in the same way as :func:`nested_groups` (the column stands as a
    one-member drop-first ``coarse`` group, flagged ``lone_column`` in its evidence: its unset
    rows are its other level).  Every level of the group counts, a drop-first group's reference
    rows too; two or more must lie within the set rows (one is a level that happens to imply the
    column); the evidence against chance is :func:`nested_groups`'.  Vectorised over the columns
    for each group (a vocabulary of 0/1 words may sit beside a few groups).
    """
    index = {name: k for k, name in enumerate(binary)}
    counts = np.diag(cooccurrence).astype(np.int64)
    grouped = {m for g in groups for m in g.members}
    lone = np.array(
        [k for k, name in enumerate(binary) if name not in grouped and 0 < counts[k] < n_rows], dtype=np.int64
    )
    found: list[Nesting] = []
    if not len(lone):
        return found
    for fine in groups:
        if not all(m in index for m in fine.members):
            continue
        rows = np.array([index[m] for m in fine.members])
        shared = np.asarray(cooccurrence[np.ix_(rows, lone)], dtype=np.int64)  # (members, lone)
        sizes = counts[rows][:, None]
        inside = shared == sizes
        levels_inside = inside.sum(axis=0)
        ok = (inside | (shared == 0)).all(axis=0)
        if fine.kind == "dummy":  # the reference rows: all set or none
            reference_set = counts[lone] - shared.sum(axis=0)
            ok &= (reference_set == 0) | (reference_set == fine.reference_count)
            levels_inside = levels_inside + (reference_set == fine.reference_count)
        for j in np.flatnonzero(ok & (levels_inside >= 2)):
            column = binary[int(lone[j])]
            s = int(counts[lone[j]])
            coarse = Group("dummy", [column], [s], n_rows, evidence={"lone_column": True})
            level_rows = list(fine.counts) + ([fine.reference_count] if fine.kind == "dummy" else [])
            evidence = sum(-log(max(one_class_chance(r, [s, n_rows - s]), 1e-300)) for r in level_rows)
            if evidence >= min_evidence:
                within = {m: (column if inside[i, j] else None) for i, m in enumerate(fine.members)}
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


# --------------------------------------------------------------------------- nested columns

#: Column kinds a nested variable is read from: a fine categorical column, within a coarser
#: categorical or two-level one (regions within continents, regimes within democracy).
FINE_KINDS = ("categorical",)
COARSE_KINDS = ("categorical", "binary")
#: Candidate pairs checked row by row at most (the strongest first, by their evidence).
MAX_NESTING_PAIRS = 100


class ColumnNesting(Record):
    """Column ``fine`` nested in column ``coarse``: each value of ``fine`` goes with one value of ``coarse``.

    (Written out: a named tuple's class costs a fresh process ~0.4 ms to create; none reads this as a tuple.)
    """

    __slots__ = ("fine", "coarse", "fine_levels", "coarse_levels", "evidence")

    def __init__(self, fine: str, coarse: str, fine_levels: int, coarse_levels: int, evidence: float) -> None:
        self.fine = fine
        self.coarse = coarse
        self.fine_levels = fine_levels
        self.coarse_levels = coarse_levels
        #: ``-log`` of the chance that the fine levels each fall within one coarse level, in nats.
        self.evidence = evidence


def nesting_evidence(fine_counts, coarse_counts, enough: float = float("inf")) -> float:
    """``-log`` of the chance that levels of ``fine_counts`` rows each lie within one coarse level, in nats.

    Under independence the ``s_f`` rows of a fine level fall within one coarse level with
    probability ``sum_c C(s_c, s_f) / C(n, s_f)`` (:func:`~nblint.structure.leakage.one_class_chance`);
    the levels are independent draws, so their ``-log`` chances add up.  A level seen on one
    row lies within some level of anything (no evidence).  The sum stops once it reaches
    ``enough``.
    """
    total = 0.0
    for s in sorted(fine_counts, reverse=True):
        if s <= 1 or total >= enough:
            break
        total += -log(max(one_class_chance(int(s), coarse_counts), 1e-300))
    return total


def nesting_candidates(profile, kinds: Mapping[str, str], min_evidence: float) -> list[tuple[str, str, float]]:
    """Pairs ``(fine, coarse, evidence)`` that chance could not make nested, if the rows say they are.

    ``kinds`` maps the columns that may take part (no group member, code column or word of a
    document-term block) to their kind.  Both columns need a table of their levels and no
    missing value; the fine one more levels than the coarse one (fewer: it cannot be
    nested; as many: a recoding, :func:`~nblint.structure.duplicates.recode_candidates`), the
    coarse one two or more.  The evidence the nesting would carry
    (:func:`nesting_evidence`) is known from the level counts alone, so a pair chance
    could explain is never read.  The :data:`MAX_NESTING_PAIRS` strongest, by name within a tie.
    """
    counts: dict[str, list[int]] = {}
    # The features among ``kinds``, by name (the pairs are then tried by name: no order of ``kinds`` shows).
    for column in sorted(kinds.keys() & set(profile.features)):
        kind = kinds[column]
        if kind not in FINE_KINDS + COARSE_KINDS or profile.n_missing(column):
            continue
        levels = profile.levels(column)
        if levels is None:
            continue
        totals = [int(t) for t in levels.totals.tolist() if t > 0]
        if len(totals) >= 2:
            counts[column] = totals
    # The coarse columns by their number of levels: a fine column is tried only against those with
    # fewer, a prefix of this list (not every column against every other: a wide table of codes has
    # millions of pairs and few or none with fewer levels). The order tried does not show: the pairs
    # found are sorted at the end.
    coarse_by_size = sorted((len(counts[c]), c) for c in counts if kinds[c] in COARSE_KINDS)
    sizes = [size for size, _ in coarse_by_size]
    found = []
    for fine in sorted(counts):
        if kinds[fine] not in FINE_KINDS:
            continue
        for _, coarse in coarse_by_size[: bisect_left(sizes, len(counts[fine]))]:
            evidence = nesting_evidence(counts[fine], counts[coarse], enough=min_evidence)
            if evidence >= min_evidence:
                found.append((fine, coarse, evidence))
    found.sort(key=lambda item: (-item[2], item[0], item[1]))
    return found[:MAX_NESTING_PAIRS]


def nested_columns(profile, kinds: Mapping[str, str], row_checks, min_evidence: float) -> list[ColumnNesting]:
    """Columns nested in another, verified row by row; the nestings implied by two others left out.

    Parameters
    ----------
    profile : TableProfile
        The table's profile (level counts).
    kinds : dict
        Column -> kind of the columns that may take part (see :func:`nesting_candidates`).
    row_checks : callable
        The context's row pass (``row_checks(broken, codes, identical, pairs)``); its verdict
        ``functions`` says, per pair, whether each value of the first goes with one of the second.
    min_evidence : float
        Nats a nesting needs against chance (NB102's ``min-evidence``).

    Notes
    -----
    Nesting is transitive: countries within regions within continents make countries within
    continents too.  That third pair says nothing the other two do not, so a pair ``(a, c)`` is
    dropped when ``(a, b)`` and ``(b, c)`` are both found.
    """
    candidates = nesting_candidates(profile, kinds, min_evidence)
    if not candidates:
        return []
    verdicts = row_checks([], [], [], [(fine, coarse) for fine, coarse, _ in candidates])
    held = [c for c, ok in zip(candidates, verdicts.functions) if ok]
    pairs = {(fine, coarse) for fine, coarse, _ in held}
    within: dict[str, set[str]] = {}
    for fine, coarse in pairs:
        within.setdefault(fine, set()).add(coarse)
    found = []
    for fine, coarse, evidence in held:
        if any((middle, coarse) in pairs for middle in within[fine] - {coarse}):
            continue
        fine_levels = len(profile.levels(fine).keys)
        coarse_levels = len(profile.levels(coarse).keys)
        found.append(ColumnNesting(fine, coarse, fine_levels, coarse_levels, evidence))
    return sorted(found, key=lambda n: (n.fine, n.coarse))


# --------------------------------------------------------------------------- a cover completed by a coarse column


def partial_family(cover, binary, stems_of, O: np.ndarray, usable: np.ndarray) -> tuple[str, ...] | None:
    """The variables of a cover that takes part of one named variable's levels and completes it with another column.

    Let ``S`` be a stem some members carry and others do not, and ``F`` the 0/1 columns
    carrying ``S``.  When a column of ``F`` outside the cover is exclusive of every member
    carrying ``S`` (levels of one variable, as its name says), the cover still covers its
    rows exactly once, so only the members without ``S`` can: each row of that level lies
    within them.  The other members are then a coarser variable the left-out levels imply
    (``democracy_Non-democracy`` beside ``regime_Mixed Dem``, ``regime_Parliamentary Dem``,
    ``regime_Presidential Dem``, while ``regime_Military Dict`` and ``regime_Monarchy``
    lie within non-democracy): a relation between two variables made by nesting, not one
    encoded variable.  Implication is not membership (issue 37): ``S``'s own levels are
    left to form their group.

    Parameters
    ----------
    cover : tuple of int
        Indices into ``binary`` of an exact cover.
    binary : list of str
    stems_of : list of frozenset
        Each binary column's stems that another column of the table carries too
        (:func:`~nblint.structure.names.family_stems`).
    O : ndarray (b, b) of int
        Co-occurrence counts of ``binary``.
    usable : ndarray of bool
        Columns neither empty nor constant.

    Returns
    -------
    tuple of str or None
        The stem ``S`` and the variables of the other members (their shortest stem, or their
        name), sorted; None when no stem is split so.
    """
    inside = set(cover)
    for stem in sorted(frozenset().union(*(stems_of[k] for k in cover))):
        carriers = [k for k in cover if stem in stems_of[k]]
        others = [binary[k] for k in cover if stem not in stems_of[k]]
        if not others:
            continue  # every member carries it: the stem names the cover itself
        left_out = [j for j, stems in enumerate(stems_of) if j not in inside and usable[j] and stem in stems]
        if any(not O[j, carriers].any() for j in left_out):
            named = {min(candidate_stems(m), key=lambda x: (len(x), x), default=m) for m in others}
            return tuple(sorted(named | {stem}))
    return None


def coarsened_cover(cover, O: np.ndarray, counts: np.ndarray, usable: np.ndarray) -> list[int]:
    """The members of an exact cover that are coarser columns over finer levels of the table (empty when none).

    A column ``d`` lies within member ``c`` when ``O_cd = s_d < s_c``; ``c`` *holds* the
    outermost such columns outside the cover.  The cover is fine levels of one variable
    completed by coarser columns the remaining levels imply when fewer members hold columns
    than hold none, each holder's columns are pairwise exclusive, they are two or more in all,
    and one holder at least has rows none of its columns has (not an exact union: covers with
    unions standing in for their parts are enumerated apart).  Regimes beside the
    non-democracies (military, monarchy and civilian dictatorships within it), countries beside
    one continent (its countries within it).  The finer split, each holder's columns in its
    place, is exclusive too; implication is not membership, so the cover is a relation between
    two variables made by nesting and the finer split is left to the exclusive search. (With
    names, :func:`~nblint.structure.onehot.partial_family` says the same from the stems.)
    """
    members = list(cover)
    holders, held, exact = [], 0, True
    for c in members:
        inside = (O[c] == counts) & (counts < counts[c]) & usable
        inside[members] = False
        within = np.flatnonzero(inside)
        if not len(within):
            continue
        lies_within = (O[np.ix_(within, within)] == counts[within][None, :]) & (
            counts[within][None, :] < counts[within][:, None]
        )
        outer = within[~lies_within.any(axis=0)]
        pairs = O[np.ix_(outer, outer)]
        if (pairs - np.diag(np.diag(pairs))).any():
            return []  # columns within it that overlap: flags, not the levels of a finer split
        holders.append(int(c))
        held += len(outer)
        exact &= bool(counts[outer].sum() == counts[c])
    if not holders or 2 * len(holders) >= len(members) or held < 2 or exact:
        return []
    return holders


def nameless_nested(covers, stems_of, O: np.ndarray, counts: np.ndarray, usable: np.ndarray) -> set:
    """The covers whose names say nothing (no member shares a stem with another column) that :func:`coarsened_cover` reads as nested."""
    return {c for c in covers if not any(stems_of[k] for k in c) and coarsened_cover(c, O, counts, usable)}
