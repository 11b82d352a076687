"""The structure of a table, verified: candidate groups checked against what the rows say.

The searches of :mod:`nblint.structure` find candidates from counts alone: one-hot groups
(exact), broken groups (sets summing to one on nearly every row), exclusive sets that may
be drop-first dummy groups, code columns whose level counts equal a group's, columns that
may be identical.  One pass over the rows then says which hold
(:mod:`nblint.analysis.rowchecks`); :func:`verify` turns the candidates and that pass's
verdicts into the :class:`Structure` the rules read.

Groups are named by their members (a tuple, in table order): a code column decodes the
group with those members, whatever record the search made for it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from nblint.core.records import Record
from nblint.structure.budget import Budget
from nblint.structure.duplicates import code_column_candidates, identical_candidates
from nblint.structure.groups import Group
from nblint.structure.names import group_stem
from nblint.structure.nesting import Nesting, nested_groups, nested_in_columns
from nblint.structure.onehot import GroupSearch
from nblint.structure.searched import exclusive_candidates

#: A group's name: its members, in table order.
Members = tuple[str, ...]


class BrokenGroup(Record):
    """A set of 0/1 columns that is one-hot on most rows but not all (NB103).

    (Written out: a named tuple's class costs a fresh process ~0.4 ms to create; none reads this as a tuple.)
    """

    __slots__ = (
        "members",
        "counts",
        "n_rows",
        "rows_zero",
        "rows_multi",
        "examples",
        "stem",
        "complete_names",
        "kind",
        "siblings",
    )

    def __init__(
        self,
        members: list[str],
        counts: list[int],
        n_rows: int,
        rows_zero: int,
        rows_multi: int,
        examples: list[int],
        stem: str | None,
        complete_names: bool,
        kind: str,
        siblings: list,
    ) -> None:
        self.members = members
        self.counts = counts
        self.n_rows = n_rows
        self.rows_zero = rows_zero
        self.rows_multi = rows_multi
        self.examples = examples
        self.stem = stem
        #: The names enumerate every level (``smoker_yes``/``smoker_no``): the breakage is certain.
        self.complete_names = complete_names
        #: A drop-first set (``"dummy"``): its all-zero rows are the reference level, and only the
        #: rows with two or more set break it.
        self.kind = kind
        #: Stems of the one-hot groups written the same way (one encoder call that kept every level):
        #: why all-zero rows are breakage and not a dropped reference level.
        self.siblings = siblings

    @property
    def violations(self) -> int:
        """Rows that break the group: not summing to one (a drop-first set: summing to two or more)."""
        return self.rows_multi if self.kind == "dummy" else self.rows_zero + self.rows_multi


class Structure(Record):
    """The column structure of a table (see :mod:`nblint.structure`).

    (Written out: a named tuple's class costs a fresh process ~0.4 ms to create; none reads this as a tuple.)
    """

    __slots__ = (
        "onehot",
        "dummy",
        "broken",
        "code_columns",
        "identical",
        "capped",
        "flags",
        "missing_together",
        "missing_together_codes",
        "nested",
    )

    def __init__(
        self,
        onehot: list[Group],
        dummy: list[Group],
        broken: list[BrokenGroup],
        code_columns: dict[str, Group],
        identical: list[list[str]],
        capped: bool,
        flags: list[Group],
        missing_together: list[Group],
        missing_together_codes: dict[str, Group],
        nested: list[Nesting],
    ) -> None:
        self.onehot = onehot
        self.dummy = dummy
        self.broken = broken
        #: Code column -> the group it carries the same information as.
        self.code_columns = code_columns
        #: Sets of columns identical in every row.
        self.identical = identical
        self.capped = capped
        #: Exclusive 0/1 columns whose names say they are not one variable (NB107): flags of different
        #: variables, a variable nested in another, or an exclusive subset of flags that overlap.
        self.flags = flags
        #: Groups among 0/1 columns missing on the same rows, on the rows where they are known
        #: (:mod:`nblint.structure.missing_together`): reported by NB101/NB102, but kept out of
        #: :attr:`groups`, whose users (impact, the recommended model) read every row.
        self.missing_together = missing_together
        #: Code column -> the group among :attr:`missing_together` it carries the same information as
        #: (NB105), kept apart from :attr:`code_columns` as those groups are from :attr:`groups`.
        self.missing_together_codes = missing_together_codes
        #: Groups nested in coarser groups (each fine level within one coarse level): NB105.
        self.nested = nested

    @property
    def groups(self) -> list[Group]:
        return self.onehot + self.dummy


def members_of(group: Group) -> Members:
    """The name of ``group``: its members, in table order."""
    return tuple(group.members)


def decoding_columns(code_candidates: list[tuple[str, Group]], decodes: Sequence[bool]) -> dict[str, Members]:
    """Code column -> the members of the group it decodes, where the rows say it does.

    Candidates are visited by column name; a column that decodes two groups keeps the first.
    """
    found: dict[str, Members] = {}
    for (column, group), ok in sorted(zip(code_candidates, decodes), key=lambda item: item[0][0]):
        if ok and column not in found:
            found[column] = members_of(group)
    return found


def verified_dummies(
    candidates: list[Group], decoders: dict[str, Members], n_rows: int, min_evidence: float
) -> list[Group]:
    """The exclusive sets kept as drop-first dummy groups (not yet in table order).

    A set is kept when its exclusivity is beyond chance (``min_evidence`` nats), its names
    share a telling stem, or a column of the table decodes it; its evidence says which.
    """
    dummy = []
    for candidate in candidates:
        decoded_by = sorted(c for c, members in decoders.items() if members == members_of(candidate))
        strong = candidate.evidence["exclusivity_evidence"] >= min_evidence
        if not (strong or "shared_name_stem" in candidate.evidence or decoded_by):
            continue
        evidence = {"reference_rows": n_rows - sum(candidate.counts), **candidate.evidence}
        if not strong:
            evidence.pop("exclusivity_evidence")
        if decoded_by:
            evidence["decoded_by"] = decoded_by[0]
        dummy.append(Group("dummy", candidate.members, candidate.counts, n_rows, candidate.stem, evidence))
    return dummy


def verified_broken(
    candidates: list, row_sums: Sequence[Any], n_rows: int, names: Sequence[str], max_share: float
) -> list[BrokenGroup]:
    """The broken-group candidates the rows confirm (not yet in table order).

    ``candidates`` are :data:`nblint.structure.exclusive.BrokenCandidate` tuples, ``row_sums``
    the row pass's :class:`~nblint.analysis.rowchecks.RowSums` of each.  A candidate is broken
    where some rows break it and either its names say no level can be missing or the breaking
    rows are at most ``max_share`` of the table.
    """
    broken = []
    for (members, counts, complete, reference, siblings), sums in zip(candidates, row_sums):
        zero, multi = sums.zero, sums.multi
        bad = multi if reference else zero + multi  # a drop-first set's all-zero rows are its reference level
        examples = sums.multi_examples if reference else sums.examples
        if bad and (complete or bad <= max_share * n_rows):
            stem = group_stem(members, names)
            kind = "dummy" if reference else "one-hot"
            broken.append(BrokenGroup(members, counts, n_rows, zero, multi, examples, stem, complete, kind, siblings))
    return broken


def verify(
    onehot: list[Group],
    dummy_candidates: list[Group],
    broken_candidates: list,
    missing_numeric: list[Group],
    code_candidates: list[tuple[str, Group]],
    verdicts: Any,
    n_rows: int,
    names: Sequence[str],
    max_share: float,
    min_evidence: float,
) -> tuple[list[Group], list[BrokenGroup], dict[str, Group], dict[str, Group]]:
    """The dummy groups, broken groups and code columns the row pass confirms.

    Parameters
    ----------
    onehot : list of Group
        The exact one-hot groups (kept as found).
    dummy_candidates, broken_candidates : list
        The exclusive sets and the near one-hot sets to verify.
    missing_numeric : list of Group
        The groups among 0/1 columns missing together (numeric members only): their code
        columns are kept apart.
    code_candidates : list of (str, Group)
        The (code column, group) pairs the row pass checked.
    verdicts : nblint.analysis.rowchecks.RowVerdicts
        What the rows say: ``decodes`` per code candidate, ``row_sums`` per broken candidate.

    Returns
    -------
    dummy, broken, code_columns, missing_codes
        ``code_columns`` maps a code column to the one-hot or dummy group it decodes,
        ``missing_codes`` to the missing-together group it decodes.
    """
    decoders = decoding_columns(code_candidates, verdicts.decodes)
    dummy = verified_dummies(dummy_candidates, decoders, n_rows, min_evidence)
    by_members = {members_of(g): g for g in missing_numeric}
    missing_codes = {c: by_members[m] for c, m in decoders.items() if m in by_members}
    by_members = {members_of(g): g for g in onehot + dummy}
    code_columns = {c: by_members[m] for c, m in decoders.items() if m in by_members}
    broken = verified_broken(broken_candidates, verdicts.row_sums, n_rows, names, max_share)
    return dummy, broken, code_columns, missing_codes


def in_table_order(groups: list, order: dict[str, int]) -> list:
    """``groups`` (records with ``members``) sorted by their first member's position in the table."""
    return sorted(groups, key=lambda g: order[g.members[0]])


def identical_sets(
    found: list[list[str]], by_chance: Callable[[list[list[str]]], list[bool]], order: dict[str, int]
) -> list:
    """The sets of identical columns that are not chance (``by_chance``: each set's verdict), by their first column's position."""
    kept = [cols for cols, chance in zip(found, by_chance(found)) if not chance]
    return sorted(kept, key=lambda cols: order[cols[0]])


def verified_structure(
    profile,
    search: GroupSearch,
    searched: tuple[list[str], np.ndarray],
    terms: frozenset[str],
    identical_by_chance: Callable[[list[list[str]]], list[bool]],
    missing_together: Callable[[], tuple[list[Group], list[Group]]],
    row_checks: Callable[..., Any],
    order: dict[str, int],
    max_share: float,
    min_evidence: float,
    budget: Budget,
) -> Structure:
    """Groups, broken groups, code columns and identical columns of a table, verified.

    Order of the search: exact one-hot groups (``search``); then sets that sum to one on
    nearly every row with a few overlaps (broken groups); then exclusive sets (drop-first
    dummy groups, whatever the share of the reference level), among the 0/1 columns
    ``searched`` (:func:`~nblint.structure.searched.searched_binary`).  An exclusive set is
    kept as a dummy group when its exclusivity is beyond chance (``min-evidence`` nats), its
    names share a telling stem, or a column of the table decodes it; when the names say no
    level can be missing (``smoker_yes``/``smoker_no``), its all-zero rows are breakage instead.

    Parameters
    ----------
    terms, identical_by_chance
        The words of a document-term block, and whether each set of identical columns among
        them is chance (:meth:`nblint.analysis.termblock.TermBlock.identical_by_chance`).
    missing_together : callable
        Returns the groups among 0/1 columns missing together, and the flags among them
        (called after the exclusive-set searches: they share the search ``budget`` in that order).
    row_checks : callable
        ``row_checks(broken, codes, identical)``: the one pass over the rows that verifies
        the candidates (:class:`~nblint.analysis.rowchecks.RowVerdicts`).
    max_share, min_evidence : float
        The ``max-violation-share`` and ``min-evidence`` settings.
    """
    names = tuple(profile.names)  # (a tuple: the name searches keep their stems' counts by its identity)
    binary, cooccurrence = searched
    broken_candidates, dummy_candidates, flags = exclusive_candidates(
        profile.gram, profile.n_rows, search, binary, cooccurrence, names, order, terms, max_share, min_evidence, budget
    )
    missing, missing_flags = missing_together()
    flags += missing_flags
    # (only numeric members: yes/no words are 0/1 for the group searches, not for the row checks)
    missing_numeric = [g for g in missing if not any(m in profile.text for m in g.members)]
    code_candidates = code_column_candidates(profile, search.onehot + dummy_candidates + missing_numeric)
    identical_exact, identical_pending = identical_candidates(profile)
    checks = row_checks([(c[0], c[1]) for c in broken_candidates], code_candidates, identical_pending)
    dummy, broken, code_columns, missing_codes = verify(
        search.onehot,
        dummy_candidates,
        broken_candidates,
        missing_numeric,
        code_candidates,
        checks,
        profile.n_rows,
        names,
        max_share,
        min_evidence,
    )
    dummy = in_table_order(dummy, order)
    nested = nested_groups(search.onehot + dummy, binary, cooccurrence, min_evidence) if binary else []
    nested += (
        nested_in_columns(search.onehot + dummy, binary, cooccurrence, profile.n_rows, min_evidence) if binary else []
    )
    nested.sort(key=lambda x: (order[x.fine.members[0]], order[x.coarse.members[0]]))
    return Structure(
        search.onehot,
        dummy,
        in_table_order(broken, order),
        code_columns,
        identical_sets(identical_exact + checks.identical, identical_by_chance, order),
        budget.exhausted,
        in_table_order(flags, order),
        missing,
        missing_codes,
        nested,
    )
